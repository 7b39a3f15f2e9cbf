"""``ikeda analysis``: the built-in search behind KataGo's JSON analysis-engine protocol on
stdin/stdout, for KaTrain (its ``altcommand``) and other clients of that protocol."""

from __future__ import annotations

import argparse
import io
import sys

from ..gtp.bot import MAX_PLAYOUTS
from ..gtp.katago_json import DEFAULT_VISITS, AnalysisEngine
from ..limits import MAX_SEED
from .output import Subparsers, whole_number


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser("analysis", help="serve the built-in search as KataGo's JSON analysis engine (for KaTrain)")
    p.add_argument(
        "--visits", type=whole_number(1, MAX_PLAYOUTS), default=DEFAULT_VISITS,
        help=f"playouts of a query that gives no maxVisits (default {DEFAULT_VISITS:,})",
    )
    p.add_argument("--seed", type=whole_number(0, MAX_SEED), default=1)
    # KataGo's own options, which a client written for `katago analysis` may pass: accepted
    # and ignored (there is no network and no config file).
    for name in ("-model", "-config", "-human-model", "-override-config"):
        p.add_argument(name, default=None, help=argparse.SUPPRESS)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    # Bytes that are not UTF-8 become a query that does not parse, answered as an error.
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    AnalysisEngine(sys.stdout, seed=args.seed, default_visits=args.visits).serve(stdin)
    return 0
