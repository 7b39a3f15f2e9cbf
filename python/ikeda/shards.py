"""A run of random games cut into shards: the unit that a worker plays, a retry repeats
and a dataset stores in one file.

A run is one or more *cells* (board size and ruleset, komi included: a sweep has
several) times ``games`` games, all of one seed. Shard ``k..k+m`` of a cell is the native
batch of games ``k`` to ``k+m-1`` of that seed (ikeda-core derives each game's random
stream from the seed and the game's index alone), so the games are the same whatever
the cut, the number of workers, the order shards finish in or how often one is retried.
"""

from __future__ import annotations

import itertools
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from . import _core
from .errors import ArgumentError
from .rules import PRESETS, Rules


@dataclass(frozen=True)
class Cell:
    """One board size and ruleset (komi included) of a run."""

    width: int
    height: int
    rules: Rules

    @property
    def key(self) -> str:
        """A file-name-safe name, unique per cell: size, preset, komi and a digest of the
        whole ruleset (for rulesets that differ from their preset in other components)."""
        return f"{self.width}x{self.height}-{self.rules.name}-komi{self.rules.komi:g}-{self.rules.digest[:8]}"

    @property
    def rules_text(self) -> str:
        """The ruleset without its komi, as ``Rules.from_string`` reads it (the dataset's
        ``rules`` column; komi has a column of its own)."""
        return str(self.rules.replace(komi=PRESETS[self.rules.name].komi))

    def __str__(self) -> str:
        size = f"{self.width}x{self.height}"
        return f"{size}, {self.rules_text}, komi {self.rules.komi:g}"


def cells(sizes: Iterable[int | tuple[int, int]], rulesets: Iterable[Rules], komis: Iterable[float | None] = (None,)) -> list[Cell]:
    """Every combination of sizes, rulesets and komis (None: the ruleset's own komi), in
    that order, without repeats."""
    out: list[Cell] = []
    for size, rules, komi in itertools.product(sizes, rulesets, komis):
        w, h = (size, size) if isinstance(size, int) else size
        cell = Cell(w, h, rules if komi is None else rules.replace(komi=komi))
        if cell not in out:
            out.append(cell)
    return out


@dataclass(frozen=True)
class Shard:
    """Games ``first`` .. ``first + games - 1`` of a cell under a seed."""

    cell: Cell
    seed: int
    first: int
    games: int
    pass_probability: float = 0.0
    max_moves: int | None = None

    @property
    def id(self) -> str:
        """The shard's name: everything that decides its games (cell, seed, pass
        probability, move cap) and their range, so two shards have the same name only if
        they hold the same games."""
        cap = "" if self.max_moves is None else f"-cap{self.max_moves}"
        return f"{self.cell.key}-seed{self.seed}-pass{float(self.pass_probability)!r}{cap}-g{self.first:012d}-{self.first + self.games:012d}"

    @property
    def legacy_id(self) -> str:
        """The name datasets written before format 2 gave a shard: its cell and range only."""
        return f"{self.cell.key}-g{self.first:012d}-{self.first + self.games:012d}"


#: The time one native call of a shard aims at: how long Ctrl-C waits at most, about.
PIECE_SECONDS = 0.1


class ShardResult(NamedTuple):
    """A played shard: the per-game arrays (as ``_core.simulate`` returns them) and the
    seconds the worker took."""

    shard: Shard
    margin: npt.NDArray[np.float64]
    margin_area2: npt.NDArray[np.float64]
    first_passer: npt.NDArray[np.int8]
    length: npt.NDArray[np.int32]
    capped: npt.NDArray[np.bool_]
    seconds: float


