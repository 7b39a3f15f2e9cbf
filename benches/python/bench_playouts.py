"""Native playouts (`ikeda simulate --threads 1`'s engine) beside pyspiel's Python-driven
random playout, in moves per second, in the same run.

The pyspiel driver is the usual one: uniform among the legal non-pass actions, pass only
when there is none, to the terminal state (capped at 4*w*h moves). ikeda's games use its
playout policy (no filling of one's own eyes) to the real end under Area III. Each
benchmark asserts that its games ended and reports ``moves_per_s`` in ``extra_info``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from ikeda.simulate import simulate

GAMES = {9: 400, 19: 40}
PEER_GAMES = {9: 20, 19: 4}


@pytest.mark.parametrize("size", [9, 19])
def test_playouts_ikeda_native(benchmark: Any, size: int) -> None:
    benchmark.group = f"playouts {size}x{size}"
    sims = []

    def run() -> None:
        sims.append(simulate(size, GAMES[size], threads=1, seed=len(sims) + 1, chunk=GAMES[size]))

    benchmark.pedantic(run, rounds=3, iterations=1)
    moves = sum(int(s.length.sum()) for s in sims)
    assert all(not s.capped.any() and len(s.margin) == GAMES[size] for s in sims)
    assert moves > len(sims) * GAMES[size] * size * size // 2
    benchmark.extra_info["moves_per_s"] = round(moves / sum(s.seconds for s in sims))


@pytest.mark.parametrize("size", [9, 19])
def test_playouts_pyspiel_python(benchmark: Any, size: int, record_rate: Any) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    benchmark.group = f"playouts {size}x{size}"
    game = pyspiel.load_game("go", {"board_size": size, "komi": 6.5})
    counts: list[int] = []
    cap, pass_action = 4 * size * size, size * size

    def run() -> None:
        rng = random.Random(len(counts))
        total = 0
        for _ in range(PEER_GAMES[size]):
            s, n = game.new_initial_state(), 0
            while not s.is_terminal() and n < cap:
                actions = s.legal_actions()
                if len(actions) > 1:
                    actions.pop()  # the pass, always last
                    s.apply_action(rng.choice(actions))
                else:
                    s.apply_action(pass_action)
                n += 1
            total += n
        counts.append(total)

    benchmark.pedantic(run, rounds=3, iterations=1)
    assert all(c > PEER_GAMES[size] * size * size // 2 for c in counts)
    record_rate("moves_per_s", sum(counts))
