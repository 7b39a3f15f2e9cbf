"""``ikeda.count_games``: the number of complete games from the empty board, Black first.

Tromp-Taylor counts are published (Tromp & Farnebaeck, "Combinatorics of Go"); the counts
under Ikeda's rules are checked against a brute-force enumeration with the reference
(``reference.count_games``), which reproduces the published Tromp-Taylor counts itself.
"""

from __future__ import annotations

import signal
import threading
import time

import pytest

import ikeda
import reference

PUBLISHED_TROMP_TAYLOR = {(1, 1): 1, (1, 2): 9, (1, 3): 907}

#: reference.count_games on the smallest boards (pinned, so a change in the reference
#: shows here as well as in the comparison with the engine)
REFERENCE_COUNTS = {
    ("tromp-taylor", 1, 1): 1, ("tromp-taylor", 1, 2): 9, ("tromp-taylor", 1, 3): 907,
    ("area3", 1, 1): 1, ("area3", 1, 2): 15, ("area3", 1, 3): 2348,
    ("area2", 1, 1): 1, ("area2", 1, 2): 9, ("area2", 1, 3): 1211,
    ("territory1", 1, 1): 1, ("territory1", 1, 2): 23, ("territory1", 1, 3): 48265,
}
RULES = ("area3", "area2", "territory1", "tromp-taylor")
BOARDS = ((1, 1), (1, 2), (1, 3))


@pytest.mark.parametrize("board", list(PUBLISHED_TROMP_TAYLOR))
def test_published_tromp_taylor_counts(board: tuple[int, int]) -> None:
    w, h = board
    assert ikeda.count_games(w, h, "tromp-taylor") == PUBLISHED_TROMP_TAYLOR[board]
    assert ikeda.count_games(w, h, ikeda.TROMP_TAYLOR) == PUBLISHED_TROMP_TAYLOR[board]


@pytest.mark.parametrize("board", list(PUBLISHED_TROMP_TAYLOR))
def test_reference_reproduces_published_counts(board: tuple[int, int]) -> None:
    assert reference.count_games(*board, "tromp-taylor") == PUBLISHED_TROMP_TAYLOR[board]


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("board", BOARDS)
def test_reference_counts_are_pinned(rules: str, board: tuple[int, int]) -> None:
    assert reference.count_games(*board, rules) == REFERENCE_COUNTS[(rules, *board)]


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("board", BOARDS)
def test_engine_agrees_with_the_reference(rules: str, board: tuple[int, int]) -> None:
    w, h = board
    expected = REFERENCE_COUNTS[(rules, w, h)]
    assert ikeda.count_games(w, h, rules) == expected
    assert ikeda.count_games(h, w, rules) == expected  # the board turned a quarter
    assert ikeda.count_games(w, h, ikeda.Rules.from_string(rules)) == expected


def test_a_single_point_has_one_game_under_every_ruleset() -> None:
    # Black cannot play (self-capture, or under Tromp-Taylor a repetition): passes only
    for rules in RULES:
        assert ikeda.count_games(1, 1, rules) == 1


def test_counts_differ_by_ending() -> None:
    # the same play rules, different ends: Area III's first pass adds games to Area II's,
    # and Territory I's second pair of passes adds more
    assert ikeda.count_games(1, 2, "area2") < ikeda.count_games(1, 2, "area3") \
        < ikeda.count_games(1, 2, "territory1")


def test_komi_does_not_change_the_count() -> None:
    assert ikeda.count_games(1, 3, ikeda.AREA_III.replace(komi=0)) == REFERENCE_COUNTS[
        ("area3", 1, 3)]
    assert ikeda.count_games(1, 3, "tromp-taylor:komi=7.5") == 907


def test_tromp_taylor_by_its_components() -> None:
    # Area II play with Tromp-Taylor's repetition and self-capture rules is Tromp-Taylor
    r = ikeda.AREA_II.replace(ko="positional-superko", suicide=True)
    assert ikeda.count_games(1, 3, r) == 907


@pytest.mark.parametrize("rules", ["nonsense", "area3:ko=none"])
def test_bad_rules_raise(rules: str) -> None:
    with pytest.raises(ikeda.IkedaError):
        ikeda.count_games(1, 2, rules)


@pytest.mark.parametrize("rules", ["area3:suicide=yes", "tromp-taylor:ko=simple-ko", "area3:ko=simple-ko",
                                   "tromp-taylor:ko=capturing-superko"])
def test_rules_with_endless_games_are_refused(rules: str) -> None:
    # a game can repeat for ever: infinitely many games, even on one point
    with pytest.raises(ikeda.ArgumentError, match="repeat for ever"):
        ikeda.count_games(1, 1, rules)


def test_boards_beyond_the_limit_are_refused() -> None:
    assert ikeda.COUNT_GAMES_MAX_POINTS == 64
    with pytest.raises(ikeda.ArgumentError, match="at most 64 points"):
        ikeda.count_games(9, 9)
    with pytest.raises(ikeda.ArgumentError, match="at most 64 points"):
        ikeda.count_games(13, 5, "tromp-taylor")


@pytest.mark.parametrize("board", [(2, 2), (8, 8)])  # the configuration set as bits, and hashed
def test_a_budget_ends_a_count_that_would_take_hours(board: tuple[int, int]) -> None:
    with pytest.raises(ikeda.CountBudgetError) as e:
        ikeda.count_games(*board, "area3", budget=100_000)
    assert e.value.budget == 100_000 and "100000" in str(e.value)


def test_a_budget_large_enough_changes_nothing() -> None:
    assert ikeda.count_games(1, 3, "territory1", budget=10**6) == REFERENCE_COUNTS[("territory1", 1, 3)]


@pytest.mark.parametrize("budget", [0, -1, 2**64, 1.5, "10", True])
def test_bad_budgets_are_refused(budget: object) -> None:
    with pytest.raises(ikeda.ArgumentError, match="budget"):
        ikeda.count_games(1, 2, budget=budget)  # type: ignore[arg-type]


def test_ctrl_c_stops_a_count() -> None:
    # 2x2 under Area III runs for hours; a SIGINT a moment after the start stops it
    # Python's own SIGINT handler, whatever an earlier test or imported library installed
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    main = threading.main_thread().ident
    assert main is not None
    timer = threading.Timer(0.3, lambda: signal.pthread_kill(main, signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            ikeda.count_games(2, 2, "area3")
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - start < 10  # a generous bound for a loaded machine; it is about 0.3 s
