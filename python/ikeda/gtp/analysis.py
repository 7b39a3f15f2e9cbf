"""What the built-in search saw, for the analysis commands GUIs send (``lz-analyze``,
``kata-analyze``, ``genmove_analyze``): the root moves with their visits, win rates and
principal variations, and each point's ownership; and the ``info`` lines that carry them.

The formats are those the GUIs parse (docs/gtp.md, "Analysis"): Leela Zero's
``info move D4 visits 120 winrate 5230 prior 1234 lcb 5100 order 0 pv D4 Q16`` (win rate
and prior in hundredths of a percent) and KataGo's ``info move D4 visits 120 winrate
0.523 scoreMean 1.5 scoreLead 1.5 prior 0.12 lcb 0.51 order 0 pv D4 Q16 ... ownership
...`` (fractions, the side to move's view; ownership row by row from the top left).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .. import _core
from ..coords import parse_color
from ..game import Game
from ..rules import Rules


@dataclass
class MoveStats:
    """One candidate move of the side to move."""

    move: str  # GTP vertex or "pass"
    visits: int
    wins: float  # for the side to move, draws half
    margin_sum: float  # final margins for the side to move, in points
    pv: list[str]

    @property
    def winrate(self) -> float:
        return self.wins / self.visits if self.visits else 0.5

    @property
    def score_mean(self) -> float:
        return self.margin_sum / self.visits if self.visits else 0.0

    @property
    def lcb(self) -> float:
        """A lower confidence bound of the win rate (normal approximation, 95%)."""
        p, n = self.winrate, max(self.visits, 1)
        return max(0.0, p - 1.96 * math.sqrt(p * (1 - p) / n))


@dataclass
class Analysis:
    """Root moves most visited first; ownership per point (+1 the side to move's, -1 the
    opponent's), row by row from the top left; the search's own choice; the prior, which
    is uniform: the search has no policy, every candidate move weighs the same."""

    moves: list[MoveStats]
    ownership: list[float]
    playouts: int
    prior: float
    choice: str = "pass"

    def merge(self, other: Analysis) -> Analysis:
        """The statistics of two independent searches of one position together (visits
        and wins add up; the principal variation is the latest one's)."""
        by_move = {m.move: m for m in self.moves}
        for m in other.moves:
            mine = by_move.get(m.move)
            if mine is None:
                by_move[m.move] = MoveStats(m.move, m.visits, m.wins, m.margin_sum, m.pv)
            else:
                by_move[m.move] = MoveStats(m.move, mine.visits + m.visits, mine.wins + m.wins, mine.margin_sum + m.margin_sum, m.pv)
        total = self.playouts + other.playouts
        own = [(a * self.playouts + b * other.playouts) / max(total, 1) for a, b in zip(self.ownership, other.ownership)]
        moves = sorted(by_move.values(), key=lambda m: -m.visits)
        return Analysis(moves, own, total, other.prior, other.choice)


def search_rules(rules: Rules) -> Rules:
    """The rules the native search plays and counts its playouts by: the game's own, but
    Japanese counting, which confirms the status of the stones and is no native count, is
    counted as territory (Territory I's count: territory less the stones lost; the same
    margin as territory plus prisoners) under the game's ko rule, ending and komi. A
    playout goes on until the dead stones are taken, so its final count is the Japanese
    one but for the eyes of a seki, which it counts as territory (docs/gtp.md)."""
    return rules.replace(scoring="territory") if rules.scoring == "japanese" else rules


def analyze(game: Game, *, playouts: int, seconds: float, seed: int) -> Analysis:
    """One search of `game` (native, the GIL released) and what it saw."""
    if game.is_over:
        return Analysis([], [0.0] * (game.width * game.height), 0, 0.0)
    mover = parse_color(game.to_move)
    index, _, done, moves, ownership, candidates = _core.mcts_analyze(game, search_rules(game.rules), playouts, float(seconds), seed)
    vertex = game.board.vertex
    sign = 1.0 if mover == 1 else -1.0
    stats = [MoveStats(vertex(m), v, w, s, [vertex(p) for p in pv]) for m, v, w, s, pv in moves]
    choice = "resign" if index < 0 else vertex(index)
    return Analysis(stats, [sign * o for o in ownership], done, 1.0 / max(candidates, 1), choice)


def _number(x: float) -> str:
    return f"{x:.6g}"


def lz_info(a: Analysis) -> str:
    """Leela Zero's ``lz-analyze`` line: every move's ``info`` on one line."""
    return " ".join(
        f"info move {m.move} visits {m.visits} winrate {round(m.winrate * 10000)} prior {round(a.prior * 10000)} "
        f"lcb {round(m.lcb * 10000)} order {k} pv {' '.join(m.pv)}"
        for k, m in enumerate(a.moves)
    )


def kata_info(a: Analysis, ownership: bool = False) -> str:
    """KataGo's ``kata-analyze`` line: every move's ``info`` on one line, then
    ``ownership`` and one value per point when asked."""
    parts = [
        f"info move {m.move} visits {m.visits} utility {_number(2 * m.winrate - 1)} winrate {_number(m.winrate)} "
        f"scoreMean {_number(m.score_mean)} scoreStdev 0 scoreLead {_number(m.score_mean)} scoreSelfplay {_number(m.score_mean)} "
        f"prior {_number(a.prior)} lcb {_number(m.lcb)} utilityLcb {_number(2 * m.lcb - 1)} order {k} pv {' '.join(m.pv)}"
        for k, m in enumerate(a.moves)
    ]
    if ownership:
        parts.append("ownership " + " ".join(_number(round(o, 4)) for o in a.ownership))
    return " ".join(parts)
