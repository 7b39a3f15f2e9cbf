"""Random self-play through the environments, beside the peers, in moves per second of
CPU time (every thread's; the machine's other load inflates it far less than wall time).

Run as a script for the figures of docs/envs.md (one JSON line per loop, all in one
process so that they share the machine's state; with ``--rounds`` the loops run that
many times interleaved, and a last line gives the issue's targets as ratios over all
rounds)::

    PYTHONPATH=python:benches/python python3 benches/python/bench_envs.py --steps 1000 --single 2000 --rounds 3 --threads 1

``--threads 1`` runs the batches on one thread: their CPU time is then their work, with
none of the spinning of idle pool threads (which CPU time counts, and which grows with
the Python work between native calls, so it charges the env layer for it).

Loops (9x9, komi 7.5, each move's observation and legal mask read, the policy uniform
among the legal plays with the pass only when there is none, numpy's draw unless said;
such games fill their eyes and most reach the move cap, ``4*81 + 16``, truncated):

- ``vector``: ``gymnasium.make_vec("ikeda/Go-v0", num_envs=256, ...)``, autoreset;
- ``batch``: the bare loop the env wraps: ``Batch(256)``, ``features(out=)``,
  ``step(actions, mask=)``, ``reset`` of the ended games: the env layer's baseline;
- ``lockstep-numpy`` / ``lockstep-native``: the lockstep loop of docs/batch.md without
  planes (4,096 games, the envs' move cap, until every game is over) whose policy comes as numpy probabilities (a network's output:
  ``(n, 82)`` float32, the benchmark's policy, so 1 for every play and 0 for the pass):
  numpy masks them with the legal mask and draws by the running sums (today's loop, as
  a researcher writes it: :func:`numpy_masked_draw`), against ``Batch.sample(probs)``,
  the native masked draw, which needs no mask at all;
- ``lockstep-numpy-mask``: the same loop with numpy's cheapest draw from the bool mask
  (:class:`lockstep_loop.RandomActions`, no probabilities), and
  ``lockstep-native-uniform``: ``Batch.sample()`` with no policy;
- ``aec``: ``ikeda.envs.go_v0`` (one game, PettingZoo's AEC API);
- ``pettingzoo``: PettingZoo's classic ``go_v5`` (``pettingzoo.make("aec",
  "classic/go-v5")``, needs pygame);
- ``openspiel``: pyspiel's go with ``observation_tensor`` and ``legal_actions_mask``;
- ``pgx``: pgx's ``go_9x9`` on the CPU, 256 games, ``jax.jit(jax.vmap(env.step))``, the
  policy drawn by ``jax.random.categorical`` from the mask (pgx computes each step's
  observation itself; its games end at 162 moves); the compilation is not timed. Skipped
  when pgx is not installed.

Under pytest each loop runs once, small, and its answers are checked.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from functools import partial
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


def run_vector(steps: int, n: int = 256, threads: int = 0) -> dict[str, Any]:
    import gymnasium

    import ikeda.envs  # noqa: F401

    env = gymnasium.make_vec("ikeda/Go-v0", num_envs=n, vectorization_mode="vector_entry_point",
                             size=SIZE, komi=KOMI, rules="area3", threads=threads)
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


def run_batch(steps: int, n: int = 256, threads: int = 0) -> dict[str, Any]:
    b = ikeda.Batch(n, SIZE, komi=KOMI, max_moves=4 * PASS + 16, threads=threads)
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


def numpy_masked_draw(probs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action per row in proportion to `probs` over the legal actions of `mask`:
    numpy's masking and inverse-CDF draw, as a lockstep loop writes it today."""
    p = probs * mask                                  # illegal actions get no weight
    sums = np.cumsum(p, axis=1)
    u = rng.random(len(p)) * sums[:, -1]
    # The first action whose running sum passes u (the pass where a row has no weight).
    return np.minimum((sums <= u[:, None]).sum(axis=1), p.shape[1] - 1)


#: The lockstep loops' draws: numpy's from the probabilities and the mask (today's
#: loop), the native one from the probabilities, numpy's cheapest from the mask alone,
#: and the native uniform one.
LOCKSTEP_DRAWS = ("numpy", "native", "numpy-mask", "native-uniform")


