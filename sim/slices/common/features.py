"""Observations as arrays: per-game feature planes, seen from the observing seat.

Every game's observation is one ``float32`` Box (``docs/envs.md`` tables each plane). Seats are
*relative*: "seat +k" is the seat k places after the observer in turn order, so the same
position looks the same to whoever sits at it (as PettingZoo's chess flips the board for
black). Numbers that are not a place on the board (counts, scores, whose turn it is) are
constant planes, as in AlphaZero's inputs. The random stream (future dice, the stand-in
judge's draws) is never shown.

- Catego ``(13, C)``: per column (C columns): each relative seat's entry, the label, complete
  columns won by the own side / another side / void, then constant rows.
- Kaito ``(25, 6, 6)``: own / opponent tiles by kind, opening tiles, the Kaito, then counts.
- Katoiz: Stapeltoren ``(13, 30)`` per tile kind; 3-set ``(23, 6, 6)``; Stapeltje-four
  ``(28, 6, 6)``.
- Katamino ``(C, X, Y)`` over the action codec's anchor box: target and covered cells per
  layer (own board; a duel also the opponent's), pieces left, phase.
- Kozo ``(82, 6, 6)``: the settled tower as half-cube voxels (24 half-layers of polycubes and
  of balance cubes), then supply and turn planes.
- Kataboom ``(36, 20, 20)``: the settled structure as unit voxels (16 layers) in the codec's
  window, then supply and turn planes.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

F32 = np.float32


class Features:
    """One game's observation: ``shape``, ``low``/``high`` bounds, ``__call__(state, seat)``."""

    shape: tuple[int, ...] = ()

    def __init__(self, game: Any, config: Any, codec: Any) -> None:
        self.game = game
        self.config = config
        self.codec = codec
        self.players = int(getattr(config, "players", 2))
        self.high = np.ones(self.shape, dtype=F32)

    def space(self) -> Any:
        """The Gymnasium Box of these observations."""
        from gymnasium import spaces

        return spaces.Box(np.zeros(self.shape, F32), self.high, dtype=F32)

    def relative(self, seat: int, k: int) -> int:
        """The seat ``k`` places after ``seat``."""
        return (seat + k) % self.players

    def __call__(self, state: Any, seat: int) -> np.ndarray:
        raise NotImplementedError


def _rows(high: np.ndarray, rows: slice, value: float) -> None:
    high[rows] = value


# ---- Catego ---------------------------------------------------------------------------------


class CategoFeatures(Features):
    """Rows 0-3 entries (0 = empty) of seats +0..+3; 4 label; 5 won by the own side; 6 won by
    another side; 7 void; constant rows 8 roll sum (0 at the end), 9 own turn, 10 own side's
    score, 11 best other side's score, 12 turns played / total."""

    def __init__(self, game: Any, config: Any, codec: Any) -> None:
        self.columns = tuple(config.columns)
        self.shape = (13, len(self.columns))
        super().__init__(game, config, codec)
        h = self.high
        h[0:4] = 12
        h[4] = max(self.columns)
        h[8] = 12
        h[10:12] = config.points_at_stake

    def __call__(self, state: Any, seat: int) -> np.ndarray:
        from games.catego import column_results, side_scores

        cfg = state.config
        out = np.zeros(self.shape, F32)
        rows = state.rows
        for k in range(min(4, cfg.players)):
            out[k] = [v or 0 for v in rows[self.relative(seat, k)]]
        out[4] = self.columns
        mine = cfg.side_of(seat)
        for label, side in column_results(state).items():
            j = self.columns.index(label)
            out[7 if side is None else 5 if side == mine else 6, j] = 1
        if state.roll is not None:
            out[8] = sum(state.roll)
        out[9] = float(self.game.current_player(state) == seat)
        scores = side_scores(state)
        out[10] = scores[mine]
        out[11] = max(s for i, s in enumerate(scores) if i != mine)
        out[12] = state.turn / (cfg.players * len(self.columns))
        return out


