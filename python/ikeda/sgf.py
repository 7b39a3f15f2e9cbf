"""SGF game records: read them, replay them under a ruleset, write them back, and replay
thousands natively.

>>> record = read("(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese];B[ee];W[gc];B[])")
>>> record.width, record.komi, [str(m) for m in record.moves]
(9, 7.0, ['B E5', 'W G7', 'B pass'])
>>> game = record.replay()
>>> str(game.rules), game.moves
('area2:komi=7', ['E5', 'G7', 'pass'])

The native module reads the text (charsets, grammar, error positions; see docs/sgf.md)
and gives the main line its meaning; this module holds the tree, the choice of rules,
the replay through :class:`ikeda.Game` and the writer.
"""

from __future__ import annotations

import dataclasses
import gc
import os
import re
import stat
import threading
import warnings
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Union

from . import _core
from .coords import Color, color_name, sgf_point, vertex_names
from .errors import ArgumentError, IkedaError, IllegalMoveError, InvalidPositionError, SgfError
from .game import Game
from .limits import whole
from .rules import PRESETS, Rules, as_rules
from .score import format_points, format_result

if TYPE_CHECKING:
    from ._core import _Outcome, _SgfChange, _SgfGame

__all__ = [
    "Node", "Record", "RecordMove", "Problem", "SetupChange", "SgfWarning", "ReplayResult", "IllegalMove",
    "read", "read_all", "replay_many", "game_to_sgf", "RU_PRESETS", "MAX_FILE_BYTES",
    "replay_iter",
]

Source = Union[str, bytes, "os.PathLike[str]"]

#: SGF files larger than this (16 MiB) are not read, by any reader of files: ``read``,
#: ``replay_many`` and GTP ``loadsgf`` share one (see docs/sgf.md, "Files"). Larger
#: text can be given as bytes.
MAX_FILE_BYTES: int = _core.SGF_MAX_FILE_BYTES

#: How ``RU`` values are read: the closest preset, looked up case-insensitively (keys as
#: the native ``rules_key`` normalises them: lower case, runs of blanks, ``-`` and ``_``
#: as one space); a value not listed is tried as a rules string (``area3:ko=simple-ko``).
#: See docs/sgf.md for why each is the closest.
RU_PRESETS = {
    "area3": "area3",
    "area2": "area2",
    "territory1": "territory1",
    "tromp taylor": "tromp-taylor",
    "japanese": "japanese",
    "jp": "japanese",
    "korean": "japanese",
    "ko": "japanese",
    "chinese": "area2",
    "cn": "area2",
    "aga": "area2",
    "ing": "area2",
    "goe": "area2",
    "nz": "tromp-taylor",
    "new zealand": "tromp-taylor",
}


class SgfWarning(UserWarning):
    """Issued by :func:`read` when a record was read with problems (undecodable bytes,
    a bad informational value, text outside the game trees...): the record is usable,
    and ``record.problems`` lists them."""


@dataclass(frozen=True)
class Problem:
    """Something a record says that was read the documented lenient way rather than
    refused (reading), or a move or setup a tolerant replay skipped or applied
    (replaying: ``reason``, ``move_number`` and ``move`` as in
    :class:`ikeda.IllegalMoveError`)."""

    message: str
    property: str | None = None
    line: int | None = None
    column: int | None = None
    reason: str | None = None
    move_number: int | None = None
    move: str | None = None

    def __str__(self) -> str:
        where = f"line {self.line}, column {self.column}: " if self.line else ""
        return where + self.message


class SetupChange(NamedTuple):
    """Setup met in the main line after the first move (``AB``/``AW``/``AE`` as GTP
    vertices, ``PL``), before move number ``before + 1``."""

    before: int
    line: int
    column: int
    black: list[str]
    white: list[str]
    empty: list[str]
    player: Color | None


