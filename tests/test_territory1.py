"""Territory Rules I: the preliminary end, pass stones, the rule of equal numbers of
moves, territory-minus-prisoners counting (RULES.md, "Territory Rules I"; seed 003), and
the Territory I / Area II counts of the rules sample (tests/data/rules-sample)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

import ikeda
from diagrams import assert_board, play_all
from reference import RulesGame
from sample import load

TABLE_FIELDS = ("M1", "M2", "L1", "L2", "T1", "T2", "P1", "P2", "Q1", "Q2", "S1", "S2")


# -- the formulas of seed 003's Table 1 --------------------------------------------------------


def territory1_from_table(t: Any, komi: float = 0) -> tuple[Fraction, Fraction]:
    """Territory I: territory - (stones played - stones on the board + pass stones)."""
    black = Fraction(t["S1"] - (t["M1"] + t["T1"] - t["Q1"] + t["P1"]))
    white = Fraction(t["S2"] - (t["M2"] + t["T2"] - t["Q2"] + t["P2"])) + Fraction(komi)
    return black, white


def area3_from_table(t: Any, komi: float = 0) -> tuple[Fraction, Fraction]:
    """Area III per Table 1 (Black first, nothing passed before the preliminary end):
    stones + territory, the half point (M1 - M2)/2 from Black to White."""
    half = Fraction(t["M1"] - t["M2"], 2)
    return Fraction(t["Q1"] + t["S1"]) - half, Fraction(t["Q2"] + t["S2"]) + half + Fraction(komi)


def difference_from_table(t: Any) -> int:
    """D = (S1 - S2) + (Q1 - Q2) - (M1 - M2)."""
    return (t["S1"] - t["S2"]) + (t["Q1"] - t["Q2"]) - (t["M1"] - t["M2"])


def as_dict(table: Any) -> dict[str, int]:
    return {k: getattr(table, k) for k in TABLE_FIELDS}


# -- Table 2 and GoBase 6.1: the bookkeeping ------------------------------------------------

TABLE_2 = {"M1": 40, "M2": 39, "L1": 31, "L2": 33, "T1": 2, "T2": 2, "P1": 1, "P2": 1,
           "Q1": 33, "Q2": 27, "S1": 10, "S2": 11}


def test_table_2_go_seigen_vs_miyamoto() -> None:
    t = TABLE_2
    # prisoners: before the preliminary end, captured after it, and in total
    assert (t["M1"] - t["L1"], t["M2"] - t["L2"]) == (9, 6)
    assert (t["L1"] + t["T1"] - t["Q1"], t["L2"] + t["T2"] - t["Q2"]) == (0, 8)
    assert t["M1"] + t["T1"] - t["Q1"] + t["P1"] == 10
    assert t["M2"] + t["T2"] - t["Q2"] + t["P2"] == 15
    assert t["T1"] + t["P1"] == t["T2"] + t["P2"]  # the rule of equal numbers of moves
    assert territory1_from_table(t) == (0, -4)
    assert area3_from_table(t) == (Fraction(85, 2), Fraction(77, 2))  # 43 - 1/2, 38 + 1/2
    t1, a3 = territory1_from_table(t), area3_from_table(t)
    assert t1[0] - t1[1] == a3[0] - a3[1] == difference_from_table(t) == 4


def test_gobase_6_1_go_seigen_vs_hashimoto() -> None:
    # Territory I: Black 52 territory - 20 prisoners, White 43 - 10; Area III 180 vs 181
    black_t1, white_t1 = 52 - 20, 43 - 10
    assert (black_t1, white_t1) == (32, 33)
    assert 180 + 181 == 19 * 19  # every point counted for one side under Area III
    assert black_t1 - white_t1 == 180 - 181 == -1


# -- engine vs. reference ----------------------------------------------------------------------


def both(size: int, moves: list[str], **kwargs: Any) -> tuple[ikeda.Game, RulesGame]:
    g = ikeda.Game(size, rules="territory1", **kwargs)
    ref = RulesGame(size, size, komi=kwargs.get("komi", 0), rules="territory1",
                    setup=kwargs.get("setup"), to_move=kwargs.get("to_move", "B"))
    for i, m in enumerate(moves):
        assert not g.is_over, f"over before move {i + 1}"
        g.play(m)
        ref.play(m)
        assert g.is_over == ref.over, f"after move {i + 1} ({m})"
        assert g.preliminary_end == ref.preliminary_end(), f"after move {i + 1} ({m})"
    return g, ref


def check_score(g: ikeda.Game, ref: RulesGame, even: bool = True) -> ikeda.Score:
    """The engine's Territory I count agrees with the reference and, for an even game
    (Black first, no set-up stones), with Table 1."""
    s = g.score()
    r = ref.score()
    assert (s.black, s.white, s.margin) == (r["black"], r["white"], r["margin"])
    assert (s.black_stones, s.white_stones) == (r["black_stones"], r["white_stones"])
    assert (s.black_territory, s.white_territory) == (r["black_territory"], r["white_territory"])
    assert (s.black_lost, s.white_lost) == (r["black_lost"], r["white_lost"])
    assert s.half_point == 0
    assert s.extra_passes == 0
    assert s.komi == g.komi
    assert s.black == s.black_territory - s.black_lost
    assert s.white == s.white_territory - s.white_lost + s.komi
    rules = ikeda.Rules.from_string(s.rules)
    assert (rules.ending, rules.scoring, rules.pass_stones) == ("equal-moves", "territory", True)
    if ref.preliminary_end() is None:
        assert s.table is None
        return s
    assert s.table is not None
    assert tuple(s.table._fields) == TABLE_FIELDS
    t = as_dict(s.table)
    assert t == ref.table()
    assert (s.black_stones, s.white_stones) == (t["Q1"], t["Q2"])
    assert (s.black_territory, s.white_territory) == (t["S1"], t["S2"])
    assert s.black_lost == ref.captured["B"] + t["P1"]
    assert s.white_lost == ref.captured["W"] + t["P2"]
    if g.is_over and even:
        assert t["T1"] + t["P1"] == t["T2"] + t["P2"]
        assert (s.black, s.white) == territory1_from_table(t, g.komi)
        assert s.margin == difference_from_table(t) - g.komi
    return s


# -- the flow ----------------------------------------------------------------------------------

#: GoBase 6.2's shape on 5x5: "Black 79, White pass, Black pass (preliminary end), White
#: 80, Black 81, White 82, Black 83, White pass (giving a prisoner), Black pass (giving a
#: prisoner; end of the game)"
WORKED = ["C3", "D4", "C2", "pass", "pass", "D3", "B3", "D2", "B4", "pass", "pass"]


def test_worked_sequence_shape() -> None:
    g, ref = both(5, WORKED, komi=0)
    assert g.preliminary_end == 5
    assert g.is_over and len(g.moves) == 11
    assert_board(g, [".....", ".X.O.", ".XXO.", "..XO.", "....."])
    s = check_score(g, ref)
    assert as_dict(s.table) == {"M1": 2, "M2": 1, "L1": 2, "L2": 1, "T1": 2, "T2": 2,
                                "P1": 1, "P2": 1, "Q1": 4, "Q2": 3, "S1": 0, "S2": 0}
    assert (s.black_lost, s.white_lost) == (1, 1)  # one pass stone each
    assert (s.black, s.white) == (-1, -1)


def test_worked_sequence_moves_are_refused_after_the_end() -> None:
    g = play_all(ikeda.Game(5, rules="territory1"), WORKED)
    for m in ("pass", "A1"):
        with pytest.raises(ikeda.IllegalMoveError) as info:
            g.play(m)
        assert info.value.reason == "game_over"
        assert info.value.move_number == 12


def test_the_preliminary_end_does_not_end_the_game() -> None:
    g = play_all(ikeda.Game(5, rules="territory1"), WORKED[:5])
    assert g.preliminary_end == 5
    assert not g.is_over
    assert g.to_move == "W"
    assert "D3" in g.legal_moves()


def test_captures_and_pass_stones_after_the_preliminary_end() -> None:
    # 3x3: Black captures A1 and A3 after the preliminary end; White passes twice
    moves = ["B2", "A1", "B1", "pass", "pass", "A3", "A2", "pass", "B3", "pass", "pass"]
    g, ref = both(3, moves, komi=0)
    assert_board(g, [".X.", "XX.", ".X."])
    s = check_score(g, ref)
    assert as_dict(s.table) == {"M1": 2, "M2": 1, "L1": 2, "L2": 1, "T1": 2, "T2": 1,
                                "P1": 1, "P2": 2, "Q1": 4, "Q2": 0, "S1": 5, "S2": 0}
    assert (s.black_lost, s.white_lost) == (1, 4)  # White: 2 captured + 2 pass stones
    assert (s.black, s.white) == (4, -4)


def test_a_pair_of_passes_with_unequal_counts_does_not_end_it() -> None:
    g, ref = both(5, ["C3", "pass", "pass", "C4", "pass", "pass"], komi=0.5)
    # after the preliminary end: White C4 and a pass (2) against Black's one pass (1)
    assert not g.is_over
    s = check_score(g, ref)
    assert (s.table.T2 + s.table.P2, s.table.T1 + s.table.P1) == (2, 1)
    g.play("pass")
    ref.play("pass")
    assert g.is_over
    s = check_score(g, ref)
    assert (s.table.T1, s.table.P1, s.table.T2, s.table.P2) == (0, 2, 1, 1)
    assert (s.black_lost, s.white_lost) == (2, 1)
    assert (s.black, s.white) == (-2, -0.5)


def test_passes_before_the_preliminary_end_hand_over_nothing() -> None:
    g, ref = both(5, ["C3", "pass", "D4", "pass", "pass", "pass", "pass"], komi=0)
    assert g.preliminary_end == 5 and g.is_over
    s = check_score(g, ref)
    assert (s.table.M1, s.table.M2, s.table.P1, s.table.P2) == (2, 0, 1, 1)
    assert (s.black_lost, s.white_lost) == (1, 1)
    assert (s.black, s.white) == (22, -1)


def test_score_before_the_end() -> None:
    g = play_all(ikeda.Game(5, rules="territory1", komi=0), ["C3", "D4"])
    s = g.score()
    assert s.table is None
    assert (s.black_lost, s.white_lost) == (0, 0)
    assert s.black == s.black_territory and s.white == s.white_territory


def test_score_takes_rules_as_name_or_value() -> None:
    g = play_all(ikeda.Game(5, komi=0), ["C3", "pass", "D4", "pass", "pass"])
    assert g.is_over
    by_name = g.score(rules="territory1")
    by_value = g.score(rules=ikeda.TERRITORY_I.replace(komi=0))
    assert (by_name.black, by_name.white, by_name.table) == (by_value.black, by_value.white,
                                                              by_value.table)
    assert by_name.extra_passes == 2
    # a komi written in the rules string is the komi counted
    explicit = g.score(rules="territory1:komi=2.5")
    assert explicit.komi == 2.5
    assert explicit.white == by_name.white + 2.5
    assert explicit == g.score(rules=ikeda.TERRITORY_I.replace(komi=2.5))
    assert g.score(rules="area3") == g.score()


def test_area_scores_carry_the_table_too() -> None:
    # "table: None unless a preliminary end exists": whatever counting is asked for
    g = play_all(ikeda.Game(5, rules="territory1", komi=0), WORKED)
    t = g.score().table
    assert g.score(rules="area3").table == t
    assert g.score(rules="area2").table == t
    a = play_all(ikeda.Game(5, komi=0), ["C3", "pass", "pass", "pass"])
    assert a.preliminary_end == 3
    assert a.score().table is not None
    assert (a.score().table.M1, a.score().table.P1) == (1, 1)


# -- the rules sample ------------------------------------------------------------------------


GAMES = load("games.jsonl")
ENDED = [g for g in GAMES if g["ended"]]


def start(rec: dict[str, Any], rules: str = "area3") -> ikeda.Game:
    setup = {"B": list(rec["setup"].get("B", [])), "W": list(rec["setup"].get("W", []))}
    return ikeda.Game(rec["size"], komi=rec["komi"], rules=rules, setup=setup,
                      to_move=rec["first_player"])


def ref_start(rec: dict[str, Any]) -> RulesGame:
    return RulesGame(rec["size"], rec["size"], komi=rec["komi"], setup=rec["setup"],
                     to_move=rec["first_player"], rules="territory1")


def ref_replay(rec: dict[str, Any], moves: list[str]) -> RulesGame:
    ref = ref_start(rec)
    for m in moves:
        ref.play(m)
    return ref


def sample_table(rec: dict[str, Any]) -> dict[str, int]:
    return {k: v for k, v in rec["territory1"]["table"].items() if not k.startswith("prisoners")}


def test_sample_covers_territory1() -> None:
    assert len(ENDED) > 100
    assert {g["territory1"]["extra_passes"] for g in ENDED} == {0, 1, 2}
    assert any(g["territory1"]["table"]["T1"] + g["territory1"]["table"]["T2"] for g in ENDED)


@pytest.mark.parametrize("rec", GAMES, ids=[g["id"] for g in GAMES])
def test_sample_area2(rec: dict[str, Any]) -> None:
    g = play_all(start(rec), rec["moves"])
    s = g.score(rules="area2")
    assert (s.black, s.white, s.margin) == (rec["area2"]["B"], rec["area2"]["W"], rec["area2"]["D"])
    assert s.half_point == 0
    assert (s.black_stones, s.white_stones) == (rec["stones"]["B"], rec["stones"]["W"])
    assert s.extra_passes == 0
    rules = ikeda.Rules.from_string(s.rules)
    assert (rules.ending, rules.scoring, rules.half_point) == ("two-passes", "area", False)


@pytest.mark.parametrize("rec", ENDED, ids=[g["id"] for g in ENDED])
def test_sample_territory1_of_an_area3_record(rec: dict[str, Any]) -> None:
    t1 = rec["territory1"]
    g = play_all(start(rec), rec["moves"])
    assert g.is_over
    assert g.preliminary_end == t1["prelim_end_index"] + 1
    s = g.score(rules="territory1")
    assert (s.black, s.white, s.margin) == (t1["B"], t1["W"], t1["D"])
    assert s.extra_passes == t1["extra_passes"]
    assert (s.black_lost, s.white_lost) == (t1["table"]["prisoners1"], t1["table"]["prisoners2"])
    assert s.black == s.black_territory - s.black_lost
    assert s.white == s.white_territory - s.white_lost + rec["komi"]
    assert s.komi == rec["komi"] and s.half_point == 0
    rules = ikeda.Rules.from_string(s.rules)
    assert (rules.ending, rules.scoring, rules.pass_stones, rules.komi) == (
        "equal-moves", "territory", True, rec["komi"])
    assert s.table is not None
    table = as_dict(s.table)
    assert {k: table[k] for k in sample_table(rec)} == sample_table(rec)
    # the Area III count of the same record is untouched
    a3 = g.score()
    assert (a3.black, a3.white, a3.margin) == (rec["area3"]["B"], rec["area3"]["W"], rec["area3"]["D"])
    assert a3.extra_passes == 0


@pytest.mark.parametrize("rec", ENDED, ids=[g["id"] for g in ENDED])
def test_sample_replayed_under_territory1(rec: dict[str, Any]) -> None:
    t1 = rec["territory1"]
    g = play_all(start(rec, "territory1"), rec["moves"])
    ref = ref_replay(rec, rec["moves"])
    assert g.preliminary_end == t1["prelim_end_index"] + 1
    assert g.is_over == (t1["extra_passes"] == 0)
    for _ in range(t1["extra_passes"]):
        g.play("pass")
        ref.play("pass")
    assert g.is_over and ref.over
    assert len(g.moves) == t1["end_index"] + 1
    even = rec["first_player"] == "B" and not any(rec["setup"].values())
    s = check_score(g, ref, even)
    assert (s.black, s.white, s.margin) == (t1["B"], t1["W"], t1["D"])
    table = as_dict(s.table)
    assert {k: table[k] for k in sample_table(rec)} == sample_table(rec)
    # the same count as Territory I scoring of the Area III record, extra passes aside
    a = play_all(start(rec), rec["moves"]).score(rules="territory1")
    assert (a.black, a.white, a.table, a.black_lost, a.white_lost) == (
        s.black, s.white, s.table, s.black_lost, s.white_lost)
    # and the Area III count of the final configuration is the record's
    a3 = g.score(rules="area3")
    assert (a3.black, a3.white, a3.margin) == (rec["area3"]["B"], rec["area3"]["W"], rec["area3"]["D"])


@pytest.mark.parametrize("rec", ENDED, ids=[g["id"] for g in ENDED])
def test_sample_prefixes_counted_under_territory1(rec: dict[str, Any]) -> None:
    """Every prefix from the preliminary end on, continued with the passes Territory I
    still needs (up to three after a play), counts like the reference's Territory I game."""
    prelim = rec["territory1"]["prelim_end_index"] + 1
    for n in range(prelim, len(rec["moves"]) + 1):
        g = play_all(start(rec), rec["moves"][:n])
        ref = ref_replay(rec, rec["moves"][:n])
        extra = 0
        while not ref.over:
            ref.play("pass")
            extra += 1
        s = g.score(rules="territory1")
        r = ref.score()
        assert s.extra_passes == extra, n
        assert (s.black, s.white, s.black_lost, s.white_lost) == (
            r["black"], r["white"], r["black_lost"], r["white_lost"]), n
        assert as_dict(s.table) == ref.table(), n


def test_a_play_after_the_preliminary_end_needs_three_passes() -> None:
    g = play_all(ikeda.Game(5, komi=0), ["pass", "pass", "C3"])
    assert not g.is_over and g.preliminary_end == 2
    s = g.score(rules="territory1")
    assert s.extra_passes == 3
    assert (s.table.T1, s.table.P1, s.table.P2) == (1, 1, 2)
    assert (s.black, s.white) == (24 - 1, -2)


@pytest.mark.parametrize("rec", [g for g in GAMES if not g["ended"]],
                         ids=[g["id"] for g in GAMES if not g["ended"]])
def test_sample_unfinished_has_no_table(rec: dict[str, Any]) -> None:
    g = play_all(start(rec), rec["moves"])
    assert g.preliminary_end is None
    assert g.score().table is None
