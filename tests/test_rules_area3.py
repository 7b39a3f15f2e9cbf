"""Area Rules III (Ikeda), rule by rule, on hand-made positions.

Each test is named after the rule of docs RULES.md it checks. Positions are diagrams (top
row first, ``X`` Black, ``O`` White, ``.`` empty) placed with ``setup``; every expected
value was worked out by hand from the rules.
"""

from __future__ import annotations

import numpy as np
import pytest

import ikeda
from diagrams import array_of, assert_board, game_from, play_all, snapshot


def assert_illegal(game: ikeda.Game, move: str, reason: str) -> None:
    """``move`` is illegal for ``reason``, and trying it changes nothing."""
    before = snapshot(game)
    assert not game.is_legal(move)
    assert move not in game.legal_moves()
    with pytest.raises(ikeda.IllegalMoveError) as info:
        game.play(move)
    assert info.value.reason == reason
    assert snapshot(game) == before


# --------------------------------------------------------------------------- Rule 1


def test_rule1_colours_black_moves_first() -> None:
    g = ikeda.Game(5)
    assert g.to_move == "B"
    g.play("C3")
    assert_board(g, [".....", ".....", "..X..", ".....", "....."])
    assert g.to_move == "W"
    g.play("D3")
    assert_board(g, [".....", ".....", "..XO.", ".....", "....."])
    assert g.to_move == "B"


def test_rule1_setup_stones_keep_black_first_unless_told() -> None:
    diagram = [".....", ".O...", ".....", "...X.", "....."]
    g = game_from(diagram)
    assert g.to_move == "B"
    g.play("A1")
    assert_board(g, [".....", ".O...", ".....", "...X.", "X...."])

    g = game_from(diagram, to_move="W")
    assert g.to_move == "W"
    g.play("A1")
    assert_board(g, [".....", ".O...", ".....", "...X.", "O...."])
    assert g.to_move == "B"


# --------------------------------------------------------------------------- Rule 2


def test_rule2_alternation_and_resignation() -> None:
    g = ikeda.Game(5)
    seq = ["C3", "pass", "D4", "C4", "pass"]
    for move, colour in zip(seq, "BWBWB"):
        assert g.to_move == colour
        g.play(move)
    assert g.moves == seq
    assert g.to_move == "W"
    # C3 and D4 are Black's, C4 is White's; the passes placed nothing
    assert_board(g, [".....", "..OX.", "..X..", ".....", "....."])
    assert not g.is_over

    # the side to move resigns by default and loses
    g.resign()
    assert g.is_over
    assert g.result == "B+R"
    assert g.winner == "B"
    assert g.legal_moves() == []
    with pytest.raises(ikeda.IllegalMoveError) as info:
        g.play("A1")
    assert info.value.reason == "game_over"


def test_rule2_resignation_by_named_colour() -> None:
    g = ikeda.Game(5)
    assert g.to_move == "B"
    g.resign("W")  # White resigns although Black is to move
    assert g.is_over
    assert g.result == "B+R"
    assert g.winner == "B"

    g = ikeda.Game(5)
    g.play("C3")
    g.resign("B")
    assert g.result == "W+R"
    assert g.winner == "W"


# --------------------------------------------------------------------------- Rule 3


def test_rule3_removal_single_capture() -> None:
    g = game_from(
        """
        .....
        ..X..
        .XO..
        ..X..
        .....
        """
    )
    g.play("D3")  # fills the last liberty of the White stone on C3
    assert_board(g, [".....", "..X..", ".X.X.", "..X..", "....."])
    assert g.to_move == "W"
    # the point is empty again; White may not play back into it (no liberty, no capture)
    assert not g.is_legal("C3")
    assert g.is_legal("E5")


def test_rule3_removal_multi_chain_capture() -> None:
    # B1 takes the last liberty of two separate White chains: A1 and C1-D1.
    g = game_from(
        """
        .....
        .....
        .....
        X.XX.
        O.OOX
        """
    )
    g.play("B1")
    assert_board(g, [".....", ".....", ".....", "X.XX.", ".X..X"])
    # White may play back on C1 or D1 (each has the other as a liberty)
    assert g.is_legal("C1") and g.is_legal("D1")


def test_rule3_removal_only_chains_without_liberty() -> None:
    # B1 takes a liberty from both White chains; only A1 (left with none) goes.
    g = game_from(
        """
        .....
        .....
        .....
        X.X..
        O.OO.
        """
    )
    g.play("B1")
    assert_board(g, [".....", ".....", ".....", "X.X..", ".XOO."])


