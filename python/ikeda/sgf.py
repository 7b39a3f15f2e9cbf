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

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Union

from . import _core
from .errors import ArgumentError, IkedaError, IllegalMoveError
from .coords import Color, color_name, sgf_point, vertex_names
from .game import Game
from .rules import PRESETS, Rules, as_rules
from .score import format_points, format_result

if TYPE_CHECKING:
    from ._core import _Outcome, _SgfMain, _SgfNode

__all__ = ["Node", "Record", "RecordMove", "ReplayResult", "IllegalMove", "read", "replay_many", "game_to_sgf", "RU_PRESETS"]

Source = Union[str, bytes, "os.PathLike[str]"]

#: How ``RU`` values are read when they are not one of our rules strings: the closest
#: preset (keys as the native ``rules_key`` normalises them: lower case, runs of blanks,
#: ``-`` and ``_`` as one space). See docs/sgf.md for why each is the closest.
RU_PRESETS = {
    "area3": "area3",
    "area2": "area2",
    "territory1": "territory1",
    "tromp taylor": "tromp-taylor",
    "japanese": "territory1",
    "jp": "territory1",
    "korean": "territory1",
    "ko": "territory1",
    "chinese": "area2",
    "cn": "area2",
    "aga": "area2",
    "ing": "area2",
    "goe": "area2",
    "nz": "tromp-taylor",
    "new zealand": "tromp-taylor",
}


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

    def __init__(self, charset: str | None, nodes: Sequence[_SgfNode], main: _SgfMain) -> None:
        made: list[Node] = []
        for parent, props, line, column in nodes:
            merged: dict[str, list[str]] = {}
            for k, v in props:  # a repeated identifier (FF[3] habit) joins its values
                merged.setdefault(k, []).extend(v)
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
        self.moves: list[RecordMove] = [
            RecordMove(n, color_name(c), passed if i is None else i, names[passed if i is None else i], line, col)
            for n, (c, i, line, col) in enumerate(moves, 1)
        ]
        #: Problems met by the last tolerant :meth:`replay`.
        self.problems: list[IllegalMoveError] = []

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
        """The rules a replay uses: `rules` if given, else those ``RU`` names (one of our
        rules strings, or a common name mapped by :data:`RU_PRESETS`), else Area III; the
        record's komi (``KM``) replaces the ruleset's when present."""
        if rules is not None:
            chosen = as_rules(rules)
        else:
            chosen = _ru_rules(self.rules, self._rules_key)
        return chosen if self.komi is None else chosen.replace(komi=self.komi)

    def replay(self, rules: Rules | str | None = None, tolerant: bool = False, *, until: int | None = None) -> Game:
        """A :class:`Game` at the end of the main line (or after its first `until` moves),
        under :meth:`ruleset`.

        Raises :class:`IllegalMoveError` naming the move number, vertex and reason
        (``"out_of_turn"`` for a move by the side not to move). With ``tolerant=True`` a
        refused move is recorded in :attr:`problems` and skipped, and a move out of turn
        is preceded by a pass of the side to move (see docs/sgf.md)."""
        game = Game(
            width=self.width, height=self.height, rules=self.ruleset(rules),
            setup={"B": self._setup[0], "W": self._setup[1]}, to_move=self.to_move,
        )
        game._handicap = self.handicap  # the stones are in the setup already
        self.problems = []
        for m in self.moves[:until]:
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
        return game

    def _refused(self, m: RecordMove, reason: str, detail: str, tolerant: bool) -> None:
        where = f" (line {m.line}, column {m.column})"
        err = IllegalMoveError(f"move {m.number}, {m.color} {m.vertex}: {reason}{'; ' + detail if detail else ''}{where}", reason, m.vertex, m.number)
        if not tolerant:
            raise err
        self.problems.append(err)

    def to_sgf(self) -> str:
        """The whole tree as SGF text, every property kept (values as read)."""
        return _write(self.root)

    def __repr__(self) -> str:
        return f"<ikeda.sgf.Record {self.width}x{self.height} moves={len(self.moves)} RU={self.rules!r} KM={self.komi}>"


def _ru_rules(ru: str | None, key: str | None) -> Rules:
    if ru is None or key is None:
        return PRESETS["area3"]
    try:
        return Rules.from_string(ru)
    except IkedaError:
        return PRESETS[RU_PRESETS.get(key, "area3")]


def read(source: Source) -> Record:
    """Reads the first game of an SGF file (a path), of SGF text (a str starting with
    ``(``) or of SGF bytes (decoded by their ``CA`` charset, else UTF-8, else the likeliest
    East Asian encoding). Raises :class:`ikeda.SgfError` with ``line`` and ``column`` for
    malformed input."""
    data: str | bytes
    if isinstance(source, (bytes, bytearray)):
        data = bytes(source)
    elif isinstance(source, str) and source.lstrip().startswith("("):
        data = source
    elif isinstance(source, (str, os.PathLike)):
        data = Path(source).read_bytes()
    else:
        raise ArgumentError(f"SGF source must be a path, SGF text or bytes, not {type(source).__name__}")
    charset, nodes, main = _core.sgf_read(data)
    return Record(None if charset == "str" else charset, nodes, main)


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
        "KM": [format_points(rules.komi)],
        "RU": [str(rules.replace(komi=PRESETS[rules.name].komi))],
    }
    if game.handicap:
        root["HA"] = [str(game.handicap)]
    if game.result is not None:
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

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def result(self) -> str | None:
        """SGF-style result of the count ("B+3.5", "0"), None if not replayed."""
        if self.black is None or self.white is None:
            return None
        return format_result(self.black - self.white)


def _result(path: str, t: _Outcome) -> ReplayResult:
    status, moves, illegal, over, score, error = t
    ill = None if illegal is None else IllegalMove(illegal[0], color_name(illegal[1]), illegal[2], illegal[3])
    black, white = (None, None) if score is None else (score[0] / 2, score[1] / 2)
    msg, line, col = (None, None, None) if error is None else (error[0], error[1] or None, error[2] or None)
    return ReplayResult(path, status, moves, ill, over, black, white, msg, line, col)


def replay_many(
    paths: Iterable[str | os.PathLike[str]],
    rules: Rules | str | None = None,
    threads: int = 0,
    *,
    chunk: int = 2_000,
    on_chunk: Callable[[int], None] | None = None,
) -> list[ReplayResult]:
    """Replays the first game of every file natively on `threads` threads (0 = every
    core) with the GIL released, in chunks of `chunk` files (`on_chunk(files_done)` after
    each, for progress). `rules` forces one ruleset on every record; by default each is
    replayed under the preset its ``RU`` names (:data:`RU_PRESETS`, or a preset name),
    else Area III. The record's ``KM`` replaces the ruleset's komi. Rules strings with
    components in ``RU`` are honoured by :meth:`Record.replay` only (see docs/sgf.md)."""
    files = [os.fspath(p) for p in paths]
    if threads < 0 or chunk <= 0:
        raise ArgumentError(f"threads must be >= 0 and chunk > 0 (got {threads}, {chunk})")
    forced = None if rules is None else as_rules(rules)
    by_key = [(key, PRESETS[name]) for key, name in RU_PRESETS.items()]
    out: list[ReplayResult] = []
    for first in range(0, len(files), chunk):
        part = files[first : first + chunk]
        done = _core.sgf_replay_many(part, forced, by_key, PRESETS["area3"], threads)
        out.extend(_result(p, t) for p, t in zip(part, done))
        if on_chunk is not None:
            on_chunk(len(out))
    return out
