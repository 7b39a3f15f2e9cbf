"""Adapters of other Python Go kernels to the protocol (docs/conformance.md), each
behind its own optional import: OpenSpiel's ``go`` (``pip install open_spiel``)."""

from __future__ import annotations

import importlib
from typing import Any

from ..coords import vertex_names
from ..errors import IkedaError
from .kernel import NotApplicable


class OpenSpielKernel:
    """OpenSpiel's ``go`` game. Actions are ``row * size + column`` with row 0 at the
    bottom and ``size * size`` the pass; the board is read from the state's text. Its
    returns are only +1/-1 (who won), not a margin, so ``score`` is not applicable."""

    name = "OpenSpiel go"

    def __init__(self) -> None:
        try:
            self._spiel: Any = importlib.import_module("pyspiel")
        except ImportError:
            raise IkedaError("OpenSpiel is not installed: pip install 'ikeda[openspiel]'") from None
        self._state: Any = None
        self._size = 0

    def checks(self) -> frozenset[str]:
        return frozenset({"legal", "stones"})

    def reset(self, size: int, komi: float) -> None:
        if not 2 <= size <= 19:
            raise NotApplicable(f"OpenSpiel go plays sizes 2..19, not {size}")
        # A long game limit: the checker ends its games itself.
        game = self._spiel.load_game("go", {"board_size": size, "komi": float(komi), "max_game_length": 4 * size * size + 10})
        self._state = game.new_initial_state()
        self._size = size
        names = vertex_names(size, size)
        # OpenSpiel's action of each GTP vertex: its row counts from the bottom.
        self._action = {names[y * size + x]: (size - 1 - y) * size + x for y in range(size) for x in range(size)}
        self._action["pass"] = size * size
        self._vertex = {a: v for v, a in self._action.items()}

    def play(self, color: str, move: str) -> bool:
        action = self._action.get(move)
        if action is None or self._state.is_terminal() or action not in self._state.legal_actions():
            return False
        self._state.apply_action(action)
        return True

    def legal(self, color: str) -> set[str]:
        if self._state.is_terminal():
            return set()
        return {self._vertex[a] for a in self._state.legal_actions() if a != self._size * self._size}

    def stones(self) -> tuple[set[str], set[str]]:
        black: set[str] = set()
        white: set[str] = set()
        letters = [v.rstrip("0123456789") for v in vertex_names(self._size, self._size)[: self._size]]
        for line in str(self._state).splitlines():
            words = line.split()
            if len(words) == 2 and words[0].isdigit() and len(words[1]) == self._size:
                for letter, cell in zip(letters, words[1]):
                    if cell == "X":
                        black.add(f"{letter}{words[0]}")
                    elif cell == "O":
                        white.add(f"{letter}{words[0]}")
        return black, white

    def score(self) -> float:
        raise NotApplicable("OpenSpiel go gives only who won")

    def dead(self) -> set[str]:
        raise NotApplicable("OpenSpiel go has no dead stones")

    def close(self) -> None:
        self._state = None
