"""Board diagrams for the tests.

A diagram is a list of row strings, top row first (or one multi-line string): ``X`` is a
Black stone, ``O`` a White stone, ``.`` an empty point. Spaces are ignored, so rows may be
written ``". X O"`` as well as ``".XO"``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

import ikeda

#: GTP column letters: A to Z without I.
LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

_CELL = {".": 0, "X": 1, "O": 2}
_CHAR = {0: ".", 1: "X", 2: "O"}

Diagram = str | Sequence[str]


def rows_of(diagram: Diagram) -> list[str]:
    """The diagram as a list of equal-length rows without spaces, top row first."""
    if isinstance(diagram, str):
        lines = diagram.strip("\n").splitlines()
    else:
        lines = list(diagram)
    rows = ["".join(line.split()) for line in lines]
    rows = [r for r in rows if r]
    if not rows:
        raise ValueError("empty diagram")
    width = len(rows[0])
    for r in rows:
        if len(r) != width:
            raise ValueError(f"ragged diagram: {rows!r}")
        bad = set(r) - set(_CELL)
        if bad:
            raise ValueError(f"unknown diagram characters {sorted(bad)!r} in {r!r}")
    return rows


def vertex(col: int, row_from_top: int, height: int) -> str:
    """GTP vertex of the point in column ``col`` (0 = A) and diagram row ``row_from_top``."""
    return f"{LETTERS[col]}{height - row_from_top}"


def flat_index(v: str, width: int, height: int) -> int:
    """Flat index (row-major from the top-left point) of a GTP vertex; ``pass`` is w*h."""
    if v.lower() == "pass":
        return width * height
    col = LETTERS.index(v[0].upper())
    row = int(v[1:])
    return (height - row) * width + col


def vertex_of_index(index: int, width: int, height: int) -> str:
    if index == width * height:
        return "pass"
    r, c = divmod(index, width)
    return vertex(c, r, height)


def all_vertices(width: int, height: int) -> list[str]:
    """Every vertex in flat-index order (top-left first, row by row)."""
    return [vertex_of_index(i, width, height) for i in range(width * height)]


def setup_of(diagram: Diagram) -> dict[str, list[str]]:
    rows = rows_of(diagram)
    h = len(rows)
    setup: dict[str, list[str]] = {"B": [], "W": []}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == "X":
                setup["B"].append(vertex(c, r, h))
            elif ch == "O":
                setup["W"].append(vertex(c, r, h))
    return setup


def game_from(diagram: Diagram, **kwargs: Any) -> ikeda.Game:
    """A Game whose initial configuration is ``diagram`` (placed with ``setup``)."""
    rows = rows_of(diagram)
    h, w = len(rows), len(rows[0])
    if w == h:
        return ikeda.Game(w, setup=setup_of(rows), **kwargs)
    return ikeda.Game(width=w, height=h, setup=setup_of(rows), **kwargs)


def array_of(diagram: Diagram) -> np.ndarray:
    """The diagram as an int8 (h, w) array in ``to_numpy`` form."""
    rows = rows_of(diagram)
    return np.array([[_CELL[ch] for ch in row] for row in rows], dtype=np.int8)


def diagram_of(board: Any) -> list[str]:
    """Rows of a ``to_numpy`` array (or of a Game) as a diagram."""
    arr = board.to_numpy() if hasattr(board, "to_numpy") else np.asarray(board)
    return ["".join(_CHAR[int(v)] for v in row) for row in arr]


def assert_board(game: ikeda.Game, diagram: Diagram) -> None:
    """``game.to_numpy()`` shows exactly ``diagram``."""
    expected = rows_of(diagram)
    actual = game.to_numpy()
    assert actual.dtype == np.int8
    assert diagram_of(actual) == expected, (
        "board differs\nexpected:\n" + "\n".join(expected) + "\nactual:\n"
        + "\n".join(diagram_of(actual))
    )


def play_all(game: ikeda.Game, moves: Iterable[Any]) -> ikeda.Game:
    for m in moves:
        game.play(m)
    return game


def snapshot(game: ikeda.Game) -> dict[str, Any]:
    """Everything observable about a game's state, for 'unchanged' checks."""
    return {
        "board": game.to_numpy().tolist(),
        "to_move": game.to_move,
        "moves": list(game.moves),
        "first_passer": game.first_passer,
        "is_over": game.is_over,
        "legal_mask": game.legal_mask().tolist(),
    }
