"""Benchmarks of the Python API, side by side with OpenSpiel's ``pyspiel`` Go.

Each operation is timed for ikeda and for pyspiel in the same benchmark group (one group
per operation and board size), so the table reads as ratios. Both engines are given the
same positions: a fixed random sequence of plays is generated once with ikeda and
replayed in pyspiel, and the two boards are compared stone by stone before any timing.

Every benchmark checks its answer against figures fixed in ``EXPECTED`` (and, where
pyspiel is present, against pyspiel itself), so an engine that is fast but wrong fails.

Run with ``python -m pytest benches/python --benchmark-only``; without open-spiel the
pyspiel half is skipped and the ikeda half still runs.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import ikeda

SIZES = (9, 19)
KOMI = 7.5
SEED = 20240601

#: Plays before the position used by the `play` benchmark, and how many plays it times.
PLAY_FROM = {9: 40, 19: 150}
PLAY_COUNT = 20
PLAY_ROUNDS = {9: 5000, 19: 5000}
#: Plays before the position used by the copy and legal-move benchmarks.
MIDGAME = {9: 60, 19: 200}
#: Plays before the final position of the `score` benchmark (then passes end the game).
ENDGAME = {9: 100, 19: 400}

#: Known answers, cross-checked with pyspiel when it is installed.
#: play_stones: (black, white) stones after the timed plays; midgame_stones: the same at
#: MIDGAME; midgame_legal: legal plays (no pass) at MIDGAME; final: (black area, white
#: area before komi, winner) once the game at ENDGAME has been passed out.
EXPECTED: dict[int, dict[str, Any]] = {
    9: {
        "play_stones": (30, 28),
        "midgame_stones": (30, 28),
        "midgame_legal": 23,
        "final": (53.0, 23.0, "B"),
    },
    19: {
        "play_stones": (84, 84),
        "midgame_stones": (99, 99),
        "midgame_legal": 162,
        "final": (173.0, 152.0, "B"),
    },
}


# -- positions ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """A fixed random sequence of plays (ikeda flat indices, no passes)."""

    size: int
    plays: tuple[int, ...]

    def game(self, n: int) -> ikeda.Game:
        g = ikeda.Game(self.size, komi=KOMI)
        for m in self.plays[:n]:
            g.play(m)
        return g


@functools.lru_cache(maxsize=None)
def line(size: int) -> Line:
    """Uniformly random legal plays from the empty board, long enough for every benchmark.

    The legal plays are sorted before the choice, so the line depends only on the rules,
    not on the order an engine happens to list them in."""
    rng = random.Random(SEED + size)
    g = ikeda.Game(size, komi=KOMI)
    plays: list[int] = []
    while len(plays) < ENDGAME[size]:
        legal = sorted(g.legal_indices())
        assert legal, "the line ran out of plays"
        m = rng.choice(legal)
        g.play(m)
        plays.append(m)
    return Line(size, tuple(plays))


def to_spiel(index: int, size: int) -> int:
    """ikeda flat index (row 0 at the top) -> pyspiel action (row 0 at the bottom)."""
    if index == size * size:
        return index
    r, c = divmod(index, size)
    return (size - 1 - r) * size + c


def spiel_stones(state: Any, size: int) -> np.ndarray:
    """pyspiel stones as ikeda's ``to_numpy`` would give them (int8, row 0 at the top)."""
    t = np.asarray(state.observation_tensor(0)).reshape(4, size, size)
    board = (t[0] * 1 + t[1] * 2).astype(np.int8)
    return np.flipud(board)


def stone_counts(board: np.ndarray) -> tuple[int, int]:
    return int((board == 1).sum()), int((board == 2).sum())


@functools.lru_cache(maxsize=None)
def spiel_game(size: int) -> Any:
    pyspiel = pytest.importorskip("pyspiel")
    return pyspiel.load_game("go", {"board_size": size, "komi": KOMI})


def spiel_replay(game: Any, actions: list[int]) -> Any:
    """A new pyspiel state with `actions` applied, the way a replay from a new game runs."""
    s = game.new_initial_state()
    apply = s.apply_action
    for a in actions:
        apply(a)
    return s


