"""`Game`: the game flow over the native board, Area Rules III by default.

The native :class:`ikeda._core.Board` owns the stones, legality (Rules 3-5, or a
ruleset's variants) and the superko history; the native base class
:class:`ikeda._core.GameCore` adds whose turn it is (Rules 1, 2, 8) and the passes and the
end of the game (Rule 6 and its variants: ikeda-core's ``PassState``); this class adds the
configuration, the score (Rule 7, see :mod:`ikeda.counting`) and the formats.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Union

import numpy as np
import numpy.typing as npt

from . import _core, counting, status
from .coords import BLACK, GTP_LETTERS, WHITE, Color, color_name, parse_color, vertex_names
from .errors import ArgumentError, InvalidPositionError
from .handicap import handicap_points
from .limits import MAX_SIDE, board_side, move_list
from .rules import Rules, as_rules
from .score import Score

__all__ = ["BLACK", "WHITE", "COUNT_GAMES_MAX_POINTS", "Color", "Game", "Move", "count_games", "perft"]

#: A move: a GTP vertex ("D4", case-insensitive, no letter I), "pass", or a flat index
#: (row-major from the top-left point; ``width * height`` is pass).
Move = Union[str, int]


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

    The native base class holds the board, the side to move, the pass bookkeeping and
    whether the game is over, and makes every move (``play``, a pass included) and the
    hot questions (``legal_indices``, ``legal_moves``, ``legal_mask``, ``is_over``) one
    native call each; the configuration, the score and the formats are here.

    >>> g = Game(9, komi=6.5)
    >>> g.play("E5"); g.play("pass"); g.play("pass"); g.play("pass")
    >>> g.is_over, g.first_passer, g.score().result
    (True, 'W', 'B+73.5')
    """

    __slots__ = (
        "_width", "_height", "_rules", "_start_color", "_pass", "_setup", "_handicap", "_moves_memo",
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
        self._moves_memo: tuple[int, tuple[str, ...]] | None = None
        # The pass bookkeeping (first pass, preliminary end, passes per colour, the end) is
        # the native base's, which starts with none under the ruleset's ending.
        self._ending = rules.ending
        self._pass = w * h
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

    # `play(move)` is the native base's: every move, a pass included, is one native call,
    # which also keeps the pass bookkeeping and decides the end (ikeda-core's `PassState`).

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
        # A finished game refuses before the colour is read.
        self._resign(None if color is None or self._over else parse_color(color, "color"))

    def undo(self) -> str:
        """Takes back a resignation, or else the last move; returns what was taken back."""
        return self._undo()

    def copy(self) -> Game:
        """An independent copy; the configuration history is shared, not copied."""
        g = Game.__new__(Game)
        # The native state (board, turn, pass bookkeeping, end) is copied in one native
        # call, which a move cannot split; the rest never changes.
        self._copy_native(g)
        g._width, g._height, g._rules, g._start_color = self._width, self._height, self._rules, self._start_color
        g._pass, g._setup, g._handicap = self._pass, self._setup, self._handicap
        g._moves_memo = None
        return g

    __copy__ = copy

    def __reduce__(self) -> tuple[Callable[..., Game], tuple[object, ...]]:
        """Pickles as the setup and the moves, replayed on load: the superko history,
        passes and end come back exactly as they were (the native state is rebuilt by
        the same plays that made it)."""
        g = self.copy()  # one native call, which a move from another thread cannot split
        return _unpickle_game, (g._width, g._height, g._rules, g._setup, g._handicap,
                                g._start_color, tuple(g._board.moves), g._resigned)

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
        """The moves played, as GTP vertices and "pass" (a new list: the caller's to
        change)."""
        # The names are kept between calls (a tuple, replaced whole, so that threads
        # reading one game see a consistent one) and extended by the moves played since:
        # the record changes only at its end, so while no move was taken back the kept
        # names are a prefix of it. A call costs a copy of a list, not a name per move.
        board = self._board
        takebacks, memo = board.takebacks, self._moves_memo
        if memo is None or memo[0] != takebacks:
            names = self._names()
            memo = self._moves_memo = (takebacks, tuple([names[i] for i in board.moves]))
        elif len(memo[1]) != len(board):
            names = self._names()
            memo = self._moves_memo = (takebacks, memo[1] + tuple([names[i] for i in board.moves_from(len(memo[1]))]))
        return list(memo[1])

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
            return counting.japanese_as_score(counted, js, stones, self._board.lost)
        board = self._board
        area = board.area(dead) if dead else board.area()
        marked = tuple(self._names()[board.index(d)] for d in dead) if dead else ()
        # Stones lost: captured, and dead ones (on the board but not counted).
        cb, cw = board.lost
        lost = (cb + board.stone_count(BLACK) - area[0], cw + board.stone_count(WHITE) - area[1])
        tally, at_prelim = None, self._prelim_stones
        if self._prelim is not None and at_prelim is not None:
            tally = counting.Tally(self._start_color, len(board), self._prelim, at_prelim, self._passes)
        # A record of another ending is continued with the passes Territory I still needs.
        extra = (self._extra_passes or 0) if tally is not None and self._ending != "equal-moves" else 0
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


def _unpickle_game(
    width: int, height: int, rules: Rules, setup: tuple[tuple[Move, ...], tuple[Move, ...]], handicap: int,
    start: int, moves: tuple[int, ...], resigned: int | None,
) -> Game:
    """A pickled :class:`Game` replayed from its setup and moves."""
    g = Game(width=width, height=height, rules=rules, setup={"B": setup[0], "W": setup[1]}, to_move=color_name(start))
    g._handicap = handicap
    for m in moves:
        g.play(m)
    if resigned is not None:
        g.resign(color_name(resigned))
    return g


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
    return _core.perft(game, depth)


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
    return _core.count_games(g, None if budget is None else int(budget))
