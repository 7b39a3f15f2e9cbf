"""Records that stop before the last neutral point or a forced connection (teire): how
many real records a finishing step would change, and whether it would bring their
counts closer to the recorded results (docs/status.md, "Records that stop before the last
neutral point"; the figures are in benches/README.md).

    python benches/real_games/finish_dame.py CORPUS_DIR GNUGO.jsonl [--ikeda IKEDA.jsonl]

For each record: its final position, the dead stones of GNU Go's ``final_status_list
dead`` (GNUGO.jsonl from `gnugo_reference.py`) or of ikeda's confirmation (IKEDA.jsonl
from `real_games.py --json`), the count of Section 6 as it stands, and the count after
:func:`finish` has played the dame phase out. Printed: exact recorded margins without and
with the finishing step, records one point off, and how many of them it fixes and breaks.

Under Japanese counting a neutral point is worth nothing, but filling it can take the
last-but-one liberty of a chain, and its owner must then connect inside his own
territory, which costs him a point. :func:`finish` plays the dame phase out by a fixed
procedure and counts the result; it never changes a status: the dead stones stay dead,
the seki stays seki (its shared points are never filled), and every stone it adds is
alive. One move each, alternately, starting with the player to move:

1. the mover saves each of his alive chains in atari: he plays its last liberty when that
   gives it two liberties or more, else captures a dead opponent chain next to it that is
   in atari; a stone played on his own territory is a forced connection and costs him that
   point;
2. otherwise he fills a neutral point, one that leaves an opponent's alive chain in atari
   first (it forces a connection), and never one that leaves his own chain with fewer
   than two liberties;
3. otherwise he passes; two passes in a row end it.

A neutral point is an empty point of a region of the board, dead stones removed, that
touches alive stones of both colours and no seki stone. This is one reading of how a dame
phase ends (which dame is filled first decides who pays a teire), not status
confirmation, and the records disagree with it far more often than they agree; so ikeda
counts a position as it stands and offers no finishing step (docs/status.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Finished:
    """The dame phase played out: ``rows`` the finished board (``X`` ``O`` ``.``, dead stones
    still on it), ``played`` the stones added as ``(colour, row, column)`` in order,
    ``teire`` the forced connections each colour played inside its own territory,
    ``territory`` the count of Section 6 on the finished board, and ``finished`` whether
    the procedure ended with no chain in atari."""

    rows: list[str]
    played: list[tuple[str, int, int]]
    teire: dict[str, int]
    territory: dict[str, int]
    finished: bool


class _Board:
    def __init__(self, rows: list[str], status: list[str]) -> None:
        self.h, self.w = len(rows), len(rows[0])
        self.cell = [list(r) for r in rows]
        # a alive, s seki, d dead per stone; added stones are alive.
        self.mark = [list(r) for r in status]

    def nbrs(self, y: int, x: int) -> Iterator[tuple[int, int]]:
        for dy, dx in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if 0 <= y + dy < self.h and 0 <= x + dx < self.w:
                yield y + dy, x + dx

    def chain(self, y: int, x: int) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
        colour = self.cell[y][x]
        stones, libs, todo = {(y, x)}, set(), [(y, x)]
        while todo:
            p = todo.pop()
            for q in self.nbrs(*p):
                c = self.cell[q[0]][q[1]]
                if c == ".":
                    libs.add(q)
                elif c == colour and q not in stones:
                    stones.add(q)
                    todo.append(q)
        return stones, libs

    def play(self, colour: str, y: int, x: int) -> int:
        """Places a stone, removes opponent chains left without liberties; the stones taken."""
        self.cell[y][x] = colour
        self.mark[y][x] = "a"
        taken = 0
        for q in self.nbrs(y, x):
            if self.cell[q[0]][q[1]] not in (".", colour):
                stones, libs = self.chain(*q)
                if not libs:
                    taken += len(stones)
                    for s in stones:
                        self.cell[s[0]][s[1]] = "."
                        self.mark[s[0]][s[1]] = "."
        return taken

    def copy(self) -> _Board:
        b = _Board(["".join(r) for r in self.cell], ["".join(r) for r in self.mark])
        return b


def _regions(board: _Board) -> list[tuple[list[tuple[int, int]], set[str]]]:
    """Empty regions of the board with its dead stones removed, each with the marks of the
    stones at its border (``"Xa"``, ``"Os"``, ...)."""
    empty = {(y, x) for y in range(board.h) for x in range(board.w) if board.cell[y][x] == "." or board.mark[y][x] == "d"}
    out, seen = [], set()
    for start in sorted(empty):
        if start in seen:
            continue
        seen.add(start)
        region, todo, border = [start], [start], set()
        while todo:
            p = todo.pop()
            for q in board.nbrs(*p):
                if q in empty:
                    if q not in seen:
                        seen.add(q)
                        region.append(q)
                        todo.append(q)
                else:
                    border.add(board.cell[q[0]][q[1]] + board.mark[q[0]][q[1]])
        out.append((region, border))
    return out


def _owner(border: set[str]) -> str | None:
    """Section 6: the colour whose alive stones alone border a region, else None."""
    colours = {b[0] for b in border}
    if len(colours) == 1 and all(b[1] == "a" for b in border):
        return colours.pop()
    return None


def _neutral(board: _Board) -> list[tuple[int, int]]:
    out = []
    for region, border in _regions(board):
        if {b[0] for b in border} == {"X", "O"} and all(b[1] == "a" for b in border):
            out.extend(p for p in region if board.cell[p[0]][p[1]] == ".")
    return sorted(out)


def _in_atari(board: _Board, colour: str) -> list[tuple[set[tuple[int, int]], set[tuple[int, int]]]]:
    seen: set[tuple[int, int]] = set()
    out = []
    for y in range(board.h):
        for x in range(board.w):
            if (y, x) not in seen and board.cell[y][x] == colour and board.mark[y][x] == "a":
                stones, libs = board.chain(y, x)
                seen |= stones
                if len(libs) == 1:
                    out.append((stones, libs))
    return out


def finish(rows: list[str], status: list[str], territory: list[str], to_move: str = "X") -> Finished:
    """Plays the dame phase of the module's procedure on `rows` (``X`` ``O`` ``.``) with the
    confirmed `status` rows (``a`` ``s`` ``d`` ``.``) and `territory` rows (``b`` ``w``
    ``.``), `to_move` (``X`` or ``O``) first."""
    board = _Board(rows, status)
    own = {"X": "b", "O": "w"}
    other = {"X": "O", "O": "X"}
    played: list[tuple[str, int, int]] = []
    teire = {"X": 0, "O": 0}
    mover, passes, ok = to_move, 0, True
    limit = 4 * board.h * board.w
    while passes < 2 and len(played) < limit:
        move = None
        for stones, libs in _in_atari(board, mover):
            (y, x), = libs
            trial = board.copy()
            trial.play(mover, y, x)
            if len(trial.chain(y, x)[1]) >= 2:
                move = (y, x)
                break
            # capture an opponent chain in atari next to it instead
            for s in stones:
                for q in board.nbrs(*s):
                    if board.cell[q[0]][q[1]] == other[mover] and board.mark[q[0]][q[1]] == "d":
                        their, their_libs = board.chain(*q)
                        if len(their_libs) == 1:
                            move = next(iter(their_libs))
                            break
                if move:
                    break
            if move is None:
                ok = False
            break
        if not ok:
            break
        if move is None:
            best = None
            for y, x in _neutral(board):
                trial = board.copy()
                trial.play(mover, y, x)
                if len(trial.chain(y, x)[1]) < 2:
                    continue  # never a self-atari
                forcing = any(len(trial.chain(*q)[1]) == 1 for q in trial.nbrs(y, x) if trial.cell[q[0]][q[1]] == other[mover] and trial.mark[q[0]][q[1]] == "a")
                if forcing:
                    best = (y, x)
                    break
                if best is None:
                    best = (y, x)
            move = best
        if move is None:
            passes += 1
        else:
            passes = 0
            y, x = move
            if territory[y][x] == own[mover]:
                teire[mover] += 1
            board.play(mover, y, x)
            played.append((mover, y, x))
        mover = other[mover]
    ok = ok and not _in_atari(board, "X") and not _in_atari(board, "O")
    count = {"X": 0, "O": 0}
    for region, border in _regions(board):
        colour = _owner(border)
        if colour:
            count[colour] += len(region)
    return Finished(
        ["".join(r) for r in board.cell], played, {"B": teire["X"], "W": teire["O"]},
        {"B": count["X"], "W": count["O"]}, ok,
    )


def _count_rows(rows: list[str], status: list[str]) -> tuple[list[str], dict[str, int]]:
    """Section 6's territory rows (``b`` ``w`` ``.``) and counts of a position."""
    board = _Board(rows, status)
    terr = [["."] * board.w for _ in range(board.h)]
    count = {"X": 0, "O": 0}
    for region, border in _regions(board):
        colour = _owner(border)
        if colour:
            count[colour] += len(region)
            for y, x in region:
                terr[y][x] = "b" if colour == "X" else "w"
    return ["".join(r) for r in terr], count


