"""Go as a PettingZoo AEC environment, laid out like PettingZoo's classic ``go_v5``:
agents ``black_0`` and ``white_0``, each observing a dict of ``observation`` (the input
planes of :meth:`ikeda.Batch.features`, channels last, from that agent's point of view)
and ``action_mask`` (int8, the legal actions of the agent to move, zeros for the other).

>>> from ikeda.envs import go_v0
>>> env = go_v0.env(board_size=9)
>>> env.reset(seed=1)
>>> env.agent_selection
'black_0'
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..batch import EXTRA_PLANES
from ..errors import IkedaError
from ..rules import Rules
from .core import Lockstep

AGENTS = ("black_0", "white_0")


def env(**kwargs: Any) -> AECEnv:
    """The AEC env wrapped as PettingZoo's classic envs are (a clear error for an action
    after the end, and the order of calls checked)."""
    e: AECEnv = raw_env(**kwargs)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801 (PettingZoo's name)
    """One game of Go between ``black_0`` and ``white_0`` (docs/envs.md).

    Rewards come at the end: +1 to the winner, -1 to the loser, 0 each for a draw or a
    game truncated at `max_moves` (default ``4*board_size**2 + 16``). ``illegal="raise"``
    (the default) refuses an illegal action with :class:`ikeda.IllegalMoveError` and
    changes nothing; ``"lose"`` ends the game, the mover losing. The infos of both agents
    hold ``score``, ``ownership`` and ``winner`` once the game is over."""

    metadata = {"render_modes": ["ansi"], "name": "ikeda_go_v0", "is_parallelizable": False, "render_fps": 1}

    def __init__(
        self,
        board_size: int = 19,
        komi: float = 7.5,
        rules: Rules | str = "area3",
        *,
        history: int = 8,
        max_moves: int | None = None,
        illegal: str = "raise",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.engine = Lockstep(1, board_size, komi=komi, rules=rules, history=history, max_moves=max_moves,
                               illegal=illegal, channels_last=True, threads=1)
        self.history = history
        self.board_size = board_size
        self.possible_agents = list(AGENTS)
        planes = 2 * history + EXTRA_PLANES
        obs = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (board_size, board_size, planes), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (board_size * board_size + 1,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(board_size * board_size + 1) for a in AGENTS}
        self.render_mode = render_mode

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        planes = self.engine.obs[0].copy()
        mask = np.zeros(self.board_size**2 + 1, dtype=np.int8)
        if agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent]):
            mask[:] = self.engine.mask[0]
        if AGENTS.index(agent) + 1 != self.engine.view[0]:
            # The planes are the side to move's: seen by the other agent, "own" and
            # "opponent" swap (stones and who passed first); the rest is absolute.
            h = self.history
            own = planes[..., :h].copy()
            planes[..., :h] = planes[..., h : 2 * h]
            planes[..., h : 2 * h] = own
            planes[..., [2 * h + 1, 2 * h + 2]] = planes[..., [2 * h + 2, 2 * h + 1]]
        return {"observation": planes, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.engine.reset()
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[0]
        if seed is not None:
            for i, a in enumerate(AGENTS):
                self.action_spaces[a].seed(seed + i)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IkedaError(f"{agent} must give an action while the game goes on")
        r = self.engine.step(np.array([action], dtype=np.int64))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in AGENTS}
        other = AGENTS[1] if agent == AGENTS[0] else AGENTS[0]
        if r.ended[0]:
            reward = float(r.rewards[0])  # the mover's
            self.rewards[agent], self.rewards[other] = reward, -reward
            final = self.engine.final_infos(r.ended)
            info = {k: v[0] for k, v in final.items() if not k.startswith("_")}
            for a in AGENTS:
                self.terminations[a] = bool(r.terminated[0])
                self.truncations[a] = bool(r.truncated[0])
                self.infos[a] = dict(info)
        self.agent_selection = other
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        board = self.engine.batch.boards()[0]
        return "\n".join(" ".join(".XO"[v] for v in row) for row in board.tolist())

    def close(self) -> None:
        pass
