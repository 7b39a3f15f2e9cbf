"""Stateful tests: hypothesis drives one ``Game`` (plays, refused plays, undos, copies)
and one ``Batch`` (steps, refused steps, resets) against the pure-Python reference
(tests/reference.py), checking the whole visible state after every step. The example
budget is small for CI; ``IKEDA_HYPOTHESIS_EXAMPLES`` raises it for a longer run."""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import ikeda
from reference import RefGame, vertex_name
from test_differential import assert_same_legality, assert_same_state, snapshot

EXAMPLES = int(os.environ.get("IKEDA_HYPOTHESIS_EXAMPLES", "15"))
STATEFUL = settings(max_examples=EXAMPLES, stateful_step_count=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


class GameAgainstReference(RuleBasedStateMachine):
    """One Game and one RefGame, moved together; a copy is kept and must not move."""

    game: ikeda.Game
    ref: RefGame

    @initialize(w=st.integers(1, 5), h=st.integers(1, 5))
    def start(self, w: int, h: int) -> None:
        self.game, self.ref = ikeda.Game(width=w, height=h, komi=0.5), RefGame(w, h, komi=0.5)
        self.kept: list[tuple[ikeda.Game, tuple]] = []

    @precondition(lambda self: not self.ref.over)
    @rule(data=st.data())
    def play_a_legal_move(self, data: st.DataObject) -> None:
        p = data.draw(st.sampled_from(self.ref.legal_moves()))
        move = data.draw(st.sampled_from([p, vertex_name(p, self.ref.w, self.ref.h), np.int64(p)]))
        self.game.play(move)
        self.ref.play(p)

    @rule(data=st.data())
    def a_refused_move_changes_nothing(self, data: st.DataObject) -> None:
        illegal = [p for p in range(self.ref.pass_move + 1) if not self.ref.is_legal(p)]
        if not illegal:
            return
        p = data.draw(st.sampled_from(illegal))
        before = snapshot(self.game)
        with pytest.raises(ikeda.IllegalMoveError) as info:
            self.game.play(p)
        assert info.value.reason == self.ref.illegal_reason(p)
        assert snapshot(self.game) == before

    @rule(move=st.one_of(st.text(max_size=6), st.integers(-(2**70), 2**70), st.floats(), st.none()))
    def an_unreadable_move_changes_nothing(self, move: object) -> None:
        before = snapshot(self.game)
        try:
            self.game.play(move)  # type: ignore[arg-type]
        except ikeda.IkedaError:
            assert snapshot(self.game) == before
            return
        # It was readable after all: a vertex, "pass" or an index; the reference agrees.
        p = self.ref.to_index(move.strip().lower() if isinstance(move, str) else move)  # type: ignore[arg-type]
        self.ref.play(p)

    @precondition(lambda self: bool(self.ref.moves))
    @rule()
    def undo(self) -> None:
        self.game.undo()
        self.ref.undo()

    @rule()
    def copy(self) -> None:
        self.kept.append((self.game, snapshot(self.game)))
        self.game = self.game.copy()

    @invariant()
    def same_state(self) -> None:
        if hasattr(self, "game"):
            assert_same_state(self.game, self.ref, "stateful")
            assert_same_legality(self.game, self.ref, "stateful")
            for game, seen in self.kept:
                assert snapshot(game) == seen  # a copy moved on; the original did not


class BatchAgainstReference(RuleBasedStateMachine):
    """A Batch of a few games, each mirrored by a RefGame."""

    batch: ikeda.Batch
    refs: list[RefGame]

    @initialize(n=st.integers(1, 4), w=st.integers(2, 5), h=st.integers(2, 5))
    def start(self, n: int, w: int, h: int) -> None:
        self.batch = ikeda.Batch(n, (w, h), komi=0.5, threads=1)
        self.refs = [RefGame(w, h, komi=0.5) for _ in range(n)]
        self.w, self.h = w, h

    @rule(data=st.data())
    def step_legal_actions(self, data: st.DataObject) -> None:
        actions = [data.draw(st.sampled_from(r.legal_moves())) if not r.over else 0 for r in self.refs]
        self.batch.step(np.array(actions))
        for r, a in zip(self.refs, actions):
            if not r.over:
                r.play(a)

    @rule(data=st.data())
    def a_refused_step_changes_nothing(self, data: st.DataObject) -> None:
        live = [i for i, r in enumerate(self.refs) if not r.over and not all(r.legal_mask())]
        if not live:
            return
        game = data.draw(st.sampled_from(live))
        actions = [r.legal_moves()[0] if not r.over else 0 for r in self.refs]
        actions[game] = data.draw(st.sampled_from([p for p, ok in enumerate(self.refs[game].legal_mask()) if not ok]))
        before = (self.batch.boards().tolist(), self.batch.lengths.tolist())
        with pytest.raises(ikeda.IllegalMoveError) as info:
            self.batch.step(np.array(actions))
        assert info.value.game <= game
        assert (self.batch.boards().tolist(), self.batch.lengths.tolist()) == before

    @rule(data=st.data())
    def reset_some(self, data: st.DataObject) -> None:
        which = data.draw(st.lists(st.sampled_from(range(len(self.refs))), max_size=len(self.refs), unique=True))
        self.batch.reset(which)
        for i in which:
            self.refs[i] = RefGame(self.w, self.h, komi=0.5)

    @invariant()
    def same_games(self) -> None:
        if not hasattr(self, "batch"):
            return
        boards, masks = self.batch.boards(), self.batch.legal_mask()
        for i, r in enumerate(self.refs):
            assert boards[i].ravel().tolist() == list(r.board)
            assert int(self.batch.to_move[i]) == r.to_move
            assert bool(self.batch.is_over[i]) == r.over
            assert int(self.batch.lengths[i]) == len(r.moves)
            if not r.over:
                assert masks[i].tolist() == r.legal_mask()


TestGameAgainstReference = GameAgainstReference.TestCase
TestGameAgainstReference.settings = STATEFUL
TestBatchAgainstReference = BatchAgainstReference.TestCase
TestBatchAgainstReference.settings = STATEFUL
