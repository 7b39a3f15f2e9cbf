"""The lockstep engine the environments share: one :class:`ikeda.Batch`, its observation
buffers, rewards, move cap, illegal-move policy and next-step autoreset, in numpy only
(no Gymnasium or PettingZoo import)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..batch import EXTRA_PLANES, Batch
from ..errors import ArgumentError, IllegalMoveError, InvalidMoveError
from ..rules import Rules

#: What an illegal action does: ``"raise"`` refuses the step with the typed error
#: (:class:`ikeda.IllegalMoveError` / :class:`ikeda.InvalidMoveError`, no game changes),
#: ``"lose"`` ends that game with the mover losing (reward -1), as pgx and PettingZoo do.
ILLEGAL_POLICIES = ("raise", "lose")


#: The alignment of the observation buffers: XLA's CPU client takes a host buffer
#: without a copy (``jax.dlpack.from_dlpack``, ``jax.device_put``) only at 64 bytes.
ALIGNMENT = 64


def aligned_zeros(shape: tuple[int, ...], dtype: type) -> npt.NDArray[Any]:
    """A C-contiguous array of zeros whose data starts on an :data:`ALIGNMENT` boundary."""
    size = int(np.prod(shape)) * np.dtype(dtype).itemsize
    raw = np.zeros(size + ALIGNMENT, dtype=np.uint8)
    start = -raw.ctypes.data % ALIGNMENT
    return raw[start : start + size].view(dtype).reshape(shape)


@dataclass
class StepResult:
    """One lockstep step's arrays (owned by the engine; overwritten by the next step)."""

    rewards: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]
    truncated: npt.NDArray[np.bool_]
    ended: npt.NDArray[np.bool_]


