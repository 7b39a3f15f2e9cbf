"""Collect ``bench_*.py`` here as test modules (the project's pytest settings only look
for ``test_*.py`` under ``tests/``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Module | None:
    if (
        file_path.suffix == ".py"
        and file_path.name.startswith("bench_")
        and not parent.session.isinitpath(file_path)  # named on the command line: collected already
    ):
        return pytest.Module.from_parent(parent, path=file_path)
    return None


@pytest.fixture
def record_rate(benchmark: Any) -> Callable[..., None]:
    """Record ``count`` per second of the timed rounds (their ``total`` or ``mean`` time) as
    ``extra_info[key]``. Under ``--benchmark-disable`` (the test suite runs every benchmark
    once to check its answers) nothing is timed, so nothing is recorded."""

    def record(key: str, count: float, stat: str = "total") -> None:
        if benchmark.stats is not None:
            benchmark.extra_info[key] = round(count / getattr(benchmark.stats.stats, stat))

    return record
