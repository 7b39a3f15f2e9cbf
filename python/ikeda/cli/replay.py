"""``ikeda replay FILES...``: validate and score game records natively in parallel, with
a progress bar and a summary table, or ``--json`` per file; each record's recorded
result (``RE``) beside our count, and whether they agree."""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import time
from collections import Counter
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..errors import IkedaError
from ..rules import PRESET_NAMES
from ..sgf import ReplayResult, replay_iter, replay_many, result_is_count
from .output import Subparsers, key_value_table, progress_bar, threads

#: Problems listed under the summary (all of them are in ``--json``).
SHOWN = 20


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser("replay", help="replay SGF records under a ruleset: first illegal move, score")
    p.add_argument("files", nargs="+", help="SGF files, or directories searched for *.sgf (any case)")
    p.add_argument("--rules", default=None, help=f"force {', '.join(PRESET_NAMES)} or a rules string (default: each record's RU)")
    p.add_argument("--threads", type=threads, default=0, help="'auto' (every core) or a number")
    p.add_argument("--json", action="store_true", help="print one JSON object per file instead of tables")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--tolerant", action="store_true", help="skip refused moves and apply mid-game setup instead of stopping (reported as problems)")
    p.set_defaults(run=run)


def sgf_files(names: list[str]) -> list[Path]:
    """The files named, directories expanded to their regular files named ``*.sgf`` in
    any case (``*.SGF`` is how Fox and Tygem name them), sorted. Inside a directory,
    what is not a regular file (a FIFO, a link to a device) is skipped; a file named
    outright is kept and reported by the replay if it cannot be read."""
    out: list[Path] = []
    for name in names:
        p = Path(name)
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*") if q.suffix.lower() == ".sgf" and _regular(q)))
        else:
            out.append(p)
    return out


def _regular(p: Path) -> bool:
    try:
        return p.is_file()
    except OSError:
        return False


