"""`ikeda/Go-v0` as a Gymnasium VectorEnv over one native :class:`ikeda.Batch`."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..rules import Rules
from .core import Lockstep


def observation_space(size: int, planes: int, channels_last: bool) -> spaces.Dict:
    """One game's observation: the input planes of :meth:`ikeda.Batch.features` (from the
    side to move's view) and the legal actions as int8 0/1, the pass last."""
    shape = (size, size, planes) if channels_last else (planes, size, size)
    return spaces.Dict({
        "observation": spaces.Box(0.0, 1.0, shape, dtype=np.float32),
        "action_mask": spaces.Box(0, 1, (size * size + 1,), dtype=np.int8),
    })


class GoVectorEnv(VectorEnv):
    """`num_envs` games of Go in lockstep, self-play: each step plays one move in every
    game for its side to move (docs/envs.md).

    Autoreset is Gymnasium 1.x's next-step mode: the step after a game ends resets it
    (its action is ignored, reward 0). Rewards are from the point of view of the player
    who moved. A game stopped at `max_moves` (default ``4*size*size + 16``) is truncated.
    The observation arrays are the env's own buffers, overwritten by the next step
    (``copy=True`` returns copies).
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 1,
        size: int = 9,
        komi: float = 7.5,
        rules: Rules | str = "area3",
        *,
        history: int = 8,
        max_moves: int | None = None,
        illegal: str = "raise",
        channels_last: bool = False,
        copy: bool = False,
        threads: int = 0,
        render_mode: str | None = None,
    ) -> None:
        self.engine = Lockstep(num_envs, size, komi=komi, rules=rules, history=history, max_moves=max_moves,
                               illegal=illegal, channels_last=channels_last, threads=threads)
        self.num_envs = num_envs
        self.copy = copy
        self.render_mode = render_mode
        self.single_observation_space = observation_space(size, self.engine.planes, channels_last)
        self.single_action_space = spaces.Discrete(size * size + 1)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._obs: dict[str, npt.NDArray[Any]] = {"observation": self.engine.obs, "action_mask": self.engine.mask.view(np.int8)}

    @property
    def batch(self) -> Any:
        """The native :class:`ikeda.Batch` underneath (to read boards, scores, ...)."""
        return self.engine.batch

    def _observation(self) -> dict[str, npt.NDArray[Any]]:
        if self.copy:
            return {k: v.copy() for k, v in self._obs.items()}
        return self._obs

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
        """Every game back to the empty board, or those ``options["reset_mask"]`` marks.
        Go has no chance: `seed` seeds the action spaces' sampling and the batch's
        streams that :meth:`sample_actions` draws from."""
        if seed is not None:
            first = seed if isinstance(seed, int) else seed[0]
            if first is not None:
                self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(first)
                self.action_space.seed(first)
                self.engine.batch.reseed(first)
        where = None if options is None else options.get("reset_mask")
        self.engine.reset(None if where is None else np.asarray(where, dtype=np.bool_))
        return self._observation(), {}

    def sample_actions(self, policy: npt.ArrayLike | None = None, *, logits: bool = False) -> npt.NDArray[np.int64]:
        """One legal action per game, drawn natively from the batch's own masks: uniform
        among the plays (the pass only without one), or by `policy`, the network's
        ``(num_envs, size*size + 1)`` probabilities (or logits with ``logits=True``) over
        every action, masked here (:meth:`ikeda.Batch.sample`). Reproducible from
        ``reset(seed=)``. The array is overwritten by the next call."""
        return self.engine.sample(policy, logits=logits)

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[dict[str, npt.NDArray[Any]], npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        r = self.engine.step(actions)
        infos: dict[str, Any] = self.engine.final_infos(r.ended) if r.ended.any() else {}
        return self._observation(), r.rewards.copy(), r.terminated.copy(), r.truncated.copy(), infos
