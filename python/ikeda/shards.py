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
from collections.abc import Iterable, Sequence
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
        """The shard's name, unique within a dataset: its cell and game range."""
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


def plan(
    run_cells: Sequence[Cell],
    games: int,
    *,
    seed: int,
    shard_games: int,
    pass_probability: float = 0.0,
    max_moves: int | None = None,
    done: Iterable[Shard] = (),
) -> list[Shard]:
    """The shards of a run still to play: games ``0 .. games-1`` of each cell, less the
    ranges of the shards in `done` (of this seed and cell), cut into shards of at most
    `shard_games` games at multiples of `shard_games` (so a resumed run cuts where the
    first one did)."""
    if games < 0 or shard_games <= 0:
        raise ArgumentError(f"games must be positive or 0 and shards at least 1 game (got {games}, {shard_games})")
    out: list[Shard] = []
    for cell in run_cells:
        covered = sorted((s.first, s.first + s.games) for s in done if s.cell == cell and s.seed == seed)
        for lo, hi in _gaps(covered, games):
            cut = lo
            while cut < hi:
                end = min(hi, (cut // shard_games + 1) * shard_games)
                out.append(Shard(cell, seed, cut, end - cut, pass_probability, max_moves))
                cut = end
    return out


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