@dataclass(eq=False)
class Node:
    """A node of the game tree: its properties as written (identifier -> unescaped
    values, in file order), its children (the first continues the line), and where it
    starts in the text."""

    properties: dict[str, list[str]]
    children: list[Node] = field(default_factory=list)
    line: int = 0
    column: int = 0

    def get(self, ident: str, default: str | None = None) -> str | None:
        """The first value of a property, or `default`."""
        values = self.properties.get(ident)
        return values[0] if values else default

    @property
    def comment(self) -> str | None:
        return self.get("C")

    def __repr__(self) -> str:
        props = "".join(k + "".join(f"[{v}]" for v in vs) for k, vs in self.properties.items())
        return f"<ikeda.sgf.Node ;{props[:60]} children={len(self.children)}>"


class RecordMove(NamedTuple):
    """A move of the main line."""

    number: int  # 1-based
    color: Color
    point: int  # flat index; width * height for a pass
    vertex: str  # GTP vertex or "pass"
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.color} {self.vertex}"


class Record:
    """A game record: the tree (:attr:`root`; :attr:`main_line`, :attr:`variations`) and
    what its main line says about the game (size, komi, handicap, rules, setup, moves)."""

    def __init__(self, charset: str | None, game: _SgfGame) -> None:
        nodes, main, problems, changes = game
        made: list[Node] = []
        for parent, props, line, column in nodes:
            if len(props) == 1:  # most nodes: one move
                merged = dict(props)
            else:
                merged = {}
                for k, v in props:  # a repeated identifier (FF[3] habit) joins its values
                    if k in merged:
                        merged[k].extend(v)  # in place: a copy per repetition was quadratic
                    else:
                        merged[k] = v
            node = Node(merged, [], line, column)
            if parent is not None:
                made[parent].children.append(node)
            made.append(node)
        self.root = made[0]
        self.charset = charset
        w, h, komi, handicap, rules, key, result, black, white, to_move, moves = main
        self.width: int = w
        self.height: int = h
        self.komi: float | None = komi
        self.handicap: int = handicap
        self.rules: str | None = rules  # RU as written
        self._rules_key: str | None = key
        self.result: str | None = result
        names = vertex_names(w, h)
        self.setup: dict[str, list[str]] = {"B": [names[i] for i in black], "W": [names[i] for i in white]}
        self._setup = (black, white)
        self.to_move: Color = color_name(to_move)
        passed = w * h
        # tuple.__new__ skips the NamedTuple constructor's argument handling (a record
        # has hundreds of moves and bulk reading is measured in benches/).
        make, colors = tuple.__new__, ("", color_name(1), color_name(2))
        self.moves: list[RecordMove] = [
            make(RecordMove, (n, colors[c], passed if i is None else i, names[passed if i is None else i], line, col))
            for n, (c, i, line, col) in enumerate(moves, 1)
        ]
        self._changes = changes
        #: Setup after the first move (see :meth:`replay` for how it is treated).
        self.setup_changes: list[SetupChange] = [
            SetupChange(before, line, col, [names[i] for i in b], [names[i] for i in wh], [names[i] for i in e], None if pl == 0 else color_name(pl))
            for before, line, col, b, wh, e, pl in changes
        ]
        self._read_problems = [Problem(message, prop, line, col) for prop, message, line, col in problems]
        #: What was read leniently (see docs/sgf.md, "Leniency"), then what the last
        #: :meth:`replay` reported (tolerant: skipped or applied; strict: setup after the
        #: end of the game, which is markup).
        self.problems: list[Problem] = list(self._read_problems)

    @property
    def main_line(self) -> list[Node]:
        """The nodes from the root along first children."""
        line = [self.root]
        while line[-1].children:
            line.append(line[-1].children[0])
        return line

    @property
    def variations(self) -> list[Node]:
        """The first node of every alternative to the main line or to another variation
        (every child but the first, anywhere in the tree), in document order."""
        found, stack = [], [(self.root, False)]
        while stack:
            node, alternative = stack.pop()
            if alternative:
                found.append(node)
            stack.extend((c, k > 0) for k, c in reversed(list(enumerate(node.children))))
        return found

    def ruleset(self, rules: Rules | str | None = None) -> Rules:
        """The rules a replay uses: `rules` if given, else those ``RU`` names (a common
        name mapped by :data:`RU_PRESETS`, case ignored, or one of our rules strings), else
        Area III; the record's komi (``KM``) replaces the ruleset's when present."""
        if rules is not None:
            chosen = as_rules(rules)
        else:
            chosen = _ru_rules(self.rules, self._rules_key)
        return chosen if self.komi is None else chosen.replace(komi=self.komi)

    def replay(self, rules: Rules | str | None = None, tolerant: bool = False, *, until: int | None = None) -> Game:
        """A :class:`Game` at the end of the main line (or after its first `until` moves),
        under :meth:`ruleset`.

        Raises :class:`IllegalMoveError` naming the move number, vertex and reason
        (``"out_of_turn"`` for a move by the side not to move, ``"setup"`` for setup or a
        ``PL`` disagreeing with the turn in the middle of the game). With
        ``tolerant=True`` a refused move is skipped, a move out of turn is preceded by a
        pass of the side to move, and mid-game setup is applied (the game goes on from
        the edited position); each is recorded in :attr:`problems`. Setup after the end
        of the game or after the last move is markup (dead stones marked with ``AE``):
        reported, never applied.
        A ``PL`` agreeing with the turn is accepted silently (see docs/sgf.md)."""
        game = Game(
            width=self.width, height=self.height, rules=self.ruleset(rules),
            setup={"B": self._setup[0], "W": self._setup[1]}, to_move=self.to_move,
        )
        game._handicap = self.handicap  # the stones are in the setup already
        if until is not None:  # a slice bound: an int (numpy's too), never a bool
            until = whole(until, "until", -(2**63), 2**63 - 1)
        self.problems = list(self._read_problems)
        moves = self.moves[:until]
        changes = list(self._changes)
        for m in moves:
            while changes and changes[0][0] < m.number:
                game = self._setup_change(game, changes.pop(0), tolerant)
            if m.color != game.to_move:
                self._refused(m, "out_of_turn", f"{game.to_move} is to move", tolerant)
                try:
                    game.pass_move()
                except IllegalMoveError as e:
                    self._refused(m, e.reason, "the pass put in for the side to move was refused", tolerant)
                    continue
            try:
                game.play(m.point)
            except IllegalMoveError as e:
                self._refused(m, e.reason, "", tolerant)
        if until is None or until >= len(self.moves):
            for c in changes:
                game = self._setup_change(game, c, tolerant, trailing=True)
        return game

    def _setup_change(self, game: Game, change: _SgfChange, tolerant: bool, trailing: bool = False) -> Game:
        before, line, column, black, white, empty, pl = change
        player: Color | None = None if pl == 0 else color_name(pl)
        stones = bool(black or white or empty)
        where = f"line {line}, column {column}"
        # Setup after the last move of the main line is markup too, over or not (how real
        # records mark dead stones after a resignation); the native replay ignores it alike.
        if game.is_over or trailing:
            if stones:
                when = "the end of the game" if game.is_over else "the last move"
                self.problems.append(Problem(f"setup after {when} is markup, not applied ({where})", "AE" if empty else "AB" if black else "AW", line, column, "setup", before + 1, "setup"))
            return game
        if not stones and player in (None, game.to_move):
            return game
        what = ("AB/AW/AE" if stones else f"PL[{player}]") + f" in the middle of the game, before move {before + 1}"
        err = IllegalMoveError(f"{what} ({where})", "setup", "setup", before + 1)
        if not tolerant:
            raise err
        try:
            board = game.to_numpy().reshape(-1).copy()
            board[list(black)] = 1
            board[list(white)] = 2
            board[list(empty)] = 0
            edited = Game(
                width=self.width, height=self.height, rules=game.rules,
                setup={"B": [int(i) for i in (board == 1).nonzero()[0]], "W": [int(i) for i in (board == 2).nonzero()[0]]},
                to_move=player or game.to_move,
            )
        except InvalidPositionError as e:
            self.problems.append(Problem(f"{what} makes an impossible position ({e}); not applied ({where})", None, line, column, "setup", before + 1, "setup"))
            return game
        edited._handicap = game.handicap
        self.problems.append(Problem(f"{what}: applied, the game goes on from the edited position ({where})", None, line, column, "setup", before + 1, "setup"))
        return edited

    def _refused(self, m: RecordMove, reason: str, detail: str, tolerant: bool) -> None:
        where = f" (line {m.line}, column {m.column})"
        err = IllegalMoveError(f"move {m.number}, {m.color} {m.vertex}: {reason}{'; ' + detail if detail else ''}{where}", reason, m.vertex, m.number)
        if not tolerant:
            raise err
        self.problems.append(Problem(str(err), None, m.line, m.column, reason, m.number, m.vertex))

    def to_sgf(self) -> str:
        """The whole tree as SGF text, every property kept (values as read) but ``CA``,
        which becomes ``UTF-8``: the text is decoded, so that is how it is saved."""
        root = Node({**self.root.properties, "CA": ["UTF-8"]}, self.root.children)
        return _write(root)

    def __repr__(self) -> str:
        return f"<ikeda.sgf.Record {self.width}x{self.height} moves={len(self.moves)} RU={self.rules!r} KM={self.komi}>"


