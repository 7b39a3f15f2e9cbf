"""Fuego's whole-board safety suite beside ikeda's proofs.

Fuego's regression suite (`regression/static_safety_fullboard.tst` with the positions of
`regression/sgf/safetytest-whole-board/`) gives, for 95 finished positions, how many points
Fuego's static safety solver proves safe for each colour (stones, their territory and the
dead stones in it) and the empty points it proves neutral ("safe dame"). The .tst files
give the counts only (the points themselves are matched by ``.*``), so the comparison is
by counts per colour, and point by point for the dame.

    python benches/fuego_safety.py [DIR] [--budget STATES] [--json OUT.jsonl]
    python benches/fuego_safety.py --tst FUEGO/regression/static_safety_fullboard.tst DIR

DIR (default tests/data/fuego-safety) holds the positions and ``expected.json``; the second
form writes ``expected.json`` from Fuego's .tst file. ikeda's proven points of a colour
(`proven_points`): the stones of its chains proven alive, and each region of empty points
and dead stones that the count gives it, when every chain inside (dead) and on its
boundary (alive) is proven. Seki chains and the points they share are nobody's.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from pathlib import Path
from typing import Any

import ikeda
from ikeda import sgf

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "fuego-safety"


def read_tst(text: str) -> dict[str, dict[str, Any]]:
    """Fuego's expected answers by position: ``{"B": n, "W": n, "dame": [points]}``.
    A test Fuego marks as an expected failure (``]*``) is left out."""
    out: dict[str, dict[str, Any]] = {}
    name = ""
    command = ""
    for line in text.splitlines():
        if line.startswith("loadsgf "):
            name = Path(line.split()[1]).name
            out[name] = {}
        elif re.match(r"\d+ go_safe", line):
            command = line.split(None, 1)[1].strip()
        elif line.startswith("#? [") and command and not line.rstrip().endswith("*"):
            answer = line[4:line.rindex("]")].split()
            if command == "go_safe static black":
                out[name]["B"] = int(answer[0])
            elif command == "go_safe static white":
                out[name]["W"] = int(answer[0])
            elif command == "go_safe_dame_static":
                out[name]["dame"] = answer
            command = ""
    return out


def position(path: Path) -> ikeda.Game:
    """The setup position of a record (AB/AW, no moves)."""
    return sgf.read(path.read_text(errors="replace")).replay(rules="japanese", tolerant=True)


def proven_points(r: ikeda.status.StatusResult) -> dict[str, set[str]]:
    """The points ikeda proves for each colour: stones of proven alive chains, and each
    region of empty points and dead stones whose count goes to one colour, when every
    chain in it and around it is proven."""
    rows = r.status
    h, w = len(rows), len(rows[0])
    names = ikeda.coords.vertex_names(w, h)
    chain_of: dict[int, ikeda.status.ChainStatus] = {}
    for c in r.chains:
        for v in c.stones:
            chain_of[names.index(v)] = c
    out: dict[str, set[str]] = {"B": set(), "W": set()}
    for c in r.chains:
        if c.proven and c.status == "alive":
            out[c.colour].update(c.stones)
    seen: set[int] = set()
    for start in range(w * h):
        if start in seen or rows[start // w][start % w] not in ".d":
            continue
        # A region: empty points and dead stones joined orthogonally.
        region, around, stack = [start], set(), [start]
        seen.add(start)
        while stack:
            p = stack.pop()
            y, x = divmod(p, w)
            for q in (p - w if y else -1, p + w if y < h - 1 else -1, p - 1 if x else -1, p + 1 if x < w - 1 else -1):
                if q < 0 or q in seen:
                    continue
                if rows[q // w][q % w] in ".d":
                    seen.add(q)
                    region.append(q)
                    stack.append(q)
                else:
                    around.add(id(chain_of[q]))
        owners = {r.territory[p // w][p % w] for p in region if rows[p // w][p % w] == "."}
        owners |= {"w" if chain_of[p].colour == "B" else "b" for p in region if p in chain_of}
        if len(owners) != 1 or owners == {"."}:
            continue
        inside = [chain_of[p] for p in region if p in chain_of]
        border = [c for c in r.chains if id(c) in around]
        if all(c.proven for c in inside + border) and all(c.status == "alive" for c in border):
            out[owners.pop().upper()].update(names[p] for p in region)
    return out


def compare(path: Path, want: dict[str, Any], budget: int) -> dict[str, Any]:
    """ikeda's proven points of one position beside Fuego's expected counts and dame."""
    game = position(path)
    c0 = time.process_time()
    r = ikeda.confirm_status(game, unresolved="estimate", budget=budget)
    cpu = time.process_time() - c0
    got = proven_points(r)
    dame = set(want.get("dame", []))
    return {
        "file": path.name, "cpu": cpu, "B": len(got["B"]), "W": len(got["W"]),
        "fuego_B": want.get("B"), "fuego_W": want.get("W"),
        # Points Fuego proves neutral that ikeda's proofs give to a colour: contradictions.
        "dame_claimed": sorted(dame & (got["B"] | got["W"])),
        "chains": len(r.chains), "chains_proven": sum(c.proven for c in r.chains),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", type=Path, nargs="?", default=DATA)
    ap.add_argument("--tst", type=Path, help="write DIR/expected.json from Fuego's .tst file")
    ap.add_argument("--budget", type=int, default=ikeda.status.BUDGET)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    if args.tst:
        want = read_tst(args.tst.read_text(errors="replace"))
        lines = [f"{json.dumps(k)}: {json.dumps(v, sort_keys=True)}" for k, v in sorted(want.items())]
        (args.dir / "expected.json").write_text("{\n" + ",\n".join(lines) + "\n}\n")
        print(f"{len(want)} positions written to {args.dir / 'expected.json'}")
        return
    want = json.loads((args.dir / "expected.json").read_text())
    rows = [compare(args.dir / name, w, args.budget) for name, w in sorted(want.items())]
    if args.json:
        args.json.write_text("".join(json.dumps(r) + "\n" for r in rows))
    for r in rows:
        print(f"{r['file']:22} ikeda B {r['B']:3} W {r['W']:3}   Fuego B {r['fuego_B']} W {r['fuego_W']}"
              + (f"   dame given to a colour: {r['dame_claimed']}" if r["dame_claimed"] else ""))
    both = [r for r in rows if r["fuego_B"] is not None and r["fuego_W"] is not None]
    ik = sum(r["B"] + r["W"] for r in both)
    fu = sum(r["fuego_B"] + r["fuego_W"] for r in both)
    n = 361 * len(both)
    print(f"positions: {len(rows)}; points proven safe: ikeda {ik} ({100 * ik / n:.1f}%), Fuego {fu} ({100 * fu / n:.1f}%)"
          f" of {n}")
    print("positions where ikeda proves more / fewer / as many points as Fuego:",
          sum(r["B"] + r["W"] > r["fuego_B"] + r["fuego_W"] for r in both),
          sum(r["B"] + r["W"] < r["fuego_B"] + r["fuego_W"] for r in both),
          sum(r["B"] + r["W"] == r["fuego_B"] + r["fuego_W"] for r in both))
    print("chains proven:", sum(r["chains_proven"] for r in rows), "of", sum(r["chains"] for r in rows))
    print("Fuego's safe dame given to a colour by ikeda's proofs:", sum(len(r["dame_claimed"]) for r in rows),
          "points in", sum(bool(r["dame_claimed"]) for r in rows), "positions")
    cpu = [r["cpu"] for r in rows]
    print(f"ikeda CPU s/position: median {statistics.median(cpu):.2f} max {max(cpu):.2f}")


if __name__ == "__main__":
    main()
