"""Hostile input and faulty peers at the command line: ``ikeda gtp`` on bad bytes and
long lines, ``loadsgf`` of devices and FIFOs, the referee against engines that fork,
flood or outlive it, ``ikeda match`` games that cannot be counted, and ``ikeda simulate``
outputs and Ctrl-C (docs/security.md)."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import ikeda
from ikeda import AREA_III, JAPANESE
from ikeda.cli import main
from ikeda.errors import EngineCrashed
from ikeda.sgf import MAX_FILE_BYTES as MAX_SGF_FILE
from ikeda.gtp import Engine
from ikeda.gtp import bot
from ikeda.gtp.controller import MAX_QUEUED_CHUNKS, TOKEN_VARIABLE, GtpController, kill_marked
from ikeda.gtp.engine import MAX_LINE
from ikeda.match import run_match

from children import interruptible
from engines import MOCK

IKEDA = [sys.executable, "-m", "ikeda"]


def first_legal(game: ikeda.Game) -> str:
    return game.legal_moves()[0]


def serve(data: bytes) -> bytes:
    """What ``ikeda gtp`` answers to `data` on stdin, under a strict UTF-8 locale."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "C.UTF-8"}
    done = subprocess.run([*IKEDA, "gtp", "--playouts", "10"], input=data, capture_output=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_gtp_answers_a_line_that_is_not_utf8_and_goes_on() -> None:
    out = serve(b"1 protocol_version\n2 play b \xff\xfe\n3 boardsize 5\n4 protocol_version\n")
    assert out == b"=1 2\n\n?2 the line is not UTF-8 (byte 10)\n\n=3\n\n=4 2\n\n"


def test_gtp_answers_a_too_long_line_once_without_echoing_it() -> None:
    long_line = b"7 play b " + b"A" * (4 * MAX_LINE) + b"\n"
    out = serve(b"1 protocol_version\n" + long_line + b"8 protocol_version\n")
    assert out.startswith(b"=1 2\n\n?7 line too long")
    assert out.endswith(b"=8 2\n\n") and len(out) < 200


def test_gtp_failure_messages_are_bounded() -> None:
    reply = Engine(first_legal).handle("komi " + "9" * 5000 + "x")
    assert reply is not None and reply.startswith("? ") and len(reply) < 300


def test_serve_reads_text_streams_too() -> None:
    out = io.StringIO()
    Engine(first_legal).serve(io.StringIO("1 name\n2 " + "x" * (MAX_LINE + 5) + "\n3 name\n"), out)
    assert out.getvalue().startswith("=1 ikeda\n\n?2 line too long") and out.getvalue().endswith("=3 ikeda\n\n")


def test_loadsgf_refuses_devices_and_fifos_and_large_files(tmp_path: Path) -> None:
    engine = Engine(first_legal)
    fifo = tmp_path / "game.sgf"
    os.mkfifo(fifo)  # no writer: opening it for reading would block
    for path in (str(fifo), "/dev/zero", str(tmp_path)):
        reply = engine.handle(f"loadsgf {path}")
        assert reply is not None and reply.startswith("?") and "not a regular file" in reply
    big = tmp_path / "big.sgf"
    with open(big, "wb") as f:
        f.truncate(MAX_SGF_FILE + 1)
    reply = engine.handle(f"loadsgf {big}")
    assert reply is not None and "over the limit" in reply
    good = tmp_path / "good.sgf"
    good.write_text("(;SZ[9];B[ee];W[cc])")
    assert engine.handle(f"loadsgf {good}") == "=\n\n" and engine.game.moves == ["E5", "C7"]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def wait_dead(pids: list[int], seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(alive(p) for p in pids):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads process states from /proc")
def test_an_engine_that_forks_and_exits_is_a_crash_and_its_child_is_killed(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    engine = GtpController([*MOCK, "--fault", "fork", "--pidfile", str(pidfile)], timeout=30)
    engine.send("boardsize 5")
    start = time.monotonic()
    with pytest.raises(EngineCrashed):
        engine.send("genmove b")
    assert time.monotonic() - start < 10  # not the 30 s timeout
    pids = [int(p) for p in pidfile.read_text().split()]
    assert len(pids) == 2 and wait_dead(pids)


def test_output_while_no_command_is_pending_is_bounded() -> None:
    flood = [sys.executable, "-c", "import sys\nwhile True: sys.stdout.write('x' * 65536)"]
    engine = GtpController(flood, timeout=5)
    try:
        time.sleep(1.0)
        assert engine._chunks.qsize() <= MAX_QUEUED_CHUNKS
        assert engine.alive  # blocked on its full pipe, not dead
    finally:
        engine.kill()


@pytest.mark.parametrize("timeout", ["nan", "inf", "-1", "0"])
def test_match_timeout_must_be_a_finite_positive_number(timeout: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--black", "x", "--white", "y", "--timeout", timeout, "--quiet"]) == 2
    assert "timeout" in capsys.readouterr().err
    with pytest.raises(ikeda.IkedaError):
        GtpController(MOCK, timeout=float(timeout), start=False)


def test_unwritable_sgf_dir_is_refused_before_the_first_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    start = time.monotonic()
    assert main(["match", "--black", " ".join(MOCK), "--white", " ".join(MOCK), "--sgf-dir", str(blocker / "sub"), "--quiet"]) == 2
    assert "cannot write game records" in capsys.readouterr().err
    assert time.monotonic() - start < 5


def starve_the_status_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Status confirmation of the whole board as one region (``split=False``: the static
    proofs, which need no states, would settle some small final positions) with one state:
    every real final position is beyond the search, as a search beyond its budget is. How
    such a region is treated (``unresolved``) is left to the caller."""
    real = ikeda.status.confirm_status
    starved = {"budget": 1, "split": False}
    monkeypatch.setattr(ikeda.status, "confirm_status", lambda position, **kw: real(position, **{**kw, **starved}))


def test_a_game_beyond_the_status_search_is_still_counted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Game.score estimates a region beyond the status search instead of refusing it, so
    every finished game of a match gets a counted result."""
    starve_the_status_search(monkeypatch)
    result = run_match(
        [*MOCK, "--seed", "3"], [*MOCK, "--seed", "4"], games=2, size=7, rules=JAPANESE, timeout=20, sgf_dir=str(tmp_path),
    )
    assert len(result.games) == 2
    for g in result.games:
        assert g.reason == "score" and re.fullmatch(r"[BW]\+\d+(\.\d)?|0", g.result), g
        assert g.sgf is not None and f"RE[{g.result}]" in Path(g.sgf).read_text()
    counted = result.engines["A"]
    assert counted.wins + counted.draws + result.engines["B"].wins == 2


def test_a_game_at_the_move_cap_beyond_the_status_search_is_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    starve_the_status_search(monkeypatch)
    engines = {label: GtpController([*MOCK, "--seed", str(k)], timeout=20) for k, label in enumerate("AB")}
    try:
        referee = ikeda.match.Referee(engines, size=7, rules=JAPANESE, timeout=20, max_moves=30)
        r = referee.play(0, "A", "B")
    finally:
        for e in engines.values():
            e.close()
    assert r.reason == "move-cap" and r.detail == "stopped after 30 moves and counted" and r.margin is not None


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads process states from /proc")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_engines_end_with_the_referee(sig: int, tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    hang = " ".join([*MOCK, "--fault", "hang", "--pidfile", str(pidfile)])
    referee = subprocess.Popen([*IKEDA, "match", "--black", hang, "--white", hang, "--quiet", "--timeout", "600"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while (not pidfile.exists() or len(pidfile.read_text().split()) < 2) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # the referee is waiting for Black's genmove
        referee.send_signal(sig)
        assert referee.wait(timeout=10) == 128 + sig
    finally:
        if referee.poll() is None:
            referee.kill()
    assert wait_dead([int(p) for p in pidfile.read_text().split()])


def test_simulate_outputs_are_checked_before_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "no" / "such" / "dir" / "x.npz"
    start = time.monotonic()
    assert main(["simulate", "--games", "10000000", "--quiet", "--out", str(missing)]) == 2
    assert time.monotonic() - start < 5 and "cannot write" in capsys.readouterr().err
    assert main(["simulate", "--games", "10000000", "--quiet", "--plot", str(tmp_path)]) == 2
    assert "not a regular file" in capsys.readouterr().err
    assert main(["simulate", "--games", "10000000", "--quiet", "--plot", str(tmp_path / "x.nope")]) == 2
    assert list(tmp_path.iterdir()) == []


def test_simulate_prints_the_paths_it_really_wrote(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "50", "--size", "5", "--quiet", "--out", str(tmp_path / "a.npz"), "--plot", str(tmp_path / "m")]) == 0
    err = capsys.readouterr().err
    assert f"wrote {tmp_path / 'a.npz'}" in err and f"wrote {tmp_path / 'm.png'}" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.npz", "m.png"]


def test_simulate_bad_numbers_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    for words in (["--pass-probability", "nan"], ["--pass-probability", "5"], ["--games", "-1"], ["--size", "0"]):
        assert main(["simulate", "--quiet", *words]) == 2, words
    with pytest.raises(SystemExit):
        main(["simulate", "--quiet", "--threads", "100000"])


def test_ctrl_c_stops_simulate_within_a_second_and_leaves_no_file(tmp_path: Path) -> None:
    out = tmp_path / "games.npz"
    # SIGINT at its default in the child: a child of a non-interactive shell may inherit it ignored.
    run = subprocess.Popen(interruptible([*IKEDA, "simulate", "--size", "19", "--games", "100000000", "--threads", "1",
                                          "--quiet", "--out", str(out)]), stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    try:
        time.sleep(3.0)  # well into the run
        assert run.poll() is None
        run.send_signal(signal.SIGINT)
        start = time.monotonic()
        code = run.wait(timeout=10)
        took = time.monotonic() - start
    finally:
        if run.poll() is None:
            run.kill()
    assert code == 130 and took < 1.0
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("words", [
    ["gtp", "--playouts", "0"], ["gtp", "--playouts", "x"], ["gtp", "--seconds", "-1"], ["gtp", "--seconds", "nan"],
    ["gtp", "--seconds", "inf"], ["gtp", "--size", "0"], ["gtp", "--size", "26"], ["gtp", "--seed", "-1"],
    ["gtp", "--seed", str(2**64)],
    ["match", "--black", "x", "--white", "y", "--games", "0"], ["match", "--black", "x", "--white", "y", "--size", "26"],
])
def test_gtp_and_match_arguments_are_usage_errors(words: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    # Like every command's: a bad number is argparse's usage error (exit status 2, the
    # usage and the argument named on stderr), before an engine starts.
    with pytest.raises(SystemExit) as stop:
        main(words)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: ikeda") and words[-2] in err


def test_the_bot_refuses_bad_budgets_and_seeds_as_ikeda_errors() -> None:
    game = ikeda.Game(5)
    nan = float("nan")
    for kwargs in ({"seed": -1}, {"seed": 2**64}, {"seed": 1.5}, {"seconds": nan}, {"seconds": "1"}, {"playouts": 0},
                   {"playouts": True}, {"resign_below": nan}):
        with pytest.raises(ikeda.IkedaError):
            bot.search(game, **{"playouts": 10, **kwargs})  # type: ignore[arg-type]
    for kwargs in ({"seed": -1}, {"seed": 2**64}, {"seconds": nan}, {"seconds": -1.0}, {"playouts": 0}):
        with pytest.raises(ikeda.IkedaError):
            bot.MctsEngine(**kwargs)  # type: ignore[arg-type]
    # The largest seed plays: the per-position seed stays within the native 64 bits.
    engine = bot.MctsEngine(playouts=10, seed=2**64 - 1, size=5)
    reply = engine.handle("genmove b")
    assert reply is not None and reply.startswith("= ") and "error" not in reply


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="finds an engine's processes through /proc")
def test_a_child_that_left_the_engines_session_is_killed_with_it(tmp_path: Path) -> None:
    # The child calls setsid: a kill of the engine's process group no longer reaches it.
    # It still carries the engine's token in its environment, which the controller looks
    # for in /proc when it stops the engine.
    pidfile = tmp_path / "pids"
    engine = GtpController([*MOCK, "--fault", "escape", "--pidfile", str(pidfile)], timeout=30)
    engine.send("boardsize 5")
    proc = engine._proc
    assert proc is not None and proc.stdin is not None
    proc.stdin.write(b"genmove b\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 30  # the mock writes its own pid, then its child's
    while (not pidfile.exists() or len(pidfile.read_text().split()) < 2) and time.monotonic() < deadline:
        time.sleep(0.05)
    own, child = [int(p) for p in pidfile.read_text().split()]
    assert own == proc.pid and os.getsid(child) == child != os.getsid(proc.pid)  # its own session
    engine.kill()
    assert wait_dead([proc.pid, child])


def _environ(pid: int) -> list[bytes]:
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return f.read().split(b"\0")
    except OSError:
        return []


def test_an_escaped_process_is_found_by_its_token_only(tmp_path: Path) -> None:
    # kill_marked kills the processes with the token, and no other: not one whose token
    # has it as a prefix. The token is unique to this run, so that the same test running
    # at the same time in another checkout on the machine is not counted.
    token = f"t-{os.getpid()}-{time.monotonic_ns()}"
    marked = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True,
                              env={**os.environ, TOKEN_VARIABLE: token})
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True,
                             env={**os.environ, TOKEN_VARIABLE: token + "2"})
    try:
        if os.path.isdir("/proc"):
            # Popen returns once the child's exec has begun; the kernel fills in the new
            # program's environment a moment later, and until then /proc shows it empty.
            for p, t in ((marked, token), (other, token + "2")):
                deadline = time.monotonic() + 10
                while f"{TOKEN_VARIABLE}={t}".encode() not in _environ(p.pid) and time.monotonic() < deadline:
                    time.sleep(0.01)
            assert kill_marked(token) == 1
            assert marked.wait(timeout=10) == -signal.SIGKILL
            assert other.poll() is None
        else:
            assert kill_marked(token) == 0
    finally:
        for p in (marked, other):
            p.kill()
            p.wait()