# ---- Kaito ----------------------------------------------------------------------------------

KAITO_KINDS = ("S", "H", "3", "2", "1")
KAITO_COUNTS = (7, 3, 2, 2, 3)


class KaitoFeatures(Features):
    """Planes 0-4 own tiles (Katana, Kabuto, 3-, 2-, 1-Mon), 5-9 the opponent's, 10 opening
    tiles, 11 the Kaito; constant planes 12-16 opponent tiles the observer holds (counts by
    kind), 17-21 own tiles the opponent holds, 22 own turn, 23 remove phase, 24 place phase."""

    shape = (25, 6, 6)

    def __init__(self, game: Any, config: Any, codec: Any) -> None:
        super().__init__(game, config, codec)
        for i, n in enumerate(KAITO_COUNTS):
            self.high[12 + i] = n
            self.high[17 + i] = n

    def __call__(self, state: Any, seat: int) -> np.ndarray:
        out = np.zeros(self.shape, F32)
        flat = out.reshape(25, 36)
        mine = "RB"[seat]
        for cell, tile in enumerate(state.board):
            if tile is None:
                continue
            if tile == "O":
                flat[10, cell] = 1
            else:
                flat[(0 if tile[0] == mine else 5) + KAITO_KINDS.index(tile[1]), cell] = 1
        if state.kaito is not None:
            flat[11, state.kaito] = 1
        for base, held in ((12, state.held[seat]), (17, state.held[1 - seat])):
            for tile in held:
                out[base + KAITO_KINDS.index(tile[1])] += 1
        out[22] = float(self.game.current_player(state) == seat)
        out[23] = float(state.phase == "remove")
        out[24] = float(state.phase == "place")
        return out


# ---- Katoiz ---------------------------------------------------------------------------------


def _kind_planes(out: np.ndarray, base: int, cell: int, tile: int) -> None:
    """Colour (5), shape (3) and size (2) one-hots of ``tile`` at ``cell`` from plane ``base``
    (a blank tile has only its colour)."""
    from games.katoiz.components import TILES

    c, s, z = TILES[tile]
    flat = out.reshape(out.shape[0], -1)
    flat[base + c, cell] = 1
    if s >= 0:
        flat[base + 5 + s, cell] = 1
        flat[base + 8 + z, cell] = 1


@cache
def _fitting_kinds(roll: tuple[int, int] | None) -> np.ndarray:
    """1 for each picture kind showing ``roll`` (tiles 0..29 are one of each kind)."""
    from games.katoiz.components import fits

    return np.array([float(fits(t, roll)) for t in range(30)], dtype=F32)


class StapeltorenFeatures(Features):
    """Per tile kind (30 columns: colour x shape x size): row 0 supply count; rows 1-4 how
    many stacks of seat +0..+3 have this kind on top; rows 5-8 the highest such stack of seat
    +0..+3; row 9 the kind shows the dice (all 1 without dice); constant rows 10 own turn,
    11 first round (starting tiles), 12 passes in a row / players."""

    shape = (13, 30)

    def __init__(self, game: Any, config: Any, codec: Any) -> None:
        super().__init__(game, config, codec)
        self.high[0] = 2
        self.high[1:9] = config.supply

    def __call__(self, state: Any, seat: int) -> np.ndarray:
        from sim.slices.common.codecs import tile_kind

        out = np.zeros(self.shape, F32)
        for t in state.supply:
            out[0, tile_kind(t)] += 1
        for k in range(min(4, self.players)):
            for stack in state.stacks[self.relative(seat, k)]:
                j = tile_kind(stack[-1])
                out[1 + k, j] += 1
                out[5 + k, j] = max(out[5 + k, j], len(stack))
        out[9] = 1.0 if state.starting else _fitting_kinds(state.roll)
        out[10] = float(self.game.current_player(state) == seat)
        out[11] = float(state.starting)
        out[12] = min(1.0, state.passes / self.players)
        return out


