"""The vocabulary every layer shares: colours, GTP vertices and SGF points.

Each parser has a formatter whose name mirrors it (``parse_color``/``color_name``,
``parse_vertex``/``vertex_name``). Points are flat indices, row-major from the top-left
point; ``width * height`` is the pass. GTP names are made and read by the native core
(one place) and cached here per size; SGF points are read by the native SGF reader, and
written here (``sgf_point``).

>>> vertex_name(0, 9, 9), parse_vertex("e5", 9, 9), vertex_name(81, 9, 9)
('A9', 40, 'pass')
>>> sgf_point(parse_vertex("D4", 19, 19), 19, 19), sgf_point(361, 19, 19)
('dp', '')
>>> color_name(BLACK), parse_color("white")
('B', 2)
"""

from __future__ import annotations

import functools
from typing import Literal

from . import _core
from .errors import InvalidMoveError, InvalidPositionError
from .limits import board_side

#: A colour as the Python API names it.
Color = Literal["B", "W"]

#: Colour codes of the native layer, ``to_numpy`` and ``ownership`` (0 is empty).
BLACK, WHITE = 1, 2

#: The letters of GTP vertex columns (no I), left to right.
GTP_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
#: The letters of SGF point coordinates, left to right and top to bottom.
SGF_LETTERS = "abcdefghijklmnopqrstuvwxyz"

_NAMES: dict[int, Color] = {BLACK: "B", WHITE: "W"}
_CODES = {"B": BLACK, "W": WHITE, "b": BLACK, "w": WHITE, "black": BLACK, "white": WHITE}


def color_name(code: int) -> Color:
    """``"B"`` for 1, ``"W"`` for 2."""
    return _NAMES[code]


def opponent(color: Color) -> Color:
    """The other colour."""
    return "W" if color == "B" else "B"


def parse_color(text: str, what: str = "colour") -> int:
    """The code of ``"B"``/``"W"`` (also ``b``, ``w``, ``black``, ``white``); raises
    :class:`InvalidPositionError` naming `what` otherwise."""
    try:
        return _CODES[text]
    except (KeyError, TypeError):
        raise InvalidPositionError(f"{what} must be 'B' or 'W', not {text!r}") from None


@functools.lru_cache(maxsize=64)
def _board(width: int, height: int) -> _core.Board:
    return _core.Board(width, height)


@functools.lru_cache(maxsize=64)
def vertex_names(width: int, height: int) -> tuple[str, ...]:
    """GTP names by flat index, "pass" last."""
    board = _board(width, height)
    return tuple(board.vertex(i) for i in range(width * height + 1))


def vertex_name(index: int, width: int, height: int) -> str:
    """The GTP name of a flat index ("pass" for ``width * height``)."""
    return vertex_names(width, height)[index]


def parse_vertex(text: str, width: int, height: int) -> int:
    """The flat index of a GTP vertex (case-insensitive, no letter I; "pass" gives
    ``width * height``); raises :class:`InvalidMoveError`."""
    if not isinstance(text, str):
        raise InvalidMoveError(f"a vertex is a string, not {text!r}", text)
    return _board(board_side(width, "width"), board_side(height, "height")).index(text)


def sgf_point(index: int, width: int, height: int) -> str:
    """The SGF point of a flat index: two letters, column then row from the top left;
    ``""`` for the pass (FF[4])."""
    if index == width * height:
        return ""
    return SGF_LETTERS[index % width] + SGF_LETTERS[index // width]

