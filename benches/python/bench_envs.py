"""Random self-play through the environments, beside the peers, in moves per second of
CPU time (every thread's; the machine's other load inflates it far less than wall time).

Run as a script for the figures of docs/envs.md (one JSON line per loop, all in one
process so that they share the machine's state)::

    PYTHONPATH=python python3 benches/python/bench_envs.py [--steps 400]

Loops (9x9, komi 7.5, each move's observation and legal mask read, the policy uniform
among the legal plays with the pass only when there is none, numpy's draw unless said;
such games fill their eyes and most reach the move cap, ``4*81 + 16``, truncated):

- ``vector``: ``gymnasium.make_vec("ikeda/Go-v0", num_envs=256, ...)``, autoreset;
- ``batch``: the bare loop the env wraps: ``Batch(256)``, ``features(out=)``,
  ``step(actions, mask=)``, ``reset`` of the ended games: the env layer's baseline;
- ``lockstep-numpy`` / ``lockstep-native``: the lockstep loop of docs/batch.md without
  planes (4,096 games), numpy's draw from the mask against ``Batch.sample`` given the
  same policy as numpy probabilities (the native masked draw), and ``Batch.sample()``
  with no policy (``lockstep-native-uniform``: the same draw, no array passed in);
- ``aec``: ``ikeda.envs.go_v0`` (one game, PettingZoo's AEC API);
- ``pettingzoo``: PettingZoo's classic ``go_v5`` (``pettingzoo.make("aec",
  "classic/go-v5")``, needs pygame);
- ``openspiel``: pyspiel's go with ``observation_tensor`` and ``legal_actions_mask``.

pgx is not run: installing it needs jax, which this benchmark does not pull in.
Under pytest each loop runs once, small, and its answers are checked.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ikeda
from lockstep_loop import RandomActions

SIZE, KOMI = 9, 7.5
PASS = SIZE * SIZE


def plays_only(mask: np.ndarray) -> np.ndarray:
    """The mask with the pass kept only where there is no play (the benchmark's policy)."""
    m = mask.astype(bool, copy=True)
    m[:, -1] &= ~m[:, :-1].any(1)
    return m


def run_vector(steps: int, n: int = 256) -> dict[str, Any]:
    import gymnasium

    import ikeda.envs  # noqa: F401

    env = gymnasium.make_vec("ikeda/Go-v0", num_envs=n, vectorization_mode="vector_entry_point",
                             size=SIZE, komi=KOMI, rules="area3")
    draw, rng = RandomActions(n, PASS + 1), np.random.default_rng(1)
    obs, _ = env.reset(seed=1)
    moves = ended = decided = 0
    done = np.zeros(n, dtype=bool)
    for _ in range(steps):
        actions = draw(obs["action_mask"].view(np.bool_), rng)
        obs, rewards, term, trunc, infos = env.step(actions)
        moves += n - int(done.sum())  # the actions of games being reset are not moves
        done = term | trunc
        ended += int(done.sum())
        decided += int(np.abs(rewards).sum())
    # Rewards only where a game ended with a result, +1 or -1 (no draws at komi 7.5).
    assert decided <= ended
    return {"moves": moves, "ended": ended}


def run_batch(steps: int, n: int = 256) -> dict[str, Any]:
    b = ikeda.Batch(n, SIZE, komi=KOMI, max_moves=4 * PASS + 16)
    mask = b.legal_mask(out=np.empty((n, PASS + 1), dtype=np.bool_))
    x = np.empty((n, 20, SIZE, SIZE), dtype=np.float32)
    draw, rng = RandomActions(n, PASS + 1), np.random.default_rng(1)
    moves = ended = 0
    b.features(8, out=x)
    for _ in range(steps):
        actions = draw(mask, rng)
        b.step(actions, mask=mask)
        moves += n
        over = b.is_over
        if over.any():
            ended += int(over.sum())
            b.outcomes()
            b.reset(over)
            b.legal_mask(out=mask)
        b.features(8, out=x)
    return {"moves": moves, "ended": ended}


def run_lockstep(steps: int, native: bool | str, n: int = 4096) -> dict[str, Any]:
    b = ikeda.Batch(n, SIZE, komi=KOMI, seed=2)
    mask = b.legal_mask(out=np.empty((n, PASS + 1), dtype=np.bool_))
    draw, rng = RandomActions(n, PASS + 1), np.random.default_rng(2)
    actions = np.empty(n, dtype=np.int64)
    policy = np.ones((n, PASS + 1), dtype=np.float32)
    policy[:, -1] = 0.0  # the pass only where nothing else is legal: uniform fallback
    moves = 0
    for _ in range(steps):
        live = n - int(b.is_over.sum())
        if not live:
            break
        if native == "uniform":
            b.sample(out=actions)
        elif native:
            b.sample(policy, out=actions)
        else:
            actions = draw(mask, rng)
        b.step(actions, mask=mask)
        moves += live
    return {"moves": moves}


def run_aec(moves_wanted: int) -> dict[str, Any]:
    from ikeda.envs import go_v0

    env, rng, moves, games = go_v0.env(board_size=SIZE, komi=KOMI), np.random.default_rng(3), 0, 0
    while moves < moves_wanted:
        env.reset(seed=games)
        games += 1
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            m = plays_only(obs["action_mask"][None])[0]
            env.step(int(rng.choice(np.flatnonzero(m))))
            moves += 1
    return {"moves": moves, "games": games}


def run_pettingzoo(moves_wanted: int) -> dict[str, Any]:
    pytest.importorskip("pygame")
    import pettingzoo

    env = pettingzoo.make("aec", "classic/go-v5", board_size=SIZE, komi=KOMI)
    rng, moves, games = np.random.default_rng(4), 0, 0
    while moves < moves_wanted:
        env.reset(seed=games)
        games += 1
        for agent in env.agent_iter(4 * PASS + 16):
            obs, reward, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            m = plays_only(obs["action_mask"][None])[0]
            env.step(int(rng.choice(np.flatnonzero(m))))
            moves += 1
    return {"moves": moves, "games": games}


def run_openspiel(moves_wanted: int) -> dict[str, Any]:
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("go", {"board_size": SIZE, "komi": KOMI})
    rng, moves, games = np.random.default_rng(5), 0, 0
    while moves < moves_wanted:
        s = game.new_initial_state()
        games += 1
        while not s.is_terminal():
            s.observation_tensor()
            m = plays_only(np.array(s.legal_actions_mask(), dtype=bool)[None])[0]
            s.apply_action(int(rng.choice(np.flatnonzero(m))))
            moves += 1
    return {"moves": moves, "games": games}


def timed(name: str, run: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    cpu, wall = time.process_time(), time.perf_counter()
    out = run()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {"loop": name, **out, "cpu_s": round(cpu, 3), "wall_s": round(wall, 3),
            "moves_per_cpu_s": round(out["moves"] / cpu), "moves_per_s": round(out["moves"] / wall)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=700, help="lockstep steps of the 256-game loops")
    p.add_argument("--single", type=int, default=3000, help="moves of the one-game loops")
    p.add_argument("--only", nargs="*", help="run only these loops")
    a = p.parse_args()
    # The libraries are imported before any loop is timed (an import is not a step).
    import gymnasium  # noqa: F401
    import pettingzoo  # noqa: F401
    import pyspiel  # noqa: F401

    import ikeda.envs  # noqa: F401
    from ikeda.envs import go_v0  # noqa: F401

    loops: list[tuple[str, Callable[[], dict[str, Any]]]] = [
        ("batch", lambda: run_batch(a.steps)),
        ("vector", lambda: run_vector(a.steps)),
        ("lockstep-numpy", lambda: run_lockstep(a.steps, native=False)),
        ("lockstep-native", lambda: run_lockstep(a.steps, native=True)),
        ("lockstep-native-uniform", lambda: run_lockstep(a.steps, native="uniform")),
        ("aec", lambda: run_aec(a.single)),
        ("openspiel", lambda: run_openspiel(a.single)),
        ("pettingzoo", lambda: run_pettingzoo(a.single // 3)),
    ]
    for name, run in loops:
        if a.only and name not in a.only:
            continue
        print(json.dumps(timed(name, run)), flush=True)


# -- under pytest: each loop once, small, with its answers checked -----------------------


def test_vector_env_loop_ends_games_with_results() -> None:
    pytest.importorskip("gymnasium")
    out = run_vector(400, n=16)
    assert out["ended"] >= 16 and out["moves"] > 16 * 300


def test_bare_batch_loop_ends_games() -> None:
    out = run_batch(400, n=16)
    assert out["ended"] >= 16 and out["moves"] == 16 * 400


@pytest.mark.parametrize("native", [False, True, "uniform"])
def test_lockstep_loops_play_legal_moves(native: bool | str) -> None:
    assert run_lockstep(50, native, n=64)["moves"] == 64 * 50


def test_aec_loop_finishes_games() -> None:
    pytest.importorskip("pettingzoo")
    out = run_aec(300)
    assert out["games"] >= 1 and out["moves"] >= 300


def test_peer_loops_run() -> None:
    assert run_openspiel(100)["games"] >= 1
    pytest.importorskip("pettingzoo")
    assert run_pettingzoo(50)["moves"] >= 50


if __name__ == "__main__":
    main()
