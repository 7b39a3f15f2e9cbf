"""``ikeda`` / ``python -m ikeda``: the command line.

``ikeda simulate`` (the default) plays many random games natively and summarises them;
``ikeda replay`` validates and scores game records; ``ikeda render`` draws a position;
``ikeda gtp`` serves the built-in bot over GTP; ``ikeda match`` referees engines.
"""

from __future__ import annotations

import argparse
import os
import sys

from .errors import IkedaError
from .rules import PRESET_NAMES


def _threads(text: str) -> int:
    if text == "auto":
        return 0
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError("threads must be 'auto' or a positive number")
    return n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ikeda", description="Go under Ikeda's rules, fast.")
    sub = parser.add_subparsers(dest="command")
    sim = sub.add_parser("simulate", help="play random games natively and summarise them (default)")
    sim.add_argument("--size", type=int, default=9, help="board size (default 9)")
    sim.add_argument("--games", type=int, default=20_000, help="number of games (default 20,000)")
    sim.add_argument("--rules", default="area3", help=f"{', '.join(PRESET_NAMES)} or a rules string")
    sim.add_argument("--komi", type=float, default=None, help="komi (default: the ruleset's, 6.5)")
    sim.add_argument("--threads", type=_threads, default=0, help="'auto' (every core) or a number")
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--pass-probability", type=float, default=0.0, help="chance of a pass each move")
    sim.add_argument("--out", help="write per-game arrays to this .npz")
    sim.add_argument("--plot", help="write a PNG of the margin distribution by first passer")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    from . import match_report, render_cli, replay_cli
    from .gtp import cli as gtp_cli

    replay_cli.add_parser(sub, _threads)
    render_cli.add_parser(sub)
    for command in (gtp_cli, match_report):  # each adds its parser and sets args.run
        command.add_parser(sub)
    words = sys.argv[1:] if argv is None else argv
    if not words or words[0] not in (*sub.choices, "-h", "--help"):
        words = ["simulate", *words]  # simulate is the default command
    args = parser.parse_args(words)
    try:
        from .report import run_simulate

        run = getattr(args, "run", run_simulate)
        return int(run(args))
    except IkedaError as e:
        print(f"ikeda: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
