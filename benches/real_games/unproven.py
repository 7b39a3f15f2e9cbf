"""Why chains stay unproven on real finished games: a classification by the shapes around
them, for choosing what static rule to add to the credited groups (docs/status.md 2b-2d).

    python benches/real_games/unproven.py CORPUS_DIR [--limit N] [--show BUCKET]
        [--json OUT.jsonl]

Each record's final position is confirmed with ``unresolved="estimate"``; every chain
that is not proven (``proof`` neither "static" nor "searched") falls into the first
bucket that fits it:

- ``seki``: the estimate or the conditional search calls it seki;
- ``dead-big``, ``dead-small``, ``dead-open``: a chain called dead, inside an enclosed
  pocket of the other colour of more than 12 points, of at most 12, or in the open;
- ``pocket>50``, ``pocket13-50``: next to an enclosed pocket (one holding no chain the
  estimate calls alive) of that many points;
- ``two-small``: next to two or more small credits (eye points, and pockets of 2 to 12
  points) but not proven;
- ``conn-proven``, ``conn-unproven``: joined by a double connection (two empty points
  next to exactly the same chains of its colour) to a proven chain, or only to
  unproven ones;
- ``one-small``: one small credit or none, and no connection.

Printed: stones and chains per bucket over the corpus; with ``--show BUCKET``, each
such chain's game and stones (to pick examples to read).
"""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path
from typing import Any

import ikeda
from ikeda import sgf

COLS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def board_of(status: ikeda.status.StatusResult) -> tuple[int, int, dict[tuple[int, int], int]]:
    """(height, width, chain index by point) from the confirmation's chains."""
    h, w = len(status.status), len(status.status[0])
    at: dict[tuple[int, int], int] = {}
    for k, c in enumerate(status.chains):
        for v in c.stones:
            at[(h - int(v[1:]), COLS.index(v[0]))] = k
    return h, w, at


def classify(status: ikeda.status.StatusResult) -> list[tuple[str, int]]:
    """(bucket, chain index) for every unproven chain."""
    chains = status.chains
    h, w, at = board_of(status)

    def nbrs(p: tuple[int, int]) -> list[tuple[int, int]]:
        y, x = p
        return [(y + dy, x + dx) for dy, dx in ((1, 0), (-1, 0), (0, 1), (0, -1)) if 0 <= y + dy < h and 0 <= x + dx < w]

    colour_at = {p: chains[k].colour for p, k in at.items()}
    points = [(y, x) for y in range(h) for x in range(w)]
    pockets: dict[str, list[list[tuple[int, int]]]] = {}
    pocket_of: dict[tuple[str, tuple[int, int]], int] = {}
    for d in ("B", "W"):
        pockets[d] = []
        for p in points:
            if colour_at.get(p) == d or (d, p) in pocket_of:
                continue
            comp, stack = [], [p]
            pocket_of[(d, p)] = len(pockets[d])
            while stack:
                q = stack.pop()
                comp.append(q)
                for r in nbrs(q):
                    if colour_at.get(r) != d and (d, r) not in pocket_of:
                        pocket_of[(d, r)] = len(pockets[d])
                        stack.append(r)
            pockets[d].append(comp)

    def enclosed(d: str, i: int) -> bool:
        return all(chains[at[p]].status == "dead" for p in pockets[d][i] if p in at)

    def walls(d: str, i: int) -> set[int]:
        return {at[r] for q in pockets[d][i] for r in nbrs(q) if colour_at.get(r) == d}

    # Double connections: empty points next to the same two or more chains of a colour.
    by_set: dict[tuple[str, frozenset[int]], list[tuple[int, int]]] = collections.defaultdict(list)
    for p in points:
        if p in at:
            continue
        for d in ("B", "W"):
            ks = frozenset(at[r] for r in nbrs(p) if colour_at.get(r) == d)
            if len(ks) >= 2:
                by_set[(d, ks)].append(p)
    partners: dict[int, set[int]] = collections.defaultdict(set)
    for (_, ks), ps in by_set.items():
        if len(ps) >= 2:
            for k in ks:
                partners[k] |= ks - {k}

    out = []
    for k, c in enumerate(chains):
        if c.proven:
            continue
        d, a = c.colour, "W" if c.colour == "B" else "B"
        stones = [p for p, j in at.items() if j == k]
        if c.status == "seki":
            out.append(("seki", k))
            continue
        if c.status == "dead":
            i = pocket_of[(a, stones[0])]
            size = len(pockets[a][i])
            if not enclosed(a, i) and any(chains[at[p]].status != "dead" and chains[at[p]].colour == d for p in pockets[a][i] if p in at):
                out.append(("dead-open", k))
            else:
                out.append(("dead-big" if size > 12 else "dead-small", k))
            continue
        mine = sorted({pocket_of[(d, r)] for q in stones for r in nbrs(q) if colour_at.get(r) != d})
        sizes = [len(pockets[d][i]) for i in mine if enclosed(d, i)]
        if any(s > 50 for s in sizes):
            out.append(("pocket>50", k))
        elif any(s > 12 for s in sizes):
            out.append(("pocket13-50", k))
        elif sum(1 for i in mine if len(pockets[d][i]) <= 12 and (len(pockets[d][i]) > 1 or pockets[d][i][0] not in at)) >= 2:
            out.append(("two-small", k))
        elif partners[k]:
            out.append(("conn-proven" if any(chains[j].proven for j in partners[k]) else "conn-unproven", k))
        else:
            out.append(("one-small", k))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--show", default="")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    files = sorted(args.corpus.glob("*.sgf"))
    if args.limit:
        files = files[: args.limit]
    total: collections.Counter[str] = collections.Counter()
    nchains: collections.Counter[str] = collections.Counter()
    rows: list[dict[str, Any]] = []
    all_stones = proven_stones = all_chains = proven_chains = 0
    for f in files:
        rec = sgf.read(f.read_text(errors="replace"))
        game = rec.replay(rules="japanese", tolerant=True)
        st = ikeda.confirm_status(game, unresolved="estimate")
        all_stones += sum(len(c.stones) for c in st.chains)
        proven_stones += sum(len(c.stones) for c in st.chains if c.proven)
        all_chains += len(st.chains)
        proven_chains += sum(c.proven for c in st.chains)
        for bucket, k in classify(st):
            c = st.chains[k]
            total[bucket] += len(c.stones)
            nchains[bucket] += 1
            rows.append({"file": f.name, "bucket": bucket, "colour": c.colour, "stones": c.stones})
            if bucket == args.show:
                print(f.name, c.colour, " ".join(c.stones))
    print(f"games {len(files)}: stones proven {proven_stones}/{all_stones}, chains proven {proven_chains}/{all_chains}")
    for bucket in sorted(total, key=lambda b: -total[b]):
        print(f"  {bucket:14s} {total[bucket]:6d} stones {nchains[bucket]:5d} chains")
    if args.json:
        args.json.write_text("".join(json.dumps(r) + "\n" for r in rows))


if __name__ == "__main__":
    main()
