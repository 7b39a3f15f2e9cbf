"""Replay every record of the published rules sample and agree with it.

The sample (games and legality probes) comes from an independent, plain implementation
of the rules; its format is described in the sample's README.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ikeda
from diagrams import all_vertices, assert_board, flat_index, snapshot
from sample import load


#: the sample spells the reasons of Rule 6 differently
REASON = {"game over": "game_over", "occupied": "occupied", "suicide": "suicide", "superko": "superko"}


GAMES = load("games.jsonl")
PROBES = load("probes.jsonl")


def test_sample_is_present_and_nonempty() -> None:
    assert len(GAMES) > 100
    assert len(PROBES) > 100
    assert {g["style"] for g in GAMES} >= {"normal", "early", "answer", "setup", "unfinished"}


def _start(record: dict[str, Any]) -> ikeda.Game:
    setup = {"B": list(record["setup"].get("B", [])), "W": list(record["setup"].get("W", []))}
    kwargs: dict[str, Any] = {"setup": setup, "to_move": record["first_player"]}
    if "komi" in record:
        kwargs["komi"] = record["komi"]
    return ikeda.Game(record["size"], **kwargs)


def _replay(record: dict[str, Any]) -> ikeda.Game:
    g = _start(record)
    for i, move in enumerate(record["moves"]):
        try:
            g.play(move)
        except ikeda.IkedaError as e:  # pragma: no cover - only reached on a bug
            raise AssertionError(f"{record['id']}: move {i + 1} ({move}) rejected: {e}") from e
    return g


@pytest.mark.parametrize("rec", GAMES, ids=[g["id"] for g in GAMES])
def test_sample_game(rec: dict[str, Any]) -> None:
    g = _replay(rec)
    assert_board(g, rec["final"])
    assert len(g.moves) == len(rec["moves"])
    assert [m.lower() for m in g.moves] == [m.lower() for m in rec["moves"]]
    assert g.is_over == rec["ended"]
    assert g.first_passer == rec["first_passer"]

    if not rec["ended"]:
        expected_to_move = rec["first_player"] if len(rec["moves"]) % 2 == 0 else (
            "W" if rec["first_player"] == "B" else "B"
        )
        assert g.to_move == expected_to_move
        assert g.legal_moves()  # pass at least
        return

    assert rec["end_index"] == len(rec["moves"]) - 1
    s = g.score()
    area3 = rec["area3"]
    assert (s.black, s.white, s.margin) == (area3["B"], area3["W"], area3["D"])
    assert (s.black_stones, s.white_stones) == (rec["stones"]["B"], rec["stones"]["W"])
    assert (s.black_territory, s.white_territory) == (rec["territory"]["B"], rec["territory"]["W"])
    assert s.komi == rec["komi"]
    assert s.half_point == (0.5 if rec["first_passer"] == "W" else 0.0)
    assert s.winner == (None if rec["winner"] == "draw" else rec["winner"])
    # Area II is the same count without the half point
    assert s.black + s.half_point == rec["area2"]["B"]
    assert s.white - s.half_point == rec["area2"]["W"]

    own = g.ownership()
    assert int((own == 1).sum()) == rec["stones"]["B"] + rec["territory"]["B"]
    assert int((own == 2).sum()) == rec["stones"]["W"] + rec["territory"]["W"]

    # Rule 6: nothing may be played after the end
    assert g.legal_moves() == []
    assert not g.legal_mask().any()
    before = snapshot(g)
    for move in ["pass", all_vertices(rec["size"], rec["size"])[0]]:
        assert not g.is_legal(move)
        with pytest.raises(ikeda.IllegalMoveError) as info:
            g.play(move)
        assert info.value.reason == "game_over"
        assert info.value.move_number == len(rec["moves"]) + 1
    assert snapshot(g) == before


def _candidate_ids(probe: dict[str, Any]) -> str:
    return f"{probe['id']}-{probe['category']}"


@pytest.mark.parametrize("probe", PROBES, ids=[_candidate_ids(p) for p in PROBES])
def test_sample_probe(probe: dict[str, Any]) -> None:
    g = _replay(probe)
    size = probe["size"]
    assert_board(g, probe["position"])
    assert g.to_move == probe["to_move"]
    assert g.is_over == probe["over"]

    start = snapshot(g)
    for cand in probe["candidates"]:
        move = cand["move"]
        where = f"{probe['id']} {move}"
        assert g.is_legal(move) == cand["legal"], where
        if not cand["legal"]:
            with pytest.raises(ikeda.IllegalMoveError) as info:
                g.play(move)
            assert info.value.reason == REASON[cand["reason"]], where
            assert info.value.move_number == len(probe["moves"]) + 1, where
            assert snapshot(g) == start, where
        else:
            c = g.copy()
            c.play(move)
            if cand.get("after") is not None:
                assert_board(c, cand["after"])
            if cand.get("removes") is not None and move != "pass":
                stones_before = int((g.to_numpy() != 0).sum())
                assert int((c.to_numpy() != 0).sum()) == stones_before + 1 - cand["removes"], where
            assert snapshot(g) == start, where  # the copy is independent

    # the mask agrees with the candidates wherever they cover the board
    points = size * size + 1
    if len(probe["candidates"]) == points:
        expected = np.zeros(points, dtype=bool)
        for cand in probe["candidates"]:
            expected[flat_index(cand["move"], size, size)] = cand["legal"]
        mask = g.legal_mask()
        assert mask.dtype == np.bool_
        assert mask.shape == (points,)
        assert mask.tolist() == expected.tolist()
        legal = {c["move"] for c in probe["candidates"] if c["legal"]}
        assert set(g.legal_moves()) == legal
