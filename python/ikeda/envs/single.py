"""`ikeda/Go-v0` as a single-game Gymnasium env (self-play: the agent moves for both
sides, the observation from the side to move's view)."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..errors import IkedaError
from ..rules import Rules
from .core import Lockstep
from .vector import observation_space


class GoEnv(gymnasium.Env):
    """One game of Go; ``reset`` starts a new one (no autoreset). Same spaces, rewards,
    move cap and illegal-move policy as :class:`ikeda.envs.vector.GoVectorEnv`; the
    ``ansi`` render mode gives the board as text."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        size: int = 9,
        komi: float = 7.5,
        rules: Rules | str = "area3",
        *,
        history: int = 8,
        max_moves: int | None = None,
        illegal: str = "raise",
        channels_last: bool = False,
        render_mode: str | None = None,
    ) -> None:
        self.engine = Lockstep(1, size, komi=komi, rules=rules, history=history, max_moves=max_moves,
                               illegal=illegal, channels_last=channels_last, threads=1)
        self.observation_space = observation_space(size, self.engine.planes, channels_last)
        self.action_space = spaces.Discrete(size * size + 1)
        self.render_mode = render_mode
        self._ended = False

    def _observation(self) -> dict[str, npt.NDArray[Any]]:
        return {"observation": self.engine.obs[0].copy(), "action_mask": self.engine.mask[0].astype(np.int8)}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        self.engine.reset()
        self._ended = False
        return self._observation(), {}

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self._ended:
            raise IkedaError("the game has ended: call reset() before stepping again")
        r = self.engine.step(np.array([action], dtype=np.int64))
        info: dict[str, Any] = {}
        if r.ended[0]:
            self._ended = True
            final = self.engine.final_infos(r.ended)
            info = {k: v[0] for k, v in final.items() if not k.startswith("_")}
        return self._observation(), float(r.rewards[0]), bool(r.terminated[0]), bool(r.truncated[0]), info

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        board = self.engine.batch.boards()[0]
        return "\n".join(" ".join(".XO"[v] for v in row) for row in board.tolist()) + "\n"
