"""`ikeda.Batch` against the Python `Game`: the same legal masks, ends, scores and input
planes on random games, all-or-nothing steps, and playouts that are the native random
games of the same streams whatever the thread count."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import ikeda
from ikeda import _core

PRESETS = ["area3", "area2", "territory1", "tromp-taylor", "area3:ko=simple-ko"]
MASK64 = 2**64 - 1


def game_seed(seed: int, index: int) -> int:
    """ikeda-core's per-game seed derivation (`playout::game_seed`)."""
    return seed ^ (((index + 1) * 0x9E3779B97F4A7C15) & MASK64)


def stream_seed(seed: int, game: int, resets: int = 0) -> int:
    """The seed of a batch game's random stream (`batch::stream_seed`)."""
    return game_seed(game_seed(seed, game), resets)


def games_for(batch: ikeda.Batch) -> list[ikeda.Game]:
    w, h = batch.size
    return [ikeda.Game(width=w, height=h, rules=batch.rules) for _ in range(len(batch))]


def past_boards(game: ikeda.Game, k: int) -> list[np.ndarray]:
    """The current configuration and the ones before each of the last plays, newest
    first, by replaying the record."""
    replay = ikeda.Game(width=game.width, height=game.height, rules=game.rules)
    boards = [replay.to_numpy()]
    for m in game.move_indices:
        replay.play(m)
        if m != game.width * game.height:
            boards.append(replay.to_numpy())
    return boards[::-1][:k]


def expected_features(game: ikeda.Game, k: int) -> np.ndarray:
    own = 1 if game.to_move == "B" else 2
    theirs = 3 - own
    planes = np.zeros((2 * k + 4, game.height, game.width), dtype=np.float32)
    for j, b in enumerate(past_boards(game, k)):
        planes[j] = b == own
        planes[k + j] = b == theirs
    first = game.first_passer
    probe = game.copy()
    ends = False
    if not game.is_over:
        probe.play("pass")
        ends = probe.is_over
    flags = [own == 1, first == game.to_move, first is not None and first != game.to_move, ends]
    for i, flag in enumerate(flags):
        planes[2 * k + i] = float(flag)
    return planes


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(1, 4),
    w=st.integers(2, 6),
    h=st.integers(2, 6),
    rules=st.sampled_from(PRESETS),
    pass_rate=st.sampled_from([0.0, 0.1, 0.4]),
    seed=st.integers(0, 2**32),
)
def test_batch_matches_games(n: int, w: int, h: int, rules: str, pass_rate: float, seed: int) -> None:
    rng = random.Random(seed)
    batch = ikeda.Batch(n, (w, h), rules=rules, komi=2.5, seed=seed, threads=2, max_moves=2**31)
    games = games_for(batch)
    history = 1 + seed % 3
    for step in range(3 * w * h):
        mask = batch.legal_mask()
        assert mask.shape == (n, w * h + 1)
        actions = []
        for i, g in enumerate(games):
            if g.is_over:
                assert mask[i].tolist() == [False] * (w * h) + [True]
                actions.append(rng.randrange(w * h + 1))  # ignored
                continue
            assert mask[i].tolist() == g.legal_mask().tolist()
            legal = np.flatnonzero(mask[i][:-1])
            a = w * h if rng.random() < pass_rate or not len(legal) else int(rng.choice(legal))
            g.play(a)
            actions.append(a)
        batch.step(np.array(actions))
        assert batch.is_over.tolist() == [g.is_over for g in games]
        assert batch.to_move.tolist() == [1 if g.to_move == "B" else 2 for g in games]
        assert batch.lengths.tolist() == [len(g.moves) for g in games]
        assert np.array_equal(batch.boards(), np.stack([g.to_numpy() for g in games]))
        assert batch.scores().tolist() == [g.score().margin for g in games]
        # Asked for every step (the batch keeps the recent configurations once asked),
        # checked now and then against the replayed records; deeper as the game goes on.
        k = history + step // 12
        f = batch.features(k)
        if step % 7 == 3:
            for i, g in enumerate(games):
                assert np.array_equal(f[i], expected_features(g, k)), (step, i)
        if batch.is_over.all():
            break
    f = batch.features(history)
    assert f.shape == (n, 2 * history + 4, h, w) and f.dtype == np.float32
    for i, g in enumerate(games):
        assert np.array_equal(f[i], expected_features(g, history)), i


