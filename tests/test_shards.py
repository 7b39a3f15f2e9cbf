"""Cutting a run into shards and summing their totals: every game of a run planned
exactly once whatever is already done and however it is cut, and totals that merge to
the totals of the whole."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikeda import AREA_II, AREA_III, IkedaError
from ikeda.shards import Cell, Shard, cells, plan, play_shard
from ikeda.simulate import simulate
from ikeda.totals import Totals

CELL = Cell(7, 7, AREA_III)


@settings(max_examples=200, deadline=None)
@given(
    games=st.integers(0, 300),
    shard_games=st.integers(1, 80),
    done=st.lists(st.tuples(st.integers(0, 320), st.integers(1, 60)), max_size=6),
)
def test_plan_covers_every_game_once_around_shards_already_done(games: int, shard_games: int, done: list[tuple[int, int]]) -> None:
    # shards already done: disjoint ranges, as a dataset holds them
    kept: list[Shard] = []
    for first, n in sorted(done):
        if all(first >= s.first + s.games or first + n <= s.first for s in kept):
            kept.append(Shard(CELL, 1, first, n))
    todo = plan([CELL], games, seed=1, shard_games=shard_games, done=kept)
    covered = [g for s in todo for g in range(s.first, s.first + s.games)]
    assert len(covered) == len(set(covered))
    done_games = {g for s in kept for g in range(s.first, s.first + s.games)}
    assert set(covered) == set(range(games)) - done_games
    for s in todo:  # cut at multiples of the shard size, so a resumed run cuts where the first did
        assert 1 <= s.games <= shard_games
        assert s.first // shard_games == (s.first + s.games - 1) // shard_games


def test_plan_ignores_shards_of_other_seeds_and_cells() -> None:
    other = [Shard(CELL, 2, 0, 100), Shard(Cell(9, 9, AREA_III), 1, 0, 100)]
    assert [(s.first, s.games) for s in plan([CELL], 100, seed=1, shard_games=40, done=other)] == [(0, 40), (40, 40), (80, 20)]


def test_cells_are_every_combination_without_repeats() -> None:
    got = cells([9, 13, 9], [AREA_III, AREA_II], [5.5, 7.5])
    assert len(got) == 2 * 2 * 2
    assert got[0] == Cell(9, 9, AREA_III.replace(komi=5.5)) and got[-1] == Cell(13, 13, AREA_II.replace(komi=7.5))
    assert len({c.key for c in got}) == len(got)
    assert cells([9], [AREA_III.replace(komi=7.5)])[0].rules.komi == 7.5  # None keeps the ruleset's komi


def test_shards_are_the_games_of_the_whole_run() -> None:
    whole = simulate(7, 500, seed=5, threads=1)
    parts = [play_shard(s) for s in plan([CELL], 500, seed=5, shard_games=130)]
    assert np.array_equal(np.concatenate([p.margin for p in parts]), whole.margin)
    assert np.array_equal(np.concatenate([p.length for p in parts]), whole.length)


def test_bad_plans_are_refused() -> None:
    with pytest.raises(IkedaError):
        plan([CELL], 10, seed=1, shard_games=0)
    with pytest.raises(IkedaError):
        plan([CELL], -1, seed=1, shard_games=10)


def test_totals_merge_to_the_totals_of_the_whole() -> None:
    sim = simulate(7, 900, seed=2, threads=1, komi=7.0)  # integer komi: draws too
    whole = sim.totals()
    merged = Totals()
    for lo, hi in ((0, 1), (1, 300), (300, 301), (301, 900)):
        part = Totals()
        part.add(sim.margin[lo:hi], sim.margin_area2[lo:hi], sim.first_passer[lo:hi], sim.length[lo:hi], sim.capped[lo:hi])
        merged.merge(part)
    assert (merged.games, merged.black_wins, merged.white_wins, merged.draws) == (900, *[int((sim.winner == w).sum()) for w in (1, 2, 0)])
    assert merged.first_passer == np.bincount(sim.first_passer, minlength=3).tolist()
    assert merged.moves == int(sim.length.sum()) and merged.half_point_decided == int(sim.half_point_decided.sum())
    assert merged.histogram == whole.histogram and sum(merged.histogram.values()) == 900
    assert merged.margin_mean == pytest.approx(float(sim.margin.mean()), abs=1e-12)
    assert merged.margin_sd == pytest.approx(float(sim.margin.std()), rel=1e-12)
    assert whole.draws > 0
