"""Many random games natively, spread over threads: the simulation behind
``ikeda simulate``.

Games are played by ikeda-core's playout policy (uniform among legal plays that do not
fill the player's own eye; see docs/rules.md) from the empty board, Black first, to their
real end under the ruleset. Game ``k`` of a run seeded with ``seed`` is the same game
whatever the thread count or chunking.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core
from .errors import ArgumentError
from .rules import Rules, as_rules


@dataclass(frozen=True)
class Simulation:
    """Per-game arrays of a run, and how long it took."""

    size: tuple[int, int]
    rules: Rules
    seed: int
    margin: npt.NDArray[np.float64]  # Black - White under the ruleset, komi included
    margin_area2: npt.NDArray[np.float64]  # the same final boards under Area II counting
    first_passer: npt.NDArray[np.int8]  # 0 nobody, 1 Black, 2 White
    length: npt.NDArray[np.int32]  # moves, passes included
    capped: npt.NDArray[np.bool_]  # stopped by the safety cap, not by the rules
    seconds: float

    @property
    def games(self) -> int:
        return len(self.margin)

    @property
    def winner(self) -> npt.NDArray[np.int8]:
        """1 Black, 2 White, 0 draw."""
        return np.where(self.margin > 0, 1, np.where(self.margin < 0, 2, 0)).astype(np.int8)

    @property
    def half_point_decided(self) -> npt.NDArray[np.bool_]:
        """Games whose winner differs between the ruleset's count and Area II's (for Area
        III: the first-pass half point decided them)."""
        w2 = np.sign(self.margin_area2)
        return np.sign(self.margin) != w2  # type: ignore[no-any-return]

    def save(self, path: str) -> None:
        """Writes ``margin``, ``winner``, ``first_passer``, ``length``, ``margin_area2``
        (and ``capped``) as a numpy ``.npz``."""
        np.savez(
            path,
            margin=self.margin,
            winner=self.winner,
            first_passer=self.first_passer,
            length=self.length,
            margin_area2=self.margin_area2,
            capped=self.capped,
        )


def simulate(
    size: int | tuple[int, int] = 9,
    games: int = 10_000,
    *,
    rules: Rules | str = "area3",
    komi: float | None = None,
    threads: int = 0,
    seed: int = 1,
    pass_probability: float = 0.0,
    max_moves: int | None = None,
    chunk: int = 2_000,
    on_chunk: Callable[[int], None] | None = None,
) -> Simulation:
    """Plays `games` random games natively on `threads` threads (0 = every core), in
    chunks of `chunk` games; `on_chunk(games_done)` is called after each (progress)."""
    w, h = (size, size) if isinstance(size, int) else size
    ruleset = as_rules(rules)
    if komi is not None:
        ruleset = ruleset.replace(komi=komi)
    if games < 0 or threads < 0 or chunk <= 0:
        raise ArgumentError(f"games, threads and chunk must be positive (got {games}, {threads}, {chunk})")
    if not 0 <= seed < 2**64:
        raise ArgumentError(f"seed must be in 0..2**64, not {seed}")
    parts = []
    start = time.perf_counter()
    for first in range(0, games, chunk):
        n = min(chunk, games - first)
        parts.append(_core.simulate(w, h, ruleset, seed, first, n, threads, pass_probability, max_moves))
        if on_chunk is not None:
            on_chunk(first + n)
    seconds = time.perf_counter() - start
    def column(k: int, dtype: type) -> npt.NDArray[Any]:
        return np.concatenate([p[k] for p in parts]) if parts else np.zeros(0, dtype)

    return Simulation(
        (w, h), ruleset, seed,
        margin=column(0, np.float64),
        margin_area2=column(1, np.float64),
        first_passer=column(2, np.int8),
        length=column(3, np.int32),
        capped=column(4, np.bool_),
        seconds=seconds,
    )
