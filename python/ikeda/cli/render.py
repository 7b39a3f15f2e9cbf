"""``ikeda render FILE.sgf --move N -o board.svg|.png``: a position of a record as a
picture; a finished record with its count (dead stones, territory, a caption)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import ArgumentError, IkedaError
from ..sgf import read, result_is_count
from ..svg import MAX_SIZE, MIN_SIZE, board, proven_line, to_png
from .output import Subparsers


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser(
        "render",
        help="draw a position of an SGF record as SVG or PNG (a finished record with its count)",
        description="Draws a position of an SGF record. A finished record (its game over, or a "
        "count recorded in RE) is drawn with its count under the record's rules (RU, else area3; "
        "--rules to force): dead stones crossed, territory marked, a caption with each side's total, "
        "prisoners, komi and the result, under Japanese counting how many stones have a proven status, and a legend "
        "when a status was estimated. --no-count draws the bare board.",
    )
    p.add_argument("file", help="SGF file")
    p.add_argument("--move", type=int, default=None, help="position after this many moves of the main line (default: all)")
    p.add_argument("-o", "--out", required=True, help="output .svg or .png")
    p.add_argument("--rules", default=None, help="rules for the replay and the count (default: the record's RU, else area3)")
    p.add_argument("--numbers", action="store_true", help="move numbers on the stones")
    p.add_argument("--territory", action="store_true", help="mark territory and dead stones on any position (no caption)")
    p.add_argument("--no-count", dest="count", action="store_false", help="no count on a finished record: the bare board")
    p.add_argument("--size", type=int, default=480, help=f"pixels on the longer side, {MIN_SIZE}..{MAX_SIZE} (default 480)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out.suffix.lower() not in (".svg", ".png"):
        raise ArgumentError(f"output must end in .svg or .png, not {out.name!r}")
    if args.move is not None and args.move < 0:
        raise ArgumentError(f"--move must be >= 0, not {args.move}")
    if not MIN_SIZE <= args.size <= MAX_SIZE:
        raise ArgumentError(f"--size must be within {MIN_SIZE}..{MAX_SIZE} pixels, not {args.size}")
    if out.is_dir():
        raise IkedaError(f"cannot write {out}: it is a directory")
    if not out.parent.is_dir():
        raise IkedaError(f"cannot write {out}: no directory {str(out.parent)!r}")
    record = read(args.file)
    game = record.replay(args.rules, until=args.move)
    at_end = args.move is None or args.move >= len(record.moves)
    finished = at_end and (game.is_over or result_is_count(record.result))
    count = args.count and finished
    svg = board(game, size=args.size, move_numbers=args.numbers, territory=args.territory, count=count, recorded=record.result if count else None)
    try:
        if out.suffix.lower() == ".png":
            to_png(svg, str(out))
        else:
            out.write_text(svg, encoding="utf-8")
    except OSError as e:  # a full disk, a folder swapped in, no permission
        raise IkedaError(f"cannot write {out}: {e.strerror or e}") from None
    proven = ""
    if count and game.rules.scoring == "japanese":  # the caption's line, for the terminal
        proven = f"; {proven_line(int((game.to_numpy() != 0).sum()), len(game.score().estimated))}"
    print(f"wrote {out} ({game.width}x{game.height}, move {len(game.moves)}{', with the count' if count else ''}{proven})")
    return 0
