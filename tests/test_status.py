"""Status confirmation (STATUS.md): the native search against the plain reference on tiny
boards, Decision 7's pruning and Section 7's regions against the whole-board search, the
symmetries of the board and the colours, the shapes Section 8 lists as uncovered (each
with its argument), the Japanese count, the ``japanese`` preset and the errors."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ikeda
import status_reference as ref


def cases(result: ikeda.StatusResult) -> list[tuple[str, list[str], str]]:
    return sorted((c.colour, c.stones, c.case) for c in result.chains)


def is_position(rows: list[str]) -> bool:
    """Every chain has a liberty (a position that can exist)."""
    geo = ref.Geometry(len(rows[0]), len(rows))
    board = tuple({"X": ref.BLACK, "O": ref.WHITE}.get(ch, ref.EMPTY) for r in rows for ch in r)
    return all(geo.liberties(board, ch) for ch in geo.chains(board))


@st.composite
def tiny_positions(draw: Any, max_points: int = 6) -> list[str]:
    w = draw(st.integers(1, 4))
    h = draw(st.integers(1, max(1, min(3, max_points // w))))
    cells = draw(st.lists(st.sampled_from(".XO"), min_size=w * h, max_size=w * h))
    rows = ["".join(cells[r * w:(r + 1) * w]) for r in range(h)]
    if not is_position(rows):
        rows = [r.replace("O", ".") for r in rows] if is_position([r.replace("O", ".") for r in rows]) else ["." * w] * h
    return rows


def vertex_cases(rows: list[str], got: list[tuple[str, list[int], str]]) -> list[tuple[str, list[str], str]]:
    w, h = len(rows[0]), len(rows)
    name = lambda p: "ABCDEFGHJKLMNOPQRSTUVWXYZ"[p % w] + str(h - p // w)  # noqa: E731
    return sorted((c, [name(p) for p in pts], k) for c, pts, k in got)


# -- the reference -----------------------------------------------------------------------


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=tiny_positions(), ko_rule=st.sampled_from(["simple", "koban"]), first=st.sampled_from(["attacker", "defender"]))
def test_native_agrees_with_the_reference(rows: list[str], ko_rule: str, first: str) -> None:
    """Every chain's case, three ways: exact whole-board search without pruning, with
    Decision 7's pruning, and with Section 7's regions (the default)."""
    expected = vertex_cases(rows, ref.confirm(rows, ko_rule, first))
    for prune, split in ((False, False), (True, False), (True, True)):
        got = ikeda.confirm_status(rows, ko_rule=ko_rule, first=first, prune=prune, split=split)
        assert cases(got) == expected, (rows, ko_rule, first, prune, split)


@pytest.mark.parametrize(("rows", "ko_rule"), [
    (["X.O.", ".XO."], "simple"),
    (["X.O", ".XO"], "simple"),
    ([".XO.", "XO.O"], "koban"),  # a ko: Black C1 takes B1 and stands alone on B1's liberty
])
def test_reference_on_fixed_boards(rows: list[str], ko_rule: str) -> None:
    expected = vertex_cases(rows, ref.confirm(rows, ko_rule))
    assert cases(ikeda.confirm_status(rows, ko_rule=ko_rule)) == expected
    assert cases(ikeda.confirm_status(rows, ko_rule=ko_rule, prune=False, split=False)) == expected


# -- symmetry ------------------------------------------------------------------------------


def rotate(rows: list[str]) -> list[str]:
    """A quarter turn clockwise."""
    return ["".join(r[x] for r in reversed(rows)) for x in range(len(rows[0]))]


def reflect(rows: list[str]) -> list[str]:
    return [r[::-1] for r in rows]


def swap(rows: list[str]) -> list[str]:
    return [r.translate(str.maketrans("XO", "OX")) for r in rows]


SYMMETRIC = [
    ["X.XO.O", ".XXOO.", "XXXOOO", "X.XO.O"],
    [".X.XO", "XXXOO", "OOOO.", ".O.OO"],
    [".XOX.", "XXOOO", ".XXXX"],
    ["X.X.XO.XO.O.O", "XXXXXO.XOOOOO"],
]


@pytest.mark.parametrize("rows", SYMMETRIC, ids=range(len(SYMMETRIC)))
def test_rotations_reflections_and_colour_swap(rows: list[str]) -> None:
    base = ikeda.confirm_status(rows)
    status, classes = base.status, base.classes
    for _ in range(4):
        for flip in (False, True):
            view = reflect(rows) if flip else rows
            got = ikeda.confirm_status(view)
            assert got.status == (reflect(status) if flip else status)
            assert got.classes == (reflect(classes) if flip else classes)
            swapped = ikeda.confirm_status(swap(view))
            assert swapped.status == got.status and swapped.classes == got.classes
        rows, status, classes = rotate(rows), rotate(status), rotate(classes)


# -- the shapes of Section 8, each with its argument -----------------------------------


def chain_at(result: ikeda.StatusResult, vertex: str) -> ikeda.ChainStatus:
    return next(c for c in result.chains if vertex in c.stones)


def test_straight_four_is_alive_by_play() -> None:
    """Straight four (B4-E4) against White's first move: White C4 is answered by D4 (and
    White D4 by C4); Black then has E4 and captures C4 for a second eye. The Black chain is
    never captured on the way: F2, alive, four points."""
    rows = ["X....X", "XXXXXX", "OOOOOO", "O.OO.O"]
    r = ikeda.confirm_status(rows)
    assert chain_at(r, "A4").case == "F2" and r.status[0] == "a....a"
    assert ikeda.japanese_score(rows).territory == {"B": 4, "W": 2}


def test_bulky_five_dies() -> None:
    """Bulky five (A5 B5 C5 A4 B4) with no outside liberty: White, first, plays the vital
    point B4; every Black answer leaves at most one eye, White fills and captures, and the
    captured area (11 points inside White's wall) is too small for Black to live again: N,
    enclosed by first-class White, dead."""
    r = ikeda.confirm_status(["...XO.", "..XXOO", "XXXOO.", "OOOOOO", "......"])
    assert chain_at(r, "D5").case == "N"
    assert r.status[:3] == ["...da.", "..ddaa", "dddaa."]


def test_bulky_five_with_the_defender_first_lives() -> None:
    """The same shape with Black to move first (for comparison only, Decision 6): Black
    takes B4 himself and has two eyes at once (F2)."""
    r = ikeda.confirm_status(["...XO.", "..XXOO", "XXXOO.", "OOOOOO", "......"], first="defender")
    assert chain_at(r, "D5").case == "F2"


BENT_FOUR = [".O.O.O", "OOOOOO", "XXOOOO", ".XXXO.", "...XOO"]


def test_bent_four_in_the_corner_dies_with_the_attacker_first() -> None:
    """Bent four in the corner (A2 A1 B1 C1, the bend at the corner). White plays B1;
    after Black A1, White A2 takes A1 as a ko, and since a pass lifts the ban as well as
    any threat would (Section 8 item 5), White wins the ko: N, dead, under both ko rules.
    With the defender first Black takes B1 himself and has two eyes (F2)."""
    for ko_rule in ("simple", "koban"):
        r = ikeda.confirm_status(BENT_FOUR, ko_rule=ko_rule)
        assert chain_at(r, "A3").case == "N" and chain_at(r, "A3").status == "dead"
        assert chain_at(ikeda.confirm_status(BENT_FOUR, ko_rule=ko_rule, first="defender"), "A3").case == "F2"


def test_bent_four_with_the_white_stone_inside_dies_either_way() -> None:
    """The same corner with White already on B1: Black to move can only capture it by
    filling his own space, and White's stone comes back for good (F3); Black dies even
    moving first."""
    rows = BENT_FOUR[:4] + [".O.XOO"]
    for first in ("attacker", "defender"):
        r = ikeda.confirm_status(rows, first=first)
        assert (chain_at(r, "A3").case, chain_at(r, "B1").case) == ("N", "F3")


def test_ko_for_life_in_the_corner() -> None:
    """Ko for life: the bent-four corner with Black on A1 and White on B1. Black lives
    only by capturing B1 (C1), which leaves two eyes, A2 and B1. White, moving first,
    takes A1 as a ko (A2). If Black passes (lifting the ban), White connects at A1 and
    hands over three stones: after Black takes them at C1 the corner is a bent three with
    White to move, one eye. If Black takes B1 at C1 instead, White fills A1 and Black,
    capturing A1-A2 at B1, keeps a two-point eye: one eye again. N, dead, under both ko
    rules; with the defender first Black plays C1 at once: F2."""
    rows = BENT_FOUR[:4] + ["XO.XOO"]
    for ko_rule in ("simple", "koban"):
        r = ikeda.confirm_status(rows, ko_rule=ko_rule)
        assert [chain_at(r, v).case for v in ("A3", "A1", "B1")] == ["N", "N", "N"]
        d = ikeda.confirm_status(rows, ko_rule=ko_rule, first="defender")
        assert [chain_at(d, v).case for v in ("A3", "A1", "B1")] == ["F2", "F2", "F2"]


RABBITY_SIX = ["..XXO.", "...XOO", "X.XXO.", "XXXOOO", "OOOO.O", ".O.OOO"]


def test_rabbity_six_is_refused_beyond_the_budget_naming_the_region() -> None:
    """Rabbity six (A6 B6 A5 B5 C5 B4) needs the proof that Black, once captured, never
    lives again in the 15-point hole: more states than the budget. The engine refuses and
    names the region (Section 7) rather than guessing; it needs more than the default
    2,000,000 states (benches/README.md), and a small budget shows the refusal quickly."""
    with pytest.raises(ikeda.StatusBudgetError) as info:
        ikeda.confirm_status(RABBITY_SIX, budget=20_000, unresolved="raise")
    assert "A6" in info.value.region and "B4" in info.value.region and len(info.value.region) == 15
    assert "20000 states" in info.value.reason and "A6" in str(info.value)
    assert isinstance(info.value, ikeda.IkedaError)


def test_rabbity_six_with_the_defender_first_lives() -> None:
    """Black plays the vital point B5 first: C5 and B4 become two eyes at once (F2), and
    the search never needs the states after a capture."""
    r = ikeda.confirm_status(RABBITY_SIX, first="defender", budget=20_000)
    assert chain_at(r, "C6").case == "F2" and r.regions[0][1] < 20_000


def test_ko_won_by_the_attacker_moving_first() -> None:
    """Black's D4 stone can only be saved in a ko (White C4 takes it). White moves first,
    takes the ko, and after any Black move (a pass included) connects at D4: Black keeps
    one eye, N, dead, with either ko rule. Black moving first cannot win it either: his
    only way to keep D4 is to fill C4, his own second eye."""
    rows = [".X.XO", "XXXOO", "OOOO.", ".O.OO"]
    for ko_rule in ("simple", "koban"):
        for first in ("attacker", "defender"):
            r = ikeda.confirm_status(rows, ko_rule=ko_rule, first=first)
            assert chain_at(r, "D4").case == "N" and chain_at(r, "B4").case == "N"


def test_s2_after_capture_one_point_is_replaced() -> None:
    """S2 (Section 4) on a 1x4 board: White, first, captures A1-C1 at D1, so the chain is
    not S1, and four points can never give Black two eyes, so it is not F. After the
    capture Black plays back (B1 or C1) and can always answer White's next play by
    recapturing, so from some move on one of A1-C1 stays Black's for ever: S2, seki stones
    (Decision 10: a stone that is never captured again, though not first-class). The plain
    reference agrees."""
    rows = ["XXX."]
    r = ikeda.confirm_status(rows)
    assert (r.chains[0].case, r.chains[0].status) == ("S2", "seki")
    assert ref.confirm(rows) == [("B", [0, 1, 2], "S2")]


# -- counting, the preset, the API ---------------------------------------------------


DAME = ["X.X.O.O", ".XX.OO.", "XXX.OOO", "X.X.O.O"]


def test_strict_dame_seki_turns_groups_touching_dame_into_seki() -> None:
    """Sekiguchi's allocation counts the eyes of alive groups next to dame (3-3); the
    strict Art. 8 option makes the big chains, which touch the dame column D, seki
    stones, so no eye is territory (0-0). The lone stones A4 and G4 touch no dame and
    stay alive."""
    loose = ikeda.japanese_score(DAME)
    assert loose.territory == {"B": 3, "W": 3}
    strict = ikeda.japanese_score(DAME, strict_dame_seki=True)
    assert strict.territory == {"B": 0, "W": 0}
    assert strict.status.status == ["a.s.s.a", ".ss.ss.", "sss.sss", "s.s.s.s"]
    assert [c.class_ for c in strict.status.chains] == ["F"] * 4


def test_japanese_score_komi_prisoners_and_dead() -> None:
    rows = [".XO.O", "XXOOO", "OOO.O", "O.OOO"]
    s = ikeda.japanese_score(rows, komi=6.5, prisoners={"B": 2, "W": 1})
    assert (s.black, s.white) == (2, 7 + 1 + 3 + 6.5)
    assert s.prisoners == {"B": 2, "W": 4} and s.dead == {"B": 3, "W": 0}
    assert sorted(s.dead_stones) == ["A3", "B3", "B4"]
    assert s.margin == s.black - s.white


def test_game_under_the_japanese_preset_scores_without_agreement() -> None:
    """A finished game: Black's three stones in the corner are dead by confirmation, not
    by agreement, and count as White's prisoners."""
    g = ikeda.Game(5, rules="japanese", komi=0.5, setup={
        "B": ["B5", "A4", "B4"],
        "W": ["C5", "E5", "C4", "D4", "E4", "A3", "B3", "C3", "E3", "A2", "C2", "D2", "E2", "A1", "B1", "C1", "D1", "E1"],
    })
    assert g.rules == ikeda.JAPANESE.replace(komi=0.5)
    g.play("pass")
    g.play("pass")
    assert g.is_over
    score = g.score()
    assert sorted(score.dead) == ["A4", "B4", "B5"]
    assert (score.black, score.white) == (0, 7 + 3 + 0.5)
    assert (score.white_territory, score.black_lost) == (7, 3)
    assert score.result == "W+10.5" and "prisoners" in str(score)
    direct = ikeda.japanese_score(g)
    assert (direct.black, direct.white) == (score.black, score.white)
    # one decision: the score, the pictures and GTP all ask the game
    assert g.final_status() == {"alive": sorted(set(g.setup["W"]), key=g.board.index), "seki": [], "dead": ["B5", "A4", "B4"], "estimated": []}
    assert sorted(g.final_status()["dead"]) == sorted(score.dead)
    with pytest.raises(ikeda.IkedaError):
        g.score(dead=["B5"])


def test_native_playouts_refuse_japanese_counting() -> None:
    with pytest.raises(ikeda.IkedaError, match="status"):
        ikeda._core.random_game(5, 5, ikeda.JAPANESE, 1)


@pytest.mark.parametrize("position", [
    [], ["X.", "X"], ["XQ"], "X.O", [".X", 3], ["." * 26], ["XO"],
])
def test_bad_positions_are_refused(position: Any) -> None:
    with pytest.raises(ikeda.InvalidPositionError):
        ikeda.confirm_status(position)


@pytest.mark.parametrize("kwargs", [
    {"ko_rule": "superko"}, {"first": "black"}, {"strict_dame_seki": 1}, {"budget": 0}, {"prune": None},
])
def test_bad_options_are_refused(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ikeda.IkedaError):
        ikeda.confirm_status(["X.O"], **kwargs)


def test_game_and_rows_agree() -> None:
    g = ikeda.Game(width=5, height=3, setup={"B": ["B3", "D3", "A2", "B2", "B1", "C1", "D1", "E1"], "W": ["C3", "C2", "D2", "E2"]})
    rows = [".XOX.", "XXOOO", ".XXXX"]
    assert ikeda.confirm_status(g).status == ikeda.confirm_status(rows).status == [".ada.", "aaddd", ".aaaa"]


def test_final_status_without_japanese_counting_is_every_stone_alive() -> None:
    # the same corner under Area III: the game is played out, nothing is dead by status
    g = ikeda.Game(5, setup={"B": ["B5", "A4", "B4"], "W": ["C5", "C4", "A3", "B3"]})
    assert g.final_status() == {"alive": ["B5", "A4", "B4", "C5", "C4", "A3", "B3"], "seki": [], "dead": [], "estimated": []}
    assert g.prisoners == {"B": 0, "W": 0}
    g.play("pass")
    g.play("A5")  # White fills the last liberty of Black's three stones
    assert g.prisoners == {"B": 0, "W": 3}
    assert "B5" not in g.final_status()["alive"]


# Two White stones in a Black area below bands of first-class chains: 22 rows of 6.
BANDS = ["XXXXXX", "X.XX.X", "XXXXXX", "OOOOOO", "O.OO.O", "OOOOOO"] * 3 + ["XXXXXX", "X.XX.X", "XXXXXX", "XO.O.X"]


@pytest.mark.parametrize("ko_rule", ["simple", "koban"])
def test_a_region_of_more_than_128_points_is_searched(ko_rule: str) -> None:
    """Without the split the whole board is one region of 132 points, searched on the wide
    search board; the answers are the split's, whose regions are small."""
    whole = ikeda.confirm_status(BANDS, split=False, ko_rule=ko_rule)
    assert [len(points) for points, _ in whole.regions] == [len(BANDS) * 6]
    split = ikeda.confirm_status(BANDS, ko_rule=ko_rule)
    assert all(len(points) <= 128 for points, _ in split.regions)
    assert cases(whole) == cases(split) and whole.status == split.status
    assert whole.status[-1] == "ad.d.a" and chain_at(whole, "B1").case == "N"


def test_a_wide_region_beyond_the_memory_bound_is_refused() -> None:
    with pytest.raises(ikeda.StatusBudgetError) as info:
        ikeda.confirm_status(BANDS, split=False, memory=10_000, unresolved="raise")
    assert len(info.value.region) == len(BANDS) * 6 and "memory bound" in info.value.reason
