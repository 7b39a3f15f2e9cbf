"""Same-process ratios of the Python API against pyspiel that hold up on a loaded machine.

    python benches/python/api_ratios.py [ROUNDS]     (needs ``pip install open-spiel``)

pytest-benchmark's wall-clock medians (``bench_api.py``) swing with the load of a shared
machine. Here each case is timed on the process's CPU time (``timeit``, best of three
repeats), ikeda then pyspiel, ROUNDS times (default 5); one JSON line per case gives both
medians and the median and range of the per-round ratios (pyspiel time / ikeda time).
The cases, positions and drivers are ``bench_api.py``'s, and the answers are checked the
same way before anything is timed.
"""

from __future__ import annotations

import functools
import json
import random
import statistics
import sys
import time
import timeit
from collections.abc import Callable
from typing import Any

import numpy as np

import bench_api as B
import ikeda


def cases(size: int) -> list[tuple[str, Callable[[], Any], Callable[[], Any], int]]:
    plays = B.line(size).plays
    actions = [B.to_spiel(m, size) for m in plays]
    game = B.spiel_game(size)

    def replay_ikeda() -> ikeda.Game:
        g = ikeda.Game(size, komi=B.KOMI)
        play = g.play
        for m in plays:
            play(m)
        return g

    replay_spiel = functools.partial(B.spiel_replay, game, actions)

    assert np.array_equal(B.spiel_stones(replay_spiel(), size), replay_ikeda().to_numpy())
    g, s = B.line(size).game(B.MIDGAME[size]), B.spiel_state(size, B.MIDGAME[size])
    assert sorted(B.to_spiel(i, size) for i in g.legal_indices()) == s.legal_actions()[:-1]
    cap = 2 * size * size

    def random_ikeda() -> None:
        for k in range(5):
            B._ikeda_random_game(ikeda.Game(size, komi=B.KOMI), random.Random(k), cap)

    def random_spiel() -> None:
        for k in range(5):
            B._spiel_random_game(game.new_initial_state(), random.Random(k), cap)

    return [
        ("new game", lambda: ikeda.Game(size, komi=B.KOMI), game.new_initial_state, 4000),
        ("replay", replay_ikeda, replay_spiel, 100 if size == 9 else 25),
        ("legal_moves / legal_actions", g.legal_moves, s.legal_actions, 4000),
        ("legal_indices / legal_actions", g.legal_indices, s.legal_actions, 4000),
        ("legal_mask / legal_actions_mask", g.legal_mask, s.legal_actions_mask, 4000),
        ("copy / clone", g.copy, s.clone, 4000),
        ("five random games", random_ikeda, random_spiel, 2 if size == 9 else 1),
    ]


def main(rounds: int) -> None:
    def cpu_us(f: Callable[[], Any], number: int) -> float:
        return min(timeit.repeat(f, number=number, repeat=3, timer=time.process_time)) / number * 1e6

    for size in B.SIZES:
        for name, ours, theirs, number in cases(size):
            a, b = [], []
            for _ in range(rounds):
                a.append(cpu_us(ours, number))
                b.append(cpu_us(theirs, number))
            ratios = sorted(y / x for x, y in zip(a, b))
            print(json.dumps({
                "size": size, "case": name, "ikeda_us": round(statistics.median(a), 3),
                "pyspiel_us": round(statistics.median(b), 3), "ratio": round(statistics.median(ratios), 3),
                "low": round(ratios[0], 3), "high": round(ratios[-1], 3),
            }), flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
