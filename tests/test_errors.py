"""Errors: what is raised for bad input and illegal moves, and that nothing changes."""

from __future__ import annotations

import re
from typing import Any

import pytest

import ikeda
from diagrams import game_from, play_all, snapshot

# Six moves, so the next move is number 7 (no bad move below contains a 7).
OPENING = ["C3", "G7", "C7", "G3", "E5", "pass"]


def _game() -> ikeda.Game:
    g = ikeda.Game(9)
    play_all(g, OPENING)
    return g


def test_hierarchy() -> None:
    for cls in (ikeda.InvalidMoveError, ikeda.IllegalMoveError, ikeda.InvalidPositionError):
        assert issubclass(cls, ikeda.IkedaError)
        assert issubclass(cls, ValueError)
    assert not issubclass(ikeda.IllegalMoveError, ikeda.InvalidMoveError)
    assert not issubclass(ikeda.InvalidMoveError, ikeda.IllegalMoveError)


BAD_MOVES: list[Any] = [
    "Z99",  # off the board
    "K1",  # column K is the tenth letter: off a 9x9 board
    "A10",  # row 10 on 9x9
    "A0",
    "I5",  # the letter I is never a column
    "",
    "D",
    "4",
    "DD4",
    "D-4",
    "pas",
    "resign",
    3.5,
    None,
    -1,
    82,  # w*h + 1 on 9x9 (81 is pass)
    1000,
    ["D4"],
    b"D4",
]


@pytest.mark.parametrize("move", BAD_MOVES, ids=[repr(m) for m in BAD_MOVES])
def test_invalid_move_raises_and_changes_nothing(move: Any) -> None:
    g = _game()
    before = snapshot(g)
    with pytest.raises(ikeda.InvalidMoveError) as info:
        g.play(move)
    err = info.value
    assert isinstance(err, ikeda.IkedaError)
    assert isinstance(err, ValueError)
    assert snapshot(g) == before
    # the game goes on normally afterwards
    g.play("D4")
    assert g.moves[-1] == "D4"


@pytest.mark.parametrize("move", ["Z99", "I5", "A0", "A10", -1, 82])
def test_invalid_move_message_names_move_and_number(move: Any) -> None:
    g = _game()
    with pytest.raises(ikeda.InvalidMoveError) as info:
        g.play(move)
    msg = str(info.value)
    assert str(move) in msg
    assert re.search(r"\b7\b", msg), msg


@pytest.mark.parametrize("move", ["Z99", "I5", "", 3.5, None, -1, 82])
def test_is_legal_on_invalid_move(move: Any) -> None:
    # an unreadable move is never legal; asking must not change the game
    g = _game()
    before = snapshot(g)
    try:
        result = g.is_legal(move)
    except ikeda.InvalidMoveError:
        pass
    else:
        assert result is False
    assert snapshot(g) == before


def test_vertices_are_case_insensitive_and_pass_accepted() -> None:
    g = ikeda.Game(9)
    g.play("d4")
    g.play("PASS")
    g.play("j9")
    assert g.moves == ["D4", "pass", "J9"]
    arr = g.to_numpy()
    assert arr[9 - 4, 3] == 1
    assert arr[0, 8] == 1


@pytest.mark.parametrize(
    ("diagram", "to_move", "move", "reason"),
    [
        ([".....", ".....", "..X..", ".....", "....."], "W", "C3", "occupied"),
        ([".....", ".....", ".....", "X....", ".X..."], "W", "A1", "suicide"),
    ],
)
def test_illegal_move_error_attributes(diagram: list[str], to_move: str, move: str, reason: str) -> None:
    g = game_from(diagram, to_move=to_move)
    g.play("E5")
    g.play("E4")  # two moves: the next is number 3
    before = snapshot(g)
    with pytest.raises(ikeda.IllegalMoveError) as info:
        g.play(move)
    err = info.value
    assert isinstance(err, ikeda.IkedaError) and isinstance(err, ValueError)
    assert err.reason == reason
    assert err.reason in ikeda.errors.ILLEGAL_REASONS
    assert err.move == move
    assert err.move_number == 3
    msg = str(err)
    assert move in msg
    assert reason in msg.lower()
    assert re.search(r"\b3\b", msg), msg
    assert snapshot(g) == before


