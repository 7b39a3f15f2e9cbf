"""The built-in bot: Monte-Carlo tree search on the native playouts (see ikeda-core's
``mcts`` module), under the engine's ruleset."""

from __future__ import annotations

from .. import _core
from ..limits import MAX_SEED, probability, whole
from ..limits import seconds as seconds_arg
from ..game import Game, Move
from ..rules import Rules
from .engine import Engine

#: Resign when the best move's estimated win rate falls below this.
RESIGN_BELOW = 0.1
#: The most playouts one search runs (the native counter's range).
MAX_PLAYOUTS = 2**32 - 1


def search(
    game: Game, *, playouts: int = 10_000, seconds: float = 0.0, seed: int = 1, resign_below: float = RESIGN_BELOW
) -> tuple[Move, float, int]:
    """The search's move for the side to move (a GTP vertex, "pass" or "resign"), its
    estimated win rate and the number of playouts run. Stops after `playouts` playouts or
    `seconds` seconds (if positive), whichever comes first; native, the GIL released."""
    playouts = whole(playouts, "playouts", 1, MAX_PLAYOUTS)
    seconds = seconds_arg(seconds)
    seed = whole(seed, "seed", 0, MAX_SEED)
    resign_below = probability(resign_below, "resign_below")
    if game.is_over:
        return "pass", 0.5, 0
    index, win_rate, done = _core.mcts(game, game.rules, playouts, float(seconds), seed, resign_below)
    move: Move = "resign" if index < 0 else game.board.vertex(index)
    return move, win_rate, done


class MctsEngine(Engine):
    """A GTP engine playing by :func:`search`: `seconds` per move if given (playouts then
    unbounded unless `playouts` is given too), else `playouts` per move. When the
    controller gives a clock (``time_settings``, ``time_left``), each move also stops by
    :meth:`Engine.time_for_move` (and with no `playouts` or `seconds` given, the clock
    alone is the budget)."""

    def __init__(
        self,
        *,
        playouts: int | None = None,
        seconds: float = 0.0,
        seed: int = 1,
        size: int = 19,
        rules: Rules | str = "area3",
    ) -> None:
        super().__init__(name="ikeda-mcts", size=size, rules=rules)
        # Checked here, so that a bad budget is refused at once, not at the first genmove.
        seconds = seconds_arg(seconds)
        if playouts is not None:
            playouts = whole(playouts, "playouts", 1, MAX_PLAYOUTS)
        default = MAX_PLAYOUTS if seconds > 0 else 10_000
        self.playouts = default if playouts is None else playouts
        self._playouts_given = playouts
        self.seconds = seconds
        self.seed = whole(seed, "seed", 0, MAX_SEED)

    def choose_move(self, game: Game) -> Move:
        # A new seed per position, so that repeated positions are searched afresh.
        seed = (self.seed * 1_000_003 + len(game.moves)) % (MAX_SEED + 1)
        # The clock, when the controller gave one, bounds the time per move too.
        seconds = self.seconds
        clock = self.time_for_move(game.to_move)
        playouts = self.playouts
        if clock is not None:
            seconds = clock if seconds <= 0 else min(seconds, clock)
            if self.seconds <= 0 and self._playouts_given is None:
                playouts = MAX_PLAYOUTS  # the clock is the budget
        move, _, _ = search(game, playouts=playouts, seconds=seconds, seed=seed)
        return move