class ThreeSetFeatures(Features):
    """Planes 0-9 the tile on each cell (colour 5, shape 3, size 2); 10 a tile lies there; 11
    own discs; 12-14 discs of seats +1..+3; 15 a free tile showing the roll; constant planes
    16-19 tiles taken by seat +0..+3 (count / 36), 20 extra turn, 21 forfeits in a row / 3,
    22 own turn."""

    shape = (23, 6, 6)

    def __call__(self, state: Any, seat: int) -> np.ndarray:
        from games.katoiz.components import fits

        out = np.zeros(self.shape, F32)
        flat = out.reshape(23, 36)
        for cell, tile in enumerate(state.board):
            if tile < 0:
                continue
            _kind_planes(out, 0, cell, tile)
            flat[10, cell] = 1
            d = state.discs[cell]
            if d >= 0:
                flat[11 + (d - seat) % self.players, cell] = 1
            elif fits(tile, state.roll):
                flat[15, cell] = 1
        for k in range(min(4, self.players)):
            out[16 + k] = len(state.piles[self.relative(seat, k)]) / 36
        out[20] = float(state.bonus)
        out[21] = min(1.0, state.forfeits / 3)
        out[22] = float(self.game.current_player(state) == seat)
        return out


class StapeltjeFeatures(Features):
    """Planes 0-9 the top tile of each stack (colour, shape, size); 10 stack height / 8; 11 the
    tile moved last; 12 a top tile that shows the roll (or the ladder colour); 13 the own
    position; constant planes 14-17 home stack heights of seat +0..+3 / target; 18-27 the own
    home stack's top tile (colour, shape, size)."""

    shape = (28, 6, 6)

    def __init__(self, game: Any, config: Any, codec: Any) -> None:
        super().__init__(game, config, codec)
        self.high[10] = 45 / 8
        self.high[14:18] = 45 / max(1, config.height)

    def __call__(self, state: Any, seat: int) -> np.ndarray:
        from games.katoiz.components import fits
        from games.katoiz.stapeltje import geo

        out = np.zeros(self.shape, F32)
        flat = out.reshape(28, 36)
        req = state.requirement()
        for cell, stack in enumerate(state.stacks):
            if not stack:
                continue
            top = stack[-1]
            _kind_planes(out, 0, cell, top)
            flat[10, cell] = len(stack) / 8
            if top == state.last:
                flat[11, cell] = 1
            if fits(top, req):
                flat[12, cell] = 1
        for cell in geo(state.config).pos[seat]:
            if cell < 36:
                flat[13, cell] = 1
        for k in range(min(4, self.players)):
            out[14 + k] = len(state.homes[self.relative(seat, k)]) / max(1, state.config.height)
        home = state.homes[seat]
        if home:
            from games.katoiz.components import TILES

            c, s, z = TILES[home[-1]]
            out[18 + c] = 1
            if s >= 0:
                out[23 + s] = 1
                out[26 + z] = 1
        return out


def _katoiz(game: Any, config: Any, codec: Any) -> Features:
    cls = {"stapeltoren": StapeltorenFeatures, "3-set": ThreeSetFeatures}.get(
        config.type, StapeltjeFeatures
    )
    return cls(game, config, codec)


# ---- Katamino -------------------------------------------------------------------------------