def _ru_rules(ru: str | None, key: str | None) -> Rules:
    named = None if ru is None or key is None else rules_named(ru, key)
    return PRESETS["area3"] if named is None else named


def rules_named(name: str, key: str) -> Rules | None:
    """The rules a name gives, as SGF's ``RU`` is read (also KataGo's ``rules``): `key`
    (the name normalised as the native ``rules_key`` does) one of :data:`RU_PRESETS`, else
    an ikeda rules string; None for a name that is neither."""
    if key in RU_PRESETS:
        return PRESETS[RU_PRESETS[key]]
    try:
        return Rules.from_string(name.strip())
    except IkedaError:
        return None


def read(source: Source, *, encoding: str | None = None) -> Record:
    """Reads the first game of an SGF file or text.

    `source` is bytes (decoded by :ref:`the charset rules <charsets>`), a
    :class:`pathlib.Path` (or other path-like), or a ``str``: a ``str`` naming an existing
    regular file is that file, any other ``str`` is SGF text (an :class:`ikeda.SgfError`
    if it is not). `encoding` (a WHATWG label: ``"gb18030"``, ``"shift_jis"``,
    ``"latin1"``...) overrides the charset detection for bytes and files.

    Raises :class:`ikeda.SgfError` with ``line`` and ``column`` for input that is not
    SGF. What is read leniently is listed in ``record.problems``, and an
    :class:`SgfWarning` says so."""
    return _read(source, encoding, False)[0]


