"""Animated glTF (``.glb``) of a physics run: one node per piece, keyframed poses.

``tablesim record SCENE|LOG -o fall.glb`` writes what :mod:`tablesim.sim.view.film` would draw, as a
file any glTF viewer (Blender, three.js, the glTF sample viewers) plays: every piece is a node
with its face-culled mesh (:func:`tablesim.meshes.polycube.polycube_mesh`) and colour; each dynamic
piece has a translation and a rotation channel with one keyframe per film frame (frame k at
``k / fps`` seconds of film shows the World at ``k * slow / fps`` seconds of physics, the same
instants as the GIF). Static pieces (the Kozo board, pedestals) are plain nodes.

Axes: the pieces live under one root node ``table`` whose rotation (-90 degrees about x)
turns the table's z-up frame into glTF's y-up one, so the keyframes are the World's own poses
(metres; quaternions x, y, z, w as PyBullet and glTF both order them), unchanged.

The GLB container (glTF 2.0, section 4.4) is written directly: a JSON chunk and one binary
buffer, 4-byte aligned; nothing is half written (a temporary file renamed at the end).
"""

from __future__ import annotations

import json
import math
import struct
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from tablesim.sim.config import Profile

__all__ = ["ROOT_ROTATION", "Track", "judged_move_tracks", "scene_tracks", "write_glb"]

ROOT_ROTATION = (-math.sqrt(0.5), 0.0, 0.0, math.sqrt(0.5))
"""Quaternion (x, y, z, w) of the root node: -90 degrees about x, z-up -> y-up."""

Track = tuple[np.ndarray, dict[str, np.ndarray]]
"""(film times (n,) s, piece id -> poses (n, 7): position (3,) then quaternion x, y, z, w)."""


def scene_tracks(scene: Any, *, seconds: float, fps: float, slow: float,
                 profile: str | Profile = "verdict") -> Track:  # fmt: skip
    """Poses of every dynamic piece of ``scene`` at the film's frames (the instants
    :func:`tablesim.sim.view.film.scene_frames` draws); ``profile`` a name or a
    :class:`tablesim.sim.config.Profile`."""
    from tablesim.sim.view.film import film_frame_count
    from tablesim.sim.world import World

    n = film_frame_count(seconds, fps, slow)
    poses: dict[str, list[np.ndarray]] = {}
    with World(scene, profile) as world:
        for k in range(n):
            target = int(round(k * slow / fps / world.time_step))
            if target > world.steps:
                world.step(target - world.steps)
            for pid, (pos, q) in world.poses().items():
                poses.setdefault(pid, []).append(np.concatenate([pos, q]))
    times = np.arange(n, dtype=np.float64) / fps
    return times, {pid: np.array(v) for pid, v in poses.items()}


def judged_move_tracks(log: Any, number: int, *, fps: float, slow: float) -> tuple[Any, Track]:
    """The judged run of move ``number`` of a Kozo/Kataboom game log (a
    :class:`tablesim.games.log.GameLog`; :func:`tablesim.sim.view.film.judged_move_run`) as tracks at the film's
    frames, with the scene of the table after the move."""
    from tablesim.sim.view.film import film_frame_count, judged_move_run

    state, samples = judged_move_run(log, number)
    if log.header.game == "kozo":
        from tablesim.sim.slices.kozo.referee import KozoReferee

        scene = KozoReferee(state.config, state.seed).tower_scene(state)
    else:
        from tablesim.sim.slices.kataboom.referee import KataboomReferee

        scene = KataboomReferee(state.config, state.seed).structure_scene(state)
    times = np.array([t for t, _ in samples])
    n = film_frame_count(float(times[-1]), fps, slow)
    picks = [int(np.argmin(np.abs(times - k * slow / fps))) for k in range(n)]
    ids = {p.id for p in scene.pieces if not p.static}
    poses = {
        pid: np.array([np.concatenate(samples[i][1][pid]) for i in picks])
        for pid in sorted(ids)
        if all(pid in samples[i][1] for i in picks)
    }
    return scene, (np.arange(n, dtype=np.float64) / fps, poses)


