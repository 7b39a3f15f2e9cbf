"""``ikeda vectors``: the records are written, read back, and every field checked
against the plain reference implementation (tests/reference.py), not against ikeda."""

from __future__ import annotations

import json
import os

import pytest

import reference
from ikeda.cli import main

REF_RULES = set(reference.PRESETS)


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    out = tmp_path_factory.mktemp("vectors")
    assert main(["vectors", "--out", str(out), "--sizes", "4,5", "--games", "2", "--seed", "3"]) == 0
    with open(os.path.join(out, "vectors.jsonl"), encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def test_every_ruleset_and_size_is_covered(records: list[dict]) -> None:
    assert {r["rules"] for r in records} == REF_RULES
    assert {r["width"] for r in records} == {4, 5}
    assert all(r["schema"] == 1 for r in records) and len({r["id"] for r in records}) == len(records)
    assert any(r["captures"] for r in records) and any(r["over"] for r in records)
    assert any(r["self_captures"] for r in records if r["rules"] == "tromp-taylor")


def test_every_record_agrees_with_the_reference(records: list[dict]) -> None:
    for r in records:
        w = r["width"]
        ref = reference.RulesGame(w, r["height"], komi=r["komi"], rules=r["rules"])
        for m in r["moves"]:
            ref.play(m)
        assert ["".join(".XO"[c] for c in ref.board[y * w:(y + 1) * w]) for y in range(r["height"])] == r["board"], r["id"]
        assert reference.NAME[ref.to_move] == r["to_move"] and ref.over == r["over"]
        legal = [reference.vertex_name(p, w, r["height"]) for p in ref.legal_moves() if p != ref.pass_move]
        assert sorted(legal) == sorted(r["legal"]), r["id"]
        for m in r["legal"]:
            _, after, removed = ref._try_play(reference.parse_vertex(m, w, r["height"]))
            theirs = sum(1 for a, b in zip(ref.board, after) if a == reference.opponent(ref.to_move) and b == 0)
            assert r["captures"].get(m, 0) == theirs and r["self_captures"].get(m, 0) == removed - theirs, (r["id"], m)
        for name, margin in r["score"].items():
            # The same moves replayed and counted under each ruleset; None if they are not a game there.
            other = reference.RulesGame(w, r["height"], komi=r["komi"], rules=name)
            try:
                for m in r["moves"]:
                    other.play(m)
            except ValueError:
                assert margin is None, (r["id"], name)
                continue
            assert margin == other.score()["margin"], (r["id"], name)
        assert r["perft"] == [reference.perft(ref, d) for d in range(len(r["perft"]))], r["id"]


def test_the_perft_table_in_the_docs() -> None:
    """Every row of docs/conformance.md's perft table, recomputed."""
    import ikeda

    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "conformance.md")
    with open(path, encoding="utf-8") as f:
        rows = [line.split("|")[1:-1] for line in f if line.startswith("| area3 |") or line.startswith("| tromp-taylor |")]
    assert len(rows) == 10
    for rules, board, *counts in (r for r in rows if "x" in r[1]):
        n = int(board.strip().split("x")[0])
        expected = [int(c) for c in counts if c.strip()]
        g = ikeda.Game(n, rules=rules.strip())
        assert [ikeda.perft(g, d) for d in range(1, len(expected) + 1)] == expected, (rules, board)
