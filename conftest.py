"""Suite-wide fixtures: for the examples collected from README.md, docs/ and docstrings,
the one Ray session of the suite, and the order that keeps JAX's threads away from forks."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Debian installs GNU Go, the engine the docs' GTP examples start, in /usr/games, which
# root's PATH lacks; `make test` adds it too.
if os.path.isdir("/usr/games") and "/usr/games" not in os.environ.get("PATH", "").split(os.pathsep):
    os.environ["PATH"] = os.environ.get("PATH", "") + os.pathsep + "/usr/games"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "jax: loads JAX (pgx, jax.dlpack); runs after every other test")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # JAX starts threads when it loads and warns on every later fork that runs Python before
    # exec (Ray's start, `preexec_fn`), which the suite's "error" filter makes a failure; a
    # loaded module cannot be unloaded, so the tests that load it run last (a stable sort).
    items.sort(key=lambda item: item.get_closest_marker("jax") is not None)


@pytest.fixture(autouse=True)
def _jax_loads_only_in_tests_marked_jax(request: pytest.FixtureRequest) -> Iterator[None]:
    before = "jax" in sys.modules
    yield
    if not before and "jax" in sys.modules and request.node.get_closest_marker("jax") is None:
        pytest.fail("this test loaded JAX: mark it `@pytest.mark.jax` so that it runs after every test that forks")


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
