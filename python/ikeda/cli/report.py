"""The summary of a run or a dataset, shared by ``ikeda simulate`` and ``ikeda summary``:
the table (one cell's values, or a sweep's row per cell) and the margin plot, both drawn
from :class:`~ikeda.totals.Totals`, never from per-game arrays."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

from ..errors import IkedaError
from ..shards import Cell
from ..totals import Totals
from .output import OutputFile, key_value_table


def print_dataset(directory: str, only: Sequence[Cell] | None, plot_path: str | None, console: Console) -> int:
    """Prints a dataset's summary (of the cells in `only`, or all) and writes its plot."""
    from .. import dataset

    target = plot_output(plot_path) if plot_path else None  # the name matplotlib really writes, checked
    try:
        groups = [g for g in dataset.summarise(directory) if only is None or g.cell in only]
        if not groups:
            console.print(f"{directory} holds no games")
            return 1
        seeds = sorted({s for g in groups for s in g.seeds})
        pairs = [(g.cell, g.totals) for g in groups]
        show(summary(pairs, seconds=sum(g.seconds for g in groups), seed=", ".join(map(str, seeds)), per_worker=True))
        if target is not None:
            try:
                plot(pairs, target.temporary, os.path.splitext(target.final)[1][1:].lower())
                console.print(f"wrote {target.commit()}")
            except OSError as e:  # a full disk, a file size limit
                raise IkedaError(f"cannot write {target.final}: {e.strerror or e}") from None
    finally:
        if target is not None:
            target.discard()
    return 0


def plot_output(path: str) -> OutputFile:
    """The place of --plot: a PNG, or another format matplotlib writes, by the extension."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    formats = Figure().canvas.get_supported_filetypes()
    ext = os.path.splitext(path)[1][1:].lower()
    if ext and ext not in formats:
        raise IkedaError(f"cannot write {path}: the plot formats are {', '.join(sorted(formats))}")
    return OutputFile(path, ".png", keep_suffix=True)


def summary(groups: Sequence[tuple[Cell, Totals]], *, seconds: float, seed: int | str, per_worker: bool = False) -> Table:
    """The summary of a run or dataset: one cell's table of values, or for a sweep one row
    per cell. `seconds`: the run's wall time, or with `per_worker` the workers' time summed
    over shards (a dataset's)."""
    if len(groups) == 1:
        return _one(*groups[0], seconds=seconds, seed=seed, per_worker=per_worker)
    time = f"{seconds:.2f} s of workers' time" if per_worker else f"{seconds:.2f} s"
    t = Table(title=f"{sum(g.games for _, g in groups):,} games in {len(groups)} cells, seed {seed}, {time}", box=box.SIMPLE_HEAD)
    columns = ("size", "rules", "komi", "games", "B wins", "draws", "margin ± sd", "B passes 1st", "≠ Area II", "length", "capped")
    for name in columns:
        t.add_column(name, justify="left" if name == "rules" else "right", no_wrap=True)
    for cell, g in groups:
        n = max(g.games, 1)
        t.add_row(
            f"{cell.width}x{cell.height}", cell.rules_text, f"{cell.rules.komi:g}", f"{g.games:,}",
            f"{g.black_wins / n:.1%}", f"{g.draws / n:.1%}", f"{g.margin_mean:+.2f} ± {g.margin_sd:.2f}",
            f"{g.first_passer[1] / n:.1%}", f"{g.half_point_decided / n:.2%}", f"{g.moves / n:.1f}", f"{g.capped:,}",
        )
    return t


def show(table: Table) -> None:
    """Prints a table to stdout: as wide as it needs when stdout is not a terminal (a
    file or pipe gets every figure whole), within the terminal otherwise."""
    console = Console()
    if not console.is_terminal:
        console = Console(width=max(console.width, Measurement.get(console, console.options.update(max_width=1_000), table).maximum))
    console.print(table)


def _one(cell: Cell, g: Totals, *, seconds: float, seed: int | str, per_worker: bool) -> Table:
    n = max(g.games, 1)
    secs = max(seconds, 1e-9)
    fp = [c / n for c in g.first_passer]
    rate = "per worker " if per_worker else ""
    rows = [
        (f"games/s {rate}".strip(), f"{g.games / secs:,.0f}"),
        (f"moves/s {rate}".strip(), f"{g.moves / secs:,.0f}"),
        ("Black wins", f"{g.black_wins / n:.1%}"),
        ("White wins", f"{g.white_wins / n:.1%}"),
        ("draws", f"{g.draws / n:.1%}"),
        ("margin mean ± sd (B−W)", f"{g.margin_mean:+.2f} ± {g.margin_sd:.2f}" if g.games else "-"),
        ("first pass by Black / White / none", f"{fp[1]:.1%} / {fp[2]:.1%} / {fp[0]:.1%}"),
        ("winner differs from Area II count", f"{g.half_point_decided / n:.2%} ({g.half_point_decided:,})"),
        ("mean length (moves incl. passes)", f"{g.moves / n:.1f}"),
        ("move-cap hits", f"{g.capped:,}"),
        ("workers' time" if per_worker else "time", f"{seconds:.2f} s"),
    ]
    return key_value_table(f"{g.games:,} games, {cell.width}x{cell.height}, {cell.rules}, seed {seed}", rows)


def plot(groups: Sequence[tuple[Cell, Totals]], path: str | Path, fmt: str = "png") -> None:
    """A PNG histogram of the margin, split by who passed first: one panel per cell."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols = min(3, len(groups)) or 1
    rows = max(1, -(-len(groups) // cols))
    fig, axes = plt.subplots(rows, cols, figsize=(8 if cols == 1 else 5 * cols, 4.5 * rows), dpi=100, squeeze=False)
    for ax in axes.flat[len(groups):]:
        ax.set_visible(False)
    for ax, (cell, g) in zip(axes.flat, groups):
        for code, label, color in ((1, "Black passed first", "#222222"), (2, "White passed first", "#c8a040"), (0, "nobody passed", "#7799cc")):
            margins, counts = g.margins(code)
            if len(margins):
                ax.bar(margins, counts, width=0.5, alpha=0.6, label=f"{label} ({int(counts.sum()):,})", color=color)
        ax.axvline(0, color="red", linewidth=0.8)
        ax.set_xlabel("margin (Black − White, komi included)")
        ax.set_ylabel("games")
        ax.set_title(f"{g.games:,} random games, {cell.width}x{cell.height}, {cell.rules}")
        if g.games:
            ax.legend()
    fig.tight_layout()
    fig.savefig(str(path), format=fmt)
    plt.close(fig)