def read_all(source: Source, *, encoding: str | None = None) -> list[Record]:
    """Every game of a collection (``(;...)(;...)``), in order; as :func:`read`
    otherwise. Problems of the file as a whole (its charset, text outside the game
    trees) are listed with the first game."""
    return _read(source, encoding, True)


def _read(source: Source, encoding: str | None, all_games: bool, warn: bool = True) -> list[Record]:
    data: str | bytes
    path: Path | None = None
    if encoding is not None and not isinstance(encoding, str):
        raise ArgumentError(f"encoding must be a str (a WHATWG label) or None, not {encoding!r}")
    if encoding is not None and not encoding.isascii():  # every label is ASCII; "\ud800" cannot even be passed on
        raise ArgumentError(f"unknown encoding {encoding!r} (a WHATWG label: utf-8, gb18030, shift_jis, euc-kr, big5, latin1, ...)")
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
    elif isinstance(source, os.PathLike) or (isinstance(source, str) and _names_file(source)):
        path = Path(source)
        data = _read_file(path)
    elif isinstance(source, str):
        if encoding is not None:
            raise ArgumentError("encoding= applies to bytes and files; SGF text given as str is already decoded")
        data = source[1:] if source.startswith("\ufeff") else source
    else:
        raise ArgumentError(f"SGF source must be a path, SGF text or bytes, not {type(source).__name__}")
    with _GC_PAUSE:
        return _records(source, path, data, encoding, all_games, warn)


