"""Hostile input to the library API: every bad value is an IkedaError naming it (or a
MemoryError for an allocation that cannot be made), never a wrong exception type, an
abort or a hang; numbers that size threads and memory have documented limits
(docs/security.md)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable

import numpy as np
import pytest

import ikeda
from ikeda import Batch, Game
from ikeda.limits import MAX_GAMES, MAX_THREADS
from ikeda.rules import MAX_KOMI
from ikeda.simulate import simulate

ROWS = ["X...X", "XXXXX", "OOOOO", "O.O.O"]

#: (call, a piece of the input the message must name)
WRONG_INPUTS: dict[str, tuple[Callable[[], object], str]] = {
    "huge komi": (lambda: Game(9, komi=1e308), "1e+308"),
    "huge board": (lambda: Game(2**63), str(2**63)),
    "float board": (lambda: Game(9.0), "9.0"),  # type: ignore[arg-type]
    "lone surrogate move": (lambda: Game(9).play("\ud800"), "ud800"),
    "setup of None": (lambda: Game(9, setup={"B": None}), "None"),  # type: ignore[dict-item]
    "setup of a string": (lambda: Game(9, setup={"B": "D4"}), "'D4'"),
    "setup not a mapping": (lambda: Game(9, setup=[("B", "D4")]), "('B', 'D4')"),  # type: ignore[arg-type]
    "dead stones as an int": (lambda: Game(9).score(dead=5), "5"),  # type: ignore[arg-type]
    "ownership dead as an int": (lambda: Game(9).ownership(dead=7), "7"),  # type: ignore[arg-type]
    "perft depth beyond u32": (lambda: ikeda.perft(Game(1), 2**40), str(2**40)),
    "float batch size": (lambda: Batch(2, 9.0), "9.0"),  # type: ignore[arg-type]
    "float seed": (lambda: Batch(2, 9, seed=1.5), "1.5"),  # type: ignore[arg-type]
    "negative seed": (lambda: Batch(2, 9, seed=-1), "-1"),
    "huge move cap": (lambda: Batch(2, 9).playout(max_moves=2**70), str(2**70)),
    "huge status budget": (lambda: ikeda.confirm_status(ROWS, budget=2**64), str(2**64)),
    "proof work past its limit": (lambda: ikeda.confirm_status(ROWS, proof_work=ikeda.status.MAX_PROOF_WORK + 1), "proof_work"),
    "no proof work": (lambda: ikeda.japanese_score(ROWS, proof_work=0), "proof_work"),
    "float handicap": (lambda: Game(9, handicap=2.0), "2.0"),  # type: ignore[arg-type]
    "too many batch threads": (lambda: Batch(4, 9, threads=100_000), "100000"),
    "too many simulate threads": (lambda: simulate(9, 4, threads=MAX_THREADS + 1), str(MAX_THREADS + 1)),
    "nan pass probability": (lambda: simulate(9, 4, pass_probability=float("nan")), "nan"),
    "pass probability 5": (lambda: simulate(9, 4, pass_probability=5), "5"),
    "batch pass probability nan": (lambda: Batch(2, 9).playout(pass_probability=float("nan")), "nan"),
    "float games": (lambda: simulate(9, 2.5), "2.5"),  # type: ignore[arg-type]
}


@pytest.mark.parametrize("name", sorted(WRONG_INPUTS))
def test_bad_input_is_an_ikeda_error_naming_it(name: str) -> None:
    call, shown = WRONG_INPUTS[name]
    with pytest.raises(ikeda.IkedaError) as info:
        call()
    assert shown in str(info.value)


def test_numpy_integers_are_moves() -> None:
    g, h = Game(9), Game(9)
    mask = g.legal_mask()
    g.play(np.flatnonzero(mask)[40])
    h.play(40)
    g.play(np.int32(0))
    h.play(0)
    assert g.moves == h.moves
    assert g.is_legal(np.uint8(1)) and g.illegal_reason(np.int64(40)) == "occupied"
    with pytest.raises(ikeda.IllegalMoveError):
        g.play(np.int16(40))
    with pytest.raises(ikeda.InvalidMoveError):
        g.play(np.float64(3.0))
    with pytest.raises(ikeda.InvalidMoveError):
        g.play(np.uint64(2**64 - 1))
    assert g.moves == h.moves


def test_numpy_integers_are_sizes_and_handicaps() -> None:
    g = Game(np.int64(9), handicap=np.int64(2))
    assert g.width == 9 and g.handicap == 2 and type(g.handicap) is int
    assert "HA[2]" in g.to_sgf()
    assert Batch(np.int64(3), np.int64(5), seed=np.uint64(7)).size == (5, 5)


def test_reset_with_an_empty_list_resets_nothing() -> None:
    b = Batch(3, 5, seed=2)
    b.step(np.array([0, 1, 2]))
    b.reset([])
    assert b.lengths.tolist() == [1, 1, 1]
    b.reset(np.array([], dtype=np.int64))
    assert b.lengths.tolist() == [1, 1, 1]
    b.reset([1])
    assert b.lengths.tolist() == [1, 0, 1]


@pytest.mark.parametrize("komi", [MAX_KOMI, -MAX_KOMI, 100, 650, 100.5, -100, 0.5])
def test_every_komi_a_game_accepts_round_trips_through_sgf(komi: float) -> None:
    g = Game(9, komi=komi)
    g.play("E5")
    record = ikeda.sgf.read(g.to_sgf())
    assert record.komi == komi and record.replay().komi == komi


def test_one_komi_range_for_rules_reader_and_native_counters() -> None:
    with pytest.raises(ikeda.IkedaError, match="within"):
        Game(9, komi=MAX_KOMI + 0.5)
    with pytest.warns(ikeda.sgf.SgfWarning, match="KM"):
        assert ikeda.sgf.read("(;SZ[9]KM[1000.5])").komi is None  # beyond the range: ignored
    assert simulate(5, 2, komi=MAX_KOMI).margin.max() < 0


def test_batch_thread_limit_is_the_native_one() -> None:
    assert MAX_THREADS == ikeda._core.MAX_THREADS
    assert Batch(1, 5, threads=3).threads == 3
    with pytest.raises(ikeda.IkedaError):
        ikeda._core.Batch(5, 5, ikeda.AREA_III, 1, 1, MAX_THREADS + 1)


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads through /proc")
def test_a_run_builds_its_thread_pool_once() -> None:
    def threads() -> set[str]:
        return set(os.listdir("/proc/self/task"))

    simulate(5, 8, threads=5, chunk=2)  # the pool of 5 threads exists from now on
    before = threads()
    simulate(5, 40, threads=5, chunk=2)  # at least 20 chunks
    assert threads() - before == set()  # no thread started: the pool was reused


def test_two_threads_share_one_batch_in_turns() -> None:
    b = Batch(64, 9, seed=3)
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(30):
                b.reset()
                b.playout()
                b.features(2)
        except BaseException as e:  # noqa: BLE001 - any error fails the test
            errors.append(e)

    workers = [threading.Thread(target=work) for _ in range(2)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    assert errors == []
    assert b.is_over.all()


def test_four_threads_playing_one_game_leave_it_consistent() -> None:
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        for trial in range(5):
            g = Game(9)

            def work(k: int) -> None:
                rng = np.random.default_rng(k)
                for _ in range(300):
                    try:
                        if rng.random() < 0.8:
                            legal = g.legal_indices()
                            g.play(int(rng.choice(legal)) if legal else "pass")
                        else:
                            g.undo()
                    except ikeda.IkedaError:
                        pass  # another thread ended the game or undid everything

            workers = [threading.Thread(target=work, args=(trial * 4 + k,)) for k in range(4)]
            for t in workers:
                t.start()
            for t in workers:
                t.join()
            replayed = Game(9)
            for m in g.moves:
                replayed.play(m)
            assert replayed.to_move == g.to_move and replayed.is_over == g.is_over
            assert (replayed.to_numpy() == g.to_numpy()).all()
    finally:
        sys.setswitchinterval(old)


def test_copies_taken_while_threads_play_passes_and_resign_are_whole_games() -> None:
    """Every move, undo, resignation and copy is one native call, so a copy taken while
    other threads play (passes often), undo and resign is a game its own moves replay to:
    the same turn, pass bookkeeping and end."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        g, copies = Game(5, rules="territory1"), []

        def work(k: int) -> None:
            rng = np.random.default_rng(k)
            for _ in range(400):
                try:
                    r = rng.random()
                    if r < 0.5:
                        g.play("pass")
                    elif r < 0.8:
                        legal = g.legal_indices()
                        g.play(int(rng.choice(legal)) if legal else "pass")
                    elif r < 0.85:
                        g.resign()
                    else:
                        g.undo()
                except ikeda.IkedaError:
                    pass  # another thread ended the game or undid everything

        workers = [threading.Thread(target=work, args=(k,)) for k in range(3)]
        for t in workers:
            t.start()
        while any(t.is_alive() for t in workers):
            copies.append(g.copy())
        for c in copies:
            replayed = Game(5, rules="territory1")
            for m in c.moves:
                replayed.play(m)
            if c.resigned is not None:
                replayed.resign(c.resigned)
            state = [(x.to_move, x.is_over, x.first_passer, x.preliminary_end, x._passes, x._streak) for x in (c, replayed)]
            assert state[0] == state[1]
    finally:
        sys.setswitchinterval(old)


