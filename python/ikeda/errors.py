"""The exception hierarchy: every error ikeda raises is an :class:`IkedaError`.

Input errors are also :class:`ValueError`, so code that catches ``ValueError`` keeps
working and code that cares can tell them apart. The classes live in Python (so they can
have two bases); the native module raises these same classes.
"""

from __future__ import annotations

__all__ = [
    "IkedaError",
    "InvalidMoveError",
    "IllegalMoveError",
    "InvalidPositionError",
    "StatusBudgetError",
]

#: The reasons an :class:`IllegalMoveError` can carry, checked in this order.
ILLEGAL_REASONS = ("game_over", "occupied", "suicide", "superko")


class IkedaError(Exception):
    """Root of every error raised by ikeda."""


class InvalidMoveError(IkedaError, ValueError):
    """A move that cannot be read: bad syntax, off the board, or the wrong type."""

    def __init__(self, message: str, move: object = None) -> None:
        super().__init__(message)
        self.move = move


class IllegalMoveError(IkedaError, ValueError):
    """A well-formed move that the rules forbid here.

    ``reason`` is one of ``"game_over"``, ``"occupied"``, ``"suicide"``, ``"superko"``;
    ``move`` is the move as given and ``move_number`` the 1-based number it would have had.
    """

    def __init__(
        self,
        message: str,
        reason: str,
        move: object = None,
        move_number: int | None = None,
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.move = move
        self.move_number = move_number


class InvalidPositionError(IkedaError, ValueError):
    """A position that cannot exist: setup stones on one point twice, a chain with no
    liberty, a dead-stone mark on an empty point, a bad board size."""


class StatusBudgetError(IkedaError):
    """Status confirmation refused a region beyond its search budget (STATUS.md Section 7):
    ``region`` lists the region's points as GTP vertices and ``reason`` says which limit it
    passed. The engine never guesses a status instead."""

    def __init__(self, message: str, region: list[str] | None = None, reason: str = "") -> None:
        super().__init__(message)
        self.region = list(region or [])
        self.reason = reason
