"""``ikeda simulate`` (the default command): play many random games natively, on threads or
on Ray, and summarise them in a table, optionally an .npz of per-game arrays or a Parquet
dataset, and a margin plot. Several sizes, komis or rulesets make a sweep, summarised by
cell."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Sequence
from pathlib import Path

from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

from ..errors import ArgumentError, IkedaError
from ..rules import PRESET_NAMES, Rules, as_rules
from ..shards import Cell, cells, default_shard_games
from ..simulate import simulate_cells
from ..totals import Totals
from .output import OutputFile, Subparsers, key_value_table, progress_bar, threads

#: What Ctrl-C returns, as shells report a process ended by SIGINT.
INTERRUPTED = 130


def add_parser(sub: Subparsers) -> None:
    sim = sub.add_parser("simulate", help="play random games natively and summarise them (default)")
    sim.add_argument("--size", type=_list(int), default=[9], help="board size, or sizes for a sweep: 9,13,19 (default 9)")
    sim.add_argument("--games", type=int, default=20_000, help="number of games per cell of a sweep (default 20,000)")
    sim.add_argument("--rules", default="area3", help=f"{', '.join(PRESET_NAMES)} or a rules string; several separated by commas")
    sim.add_argument("--komi", type=_list(float), default=[None], help="komi, or komis for a sweep: 5.5,6.5,7.5 (default: the ruleset's, 6.5)")
    sim.add_argument("--threads", type=threads, default=0, help="'auto' (every core) or a number; without --ray")
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--pass-probability", type=float, default=0.0, help="chance of a pass each move")
    sim.add_argument(
        "--ray", nargs="?", const="auto", metavar="auto|local|ADDRESS",
        help="play shards as Ray tasks: on the cluster RAY_ADDRESS names or a new local Ray (auto, the default), "
        "a new local Ray (local), or the cluster at ADDRESS; needs pip install 'ikeda[ray]'",
    )
    sim.add_argument("--workers", type=_positive, help="with --ray: at most this many tasks at once (local: Ray's CPUs)")
    sim.add_argument("--shard", type=_positive, help="games per shard (default: games/50, within 2,000..20,000; with --ray 10,000..50,000)")
    sim.add_argument("--out", help="FILE.npz: per-game arrays; DIR/: a Parquet dataset, one file per shard, resumed if there")
    sim.add_argument("--plot", help="write a PNG of the margin distribution by first passer")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    run_cells = cells(args.size, rulesets(args.rules), args.komi)
    dataset_dir = args.out if args.out and not args.out.endswith(".npz") else None
    if args.out and not dataset_dir and len(run_cells) > 1:
        raise ArgumentError("a sweep writes a dataset: give --out a directory (DIR/), not an .npz")
    if args.workers is not None and args.ray is None:
        raise ArgumentError("--workers is for --ray; without it, --threads sets the cores")
    console = Console(stderr=True)
    shard_games = args.shard or default_shard_games(args.games, ray=args.ray is not None)
    total = args.games * len(run_cells)
    outputs: list[OutputFile] = []
    try:
        # The outputs are checked before the work: each gets its final name and a
        # temporary file beside it, renamed into place only once written.
        out = OutputFile(args.out, ".npz") if args.out and not dataset_dir else None
        png = plot_output(args.plot) if args.plot else None
        outputs = [o for o in (out, png) if o is not None]
        if dataset_dir and png is not None:
            png.discard()  # the dataset's summary writes the plot itself; its place is checked
        with progress_bar("simulating", "{task.fields[rate]} games/s", console, quiet=args.quiet) as progress:
            task = progress.add_task("games", total=total, rate="-")

            def advance(done: int, todo: int = total) -> None:
                elapsed = progress.tasks[0].elapsed or 1e-9
                progress.update(task, completed=done, total=todo, rate=f"{done / elapsed:,.0f}")

            if dataset_dir:
                from .. import dataset

                written = dataset.write(
                    dataset_dir, run_cells, args.games, seed=args.seed, shard_games=shard_games,
                    pass_probability=args.pass_probability, ray=args.ray, workers=args.workers,
                    threads=args.threads, shutdown=True, on_shard=advance,
                )
            else:
                sims = simulate_cells(
                    run_cells, args.games, seed=args.seed, chunk=shard_games, pass_probability=args.pass_probability,
                    ray=args.ray, workers=args.workers, threads=args.threads, shutdown=True, on_chunk=advance,
                )
        if dataset_dir:
            from .summary import print_dataset

            console.print(
                f"{dataset_dir}: {written.played} shards played in {written.seconds:.2f} s"
                f" ({written.games / max(written.seconds, 1e-9):,.0f} games/s), {written.skipped} already there"
            )
            return print_dataset(dataset_dir, run_cells, args.plot, console)
        groups = [(cell, s.totals()) for cell, s in zip(run_cells, sims)]
        seconds = sims[0].seconds if sims else 0.0
        show(summary(groups, seconds=seconds, seed=args.seed))
        if out is not None:
            with open(out.temporary, "wb") as f:
                sims[0].save(f)
            console.print(f"wrote {out.commit()}")
        if png is not None:
            plot(groups, png.temporary, os.path.splitext(png.final)[1][1:].lower())
            console.print(f"wrote {png.commit()}")
    except KeyboardInterrupt:
        where = f"; the shards written stay in {dataset_dir}: run the same command again to resume" if dataset_dir else ""
        console.print(f"cancelled{where}")
        return INTERRUPTED
    except OSError as e:
        raise IkedaError(f"cannot write {e.filename or 'the output'}: {e.strerror}") from None
    finally:
        for o in outputs:
            o.discard()
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


def rulesets(text: str) -> list[Rules]:
    """``--rules``: one ruleset or several separated by commas. A rules string's own
    components are comma-separated too (``area3:komi=7,ko=simple-ko``); a piece with ``=``
    and no ``:`` continues the ruleset before it."""
    pieces: list[str] = []
    for piece in text.split(","):
        if pieces and "=" in piece and ":" not in piece:
            pieces[-1] += "," + piece
        else:
            pieces.append(piece)
    return [as_rules(p) for p in pieces]


def _list(kind: type[int] | type[float]) -> Callable[[str], list[int | float]]:
    def parse(text: str) -> list[int | float]:
        try:
            return [kind(p) for p in text.split(",")]
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a {kind.__name__} or a comma-separated list of them") from None

    parse.__name__ = f"{kind.__name__} list"
    return parse


def _positive(text: str) -> int:
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be a positive number, not {text}")
    return n


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

