"""Adapters of other Python Go kernels to the protocol (docs/conformance.md), each
behind its own optional import and extra: OpenSpiel's ``go`` (``openspiel``), PettingZoo's
classic ``go_v5`` (``pettingzoo-go``) and pgx's ``go`` (``pgx``)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from ..coords import vertex_names
from ..errors import IkedaError
from ..game import Game
from ..rules import Rules, as_rules
from .kernel import Kernel, NotApplicable


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


def _board_stones(cells: Any, size: int) -> tuple[set[str], set[str]]:
    """Black's and White's stones of a flat board, row 0 at the top (the order of
    :func:`vertex_names`), positive Black and negative White."""
    names = vertex_names(size, size)
    black = {names[i] for i, v in enumerate(cells) if v > 0}
    white = {names[i] for i, v in enumerate(cells) if v < 0}
    return black, white


class _MaskedActions:
    """What the PettingZoo and pgx adapters share: actions ``row * size + column`` from
    the top row (the order of :func:`vertex_names`) and ``size * size`` the pass, checked
    against the kernel's mask of legal actions before they are taken. A subclass gives
    the mask (None once the game is over) and takes an action."""

    _size: int
    _names: tuple[str, ...]
    _action: dict[str, int]

    def _set_actions(self, size: int) -> None:
        self._size = size
        self._names = vertex_names(size, size)
        self._action = {v: i for i, v in enumerate(self._names)}
        self._action["pass"] = size * size

    def _mask(self) -> Any:
        raise NotImplementedError

    def _take(self, action: int) -> None:
        raise NotImplementedError

    def play(self, color: str, move: str) -> bool:
        action = self._action.get(move)
        mask = self._mask()
        if action is None or mask is None or not mask[action]:
            return False
        self._take(action)
        return True

    def legal(self, color: str) -> set[str]:
        mask = self._mask()
        if mask is None:
            return set()
        return {self._names[i] for i in range(self._size * self._size) if mask[i]}


class PettingZooKernel(_MaskedActions):
    """PettingZoo's classic ``go_v5`` (an AEC environment over a port of minigo's
    ``go.py``; ``pip install 'ikeda[pettingzoo-go]'``). Actions are ``row * size + column``
    with row 0 at the top and ``size * size`` the pass. Legal plays come from the
    environment's action mask; the board and the score (area, komi included) are read from
    the minigo position it wraps (``env.unwrapped._go``), since its rewards are only +1/-1."""

    name = "PettingZoo go_v5"

    def __init__(self) -> None:
        try:
            self._pettingzoo: Any = importlib.import_module("pettingzoo")
            importlib.import_module("pygame")  # go_v5 imports it when made
        except ImportError:
            raise IkedaError("PettingZoo's go is not installed: pip install 'ikeda[pettingzoo-go]'") from None
        self._env: Any = None
        self._size, self._komi = 0, 0.0

    def checks(self) -> frozenset[str]:
        return frozenset({"legal", "stones", "score"})

    def reset(self, size: int, komi: float) -> None:
        if not 2 <= size <= 19:
            raise NotApplicable(f"PettingZoo go plays sizes 2..19, not {size}")
        if self._env is None or (self._size, self._komi) != (size, float(komi)):
            self.close()
            self._env = self._pettingzoo.make("aec", "classic/go-v5", board_size=size, komi=float(komi))
        # go_v5 keeps the board size in module globals of its go_base, which the last
        # environment made (of any size, anywhere) set: set them for this one again.
        self._env.unwrapped._overwrite_go_global_variables(board_size=size)
        self._env.reset()
        self._komi = float(komi)
        self._set_actions(size)

    def _mask(self) -> Any:
        env = self._env
        if env.terminations[env.agent_selection]:
            return None
        return env.observe(env.agent_selection)["action_mask"]

    def _take(self, action: int) -> None:
        self._env.step(action)

    def stones(self) -> tuple[set[str], set[str]]:
        return _board_stones(self._env.unwrapped._go.board.ravel().tolist(), self._size)

    def score(self) -> float:
        return float(self._env.unwrapped._go.score())

    def dead(self) -> set[str]:
        raise NotApplicable("PettingZoo go counts every stone alive")

    def close(self) -> None:
        if self._env is not None:
            self._env.close()
        self._env, self._size = None, 0


class PgxKernel(_MaskedActions):
    """pgx's ``go`` (JAX, run here on the CPU; ``pip install 'ikeda[pgx]'``). Actions are
    ``row * size + column`` with row 0 at the top and ``size * size`` the pass. Legal plays
    are the state's ``legal_action_mask``; the board is its ``_x.board`` (chain ids, positive
    Black); the score is pgx's own area count (``_count_scores``, the one its rewards
    compare with komi), as its rewards are only +1/-1. A state that is ``terminated`` has no
    legal play."""

    name = "pgx go"

    def __init__(self) -> None:
        try:
            self._jax: Any = importlib.import_module("jax")
            self._pgx_go: Any = importlib.import_module("pgx.go")
            self._rules: Any = importlib.import_module("pgx._src.games.go")
        except ImportError:
            raise IkedaError("pgx is not installed: pip install 'ikeda[pgx]'") from None
        self._compiled: dict[tuple[int, float], tuple[Any, Any, Any]] = {}
        self._state: Any = None
        self._size = 0

    def checks(self) -> frozenset[str]:
        return frozenset({"legal", "stones", "score"})

    def reset(self, size: int, komi: float) -> None:
        if not 2 <= size <= 19:
            raise NotApplicable(f"pgx go plays sizes 2..19, not {size}")
        key = (size, float(komi))
        if key not in self._compiled:
            jax = self._jax
            # A long game limit (pgx ends a game after 2 * size * size moves by default):
            # the checker ends its games itself.
            env = self._pgx_go.Go(size=size, komi=float(komi), max_terminal_steps=4 * size * size + 10)
            count = self._rules._count_scores
            self._compiled[key] = (jax.jit(env.init), jax.jit(env.step), jax.jit(lambda x: count(x, size)))
        init, self._step, self._count = self._compiled[key]
        self._state = init(self._jax.random.PRNGKey(0))
        self._komi = float(komi)
        self._set_actions(size)

    def _mask(self) -> list[bool] | None:
        if bool(self._state.terminated):
            return None
        return [bool(b) for b in self._state.legal_action_mask.tolist()]

    def _take(self, action: int) -> None:
        self._state = self._step(self._state, action)

    def stones(self) -> tuple[set[str], set[str]]:
        return _board_stones(self._state._x.board.tolist(), self._size)

    def score(self) -> float:
        black, white = self._count(self._state._x).tolist()
        return float(black) - float(white) - self._komi

    def dead(self) -> set[str]:
        raise NotApplicable("pgx go counts every stone alive")

    def close(self) -> None:
        self._state = None


class IkedaKernel:
    """ikeda itself through the protocol, under `rules`: the baseline of ``ikeda bench``,
    which drives every kernel through the same calls (a check of it agrees by definition)."""

    name = "ikeda"

    def __init__(self, rules: Rules | str) -> None:
        self._rules = as_rules(rules)
        self._game: Game | None = None

    def checks(self) -> frozenset[str]:
        return frozenset({"legal", "stones", "score"})

    def _at(self) -> Game:
        if self._game is None:
            raise IkedaError("reset the kernel first")
        return self._game

    def reset(self, size: int, komi: float) -> None:
        self._game = Game(size, rules=self._rules, komi=komi)
        self._names = vertex_names(size, size)

    def play(self, color: str, move: str) -> bool:
        game = self._at()
        if game.is_over or not game.is_legal(move):
            return False
        game.play(move)
        return True

    def legal(self, color: str) -> set[str]:
        game = self._at()
        return set() if game.is_over else {m for m in game.legal_moves() if m != "pass"}

    def stones(self) -> tuple[set[str], set[str]]:
        cells = self._at().to_numpy().ravel().tolist()  # 1 Black, 2 White
        return {p for p, c in zip(self._names, cells) if c == 1}, {p for p, c in zip(self._names, cells) if c == 2}

    def score(self) -> float:
        return self._at().score().margin

    def dead(self) -> set[str]:
        raise NotApplicable("every stone is alive in a played-out game")

    def close(self) -> None:
        self._game = None


#: The peer adapters by short name (``ikeda conform --kernel``, ``ikeda bench --peers``).
ADAPTERS: dict[str, Callable[[], Kernel]] = {
    "openspiel": OpenSpielKernel, "pettingzoo": PettingZooKernel, "pgx": PgxKernel,
}
