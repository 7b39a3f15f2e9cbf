"""Ctrl-C stops every native call that input can make long: perft (any depth up to
``MAX_PERFT_DEPTH``) and status confirmation with many playouts, as ``count_games``
already did (tests/test_count_games.py). Each in a subprocess sent SIGINT."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

import ikeda
from children import interruptible
from ikeda.errors import ArgumentError
from ikeda.game import MAX_PERFT_DEPTH
from ikeda.status import MAX_PLAYOUTS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

LONG_CALLS = {
    # hours of work each, were it not stopped
    "perft": "ikeda.perft(ikeda.Game(9), 12)",
    "confirm_status": ("ikeda.confirm_status(ikeda.Game(19, setup={'B': ['D4', 'Q16'], 'W': ['Q4', 'D16']}), "
                       "unresolved='estimate', budget=1, playouts=ikeda.status.MAX_PLAYOUTS)"),
}


@pytest.mark.parametrize("call", sorted(LONG_CALLS))
def test_ctrl_c_stops_a_long_native_call(call: str) -> None:
    code = f"import sys, ikeda\nprint('started', flush=True)\n{LONG_CALLS[call]}\nprint('finished', flush=True)\n"
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "python")}
    # SIGINT at its default in the child: a child of a non-interactive shell may inherit it ignored.
    p = subprocess.Popen(interruptible([sys.executable, "-c", code]), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=env)
    try:
        assert p.stdout is not None and p.stdout.readline() == "started\n"
        time.sleep(1.0)  # well inside the native call
        assert p.poll() is None, "the call finished before it could be interrupted"
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
        stopped = time.monotonic() - sent
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()  # reaps it and closes the pipes
    assert "KeyboardInterrupt" in err and "finished" not in out
    assert stopped < 3.0, f"{call} took {stopped:.1f} s to stop"


def test_depth_and_playouts_have_sane_bounds() -> None:
    g = ikeda.Game(3)
    with pytest.raises(ArgumentError, match="perft depth"):
        ikeda.perft(g, MAX_PERFT_DEPTH + 1)
    assert ikeda.perft(ikeda.Game(1), MAX_PERFT_DEPTH) == 0  # a 1x1 game ends long before
    with pytest.raises(ArgumentError, match="playouts"):
        ikeda.confirm_status(["X.", ".O"], unresolved="estimate", playouts=MAX_PLAYOUTS + 1)
    assert ikeda.confirm_status(["X.", ".O"], unresolved="estimate", playouts=MAX_PLAYOUTS).status
