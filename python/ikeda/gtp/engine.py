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

Two moves of one colour in a row (GTP 2, section 6.3.3: not illegal at the protocol
level; GoGui and Sabaki send them to set up positions) are accepted as setup: the position
reached becomes the game's setup with the colour given to move, and the stone is played
from there. So no pass is invented (the first-pass half point and the pass count start
again), and Rule 4's history starts again from that position; ``undo`` goes back no further
and ``printsgf`` writes the position as ``AB``/``AW`` (see docs/gtp.md).

``time_settings``, ``kgs-time_settings`` and ``time_left`` record the clock;
:meth:`Engine.time_for_move` turns it into seconds for the move, which the built-in bot
uses.
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Callable, Iterator
from typing import IO, Any

from .._core import __version__
from ..errors import IkedaError, InvalidPositionError
from ..coords import Color, color_name, parse_color, parse_vertex, vertex_names
from ..game import Game, Move
from ..handicap import handicap_points, max_fixed_handicap
from ..limits import MAX_SECONDS
from ..rules import Rules, as_rules
from .. import status
from . import record

#: What a policy returns: a move (GTP vertex, "pass" or flat index) or "resign".
Policy = Callable[[Game], Move]

#: The longest command line the engine reads, in bytes (docs/security.md).
MAX_LINE = 16 * 1024


class GtpFailure(Exception):
    """A command that fails; its message becomes the ``? message`` reply."""


#: A command's handler: the arguments in, the reply out ("" for none), or a
#: :class:`Stream` for a reply that goes on (analysis).
Handler = Callable[[list[str]], "str | Stream"]


class Stream:
    """A reply that goes on: ``=`` and then the lines `report()` gives, one per report,
    until the controller sends its next command (``lz-analyze``, ``kata-analyze``), or
    until `report()` returns None; `final`, if any, is the last line (``play D4`` after
    ``genmove_analyze``). :meth:`Engine.handle`, which does no I/O, answers with the
    first report only."""

    def __init__(self, report: Callable[[], str | None], final: Callable[[], str] | None = None, *, once: bool = False) -> None:
        self.report = report
        self.final = final
        self.once = once  # one report, then the final line: the reply ends by itself
        self.head = "="


