"""``ikeda bench`` and :mod:`ikeda.bench`: the workload's answers are ikeda's, each
installed peer gives the same answers (a missing one is left out and said so), a wrong
answer is reported and fails the command, and the command runs from the package alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ikeda import Game, perft
from ikeda.bench import PEER_NAMES, QUICK, TASKS, Sizes, run
from ikeda.bench import engines
from ikeda.bench.workload import RULES, kernel_perft, make
from ikeda.conform.adapters import IkedaKernel

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_ikeda_alone_runs_every_task_with_its_answers() -> None:
    r = run(QUICK, min_seconds=0)
    assert r.ok and r.missing == {}
    assert [row.task for row in r.rows if row.engine == "ikeda"] == list(TASKS)
    assert all(row.ratio == 1.0 for row in r.rows if row.engine == "ikeda")
    moves = {row.answer for row in r.rows if row.task in ("playouts", "replay", "sgf replay")}
    assert len(moves) == 1 and moves.pop() > 40  # the same games, played out


@pytest.mark.parametrize("size, depth", [(2, 4), (3, 3), (4, 2)])
def test_perft_through_the_protocol_is_perft(size: int, depth: int) -> None:
    """The protocol has no undo; perft through it (replays, passes ending the game) gives
    ikeda's native count, passes included."""
    w = make(Sizes(size=3, games=1, perft_size=size, perft_depth=depth))
    assert kernel_perft(IkedaKernel(RULES), w) == perft(Game(size, rules=RULES), depth)


@pytest.mark.jax
def test_every_installed_peer_agrees_and_a_missing_one_is_named() -> None:
    r = run(QUICK, PEER_NAMES, min_seconds=0)
    assert r.ok, [(row.task, row.engine, row.answer, row.expected) for row in r.rows if not row.ok]
    peers_ran = {row.engine for row in r.rows} - {"ikeda", "ikeda (native)"}
    assert len(peers_ran) + len(r.missing) == len(PEER_NAMES)
    assert set(r.missing) <= set(PEER_NAMES) and all("install" in why for why in r.missing.values())


class _DropsAPlay(IkedaKernel):
    """ikeda with a planted bug: the last legal point is never legal."""

    name = "dropper"

    def legal(self, color: str) -> set[str]:
        plays = super().legal(color)
        return plays - {max(plays)} if plays else plays


def test_a_wrong_answer_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(engines.PEERS, "openspiel", lambda: _DropsAPlay(RULES))
    r = run(QUICK, ("openspiel",), min_seconds=0)
    wrong = {row.task for row in r.rows if not row.ok}
    assert not r.ok and {"legal masks", "perft"} <= wrong
    assert all(row.engine == "dropper" for row in r.rows if not row.ok)


def bench(*args: str, cwd: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "python")}
    return subprocess.run([sys.executable, "-m", "ikeda", "bench", *args], capture_output=True, text=True,
                          env=env, timeout=300, cwd=cwd)


def test_the_command_prints_json_and_a_table(tmp_path: Path) -> None:
    p = bench("--quick", "--json", cwd=str(tmp_path))  # from an empty folder: the package is enough
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["ok"] and out["sizes"]["size"] == QUICK.size and {r["task"] for r in out["rows"]} == set(TASKS)
    p = bench("--size", "5", "--games", "1", "--perft-size", "3", "--perft-depth", "2")
    assert p.returncode == 0, p.stderr
    assert "x ikeda" in p.stdout and "perft (leaves)" in p.stdout


def test_bad_arguments_are_refused() -> None:
    p = bench("--peers", "gnugo")
    assert p.returncode == 2 and "unknown peers" in p.stderr
    p = bench("--perft-size", "9", "--perft-depth", "4")
    assert p.returncode == 2 and "too long" in p.stderr


def test_a_missing_peer_is_left_out_and_named(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib
    import importlib.util

    real_import, real_find = importlib.import_module, importlib.util.find_spec

    def gone(name: str) -> bool:
        return name.split(".")[0] in ("pgx", "jax", "sgfmill")

    def import_module(name: str, package: str | None = None) -> object:
        if gone(name):
            raise ImportError(name)
        return real_import(name, package)

    monkeypatch.setattr(importlib, "import_module", import_module)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if gone(name) else real_find(name, *a))
    r = run(QUICK, ("pgx", "sgfmill"), min_seconds=0)
    assert r.ok and set(r.missing) == {"pgx", "sgfmill"} and "ikeda[pgx]" in r.missing["pgx"]
    assert {row.engine for row in r.rows} == {"ikeda", "ikeda (native)"}
