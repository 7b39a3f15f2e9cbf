"""Status confirmation (docs/status.md) through the Python API: the final positions of
random 9x9 games from the native playouts, and the shapes of STATUS.md Section 8.

Each benchmark asserts its answers and reports in ``extra_info`` what the issue asks for:
median and maximum time per confirmation and how many positions hit the budget.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

import pytest

import ikeda
from ikeda import _core


def _final_positions(count: int, pass_probability: float) -> list[ikeda.Game]:
    games = []
    for seed in range(count):
        moves, ended, _, _, _ = _core.random_game(9, 9, ikeda.AREA_III, seed, pass_probability=pass_probability)
        assert ended
        g = ikeda.Game(9)
        for m in moves:
            g.play(m)
        games.append(g)
    return games


@pytest.mark.parametrize(("count", "pass_probability", "budget"), [(1000, 0.0, ikeda.status.BUDGET), (200, 0.05, 200_000)])
def test_status_random_9x9(benchmark: Any, count: int, pass_probability: float, budget: int) -> None:
    """Playouts end when neither side has a play that does not fill its own eye, so their
    final positions are settled; with a pass probability games stop early and leave large
    unsettled regions, which show the budget at work."""
    benchmark.group = "status random 9x9"
    games = _final_positions(count, pass_probability)
    times: list[float] = []
    hits = [0]

    def run() -> None:
        times.clear()
        hits[0] = 0
        for g in games:
            t = time.perf_counter()
            try:
                r = ikeda.confirm_status(g, budget=budget, unresolved="raise")
                assert len(r.status) == 9
            except ikeda.StatusBudgetError as e:
                assert e.region
                hits[0] += 1
            times.append(time.perf_counter() - t)

    benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info.update(
        positions=count, median_ms=round(statistics.median(times) * 1e3, 3), max_ms=round(max(times) * 1e3, 1), budget_hits=hits[0]
    )
    if pass_probability == 0.0:
        assert hits[0] == 0


SHAPES = {
    "straight_four_6x4": (["X....X", "XXXXXX", "OOOOOO", "O.OO.O"], "A4", "F2"),
    "bulky_five": (["...XO.", "..XXOO", "XXXOO.", "OOOOOO", "......"], "D5", "N"),
    "bent_four_corner": ([".O.O.O", "OOOOOO", "XXOOOO", ".XXXO.", "...XOO"], "A3", "N"),
    "rabbity_six_defender_first": (["..XXO.", "...XOO", "X.XXO.", "XXXOOO", "OOOO.O", ".O.OOO"], "C6", "F2"),
}


@pytest.mark.parametrize("name", list(SHAPES))
def test_status_shape(benchmark: Any, name: str) -> None:
    benchmark.group = "status shapes"
    rows, vertex, case = SHAPES[name]
    first = "defender" if name.endswith("defender_first") else "attacker"
    result = benchmark(ikeda.confirm_status, rows, first=first)
    assert next(c for c in result.chains if vertex in c.stones).case == case
    benchmark.extra_info["states"] = sum(n for _, n in result.regions)


def test_status_rabbity_six_refused(benchmark: Any) -> None:
    """The attacker first: beyond the default budget; the time is the time to refuse."""
    benchmark.group = "status shapes"
    rows = ["..XXO.", "...XOO", "X.XXO.", "XXXOOO", "OOOO.O", ".O.OOO"]

    def run() -> None:
        with pytest.raises(ikeda.StatusBudgetError):
            ikeda.confirm_status(rows, unresolved="raise")

    benchmark.pedantic(run, rounds=1, iterations=1)