def test_rule3_removal_snapback() -> None:
    # White A2-B2 has liberties A1 and B1. Black throws in at A1 (one liberty: B1),
    # White captures it with B1, and the White chain A2-B2-B1 is left with the single
    # liberty A1, so Black plays A1 again and removes all three.
    g = game_from(
        """
        ....
        XX..
        OOX.
        ..X.
        """
    )
    g.play("A1")
    assert_board(g, ["....", "XX..", "OOX.", "X.X."])
    g.play("B1")
    assert_board(g, ["....", "XX..", "OOX.", ".OX."])
    g.play("A1")  # not a repetition: the result has never been seen
    assert_board(g, ["....", "XX..", "..X.", "X.X."])


# --------------------------------------------------------------------------- Rule 4

KO = """
    .....
    .XO..
    X..O.
    .XO..
    .....
    """


def test_rule4_simple_ko_recapture_is_superko() -> None:
    g = game_from(KO)
    g.play("C3")
    g.play("B3")  # White takes the ko
    assert_board(g, [".....", ".XO..", "XO.O.", ".XO..", "....."])
    # retaking at once would recreate the configuration after Black's C3
    assert_illegal(g, "C3", "superko")

    # after an exchange elsewhere the retake makes a new configuration: legal
    g.play("E5")
    g.play("E1")
    assert g.is_legal("C3")
    g.play("C3")
    assert_board(g, ["....X", ".XO..", "X.XO.", ".XO..", "....O"])
    # and now White's immediate retake would repeat the position after White's E1
    assert_illegal(g, "B3", "superko")


def test_rule4_superko_cycle_sending_two_returning_one() -> None:
    # Black plays B1, White plays elsewhere (E5): configuration P. Black then adds A1
    # ("sends two": A1-B1 has one liberty, C1), White captures both with C1, and Black
    # at B1 would capture the single stone C1 ("returns one"), recreating P. A simple-ko
    # rule would allow it (the previous capture took two stones); Rule 4 does not.
    g = game_from(
        """
        .....
        .....
        .....
        OOX..
        ...X.
        """
    )
    play_all(g, ["B1", "E5", "A1"])
    assert_board(g, ["....O", ".....", ".....", "OOX..", "XX.X."])
    g.play("C1")
    assert_board(g, ["....O", ".....", ".....", "OOX..", "..OX."])
    assert_illegal(g, "B1", "superko")
    assert g.is_legal("A1")  # the other liberty of C1 is an ordinary play


def test_rule4_superko_long_cycle() -> None:
    # 2x2: a six-move cycle. After A1 A2 B1 B2(x2) A1 B1(x1), Black's A1 would
    # capture three stones and recreate the configuration after move 1 (a lone X on A1).
    g = ikeda.Game(2)
    play_all(g, ["A1", "A2", "B1", "B2"])
    assert_board(g, ["OO", ".."])
    play_all(g, ["A1", "B1"])
    assert_board(g, ["OO", ".O"])
    assert_illegal(g, "A1", "superko")
    assert g.legal_moves() == ["pass"]


def test_rule4_configuration_ignores_whose_turn() -> None:
    # 5x1 board. After B1 D1, ".X.O." stands with Black to move. Black C1, White A1
    # captures B1-C1; Black B1 would capture A1 and give ".X.O." again, now with White
    # to move. Situational superko would allow it; Rule 4 compares configurations only.
    g = ikeda.Game(width=5, height=1)
    play_all(g, ["B1", "D1", "C1", "A1"])
    assert_board(g, ["O..O."])
    assert_illegal(g, "B1", "superko")


def test_rule4_noncapturing_repeat_is_legal() -> None:
    # 3x3. After move 5 (B2) the board is O.X / XXO / ... ; White B3 captures C3, Black
    # C3 captures A3-B3 (new configurations). White A3 then captures nothing and
    # recreates the board after move 5: legal, because a play that removes nothing is
    # never tested against history.
    g = ikeda.Game(3)
    play_all(g, ["C3", "A3", "A2", "C2", "B2"])
    after_move_5 = ["O.X", "XXO", "..."]
    assert_board(g, after_move_5)
    g.play("B3")
    assert_board(g, ["OO.", "XXO", "..."])
    g.play("C3")
    assert_board(g, ["..X", "XXO", "..."])
    assert g.is_legal("A3")
    assert "A3" in g.legal_moves()
    g.play("A3")
    assert_board(g, after_move_5)


