"""``ikeda gtp``: the built-in Monte-Carlo bot as a GTP engine on stdin/stdout (for GoGui,
Sabaki, server bridges, or ``ikeda match``)."""

from __future__ import annotations

import argparse

from ..gtp.bot import MAX_PLAYOUTS, MctsEngine
from ..limits import MAX_SEED, MAX_SIDE
from ..rules import PRESET_NAMES, as_rules
from .output import Subparsers, seconds, whole_number


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser("gtp", help="serve the built-in Monte-Carlo bot over GTP on stdin/stdout")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--playouts", type=whole_number(1, MAX_PLAYOUTS), default=None, help="playouts per move (default 10,000)")
    budget.add_argument("--seconds", type=seconds, default=0.0, help="seconds per move instead of a playout count (up to 86,400)")
    p.add_argument("--rules", default="area3", help=f"{', '.join(PRESET_NAMES)} or a rules string (default area3)")
    p.add_argument("--size", type=whole_number(1, MAX_SIDE), default=19, help="initial board size (default 19)")
    p.add_argument("--seed", type=whole_number(0, MAX_SEED), default=1)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    engine = MctsEngine(playouts=args.playouts, seconds=args.seconds, seed=args.seed, size=args.size, rules=as_rules(args.rules))
    engine.serve()
    return 0
