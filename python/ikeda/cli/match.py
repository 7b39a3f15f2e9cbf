"""``ikeda match``: the referee's command line, with a rich progress bar, the results
table and ``--json``."""

from __future__ import annotations

import argparse
import json
import signal
import sys

from rich.console import Console
from rich.table import Table

from ..errors import IkedaError
from ..gtp.controller import check_timeout
from ..limits import MAX_SIDE
from ..match import EngineStats, GameResult, MatchResult, check_folder, run_match
from ..rules import PRESET_NAMES, as_rules
from .output import Subparsers, progress_bar, whole_number

#: The most games one match plays (a bound on the run, not on memory: results are kept).
MAX_GAMES = 1_000_000


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser("match", help="referee games between two GTP engines under ikeda's rules")
    p.add_argument("--black", required=True, help="engine A's command (Black in the first game)")
    p.add_argument("--white", required=True, help="engine B's command (White in the first game)")
    p.add_argument("--games", type=whole_number(1, MAX_GAMES), default=2, help="number of games; colours alternate (default 2)")
    p.add_argument("--size", type=whole_number(1, MAX_SIDE), default=9, help="board size (default 9)")
    p.add_argument("--rules", default="area3", help=f"{', '.join(PRESET_NAMES)} or a rules string")
    p.add_argument("--komi", type=float, default=None, help="komi (default: the ruleset's, 6.5)")
    p.add_argument("--timeout", type=float, default=30.0, help="seconds per move (default 30)")
    p.add_argument("--sgf-dir", help="write each game's SGF here as it ends")
    p.add_argument("--transcript", help="append the GTP traffic of both engines to this file")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rules = as_rules(args.rules)
    if args.komi is not None:
        rules = rules.replace(komi=args.komi)
    check_timeout(args.timeout)
    if args.sgf_dir is not None:
        check_folder(args.sgf_dir)
    console = Console(stderr=True)
    try:
        transcript = open(args.transcript, "a", encoding="utf-8") if args.transcript else None
    except OSError as e:
        raise IkedaError(f"cannot write {args.transcript}: {e.strerror}") from None
    # The engines run in their own sessions, so a hangup or a kill of the referee does not
    # reach them: both signals end the match through the code that stops the engines.
    previous = {sig: signal.signal(sig, _stop) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        with progress_bar("match", "{task.fields[standing]}", console, quiet=args.quiet) as progress:
            task = progress.add_task("games", total=args.games, standing="")

            def advance(r: GameResult, stats: dict[str, EngineStats]) -> None:
                a, b = stats["A"], stats["B"]
                standing = f"A {a.wins} – B {b.wins}" + (f" ({a.draws} drawn)" if a.draws else "") + f"  last: {r.result}"
                progress.update(task, advance=1, standing=standing)

            result = run_match(
                args.black, args.white, games=args.games, size=args.size, rules=rules,
                timeout=args.timeout, sgf_dir=args.sgf_dir, transcript=transcript, on_game=advance,
            )
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if transcript is not None:
            transcript.close()
    if args.json:
        json.dump(result.to_json(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        Console().print(table(result))
    return 0


def _stop(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def table(result: MatchResult) -> Table:
    """Wins per engine with a 95% (Wilson) confidence interval, the mean margin of the counted games from the engine's side, forfeits, and how often it passed first (and won)."""
    n = len(result.games)
    t = Table(title=f"{n} games, {result.size}x{result.size}, {result.rules}")
    names = [f"{label}: {s.name}" for label, s in result.engines.items()]
    t.add_column("engine", no_wrap=True, min_width=max(len(n) for n in names))
    for col in ("wins B/W", "draws", "score, 95% CI", "margin", "forfeits", "first pass (won)"):
        t.add_column(col, justify="right")
    for name, s in zip(names, result.engines.values()):
        lo, hi = s.interval()
        margin = "-" if s.mean_margin is None else f"{s.mean_margin:+.1f}"
        t.add_row(
            name, f"{s.wins} ({s.wins_black}/{s.wins_white})", str(s.draws),
            f"{s.score:.0%} [{lo:.0%}, {hi:.0%}]", margin, str(s.forfeits), f"{s.passed_first} ({s.passed_first_won})",
        )
    reasons: dict[str, int] = {}
    for g in result.games:
        reasons[g.reason] = reasons.get(g.reason, 0) + 1
    t.caption = "ends: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items()))
    return t