def main() -> None:
    import argparse
    import json
    import re
    from pathlib import Path

    from ikeda import sgf

    ap = argparse.ArgumentParser()
    ap.add_argument("corpus", type=Path)
    ap.add_argument("gnugo", type=Path)
    ap.add_argument("--ikeda", type=Path, help="real_games.py --json output: use ikeda's dead stones")
    args = ap.parse_args()
    source = args.ikeda or args.gnugo
    dead_of = {}
    for line in source.read_text().splitlines():
        row = json.loads(line)
        if "dead" in row:
            dead_of[row["file"]] = row["dead"]
    n = exact = exact_fin = off1 = fixed = broken = changed = unfinished = 0
    for name, dead_list in sorted(dead_of.items()):
        rec = sgf.read((args.corpus / name).read_text(errors="replace"))
        m = re.fullmatch(r"([BW])\+(\d+(?:\.\d+)?)", (rec.main_line[0].get("RE") or "").strip())
        if not m:
            continue
        want = float(m.group(2)) * (1 if m.group(1) == "B" else -1)
        game = rec.replay(rules="japanese", tolerant=True)
        stones = game.to_numpy()
        h, w = stones.shape
        rows = ["".join(".XO"[v] for v in r) for r in stones]
        columns = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
        dead = {(h - int(v[1:]), columns.index(v[0])) for v in dead_list}
        status = ["".join("." if rows[y][x] == "." else "d" if (y, x) in dead else "a" for x in range(w)) for y in range(h)]
        terr, count = _count_rows(rows, status)
        taken, komi = game.prisoners, game.komi
        dead_black = sum(rows[y][x] == "X" for y, x in dead)
        dead_white = len(dead) - dead_black

        def margin(t: dict[str, int]) -> float:
            return (t["X"] + taken["B"] + dead_white) - (t["O"] + taken["W"] + dead_black + komi)

        before = margin(count)
        fin = finish(rows, status, terr, "X" if game.to_move == "B" else "O")
        after = margin({"X": fin.territory["B"], "O": fin.territory["W"]})
        n += 1
        exact += before == want
        exact_fin += after == want
        off1 += abs(before - want) == 1
        fixed += abs(before - want) == 1 and after == want
        broken += before == want and after != want
        changed += before != after
        unfinished += not fin.finished
    pct = lambda a: f"{a}/{n} ({100 * a / max(n, 1):.1f}%)"  # noqa: E731
    print(f"records: {n}, dead stones from {source.name}")
    print("exact margin as it stands:", pct(exact))
    print("exact margin after finishing the dame:", pct(exact_fin))
    print("one point off as it stands:", pct(off1), f"of which finishing fixes {fixed}")
    print("exact as it stands but not after finishing:", broken)
    print("counts changed by finishing:", changed, "| finishing stopped with a chain in atari:", unfinished)


if __name__ == "__main__":
    main()