def run_lockstep(steps: int, draw_by: str, n: int = 4096, threads: int = 0) -> dict[str, Any]:
    b = ikeda.Batch(n, SIZE, komi=KOMI, seed=2, max_moves=4 * PASS + 16, threads=threads)  # the envs' cap
    mask = b.legal_mask(out=np.empty((n, PASS + 1), dtype=np.bool_))
    draw, rng = RandomActions(n, PASS + 1), np.random.default_rng(2)
    actions = np.empty(n, dtype=np.int64)
    probs = np.ones((n, PASS + 1), dtype=np.float32)  # the network's output
    probs[:, -1] = 0.0  # the pass only where nothing else is legal
    native = draw_by.startswith("native")
    moves, drawing = 0, 0.0
    clock = time.process_time
    for _ in range(steps):
        live = n - int(b.is_over.sum())
        if not live:
            break
        start = clock()
        if draw_by == "native":
            b.sample(probs, out=actions)
        elif draw_by == "native-uniform":
            b.sample(out=actions)
        elif draw_by == "numpy":
            actions = numpy_masked_draw(probs, mask, rng)
        else:
            actions = draw(mask, rng)
        drawing += clock() - start
        if native:
            b.step(actions)  # the native draws read the batch's own masks
        else:
            assert mask[np.arange(n), actions].all()
            b.step(actions, mask=mask)  # the new masks for the next draw, in the same call
        moves += live
    return {"moves": moves, "length": round(float(b.lengths.mean()), 1), "draw_cpu_s": round(drawing, 3)}


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


def run_pgx(steps: int, n: int = 256) -> dict[str, Any]:
    pytest.importorskip("pgx")
    import jax
    import jax.numpy as jnp
    import pgx

    env = pgx.make("go_9x9")
    init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))

    @jax.jit
    def choose(state: Any, key: Any) -> Any:
        """Uniform among the legal plays, the pass only where there is none."""
        legal = state.legal_action_mask
        plays = legal.at[:, -1].set(False)
        legal = jnp.where(plays.any(axis=1, keepdims=True), plays, legal)
        return jax.random.categorical(key, jnp.log(legal.astype(jnp.float32)), axis=1)

    key = jax.random.PRNGKey(6)
    state = init(jax.random.split(key, n))
    step(state, choose(state, key)).observation.block_until_ready()  # compiled, not timed
    cpu, wall = time.process_time(), time.perf_counter()
    moves = ended = 0
    for _ in range(steps):
        done = state.terminated | state.truncated
        if bool(done.all()):
            ended += n
            key, k = jax.random.split(key)
            state = init(jax.random.split(k, n))
            continue
        moves += n - int(done.sum())
        key, k = jax.random.split(key)
        state = step(state, choose(state, k))
        assert state.observation.shape == (n, SIZE, SIZE, 17)
    state.observation.block_until_ready()
    return {"moves": moves, "ended": ended, "cpu_s": time.process_time() - cpu,
            "wall_s": time.perf_counter() - wall}


