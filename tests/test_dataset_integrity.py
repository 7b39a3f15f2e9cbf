"""A dataset never drops or mixes games and never trusts a file (docs/security.md,
"Datasets"): a shard's name says everything that decides its games, one run at a time
writes a directory, a file is read only if its name, row count, schema and values are a
shard's, FIFOs and devices are refused without blocking, an unwritable directory fails
before a game, and a run's plan and in-memory summary do not grow with ``--games``."""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
import textwrap
import time
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ikeda import AREA_III, IkedaError
from ikeda import dataset
from ikeda.cli import main
from ikeda.shards import Cell, Shard, ShardResult, play_shard
from ikeda.simulate import simulate, simulate_totals
from ikeda.totals import Totals

from children import interruptible

CELL = Cell(7, 7, AREA_III)
PYTHON = str(Path(__file__).resolve().parents[1] / "python")


def run_cli(*args: str, timeout: float = 120, env: dict[str, str] | None = None, **kw: Any) -> subprocess.CompletedProcess[str]:
    """`python -m ikeda ARGS` in a child, so a hang is a timeout, not a stuck suite."""
    environ = {**os.environ, "PYTHONPATH": PYTHON, **(env or {})}
    return subprocess.run([sys.executable, "-m", "ikeda", *args], capture_output=True, text=True, timeout=timeout, env=environ, **kw)


def counting(calls: list[Shard]) -> Any:
    def play(shard: Shard) -> ShardResult:
        calls.append(shard)
        return play_shard(shard)

    return play


def write_table(path: Path, table: pa.Table) -> Path:
    pq.write_table(table, path)
    return path


def with_meta(table: pa.Table, **changes: Any) -> pa.Table:
    meta = json.loads(table.schema.metadata[b"ikeda"])
    meta.update(changes)
    return table.replace_schema_metadata({b"ikeda": json.dumps(meta).encode()})


# 1. The seed is in the name: another seed adds to the dataset.


def test_another_seed_adds_its_games_and_a_rerun_plays_nothing(tmp_path: Path) -> None:
    dataset.write(tmp_path, [CELL], 400, seed=1, shard_games=200, threads=1)
    second = dataset.write(tmp_path, [CELL], 400, seed=2, shard_games=200, threads=1)
    assert (second.played, second.games, second.skipped) == (2, 400, 0)
    [group] = dataset.summarise(tmp_path)
    assert (group.totals.games, group.seeds, group.shards) == (800, {1, 2}, 4)
    calls: list[Shard] = []
    again = dataset.write(tmp_path, [CELL], 400, seed=2, shard_games=200, play=counting(calls))
    assert calls == [] and (again.played, again.skipped) == (0, 2)
    loaded = {s.seed: s for s in dataset.load(tmp_path)}
    assert np.array_equal(loaded[2].margin, simulate(7, 400, seed=2, threads=1).margin)


# 2. One run at a time; a cell holds one kind of game.


def test_a_second_run_into_a_directory_being_written_is_refused(tmp_path: Path) -> None:
    refused: list[str] = []

    def meanwhile(done: int, todo: int) -> None:
        if not refused:
            with pytest.raises(dataset.DatasetError, match="being written by another run") as e:
                dataset.write(tmp_path, [CELL], 200, seed=1, shard_games=100, pass_probability=0.2, threads=1)
            refused.append(str(e.value))

    dataset.write(tmp_path, [CELL], 200, seed=1, shard_games=100, threads=1, on_shard=meanwhile)
    assert refused
    assert [f.shard.pass_probability for f in dataset.shard_files(tmp_path)] == [0.0, 0.0]
    # once the first run is over, the other kind of game is still refused, for any seed
    with pytest.raises(dataset.DatasetError, match="pass probability"):
        dataset.write(tmp_path, [CELL], 200, seed=3, pass_probability=0.2, threads=1)


def test_a_cell_with_two_kinds_of_games_is_refused_naming_both_files(tmp_path: Path) -> None:
    dataset.write_shard(tmp_path, play_shard(Shard(CELL, 1, 0, 50)))
    dataset.write_shard(tmp_path, play_shard(Shard(CELL, 2, 0, 50, pass_probability=0.3)))
    with pytest.raises(dataset.DatasetError, match="one kind") as e:
        dataset.summarise(tmp_path)
    assert "seed1-" in str(e.value) and "seed2-" in str(e.value)


# 3. A file is a shard only if its name, row count and schema are the metadata's.


