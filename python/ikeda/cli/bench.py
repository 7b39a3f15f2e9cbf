"""``ikeda bench``: ikeda's speed on a fixed, seeded workload beside the peers that are
installed, in the same run (docs/conformance.md, "Benchmark"). Exit status 0 when every
answer agrees with ikeda's, 1 when one differs."""

from __future__ import annotations

import argparse
import json
import sys

from rich.console import Console
from rich.table import Table

from ..bench import PEER_NAMES, QUICK, Sizes, run as run_bench
from ..bench.run import UNITS
from ..errors import IkedaError
from ..limits import MAX_SEED
from .output import Subparsers, whole_number


#: The most inner perft nodes (``(size * size + 1) ** (depth - 1)``) a benchmark replays:
#: 9x9 to depth 3, 5x5 to 3, 4x4 to 4 fit.
MAX_PERFT_NODES = 10_000


def _peers(text: str) -> tuple[str, ...]:
    names = tuple(t.strip() for t in text.split(",") if t.strip())
    if text == "all":
        return PEER_NAMES
    unknown = [n for n in names if n not in PEER_NAMES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"unknown peers {text!r}; peers: all or some of {','.join(PEER_NAMES)}")
    return names


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser("bench", help="ikeda's speed on a fixed workload, beside the peers that are installed")
    p.add_argument("--peers", nargs="?", type=_peers, const=PEER_NAMES, default=(),
                   help=f"run the peers too: all that are installed (the flag alone) or some of {','.join(PEER_NAMES)}")
    p.add_argument("--quick", action="store_true", help="a small workload, a few seconds (sizes below ignored)")
    d = Sizes()
    p.add_argument("--size", type=whole_number(2, 19), default=d.size, help=f"board size of the games (default {d.size})")
    p.add_argument("--games", type=whole_number(1, 10_000), default=d.games, help=f"random games (default {d.games})")
    p.add_argument("--seed", type=whole_number(0, MAX_SEED), default=d.seed)
    p.add_argument("--perft-size", type=whole_number(2, 19), default=d.perft_size, help=f"perft's board size (default {d.perft_size})")
    p.add_argument("--perft-depth", type=whole_number(1, 4), default=d.perft_depth, help=f"perft's depth (default {d.perft_depth})")
    p.add_argument("--json", action="store_true", help="print the result as JSON instead of a table")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    sizes = QUICK if args.quick else Sizes(args.size, args.games, args.seed, args.perft_size, args.perft_depth)
    # Perft through the protocol replays every inner node from the empty board.
    nodes = (sizes.perft_size ** 2 + 1) ** (sizes.perft_depth - 1)
    if nodes > MAX_PERFT_NODES:
        raise IkedaError(f"perft to depth {sizes.perft_depth} on {sizes.perft_size}x{sizes.perft_size} is too long "
                         f"for a benchmark: about {nodes:,} positions to replay, at most {MAX_PERFT_NODES:,}")
    result = run_bench(sizes, args.peers)
    if args.json:
        json.dump(result.as_json(), sys.stdout, indent=1)
        print()
        return 0 if result.ok else 1
    table = Table(title=f"ikeda bench: {sizes.games} random games on {sizes.size}x{sizes.size}, "
                        f"perft {sizes.perft_depth} on {sizes.perft_size}x{sizes.perft_size}, seed {sizes.seed}; "
                        f"rules {result.rules}")
    for name, justify in (("task", "left"), ("engine", "left"), ("answer", "right"), ("CPU ms", "right"),
                          ("per CPU second", "right"), ("x ikeda", "right")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for r in result.rows:
        answer = f"{r.answer:,}" if r.ok else f"[red]{r.answer:,} (ikeda {r.expected:,})[/red]"
        rate = f"{r.units / r.cpu_s:,.0f}" if r.cpu_s > 0 else "-"
        table.add_row(f"{r.task} ({UNITS[r.task]})", r.engine, answer, f"{1000 * r.cpu_s:,.2f}", rate, f"{r.ratio:,.2f}" if r.ratio else "-")
    console = Console()
    console.print(table)
    console.print("CPU time of the whole process per run (every thread); x ikeda: CPU time over ikeda's on the "
                  "same task through the same calls (above 1: slower). Answers are checked against ikeda's, "
                  "the peers' under ko=simple-ko (their legal sets allow a repeating play).", highlight=False)
    for name, why in result.missing.items():
        console.print(f"not run: {name} ({why})", highlight=False)
    if not result.ok:
        console.print("[red]some answers differ from ikeda's (in red)[/red]")
    return 0 if result.ok else 1
