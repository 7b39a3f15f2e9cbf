"""A complete GTP v2 engine around a move policy, under any ikeda ruleset.

Subclass :class:`Engine` and override :meth:`Engine.choose_move`, or pass a policy
function::

    def first_legal(game: ikeda.Game) -> str:
        return game.legal_moves()[0]

    Engine(policy=first_legal, name="first").serve()

The engine owns the game: every move is checked by :class:`ikeda.Game` under the engine's
ruleset (Area III unless ``ikeda-rules`` or the constructor says otherwise), and
``final_score`` counts the board as it stands under that ruleset, first-pass half point
included. Any bad command or argument is answered ``? message``; the engine goes on.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

from .._core import __version__
from ..errors import IkedaError, InvalidPositionError
from ..coords import Color, color_name, parse_color
from ..game import Game, Move
from ..handicap import handicap_points, max_fixed_handicap
from ..rules import Rules, as_rules
from . import record

#: What a policy returns: a move (GTP vertex, "pass" or flat index) or "resign".
Policy = Callable[[Game], Move]

class GtpFailure(Exception):
    """A command that fails; its message becomes the ``? message`` reply."""


class Engine:
    """A GTP engine: the protocol, the game state and the rules; the moves come from
    :meth:`choose_move` (override it) or from the `policy` function."""

    #: Largest board GTP allows (and ikeda supports).
    MAX_SIZE = 25

    def __init__(
        self,
        policy: Policy | None = None,
        *,
        name: str = "ikeda",
        version: str = __version__,
        size: int = 19,
        rules: Rules | str = "area3",
    ) -> None:
        self._policy = policy
        self.name = name
        self.version = version
        self.size = size
        self.rules = as_rules(rules)
        self.setup: dict[str, list[str]] = {"B": [], "W": []}
        self._first: Color = "B"
        self.game = self._new_game()
        self._commands: dict[str, Callable[[list[str]], str]] = {
            "protocol_version": lambda a: "2",
            "name": lambda a: self.name,
            "version": lambda a: self.version,
            "known_command": self._known_command,
            "list_commands": lambda a: "\n".join(self._commands),
            "quit": lambda a: "",
            "boardsize": self._boardsize,
            "clear_board": self._clear_board,
            "komi": self._komi,
            "play": self._play,
            "genmove": self._genmove,
            "kgs-genmove_cleanup": self._genmove,
            "undo": self._undo,
            "showboard": lambda a: "\n" + str(self.game),
            "final_score": self._final_score,
            "final_status_list": self._final_status_list,
            "fixed_handicap": self._fixed_handicap,
            "place_free_handicap": self._place_free_handicap,
            "set_free_handicap": self._set_free_handicap,
            "loadsgf": self._loadsgf,
            "printsgf": self._printsgf,
            "ikeda-rules": self._ikeda_rules,
        }

    # -- the policy ------------------------------------------------------------------

    def choose_move(self, game: Game) -> Move:
        """The move for the side to move in `game` (a copy; change it freely): a GTP
        vertex, "pass", a flat index, or "resign". Override this or pass `policy`."""
        if self._policy is None:
            raise GtpFailure("this engine has no policy: override choose_move or pass policy")
        return self._policy(game)

    # -- protocol --------------------------------------------------------------------

    def serve(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        """Answers GTP commands from `stdin` (default: sys.stdin) on `stdout` until
        ``quit`` or the end of the input."""
        inp = sys.stdin if stdin is None else stdin
        out = sys.stdout if stdout is None else stdout
        for line in inp:
            reply = self.handle(line)
            if reply is None:
                continue
            out.write(reply)
            out.flush()
            if _command_word(line) == "quit":
                return

    def handle(self, line: str) -> str | None:
        """The full reply to one line of input (``=id result`` or ``?id message`` and the
        blank line that ends it), or None for a line with no command."""
        text = "".join(" " if ch == "\t" else ch for ch in line.split("#", 1)[0] if ch >= " " or ch == "\t")
        words = text.split()
        if not words:
            return None
        ident = ""
        if words[0].isdigit():
            ident, words = words[0], words[1:]
            if not words:
                return f"?{ident} missing command\n\n"
        command, args = words[0], words[1:]
        handler = self._commands.get(command)
        if handler is None:
            return f"?{ident} unknown command\n\n"
        try:
            result = handler(args)
        except GtpFailure as e:
            return f"?{ident} {e}\n\n"
        except IkedaError as e:
            return f"?{ident} {e}\n\n"
        except Exception as e:  # a policy bug must not take the engine down
            return f"?{ident} internal error: {type(e).__name__}: {e}\n\n"
        return f"={ident} {result}\n\n" if result else f"={ident}\n\n"

    # -- state -----------------------------------------------------------------------

    def _new_game(self, moves: list[str] | None = None, rules: Rules | None = None) -> Game:
        """A game from the setup stones, replaying `moves`; raises (leaving the engine as
        it was) if the rules or the setup refuse them."""
        game = Game(self.size, rules=rules or self.rules, setup=self.setup, to_move=self._first)
        for mv in moves or ():
            game.play(mv)
        return game

    def _replace_rules(self, rules: Rules) -> None:
        try:
            self.game = self._new_game(self.game.moves, rules)
        except IkedaError as e:
            raise GtpFailure(f"the game so far is not a game under {rules}: {e}") from None
        self.rules = rules

    # -- commands --------------------------------------------------------------------

    def _known_command(self, args: list[str]) -> str:
        return "true" if args and args[0] in self._commands else "false"

    def _boardsize(self, args: list[str]) -> str:
        n = _int_arg(args, "boardsize")
        if not 1 <= n <= self.MAX_SIZE:
            raise GtpFailure("unacceptable size")
        self.size = n
        self._clear_board([])
        return ""

    def _clear_board(self, args: list[str]) -> str:
        self.setup = {"B": [], "W": []}
        self._first = "B"
        self.game = self._new_game()
        return ""

    def _komi(self, args: list[str]) -> str:
        if len(args) != 1:
            raise GtpFailure("syntax error: komi takes one number")
        try:
            komi = float(args[0])
        except ValueError:
            raise GtpFailure(f"syntax error: komi {args[0]!r} is not a number") from None
        self._replace_rules(self.rules.replace(komi=komi))  # the ruleset refuses 7.25
        return ""

    def _color(self, args: list[str], command: str, count: int) -> Color:
        if len(args) != count:
            raise GtpFailure(f"syntax error: {command} takes {count} argument{'s' if count > 1 else ''}")
        try:
            color = color_name(parse_color(args[0].lower()))
        except InvalidPositionError:
            raise GtpFailure(f"syntax error: {args[0]!r} is not a colour") from None
        if color != self.game.to_move:
            if self.game.moves:
                raise GtpFailure(f"illegal move: {self.game.to_move} is to move (players alternate)")
            self._first = color  # the first move may be either colour's
            self.game = self._new_game()
        return color

    def _play(self, args: list[str]) -> str:
        self._color(args, "play", 2)
        try:
            self.game.play(args[1])
        except IkedaError as e:
            raise GtpFailure(f"illegal move: {e}") from None
        return ""

    def _genmove(self, args: list[str]) -> str:
        self._color(args, "genmove", 1)
        if self.game.is_over:
            return "pass"  # nothing is left to play; the pass is not recorded
        move = self.choose_move(self.game.copy())
        if isinstance(move, str) and move.lower() == "resign":
            return "resign"
        try:
            self.game.play(move)
        except IkedaError as e:
            raise GtpFailure(f"the policy chose an illegal move: {e}") from None
        return self.game.moves[-1]

    def _undo(self, args: list[str]) -> str:
        try:
            self.game.undo()
        except IkedaError:
            raise GtpFailure("cannot undo") from None
        return ""

    def _final_score(self, args: list[str]) -> str:
        return self.game.result or self.game.score().result

    def _final_status_list(self, args: list[str]) -> str:
        if len(args) != 1 or args[0] not in ("alive", "dead", "seki", "estimated"):
            raise GtpFailure("syntax error: final_status_list takes alive, dead, seki or estimated")
        # The game decides (status confirmation under Japanese counting). Chains of a region
        # beyond the search are estimated so that a controller always gets an answer; the
        # extension `final_status_list estimated` lists them (docs/gtp.md).
        return " ".join(self.game.final_status()[args[0]])

    def _handicap(self, points: list[str]) -> str:
        if self.game.moves or self.setup["B"] or self.setup["W"]:
            raise GtpFailure("board not empty")
        setup = {"B": points, "W": []}
        try:
            Game(self.size, rules=self.rules, setup=setup, to_move="W")
        except IkedaError as e:
            raise GtpFailure(f"bad vertex list: {e}") from None
        self.setup, self._first = setup, "W"
        self.game = self._new_game()
        return " ".join(points)

    def _fixed_handicap(self, args: list[str]) -> str:
        n = _int_arg(args, "fixed_handicap")
        if not 2 <= n <= max_fixed_handicap(self.size) or self.size < 7:
            raise GtpFailure("invalid number of stones")
        return self._handicap(handicap_points(n, self.size))

    def _place_free_handicap(self, args: list[str]) -> str:
        n = _int_arg(args, "place_free_handicap")
        if not 2 <= n <= max_fixed_handicap(self.size):
            raise GtpFailure(f"invalid number of stones (2..{max_fixed_handicap(self.size)} here)")
        return self._handicap(handicap_points(n, self.size))

    def _set_free_handicap(self, args: list[str]) -> str:
        if len(args) < 2:
            raise GtpFailure("invalid number of stones")
        points = [a.upper() for a in args]
        if len(set(points)) != len(points) or "PASS" in points:
            raise GtpFailure("bad vertex list")
        self._handicap(points)
        return ""

    def _loadsgf(self, args: list[str]) -> str:
        if len(args) not in (1, 2):
            raise GtpFailure("syntax error: loadsgf takes a file name and an optional move number")
        upto = _int_arg(args[1:], "loadsgf") if len(args) == 2 else None
        game, setup, first = record.load(args[0], upto, self.rules)
        self.size, self.setup, self._first, self.game, self.rules = game.width, setup, first, game, game.rules
        return ""

    def _printsgf(self, args: list[str]) -> str:
        text = record.to_sgf(self.game, black=self.name, white=self.name)
        if args:
            try:
                with open(args[0], "w", encoding="utf-8") as f:
                    f.write(text)
            except OSError as e:
                raise GtpFailure(f"cannot write {args[0]}: {e.strerror}") from None
            return ""
        return "\n" + text.rstrip("\n")

    def _ikeda_rules(self, args: list[str]) -> str:
        """``ikeda-rules`` answers the ruleset; ``ikeda-rules NAME[:key=value,...]`` sets it
        (komi kept unless the string sets it) and replays the game under it."""
        if not args:
            return str(self.rules)
        text = " ".join(args)
        rules = as_rules(text)
        if "komi" not in text:
            rules = rules.replace(komi=self.rules.komi)
        self._replace_rules(rules)
        return str(self.rules)


def _command_word(line: str) -> str:
    words = line.split("#", 1)[0].split()
    if words and words[0].isdigit():
        words = words[1:]
    return words[0] if words else ""


def _int_arg(args: list[str], command: str) -> int:
    if len(args) != 1:
        raise GtpFailure(f"syntax error: {command} takes one number")
    try:
        return int(args[0])
    except ValueError:
        raise GtpFailure(f"syntax error: {args[0]!r} is not an integer") from None
