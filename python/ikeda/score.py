"""The result of counting a position under Area Rules III (Rules 7 and 8)."""

from __future__ import annotations

from typing import Literal, NamedTuple


def format_points(x: float) -> str:
    """3.0 -> "3", 3.5 -> "3.5"."""
    return str(int(x)) if x == int(x) else str(x)


class Score(NamedTuple):
    """Area III score: stones + territory, the first-pass half point, komi.

    ``black`` and ``white`` are the totals; the breakdown says where they come from:
    ``black = black_stones + black_territory - half_point`` and
    ``white = white_stones + white_territory + half_point + komi``, where ``half_point`` is
    0.5 when White made the first pass of the game (Rule 7) and 0 otherwise.

    An immutable named tuple, so it is cheap to make and compares by value.
    """

    black: float
    white: float
    black_stones: int
    white_stones: int
    black_territory: int
    white_territory: int
    half_point: float
    komi: float
    dead: tuple[str, ...] = ()

    @property
    def margin(self) -> float:
        """Black's score minus White's."""
        return self.black - self.white

    @property
    def winner(self) -> Literal["B", "W"] | None:
        """The higher score wins; equal scores are a draw (None)."""
        m = self.margin
        return "B" if m > 0 else "W" if m < 0 else None

    @property
    def result(self) -> str:
        """SGF style: "B+3.5", "W+0.5", or "0" for a draw."""
        m = self.margin
        if m == 0:
            return "0"
        return f"{'B' if m > 0 else 'W'}+{format_points(abs(m))}"

    def __str__(self) -> str:
        half = f" - {self.half_point} (White passed first)" if self.half_point else ""
        whalf = f" + {self.half_point}" if self.half_point else ""
        return (
            f"Black {format_points(self.black)} = {self.black_stones} stones + "
            f"{self.black_territory} territory{half}; "
            f"White {format_points(self.white)} = {self.white_stones} stones + "
            f"{self.white_territory} territory{whalf} + {format_points(self.komi)} komi; "
            f"{self.result}"
        )
