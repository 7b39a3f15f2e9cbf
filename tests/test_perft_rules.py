"""Native perft under every preset agrees with an enumeration through the Python `Game`,
from positions in every phase of each ending (so the pass state handed to the native
loop is checked: first pass, preliminary end, pass stones, simple ko)."""

from __future__ import annotations

import pytest

import ikeda


def slow_perft(game: ikeda.Game, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in game.legal_moves():
        child = game.copy()
        child.play(move)
        total += slow_perft(child, depth - 1)
    return total


PREFIXES = [
    [],
    ["pass"],
    ["B2", "pass"],
    ["pass", "pass"],
    ["B2", "pass", "pass"],
    ["B2", "pass", "pass", "A1"],
    ["B2", "pass", "pass", "pass"],
    ["A1", "B1", "pass", "A2"],
]
RULES = ["area3", "area2", "territory1", "tromp-taylor", "area3:ko=simple-ko"]


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("prefix", PREFIXES, ids="-".join)
def test_perft_matches_python_flow(rules: str, prefix: list[str]) -> None:
    game = ikeda.Game(width=3, height=2, komi=0, rules=rules)
    for move in prefix:
        if game.is_over:
            return
        game.play(move)
    for depth in range(5):
        assert ikeda.perft(game, depth) == slow_perft(game, depth), (rules, prefix, depth)


def test_simple_ko_ban_in_native_loops() -> None:
    # A ko on a 4x3 board: after White's capture at B2, Black may not retake at C2 at once
    # under simple ko (but may after a pass pair... which would end Area II; use Area III).
    game = ikeda.Game(width=4, height=3, komi=0, rules="area3:ko=simple-ko")
    for m in ["B3", "C3", "A2", "D2", "B1", "C1", "C2", "B2"]:
        game.play(m)
    assert game.illegal_reason("C2") == "ko"
    assert ikeda.perft(game, 1) == len(game.legal_moves())
    assert ikeda.perft(game, 3) == slow_perft(game, 3)
