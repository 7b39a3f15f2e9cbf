"""Runs of random games as a Parquet dataset: a directory with one file per shard.

Each file ``<shard id>.parquet`` holds one shard's games, one row per game, with the
columns of the ``.npz`` (``margin``, ``winner``, ``first_passer``, ``length``,
``margin_area2``, ``capped``) and ``game`` (the game's index in its run), ``size`` and
``height`` (the board; equal for square boards), ``rules`` (the ruleset without its
komi, as ``ikeda.Rules.from_string`` reads it), ``komi`` and ``seed``. The file's schema
metadata (key ``ikeda``) names the shard, so a directory can be resumed, extended
(more games, more sizes or komis) and summarised without reading the games. Any
Parquet reader takes the directory as one table: ``pyarrow.dataset.dataset(DIR)``,
``pandas.read_parquet(DIR)``, DuckDB's ``read_parquet('DIR/*.parquet')``.

A shard is written once: to a temporary name, then renamed, so a file with a shard's
name is always complete, and a shard whose file exists is never played again.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .errors import DatasetError as DatasetError
from .rules import Rules
from .runs import played
from .shards import Cell, Shard, ShardResult, default_shard_games, play_shard, plan
from .simulate import Simulation
from .totals import Totals

SUFFIX = ".parquet"
_META = b"ikeda"
#: The per-game columns the summary reads.
_STATS = ["margin", "margin_area2", "first_passer", "length", "capped"]


def shard_table(result: ShardResult) -> pa.Table:
    """A shard's games as a table, its identity in the schema metadata."""
    s, c = result.shard, result.shard.cell
    n = s.games
    winner = np.where(result.margin > 0, 1, np.where(result.margin < 0, 2, 0)).astype(np.int8)
    columns = {
        "game": pa.array(np.arange(s.first, s.first + n, dtype=np.int64)),
        "size": pa.array(np.full(n, c.width, np.int16)),
        "height": pa.array(np.full(n, c.height, np.int16)),
        "rules": pa.DictionaryArray.from_arrays(pa.array(np.zeros(n, np.int8)), pa.array([c.rules_text])),
        "komi": pa.array(np.full(n, c.rules.komi, np.float64)),
        "seed": pa.array(np.full(n, s.seed, np.uint64)),
        "margin": pa.array(result.margin),
        "winner": pa.array(winner),
        "first_passer": pa.array(result.first_passer),
        "length": pa.array(result.length),
        "margin_area2": pa.array(result.margin_area2),
        "capped": pa.array(result.capped),
    }
    meta = {
        "shard": s.id,
        "width": c.width,
        "height": c.height,
        "rules": str(c.rules),
        "seed": s.seed,
        "first": s.first,
        "games": n,
        "pass_probability": s.pass_probability,
        "max_moves": s.max_moves,
        "seconds": result.seconds,
    }
    return pa.table(columns).replace_schema_metadata({_META: json.dumps(meta).encode()})


def write_shard(directory: str | os.PathLike[str], result: ShardResult) -> bool:
    """Writes a shard's file unless it is there already; whether it wrote it."""
    path = Path(directory) / (result.shard.id + SUFFIX)
    if path.exists():
        return False
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    table = shard_table(result)
    # `game` counts up by one: delta encoding stores it in a few bytes per shard, where a
    # dictionary would cost as much as the rest of the row.
    dictionary = [name for name in table.column_names if name != "game"]
    try:
        pq.write_table(table, tmp, compression="zstd", use_dictionary=dictionary, column_encoding={"game": "DELTA_BINARY_PACKED"})
        os.replace(tmp, path)  # atomic: the name appears only with the whole file behind it
    except BaseException:
        # Ctrl-C (or a full disk) in the middle of a write leaves no partial file behind.
        tmp.unlink(missing_ok=True)
        raise
    return True


@dataclass(frozen=True)
class ShardFile:
    """A shard file as its metadata describes it."""

    path: Path
    shard: Shard
    seconds: float


def shard_files(directory: str | os.PathLike[str]) -> list[ShardFile]:
    """The shards in a directory, from their files' metadata only (no games are read),
    in name order. Raises :class:`DatasetError` on files that are not shards or shards
    that hold the same games twice."""
    root = Path(directory)
    if not root.is_dir():
        raise DatasetError(f"{root} is not a directory")
    files = []
    for path in sorted(root.glob("*" + SUFFIX)):
        try:
            meta = pq.read_schema(path).metadata or {}
            m = json.loads(meta[_META])
            cell = Cell(int(m["width"]), int(m["height"]), Rules.from_string(m["rules"]))
            shard = Shard(cell, int(m["seed"]), int(m["first"]), int(m["games"]), float(m["pass_probability"]), m["max_moves"])
            files.append(ShardFile(path, shard, float(m["seconds"])))
        except (OSError, pa.ArrowException, KeyError, ValueError, TypeError) as e:
            raise DatasetError(f"{path} is not a shard of an ikeda dataset: {e}") from None
    _check_disjoint(files)
    return files


def _check_disjoint(files: list[ShardFile]) -> None:
    ranges: dict[tuple[Cell, int], list[tuple[int, int, Path]]] = defaultdict(list)
    for f in files:
        ranges[f.shard.cell, f.shard.seed].append((f.shard.first, f.shard.first + f.shard.games, f.path))
    for (cell, seed), spans in ranges.items():
        spans.sort()
        for (_, hi, a), (lo, _, b) in zip(spans, spans[1:]):
            if lo < hi:
                raise DatasetError(f"{a.name} and {b.name} hold the same games ({cell}, seed {seed})")


