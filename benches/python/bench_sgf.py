"""Bulk SGF replay (`ikeda.sgf.replay_many`, `ikeda replay`): records per second on a
generated collection of 10,000 9x9 records and 1,000 19x19 records (native random games
to their end, written as SGF), on one thread and on every core; beside the Python path
(`read` + `Record.replay` through `ikeda.Game`) on a slice. Each benchmark checks that
every record replayed to its end and reports ``records_per_s`` in ``extra_info``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from ikeda.sgf import read, replay_many

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
from sgf_corpus import write_corpus  # noqa: E402

COUNTS = {9: 10_000, 19: 1_000}
PYTHON_SLICE = {9: 500, 19: 50}


@pytest.fixture(scope="module", params=[9, 19], ids=["9x9", "19x19"])
def corpus(request: Any, tmp_path_factory: pytest.TempPathFactory) -> tuple[int, list[Path]]:
    size: int = request.param
    return size, write_corpus(tmp_path_factory.mktemp(f"sgf{size}"), COUNTS[size], size=size, seed=1)


@pytest.mark.parametrize("threads", [1, 0], ids=["1-thread", "all-cores"])
def test_replay_many(benchmark: Any, corpus: tuple[int, list[Path]], threads: int, record_rate: Any) -> None:
    size, paths = corpus
    benchmark.group = f"replay {size}x{size}"
    results = benchmark.pedantic(replay_many, args=(paths,), kwargs={"threads": threads}, rounds=3, iterations=1)
    assert len(results) == len(paths) and all(r.ok and r.over for r in results)
    record_rate("records_per_s", len(paths), "mean")
    record_rate("moves_per_s", sum(r.moves for r in results), "mean")
    benchmark.extra_info["threads"] = threads or os.cpu_count()


def test_python_read_and_replay(benchmark: Any, corpus: tuple[int, list[Path]], record_rate: Any) -> None:
    size, paths = corpus
    part = paths[: PYTHON_SLICE[size]]
    benchmark.group = f"replay {size}x{size}"

    def run() -> list[Any]:
        return [read(p).replay() for p in part]

    games = benchmark.pedantic(run, rounds=3, iterations=1)
    assert all(g.is_over for g in games)
    record_rate("records_per_s", len(part), "mean")
