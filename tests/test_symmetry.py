"""`ikeda.symmetry` against games played in transformed coordinates."""

from __future__ import annotations

import random

import numpy as np
import pytest

import ikeda
from ikeda import symmetry


def test_each_symmetry_is_undone_by_its_inverse_and_the_eight_are_distinct() -> None:
    x = np.random.default_rng(0).random((3, 5, 5))
    seen = set()
    for k in symmetry.SYMMETRIES:
        y = symmetry.planes(x, k)
        assert np.array_equal(symmetry.planes(y, symmetry.inverse(k)), x)
        p = np.arange(26.0)
        assert np.array_equal(symmetry.policy(symmetry.policy(p, k, 5), symmetry.inverse(k), 5), p)
        seen.add(y.tobytes())
    assert len(seen) == 8


@pytest.mark.parametrize("k", range(8))
def test_a_game_played_on_transformed_points_is_the_transformed_game(k: int) -> None:
    size, rng = 7, random.Random(k)
    g, h = ikeda.Game(size), ikeda.Game(size)
    for _ in range(60):
        legal = g.legal_indices()
        if not legal or g.is_over:
            break
        a = rng.choice(legal)
        g.play(a)
        h.play(symmetry.action(a, k, size))
    assert np.array_equal(symmetry.planes(g.to_numpy(), k), h.to_numpy())
    assert np.array_equal(symmetry.policy(g.legal_mask(), k, size), h.legal_mask())
    b = ikeda.Batch(1, size)
    b.step(np.array([3]))
    last = b.features(2, channels_last=True)
    assert np.array_equal(symmetry.planes(last, k, channels_last=True),
                          symmetry.planes(b.features(2), k).transpose(0, 2, 3, 1))


def test_bad_symmetries_are_refused() -> None:
    with pytest.raises(ikeda.ArgumentError):
        symmetry.inverse(8)
    with pytest.raises(ikeda.ArgumentError):
        symmetry.planes(np.zeros((2, 3)), 1)
    with pytest.raises(ikeda.ArgumentError):
        symmetry.policy(np.zeros(11), 1, 3)
