"""Fixed handicap placement at the standard points of the GTP specification (v2, 4.1.1)."""

from __future__ import annotations

import numpy as np

from .coords import GTP_LETTERS
from .errors import InvalidPositionError
from .limits import board_side

# Each point as (row, column) over {0: the low star line, 1: the middle, 2: the high one};
# row 0 is the bottom. The n-stone layout is the first n of its pattern.
_PATTERNS = {
    2: ("00", "22"),
    3: ("00", "22", "20"),
    4: ("00", "22", "20", "02"),
    5: ("00", "22", "20", "02", "11"),
    6: ("00", "22", "20", "02", "10", "12"),
    7: ("00", "22", "20", "02", "10", "12", "11"),
    8: ("00", "22", "20", "02", "10", "12", "01", "21"),
    9: ("00", "22", "20", "02", "10", "12", "01", "21", "11"),
}


def max_fixed_handicap(size: int) -> int:
    """The largest fixed handicap GTP allows on a square board of this size."""
    if size < 7 or size > 25:
        return 0
    return 4 if size % 2 == 0 or size == 7 else 9


def handicap_points(stones: int, size: int) -> list[str]:
    """The GTP vertices of a fixed handicap of `stones` on a `size` x `size` board."""
    if isinstance(stones, bool) or not isinstance(stones, (int, np.integer)):
        raise InvalidPositionError(f"a handicap is an int (a number of stones), not {stones!r}")
    size = board_side(size, "size")
    if stones not in _PATTERNS or stones > max_fixed_handicap(size):
        raise InvalidPositionError(
            f"no fixed handicap of {stones} stones on {size}x{size} "
            f"(GTP allows 2..{max_fixed_handicap(size)} here)"
        )
    line = 2 if size < 13 else 3
    at = {"0": line, "1": (size - 1) // 2, "2": size - 1 - line}
    return [f"{GTP_LETTERS[at[p[1]]]}{at[p[0]] + 1}" for p in _PATTERNS[stones]]
