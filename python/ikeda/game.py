"""`Game`: the game flow over the native board, Area Rules III by default.

The native :class:`ikeda._core.Board` owns the stones, legality (Rules 3-5, or a
ruleset's variants) and the superko history; this class adds what the board does not
know: whose turn it is (Rules 1, 2, 8), the passes and the end of the game (Rule 6, see
:mod:`ikeda.flow`), and the score (Rule 7, see :mod:`ikeda.counting`).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar, Union

import numpy as np
import numpy.typing as npt

from . import _core, counting, flow, status
from .coords import BLACK, GTP_LETTERS, WHITE, Color, color_name, parse_color, vertex_names
from .errors import ArgumentError, IkedaError, IllegalMoveError, InvalidPositionError
from .handicap import handicap_points
from .limits import MAX_SIDE, board_side, move_list
from .rules import Rules, as_rules
from .score import Score

__all__ = ["BLACK", "WHITE", "COUNT_GAMES_MAX_POINTS", "Color", "Game", "Move", "count_games", "perft"]

#: A move: a GTP vertex ("D4", case-insensitive, no letter I), "pass", or a flat index
#: (row-major from the top-left point; ``width * height`` is pass).
Move = Union[str, int]

_T = TypeVar("_T")


#: (id(rules), komi) -> (rules, rules with komi): keyed by identity because hashing a
#: Rules value hashes all its fields, a fifth of a new game's time; the value keeps
#: `rules` alive so its id cannot be reused while the entry stands.
_KOMI_CACHE: dict[tuple[int, float], tuple[Rules, Rules]] = {}


def _with_komi(rules: Rules, komi: float) -> Rules:
    """`rules` with `komi`, made (and validated) once per pair: a new game is a hot call."""
    hit = _KOMI_CACHE.get((id(rules), komi))
    if hit is not None and hit[0] is rules:
        return hit[1]
    made = rules if komi == rules.komi else rules.replace(komi=komi)
    if len(_KOMI_CACHE) >= 256:
        _KOMI_CACHE.clear()
    _KOMI_CACHE[id(rules), komi] = (rules, made)
    return made


class Game(_core.GameCore):
    """A game of Go under Ikeda's Area Rules III, or another ruleset (:class:`Rules`).

    The native base class holds the board, the side to move, the passes in succession
    and whether the game is over, and makes the hot calls (``play`` of a point,
    ``legal_indices``, ``legal_moves``, ``legal_mask``, ``is_over``) one native call each;
    everything else, passes and the end of the game included, is here.

    >>> g = Game(9, komi=6.5)
    >>> g.play("E5"); g.play("pass"); g.play("pass"); g.play("pass")
    >>> g.is_over, g.first_passer, g.score().result
    (True, 'W', 'B+73.5')
    """

    __slots__ = (
        "_width", "_height", "_rules", "_ending",
        "_start_color", "_prelim_stones", "_resigned", "_pass", "_setup", "_handicap", "_lock",
    )

    def __init__(
        self,
        size: int = 19,
        *,
        komi: float | None = None,
        rules: Rules | str = "area3",
        width: int | None = None,
        height: int | None = None,
        setup: Mapping[str, Iterable[Move]] | None = None,
        handicap: int = 0,
        to_move: Color | None = None,
    ) -> None:
        rules = as_rules(rules)
        if komi is not None:
            if komi.__class__ is not float and (isinstance(komi, bool) or not isinstance(komi, (int, float))) or not math.isfinite(komi):
                raise ArgumentError(f"komi must be a multiple of 1/2, not {komi!r}")
            rules = _with_komi(rules, komi)
        if width is None and height is None and size.__class__ is int and 0 < size <= MAX_SIDE:
            w = h = size  # the common case, checked inline: a new game is a hot call
        else:
            w = size if width is None else width
            h = size if height is None else height
            w, h = board_side(w, "width"), board_side(h, "height")
        self._width, self._height = w, h
        self._rules = rules
        self._ending = rules.ending
        # The pass bookkeeping (first pass, preliminary end, passes per colour) is the
        # native base's, which starts with none.
        self._prelim_stones: tuple[int, int] | None = None
        self._resigned: int | None = None
        self._pass = w * h
        # Serialises the calls that take several steps (passes, undo, resign, copy): a Game
        # shared by threads stays whole (see the native base for plays of a point).
        self._lock = threading.Lock()
        # The native base starts with Black to move, no pass and the game going on.
        if setup is None and handicap.__class__ is int and not handicap and to_move is None:
            self._board = _core.Board(w, h, rules=rules)  # an even game from the empty board
            self._setup: tuple[tuple[Move, ...], tuple[Move, ...]] = ((), ())  # for writing the game out
            self._handicap = 0
            self._start_color = BLACK
            return
        if setup is not None and not isinstance(setup, Mapping):
            raise InvalidPositionError(f"setup must be a mapping {{'B': [...], 'W': [...]}}, not {setup!r}")
        setup = dict(setup or {})
        unknown = set(setup) - {"B", "W"}
        if unknown:
            raise InvalidPositionError(f"setup keys must be 'B' and 'W', not {sorted(map(repr, unknown))}")  # keys of any types
        black = move_list(setup.get("B", ()), "setup['B']")
        white = move_list(setup.get("W", ()), "setup['W']")
        if isinstance(handicap, bool) or not isinstance(handicap, (int, np.integer)):
            raise InvalidPositionError(f"handicap must be an int (a number of stones), not {handicap!r}")
        handicap = int(handicap)
        if handicap:
            if w != h:
                raise InvalidPositionError("fixed handicap needs a square board")
            black += handicap_points(handicap, w)
        self._board = _core.Board(w, h, black, white, rules=rules)
        self._setup = (tuple(black), tuple(white))
        self._handicap = handicap
        default = "W" if handicap else "B"
        self._start_color = parse_color(to_move or default, "to_move")
        self._color = self._start_color

    # -- moves -----------------------------------------------------------------------

    # `play(move)` is the native base's: a legal play of a point given as an int or a str
    # is made there in one call, and so is a pass after a play (it ends no game and is only
    # counted); everything else (a pass that may end the game, a move it cannot take or
    # that the rules refuse, a finished game, a call while another thread holds the lock)
    # comes here, under the lock.

    def _play_locked(self, move: Move) -> None:
        """`play` for the moves the native fast path leaves: passes in succession and the
        flow of the game (Rule 6), errors, and unusual move types (numpy ints, str
        subclasses)."""
        lock = self._lock
        lock.acquire()
        self._held = True  # plays from other threads now wait for the lock
        try:
            if self._over:
                self._board.index(move)  # a malformed move is reported as such first
                raise self._illegal(move, "game_over")
            color = self._color
            # The board records the move; a play (the hot path) only ends a pass streak,
            # a pass goes through the bookkeeping.
            if self._board.play(move, color):
                if self._count(len(self._board), True, color):
                    self._prelim_stones = (self._board.stone_count(BLACK), self._board.stone_count(WHITE))
                self._over = self._passes_ended()
            else:
                self._streak = 0
            self._color = color ^ 3
        finally:
            self._held = False
            lock.release()

    def _illegal(self, move: Move, reason: str) -> IllegalMoveError:
        n = len(self._board) + 1
        name = move if isinstance(move, str) else self._names()[move] if 0 <= move <= self._pass else move
        return IllegalMoveError(
            f"illegal move {name} by {color_name(self._color)} at move {n}: {reason}",
            reason,
            move,
            n,
        )

    def pass_move(self) -> None:
        """Passes for the side to move."""
        self.play(self._pass)

    def is_legal(self, move: Move) -> bool:
        """Whether `move` may be played now (raises InvalidMoveError if it cannot be read)."""
        return self.illegal_reason(move) is None

    def illegal_reason(self, move: Move) -> str | None:
        """Why `move` may not be played now ("game_over", "occupied", "suicide", "superko",
        or "ko" under simple ko), or None if it may."""
        if self._over:
            self._board.index(move)
            return "game_over"
        return self._board.illegal_reason(move, self._color)

    def resign(self, color: Color | None = None) -> None:
        """`color` (the side to move by default) resigns and loses (Rule 2)."""
        def work() -> None:
            if self._over:
                raise self._illegal("resign", "game_over")
            self._resigned = self._color if color is None else parse_color(color, "color")
            self._over = True

        self._exclusive(work)

    def _exclusive(self, work: Callable[[], _T]) -> _T:
        """`work()` under the game's lock, with the native base told so (its plays from
        other threads then wait for the lock instead of interleaving)."""
        with self._lock:
            self._held = True
            try:
                return work()
            finally:
                self._held = False

    def undo(self) -> str:
        """Takes back a resignation, or else the last move; returns what was taken back."""
        return self._exclusive(self._undo)

    def _undo(self) -> str:
        if self._resigned is not None:
            self._resigned = None
            self._over = self._passes_ended()
            return "resign"
        index = self._board.undo()
        if index is None:
            raise IkedaError("there is no move to undo")
        self._color ^= 3
        record = self._board.moves
        prelim = self._prelim if self._prelim is not None and self._prelim <= len(record) else None
        stones = self._prelim_stones if prelim is not None else None
        self._first_passer = self._first_pass = self._prelim = None
        self._streak = 0
        self._passes = (0, 0, 0, 0)
        color = self._start_color
        for n, i in enumerate(record, 1):  # replay the pass bookkeeping; undo is rare
            self._count(n, i == self._pass, color)
            color ^= 3
        self._prelim_stones = stones
        self._over = self._passes_ended()
        return self._names()[index]

    def _native_state(self) -> flow.NativeState:
        n, prelim = len(self._board), self._prelim
        mover = None if prelim is None else (self._start_color if prelim % 2 == 0 else self._start_color ^ 3)
        return flow.native_state(
            self._ending, n, self._streak, self._first_pass, prelim, self._first_passer, mover, self._over
        )

    def _passes_ended(self) -> bool:
        return flow.is_over(self._ending, len(self._board), self._streak, self._first_pass, self._prelim)

    def copy(self) -> Game:
        """An independent copy; the configuration history is shared, not copied."""
        g = Game.__new__(Game)
        g._lock = threading.Lock()
        # Under the lock the pass bookkeeping here cannot change; the native state (board,
        # turn, streak, end) is copied in one native call, which a play cannot split, so
        # the game need not be held.
        lock = self._lock
        lock.acquire()  # acquire/release rather than `with`: half the cost on a hot call
        try:
            self._copy_native(g)
            g._width, g._height, g._rules, g._ending = self._width, self._height, self._rules, self._ending
            g._start_color, g._prelim_stones = self._start_color, self._prelim_stones
            g._resigned, g._pass, g._setup, g._handicap = self._resigned, self._pass, self._setup, self._handicap
        finally:
            lock.release()
        return g

    __copy__ = copy

    # -- state -----------------------------------------------------------------------

    @property
    def width(self) -> int:
        return self._width

    @property
    def height(self) -> int:
        return self._height

    @property
    def komi(self) -> float:
        return self._rules.komi

    @property
    def rules(self) -> Rules:
        """The ruleset, komi included; part of the game state (``rules.digest``)."""
        return self._rules

    @property
    def preliminary_end(self) -> int | None:
        """The number of the move that made the preliminary end (the second of the first
        two passes in succession), under any ruleset; None before it."""
        return self._prelim

    @property
    def board(self) -> _core.Board:
        """The native board (stones, legality and superko history; no turn order)."""
        return self._board

    @property
    def to_move(self) -> Color:
        return color_name(self._color)

    @property
    def first_passer(self) -> Color | None:
        """Who made the first pass of the game (Rule 6), if anyone has."""
        return None if self._first_passer is None else color_name(self._first_passer)

    @property
    def moves(self) -> list[str]:
        """The moves played, as GTP vertices and "pass"."""
        names = self._names()
        return [names[i] for i in self._board.moves]

    @property
    def move_indices(self) -> list[int]:
        """The moves played, as flat indices."""
        return self._board.moves

    @property
    def resigned(self) -> Color | None:
        return None if self._resigned is None else color_name(self._resigned)

    @property
    def winner(self) -> Color | None:
        """The winner of a finished game (None while it goes on, or for a draw)."""
        if not self._over:
            return None
        if self._resigned is not None:
            return color_name(self._resigned ^ 3)
        return self.score().winner

    @property
    def result(self) -> str | None:
        """SGF-style result of a finished game ("B+R", "W+0.5", "0"), None while it goes on."""
        if not self._over:
            return None
        if self._resigned is not None:
            return f"{color_name(self._resigned ^ 3)}+R"
        return self.score().result

    def _names(self) -> tuple[str, ...]:
        return vertex_names(self._width, self._height)

    def to_numpy(self) -> npt.NDArray[np.int8]:
        """Stones as int8 ``(h, w)``: 0 empty, 1 black, 2 white; row 0 is the top."""
        return self._board.to_numpy()

    # -- counting --------------------------------------------------------------------

    def score(self, dead: Sequence[Move] = (), rules: Rules | str | None = None) -> Score:
        """The count of the board as it stands under the game's rules, or under `rules`.

        Area III (Rule 7): stones + territory, the half point moved from Black to White
        when White passed first, komi to White. Territory I: territory - stones lost
        (captured and pass stones) + komi. A ruleset given by name keeps the game's komi.
        Counting a record of another ruleset under Territory I appends the passes it still
        needs to reach its end (``Score.extra_passes``); see docs/rules.md for which
        combinations are meaningful.

        `dead` lists agreed dead stones; each marks its whole chain, which is removed
        before counting. Without it every stone on the board is alive. Under Japanese
        counting no agreement is needed: status confirmation decides the dead stones
        (:func:`ikeda.japanese_score`), and `dead` may not be given.
        """
        dead = move_list(dead, "dead")
        if rules is None:
            counted = self._rules
        elif isinstance(rules, Rules):
            counted = rules
        else:
            counted = as_rules(rules)
            if "komi" not in rules:  # a ruleset named without komi keeps the game's
                counted = counted.replace(komi=self._rules.komi)
        confirmed = self._confirmed(counted)
        if confirmed is not None:
            if dead:
                raise ArgumentError("under Japanese counting status confirmation decides the dead stones; do not pass `dead`")
            js = status.japanese_count(confirmed, komi=counted.komi, prisoners=self.prisoners)
            stones = (self._board.stone_count(BLACK), self._board.stone_count(WHITE))
            return counting.japanese_score(counted, js, stones, self._board.lost)
        board = self._board
        area = board.area(dead) if dead else board.area()
        marked = tuple(self._names()[board.index(d)] for d in dead) if dead else ()
        # Stones lost: captured, and dead ones (on the board but not counted).
        cb, cw = board.lost
        lost = (cb + board.stone_count(BLACK) - area[0], cw + board.stone_count(WHITE) - area[1])
        tally, p = None, self._passes
        if self._prelim is not None and self._prelim_stones is not None:
            tally = counting.Tally(
                self._start_color, len(board), self._prelim, self._prelim_stones, (p[0], p[1], p[2], p[3]), self._streak
            )
        # A record of another ending is continued with the passes Territory I still needs.
        extra = tally.extra_passes() if tally is not None and self._ending != "equal-moves" else 0
        if counted.scoring == "area":
            return counting.area_score(counted, self._first_passer, area, lost, marked, tally, extra)
        return counting.territory_score(counted, tally, area, lost, marked, extra)

    def _confirmed(self, rules: Rules) -> status.StatusResult | None:
        """The one decision on which stones are dead: under Japanese counting, status
        confirmation (STATUS.md) decides; under every other ruleset the game is played
        out and every stone on the board is alive (None)."""
        # A region beyond the search is estimated (and marked so) rather than refused, so
        # that a real game always gets a count; docs/status.md "Unresolved regions".
        return status.confirm_status(self, unresolved="estimate") if rules.scoring == "japanese" else None

    def final_status(self) -> dict[str, list[str]]:
        """The stones by their status at the end of the game, as GTP vertices:
        ``{"alive": [...], "seki": [...], "dead": [...], "estimated": [...]}``. Under the
        game's rules: status confirmation under Japanese counting, where the chains of a
        region beyond the search are estimated by Monte-Carlo ownership and also listed
        under ``"estimated"`` (not proven; docs/status.md); otherwise every stone alive,
        Black's then White's, and nothing estimated. Score, pictures and GTP's
        ``final_status_list`` all ask this."""
        confirmed = self._confirmed(self._rules)
        out: dict[str, list[str]] = {"alive": [], "seki": [], "dead": [], "estimated": []}
        if confirmed is None:
            names, stones = self._names(), self.to_numpy().ravel().tolist()
            out["alive"] = [names[i] for code in (BLACK, WHITE) for i, v in enumerate(stones) if v == code]
            return out
        for chain in confirmed.chains:
            out[chain.status].extend(chain.stones)
        out["estimated"] = confirmed.estimated_stones
        return out

    @property
    def prisoners(self) -> dict[str, int]:
        """Stones each side has taken off the board so far: ``{"B": taken by Black, "W":
        taken by White}`` (captures; suicides where the rules allow them count for the
        opponent)."""
        lost_b, lost_w = self._board.lost
        return {"B": lost_w, "W": lost_b}

    def ownership(self, dead: Sequence[Move] = ()) -> npt.NDArray[np.int8]:
        """Who owns each point, int8 ``(h, w)``: 0 nobody, 1 Black, 2 White (stones and
        Definition 5 territory, after removing `dead` chains)."""
        dead = move_list(dead, "dead")
        return self._board.ownership(dead) if dead else self._board.ownership()

    @property
    def setup(self) -> dict[str, list[str]]:
        """The stones on the board before the first move (handicap stones included), as
        GTP vertices by colour."""
        names, index = self._names(), self._board.index
        return {"B": [names[index(m)] for m in self._setup[0]], "W": [names[index(m)] for m in self._setup[1]]}

    @property
    def handicap(self) -> int:
        """The number of handicap stones (SGF ``HA``), 0 for an even game."""
        return self._handicap

    @property
    def first_color(self) -> Color:
        """Who made (or will make) the first move."""
        return color_name(self._start_color)

    def to_sgf(self) -> str:
        """The game as an SGF record: size, komi, handicap, setup, rules, result (once the
        game is over) and the moves; see :mod:`ikeda.sgf`."""
        from .sgf import game_to_sgf

        return game_to_sgf(self)

    # -- display ---------------------------------------------------------------------

    def _repr_svg_(self) -> str:
        """The board as SVG, for Jupyter (see :func:`ikeda.svg.board`)."""
        from .svg import board

        return board(self)

    def __str__(self) -> str:
        letters = GTP_LETTERS[: self._width]
        head = "    " + " ".join(letters)
        rows = [head]
        record = self._board.moves
        last = record[-1] if record else self._pass
        for r, line in enumerate(self.to_numpy().tolist()):
            n = self._height - r
            cells = []
            for x, v in enumerate(line):
                ch = ".XO"[v]
                cells.append(ch.lower() if r * self._width + x == last and v else ch)
            rows.append(f"{n:>3} " + " ".join(cells) + f" {n}")
        rows.append(head)
        state = "over" if self._over else f"{self.to_move} to move"
        rows.append(f"move {len(record)}, {state}, {self._rules}, komi {self._rules.komi:g}")
        return "\n".join(rows)

    def __repr__(self) -> str:
        return (
            f"<ikeda.Game {self._width}x{self._height} {self._rules} komi={self._rules.komi:g} "
            f"moves={len(self._board)} {'over' if self._over else 'to_move=' + self.to_move}>"
        )


#: The deepest perft: far beyond any count that can finish (each level multiplies the
#: work by the number of legal moves), and a bound on the native recursion's stack.
MAX_PERFT_DEPTH = 1024


def perft(game: Game, depth: int) -> int:
    """The number of legal move sequences of exactly `depth` moves from `game`, passes
    included; a sequence that ends the game (Rule 6) before `depth` moves counts nothing.
    Runs natively with the GIL released; Ctrl-C stops it within about a tenth of a
    second (KeyboardInterrupt)."""
    if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= MAX_PERFT_DEPTH:
        raise ArgumentError(f"perft depth must be an int in 0..={MAX_PERFT_DEPTH}, not {depth!r}")
    if depth == 0:
        return 1
    return _core.perft(game._board, game._color, game._rules, game._native_state(), depth)


#: The largest board (in points) :func:`count_games` takes.
COUNT_GAMES_MAX_POINTS: int = _core.COUNT_GAMES_MAX_POINTS


def count_games(width: int, height: int, rules: Rules | str = "area3", *, budget: int | None = None) -> int:
    """The number of complete games from the empty `width` x `height` board, Black first,
    under `rules`: every legal sequence of moves that reaches the end of the game.

    Enumerated natively (the GIL released) on every core, each game a path of the tree:
    the board as bit masks, the path's configurations in a set, the first moves split
    over the threads with symmetric first moves counted once. The count grows very fast
    with the board (Tromp-Taylor: 1x3 = 907, 1x4 = 2,098,407,841 in well under a minute on
    two cores; 2x2 = 386,356,909,593).

    Refused with :class:`ArgumentError`: rules under which a game can repeat for ever
    (simple ko, or self-capture without positional superko: infinitely many games) and
    boards of more than :data:`COUNT_GAMES_MAX_POINTS` points. `budget` bounds the
    positions visited: past it the count raises :class:`CountBudgetError`. Ctrl-C stops a
    count within about a tenth of a second (KeyboardInterrupt)."""
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, (int, np.integer))
                               or not 1 <= budget <= 2**64 - 1):
        raise ArgumentError(f"count_games budget must be an int in 1..=2**64-1 or None, not {budget!r}")
    g = Game(width=width, height=height, rules=rules)
    return _core.count_games(g._board, g._color, g._rules, g._native_state(), None if budget is None else int(budget))
