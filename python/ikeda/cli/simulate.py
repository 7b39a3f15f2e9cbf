"""``ikeda simulate`` (the default command): play many random games natively and summarise
them in a table, optionally an .npz of per-game arrays and a margin plot."""

from __future__ import annotations

import argparse

import numpy as np
from rich.console import Console
from rich.table import Table

from ..rules import PRESET_NAMES
from ..simulate import Simulation, simulate
from .output import Subparsers, key_value_table, progress_bar, threads


def add_parser(sub: Subparsers) -> None:
    sim = sub.add_parser("simulate", help="play random games natively and summarise them (default)")
    sim.add_argument("--size", type=int, default=9, help="board size (default 9)")
    sim.add_argument("--games", type=int, default=20_000, help="number of games (default 20,000)")
    sim.add_argument("--rules", default="area3", help=f"{', '.join(PRESET_NAMES)} or a rules string")
    sim.add_argument("--komi", type=float, default=None, help="komi (default: the ruleset's, 6.5)")
    sim.add_argument("--threads", type=threads, default=0, help="'auto' (every core) or a number")
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--pass-probability", type=float, default=0.0, help="chance of a pass each move")
    sim.add_argument("--out", help="write per-game arrays to this .npz")
    sim.add_argument("--plot", help="write a PNG of the margin distribution by first passer")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    console = Console(stderr=True)
    with progress_bar("simulating", "{task.fields[rate]} games/s", console, quiet=args.quiet) as progress:
        task = progress.add_task("games", total=args.games, rate="-")

        def advance(done: int) -> None:
            elapsed = progress.tasks[0].elapsed or 1e-9
            progress.update(task, completed=done, rate=f"{done / elapsed:,.0f}")

        sim = simulate(
            args.size,
            args.games,
            rules=args.rules,
            komi=args.komi,
            threads=args.threads,
            seed=args.seed,
            pass_probability=args.pass_probability,
            chunk=max(500, min(20_000, args.games // 50 or 1)),
            on_chunk=advance,
        )
    Console().print(summary(sim))
    if args.out:
        sim.save(args.out)
        console.print(f"wrote {args.out}")
    if args.plot:
        plot(sim, args.plot)
        console.print(f"wrote {args.plot}")
    return 0


def summary(sim: Simulation) -> Table:
    """The summary table of a run."""
    n = max(sim.games, 1)
    moves = int(sim.length.sum())
    secs = max(sim.seconds, 1e-9)
    winner = sim.winner
    fp = sim.first_passer
    rows = [
        ("games/s", f"{sim.games / secs:,.0f}"),
        ("moves/s", f"{moves / secs:,.0f}"),
        ("Black wins", f"{np.mean(winner == 1):.1%}"),
        ("White wins", f"{np.mean(winner == 2):.1%}"),
        ("draws", f"{np.mean(winner == 0):.1%}"),
        ("margin mean ± sd (B−W)", f"{sim.margin.mean():+.2f} ± {sim.margin.std():.2f}" if sim.games else "-"),
        ("first pass by Black / White / none", f"{np.mean(fp == 1):.1%} / {np.mean(fp == 2):.1%} / {np.mean(fp == 0):.1%}"),
        ("winner differs from Area II count", f"{np.mean(sim.half_point_decided):.2%} ({int(sim.half_point_decided.sum()):,})"),
        ("mean length (moves incl. passes)", f"{moves / n:.1f}"),
        ("move-cap hits", f"{int(sim.capped.sum()):,}"),
        ("time", f"{sim.seconds:.2f} s"),
    ]
    return key_value_table(f"{sim.games:,} games, {sim.size[0]}x{sim.size[1]}, {sim.rules}, seed {sim.seed}", rows)


def plot(sim: Simulation, path: str) -> None:
    """A PNG histogram of the margin, split by who passed first."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    lo, hi = (float(sim.margin.min()), float(sim.margin.max())) if sim.games else (-1.0, 1.0)
    bins = np.arange(np.floor(lo) - 0.75, np.ceil(hi) + 1.25, 1.0).tolist()
    for code, label, color in ((1, "Black passed first", "#222222"), (2, "White passed first", "#c8a040"), (0, "nobody passed", "#7799cc")):
        data = sim.margin[sim.first_passer == code]
        if len(data):
            ax.hist(data, bins=bins, alpha=0.6, label=f"{label} ({len(data):,})", color=color)
    ax.axvline(0, color="red", linewidth=0.8)
    ax.set_xlabel("margin (Black − White, komi included)")
    ax.set_ylabel("games")
    ax.set_title(f"{sim.games:,} random games, {sim.size[0]}x{sim.size[1]}, {sim.rules}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
