"""Runs on Ray (`ikeda simulate --ray`, `simulate(ray=...)`, `dataset.write(ray=...)`),
against the suite's one local Ray of 2 CPUs (Ray takes seconds to start): the
same games as a single-machine run whatever the shards, workers or retries, a worker
killed mid-shard retried without a game lost or counted twice, and an interrupted run
cancelled and then resumed."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ikeda import AREA_II, AREA_III, IkedaError
from ikeda import dataset
from ikeda.cli import main
from ikeda.shards import Cell, Shard, ShardResult, play_shard
from ikeda.simulate import Simulation, simulate, simulate_cells

from children import interruptible

CELLS = [Cell(7, 7, AREA_III), Cell(9, 9, AREA_II.replace(komi=7.5))]


@pytest.fixture
def ray(ray_session: Any) -> Any:
    """The suite's local Ray of 2 CPUs (conftest.py)."""
    return ray_session


def same_games(a: Simulation, b: Simulation) -> None:
    assert (a.size, a.rules, a.seed, a.games) == (b.size, b.rules, b.seed, b.games)
    for name in ("margin", "margin_area2", "first_passer", "length", "capped"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


def dies_first_time(markers: Path, firsts: set[int]) -> Callable[[Shard], ShardResult]:
    """A task that kills its own worker process (SIGKILL, as a lost node or the OOM killer
    would) on its first attempt at the shards starting at `firsts`, then plays normally.
    Defined in a closure, so Ray ships it by value to workers that cannot import tests."""

    def play(shard: Shard) -> ShardResult:
        marker = markers / shard.id
        if shard.first in firsts and not marker.exists():
            marker.touch()
            os.kill(os.getpid(), signal.SIGKILL)
        return play_shard(shard)

    return play


def test_ray_runs_are_the_games_of_a_single_machine_run(ray: Any) -> None:
    single = simulate(9, 3000, seed=11, threads=2)
    for chunk in (3000, 700, 128):
        same_games(simulate(9, 3000, seed=11, ray="local", chunk=chunk), single)
    swept = simulate_cells(CELLS, 1000, seed=3, chunk=300, ray="local", workers=1)
    for cell, got in zip(CELLS, swept):
        same_games(got, simulate((cell.width, cell.height), 1000, rules=cell.rules, seed=3, threads=1))


def test_a_killed_worker_is_retried_and_every_game_counted_once(ray: Any, tmp_path: Path) -> None:
    markers = tmp_path / "markers"
    markers.mkdir()
    out = tmp_path / "games"
    written = dataset.write(
        out, CELLS, 1200, seed=6, shard_games=300, ray="local", play=dies_first_time(markers, {0, 600})
    )
    assert len(list(markers.iterdir())) == 4  # two shards of each cell died once
    assert (written.played, written.games) == (8, 2400)
    for cell, got in zip(CELLS, dataset.load(out)):
        single = simulate((cell.width, cell.height), 1200, rules=cell.rules, seed=6, threads=2)
        same_games(got, single)
        [group] = [g for g in dataset.summarise(out) if g.cell == cell]
        assert group.totals.games == 1200 and group.totals.black_wins == int((single.winner == 1).sum())
        assert group.totals.moves == int(single.length.sum())


def test_a_shard_lost_more_often_than_retried_is_an_error(ray: Any, tmp_path: Path) -> None:
    def always_dies(shard: Shard) -> ShardResult:
        os.kill(os.getpid(), signal.SIGKILL)
        raise AssertionError("unreachable")

    from ikeda.runs import played

    with pytest.raises(IkedaError, match="lost 2 times"):
        list(played([Shard(CELLS[0], 1, 0, 10)], ray="local", retries=1, play=always_dies))


def test_bad_parameters_raise_before_any_task(ray: Any) -> None:
    with pytest.raises(IkedaError, match="board size"):
        simulate(40, 100, ray="local")


def test_an_interrupted_run_cancels_its_tasks_and_resumes(ray: Any, tmp_path: Path) -> None:
    def slow_after_first(shard: Shard) -> ShardResult:
        if shard.first:
            time.sleep(600)
        return play_shard(shard)

    def interrupt(done: int, todo: int) -> None:
        raise KeyboardInterrupt

    cell = CELLS[:1]
    with pytest.raises(KeyboardInterrupt):
        dataset.write(tmp_path, cell, 600, seed=8, shard_games=100, ray="local", play=slow_after_first, on_shard=interrupt)
    assert [f.shard.first for f in dataset.shard_files(tmp_path)] == [0]
    deadline = time.monotonic() + 60  # the sleeping tasks are cancelled, not left to run 600 s
    while ray.available_resources().get("CPU", 0) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert ray.available_resources().get("CPU", 0) == 2, ray.available_resources()
    resumed = dataset.write(tmp_path, cell, 600, seed=8, shard_games=100, ray="local")
    assert (resumed.played, resumed.skipped) == (5, 1)
    [got] = dataset.load(tmp_path)
    same_games(got, simulate(7, 600, seed=8, threads=2))


def test_cli_ray_run_writes_the_dataset_of_a_single_run(ray: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "d"
    assert main(["simulate", "--size", "7", "--games", "900", "--seed", "2", "--shard", "200", "--ray", "local", "--out", f"{out}/", "--quiet"]) == 0
    assert "900 games, 7x7, area3, seed 2" in capsys.readouterr().out
    [got] = dataset.load(out)
    same_games(got, simulate(7, 900, seed=2, threads=2))
    assert ray.is_initialized()  # the CLI leaves a Ray it did not start running


def _processes() -> dict[int, tuple[int, int, str]]:
    """Every process: parent, start time and command line, from /proc."""
    out = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
                with open(f"/proc/{name}/cmdline", "rb") as f:
                    cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if fields[0] != b"Z":
                out[int(name)] = (int(fields[1]), int(fields[19]), cmd)
    return out


def _descendants(root: int, seen: dict[tuple[int, int], str]) -> None:
    table = _processes()
    todo = [root]
    while todo:
        parent = todo.pop()
        for pid, (ppid, start, cmd) in table.items():
            if ppid == parent and (pid, start) not in seen:
                seen[pid, start] = cmd
                todo.append(pid)


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads the process tree from /proc")
def test_ctrl_c_of_a_local_ray_run_exits_130_and_leaves_no_process(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    command = [sys.executable, "-m", "ikeda", "simulate", "--size", "9", "--games", "1000000", "--shard", "2000",
               "--ray", "local", "--workers", "2", "--out", f"{tmp_path}/", "--quiet"]
    child = subprocess.Popen(interruptible(command), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "python")})
    seen: dict[tuple[int, int], str] = {}
    try:
        # Ctrl-C once Ray's agents are up (they are what outlived the run) and a task runs.
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and child.poll() is None:
            _descendants(child.pid, seen)
            if any("agent" in cmd for cmd in seen.values()) and any("ray::" in cmd or "worker" in cmd for cmd in seen.values()):
                break
            time.sleep(0.1)
        assert child.poll() is None and any("agent" in cmd for cmd in seen.values()), seen
        child.send_signal(signal.SIGINT)
        while child.poll() is None and time.monotonic() < deadline + 60:
            _descendants(child.pid, seen)
            time.sleep(0.05)
        _, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 130, err
    assert "Traceback" not in err and "Check failed" not in err, err
    time.sleep(0.5)
    now = _processes()
    left = [cmd[:80] for (pid, start), cmd in seen.items() if pid in now and now[pid][1] == start]
    for pid, start in seen:
        if pid in now and now[pid][1] == start:
            os.kill(pid, signal.SIGKILL)
    assert left == []


def test_an_address_where_nothing_listens_is_an_error_within_seconds() -> None:
    pytest.importorskip("ray")
    with socket.socket() as s:  # a port that nothing listens on once closed
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = time.monotonic()
    got = subprocess.run(
        [sys.executable, "-m", "ikeda", "simulate", "--games", "100", "--ray", f"127.0.0.1:{port}", "--quiet"],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "python"), "RAY_ADDRESS": ""},
    )
    assert got.returncode == 2 and "cannot connect to Ray" in got.stderr, got.stderr
    assert time.monotonic() - started < 60


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads the process tree from /proc")
def test_only_the_processes_ray_started_are_ended() -> None:
    from ikeda import distributed

    earlier = subprocess.Popen(["sleep", "60"])  # a child of ours from before Ray's start
    before = distributed._children()
    # after it: a Ray-like program (named from the ray package) with a child, and another program
    ray_like = subprocess.Popen([sys.executable, "-c", "import subprocess, sys; subprocess.run(['sleep', '60'])", "ray/raylet"])
    other = subprocess.Popen(["sleep", "61"])
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            found = {pid for pid, _ in distributed._ray_processes(before)}
            if len(found) == 2:
                break
            time.sleep(0.05)
        assert ray_like.pid in found and len(found) == 2 and not {earlier.pid, other.pid} & found
        distributed._end(distributed._ray_processes(before))
        assert ray_like.wait(timeout=10) is not None
        assert earlier.poll() is None and other.poll() is None
    finally:
        for p in (earlier, ray_like, other):
            p.kill()
            p.wait()
