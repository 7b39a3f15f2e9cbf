"""``ikeda simulate``'s output: a rich progress bar, the summary table, the .npz and the
margin plot."""

from __future__ import annotations

import argparse

import numpy as np
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from .simulate import Simulation, simulate


def progress_bar(label: str, field: str, console: Console, *, quiet: bool) -> Progress:
    """The progress bar of every command: label, bar, done/total, one live `field` (a
    format string over the task's fields), elapsed time."""
    return Progress(
        TextColumn(f"[bold]{label}"), BarColumn(), MofNCompleteColumn(), TextColumn(field), TimeElapsedColumn(),
        console=console, disable=quiet,
    )


def key_value_table(title: str, rows: list[tuple[str, str]]) -> Table:
    """A two-column summary: what, and its value right-aligned."""
    t = Table(title=title)
    t.add_column("")
    t.add_column("value", justify="right")
    for k, v in rows:
        t.add_row(k, v)
    return t


def run_simulate(args: argparse.Namespace) -> int:
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
