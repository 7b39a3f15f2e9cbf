"""A small independent Go kernel speaking GTP, with bugs planted on request, for the
conformance tests. It plays no moves of its own; it claims positional superko (or with
``--ko simple`` the simple-ko ban), no suicide and area counting
(``tromp-taylor:suicide=no``, or ``tromp-taylor:suicide=no,ko=simple-ko``).

    python tests/kernel_mock.py [--bug KIND] [--ko positional|simple] [--legal all_legal|is_legal|play] [--board list_stones|showboard]

KIND: suicide (suicide allowed), ko (no ko or superko test at all), superko (only the
simple-ko test where positional superko is claimed), capture (a chain of exactly two stones is never captured), score (komi
ignored in the score). ``--legal play`` leaves out both legality commands and ``undo``,
so only ``play`` and ``clear_board`` show what is legal.
"""

from __future__ import annotations

import argparse
import sys

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


class Kernel:
    def __init__(self, bug: str, ko: str) -> None:
        self.bug = bug
        self.simple_ko = ko == "simple" or bug == "superko"
        self.n = 9
        self.komi = 0.0
        self.clear()

    def clear(self) -> None:
        self.cells = [0] * (self.n * self.n)
        self.history: list[tuple[int, ...]] = [tuple(self.cells)]
        self.undo_stack: list[list[int]] = []

    def neighbours(self, i: int) -> list[int]:
        n, x, y = self.n, i % self.n, i // self.n
        return [j for j, ok in ((i - 1, x > 0), (i + 1, x < n - 1), (i - n, y > 0), (i + n, y < n - 1)) if ok]

    def chain(self, cells: list[int], i: int) -> tuple[set[int], set[int]]:
        stones, libs, todo = {i}, set(), [i]
        while todo:
            for j in self.neighbours(todo.pop()):
                if cells[j] == 0:
                    libs.add(j)
                elif cells[j] == cells[i] and j not in stones:
                    stones.add(j)
                    todo.append(j)
        return stones, libs

    def after(self, i: int, color: int) -> list[int] | None:
        """The cells after `color` plays at `i`, or None if illegal."""
        if self.cells[i]:
            return None
        c = list(self.cells)
        c[i] = color
        taken = 0
        for j in self.neighbours(i):
            if c[j] == 3 - color:
                stones, libs = self.chain(c, j)
                if not libs and not (self.bug == "capture" and len(stones) == 2):
                    for s in stones:
                        c[s] = 0
                    taken += len(stones)
        stones, libs = self.chain(c, i)
        if not libs:
            if self.bug != "suicide":
                return None
            for s in stones:
                c[s] = 0
        if self.bug == "ko":
            return c
        if self.simple_ko:
            # simple ko only: a single-stone capture may not restore the position before
            # the opponent's last move
            return None if taken == 1 and len(self.history) >= 2 and tuple(c) == self.history[-2] else c
        return None if tuple(c) in self.history else c

    def play(self, i: int | None, color: int) -> bool:
        c = list(self.cells) if i is None else self.after(i, color)
        if c is None:
            return False
        self.undo_stack.append(self.cells)
        self.cells = c
        self.history.append(tuple(c))
        return True

    def undo(self) -> bool:
        if not self.undo_stack:
            return False
        self.cells = self.undo_stack.pop()
        self.history.pop()
        return True

    def score(self) -> float:
        area = [self.cells.count(1), self.cells.count(2)]
        seen: set[int] = set()
        for i, v in enumerate(self.cells):
            if v or i in seen:
                continue
            region, todo, touches = {i}, [i], set()
            while todo:
                for j in self.neighbours(todo.pop()):
                    if self.cells[j] == 0 and j not in region:
                        region.add(j)
                        todo.append(j)
                    elif self.cells[j]:
                        touches.add(self.cells[j])
            seen |= region
            if len(touches) == 1:
                area[touches.pop() - 1] += len(region)
        return area[0] - area[1] - (0.0 if self.bug == "score" else self.komi)

    def vertex(self, i: int) -> str:
        return f"{LETTERS[i % self.n]}{self.n - i // self.n}"

    def index(self, text: str) -> int | None:
        t = text.upper()
        if t == "PASS":
            return None
        x, y = LETTERS.index(t[0]), self.n - int(t[1:])
        if not (0 <= x < self.n and 0 <= y < self.n):
            raise ValueError(text)
        return y * self.n + x


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bug", default="none")
    ap.add_argument("--ko", default="positional", choices=("positional", "simple"))
    ap.add_argument("--legal", default="is_legal", choices=("all_legal", "is_legal", "play"))
    ap.add_argument("--board", default="list_stones", choices=("list_stones", "showboard"))
    args = ap.parse_args()
    k = Kernel(args.bug, args.ko)
    commands = ["protocol_version", "name", "version", "list_commands", "boardsize", "clear_board", "komi",
                "play", "final_score", "quit", args.board] + ([] if args.legal == "play" else [args.legal, "undo"])
    colors = {"b": 1, "black": 1, "w": 2, "white": 2}
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd, rest = words[0], words[1:]
        ok, text = True, ""
        try:
            if cmd not in commands:
                ok, text = False, "unknown command"
            elif cmd == "protocol_version":
                text = "2"
            elif cmd == "name":
                text = f"mock-{args.bug}"
            elif cmd == "version":
                text = "0"
            elif cmd == "list_commands":
                text = "\n".join(commands)
            elif cmd == "boardsize":
                k.n = int(rest[0])
                k.clear()
            elif cmd == "clear_board":
                k.clear()
            elif cmd == "komi":
                k.komi = float(rest[0])
            elif cmd == "play":
                ok = k.play(k.index(rest[1]), colors[rest[0].lower()])
                text = "" if ok else "illegal move"
            elif cmd == "undo":
                ok = k.undo()
            elif cmd == "is_legal":
                text = "1" if k.after(k.index(rest[1]) or 0, colors[rest[0].lower()]) is not None else "0"
            elif cmd == "all_legal":
                color = colors[rest[0].lower()]
                text = " ".join(k.vertex(i) for i in range(k.n * k.n) if k.after(i, color) is not None)
            elif cmd == "list_stones":
                color = colors[rest[0].lower()]
                text = " ".join(k.vertex(i) for i, v in enumerate(k.cells) if v == color)
            elif cmd == "showboard":
                rows = [" ".join(LETTERS[: k.n])]
                for y in range(k.n):
                    rows.append(f"{k.n - y} " + " ".join(".XO"[v] for v in k.cells[y * k.n:(y + 1) * k.n]))
                text = "\n" + "\n".join(rows)
            elif cmd == "final_score":
                m = k.score()
                text = "0" if m == 0 else f"B+{m:g}" if m > 0 else f"W+{-m:g}"
        except (ValueError, IndexError, KeyError):
            ok, text = False, "syntax error"
        sys.stdout.write(("= " if ok else "? ") + text + "\n\n")
        sys.stdout.flush()
        if cmd == "quit":
            return


if __name__ == "__main__":
    main()
