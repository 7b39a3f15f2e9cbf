"""`ikeda simulate`, the main job, end to end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ikeda.__main__ import main
from ikeda.cli import replay
from ikeda.simulate import simulate


def test_simulate_writes_npz_and_plot(tmp_path: Path) -> None:
    out, png = tmp_path / "games.npz", tmp_path / "margins.png"
    assert main(["simulate", "--size", "7", "--games", "300", "--seed", "3", "--quiet", "--out", str(out), "--plot", str(png)]) == 0
    data = np.load(out)
    assert set(data.files) >= {"margin", "winner", "first_passer", "length", "margin_area2"}
    assert len(data["margin"]) == 300
    # winner agrees with the margin; Area II differs from Area III by exactly the half point
    assert ((data["winner"] == 1) == (data["margin"] > 0)).all()
    half = np.where(data["first_passer"] == 2, 1.0, 0.0)
    assert np.allclose(data["margin_area2"] - data["margin"], half)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the same seed gives the same games
    again = simulate(7, 300, seed=3, threads=1)
    assert (again.margin == data["margin"]).all()


def test_module_entry_point_runs_the_default_job() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ikeda", "--games", "500", "--quiet"], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert "games/s" in done.stdout and "500 games" in done.stdout


def test_bad_arguments_are_reported(capsys: object) -> None:
    assert main(["simulate", "--games", "10", "--rules", "nonsense", "--quiet"]) == 2


SGF_DATA = str(Path(__file__).parent / "data" / "sgf")


@pytest.mark.parametrize("words", [
    ["replay", "--json", "--quiet", SGF_DATA],  # JSON lines, flushed as they go
    ["simulate", "--size", "5", "--games", "50", "--quiet"],  # a table, printed by rich
], ids=["replay", "simulate"])
def test_a_closed_stdout_ends_every_command_quietly_with_status_1(words: list[str]) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first line: every write meets EPIPE
    try:
        done = subprocess.run([sys.executable, "-m", "ikeda", *words], stdout=write_end, stderr=subprocess.PIPE, timeout=300)
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (1, b"")  # no traceback; the same status either way


def test_piped_into_head_the_first_line_arrives_and_nothing_is_said() -> None:
    command = f"{sys.executable} -m ikeda replay --json --quiet {SGF_DATA} {SGF_DATA} {SGF_DATA} | head -1"
    done = subprocess.run(["bash", "-o", "pipefail", "-c", command], capture_output=True, text=True, timeout=300)
    assert json.loads(done.stdout)["path"].startswith(SGF_DATA)
    # 1 when head left first; 0 when every line fitted in the pipe before it did.
    assert done.returncode in (0, 1) and done.stderr == ""


def test_a_broken_pipe_that_is_not_stdouts_is_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    def engine_gone(args: object) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(replay, "run", engine_gone)
    with pytest.raises(BrokenPipeError):
        main(["replay", SGF_DATA])  # pytest's stdout is open: the error is the command's own
