"""The fixed workload of ``ikeda bench``: what each task asks and the answer it must give.

Everything is made from a seed by ikeda itself, in the package (no file is read), before
any clock starts: the random games whose moves every engine replays, and their SGF
records. Each task is run by each engine through the same calls (the conformance
protocol of :mod:`ikeda.conform.kernel`, or an SGF reader), and its answer (a count) is
compared with ikeda's, so that a speed is only reported for work that was done right.

The rules are those every peer plays: no suicide, area counting, the game ending on two
passes; positional superko in ikeda, so that the workload's games never repeat a
position. The peers' legal sets follow the simple-ko ban only (OpenSpiel and pgx end the
game after a repeating play instead of forbidding it, docs/conformance.md), so a peer's
answers are checked against ikeda's under ``ko=simple-ko``: a legal set with a repeating
play in it counts one more. A random playout that makes such a play ends early in
OpenSpiel and pgx, and their answer then differs (shown as such).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ..conform.kernel import Kernel
from ..coords import vertex_names
from ..game import Game, perft
from ..rules import Rules, as_rules

#: The rules of the workload (see the module's docstring).
RULES = "tromp-taylor:suicide=no"
#: The rules of the peers' legal sets (see the module's docstring).
PEER_RULES = RULES + ",ko=simple-ko"
KOMI = 7.5


@dataclass(frozen=True)
class Sizes:
    """How big the workload is: `games` uniform random games on `size` x `size` (each
    at most ``2 * size * size`` moves, passing only when no play is left), and perft to
    `perft_depth` on `perft_size` x `perft_size` from the empty board."""

    size: int = 9
    games: int = 4
    seed: int = 1
    perft_size: int = 4
    perft_depth: int = 3


#: ``--quick``: a few seconds with every peer (one board size: pgx compiles once), for the tests.
QUICK = Sizes(size=5, games=2, perft_size=5, perft_depth=2)


@dataclass
class Workload:
    """The games (moves as GTP vertices, alternately from Black) and their SGF records."""

    sizes: Sizes
    rules: Rules
    games: list[list[str]] = field(default_factory=list)
    records: list[str] = field(default_factory=list)
    _expected: dict[tuple[str, str], int] = field(default_factory=dict)

    def expected(self, task: str, rules: str = RULES) -> int:
        """ikeda's answer to `task` under `rules` (the workload's games are the same)."""
        key = (task, rules)
        if key not in self._expected:
            self._expected[key] = _answer(self, task, as_rules(rules))
        return self._expected[key]


def choose(plays: set[str], rng: random.Random, order: dict[str, int]) -> str:
    """The next move of a uniform random game: one of `plays` (in board order, so that
    the same legal set gives the same choice in every engine), or a pass when none is left."""
    if not plays:
        return "pass"
    return rng.choice(sorted(plays, key=order.__getitem__))


def make(sizes: Sizes) -> Workload:
    """The workload of `sizes` (ikeda's answers are worked out when first asked for, by
    :meth:`Workload.expected`)."""
    rules = as_rules(RULES)
    w = Workload(sizes, rules)
    for i in range(sizes.games):
        g = playout(sizes, i, rules)
        w.games.append(g.moves)
        w.records.append(g.to_sgf())
    return w


def playout(sizes: Sizes, i: int, rules: Rules) -> Game:
    """ikeda's random game number `i` of the workload under `rules`."""
    rng = random.Random(sizes.seed * 1_000_003 + i)
    order = {v: k for k, v in enumerate(vertex_names(sizes.size, sizes.size))}
    g = Game(sizes.size, rules=rules, komi=KOMI)
    while not g.is_over and len(g.moves) < 2 * sizes.size * sizes.size:
        g.play(choose({m for m in g.legal_moves() if m != "pass"}, rng, order))
    return g


def _answer(w: Workload, task: str, rules: Rules) -> int:
    s = w.sizes
    if task == "playouts":
        return sum(len(playout(s, i, rules).moves) for i in range(s.games))
    if task == "legal masks":
        return sum(legal_counts(Game(s.size, rules=rules, komi=KOMI), m) for m in w.games)
    if task in ("replay", "sgf replay"):
        return sum(len(m) for m in w.games)
    if task == "perft":
        return perft(Game(s.perft_size, rules=rules, komi=KOMI), s.perft_depth)
    raise ValueError(task)


def legal_counts(game: Game, moves: list[str]) -> int:
    """The number of legal plays (the pass left out) summed over the positions of `moves`."""
    total = 0
    for m in moves:
        total += len(game.legal_moves()) - 1
        game.play(m)
    return total


# -- the tasks through the conformance protocol -------------------------------------------


def kernel_playouts(k: Kernel, w: Workload) -> int:
    """Plays the workload's random games again, each move chosen by the same seeded rule
    from the kernel's own legal set: the moves played."""
    s = w.sizes
    order = {v: i for i, v in enumerate(vertex_names(s.size, s.size))}
    total = 0
    for i in range(s.games):
        rng = random.Random(s.seed * 1_000_003 + i)
        k.reset(s.size, KOMI)
        moves: list[str] = []
        while len(moves) < 2 * s.size * s.size and moves[-2:] != ["pass", "pass"]:
            move = choose(k.legal("bw"[len(moves) % 2]), rng, order)
            if not k.play("bw"[len(moves) % 2], move):
                break
            moves.append(move)
        total += len(moves)
    return total


def _moves(k: Kernel, w: Workload) -> Iterator[tuple[str, str]]:
    """The workload's games move by move, the kernel reset at the start of each: the
    colour to play and its recorded move, for the caller to play."""
    for moves in w.games:
        k.reset(w.sizes.size, KOMI)
        for n, m in enumerate(moves):
            yield "bw"[n % 2], m


def kernel_legal_masks(k: Kernel, w: Workload) -> int:
    """The legal set at every position of the workload's games: their sizes summed."""
    total = 0
    for color, m in _moves(k, w):
        total += len(k.legal(color))
        k.play(color, m)
    return total


def kernel_replay(k: Kernel, w: Workload) -> int:
    """The workload's games played move by move: the moves the kernel accepted."""
    return sum(k.play(color, m) for color, m in _moves(k, w))


def kernel_perft(k: Kernel, w: Workload) -> int:
    """Perft from the empty board through the protocol, which has no undo: each node's
    position is replayed from the empty board, and the leaves below the last level are
    counted from its legal set (plus the pass). Two passes end a game."""
    s = w.sizes

    def node(path: list[str], depth: int) -> int:
        if path[-2:] == ["pass", "pass"]:
            return 1 if depth == 0 else 0
        if depth == 0:
            return 1
        k.reset(s.perft_size, KOMI)
        for n, m in enumerate(path):
            k.play("bw"[n % 2], m)
        plays = sorted(k.legal("bw"[len(path) % 2])) + ["pass"]
        if depth == 1:
            return len(plays)
        return sum(node(path + [m], depth - 1) for m in plays)

    return node([], s.perft_depth)


#: The tasks an in-process kernel runs, by name.
KERNEL_TASKS: dict[str, Callable[[Kernel, Workload], int]] = {
    "playouts": kernel_playouts,
    "legal masks": kernel_legal_masks,
    "replay": kernel_replay,
    "perft": kernel_perft,
}
