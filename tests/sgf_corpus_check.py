"""Reads every SGF file under the directories given with ``ikeda.sgf.read`` and with
sgfmill, and says where they disagree: files sgfmill reads and ikeda refuses (the goal is
none), files ikeda reads and sgfmill refuses, and, where both read a file, whether the
board size, setup and moves of the main line agree.

    python tests/sgf_corpus_check.py DIR [DIR...] [--show N] [--json OUT]

Directories are searched for ``*.sgf`` in any case. Files are read as bytes, so both
libraries see the same input and do their own charset handling. Exit status 1 when
sgfmill reads a file that ikeda refuses, or when the main lines differ.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

from sgfmill import sgf as sgfmill_sgf
from sgfmill import sgf_moves

import ikeda
from ikeda import sgf


def files_under(names: list[str]) -> list[Path]:
    out: list[Path] = []
    for name in names:
        p = Path(name)
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*") if q.suffix.lower() == ".sgf" and q.is_file()))
        else:
            out.append(p)
    return out


def sgfmill_view(data: bytes) -> tuple[Any, ...] | str | None:
    """(size, black setup, white setup, moves) by sgfmill, None when it reads the file
    but cannot give the main line as setup and moves (setup after the root, an
    impossible setup), or why it refused the file."""
    try:
        game = sgfmill_sgf.Sgf_game.from_bytes(data)
    except Exception as e:  # sgfmill raises ValueError and a few others
        return f"{type(e).__name__}: {e}"
    try:
        board, plays = sgf_moves.get_setup_and_moves(game)
    except Exception:
        return None
    size = game.get_size()
    stones = board.list_occupied_points()
    black = sorted((size - 1 - r) * size + c for colour, (r, c) in stones if colour == "b")
    white = sorted((size - 1 - r) * size + c for colour, (r, c) in stones if colour == "w")
    moves = [(colour.upper(), None if mv is None else (size - 1 - mv[0]) * size + mv[1]) for colour, mv in plays]
    return size, black, white, moves


def ikeda_view(data: bytes) -> tuple[tuple[Any, ...], list[str]] | str:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = sgf.read(data)
    except ikeda.IkedaError as e:
        return f"{type(e).__name__}: {e}"
    w = r.width
    names = {}
    for i in range(w * r.height):
        names[_vertex(i, w, r.height)] = i
    black = sorted(names[v] for v in r.setup["B"])
    white = sorted(names[v] for v in r.setup["W"])
    moves = [(m.color, None if m.point == w * r.height else m.point) for m in r.moves]
    return (w if w == r.height else (w, r.height), black, white, moves), [str(p) for p in r.problems]


def _vertex(i: int, w: int, h: int) -> str:
    letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
    return f"{letters[i % w]}{h - i // w}"


def check(names: list[str], log: Any = None) -> tuple[Counter[str], dict[str, list[str]]]:
    """Counts per kind (see the module docstring) over every file under `names`, and an
    example line per file that is not read alike (`log`: a file for JSON lines)."""
    kinds: Counter[str] = Counter()
    examples: dict[str, list[str]] = {}
    for p in files_under(names):
        data = p.read_bytes()
        mill, ours = sgfmill_view(data), ikeda_view(data)
        if isinstance(mill, str) and isinstance(ours, str):
            kind, detail = "both refuse", f"sgfmill: {mill} | ikeda: {ours}"
        elif isinstance(ours, str):
            kind, detail = "sgfmill reads, ikeda refuses", ours
        elif isinstance(mill, str):
            kind, detail = "ikeda reads, sgfmill refuses", mill
        else:
            view, found = ours
            if mill is None:
                kind, detail = "both read, sgfmill gives no main line", ""
            elif view == mill:
                kind, detail = "both read, same main line", ""
            else:
                kind, detail = "both read, main lines differ", _diff(view, mill)
            if found:
                kinds["  of which with reported problems"] += 1
        kinds[kind] += 1
        if detail:
            examples.setdefault(kind, []).append(f"{p}: {detail[:300]}")
            if log is not None:
                log.write(json.dumps({"path": str(p), "kind": kind, "detail": detail}, ensure_ascii=False) + "\n")
    return kinds, examples


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--show", type=int, default=20, help="examples shown per kind")
    ap.add_argument("--json", help="write one JSON line per file that is not read alike")
    args = ap.parse_args(argv)
    log = open(args.json, "w") if args.json else None
    kinds, examples = check(args.dirs, log)
    print(f"{sum(n for k, n in kinds.items() if not k.startswith(' '))} files")
    for kind, n in sorted(kinds.items()):
        print(f"  {kind}: {n}")
    for kind, items in examples.items():
        print(f"\n{kind} ({len(items)}):")
        for line in items[: args.show]:
            print("  " + line)
    bad = kinds["sgfmill reads, ikeda refuses"] + kinds["both read, main lines differ"]
    return 1 if bad else 0


def _diff(ours: tuple[Any, ...], mill: tuple[Any, ...]) -> str:
    labels = ("size", "black setup", "white setup", "moves")
    for label, a, b in zip(labels, ours, mill):
        if a != b:
            if label == "moves":
                k = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                return f"moves differ from move {k + 1} (ikeda {len(a)} moves: {a[k:k + 2]}, sgfmill {len(b)}: {b[k:k + 2]})"
            return f"{label}: ikeda {a} vs sgfmill {b}"
    return ""


if __name__ == "__main__":
    sys.exit(main())
