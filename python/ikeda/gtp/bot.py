"""The built-in bot: Monte-Carlo tree search on the native playouts (see ikeda-core's
``mcts`` module), under the engine's ruleset."""

from __future__ import annotations

import functools

from .. import _core
from ..limits import MAX_SEED, probability, whole
from ..limits import seconds as seconds_arg
from ..game import Game, Move
from ..rules import Rules
from . import analysis
from .engine import Engine, GtpFailure, Stream

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
    index, win_rate, done = _core.mcts(game, analysis.search_rules(game.rules), playouts, float(seconds), seed, resign_below)
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
        for name, fmt in (("lz-analyze", "lz"), ("kata-analyze", "kata")):
            self.register(name, functools.partial(self._analyze, fmt=fmt))
        for name, fmt in (("genmove_analyze", "lz"), ("lz-genmove_analyze", "lz"), ("kata-genmove_analyze", "kata")):
            self.register(name, functools.partial(self._genmove_analyze, fmt=fmt))
        self.register("gogui-analyze_commands", lambda args: "\n".join(GOGUI_ANALYZE_COMMANDS))
        self.register("ikeda-ownership", self._ownership_gfx)
        self.register("ikeda-final_status", self._status_gfx)
        self.register("ikeda-best_moves", self._best_moves_gfx)
        self.register("ikeda-pv", self._pv_gfx)

    # -- analysis (docs/gtp.md, "Analysis") ------------------------------------------

    def _budget(self, game: Game) -> tuple[int, float]:
        """The playouts and seconds of a move: the bot's own, bounded by the clock."""
        seconds = self.seconds
        clock = self.time_for_move(game.to_move)
        playouts = self.playouts
        if clock is not None:
            seconds = clock if seconds <= 0 else min(seconds, clock)
            if self.seconds <= 0 and self._playouts_given is None:
                playouts = MAX_PLAYOUTS
        return playouts, seconds

    def _seed(self, game: Game) -> int:
        # A new seed per position, so that repeated positions are searched afresh.
        return (self.seed * 1_000_003 + len(game.moves)) % (MAX_SEED + 1)

    def _analyze(self, args: list[str], fmt: str) -> Stream:
        interval, ownership = _analysis_args(args, self.game.to_move)
        game = self.game.copy()
        state: dict[str, analysis.Analysis] = {}
        rounds = [0]

        def report() -> str | None:
            if game.is_over:
                return None
            rounds[0] += 1
            seed = (self._seed(game) + rounds[0]) % (MAX_SEED + 1)
            a = analysis.analyze(game, playouts=MAX_PLAYOUTS, seconds=interval, seed=seed)
            state["a"] = state["a"].merge(a) if "a" in state else a
            return analysis.lz_info(state["a"]) if fmt == "lz" else analysis.kata_info(state["a"], ownership)

        return Stream(report)

    def _genmove_analyze(self, args: list[str], fmt: str) -> Stream:
        color = self._color(args[:1], "genmove_analyze", 1)
        _, ownership = _analysis_args(args[1:], color)
        game = self.game.copy()
        playouts, seconds = self._budget(game)
        done: dict[str, str] = {}

        def report() -> str | None:
            if game.is_over:
                done["move"] = "pass"
                return None
            a = analysis.analyze(game, playouts=playouts, seconds=seconds, seed=self._seed(game))
            done["move"] = a.choice
            return analysis.lz_info(a) if fmt == "lz" else analysis.kata_info(a, ownership)

        def final() -> str:
            move = done.get("move", "pass")
            if move != "resign" and not game.is_over:
                self.game.play(move)
                move = self.game.moves[-1]
            return f"play {move}"

        return Stream(report, final, once=True)

    def _ownership_gfx(self, args: list[str]) -> str:
        """GoGui ``gfx``: each point's ownership, Black positive, as ``INFLUENCE``."""
        game, a = self._search_for_gfx()
        sign = 1.0 if game.to_move == "B" else -1.0
        names = game.board.vertex
        values = " ".join(f"{names(i)} {sign * o:.2f}" for i, o in enumerate(a.ownership))
        return f"INFLUENCE {values}\nTEXT {a.playouts} playouts"

    def _search_for_gfx(self) -> tuple[Game, analysis.Analysis]:
        """One search of the position with the bot's own budget (GoGui's gfx commands)."""
        game = self.game.copy()
        playouts, seconds = self._budget(game)
        return game, analysis.analyze(game, playouts=playouts, seconds=seconds, seed=self._seed(game))

    def _best_moves_gfx(self, args: list[str]) -> str:
        """GoGui ``gfx``: the most visited plays (at most 9) labelled with the side to
        move's win rate in percent, and a ``TEXT`` line with the best one's figures (a
        pass has no point to label: the text names it)."""
        game, a = self._search_for_gfx()
        labels = " ".join(f"{m.move} {round(100 * m.winrate)}%" for m in a.moves[:9] if m.move != "pass")
        lines = [f"LABEL {labels}"] if labels else []
        return "\n".join([*lines, _gfx_text(game, a)])

    def _pv_gfx(self, args: list[str]) -> str:
        """GoGui ``gfx``: the principal variation of the most visited move as ``VAR``
        (colour and vertex pairs from the side to move, GoGui numbers the stones)."""
        game, a = self._search_for_gfx()
        colours = "bw" if game.to_move == "B" else "wb"
        pv = a.moves[0].pv if a.moves else []
        lines = [f"VAR {' '.join(f'{colours[k % 2]} {v}' for k, v in enumerate(pv))}"] if pv else []
        return "\n".join([*lines, _gfx_text(game, a)])

    def _status_gfx(self, args: list[str]) -> str:
        """GoGui ``gfx``: the final status (``final_status_list``) as marks: dead stones
        ``MARK``, seki ``TRIANGLE``, estimated ``CIRCLE``."""
        status = self.game.final_status()
        lines = [f"{shape} {' '.join(status[key])}" for shape, key in (("MARK", "dead"), ("TRIANGLE", "seki"), ("CIRCLE", "estimated")) if status[key]]
        lines.append(f"TEXT dead {len(status['dead'])}, seki {len(status['seki'])}, estimated {len(status['estimated'])}")
        return "\n".join(lines)

    def choose_move(self, game: Game) -> Move:
        # The clock, when the controller gave one, bounds the time per move too.
        playouts, seconds = self._budget(game)
        move, _, _ = search(game, playouts=playouts, seconds=seconds, seed=self._seed(game))
        return move


