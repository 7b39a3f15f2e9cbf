"""``ikeda simulate`` (the default command): play many random games natively, on threads or
on Ray, and summarise them in a table, optionally an .npz of per-game arrays or a Parquet
dataset, and a margin plot. Several sizes, komis or rulesets make a sweep, summarised by
cell."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable

from rich.console import Console

from ..errors import ArgumentError, IkedaError
from ..rules import PRESET_NAMES, Rules, as_rules
from ..shards import cells, default_shard_games
from ..simulate import simulate_cells, simulate_totals
from .output import OutputFile, Subparsers, progress_bar, threads
from .report import plot, plot_output, print_dataset, show, summary

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
            elif out is not None:  # the .npz needs every game's arrays
                sims = simulate_cells(
                    run_cells, args.games, seed=args.seed, chunk=shard_games, pass_probability=args.pass_probability,
                    ray=args.ray, workers=args.workers, threads=args.threads, shutdown=True, on_chunk=advance,
                )
                totals, seconds = [s.totals() for s in sims], sims[0].seconds
            else:  # the summary needs totals only: memory does not grow with --games
                totals, seconds = simulate_totals(
                    run_cells, args.games, seed=args.seed, chunk=shard_games, pass_probability=args.pass_probability,
                    ray=args.ray, workers=args.workers, threads=args.threads, shutdown=True, on_chunk=advance,
                )
        if dataset_dir:
            console.print(
                f"{dataset_dir}: {written.played} shards played in {written.seconds:.2f} s"
                f" ({written.games / max(written.seconds, 1e-9):,.0f} games/s), {written.skipped} already there"
            )
            return print_dataset(dataset_dir, run_cells, args.plot, console)
        groups = list(zip(run_cells, totals))
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