def test_a_shard_with_fewer_rows_than_its_metadata_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    small = dataset.shard_table(play_shard(Shard(CELL, 1, 0, 10)))
    big = Shard(CELL, 1, 0, 1000)
    path = write_table(tmp_path / f"{big.id}.parquet", with_meta(small, games=1000, shard=big.id))
    with pytest.raises(dataset.DatasetError, match="10 rows where its metadata says 1,000"):
        dataset.summarise(tmp_path)
    calls: list[Shard] = []
    with pytest.raises(dataset.DatasetError, match=path.name):
        dataset.write(tmp_path, [CELL], 1000, seed=1, shard_games=1000, play=counting(calls))
    assert calls == []
    assert main(["summary", str(tmp_path)]) == 2
    assert path.name in capsys.readouterr().err


def test_a_shard_under_another_name_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other_seed = play_shard(Shard(CELL, 2, 0, 100))
    taken = Shard(CELL, 1, 0, 100)
    write_table(tmp_path / f"{taken.id}.parquet", dataset.shard_table(other_seed))
    calls: list[Shard] = []
    with pytest.raises(dataset.DatasetError, match="the name does not match"):
        dataset.write(tmp_path, [CELL], 100, seed=1, shard_games=100, play=counting(calls))
    assert calls == []
    assert main(["simulate", "--size", "7", "--games", "100", "--shard", "100", "--out", f"{tmp_path}/", "--quiet"]) == 2
    assert f"{taken.id}.parquet" in capsys.readouterr().err


def test_parameters_given_as_ints_or_numpy_values_name_shards_as_they_read_back(tmp_path: Path) -> None:
    dataset.write(tmp_path, [CELL], 50, seed=np.uint64(7), pass_probability=0, max_moves=np.int64(500), threads=1)
    dataset.write(tmp_path, [Cell(5, 5, AREA_III)], 50, seed=7, pass_probability=np.float64(0.25), threads=1)
    assert sorted((f.shard.seed, f.shard.pass_probability, f.shard.max_moves) for f in dataset.shard_files(tmp_path)) == [
        (7, 0.0, 500), (7, 0.25, None)
    ]


def test_a_foreign_file_under_a_taken_name_is_not_kept_silently(tmp_path: Path) -> None:
    shard = Shard(CELL, 1, 0, 20)
    (tmp_path / f"{shard.id}.parquet").write_bytes(b"PAR1 not really")
    with pytest.raises(dataset.DatasetError, match=shard.id):
        dataset.write_shard(tmp_path, play_shard(shard))


# The schema: `width`, and datasets written with `size` (format 1) still read.


def test_old_datasets_with_a_size_column_and_old_names_still_read_and_resume(tmp_path: Path) -> None:
    shard = Shard(CELL, 4, 0, 300)
    new = dataset.shard_table(play_shard(shard))
    table = new.rename_columns(["size" if n == "width" else n for n in new.column_names])
    meta = json.loads(new.schema.metadata[b"ikeda"])
    del meta["format"]
    meta["shard"] = shard.legacy_id
    write_table(tmp_path / f"{shard.legacy_id}.parquet", table.replace_schema_metadata({b"ikeda": json.dumps(meta).encode()}))
    [group] = dataset.summarise(tmp_path)
    assert group.totals.games == 300
    calls: list[Shard] = []
    dataset.write(tmp_path, [CELL], 500, seed=4, shard_games=300, play=counting(calls))
    assert [(s.first, s.games) for s in calls] == [(300, 200)]
    [sim] = dataset.load(tmp_path)
    assert np.array_equal(sim.margin, simulate(7, 500, seed=4, threads=1).margin)
    assert pq.read_schema(next(p for p in tmp_path.glob("*seed4*.parquet"))).names[:3] == ["game", "width", "height"]


# 10. FIFOs and links to them are refused at once.


@pytest.mark.parametrize("link", [False, True])
def test_a_fifo_named_parquet_is_refused_without_blocking(tmp_path: Path, link: bool) -> None:
    dataset.write(tmp_path, [CELL], 100, seed=1, shard_games=100, threads=1)
    fifo = tmp_path / ("elsewhere" if link else "x.parquet")
    os.mkfifo(fifo)
    if link:
        (tmp_path / "x.parquet").symlink_to(fifo)
    started = time.monotonic()
    got = run_cli("summary", str(tmp_path), timeout=60)
    assert got.returncode == 2 and "x.parquet" in got.stderr and "not a regular file" in got.stderr, got.stderr
    resumed = run_cli("simulate", "--size", "7", "--games", "200", "--shard", "100", "--out", f"{tmp_path}/", "--quiet", timeout=60)
    assert resumed.returncode == 2 and "x.parquet" in resumed.stderr
    assert time.monotonic() - started < 50


# 16. The summary checks every value it reads.