#: What GoGui may show (``gogui-analyze_commands``: ``type/label/command``).
GOGUI_ANALYZE_COMMANDS = (
    "gfx/Ownership (search)/ikeda-ownership",
    "gfx/Best moves (search)/ikeda-best_moves",
    "gfx/Principal variation (search)/ikeda-pv",
    "gfx/Final status/ikeda-final_status",
    "plist/Dead stones/final_status_list dead",
    "plist/Seki stones/final_status_list seki",
    "string/Final score/final_score",
)


def _gfx_text(game: Game, a: analysis.Analysis) -> str:
    """GoGui's status line for a search: the best move's figures for the side to move."""
    if not a.moves:
        return "TEXT the game is over"
    best = a.moves[0]
    return f"TEXT {game.to_move} {best.move}: win {100 * best.winrate:.1f}%, margin {best.score_mean:+.1f}, {a.playouts} playouts"


def _analysis_args(args: list[str], to_move: str) -> tuple[float, bool]:
    """``[colour] [interval] [key value ...]`` of ``lz-analyze``/``kata-analyze``: the
    interval in seconds (given in centiseconds, default 1 s, at least 0.05 s) and whether
    ``ownership true`` was asked. Keys the search has no use for are read and ignored
    (``avoid``/``allow`` with their three values)."""
    words = list(args)
    if words and words[0].lower() in ("b", "w", "black", "white"):
        if words.pop(0)[0].upper() != to_move:
            raise GtpFailure("the analysis is of the side to move")
    centis = 100.0
    if words and _is_number(words[0]):
        centis = float(words.pop(0))
    ownership = False
    while words:
        key = words.pop(0)
        take = 3 if key in ("avoid", "allow") else 1
        if len(words) < take:
            raise GtpFailure(f"syntax error: {key} needs a value")
        values, words = words[:take], words[take:]
        if key == "interval":
            if not _is_number(values[0]):
                raise GtpFailure(f"syntax error: interval {values[0]!r} is not a number")
            centis = float(values[0])
        elif key == "ownership":
            ownership = values[0].lower() == "true"
    return min(MAX_SECONDS_PER_REPORT, max(0.05, centis / 100)), ownership


#: The longest search behind one report (a GUI's interval is a refresh rate).
MAX_SECONDS_PER_REPORT = 60.0


def _is_number(text: str) -> bool:
    try:
        value = float(text)
    except ValueError:
        return False
    return value == value and abs(value) != float("inf")