def test_rule4_initial_configuration_counts() -> None:
    # The set-up position P itself is the only earlier occurrence of the configuration
    # Black's B1 would make (see the sending-two-returning-one test).
    g = game_from(
        """
        .....
        .....
        .....
        OOX..
        .X.X.
        """
    )
    g.play("A1")
    g.play("C1")
    assert_board(g, [".....", ".....", ".....", "OOX..", "..OX."])
    assert_illegal(g, "B1", "superko")


def test_rule4_initial_configuration_counts_ko_setup() -> None:
    # The ko is set up with Black's stone already on C3; White takes it. Recapturing
    # would recreate the set-up configuration.
    g = game_from(
        """
        .....
        .XO..
        X.XO.
        .XO..
        .....
        """,
        to_move="W",
    )
    g.play("B3")
    assert_illegal(g, "C3", "superko")


def test_rule4_passes_never_clear_history() -> None:
    g = game_from(KO)
    play_all(g, ["C3", "B3", "pass", "pass"])  # Black's pass is the first pass
    assert not g.is_over
    assert g.to_move == "B"
    assert_illegal(g, "C3", "superko")


def test_rule4_undo_forgets_undone_configurations() -> None:
    g = game_from(KO)
    play_all(g, ["C3", "B3", "E5", "E1"])
    g.undo()
    g.undo()
    # back to just after White took the ko: the ban is still there
    assert g.to_move == "B"
    assert_illegal(g, "C3", "superko")
    # undoing the ko capture itself removes its configuration from the history, so
    # White may take the ko again
    g.undo()
    assert g.to_move == "W"
    assert g.is_legal("B3")
    g.play("B3")
    assert_board(g, [".....", ".XO..", "XO.O.", ".XO..", "....."])


# --------------------------------------------------------------------------- Rule 5


def test_rule5_single_stone_suicide() -> None:
    corner = [".....", ".....", ".....", "X....", ".X..."]
    g = game_from(corner, to_move="W")
    assert_illegal(g, "A1", "suicide")
    # for Black the same point joins its own stones: legal
    g = game_from(corner)
    assert g.is_legal("A1")

    middle = [".....", "..X..", ".X.X.", "..X..", "....."]
    g = game_from(middle, to_move="W")
    assert_illegal(g, "C3", "suicide")


def test_rule5_multi_stone_suicide() -> None:
    # Black A2-B2 has one liberty, A1. Playing there captures nothing (White B1 keeps
    # C1) and leaves the chain A1-A2-B2 with no liberty: suicide, by the Decision that
    # reads the rule on the played stone's chain.
    g = game_from(
        """
        .....
        .....
        OO...
        XXO..
        .O...
        """
    )
    assert_illegal(g, "A1", "suicide")
    assert not g.legal_mask()[4 * 5 + 0]  # A1: row 4 from the top, column 0


def test_rule5_capture_is_never_suicide() -> None:
    # A1 has no empty neighbour, but it takes the last liberty of White A2.
    g = game_from(
        """
        .....
        .....
        X....
        OX...
        .O...
        """
    )
    g.play("A1")
    assert_board(g, [".....", ".....", "X....", ".X...", "XO..."])

    # The same with Black's larger chain: A1 would leave A1-A2-B2 without liberty,
    # but it removes White B1 first.
    g = game_from(
        """
        .....
        .....
        OO...
        XXO..
        .OX..
        """
    )
    g.play("A1")
    assert_board(g, [".....", ".....", "OO...", "XXO..", "X.X.."])


# --------------------------------------------------------------------------- Rule 6


def test_rule6_pass_pass_pass_ends() -> None:
    g = ikeda.Game(5)
    g.play("pass")  # the first pass of the game
    g.play("pass")
    assert not g.is_over
    g.play("pass")
    assert g.is_over
    assert g.first_passer == "B"
    assert g.moves == ["pass", "pass", "pass"]
    assert g.legal_moves() == []


def test_rule6_pass_play_pass_pass_ends() -> None:
    g = ikeda.Game(5)
    for move in ["pass", "C3", "pass"]:
        g.play(move)
        assert not g.is_over
    g.play("pass")
    assert g.is_over
    assert g.first_passer == "B"


def test_rule6_later_pass_pair_ends_after_plays() -> None:
    g = ikeda.Game(5)
    for move in ["pass", "C3", "D3", "pass"]:
        g.play(move)
        assert not g.is_over
    g.play("pass")
    assert g.is_over


