"""tablesim.games.quat: the one quaternion code (x, y, z, w) that rules, physics and view share.

Expected values from the definitions: a quarter turn about z maps x to y; composing rotations
multiplies their matrices; a quaternion times its conjugate is the identity."""

from __future__ import annotations

import math

import numpy as np

from tablesim.games.quat import quat_conj, quat_from_euler_deg, quat_mul, quat_to_matrix


def test_quarter_turn_about_z_maps_x_to_y() -> None:
    h = math.pi / 4
    q = (0.0, 0.0, math.sin(h), math.cos(h))
    assert np.allclose(quat_to_matrix(q) @ (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), atol=1e-15)


def test_product_is_the_composed_rotation() -> None:
    a = quat_from_euler_deg(20.0, -35.0, 70.0)
    b = quat_from_euler_deg(-50.0, 10.0, 5.0)
    assert np.allclose(
        quat_to_matrix(quat_mul(a, b)), quat_to_matrix(a) @ quat_to_matrix(b), atol=1e-12
    )
    one = quat_mul(a, quat_conj(a))
    assert np.allclose(one, (0.0, 0.0, 0.0, 1.0), atol=1e-15)
