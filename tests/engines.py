"""Engine commands for the GTP tests: the scripted mock and GNU Go (from Debian's gnugo
package, which installs it in /usr/games)."""

from __future__ import annotations

import os
import shutil
import sys

import pytest

MOCK = [sys.executable, os.path.join(os.path.dirname(__file__), "gtp_mock.py")]

_gnugo = shutil.which("gnugo") or ("/usr/games/gnugo" if os.access("/usr/games/gnugo", os.X_OK) else None)
#: GNU Go at level 1, capturing dead stones itself: every stone on the board counts at the
#: end of an Area III game.
GNUGO = [_gnugo or "gnugo", "--mode", "gtp", "--level", "1", "--chinese-rules", "--capture-all-dead"]

needs_gnugo = pytest.mark.skipif(_gnugo is None, reason="GNU Go is not installed (.ci/run installs it)")