def timed(name: str, run: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Runs a loop, timed; one that times itself (leaving a compilation out) says so
    by its own ``cpu_s`` and ``wall_s``. ``thread_cpu_s`` is the calling thread's own
    CPU: the Python side of the loop (a batch's native work runs on its pool's threads,
    whose waiting between calls the process's CPU counts); left out for a loop that
    times itself, where it would count the compilation."""
    cpu, wall, own = time.process_time(), time.perf_counter(), time.thread_time()
    out = run()
    own = time.thread_time() - own
    mine = {} if "cpu_s" in out else {"thread_cpu_s": round(own, 3)}
    cpu, wall = out.pop("cpu_s", time.process_time() - cpu), out.pop("wall_s", time.perf_counter() - wall)
    return {"loop": name, **out, "cpu_s": round(cpu, 3), **mine, "wall_s": round(wall, 3),
            "moves_per_cpu_s": round(out["moves"] / cpu), "moves_per_s": round(out["moves"] / wall)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=700, help="lockstep steps of the 256-game loops")
    p.add_argument("--single", type=int, default=3000, help="moves of the one-game loops")
    p.add_argument("--only", nargs="*", help="run only these loops")
    p.add_argument("--rounds", type=int, default=1, help="run the loops this many times, interleaved")
    p.add_argument("--threads", type=int, default=0, help="the batches' threads (0: one per core)")
    a = p.parse_args()
    # The libraries are imported before any loop is timed (an import is not a step).
    import gymnasium  # noqa: F401
    import pettingzoo  # noqa: F401
    import pyspiel  # noqa: F401

    import ikeda.envs  # noqa: F401
    from ikeda.envs import go_v0  # noqa: F401

    loops: list[tuple[str, Callable[[], dict[str, Any]]]] = [
        ("batch", lambda: run_batch(a.steps, threads=a.threads)),
        ("vector", lambda: run_vector(a.steps, threads=a.threads)),
        *((f"lockstep-{d}", partial(run_lockstep, a.steps, d, threads=a.threads)) for d in LOCKSTEP_DRAWS),
        ("aec", lambda: run_aec(a.single)),
        ("openspiel", lambda: run_openspiel(a.single)),
        ("pettingzoo", lambda: run_pettingzoo(a.single // 3)),
        ("pgx", lambda: run_pgx(a.steps)),
    ]
    totals: dict[str, list[float]] = {}
    for _ in range(a.rounds):
        for name, run in loops:
            if a.only and name not in a.only:
                continue
            out = timed(name, run)
            print(json.dumps(out), flush=True)
            moves, cpu = totals.setdefault(name, [0.0, 0.0])
            totals[name] = [moves + out["moves"], cpu + out["cpu_s"]]
    print(json.dumps({"targets": targets({k: m / c for k, (m, c) in totals.items()})}), flush=True)


def targets(rate: dict[str, float]) -> dict[str, float]:
    """The issue's targets as ratios of the loops' moves per CPU second over all rounds:
    the vector env against PettingZoo's go_v5 (>= 100), OpenSpiel with observation and
    mask (>= 10) and pgx; the env layer's cost over the bare batch loop (<= 0.30); the
    lockstep loop with the native masked draw against today's numpy one (>= 2)."""
    pairs = {"vector_over_pettingzoo": ("vector", "pettingzoo"), "vector_over_openspiel": ("vector", "openspiel"),
             "vector_over_pgx": ("vector", "pgx"), "lockstep_native_over_numpy": ("lockstep-native", "lockstep-numpy"),
             "lockstep_native_uniform_over_numpy": ("lockstep-native-uniform", "lockstep-numpy")}
    out = {k: round(rate[x] / rate[y], 2) for k, (x, y) in pairs.items() if x in rate and y in rate}
    if "batch" in rate and "vector" in rate:
        out["env_layer_cost"] = round(rate["batch"] / rate["vector"] - 1, 3)
    return out


# -- under pytest: each loop once, small, with its answers checked -----------------------


def test_vector_env_loop_ends_games_with_results() -> None:
    pytest.importorskip("gymnasium")
    out = run_vector(400, n=16)
    assert out["ended"] >= 16 and out["moves"] > 16 * 300


def test_bare_batch_loop_ends_games() -> None:
    out = run_batch(400, n=16)
    assert out["ended"] >= 16 and out["moves"] == 16 * 400


@pytest.mark.parametrize("draw_by", LOCKSTEP_DRAWS)
def test_lockstep_loops_play_legal_moves(draw_by: str) -> None:
    assert run_lockstep(50, draw_by, n=64)["moves"] == 64 * 50


def test_numpy_and_native_masked_draws_follow_the_same_policy() -> None:
    """Both draws of the lockstep loops give each legal action its share of the
    probabilities (so the loops compared play the same policy), the pass only where a
    row has no weight."""
    b = ikeda.Batch(2000, 3, seed=3)
    b.step(np.full(2000, 4))  # the centre of 3x3: actions 0..8 but 4 legal
    mask = b.legal_mask()
    probs = np.zeros((2000, 10), dtype=np.float32)
    probs[:, [1, 4, 7]] = [1.0, 50.0, 3.0]  # 4 is illegal
    probs[1, :] = 0.0  # no weight: the pass
    numpy_draw = numpy_masked_draw(probs, mask, np.random.default_rng(0))
    assert numpy_draw[1] == 9
    for a in (numpy_draw, b.sample(np.where(np.arange(2000)[:, None] == 1, 1.0, probs))):
        a = np.delete(a, 1)
        assert set(a.tolist()) == {1, 7} and abs(float((a == 7).mean()) - 0.75) < 0.04


def test_aec_loop_finishes_games() -> None:
    pytest.importorskip("pettingzoo")
    out = run_aec(300)
    assert out["games"] >= 1 and out["moves"] >= 300


@pytest.mark.jax
def test_pgx_loop_ends_games() -> None:
    pytest.importorskip("pgx")
    out = run_pgx(200, n=4)
    assert out["ended"] >= 4 and out["moves"] >= 4 * 100


def test_peer_loops_run() -> None:
    assert run_openspiel(100)["games"] >= 1
    pytest.importorskip("pettingzoo")
    assert run_pettingzoo(50)["moves"] >= 50


if __name__ == "__main__":
    main()