def test_illegal_superko_error_attributes() -> None:
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
    g.play("B3")  # White takes the ko; Black's retake repeats the set-up position
    with pytest.raises(ikeda.IllegalMoveError) as info:
        g.play("C3")
    assert info.value.reason == "superko"
    assert info.value.reason in ikeda.errors.ILLEGAL_REASONS
    assert info.value.move_number == 2
    assert "superko" in str(info.value).lower()
    assert "C3" in str(info.value)


def test_simple_ko_error_attributes() -> None:
    g = game_from(
        """
        .....
        .XO..
        X.XO.
        .XO..
        .....
        """,
        to_move="W",
        rules="area3:ko=simple-ko",
    )
    g.play("B3")  # White takes the ko; Black may not retake at once
    before = snapshot(g)
    with pytest.raises(ikeda.IllegalMoveError) as info:
        g.play("c3")
    assert (info.value.reason, info.value.move, info.value.move_number) == ("ko", "c3", 2)
    assert info.value.reason in ikeda.errors.ILLEGAL_REASONS
    assert str(info.value) == "illegal move c3 by B at move 2: ko"
    assert snapshot(g) == before


def test_game_over_error_attributes() -> None:
    g = ikeda.Game(5)
    play_all(g, ["pass", "pass", "pass"])
    with pytest.raises(ikeda.IllegalMoveError) as info:
        g.play("C3")
    err = info.value
    assert err.reason == "game_over"
    assert err.reason in ikeda.errors.ILLEGAL_REASONS
    assert err.move_number == 4
    assert "C3" in str(err)
    assert "over" in str(err).lower()


def test_illegal_move_by_flat_index() -> None:
    g = ikeda.Game(5)
    g.play("A5")  # flat index 0
    with pytest.raises(ikeda.IllegalMoveError) as info:
        g.play(0)
    assert info.value.reason == "occupied"
    assert info.value.reason in ikeda.errors.ILLEGAL_REASONS
    assert g.moves == ["A5"]


# --------------------------------------------------------------------------- setup


@pytest.mark.parametrize(
    "setup",
    [
        {"B": ["A1"], "W": ["A2", "B1"]},  # Black A1 has no liberty
        {"B": ["A1", "B1"], "W": ["A2", "B2", "C1"]},  # a two-stone chain without liberty
        {"B": ["A2", "B1", "B3", "C2"], "W": ["B2"]},  # White B2 has no liberty
        {"B": ["C3"], "W": ["C3"]},  # a point given twice
        {"B": ["C3", "C3"], "W": []},
        {"B": ["c3", "C3"], "W": []},
    ],
)
def test_setup_errors(setup: dict[str, list[str]]) -> None:
    with pytest.raises(ikeda.InvalidPositionError) as info:
        ikeda.Game(5, setup=setup)
    assert isinstance(info.value, ikeda.IkedaError)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("setup", [{"B": ["Z99"], "W": []}, {"B": ["I3"], "W": []}, {"B": ["pass"], "W": []}])
def test_setup_bad_vertex(setup: dict[str, list[str]]) -> None:
    with pytest.raises(ikeda.IkedaError) as info:
        ikeda.Game(5, setup=setup)
    assert isinstance(info.value, ValueError)


def test_setup_full_board_of_one_colour_is_invalid() -> None:
    # on 1x1 a single stone has no liberty
    with pytest.raises(ikeda.InvalidPositionError):
        ikeda.Game(1, setup={"B": ["A1"], "W": []})


