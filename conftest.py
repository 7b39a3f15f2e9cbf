"""Suite-wide fixtures: for the examples collected from README.md, docs/ and docstrings,
and the one Ray session of the suite."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


@pytest.fixture(scope="session")
def ray_session() -> Iterator[Any]:
    """One local Ray of 2 CPUs for every test, benchmark and example that runs on Ray: Ray
    takes seconds to start, so the suite starts it once. Runs given ``ray="local"`` or
    ``"auto"`` use it as it is (docs/ray.md)."""
    ray = pytest.importorskip("ray")
    ray.init(
        num_cpus=2, object_store_memory=200 * 2**20, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING
    )
    yield ray
    ray.shutdown()
