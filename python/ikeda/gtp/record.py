"""Game records for GTP's ``printsgf``/``loadsgf`` and the referee's SGF files, through
:mod:`ikeda.sgf`."""

from __future__ import annotations

import errno
import os
import stat
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


def load(path: str, upto: int | None, rules: Rules | None) -> tuple[Game, dict[str, list[str]], Color]:
    """The game of the SGF file `path` before move `upto` (all of it if None), replayed
    under `rules` (None: the record's own, its ``RU`` and ``KM``, as ``ikeda replay``
    reads them), with its setup stones and the colour that moved first."""
    try:  # the one reader of SGF files: regular files only, one bound (docs/security.md)
        rec = sgf.read(Path(path))
    except OSError as e:
        raise IkedaError(f"cannot read {path}: {e.strerror}") from None
    if rules is not None:
        rec.komi = None  # the engine's fixed rules keep their komi too
    game = rec.replay(rules=rules)
    keep = len(game.moves) if upto is None else max(0, min(len(game.moves), upto - 1))
    while len(game.moves) > keep:
        game.undo()
    start = game.copy()
    while start.moves:
        start.undo()
    if game.width != game.height:
        raise IkedaError("loadsgf needs a square board")
    return game, stones(start), start.to_move


def write_regular(path: str, text: str) -> None:
    """Writes `text` to `path` for ``printsgf FILE``: a new file, or a regular file it
    truncates and overwrites (docs/security.md). Anything else (a FIFO, a device, a
    directory) is refused without blocking: the file is opened non-blocking and checked
    before anything is truncated. Failures are :class:`GtpFailure`."""
    from .engine import GtpFailure

    shown = path.encode("utf-8", "backslashreplace").decode("utf-8")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0), 0o644)
    except OSError as e:
        reason = "not a regular file" if e.errno == errno.ENXIO else e.strerror  # a FIFO with no reader
        raise GtpFailure(f"cannot write {shown}: {reason}") from None
    except ValueError:  # a NUL byte, or a name the file system encoding cannot hold
        raise GtpFailure(f"cannot write {shown}: not a valid file name") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise GtpFailure(f"cannot write {shown}: not a regular file")
        os.set_blocking(fd, True)
        os.ftruncate(fd, 0)
        with os.fdopen(fd, "w", encoding="utf-8", closefd=True) as f:
            fd = -1
            f.write(text)
    except OSError as e:
        raise GtpFailure(f"cannot write {shown}: {e.strerror}") from None
    finally:
        if fd >= 0:
            os.close(fd)
