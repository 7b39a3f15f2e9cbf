"""Suite-wide fixtures for the examples collected from README.md, docs/ and docstrings."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

# Debian installs GNU Go, the engine the docs' GTP examples start, in /usr/games, which
# root's PATH lacks; `make test` adds it too.
if os.path.isdir("/usr/games") and "/usr/games" not in os.environ.get("PATH", "").split(os.pathsep):
    os.environ["PATH"] = os.environ.get("PATH", "") + os.pathsep + "/usr/games"


@pytest.fixture(autouse=True)
def _examples_run_in_a_scratch_directory(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[None]:
    # The README's examples write files (game.sgf) as a reader would; keep them out of the tree.
    if request.node.get_closest_marker("markdown-docs") is None:
        yield
        return
    old = Path.cwd()
    os.chdir(tmp_path)
    try:
        yield
    finally:
        os.chdir(old)
