"""Rulesets as values: the presets, their string form and digest, and the play and end
rules each one selects (RULES.md, "Territory Rules I" and "Other presets")."""

from __future__ import annotations

import dataclasses
import random
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ikeda
from diagrams import assert_board, game_from, play_all
from ikeda import Rules
from reference import RulesGame

#: preset name -> (constant, ko, suicide, ending, scoring, half_point, pass_stones)
PRESETS = {
    "area3": (ikeda.AREA_III, "capturing-superko", False, "first-pass", "area", True, False),
    "area2": (ikeda.AREA_II, "capturing-superko", False, "two-passes", "area", False, False),
    "territory1": (ikeda.TERRITORY_I, "capturing-superko", False, "equal-moves", "territory",
                   False, True),
    "tromp-taylor": (ikeda.TROMP_TAYLOR, "positional-superko", True, "two-passes", "area",
                     False, False),
}
KOS = ("capturing-superko", "positional-superko", "simple-ko")
ENDINGS = ("first-pass", "two-passes", "equal-moves")
SCORINGS = ("area", "territory")
FIELDS = ("name", "ko", "suicide", "ending", "scoring", "half_point", "pass_stones", "komi")


def components(r: Rules) -> tuple:
    """Everything that decides play and counting (the name only labels it)."""
    return (r.ko, r.suicide, r.ending, r.scoring, r.half_point, r.pass_stones, r.komi)


# -- the value type -----------------------------------------------------------------------


def test_rules_is_a_frozen_dataclass_with_the_documented_fields() -> None:
    assert dataclasses.is_dataclass(Rules)
    names = {f.name for f in dataclasses.fields(Rules)}
    assert names >= set(FIELDS)
    with pytest.raises(dataclasses.FrozenInstanceError):
        ikeda.AREA_III.komi = 0.5  # type: ignore[misc]
    assert ikeda.AREA_III.komi == 6.5


@pytest.mark.parametrize("name", list(PRESETS))
def test_preset_components(name: str) -> None:
    constant, ko, suicide, ending, scoring, half_point, pass_stones = PRESETS[name]
    r = Rules.from_string(name)
    assert r == constant
    assert r.name == name
    assert (r.ko, r.suicide, r.ending, r.scoring, r.half_point, r.pass_stones) == (
        ko, suicide, ending, scoring, half_point, pass_stones)
    assert isinstance(r.komi, float) and r.komi * 2 == int(r.komi * 2)


def test_area3_is_the_default_with_komi_6_5() -> None:
    assert ikeda.AREA_III.komi == 6.5
    g = ikeda.Game(5)
    assert g.rules == ikeda.AREA_III
    assert g.komi == 6.5


def test_presets_are_distinct_and_hashable() -> None:
    values = [p[0] for p in PRESETS.values()]
    assert len(set(values)) == 4
    assert len({components(v) for v in values}) == 4


def test_replace_gives_a_new_value() -> None:
    r = ikeda.AREA_III.replace(komi=7.5)
    assert r.komi == 7.5 and ikeda.AREA_III.komi == 6.5
    assert components(r)[:-1] == components(ikeda.AREA_III)[:-1]
    assert r != ikeda.AREA_III
    assert ikeda.AREA_III.replace() == ikeda.AREA_III
    t = ikeda.AREA_III.replace(ko="positional-superko", suicide=True)
    assert (t.ko, t.suicide, t.ending) == ("positional-superko", True, "first-pass")


# -- string form ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(PRESETS))
def test_preset_str_is_its_name_and_round_trips(name: str) -> None:
    r = PRESETS[name][0]
    assert str(r) == name
    assert Rules.from_string(str(r)) == r


def test_modified_value_str_round_trips() -> None:
    r = ikeda.AREA_III.replace(komi=7.5)
    s = str(r)
    assert s.startswith("area3") and "7.5" in s
    assert Rules.from_string(s) == r
    assert Rules.from_string("area3:komi=7.5") == r
    assert Rules.from_string("area3:komi=7.5").komi == 7.5


rules_values = st.builds(
    lambda base, changes: Rules.from_string(base).replace(**changes),
    st.sampled_from(list(PRESETS)),
    st.fixed_dictionaries(
        {},
        optional={
            "ko": st.sampled_from(KOS),
            "suicide": st.booleans(),
            "ending": st.sampled_from(ENDINGS),
            "scoring": st.sampled_from(SCORINGS),
            "half_point": st.booleans(),
            "pass_stones": st.booleans(),
            "komi": st.integers(-60, 60).map(lambda k: k / 2),
        },
    ),
)


