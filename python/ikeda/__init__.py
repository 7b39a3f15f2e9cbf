"""ikeda: Go rules you can trust, fast.

Ikeda Toshio's Area Rules III in a Rust core, with the game flow and scoring in a thin
typed Python layer. Start with :class:`Game`.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING

from . import _core
from .batch import Batch
from .coords import BLACK, WHITE
from .errors import (
    ArgumentError,
    IkedaError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    RulesError,
    SgfError,
    StatusBudgetError,
    CountBudgetError,
)
from .game import COUNT_GAMES_MAX_POINTS, Game, Move, count_games, perft
from .handicap import handicap_points
from .rules import AREA_II, AREA_III, JAPANESE, TERRITORY_I, TROMP_TAYLOR, Rules
from .score import Score, Table
from .status import ChainStatus, JapaneseScore, StatusResult, confirm_status, japanese_score
from . import sgf  # noqa: E402  (ikeda.sgf after the names it uses)

if TYPE_CHECKING:
    from . import gtp, svg

# Submodules that `import ikeda` does not load (GTP's subprocess machinery, SVG drawing),
# loaded on first use so that `ikeda.svg.board(...)` works after a plain `import ikeda`.
_LAZY_SUBMODULES = frozenset({"gtp", "svg"})


def __getattr__(name: str) -> ModuleType:
    if name in _LAZY_SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _LAZY_SUBMODULES)


__version__: str = _core.__version__

__all__ = [
    "AREA_II",
    "AREA_III",
    "ArgumentError",
    "BLACK",
    "Batch",
    "WHITE",
    "ChainStatus",
    "Game",
    "IkedaError",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "JAPANESE",
    "JapaneseScore",
    "Move",
    "Rules",
    "RulesError",
    "Score",
    "SgfError",
    "StatusBudgetError",
    "CountBudgetError",
    "StatusResult",
    "TERRITORY_I",
    "TROMP_TAYLOR",
    "Table",
    "confirm_status",
    "count_games",
    "COUNT_GAMES_MAX_POINTS",
    "handicap_points",
    "japanese_score",
    "perft",
]
