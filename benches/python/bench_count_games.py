"""Game counts (the bitboard enumeration of rust/ikeda-core/src/bitboard_count.rs).

Tromp-Taylor counts of complete games from the empty board are published (Tromp &
Farnebäck, "Combinatorics of Go"); each benchmark asserts its count. The 1x4 count
(2,098,407,841 games) takes tens of seconds on two cores, so it runs only when
``IKEDA_BENCH_SLOW=1`` is set; its time is in benches/README.md.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

import ikeda

PUBLISHED = {(1, 1): 1, (2, 1): 9, (3, 1): 907, (4, 1): 2_098_407_841}


@pytest.mark.parametrize("board", [(3, 1)])
def test_count_games_tromp_taylor(benchmark: Any, board: tuple[int, int]) -> None:
    count = benchmark(ikeda.count_games, *board, "tromp-taylor")
    assert count == PUBLISHED[board]


@pytest.mark.parametrize("rules", ["area3", "area2", "territory1"])
def test_count_games_ikeda(benchmark: Any, rules: str) -> None:
    count = benchmark(ikeda.count_games, 3, 1, rules)
    assert count == {"area3": 2_348, "area2": 1_211, "territory1": 48_265}[rules]


@pytest.mark.skipif(os.environ.get("IKEDA_BENCH_SLOW") != "1", reason="minutes; set IKEDA_BENCH_SLOW=1")
def test_count_games_tromp_taylor_1x4(benchmark: Any) -> None:
    count = benchmark.pedantic(ikeda.count_games, args=(4, 1, "tromp-taylor"), rounds=1, iterations=1)
    assert count == PUBLISHED[(4, 1)]