class KataminoFeatures(Features):
    """Over the anchor box (X, Y, Z layers): planes ``z`` target cells of the observer's
    board, ``Z + z`` covered cells of it, ``2Z + z`` covered cells of the opponent's board
    (duels; zero in solo); then constant planes: per piece (18, catalogue order) how many the
    observer has left to place, how many the opponent has left, whether it lies on the table
    (duels: may be given); phase (replace, draft, give, race, over); own turn; own score,
    opponent's score (duels: duels won / 4)."""

    PHASES = ("replace", "draft", "give", "race", "over")

    def __init__(self, game: Any, config: Any, codec: Any) -> None:
        places = codec.places
        self.box = places.table.box
        self.pieces = places.table.pieces
        x, y, z = self.box
        self.z = z
        self.base = 3 * z
        self.n_pieces = len(self.pieces)
        self.shape = (self.base + 3 * self.n_pieces + len(self.PHASES) + 3, x, y)
        super().__init__(game, config, codec)
        self.high[self.base : self.base + 2 * self.n_pieces] = 2
        self.high[-2:] = 2  # duels won (a tie-break adds one) / 4

    def _board(self, out: np.ndarray, plane: int, cells: Any) -> None:
        x, y, z = self.box
        for cx, cy, cz in cells:
            if 0 <= cx < x and 0 <= cy < y and 0 <= cz < z:
                out[plane + cz, cx, cy] = 1

    def _pieces(self, out: np.ndarray, block: int, names: Any) -> None:
        for n in names:
            out[self.base + block * self.n_pieces + self.pieces.index(n)] += 1

    def __call__(self, state: Any, seat: int) -> np.ndarray:
        from games.katamino.game import family

        out = np.zeros(self.shape, F32)
        fam: Any = family(state.mode)
        tail = self.base + 3 * self.n_pieces
        if hasattr(state, "seats"):  # a duel
            from games.katamino import Target

            for k, plane in ((0, self.z), (1, 2 * self.z)):
                p = state.seats[(seat + k) % 2]
                if k == 0 and (p.size or state.phase != "draft"):
                    self._board(out, 0, Target.parse(fam.target(p)).cells)
                self._board(out, plane, fam.covered(p))
                self._pieces(out, k, fam.remaining(p))
            if state.phase in ("give", "draft"):
                from games.katamino.duel import DRAFT

                kind = DRAFT[len(state.gifts)] if state.phase == "draft" else "P"
                self._pieces(out, 2, fam.table(state, kind))
            out[tail + self.PHASES.index(state.phase)] = 1
            out[tail + 6] = state.scores[seat] / 4
            out[tail + 7] = state.scores[1 - seat] / 4
        else:
            if not state.outcome:
                self._board(out, 0, fam.stage_target(state).cells)
                self._board(out, self.z, (c for _, cells in state.placed for c in cells))
                self._pieces(out, 0, fam.remaining(state))
                out[tail + 3] = 1
            else:
                out[tail + 4] = 1
            out[tail + 6] = state.stage / max(1, len(fam.challenge_of(state).stages))
        out[tail + 5] = float(self.game.current_player(state) == seat)
        return out


# ---- Kozo and Kataboom ----------------------------------------------------------------------


def voxels(lo: np.ndarray, hi: np.ndarray, origin: tuple[float, float], step: float,
           shape: tuple[int, int, int]) -> np.ndarray:  # fmt: skip
    """``(Z, X, Y)`` occupancy of boxes ``lo``/``hi`` (n, 3): a voxel is 1 when its centre lies
    inside a box; voxels are ``step`` wide from ``origin`` in x, y and from 0 up in z."""
    nx, ny, nz = shape
    out = np.zeros((nz, nx, ny), dtype=bool)
    if not len(lo):
        return out
    lo_i = np.ceil((lo - (*origin, 0.0)) / step - 0.5).astype(int)
    hi_i = np.floor((hi - (*origin, 0.0)) / step - 0.5).astype(int)
    for (x0, y0, z0), (x1, y1, z1) in zip(lo_i, hi_i, strict=True):
        x0, y0, z0 = max(x0, 0), max(y0, 0), max(z0, 0)
        x1, y1, z1 = min(x1, nx - 1), min(y1, ny - 1), min(z1, nz - 1)
        if x0 <= x1 and y0 <= y1 and z0 <= z1:
            out[z0 : z1 + 1, x0 : x1 + 1, y0 : y1 + 1] = True
    return out


