"""What may import what in python/ikeda (docs/architecture.md), read from the sources:
module-level imports only (an import inside a function is a lazy one, which is allowed,
e.g. ``Game._repr_svg_``); imports under ``if TYPE_CHECKING`` count."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "ikeda"

#: Formats and front ends: they depend on the game, never the reverse.
OUTER = ("ikeda.sgf", "ikeda.svg", "ikeda.gtp", "ikeda.match", "ikeda.cli", "ikeda.__main__")


def _modules() -> dict[str, Path]:
    mods = {}
    for p in PACKAGE.rglob("*.py*"):
        if p.suffix not in (".py", ".pyi") or (p.suffix == ".pyi" and p.stem != "_core"):
            continue
        parts = list(p.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = p
    return mods


def _imports(name: str, path: Path, mods: dict[str, Path]) -> set[str]:
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out: set[str] = set()
    body = ast.parse(path.read_text(encoding="utf-8")).body
    nodes = [n for stmt in body for n in (stmt.body if isinstance(stmt, ast.If) else [stmt])]
    for node in nodes:
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                full = f"{target}.{alias.name}"
                out.add(full if full in mods else target)
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return {m for m in out if m in mods and m != name}


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    return {name: _imports(name, path, mods) for name, path in mods.items()}


def _outer(name: str) -> bool:
    return any(name == o or name.startswith(o + ".") for o in OUTER)


def test_the_graph_is_read() -> None:
    graph = _graph()
    assert {"ikeda.coords", "ikeda.status", "ikeda._core"} <= graph["ikeda.game"]
    assert "ikeda.game" in graph["ikeda.sgf"] and "ikeda.cli.output" in graph["ikeda.cli.replay"]


def test_no_import_circle() -> None:
    graph = _graph()
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            raise AssertionError("import circle: " + " -> ".join([*path[path.index(name):], name]))
        if name in done:
            return
        for dep in sorted(graph[name]):
            visit(dep, [*path, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


def test_the_game_never_imports_formats_or_front_ends() -> None:
    graph = _graph()
    below, todo = set(), ["ikeda.game"]
    while todo:
        name = todo.pop()
        if name not in below:
            below.add(name)
            todo.extend(graph[name])
    assert not sorted(m for m in below if _outer(m))
    assert "ikeda" not in below  # nothing under the game imports the package facade


def test_only_the_command_line_imports_the_command_line() -> None:
    graph = _graph()
    for name, deps in graph.items():
        if any(d == "ikeda.cli" or d.startswith("ikeda.cli.") for d in deps):
            assert name.startswith("ikeda.cli") or name == "ikeda.__main__", name
