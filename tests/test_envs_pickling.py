"""Pickling of `ikeda.Game` and `ikeda.Batch` (what multiprocessing vector envs send
between processes): the state after a round trip is the state before, superko history
included, and both go on the same way."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

import ikeda


def random_game(size: int, rules: str, seed: int, moves: int, **kwargs: object) -> ikeda.Game:
    g, rng = ikeda.Game(size, rules=rules, **kwargs), random.Random(seed)  # type: ignore[arg-type]
    for _ in range(moves):
        if g.is_over:
            break
        legal = g.legal_indices()
        g.play(rng.choice(legal) if legal and rng.random() > 0.05 else "pass")
    return g


@pytest.mark.parametrize("rules", ["area3", "territory1", "tromp-taylor", "area3:ko=simple-ko"])
def test_a_pickled_game_is_the_same_game_and_goes_on_the_same_way(rules: str) -> None:
    for seed in range(6):
        g = random_game(5, rules, seed, 40 + 10 * seed, komi=0.5)
        h = pickle.loads(pickle.dumps(g))
        assert h.moves == g.moves and h.to_move == g.to_move and h.is_over == g.is_over
        assert h.first_passer == g.first_passer and h.preliminary_end == g.preliminary_end
        assert str(h.score()) == str(g.score())
        rng = random.Random(seed)
        while not g.is_over:
            # The superko history came back too: every point has the same answer.
            assert [g.illegal_reason(i) for i in range(26)] == [h.illegal_reason(i) for i in range(26)]
            legal = g.legal_indices()
            m = rng.choice(legal) if legal and rng.random() > 0.1 else "pass"
            g.play(m)
            h.play(m)
        assert h.result == g.result


def test_a_pickled_handicap_game_keeps_its_setup_and_resignation() -> None:
    g = ikeda.Game(9, handicap=3, komi=0.5)
    g.play("E5")
    g.resign()
    h = pickle.loads(pickle.dumps(g))
    assert (h.setup, h.handicap, h.first_color, h.resigned, h.result) == (g.setup, 3, "W", "B", "W+R")


def test_a_pickled_batch_has_the_same_games() -> None:
    b = ikeda.Batch(6, 5, komi=np.array([0.5, 1.5, 2.5, 3.5, 4.5, 5.5]), seed=3)
    b.step(np.array([12, 0, 1, 2, 3, 25]))
    b.playout(max_moves=15)
    b.step(np.where(b.is_over, 25, b.sample()))
    c = pickle.loads(pickle.dumps(b))
    for name in ("boards", "scores", "legal_mask", "ownership"):
        assert np.array_equal(getattr(c, name)(), getattr(b, name)()), name
    for name in ("is_over", "to_move", "first_passer", "lengths", "komi"):
        assert np.array_equal(getattr(c, name), getattr(b, name)), name
    assert np.array_equal(c.features(4), b.features(4))
    # The same moves from here make the same games.
    for _ in range(30):
        a = b.sample()
        b.step(a)
        c.step(a)
    assert np.array_equal(c.boards(), b.boards()) and np.array_equal(c.legal_mask(), b.legal_mask())


def test_a_pickled_batch_draws_what_the_original_draws() -> None:
    """The random streams travel with the batch: after a round trip, `sample` (uniform
    and by a policy) and `playout` draw exactly what the original draws, also after
    resets (whose new streams count the resets) and for games a playout's cap stopped."""
    b = ikeda.Batch(16, 5, seed=9)
    for _ in range(3):
        b.step(b.sample())
    b.reset([0, 5])
    b.playout(max_moves=6)  # some games stopped by this cap: capped, going on
    b.step(b.sample())
    assert b.capped.any()
    c = pickle.loads(pickle.dumps(b))
    assert np.array_equal(c.capped, b.capped) and np.array_equal(c.is_over, b.is_over)
    fresh = ikeda.Batch(16, 5, seed=9)
    for game in np.flatnonzero(~b.is_over):
        fresh.set_game(int(game), b.game(int(game)))
    policy = np.random.default_rng(0).random((16, 26)).astype(np.float32)
    drawn = b.sample(policy)
    assert np.array_equal(c.sample(policy), drawn)
    assert not np.array_equal(fresh.sample(policy), drawn), "the streams are not the seed's"
    for round in range(40):
        a = b.sample()
        assert np.array_equal(c.sample(), a), round
        b.step(a)
        c.step(a)
        if round % 10 == 9:
            b.reset(b.is_over)
            c.reset(c.is_over)
    b.playout()
    c.playout()
    assert np.array_equal(c.boards(), b.boards()) and np.array_equal(c.lengths, b.lengths)


def test_games_copy_out_of_and_into_a_batch() -> None:
    b = ikeda.Batch(3, 5, komi=0.5, seed=4)
    b.playout(max_moves=20)
    g = b.game(1)
    assert np.array_equal(g.to_numpy(), b.boards()[1]) and len(g.moves) == b.lengths[1]
    assert g.legal_mask().tolist() == b.legal_mask()[1].tolist()
    g.play(g.legal_indices()[0])
    b.set_game(2, g)
    assert np.array_equal(b.boards()[2], g.to_numpy()) and b.lengths[2] == len(g.moves)
    assert b.legal_mask()[2].tolist() == g.legal_mask().tolist()
    assert b.game(2).moves == g.moves
    with pytest.raises(ikeda.ArgumentError):
        b.set_game(0, ikeda.Game(7))


def test_games_start_from_a_handicap_position() -> None:
    start = ikeda.Game(9, handicap=2)
    b = ikeda.Batch(4, 9, start=start)
    assert (b.to_move == 2).all() and (b.boards() == 1).sum() == 8
    b.step(np.full(4, 0))
    b.reset([0])
    assert (b.boards()[0] == 1).sum() == 2 and b.to_move[0] == 2
    g = b.game(0)
    assert sorted(g.setup["B"]) == sorted(start.setup["B"]) and g.first_color == "W"