def test_every_kind_of_move_makes_the_same_game() -> None:
    """Exact ints and strs, numpy ints and str subclasses make the same game, passes and
    refused moves included."""

    class Vertex(str):
        pass

    fast, slow = Game(5), Game(5)
    moves = ["C3", 7, "pass", "b2", 13, "pass", "pass"]
    slowed = [Vertex("C3"), np.int64(7), Vertex("pass"), Vertex("b2"), np.int32(13), 25, np.int16(25)]
    for m, s in zip(moves, slowed):
        fast.play(m)
        slow.play(s)
        assert (fast.moves, fast.to_move, fast.is_over, fast.first_passer) == (slow.moves, slow.to_move, slow.is_over, slow.first_passer)
    assert fast.is_over and fast.score() == slow.score()
    with pytest.raises(ikeda.IllegalMoveError, match="game_over"):
        fast.play("A1")
    g = Game(5)
    g.play("C3")
    for refused in ("C3", 12, np.int64(12), Vertex("c3")):
        with pytest.raises(ikeda.IllegalMoveError, match="occupied"):
            g.play(refused)
        assert g.moves == ["C3"] and g.to_move == "W"


def test_a_batch_too_large_for_memory_is_a_memory_error() -> None:
    with pytest.raises(MemoryError):
        Batch(MAX_GAMES, 25)
    with pytest.raises(ikeda.IkedaError):
        Batch(MAX_GAMES + 1, 9)