class _Streaming:
    """A streamed reply being written by a thread: its head, then a report at a time,
    until :meth:`stop` (the next command) or the stream's end; then its final line and
    the blank line that ends every reply. A report that fails ends the stream."""

    def __init__(self, stream: Stream, write: Callable[[str], None]) -> None:
        self.stream, self.write = stream, write
        self.stopping = threading.Event()
        write(stream.head)
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            while not self.stopping.is_set():
                line = self.stream.report()
                if line is None:
                    break
                if line and not self.stopping.is_set():
                    self.write(line + "\n")
                if self.stream.once:
                    break
            final = self.stream.final() if self.stream.final is not None else None
        except Exception:  # a failing report ends the stream; the reply still ends
            final = None
        self.write((final + "\n" if final else "") + "\n")

    def join(self) -> None:
        self.thread.join()

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join()


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
        self._handicap_stones = 0  # set by the handicap commands, written as HA
        #: The clock: ``(main seconds, byo-yomi seconds, stones per byo-yomi period)``
        #: from ``time_settings`` (None: no time limit).
        self.time_settings: tuple[float, float, int] | None = None
        #: ``time_left``: colour -> (seconds, stones; 0 stones while in main time).
        self.time_left: dict[Color, tuple[float, int]] = {}
        self.game = self._new_game()
        #: Set by ``ikeda-rules``: from then on ``loadsgf`` keeps the engine's rules and
        #: komi instead of taking the record's ``RU`` and ``KM``.
        self._rules_fixed = False
        self._commands: dict[str, Handler] = {
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
            "ikeda-final_status_proofs": self._final_status_proofs,
            "fixed_handicap": self._fixed_handicap,
            "place_free_handicap": self._place_free_handicap,
            "set_free_handicap": self._set_free_handicap,
            "loadsgf": self._loadsgf,
            "printsgf": self._printsgf,
            "ikeda-rules": self._ikeda_rules,
            "time_settings": self._time_settings,
            "kgs-time_settings": self._kgs_time_settings,
            "time_left": self._time_left,
        }

    # -- extending -------------------------------------------------------------------

    def register(self, name: str, handler: Handler | None = None) -> Any:
        """Adds (or replaces) the command `name`: ``handler(args)`` gets the command's
        arguments and returns the reply's text ("" for none) or a :class:`Stream`; it
        raises :class:`GtpFailure` (or any :class:`ikeda.IkedaError`) for a ``? message``
        reply, and a refused command leaves the engine's state as it was. Without
        `handler`, a decorator::

            @engine.register("my-eval")
            def my_eval(args: list[str]) -> str: ...
        """
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_.+-]{1,64}", name) or name.isdigit():
            raise IkedaError(f"a GTP command name is 1-64 letters, digits or _.+-, not all digits, not {name!r}")

        def add(h: Handler) -> Handler:
            if not callable(h):
                raise IkedaError(f"the handler of {name!r} must be callable, not {h!r}")
            self._commands[name] = h
            return h

        return add if handler is None else add(handler)

    # -- the policy ------------------------------------------------------------------

    def choose_move(self, game: Game) -> Move:
        """The move for the side to move in `game` (a copy; change it freely): a GTP
        vertex, "pass", a flat index, or "resign". Override this or pass `policy`."""
        if self._policy is None:
            raise GtpFailure("this engine has no policy: override choose_move or pass policy")
        return self._policy(game)

    # -- protocol --------------------------------------------------------------------

    def serve(self, stdin: IO[Any] | None = None, stdout: IO[Any] | None = None) -> None:
        """Answers GTP commands from `stdin` (default: sys.stdin) on `stdout` until
        ``quit`` or the end of the input.

        The input is read as bytes (a text stream's ``buffer`` when it has one), a line at
        most :data:`MAX_LINE` bytes long: a longer line, or one that is not UTF-8, is
        answered ``? ...`` and the engine goes on with the next line."""
        inp = sys.stdin if stdin is None else stdin
        out = sys.stdout if stdout is None else stdout
        sink = getattr(out, "buffer", None)
        lock = threading.Lock()

        def write(text: str) -> None:
            with lock:
                if sink is not None:
                    out.flush()
                    sink.write(text.encode("utf-8", "replace"))
                    sink.flush()
                else:
                    out.write(text)
                    out.flush()

        streaming: _Streaming | None = None
        for raw in _lines(inp):
            if streaming is not None:  # the next command ends a streamed reply
                streaming.stop()
                streaming = None
            line = ""
            if len(raw) > MAX_LINE:
                reply: str | None = f"?{_ident(raw)} line too long (the limit is {MAX_LINE:,} bytes)\n\n"
            else:
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as e:
                    reply = f"?{_ident(raw)} the line is not UTF-8 (byte {e.start + 1})\n\n"
                else:
                    reply, stream = self._dispatch(line)
                    if stream is not None:
                        streaming = _Streaming(stream, write)
                        if stream.once:
                            streaming.join()
                            streaming = None
            if reply is None:
                continue
            write(reply)
            if _command_word(line) == "quit":
                return
        if streaming is not None:
            streaming.stop()

    def handle(self, line: str) -> str | None:
        """The full reply to one line of input (``=id result`` or ``?id message`` and the
        blank line that ends it), or None for a line with no command. A streamed reply
        (:class:`Stream`) is given with its first report only."""
        reply, stream = self._dispatch(line)
        if stream is None:
            return reply
        first = stream.report()
        lines = [first] if first else []
        if stream.final is not None:
            lines.append(stream.final())
        return stream.head + "".join(f"{x}\n" for x in lines) + "\n"

    def _dispatch(self, line: str) -> tuple[str | None, Stream | None]:
        """The reply to a line, or for a streamed one None and its :class:`Stream` (with
        its ``=id`` head line set)."""
        if len(line) > MAX_LINE:
            return f"?{_ident(line.encode('utf-8', 'replace')[:32])} line too long (the limit is {MAX_LINE:,} bytes)\n\n", None
        text = "".join(" " if ch == "\t" else ch for ch in line.split("#", 1)[0] if ch >= " " or ch == "\t")
        words = text.split()
        if not words:
            return None, None
        ident = ""
        if words[0].isdigit():
            ident, words = words[0], words[1:]
            if not words:
                return f"?{ident} missing command\n\n", None
        command, args = words[0], words[1:]
        handler = self._commands.get(command)
        if handler is None:
            return f"?{ident} unknown command\n\n", None
        # A refused command leaves the engine as it was, also when it failed after a step
        # that changed something (a second move of one colour restarts the game from the
        # position before the move itself is refused).
        saved = self._state()
        try:
            result = handler(args)
        except GtpFailure as e:
            self._restore(saved)
            return f"?{ident} {_clip(str(e))}\n\n", None
        except IkedaError as e:
            self._restore(saved)
            return f"?{ident} {_clip(str(e))}\n\n", None
        except Exception as e:  # a policy bug must not take the engine down
            self._restore(saved)
            return f"?{ident} internal error: {type(e).__name__}: {_clip(str(e))}\n\n", None
        if isinstance(result, Stream):
            result.head = f"={ident}\n"
            return None, result
        return (f"={ident} {result}\n\n" if result else f"={ident}\n\n"), None

    # -- state -----------------------------------------------------------------------

    def _state(self) -> tuple[Any, ...]:
        """What a command may change. Commands replace these rather than change them in
        place (a game's refused move changes nothing), so references suffice."""
        return (self.size, self.rules, self.setup, self._first, self._handicap_stones, self.game,
                self.time_settings, dict(self.time_left))

    def _restore(self, state: tuple[Any, ...]) -> None:
        (self.size, self.rules, self.setup, self._first, self._handicap_stones, self.game,
         self.time_settings, self.time_left) = state

    def _new_game(self, moves: list[str] | None = None, rules: Rules | None = None) -> Game:
        """A game from the setup stones, replaying `moves`; raises (leaving the engine as
        it was) if the rules or the setup refuse them."""
        game = Game(self.size, rules=rules or self.rules, setup=self.setup, to_move=self._first)
        game._handicap = self._handicap_stones
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
        if len(args) != 1:
            raise GtpFailure("syntax error: known_command takes one command name")
        return "true" if args[0] in self._commands else "false"

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
        self._handicap_stones = 0
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
                self._restart_from_position(color)
            else:
                self._first = color  # the first move may be either colour's
                self.game = self._new_game()
        return color

    def _restart_from_position(self, color: Color) -> None:
        """A second move of one colour in a row: the position reached becomes the setup,
        `color` to move (see the module documentation)."""
        board = self.game.to_numpy().reshape(-1)
        names = vertex_names(self.game.width, self.game.height)
        stones = {c: [names[int(i)] for i in (board == code).nonzero()[0]] for c, code in (("B", 1), ("W", 2))}
        self.setup, self._first = stones, color
        self.game = self._new_game()

    def _play(self, args: list[str]) -> str:
        color = self._color(args, "play", 2)
        if self.game.is_over:
            # Play on after the end (a GUI's user goes on): the game resumes from the
            # position reached, as after two moves of one colour (docs/gtp.md).
            self._restart_from_position(color)
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
        if len(args) != 1 or args[0] not in ("alive", "dead", "seki", "estimated", "proven"):
            raise GtpFailure("syntax error: final_status_list takes alive, dead, seki, estimated or proven")
        # The game decides (status confirmation under Japanese counting). Chains of a region
        # beyond the search are estimated so that a controller always gets an answer; the
        # extensions `final_status_list estimated` and `proven` split the stones by whether
        # their status is proven (docs/gtp.md).
        decided = self.game.final_status()
        if args[0] == "proven":
            estimated = set(decided["estimated"])
            return " ".join(v for key in ("alive", "seki", "dead") for v in decided[key] if v not in estimated)
        return " ".join(decided[args[0]])

    def _final_status_proofs(self, args: list[str]) -> str:
        if args:
            raise GtpFailure("syntax error: ikeda-final_status_proofs takes no arguments")
        if self.game.rules.scoring != "japanese":
            raise GtpFailure(f"no status confirmation under {self.game.rules.name}: every stone on the board is alive")
        # One line a chain: colour, status, proof kind (static searched estimated
        # conditional: docs/status.md "Unresolved regions"), stones.
        return "\n".join(f"{c.colour} {c.status} {c.proof} {' '.join(c.stones)}" for c in status.confirm_status(self.game).chains)

    def _handicap(self, points: list[str]) -> str:
        if self.game.moves or self.setup["B"] or self.setup["W"]:
            raise GtpFailure("board not empty")
        setup = {"B": points, "W": []}
        try:
            Game(self.size, rules=self.rules, setup=setup, to_move="W")
        except IkedaError as e:
            raise GtpFailure(f"bad vertex list: {e}") from None
        self.setup, self._first, self._handicap_stones = setup, "W", len(points)
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
        try:
            indices = [parse_vertex(a, self.size, self.size) for a in args]
        except IkedaError as e:
            raise GtpFailure(f"bad vertex list: {e}") from None
        if len(set(indices)) != len(indices) or self.size * self.size in indices:
            raise GtpFailure("bad vertex list")
        names = vertex_names(self.size, self.size)
        self._handicap([names[i] for i in indices])
        return ""

    def _loadsgf(self, args: list[str]) -> str:
        if len(args) not in (1, 2):
            raise GtpFailure("syntax error: loadsgf takes a file name and an optional move number")
        upto = _int_arg(args[1:], "loadsgf") if len(args) == 2 else None
        game, setup, first = record.load(args[0], upto, self.rules if self._rules_fixed else None)
        self.size, self.setup, self._first, self.game, self.rules = game.width, setup, first, game, game.rules
        self._handicap_stones = game.handicap
        return ""

    def _printsgf(self, args: list[str]) -> str:
        text = record.to_sgf(self.game, black=self.name, white=self.name)
        if args:
            record.write_regular(args[0], text)
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
        self._rules_fixed = True  # loadsgf no longer takes the record's RU and KM
        return str(self.rules)


    # -- the clock -------------------------------------------------------------------

    def _time_settings(self, args: list[str]) -> str:
        if len(args) != 3:
            raise GtpFailure("syntax error: time_settings takes main_time byo_yomi_time byo_yomi_stones")
        main, byo, stones = (_number(a, "time_settings") for a in args)
        self._set_clock(main, byo, int(stones))
        return ""

    def _kgs_time_settings(self, args: list[str]) -> str:
        """``kgs-time_settings none | absolute MAIN | byoyomi MAIN PERIOD PERIODS |
        canadian MAIN TIME STONES``. Japanese byo-yomi is kept as one period of PERIOD
        seconds per move (the extra periods are a safety margin the bot does not spend)."""
        kind = args[0].lower() if args else ""
        shapes = {"none": 0, "absolute": 1, "byoyomi": 3, "canadian": 3}
        if kind not in shapes or len(args) != 1 + shapes[kind]:
            raise GtpFailure("syntax error: kgs-time_settings none | absolute MAIN | byoyomi MAIN PERIOD PERIODS | canadian MAIN TIME STONES")
        values = [_number(a, "kgs-time_settings") for a in args[1:]]
        if kind == "none":
            self._set_clock(0, 1, 0)
        elif kind == "absolute":
            self._set_clock(values[0], 0, 0)
        elif kind == "byoyomi":
            self._set_clock(values[0], values[1], 1)
        else:
            self._set_clock(values[0], values[1], int(values[2]))
        return ""

    def _set_clock(self, main: float, byo: float, stones: int) -> None:
        # GTP 2, 6.2: byo_yomi_time > 0 with byo_yomi_stones = 0 means no time limit.
        self.time_settings = None if (byo > 0 and stones == 0) else (main, byo, stones)
        self.time_left = {}

    def _time_left(self, args: list[str]) -> str:
        if len(args) != 3:
            raise GtpFailure("syntax error: time_left takes a colour, seconds and stones")
        try:
            color = color_name(parse_color(args[0].lower()))
        except InvalidPositionError:
            raise GtpFailure(f"syntax error: {args[0]!r} is not a colour") from None
        seconds, stones = _number(args[1], "time_left"), _number(args[2], "time_left")
        self.time_left[color] = (seconds, int(stones))
        return ""

    def time_for_move(self, color: Color | None = None) -> float | None:
        """Seconds to spend on the next move of `color` (default: the side to move) by the
        clock the controller gave, or None without a time limit. In byo-yomi (stones > 0)
        the period's time over its stones; in main time, the time left over the moves
        likely left (at least 10), plus one byo-yomi period's share; 90% of it, less a
        tenth of a second for the protocol, never below 0.05 s nor above a search's
        bound (:data:`ikeda.limits.MAX_SECONDS`, a day)."""
        color = color or self.game.to_move
        if self.time_settings is None:
            return None
        main, byo, stones = self.time_settings
        left, left_stones = self.time_left.get(color, (main if main > 0 else byo, 0 if main > 0 else stones))
        if left_stones > 0:
            share = left / left_stones
        else:
            points = self.game.width * self.game.height
            moves_left = max(10.0, (0.6 * points - len(self.game.moves)) / 2)
            share = left / moves_left + (byo / stones if stones else 0.0)
        # Clocks up to 1e9 s are accepted; a share is never beyond what a search takes.
        return min(MAX_SECONDS, max(0.05, 0.9 * share - 0.1))


