"""The native loops against the Python layer and published counts.

Native random games carry their own compact Rule 6 end and Rule 7 score (ikeda-core's
`game` module); replaying them through :class:`ikeda.Game` must give the same end and the
same score, so the two flows cannot drift apart.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ikeda
from ikeda import _core

# Tromp & Farnebäck, "Combinatorics of Go" (RULES.md): colourings with every chain having
# a liberty.
LEGAL_1XN = [1, 5, 15, 41, 113, 313, 867, 2401, 6649, 18413]


@pytest.mark.parametrize("n", range(1, 11))
def test_legal_positions_1xn(n: int) -> None:
    assert _core.count_legal_positions(n, 1) == LEGAL_1XN[n - 1]
    assert _core.count_legal_positions(1, n) == LEGAL_1XN[n - 1]


@pytest.mark.parametrize(("size", "count"), [(1, 1), (2, 57), (3, 12_675), (4, 24_318_165)])
def test_legal_positions_square(size: int, count: int) -> None:
    assert _core.count_legal_positions(size, size) == count


def replay(width: int, height: int, komi: float, seed: int, pass_probability: float) -> None:
    moves, ended, first_passer, black2, white2 = _core.random_game(
        width, height, komi, seed, pass_probability=pass_probability
    )
    game = ikeda.Game(width=width, height=height, komi=komi)
    for m in moves:
        assert not game.is_over
        game.play(m)
    assert game.is_over == ended
    assert game.first_passer == {None: None, 1: "B", 2: "W"}[first_passer]
    score = game.score()
    assert (score.black, score.white) == (black2 / 2, white2 / 2)


@pytest.mark.parametrize("size", [2, 3, 5, 9, 13, 19])
def test_native_games_end_and_score_like_python(size: int) -> None:
    for seed in range(20):
        replay(size, size, 6.5, seed, pass_probability=0.05 if seed % 2 else 0.0)


@settings(max_examples=150, deadline=None)
@given(
    width=st.integers(1, 9),
    height=st.integers(1, 9),
    komi=st.sampled_from([0.0, 0.5, 6.5, 7.0, -3.0]),
    seed=st.integers(0, 2**64 - 1),
    pass_probability=st.sampled_from([0.0, 0.1, 0.3, 0.6]),
)
def test_native_games_agree_property(
    width: int, height: int, komi: float, seed: int, pass_probability: float
) -> None:
    replay(width, height, komi, seed, pass_probability)


def test_random_game_is_reproducible() -> None:
    assert _core.random_game(9, 9, 6.5, 7) == _core.random_game(9, 9, 6.5, 7)
    assert _core.random_game(9, 9, 6.5, 7)[0] != _core.random_game(9, 9, 6.5, 8)[0]


def test_native_errors_are_typed() -> None:
    with pytest.raises(ikeda.InvalidPositionError):
        _core.count_legal_positions(0, 3)
    with pytest.raises(ikeda.IkedaError):
        _core.random_game(9, 9, 0.3, 1)
    with pytest.raises(ikeda.InvalidPositionError):
        _core.random_game(26, 9, 0.5, 1)
