"""The in-process adapters: OpenSpiel's go checked against ikeda, its real rule
differences found and explained (docs/conformance.md, "Findings")."""

from __future__ import annotations

import pytest

from ikeda import Game
from ikeda.conform import Checker, Kernel

pytest.importorskip("pyspiel")

from ikeda.conform.adapters import OpenSpielKernel  # noqa: E402


def test_the_adapter_is_a_kernel() -> None:
    assert isinstance(OpenSpielKernel(), Kernel)


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


def test_openspiel_forbids_suicide_and_ends_on_superko() -> None:
    r = Checker(OpenSpielKernel(), "tromp-taylor", 5, seed=1, minimise_seconds=20).run(20)
    rules = {(d.finding.rule, d.finding.kernel) for d in r.divergences}
    assert ("suicide", "illegal") in rules and ("superko", "legal") in rules
