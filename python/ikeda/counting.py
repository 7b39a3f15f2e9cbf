"""Counting a finished position under a ruleset: area (stones + territory, with Area III's
first-pass half point) or territory (Territory I: territory - stones lost, where a side's
stones lost are its captured stones, its dead stones and its pass stones). The one place
for Rule 7 and its variants in Python (and for the Japanese count's :class:`Score`); ikeda-core's `game` module has the native twin of
the area count.
"""

from __future__ import annotations

from typing import NamedTuple

from .rules import Rules
from .score import Score, Table
from .status import JapaneseScore

Area = tuple[int, int, int, int]  # black stones, white stones, black territory, white territory


class Tally(NamedTuple):
    """What a game with a preliminary end knows of its moves, enough for seed 003's table
    in O(1): moves alternate, so only the passes need counting."""

    start: int  # colour of move 1
    n: int  # moves so far
    prelim: int  # move number of the preliminary end
    prelim_stones: tuple[int, int]  # stones on the board at it (L1, L2)
    passes: tuple[int, int, int, int]  # passes by Black, White up to the preliminary end; after it

    def moves_by(self, color: int, first: int, last: int) -> int:
        """How many of the moves numbered first..last (1-based) `color` made."""
        count = max(0, last - first + 1)
        starts = (first % 2 == 1) == (color == self.start)  # does `color` make move `first`?
        return (count + 1) // 2 if starts else count // 2

    def table(self, area: Area, extra: int) -> Table:
        """Seed 003's quantities, with `extra` passes appended after the last move."""
        bs, ws, bt, wt = area
        before = [self.moves_by(c, 1, self.prelim) - self.passes[c - 1] for c in (1, 2)]
        p = [self.passes[2], self.passes[3]]
        t = [self.moves_by(c, self.prelim + 1, self.n) - p[c - 1] for c in (1, 2)]
        for j in range(extra):  # the appended passes alternate from the side to move
            mover = self.start if (self.n + j) % 2 == 0 else self.start ^ 3
            p[mover - 1] += 1
        l1, l2 = self.prelim_stones
        return Table(before[0], before[1], l1, l2, t[0], t[1], p[0], p[1], bs, ws, bt, wt)


def area_score(
    rules: Rules,
    first_passer: int | None,
    area: Area,
    lost: tuple[int, int],
    dead: tuple[str, ...],
    tally: Tally | None,
    extra: int,
) -> Score:
    """Stones + territory; with Area III's half point, 1/2 point moves from Black to White
    when White made the first pass of the game; komi to White. The table (for comparison
    with Territory I) counts `extra` passes appended to reach Territory I's end."""
    bs, ws, bt, wt = area
    half = 0.5 if rules.half_point and first_passer == 2 else 0.0
    table = tally.table(area, extra) if tally is not None else None
    return Score(
        bs + bt - half, ws + wt + half + rules.komi, bs, ws, bt, wt, half, rules.komi, dead, str(rules),
        lost[0], lost[1], table,
    )


def territory_score(
    rules: Rules,
    tally: Tally | None,
    area: Area,
    lost: tuple[int, int],
    dead: tuple[str, ...],
    extra: int,
) -> Score:
    """Territory - stones lost + komi, with seed 003's bookkeeping.

    `lost` counts captured and dead stones; pass stones (passes after the preliminary end,
    the two forming it excluded) are added here, `extra` of them appended to a record of
    another ending to reach Territory I's end.
    """
    bs, ws, bt, wt = area
    table, pass_stones = None, (0, 0)
    if tally is not None:
        table = tally.table(area, extra)
        if rules.pass_stones:
            pass_stones = (table.P1, table.P2)
    lb, lw = lost[0] + pass_stones[0], lost[1] + pass_stones[1]
    return Score(bt - lb, wt - lw + rules.komi, bs, ws, bt, wt, 0.0, rules.komi, dead, str(rules), lb, lw, table, extra)


def japanese_as_score(rules: Rules, js: JapaneseScore, stones: tuple[int, int], lost: tuple[int, int]) -> Score:
    """A Japanese-style count (:func:`ikeda.status.japanese_count`, the count behind the
    public :func:`ikeda.japanese_score`) in :class:`Score`'s terms: the stones lost are the captured and the dead ones, each side's score its
    territory plus the stones the other side lost. `stones` are on the board, `lost`
    captured, each (Black, White)."""
    return Score(
        js.black, js.white,
        stones[0] - js.dead["B"], stones[1] - js.dead["W"],
        js.territory["B"], js.territory["W"], 0.0, rules.komi, tuple(js.dead_stones), str(rules),
        lost[0] + js.dead["B"], lost[1] + js.dead["W"], estimated=tuple(js.status.estimated_stones),
    )
