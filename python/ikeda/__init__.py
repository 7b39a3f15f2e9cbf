"""ikeda: Go rules you can trust, fast.

Ikeda Toshio's Area Rules III in a Rust core, with the game flow and scoring in a thin
typed Python layer. Start with :class:`Game`.
"""

from __future__ import annotations

from . import _core
from .errors import IkedaError, IllegalMoveError, InvalidMoveError, InvalidPositionError
from .game import BLACK, WHITE, Game, Move, perft
from .handicap import handicap_points
from .score import Score

__version__: str = _core.__version__

__all__ = [
    "BLACK",
    "WHITE",
    "Game",
    "IkedaError",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "Move",
    "Score",
    "handicap_points",
    "perft",
]