def spiel_state(size: int, n: int) -> Any:
    """The pyspiel state after the first `n` plays of the line, checked against ikeda."""
    state = spiel_game(size).new_initial_state()
    for m in line(size).plays[:n]:
        a = to_spiel(m, size)
        assert a in state.legal_actions(), f"pyspiel refuses play {len(state.history()) + 1}"
        state.apply_action(a)
    g = line(size).game(n)
    assert np.array_equal(spiel_stones(state, size), g.to_numpy()), "the engines disagree"
    return state


def ikeda_final(size: int) -> ikeda.Game:
    """The line to ENDGAME, then passes until the game is over (three under Rule 6)."""
    g = line(size).game(ENDGAME[size])
    while not g.is_over:
        g.play("pass")
    return g


def spiel_final(size: int) -> Any:
    """The line to ENDGAME, then passes until the state is terminal (two in OpenSpiel)."""
    state = spiel_state(size, ENDGAME[size])
    while not state.is_terminal():
        state.apply_action(size * size)
    return state


def group(benchmark: Any, name: str, size: int) -> None:
    benchmark.group = f"{name} {size}x{size}"


# -- play --------------------------------------------------------------------------------

PLAY_DOC = """Plays PLAY_COUNT fixed legal moves in a row from a fresh copy of a mid-game
    position (made in untimed setup), so one timing covers several plays and the timer's
    own cost is spread over them; the mean divided by PLAY_COUNT is the cost of one play.
    Both engines play the same moves from the same position through a bound method."""


def _play_all(play: Any, moves: tuple[Any, ...]) -> None:
    for m in moves:
        play(m)


@pytest.mark.parametrize("size", SIZES)
def test_play_ikeda(benchmark: Any, size: int) -> None:
    group(benchmark, "play", size)
    start = PLAY_FROM[size]
    base = line(size).game(start)
    moves = line(size).plays[start : start + PLAY_COUNT]
    want = line(size).game(start + PLAY_COUNT).to_numpy()
    assert stone_counts(want) == EXPECTED[size]["play_stones"]
    last: list[ikeda.Game] = []

    def check() -> None:  # the previous round's game, outside the timing
        g = last.pop()
        assert len(g.move_indices) == start + PLAY_COUNT
        assert np.array_equal(g.to_numpy(), want)

    def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
        if last:
            check()
        g = base.copy()
        last.append(g)
        return (g.play, moves), {}

    benchmark.pedantic(_play_all, setup=setup, rounds=PLAY_ROUNDS[size])
    check()
    benchmark.extra_info["plays_per_round"] = PLAY_COUNT


test_play_ikeda.__doc__ = PLAY_DOC


@pytest.mark.parametrize("size", SIZES)
def test_play_pyspiel(benchmark: Any, size: int) -> None:
    group(benchmark, "play", size)
    start = PLAY_FROM[size]
    base = spiel_state(size, start)
    moves = tuple(to_spiel(m, size) for m in line(size).plays[start : start + PLAY_COUNT])
    want = line(size).game(start + PLAY_COUNT).to_numpy()
    assert stone_counts(want) == EXPECTED[size]["play_stones"]
    last: list[Any] = []

    def check() -> None:  # the previous round's state, outside the timing
        s = last.pop()
        assert s.move_number() == start + PLAY_COUNT
        assert np.array_equal(spiel_stones(s, size), want)

    def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
        if last:
            check()
        s = base.clone()
        last.append(s)
        return (s.apply_action, moves), {}

    benchmark.pedantic(_play_all, setup=setup, rounds=PLAY_ROUNDS[size])
    check()
    benchmark.extra_info["plays_per_round"] = PLAY_COUNT


test_play_pyspiel.__doc__ = PLAY_DOC


# -- new game and replay ----------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_new_game_ikeda(benchmark: Any, size: int) -> None:
    """`Game(size, komi=...)`: a new game from the empty board."""
    group(benchmark, "new_game", size)
    g = benchmark(ikeda.Game, size, komi=KOMI)
    assert g.to_move == "B" and not g.move_indices and g.legal_mask().sum() == size * size + 1


@pytest.mark.parametrize("size", SIZES)
def test_new_game_pyspiel(benchmark: Any, size: int) -> None:
    """`game.new_initial_state()`."""
    group(benchmark, "new_game", size)
    s = benchmark(spiel_game(size).new_initial_state)
    assert s.move_number() == 0 and len(s.legal_actions()) == size * size + 1