def _number(text: str, command: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise GtpFailure(f"syntax error: {command}: {text!r} is not a number") from None
    if not 0 <= value < 1e9:
        raise GtpFailure(f"syntax error: {command}: {text!r} is out of range")
    return value


def _lines(inp: IO[Any]) -> Iterator[bytes]:
    """The lines of `inp` as bytes (its ``buffer`` if it is a text stream with one), each
    cut at ``MAX_LINE + 1`` bytes: the rest of a longer line is read and dropped, so a
    line never costs more than the limit."""
    stream = getattr(inp, "buffer", inp)
    while True:
        line = stream.readline(MAX_LINE + 1)
        if not line:
            return
        if isinstance(line, str):
            line = line.encode("utf-8", "surrogateescape")
        if len(line) > MAX_LINE:
            rest = line
            while rest and not rest.endswith(b"\n" if isinstance(rest, bytes) else "\n"):
                rest = stream.readline(MAX_LINE)
        yield line


def _ident(raw: bytes) -> str:
    """The command id at the start of a line that could not be read, if any."""
    found = re.match(rb"\s*(\d{1,18})\s", raw)
    return found.group(1).decode() if found else ""


def _clip(message: str, limit: int = 200) -> str:
    """A failure message of bounded length (messages quote their arguments)."""
    message = message.replace("\n", " ")
    return message if len(message) <= limit else message[:limit] + "..."


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
