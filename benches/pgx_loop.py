"""pgx (JAX) Go stepped in lockstep on a GPU, the peer of `benches/python/lockstep_loop.py`:
the same policy (uniform among legal plays, the pass only when there is none), drawn on
the device, for a batch of games stepped together; one JSON line per run.

    python benches/pgx_loop.py SIZE BATCH STEPS

Needs `pip install pgx` and JAX with a GPU (it runs on the CPU too, slowly). The moves
counted are the steps of games not yet over; the first run of three steps (compilation)
is timed apart and not counted. Each step is three compiled calls driven from Python
(draw, step, key split), as an RL loop that reads its network's output between steps
would drive it; no fused `lax.scan`.
"""

from __future__ import annotations

import json
import sys
import time

import jax
import jax.numpy as jnp
import pgx


def main() -> None:
    size, batch, steps = (int(a) for a in sys.argv[1:4])
    env = pgx.make(f"go_{size}x{size}")
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(env.step))

    @jax.jit
    def policy(key: jax.Array, mask: jax.Array) -> jax.Array:
        plays = mask.at[:, -1].set(False)
        allowed = jnp.where(plays.any(axis=1, keepdims=True), plays, mask)
        return jax.random.categorical(key, jnp.where(allowed, 0.0, -jnp.inf), axis=1)

    def run(seed: int, n: int) -> int:
        key, k = jax.random.split(jax.random.PRNGKey(seed))
        state = init(jax.random.split(k, batch))
        moves = jnp.zeros(batch, dtype=jnp.int32)
        for _ in range(n):
            key, k1, k2 = jax.random.split(key, 3)
            moves += ~(state.terminated | state.truncated)
            state = step(state, policy(k1, state.legal_action_mask), jax.random.split(k2, batch))
        return int(moves.sum())  # waits for the device

    t = time.perf_counter()
    run(0, 3)
    compile_s = time.perf_counter() - t
    t = time.perf_counter()
    moves = run(1, steps)
    seconds = time.perf_counter() - t
    print(json.dumps({"peer": "pgx", "pgx": pgx.__version__, "jax": jax.__version__, "device": str(jax.devices()[0]),
                      "size": size, "batch": batch, "steps": steps, "moves": moves, "seconds": round(seconds, 3),
                      "moves_per_s": round(moves / seconds), "compile_s": round(compile_s, 1)}))


if __name__ == "__main__":
    main()