def _piece_mesh(piece: Any, config: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(positions (v, 3) float32, normals (v, 3) float32, indices (f*3,) uint32) in the piece
    frame; flat-shaded (each face its own vertices) so the cubes' edges stay sharp."""
    import trimesh

    from tablesim.meshes.polycube import polycube_mesh

    if piece.box is not None:
        size = np.asarray(piece.box, dtype=float)
        mesh = trimesh.creation.box(extents=size)
        mesh.apply_translation(size / 2)
    else:
        mesh = polycube_mesh(piece.cells, piece.edge(config))
    tri = mesh.vertices[mesh.faces].reshape(-1, 3)
    normals = np.repeat(mesh.face_normals, 3, axis=0)
    idx = np.arange(len(tri), dtype=np.uint32)
    return tri.astype(np.float32), normals.astype(np.float32), idx


class _Buffer:
    """The GLB's binary chunk with its bufferViews and accessors."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.views: list[dict[str, Any]] = []
        self.accessors: list[dict[str, Any]] = []

    def add(self, array: np.ndarray, kind: str, target: int | None = None,
            bounds: bool = False) -> int:  # fmt: skip
        """Append ``array`` (float32 or uint32) and return its accessor index."""
        while len(self.data) % 4:
            self.data.append(0)
        raw = np.ascontiguousarray(array).tobytes()
        view: dict[str, Any] = {"buffer": 0, "byteOffset": len(self.data), "byteLength": len(raw)}
        if target is not None:
            view["target"] = target
        self.views.append(view)
        self.data.extend(raw)
        comp = 5125 if array.dtype == np.uint32 else 5126
        count = array.shape[0]
        acc: dict[str, Any] = {
            "bufferView": len(self.views) - 1, "componentType": comp, "count": count, "type": kind,
        }  # fmt: skip
        if bounds:
            flat = array.reshape(count, -1)
            acc["min"] = [float(x) for x in flat.min(axis=0)]
            acc["max"] = [float(x) for x in flat.max(axis=0)]
        self.accessors.append(acc)
        return len(self.accessors) - 1


def _colour(hex_colour: str) -> list[float]:
    from tablesim.meshes.polycube import hex_to_rgba

    rgba = hex_to_rgba(hex_colour) / 255.0
    # glTF base colours are linear; the scene's colours are sRGB
    lin = [float(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4) for c in rgba[:3]]
    return [*lin, float(rgba[3])]


def gltf_document(scene: Any, track: Track, name: str) -> tuple[dict[str, Any], bytes]:
    """The glTF JSON and binary buffer of ``scene`` animated by ``track``."""
    times, poses = track
    buf = _Buffer()
    doc: dict[str, Any] = {
        "asset": {"version": "2.0", "generator": "tablesim record"},
        "scene": 0,
        "scenes": [{"name": name, "nodes": [0]}],
        "nodes": [{"name": "table", "rotation": list(ROOT_ROTATION), "children": []}],
        "meshes": [],
        "materials": [],
    }
    channels: list[dict[str, Any]] = []
    samplers: list[dict[str, Any]] = []
    t_acc = buf.add(times.astype(np.float32), "SCALAR", bounds=True) if len(poses) else None
    for piece in scene.pieces:
        pos, nrm, idx = _piece_mesh(piece, scene.physics)
        doc["materials"].append({
            "name": piece.id,
            "pbrMetallicRoughness": {"baseColorFactor": _colour(piece.color),
                                     "metallicFactor": 0.0, "roughnessFactor": 0.8},
        })  # fmt: skip
        doc["meshes"].append({"name": piece.id, "primitives": [{
            "attributes": {"POSITION": buf.add(pos, "VEC3", 34962, bounds=True),
                           "NORMAL": buf.add(nrm, "VEC3", 34962)},
            "indices": buf.add(idx, "SCALAR", 34963),
            "material": len(doc["materials"]) - 1,
        }]})  # fmt: skip
        node: dict[str, Any] = {"name": piece.id, "mesh": len(doc["meshes"]) - 1}
        track_p = poses.get(piece.id)
        first = (
            track_p[0] if track_p is not None else np.array([*piece.position, *piece.orientation])
        )
        node["translation"] = [float(x) for x in first[:3]]
        node["rotation"] = [float(x) for x in first[3:]]
        doc["nodes"].append(node)
        node_index = len(doc["nodes"]) - 1
        doc["nodes"][0]["children"].append(node_index)
        if track_p is not None and t_acc is not None:
            track_p = np.concatenate([track_p[:, :3], one_hemisphere(track_p[:, 3:7])], axis=1)
            for path, cols, kind in (("translation", slice(0, 3), "VEC3"),
                                     ("rotation", slice(3, 7), "VEC4")):  # fmt: skip
                out = buf.add(track_p[:, cols].astype(np.float32), kind)
                samplers.append({"input": t_acc, "output": out, "interpolation": "LINEAR"})
                channels.append({"sampler": len(samplers) - 1,
                                 "target": {"node": node_index, "path": path}})  # fmt: skip
    if channels:
        doc["animations"] = [{"name": name, "channels": channels, "samplers": samplers}]
    while len(buf.data) % 4:
        buf.data.append(0)
    doc["buffers"] = [{"byteLength": len(buf.data)}]
    doc["bufferViews"] = buf.views
    doc["accessors"] = buf.accessors
    return doc, bytes(buf.data)


def write_glb(path: str | Path, scene: Any, track: Track, name: str = "fall") -> tuple[Path, int]:
    """Write the animated GLB; returns (path, number of keyframes)."""
    doc, binary = gltf_document(scene, track, name)
    text = json.dumps(doc, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 4)
    body = struct.pack("<II", len(text), 0x4E4F534A) + text
    body += struct.pack("<II", len(binary), 0x004E4942) + binary
    blob = struct.pack("<III", 0x46546C67, 2, 12 + len(body)) + body
    from tablesim.games.outputs import atomic_write

    out = Path(path)
    atomic_write(out, blob)  # whole or nothing, 0644 (games.outputs)
    return out, len(track[0])


def one_hemisphere(quats: np.ndarray) -> np.ndarray:
    """Quaternion keyframes (n, 4) with each key's sign chosen so that consecutive keys have a
    dot product >= 0. q and -q are one rotation, but glTF viewers interpolate LINEAR rotation
    keys component-wise (then normalise): between keys of opposite hemispheres the path passes
    near the zero quaternion and the piece spins the long way round in one frame (PyBullet
    returns either sign; 5U flipped between keys 55 and 56 of ``record -o fall.glb``)."""
    q = np.array(quats, dtype=float, copy=True)
    for k in range(1, len(q)):
        if float(np.dot(q[k - 1], q[k])) < 0.0:
            q[k] = -q[k]
    return q
