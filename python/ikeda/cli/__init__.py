"""``ikeda`` / ``python -m ikeda``: the command line, one module per command.

``ikeda simulate`` (the default) plays many random games natively and summarises them;
``ikeda summary`` summarises a Parquet dataset of them;
``ikeda replay`` validates and scores game records; ``ikeda render`` draws a position;
``ikeda gtp`` serves the built-in bot over GTP; ``ikeda match`` referees engines.
``ikeda conform`` checks another engine's rules against ikeda's; ``ikeda vectors``
writes test vectors for rules kernels; ``ikeda regress`` runs GNU Go's regression files;
``ikeda bench`` times ikeda beside the peer kernels that are installed.
``ikeda analysis`` serves the search as KataGo's JSON analysis engine (for KaTrain).
Each command module has ``add_parser(sub)``, which adds its subparser and sets
``args.run`` to its ``run(args) -> int``.
"""

from __future__ import annotations

import argparse
import sys

from ..errors import IkedaError
from . import gtp, match, render, replay, simulate, summary
from . import conform, regress, vectors
from . import bench
from . import analysis

#: The commands in the order ``--help`` lists them; the first is the default.
COMMANDS = (simulate, summary, replay, render, gtp, match, conform, vectors, regress, bench, analysis)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ikeda", description="Go under Ikeda's rules, fast.")
    sub = parser.add_subparsers(dest="command")
    for command in COMMANDS:
        command.add_parser(sub)
    words = sys.argv[1:] if argv is None else argv
    if not words or words[0] not in (*sub.choices, "-h", "--help"):
        words = ["simulate", *words]  # simulate is the default command
    args = parser.parse_args(words)
    try:
        return int(args.run(args))
    except IkedaError as e:
        print(f"ikeda: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("ikeda: interrupted", file=sys.stderr)
        return 130
