"""``ikeda vectors``: writes test vectors for Go rules kernels as JSON Lines
(docs/conformance.md, "Test vectors")."""

from __future__ import annotations

import argparse

from ..conform.vectors import write
from ..limits import MAX_SEED
from .output import Subparsers, whole_number


def _sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(t) for t in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"sizes must be numbers separated by commas, not {text!r}") from None
    if not sizes or not all(2 <= s <= 19 for s in sizes):
        raise argparse.ArgumentTypeError(f"sizes must be in 2..=19, not {text!r}")
    return sizes


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser("vectors", help="write test vectors for Go rules kernels (JSON Lines)")
    p.add_argument("--out", required=True, help="the folder to write vectors.jsonl into")
    p.add_argument("--sizes", type=_sizes, default=(5, 9), help="board sizes (default 5,9)")
    p.add_argument("--games", type=whole_number(1, 10_000), default=4, help="random games per size and ruleset (default 4)")
    p.add_argument("--seed", type=whole_number(0, MAX_SEED), default=1)
    p.add_argument("--perft-depth", type=whole_number(0, 4), default=2, help="perft depths 0..N in each record (default 2)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    path, n = write(args.out, sizes=args.sizes, games=args.games, seed=args.seed, perft_depth=args.perft_depth)
    print(f"{n} vectors in {path}")
    return 0
