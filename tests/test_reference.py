"""The reference implementation replays the rules sample exactly.

The sample (``tests/data/rules-sample``, its README says where it came from) comes from a separate
implementation of the same rules text; every record must agree with ``reference.py``.
"""

from __future__ import annotations


import pytest

from reference import RefGame, parse_vertex, perft, vertex_name
from sample import load



GAMES = load("games.jsonl")
PROBES = load("probes.jsonl")


def start(record: dict) -> RefGame:
    return RefGame(record["size"], record["size"], komi=record.get("komi", 0),
                   setup=record["setup"], to_move=record["first_player"])


def replay(record: dict) -> tuple[RefGame, int | None]:
    """Play every recorded move; return the game and the index of the ending move."""
    game = start(record)
    end_index = None
    for i, move in enumerate(record["moves"]):
        assert game.illegal_reason(move) is None, f"move {i} ({move}) rejected"
        game.play(move)
        if game.over and end_index is None:
            end_index = i
    return game, end_index


def test_sample_is_present() -> None:
    assert len(GAMES) > 100 and len(PROBES) > 100


@pytest.mark.parametrize("record", GAMES, ids=[g["id"] for g in GAMES])
def test_game(record: dict) -> None:
    game, end_index = replay(record)
    assert game.diagram() == record["final"]
    assert game.over == record["ended"]
    assert end_index == record["end_index"]
    if record["ended"]:
        assert end_index == len(record["moves"]) - 1  # nothing is played after the end
    if record["style"] == "unfinished":
        assert not game.over
    assert game.first_passer == record["first_passer"]
    assert game.first_pass_index == record["first_pass_index"]
    assert game.captured == record["captured"]
    score = game.score()
    assert {"B": score["black_stones"], "W": score["white_stones"]} == record["stones"]
    assert {"B": score["black_territory"], "W": score["white_territory"]} == record["territory"]
    assert score["black"] == record["area3"]["B"]
    assert score["white"] == record["area3"]["W"]
    assert score["margin"] == record["area3"]["D"]
    # Area II is the same count without the half point.
    assert score["black"] + score["half_point"] == record["area2"]["B"]
    assert score["white"] - score["half_point"] == record["area2"]["W"]
    winner = "B" if score["margin"] > 0 else "W" if score["margin"] < 0 else "draw"
    assert winner == record["winner"]


@pytest.mark.parametrize("record", PROBES, ids=[p["id"] for p in PROBES])
def test_probe(record: dict) -> None:
    game, _ = replay(record)
    assert game.diagram() == record["position"]
    assert "BW"[game.to_move - 1] == record["to_move"]
    assert game.over == record["over"]
    for cand in record["candidates"]:
        reason = game.illegal_reason(cand["move"])
        expected = None if cand["legal"] else cand["reason"].replace(" ", "_")
        assert reason == expected, f"{cand['move']}: {reason} != {expected}"
        if cand["legal"] and "after" in cand:
            child = game.copy()
            child.play(cand["move"])
            assert child.diagram() == cand["after"], cand["move"]
            if "removes" in cand:
                removed = sum(child.captured.values()) - sum(game.captured.values())
                assert removed == cand["removes"]
            child.undo()
            assert child.board == game.board


# -- the reference's own small facts -------------------------------------------------


def test_vertices_round_trip() -> None:
    for w, h in [(1, 1), (3, 5), (19, 19), (25, 25), (25, 2)]:
        for p in range(w * h + 1):
            assert parse_vertex(vertex_name(p, w, h), w, h) == p
    assert parse_vertex("A1", 19, 19) == 18 * 19
    assert parse_vertex("T19", 19, 19) == 18
    assert parse_vertex("J1", 9, 9) == 8 * 9 + 8


def test_rule6_end() -> None:
    g = RefGame(3)
    for m in ["pass", "pass"]:
        g.play(m)
    assert not g.over  # the first of the two is the game's first pass
    g.play("pass")
    assert g.over and g.legal_moves() == [] and g.illegal_reason("pass") == "game_over"

    g = RefGame(3)
    for m in ["pass", "B2", "pass", "pass"]:
        g.play(m)
    assert g.over and g.first_passer == "B"

    g = RefGame(3)
    for m in ["A1", "pass", "pass"]:
        g.play(m)
    assert not g.over and g.first_passer == "W"
    assert g.score()["half_point"] == 0.5


def test_noncapturing_repeat_is_legal_capturing_repeat_is_not() -> None:
    g = RefGame(2, 1)  # a 2x1 strip: A1 B1
    g.play("A1")
    g.play("B1")  # captures A1: configuration ".O", new
    assert g.diagram() == [".O"]
    assert g.illegal_reason("A1") == "superko"  # would recreate "X."
    g.play("pass")
    g.play("pass")  # white passes; not the end (black's pass was the first pass)
    assert g.illegal_reason("A1") == "superko"  # Rule 4 never forgets


def test_perft_small() -> None:
    assert perft(RefGame(1), 0) == 1
    assert perft(RefGame(1), 1) == 1  # only pass: a play on 1x1 is suicide
    assert perft(RefGame(1), 3) == 1  # pass pass pass, which ends the game
    assert perft(RefGame(1), 4) == 0
    game = RefGame(2)
    before = (game.board, list(game.moves), set(game.seen))
    perft(game, 4)
    assert (game.board, game.moves, game.seen) == before
