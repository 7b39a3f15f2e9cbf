"""Running the workload: each task by each engine that can run it, timed, its answer
checked against ikeda's."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from .engines import Engine, ikeda_engines, peer_engines
from .workload import Sizes, Workload, make

#: The tasks in the order they are reported.
TASKS = ("playouts", "legal masks", "replay", "sgf replay", "perft")
#: The CPU seconds a task is repeated for, at least, when one run is faster.
MIN_SECONDS = 0.2
#: What one unit of each task is, for the rates.
UNITS = {"playouts": "moves", "legal masks": "positions", "replay": "moves", "sgf replay": "moves", "perft": "leaves"}


@dataclass
class Row:
    """One engine on one task: its answer and ikeda's, the CPU seconds (every thread of
    the process) and wall seconds it took, and the units of work (moves, positions,
    leaves) for a rate. `ratio` is its CPU time over ikeda's (through the protocol) on
    the same task: above 1, slower than ikeda."""

    task: str
    engine: str
    answer: int
    expected: int
    cpu_s: float
    wall_s: float
    units: int
    ratio: float | None = None

    @property
    def ok(self) -> bool:
        return self.answer == self.expected


@dataclass
class Result:
    sizes: Sizes
    rules: str
    rows: list[Row] = field(default_factory=list)
    missing: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.rows)

    def as_json(self) -> dict[str, object]:
        return {
            "sizes": asdict(self.sizes), "rules": self.rules, "ok": self.ok, "missing": self.missing,
            "rows": [{**asdict(r), "ok": r.ok} for r in self.rows],
        }


def timed(f: Callable[[Workload], int], w: Workload, min_seconds: float) -> tuple[int, float, float]:
    """`f`'s answer and its CPU and wall seconds, the means over as many runs as fit in
    `min_seconds` of CPU time (at least one): a fast engine's time is not noise."""
    runs, cpu, wall = 0, 0.0, 0.0
    while runs == 0 or cpu < min_seconds:
        c0, t0 = time.process_time(), time.perf_counter()
        answer = f(w)
        cpu += time.process_time() - c0
        wall += time.perf_counter() - t0
        runs += 1
    return answer, cpu / runs, wall / runs


def units_of(task: str, w: Workload) -> int:
    if task == "legal masks":
        return sum(len(m) for m in w.games)
    return w.expected(task)


def run(sizes: Sizes, peers: tuple[str, ...] = (), min_seconds: float = MIN_SECONDS) -> Result:
    """The workload of `sizes` run by ikeda and the `peers` that are installed (of
    :data:`~ikeda.bench.engines.PEER_NAMES`), each task repeated for `min_seconds` of CPU."""
    w = make(sizes)
    result = Result(sizes, str(w.rules))
    others, result.missing = peer_engines(peers)
    engines: list[Engine] = [*ikeda_engines(w), *others]
    try:
        for task in TASKS:
            base: float | None = None
            for e in engines:
                f = e.tasks.get(task)
                if f is None:
                    continue
                e.warm(w)
                answer, cpu, wall = timed(f, w, min_seconds)
                row = Row(task, e.name, answer, w.expected(task, e.rules), cpu, wall, units_of(task, w))
                if e.name == "ikeda":
                    base = cpu
                row.ratio = cpu / base if base else None
                result.rows.append(row)
    finally:
        for e in engines:
            e.close()
    return result