def test_rule6_first_pass_by_black() -> None:
    g = ikeda.Game(5)
    play_all(g, ["C3", "D3"])
    assert g.first_passer is None
    g.play("pass")
    assert g.first_passer == "B"
    g.play("pass")  # two in succession, but the first of them is the first pass
    assert not g.is_over
    assert g.first_passer == "B"
    g.play("pass")
    assert g.is_over
    assert g.first_passer == "B"


def test_rule6_first_pass_by_white() -> None:
    g = ikeda.Game(5)
    g.play("C3")
    assert g.first_passer is None
    g.play("pass")
    assert g.first_passer == "W"
    g.play("pass")
    assert not g.is_over
    g.play("pass")
    assert g.is_over
    assert g.first_passer == "W"


def test_rule6_play_after_end_is_game_over() -> None:
    g = ikeda.Game(5)
    play_all(g, ["C3", "pass", "pass", "pass"])
    assert g.is_over
    for move in ["D4", "C3", "pass"]:  # an empty point, an occupied one, a pass
        assert_illegal(g, move, "game_over")
    with pytest.raises(ikeda.IllegalMoveError) as info:
        g.play("D4")
    assert info.value.move_number == 5
    assert g.legal_moves() == []
    assert not g.legal_mask().any()


# --------------------------------------------------------------------------- Rule 7

# Black: B5 B4 A3 B3 B2 B1 (6 stones), territory A5 A4 and A2 A1 (4).
# White: C5 C4 E4 D3 C2 C1 (6 stones), territory D5 E5 D4 (3) and E3 E2 D2 D1 E1 (5).
# C3 touches both colours: nobody's.
WALL = """
    .XO..
    .XO.O
    XX.O.
    .XO..
    .XO..
    """


def test_rule7_score_stones_plus_territory() -> None:
    g = game_from(WALL, komi=0.5)
    play_all(g, ["pass", "pass", "pass"])  # Black passes first: no half point
    assert g.is_over
    s = g.score()
    assert (s.black_stones, s.white_stones) == (6, 6)
    assert (s.black_territory, s.white_territory) == (4, 8)
    assert s.half_point == 0.0
    assert s.komi == 0.5
    assert s.black == 10.0
    assert s.white == 14.5
    assert s.margin == -4.5
    assert s.winner == "W"
    assert s.result == "W+4.5"


def test_rule7_ownership() -> None:
    g = game_from(WALL)
    own = g.ownership()
    assert own.dtype == np.int8
    expected = array_of(
        """
        XXOOO
        XXOOO
        XX.OO
        XXOOO
        XXOOO
        """
    )
    assert own.tolist() == expected.tolist()


def test_rule7_half_point_when_white_passes_first() -> None:
    g = game_from(WALL, komi=0.5, to_move="W")
    play_all(g, ["pass", "pass", "pass"])
    assert g.is_over
    assert g.first_passer == "W"
    s = g.score()
    assert s.half_point == 0.5
    assert (s.black_stones + s.black_territory, s.white_stones + s.white_territory) == (10, 14)
    assert s.black == 9.5  # 10 - 1/2
    assert s.white == 15.0  # 14 + 1/2 + komi 1/2
    assert s.margin == -5.5
    assert s.result == "W+5.5"


def test_rule7_half_point_follows_first_pass_not_last() -> None:
    # White passes first, then Black plays on; the half point stays White's.
    g = ikeda.Game(5, komi=0.0)
    play_all(g, ["C3", "pass", "D3", "pass", "pass"])
    assert g.is_over
    assert g.first_passer == "W"
    s = g.score()
    # Black: 2 stones + the other 23 points (reaching only Black) = 25, minus 1/2
    assert s.black == 24.5
    assert s.white == 0.5
    assert s.margin == 24.0
    assert s.winner == "B"


def test_rule7_empty_board_territory_is_nobodys() -> None:
    g = ikeda.Game(5, komi=6.5)
    play_all(g, ["pass", "pass", "pass"])
    s = g.score()
    assert (s.black_stones, s.white_stones, s.black_territory, s.white_territory) == (0, 0, 0, 0)
    assert s.black == 0.0
    assert s.white == 6.5
    assert s.result == "W+6.5"
    assert not g.ownership().any()

    # contrast: one stone makes the whole empty region its owner's
    g = ikeda.Game(5, komi=6.5)
    play_all(g, ["C3", "pass", "pass", "pass"])  # White passed first
    s = g.score()
    assert (s.black_stones, s.black_territory) == (1, 24)
    assert s.black == 24.5
    assert s.white == 7.0
    assert (g.ownership() == 1).all()


