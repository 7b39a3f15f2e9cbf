"""The in-process adapters: OpenSpiel's go, PettingZoo's go_v5 and pgx's go checked
against ikeda, their real rule differences found and explained (docs/conformance.md,
"Findings"); each is skipped when its peer is not installed."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

from ikeda import Game
from ikeda.conform import Checker, Kernel, Report

from ikeda.conform.adapters import IkedaKernel, OpenSpielKernel, PettingZooKernel, PgxKernel
from ikeda.errors import IkedaError

needs_openspiel = pytest.mark.skipif(importlib.util.find_spec("pyspiel") is None, reason="OpenSpiel is not installed")
needs_pettingzoo_go = pytest.mark.skipif(importlib.util.find_spec("pygame") is None or importlib.util.find_spec("pettingzoo") is None,
                                         reason="PettingZoo's go (pettingzoo, pygame) is not installed")
needs_pgx = pytest.mark.skipif(importlib.util.find_spec("pgx") is None, reason="pgx is not installed")


@needs_openspiel
def test_the_adapter_is_a_kernel() -> None:
    assert isinstance(OpenSpielKernel(), Kernel)


@needs_openspiel
def test_openspiel_ends_its_game_on_a_repeated_position() -> None:
    """Under simple ko (no superko test) OpenSpiel agrees on every legal set and board,
    except that a play repeating an earlier whole-board position ends its game at once
    (it has no legal move after it, and a draw), where the rules play on."""
    rules = "area2:ko=simple-ko"
    r = Checker(OpenSpielKernel(), rules, 9, seed=1, minimise_seconds=20).run(20)
    assert r.positions > 1000 and r.checks == ("legal", "stones")
    assert [d.finding.rule for d in r.divergences] == ["game over"]
    (d,) = r.divergences
    g = Game(9, rules=rules)
    seen = [g.board.hash]
    for m in d.moves:
        g.play(m)
        seen.append(g.board.hash)
    assert seen[-1] in seen[:-2] and not g.is_over  # the last play repeats a position


@needs_openspiel
def test_openspiel_forbids_suicide_and_ends_on_superko() -> None:
    r = Checker(OpenSpielKernel(), "tromp-taylor", 5, seed=1, minimise_seconds=20).run(20)
    rules = {(d.finding.rule, d.finding.kernel) for d in r.divergences}
    assert ("suicide", "illegal") in rules and ("superko", "legal") in rules


def _rules_of(r: Report) -> set[tuple[str, str]]:
    return {(d.finding.rule, d.finding.kernel) for d in r.divergences}


@needs_pettingzoo_go
def test_pettingzoo_go_agrees_under_simple_ko_without_suicide() -> None:
    """PettingZoo's go_v5 (minigo's go.py): no suicide, the simple-ko ban only (its
    comment's "positional superko" is not implemented), area counting: it agrees on
    legal sets, boards and scores under tromp-taylor:suicide=no,ko=simple-ko."""
    r = Checker(PettingZooKernel(), "tromp-taylor:suicide=no,ko=simple-ko", 5, seed=1, minimise_seconds=10).run(40)
    assert r.divergences == [] and r.checks == ("legal", "stones", "score") and r.positions > 1000


@needs_pettingzoo_go
def test_pettingzoo_go_forbids_suicide_and_ignores_superko() -> None:
    r = Checker(PettingZooKernel(), "tromp-taylor", 5, seed=1, minimise_seconds=10).run(40)
    assert _rules_of(r) == {("suicide", "illegal"), ("superko", "legal")}
    sk = next(d for d in r.divergences if d.finding.rule == "superko")
    g = Game(5, rules="tromp-taylor")
    for m in sk.moves:
        g.play(m)
    assert g.illegal_reason(sk.finding.point) == "superko"


@pytest.mark.jax
@needs_pgx
def test_pgx_ends_its_game_on_a_repeated_position() -> None:
    """pgx's go: no suicide, the simple-ko ban in its legal mask, and a play that repeats
    an earlier position is legal but ends the game (the player who made it loses)."""
    kernel = PgxKernel()
    assert isinstance(kernel, Kernel)
    r = Checker(kernel, "tromp-taylor:suicide=no", 5, seed=1, minimise_seconds=10).run(20)
    assert _rules_of(r) == {("superko", "legal")} and r.checks == ("legal", "stones", "score")
    r = Checker(kernel, "tromp-taylor:suicide=no,ko=simple-ko", 5, seed=1, minimise_seconds=10).run(20)
    assert [d.finding.rule for d in r.divergences] == ["game over"]


def test_a_missing_peer_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without its package an adapter says which extra to install."""

    real = importlib.import_module

    def missing(name: str, package: str | None = None) -> object:
        if name.split(".")[0] in ("pyspiel", "pettingzoo", "pgx", "jax"):
            raise ImportError(name)
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", missing)
    for kernel, extra in ((OpenSpielKernel, "openspiel"), (PettingZooKernel, "pettingzoo-go"), (PgxKernel, "pgx")):
        with pytest.raises(IkedaError, match=f"ikeda\\[{extra}\\]"):
            kernel()


@needs_pettingzoo_go
def test_the_command_checks_a_python_kernel() -> None:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "PYTHONPATH": os.path.join(root, "python")}
    args = [sys.executable, "-m", "ikeda", "conform", "--kernel", "pettingzoo", "--size", "5", "--games", "5"]
    p = subprocess.run([*args, "--rules", "tromp-taylor:suicide=no,ko=simple-ko"], capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0 and "PettingZoo go_v5 against ikeda" in p.stdout and "result: agrees" in p.stdout, p.stderr
    p = subprocess.run([*args, "--rules", "tromp-taylor", "--minimise-seconds", "5"], capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 1 and "rule suicide" in p.stdout


def test_ikeda_through_the_protocol_agrees_with_itself() -> None:
    """The baseline of `ikeda bench`: every check, score included, agrees."""
    r = Checker(IkedaKernel("tromp-taylor"), "tromp-taylor", 5, seed=2, minimise_seconds=5).run(10)
    assert r.divergences == [] and r.checks == ("legal", "stones", "score") and r.positions > 200
