"""Test vectors: positions with everything a rules kernel must answer about them, as
JSON Lines (schema in docs/conformance.md, "Test vectors").

Each position is reached by a random game from the empty board under one ruleset (the
same biased choice of moves as the conformance check: captures, kos, self-captures);
the record holds the moves that lead to it (all the history positional or capturing
superko needs), the board, the side to move, the legal plays, the stones each legal play
removes, the count of the board as it stands under each area and territory ruleset, and
perft to a depth.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from typing import Any

from ..errors import IkedaError
from ..game import Game, perft
from ..rules import as_rules
from .check import choose_move

#: The rulesets vectors are made under (simple ko, the Japanese preset, is left out: its
#: games can cycle, and its count needs status confirmation).
VECTOR_RULES = ("area3", "area2", "territory1", "tromp-taylor")
#: The rulesets each position is counted under.
SCORE_RULES = VECTOR_RULES
SCHEMA_VERSION = 1


def vectors(sizes: tuple[int, ...] = (5, 9), games: int = 4, seed: int = 1, perft_depth: int = 2,
            every: int = 5) -> Iterator[dict[str, Any]]:
    """The vectors of `games` random games per size and ruleset: every `every`-th
    position of each game, and its last."""
    rng = random.Random(seed)
    for rules_name in VECTOR_RULES:
        rules = as_rules(rules_name)
        for size in sizes:
            for game_index in range(games):
                g = Game(size, rules=rules)
                cap = 3 * size * size
                while True:
                    last = g.is_over or len(g.moves) >= cap
                    if len(g.moves) % every == 0 or last:
                        yield vector(g, perft_depth, f"{rules_name}-{size}-{game_index}-{len(g.moves)}")
                    if last:
                        break
                    g.play(choose_move(g, None, rng))


def vector(g: Game, perft_depth: int, ident: str) -> dict[str, Any]:
    """One position's record."""
    size = g.width
    cells = g.to_numpy().ravel().tolist()
    color = 1 if g.to_move == "B" else 2
    legal = [m for m in g.legal_moves() if m != "pass"] if not g.is_over else []
    captures = {}
    for m in legal:
        b = g.board.copy()
        before = b.stone_count(3 - color)
        b.play(m, color)
        if before > b.stone_count(3 - color):
            captures[m] = before - b.stone_count(3 - color)
    scores: dict[str, float | None] = {}
    for r in SCORE_RULES:
        try:
            other = Game(width=g.width, height=g.height, rules=as_rules(r).replace(komi=g.komi))
            for m in g.moves:
                other.play(m)
            scores[r] = other.score().margin
        except IkedaError:
            scores[r] = None  # the moves are not a game under these rules
    return {
        "schema": SCHEMA_VERSION,
        "id": ident,
        "rules": str(g.rules),
        "width": g.width,
        "height": g.height,
        "komi": g.komi,
        "moves": g.moves,
        "board": ["".join(".XO"[c] for c in cells[y * size:(y + 1) * size]) for y in range(g.height)],
        "to_move": g.to_move,
        "over": g.is_over,
        "legal": legal,
        "captures": captures,
        "self_captures": {m: _self_captured(g, m, color) for m in legal if _self_captured(g, m, color)},
        "score": scores,
        "perft": [perft(g, d) for d in range(perft_depth + 1)],
    }


def _self_captured(g: Game, m: str, color: int) -> int:
    b = g.board.copy()
    before = b.stone_count(color)
    b.play(m, color)
    return before + 1 - b.stone_count(color)


def write(out: str, **kw: Any) -> tuple[str, int]:
    """Writes ``vectors.jsonl`` into the folder `out` (made if missing); returns its path
    and the number of records."""
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "vectors.jsonl")
    n = 0
    with open(path, "w", encoding="utf-8") as f:
        for v in vectors(**kw):
            f.write(json.dumps(v, separators=(",", ":")) + "\n")
            n += 1
    return path, n
