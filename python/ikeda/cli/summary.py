"""``ikeda summary DIR``: the summary table (one row per cell of a sweep) and the margin
plot of a Parquet dataset written by ``ikeda simulate --out DIR/``, read a record batch at
a time, so a dataset of any size fits."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence

from rich.console import Console

from ..shards import Cell
from .output import Subparsers
from .simulate import plot, plot_output, show, summary


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser("summary", help="summarise a Parquet dataset of random games (ikeda simulate --out DIR/)")
    p.add_argument("directory", help="the dataset's directory")
    p.add_argument("--plot", help="write a PNG of the margin distribution by first passer, one panel per cell")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return print_dataset(args.directory, None, args.plot, Console(stderr=True))


def print_dataset(directory: str, only: Sequence[Cell] | None, plot_path: str | None, console: Console) -> int:
    """Prints a dataset's summary (of the cells in `only`, or all) and writes its plot."""
    from .. import dataset

    groups = [g for g in dataset.summarise(directory) if only is None or g.cell in only]
    if not groups:
        console.print(f"{directory} holds no games")
        return 1
    seeds = sorted({s for g in groups for s in g.seeds})
    pairs = [(g.cell, g.totals) for g in groups]
    show(summary(pairs, seconds=sum(g.seconds for g in groups), seed=", ".join(map(str, seeds)), per_worker=True))
    if plot_path:
        target = plot_output(plot_path)  # the name matplotlib really writes, checked
        try:
            plot(pairs, target.temporary, os.path.splitext(target.final)[1][1:].lower())
            console.print(f"wrote {target.commit()}")
        finally:
            target.discard()
    return 0
