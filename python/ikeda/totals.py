"""The summary statistics of random games, gathered a batch at a time.

A :class:`Totals` holds counts and sums only (plus the margin histogram), so a run of any
length is summarised in constant memory: the in-memory run adds its arrays once, a Parquet
dataset adds one record batch after another, and partial totals merge. The summary table
and the margin plot read a :class:`Totals`, never the per-game arrays.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt


@dataclass
class Totals:
    """Counts, sums and the margin histogram of some games."""

    games: int = 0
    black_wins: int = 0
    white_wins: int = 0
    moves: int = 0
    capped: int = 0
    #: Games whose winner differs between the ruleset's count and Area II's.
    half_point_decided: int = 0
    #: Games by first passer: index 0 nobody, 1 Black, 2 White.
    first_passer: list[int] = field(default_factory=lambda: [0, 0, 0])
    #: The margin's mean and sum of squared deviations (Chan et al.'s pairwise update, so
    #: merging totals of billions of games keeps its precision).
    margin_mean: float = 0.0
    margin_m2: float = 0.0
    #: Games by (first passer, twice the margin): margins are multiples of 1/2.
    histogram: Counter[tuple[int, int]] = field(default_factory=Counter)

    @property
    def draws(self) -> int:
        return self.games - self.black_wins - self.white_wins

    @property
    def margin_sd(self) -> float:
        """The population standard deviation of the margin (numpy's ``std()``)."""
        return float(np.sqrt(self.margin_m2 / self.games)) if self.games else 0.0

    def add(
        self,
        margin: npt.NDArray[np.float64],
        margin_area2: npt.NDArray[np.float64],
        first_passer: npt.NDArray[np.int8],
        length: npt.NDArray[np.int32],
        capped: npt.NDArray[np.bool_],
    ) -> None:
        """Adds a batch of games given as per-game arrays."""
        n = len(margin)
        if n == 0:
            return
        batch = Totals(
            games=n,
            black_wins=int(np.count_nonzero(margin > 0)),
            white_wins=int(np.count_nonzero(margin < 0)),
            moves=int(np.sum(length, dtype=np.int64)),
            capped=int(np.count_nonzero(capped)),
            half_point_decided=int(np.count_nonzero(np.sign(margin) != np.sign(margin_area2))),
            first_passer=np.bincount(first_passer.astype(np.int64), minlength=3)[:3].tolist(),
            margin_mean=float(margin.mean()),
            margin_m2=float(np.sum((margin - margin.mean()) ** 2)),
        )
        keys, counts = np.unique(np.stack([first_passer.astype(np.int64), np.rint(margin * 2).astype(np.int64)]), axis=1, return_counts=True)
        batch.histogram.update({(int(fp), int(m2)): int(c) for (fp, m2), c in zip(keys.T, counts)})
        self.merge(batch)

    def merge(self, other: Totals) -> None:
        """Adds another set of totals to these."""
        n = self.games + other.games
        if n == 0:
            return
        delta = other.margin_mean - self.margin_mean
        self.margin_m2 += other.margin_m2 + delta * delta * self.games * other.games / n
        self.margin_mean += delta * other.games / n
        self.games = n
        self.black_wins += other.black_wins
        self.white_wins += other.white_wins
        self.moves += other.moves
        self.capped += other.capped
        self.half_point_decided += other.half_point_decided
        self.first_passer = [a + b for a, b in zip(self.first_passer, other.first_passer)]
        self.histogram.update(other.histogram)

    def margins(self, first_passer: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
        """The histogram of the games with this first passer: margins and game counts."""
        pairs = sorted((m2, c) for (fp, m2), c in self.histogram.items() if fp == first_passer)
        return np.array([m2 / 2 for m2, _ in pairs], np.float64), np.array([c for _, c in pairs], np.int64)
