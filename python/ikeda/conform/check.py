"""Checking a kernel against ikeda, move by move.

Random games are played from the empty board, biased toward what kernels get wrong
(captures, most of all single-stone ones that make kos and snapbacks, self-captures where
the rules allow them, never a player's own eye unless it captures). At every position the
kernel's legal plays for the side to move are compared with ikeda's under the declared
rules, after every move its stones, and at the end of a game its score (and under
Japanese counting its dead stones). Each kind of divergence is minimised once (see
:meth:`Checker.minimise`) and counted after that.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..coords import vertex_names
from ..errors import IkedaError, IllegalMoveError
from ..game import Game
from ..rules import Rules, as_rules
from .kernel import CHECKS, Kernel, NotApplicable

#: A game stops unscored after this many moves per point (simple ko can cycle for ever).
MOVES_PER_POINT = 3
#: The chance that a move is a pass while plays remain (passes change the flow of a game:
#: the first pass, Area III's half point), while a third of the board or more is empty and
#: the last move was not a pass; later a side passes only when it has no play left, so
#: that a game ends played out (every stone alive or in seki, what every count agrees on).
PASS_CHANCE = 0.02
#: The longest a divergence's minimisation may take, in seconds; what is left then is reported.
MINIMISE_SECONDS = 60.0


@dataclass(frozen=True)
class Finding:
    """One disagreement at one position: which `check`, the `rule` it touches, the
    `point` asked about (None for a whole-board answer), and both answers."""

    check: str
    rule: str
    point: str | None
    ikeda: str
    kernel: str

    @property
    def key(self) -> tuple[str, str, str]:
        """What makes two findings the same divergence: the check, the rule and ikeda's
        side of it (a play ikeda refuses and one it allows are two divergences)."""
        return (self.check, self.rule, self.ikeda.split(" ")[0] if self.check == "legal" else "")


@dataclass
class Divergence:
    """A divergence as reported: the first finding of its kind, replayed from the
    shortest move sequence found (`moves`, alternately from Black), how long the game
    that found it was, how often it was seen, the SGF and a diagram."""

    finding: Finding
    moves: list[str]
    found_after: int
    minimised: bool
    count: int = 1
    sgf: str = ""
    diagram: str = ""


@dataclass
class Report:
    kernel: str
    rules: Rules
    size: int
    checks: tuple[str, ...]
    not_applicable: dict[str, str] = field(default_factory=dict)
    games: int = 0
    positions: int = 0
    moves: int = 0
    seconds: float = 0.0
    divergences: list[Divergence] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        """0 when everything checked agrees, 1 when something diverges."""
        return 1 if self.divergences else 0


class Checker:
    """Checks `kernel` against ikeda under `rules` on `size` x `size` boards. `checks`
    limits what is compared (default: everything the kernel can answer that the rules
    define)."""

    def __init__(self, kernel: Kernel, rules: Rules | str, size: int, *, seed: int = 1,
                 checks: tuple[str, ...] | None = None, minimise_seconds: float = MINIMISE_SECONDS) -> None:
        self.kernel = kernel
        self.rules = as_rules(rules)
        self.size = size
        self.rng = random.Random(seed)
        self.minimise_seconds = minimise_seconds
        wanted = CHECKS if checks is None else checks
        unknown = sorted(set(wanted) - set(CHECKS))
        if unknown:
            raise IkedaError(f"unknown checks {', '.join(unknown)}; checks: {', '.join(CHECKS)}")
        have = kernel.checks()
        self.report = Report(kernel.name, self.rules, size, ())
        na = self.report.not_applicable
        for c in wanted:
            if c not in have:
                na[c] = f"{kernel.name} cannot answer it"
            elif c == "status" and self.rules.scoring != "japanese":
                na[c] = "every stone is alive under area and territory counting: games are played out"
        self.report.checks = tuple(c for c in wanted if c not in na)
        self._points = vertex_names(size, size)
        self._seen: dict[tuple[str, str, str], Divergence] = {}
        self._start()  # a size the kernel does not play fails here, before any game

    # -- the games -------------------------------------------------------------------

    def run(self, games: int, on_game: Callable[[int], None] | None = None) -> Report:
        t0 = time.monotonic()
        for i in range(games):
            self._game()
            self.report.games += 1
            if on_game is not None:
                on_game(i + 1)
        self.report.seconds += time.monotonic() - t0
        return self.report

    def _start(self) -> Game:
        self.kernel.reset(self.size, self.rules.komi)
        return Game(self.size, rules=self.rules)

    def _game(self) -> None:
        game = self._start()
        cap = MOVES_PER_POINT * self.size * self.size
        checks = self.report.checks
        while not game.is_over and len(game.moves) < cap:
            allowed = None
            if "legal" in checks:
                self.report.positions += 1
                allowed = self._kernel_legal(game)
                findings = self._compare_legal(game, allowed)
                if findings and self._found(findings, game.moves):
                    game = self._replay(game.moves)
                if any(f.rule == "game over" for f in findings):
                    return
            move = self._choose(game, allowed)
            color = game.to_move.lower()
            game.play(move)
            self.report.moves += 1
            if not self.kernel.play(color, move):
                f = Finding("legal", self._classify(game.moves[:-1], move), move, "legal", "refused by play")
                self._found([f], game.moves)
                return  # the two games are not the same any more
            if "stones" in checks:
                findings = self._compare_stones(game)
                if findings:
                    self._found(findings, game.moves)
                    return
        if game.is_over:
            self._compare_end(game, record=True)

    def _replay(self, moves: list[str]) -> Game:
        """Both games again at the end of `moves` (after a minimisation reset the kernel)."""
        game = self._start()
        for move in moves:
            color = game.to_move.lower()
            game.play(move)
            if not self.kernel.play(color, move):
                raise IkedaError(f"{self.kernel.name} refused {color} {move} on a replay it accepted before")
        return game

    # -- the comparisons -------------------------------------------------------------

    def _kernel_legal(self, game: Game) -> set[str]:
        return self.kernel.legal(game.to_move.lower())

    def _compare_legal(self, game: Game, theirs: set[str]) -> list[Finding]:
        ours = {m for m in game.legal_moves() if m != "pass"}
        if ours and not theirs and any(self._classify(game.moves, p) != "suicide" for p in ours):
            # The kernel has no legal play where ikeda has one that is not a self-capture:
            # its game is over where ikeda's goes on. (When ikeda's only plays are
            # self-captures, the kernel forbids suicide: that is found per point below.)
            return [Finding("legal", "game over", None, f"legal ({len(ours)} plays)", "no legal play: its game is over")]
        out = []
        for point in sorted(theirs - ours, key=self._points.index if len(theirs - ours) < 50 else str):
            reason = game.illegal_reason(point) if point in self._points else None
            out.append(Finding("legal", reason or "vertex", point, f"illegal ({reason or 'not a point'})", "legal"))
        for point in sorted(ours - theirs, key=self._points.index):
            out.append(Finding("legal", self._classify(game.moves, point), point, "legal", "illegal"))
        return out

    def _compare_stones(self, game: Game) -> list[Finding]:
        cells = game.to_numpy().ravel().tolist()
        ours = ({p for p, c in zip(self._points, cells) if c == 1}, {p for p, c in zip(self._points, cells) if c == 2})
        theirs = self.kernel.stones()
        if ours == theirs:
            return []
        wrong = sorted((ours[0] ^ theirs[0]) | (ours[1] ^ theirs[1]), key=lambda p: self._points.index(p) if p in self._points else 0)
        return [Finding("stones", "capture", wrong[0] if wrong else None,
                        _stones_text(ours, wrong), _stones_text(theirs, wrong))]

    def _compare_end(self, game: Game, record: bool) -> list[Finding]:
        out = []
        if "score" in self.report.checks:
            ours, theirs = game.score().margin, self.kernel.score()
            if ours != theirs:
                out.append(Finding("score", "scoring", None, _margin(ours), _margin(theirs)))
        if "status" in self.report.checks:
            ours_dead, theirs_dead = set(game.final_status()["dead"]), self.kernel.dead()
            if ours_dead != theirs_dead:
                out.append(Finding("status", "status", None, "dead: " + (" ".join(sorted(ours_dead)) or "none"),
                                   "dead: " + (" ".join(sorted(theirs_dead)) or "none")))
        if record and out:
            self._found(out, game.moves)
        return out

    def _classify(self, moves: list[str], point: str) -> str:
        """The rule a play touches that ikeda allows and the kernel refuses: it captures,
        it captures its own stones (the rules allow self-capture), it repeats an earlier
        whole-board position (the rules allow that repetition), or none of these."""
        if point == "pass":
            return "pass"
        replay = Game(self.size, rules=self.rules)
        seen = {replay.board.hash}
        for move in moves:
            replay.play(move)
            seen.add(replay.board.hash)
        board, color = replay.board.copy(), 1 if replay.to_move == "B" else 2
        own, theirs = board.stone_count(color), board.stone_count(3 - color)
        board.play(point, color)
        if board.stone_count(3 - color) < theirs:
            return "superko" if board.hash in seen else "capture"
        if board.stone_count(color) <= own:
            return "suicide"
        return "superko" if board.hash in seen else "plain play"

    # -- the choice of moves ---------------------------------------------------------

    def _played_out(self, game: Game) -> bool:
        """Whether neither side has a play left that the games make (one that does not
        fill its own eye): a count of such a board needs no judgement of dead stones."""
        cells = game.to_numpy().ravel().tolist()
        for color in (1, 2):
            for m in game.board.legal_vertices(color):
                if _worth_playing(cells, self._points.index(m), color, self.size):
                    return False
        return True

    def _choose(self, game: Game, allowed: set[str] | None) -> str:
        return choose_move(game, allowed, self.rng)

    # -- divergences -----------------------------------------------------------------

    def _found(self, findings: list[Finding], moves: list[str]) -> bool:
        """Records the findings; returns True if one was new (and so was minimised, which
        leaves the kernel elsewhere)."""
        new = False
        for f in findings:
            seen = self._seen.get(f.key)
            if seen is not None:
                seen.count += 1
                continue
            new = True
            minimal, ok = self.minimise(list(moves), f.key)
            shown = self._reproduce(minimal, f.key) if ok else None
            d = Divergence(shown or f, minimal, len(moves), ok)
            d.sgf, d.diagram = self._picture(d)
            self._seen[f.key] = d
            self.report.divergences.append(d)
        return new

    def _reproduce(self, moves: list[str], key: tuple[str, str, str]) -> Finding | None:
        """The finding of kind `key` at the end of `moves` in both games, or None."""
        game = Game(self.size, rules=self.rules)
        try:
            for move in moves:
                game.play(move)
        except IllegalMoveError:
            return None
        check = key[0]
        if check in ("score", "status") and not (game.is_over and self._played_out(game)):
            return None
        self.kernel.reset(self.size, self.rules.komi)
        colors = "bw"
        for k, move in enumerate(moves):
            if not self.kernel.play(colors[k % 2], move):
                return None
        if check == "legal":
            if game.is_over:
                return None
            found = self._compare_legal(game, self._kernel_legal(game))
        elif check == "stones":
            found = self._compare_stones(game)
        else:
            found = self._compare_end(game, record=False)
        return next((f for f in found if f.key == key), None)

    def minimise(self, moves: list[str], key: tuple[str, str, str]) -> tuple[list[str], bool]:
        """A shorter sequence that still shows a divergence of kind `key`, and whether
        `moves` itself showed it. Greedy: remove runs of moves of even length (so the
        colours of the rest stay), longest first, then turn single plays into passes,
        until no removal and no such pass keeps the divergence, or the time is up. The
        result is minimal in that sense (no pair of consecutive moves can go), which is
        short but not always the shortest possible."""
        if self._reproduce(moves, key) is None:
            return moves, False
        deadline = time.monotonic() + self.minimise_seconds
        best = moves
        changed = True
        while changed and time.monotonic() < deadline:
            changed = False
            n = max(2, len(best) // 4 * 2)
            while True:
                i = 0
                while i + n <= len(best) and time.monotonic() < deadline:
                    candidate = best[:i] + best[i + n:]
                    if self._reproduce(candidate, key) is not None:
                        best, changed = candidate, True
                    else:
                        i += 1
                if n == 2:
                    break
                n = max(2, n // 4 * 2)
            for i in range(len(best)):
                if best[i] != "pass" and time.monotonic() < deadline:
                    candidate = best[:i] + ["pass"] + best[i + 1:]
                    if self._reproduce(candidate, key) is not None:
                        best, changed = candidate, True
        return best, True

    def _picture(self, d: Divergence) -> tuple[str, str]:
        game = Game(self.size, rules=self.rules)
        for move in d.moves:
            game.play(move)
        f = d.finding
        note = f"{f.check} ({f.rule}){' at ' + f.point if f.point else ''}: ikeda {f.ikeda}; {self.kernel.name} {f.kernel}"
        sgf = game.to_sgf()
        sgf = sgf.replace("(;", "(;C[" + note.replace("\\", "\\\\").replace("]", "\\]") + "]", 1)
        return sgf, _diagram(game, f.point) + "\n" + note


def choose_move(game: Game, allowed: set[str] | None, rng: random.Random) -> str:
    """A random move of `game` among its legal plays (and `allowed`, if given), weighted
    toward captures (single stones most: kos and snapbacks), then self-captures where
    the rules allow them; never into one's own eye unless that saves the chain; a pass
    when nothing else is left, and early in a game now and then."""
    plays = [m for m in game.legal_moves() if m != "pass" and (allowed is None or m in allowed)]
    color = 1 if game.to_move == "B" else 2
    cells = game.to_numpy().ravel().tolist()
    early = cells.count(0) * 3 >= len(cells) and game.moves[-1:] != ["pass"]
    if not plays or (early and rng.random() < PASS_CHANCE):
        return "pass"
    n = game.width
    names = vertex_names(n, n)
    board = game.board
    own, theirs = board.stone_count(color), board.stone_count(3 - color)
    weights = []
    for m in plays:
        i = names.index(m)
        b = board.copy()
        b.play(m, color)
        took = theirs - b.stone_count(3 - color)
        lost = own + 1 - b.stone_count(color)
        if took:
            weights.append(12.0 if took == 1 else 8.0)  # single stones: kos and snapbacks
        elif lost:
            weights.append(3.0)  # a self-capture the rules allow
        elif not _worth_playing(cells, i, color, n):
            weights.append(0.0)  # never fill one's own eye: games reach a countable end
        else:
            weights.append(1.0)
    if not any(weights):
        return "pass"
    return rng.choices(plays, weights)[0]


def _neighbours(i: int, n: int) -> list[int]:
    x, y = i % n, i // n
    return [j for j, ok in ((i - 1, x > 0), (i + 1, x < n - 1), (i - n, y > 0), (i + n, y < n - 1)) if ok]


def _worth_playing(cells: list[int], i: int, color: int, n: int) -> bool:
    """False for a point of one's own eye: every neighbour one's own stone, none of their
    chains with this point as its last liberty (filling such a point saves the chain: a
    false eye, a ko to close)."""
    if not all(cells[j] == color for j in _neighbours(i, n)):
        return True
    for j in _neighbours(i, n):
        chain, todo, liberties = {j}, [j], set()
        while todo:
            for k in _neighbours(todo.pop(), n):
                if cells[k] == 0:
                    liberties.add(k)
                elif cells[k] == color and k not in chain:
                    chain.add(k)
                    todo.append(k)
        if liberties == {i}:
            return True
    return False


def _margin(m: float) -> str:
    return "0" if m == 0 else f"B+{m:g}" if m > 0 else f"W+{-m:g}"


def _stones_text(stones: tuple[set[str], set[str]], points: list[str]) -> str:
    def at(p: str) -> str:
        return "B" if p in stones[0] else "W" if p in stones[1] else "empty"

    return ", ".join(f"{p} {at(p)}" for p in points[:6]) + (" ..." if len(points) > 6 else "")


def _diagram(game: Game, point: str | None) -> str:
    """The board (``X`` Black, ``O`` White), the point in question shown as ``*`` when
    empty, in lower case when a stone, the last move in brackets."""
    n = game.width
    names = vertex_names(n, game.height)
    cells = game.to_numpy().ravel().tolist()
    last = next((m for m in reversed(game.moves) if m != "pass"), None)
    letters = [name.rstrip("0123456789") for name in names[:n]]
    lines = ["    " + " ".join(letters)]
    for y in range(game.height):
        row = names[y * n].lstrip("ABCDEFGHJKLMNOPQRSTUVWXYZ")
        text = ""
        for x in range(n):
            i = y * n + x
            c = ".XO"[cells[i]]
            if names[i] == point:
                c = "*" if c == "." else c.lower()
            text += ("(" + c + ")") if names[i] == last else (" " + c if not text.endswith(")") else c)
        lines.append(f"{row:>3}{text}")
    moves = " ".join(game.moves) or "(none)"
    lines.append(f"moves: {moves}; {game.to_move} to move")
    return "\n".join(lines)