class _GcPause:
    """The cyclic garbage collector paused while any thread builds records. A tree is
    thousands of small acyclic objects (nodes, dicts, lists, moves), and the collector would
    walk the growing heap again and again while they are made: reading real records takes
    about 1.3 times as long with it on (benches/python/sgf_gc_ratio.py). Readers are
    counted under a lock, so that the first turns it off and only the last turns it back
    on, and only if it was on when the first began: one thread's end cannot turn it on
    under another's reading."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._readers = 0
        self._was_enabled = False

    def __enter__(self) -> None:
        with self._lock:
            if self._readers == 0:
                self._was_enabled = gc.isenabled()
                gc.disable()
            self._readers += 1

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._readers -= 1
            if self._readers == 0 and self._was_enabled:
                gc.enable()


_GC_PAUSE = _GcPause()


def _records(source: Source, path: Path | None, data: str | bytes, encoding: str | None, all_games: bool, warn: bool) -> list[Record]:
    try:
        charset, games = _core.sgf_read(data, encoding, all_games)
    except SgfError as e:
        if isinstance(source, str) and path is None and "(" not in source:
            shown = source if len(source) < 60 else source[:57] + "..."
            raise SgfError(f"{e} (a str is read as SGF text unless it names an existing file, and no file {shown!r} exists)", e.line, e.column) from None
        raise
    records = [Record(None if charset == "str" else charset, g) for g in games]
    problems = [p for r in records for p in r.problems]
    if problems and warn:
        name = f" {path}" if path is not None else ""
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        warnings.warn(SgfWarning(f"record{name} read with problems: {problems[0]}{more}; see record.problems"), stacklevel=4)
    return records


def _names_file(text: str) -> bool:
    """Whether a str names an existing regular file (SGF text never does: it has `(`
    before anything else, and may be long or hold NULs or line breaks)."""
    if not text or len(text) > 4096 or "\0" in text or "\n" in text or text.lstrip().startswith(("(", "\ufeff")):
        return False
    try:
        return os.path.isfile(text)
    except (OSError, ValueError):
        return False


def _path_error(path: str | os.PathLike[str]) -> str | None:
    """Why `path` cannot name a file on this system, or None. A str with a lone surrogate
    that is not an escaped byte (surrogateescape yields only U+DC80..U+DCFF) has no bytes
    for the OS; open() would raise a bare UnicodeEncodeError."""
    try:
        os.fsencode(path)
    except UnicodeEncodeError as e:
        return f"{os.fspath(path)!r} cannot name a file: {e.reason}"
    return None


def _read_file(path: str | os.PathLike[str]) -> bytes:
    """The bytes of the SGF file `path`, by the one reader of SGF files (native: a regular
    file of at most :data:`MAX_FILE_BYTES`, opened without blocking on a FIFO, checked on
    the open descriptor). OSError if the system refuses it, ArgumentError for a FIFO, a
    device, a folder or a file over the bound, or a name no file can have."""
    error = _path_error(path)
    if error is not None:
        raise ArgumentError(error)
    if "\0" in os.fsdecode(path):
        raise ArgumentError(f"{os.fsdecode(path)!r} cannot name a file: it holds a NUL character")
    return _core.sgf_read_file(path)


# -- writing -------------------------------------------------------------------------


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def _node_text(node: Node) -> str:
    return ";" + "".join(k + "".join(f"[{_escape(v)}]" for v in vs) for k, vs in node.properties.items())


def _write(root: Node) -> str:
    """SGF text of the tree under `root`: sequences run along first children; a node with
    several children opens one ``(...)`` per child (iterative, so long games are fine)."""
    out: list[str] = ["("]
    stack: list[Node | str] = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        out.append(_node_text(item))
        if len(item.children) == 1:
            stack.append(item.children[0])
        else:
            for child in reversed(item.children):
                stack.extend([")", child, "\n("])
    out.append(")\n")
    return "".join(out)


def game_to_sgf(game: Game, extra: Mapping[str, str] | None = None) -> str:
    """SGF FF[4] text of a game: ``SZ``, ``KM``, ``HA``, ``RU`` (our rules string without
    the komi), ``RE`` once the game is over, ``AB``/``AW``, ``PL`` when White moves first,
    and the moves (a pass as ``B[]``). ``extra`` root properties (``PB``, ``PW``, ``C``,
    ``RE``...) are added, replacing any of the same name."""
    w, h = game.width, game.height
    rules = game.rules
    root: dict[str, list[str]] = {
        "GM": ["1"], "FF": ["4"], "CA": ["UTF-8"], "AP": [f"ikeda:{_core.__version__}"],
        "SZ": [str(w) if w == h else f"{w}:{h}"],
        # A whole komi of 100 or more gets ".0": the reader takes a bare KM[650] as Fox's
        # hundredths.
        "KM": [format_points(rules.komi) + (".0" if rules.komi >= 100 and rules.komi == int(rules.komi) else "")],
        "RU": [str(rules.replace(komi=PRESETS[rules.name].komi))],
    }
    if game.handicap:
        root["HA"] = [str(game.handicap)]
    if "RE" not in (extra or {}) and game.result is not None:  # a given RE is not counted again
        root["RE"] = [game.result]
    index = game.board.index
    for color, stones in game.setup.items():
        if stones:
            root["A" + color] = [sgf_point(index(v), w, h) for v in stones]
    first = game.first_color
    if first == "W":
        root["PL"] = ["W"]
    root.update((key, [value]) for key, value in (extra or {}).items())
    head = node = Node(root)
    color = first
    for i in game.move_indices:
        child = Node({color: [sgf_point(i, w, h)]})
        node.children.append(child)
        node, color = child, ("W" if color == "B" else "B")
    return _write(head)


# -- many records natively ----------------------------------------------------------------


class IllegalMove(NamedTuple):
    number: int
    color: Color
    vertex: str
    reason: str


@dataclass(frozen=True)
class ReplayResult:
    """What became of one file in :func:`replay_many`.

    ``status``: ``"ok"`` (replayed to the end of its main line), ``"illegal"`` (stopped at
    :attr:`illegal`, the first move its rules refuse), ``"sgf_error"`` (malformed;
    ``error``, ``line``, ``column``), ``"bad_setup"`` (setup stones that cannot stand) or
    ``"unreadable"``. ``black`` and ``white`` count the board reached (no dead stones)
    under the rules, komi included."""

    path: str
    status: str
    moves: int
    illegal: IllegalMove | None
    over: bool
    black: float | None
    white: float | None
    error: str | None
    line: int | None
    column: int | None
    #: The record's ``RE`` as written (None when absent or the file was not read).
    recorded: str | None = None
    #: The preset it was replayed under (None when the file was not read).
    rules: str | None = None
    #: Under Japanese counting, the stones whose status was estimated rather than proven
    #: (0: the count is proven); None when no Japanese count was made.
    estimated: int | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def result(self) -> str | None:
        """SGF-style result of the count ("B+3.5", "0"), None if not replayed."""
        if self.black is None or self.white is None:
            return None
        return format_result(self.black - self.white)


def _result(path: str, t: _Outcome, forced: Rules | None) -> ReplayResult:
    status, moves, illegal, over, score, error, recorded, key = t
    ill = None if illegal is None else IllegalMove(illegal[0], color_name(illegal[1]), illegal[2], illegal[3])
    black, white = (None, None) if score is None else (score[0] / 2, score[1] / 2)
    msg, line, col = (None, None, None) if error is None else (error[0], error[1] or None, error[2] or None)
    name = None if score is None else forced.name if forced is not None else RU_PRESETS.get(key or "", "area3")
    return ReplayResult(path, status, moves, ill, over, black, white, msg, line, col, recorded, name)


def replay_many(
    paths: Iterable[str | os.PathLike[str]],
    rules: Rules | str | None = None,
    threads: int = 0,
    *,
    chunk: int = 2_000,
    on_chunk: Callable[[int], None] | None = None,
    tolerant: bool = False,
) -> list[ReplayResult]:
    """Replays the first game of every file natively on `threads` threads (0 = every
    core) with the GIL released, in chunks of `chunk` files (`on_chunk(files_done)` after
    each, and after each record of the Python path, for progress), and returns the results
    in the order of `paths`. `rules` forces one ruleset on every record; by default each
    is replayed under the preset its ``RU`` names (:data:`RU_PRESETS`, or a preset name),
    else Area III. The record's ``KM`` replaces the ruleset's komi. Rules strings with
    components in ``RU`` are honoured by :meth:`Record.replay` only (see docs/sgf.md).

    Records under the ``japanese`` preset (forced, or ``RU[Japanese]``/``RU[Korean]``),
    and every record when `tolerant`, take the Python path (:meth:`Record.replay`) on a
    pool of `threads` threads: Japanese counting is not native. Their board is counted
    (:meth:`Game.score`, which confirms the status of the stones, natively with the GIL
    released) only where the recorded result (``RE``) is a count: a resignation, a loss
    on time, a forfeit or an unknown result needs no count, and ``black``/``white`` stay
    None. :func:`replay_iter` gives the same results as each is ready."""
    files = [os.fspath(p) for p in paths]
    out: list[ReplayResult | None] = [None] * len(files)
    done = 0
    for batch in _replay_batches(files, rules, threads, chunk, tolerant):
        for k, r in batch:
            out[k] = r
        done += len(batch)
        if on_chunk is not None and batch:
            on_chunk(done)
    return [r for r in out if r is not None]


def replay_iter(
    paths: Iterable[str | os.PathLike[str]],
    rules: Rules | str | None = None,
    threads: int = 0,
    *,
    chunk: int = 2_000,
    tolerant: bool = False,
) -> Iterator[ReplayResult]:
    """:func:`replay_many`'s results as each is ready rather than all at the end: the
    natively replayed records of each chunk of `chunk` files (in the order of `paths`)
    as the chunk ends, the records of the Python path (Japanese counting, `tolerant`) as
    each finishes. So the order is not that of `paths` (each result names its ``path``);
    the results are the same."""
    batches = _replay_batches([os.fspath(p) for p in paths], rules, threads, chunk, tolerant)
    return (r for batch in batches for _, r in batch)


def _replay_batches(
    files: list[str], rules: Rules | str | None, threads: int, chunk: int, tolerant: bool
) -> Iterator[list[tuple[int, ReplayResult]]]:
    """The results of `files` with their index, in batches as they are ready: a chunk of
    native replays, then each record of the Python path alone. The Python path's pool
    starts with the first record deferred to it, so it counts Japanese records while the
    native chunks go on. Bad arguments are refused here, before anything is replayed."""
    if threads < 0 or chunk <= 0:
        raise ArgumentError(f"threads must be >= 0 and chunk > 0 (got {threads}, {chunk})")
    forced = None if rules is None else as_rules(rules)
    return _batches(files, forced, threads, chunk, tolerant)


def _batches(
    files: list[str], forced: Rules | None, threads: int, chunk: int, tolerant: bool
) -> Iterator[list[tuple[int, ReplayResult]]]:
    native_forced = (forced is None or forced.scoring != "japanese") and not tolerant
    by_key = [(key, PRESETS[name]) for key, name in RU_PRESETS.items() if PRESETS[name].scoring != "japanese"]
    deferred = [key for key, name in RU_PRESETS.items() if PRESETS[name].scoring == "japanese"]
    pool = ThreadPoolExecutor(max_workers=threads or os.cpu_count() or 1)
    jobs: dict[Future[ReplayResult], int] = {}

    def finished(wait: bool) -> Iterator[list[tuple[int, ReplayResult]]]:
        for job in as_completed(list(jobs)) if wait else [j for j in jobs if j.done()]:
            yield [(jobs.pop(job), job.result())]

    try:
        for first in range(0, len(files), chunk):
            part = range(first, min(first + chunk, len(files)))
            later: list[int] = []
            batch: list[tuple[int, ReplayResult]] = []
            if native_forced:
                named = [files[k] for k in part if _path_error(files[k]) is None]
                outcomes = iter(_core.sgf_replay_many(named, forced, by_key, PRESETS["area3"], threads, deferred))
                for k in part:
                    error = _path_error(files[k])
                    if error is not None:
                        batch.append((k, ReplayResult(files[k], "unreadable", 0, None, False, None, None, error, None, None)))
                        continue
                    t = next(outcomes)
                    if t[0] == "deferred":
                        later.append(k)
                    else:
                        batch.append((k, _result(files[k], t, forced)))
            else:
                later.extend(part)
            for k in later:
                jobs[pool.submit(_replay_python, files[k], forced, tolerant)] = k
            yield batch
            yield from finished(wait=False)
        yield from finished(wait=True)
    finally:
        # A consumer that stops early (an error, Ctrl-C) leaves the records not started.
        pool.shutdown(wait=True, cancel_futures=True)


#: ``RE`` values that are a count: ``B+3.5``, ``W+0``, ``0``, ``Draw`` (SGF FF[4] RE).
_COUNTED = re.compile(r"\s*(?:[BW]\s*\+\s*\d+(?:\.\d*)?|0|draw|jigo)\s*$", re.IGNORECASE)


def result_is_count(recorded: str | None) -> bool:
    """Whether a recorded result (``RE``) is a count of the board, which only a count can
    check: not a resignation (``B+R``), a loss on time or by forfeit, nor unknown."""
    return recorded is not None and _COUNTED.match(recorded) is not None


def _replay_python(path: str, rules: Rules | None, tolerant: bool = False) -> ReplayResult:
    """One file through :func:`read`, :meth:`Record.replay` and :meth:`Game.score`, for
    rulesets the native replay does not count (Japanese) and tolerant replays."""

    def failed(status: str, error: str, line: int | None = None, column: int | None = None) -> ReplayResult:
        return ReplayResult(path, status, 0, None, False, None, None, error, line, column)

    try:
        # Read without the SgfWarning (the problems stay in record.problems): this runs on
        # a pool of threads, where `warnings.catch_warnings` would swap the process's
        # filter list under the other threads, letting warnings through and leaving the
        # ignore filter behind.
        record = _read(Path(path), None, False, warn=False)[0]
    except SgfError as e:
        return failed("sgf_error", str(e), e.line, e.column)
    except (OSError, IkedaError) as e:
        return failed("unreadable", str(e))
    illegal = None
    try:
        game = record.replay(rules, tolerant)
    except IllegalMoveError as e:
        number = max(1, min(e.move_number or 1, len(record.moves) + 1))
        if number > len(record.moves):  # only setup can stand after the last move
            illegal = IllegalMove(number, record.to_move, "setup", e.reason)
        else:
            m = record.moves[number - 1]
            illegal = IllegalMove(number, m.color, "setup" if e.reason == "setup" else m.vertex, e.reason)
        game = record.replay(rules, until=number - 1)
    except InvalidPositionError as e:
        return dataclasses.replace(failed("bad_setup", str(e)), recorded=record.result)
    black: float | None = None
    white: float | None = None
    estimated: int | None = None
    if game.rules.scoring != "japanese" or result_is_count(record.result):
        try:
            s = game.score()
            black, white = s.black, s.white
            estimated = len(s.estimated) if game.rules.scoring == "japanese" else None
        except IkedaError:  # a region beyond the status search budget: no count
            pass
    moves = len(record.moves) if illegal is None else illegal.number - 1
    return ReplayResult(
        path, "ok" if illegal is None else "illegal", moves, illegal, game.is_over, black, white, None, None, None, record.result, game.rules.name,
        estimated,
    )
