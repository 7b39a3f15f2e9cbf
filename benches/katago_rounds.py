"""Interleaved rounds of KataGo's board driver, ``examples/playouts`` (Rust, no Python) and
``simulate(threads=1)`` (through Python), each rate per CPU second of its own process, and
the ratios of each round: the three-way comparison of benches/README.md.

    python benches/katago_rounds.py SIZE ROUNDS [PLAYOUTS_BINARY]

The driver is ``target/katago/kgplayout`` (see ``bench_katago.py``); the binary defaults to
``target/release/examples/playouts`` (``cargo build --release -p ikeda-core --example
playouts``, fat LTO as the release profile sets it).
"""

from __future__ import annotations

import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).parents[1]


def child(cmd: list[str]) -> tuple[str, float, float]:
    """Output, wall seconds and CPU seconds of a child process."""
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    return out, wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    from ikeda.simulate import simulate

    size, rounds = int(sys.argv[1]), int(sys.argv[2])
    playouts = sys.argv[3] if len(sys.argv) > 3 else str(ROOT / "target" / "release" / "examples" / "playouts")
    driver = str(ROOT / "target" / "katago" / "kgplayout")
    chunk, native_games = (2000, 18000) if size == 9 else (300, 900)
    rates: dict[str, list[float]] = {"katago": [], "playouts": [], "simulate": []}
    for r in range(rounds):
        out, wall, cpu = child([driver, str(size), "2"])
        rates["katago"].append(json.loads(out)["moves_per_s"] * wall / cpu / 1e6)
        out, wall, cpu = child([playouts, str(size), str(native_games)])
        rates["playouts"].append(int(out.split(" games, ")[1].split(" moves")[0]) / cpu / 1e6)
        moves, cpu, games = 0, 0.0, 0
        while cpu < 2.0:
            t0 = time.process_time()
            sim = simulate(size, chunk, threads=1, seed=1000 * r + games + 1, chunk=chunk)
            cpu += time.process_time() - t0
            moves += int(sim.length.sum())
            games += chunk
        rates["simulate"].append(moves / cpu / 1e6)
        print(r, {k: round(v[-1], 2) for k, v in rates.items()}, flush=True)
    for side in ("playouts", "simulate"):
        ratios = [ours / kg for ours, kg in zip(rates[side], rates["katago"])]
        print(f"{size}x{size} {side}: median {statistics.median(rates[side]):.2f} M moves/CPU-s, "
              f"KataGo {statistics.median(rates['katago']):.2f}; ratios {min(ratios):.3f}-{max(ratios):.3f}, median {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
