"""Many games stepped in lockstep with numpy arrays in and out: the loop of self-play and
batched search.

Every call that visits the games runs natively on the batch's threads with the GIL
released. Actions are flat indices (row-major from the top-left, ``w*h`` = pass), as in
:meth:`ikeda.Game.legal_mask`. Each game's legal mask is kept and updated from its
moves, so ``step(actions, mask=buf)`` plays and writes the new masks in one native call.
Memory per game: 3 KB of fixed state for boards up to 9x9 (6.5 KB up to 19x19) plus about
24 bytes per play made (docs/batch.md).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from . import _core
from .errors import ArgumentError, InvalidMoveError, InvalidPositionError
from .limits import MAX_GAMES, MAX_MOVES, board_side, probability, thread_count, whole
from .game import Game
from .rules import MAX_KOMI, Rules, as_rules

T = TypeVar("T")

#: Input planes besides the stone history: Black to move, the side to move made the first
#: pass, the opponent made it, a pass now would end the game.
EXTRA_PLANES = 4


class Batch:
    """``n`` games of one size and ruleset, from the empty board, Black first.

    `komi` is one value for every game or one per game (an ``(n,)`` array of multiples of
    1/2); `max_moves` stops a game as over (and :attr:`capped`) at that many moves since
    its reset, passes included: by default none, but ``4*w*h + 16`` under simple ko,
    where a random game can cycle for ever.

    >>> b = Batch(4, size=9, seed=1)
    >>> b.step(np.full(4, 40))          # Black E5 in every game
    >>> b.playout()                     # finish every game natively
    0
    >>> b.is_over.all()
    np.True_
    """

    def __init__(
        self,
        n: int,
        size: int | tuple[int, int] = 9,
        *,
        rules: Rules | str = "area3",
        komi: float | npt.ArrayLike | None = None,
        seed: int = 1,
        threads: int = 0,
        max_moves: int | None = None,
        start: Game | None = None,
    ) -> None:
        if isinstance(size, tuple) and len(size) == 2:
            w, h = board_side(size[0], "width"), board_side(size[1], "height")
        elif isinstance(size, (int, np.integer)) and not isinstance(size, bool):
            w = h = board_side(size, "size")
        else:
            raise InvalidPositionError(f"size must be an int or a (width, height) pair of ints, not {size!r}")
        ruleset = as_rules(rules)
        n = whole(n, "n", 0, MAX_GAMES)
        per_game = None
        if komi is not None and _one_per_game(komi):
            per_game = _komi_array(komi, n)
        elif komi is not None:
            ruleset = ruleset.replace(komi=komi)
        seed = whole(seed, "seed", 0, 2**64 - 1)
        threads = thread_count(threads)
        self._games = _core.Batch(w, h, ruleset, n, seed, threads)
        self._lock = threading.Lock()
        self._n, self._w, self._h = n, w, h
        self.rules: Rules = ruleset
        self.seed = seed
        #: ``(n,)`` float64: each game's komi (the ruleset's komi where one value was given).
        self.komi: npt.NDArray[np.float64] = np.full(n, ruleset.komi) if per_game is None else per_game
        self._komi_shift = None if per_game is None else ruleset.komi - per_game
        if max_moves is None:
            self.max_moves: int | None = 4 * w * h + 16 if ruleset.ko == "simple-ko" else None
        else:
            self.max_moves = whole(max_moves, "max_moves", 1, MAX_MOVES - 1)
        if self.max_moves is not None:
            self._games.move_cap = self.max_moves
        # The starts added natively, by (Black's stones, White's, first colour): number 0
        # is the empty board with Black first.
        self._starts: dict[tuple[tuple[int, ...], tuple[int, ...], int], int] = {((), (), 1): 0}
        if start is not None:
            self.set_start(None, start)

    def __len__(self) -> int:
        return self._n

    def _call(self, method: Callable[..., T], *args: object) -> T:
        """Calls the native batch under the batch's lock: two Python threads using one
        batch take turns (the native calls release the GIL while they work)."""
        with self._lock:
            return method(*args)

    def __repr__(self) -> str:
        return f"Batch({self._n}, size=({self._w}, {self._h}), rules={str(self.rules)!r}, seed={self.seed})"

    @property
    def size(self) -> tuple[int, int]:
        """(width, height)."""
        return self._w, self._h

    @property
    def threads(self) -> int:
        return self._games.threads

    def legal_mask(self, out: npt.NDArray[np.bool_] | None = None) -> npt.NDArray[np.bool_]:
        """``(n, w*h + 1)`` bools, the pass last. A finished game allows only the pass
        (whatever :meth:`step` is given for it is ignored). With `out` (a C-contiguous bool
        array of that shape) the masks are written there and `out` is returned: no
        allocation per call in a lockstep loop."""
        if out is None:
            return self._call(self._games.legal_mask)
        self._call(self._games.legal_mask_into, self._buffer(out, np.bool_, (self._n, self._w * self._h + 1)))
        return out

    def _buffer(self, out: object, dtype: type, shape: tuple[int, ...]) -> npt.NDArray[Any]:
        """`out` if it is a writable C-contiguous array of `dtype` and `shape`."""
        if not isinstance(out, np.ndarray) or out.dtype != dtype or out.shape != shape:
            what = f"{out.dtype} {out.shape}" if isinstance(out, np.ndarray) else type(out).__name__
            raise ArgumentError(f"out must be a {np.dtype(dtype)} array of shape {shape}, not {what}")
        if not out.flags.c_contiguous or not out.flags.writeable:
            raise ArgumentError("out must be a writable C-contiguous array")
        return out

    def step(self, actions: npt.ArrayLike, *, mask: npt.NDArray[np.bool_] | None = None) -> None:
        """Plays ``actions[i]`` in game ``i`` for every game not yet over.

        All or nothing: if any action is malformed (:class:`ikeda.InvalidMoveError`) or
        illegal (:class:`ikeda.IllegalMoveError`), no game changes and the error's
        ``game`` names the lowest game index that refused.

        With `mask` (as for :meth:`legal_mask`'s `out`), the new legal masks are written
        there in the same native call; a refused step leaves `mask` as it was.
        """
        try:
            a = np.asarray(actions)
        except (ValueError, TypeError):  # ragged or unconvertible: not an array of actions
            raise InvalidMoveError(f"actions must be an array of shape ({self._n},), not {actions!r}", actions) from None
        if a.shape != (self._n,):
            raise InvalidMoveError(f"actions must have shape ({self._n},), not {a.shape}", actions)
        if a.dtype.kind not in "iu":
            raise InvalidMoveError(f"actions must be integers (flat indices), not {a.dtype}", actions)
        if a.dtype.kind == "u" and a.size and int(a.max()) >= 2**63:
            game = int(np.argmax(a >= 2**63))
            raise InvalidMoveError(f"game {game}: action {int(a[game])} is not a flat index", int(a[game]), game)
        a = np.ascontiguousarray(a, dtype=np.int64)
        if mask is None:
            self._call(self._games.step, a)
        else:
            self._call(self._games.step_into, a, self._buffer(mask, np.bool_, (self._n, self._w * self._h + 1)))

    def sample(
        self,
        policy: npt.ArrayLike | None = None,
        *,
        logits: bool = False,
        out: npt.NDArray[np.int64] | None = None,
    ) -> npt.NDArray[np.int64]:
        """One action per game, drawn natively among its legal actions (the masks the
        batch keeps), ready for :meth:`step`: the sampling half of a lockstep loop,
        masking included, with no numpy pass over the masks (docs/batch.md).

        Without `policy`, uniform among the legal plays, the pass only when there is none.
        With `policy` (``(n, w*h + 1)``, the pass last: float32 is read in place, other
        float or integer dtypes are converted once), in proportion to its values over the
        legal actions (the pass included): probabilities or any weights (finite, not
        negative; they need not sum to 1) or, with ``logits=True``, logits (a softmax over
        the legal actions; ``-inf`` allowed, NaN and ``+inf`` not). A finished game gets
        the pass, and so does a game whose only legal action is the pass. The draws come
        from each game's own random stream (the one :meth:`playout` uses; pickled with
        the batch): the same seed and calls give the same actions whatever the thread
        count. Every value is checked before anything is drawn: a wrong shape or dtype, a
        refused value (of any action, legal or not), or a live game with legal plays whose
        legal values are all 0 (all ``-inf``) raises :class:`ikeda.ArgumentError` naming
        the game, and no stream moves. With `out` (a C-contiguous int64 array of shape
        ``(n,)``) the actions are written there and `out` is returned.
        """
        if not isinstance(logits, (bool, np.bool_)):
            raise ArgumentError(f"logits must be a bool, not {type(logits).__name__}")
        if out is None:
            out = np.empty(self._n, dtype=np.int64)
        else:
            out = self._buffer(out, np.int64, (self._n,))
        values = None
        if policy is not None:
            try:
                p = np.asarray(policy)
            except (ValueError, TypeError):
                raise ArgumentError(f"policy must be an array of shape {(self._n, self._w * self._h + 1)}, not {policy!r}") from None
            if p.shape != (self._n, self._w * self._h + 1) or p.dtype.kind not in "fiu":
                raise ArgumentError(f"policy must be a float array of shape {(self._n, self._w * self._h + 1)}, not {p.dtype} {p.shape}")
            values = np.ascontiguousarray(p, dtype=np.float32)
        self._call(self._games.sample, values, bool(logits), out)
        return out

    def reseed(self, seed: int) -> None:
        """Seeds every game's random stream (of :meth:`sample` and :meth:`playout`) anew,
        its count of resets back to 0: from here on, through later resets too, each game
        draws what it would in a new batch made with `seed`, whatever came before (an
        environment's ``reset(seed=)``)."""
        seed = whole(seed, "seed", 0, 2**64 - 1)
        self._call(self._games.reseed, seed)
        self.seed = seed

    @property
    def is_over(self) -> npt.NDArray[np.bool_]:
        """``(n,)`` bools: the game has ended under its ruleset."""
        return self._call(self._games.is_over)

    @property
    def to_move(self) -> npt.NDArray[np.int8]:
        """``(n,)``: 1 Black or 2 White."""
        return self._call(self._games.to_move)

    @property
    def first_passer(self) -> npt.NDArray[np.int8]:
        """``(n,)``: 0 nobody yet, 1 Black, 2 White."""
        return self._call(self._games.first_passer)

    @property
    def lengths(self) -> npt.NDArray[np.int32]:
        """``(n,)``: moves since the last reset, passes included."""
        return self._call(self._games.lengths)

    @property
    def capped(self) -> npt.NDArray[np.bool_]:
        """``(n,)``: a move cap (the batch's `max_moves` or a playout's) stopped the game
        before its end."""
        return self._call(self._games.capped)

    def scores(self, where: npt.ArrayLike | None = None) -> npt.NDArray[np.float64]:
        """``(n,)`` margins, Black minus White under the ruleset with each game's komi, of
        the boards as they stand (every stone alive; at the end of a game played out,
        that is the count). With `where` (a bool mask or indices, as for :meth:`reset`)
        only those games are counted, the others read 0."""
        if where is None:
            margins = self._call(self._games.margins)
        else:
            which = self._which(where)
            margins = self._call(self._games.margins_of, which)
            if self._komi_shift is not None:
                margins += np.where(which, self._komi_shift, 0.0)
            return margins
        if self._komi_shift is not None:
            margins += self._komi_shift
        return margins

    def ownership(self, where: npt.ArrayLike | None = None) -> npt.NDArray[np.int8]:
        """``(n, h, w)`` int8, who owns each point as the boards stand: 0 nobody, 1 Black,
        2 White (stones and the empty regions bordered by one colour only, every stone
        alive): the ownership target of a finished game. With `where` (as for
        :meth:`scores`) only those games' rows are filled, the others are zeros."""
        if where is None:
            return self._call(self._games.ownership)
        return self._call(self._games.ownership, self._which(where))

    def outcomes(self) -> npt.NDArray[np.int8]:
        """``(n,)`` int8 from Black's side: +1 Black won, -1 White won, 0 a draw, a game
        still going on, or one stopped by the move cap (:attr:`capped`, no result)."""
        scores = self.scores()
        decided = self.is_over & ~self.capped
        return np.where(decided, np.sign(scores), 0).astype(np.int8)

    def boards(self) -> npt.NDArray[np.int8]:
        """``(n, h, w)``: 0 empty, 1 Black, 2 White."""
        return self._call(self._games.boards)

    def reset(self, where: npt.ArrayLike | None = None) -> None:
        """Returns games to their start (the empty board unless :meth:`set_start` or
        `start` gave another): all of them, those where the ``(n,)`` bool
        array ``where`` is true, or those whose indices it lists."""
        which = np.ones(self._n, dtype=bool) if where is None else self._which(where)
        self._call(self._games.reset, np.ascontiguousarray(which, dtype=bool))

    # -- single games: start positions, copies out and in, pickling -------------------

    def _start(self, game: Game) -> int:
        """The native start for `game`'s setup stones and first colour (added once)."""
        if not isinstance(game, Game):
            raise ArgumentError(f"expected an ikeda.Game, not {type(game).__name__}")
        if (game.width, game.height) != self.size:
            raise ArgumentError(f"the game is {game.width}x{game.height}, the batch {self._w}x{self._h}")
        black, white = (tuple(sorted(game.board.index(m) for m in stones)) for stones in game._setup)
        key = (black, white, 1 if game.first_color == "B" else 2)
        if key not in self._starts:
            self._starts[key] = self._call(self._games.add_start, list(black), list(white), key[2])
        return self._starts[key]

    def set_start(self, where: npt.ArrayLike | None, start: Game) -> None:
        """Games start from `start`'s setup stones (handicap stones included) with its
        first player to move (its moves are not used): those `where` chooses (a bool
        mask or indices, None for all), which are reset to it now and at every reset."""
        number = self._start(start)
        which = np.ones(self._n, dtype=bool) if where is None else self._which(where)
        for i in np.flatnonzero(which):
            self._call(self._games.set_start, int(i), number)
        self.reset(which)

    def game(self, i: int) -> Game:
        """Game `i` as an :class:`ikeda.Game` (its start, its komi and its moves replayed:
        the same position, turn, passes and superko history), e.g. to search from it. A
        game stopped by a move cap comes out as not over (a Game knows no cap)."""
        i = whole(i, "game", 0, self._n - 1)
        origin, moves, _ = self._call(self._games.record, i)
        g = self._start_game(origin, float(self.komi[i]))
        for m in moves:
            g.play(int(m))
        return g

    def _start_game(self, number: int, komi: float) -> Game:
        black, white, color = next(k for k, v in self._starts.items() if v == number)
        w, h = self.size
        return Game(width=w, height=h, rules=self.rules, komi=komi,
                    setup={"B": list(black), "W": list(white)}, to_move="B" if color == 1 else "W")

    def set_game(self, i: int, game: Game) -> None:
        """Game `i` becomes a copy of `game` (same size and ruleset; its komi becomes
        game `i`'s): its setup and moves are replayed natively, superko history
        included. Its next reset goes back to game `i`'s own start, not `game`'s."""
        i = whole(i, "game", 0, self._n - 1)
        if game.rules.replace(komi=self.rules.komi) != self.rules:
            raise ArgumentError(f"the game's rules {game.rules} are not the batch's {self.rules}")
        number = self._start(game)
        if game.resigned is not None:
            raise ArgumentError("a resigned game cannot be copied into a batch")
        self._call(self._games.set_game, i, number, list(game.move_indices))
        self._set_komi(i, game.komi)

    def _set_komi(self, i: int, komi: float) -> None:
        if komi != self.komi[i]:
            self.komi = self.komi.copy()
            self.komi[i] = komi
            self._komi_shift = self.rules.komi - self.komi

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickles as the configuration and every game's start, moves and random stream,
        replayed on load: positions, turns, passes, superko histories, lengths, the
        :attr:`capped` flags, and the draws of :meth:`sample` and :meth:`playout` after it
        are the original's."""
        with self._lock:  # one consistent state, whichever thread steps the batch
            records = [self._games.record(i) for i in range(self._n)]
            streams = [self._games.stream(i) for i in range(self._n)]
            capped = self._games.capped().tolist()
        starts = sorted(self._starts.items(), key=lambda kv: kv[1])
        return _unpickle_batch, (
            self._n, self.size, self.rules, self.komi, self.seed, self.threads, self.max_moves,
            [k for k, _ in starts], [(o, list(m), s) for o, m, s in records], streams, capped,
        )

    def _which(self, where: npt.ArrayLike) -> npt.NDArray[np.bool_]:
        """A ``(n,)`` bool mask of games from a bool mask or a list of indices."""
        try:
            w = np.asarray(where)
        except (ValueError, TypeError):
            raise ArgumentError(f"games are chosen by a bool mask or game indices, not {where!r}") from None
        if w.ndim == 1 and w.size == 0:
            w = w.astype(np.int64)  # an empty list chooses nothing
        if w.dtype == bool:
            if w.shape != (self._n,):
                raise ArgumentError(f"a mask of games must have shape ({self._n},), not {w.shape}")
            return np.ascontiguousarray(w)
        if w.dtype.kind in "iu" and w.ndim == 1:
            if w.size and (int(w.min()) < 0 or int(w.max()) >= self._n):
                raise ArgumentError(f"game indices must be in 0..{self._n}, got {w.tolist()}")
            which = np.zeros(self._n, dtype=bool)
            which[w] = True
            return which
        raise ArgumentError(f"games are chosen by a bool mask or game indices, not {w.dtype} {w.shape}")

    def playout(self, *, pass_probability: float = 0.0, max_moves: int | None = None) -> int:
        """Plays every live game to its end by the native playout policy (docs/rules.md),
        at most ``max_moves`` more moves each (default ``4*w*h + 16``); returns how many
        games that cap stopped (see :attr:`capped`)."""
        pass_probability = probability(pass_probability, "pass_probability")
        if max_moves is not None:
            max_moves = whole(max_moves, "max_moves", 0, MAX_MOVES)
        return self._call(self._games.playout, pass_probability, max_moves)

    def features(
        self, history: int = 8, out: npt.NDArray[np.float32] | None = None, *, channels_last: bool = False
    ) -> npt.NDArray[np.float32]:
        """``(n, 2*history + 4, h, w)`` float32 input planes from the side to move's view:
        its stones in the last ``history`` configurations (newest first; a pass makes no
        new configuration), the opponent's likewise, then all-ones planes for Black to
        move, the side to move made the first pass, the opponent made it, and a pass now
        would end the game (docs/batch.md). With `out` (a C-contiguous float32 array of
        that shape) the planes are written there and `out` is returned. With
        ``channels_last=True`` the shape is ``(n, h, w, 2*history + 4)`` (a transposed copy
        of the planes, for networks that read NHWC)."""
        history = whole(history, "history", 1, 64)
        if channels_last:
            w, h = self.size
            planes = self.features(history).transpose(0, 2, 3, 1)
            if out is None:
                return np.ascontiguousarray(planes)
            np.copyto(self._buffer(out, np.float32, (self._n, h, w, 2 * history + 4)), planes)
            return out
        if out is None:
            return self._call(self._games.features, history)
        w, h = self.size
        self._call(self._games.features_into, history, self._buffer(out, np.float32, (self._n, 2 * history + 4, h, w)))
        return out


def _one_per_game(komi: float | npt.ArrayLike) -> bool:
    """Whether `komi` is given per game (a sequence) rather than once. A value numpy cannot
    shape (a ragged sequence) is taken as per game, so that :func:`_komi_array` refuses it."""
    try:
        return bool(np.ndim(komi) == 1)
    except (ValueError, TypeError):
        return True


def _komi_array(komi: object, n: int) -> npt.NDArray[np.float64]:
    """One komi per game, each finite and a multiple of 1/2."""
    try:
        k = np.asarray(komi, dtype=np.float64)
    except (ValueError, TypeError):
        raise ArgumentError(f"komi must be a number or one number per game, not {komi!r}") from None
    if k.shape != (n,):
        raise ArgumentError(f"per-game komi must have shape ({n},), not {k.shape}")
    bad = ~np.isfinite(k) | (k * 2 != np.round(k * 2)) | (np.abs(k) > MAX_KOMI)
    if bad.any():
        game = int(np.argmax(bad))
        raise ArgumentError(f"game {game}: komi {k[game]} is not a multiple of 1/2")
    return k.copy()


def _unpickle_batch(
    n: int, size: tuple[int, int], rules: Rules, komi: npt.NDArray[np.float64], seed: int, threads: int,
    max_moves: int | None, starts: list[tuple[tuple[int, ...], tuple[int, ...], int]],
    records: list[tuple[int, list[int], int]],
    streams: list[tuple[int, list[int]]] | None = None, capped: list[bool] | None = None,
) -> Batch:
    """A pickled :class:`Batch` rebuilt by replaying each game, then setting its stream."""
    b = Batch(n, size, rules=rules, komi=komi, seed=seed, threads=threads, max_moves=max_moves)
    for black, white, color in starts[1:]:
        b._starts[black, white, color] = b._games.add_start(list(black), list(white), color)
    for i, (origin, moves, start) in enumerate(records):
        b._games.set_start(i, start)
        if origin or moves:
            b._games.set_game(i, origin, moves)
        if streams is not None:
            b._games.set_stream(i, *streams[i])
    if capped is not None:
        # Games a playout's own cap stopped (and left going on): a replay sees only the
        # batch's cap.
        for game in np.flatnonzero(np.array(capped, dtype=bool) & ~b._games.capped()):
            b._games.mark_capped(int(game))
    return b
