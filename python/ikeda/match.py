"""The referee: matches between GTP engines under ikeda's rules.

The referee keeps the only authoritative game (:class:`ikeda.Game`): it asks the side to
move for a move (``genmove``), checks it under the ruleset, and passes it on to the other
engine (``play``). It never asks an engine for the score: a finished game is counted by
:meth:`Game.score` as the board stands (every stone on the board alive, Area III's
first-pass half point included). Rule 2: a player who fails to make a legal move loses,
so an illegal or unreadable move, a ``?`` reply, a crash, a timeout or output that is not
GTP forfeits the game (``RE[B+F]``/``RE[W+F]``), and a stopped engine is restarted for the
next game. Every finished game gets a count: under Japanese counting a region beyond the
status search is estimated and its stones marked as such (docs/status.md), never refused.
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Literal, TextIO

from . import _core
from .coords import Color, opponent
from .errors import EngineCrashed, EngineError, GtpError, IkedaError
from .game import Game
from .gtp import record
from .gtp.controller import GtpController, check_timeout
from .rules import Rules

Reason = Literal["score", "resign", "forfeit", "move-cap"]


@dataclass
class GameResult:
    """One game of a match. ``black``/``white`` are engine labels ("A" or "B")."""

    index: int
    black: str
    white: str
    result: str  # SGF RE: "B+3.5", "W+R", "B+F", "0"
    winner: Color | None
    reason: Reason
    detail: str = ""
    margin: float | None = None  # Black minus White, for counted games
    moves: int = 0
    first_passer: Color | None = None
    sgf: str | None = None

    @property
    def winner_label(self) -> str | None:
        if self.winner is None:
            return None
        return self.black if self.winner == "B" else self.white


@dataclass
class EngineStats:
    """Per engine: games, wins (by colour), draws, forfeits, margins and first passes."""

    label: str
    name: str
    command: str
    games: int = 0
    wins_black: int = 0
    wins_white: int = 0
    draws: int = 0
    forfeits: int = 0
    margins: list[float] = field(default_factory=list)
    passed_first: int = 0
    passed_first_won: int = 0

    @property
    def wins(self) -> int:
        return self.wins_black + self.wins_white

    @property
    def score(self) -> float:
        """Wins plus half the draws, over the games."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """Wilson score interval of :attr:`score` (95% by default)."""
        n = self.games
        if not n:
            return 0.0, 1.0
        p = self.score
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    @property
    def mean_margin(self) -> float | None:
        return sum(self.margins) / len(self.margins) if self.margins else None


@dataclass
class MatchResult:
    games: list[GameResult]
    engines: dict[str, EngineStats]
    size: int
    rules: str

    def to_json(self) -> dict[str, object]:
        engines = {}
        for label, s in self.engines.items():
            lo, hi = s.interval()
            engines[label] = {
                "name": s.name, "command": s.command, "games": s.games, "wins": s.wins,
                "wins_black": s.wins_black, "wins_white": s.wins_white, "draws": s.draws,
                "forfeits": s.forfeits, "score": s.score, "ci95": [lo, hi],
                "mean_margin": s.mean_margin, "passed_first": s.passed_first,
                "passed_first_won": s.passed_first_won,
            }
        return {"size": self.size, "rules": self.rules, "engines": engines, "games": [asdict(g) for g in self.games]}


class Referee:
    """Plays games between two engines under `rules` on a `size` board, `timeout`
    seconds per move; `sgf_dir`, if given, receives each game's SGF as it ends."""

    def __init__(
        self,
        engines: dict[str, GtpController],
        *,
        size: int = 9,
        rules: Rules,
        timeout: float = 30.0,
        sgf_dir: str | None = None,
        max_moves: int | None = None,
    ) -> None:
        self.engines = engines
        self.size = size
        self.rules = rules
        self.timeout = check_timeout(timeout)
        self.sgf_dir = sgf_dir
        if sgf_dir is not None:
            check_folder(sgf_dir)
        self.max_moves = max_moves if max_moves is not None else _core.move_cap(size, size)
        self.names = {label: self._name(label) for label in engines}

    def _name(self, label: str) -> str:
        engine = self.engines[label]
        try:
            name = engine.send("name", self.timeout)
        except EngineError:
            return engine.name
        return " ".join(name.split()[:4])[:40] or engine.name

    def play(self, index: int, black: str, white: str) -> GameResult:
        """Game `index` with engine `black` as Black; its SGF is written before returning."""
        game = Game(self.size, rules=self.rules)
        labels: dict[Color, str] = {"B": black, "W": white}
        result = self._play(game, labels)
        result.index, result.moves, result.first_passer = index, len(game.moves), game.first_passer
        if self.sgf_dir is not None:
            try:
                result.sgf = self._write_sgf(game, result)
            except OSError as e:  # the game's result is kept; only its record is lost
                result.detail += f"{'; ' if result.detail else ''}SGF not written: {e.strerror}"
        return result

    def _play(self, game: Game, labels: dict[Color, str]) -> GameResult:
        def forfeit(loser: Color, detail: str) -> GameResult:
            winner = opponent(loser)
            return GameResult(0, labels["B"], labels["W"], f"{winner}+F", winner, "forfeit", detail)

        for color in ("B", "W"):
            engine = self.engines[labels[color]]
            try:
                if not engine.alive:
                    engine.restart()
                engine.send(f"boardsize {self.size}", self.timeout)
                engine.send("clear_board", self.timeout)
                engine.send(f"komi {self.rules.komi:g}", self.timeout)
            except EngineError as e:
                return forfeit(color, f"setup failed: {e}")
        while not game.is_over:
            if len(game.moves) >= self.max_moves:
                score = game.score()
                return GameResult(0, labels["B"], labels["W"], score.result, score.winner, "move-cap",
                                  f"stopped after {self.max_moves} moves and counted", score.margin)
            color = game.to_move
            other = opponent(color)
            n = len(game.moves) + 1
            try:
                reply = self.engines[labels[color]].send(f"genmove {color}", self.timeout)
            except EngineError as e:
                return forfeit(color, f"move {n}: {e}")
            move = reply.split()[0] if reply.split() else ""
            if move.lower() == "resign":
                game.resign(color)
                return GameResult(0, labels["B"], labels["W"], f"{other}+R", other, "resign", f"{color} resigned at move {n}")
            try:
                game.play(move)
            except IkedaError as e:
                return forfeit(color, f"move {n}: {move!r} refused: {e}")
            try:
                self.engines[labels[other]].send(f"play {color} {game.moves[-1]}", self.timeout)
            except GtpError as e:
                return forfeit(other, f"move {n}: refused the legal move {game.moves[-1]}: {e.reply}")
            except EngineError as e:
                return forfeit(other, f"move {n}: {e}")
        score = game.score()
        return GameResult(0, labels["B"], labels["W"], score.result, score.winner, "score", str(score), score.margin)

    def _write_sgf(self, game: Game, result: GameResult) -> str:
        assert self.sgf_dir is not None
        os.makedirs(self.sgf_dir, exist_ok=True)
        path = os.path.join(self.sgf_dir, f"game-{result.index + 1:03d}.sgf")
        text = record.to_sgf(
            game, black=self.names[result.black], white=self.names[result.white],
            result=result.result, comment=result.detail,
        )
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path


