"""Random games on a local Ray beside the plain threaded run, in the same run: games/s at 1
and 2 workers against ``--threads 1`` and ``--threads 2``, Ray's overhead per shard (a
shard of one game), and games/s at several shard sizes (the size that hides the
overhead). Every run asserts that its games are those of the threaded run of the same
seed; ``games_per_s`` is in ``extra_info``.

Run with ``python -m pytest benches/python/bench_ray.py --benchmark-only``; figures in
docs/ray.md.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from ikeda.rules import AREA_III
from ikeda.runs import played
from ikeda.shards import Cell, plan
from ikeda.simulate import simulate

GAMES = 20_000
SHARD = 5_000
SEED = 1
#: Rounds per benchmark when timed (once when the suite runs benchmarks untimed).
ROUNDS = 5


@pytest.fixture
def ray(ray_session: Any) -> Any:
    """The suite's local Ray of 2 CPUs (conftest.py), its workers started before timing."""
    simulate(9, 10, ray="local", chunk=5)
    return ray_session


@pytest.fixture(scope="module")
def reference() -> Any:
    """The margins of the threaded run: every timed run must give these."""
    return simulate(9, GAMES, seed=SEED, threads=2).margin


def tree_cpu_seconds() -> float:
    """CPU seconds (user + system) used so far by this process and every live process
    below it: with a local Ray started here, its GCS, raylet and workers. On a machine
    shared with other work, CPU time per game is the figure that load does not distort
    (wall-clock shares also differ: Ray's workers run in a scheduling group of their own)."""
    parents: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry)] = int(fields[1])
            ticks[int(entry)] = int(fields[11]) + int(fields[12])  # utime, stime
    tree, frontier = {os.getpid()}, [os.getpid()]
    while frontier:
        pid = frontier.pop()
        for child, parent in parents.items():
            if parent == pid and child not in tree:
                tree.add(child)
                frontier.append(child)
    return sum(ticks.get(p, 0) for p in tree) / os.sysconf("SC_CLK_TCK")


def _run(benchmark: Any, reference: Any, **options: Any) -> None:
    sims = []
    cpu = tree_cpu_seconds()
    benchmark.pedantic(lambda: sims.append(simulate(9, GAMES, seed=SEED, **options)), rounds=ROUNDS, iterations=1)
    cpu = tree_cpu_seconds() - cpu
    assert all(np.array_equal(s.margin, reference) for s in sims)
    benchmark.extra_info["games_per_s"] = round(GAMES * len(sims) / sum(s.seconds for s in sims))
    benchmark.extra_info["games_per_cpu_s"] = round(GAMES * len(sims) / cpu) if cpu else None


@pytest.mark.parametrize("n", [1, 2])
def test_threads(benchmark: Any, reference: Any, n: int) -> None:
    benchmark.group = f"9x9, {GAMES} games, {n} core(s)"
    _run(benchmark, reference, threads=n, chunk=SHARD)


@pytest.mark.parametrize("n", [1, 2])
def test_ray_workers(benchmark: Any, ray: Any, reference: Any, n: int) -> None:
    benchmark.group = f"9x9, {GAMES} games, {n} core(s)"
    _run(benchmark, reference, ray="local", workers=n, chunk=SHARD)


@pytest.mark.parametrize("shard", [100, 500, 2_000, 10_000])
def test_ray_shard_size(benchmark: Any, ray: Any, reference: Any, shard: int) -> None:
    benchmark.group = f"9x9, {GAMES} games, 2 workers, by shard size"
    _run(benchmark, reference, ray="local", chunk=shard)


@pytest.mark.parametrize("backend", ["threads", "ray"])
def test_per_shard_overhead(benchmark: Any, ray: Any, backend: str) -> None:
    """200 shards of one game each: the time per shard is the fixed cost of a shard."""
    benchmark.group = "200 shards of 1 game"
    todo = plan([Cell(9, 9, AREA_III)], 200, seed=SEED, shard_games=1)
    options: dict[str, Any] = {"threads": 1} if backend == "threads" else {"ray": "local"}
    counts: list[int] = []
    cpu = tree_cpu_seconds()
    benchmark.pedantic(lambda: counts.append(sum(r.shard.games for r in played(todo, **options))), rounds=ROUNDS, iterations=1)
    cpu = tree_cpu_seconds() - cpu
    assert counts and all(c == 200 for c in counts)
    benchmark.extra_info["cpu_ms_per_shard"] = round(1000 * cpu / (200 * len(counts)), 3)
