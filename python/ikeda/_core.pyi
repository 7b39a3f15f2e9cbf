"""Stubs for the native module (checked by ``python -m mypy.stubtest ikeda._core``)."""

import os
from collections.abc import Iterable, Sequence
from typing import Protocol, final

import numpy as np
import numpy.typing as npt

__all__ = ["__version__", "build_profile", "Board", "Batch", "perft", "count_games", "random_game", "simulate", "count_legal_positions", "sgf_read", "sgf_replay_many", "mcts", "STATUS_BUDGET", "STATUS_MEMORY", "confirm_status", "move_cap", "MAX_THREADS", "MAX_GAMES"]

__version__: str
build_profile: str

@final
class Board:
    """A board with its superko history; no turn order, passes or scoring.

    Colours are 1 (Black) and 2 (White). Moves are GTP vertices, "pass", or flat indices
    (row-major from the top left; ``width * height`` is pass).
    """

    def __new__(
        cls,
        width: int,
        height: int,
        black: Iterable[str | int] | None = None,
        white: Iterable[str | int] | None = None,
        *,
        rules: _Rules | None = None,
    ) -> Board: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def plays(self) -> int: ...
    @property
    def hash(self) -> int: ...
    def index(self, mv: str | int) -> int: ...
    def vertex(self, index: int) -> str: ...
    def illegal_reason(self, mv: str | int, color: int) -> str | None: ...
    def play(self, mv: str | int, color: int) -> bool: ...
    def undo(self) -> int | None: ...
    @property
    def moves(self) -> list[int]: ...
    def __len__(self) -> int: ...
    @property
    def lost(self) -> tuple[int, int]: ...
    def copy(self) -> Board: ...
    def __copy__(self) -> Board: ...
    def legal_mask(self, color: int) -> npt.NDArray[np.bool_]: ...
    def legal_indices(self, color: int) -> list[int]: ...
    def legal_vertices(self, color: int) -> list[str]: ...
    def to_numpy(self) -> npt.NDArray[np.int8]: ...
    def stone_count(self, color: int) -> int: ...
    def area(self, dead: Iterable[str | int] | None = None) -> tuple[int, int, int, int]: ...
    def ownership(self, dead: Iterable[str | int] | None = None) -> npt.NDArray[np.int8]: ...

class _State(Protocol):
    @property
    def first_passer(self) -> int | None: ...
    @property
    def run(self) -> int: ...
    @property
    def prelim(self) -> bool: ...
    @property
    def balance(self) -> int: ...
    @property
    def last_pass(self) -> bool: ...
    @property
    def over(self) -> bool: ...

def perft(board: Board, to_move: int, rules: _Rules, state: _State, depth: int) -> int: ...
def count_games(board: Board, to_move: int, rules: _Rules, state: _State) -> int: ...
class _Rules(Protocol):
    @property
    def ko(self) -> str: ...
    @property
    def suicide(self) -> bool: ...
    @property
    def ending(self) -> str: ...
    @property
    def scoring(self) -> str: ...
    @property
    def half_point(self) -> bool: ...
    @property
    def pass_stones(self) -> bool: ...
    @property
    def komi(self) -> float: ...

def random_game(
    width: int,
    height: int,
    rules: _Rules,
    seed: int,
    pass_probability: float = 0.0,
    max_moves: int | None = None,
) -> tuple[list[int], bool, int | None, int, int]: ...
@final
class Batch:
    """``n`` games in lockstep (wrapped by :class:`ikeda.Batch`)."""

    def __new__(cls, width: int, height: int, rules: _Rules, n: int, seed: int, threads: int = 0) -> Batch: ...
    def __len__(self) -> int: ...
    @property
    def threads(self) -> int: ...
    def legal_mask(self) -> npt.NDArray[np.bool_]: ...
    def legal_mask_into(self, out: npt.NDArray[np.bool_]) -> None: ...
    def step(self, actions: npt.NDArray[np.int64]) -> None: ...
    def step_into(self, actions: npt.NDArray[np.int64], mask: npt.NDArray[np.bool_]) -> None: ...
    def is_over(self) -> npt.NDArray[np.bool_]: ...
    def to_move(self) -> npt.NDArray[np.int8]: ...
    def first_passer(self) -> npt.NDArray[np.int8]: ...
    def lengths(self) -> npt.NDArray[np.int32]: ...
    def capped(self) -> npt.NDArray[np.bool_]: ...
    def margins(self) -> npt.NDArray[np.float64]: ...
    def boards(self) -> npt.NDArray[np.int8]: ...
    def reset(self, which: npt.NDArray[np.bool_]) -> None: ...
    def playout(self, pass_probability: float = 0.0, max_moves: int | None = None) -> int: ...
    def features(self, history: int) -> npt.NDArray[np.float32]: ...
    def features_into(self, history: int, out: npt.NDArray[np.float32]) -> None: ...

def simulate(
    width: int,
    height: int,
    rules: _Rules,
    seed: int,
    first: int,
    count: int,
    threads: int = 0,
    pass_probability: float = 0.0,
    max_moves: int | None = None,
) -> tuple[
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
    npt.NDArray[np.int8],
    npt.NDArray[np.int32],
    npt.NDArray[np.bool_],
]: ...
def count_legal_positions(width: int, height: int) -> int: ...

_SgfNode = tuple[int | None, list[tuple[str, list[str]]], int, int]
_SgfMove = tuple[int, int | None, int, int]
_SgfMain = tuple[
    int, int, float | None, int, str | None, str | None, str | None, list[int], list[int], int, list[_SgfMove]
]

_SgfProblem = tuple[str | None, str, int, int]
_SgfChange = tuple[int, int, int, list[int], list[int], list[int], int]
_SgfGame = tuple[list[_SgfNode], _SgfMain, list[_SgfProblem], list[_SgfChange]]

def sgf_read(data: str | bytes, encoding: str | None = None, all: bool = False) -> tuple[str, list[_SgfGame]]: ...

_Outcome = tuple[
    str,
    int,
    tuple[int, int, str, str] | None,
    bool,
    tuple[int, int] | None,
    tuple[str, int, int] | None,
]

def sgf_replay_many(
    paths: Sequence[str | os.PathLike[str]],
    forced: _Rules | None,
    by_key: Sequence[tuple[str, _Rules]],
    default: _Rules,
    threads: int = 0,
    deferred: Sequence[str] = ...,
) -> list[_Outcome]: ...

def mcts(
    board: Board,
    to_move: int,
    rules: _Rules,
    state: _State,
    playouts: int,
    seconds: float = 0.0,
    seed: int = 1,
    resign_below: float = 0.0,
) -> tuple[int, float, int]: ...

STATUS_BUDGET: int
STATUS_MEMORY: int

def confirm_status(
    width: int,
    height: int,
    cells: list[int],
    *,
    ko: str = "simple",
    first: str = "attacker",
    strict_dame_seki: bool = False,
    prune: bool = True,
    split: bool = True,
    budget: int = ...,
    memory: int = ...,
    playouts: int = 0,
    seed: int = 0,
) -> tuple[
    list[tuple[int, list[int], str, str, str, str]],
    tuple[int, int],
    tuple[int, int],
    list[int],
    list[tuple[list[int], int, str | None]],
]: ...

def move_cap(width: int, height: int) -> int: ...
MAX_THREADS: int
MAX_GAMES: int
