"""What every command shares: the argument types, the progress bar and the summary table."""

from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
from collections.abc import Callable
from typing import TypeAlias

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from .. import limits
from ..errors import IkedaError
from ..limits import MAX_THREADS

#: The type of ``sub`` that every command's ``add_parser(sub)`` receives.
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def threads(text: str) -> int:
    """``--threads``: 'auto' (0, every core) or a positive number."""
    if text == "auto":
        return 0
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"threads must be 'auto' or a number, not {text!r}") from None
    if not 1 <= n <= MAX_THREADS:
        raise argparse.ArgumentTypeError(f"threads must be 'auto' or a number in 1..={MAX_THREADS}, not {n}")
    return n


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an int in ``low..=high`` (a usage error, exit status 2, else)."""

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= n <= high:
            raise argparse.ArgumentTypeError(f"must be in {low:,}..={high:,}, not {text}")
        return n

    parse.__name__ = "whole number"
    return parse


def seconds(text: str) -> float:
    """An argparse type: seconds, a finite number in ``0..=86400``."""
    try:
        return limits.seconds(float(text), "the time")
    except (ValueError, IkedaError) as e:
        raise argparse.ArgumentTypeError(str(e) if isinstance(e, IkedaError) else f"{text!r} is not a number") from None


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


class OutputFile:
    """A file a command writes at the end of its run, checked before the work.

    ``final`` is the path that will really be written: `path` with `suffix` appended when
    it has none (as numpy and matplotlib would). The check makes a temporary file beside
    it now, so an unwritable directory, a missing one or a name that is a directory or a
    device fails before a long run instead of after it; :meth:`commit` renames the
    temporary file into place once written, and :meth:`discard` removes it (an
    interrupted or failed run leaves no partial file)."""

    def __init__(self, path: str, suffix: str, *, keep_suffix: bool = False) -> None:
        ext = os.path.splitext(path)[1]
        self.final = path if (ext == suffix or (keep_suffix and ext)) else path + suffix
        for name in {path, self.final}:
            if os.path.lexists(name) and not os.path.isfile(name):
                raise IkedaError(f"cannot write {name}: not a regular file")
        folder = os.path.dirname(os.path.abspath(self.final))
        try:
            fd, self.temporary = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(self.final)}.", suffix=".part")
        except OSError as e:
            raise IkedaError(f"cannot write {self.final}: {e.strerror}") from None
        os.close(fd)

    def commit(self) -> str:
        """Moves the written temporary file to the final path; returns that path."""
        os.replace(self.temporary, self.final)
        return self.final

    def discard(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.temporary)