def run(args: argparse.Namespace) -> int:
    files = sgf_files(args.files)
    if not files:
        raise IkedaError("no SGF files found")
    chunk = max(200, min(5_000, len(files) // 50 or 1))
    if args.json:
        # Streamed: each line as its record is ready (native chunks first, the Python
        # path's records as they finish), so the order is not the files' order.
        ok = True
        for r in replay_iter(files, rules=args.rules, threads=args.threads, chunk=chunk, tolerant=args.tolerant):
            print(json_line(r), flush=True)
            ok = ok and r.ok
        return 0 if ok else 1
    err = Console(stderr=True)
    start = time.perf_counter()
    with progress_bar("replaying", "{task.fields[rate]} records/s", err, quiet=args.quiet) as progress:
        task = progress.add_task("records", total=len(files), rate="-")

        def advance(done: int) -> None:
            elapsed = progress.tasks[0].elapsed or 1e-9
            progress.update(task, completed=done, rate=f"{done / elapsed:,.0f}")

        results = replay_many(files, rules=args.rules, threads=args.threads, chunk=chunk, on_chunk=advance, tolerant=args.tolerant)
    seconds = time.perf_counter() - start
    out = Console()
    out.print(summary(results, seconds, args.rules))
    out.print(by_ruleset(results))
    bad = [r for r in results if not r.ok]
    if bad:
        out.print(problems(bad))
    return 0 if all(r.ok for r in results) else 1


def json_line(r: ReplayResult) -> str:
    """One record's ``--json`` line: the :class:`ReplayResult`'s fields, our ``result``
    and the :func:`agreement` with the recorded one."""
    illegal = None if r.illegal is None else r.illegal._asdict()
    return json.dumps({**dataclasses.asdict(r), "illegal": illegal, "result": r.result, **agreement(r)}, ensure_ascii=False)


def summary(results: list[ReplayResult], seconds: float, rules: str | None) -> Table:
    counts = Counter(r.status for r in results)
    scored = [r for r in results if r.black is not None and r.white is not None]
    wins = Counter((r.result or "?")[0] for r in scored)
    rows = [
        ("replayed to the end", f"{counts['ok']:,}"),
        ("stopped at an illegal move", f"{counts['illegal']:,}"),
        ("malformed (SGF errors)", f"{counts['sgf_error']:,}"),
        ("impossible setup", f"{counts['bad_setup']:,}"),
        ("unreadable", f"{counts['unreadable']:,}"),
        ("count of the board reached: B / W / draw", f"{wins['B']:,} / {wins['W']:,} / {wins['0']:,}"),
    ]
    japanese = [r.estimated for r in scored if r.estimated is not None]
    if japanese:  # status confirmation decided these counts: say how much of it is proven
        rows.append(("Japanese counts: every status proven / some estimated", f"{japanese.count(0):,} / {len(japanese) - japanese.count(0):,}"))
    rows += [
        ("moves replayed", f"{sum(r.moves for r in results):,}"),
        ("records/s", f"{len(results) / max(seconds, 1e-9):,.0f}"),
        ("time", f"{seconds:.2f} s"),
    ]
    return key_value_table(f"{len(results):,} records, rules: {rules or 'from RU (else area3)'}", rows)


def problems(bad: list[ReplayResult]) -> Table:
    t = Table(title=f"problems ({len(bad):,}{f', first {SHOWN} shown' if len(bad) > SHOWN else ''})")
    t.add_column("file", overflow="fold")  # never cut: a file name is what the user looks for
    for c in ("status", "where", "what"):
        t.add_column(c, overflow="fold")
    for r in bad[:SHOWN]:
        if r.illegal is not None:
            where, what = f"move {r.illegal.number}", f"{r.illegal.color} {r.illegal.vertex}: {r.illegal.reason}"
        else:
            where, what = (f"line {r.line}, column {r.column}" if r.line else ""), r.error or ""
        t.add_row(escape(r.path), r.status, where, escape(what))
    return t


def recorded_outcome(recorded: str | None) -> tuple[str | None, float | None]:
    """The winner (``"B"``, ``"W"``, ``"0"`` for a draw) and margin (None when not a count)
    of a recorded result, or (None, None) when it names no winner (``?``, ``Void``)."""
    text = (recorded or "").strip()
    if result_is_count(text):
        m = re.match(r"([BW])\s*\+\s*([\d.]+)", text, re.IGNORECASE)
        if m is None or float(m.group(2)) == 0:
            return "0", 0.0
        return m.group(1).upper(), float(m.group(2))
    m = re.match(r"([BW])\s*\+", text, re.IGNORECASE)
    return (m.group(1).upper(), None) if m else (None, None)


def agreement(r: ReplayResult) -> dict[str, object]:
    """Whether our count agrees with the recorded result: ``winner_agrees`` and
    ``margin_agrees`` are None where there is nothing to compare (no count on either side:
    a resignation, a loss on time, an unknown result, or a record not replayed to its
    end)."""
    winner, margin = recorded_outcome(r.recorded)
    ours = r.result
    if margin is None or ours is None or not r.ok:
        return {"winner_agrees": None, "margin_agrees": None}
    our_winner, our_margin = recorded_outcome(ours)
    return {"winner_agrees": our_winner == winner, "margin_agrees": our_winner == winner and our_margin == margin}


def by_ruleset(results: list[ReplayResult]) -> Table:
    """Agreement of our count with the recorded counts, per ruleset replayed under."""
    t = Table(title="our count against the recorded result, by ruleset")
    for c in ("rules", "records", "recorded counts", "counted by us", "same winner", "same margin"):
        t.add_column(c, justify="left" if c == "rules" else "right")
    groups: dict[str, list[ReplayResult]] = {}
    for r in results:
        groups.setdefault(r.rules or "(not replayed)", []).append(r)
    for name, rs in sorted(groups.items()):
        counted = [r for r in rs if result_is_count(r.recorded)]
        marks = [agreement(r) for r in counted]
        compared = [m for m in marks if m["winner_agrees"] is not None]
        t.add_row(
            name, f"{len(rs):,}", f"{len(counted):,}", f"{len(compared):,}",
            f"{sum(bool(m['winner_agrees']) for m in compared):,}", f"{sum(bool(m['margin_agrees']) for m in compared):,}",
        )
    return t
