"""Status confirmation on real finished games: how much is proven, how often the count
gives the recorded result, and GNU Go's reading of the same games beside it.

    python benches/real_games/real_games.py CORPUS_DIR [--gnugo GNUGO.jsonl] [--limit N]
        [--budget STATES] [--playouts N] [--jobs N] [--json OUT.jsonl] [--rows OUT.jsonl]

CORPUS_DIR holds SGF records with a counted result (``RE[B+3.5]``); `tygem.py` in this
folder builds one from a public collection, `gnugo_reference.py` runs GNU Go on it. Each
record is replayed with `ikeda.sgf`, its final position confirmed with
``unresolved="estimate"`` and counted Japanese-style with the record's komi and
prisoners. Figures printed: games fully proven, stones proven, recorded winner and exact
margin (ours and GNU Go's), records with dame left, stones decided by the conditional
search, time per game (wall clock, median and maximum, and the CPU time of all threads,
which a loaded machine does not inflate). Files the reader refuses are counted and
skipped. ``--rows`` reports the rows of an earlier ``--json`` run instead of confirming
again (joined with ``--gnugo`` when given), so GNU Go's reading may finish later.
``--jobs N`` confirms N records at a time, one process each (the corpus's wall time is
printed; set ``RAYON_NUM_THREADS=1`` so that the processes do not share the cores twice).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import ikeda
from ikeda import sgf


def recorded(result: str | None) -> float | None:
    """The recorded margin (Black minus White), or None for a result that is not a count."""
    m = re.fullmatch(r"([BW])\+(\d+(?:\.\d+)?)", (result or "").strip())
    if not m:
        return None
    return float(m.group(2)) * (1 if m.group(1) == "B" else -1)


def dame_left(js: ikeda.status.JapaneseScore) -> int:
    """Empty points of the final board, dead stones removed, that touch both colours or
    seki stones: neutral points the record did not fill (a record that stops before the
    last of them may also stop before a forced connection, which costs a point)."""
    terr = js.status.territory
    rows = js.status.status
    h, w = len(rows), len(rows[0])
    n = 0
    for y in range(h):
        for x in range(w):
            if rows[y][x] in ".d" and terr[y][x] == ".":
                n += 1
    return n


def analyse(path: Path, budget: int, playouts: int) -> dict[str, Any]:
    rec = sgf.read(path.read_text(errors="replace"))
    want = recorded(rec.main_line[0].get("RE"))
    game = rec.replay(rules="japanese", tolerant=True)
    t0, c0 = time.perf_counter(), time.process_time()
    js = ikeda.japanese_score(game, unresolved="estimate", budget=budget, playouts=playouts)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    chains = js.status.chains
    stones = sum(len(c.stones) for c in chains)
    return {
        "file": path.name, "size": game.width, "recorded": want, "margin": js.margin, "seconds": seconds, "cpu": cpu,
        "proven": js.proven, "stones": stones, "stones_proven": sum(len(c.stones) for c in chains if c.proven),
        "stones_static": sum(len(c.stones) for c in chains if c.proof == "static"),
        "chains": len(chains), "chains_proven": sum(c.proven for c in chains),
        "stones_conditional": sum(len(c.stones) for c in chains if c.proof == "conditional"),
        "seki": sum(len(c.stones) for c in chains if c.status == "seki"),
        "dead": js.dead_stones, "dame": dame_left(js),
        "unresolved": [(u.size, u.why) for u in js.status.unresolved],
    }


def analyse_or_refuse(path: Path, budget: int, playouts: int) -> dict[str, Any] | tuple[str, str, str]:
    try:
        return analyse(path, budget, playouts)
    except ikeda.IkedaError as e:
        return (path.name, type(e).__name__, str(e)[:120])


def pct(a: int, b: int) -> str:
    return f"{a}/{b} ({100 * a / b:.1f}%)" if b else "0/0"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--gnugo", type=Path)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--budget", type=int, default=ikeda.status.BUDGET)
    ap.add_argument("--playouts", type=int, default=ikeda.status.PLAYOUTS)
    ap.add_argument("--jobs", type=int, default=1, help="records confirmed at a time, one process each")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--rows", type=Path, help="report the rows of an earlier --json run")
    args = ap.parse_args()
    files = sorted(args.corpus.glob("*.sgf"))
    gnugo: dict[str, dict[str, Any]] = {}
    if args.gnugo:
        for line in args.gnugo.read_text().splitlines():
            g = json.loads(line)
            if "score" in g:
                gnugo[g["file"]] = g
        files = [f for f in files if f.name in gnugo]
    if args.limit:
        files = files[: args.limit]
    rows: list[dict[str, Any]] = []
    refused: list[tuple[str, str, str]] = []
    if args.rows:
        names = {f.name for f in files}
        rows = [r for r in map(json.loads, args.rows.read_text().splitlines()) if r["file"] in names]
    else:
        one = partial(analyse_or_refuse, budget=args.budget, playouts=args.playouts)
        t0 = time.perf_counter()
        if args.jobs > 1:
            with ProcessPoolExecutor(args.jobs) as pool:
                results = list(pool.map(one, files, chunksize=4))
        else:
            results = [one(f) for f in files]
        print(f"corpus wall time: {time.perf_counter() - t0:.1f} s ({args.jobs} at a time)")
        for row in results:
            if isinstance(row, tuple):
                refused.append(row)
            elif row["recorded"] is not None:
                rows.append(row)
    for row in rows:
        g = gnugo.get(row["file"])
        if g is not None:
            row["gnugo_margin"] = recorded(g["score"])
            row["gnugo_seconds"] = g["dead_s"] + g["score_s"]
    if args.json:
        args.json.write_text("".join(json.dumps(r) + "\n" for r in rows))
    report(rows, refused)


def report(rows: list[dict[str, Any]], refused: list[tuple[str, str, str]]) -> None:
    n = len(rows)
    sign = lambda x: (x > 0) - (x < 0)  # noqa: E731
    print(f"games counted: {n} (reader or replay refused {len(refused)})")
    for name, kind, why in refused[:10]:
        print(f"  refused {name}: {kind}: {why}")
    print("fully proven games:", pct(sum(r["proven"] for r in rows), n))
    print("stones proven:", pct(sum(r["stones_proven"] for r in rows), sum(r["stones"] for r in rows)),
          "of which static:", sum(r["stones_static"] for r in rows))
    print("chains proven:", pct(sum(r["chains_proven"] for r in rows), sum(r["chains"] for r in rows)))
    print("games with over half their chains proven:", pct(sum(2 * r["chains_proven"] > r["chains"] for r in rows), n),
          "over half their stones:", pct(sum(2 * r["stones_proven"] > r["stones"] for r in rows), n))
    print("ikeda winner:", pct(sum(sign(r["margin"]) == sign(r["recorded"]) for r in rows), n))
    print("ikeda exact margin:", pct(sum(r["margin"] == r["recorded"] for r in rows), n))
    print("ikeda within 1 point:", pct(sum(abs(r["margin"] - r["recorded"]) <= 1 for r in rows), n))
    proven = [r for r in rows if r["proven"]]
    print("exact margin on fully proven games:", pct(sum(r["margin"] == r["recorded"] for r in proven), len(proven)))
    g = [r for r in rows if r.get("gnugo_margin") is not None]
    if g:
        print("GNU Go winner:", pct(sum(sign(r["gnugo_margin"]) == sign(r["recorded"]) for r in g), len(g)))
        print("GNU Go exact margin:", pct(sum(r["gnugo_margin"] == r["recorded"] for r in g), len(g)))
        print("GNU Go within 1 point:", pct(sum(abs(r["gnugo_margin"] - r["recorded"]) <= 1 for r in g), len(g)))
        print("both exact:", sum(r["gnugo_margin"] == r["recorded"] == r["margin"] for r in g),
              "only ikeda:", sum(r["margin"] == r["recorded"] != r["gnugo_margin"] for r in g),
              "only GNU Go:", sum(r["gnugo_margin"] == r["recorded"] != r["margin"] for r in g))
        gs = [r["gnugo_seconds"] for r in g]
        print(f"GNU Go CPU s/game (final_status_list + final_score): median {statistics.median(gs):.2f} max {max(gs):.2f}")
    print("records with neutral points left:", pct(sum(r["dame"] > 0 for r in rows), n))
    print("seki stones found:", sum(r["seki"] for r in rows), "in", sum(r["seki"] > 0 for r in rows), "games")
    ts = [r["seconds"] for r in rows]
    if ts:
        print(f"ikeda wall s/game: median {statistics.median(ts):.3f} max {max(ts):.3f}")
        cs = [r["cpu"] for r in rows]
        print(f"ikeda CPU s/game (all threads): median {statistics.median(cs):.3f} max {max(cs):.3f}")
    print("stones decided by the conditional search:", sum(r["stones_conditional"] for r in rows))


if __name__ == "__main__":
    main()