def shard_with(column: str, values: pa.Array) -> pa.Table:
    table = dataset.shard_table(play_shard(Shard(CELL, 1, 0, 100)))
    i = table.column_names.index(column)
    return table.set_column(i, column, values)


@pytest.mark.parametrize(
    "column, values, reason",
    [
        ("first_passer", pa.array(np.r_[np.zeros(99, np.int64), 2**33]), "int64, not int8"),
        ("first_passer", pa.array(np.r_[np.zeros(99, np.int8), -1].astype(np.int8)), "holds -1 in row 99"),
        ("first_passer", pa.array([0] * 99 + [None], pa.int8()), "nulls"),
        ("first_passer", pa.array(["x"] * 100), "string, not int8"),
        ("margin", pa.array(np.r_[np.zeros(99), np.nan]), "holds nan"),
        ("margin", pa.array(np.r_[np.zeros(99), 0.3]), "holds 0.3"),
        ("margin", pa.array(np.r_[np.zeros(99), 1e300]), "holds 1e+300"),
        ("length", pa.array(np.r_[np.zeros(99), -5].astype(np.int32)), "holds -5"),
        ("game", pa.array(np.arange(1, 101, dtype=np.int64)), "'game' holds 1 in row 0"),
    ],
)
def test_the_summary_refuses_values_no_game_has(tmp_path: Path, column: str, values: pa.Array, reason: str) -> None:
    path = write_table(tmp_path / f"{Shard(CELL, 1, 0, 100).id}.parquet", shard_with(column, values))
    with pytest.raises(dataset.DatasetError, match=re.escape(reason)) as e:
        dataset.summarise(tmp_path)
    assert str(path) in str(e.value)
    with pytest.raises(dataset.DatasetError):
        dataset.load(tmp_path)


TEMPLATE = dataset.shard_table(play_shard(Shard(CELL, 3, 0, 40)))
MUTATIONS = st.one_of(
    st.tuples(st.just("rows"), st.integers(0, 39)),
    st.tuples(st.just("meta"), st.sampled_from(["width", "height", "rules", "seed", "first", "games", "pass_probability",
                                                 "max_moves", "seconds", "format", "shard"]),
              st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(), st.text(max_size=8))),
    st.tuples(st.just("drop"), st.sampled_from(list(dataset.COLUMNS))),
    st.tuples(st.just("cast"), st.sampled_from(list(dataset.COLUMNS)), st.sampled_from(["int8", "int64", "float32", "string", "bool"])),
    st.tuples(st.just("value"), st.sampled_from(dataset._READ), st.integers(0, 39),
              st.one_of(st.none(), st.integers(-(2**40), 2**40), st.floats())),
    st.tuples(st.just("bytes"), st.integers(0, 4000), st.binary(min_size=1, max_size=8)),
)


def mutate(table: pa.Table, mutation: tuple[Any, ...]) -> pa.Table | bytes:
    kind = mutation[0]
    if kind == "rows":
        return table.slice(0, mutation[1])
    if kind == "meta":
        return with_meta(table, **{mutation[1]: mutation[2]})
    if kind == "drop":
        return table.drop_columns([mutation[1]]) if mutation[1] in table.column_names else table
    if mutation[1] not in table.column_names:
        return table
    if kind == "cast":
        i = table.column_names.index(mutation[1])
        try:
            return table.set_column(i, mutation[1], table.column(i).cast(mutation[2]))
        except (pa.ArrowException, ValueError):
            return table
    if kind == "value":
        _, name, row, value = mutation
        i = table.column_names.index(name)
        values = table.column(i).to_pylist()
        if row >= len(values):
            return table
        values[row] = value
        try:
            return table.set_column(i, name, pa.array(values, table.schema.field(i).type))
        except (pa.ArrowException, ValueError, TypeError, OverflowError):
            return table
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    data = bytearray(sink.getvalue().to_pybytes())
    at = mutation[1] % len(data)
    data[at:at + len(mutation[2])] = mutation[2]
    return bytes(data)


