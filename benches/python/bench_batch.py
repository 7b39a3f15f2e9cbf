"""`ikeda.Batch` for self-play loops: lockstep random self-play driven from numpy beside
the same loop over pyspiel states, native batch playouts, and two Python threads running
playouts at once (the GIL is released, so they overlap). Each benchmark asserts that its
games ended and reports moves per second in ``extra_info``."""

from __future__ import annotations

import random
import threading
from typing import Any

import numpy as np
import pytest

import ikeda
import lockstep_loop

N = 64


@pytest.mark.parametrize("n", [N, 1024])
def test_selfplay_ikeda_batch(benchmark: Any, n: int, record_rate: Any) -> None:
    benchmark.group = "lockstep self-play 9x9"
    moves: list[int] = []

    def run() -> None:
        b = ikeda.Batch(n, 9, seed=len(moves) + 1)
        rng = np.random.default_rng(len(moves))
        draw = lockstep_loop.RandomActions(n, 82)
        while not b.is_over.all():
            b.step(draw(b.legal_mask(), rng))
            if b.lengths.max() > 4 * 81:
                break
        moves.append(int(b.lengths.sum()))

    benchmark.pedantic(run, rounds=3, iterations=1)
    assert all(m > n * 40 for m in moves)
    record_rate("moves_per_s", sum(moves))



@pytest.mark.parametrize("variant", ["fresh", "fused", "native"])
def test_selfplay_4096_split(benchmark: Any, variant: str, record_rate: Any) -> None:
    """4,096 9x9 games in lockstep, the loop of ``lockstep_loop.py``: ``fresh``, a new
    mask array per step (``legal_mask()``), numpy sampling, ``step(actions)``; ``fused``,
    numpy sampling then ``step(actions, mask=buf)`` (play and the new masks in one native
    call); ``native``, ``sample(out=)`` drawn natively from the kept masks, then the
    fused step. Reports the time split per step (mask, sampling, step, the rest)."""
    benchmark.group = "lockstep self-play 9x9, 4,096 games"
    runs: list[dict[str, float]] = []

    def run() -> None:
        runs.append(lockstep_loop.run(variant, seed=len(runs) + 1))

    benchmark.pedantic(run, rounds=2, iterations=1)
    assert all(r["moves"] > 4096 * 40 for r in runs)
    record_rate("moves_per_s", sum(r["moves"] for r in runs))
    for key in ("mask", "sample", "step", "other"):
        benchmark.extra_info[f"{key}_ms_per_step"] = round(sum(r[f"{key}_ms_per_step"] for r in runs) / len(runs), 3)


def test_selfplay_pyspiel_states(benchmark: Any, record_rate: Any) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    benchmark.group = "lockstep self-play 9x9"
    game = pyspiel.load_game("go", {"board_size": 9, "komi": 6.5})
    moves: list[int] = []

    def run() -> None:
        rng = random.Random(len(moves))
        states = [game.new_initial_state() for _ in range(N)]
        total = 0
        for _ in range(4 * 81):
            live = [s for s in states if not s.is_terminal()]
            if not live:
                break
            for s in live:
                actions = s.legal_actions()
                s.apply_action(rng.choice(actions[:-1]) if len(actions) > 1 else actions[0])
                total += 1
        moves.append(total)

    benchmark.pedantic(run, rounds=3, iterations=1)
    assert all(m > N * 40 for m in moves)
    record_rate("moves_per_s", sum(moves))


@pytest.mark.parametrize("size", [9, 19])
def test_batch_playout(benchmark: Any, size: int, record_rate: Any) -> None:
    benchmark.group = f"batch playout {size}x{size}"
    games = 2048 if size == 9 else 256
    moves: list[int] = []

    def run() -> None:
        b = ikeda.Batch(games, size, seed=len(moves) + 1, threads=1)
        assert b.playout() == 0 and b.is_over.all()
        moves.append(int(b.lengths.sum()))

    benchmark.pedantic(run, rounds=3, iterations=1)
    record_rate("moves_per_s", sum(moves))


@pytest.mark.parametrize("concurrent", [False, True])
def test_two_python_threads(benchmark: Any, concurrent: bool) -> None:
    """Two batches of 1,024 9x9 playouts, one thread each, run one after the other or
    from two Python threads at once: with the GIL released the second takes about half
    the time on two cores."""
    benchmark.group = "two Python threads, batch playouts"
    batches: list[ikeda.Batch] = []

    def play(b: ikeda.Batch) -> None:
        assert b.playout() == 0

    def run() -> None:
        pair = [ikeda.Batch(1024, 9, seed=len(batches) + k, threads=1) for k in (1, 2)]
        batches.extend(pair)
        if concurrent:
            threads = [threading.Thread(target=play, args=(b,)) for b in pair]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        else:
            for b in pair:
                play(b)

    benchmark.pedantic(run, rounds=3, iterations=1)
    assert all(b.is_over.all() for b in batches)
