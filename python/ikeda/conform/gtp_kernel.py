"""A GTP engine as a :class:`~ikeda.conform.kernel.Kernel`: it answers with what it has.

The legal plays come from ``all_legal COLOUR`` (GNU Go), else ``is_legal COLOUR VERTEX``
per point, else from whether ``play`` accepts each point (taken back with ``undo``, or
with ``clear_board`` and a replay when the engine has no ``undo``). The stones come from
``list_stones``, else from ``showboard``'s diagram; the score from ``final_score``; the
dead stones from ``final_status_list dead``. A check whose commands the engine lacks is
"not applicable". A ``?`` answer to ``boardsize`` makes that size not applicable.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..coords import vertex_names
from ..errors import GtpError
from ..gtp.controller import GtpController
from .kernel import NotApplicable, parse_score

class GtpKernel:
    """The engine started by `command` (see :class:`ikeda.gtp.GtpController`)."""

    def __init__(self, command: str | Sequence[str], *, timeout: float = 30.0, name: str | None = None) -> None:
        self.engine = GtpController(command, timeout=timeout, name=name)
        self.commands = set(self.engine.send("list_commands").split())
        # The name the engine gives itself, unless the caller named it.
        self.name = name or (self.engine.send("name").strip() if "name" in self.commands else "") or self.engine.name
        self._size = 0
        self._moves: list[tuple[str, str]] = []

    def checks(self) -> frozenset[str]:
        have = self.commands
        out = {"legal"}  # play acceptance always works
        if "list_stones" in have or "showboard" in have:
            out.add("stones")
        if "final_score" in have:
            out.add("score")
        if "final_status_list" in have:
            out.add("status")
        return frozenset(out)

    def reset(self, size: int, komi: float) -> None:
        try:
            self.engine.send(f"boardsize {size}")
        except GtpError as e:
            raise NotApplicable(f"{self.name} does not play {size}x{size}: {e.reply}") from None
        self.engine.send("clear_board")
        try:
            self.engine.send(f"komi {komi:g}")
        except GtpError as e:
            raise NotApplicable(f"{self.name} refuses komi {komi:g}: {e.reply}") from None
        self._size = size
        self._moves = []

    def play(self, color: str, move: str) -> bool:
        try:
            self.engine.send(f"play {color} {move}")
        except GtpError:
            return False
        self._moves.append((color, move))
        return True

    def _points(self) -> list[str]:
        return list(vertex_names(self._size, self._size)[: self._size * self._size])  # no pass

    def legal(self, color: str) -> set[str]:
        if "all_legal" in self.commands:
            return {v.upper() for v in self.engine.send(f"all_legal {color}").split() if v.lower() != "pass"}
        if "is_legal" in self.commands:
            return {v for v in self._points() if self.engine.send(f"is_legal {color} {v}").strip() == "1"}
        out = set()
        for v in self._points():
            if self.play(color, v):
                out.add(v)
                self._take_back()
        return out

    def _take_back(self) -> None:
        self._moves.pop()
        if "undo" in self.commands:
            self.engine.send("undo")
            return
        self.engine.send("clear_board")
        for color, move in self._moves:
            self.engine.send(f"play {color} {move}")

    def stones(self) -> tuple[set[str], set[str]]:
        if "list_stones" in self.commands:
            return ({v.upper() for v in self.engine.send("list_stones black").split()},
                    {v.upper() for v in self.engine.send("list_stones white").split()})
        return self._showboard()

    def _showboard(self) -> tuple[set[str], set[str]]:
        """The stones from a diagram: rows that start with a row number, one cell per
        column (``X``/``#``/``@``/``B`` Black, ``O``/``W`` White)."""
        black: set[str] = set()
        white: set[str] = set()
        letters = [name.rstrip("0123456789") for name in vertex_names(self._size, self._size)[: self._size]]
        for line in self.engine.send("showboard").splitlines():
            words = line.split()
            if not words or not words[0].isdigit():
                continue
            row, cells = words[0], words[1 : 1 + self._size]
            for letter, cell in zip(letters, cells):
                if cell in ("X", "#", "@", "B"):
                    black.add(f"{letter}{row}")
                elif cell in ("O", "W"):
                    white.add(f"{letter}{row}")
        return black, white

    def score(self) -> float:
        return parse_score(self.engine.send("final_score"))

    def dead(self) -> set[str]:
        return {v.upper() for v in self.engine.send("final_status_list dead").split()}

    def close(self) -> None:
        self.engine.close()
