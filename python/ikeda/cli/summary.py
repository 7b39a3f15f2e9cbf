"""``ikeda summary DIR``: the summary table (one row per cell of a sweep) and the margin
plot of a Parquet dataset written by ``ikeda simulate --out DIR/``, read a record batch at
a time, so a dataset of any size fits."""

from __future__ import annotations

import argparse

from rich.console import Console

from .output import Subparsers
from .report import print_dataset


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser("summary", help="summarise a Parquet dataset of random games (ikeda simulate --out DIR/)")
    p.add_argument("directory", help="the dataset's directory")
    p.add_argument("--plot", help="write a PNG of the margin distribution by first passer, one panel per cell")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return print_dataset(args.directory, None, args.plot, Console(stderr=True))
