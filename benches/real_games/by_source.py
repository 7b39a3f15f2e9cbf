"""Status confirmation and Japanese counting on real finished games, one table row per
source, beside GNU Go 3.8's `final_status_list dead` + `final_score` on the same games.

    python benches/real_games/by_source.py NAME=DIR [NAME=DIR ...] [--sample N] [--jobs N]
        [--json OUT.jsonl] [--rows OUT.jsonl]

Each DIR holds SGF records with a counted result (``RE[B+3.5]``), one source each (for
example ``tygem=...  kgs-even=...  kgs-handicap=...  9x9=...``). ``--sample N`` takes N
records spread evenly over each source's files in name order (all when it has fewer).
Every record runs in a fresh process (so that its peak resident set is its own): ikeda
exactly as `real_games.py` (``unresolved="estimate"``, the record's komi and prisoners),
then GNU Go in a process of its own. ``--json`` keeps each record's row as it comes; a
later run into the same file runs only the records it lacks. ``--rows`` reports the rows
of an earlier ``--json`` run instead of running again.

Per source: records read, answered (a count came out), recorded winner, exact recorded
margin, games more than 10 points off the record, chains and stones proven (static or
searched: never estimated or conditional), games proven whole, CPU seconds per game
(median and maximum; ikeda: `japanese_score` in its process; GNU Go: both commands, from
/proc) and ikeda's largest peak resident set of one game's process.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import re
import resource
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import ikeda

sys.path.insert(0, str(Path(__file__).parent))
from gnugo_reference import Gtp, read  # noqa: E402
from real_games import analyse_or_refuse, recorded  # noqa: E402


def sample(files: list[Path], n: int) -> list[Path]:
    """n of `files` spread evenly over them (all of them when there are not more)."""
    if not n or len(files) <= n:
        return files
    return [files[i * len(files) // n] for i in range(n)]


def one(source: str, path: Path) -> dict[str, Any]:
    """ikeda's and GNU Go's reading of one record (run in a fresh process)."""
    row: dict[str, Any] = {"source": source, "file": path.name}
    got = analyse_or_refuse(path, budget=ikeda.status.BUDGET, playouts=ikeda.status.PLAYOUTS)
    if isinstance(got, tuple):
        row["refused"] = f"{got[1]}: {got[2]}"
    else:
        row.update(got)
    row["rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    gtp = Gtp()
    g = read(gtp, path)
    if "error" in g:
        gtp.proc.kill()
        gtp.proc.wait()
    else:
        gtp.close()
    row["gnugo_margin"] = recorded(g.get("score"))
    row["gnugo_seconds"] = g.get("dead_s", 0.0) + g.get("score_s", 0.0)
    if "refused" in row:  # the result as written, so that a refusal counts as unanswered
        m = re.search(r"RE\[([^\]]*)\]", path.read_text(errors="replace"))
        row["recorded"] = recorded(m.group(1) if m else None)
    return row


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}% ({a})" if b else "-"


def sign(x: float) -> int:
    return (x > 0) - (x < 0)


def table(rows: list[dict[str, Any]]) -> str:
    sources = list(dict.fromkeys(r["source"] for r in rows))
    head = ["", "records", "answered", "recorded winner", "exact margin", "more than 10 off", "chains proven",
            "stones proven", "proven whole", "CPU s median / max", "peak RSS MiB",
            "GNU Go answered", "GNU Go winner", "GNU Go exact", "GNU Go more than 10 off", "GNU Go CPU s median / max"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for s in sources:
        rs = [r for r in rows if r["source"] == s and r["recorded"] is not None]
        n = len(rs)
        ok = [r for r in rs if "margin" in r]
        gg = [r for r in rs if r["gnugo_margin"] is not None]
        cpu = [r["cpu"] for r in ok]
        gcpu = [r["gnugo_seconds"] for r in gg]
        cells = [
            s, str(n), pct(len(ok), n),
            pct(sum(sign(r["margin"]) == sign(r["recorded"]) for r in ok), n),
            pct(sum(r["margin"] == r["recorded"] for r in ok), n),
            str(sum(abs(r["margin"] - r["recorded"]) > 10 for r in ok)),
            pct(sum(r["chains_proven"] for r in ok), sum(r["chains"] for r in ok)),
            pct(sum(r["stones_proven"] for r in ok), sum(r["stones"] for r in ok)),
            str(sum(r["proven"] for r in ok)),
            f"{statistics.median(cpu):.2f} / {max(cpu):.2f}" if cpu else "-",
            f"{max(r['rss_mib'] for r in rs):.0f}" if rs else "-",
            pct(len(gg), n),
            pct(sum(sign(r["gnugo_margin"]) == sign(r["recorded"]) for r in gg), n),
            pct(sum(r["gnugo_margin"] == r["recorded"] for r in gg), n),
            str(sum(abs(r["gnugo_margin"] - r["recorded"]) > 10 for r in gg)),
            f"{statistics.median(gcpu):.2f} / {max(gcpu):.2f}" if gcpu else "-",
        ]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("sources", nargs="*", help="NAME=DIR")
    ap.add_argument("--sample", type=int, default=0, help="records per source, spread evenly")
    ap.add_argument("--jobs", type=int, default=1, help="records at a time, one process each")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--rows", type=Path, help="report the rows of an earlier --json run")
    args = ap.parse_args()
    if args.rows:
        rows = [json.loads(line) for line in args.rows.read_text().splitlines() if line.strip()]
    else:
        work: list[tuple[str, Path]] = []
        for spec in args.sources:
            name, _, folder = spec.partition("=")
            if not folder:
                ap.error(f"a source is NAME=DIR, not {spec!r}")
            work += [(name, f) for f in sample(sorted(Path(folder).glob("*.sgf")), args.sample)]
        # A fresh process per record: its peak resident set is that record's alone.
        ctx = multiprocessing.get_context("spawn")
        # Rows of an earlier run into the same --json are kept, and their records not run again.
        old = {}
        if args.json and args.json.exists():
            old = {(r["source"], r["file"]): r for r in map(json.loads, args.json.read_text().splitlines())}
        rows = [old[(w[0], w[1].name)] for w in work if (w[0], w[1].name) in old]
        todo = [w for w in work if (w[0], w[1].name) not in old]
        with ProcessPoolExecutor(args.jobs, mp_context=ctx, max_tasks_per_child=1) as pool, \
                (args.json or Path("/dev/null")).open("a") as out:
            for row in pool.map(one, [w[0] for w in todo], [w[1] for w in todo]):
                rows.append(row)
                out.write(json.dumps(row) + "\n")  # as each comes, so that a long run shows progress
                out.flush()
    for r in rows:
        if "refused" in r:
            print(f"refused {r['source']}/{r['file']}: {r['refused']}")
    print(table(rows))


if __name__ == "__main__":
    main()
