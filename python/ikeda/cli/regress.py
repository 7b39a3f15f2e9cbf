"""``ikeda regress FILE.tst --engine CMD``: runs a GNU Go regression file against any GTP
engine (docs/conformance.md, "GNU Go's regression files"). Exit status 0 when no case
fails unexpectedly, 1 when one does, 2 when the engine fails."""

from __future__ import annotations

import argparse

from ..conform.regress import run as run_file
from ..gtp.controller import GtpController
from .output import Subparsers, seconds


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser("regress", help="run a GNU Go regression file (.tst) against a GTP engine")
    p.add_argument("files", nargs="+", metavar="FILE.tst")
    p.add_argument("--engine", required=True, help='the engine\'s command line, e.g. "ikeda gtp --rules japanese"')
    p.add_argument("--timeout", type=seconds, default=60.0, help="seconds per GTP command (default 60)")
    p.add_argument("--verbose", "-v", action="store_true", help="list every case, not only the failures")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    worst = 0
    for path in args.files:
        with GtpController(args.engine, timeout=args.timeout or 60.0) as engine:
            report = run_file(path, engine)
        for c in report.cases:
            if args.verbose or c.verdict in ("fail", "unexpected pass"):
                print(f"{path}:{c.line}: {c.number} {c.verdict.upper()}: {c.command!s} -> {c.reply!r}, expected [{c.expected}]")
        print(f"{path}: {report.count('pass')} passed, {report.count('fail')} failed, "
              f"{report.count('expected fail')} expected failures, {report.count('unexpected pass')} unexpected passes, "
              f"{report.count('ignored')} ignored")
        worst = max(worst, report.exit_code)
    return worst
