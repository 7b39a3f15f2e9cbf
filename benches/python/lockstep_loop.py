"""The lockstep RL loop of 4,096 9x9 games timed step by step, as a script so that two
builds can be compared in alternation (`python lockstep_loop.py VARIANT`, one JSON line
per run). Variants:

- ``fresh``: ``legal_mask()`` (a new array), numpy sampling, ``step(actions)``: the loop
  as written before masks were kept per game;
- ``split``: ``legal_mask(out=buf)``, numpy sampling, ``step(actions)``, each timed;
- ``fused``: numpy sampling, then ``step(actions, mask=buf)`` (play and the new masks
  in one native call);
- ``native``: ``sample(out=actions)`` (the same policy drawn natively from the kept
  masks), then ``step(actions, mask=buf)``.

With ``--features K`` each step also writes the input planes of ``K`` past
configurations into a preallocated array (timed apart). The policy is uniform among legal
plays, the pass only when there is none; a run ends when every game is over or one has
made ``4 * 81`` moves; numpy draws it by ``--sampler`` (``searchsorted``, the default:
one random number per game; ``argmax``: one per action, as in the earlier rounds). The
moves counted are the games' lengths. Besides wall time, the
run reports the process's CPU time (every thread's), which the machine's other load
inflates far less than it does the wall time; ``--threads`` sets the batch's threads (0:
one per core).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time

import numpy as np

import ikeda

N, SIZE, CAP = 4096, 9, 4 * 81


class RandomActions:
    """Draws a uniform legal action per game, the pass only when nothing else is legal,
    from `n` rows of `width` actions (a batch's mask: the pass last, always legal), into
    buffers made once, so that no step allocates an array of the mask's size (a new
    array of a megabyte is fresh pages from the system at every step, whose page faults
    cost more than the arithmetic).

    One running count over the whole mask (one contiguous pass), then per game the
    ``k``-th legal play, ``k`` drawn uniformly below the row's count of plays, found by a
    binary search of the running count: one random number per game instead of one per
    action. The pass is then the only action left to a row with no play (docs/batch.md
    gives the same recipe for a uniform draw among all legal actions).
    """

    def __init__(self, n: int, width: int) -> None:
        self.counts = np.empty(n * width, dtype=np.int32)
        self.offsets = np.arange(0, n * width, width)

    def __call__(self, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        assert mask[:, -1].all(), "a batch's mask always allows the pass"
        n, width = mask.shape
        counts = np.cumsum(mask.reshape(-1), dtype=np.int32, out=self.counts)
        before = counts[::width] - mask[:, 0]
        plays = counts[width - 1 :: width] - before - 1
        k = (rng.random(n) * plays).astype(np.int32)
        return np.searchsorted(counts, before + k + 1) - self.offsets


class ArgmaxActions:
    """The same policy by a random score per action and an argmax over the legal ones
    (the sampling of the earlier rounds in benches/LOG.md), also into buffers made
    once: one random number per action."""

    def __init__(self, n: int, width: int) -> None:
        self.plays = np.empty((n, width), dtype=np.bool_)
        self.scores = np.empty((n, width), dtype=np.float64)

    def __call__(self, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        np.copyto(self.plays, mask)
        self.plays[:, -1] = ~self.plays[:, :-1].any(axis=1)
        rng.random(out=self.scores)
        np.multiply(self.scores, self.plays, out=self.scores)
        return self.scores.argmax(axis=1)


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One draw of :class:`RandomActions` (buffers made for this call)."""
    return RandomActions(*mask.shape)(mask, rng)


SAMPLERS = {"searchsorted": RandomActions, "argmax": ArgmaxActions}


def run(variant: str, seed: int, features: int = 0, n: int = N, threads: int = 0, sampler: str = "searchsorted") -> dict[str, float | str]:
    b = ikeda.Batch(n, SIZE, seed=seed, threads=threads)
    draw = SAMPLERS[sampler](n, SIZE * SIZE + 1)
    rng = np.random.default_rng(seed)
    buf = np.empty((n, SIZE * SIZE + 1), dtype=np.bool_)
    planes = np.empty((n, 2 * features + 4, SIZE, SIZE), dtype=np.float32) if features else None
    t = {"mask": 0.0, "sample": 0.0, "step": 0.0, "features": 0.0, "other": 0.0}
    steps = 0
    clock = time.perf_counter
    cpu = time.process_time()
    start = clock()
    acts = np.empty(n, dtype=np.int64)
    if variant in ("fused", "native"):
        b.legal_mask(out=buf)
    while True:
        t0 = clock()
        if variant == "fresh":
            mask = b.legal_mask()
        elif variant == "split":
            mask = b.legal_mask(out=buf)
        else:
            mask = buf
        t1 = clock()
        if planes is not None:
            b.features(features, out=planes)
        t2 = clock()
        actions = b.sample(out=acts) if variant == "native" else draw(mask, rng)
        t3 = clock()
        if variant in ("fused", "native"):
            b.step(actions, mask=buf)
        else:
            b.step(actions)
        t4 = clock()
        steps += 1
        done = bool(b.is_over.all()) or int(b.lengths.max()) > CAP
        t5 = clock()
        t["mask"] += t1 - t0
        t["features"] += t2 - t1
        t["sample"] += t3 - t2
        t["step"] += t4 - t3
        t["other"] += t5 - t4
        if done:
            break
    total = clock() - start
    cpu = time.process_time() - cpu
    moves = int(b.lengths.sum())
    assert moves > n * 40, moves
    out: dict[str, float | str] = {"variant": variant, "sampler": sampler, "games": n, "threads": b.threads, "steps": steps, "moves": moves, "seconds": round(total, 4), "moves_per_s": round(moves / total)}
    out.update({"cpu_seconds": round(cpu, 4), "moves_per_cpu_s": round(moves / cpu)})
    # The games themselves, so that runs of two builds can be checked to be the same
    # games move for move (same seed, variant and sampler: same masks, same draws).
    digest = hashlib.sha256(b.boards().tobytes() + b.lengths.astype(np.int64).tobytes())
    out["games_digest"] = digest.hexdigest()[:16]
    out.update({f"{k}_ms_per_step": round(1e3 * v / steps, 4) for k, v in t.items()})
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("variant", choices=["fresh", "split", "fused", "native"])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--features", type=int, default=0)
    p.add_argument("--games", type=int, default=N)
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--sampler", choices=sorted(SAMPLERS), default="searchsorted")
    a = p.parse_args()
    print(json.dumps(run(a.variant, a.seed, a.features, a.games, a.threads, a.sampler)))


if __name__ == "__main__":
    main()
