"""``ikeda render FILE.sgf --move N -o board.svg|.png``: a position of a record as a
picture."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import ArgumentError
from ..sgf import read
from ..svg import board, to_png
from .output import Subparsers


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser("render", help="draw a position of an SGF record as SVG or PNG")
    p.add_argument("file", help="SGF file")
    p.add_argument("--move", type=int, default=None, help="position after this many moves of the main line (default: all)")
    p.add_argument("-o", "--out", required=True, help="output .svg or .png")
    p.add_argument("--rules", default=None, help="rules for the replay (default: the record's RU)")
    p.add_argument("--numbers", action="store_true", help="move numbers on the stones")
    p.add_argument("--territory", action="store_true", help="mark territory (ownership of empty points)")
    p.add_argument("--size", type=int, default=480, help="pixels on the longer side (default 480)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out.suffix.lower() not in (".svg", ".png"):
        raise ArgumentError(f"output must end in .svg or .png, not {out.name!r}")
    if args.move is not None and args.move < 0:
        raise ArgumentError(f"--move must be >= 0, not {args.move}")
    game = read(args.file).replay(args.rules, until=args.move)
    svg = board(game, size=args.size, move_numbers=args.numbers, territory=args.territory)
    if out.suffix.lower() == ".png":
        to_png(svg, str(out))
    else:
        out.write_text(svg, encoding="utf-8")
    print(f"wrote {out} ({game.width}x{game.height}, move {len(game.moves)})")
    return 0