@pytest.mark.parametrize(
    "kwargs",
    [
        {"size": 0},
        {"size": 26},
        {"size": -1},
        {"width": 0, "height": 5},
        {"width": 5, "height": 26},
        {"width": 26, "height": 1},
    ],
)
def test_bad_board_sizes(kwargs: dict[str, int]) -> None:
    with pytest.raises(ikeda.IkedaError) as info:
        ikeda.Game(**kwargs)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    "kwargs", [{"size": 1}, {"size": 25}, {"width": 25, "height": 1}, {"width": 1, "height": 25}]
)
def test_extreme_board_sizes_are_fine(kwargs: dict[str, int]) -> None:
    g = ikeda.Game(**kwargs)
    w = kwargs.get("width", kwargs.get("size"))
    h = kwargs.get("height", kwargs.get("size"))
    assert g.to_numpy().shape == (h, w)
    assert g.legal_mask().shape == (w * h + 1,)


@pytest.mark.parametrize(("size", "handicap"), [(19, 10), (13, 10), (9, 10), (19, -1)])
def test_bad_handicap(size: int, handicap: int) -> None:
    with pytest.raises(ValueError):
        ikeda.Game(size, handicap=handicap)


def test_dead_mark_on_empty_point() -> None:
    g = ikeda.Game(5)
    play_all(g, ["C3", "pass", "pass", "pass"])
    with pytest.raises(ikeda.InvalidPositionError):
        g.score(dead=["A1"])
    with pytest.raises(ikeda.IkedaError):
        g.score(dead=["Z99"])


@pytest.mark.parametrize("call", [
    lambda: ikeda.Batch(-1, 9),
    lambda: ikeda.Batch(2, 9, threads=-1),
    lambda: ikeda.perft(ikeda.Game(3), -1),
    lambda: ikeda.Game(9, komi=float("nan")),
    lambda: ikeda.confirm_status(["X.O"], ko_rule="superko"),
    lambda: ikeda.japanese_score(["X.O"], prisoners={"B": -1}),
    lambda: ikeda.sgf.replay_many([], threads=-1),
    lambda: ikeda._core.Batch(5, 5, ikeda.AREA_III, 2**25, 1),
    lambda: ikeda._core.confirm_status(1, 1, [0], ko="superko"),
])
def test_argument_errors_are_value_errors(call: Any) -> None:
    with pytest.raises(ikeda.ArgumentError) as info:
        call()
    assert isinstance(info.value, ikeda.IkedaError) and isinstance(info.value, ValueError)


def test_rules_errors_are_value_errors() -> None:
    with pytest.raises(ikeda.RulesError) as info:
        ikeda.Game(9, rules="area4")
    assert isinstance(info.value, ikeda.IkedaError) and isinstance(info.value, ValueError)
    assert ikeda.errors.RulesError is ikeda.rules.RulesError


def test_a_bad_colour_is_an_invalid_position_from_python_and_from_the_native_module() -> None:
    """One type for a colour that cannot be read, whichever layer reads it: a name given to
    Python or a code given to the native module."""
    with pytest.raises(ikeda.InvalidPositionError, match="to_move must be 'B' or 'W'"):
        ikeda.Game(5, to_move="X")
    g = ikeda.Game(5)
    with pytest.raises(ikeda.InvalidPositionError, match="color must be 'B' or 'W'"):
        g.resign("purple")
    assert not g.is_over
    board = ikeda._core.Board(5, 5)
    for call in (lambda: board.play("C3", 3), lambda: board.illegal_reason("C3", 0), lambda: board.stone_count(7)):
        with pytest.raises(ikeda.InvalidPositionError, match="colour must be 1 \\(Black\\) or 2 \\(White\\)"):
            call()
    assert len(board) == 0 and board.moves == []


def test_every_error_class_lives_in_errors_and_the_old_import_names_still_work() -> None:
    pytest.importorskip("pyarrow")
    from ikeda import dataset, distributed

    assert dataset.DatasetError is ikeda.errors.DatasetError
    assert distributed.RayNotInstalledError is ikeda.errors.RayNotInstalledError
    for name in ikeda.errors.__all__:
        cls = getattr(ikeda.errors, name)
        assert issubclass(cls, ikeda.IkedaError) and cls.__module__ == "ikeda.errors", name
