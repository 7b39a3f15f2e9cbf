"""When a game ends, for each ruleset's ending (the one place for Rule 6 and its
variants in Python; ikeda-core's `game` module is the compact native twin).

The state is three numbers kept by :class:`ikeda.Game`: ``n``, the number of moves so
far; ``streak``, the passes in succession ending with the last move; ``first_pass``, the
1-based number of the first pass of the game; and ``prelim``, the number of the move
that made the preliminary end (the second of the first two passes in succession).
"""

from __future__ import annotations

from typing import NamedTuple


def is_over(ending: str, n: int, streak: int, first_pass: int | None, prelim: int | None) -> bool:
    """Whether the passes so far end the game."""
    if ending == "first-pass":
        # Rule 6: two passes in succession, neither of them the first pass of the game.
        in_streak = first_pass is not None and first_pass > n - streak
        return streak - in_streak >= 2
    if ending == "two-passes":
        return streak >= 2
    return prelim is not None and equal_moves_end(n - prelim, streak)


def equal_moves_end(since_prelim: int, streak: int) -> bool:
    """Territory I's end: a pair of successive passes after the preliminary end, with both
    players having made equally many moves since it (moves alternate, so an even count).
    `since_prelim` moves have been made since the preliminary end, the last `streak` of
    them passes."""
    return min(streak, since_prelim) >= 2 and since_prelim % 2 == 0


class NativeState(NamedTuple):
    """The pass state as ikeda-core's `PassState` keeps it."""

    first_passer: int | None
    run: int
    prelim: bool
    balance: int
    last_pass: bool
    over: bool


def native_state(
    ending: str,
    n: int,
    streak: int,
    first_pass: int | None,
    prelim: int | None,
    first_passer: int | None,
    mover_after_prelim: int | None,
    over: bool,
) -> NativeState:
    """Translates the Python state for the native loops (perft, game counts)."""
    balance = 0
    if ending == "first-pass":
        run = streak - (first_pass is not None and first_pass > n - streak)
    elif ending == "two-passes" or prelim is None:
        run = streak
    else:
        run = min(streak, n - prelim)
        if (n - prelim) % 2:
            balance = 1 if mover_after_prelim == 1 else -1
    return NativeState(first_passer, run, ending == "equal-moves" and prelim is not None, balance, streak > 0, over)
