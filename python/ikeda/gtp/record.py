"""Game records for GTP's ``printsgf``/``loadsgf`` and the referee's SGF files, through
:mod:`ikeda.sgf`."""

from __future__ import annotations

from pathlib import Path

from .. import sgf
from ..coords import BLACK, WHITE, Color, color_name, vertex_names
from ..errors import IkedaError
from ..game import Game
from ..rules import Rules


def stones(game: Game) -> dict[str, list[str]]:
    """The stones on the board as GTP vertices, by colour."""
    grid, names = game.to_numpy().ravel().tolist(), vertex_names(game.width, game.height)
    return {color_name(code): [names[i] for i, v in enumerate(grid) if v == code] for code in (BLACK, WHITE)}


def to_sgf(game: Game, *, black: str = "", white: str = "", result: str | None = None, comment: str = "") -> str:
    """The game as SGF FF[4] (:func:`ikeda.sgf.game_to_sgf`: SZ, KM, RU, setup, moves)
    with the players' names, `result` (else the game's own once it is over) and a root
    comment."""
    extra = {"PB": black, "PW": white, "RE": result or "", "C": comment}
    return sgf.game_to_sgf(game, {k: v for k, v in extra.items() if v})


def load(path: str, upto: int | None, rules: Rules) -> tuple[Game, dict[str, list[str]], Color]:
    """The game of the SGF file `path` before move `upto` (all of it if None), replayed
    under `rules`, with its setup stones and the colour that moved first."""
    try:  # the one reader of SGF files: regular files only, one bound (docs/security.md)
        record = sgf.read(Path(path))
    except OSError as e:
        raise IkedaError(f"cannot read {path}: {e.strerror}") from None
    game = record.replay(rules=rules)
    keep = len(game.moves) if upto is None else max(0, min(len(game.moves), upto - 1))
    while len(game.moves) > keep:
        game.undo()
    start = game.copy()
    while start.moves:
        start.undo()
    if game.width != game.height:
        raise IkedaError("loadsgf needs a square board")
    return game, stones(start), start.to_move
