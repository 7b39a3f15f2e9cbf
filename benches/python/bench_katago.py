"""Native playouts beside KataGo's C++ ``Board`` driven by a plain loop with the same
policy, in the same run: the yardstick of the board kernel.

The driver is built from a snapshot of lightvector/KataGo by ``benches/katago/build.sh``
(``sh benches/katago/build.sh <KataGo git dir> target/katago``, see its README); point
``IKEDA_KATAGO_DRIVER`` at the binary, or leave it at ``target/katago/kgplayout``. Without
it these benchmarks skip. Each of five rounds runs the driver for two seconds, then
``simulate(threads=1)`` for at least as long, alternately, so both see the same load; the
ratio of each round (ikeda moves per CPU second over KataGo's) goes to ``extra_info``. KataGo's driver
checks simple ko only; ikeda's playouts are exact to Rule 4. Both policies draw uniformly
among the legal points that do not fill the mover's own eye and pass only when none is
left, so the mean lengths must agree (about 111 moves on 9x9, 455 on 19x19).
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from ikeda.simulate import simulate

DRIVER = Path(os.environ.get("IKEDA_KATAGO_DRIVER", Path(__file__).parents[2] / "target" / "katago" / "kgplayout"))
SECONDS = 2.0
ROUNDS = 5


@pytest.mark.parametrize("size", [9, 19])
def test_playouts_ikeda_vs_katago_board(benchmark: Any, size: int) -> None:
    if not DRIVER.is_file():
        pytest.skip(f"KataGo board driver not built at {DRIVER}")
    benchmark.group = f"katago {size}x{size}"
    ratios: list[float] = []
    lengths: list[tuple[float, float]] = []
    games = 2000 if size == 9 else 300

    def round_pair() -> None:
        # Rates per second of CPU time given to each side: on a shared machine a process
        # waits for a core for a varying share of its wall time, and that share says
        # nothing about the kernel. The driver reports moves per wall second; scaled by
        # its wall time over the CPU time it used, that is moves per CPU second.
        before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
        out = subprocess.run([str(DRIVER), str(size), str(SECONDS)], capture_output=True, text=True, check=True)
        wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
        kg = json.loads(out.stdout)
        kg_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        kg_rate = kg["moves_per_s"] * wall / kg_cpu
        moves, games_played, cpu = 0, 0, 0.0
        while cpu < SECONDS:
            t0 = time.process_time()
            sim = simulate(size, games, threads=1, seed=1000 * len(ratios) + games_played + 1, chunk=games)
            cpu += time.process_time() - t0
            assert not sim.capped.any()
            moves += int(sim.length.sum())
            games_played += games
        ratios.append(moves / cpu / kg_rate)
        lengths.append((moves / games_played, kg["mean_len"]))

    benchmark.pedantic(round_pair, rounds=ROUNDS, iterations=1)
    for ours, theirs in lengths:
        assert abs(ours - theirs) < 0.1 * theirs, (ours, theirs)
    benchmark.extra_info["ratios"] = [round(r, 3) for r in ratios]
    benchmark.extra_info["median_ratio"] = round(statistics.median(ratios), 3)
