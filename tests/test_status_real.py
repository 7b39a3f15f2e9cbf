"""Status confirmation on real finished games (tests/data/real) and the limits that make
it safe there: static proofs of safe walls (checked against the whole-board search), the
opt-in estimate of unresolved regions, one budget and one memory bound for the whole
confirmation, and refusals that are errors, never aborts."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ikeda
from ikeda import sgf

REAL = sorted((Path(__file__).parent / "data" / "real").glob("*.sgf"))


def is_position(rows: list[str]) -> bool:
    """Every chain has a liberty (a position that can exist)."""
    try:
        ikeda.confirm_status(rows, budget=1, unresolved="estimate", playouts=1)
    except ikeda.InvalidPositionError:
        return False
    return True


def final(path: Path) -> tuple[ikeda.Game, float]:
    rec = sgf.read(path.read_text())
    m = re.fullmatch(r"([BW])\+(\d+(?:\.5)?)", rec.main_line[0].get("RE") or "")
    assert m, path
    return rec.replay(rules="japanese"), float(m.group(2)) * (1 if m.group(1) == "B" else -1)


# -- safe walls: a static proof of F2 -------------------------------------------------------

SAFE_WALL = ["X.OX.X", "XXXXXX"]


def test_safe_wall_is_f2_by_a_static_proof_and_the_whole_board_search_agrees() -> None:
    """The Black group has two pockets all of whose points touch it: {B2, C2} (White's
    stone inside) and {E2}. The safe-wall proof makes it F2 without search; the White
    stone is searched in its pocket alone and is dead. The exhaustive whole-board search
    (no regions) gives the same cases."""
    split = ikeda.confirm_status(SAFE_WALL)
    whole = ikeda.confirm_status(SAFE_WALL, split=False)
    assert split.status == whole.status == ["a.da.a", "aaaaaa"]
    assert [(c.case, c.proof) for c in split.chains] == [("F2", "static"), ("N", "searched")]
    assert [(c.case, c.proof) for c in whole.chains] == [("F2", "searched"), ("N", "searched")]
    assert split.regions == [(["B2", "C2"], split.regions[0][1])]


def test_a_pocket_that_does_not_touch_the_whole_chain_is_no_proof() -> None:
    """C2 is not next to the Black chain (B2 is White's, D2 empty beyond it): the pocket is
    not vital, nothing is proven statically, and the search decides."""
    rows = ["X.O..X", "XXXXXX"]
    r = ikeda.confirm_status(rows)
    assert all(c.proof == "searched" for c in r.chains)
    assert r.status == ikeda.confirm_status(rows, split=False).status


# -- real games -----------------------------------------------------------------------------


@pytest.mark.parametrize("path", REAL, ids=[p.stem for p in REAL])
def test_real_game_is_refused_by_default_naming_the_region(path: Path) -> None:
    """Without ``unresolved="estimate"`` a real final position is refused, never guessed."""
    game, _ = final(path)
    with pytest.raises(ikeda.StatusBudgetError, match="region"):
        ikeda.confirm_status(game, budget=50_000)


@pytest.mark.parametrize("path", REAL, ids=[p.stem for p in REAL])
def test_real_game_estimate_gives_the_recorded_count_and_says_what_is_proven(path: Path) -> None:
    game, recorded = final(path)
    js = ikeda.japanese_score(game, unresolved="estimate", budget=50_000)
    assert js.margin == recorded
    status = js.status
    assert not js.proven and status.unresolved
    for region in status.unresolved:
        assert region.size == len(region.points) > 0 and region.why
    proven = [c for c in status.chains if c.proven]
    assert proven, "the safe walls of a real game are proven statically"
    for c in status.chains:
        assert (c.case == "estimated") == (c.proof == "estimated")
        if c.proof == "static":
            assert c.case in ("F1", "F2") and c.status == "alive"
    stones = {v for c in status.chains for v in c.stones}
    assert set(status.estimated_stones) < stones


def test_estimate_is_reproducible_and_never_touches_proven_chains() -> None:
    game, _ = final(REAL[0])
    a = ikeda.confirm_status(game, unresolved="estimate", budget=50_000, seed=7)
    b = ikeda.confirm_status(game, unresolved="estimate", budget=50_000, seed=7)
    c = ikeda.confirm_status(game, unresolved="estimate", budget=50_000, seed=8, playouts=100)
    assert a == b
    proven = lambda r: [(ch.stones, ch.case, ch.status) for ch in r.chains if ch.proven]  # noqa: E731
    assert proven(a) == proven(c)


def test_game_score_and_gtp_answer_on_a_real_game_and_say_what_is_estimated() -> None:
    game, recorded = final(REAL[0])
    score = game.score()
    assert score.black - score.white == recorded
    on_board = {v for c in ikeda.confirm_status(game, unresolved="estimate").chains for v in c.stones}
    assert score.estimated and set(score.estimated) < on_board
    from ikeda.gtp.engine import Engine

    e = Engine(rules="japanese")
    assert e.handle(f"loadsgf {REAL[0]}").startswith("=")
    estimated = e.handle("final_status_list estimated")[1:].split()
    assert estimated and set(estimated) == set(score.estimated)
    assert e.handle("final_score").startswith("= " + ("B+" if recorded > 0 else "W+"))


def test_svg_marks_estimated_stones() -> None:
    game, _ = final(REAL[0])
    from ikeda import svg

    picture = svg.board(game, territory=True)
    assert picture.count('class="estimated"') == len(game.score().estimated)


# -- limits: one bound for the whole confirmation, refusals not aborts ------------------------

RABBITY_SIX = ["..XXO.", "...XOO", "X.XXO.", "XXXOOO", "OOOO.O", ".O.OOO"]


def test_a_small_memory_bound_refuses_with_status_budget_error() -> None:
    with pytest.raises(ikeda.StatusBudgetError, match="bytes"):
        ikeda.confirm_status(RABBITY_SIX, memory=200_000)
    r = ikeda.confirm_status(RABBITY_SIX, memory=200_000, unresolved="estimate", playouts=50)
    assert [u.why for u in r.unresolved] and "bytes" in r.unresolved[0].why
    assert "estimated" in {c.proof for c in r.chains} and all(c.proof != "searched" for c in r.chains)


def test_the_budget_is_for_all_regions_together() -> None:
    """Two straight fours walled off by White's first-class group: two regions of 112
    states each. The budget counts them together: one state less than their sum is
    refused, and the refusal stops the confirmation at the first region it hits."""
    rows = ["X....X", "XXXXXX", "OOOOOO", "O.OO.O", "OOOOOO", "XXXXXX", "X....X"]
    r = ikeda.confirm_status(rows)
    assert [n for _, n in r.regions] == [112, 112]
    assert ikeda.confirm_status(rows, budget=224).status == r.status
    with pytest.raises(ikeda.StatusBudgetError, match="budget"):
        ikeda.confirm_status(rows, budget=223)
    est = ikeda.confirm_status(rows, budget=223, unresolved="estimate", playouts=50)
    assert len(est.regions) == 1 and len(est.unresolved) == 1


def test_exhausted_address_space_is_an_error_not_an_abort() -> None:
    """Under a 1.5 GB address-space limit, a search allowed more memory than the process
    can get fails with StatusBudgetError (a refused allocation), and the interpreter
    lives on."""
    code = (
        "import resource, ikeda\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))\n"
        f"rows = {RABBITY_SIX!r}\n"
        "try:\n"
        "    ikeda.confirm_status(rows, budget=10**9, memory=2**45)\n"
        "except ikeda.StatusBudgetError as e:\n"
        "    print('refused', e)\n"
        "except MemoryError:\n"
        "    print('refused MemoryError')\n"
        "print('alive')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "refused" in out.stdout and out.stdout.rstrip().endswith("alive")


@st.composite
def walled_positions(draw: Any) -> list[str]:
    """A Black wall along the bottom row and one or two random rows above it: pockets of
    every shape, with and without White stones, where the safe-wall proof often applies."""
    h = draw(st.integers(1, 2))
    w = draw(st.integers(3, 6 if h == 1 else 4))
    top = ["".join(draw(st.lists(st.sampled_from(".XXO"), min_size=w, max_size=w))) for _ in range(h)]
    for rows in (top + ["X" * w], [r.replace("O", ".") for r in top] + ["X" * w]):
        if is_position(rows):
            return rows
    return ["." * w] * h + ["X" * w]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=walled_positions())
def test_safe_walls_agree_with_the_whole_board_search(rows: list[str]) -> None:
    """Wherever the exhaustive whole-board search (no regions, no safe walls) is feasible,
    the split with safe walls gives every chain the same case and status."""
    try:
        whole = ikeda.confirm_status(rows, split=False, budget=300_000)
    except ikeda.StatusBudgetError:
        return
    split = ikeda.confirm_status(rows)
    assert split.status == whole.status, rows
    assert [(c.stones, c.case) for c in split.chains] == [(c.stones, c.case) for c in whole.chains], rows


def test_walled_positions_reach_the_safe_wall_proof() -> None:
    """The generator above is not idle: such boards do prove walls statically."""
    assert any(c.proof == "static" and c.case == "F2" for c in ikeda.confirm_status(["X.OX..X.X", "XXXXXXXXX"]).chains)