@dataclass
class Written:
    """What :func:`write` did: shards played and written now, shards found done."""

    played: int = 0
    skipped: int = 0
    games: int = 0
    seconds: float = 0.0


def write(
    directory: str | os.PathLike[str],
    run_cells: Sequence[Cell],
    games: int,
    *,
    seed: int = 1,
    shard_games: int | None = None,
    pass_probability: float = 0.0,
    max_moves: int | None = None,
    ray: str | None = None,
    workers: int | None = None,
    threads: int = 0,
    retries: int = 3,
    shutdown: bool = False,
    on_shard: Callable[[int, int], None] | None = None,
    play: Callable[[Shard], ShardResult] = play_shard,
) -> Written:
    """Plays games ``0 .. games-1`` of each cell into `directory`, one Parquet file per
    shard, skipping the games whose shards are already there (a resumed or extended run).

    Shards are played on `threads` threads here, or as Ray tasks with `ray` (see
    :func:`ikeda.runs.played`). `on_shard(games_done, games_to_play)` follows progress,
    once per shard written. Raises :class:`DatasetError` if the directory holds these cells and seed
    played with another pass probability or move cap.
    """
    root = Path(directory)
    root.mkdir(parents=True, exist_ok=True)
    existing = [f.shard for f in shard_files(root)]
    for s in existing:
        if s.cell in run_cells and s.seed == seed and (s.pass_probability, s.max_moves) != (pass_probability, max_moves):
            raise DatasetError(
                f"{root} holds games of {s.cell}, seed {seed} played with pass probability {s.pass_probability} and "
                f"move cap {s.max_moves}; write this run to another directory"
            )
    todo = plan(
        run_cells, games, seed=seed, shard_games=shard_games or default_shard_games(games, ray=ray is not None),
        pass_probability=pass_probability, max_moves=max_moves, done=existing,
    )
    report = Written(skipped=sum(1 for s in existing if s.cell in run_cells and s.seed == seed and s.first < games))
    to_play = sum(s.games for s in todo)
    start = time.perf_counter()
    with contextlib.closing(
        played(todo, ray=ray, workers=workers, threads=threads, retries=retries, shutdown=shutdown, play=play)
    ) as results:
        for result in results:
            if write_shard(root, result):
                report.played += 1
                report.games += result.shard.games
            if on_shard is not None:
                on_shard(report.games, to_play)
    report.seconds = time.perf_counter() - start
    return report


@dataclass
class Group:
    """The totals of one cell of a dataset, over all its seeds."""

    cell: Cell
    totals: Totals = field(default_factory=Totals)
    shards: int = 0
    seeds: set[int] = field(default_factory=set)
    #: The workers' time, summed over shards.
    seconds: float = 0.0


def summarise(directory: str | os.PathLike[str], *, batch_rows: int = 65_536) -> list[Group]:
    """The totals of each cell of a dataset, reading the files a record batch at a time
    (memory stays bounded whatever the dataset's size), in cell order (size, ruleset, komi)."""
    groups: dict[Cell, Group] = {}
    for f in shard_files(directory):
        g = groups.setdefault(f.shard.cell, Group(f.shard.cell))
        g.shards += 1
        g.seeds.add(f.shard.seed)
        g.seconds += f.seconds
        try:
            for batch in pq.ParquetFile(f.path).iter_batches(batch_size=batch_rows, columns=_STATS):
                g.totals.add(*(batch.column(name).to_numpy(zero_copy_only=False) for name in _STATS))
        except (OSError, pa.ArrowException, KeyError) as e:
            raise DatasetError(f"cannot read {f.path}: {e}") from None
    return sorted(groups.values(), key=lambda g: _order(g.cell))


def _order(cell: Cell) -> tuple[int, int, str, float]:
    return (cell.width, cell.height, cell.rules_text, cell.rules.komi)


def load(directory: str | os.PathLike[str], cells: Iterable[Cell] | None = None) -> list[Simulation]:
    """The games of a dataset in memory, one :class:`~ikeda.simulate.Simulation` per cell
    and seed, games in index order (`seconds`: the workers' time). For datasets that fit
    in memory; :func:`summarise` reads any size."""
    wanted = None if cells is None else set(cells)
    runs: dict[tuple[Cell, int], list[ShardFile]] = defaultdict(list)
    for f in shard_files(directory):
        if wanted is None or f.shard.cell in wanted:
            runs[f.shard.cell, f.shard.seed].append(f)
    out = []
    for (cell, seed), files in sorted(runs.items(), key=lambda kv: (_order(kv[0][0]), kv[0][1])):
        files.sort(key=lambda f: f.shard.first)
        table = pa.concat_tables(pq.read_table(f.path, columns=_STATS) for f in files)
        col: dict[str, Any] = {name: table.column(name).to_numpy() for name in _STATS}
        out.append(
            Simulation(
                (cell.width, cell.height), cell.rules, seed,
                margin=col["margin"], margin_area2=col["margin_area2"], first_passer=col["first_passer"],
                length=col["length"], capped=col["capped"], seconds=sum(f.seconds for f in files),
            )
        )
    return out
