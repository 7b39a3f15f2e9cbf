"""``ikeda conform``: checks a GTP engine's rules against ikeda's, move by move, or a
Python kernel's in process through its adapter (docs/conformance.md). Exit status 0 when
everything checked agrees, 1 when something diverges, 2 when the engine fails (or the
arguments are wrong)."""

from __future__ import annotations

import argparse
import sys

from ..conform import CHECKS, Checker, GtpKernel, Kernel, NotApplicable
from ..conform.adapters import ADAPTERS
from ..limits import MAX_SEED, MAX_SIDE
from ..rules import PRESET_NAMES, as_rules
from .output import Subparsers, seconds, whole_number


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser("conform", help="check a GTP engine's (or a Python kernel's) rules against ikeda's, move by move")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--engine", help='the engine\'s command line, e.g. "gnugo --mode gtp"')
    which.add_argument("--kernel", choices=sorted(ADAPTERS),
                       help="a Python kernel checked in process through its adapter (its extra installed)")
    p.add_argument("--rules", default="area3",
                   help=f"the rules the engine plays: {', '.join(PRESET_NAMES)} or a rules string (default area3)")
    p.add_argument("--size", type=whole_number(2, MAX_SIDE), default=9, help="board size (default 9)")
    p.add_argument("--games", type=whole_number(1, 1_000_000), default=20, help="random games (default 20)")
    p.add_argument("--seed", type=whole_number(0, MAX_SEED), default=1)
    p.add_argument("--checks", default=",".join(CHECKS), help=f"what to compare, of {','.join(CHECKS)} (default all)")
    p.add_argument("--timeout", type=seconds, default=30.0, help="seconds per GTP command (default 30)")
    p.add_argument("--minimise-seconds", type=seconds, default=60.0, help="time to minimise each divergence (default 60)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rules = as_rules(args.rules)
    checks = tuple(c.strip() for c in args.checks.split(",") if c.strip())
    kernel: Kernel = ADAPTERS[args.kernel]() if args.kernel else GtpKernel(args.engine, timeout=args.timeout or 30.0)
    try:
        try:
            checker = Checker(kernel, rules, args.size, seed=args.seed, checks=checks, minimise_seconds=args.minimise_seconds)
        except NotApplicable as e:
            print(f"not applicable: {e}")
            return 0
        report = checker.run(args.games)
    finally:
        kernel.close()
    out = sys.stdout
    print(f"{report.kernel} against ikeda under {rules} on {args.size}x{args.size}: {report.games} games, "
          f"{report.positions} positions, {report.moves} moves in {report.seconds:.1f} s "
          f"({60 * report.positions / max(report.seconds, 1e-9):,.0f} positions a minute)", file=out)
    print(f"checked: {', '.join(report.checks) or 'nothing'}", file=out)
    for check, why in report.not_applicable.items():
        print(f"not applicable: {check} ({why})", file=out)
    for n, d in enumerate(report.divergences, 1):
        f = d.finding
        print(f"\ndivergence {n}: {f.check}, rule {f.rule}{' at ' + f.point if f.point else ''} "
              f"(seen {d.count} time{'s' if d.count != 1 else ''}; {len(d.moves)} moves"
              f"{'' if d.minimised else ', not minimised: the divergence did not show again on a replay'}, "
              f"from a game of {d.found_after})", file=out)
        print(f"  ikeda:  {f.ikeda}\n  {report.kernel}: {f.kernel}", file=out)
        print(d.diagram, file=out)
        print(d.sgf, file=out)
    print("\nresult: " + (f"{len(report.divergences)} divergence(s)" if report.divergences else "agrees"), file=out)
    return report.exit_code