@pytest.mark.parametrize("size", SIZES)
def test_replay_ikeda(benchmark: Any, size: int) -> None:
    """A recorded game replayed from a new game: `Game(...)` then `play` of every move of
    the line (flat indices), ENDGAME plays."""
    group(benchmark, "replay", size)
    moves = line(size).plays

    def replay() -> ikeda.Game:
        g = ikeda.Game(size, komi=KOMI)
        play = g.play
        for m in moves:
            play(m)
        return g

    g = benchmark(replay)
    assert stone_counts(g.to_numpy()) == stone_counts(line(size).game(ENDGAME[size]).to_numpy())


@pytest.mark.parametrize("size", SIZES)
def test_replay_pyspiel(benchmark: Any, size: int) -> None:
    """The same record in pyspiel: `new_initial_state()` then `apply_action` per move."""
    group(benchmark, "replay", size)
    actions = [to_spiel(m, size) for m in line(size).plays]
    game = spiel_game(size)
    s = benchmark(spiel_replay, game, actions)
    assert np.array_equal(spiel_stones(s, size), line(size).game(ENDGAME[size]).to_numpy())


# -- copy --------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_copy_ikeda(benchmark: Any, size: int) -> None:
    """`Game.copy()` of the mid-game position."""
    group(benchmark, "copy", size)
    g = line(size).game(MIDGAME[size])
    c = benchmark(g.copy)
    assert c is not g
    assert c.move_indices == g.move_indices
    assert stone_counts(c.to_numpy()) == EXPECTED[size]["midgame_stones"]
    c.play("pass")
    assert len(g.move_indices) == MIDGAME[size]  # independent of the original


@pytest.mark.parametrize("size", SIZES)
def test_copy_pyspiel(benchmark: Any, size: int) -> None:
    """`state.clone()` of the mid-game position."""
    group(benchmark, "copy", size)
    s = spiel_state(size, MIDGAME[size])
    c = benchmark(s.clone)
    assert c is not s
    assert c.history() == s.history()
    assert stone_counts(spiel_stones(c, size)) == EXPECTED[size]["midgame_stones"]
    c.apply_action(size * size)
    assert s.move_number() == MIDGAME[size]


# -- legal moves -------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_legal_mask_ikeda(benchmark: Any, size: int) -> None:
    """`Game.legal_mask()` (numpy bool, pass last) at the mid-game position."""
    group(benchmark, "legal_mask", size)
    g = line(size).game(MIDGAME[size])
    mask = benchmark(g.legal_mask)
    assert mask.shape == (size * size + 1,) and mask.dtype == np.bool_
    assert mask[-1]
    assert int(mask.sum()) == EXPECTED[size]["midgame_legal"] + 1


@pytest.mark.parametrize("size", SIZES)
def test_legal_mask_pyspiel(benchmark: Any, size: int) -> None:
    """`state.legal_actions_mask()` (list of 0/1, pass last) at the mid-game position."""
    group(benchmark, "legal_mask", size)
    s = spiel_state(size, MIDGAME[size])
    mask = benchmark(s.legal_actions_mask)
    assert len(mask) == size * size + 1
    assert mask[-1]
    assert sum(mask) == EXPECTED[size]["midgame_legal"] + 1


@pytest.mark.parametrize("size", SIZES)
def test_legal_moves_ikeda(benchmark: Any, size: int) -> None:
    """`Game.legal_moves()` (GTP vertices, "pass" last) at the mid-game position."""
    group(benchmark, "legal_moves", size)
    g = line(size).game(MIDGAME[size])
    moves = benchmark(g.legal_moves)
    assert moves[-1] == "pass"
    assert len(moves) == EXPECTED[size]["midgame_legal"] + 1


@pytest.mark.parametrize("size", SIZES)
def test_legal_moves_pyspiel(benchmark: Any, size: int) -> None:
    """`state.legal_actions()` (action ids, pass last) at the mid-game position."""
    group(benchmark, "legal_moves", size)
    s = spiel_state(size, MIDGAME[size])
    actions = benchmark(s.legal_actions)
    assert actions[-1] == size * size
    assert len(actions) == EXPECTED[size]["midgame_legal"] + 1
    g = line(size).game(MIDGAME[size])
    assert sorted(to_spiel(i, size) for i in g.legal_indices()) == actions[:-1]


# -- score -------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_score_ikeda(benchmark: Any, size: int) -> None:
    """`Game.score()` of a game over after passes."""
    group(benchmark, "score", size)
    g = ikeda_final(size)
    assert g.is_over
    sc = benchmark(g.score)
    black, white, winner = EXPECTED[size]["final"]
    assert (sc.black, sc.white - sc.komi) == (black, white)
    assert sc.winner == winner


