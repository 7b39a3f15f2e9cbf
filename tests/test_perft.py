"""``ikeda.perft`` counts the same move sequences as the reference.

perft(game, depth) = the number of legal move sequences (passes included) of exactly
``depth`` moves from the position; a sequence cut short by the end of the game (Rule 6)
counts nothing. The expected numbers are computed here by ``reference.perft``.
"""

from __future__ import annotations

from typing import Any

import pytest

import ikeda
from reference import RefGame, perft
from sample import load



def pair(w: int, h: int, moves: tuple[str, ...] | list[str] = (),
         **kwargs: Any) -> tuple[Any, RefGame]:
    game = ikeda.Game(width=w, height=h, komi=0, **kwargs)
    ref = RefGame(w, h, komi=0, setup=kwargs.get("setup"), to_move=kwargs.get("to_move", "B"))
    for move in moves:
        game.play(move)
        ref.play(move)
    return game, ref


def state(game: Any) -> tuple:
    return (game.to_numpy().tolist(), list(game.moves), game.to_move, game.first_passer,
            game.legal_mask().tolist())


def check(game: Any, ref: RefGame, depth: int) -> None:
    before = state(game)
    assert ikeda.perft(game, depth) == perft(ref, depth)
    assert state(game) == before, "perft changed the game"


EMPTY_BOARDS = (
    [(1, 1, d) for d in range(7)]
    + [(2, 2, d) for d in range(11)]
    + [(3, 3, d) for d in range(6)]
    + [(w, h, d) for w, h in [(1, 4), (4, 1), (2, 3), (3, 2)] for d in range(6)]
    + [(4, 4, 3), (5, 5, 3)]
)


@pytest.mark.parametrize(("w", "h", "depth"), EMPTY_BOARDS)
def test_empty_board(w: int, h: int, depth: int) -> None:
    check(*pair(w, h), depth)


def test_known_small_counts() -> None:
    """Counts that follow from the rules by hand, as a check on the reference itself."""
    assert perft(RefGame(1, 1), 3) == 1  # pass pass pass; a play on 1x1 is suicide
    assert perft(RefGame(1, 1), 4) == 0  # the game is over after three passes
    assert perft(RefGame(2, 2), 1) == 5
    assert perft(RefGame(2, 2), 2) == 4 * 4 + 5


@pytest.mark.parametrize(
    ("w", "h", "moves", "depth"),
    [
        (2, 2, ["pass"], 8),  # the first pass made: pass pass now ends the game
        (3, 3, ["pass"], 4),
        (3, 3, ["B2", "pass"], 4),  # White passed first
        (3, 3, ["pass", "pass"], 3),  # one more pass ends it
        (2, 2, ["A1", "pass", "B2", "pass"], 8),
        (3, 3, ["B2", "B1", "A2", "C2", "pass", "A1"], 4),
    ],
)
def test_after_passes(w: int, h: int, moves: list[str], depth: int) -> None:
    game, ref = pair(w, h, moves)
    for d in range(depth + 1):
        check(game, ref, d)


def test_game_over() -> None:
    game, ref = pair(2, 2, ["pass", "pass", "pass"])
    assert ref.over
    check(game, ref, 0)
    check(game, ref, 1)
    assert perft(ref, 1) == 0


@pytest.mark.parametrize(
    ("w", "h", "moves", "depth"),
    [
        # a ko: White's A2 capture is banned only while it would repeat a configuration
        (4, 3, ["B3", "C3", "A2", "D2", "B1", "C1", "pass", "B2", "C2"], 4),
        (2, 2, ["A1", "B2", "B1", "A2", "pass"], 8),  # captures everywhere on 2x2
        (3, 3, ["A1", "B2", "A2", "A3", "B1", "C1"], 4),
    ],
)
def test_mid_game(w: int, h: int, moves: list[str], depth: int) -> None:
    game, ref = pair(w, h, moves)
    check(game, ref, depth)


def test_setup_white_first() -> None:
    setup = {"B": ["B2"], "W": ["A1"]}
    game, ref = pair(3, 3, setup=setup, to_move="W")
    for d in range(5):
        check(game, ref, d)


def _probes() -> list[dict]:
    records = load("probes.jsonl")
    return [r for r in records if r["size"] <= 4 and not r["setup"]["B"] and not r["setup"]["W"]]


@pytest.mark.parametrize("record", _probes(), ids=lambda r: r["id"])
def test_from_sample_positions(record: dict) -> None:
    """Superko, snapback and suicide positions from the rules sample (tests/data/rules-sample), a few plies deep."""
    size = record["size"]
    game, ref = pair(size, size, record["moves"], to_move=record["first_player"])
    check(game, ref, 3 if size <= 3 else 2)
