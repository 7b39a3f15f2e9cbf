"""The result of counting a position: Area III (Rules 7 and 8) by default, or another
ruleset's counting (see :mod:`ikeda.counting`)."""

from __future__ import annotations

from typing import Literal, NamedTuple


def format_points(x: float) -> str:
    """3.0 -> "3", 3.5 -> "3.5"."""
    return str(int(x)) if x == int(x) else str(x)


def format_result(margin: float) -> str:
    """SGF style for Black's score minus White's: "B+3.5", "W+0.5", or "0" for a draw."""
    if margin == 0:
        return "0"
    return f"{'B' if margin > 0 else 'W'}+{format_points(abs(margin))}"


class Table(NamedTuple):
    """Seed 003's bookkeeping (index 1 = Black, 2 = White): M stones played before the
    preliminary end, L stones on the board at it, T stones played and P passes after it
    (the two passes forming it excluded), Q stones on the board and S territory at the
    end."""

    M1: int
    M2: int
    L1: int
    L2: int
    T1: int
    T2: int
    P1: int
    P2: int
    Q1: int
    Q2: int
    S1: int
    S2: int


class Score(NamedTuple):
    """Area III score: stones + territory, the first-pass half point, komi.

    ``black`` and ``white`` are the totals; the breakdown says where they come from:
    ``black = black_stones + black_territory - half_point`` and
    ``white = white_stones + white_territory + half_point + komi``, where ``half_point`` is
    0.5 when White made the first pass of the game (Rule 7) and 0 otherwise.

    Under territory counting (Territory I) ``black = black_territory - black_lost`` and
    ``white = white_territory - white_lost + komi``, where a side's stones lost are its
    captured stones (dead ones included) and its pass stones. ``table`` holds seed 003's
    quantities once the game has a preliminary end, for the record continued to Territory
    I's end; ``extra_passes`` is the number of passes Territory I counting appended to
    reach it (0 under area counting and for a game played under Territory I).

    Under Japanese counting ``black = black_territory + white_lost`` and ``white =
    white_territory + black_lost + komi``: territory plus prisoners, the dead stones
    (decided by status confirmation, :mod:`ikeda.status`) counted as lost.

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
    rules: str = "area3"
    black_lost: int = 0
    white_lost: int = 0
    table: Table | None = None
    extra_passes: int = 0
    #: Under Japanese counting: the stones whose status was estimated, not proven.
    estimated: tuple[str, ...] = ()

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
        return format_result(self.margin)

    def __str__(self) -> str:
        if self.rules.startswith("japanese"):
            return (
                f"Black {format_points(self.black)} = {self.black_territory} territory + "
                f"{self.white_lost} prisoners; White {format_points(self.white)} = "
                f"{self.white_territory} territory + {self.black_lost} prisoners + "
                f"{format_points(self.komi)} komi; {self.result}"
            )
        if self.rules.startswith("territory"):
            return (
                f"Black {format_points(self.black)} = {self.black_territory} territory - "
                f"{self.black_lost} lost; White {format_points(self.white)} = "
                f"{self.white_territory} territory - {self.white_lost} lost + "
                f"{format_points(self.komi)} komi; {self.result}"
            )
        half = f" - {self.half_point} (White passed first)" if self.half_point else ""
        whalf = f" + {self.half_point}" if self.half_point else ""
        return (
            f"Black {format_points(self.black)} = {self.black_stones} stones + "
            f"{self.black_territory} territory{half}; "
            f"White {format_points(self.white)} = {self.white_stones} stones + "
            f"{self.white_territory} territory{whalf} + {format_points(self.komi)} komi; "
            f"{self.result}"
        )
