"""Random games: the Rust-backed ``ikeda.Game`` against the pure-Python reference.

Every step compares the full legal mask, tries an illegal move now and then (same reason,
game unchanged), plays a random legal move in both and compares the whole visible state;
each finished game compares the score. Failures print the move sequence that led there.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import ikeda
from reference import BLACK, EMPTY, WHITE, RefGame, flood, liberties, vertex_name

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
KOMIS = [0, 0.5, 6.5, 7, -3]
PASS_BIAS = [0.0, 0.01, 0.03, 0.1, 0.3, 0.6]


# -- building a pair of games -------------------------------------------------------


def random_setup(rng: random.Random, w: int, h: int) -> dict[str, list[str]]:
    """A few stones of each colour, every chain keeping a liberty."""
    cells = [EMPTY] * (w * h)
    for _ in range(rng.randrange(1, max(2, w * h // 3))):
        p = rng.randrange(w * h)
        if cells[p] != EMPTY:
            continue
        cells[p] = rng.choice([BLACK, WHITE])
        board = tuple(cells)
        if any(not liberties(board, flood(board, q, w, h), w, h)
               for q in range(w * h) if board[q] != EMPTY):
            cells[p] = EMPTY
    return {c: [vertex_name(p, w, h) for p in range(w * h) if cells[p] == colour]
            for c, colour in (("B", BLACK), ("W", WHITE))}


@st.composite
def pairs(draw: Any, max_side: int = 9) -> tuple[Any, RefGame, random.Random, str]:
    """(ikeda.Game, RefGame, rng, description) on a random w x h board."""
    w = draw(st.integers(2, max_side))
    h = draw(st.integers(2, max_side))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    komi = rng.choice(KOMIS)
    setup = random_setup(rng, w, h) if rng.random() < 0.25 else None
    to_move = rng.choice("BW") if setup else "B"
    kwargs: dict[str, Any] = {"width": w, "height": h, "komi": komi}
    if setup is not None:
        kwargs.update(setup=setup, to_move=to_move)
    desc = f"Game(**{kwargs!r})"
    return ikeda.Game(**kwargs), RefGame(w, h, komi=komi, setup=setup, to_move=to_move), rng, desc


# -- comparing ------------------------------------------------------------------------


def snapshot(game: Any) -> tuple:
    return (game.to_numpy().tolist(), list(game.moves), game.to_move, game.first_passer,
            game.is_over, game.legal_mask().tolist())


def where(ref: RefGame, desc: str) -> str:
    moves = [vertex_name(p, ref.w, ref.h) for p in ref.moves]
    return f"{desc}; moves {moves}\n" + "\n".join(ref.diagram())


def assert_same_state(game: Any, ref: RefGame, desc: str) -> None:
    ctx = where(ref, desc)
    board = game.to_numpy()
    assert board.dtype == np.int8 and board.shape == (ref.h, ref.w), ctx
    assert board.ravel().tolist() == list(ref.board), ctx
    assert game.to_move == "BW"[ref.to_move - 1], ctx
    assert game.first_passer == ref.first_passer, ctx
    assert game.is_over is ref.over, ctx
    assert list(game.moves) == [vertex_name(p, ref.w, ref.h) for p in ref.moves], ctx


def assert_same_legality(game: Any, ref: RefGame, desc: str) -> None:
    ctx = where(ref, desc)
    mask = game.legal_mask()
    assert mask.dtype == np.bool_ and mask.shape == (ref.w * ref.h + 1,), ctx
    expected = ref.legal_mask()
    diff = [(vertex_name(p, ref.w, ref.h), bool(mask[p]), expected[p])
            for p in range(len(expected)) if bool(mask[p]) != expected[p]]
    assert not diff, f"legal_mask differs (vertex, engine, reference) {diff}\n{ctx}"
    names = [vertex_name(p, ref.w, ref.h) for p in ref.legal_moves()]
    got = list(game.legal_moves())
    assert sorted(got) == sorted(names), ctx
    if got:
        assert ("pass" in got) == (got[-1] == "pass"), ctx


def assert_same_score(game: Any, ref: RefGame, desc: str) -> None:
    ctx = where(ref, desc)
    score, expected = game.score(), ref.score()
    for field, value in expected.items():
        assert getattr(score, field) == value, f"score.{field}\n{ctx}"
    margin = expected["margin"]
    winner = "B" if margin > 0 else "W" if margin < 0 else None
    assert score.winner == winner, ctx
    if winner is None:
        assert score.result == "0", ctx
    else:
        assert score.result.startswith(winner + "+"), ctx
        assert float(score.result[2:]) == abs(margin), ctx
    owner = game.ownership()
    assert owner.shape == (ref.h, ref.w), ctx
    assert owner.ravel().tolist() == ref.ownership(), ctx


# -- driving ----------------------------------------------------------------------------


def as_input(rng: random.Random, ref: RefGame, p: int) -> int | str:
    """The same move, sometimes as a flat index, sometimes as GTP text."""
    return p if rng.random() < 0.5 else vertex_name(p, ref.w, ref.h)


def choose(rng: random.Random, ref: RefGame, pass_bias: float) -> int:
    legal = ref.legal_moves()
    plays = [p for p in legal if p != ref.pass_move]
    if not plays or rng.random() < pass_bias:
        return ref.pass_move
    return rng.choice(plays)


def try_illegal(game: Any, ref: RefGame, rng: random.Random, desc: str) -> None:
    illegal = [p for p in range(ref.pass_move + 1) if not ref.is_legal(p)]
    if not illegal:
        return
    by_reason: dict[str, list[int]] = {}
    for q in illegal:
        by_reason.setdefault(ref.illegal_reason(q), []).append(q)
    p = rng.choice(by_reason[rng.choice(sorted(by_reason))])  # rare reasons as often
    before = snapshot(game)
    move = as_input(rng, ref, p)
    assert not game.is_legal(move), where(ref, desc)
    with pytest.raises(ikeda.IllegalMoveError) as info:
        game.play(move)
    assert info.value.reason == ref.illegal_reason(p), f"{move!r}: {where(ref, desc)}"
    event(f"illegal tried: {info.value.reason}")
    assert snapshot(game) == before, f"changed by illegal {move!r}: {where(ref, desc)}"


def play_both(game: Any, ref: RefGame, rng: random.Random, p: int) -> None:
    move = as_input(rng, ref, p)
    assert game.is_legal(move)
    game.play(move)
    ref.play(p)


def run(game: Any, ref: RefGame, rng: random.Random, desc: str, pass_bias: float,
        max_moves: int) -> None:
    """Play both games side by side, comparing everything at every step."""
    assert_same_state(game, ref, desc)
    for _ in range(max_moves):
        assert_same_legality(game, ref, desc)
        if rng.random() < 0.2:
            try_illegal(game, ref, rng, desc)
        if ref.over:
            break
        play_both(game, ref, rng, choose(rng, ref, pass_bias))
        assert_same_state(game, ref, desc)
    if ref.over:
        assert game.legal_moves() == [] and not game.legal_mask().any()
        for p in (0, ref.pass_move):
            with pytest.raises(ikeda.IllegalMoveError) as info:
                game.play(as_input(rng, ref, p))
            assert info.value.reason == "game_over"
    event(f"ended: {ref.over}")
    event(f"moves played: {len(ref.moves) // 50 * 50}+")
    event(f"stones captured: {sum(ref.captured.values()) > 0}")
    assert_same_score(game, ref, desc)


@SETTINGS
@given(pair=pairs())
def test_random_games(pair: tuple) -> None:
    """Boards 2x2..9x9, square or not; random play with a per-game pass rate."""
    game, ref, rng, desc = pair
    run(game, ref, rng, desc, rng.choice(PASS_BIAS), max_moves=3 * ref.w * ref.h + 30)


@SETTINGS
@given(pair=pairs(max_side=4))
def test_small_boards_long_games(pair: tuple) -> None:
    """Long games on tiny boards, where captures recreate configurations (Rule 4)."""
    game, ref, rng, desc = pair
    run(game, ref, rng, desc, rng.choice(PASS_BIAS[:3]), max_moves=150)


def advance(game: ikeda.Game, ref: RefGame, rng: random.Random, moves: int, pass_bias: float) -> None:
    """Plays up to `moves` random moves in both, stopping at the end of the game."""
    for _ in range(moves):
        if ref.over:
            break
        play_both(game, ref, rng, choose(rng, ref, pass_bias))


@SETTINGS
@given(pair=pairs(max_side=6), prefix=st.integers(0, 40), k=st.integers(1, 30))
def test_undo(pair: tuple, prefix: int, k: int) -> None:
    """Undoing k moves walks back through exactly the states that were passed."""
    game, ref, rng, desc = pair
    pass_bias = rng.choice(PASS_BIAS)
    advance(game, ref, rng, prefix, pass_bias)
    states = []
    for _ in range(k):
        if ref.over:
            break
        states.append(snapshot(game))
        play_both(game, ref, rng, choose(rng, ref, pass_bias))
    for state in reversed(states):
        game.undo()
        ref.undo()
        assert snapshot(game) == state, where(ref, desc)
        assert_same_state(game, ref, desc)
    # The superko history was rolled back too: play on and compare.
    for _ in range(k):
        assert_same_legality(game, ref, desc)
        if ref.over:
            break
        play_both(game, ref, rng, choose(rng, ref, pass_bias))
        assert_same_state(game, ref, desc)


@SETTINGS
@given(pair=pairs(max_side=6), prefix=st.integers(0, 40), k=st.integers(1, 20))
def test_copy_is_independent(pair: tuple, prefix: int, k: int) -> None:
    game, ref, rng, desc = pair
    pass_bias = rng.choice(PASS_BIAS)
    advance(game, ref, rng, prefix, pass_bias)
    twin, twin_ref = game.copy(), ref.copy()
    original = snapshot(game)
    assert snapshot(twin) == original
    for _ in range(k):
        if twin_ref.over:
            break
        play_both(twin, twin_ref, rng, choose(rng, twin_ref, pass_bias))
        assert_same_state(twin, twin_ref, desc)
    assert snapshot(game) == original, "playing on the copy changed the original"
    for _ in range(k):
        if ref.over:
            break
        play_both(game, ref, rng, choose(rng, ref, pass_bias))
    assert_same_state(twin, twin_ref, desc)
    assert_same_legality(twin, twin_ref, desc)
    assert_same_state(game, ref, desc)
    assert_same_legality(game, ref, desc)


def test_rule4_capture_repeat_example() -> None:
    """A capture may not recreate any earlier configuration, even across passes."""
    game, ref = ikeda.Game(width=2, height=1, komi=0), RefGame(2, 1)
    for move in ["A1", "B1", "pass", "pass"]:
        game.play(move)
        ref.play(move)
    assert ref.illegal_reason("A1") == "superko"
    with pytest.raises(ikeda.IllegalMoveError) as info:
        game.play("A1")
    assert info.value.reason == "superko"
