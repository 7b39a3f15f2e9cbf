"""Many random games natively, spread over threads or Ray tasks (docs/ray.md): the
simulation behind ``ikeda simulate``.

Games are played by ikeda-core's playout policy (uniform among legal plays that do not
fill the player's own eye; see docs/rules.md) from the empty board, Black first, to their
real end under the ruleset. Game ``k`` of a run seeded with ``seed`` is the same game
whatever the thread count, chunking or number of Ray workers.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt

from .limits import MAX_GAMES, MAX_MOVES, board_side, probability, thread_count, whole
from .rules import Rules, as_rules
from .runs import played
from .shards import Cell, Plan, ShardResult, default_shard_games, plan
from .totals import Totals


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

    def totals(self) -> Totals:
        """The run's summary statistics."""
        t = Totals()
        t.add(self.margin, self.margin_area2, self.first_passer, self.length, self.capped)
        return t

    def save(self, path: str | BinaryIO) -> None:
        """Writes ``margin``, ``winner``, ``first_passer``, ``length``, ``margin_area2``
        (and ``capped``) as a numpy ``.npz`` (numpy appends ``.npz`` to a path without
        it; an open binary file is written as it is)."""
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
    chunk: int | None = None,
    on_chunk: Callable[[int], None] | None = None,
    ray: str | None = None,
    workers: int | None = None,
) -> Simulation:
    """Plays `games` random games natively on `threads` threads (0 = every core), in
    chunks of `chunk` games (default: games/50 within 2,000..20,000, on Ray within
    10,000..50,000); `on_chunk(games_done)` is called after each (progress).

    With `ray` (``"auto"``, ``"local"`` or a cluster address, docs/ray.md) each chunk is a
    Ray task of one CPU instead, at most `workers` at once; the games, and so the arrays,
    are the same as on threads. A Ray this call starts stays up for the next call, as
    ``ray.init()`` does.
    """
    if isinstance(size, tuple) and len(size) == 2:
        w, h = board_side(size[0], "width"), board_side(size[1], "height")
    else:
        w = h = board_side(size, "size")
    ruleset = as_rules(rules)
    if komi is not None:
        ruleset = ruleset.replace(komi=komi)
    return simulate_cells(
        [Cell(w, h, ruleset)], games, threads=threads, seed=seed, pass_probability=pass_probability,
        max_moves=max_moves, chunk=chunk, on_chunk=on_chunk, ray=ray, workers=workers,
    )[0]


def simulate_cells(
    run_cells: Sequence[Cell],
    games: int,
    *,
    threads: int = 0,
    seed: int = 1,
    pass_probability: float = 0.0,
    max_moves: int | None = None,
    chunk: int | None = None,
    on_chunk: Callable[[int], None] | None = None,
    ray: str | None = None,
    workers: int | None = None,
    shutdown: bool = False,
) -> list[Simulation]:
    """:func:`simulate` for several cells (board sizes, rulesets and komis, see
    :func:`ikeda.shards.cells`) in one run: one :class:`Simulation` per cell, in order.
    `on_chunk(games_done)` counts the games of every cell; `shutdown` shuts down a Ray
    started here when done. The arrays take about 30 bytes a game: for summaries of
    longer runs, :func:`simulate_totals` keeps none."""
    parts: dict[str, ShardResult] = {}  # by shard id: a shard counts once

    def keep(result: ShardResult) -> bool:
        return parts.setdefault(result.shard.id, result) is result

    todo, seconds = _run(
        run_cells, games, keep, threads=threads, seed=seed, pass_probability=pass_probability, max_moves=max_moves,
        chunk=chunk, on_chunk=on_chunk, ray=ray, workers=workers, shutdown=shutdown,
    )
    return [_gather(cell, todo.seed, [parts[s.id] for s in todo if s.cell == cell], seconds) for cell in run_cells]


def simulate_totals(
    run_cells: Sequence[Cell],
    games: int,
    *,
    threads: int = 0,
    seed: int = 1,
    pass_probability: float = 0.0,
    max_moves: int | None = None,
    chunk: int | None = None,
    on_chunk: Callable[[int], None] | None = None,
    ray: str | None = None,
    workers: int | None = None,
    shutdown: bool = False,
) -> tuple[list[Totals], float]:
    """:func:`simulate_cells`'s summary statistics without its arrays: each shard's games
    are added to its cell's :class:`Totals` as it finishes and dropped, so memory does
    not grow with `games`. The totals per cell, in order, and the run's seconds."""
    totals = {cell: Totals() for cell in run_cells}
    seen: set[str] = set()  # a shard counts once

    def keep(result: ShardResult) -> bool:
        if result.shard.id in seen:
            return False
        seen.add(result.shard.id)
        totals[result.shard.cell].add(result.margin, result.margin_area2, result.first_passer, result.length, result.capped)
        return True

    _, seconds = _run(
        run_cells, games, keep, threads=threads, seed=seed, pass_probability=pass_probability, max_moves=max_moves,
        chunk=chunk, on_chunk=on_chunk, ray=ray, workers=workers, shutdown=shutdown,
    )
    return [totals[cell] for cell in run_cells], seconds


def _run(
    run_cells: Sequence[Cell],
    games: int,
    keep: Callable[[ShardResult], bool],
    *,
    threads: int,
    seed: int,
    pass_probability: float,
    max_moves: int | None,
    chunk: int | None,
    on_chunk: Callable[[int], None] | None,
    ray: str | None,
    workers: int | None,
    shutdown: bool,
) -> tuple[Plan, float]:
    """Checks a run's parameters, plays its shards and gives each result to `keep`
    (which says whether it was new); the plan played and the wall time."""
    games = whole(games, "games", 0, 2**63 - 1)
    threads = thread_count(threads)
    if chunk is not None:
        chunk = whole(chunk, "chunk", 1, MAX_GAMES)
    seed = whole(seed, "seed", 0, 2**64 - 1)
    pass_probability = probability(pass_probability, "pass_probability")
    if max_moves is not None:
        max_moves = whole(max_moves, "max_moves", 0, MAX_MOVES)
    shard_games = chunk if chunk is not None else default_shard_games(games, ray=ray is not None)
    todo = plan(run_cells, games, seed=seed, shard_games=shard_games, pass_probability=pass_probability, max_moves=max_moves)
    done = 0
    start = time.perf_counter()
    with contextlib.closing(played(todo, ray=ray, workers=workers, threads=threads, shutdown=shutdown)) as results:
        for result in results:
            if keep(result):
                done += result.shard.games
            if on_chunk is not None:
                on_chunk(done)
    return todo, time.perf_counter() - start


def _gather(cell: Cell, seed: int, ordered: list[ShardResult], seconds: float) -> Simulation:
    def column(name: str, dtype: type) -> npt.NDArray[Any]:
        return np.concatenate([getattr(p, name) for p in ordered]) if ordered else np.zeros(0, dtype)

    return Simulation(
        (cell.width, cell.height), cell.rules, seed,
        margin=column("margin", np.float64),
        margin_area2=column("margin_area2", np.float64),
        first_passer=column("first_passer", np.int8),
        length=column("length", np.int32),
        capped=column("capped", np.bool_),
        seconds=seconds,
    )
