"""The repository tests itself with nothing beside it: no file under tests/ or benches/ (nor
the build and CI scripts) names a path outside the repository. A user's clone has only what
is committed, so every sample a test reads lives in tests/data with a note of its origin."""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Where the guard looks: the test suite, the benchmarks, and what CI and `make test` run.
SCANNED = ("tests", "benches", ".ci", "Makefile", "conftest.py", "pyproject.toml")

#: Absolute paths of a particular machine, and the folder beside the repository that the
#: team reads but a user's clone never has.
FOREIGN = re.compile(r"""(?<![\w.])(?:/(?:work|root|home|srv|mnt)/|\.\./shared\b|shared/(?:data|peers|seeds|hooks)\b)""")

#: A relative path that climbs out of a folder.
CLIMB = re.compile(r"""(?:\.\./)+[\w.-]+""")


def _files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", *SCANNED],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()
    # This file's own examples of foreign paths are the guard's test cases, not paths it reads.
    return [ROOT / name for name in listed if (ROOT / name).is_file() and ROOT / name != Path(__file__).resolve()]


def _text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None  # binary data (a PNG, a corrupt SGF sample) names no path


def _outside(path: Path) -> bool:
    try:
        path.resolve().relative_to(ROOT)
    except ValueError:
        return True
    return False


def _file_anchored_depths(tree: ast.AST) -> list[int]:
    """How many folders up each ``Path(__file__)...parent/parents[k]`` expression climbs from
    the file's own folder (``Path(__file__).parent`` is 0)."""
    depths = []
    for node in ast.walk(tree):
        steps, inner = 0, node
        while True:
            if isinstance(inner, ast.Attribute) and inner.attr == "parent":
                steps, inner = steps + 1, inner.value
            elif (isinstance(inner, ast.Subscript) and isinstance(inner.value, ast.Attribute)
                  and inner.value.attr == "parents" and isinstance(inner.slice, ast.Constant)
                  and isinstance(inner.slice.value, int)):
                steps, inner = steps + inner.slice.value + 1, inner.value.value
            elif isinstance(inner, ast.Attribute) and inner.attr in ("resolve", "absolute"):
                inner = inner.value
            elif isinstance(inner, ast.Call) and not inner.args and isinstance(inner.func, ast.Attribute):
                inner = inner.func
            else:
                break
        if steps and isinstance(inner, ast.Call) and any(
            isinstance(a, ast.Name) and a.id == "__file__" for a in inner.args
        ):
            depths.append(steps - 1)
    return depths


def test_no_file_names_a_path_outside_the_repository() -> None:
    offences = []
    for path in _files():
        text = _text(path)
        if text is None:
            continue
        rel = path.relative_to(ROOT)
        for m in FOREIGN.finditer(text):
            offences.append(f"{rel}: names {m.group(0)!r}")
        for m in CLIMB.finditer(text):
            if _outside(path.parent / m.group(0)):
                offences.append(f"{rel}: {m.group(0)!r} climbs out of the repository")
        if path.suffix == ".py":
            for up in _file_anchored_depths(ast.parse(text)):
                if _outside(path.parent.joinpath(*[".."] * up)):
                    offences.append(f"{rel}: Path(__file__) climbs {up + 1} folders, out of the repository")
    assert not offences, "\n".join(offences)


@pytest.mark.parametrize(
    "text, expected",
    [
        # The folder's name is spelt in two parts so that no grep for it finds this file.
        ('SAMPLE = Path(__file__).resolve().parents[1].parent / "sha' 'red" / "data"', True),
        ("open('../sha" "red/data/rules-sample/games.jsonl')", True),
        ("sh ../../../elsewhere/build.sh", True),
        ('DATA = Path(__file__).resolve().parent / "data" / "rules-sample"', False),
        ('ROOT = Path(__file__).resolve().parents[1]', False),
    ],
)
def test_the_guard_sees_a_path_outside(text: str, expected: bool) -> None:
    # The same three checks as above, on one line placed at tests/probe.py.
    probe = ROOT / "tests" / "probe.py"
    found = bool(FOREIGN.search(text)) or any(_outside(probe.parent / m.group(0)) for m in CLIMB.finditer(text))
    tree = ast.parse(text) if text.startswith(("SAMPLE", "DATA", "ROOT")) else None
    if tree is not None:
        found |= any(_outside(probe.parent.joinpath(*[".."] * up)) for up in _file_anchored_depths(tree))
    assert found is expected


def test_the_samples_the_suite_reads_are_in_the_repository() -> None:
    from sample import SAMPLE as RULES
    from test_status_sample import SAMPLE as STATUS

    for path in (RULES / "games.jsonl", RULES / "probes.jsonl", STATUS):
        assert path.is_file() and not _outside(path)
        assert subprocess.run(["git", "ls-files", "--error-unmatch", str(path)], cwd=ROOT,
                              capture_output=True).returncode == 0, f"{path} is not committed"
