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


def replay(width: int, height: int, komi: float, seed: int, pass_probability: float, rules: str = "area3") -> None:
    ruleset = ikeda.Rules.from_string(rules).replace(komi=komi)
    moves, ended, first_passer, black2, white2 = _core.random_game(
        width, height, ruleset, seed, pass_probability=pass_probability
    )
    game = ikeda.Game(width=width, height=height, rules=ruleset)
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
    rules=st.sampled_from(["area3", "area2", "territory1", "tromp-taylor", "area3:ko=simple-ko"]),
)
def test_native_games_agree_property(
    width: int, height: int, komi: float, seed: int, pass_probability: float, rules: str
) -> None:
    """Native playouts under every preset end and score exactly as the Python flow does."""
    replay(width, height, komi, seed, pass_probability, rules)


def test_random_game_is_reproducible() -> None:
    r = ikeda.AREA_III
    assert _core.random_game(9, 9, r, 7) == _core.random_game(9, 9, r, 7)
    assert _core.random_game(9, 9, r, 7)[0] != _core.random_game(9, 9, r, 8)[0]


def test_native_errors_are_typed() -> None:
    with pytest.raises(ikeda.InvalidPositionError):
        _core.count_legal_positions(0, 3)
    with pytest.raises(ikeda.IkedaError):
        ikeda.AREA_III.replace(komi=0.3)
    with pytest.raises(ikeda.InvalidPositionError):
        _core.random_game(26, 9, ikeda.AREA_III, 1)


def test_simulate_is_reproducible_whatever_the_threads_and_chunks() -> None:
    from ikeda.simulate import simulate

    a = simulate(7, 300, threads=1, seed=5, chunk=300)
    b = simulate(7, 300, threads=2, seed=5, chunk=77)
    for name in ("margin", "margin_area2", "first_passer", "length", "capped"):
        assert (getattr(a, name) == getattr(b, name)).all(), name
    assert not (simulate(7, 300, seed=6).margin == a.margin).all()


@pytest.mark.parametrize("rules", ["area3", "area2", "territory1", "tromp-taylor"])
def test_simulated_games_match_single_games(rules: str) -> None:
    """Game k of a run is the single native game with seed game_seed(seed, k), and its
    margin is the Python flow's margin for the same moves."""
    from ikeda.simulate import simulate

    sim = simulate(5, 40, rules=rules, seed=11, threads=2, chunk=13)
    ruleset = ikeda.Rules.from_string(rules)
    for k in range(40):
        seed = 11 ^ (((k + 1) * 0x9E3779B97F4A7C15) % 2**64)
        moves, ended, _, black2, white2 = _core.random_game(5, 5, ruleset, seed)
        assert (black2 - white2) / 2 == sim.margin[k]
        assert len(moves) == sim.length[k] and ended != sim.capped[k]
        game = ikeda.Game(5, rules=ruleset)
        for m in moves:
            game.play(m)
        assert game.score().margin == sim.margin[k]
        assert game.score(rules="area2").margin == sim.margin_area2[k]
