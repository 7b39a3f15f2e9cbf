"""A slow, plain reading of STATUS.md for tiny boards: the oracle the native status
confirmation is tested against.

Written straight from the text, with no pruning (Decision 7), no freezing and no regions
(Section 7): the whole board is searched, every legal move and the pass for both players.
A board is a tuple of ``w * h`` cells, row-major from the top left (EMPTY, BLACK, WHITE).
A state is ``(board, to_move, ko)`` where ``ko`` is the point banned by the simple ko rule
(Decision 8) or ``None``, or under the ko-ban (Decision 8b) a frozenset of bans
``(banned player, r, q)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

EMPTY, BLACK, WHITE = 0, 1, 2
Board = tuple[int, ...]
State = tuple[Board, int, object]


def other(c: int) -> int:
    return BLACK + WHITE - c


class Geometry:
    def __init__(self, w: int, h: int) -> None:
        self.w, self.h = w, h
        self.nbrs = []
        for p in range(w * h):
            y, x = divmod(p, w)
            cand = [(x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1)]
            self.nbrs.append([b * w + a for a, b in cand if 0 <= a < w and 0 <= b < h])

    def chain(self, board: Board, p: int) -> frozenset[int]:
        colour, seen, todo = board[p], {p}, [p]
        while todo:
            for q in self.nbrs[todo.pop()]:
                if board[q] == colour and q not in seen:
                    seen.add(q)
                    todo.append(q)
        return frozenset(seen)

    def chains(self, board: Board) -> list[frozenset[int]]:
        out: list[frozenset[int]] = []
        for p in range(len(board)):
            if board[p] != EMPTY and not any(p in c for c in out):
                out.append(self.chain(board, p))
        return out

    def liberties(self, board: Board, chain: Iterable[int]) -> set[int]:
        return {q for p in chain for q in self.nbrs[p] if board[q] == EMPTY}

    def first_class(self, board: Board, c: int) -> tuple[set[int], set[int]]:
        """Decision 3: the chains of X*(c) (their stones) and the eyes E."""
        eyes = {p for p in range(len(board)) if board[p] == EMPTY and all(board[q] == c for q in self.nbrs[p])}
        chains = [ch for ch in self.chains(board) if board[next(iter(ch))] == c]
        while True:
            keep = [ch for ch in chains if len(self.liberties(board, ch) & eyes) >= 2]
            dropped = [ch for ch in chains if ch not in keep]
            eyes = {e for e in eyes if not any(q in ch for ch in dropped for q in self.nbrs[e])}
            if not dropped:
                return {p for ch in keep for p in ch}, eyes
            chains = keep

    def play(self, board: Board, p: int, c: int) -> tuple[Board, set[int]] | None:
        """Rule 3 removal and Rule 5 (no self-capture); None if the play is self-capture."""
        cells = list(board)
        cells[p] = c
        taken: set[int] = set()
        for q in self.nbrs[p]:
            if cells[q] == other(c):
                ch = self.chain(tuple(cells), q)
                if not self.liberties(tuple(cells), ch):
                    taken |= ch
        for q in taken:
            cells[q] = EMPTY
        after = tuple(cells)
        if not taken and not self.liberties(after, self.chain(after, p)):
            return None
        return after, taken


def successors(geo: Geometry, state: State, koban: bool) -> list[State]:
    board, m, ko = state
    out: list[State] = []
    if koban:
        bans: frozenset[tuple[int, int, int]] = ko  # type: ignore[assignment]
        out.append((board, other(m), bans))  # an ordinary pass lifts nothing
        if any(b[0] == m for b in bans):
            out.append((board, other(m), frozenset(b for b in bans if b[0] != m)))  # ko-pass
    else:
        out.append((board, other(m), None))  # the pass lifts the ban
    for p in range(len(board)):
        if board[p] != EMPTY or (not koban and p == ko):
            continue
        played = geo.play(board, p, m)
        if played is None:
            continue
        after, taken = played
        if koban and any(b[0] == m and b[1] == p and taken == {b[2]} for b in bans):
            continue
        ko_capture = len(taken) == 1 and geo.chain(after, p) == {p} and geo.liberties(after, [p]) == taken
        if koban:
            new = set(bans)
            if ko_capture:
                new.add((other(m), next(iter(taken)), p))
            live = frozenset(b for b in new if after[b[1]] == EMPTY and after[b[2]] == other(b[0]))
            out.append((after, other(m), live))
        else:
            out.append((after, other(m), next(iter(taken)) if ko_capture else None))
    return out


def attractor(graph: dict[State, list[State]], player: int, target: Callable[[State], bool],
              allowed: Callable[[State], bool] = lambda s: True) -> set[State]:
    """States from which `player` forces reaching `target` through `allowed` states: the
    least fixpoint of "target, or `player` to move with some successor inside, or the
    opponent to move with every successor inside", grown backwards from the target."""
    preds: dict[State, list[State]] = {s: [] for s in graph}
    for s, succ in graph.items():
        for t in set(succ):
            preds[t].append(s)
    left = {s: len(set(succ)) for s, succ in graph.items()}
    won = {s for s in graph if target(s)}
    todo = list(won)
    while todo:
        for s in preds[todo.pop()]:
            if s in won or not allowed(s):
                continue
            left[s] -= 1
            if s[1] == player or left[s] == 0:
                won.add(s)
                todo.append(s)
    return won


def confirm(rows: list[str], ko_rule: str = "simple", first: str = "attacker") -> list[tuple[str, list[int], str]]:
    """Every chain's (colour, points, case), by exhaustive search of the whole board."""
    w, h = len(rows[0]), len(rows)
    geo = Geometry(w, h)
    board: Board = tuple({"X": BLACK, "O": WHITE}.get(ch, EMPTY) for r in rows for ch in r)
    koban = ko_rule == "koban"
    start_ko: object = frozenset() if koban else None
    roots = [(board, c, start_ko) for c in (BLACK, WHITE)]
    graph: dict[State, list[State]] = {}
    todo = list(roots)
    while todo:
        s = todo.pop()
        if s not in graph:
            graph[s] = successors(geo, s, koban)
            todo.extend(graph[s])
    first_class_cache: dict[tuple[Board, int], tuple[set[int], set[int]]] = {}

    def fc(b: Board, c: int) -> tuple[set[int], set[int]]:
        if (b, c) not in first_class_cache:
            first_class_cache[(b, c)] = geo.first_class(b, c)
        return first_class_cache[(b, c)]

    out = []
    for chain in geo.chains(board):
        d = board[next(iter(chain))]
        a = other(d)
        root = (board, a if first == "attacker" else d, start_ko)

        def g(s: State) -> bool:
            return all(s[0][p] == d for p in chain)

        def t(s: State) -> bool:
            stones, eyes = fc(s[0], d)
            return all(p in stones or p in eyes for p in chain)

        def g2(s: State) -> bool:
            return any(s[0][p] == d or p in fc(s[0], d)[1] for p in chain)

        if t(root):
            case = "F1"
        elif root in attractor(graph, d, t, g):
            case = "F2"
        elif root in attractor(graph, d, t):
            case = "F3"
        elif root not in attractor(graph, a, lambda s: not g(s)):
            case = "S1"
        else:
            won: set[State] = set()  # eventually always G': μY. Attr_D(Safe_D(G' ∪ Y))
            while True:
                bad = attractor(graph, a, lambda s: not (g2(s) or s in won))
                nxt = attractor(graph, d, lambda s: s not in bad)
                if nxt == won:
                    break
                won = nxt
            case = "S2" if root in won else "N"
        out.append(("B" if d == BLACK else "W", sorted(chain), case))
    return out
