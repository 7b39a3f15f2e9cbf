"""Who runs the workload of ``ikeda bench``: ikeda, and the peers that are installed.

The in-process peers are the conformance adapters (:mod:`ikeda.conform.adapters`), so a
peer is driven by exactly the calls that check it; ikeda runs the same tasks through the
same protocol (:class:`~ikeda.conform.adapters.IkedaKernel`), and its native entry points
where it has one (perft). SGF replay compares ikeda's reader with sgfmill's.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..conform.adapters import ADAPTERS, IkedaKernel
from ..conform.kernel import Kernel
from ..errors import IkedaError
from ..game import Game, perft
from ..sgf import read
from .workload import KERNEL_TASKS, KOMI, PEER_RULES, RULES, Workload

#: The in-process peers by the name ``--peers`` takes, each with the adapter that drives it.
PEERS = ADAPTERS
#: Every peer name ``--peers`` takes (sgfmill replays SGF only).
PEER_NAMES = (*PEERS, "sgfmill")


@dataclass
class Engine:
    """An engine's way of running each task it can run (a function of the workload that
    returns the task's answer), and `close` for what it holds."""

    name: str
    tasks: dict[str, Callable[[Workload], int]]
    close: Callable[[], None] = lambda: None
    #: The rules its answers are checked under (the peers' legal sets: simple ko).
    rules: str = RULES
    #: Called before each task, untimed: what is made once per board size (pgx compiles).
    warm: Callable[[Workload], None] = lambda w: None


def kernel_engine(name: str, kernel: Kernel, rules: str = RULES) -> Engine:
    def bind(task: Callable[[Kernel, Workload], int]) -> Callable[[Workload], int]:
        return lambda w: task(kernel, w)

    def warm(w: Workload) -> None:
        for size in (w.sizes.size, w.sizes.perft_size):
            kernel.reset(size, KOMI)
            kernel.play("b", sorted(kernel.legal("b"))[0])
            kernel.legal("w")

    return Engine(name, {t: bind(f) for t, f in KERNEL_TASKS.items()}, kernel.close, rules, warm)


def ikeda_engines(w: Workload) -> list[Engine]:
    """ikeda through the protocol (every task; SGF replay with its own reader), and
    natively where it has an entry point of its own (perft)."""
    protocol = kernel_engine("ikeda", IkedaKernel(w.rules))
    protocol.tasks["sgf replay"] = lambda w: _ikeda_sgf_replay(w)
    native = Engine("ikeda (native)", {
        "perft": lambda w: perft(Game(w.sizes.perft_size, rules=w.rules, komi=KOMI), w.sizes.perft_depth),
    })
    return [protocol, native]


def _ikeda_sgf_replay(w: Workload) -> int:
    return sum(len(read(text).replay(w.rules).moves) for text in w.records)


def _sgfmill_sgf_replay(w: Workload) -> int:
    sgf: Any = importlib.import_module("sgfmill.sgf")
    sgf_moves: Any = importlib.import_module("sgfmill.sgf_moves")
    total = 0
    for text in w.records:
        game = sgf.Sgf_game.from_string(text)
        board, plays = sgf_moves.get_setup_and_moves(game)
        for colour, move in plays:
            if move is not None:
                board.play(move[0], move[1], colour)
            total += 1
    return total  # sgfmill's board makes captures but tests no legality


def peer_engines(names: tuple[str, ...]) -> tuple[list[Engine], dict[str, str]]:
    """The engines of the peers in `names` that are installed, and why each other one is
    left out."""
    engines: list[Engine] = []
    missing: dict[str, str] = {}
    for name in names:
        if name == "sgfmill":
            if importlib.util.find_spec("sgfmill") is None:
                missing[name] = "not installed: pip install sgfmill"
            else:
                engines.append(Engine("sgfmill", {"sgf replay": _sgfmill_sgf_replay}))
            continue
        try:
            kernel = PEERS[name]()
        except IkedaError as e:
            missing[name] = str(e)
            continue
        engines.append(kernel_engine(kernel.name, kernel, PEER_RULES))
    return engines, missing
