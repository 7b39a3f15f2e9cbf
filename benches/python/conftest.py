"""Collect ``bench_*.py`` here as test modules (the project's pytest settings only look
for ``test_*.py`` under ``tests/``)."""

from __future__ import annotations

from pathlib import Path

import pytest


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Module | None:
    if (
        file_path.suffix == ".py"
        and file_path.name.startswith("bench_")
        and not parent.session.isinitpath(file_path)  # named on the command line: collected already
    ):
        return pytest.Module.from_parent(parent, path=file_path)
    return None
