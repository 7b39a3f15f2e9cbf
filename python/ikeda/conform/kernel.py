"""The adapter protocol: what a rules kernel offers so that ikeda can check it.

A kernel is anything with these methods (a GTP engine through :class:`GtpKernel`, or a
Python kernel through an adapter of a few lines, docs/conformance.md). The checker always
plays alternately, Black first, from the empty board, so a kernel that keeps its own
turn order (OpenSpiel, PettingZoo) can ignore `color` in :meth:`Kernel.play`.

Colours are ``"b"`` and ``"w"``; points are GTP vertices (``"C3"``, letters skip I,
row 1 at the bottom), upper case; ``"pass"`` is the pass.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ..errors import IkedaError

#: What can be compared, in the order they are checked at each position: the legal plays
#: of the side to move, the stones on the board after each move, the score at the end and
#: the dead stones at the end (Japanese counting only).
CHECKS = ("legal", "stones", "score", "status")


class NotApplicable(IkedaError):
    """Raised by a kernel for a case outside what it claims (a board size it does not
    play, a command it lacks): the check is reported "not applicable", not failed."""


@runtime_checkable
class Kernel(Protocol):
    """A Go rules kernel under test."""

    #: A short name for the reports.
    name: str

    def checks(self) -> frozenset[str]:
        """The subset of :data:`CHECKS` the kernel can answer."""
        ...

    def reset(self, size: int, komi: float) -> None:
        """An empty `size` x `size` board, Black to move, this komi. Raises
        :class:`NotApplicable` for a size the kernel does not play."""
        ...

    def play(self, color: str, move: str) -> bool:
        """Plays `move` (a vertex or "pass") for `color`; False if the kernel refuses it
        (nothing is played then)."""
        ...

    def legal(self, color: str) -> set[str]:
        """The points `color` may play now (the pass left out)."""
        ...

    def stones(self) -> tuple[set[str], set[str]]:
        """Black's and White's stones."""
        ...

    def score(self) -> float:
        """The result at the end of the game as Black's margin (Black - White, komi
        included; negative when White wins)."""
        ...

    def dead(self) -> set[str]:
        """The stones the kernel counts as dead at the end of the game."""
        ...

    def close(self) -> None:
        """Releases what the kernel holds (a process); never raises."""
        ...


def parse_score(text: str) -> float:
    """A GTP ``final_score`` answer (``B+3.5``, ``W+0.5``, ``0``) as Black's margin."""
    t = text.strip().upper()
    if t in ("0", "DRAW", "JIGO"):
        return 0.0
    if len(t) >= 3 and t[0] in "BW" and t[1] == "+":
        try:
            value = float(t[2:])
        except ValueError:
            raise IkedaError(f"cannot read the score {text!r}") from None
        return value if t[0] == "B" else -value
    raise IkedaError(f"cannot read the score {text!r}")