@pytest.mark.parametrize("size", SIZES)
def test_score_pyspiel(benchmark: Any, size: int) -> None:
    """`state.returns()` of a terminal state (same board as the ikeda one)."""
    group(benchmark, "score", size)
    s = spiel_final(size)
    assert s.is_terminal()
    assert np.array_equal(spiel_stones(s, size), ikeda_final(size).to_numpy())
    returns = benchmark(s.returns)
    winner = EXPECTED[size]["final"][2]
    assert list(returns) == ([1.0, -1.0] if winner == "B" else [-1.0, 1.0])


# -- a random game driven from Python ----------------------------------------------------

RANDOM_DOC = """A uniformly random game driven from Python through the fastest public API,
    choosing among the legal non-pass moves and passing only when there is none, capped
    at 2*w*h moves. Round k of either engine uses ``random.Random(SEED + k)``; the games
    differ between engines (each lists its moves in its own order) but are drawn from
    the same distribution. ``extra_info`` holds the moves played and moves per second."""

RANDOM_ROUNDS = {9: 60, 19: 12}


def _ikeda_random_game(g: ikeda.Game, rng: random.Random, cap: int) -> int:
    legal, play, choice, pass_ = g.legal_indices, g.play, rng.choice, g.width * g.height
    n = 0
    while n < cap:
        moves = legal()
        if moves:
            play(choice(moves))
        elif g.is_over:
            break
        else:
            play(pass_)
        n += 1
    return n


def _spiel_random_game(s: Any, rng: random.Random, cap: int) -> int:
    legal, apply, choice = s.legal_actions, s.apply_action, rng.choice
    n = 0
    while n < cap:
        actions = legal()
        if len(actions) > 1:
            actions.pop()  # the pass, always last
            apply(choice(actions))
        elif actions:
            apply(actions[0])
        else:
            break  # terminal
        n += 1
    return n


def _record(benchmark: Any, counts: list[int], size: int) -> None:
    cap = 2 * size * size
    assert counts and all(0 < n <= cap for n in counts)
    assert sum(counts) / len(counts) > size * size  # games run well past a full board
    benchmark.extra_info["games"] = len(counts)
    benchmark.extra_info["moves"] = sum(counts)
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        benchmark.extra_info["moves_per_s"] = round(sum(counts) / stats.stats.total)


@pytest.mark.parametrize("size", SIZES)
def test_random_game_ikeda(benchmark: Any, size: int) -> None:
    group(benchmark, "random_game", size)
    cap = 2 * size * size
    seeds = iter(range(SEED, SEED + 10**6))
    counts: list[int] = []
    finals: list[ikeda.Game] = []

    def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
        g = ikeda.Game(size, komi=KOMI)
        finals.append(g)
        return (g, random.Random(next(seeds)), cap), {}

    def run(g: ikeda.Game, rng: random.Random, cap: int) -> int:
        n = _ikeda_random_game(g, rng, cap)
        counts.append(n)
        return n

    benchmark.pedantic(run, setup=setup, rounds=RANDOM_ROUNDS[size])
    for g, n in zip(finals, counts):
        assert len(g.move_indices) == n
        assert n == cap or g.is_over
    _record(benchmark, counts, size)


test_random_game_ikeda.__doc__ = RANDOM_DOC


@pytest.mark.parametrize("size", SIZES)
def test_random_game_pyspiel(benchmark: Any, size: int) -> None:
    group(benchmark, "random_game", size)
    game = spiel_game(size)
    cap = 2 * size * size
    seeds = iter(range(SEED, SEED + 10**6))
    counts: list[int] = []
    finals: list[Any] = []

    def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
        s = game.new_initial_state()
        finals.append(s)
        return (s, random.Random(next(seeds)), cap), {}

    def run(s: Any, rng: random.Random, cap: int) -> int:
        n = _spiel_random_game(s, rng, cap)
        counts.append(n)
        return n

    benchmark.pedantic(run, setup=setup, rounds=RANDOM_ROUNDS[size])
    for s, n in zip(finals, counts):
        assert s.move_number() == n
        assert n == cap or s.is_terminal()
    _record(benchmark, counts, size)


test_random_game_pyspiel.__doc__ = RANDOM_DOC
