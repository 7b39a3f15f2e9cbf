"""`ikeda simulate`, the main job, end to end."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

from ikeda.__main__ import main
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
