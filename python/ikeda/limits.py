"""The limits on sizes and counts the API accepts, and the checks that turn a bad number
into an :class:`ArgumentError` (an IkedaError) naming it (docs/security.md lists each limit and its test).

Numbers that size a native allocation or a thread pool are checked here, before anything
is allocated or started; numpy integers are accepted wherever an int is.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from . import _core
from .errors import ArgumentError, InvalidPositionError

#: The most threads a native call may start (``threads=0`` means every core).
MAX_THREADS: int = _core.MAX_THREADS
#: The most games one :class:`ikeda.Batch` holds.
MAX_GAMES: int = _core.MAX_GAMES
#: The largest move cap a playout takes.
MAX_MOVES = 2**32 - 1
#: The largest seed (the native generators take 64 bits).
MAX_SEED = 2**64 - 1
#: The longest time budget a call takes, in seconds (a day).
MAX_SECONDS = 86_400.0


def whole(value: object, what: str, low: int, high: int) -> int:
    """`value` as an int in ``low..=high`` (bools refused, numpy ints accepted)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ArgumentError(f"{what} must be an int, not {value!r}")
    if not low <= value <= high:
        raise ArgumentError(f"{what} must be in {low}..={high}, not {value}")
    return int(value)


def thread_count(threads: object) -> int:
    """A thread count: 0 (every core) to :data:`MAX_THREADS`."""
    return whole(threads, "threads", 0, MAX_THREADS)


def probability(value: object, what: str) -> float:
    """`value` as a float in [0, 1] (NaN refused)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ArgumentError(f"{what} must be a number in [0, 1], not {value!r}")
    p = float(value)
    if math.isnan(p) or not 0.0 <= p <= 1.0:
        raise ArgumentError(f"{what} must be in [0, 1], not {value!r}")
    return p


def seconds(value: object, what: str = "seconds") -> float:
    """A time budget in seconds: a finite number in ``0..=MAX_SECONDS`` (0: none)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ArgumentError(f"{what} must be a number of seconds, not {value!r}")
    t = float(value)
    if not math.isfinite(t) or not 0.0 <= t <= MAX_SECONDS:
        raise ArgumentError(f"{what} must be within 0..={MAX_SECONDS:g}, not {value!r}")
    return t


#: The largest board side (the native core's limit).
MAX_SIDE = 25


def board_side(n: object, what: str) -> int:
    """A board side as an int in ``1..=MAX_SIDE`` (numpy ints accepted), or
    :class:`InvalidPositionError` naming it."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise InvalidPositionError(f"board {what} must be an int, not {n!r}")
    if not 1 <= n <= MAX_SIDE:
        raise InvalidPositionError(f"board {what} {n} is not within 1..={MAX_SIDE}")
    return int(n)


def move_list(moves: object, what: str) -> list[Any]:
    """A list of moves (setup stones, dead stones) from an iterable that is not a string,
    or :class:`InvalidPositionError` naming `what`."""
    if isinstance(moves, (str, bytes)) or not isinstance(moves, Iterable):
        raise InvalidPositionError(f"{what} must be a list of moves, not {moves!r}")
    return list(moves)
