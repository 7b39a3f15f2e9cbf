"""Bulk SGF replay (`ikeda.sgf.replay_many`, `ikeda replay`): records per second on a
generated collection of 10,000 9x9 records and 1,000 19x19 records (native random games
to their end, written as SGF), on one thread and on every core; beside the Python path
(`read` + `Record.replay` through `ikeda.Game`) on a slice. Each benchmark checks that
every record replayed to its end and reports ``records_per_s`` in ``extra_info``.

Bulk reading of a mixed corpus in the shapes of real archives (`sgf_corpus.mixed_sgf`:
KGS-style UTF-8, Fox records with a cut name and komi in hundredths, GB18030 and EUC-KR
without CA, Shift_JIS with CA, FF[3] Latin-1; comments and a variation each; 19x19):
``ikeda.sgf.read`` beside sgfmill (``Sgf_game.from_bytes`` and the main line's setup and
moves), files per second in the same run, each checked against the other.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

import warnings

from sgfmill import sgf as sgfmill_sgf
from sgfmill import sgf_moves

from ikeda.sgf import SgfWarning, read, replay_many

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
from sgf_corpus import MIXED_SHAPES, write_corpus, write_mixed_corpus  # noqa: E402

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


MIXED = 600  # 100 records of each shape


@pytest.fixture(scope="module")
def mixed_paths(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return write_mixed_corpus(tmp_path_factory.mktemp("mixed"), MIXED)


@pytest.fixture(scope="module")
def mixed(mixed_paths: list[Path]) -> list[bytes]:
    return [p.read_bytes() for p in mixed_paths]


def test_replay_many_mixed(benchmark: Any, mixed_paths: list[Path], mixed: list[bytes], record_rate: Any) -> None:
    """Native reading and replay of the same files (area rules forced: the Japanese
    records would take the Python path)."""
    benchmark.group = "read a mixed real-style corpus (19x19)"
    results = benchmark.pedantic(replay_many, args=(mixed_paths,), kwargs={"rules": "area2", "threads": 1}, rounds=3, iterations=1)
    assert [r.moves for r in results] == [_sgfmill_moves(d) for d in mixed]
    record_rate("files_per_s", len(mixed_paths), "mean")


def _sgfmill_moves(data: bytes) -> int:
    game = sgfmill_sgf.Sgf_game.from_bytes(data)
    _, plays = sgf_moves.get_setup_and_moves(game)
    return len(plays)


def test_read_mixed_ikeda(benchmark: Any, mixed: list[bytes], record_rate: Any) -> None:
    benchmark.group = "read a mixed real-style corpus (19x19)"

    def run() -> list[int]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SgfWarning)
            return [len(read(d).moves) for d in mixed]

    counts = benchmark.pedantic(run, rounds=3, iterations=1)
    first = len(MIXED_SHAPES) * 2  # every shape twice; the sgfmill benchmark checks all
    assert counts[:first] == [_sgfmill_moves(d) for d in mixed[:first]]
    assert all(n > 0 for n in counts)
    record_rate("files_per_s", len(mixed), "mean")


def test_read_mixed_sgfmill(benchmark: Any, mixed: list[bytes], record_rate: Any) -> None:
    benchmark.group = "read a mixed real-style corpus (19x19)"
    counts = benchmark.pedantic(lambda: [_sgfmill_moves(d) for d in mixed], rounds=3, iterations=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SgfWarning)
        assert counts == [len(read(d).moves) for d in mixed]
    record_rate("files_per_s", len(mixed), "mean")