def run_match(
    black: str | Sequence[str],
    white: str | Sequence[str],
    *,
    games: int,
    size: int = 9,
    rules: Rules,
    timeout: float = 30.0,
    sgf_dir: str | None = None,
    transcript: TextIO | None = None,
    on_game: Callable[[GameResult, dict[str, EngineStats]], None] | None = None,
) -> MatchResult:
    """Plays `games` games between engine A (`black` command, Black in even games) and
    engine B (`white`, Black in odd games); colours alternate."""
    commands = {"A": black, "B": white}
    timeout = check_timeout(timeout)
    if sgf_dir is not None:
        check_folder(sgf_dir)  # before any engine starts or game is played
    engines: dict[str, GtpController] = {}
    finished = False
    try:
        for label, cmd in commands.items():
            engines[label] = _start(cmd, label, timeout, transcript)
        referee = Referee(engines, size=size, rules=rules, timeout=timeout, sgf_dir=sgf_dir)
        stats = {
            label: EngineStats(label, referee.names[label], cmd if isinstance(cmd, str) else " ".join(cmd))
            for label, cmd in commands.items()
        }
        results = []
        for i in range(games):
            b, w = ("A", "B") if i % 2 == 0 else ("B", "A")
            r = referee.play(i, b, w)
            results.append(r)
            _tally(stats, r)
            if on_game is not None:
                on_game(r, stats)
        finished = True
    finally:
        for engine in engines.values():
            if finished:
                engine.close()
            else:  # interrupted (Ctrl-C, SIGTERM, SIGHUP) or failed: no waiting
                engine.kill()
    return MatchResult(results, stats, size, str(rules))


def check_folder(path: str) -> None:
    """Makes the folder `path` if needed and proves it writable (a temporary file made
    and removed), or raises IkedaError naming it."""
    try:
        os.makedirs(path, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=path, prefix=".ikeda-", suffix=".probe")
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise IkedaError(f"cannot write game records to {path}: {e.strerror}") from None


def _start(cmd: str | Sequence[str], label: str, timeout: float, transcript: TextIO | None) -> GtpController:
    """A controller for `cmd`, started if it can be (one that cannot forfeits its games)."""
    engine = GtpController(cmd, timeout=timeout, name=label, transcript=transcript, start=False)
    try:
        engine.restart()
    except EngineCrashed:
        pass
    return engine


def _tally(stats: dict[str, EngineStats], r: GameResult) -> None:
    for color, label in (("B", r.black), ("W", r.white)):
        s = stats[label]
        s.games += 1
        if r.winner is None:
            s.draws += 1
        elif r.winner == color:
            if color == "B":
                s.wins_black += 1
            else:
                s.wins_white += 1
        elif r.reason == "forfeit":
            s.forfeits += 1
        if r.margin is not None:
            s.margins.append(r.margin if color == "B" else -r.margin)
        if r.first_passer == color:
            s.passed_first += 1
            s.passed_first_won += r.winner == color