@settings(max_examples=300, deadline=None)
@given(r=rules_values)
def test_str_round_trips_for_any_combination(r: Rules) -> None:
    back = Rules.from_string(str(r))
    assert back == r
    assert components(back) == components(r)
    assert back.digest == r.digest
    assert str(back) == str(r)


# -- digest ---------------------------------------------------------------------------------


def test_digest_is_short_hex() -> None:
    for r, *_ in PRESETS.values():
        assert isinstance(r.digest, str)
        assert re.fullmatch(r"[0-9a-f]{4,64}", r.digest), r.digest


def test_digest_is_stable_across_processes() -> None:
    """Not Python's salted hash: another interpreter gives the same digests."""
    code = ("import ikeda; print(ikeda.AREA_III.digest, ikeda.TERRITORY_I.digest, "
            "ikeda.AREA_III.replace(komi=0.5).digest)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={"PYTHONHASHSEED": "12345"}).stdout.split()
    assert out == [ikeda.AREA_III.digest, ikeda.TERRITORY_I.digest,
                   ikeda.AREA_III.replace(komi=0.5).digest]
    assert Rules.from_string("area3").digest == ikeda.AREA_III.digest


def test_digest_differs_between_presets_and_komi() -> None:
    digests = {r.digest for r, *_ in PRESETS.values()}
    assert len(digests) == 4
    assert ikeda.AREA_III.replace(komi=7.5).digest != ikeda.AREA_III.digest
    assert ikeda.AREA_III.replace(half_point=False).digest != ikeda.AREA_III.digest


@settings(max_examples=300, deadline=None)
@given(a=rules_values, b=rules_values)
def test_digest_equal_iff_components_equal(a: Rules, b: Rules) -> None:
    if components(a) != components(b):
        assert a.digest != b.digest
    if a == b:
        assert a.digest == b.digest


def test_equal_values_have_equal_strings_and_digests() -> None:
    zero = ikeda.AREA_III.replace(komi=0)
    negative_zero = Rules.from_string("area3:komi=-0")
    assert negative_zero == zero
    assert hash(negative_zero) == hash(zero)
    assert str(negative_zero) == str(zero)
    assert negative_zero.digest == zero.digest


@pytest.mark.parametrize("field", ["suicide", "half_point", "pass_stones"])
@pytest.mark.parametrize("value", ["no", "yes", None, 2])
def test_flags_must_be_bools(field: str, value: object) -> None:
    with pytest.raises(ikeda.IkedaError):
        ikeda.AREA_III.replace(**{field: value})


# -- bad strings ----------------------------------------------------------------------------

BAD = [
    "",
    "area4",
    "Area 3",
    "chinese",
    "area3:",
    "area3:komi",
    "area3:komi=",
    "area3:komi=abc",
    "area3:komi=inf",
    "area3:komi=nan",
    "area3:ko=none",
    "area3:ko=superko-ish",
    "area3:suicide=maybe",
    "area3:ending=three-passes",
    "area3:scoring=stones",
    "area3:colour=red",
    "area3:komi=7.5:komi",
]


@pytest.mark.parametrize("text", BAD)
def test_bad_strings_raise(text: str) -> None:
    with pytest.raises(ikeda.IkedaError):
        Rules.from_string(text)
    with pytest.raises(ValueError):
        Rules.from_string(text)


@pytest.mark.parametrize("text", ["area4", "area3:komi=abc", "tromp-taylor:ko=none"])
def test_game_rejects_bad_rules(text: str) -> None:
    with pytest.raises(ikeda.IkedaError):
        ikeda.Game(5, rules=text)


# -- Game(rules=...) ------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(PRESETS))
def test_game_takes_a_name_a_string_or_a_value(name: str) -> None:
    value = PRESETS[name][0]
    by_name = ikeda.Game(5, rules=name)
    by_value = ikeda.Game(5, rules=value)
    by_str = ikeda.Game(5, rules=str(value))
    for g in (by_name, by_value, by_str):
        assert isinstance(g.rules, Rules)
        assert g.rules == value
        assert g.komi == value.komi


def test_komi_argument_overrides_the_rules_komi() -> None:
    g = ikeda.Game(5, rules="territory1", komi=0.5)
    assert g.komi == 0.5
    assert g.rules == ikeda.TERRITORY_I.replace(komi=0.5)
    assert g.rules.komi == 0.5
    g = ikeda.Game(5, rules=ikeda.AREA_II.replace(komi=-3), komi=2)
    assert g.rules.komi == 2 and g.rules.ending == "two-passes"
    g = ikeda.Game(5, rules="area3:komi=7.5")
    assert g.komi == 7.5 and g.rules.komi == 7.5
    g = ikeda.Game(5, komi=0)
    assert g.rules == ikeda.AREA_III.replace(komi=0)


def test_the_rules_komi_is_counted() -> None:
    g = play_all(ikeda.Game(3, rules="area2:komi=2.5"), ["B2", "pass", "pass"])
    assert g.is_over
    s = g.score()
    assert (s.black, s.white, s.komi) == (9, 2.5, 2.5)


# -- Tromp-Taylor play rules ----------------------------------------------------------------


def test_tromp_taylor_multi_stone_suicide_is_legal_and_removes_the_chain() -> None:
    # a 4x1 board "X.O.": Black B1 joins A1 into a chain with no liberty while the White
    # stone keeps D1; nothing of White's is removed, so the Black chain is
    g = game_from(["X.O."], rules="tromp-taylor")
    assert g.is_legal("B1")
    assert g.illegal_reason("B1") is None
    g.play("B1")
    assert_board(g, ["..O."])
    assert g.to_move == "W"
    play_all(g, ["pass", "pass"])
    s = g.score()
    assert (s.black, s.white_stones, s.white_territory) == (0, 1, 3)


@pytest.mark.parametrize("rules", ["area3", "area2", "territory1"])
def test_ikeda_rules_forbid_the_same_suicide(rules: str) -> None:
    g = game_from(["X.O."], rules=rules)
    assert g.illegal_reason("B1") == "suicide"
    with pytest.raises(ikeda.IllegalMoveError) as info:
        g.play("B1")
    assert info.value.reason == "suicide"


def test_tromp_taylor_single_stone_suicide_is_illegal() -> None:
    # removing the lone stone brings back the configuration on the board: a repetition
    g = game_from([".X.", "X.X", ".X."], rules="tromp-taylor", to_move="W")
    assert g.illegal_reason("B2") in ("suicide", "superko")
    assert not g.is_legal("B2")
    assert "B2" not in g.legal_moves()


#: 1x3 board (one column): A3, A1, then A2 captures A1, A1 captures A2-A3, and A3 by
#: Black recreates the configuration after move 2 (Black A3, White A1) without capturing
NONCAPTURE_REPEAT = ["A3", "A1", "A2", "A1"]


@pytest.mark.parametrize("rules", ["area3", "area2", "territory1"])
def test_ikeda_rules_allow_a_noncapturing_repeat(rules: str) -> None:
    g = play_all(ikeda.Game(width=1, height=3, rules=rules), NONCAPTURE_REPEAT)
    assert_board(g, [".", ".", "O"])
    assert g.illegal_reason("A3") is None
    g.play("A3")
    assert_board(g, ["X", ".", "O"])


def test_positional_superko_bans_a_noncapturing_repeat() -> None:
    g = play_all(ikeda.Game(width=1, height=3, rules="tromp-taylor"), NONCAPTURE_REPEAT)
    assert_board(g, [".", ".", "O"])
    assert g.illegal_reason("A3") == "superko"
    with pytest.raises(ikeda.IllegalMoveError) as info:
        g.play("A3")
    assert info.value.reason == "superko"
    assert info.value.move_number == 5
    assert g.legal_moves() == ["A2", "pass"]


def test_positional_superko_under_other_components() -> None:
    r = ikeda.AREA_III.replace(ko="positional-superko")
    g = play_all(ikeda.Game(width=1, height=3, rules=r), NONCAPTURE_REPEAT)
    assert g.illegal_reason("A3") == "superko"


#: a ko on a 4x3 board: Black C2 takes B2, White B2 would retake at once
KO = [". X O .",
      "X O . O",
      ". X O ."]


@pytest.mark.parametrize("rules", ["area3", "tromp-taylor", "area3:ko=simple-ko"])
def test_immediate_ko_recapture_is_illegal(rules: str) -> None:
    g = game_from(KO, rules=rules)
    g.play("C2")
    assert_board(g, [".XO.", "X.XO", ".XO."])
    assert g.illegal_reason("B2") == ("ko" if rules.endswith("simple-ko") else "superko")


def test_simple_ko_forgets_older_configurations() -> None:
    # after Black takes the ko and both pass, White's retake recreates the set-up
    # configuration: superko forbids it for good, simple ko only bans the immediate retake
    sequence = ["C2", "pass", "pass"]
    g = play_all(game_from(KO, rules="area3"), sequence)
    assert not g.is_over
    assert g.illegal_reason("B2") == "superko"
    g = play_all(game_from(KO, rules="area3:ko=simple-ko"), sequence)
    assert g.illegal_reason("B2") is None
    g.play("B2")
    assert_board(g, KO)


# -- the end of the game ---------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["area2", "tromp-taylor"])
def test_two_passes_at_the_start_end_area2_and_tromp_taylor(rules: str) -> None:
    g = ikeda.Game(5, rules=rules)
    g.play("pass")
    assert not g.is_over
    g.play("pass")
    assert g.is_over
    assert g.preliminary_end == 2
    assert g.legal_moves() == []
    with pytest.raises(ikeda.IllegalMoveError) as info:
        g.play("pass")
    assert info.value.reason == "game_over"


@pytest.mark.parametrize("rules", ["area2", "tromp-taylor"])
def test_two_passes_after_play_end_area2_and_tromp_taylor(rules: str) -> None:
    g = play_all(ikeda.Game(5, rules=rules), ["C3", "pass", "D4", "pass"])
    assert not g.is_over and g.preliminary_end is None
    g.play("pass")
    assert g.is_over and g.preliminary_end == 5


def test_area3_needs_a_third_pass() -> None:
    g = play_all(ikeda.Game(5), ["pass", "pass"])
    assert not g.is_over
    assert g.preliminary_end == 2
    g.play("pass")
    assert g.is_over


def test_territory1_needs_two_more_passes() -> None:
    g = play_all(ikeda.Game(5, rules="territory1"), ["pass", "pass", "pass"])
    assert not g.is_over
    assert g.preliminary_end == 2
    g.play("pass")
    assert g.is_over
    assert g.preliminary_end == 2


@pytest.mark.parametrize("rules", list(PRESETS))
def test_preliminary_end_is_none_without_two_passes_in_succession(rules: str) -> None:
    g = play_all(ikeda.Game(5, rules=rules), ["C3", "pass", "D4", "pass", "B2"])
    assert g.preliminary_end is None
    assert g.score().table is None


@pytest.mark.parametrize("rules", list(PRESETS))
def test_undo_restores_the_end_state(rules: str) -> None:
    g = ikeda.Game(5, rules=rules)
    while not g.is_over:
        g.play("pass")
    n = len(g.moves)
    prelim = g.preliminary_end
    g.undo()
    assert not g.is_over
    assert g.preliminary_end == (prelim if prelim is not None and prelim < n else None)
    g.play("pass")
    assert g.is_over and g.preliminary_end == prelim


@pytest.mark.parametrize("rules", list(PRESETS))
def test_copy_keeps_the_rules(rules: str) -> None:
    g = play_all(ikeda.Game(5, rules=rules), ["pass", "pass"])
    c = g.copy()
    assert c.rules == g.rules
    assert c.is_over == g.is_over
    assert c.preliminary_end == g.preliminary_end


# -- engine vs. reference, move by move --------------------------------------------------------


@settings(max_examples=120, deadline=None)
@given(rules=st.sampled_from(list(PRESETS)), width=st.integers(1, 5), height=st.integers(1, 5),
       seed=st.integers(0, 2**32 - 1), p_pass=st.sampled_from([0.05, 0.2, 0.5]))
def test_random_games_agree_with_the_reference(rules: str, width: int, height: int, seed: int,
                                               p_pass: float) -> None:
    rng = random.Random(seed)
    g = ikeda.Game(width=width, height=height, rules=rules, komi=0.5)
    ref = RulesGame(width, height, komi=0.5, rules=rules)
    for _ in range(4 * width * height + 20):
        assert g.legal_mask().tolist() == ref.legal_mask()
        assert g.is_over == ref.over
        assert g.preliminary_end == ref.preliminary_end()
        if ref.over:
            break
        plays = [m for m in ref.legal_moves() if m != ref.pass_move]
        move = rng.choice(plays) if plays and rng.random() >= p_pass else ref.pass_move
        g.play(move)
        ref.play(move)
    while not ref.over:
        g.play("pass")
        ref.play("pass")
    assert g.is_over
    s, r = g.score(), ref.score()
    assert (s.black, s.white, s.black_lost, s.white_lost) == (
        r["black"], r["white"], r["black_lost"], r["white_lost"])
    assert s.half_point == r["half_point"]
