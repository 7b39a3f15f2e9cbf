"""The exception hierarchy: every error ikeda raises is an :class:`IkedaError`.

Input errors are also :class:`ValueError`, so code that catches ``ValueError`` keeps
working and code that cares can tell them apart. The classes live in Python (so they can
have two bases); the native module raises these same classes.
"""

from __future__ import annotations

__all__ = [
    "IkedaError",
    "ArgumentError",
    "RulesError",
    "InvalidMoveError",
    "IllegalMoveError",
    "InvalidPositionError",
    "SgfError",
    "EngineError",
    "GtpError",
    "EngineProtocolError",
    "EngineTimeout",
    "EngineCrashed",
    "StatusBudgetError",
    "CountBudgetError",
    "DatasetError",
    "RayNotInstalledError",
]

#: Every reason an :class:`IllegalMoveError` can carry. A move is tested for the first
#: four in this order and reports the first that applies; ``"ko"`` takes the place of
#: ``"superko"`` under simple ko (the core's ``Illegal::Ko``); ``"out_of_turn"`` is a game
#: record's move by the side not to move (SGF allows it, the rules do not).
ILLEGAL_REASONS = ("game_over", "occupied", "suicide", "superko", "ko", "out_of_turn")


class IkedaError(Exception):
    """Root of every error raised by ikeda."""


class ArgumentError(IkedaError, ValueError):
    """An argument of the wrong kind or out of its range: a count, a bound, a seed, a komi,
    an option's name."""


class RulesError(IkedaError, ValueError):
    """A ruleset that cannot be read or does not exist."""


class InvalidMoveError(IkedaError, ValueError):
    """A move that cannot be read: bad syntax, off the board, or the wrong type."""

    def __init__(self, message: str, move: object = None, game: int | None = None) -> None:
        super().__init__(message)
        self.move = move
        #: The index of the game in an :class:`ikeda.Batch` the move was for.
        self.game = game


class IllegalMoveError(IkedaError, ValueError):
    """A well-formed move that the rules forbid here.

    ``reason`` is one of ``"game_over"``, ``"occupied"``, ``"suicide"``, ``"superko"``
    (``"ko"`` under simple ko; ``"out_of_turn"`` for a game record's move by the wrong side);
    ``move`` is the move as given and ``move_number`` the 1-based number it would have had.
    """

    def __init__(
        self,
        message: str,
        reason: str,
        move: object = None,
        move_number: int | None = None,
        game: int | None = None,
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.move = move
        self.move_number = move_number
        #: The index of the game in an :class:`ikeda.Batch` the move was for.
        self.game = game


class InvalidPositionError(IkedaError, ValueError):
    """A position that cannot exist: setup stones on one point twice, a chain with no
    liberty, a dead-stone mark on an empty point, a bad board size; also a colour that
    cannot be read (a colour names a side of the position: the side to move, a stone's
    colour), whether given by name to Python (``to_move="X"``) or by code to the native
    module (``Board.play(move, 3)``)."""


class SgfError(IkedaError, ValueError):
    """A game record that cannot be read: malformed SGF, a bad charset, a board size or
    move that does not fit. ``line`` and ``column`` (1-based, in characters) say where."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


class EngineError(IkedaError):
    """A problem with an external GTP engine; ``engine`` names it and ``command`` is the
    GTP command it was given (None when the engine was not running a command)."""

    def __init__(self, message: str, engine: str = "", command: str | None = None) -> None:
        super().__init__(message)
        self.engine = engine
        self.command = command


class GtpError(EngineError):
    """The engine answered a command with a GTP failure (``? message``); ``reply`` holds the
    message. The engine is still usable."""

    def __init__(self, message: str, engine: str = "", command: str | None = None, reply: str = "") -> None:
        super().__init__(message, engine, command)
        self.reply = reply


class EngineProtocolError(EngineError):
    """The engine's output is not GTP (garbage, or a reply longer than allowed); the
    controller has stopped the engine, since its output can no longer be trusted."""


class EngineTimeout(EngineError):
    """The engine did not answer within the time allowed; the controller has stopped it."""


class EngineCrashed(EngineError):
    """The engine exited (or could not be started); ``returncode`` is its exit status if
    known."""

    def __init__(self, message: str, engine: str = "", command: str | None = None, returncode: int | None = None) -> None:
        super().__init__(message, engine, command)
        self.returncode = returncode


class StatusBudgetError(IkedaError):
    """Status confirmation refused a region beyond its search budget (STATUS.md Section 7):
    ``region`` lists the region's points as GTP vertices and ``reason`` says which limit it
    passed. Raised by :func:`ikeda.confirm_status` and :func:`ikeda.japanese_score` with
    ``unresolved="raise"`` (proofs only), which never guess a status; by default they, like
    :meth:`ikeda.Game.score` and :meth:`ikeda.Game.final_status`, estimate such a region
    and mark its stones as estimated instead of raising (docs/status.md)."""

    def __init__(self, message: str, region: list[str] | None = None, reason: str = "") -> None:
        super().__init__(message)
        self.region = list(region or [])
        self.reason = reason


class DatasetError(IkedaError):
    """A directory that is not a dataset of this run, or a shard file that cannot be read
    (:mod:`ikeda.dataset`; also importable from there)."""


class RayNotInstalledError(IkedaError):
    """A run asked for Ray, which is not installed (:mod:`ikeda.distributed`; also
    importable from there)."""


class CountBudgetError(IkedaError):
    """:func:`ikeda.count_games` visited its ``budget`` of positions before the count was
    finished; no partial count is given."""

    def __init__(self, message: str, budget: int = 0) -> None:
        super().__init__(message)
        self.budget = budget