@settings(max_examples=int(os.environ.get("IKEDA_HYPOTHESIS_EXAMPLES", 60)), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutations=st.lists(MUTATIONS, min_size=1, max_size=3))
def test_random_shard_files_are_read_right_or_refused_naming_the_file(tmp_path: Path, mutations: list[tuple[Any, ...]]) -> None:
    """Wrong row counts, metadata, column types and values, and damaged bytes: the summary
    is the true one or a DatasetError that names the file, never another error."""
    table: pa.Table | bytes = TEMPLATE
    for m in mutations:
        if isinstance(table, pa.Table):
            table = mutate(table, m)
    folder = tmp_path / str(time.monotonic_ns())
    folder.mkdir()
    path = folder / f"{Shard(CELL, 3, 0, 40).id}.parquet"
    if isinstance(table, bytes):
        path.write_bytes(table)
    else:
        pq.write_table(table, path)
    try:
        groups = dataset.summarise(folder)
    except dataset.DatasetError as e:
        assert str(path) in str(e) or path.name in str(e)
        return
    # Accepted: the file is a whole shard of that name, and the summary is its games'
    # (values that are possible but not the played ones cannot be told without a replay).
    [group] = groups
    read = pq.read_table(path)
    assert read.num_rows == 40 and read.column("game").to_pylist() == list(range(40))
    expected = Totals()
    expected.add(*(read.column(name).to_numpy() for name in ("margin", "margin_area2", "first_passer", "length", "capped")))
    assert (group.totals.games, group.totals.black_wins, group.totals.first_passer, group.totals.moves) == (
        expected.games, expected.black_wins, expected.first_passer, expected.moves
    )
    assert group.totals.histogram == expected.histogram


# 14. Plans are made as they are played; the in-memory summary keeps totals only.


def test_a_run_of_1e14_games_starts_its_first_shard_at_once_in_bounded_memory(tmp_path: Path) -> None:
    code = textwrap.dedent(f"""
        import resource, sys, time
        resource.setrlimit(resource.RLIMIT_AS, (1536 * 2**20, 1536 * 2**20))
        from ikeda import AREA_III, dataset
        from ikeda.shards import Cell
        class First(Exception):
            pass
        def play(shard):
            raise First(shard)
        start = time.process_time()
        try:
            dataset.write({str(tmp_path)!r}, [Cell(9, 9, AREA_III)], 10**14, shard_games=20_000, play=play)
        except First as e:
            shard = e.args[0]
            print(shard.first, shard.games, time.process_time() - start)
    """)
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": PYTHON})
    assert got.returncode == 0, got.stderr[-2000:]
    first, games, seconds = got.stdout.split()
    assert (int(first), int(games)) == (0, 20_000) and float(seconds) < 5, got.stdout


def test_the_summary_without_out_keeps_totals_not_games(capsys: pytest.CaptureFixture[str]) -> None:
    command = ["simulate", "--size", "5", "--threads", "1", "--shard", "1000", "--quiet", "--games"]
    assert main([*command, "1000"]) == 0  # imports, the thread pool and the table's first drawing
    capsys.readouterr()
    tracemalloc.start()
    try:
        assert main([*command, "60000"]) == 0
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert "60,000 games" in capsys.readouterr().out
    assert peak < 1_000_000, peak  # 60,000 games' arrays are 1.6 MB, twice that while joined
    [totals], _ = simulate_totals([Cell(5, 5, AREA_III)], 3_000, chunk=700, threads=1)
    whole = simulate(5, 3_000, threads=1).totals()
    assert (totals.black_wins, totals.moves, totals.histogram) == (whole.black_wins, whole.moves, whole.histogram)


# 17. `summary --plot` that cannot be written: `ikeda: message`, exit 2.


def test_summary_plot_onto_a_full_disk_is_an_ikeda_error(tmp_path: Path) -> None:
    data = tmp_path / "d"
    dataset.write(data, [CELL], 200, seed=1, shard_games=200, threads=1)

    # a file size limit: writes past 8 KB fail as on a full disk
    command = interruptible([sys.executable, "-m", "ikeda", "summary", str(data), "--plot", str(tmp_path / "m.png")], file_size_limit=8192)
    got = subprocess.run(command, capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": PYTHON})
    assert got.returncode == 2 and got.stderr.startswith("ikeda: cannot write") and "Traceback" not in got.stderr, got.stderr
    assert not list(tmp_path.glob("*.png")) and not list(tmp_path.glob(".m.png*"))


# 19. An unwritable directory fails before a game is played.


def test_an_unwritable_dataset_directory_fails_before_any_game(tmp_path: Path) -> None:
    out = tmp_path / "ro"
    out.mkdir()
    out.chmod(0o555)
    frozen = False
    if os.geteuid() == 0:  # permissions do not stop root: make the directory immutable
        frozen = subprocess.run(["chattr", "+i", str(out)], capture_output=True).returncode == 0
    try:
        probe = out / "probe"
        try:
            probe.touch()
        except OSError:
            pass
        else:
            probe.unlink()
            pytest.skip("no way to make a directory unwritable here")
        calls: list[Shard] = []
        with pytest.raises(IkedaError, match=f"cannot write {out}"):
            dataset.write(out, [CELL], 100, seed=1, shard_games=100, play=counting(calls))
        assert calls == []
    finally:
        if frozen:
            subprocess.run(["chattr", "-i", str(out)], check=True)
        out.chmod(0o755)
