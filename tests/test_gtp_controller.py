"""The controller for external GTP engines, against the scripted mock, the built-in bot
served by ``ikeda gtp``, and GNU Go."""

from __future__ import annotations

import io
import sys
import time

import pytest

from ikeda import Game
from ikeda.errors import EngineCrashed, EngineError, EngineProtocolError, EngineTimeout, GtpError, IkedaError
from ikeda.gtp import GtpController

from engines import GNUGO, MOCK, needs_gnugo


def mock(fault: str = "none", at: int = 1) -> list[str]:
    return [*MOCK, "--fault", fault, "--at", str(at)]


def test_commands_replies_transcript_and_clean_shutdown() -> None:
    log = io.StringIO()
    with GtpController(mock(), timeout=10, name="m", transcript=log) as e:
        assert e.send("protocol_version") == "2"
        assert e.send("7 name") == "mock"
        assert e.send("boardsize 5") == "" and e.send("play b c3") == ""
        with pytest.raises(GtpError) as err:
            e.send("play w c3")
        assert err.value.command == "play w c3" and "occupied" in err.value.reply
        assert isinstance(err.value, IkedaError)
        assert Game(5).is_legal(e.send("genmove w"))  # the engine goes on after a failure
    assert not e.alive and e.returncode == 0
    text = log.getvalue()
    assert "m> protocol_version\nm< = 2\n" in text and "m< ? illegal move" in text and "m> quit" in text


@pytest.mark.parametrize(
    ("fault", "error", "message"),
    [
        ("garbage", EngineProtocolError, "non-GTP output"),
        ("flood", EngineProtocolError, "exceeds"),
        ("crash", EngineCrashed, "status 3"),
        ("hang", EngineTimeout, "within 0.5 s"),
    ],
)
def test_faults_are_typed_errors_and_stop_the_engine(fault: str, error: type[EngineError], message: str) -> None:
    e = GtpController(mock(fault), timeout=10)
    e.send("boardsize 9")
    start = time.monotonic()
    with pytest.raises(error, match=message) as err:
        e.send("genmove b", timeout=0.5)
    assert time.monotonic() - start < 5
    assert err.value.command == "genmove b" and not e.alive
    with pytest.raises(EngineCrashed, match="not running"):
        e.send("name")
    e.restart()  # a fresh engine
    assert e.send("name") == "mock"
    e.close()


def test_engines_that_cannot_start_or_die_at_once() -> None:
    with pytest.raises(EngineCrashed, match="cannot start"):
        GtpController(["/nonexistent/engine"])
    e = GtpController(mock("exit-on-start"))
    with pytest.raises(EngineCrashed) as err:
        e.send("name")
    assert err.value.returncode == 5
    e.close()  # never raises
    with GtpController(mock()) as e, pytest.raises(EngineProtocolError):
        e.send("two\ncommands")


def test_the_builtin_bot_over_gtp() -> None:
    with GtpController([sys.executable, "-m", "ikeda", "gtp", "--playouts", "200"], timeout=30) as e:
        assert e.send("name") == "ikeda-mcts"
        assert e.send("boardsize 9") == ""
        move = e.send("genmove b")
        assert Game(9).is_legal(move) and move != "pass"
        assert e.send("ikeda-rules") == "area3"


@needs_gnugo
def test_gnu_go() -> None:
    with GtpController(GNUGO, timeout=30) as e:
        assert e.send("name") == "GNU Go"
        e.send("boardsize 9")
        e.send("clear_board")
        e.send("play b e5")
        game = Game(9)
        game.play("E5")
        move = e.send("genmove w")
        game.play(move)  # legal under our rules
        with pytest.raises(GtpError):
            e.send("play b e5")


def test_an_engine_that_floods_without_reading_is_a_timeout_not_a_hang() -> None:
    """The write of a command is under its deadline too: an engine that never reads its
    input while writing replies fills both pipes; a blocking write would wait for ever."""
    e = GtpController(mock("deaf-flood"), timeout=10)
    start = time.monotonic()
    with pytest.raises(EngineTimeout, match="did not read") as err:
        e.send("name " + "x" * 1_000_000, timeout=3.0)  # far more than a pipe holds
    assert time.monotonic() - start < 10 and not e.alive and len(str(err.value)) < 200
    e.close()
