"""Reinforcement-learning environments over :class:`ikeda.Batch` (docs/envs.md).

- ``gymnasium.make_vec("ikeda/Go-v0", num_envs=N, vectorization_mode="vector_entry_point",
  size=9, komi=7.5, rules="area3")``: :class:`ikeda.envs.vector.GoVectorEnv`, N games in
  one native batch (needs the ``gymnasium`` extra);
- ``gymnasium.make("ikeda/Go-v0", size=9)``: :class:`ikeda.envs.single.GoEnv`, one game;
- ``ikeda.envs.go_v0.env(board_size=19, komi=7.5, rules="area3")``: a PettingZoo AEC env
  (needs the ``pettingzoo`` extra).

Importing this package registers ``ikeda/Go-v0`` with Gymnasium when Gymnasium is
installed; ``import ikeda`` alone imports neither library.
"""

from __future__ import annotations

from .core import ILLEGAL_POLICIES, Lockstep

__all__ = ["ILLEGAL_POLICIES", "Lockstep", "register"]

ENV_ID = "ikeda/Go-v0"


def register() -> None:
    """Registers ``ikeda/Go-v0`` with Gymnasium (done on import when it is installed)."""
    import gymnasium

    if ENV_ID not in gymnasium.registry:
        gymnasium.register(
            ENV_ID,
            entry_point="ikeda.envs.single:GoEnv",
            vector_entry_point="ikeda.envs.vector:GoVectorEnv",
        )


try:
    register()
except ImportError:  # Gymnasium is an optional extra
    pass
