"""``ikeda gtp``: the built-in Monte-Carlo bot as a GTP engine on stdin/stdout (for GoGui,
Sabaki, server bridges, or ``ikeda match``)."""

from __future__ import annotations

import argparse

from ..gtp.bot import MctsEngine
from ..rules import PRESET_NAMES, as_rules
from .output import Subparsers


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser("gtp", help="serve the built-in Monte-Carlo bot over GTP on stdin/stdout")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--playouts", type=int, default=None, help="playouts per move (default 10,000)")
    budget.add_argument("--seconds", type=float, default=0.0, help="seconds per move instead of a playout count")
    p.add_argument("--rules", default="area3", help=f"{', '.join(PRESET_NAMES)} or a rules string (default area3)")
    p.add_argument("--size", type=int, default=19, help="initial board size (default 19)")
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.playouts is not None and args.playouts < 1:
        raise SystemExit("ikeda gtp: --playouts must be positive")
    if args.seconds < 0:
        raise SystemExit("ikeda gtp: --seconds must not be negative")
    engine = MctsEngine(playouts=args.playouts, seconds=args.seconds, seed=args.seed, size=args.size, rules=as_rules(args.rules))
    engine.serve()
    return 0