class Lockstep:
    """`n` games stepped together with next-step autoreset: a game that ended at one step
    is reset at the next, whose action for it is ignored (its reward 0, not done).

    Rewards are from the point of view of the player who moved: +1 for the move that won
    the game, -1 for the one that lost it (or an illegal move under ``illegal="lose"``),
    0 otherwise (draws, games going on, games truncated by the move cap).
    """

    def __init__(
        self,
        n: int,
        size: int = 9,
        *,
        komi: float | npt.ArrayLike = 7.5,
        rules: Rules | str = "area3",
        history: int = 8,
        max_moves: int | None = None,
        illegal: str = "raise",
        channels_last: bool = False,
        seed: int = 1,
        threads: int = 0,
    ) -> None:
        if illegal not in ILLEGAL_POLICIES:
            raise ArgumentError(f"illegal must be one of {ILLEGAL_POLICIES}, not {illegal!r}")
        w = int(size)
        self.batch = Batch(n, w, rules=rules, komi=komi, seed=seed, threads=threads,
                           max_moves=4 * w * w + 16 if max_moves is None else max_moves)
        self.n, self.size, self.history = n, w, history
        self.actions = w * w + 1
        self.illegal = illegal
        self.channels_last = bool(channels_last)
        self.planes = 2 * history + EXTRA_PLANES
        shape = (n, w, w, self.planes) if self.channels_last else (n, self.planes, w, w)
        self.obs = aligned_zeros(shape, np.float32)
        self.mask = aligned_zeros((n, self.actions), np.bool_)
        self._done = np.zeros(n, dtype=np.bool_)
        self._lost = np.zeros(n, dtype=np.bool_)
        self._rows = np.arange(n)
        self._actions = np.zeros(n, dtype=np.int64)
        self._score = np.zeros(n)
        #: ``(n,)`` int8: whose point of view each observation row is (1 Black, 2 White).
        self.view = np.ones(n, dtype=np.int8)
        self._result = StepResult(
            np.zeros(n, dtype=np.float32), np.zeros(n, dtype=np.bool_),
            np.zeros(n, dtype=np.bool_), np.zeros(n, dtype=np.bool_),
        )

    def observe(self) -> None:
        """Fills the observation and mask buffers from the games as they stand."""
        self.batch.features(self.history, self.obs, channels_last=self.channels_last)
        self.view = self.batch.to_move

    def reset(self, where: npt.NDArray[np.bool_] | None = None) -> None:
        """Back to the start: every game, or those `where` marks."""
        which = np.ones(self.n, dtype=np.bool_) if where is None else np.asarray(where, dtype=np.bool_)
        self.batch.reset(which)
        self._done &= ~which
        self._lost &= ~which
        self.batch.legal_mask(out=self.mask)
        self.observe()

    def step(self, actions: npt.ArrayLike) -> StepResult:
        """Plays one action per game (flat indices, the pass last)."""
        a = np.asarray(actions)
        if a.shape != (self.n,) or a.dtype.kind not in "iu":
            raise InvalidMoveError(f"actions must be {self.n} integers, not {a.dtype} {a.shape}", actions)
        a = a.astype(np.int64)  # a copy: the games being reset or lost get the pass below
        prev = self._done
        pass_ = self.actions - 1
        a[prev] = pass_  # ignored: those games are over, or lost and reset below
        lost = None
        if self.illegal == "lose":
            bad = (a < 0) | (a > pass_)
            ok = ~bad
            bad[ok] = ~self.mask[self._rows[ok], a[ok]]
            bad &= ~prev
            if bad.any():
                lost = bad
                a[bad] = pass_
                kept = self.obs[bad].copy()  # the observation stays that before the move
        mover_black = self.batch.to_move == 1
        try:
            self.batch.step(a, mask=self.mask)
        except (IllegalMoveError, InvalidMoveError):
            raise  # no game changed
        r = self._result
        over = self.batch.is_over
        ended = over & ~prev
        if prev.any():
            self.batch.reset(prev)
            self.batch.legal_mask(out=self.mask)
        if lost is not None:
            ended |= lost
        capped = self.batch.capped & ended
        if lost is not None:
            capped &= ~lost
        r.ended[:] = ended
        np.logical_and(ended, ~capped, out=r.terminated)
        r.truncated[:] = capped
        r.rewards.fill(0.0)
        if ended.any():
            # The counts of the ended games only (a count is a pass over the board).
            self._score = self.batch.scores(ended)
            outcome = np.sign(self._score).astype(np.float32)  # Black's view
            np.copyto(r.rewards, np.where(mover_black, outcome, -outcome), where=r.terminated)
            if lost is not None:
                r.rewards[lost] = -1.0
        view = self.view
        self.observe()
        if lost is not None:
            self.obs[lost] = kept
            self.view[lost] = view[lost]
            self.mask[lost] = False
            self.mask[lost, pass_] = True
        self._done = ended
        self._lost = np.zeros(self.n, dtype=np.bool_) if lost is None else lost
        return r

    def sample(self, policy: npt.ArrayLike | None = None, *, logits: bool = False) -> npt.NDArray[np.int64]:
        """One legal action per game drawn natively by :meth:`ikeda.Batch.sample` (uniform
        among the plays without `policy`; else by its ``(n, size*size + 1)``
        probabilities, weights or logits over the legal actions), into a buffer the next
        call overwrites. A game being reset gets the pass (its action is ignored)."""
        return self.batch.sample(policy, logits=logits, out=self._actions)

    def final_infos(self, ended: npt.NDArray[np.bool_]) -> dict[str, npt.NDArray[np.generic]]:
        """The counts of the games that just ended: ``score`` (Black minus White, komi
        included, every stone on the board alive), ``ownership`` ((n, h, w), 0 nobody, 1
        Black, 2 White), ``winner`` (1 Black, 2 White, 0 none: a draw or a truncated
        game), ``illegal`` (the game was lost by an illegal move); each with its Gymnasium
        ``_key`` mask (rows of games that did not end are zeros)."""
        score = self._score
        decided = ended & ~self._result.truncated
        winner = np.select([decided & (score > 0), decided & (score < 0)], [1, 2], 0).astype(np.int8)
        if self._lost.any():
            # The mover of a lost game is the side to move still (the pass it was given
            # instead has moved the turn on: the loser is the one not to move now).
            loser = self.batch.to_move ^ 3
            winner[self._lost] = (loser[self._lost] ^ 3).astype(np.int8)
        return {
            "score": score, "_score": ended.copy(),
            "ownership": self.batch.ownership(ended), "_ownership": ended.copy(),
            "winner": winner, "_winner": ended.copy(),
            "illegal": self._lost.copy(), "_illegal": ended.copy(),
        }
