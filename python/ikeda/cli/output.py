"""What every command shares: the argument types, the progress bar and the summary table."""

from __future__ import annotations

import argparse
from typing import TypeAlias

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

#: The type of ``sub`` that every command's ``add_parser(sub)`` receives.
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def threads(text: str) -> int:
    """``--threads``: 'auto' (0, every core) or a positive number."""
    if text == "auto":
        return 0
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError("threads must be 'auto' or a positive number")
    return n


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