def play_shard(shard: Shard, threads: int = 1) -> ShardResult:
    """Plays a shard natively on `threads` threads (0: every core). This is the task a
    Ray worker runs."""
    c = shard.cell
    start = time.perf_counter()
    # The native call holds this thread, so Ctrl-C lands between calls: the shard is
    # played in pieces that grow from a few games while they take well under
    # PIECE_SECONDS. Game k is the same game however the shard is cut.
    parts = []
    first, end, n = shard.first, shard.first + shard.games, 16
    while True:
        n = min(n, end - first)
        t = time.perf_counter()
        parts.append(_core.simulate(c.width, c.height, c.rules, shard.seed, first, n, threads, shard.pass_probability, shard.max_moves))
        first += n
        if first >= end:
            break
        took = time.perf_counter() - t
        if took < PIECE_SECONDS / 2:
            n *= 2
        elif took > PIECE_SECONDS * 2:
            n = max(1, n // 2)
    if len(parts) == 1:
        return ShardResult(shard, *parts[0], time.perf_counter() - start)
    margin, margin_area2, first_passer, length, capped = (np.concatenate([p[k] for p in parts]) for k in range(5))
    return ShardResult(shard, margin, margin_area2, first_passer, length, capped, time.perf_counter() - start)


def check(shard: Shard) -> None:
    """Raises the error a shard's parameters would raise in a worker, here and at once
    (no game is played)."""
    if not 0 <= shard.seed < 2**64:
        raise ArgumentError(f"seed must be in 0..2**64, not {shard.seed}")
    play_shard(Shard(shard.cell, shard.seed, 0, 0, shard.pass_probability, shard.max_moves))


@dataclass(frozen=True)
class Plan:
    """The shards of a run still to play, made one at a time as they are taken (a run of
    10^14 games is 5 billion shards: none is made before it is played). Iterating again
    starts again."""

    cells: tuple[Cell, ...]
    seed: int
    shard_games: int
    pass_probability: float
    max_moves: int | None
    #: Per cell, the ranges of games still to play, sorted.
    gaps: tuple[tuple[tuple[int, int], ...], ...]

    @property
    def games(self) -> int:
        """The games still to play, over every cell."""
        return sum(hi - lo for cell_gaps in self.gaps for lo, hi in cell_gaps)

    def __iter__(self) -> Iterator[Shard]:
        size = self.shard_games
        for cell, cell_gaps in zip(self.cells, self.gaps):
            for lo, hi in cell_gaps:
                cut = lo
                while cut < hi:
                    end = min(hi, (cut // size + 1) * size)
                    yield Shard(cell, self.seed, cut, end - cut, self.pass_probability, self.max_moves)
                    cut = end

    def check(self) -> None:
        """Raises the error any shard of the plan would raise in a worker, at once."""
        for cell in self.cells:
            check(Shard(cell, self.seed, 0, 0, self.pass_probability, self.max_moves))


def plan(
    run_cells: Sequence[Cell],
    games: int,
    *,
    seed: int,
    shard_games: int,
    pass_probability: float = 0.0,
    max_moves: int | None = None,
    done: Iterable[Shard] = (),
) -> Plan:
    """The shards of a run still to play: games ``0 .. games-1`` of each cell, less the
    ranges of the shards in `done` (of this seed and cell), cut into shards of at most
    `shard_games` games at multiples of `shard_games` (so a resumed run cuts where the
    first one did). The plan's size grows with `done`, not with `games`."""
    if games < 0 or shard_games <= 0:
        raise ArgumentError(f"games must be positive or 0 and shards at least 1 game (got {games}, {shard_games})")
    covered: dict[Cell, list[tuple[int, int]]] = defaultdict(list)
    for s in done:
        if s.seed == seed:
            covered[s.cell].append((s.first, s.first + s.games))
    return Plan(
        tuple(run_cells), seed, shard_games, pass_probability, max_moves,
        tuple(tuple(_gaps(sorted(covered.get(cell, [])), games)) for cell in run_cells),
    )


def _gaps(covered: list[tuple[int, int]], games: int) -> list[tuple[int, int]]:
    """The ranges of ``0 .. games`` that no (sorted) covered range contains."""
    gaps, at = [], 0
    for lo, hi in covered:
        if lo > at:
            gaps.append((at, min(lo, games)))
        at = max(at, hi)
    if at < games:
        gaps.append((at, games))
    return [(lo, hi) for lo, hi in gaps if lo < hi]


def default_shard_games(games: int, *, ray: bool = False) -> int:
    """The shard size when none is given: about 50 shards per cell for the progress bar,
    within 2,000..20,000 games on threads; on Ray within 10,000..50,000, where a shard
    costs about 2 ms of CPU (about 100 9x9 games) on top of its games (docs/ray.md)."""
    lo, hi = (10_000, 50_000) if ray else (2_000, 20_000)
    return max(lo, min(hi, games // 50))