def test_rule7_jigo_is_draw() -> None:
    # Black B col + A col = 8, White C col + D col = 8.
    wall = [".XO.", ".XO.", ".XO.", ".XO."]
    g = game_from(wall, komi=0.0)
    play_all(g, ["pass", "pass", "pass"])
    s = g.score()
    assert (s.black, s.white, s.margin) == (8.0, 8.0, 0.0)
    assert s.winner is None
    assert s.result == "0"

    # With White passing first and komi -1: Black 8 - 1/2, White 8 + 1/2 - 1.
    g = game_from(wall, komi=-1.0, to_move="W")
    play_all(g, ["pass", "pass", "pass"])
    s = g.score()
    assert (s.black, s.white, s.margin) == (7.5, 7.5, 0.0)
    assert s.winner is None
    assert s.result == "0"


def test_rule7_higher_score_wins_by_half_point() -> None:
    g = game_from([".XO.", ".XO.", ".XO.", ".XO."], komi=0.5)
    play_all(g, ["pass", "pass", "pass"])
    s = g.score()
    assert s.margin == -0.5
    assert s.winner == "W"
    assert s.result == "W+0.5"


# --------------------------------------------------------------------------- Rule 8


def test_rule8_handicap_and_komi() -> None:
    g = ikeda.Game(9, handicap=2, komi=0.5)
    assert g.to_move == "W"
    assert g.moves == []
    arr = g.to_numpy()
    assert int((arr == 1).sum()) == 2 and int((arr == 2).sum()) == 0
    play_all(g, ["pass", "pass", "pass"])  # White passes first
    s = g.score()
    # Black: 2 stones + 79 territory - 1/2; White: 1/2 + komi 1/2
    assert s.black == 80.5
    assert s.white == 1.0
    assert s.result == "B+79.5"


def test_rule8_komi_added_to_white() -> None:
    g = ikeda.Game(5, komi=7.5)
    play_all(g, ["pass", "pass", "pass"])
    s = g.score()
    assert s.komi == 7.5
    assert s.white == 7.5
    assert s.black == 0.0


def test_rule8_setup_stones_are_the_initial_configuration() -> None:
    g = game_from(["X..", "...", "..O"])
    assert g.moves == []
    assert g.to_move == "B"
    assert_board(g, ["X..", "...", "..O"])
    g.play("B2")
    g.undo()
    assert_board(g, ["X..", "...", "..O"])


# --------------------------------------------------------------------------- dead stones

# As WALL, plus a White stone on A5 and a Black chain D1-E1.
# With everything alive: Black 8 stones + A2 A1 = 10; White 7 stones + D5 E5 D4 = 10;
# A4, C3 and E3 E2 D2 touch both colours.
DEAD = """
    OXO..
    .XO.O
    XX.O.
    .XO..
    .XOXX
    """


def test_dead_stones_play_it_out_by_default() -> None:
    g = game_from(DEAD, komi=0.5)
    play_all(g, ["pass", "pass", "pass"])
    s = g.score()
    assert (s.black_stones, s.black_territory, s.white_stones, s.white_territory) == (8, 2, 7, 3)
    assert (s.black, s.white) == (10.0, 10.5)


def test_dead_stones_agreement_removes_whole_chains() -> None:
    g = game_from(DEAD, komi=0.5)
    play_all(g, ["pass", "pass", "pass"])
    before = g.to_numpy().copy()
    # E1 marks the whole chain D1-E1: Black 6 + 4 = 10, White 6 + 8 = 14 (+ komi)
    for dead in (["A5", "E1"], ["D1", "A5"]):
        s = g.score(dead=dead)
        assert (s.black_stones, s.black_territory) == (6, 4)
        assert (s.white_stones, s.white_territory) == (6, 8)
        assert (s.black, s.white) == (10.0, 14.5)
        assert s.result == "W+4.5"
    # only A5 dead: A5 A4 become Black's; E3 E2 D2 still touch D1-E1
    s = g.score(dead=["A5"])
    assert (s.black_stones, s.black_territory, s.white_stones, s.white_territory) == (8, 4, 6, 3)
    assert (s.black, s.white) == (12.0, 9.5)
    assert s.result == "B+2.5"
    # scoring never changes the game
    assert (g.to_numpy() == before).all()
    assert g.score().black == 10.0