@settings(max_examples=30, deadline=None)
@given(
    n=st.integers(1, 6),
    w=st.integers(2, 5),
    h=st.integers(2, 5),
    rules=st.sampled_from(PRESETS),
    pass_rate=st.sampled_from([0.0, 0.02, 0.2]),
    seed=st.integers(0, 2**32),
)
def test_kept_masks_equal_the_games_masks_over_long_lines(n: int, w: int, h: int, rules: str, pass_rate: float, seed: int) -> None:
    bans = kept_masks_against_games(n, w, h, rules, pass_rate, seed)
    event(f"ko or superko bans seen: {'none' if not bans else 'some'}")


@pytest.mark.parametrize("rules", PRESETS)
def test_kept_masks_see_ko_and_superko_bans(rules: str) -> None:
    assert kept_masks_against_games(4, 4, 4, rules, 0.0, 7) > 0


def kept_masks_against_games(n: int, w: int, h: int, rules: str, pass_rate: float, seed: int) -> int:
    """The batch keeps each game's mask from step to step and updates it from the move
    (rust/ikeda-core/src/batch_masks.rs). Over long random lines with eye filling, so
    that captures, ko and superko bans come up all the time, with games reset here and
    there, the masks that `step(actions, mask=buf)` writes equal each game's mask
    computed from scratch by `ikeda.Game`. Returns how many ko and superko bans the
    masks showed."""
    rng = random.Random(seed)
    batch = ikeda.Batch(n, (w, h), rules=rules, seed=seed, threads=2, max_moves=2**31)  # as long as the games
    games = games_for(batch)
    mask = batch.legal_mask(out=np.zeros((n, w * h + 1), dtype=np.bool_))
    bans = 0
    for _ in range(15 * w * h):
        actions = []
        for i, g in enumerate(games):
            if g.is_over:
                assert mask[i].tolist() == [False] * (w * h) + [True]
                actions.append(w * h)
                continue
            expected = g.legal_mask()
            assert mask[i].tolist() == expected.tolist()
            bans += sum(g.illegal_reason(int(p)) in ("superko", "ko") for p in np.flatnonzero(~expected[:-1]))
            legal = np.flatnonzero(mask[i][:-1])
            a = w * h if rng.random() < pass_rate or not len(legal) else int(rng.choice(legal))
            g.play(a)
            actions.append(a)
        batch.step(np.array(actions), mask=mask)
        done = [i for i, g in enumerate(games) if g.is_over or rng.random() < 0.01]
        if done and (len(done) > n // 2 or rng.random() < 0.2):
            batch.reset(done)
            for i in done:
                games[i] = ikeda.Game(width=w, height=h, rules=batch.rules)
            batch.legal_mask(out=mask)
    assert np.array_equal(batch.boards(), np.stack([g.to_numpy() for g in games]))
    return bans


def test_a_refused_step_changes_no_game() -> None:
    batch = ikeda.Batch(3, 5, seed=2)
    batch.step(np.array([12, 6, 25]))
    before = (batch.boards(), batch.lengths, batch.legal_mask(), batch.to_move)
    with pytest.raises(ikeda.IllegalMoveError) as err:
        batch.step(np.array([12, 1, 2]))  # 12 is taken in game 0
    assert err.value.game == 0 and err.value.reason == "occupied" and "game 0" in str(err.value)
    with pytest.raises(ikeda.IllegalMoveError) as err:
        batch.step(np.array([0, 6, 1]))
    assert err.value.game == 1 and err.value.move == "B4"
    with pytest.raises(ikeda.InvalidMoveError) as err:
        batch.step(np.array([0, 1, 26]))
    assert err.value.game == 2 and err.value.move == 26
    with pytest.raises(ikeda.InvalidMoveError):
        batch.step(np.array([-1, 1, 2]))
    with pytest.raises(ikeda.InvalidMoveError):
        batch.step(np.array([0, 1]))
    with pytest.raises(ikeda.InvalidMoveError):
        batch.step(np.array([[0, 1, 2]]))
    with pytest.raises(ikeda.InvalidMoveError):
        batch.step(np.array([0.0, 1.0, 2.0]))
    with pytest.raises(ikeda.InvalidMoveError):
        batch.step(np.array([0, 1, 2**64 - 1], dtype=np.uint64))
    after = (batch.boards(), batch.lengths, batch.legal_mask(), batch.to_move)
    for x, y in zip(before, after):
        assert np.array_equal(x, y)
    batch.step(np.array([0, 1, 2], dtype=np.int32))  # any integer dtype
    assert batch.lengths.tolist() == [2, 2, 2]


def test_suicide_and_superko_are_refused_with_their_reason() -> None:
    batch = ikeda.Batch(2, (4, 3), seed=0)
    # A ko on 4x3 (the sequence of the kernel's superko test), then the retake.
    for v in ["B3", "C3", "A2", "D2", "B1", "C1", "C2", "B2"]:
        i = ikeda.Game(width=4, height=3).board.index(v)
        batch.step(np.array([i, i]))
    retake = ikeda.Game(width=4, height=3).board.index("C2")
    with pytest.raises(ikeda.IllegalMoveError) as err:
        batch.step(np.array([12, retake]))
    assert (err.value.game, err.value.reason) == (1, "superko")


def test_simple_ko_retake_is_refused_as_ko() -> None:
    # the same ko under simple ko: the core names the refusal "ko", as Game does
    batch = ikeda.Batch(2, (4, 3), rules="area3:ko=simple-ko", seed=0)
    game = ikeda.Game(width=4, height=3, rules="area3:ko=simple-ko")
    for v in ["B3", "C3", "A2", "D2", "B1", "C1", "C2", "B2"]:
        i = game.board.index(v)
        batch.step(np.array([i, i]))
        game.play(v)
    retake = game.board.index("C2")
    assert game.illegal_reason("C2") == "ko" and not batch.legal_mask()[1, retake]
    with pytest.raises(ikeda.IllegalMoveError) as err:
        batch.step(np.array([12, retake]))
    assert (err.value.game, err.value.reason) == (1, "ko")


def test_finished_games_ignore_actions() -> None:
    batch = ikeda.Batch(2, 3, seed=0)
    passes = np.array([9, 9])
    for _ in range(3):
        batch.step(passes)  # pass, pass, pass: Rule 6 ends both games
    assert batch.is_over.all()
    board = batch.boards()
    batch.step(np.array([0, 4]))  # ignored, even though 0 and 4 are empty
    assert np.array_equal(batch.boards(), board) and batch.lengths.tolist() == [3, 3]
    g = ikeda.Game(3)
    for _ in range(3):
        g.play("pass")
    assert batch.scores().tolist() == [g.score().margin] * 2


@pytest.mark.parametrize("rules", PRESETS)
def test_playouts_are_the_native_random_games(rules: str) -> None:
    n, size, seed = 12, 7, 99
    batch = ikeda.Batch(n, size, rules=rules, seed=seed)
    assert batch.playout() == 0
    assert batch.is_over.all() and not batch.capped.any()
    for i in range(n):
        moves, ended, first, b2, w2 = _core.random_game(size, size, batch.rules, stream_seed(seed, i))
        assert ended and len(moves) == batch.lengths[i]
        assert batch.scores()[i] == (b2 - w2) / 2
        g = ikeda.Game(size, rules=batch.rules)
        for m in moves:
            g.play(m)
        assert np.array_equal(g.to_numpy(), batch.boards()[i])


def test_playouts_do_not_depend_on_threads_and_resets_are_reproducible() -> None:
    def run(threads: int) -> tuple[list[float], list[int]]:
        b = ikeda.Batch(40, 9, seed=5, threads=threads)
        b.step(np.full(40, 40))
        b.playout()
        first = (b.scores().tolist(), b.lengths.tolist())
        b.reset(np.arange(40) % 2 == 0)
        assert b.lengths.tolist()[:4] == [0, first[1][1], 0, first[1][3]]
        b.playout()
        return first[0] + b.scores().tolist(), first[1] + b.lengths.tolist()

    one, two = run(1), run(2)
    assert one == two
    again = ikeda.Batch(40, 9, seed=6)
    again.step(np.full(40, 40))
    again.playout()
    assert again.scores().tolist() != one[0][:40]


def test_reset_forms() -> None:
    b = ikeda.Batch(3, 5, seed=1)
    b.step(np.array([0, 1, 2]))
    b.reset([2])
    assert b.lengths.tolist() == [1, 1, 0]
    b.reset()
    assert b.lengths.tolist() == [0, 0, 0] and not b.boards().any()
    for bad in ([3], [True, False], [[0]], [0.5]):
        with pytest.raises(ikeda.IkedaError):
            b.reset(bad)


def test_move_cap_is_reported() -> None:
    b = ikeda.Batch(4, 9, seed=3)
    assert b.playout(max_moves=10) == 4
    assert b.capped.all() and not b.is_over.any() and b.lengths.tolist() == [10] * 4
    assert b.playout() == 0 and b.is_over.all()
    assert b.capped.all(), "a cap hit stays reported until the game is reset"


def test_bad_arguments() -> None:
    for kwargs in ({"n": -1}, {"n": 2, "seed": -1}, {"n": 2, "threads": -1}):
        with pytest.raises(ikeda.IkedaError):
            ikeda.Batch(**kwargs)  # type: ignore[arg-type]
    with pytest.raises(ikeda.InvalidPositionError):
        ikeda.Batch(2, 26)
    with pytest.raises(ikeda.IkedaError):
        ikeda.Batch(2, 9, komi=0.3)
    b = ikeda.Batch(2, 9)
    for h in (0, 65, 2.0):
        with pytest.raises(ikeda.IkedaError):
            b.features(h)  # type: ignore[arg-type]
    with pytest.raises(ikeda.IkedaError):
        b.playout(pass_probability=1.5)


def test_empty_batch_and_large_boards() -> None:
    empty = ikeda.Batch(0, 9)
    assert empty.legal_mask().shape == (0, 82) and empty.features(2).shape == (0, 8, 9, 9)
    empty.step(np.zeros(0, dtype=np.int64))
    big = ikeda.Batch(2, (25, 21), seed=4)
    assert big.playout() == 0
    assert big.boards().shape == (2, 21, 25) and big.features().shape == (2, 20, 21, 25)


def test_masks_and_features_into_caller_buffers_equal_the_fresh_ones() -> None:
    b = ikeda.Batch(8, 5, seed=3)
    mask = np.zeros((8, 26), dtype=np.bool_)
    planes = np.full((8, 2 * 2 + 4, 5, 5), 7.0, dtype=np.float32)
    assert b.legal_mask(out=mask) is mask and np.array_equal(mask, b.legal_mask())
    rng = np.random.default_rng(1)
    for _ in range(60):
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        b.step(actions, mask=mask)  # the new masks come back in the same call
        assert np.array_equal(mask, b.legal_mask())
        assert b.features(2, out=planes) is planes and np.array_equal(planes, b.features(2))


def test_a_refused_step_leaves_the_callers_mask_as_it_was() -> None:
    b = ikeda.Batch(2, 5, seed=3)
    b.step(np.array([12, 12]))
    mask = np.ones((2, 26), dtype=np.bool_)
    with pytest.raises(ikeda.IllegalMoveError):
        b.step(np.array([0, 12]), mask=mask)  # 12 is occupied in game 1
    assert mask.all()


@pytest.mark.parametrize(
    "out",
    [np.zeros((2, 25), dtype=np.bool_), np.zeros((2, 26), dtype=np.int8), np.zeros((26, 2), dtype=np.bool_).T, [[True] * 26] * 2],
)
def test_caller_buffers_of_the_wrong_kind_are_refused(out: object) -> None:
    b = ikeda.Batch(2, 5)
    with pytest.raises(ikeda.IkedaError, match="out must"):
        b.legal_mask(out=out)  # type: ignore[arg-type]
    with pytest.raises(ikeda.IkedaError, match="out must"):
        b.step(np.array([0, 0]), mask=out)  # type: ignore[arg-type]
    assert b.lengths.tolist() == [0, 0]


def test_sample_is_uniform_among_legal_plays_and_passes_only_without_one() -> None:
    b = ikeda.Batch(4000, 3, seed=5)
    b.step(np.full(4000, 4))  # Black E5... the centre of 3x3 in every game
    mask = b.legal_mask()
    actions = b.sample()
    assert mask[np.arange(4000), actions].all() and (actions != 9).all()
    counts = np.bincount(actions, minlength=10)[:9]
    legal = np.flatnonzero(mask[0][:-1])
    assert set(np.flatnonzero(counts)) == set(legal.tolist())
    expected = 4000 / len(legal)
    chi2 = float(((counts[legal] - expected) ** 2 / expected).sum())
    assert chi2 < 26.1, chi2  # 7 degrees of freedom, p = 0.0005
    # A game with no legal play gets the pass: a 1x1 board allows none.
    assert ikeda.Batch(3, (1, 1)).sample().tolist() == [1, 1, 1]


def test_sample_follows_weights_and_logits_over_legal_actions_only() -> None:
    n = 3000
    b = ikeda.Batch(n, 3, seed=6)
    b.step(np.full(n, 0))  # Black A3 everywhere: action 0 is now illegal
    w = np.zeros((n, 10), dtype=np.float32)
    w[:, 0] = 1e6  # illegal: never drawn
    w[:, 4] = 1.0
    w[:, 8] = 3.0
    a = b.sample(w)
    assert set(a.tolist()) <= {4, 8}
    share = float((a == 8).mean())
    assert abs(share - 0.75) < 0.04, share
    logits = np.full((n, 10), -np.inf, dtype=np.float32)
    logits[:, 9] = 0.0  # the pass
    logits[:, 2] = np.log(3.0)
    a = b.sample(logits, logits=True)
    assert set(a.tolist()) <= {2, 9}
    assert abs(float((a == 2).mean()) - 0.75) < 0.04
    # Probabilities need not be normalized, and any float dtype is read.
    a = b.sample((w / 7.0).astype(np.float64))
    assert set(a.tolist()) <= {4, 8}


def test_sample_refuses_a_policy_with_no_legal_weight_and_draws_nothing() -> None:
    b = ikeda.Batch(3, 3, seed=6)
    b.step(np.array([0, 0, 0]))  # action 0 now illegal everywhere
    w = np.ones((3, 10), dtype=np.float32)
    w[1, 1:] = 0.0  # game 1: weight on the illegal play only
    twin = ikeda.Batch(3, 3, seed=6)
    twin.step(np.array([0, 0, 0]))
    with pytest.raises(ikeda.ArgumentError, match="game 1: the policy gives no weight to any legal action"):
        b.sample(w)
    with pytest.raises(ikeda.ArgumentError, match="game 1"):
        b.sample(np.where(w > 0, 0.0, -np.inf).astype(np.float32), logits=True)
    assert b.sample().tolist() == twin.sample().tolist(), "no stream moved"
    # A game whose only legal action is the pass gets it, whatever its weight.
    assert ikeda.Batch(2, (1, 1)).sample(np.zeros((2, 2))).tolist() == [1, 1]
    with pytest.raises(ikeda.ArgumentError, match="policy must be a float array"):
        b.sample(np.ones((3, 10), dtype=bool))


def test_sample_is_reproducible_and_independent_of_threads() -> None:
    def run(threads: int) -> list[int]:
        b = ikeda.Batch(64, 9, seed=7, threads=threads)
        out = np.empty(64, dtype=np.int64)
        seen = []
        for _ in range(30):
            assert b.sample(out=out) is out
            seen.extend(out.tolist())
            b.step(out)
        return seen

    assert run(1) == run(2)


@pytest.mark.parametrize("value", [np.nan, np.inf, -1.0])
def test_bad_policy_values_are_refused_and_draw_nothing(value: float) -> None:
    b = ikeda.Batch(4, 5, seed=8)
    w = np.ones((4, 26), dtype=np.float32)
    w[2, 7] = value
    with pytest.raises(ikeda.ArgumentError, match="game 2"):
        b.sample(w)
    twin = ikeda.Batch(4, 5, seed=8)
    if value != -1.0:
        assert b.sample().tolist() == twin.sample().tolist(), "no stream moved"
    if value != -1.0:
        with pytest.raises(ikeda.ArgumentError, match="game 2"):
            b.sample(w, logits=True)
    else:
        b.sample(w, logits=True)  # a negative logit is an ordinary one
    with pytest.raises(ikeda.ArgumentError, match="policy must"):
        b.sample(np.ones((4, 25)))
    with pytest.raises(ikeda.ArgumentError, match="out must"):
        b.sample(out=np.empty(4, dtype=np.int32))


def test_per_game_komi_shifts_each_games_score() -> None:
    komi = np.array([0.0, 6.5, -3.0, 7.5])
    b = ikeda.Batch(4, 5, komi=komi, seed=4)
    even = ikeda.Batch(4, 5, komi=0.0, seed=4)
    for batch in (b, even):
        batch.step(np.full(4, 12))
        batch.playout()
    assert np.array_equal(b.boards(), even.boards())
    assert np.array_equal(b.scores(), even.scores() - komi)
    assert np.array_equal(b.komi, komi)
    chosen = b.scores(np.array([False, True, False, True]))
    assert chosen[0] == 0 and chosen[2] == 0 and chosen[[1, 3]].tolist() == b.scores()[[1, 3]].tolist()
    for bad in ([0.3, 0, 0, 0], [0, 0, 0], [np.nan, 0, 0, 0]):
        with pytest.raises(ikeda.ArgumentError):
            ikeda.Batch(4, 5, komi=bad)


def test_the_batch_move_cap_ends_games_as_capped_with_pass_only_masks() -> None:
    b = ikeda.Batch(3, 5, seed=2, max_moves=4)
    for t in range(4):
        assert not b.is_over.any()
        b.step(np.array([t, t + 5, t + 10]))
    assert b.is_over.all() and b.capped.all() and b.lengths.tolist() == [4, 4, 4]
    assert b.legal_mask()[:, :-1].sum() == 0
    assert b.outcomes().tolist() == [0, 0, 0], "a capped game has no result"
    b.reset()
    b.playout()
    assert b.lengths.max() <= 4 and b.is_over.all()


def test_simple_ko_batches_are_capped_by_default_and_superko_ones_not() -> None:
    assert ikeda.Batch(2, 5, rules="area3:ko=simple-ko").max_moves == 4 * 25 + 16
    assert ikeda.Batch(2, 5).max_moves is None
    b = ikeda.Batch(8, 3, rules="area3:ko=simple-ko", seed=1)
    b.playout(max_moves=10**6)
    assert b.is_over.all() and b.lengths.max() <= 4 * 9 + 16


def test_ownership_and_outcomes_are_the_games_counts() -> None:
    b = ikeda.Batch(6, 5, komi=0.5, seed=8)
    b.playout()
    own = b.ownership()
    for i, board in enumerate(b.boards()):
        g = ikeda.Game(5, komi=0.5, setup={
            "B": [int(x) for x in np.flatnonzero(board.ravel() == 1)],
            "W": [int(x) for x in np.flatnonzero(board.ravel() == 2)],
        })
        assert np.array_equal(own[i], g.ownership())
    assert np.array_equal(b.outcomes(), np.sign(b.scores()).astype(np.int8))
    some = b.ownership([1, 4])
    assert np.array_equal(some[[1, 4]], own[[1, 4]]) and not some[[0, 2, 3, 5]].any()


def test_channels_last_planes_are_the_transposed_planes() -> None:
    b = ikeda.Batch(3, (5, 4), seed=1)
    b.step(np.array([0, 3, 19]))
    planes = b.features(2)
    last = b.features(2, channels_last=True)
    assert last.shape == (3, 4, 5, 8) and np.array_equal(last, planes.transpose(0, 2, 3, 1))
    out = np.zeros((3, 4, 5, 8), dtype=np.float32)
    assert b.features(2, out, channels_last=True) is out and np.array_equal(out, last)
