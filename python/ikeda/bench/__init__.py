"""``ikeda bench``: ikeda's speed on a fixed, seeded workload (random playouts, legal sets,
replay of moves and of SGF records, perft) beside the peers that are installed, each
answer checked (docs/conformance.md, "Benchmark")."""

from __future__ import annotations

from .engines import PEER_NAMES
from .run import TASKS, Result, Row, run
from .workload import QUICK, Sizes

__all__ = ["PEER_NAMES", "QUICK", "TASKS", "Result", "Row", "Sizes", "run"]