@pytest.mark.skipif(sys.platform != "linux", reason="address-space limit through resource")
def test_allocations_sized_by_input_raise_under_an_address_space_limit() -> None:
    # Under a 3 GB address-space limit each call asks for more than fits: it must raise
    # MemoryError and the interpreter must live on (an abort would end the child with
    # SIGABRT).
    script = textwrap.dedent(
        """
        import resource
        import ikeda
        limit = 3 * 2**30
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        calls = [
            lambda: ikeda.Batch(2**22, 19),
            lambda: ikeda.Batch(2**16, 19).features(64),
            lambda: ikeda._core.simulate(5, 5, ikeda.AREA_III, 1, 0, 2**34, 1),
        ]
        for call in calls:
            try:
                call()
            except MemoryError:
                print("MemoryError")
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["MemoryError"] * 3


@pytest.mark.skipif(sys.platform != "linux", reason="address-space limit through resource and /proc")
def test_growth_sized_by_input_raises_once_memory_is_short() -> None:
    # A child interpreter lowers its address-space limit to what it holds plus 16 MB before
    # each of the calls whose memory grows with their input as they run (not one request
    # checked up front): a search tree of 2**32 - 1 playouts, a batch's histories past
    # every move cap, a game played on for ever (capture and recapture under simple ko),
    # the tree of an SGF text of two million nodes. Each must raise MemoryError and the
    # interpreter live on; a board refused for memory keeps its last move.
    script = textwrap.dedent(
        """
        import resource
        import ikeda
        from ikeda import _core
        from ikeda.gtp import bot

        # One thread plays the batch: with several, one thread's reservation may take the
        # last of the room just before another's small fixed allocation.
        batch = ikeda.Batch(2**14, 9, threads=1)
        text = "(;" + ";" * 2_000_000 + ")"
        board = _core.Board(2, 1, rules=ikeda.JAPANESE)
        ikeda.Batch(4, 9, threads=1).playout()  # the thread pool, before the limit
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]

        def refused(name, call):
            # Each case gets the same room, whatever the cases before it freed.
            with open("/proc/self/status") as f:
                vm = next(int(l.split()[1]) for l in f if l.startswith("VmSize:"))
            resource.setrlimit(resource.RLIMIT_AS, (vm * 1024 + 16 * 2**20, hard))
            try:
                call()
            except MemoryError as e:
                print(name, type(e).__name__)

        refused("search", lambda: bot.search(ikeda.Game(19), playouts=2**32 - 1))
        refused("playout", lambda: batch.playout(max_moves=2**32 - 1))
        del batch

        def play_for_ever():
            # B A1, W B1 takes it, B passes, B A1 takes back (the pass lifted the ko
            # ban), W passes, W B1 takes back, ...
            board.play("A1", 1)
            while True:
                board.play("B1", 2)
                board.play("pass", 1)
                board.play("A1", 1)
                board.play("pass", 2)

        refused("board", play_for_ever)
        # The record is A1, then B1 pass A1 pass ...: every other move after the first
        # is a play, and one stone stands.
        n = len(board)
        ok = board.plays == 1 + n // 2 and board.stone_count(1) + board.stone_count(2) == 1
        print("board", "consistent" if ok and n > 100_000 else f"inconsistent {n} {board.plays}")
        refused("sgf", lambda: ikeda.sgf.read(text))
        """
    )
    env = {**os.environ, "MALLOC_ARENA_MAX": "1"}  # arenas would reserve address space unseen
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "search MemoryError",
        "playout MemoryError",
        "board MemoryError",
        "board consistent",
        "sgf MemoryError",
    ], done.stdout + done.stderr


def test_raw_core_batch_used_from_two_threads_refuses_the_second_call() -> None:
    # ikeda._core.Batch is internal (docs/security.md): its long calls release the GIL
    # while they hold the batch, and a call from another thread meanwhile is refused with
    # PyO3's RuntimeError ("Already borrowed"), leaving the batch intact; ikeda.Batch
    # serialises its calls with a lock instead (test_two_threads_share_one_batch_in_turns).
    # ikeda._core.Board holds the GIL in every method, so its calls never overlap.
    raw = ikeda._core.Batch(19, 19, ikeda.AREA_III, 4000, 1, 1)
    refused: list[BaseException] = []
    worker = threading.Thread(target=raw.playout)
    worker.start()
    while worker.is_alive() and not refused:
        try:
            raw.is_over()
        except RuntimeError as e:
            refused.append(e)
    worker.join()
    assert refused and "borrow" in str(refused[0]).lower(), refused
    assert not isinstance(refused[0], ikeda.IkedaError)
    assert raw.is_over().all() and (raw.lengths() > 0).all()



def test_a_call_paused_inside_makes_other_threads_wait_not_fail() -> None:
    """Python code can run inside a native call that holds the game (an argument's
    ``__index__``, or a finalizer started by an allocation there) and let other threads in:
    their calls on the same game wait for it instead of failing with "Already borrowed"."""
    inside, errors = threading.Event(), []

    class SlowIndex:
        def __index__(self) -> int:
            inside.set()
            time.sleep(0.2)  # releases the GIL while the play holds the game
            return 0

    g = Game(9)

    def other() -> None:
        inside.wait()
        try:
            g.play("pass")
            g.legal_indices()
        except RuntimeError as e:
            errors.append(e)

    t = threading.Thread(target=other)
    t.start()
    g.play(SlowIndex())
    t.join()
    assert errors == [] and g.moves == ["A9", "pass"]


def test_reads_from_other_threads_wait_for_a_paused_call() -> None:
    """A read (a copy, the turn, the legal moves, the board's arrays, a score) made while
    another thread's play is paused inside its native call waits for the play and sees
    the game after it, never "Already mutably borrowed"."""
    inside = threading.Event()

    class SlowIndex:
        def __index__(self) -> int:
            inside.set()
            time.sleep(0.2)  # releases the GIL while the play holds the game and its board
            return 0

    g = Game(9)
    reads: dict[str, Callable[[], object]] = {
        "copy": lambda: g.copy().moves,
        "to_move": lambda: g.to_move,
        "is_over": lambda: g.is_over,
        "legal_indices": lambda: len(g.legal_indices()),
        "legal_moves": lambda: len(g.legal_moves()),
        "legal_mask": lambda: int(g.legal_mask().sum()),
        "illegal_reason": lambda: g.illegal_reason("A9"),
        "moves": lambda: g.moves,
        "to_numpy": lambda: int(g.to_numpy()[0, 0]),
        "score": lambda: g.score().black,
        "board.hash": lambda: g.board.hash != 0,
    }
    seen: dict[str, object] = {}

    def other() -> None:
        inside.wait()
        for name, read in reads.items():
            try:
                seen[name] = read()
            except RuntimeError as e:
                seen[name] = e

    t = threading.Thread(target=other)
    t.start()
    g.play(SlowIndex())
    t.join()
    assert seen == {
        "copy": ["A9"], "to_move": "W", "is_over": False, "legal_indices": 80,
        "legal_moves": 81, "legal_mask": 81, "illegal_reason": "occupied", "moves": ["A9"],
        "to_numpy": 1, "score": 81, "board.hash": True,
    }
