"""The Game API: coordinates, conventions, copies, undo, handicap, boards, threads."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest

import ikeda
from diagrams import (
    all_vertices,
    assert_board,
    flat_index,
    game_from,
    play_all,
    snapshot,
    vertex_of_index,
)

# --------------------------------------------------------------------------- construction


def test_defaults() -> None:
    g = ikeda.Game()
    assert g.to_numpy().shape == (19, 19)
    assert g.to_move == "B"
    assert g.first_passer is None
    assert not g.is_over
    assert g.moves == []
    assert len(g.legal_moves()) == 19 * 19 + 1
    play_all(g, ["pass", "pass", "pass"])
    assert g.score().komi == 6.5


def test_keyword_only_arguments() -> None:
    with pytest.raises(TypeError):
        ikeda.Game(9, 7.5)  # type: ignore[misc]
    g = ikeda.Game(9, komi=7.5, rules="area3")
    play_all(g, ["pass", "pass", "pass"])
    assert g.score().komi == 7.5


# --------------------------------------------------------------------------- coordinates


def test_to_numpy_orientation() -> None:
    g = ikeda.Game(9)
    play_all(g, ["A1", "J9", "A9", "J1", "C2"])
    arr = g.to_numpy()
    assert arr.dtype == np.int8
    assert arr.shape == (9, 9)
    assert arr[8, 0] == 1  # A1: bottom-left
    assert arr[0, 8] == 2  # J9: top-right
    assert arr[0, 0] == 1  # A9: top-left
    assert arr[8, 8] == 2  # J1: bottom-right
    assert arr[7, 2] == 1  # C2: second row from the bottom, third column
    assert int((arr != 0).sum()) == 5


def test_to_numpy_is_a_copy() -> None:
    g = ikeda.Game(5)
    g.play("C3")
    arr = g.to_numpy()
    arr[:] = 2
    assert g.to_numpy()[2, 2] == 1
    assert int((g.to_numpy() != 0).sum()) == 1


def test_letters_skip_i() -> None:
    g = ikeda.Game(9)
    assert g.is_legal("J9")
    assert g.is_legal("H9")
    with pytest.raises(ikeda.InvalidMoveError):
        g.play("I9")
    g.play("J9")
    assert g.to_numpy()[0, 8] == 1
    g.play("H9")
    assert g.to_numpy()[0, 7] == 2

    big = ikeda.Game(25)
    big.play("Z25")
    assert big.to_numpy()[0, 24] == 1
    big.play("T19")  # T is the 19th column letter without I
    assert big.to_numpy()[25 - 19, 18] == 2


def test_flat_index_conventions() -> None:
    g = ikeda.Game(9)
    g.play(0)  # top-left
    assert g.moves == ["A9"]
    g.play(80)  # bottom-right
    assert g.moves == ["A9", "J1"]
    g.play(9 * 9)  # pass
    assert g.moves == ["A9", "J1", "pass"]
    g.play(3 * 9 + 4)  # row 3 from the top, column E: E6
    assert g.moves[-1] == "E6"
    assert g.to_numpy()[3, 4] == 2


def test_flat_index_rectangular() -> None:
    g = ikeda.Game(width=5, height=3)
    g.play(5)  # first point of the second row from the top: A2
    assert g.moves == ["A2"]
    assert g.to_numpy()[1, 0] == 1
    g.play(14)  # E1
    assert g.moves[-1] == "E1"
    g.play(15)  # pass
    assert g.moves[-1] == "pass"


def test_legal_mask_shape_and_content() -> None:
    g = ikeda.Game(9)
    mask = g.legal_mask()
    assert mask.dtype == np.bool_
    assert mask.shape == (82,)
    assert mask.all()
    g.play("D4")
    mask = g.legal_mask()
    assert not mask[flat_index("D4", 9, 9)]
    assert mask[81]  # pass
    assert int(mask.sum()) == 81


def test_legal_moves_order_and_agreement_with_mask() -> None:
    g = ikeda.Game(9)
    assert g.legal_moves() == all_vertices(9, 9) + ["pass"]
    assert g.legal_moves()[0] == "A9"
    assert g.legal_moves()[-2] == "J1"
    play_all(g, ["D4", "E5", "A9"])
    mask = g.legal_mask()
    expected = [vertex_of_index(int(i), 9, 9) for i in np.flatnonzero(mask)]
    assert g.legal_moves() == expected
    assert g.legal_moves()[-1] == "pass"


def test_is_legal_accepts_all_move_forms() -> None:
    g = ikeda.Game(9)
    g.play("E5")
    i = flat_index("E5", 9, 9)
    assert not g.is_legal("E5")
    assert not g.is_legal("e5")
    assert not g.is_legal(i)
    assert g.is_legal("pass")
    assert g.is_legal(81)
    assert g.is_legal("D4") and g.is_legal(flat_index("D4", 9, 9))


def test_str_shows_coordinates_and_stones() -> None:
    g = ikeda.Game(9)
    empty = str(g)
    lines = empty.splitlines()
    assert any("".join(line.split()) == "ABCDEFGHJ" for line in lines), empty
    for row in range(1, 10):
        labelled = [ln.split() for ln in lines if ln.split()]
        assert any(str(row) in (t[0], t[-1]) for t in labelled), empty
    g.play("C3")
    assert str(g) != empty

    g19 = str(ikeda.Game(19))
    assert any("".join(line.split()) == "ABCDEFGHJKLMNOPQRST" for line in g19.splitlines()), g19


# --------------------------------------------------------------------------- copy and undo

KO = """
    .....
    .XO..
    X..O.
    .XO..
    .....
    """


def test_copy_is_independent() -> None:
    g = ikeda.Game(5)
    play_all(g, ["C3", "D3"])
    c = g.copy()
    assert snapshot(c) == snapshot(g)
    before = snapshot(g)
    play_all(c, ["pass", "C4", "pass", "pass"])
    assert c.is_over
    assert snapshot(g) == before
    g.play("E5")
    assert c.moves == ["C3", "D3", "pass", "C4", "pass", "pass"]


def test_copy_keeps_history() -> None:
    g = game_from(KO)
    play_all(g, ["C3", "B3"])
    c = g.copy()
    with pytest.raises(ikeda.IllegalMoveError) as info:
        c.play("C3")
    assert info.value.reason == "superko"
    # the copy can be undone into the original's past without touching the original
    c.undo()
    c.undo()
    assert c.moves == []
    assert g.moves == ["C3", "B3"]


def test_copies_do_not_share_history() -> None:
    # A configuration reached only in a copy is no superko ban for the original, and
    # the other way round.
    g = game_from(KO)
    g.play("C3")
    c = g.copy()
    c.play("B3")  # White takes the ko in the copy only
    assert g.is_legal("B3")
    g.play("B3")
    assert_board(g, [".....", ".XO..", "XO.O.", ".XO..", "....."])

    g = game_from(KO)
    g.play("C3")
    c = g.copy()
    c.play("B3")
    c.undo()
    assert g.is_legal("B3") and c.is_legal("B3")


def test_undo_restores_everything() -> None:
    g = game_from(KO, komi=0.5)
    moves = ["C3", "B3", "pass", "E5", "pass", "E1", "pass", "pass"]
    states = [snapshot(g)]
    for m in moves:
        g.play(m)
        states.append(snapshot(g))
    assert g.is_over
    assert states[2]["first_passer"] is None and states[3]["first_passer"] == "B"
    for expected in reversed(states[:-1]):
        g.undo()
        assert snapshot(g) == expected
    assert g.moves == []
    assert g.first_passer is None
    # after undoing into the middle, play goes on normally
    play_all(g, ["C3", "B3", "E5"])
    assert_board(g, ["....X", ".XO..", "XO.O.", ".XO..", "....."])


def test_undo_of_final_pass_reopens_game() -> None:
    g = ikeda.Game(5)
    play_all(g, ["pass", "pass", "pass"])
    assert g.is_over
    g.undo()
    assert not g.is_over
    assert g.first_passer == "B"
    assert g.to_move == "B"
    g.play("C3")
    assert not g.is_over


def test_undo_of_capture_restores_stones() -> None:
    g = game_from([".....", "..X..", ".XO..", "..X..", "....."])
    g.play("D3")
    assert g.to_numpy()[2, 2] == 0
    g.undo()
    assert_board(g, [".....", "..X..", ".XO..", "..X..", "....."])
    assert g.to_move == "B"


def test_undo_with_empty_history_is_an_error() -> None:
    g = ikeda.Game(5)
    before = snapshot(g)
    with pytest.raises((ikeda.IkedaError, IndexError, ValueError, RuntimeError)):
        g.undo()
    assert snapshot(g) == before


# --------------------------------------------------------------------------- handicap

# The GTP fixed_handicap placements (stones in any order).
HANDICAP: dict[int, dict[int, set[str]]] = {}
_LINES = {9: ("C3", "E5", "G7"), 13: ("D4", "G7", "K10"), 19: ("D4", "K10", "Q16")}
for _size, (lo, mid, hi) in _LINES.items():
    col = {"l": lo[0], "m": mid[0], "h": hi[0]}
    row = {"l": lo[1:], "m": mid[1:], "h": hi[1:]}

    def _pts(codes: str, col: dict[str, str] = col, row: dict[str, str] = row) -> set[str]:
        return {col[c] + row[r] for c, r in codes.split()}

    HANDICAP[_size] = {
        2: _pts("ll hh"),
        3: _pts("ll hh lh"),
        4: _pts("ll hh lh hl"),
        5: _pts("ll hh lh hl mm"),
        6: _pts("ll hh lh hl lm hm"),
        7: _pts("ll hh lh hl lm hm mm"),
        8: _pts("ll hh lh hl lm hm ml mh"),
        9: _pts("ll hh lh hl lm hm ml mh mm"),
    }


def test_handicap_table_spot_checks() -> None:
    assert HANDICAP[19][2] == {"D4", "Q16"}
    assert HANDICAP[19][3] == {"D4", "Q16", "D16"}
    assert HANDICAP[19][5] == {"D4", "Q16", "D16", "Q4", "K10"}
    assert HANDICAP[9][8] == {"C3", "G7", "C7", "G3", "C5", "G5", "E3", "E7"}
    assert HANDICAP[13][6] == {"D4", "K10", "D10", "K4", "D7", "K7"}


def _black_points(g: ikeda.Game) -> set[str]:
    arr = g.to_numpy()
    h, w = arr.shape
    return {vertex_of_index(r * w + c, w, h) for r, c in zip(*np.nonzero(arr == 1))}


@pytest.mark.parametrize("size", [9, 13, 19])
@pytest.mark.parametrize("stones", range(2, 10))
def test_handicap_placement(size: int, stones: int) -> None:
    g = ikeda.Game(size, handicap=stones)
    assert _black_points(g) == HANDICAP[size][stones]
    assert not (g.to_numpy() == 2).any()
    assert g.to_move == "W"
    assert g.moves == []


def test_handicap_19_two_stones() -> None:
    g = ikeda.Game(19, handicap=2)
    arr = g.to_numpy()
    assert arr[19 - 4, 3] == 1  # D4
    assert arr[19 - 16, 15] == 1  # Q16
    assert int((arr != 0).sum()) == 2
    assert g.to_move == "W"


def test_handicap_to_move_override() -> None:
    g = ikeda.Game(19, handicap=2, to_move="B")
    assert g.to_move == "B"


def test_handicap_zero_is_even_game() -> None:
    g = ikeda.Game(19, handicap=0)
    assert not g.to_numpy().any()
    assert g.to_move == "B"


# --------------------------------------------------------------------------- rectangular boards


def test_rectangular_board() -> None:
    g = ikeda.Game(width=5, height=3)
    assert g.to_numpy().shape == (3, 5)
    assert g.legal_mask().shape == (16,)
    assert g.legal_moves() == all_vertices(5, 3) + ["pass"]
    assert all_vertices(5, 3)[:5] == ["A3", "B3", "C3", "D3", "E3"]
    for bad in ["F1", "A4", "E4", "F3"]:
        with pytest.raises(ikeda.InvalidMoveError):
            g.play(bad)
    g.play("E3")
    g.play("A1")
    arr = g.to_numpy()
    assert arr[0, 4] == 1
    assert arr[2, 0] == 2
    assert "E" in str(g) and "3" in str(g)


def test_rectangular_game_plays_to_the_end() -> None:
    rng = random.Random(7)
    g = ikeda.Game(width=6, height=2, komi=0.0)
    while not g.is_over and len(g.moves) < 500:
        g.play(rng.choice(g.legal_moves()))
    g2 = ikeda.Game(width=6, height=2, komi=0.0)
    play_all(g2, g.moves)
    assert snapshot(g2) == snapshot(g)
    if g.is_over:
        s = g.score()
        own = g.ownership()
        assert own.shape == (2, 6)
        assert int((own == 1).sum()) == s.black_stones + s.black_territory
        assert int((own == 2).sum()) == s.white_stones + s.white_territory


# --------------------------------------------------------------------------- consistency on random play


def _check_consistency(g: ikeda.Game) -> None:
    w_h = g.to_numpy().shape
    h, w = w_h
    mask = g.legal_mask()
    legal = g.legal_moves()
    assert legal == [vertex_of_index(int(i), w, h) for i in np.flatnonzero(mask)]
    board = g.to_numpy()
    for i in range(w * h + 1):
        v = vertex_of_index(i, w, h)
        assert g.is_legal(v) == bool(mask[i]) == g.is_legal(i)
        if i < w * h and board.flat[i] != 0:
            assert not mask[i]


@pytest.mark.parametrize("seed", range(6))
def test_random_play_consistency(seed: int) -> None:
    rng = random.Random(seed)
    size = rng.choice([3, 4, 5])
    g = ikeda.Game(size)
    while not g.is_over and len(g.moves) < 120:
        _check_consistency(g)
        # now and then try an illegal move: it must raise and change nothing
        illegal = [i for i in range(size * size) if not g.legal_mask()[i]]
        if illegal and rng.random() < 0.3:
            before = snapshot(g)
            with pytest.raises(ikeda.IllegalMoveError):
                g.play(rng.choice(illegal))
            assert snapshot(g) == before
        moves = g.legal_moves()
        plays = [m for m in moves if m != "pass"]
        move = rng.choice(plays) if plays and rng.random() < 0.9 else "pass"
        g.play(move)
        assert g.moves[-1] == move
    _check_consistency(g)


@pytest.mark.parametrize("rules", ["area3", "area2", "territory1", "tromp-taylor", "japanese"])
def test_a_pass_is_counted_the_same_whatever_type_names_it(rules: str) -> None:
    # One game is given exact ints and "pass", the other numpy ints (read through
    # `__index__`). Both see the same moves, with undos, and must agree on every piece of
    # the pass bookkeeping and on the end after each move.
    for seed in range(8):
        rng = random.Random(seed)
        fast, slow = ikeda.Game(5, rules=rules), ikeda.Game(5, rules=rules)
        for _ in range(200):
            if fast.is_over and rng.random() < 0.5:
                break
            plays = fast.legal_indices()
            if fast.is_over or (len(fast.moves) > 2 and rng.random() < 0.05):
                assert fast.undo() == slow.undo()
            elif not plays or rng.random() < 0.35:
                fast.play(rng.choice([25, "pass", "PASS"]))
                slow.play(np.int64(25))
            else:
                i = rng.choice(plays)
                fast.play(i)
                slow.play(np.int64(i))
            state = [(g.moves, g.is_over, g.first_passer, g.preliminary_end, g._passes, g._streak, g._first_pass) for g in (fast, slow)]
            assert state[0] == state[1]
        assert fast.is_over == slow.is_over
        if fast.is_over and rules != "japanese":  # (its status search is slow; it reads no pass count)
            assert fast.score() == slow.score()
            assert fast.copy().score() == fast.score()


# --------------------------------------------------------------------------- threads


def _random_game(seed: int) -> tuple[list[str], list[list[int]], bool, Any]:
    rng = random.Random(seed)
    g = ikeda.Game(9, komi=7.5)
    while not g.is_over and len(g.moves) < 300:
        plays = g.legal_moves()
        move = rng.choice(plays[:-1]) if len(plays) > 1 and rng.random() < 0.95 else "pass"
        g.play(move)
    score = g.score() if g.is_over else None
    return (
        list(g.moves),
        g.to_numpy().tolist(),
        g.is_over,
        None if score is None else (score.black, score.white),
    )


def test_one_game_per_thread() -> None:
    seeds = list(range(24))
    sequential = [_random_game(s) for s in seeds]
    with ThreadPoolExecutor(max_workers=8) as pool:
        threaded = list(pool.map(_random_game, seeds))
    assert threaded == sequential
    assert len({tuple(r[0]) for r in sequential}) == len(seeds)  # the games differ


def test_moves_follow_plays_undos_and_copies_and_are_the_callers_to_change() -> None:
    """`moves` keeps its names between calls and extends them by the moves played since:
    after every play, undo (the record loses its end) and copy it is the record."""
    g, rng = ikeda.Game(5), random.Random(3)
    record: list[str] = []
    for step in range(400):
        if record and rng.random() < 0.3:
            g.undo()
            record.pop()
        elif not g.is_over:
            plays = g.legal_moves()
            move = rng.choice(plays)
            g.play(move)
            record.append("pass" if move == "pass" else move)
        if rng.random() < 0.5:
            assert g.moves == record == [g.board.vertex(i) for i in g.move_indices], step
        if step % 50 == 0:
            h = g.copy()
            h.play("pass") if not h.is_over else h.undo()
            assert g.moves == record and h.moves != record
    mine = g.moves
    mine.append("A1")
    mine[0] = "B2"
    assert g.moves == record and g.moves is not g.moves
