"""Game records for GTP's ``printsgf``/``loadsgf`` and the referee's SGF files.

Kept in this one module so that the SGF support of :mod:`ikeda.sgf` (a separate part of
the package) can replace it: :func:`to_sgf` is a small FF[4] writer of the main line, and
:func:`load` reads a record through ``ikeda.sgf`` when that module is present.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from .. import _core
from ..errors import IkedaError
from ..game import Color, Game
from ..rules import Rules
from ..score import format_points


def _sgf_point(board: _core.Board, vertex: str) -> str:
    """"D4" -> "dp" on 19x19 ("" for a pass): SGF letters count from the top-left point,
    like flat indices, with no gap."""
    i = board.index(vertex)
    w = board.width
    return "" if i == w * board.height else chr(97 + i % w) + chr(97 + i // w)


def stones(game: Game) -> dict[str, list[str]]:
    """The stones on the board as GTP vertices, by colour."""
    grid = game.to_numpy().ravel().tolist()
    return {c: [game.board.vertex(i) for i, v in enumerate(grid) if v == code] for c, code in (("B", 1), ("W", 2))}


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def to_sgf(
    game: Game,
    setup: Mapping[str, Sequence[str]] | None = None,
    *,
    black: str = "",
    white: str = "",
    result: str | None = None,
    comment: str = "",
    extra: Mapping[str, str] | None = None,
) -> str:
    """The game's main line as SGF FF[4]: SZ, KM, RU (our ruleset string), HA/AB/AW for
    `setup` stones, PB/PW, RE (`result`, else the game's own once it is over), the moves
    (a pass is ``B[]``), and a root comment."""
    h = game.height
    size = f"{game.width}" if game.width == h else f"{game.width}:{h}"
    board = game.board
    props: list[tuple[str, str]] = [
        ("GM", "1"), ("FF", "4"), ("CA", "UTF-8"), ("AP", "ikeda"), ("SZ", size),
        ("KM", format_points(game.komi)), ("RU", str(game.rules)), ("DT", date.today().isoformat()),
    ]
    if black:
        props.append(("PB", black))
    if white:
        props.append(("PW", white))
    re = result if result is not None else game.result
    if re is not None:
        props.append(("RE", re))
    for key, value in (extra or {}).items():
        props.append((key, value))
    if comment:
        props.append(("C", comment))
    root = "".join(f"{k}[{_escape(v)}]" for k, v in props)
    placed = setup or {}
    if placed.get("B") and not placed.get("W"):
        root += f"HA[{len(placed['B'])}]"
    for color in ("B", "W"):
        if placed.get(color):
            root += f"A{color}" + "".join(f"[{_sgf_point(board, v)}]" for v in placed[color])
    first = _first_mover(game)
    body = []
    c = first
    for mv in game.moves:
        body.append(f";{c}[{_sgf_point(board, mv)}]")
        c = "W" if c == "B" else "B"
    if first == "W" and game.moves:
        root += "PL[W]"
    return f"(;{root}\n" + "\n".join(body) + ")\n"


def _first_mover(game: Game) -> Color:
    """Who made the first move: the side to move now, or its opponent after an odd count."""
    if len(game.moves) % 2 == 0:
        return game.to_move
    return "W" if game.to_move == "B" else "B"


def load(path: str, upto: int | None, rules: Rules) -> tuple[Game, dict[str, list[str]], Color]:
    """The game of the SGF file `path` before move `upto` (all of it if None), replayed
    under `rules`, with its setup stones and the colour that moved first.

    Reading SGF is :mod:`ikeda.sgf`'s work; without it this raises IkedaError."""
    try:
        sgf: Any = importlib.import_module("ikeda.sgf")
    except ImportError:
        raise IkedaError("loadsgf is not available: it needs ikeda.sgf") from None
    try:
        game: Game = sgf.read(path).replay(rules=rules)
    except OSError as e:
        raise IkedaError(f"cannot read {path}: {e.strerror}") from None
    keep = len(game.moves) if upto is None else max(0, min(len(game.moves), upto - 1))
    while len(game.moves) > keep:
        game.undo()
    start = game.copy()
    while start.moves:
        start.undo()
    if game.width != game.height:
        raise IkedaError("loadsgf needs a square board")
    return game, stones(start), start.to_move