class KozoFeatures(Features):
    """Half-cube voxels over the 3 x 3 base (6 x 6 columns): planes 0-23 polycubes in
    half-layers 0..23 (12 cube edges), 24-47 balance cubes; constant planes 48-59 pieces in
    the supply (catalogue order), 60-71 the piece taken (touch-move), 72 cube phase, 73 own
    turn, 74 round / rounds, 75-80 tile points earned this round by seat +0..+5 / 10,
    81 face-down size demanded / 5."""

    LAYERS = 24

    def __init__(self, game: Any, config: Any, codec: Any) -> None:
        self.pieces = codec.pieces
        self.shape = (2 * self.LAYERS + 2 * len(self.pieces) + 10, 6, 6)
        super().__init__(game, config, codec)
        self.high[-7:-1] = 10

    def __call__(self, state: Any, seat: int) -> np.ndarray:
        from games.kozo.rules import tower_blocks

        out = np.zeros(self.shape, F32)
        blocks = tower_blocks(state.config, state.tower)
        grid = (6, 6, self.LAYERS)
        if blocks.size:
            bal = blocks.balance
            out[: self.LAYERS] = voxels(blocks.lo[~bal], blocks.hi[~bal], (0.0, 0.0), 0.5, grid)
            out[self.LAYERS : 2 * self.LAYERS] = voxels(blocks.lo[bal], blocks.hi[bal],
                                                        (0.0, 0.0), 0.5, grid)  # fmt: skip
        b = 2 * self.LAYERS
        n = len(self.pieces)
        for p in state.supply:
            out[b + self.pieces.index(p)] = 1
        if state.touched is not None:
            out[b + n + self.pieces.index(state.touched)] = 1
        t = b + 2 * n
        out[t] = float(state.phase == "cube")
        out[t + 1] = float(self.game.current_player(state) == seat)
        out[t + 2] = state.round / max(1, state.config.rounds)
        for k in range(min(6, self.players)):
            if state.earned:
                out[t + 3 + k] = state.earned[self.relative(seat, k)] / 10
        out[t + 9] = (state.next_size or 0) / 5
        return out


class KataboomFeatures(Features):
    """Unit voxels in the codec's window (x, y from -10, 20 x 20 columns): planes 0-15 the
    settled structure in layers 0..15; constant planes 16-31 pieces in the supply (16), 32 own
    turn, 33 nudges made this turn, 34 pieces placed / 16, 35 the last piece was the
    observer's."""

    LAYERS = 16

    def __init__(self, game: Any, config: Any, codec: Any) -> None:
        from sim.slices.common.codecs import KATABOOM_HALF

        self.half = KATABOOM_HALF
        self.pieces = codec.pieces
        w = 2 * self.half
        self.shape = (self.LAYERS + len(self.pieces) + 4, w, w)
        super().__init__(game, config, codec)
        self.high[-3] = max(1, config.nudges)

    def __call__(self, state: Any, seat: int) -> np.ndarray:
        from games.kataboom.geometry import structure_blocks

        out = np.zeros(self.shape, F32)
        blocks = structure_blocks([(it.name, it.rot, it.pose) for it in state.structure])
        w = 2 * self.half
        if blocks.size:
            origin = (-float(self.half), -float(self.half))
            out[: self.LAYERS] = voxels(blocks.lo, blocks.hi, origin, 1.0, (w, w, self.LAYERS))
        b = self.LAYERS
        for p in state.supply:
            out[b + self.pieces.index(p)] = 1
        t = b + len(self.pieces)
        out[t] = float(self.game.current_player(state) == seat)
        out[t + 1] = min(state.nudged, self.high[t + 1, 0, 0])
        out[t + 2] = sum(1 for it in state.structure if it.seat >= 0) / len(self.pieces)
        out[t + 3] = float(state.last_placer == seat)
        return out
