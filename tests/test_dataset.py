"""Parquet datasets of random games (`ikeda simulate --out DIR/`, `ikeda summary DIR`),
played here on threads: the rows are the games of a single run of the same seed, a
shard is written once, runs resume and extend, the summary reads batch by batch, and
sweeps are summarised by cell."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow.dataset as pads
import pyarrow.parquet as pq
import pytest

from ikeda import AREA_II, AREA_III
from ikeda import dataset
from ikeda.cli import main
from ikeda.cli.simulate import rulesets
from ikeda.shards import Cell, Shard, ShardResult, cells, play_shard
from ikeda.simulate import simulate

from children import interruptible

RUN = [Cell(7, 7, AREA_III), Cell(7, 7, AREA_II.replace(komi=7.0))]


def counting(calls: list[Shard]) -> object:
    def play(shard: Shard) -> ShardResult:
        calls.append(shard)
        return play_shard(shard)

    return play


def test_dataset_rows_are_the_games_of_a_single_run(tmp_path: Path) -> None:
    written = dataset.write(tmp_path, RUN, 1000, seed=4, shard_games=300, threads=1)
    assert (written.played, written.skipped, written.games) == (8, 0, 2000)
    assert len(list(tmp_path.glob("*.parquet"))) == 8 and [p.name for p in tmp_path.glob(".*")] == [dataset.LOCK]
    table = pads.dataset(tmp_path).to_table()
    assert set(table.column_names) == {
        "game", "width", "height", "rules", "komi", "seed",
        "margin", "winner", "first_passer", "length", "margin_area2", "capped",
    }
    for cell in RUN:
        rows = table.filter((pads.field("rules") == cell.rules_text) & (pads.field("komi") == cell.rules.komi)).sort_by("game")
        single = simulate(7, 1000, rules=cell.rules, seed=4, threads=2)
        assert rows.column("game").to_pylist() == list(range(1000))
        for name in ("margin", "first_passer", "length", "margin_area2", "capped", "winner"):
            assert np.array_equal(rows.column(name).to_numpy(), getattr(single, name)), name
        assert set(rows.column("width").to_pylist()) == {7} and set(rows.column("seed").to_pylist()) == {4}
    [loaded] = dataset.load(tmp_path, [RUN[1]])
    assert loaded.rules == RUN[1].rules and np.array_equal(loaded.margin, simulate(7, 1000, rules=RUN[1].rules, seed=4).margin)


def test_a_shard_is_written_once(tmp_path: Path) -> None:
    result = play_shard(Shard(RUN[0], 1, 0, 50))
    assert dataset.write_shard(tmp_path, result)
    before = (tmp_path / (result.shard.id + ".parquet")).stat().st_mtime_ns
    assert not dataset.write_shard(tmp_path, result)
    assert (tmp_path / (result.shard.id + ".parquet")).stat().st_mtime_ns == before
    assert pq.read_table(tmp_path).num_rows == 50


def test_runs_resume_and_extend_without_replaying_shards(tmp_path: Path) -> None:
    dataset.write(tmp_path, RUN[:1], 1500, seed=2, shard_games=500, threads=1)
    lost = sorted(tmp_path.glob("*.parquet"))[1]
    lost.unlink()  # a run stopped before this shard was written
    calls: list[Shard] = []
    again = dataset.write(tmp_path, RUN[:1], 1500, seed=2, shard_games=500, play=counting(calls))  # type: ignore[arg-type]
    assert [(s.first, s.games) for s in calls] == [(500, 500)] and (again.played, again.skipped) == (1, 2)
    calls.clear()  # more games, cut differently: only the games not there yet are played
    dataset.write(tmp_path, RUN[:1], 2600, seed=2, shard_games=1000, play=counting(calls))  # type: ignore[arg-type]
    assert [(s.first, s.games) for s in calls] == [(1500, 500), (2000, 600)]
    [sim] = dataset.load(tmp_path)
    single = simulate(7, 2600, seed=2, threads=2)
    assert np.array_equal(sim.margin, single.margin) and np.array_equal(sim.length, single.length)


def test_the_summary_reads_batches_and_equals_the_in_memory_totals(tmp_path: Path) -> None:
    dataset.write(tmp_path, RUN, 700, seed=3, shard_games=250, threads=1)
    groups = dataset.summarise(tmp_path, batch_rows=64)
    assert [g.cell for g in groups] == sorted(RUN, key=lambda c: c.rules_text)
    for g in groups:
        whole = simulate(7, 700, rules=g.cell.rules, seed=3, threads=1).totals()
        assert (g.shards, g.seeds, g.totals.games) == (3, {3}, 700)
        assert (g.totals.black_wins, g.totals.draws, g.totals.first_passer, g.totals.moves, g.totals.half_point_decided) == (
            whole.black_wins, whole.draws, whole.first_passer, whole.moves, whole.half_point_decided
        )
        assert g.totals.histogram == whole.histogram
        assert g.totals.margin_sd == pytest.approx(whole.margin_sd, rel=1e-12)


def test_a_directory_with_other_games_is_refused(tmp_path: Path) -> None:
    dataset.write(tmp_path, RUN[:1], 100, seed=1, shard_games=100, threads=1)
    with pytest.raises(dataset.DatasetError, match="pass probability"):
        dataset.write(tmp_path, RUN[:1], 200, seed=1, pass_probability=0.1, threads=1)
    dataset.write_shard(tmp_path, play_shard(Shard(RUN[0], 1, 50, 100)))  # games 50..149 again
    with pytest.raises(dataset.DatasetError, match="the same games"):
        dataset.summarise(tmp_path)
    (tmp_path / "junk.parquet").write_bytes(b"not parquet")
    with pytest.raises(dataset.DatasetError, match="junk.parquet"):
        dataset.shard_files(tmp_path)


def test_rules_lists_keep_a_rules_string_whole() -> None:
    got = rulesets("area3:komi=7,ko=simple-ko,area2,tromp-taylor:suicide=no")
    assert [str(r) for r in got] == ["area3:ko=simple-ko,komi=7", "area2", "tromp-taylor:suicide=no"]


def test_cli_sweep_writes_a_dataset_and_summary_reads_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, png = tmp_path / "sweep", tmp_path / "m.png"
    args = ["simulate", "--size", "5,7", "--komi", "5.5,7", "--rules", "area3,area2", "--games", "300", "--shard", "100"]
    assert main([*args, "--seed", "9", "--out", f"{out}/", "--quiet"]) == 0
    run_table = capsys.readouterr().out
    assert len(list(out.glob("*.parquet"))) == 2 * 2 * 2 * 3
    assert main(["summary", str(out), "--plot", str(png)]) == 0
    table = capsys.readouterr().out
    assert table == run_table and "2,400 games in 8 cells" in table
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    groups = dataset.summarise(out)
    for cell in cells([5, 7], [AREA_III, AREA_II], [5.5, 7.0]):
        [g] = [g for g in groups if g.cell == cell]
        sim = simulate(cell.width, 300, rules=cell.rules, seed=9)
        assert g.totals.black_wins == int((sim.winner == 1).sum())
        row = next(line for line in table.splitlines() if line.split()[:3] == [f"{cell.width}x{cell.width}", cell.rules_text, f"{cell.rules.komi:g}"])
        assert f"{sim.margin.mean():+.2f} ± {sim.margin.std():.2f}" in row
    # the same command again plays nothing
    assert main([*args, "--seed", "9", "--out", f"{out}/", "--quiet"]) == 0
    assert "0 shards played" in " ".join(capsys.readouterr().err.split())


def test_cli_sweep_in_memory_and_npz_refused_for_sweeps(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--size", "5,7", "--games", "200", "--quiet"]) == 0
    assert "400 games in 2 cells" in capsys.readouterr().out
    assert main(["simulate", "--size", "5,7", "--games", "200", "--quiet", "--out", str(tmp_path / "x.npz")]) == 2
    assert "directory" in capsys.readouterr().err


def test_ray_option_without_ray_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as if not installed
    assert main(["simulate", "--games", "100", "--ray", "--quiet"]) == 2
    assert "pip install 'ikeda[ray]'" in capsys.readouterr().err


def test_ctrl_c_keeps_the_shards_written_and_the_same_command_resumes(tmp_path: Path) -> None:
    out = tmp_path / "d"
    command = [sys.executable, "-m", "ikeda", "simulate", "--size", "13", "--games", "400000", "--shard", "500",
               "--threads", "1", "--seed", "5", "--out", f"{out}/", "--quiet"]
    # A child of a non-interactive shell may inherit SIGINT ignored; Ctrl-C must reach it.
    child = subprocess.Popen(interruptible(command), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while len(list(out.glob("*.parquet"))) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 130, err
    assert "cancelled" in err and "resume" in " ".join(err.split())
    files = dataset.shard_files(out)  # every file there is a whole shard
    assert 2 <= len(files) < 800 and [p.name for p in out.glob(".*")] == [dataset.LOCK]
    for f in files:
        assert pq.read_table(f.path).num_rows == f.shard.games == 500
    # the rest of the run, here with fewer games so the test stays short
    assert main(["simulate", "--size", "13", "--games", str(500 * (len(files) + 2)), "--shard", "500", "--seed", "5",
                 "--out", f"{out}/", "--quiet"]) == 0
    [sim] = dataset.load(out)
    single = simulate(13, 500 * (len(files) + 2), seed=5, threads=2)
    assert np.array_equal(sim.margin, single.margin) and np.array_equal(sim.length, single.length)


def test_a_bad_cell_of_a_sweep_is_refused_before_any_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--size", "7,40", "--games", "100", "--out", f"{tmp_path}/", "--quiet"]) == 2
    assert "40x40" in capsys.readouterr().err
    assert not list(tmp_path.glob("*.parquet"))


def test_simulate_and_summary_commands_do_not_import_each_other() -> None:
    """Both print through cli/report.py; neither imports the other, lazily included."""
    import ast

    cli = Path(__file__).resolve().parents[1] / "python" / "ikeda" / "cli"
    for name, other in (("simulate", "summary"), ("summary", "simulate")):
        tree = ast.parse((cli / f"{name}.py").read_text(encoding="utf-8"))
        imported = {
            alias.name if node.module is None else node.module
            for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names
        }
        assert other not in imported and f"cli.{other}" not in imported, (name, imported)
