"""Runs of random games as a Parquet dataset: a directory with one file per shard.

Each file ``<shard id>.parquet`` holds one shard's games, one row per game, with the
columns of the ``.npz`` (``margin``, ``winner``, ``first_passer``, ``length``,
``margin_area2``, ``capped``) and ``game`` (the game's index in its run), ``width`` and
``height`` (the board), ``rules`` (the ruleset without its komi, as
``ikeda.Rules.from_string`` reads it), ``komi`` and ``seed``. The file's schema metadata
(key ``ikeda``) names the shard, so a directory can be resumed, extended (more games,
more sizes, komis or seeds) and summarised without reading the games. Any Parquet reader
takes the directory as one table: ``pyarrow.dataset.dataset(DIR)``,
``pandas.read_parquet(DIR)``, DuckDB's ``read_parquet('DIR/*.parquet')``.

A shard is written once: to a temporary name, then renamed, so a file with a shard's
name is always complete, and a shard whose file exists is never played again. Nothing
is taken on trust (docs/security.md, "Datasets"): a file is read only if it is a regular
file, its name is the one its metadata gives, its row count and column types are the
metadata's and the schema's, and the summary checks every value it reads; anything else
is a :class:`DatasetError` naming the file. One run at a time writes a directory (a lock
file, ``.ikeda-lock``); a cell holds games of one pass probability and move cap.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import math
import os
import stat
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .errors import DatasetError as DatasetError
from .errors import IkedaError
from .limits import MAX_MOVES, board_side, probability, whole
from .rules import Rules
from .runs import played
from .shards import Cell, Shard, ShardResult, default_shard_games, play_shard, plan
from .simulate import Simulation
from .totals import Totals

SUFFIX = ".parquet"
#: The lock file of a directory being written; hidden, so Parquet readers skip it.
LOCK = ".ikeda-lock"
_META = b"ikeda"
#: The metadata's format: 2 names shards by seed and parameters and has a ``width``
#: column; format 1 (no ``format`` key) named them by cell and range and called the
#: width ``size``. Both are read.
FORMAT = 2
#: The per-game columns the summary reads, and ``game``, which it checks.
_STATS = ["margin", "margin_area2", "first_passer", "length", "capped"]
_READ = ["game", *_STATS]
#: Each column and its type, as :func:`shard_table` writes them (``rules`` may come back
#: from other writers as a plain string; format 1 has ``size`` for ``width``).
COLUMNS: dict[str, pa.DataType] = {
    "game": pa.int64(),
    "width": pa.int16(),
    "height": pa.int16(),
    "rules": pa.dictionary(pa.int8(), pa.string()),
    "komi": pa.float64(),
    "seed": pa.uint64(),
    "margin": pa.float64(),
    "winner": pa.int8(),
    "first_passer": pa.int8(),
    "length": pa.int32(),
    "margin_area2": pa.float64(),
    "capped": pa.bool_(),
}


def shard_table(result: ShardResult) -> pa.Table:
    """A shard's games as a table, its identity in the schema metadata."""
    s, c = result.shard, result.shard.cell
    n = s.games
    winner = np.where(result.margin > 0, 1, np.where(result.margin < 0, 2, 0)).astype(np.int8)
    columns = {
        "game": pa.array(np.arange(s.first, s.first + n, dtype=np.int64)),
        "width": pa.array(np.full(n, c.width, np.int16)),
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
        "format": FORMAT,
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
    """Writes a shard's file unless it is there already; whether it wrote it. A file
    of that name that is not this shard is a :class:`DatasetError`."""
    path = Path(directory) / (result.shard.id + SUFFIX)
    if os.path.lexists(path):
        # The name says seed, parameters and range: a file there holds these very games,
        # unless it is foreign, which is reported rather than silently kept.
        if read_shard_file(path).shard != result.shard:
            raise DatasetError(f"{path} is named for shard {result.shard.id} but holds another")
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
    """A shard file as its metadata describes it (checked against its name, row count
    and schema)."""

    path: Path
    shard: Shard
    seconds: float


@contextlib.contextmanager
def _open(path: Path) -> Iterator[IO[bytes]]:
    """`path` opened for reading if it is a regular file, else :class:`DatasetError`.
    Opened non-blocking (a FIFO, or a link to one, would otherwise wait for a writer for
    ever) and checked with ``fstat`` on the open descriptor, so a name swapped after the
    check cannot slip a FIFO or a device in."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as e:
        raise DatasetError(f"cannot read {path}: {e.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise DatasetError(f"{path} is not a shard of an ikeda dataset: not a regular file")
        os.set_blocking(fd, True)
        f = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with f:
        yield f


def read_shard_file(path: str | os.PathLike[str]) -> ShardFile:
    """A shard file's identity from its footer alone (no games are read): the metadata,
    which must name the file as it is named, give the row count the file has and come
    with the columns and types of :data:`COLUMNS`. Anything else is a
    :class:`DatasetError` naming the file."""
    path = Path(path)
    with _open(path) as f:
        try:
            footer = pq.read_metadata(f)
            schema = footer.schema.to_arrow_schema()
        except (OSError, pa.ArrowException, ValueError) as e:
            raise DatasetError(f"{path} is not a shard of an ikeda dataset: {e}") from None
    try:
        m = json.loads((schema.metadata or {})[_META])
        if not isinstance(m, dict):
            raise ValueError("the metadata is not an object")
        shard, seconds, form = _shard(m)
    except KeyError as e:
        raise DatasetError(f"{path} is not a shard of an ikeda dataset: no {e} in its metadata") from None
    except (ValueError, TypeError, IkedaError) as e:
        raise DatasetError(f"{path} is not a shard of an ikeda dataset: {e}") from None
    name = shard.id if form == FORMAT else shard.legacy_id
    if path.name != name + SUFFIX:
        raise DatasetError(f"{path} holds shard {name} by its metadata: the name does not match")
    if footer.num_rows != shard.games:
        raise DatasetError(f"{path} has {footer.num_rows:,} rows where its metadata says {shard.games:,} games")
    _check_schema(path, schema, form)
    return ShardFile(path, shard, seconds)


def _shard(m: dict[str, Any]) -> tuple[Shard, float, int]:
    """A shard, the worker's seconds and the format from a file's metadata, each value
    checked as a run's argument would be."""
    form = m.get("format", 1)
    if form not in (1, FORMAT):
        raise ValueError(f"format {form!r} is not one this ikeda reads (1..{FORMAT})")
    if not isinstance(m["rules"], str):
        raise ValueError(f"rules {m['rules']!r} is not a rules string")
    cell = Cell(board_side(m["width"], "width"), board_side(m["height"], "height"), Rules.from_string(m["rules"]))
    cap = m["max_moves"]
    shard = Shard(
        cell,
        whole(m["seed"], "seed", 0, 2**64 - 1),
        whole(m["first"], "first", 0, 2**63 - 2),
        whole(m["games"], "games", 1, 2**63 - 1),
        probability(m["pass_probability"], "pass_probability"),
        None if cap is None else whole(cap, "max_moves", 0, MAX_MOVES),
    )
    if shard.first + shard.games > 2**63 - 1:
        raise ValueError(f"games {shard.first}..{shard.first + shard.games} go past 2**63-1")
    seconds = m["seconds"]
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds < math.inf:
        raise ValueError(f"seconds {seconds!r} is not a finite number of seconds")
    return shard, float(seconds), form


def _check_schema(path: Path, schema: pa.Schema, form: int) -> None:
    for name, kind in COLUMNS.items():
        name = "size" if form == 1 and name == "width" else name
        i = schema.get_field_index(name)
        if i < 0:
            raise DatasetError(f"{path} has no column {name!r}")
        got = schema.field(i).type
        ok = got == kind or (name == "rules" and (got == pa.string() or (pa.types.is_dictionary(got) and got.value_type == pa.string())))
        if not ok:
            raise DatasetError(f"{path}: column {name!r} is {got}, not {kind}")


def shard_files(directory: str | os.PathLike[str]) -> list[ShardFile]:
    """The shards in a directory, from their files' footers only (no games are read),
    in name order. Raises :class:`DatasetError` on a file that is not a shard (see
    :func:`read_shard_file`), on shards that hold the same games twice, and on a cell
    played with two pass probabilities or move caps."""
    root = Path(directory)
    if not root.is_dir():
        raise DatasetError(f"{root} is not a directory")
    files = [read_shard_file(path) for path in sorted(root.glob("*" + SUFFIX))]
    _check_disjoint(files)
    _check_one_kind(files)
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


def _check_one_kind(files: list[ShardFile]) -> None:
    """A cell's summary adds its games over every seed: they must be games of one kind."""
    first: dict[Cell, ShardFile] = {}
    for f in files:
        other = first.setdefault(f.shard.cell, f)
        if (other.shard.pass_probability, other.shard.max_moves) != (f.shard.pass_probability, f.shard.max_moves):
            raise DatasetError(
                f"{other.path.name} and {f.path.name} hold games of {f.shard.cell} played with other pass "
                "probabilities or move caps; a cell of a dataset holds games of one kind"
            )


@contextlib.contextmanager
def locked(directory: Path) -> Iterator[None]:
    """The directory's write lock for the block, or :class:`DatasetError` at once if
    another run holds it. An advisory ``flock`` on ``DIR/.ikeda-lock``: the kernel drops it
    when its holder ends, however it ends, so no stale lock outlives a crash."""
    path = directory / LOCK
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError as e:
        raise DatasetError(f"cannot write {directory}: {e.strerror} ({LOCK})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise DatasetError(f"cannot write {directory}: {path} is not a regular file")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise DatasetError(f"{directory} is being written by another run; wait for it or write elsewhere") from None
        yield
    finally:
        os.close(fd)  # releases the lock


def _check_writable(directory: Path) -> None:
    """Makes and removes a file in `directory`, so an unwritable one fails before a game
    is played (the lock file may be there already, so opening it proves nothing)."""
    try:
        fd, name = tempfile.mkstemp(dir=directory, prefix=".ikeda-", suffix=".tmp")
        os.close(fd)
        os.unlink(name)
    except OSError as e:
        raise DatasetError(f"cannot write {directory}: {e.strerror}") from None


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
    :func:`ikeda.runs.played`), planned one at a time as they are played.
    `on_shard(games_done, games_to_play)` follows progress, once per shard written. The
    directory is locked for the run and proved writable before any game. Raises
    :class:`DatasetError` if another run is writing it, if it holds these cells played with
    another pass probability or move cap, or if a file in it is not a shard
    (:func:`shard_files`).
    """
    # As the files' metadata will read them back (plain ints and floats), so names match.
    seed = whole(seed, "seed", 0, 2**64 - 1)
    pass_probability = probability(pass_probability, "pass_probability")
    if max_moves is not None:
        max_moves = whole(max_moves, "max_moves", 0, MAX_MOVES)
    root = Path(directory)
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise DatasetError(f"cannot write {root}: {e.strerror}") from None
    with locked(root):
        _check_writable(root)
        existing = [f.shard for f in shard_files(root)]
        for s in existing:
            if s.cell in run_cells and (s.pass_probability, s.max_moves) != (pass_probability, max_moves):
                raise DatasetError(
                    f"{root} holds games of {s.cell} played with pass probability {s.pass_probability} and "
                    f"move cap {s.max_moves}; write this run to another directory"
                )
        todo = plan(
            run_cells, games, seed=seed, shard_games=shard_games or default_shard_games(games, ray=ray is not None),
            pass_probability=pass_probability, max_moves=max_moves, done=existing,
        )
        report = Written(skipped=sum(1 for s in existing if s.cell in run_cells and s.seed == seed and s.first < games))
        to_play = todo.games
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


def batches(f: ShardFile, *, batch_rows: int = 65_536) -> Iterator[dict[str, np.ndarray[Any, Any]]]:
    """The games of a shard file a record batch at a time, as arrays of ``game`` and the
    summary's columns, each value checked: no nulls, ``game`` the shard's indices in order,
    ``first_passer`` 0, 1 or 2, ``length`` not negative, margins finite multiples of 1/2 no
    larger than the board's points and the komi allow. Anything else is a
    :class:`DatasetError` naming the file, the column and the row."""
    at = f.shard.first
    bound = f.shard.cell.width * f.shard.cell.height + abs(f.shard.cell.rules.komi) + 1
    with _open(f.path) as handle:
        try:
            for batch in pq.ParquetFile(handle).iter_batches(batch_size=batch_rows, columns=_READ):
                for name in _READ:
                    col = batch.column(name)
                    if col.type != COLUMNS[name]:  # the footer said otherwise; the pages decide
                        raise DatasetError(f"{f.path}: column {name!r} is {col.type}, not {COLUMNS[name]}")
                    if col.null_count:
                        raise DatasetError(f"{f.path}: column {name!r} has {col.null_count:,} nulls")
                cols = {name: batch.column(name).to_numpy(zero_copy_only=False) for name in _READ}
                _check_values(f, cols, at, bound)
                at += batch.num_rows
                yield cols
        except (OSError, pa.ArrowException) as e:
            raise DatasetError(f"cannot read {f.path}: {e}") from None
    if at != f.shard.first + f.shard.games:
        raise DatasetError(f"{f.path} has {at - f.shard.first:,} rows where its metadata says {f.shard.games:,} games")


def _check_values(f: ShardFile, cols: dict[str, np.ndarray[Any, Any]], at: int, bound: float) -> None:
    n = len(cols["game"])
    bad: list[tuple[str, np.ndarray[Any, Any]]] = [
        ("game", cols["game"] != np.arange(at, at + n, dtype=np.int64)),
        ("first_passer", (cols["first_passer"] < 0) | (cols["first_passer"] > 2)),
        ("length", cols["length"] < 0),
    ]
    for name in ("margin", "margin_area2"):
        x = cols[name]
        with np.errstate(invalid="ignore"):
            bad.append((name, ~(np.abs(x) <= bound) | (x * 2 != np.rint(x * 2))))
    for name, wrong in bad:
        if wrong.any():
            row = int(np.argmax(wrong))
            raise DatasetError(f"{f.path}: column {name!r} holds {cols[name][row].item()!r} in row {at - f.shard.first + row:,}, which no game has")


def summarise(directory: str | os.PathLike[str], *, batch_rows: int = 65_536) -> list[Group]:
    """The totals of each cell of a dataset, reading the files a record batch at a time
    (memory stays bounded whatever the dataset's size), in cell order (size, ruleset, komi).
    Every value read is checked (:func:`batches`)."""
    groups: dict[Cell, Group] = {}
    for f in shard_files(directory):
        g = groups.setdefault(f.shard.cell, Group(f.shard.cell))
        g.shards += 1
        g.seeds.add(f.shard.seed)
        g.seconds += f.seconds
        for cols in batches(f, batch_rows=batch_rows):
            g.totals.add(*(cols[name] for name in _STATS))
    return sorted(groups.values(), key=lambda g: _order(g.cell))


def _order(cell: Cell) -> tuple[int, int, str, float]:
    return (cell.width, cell.height, cell.rules_text, cell.rules.komi)


def load(directory: str | os.PathLike[str], cells: Iterable[Cell] | None = None) -> list[Simulation]:
    """The games of a dataset in memory, one :class:`~ikeda.simulate.Simulation` per cell
    and seed, games in index order (`seconds`: the workers' time). For datasets that fit
    in memory; :func:`summarise` reads any size. Every value read is checked."""
    wanted = None if cells is None else set(cells)
    runs: dict[tuple[Cell, int], list[ShardFile]] = defaultdict(list)
    for f in shard_files(directory):
        if wanted is None or f.shard.cell in wanted:
            runs[f.shard.cell, f.shard.seed].append(f)
    out = []
    for (cell, seed), files in sorted(runs.items(), key=lambda kv: (_order(kv[0][0]), kv[0][1])):
        files.sort(key=lambda f: f.shard.first)
        parts = [cols for f in files for cols in batches(f)]
        col: dict[str, Any] = {name: np.concatenate([p[name] for p in parts]) for name in _STATS}
        out.append(
            Simulation(
                (cell.width, cell.height), cell.rules, seed,
                margin=col["margin"], margin_area2=col["margin_area2"], first_passer=col["first_passer"],
                length=col["length"], capped=col["capped"], seconds=sum(f.seconds for f in files),
            )
        )
    return out
