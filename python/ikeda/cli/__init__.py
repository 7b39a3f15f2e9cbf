"""``ikeda`` / ``python -m ikeda``: the command line, one module per command.

``ikeda simulate`` (the default) plays many random games natively and summarises them;
``ikeda summary`` summarises a Parquet dataset of them;
``ikeda replay`` validates and scores game records; ``ikeda render`` draws a position;
``ikeda gtp`` serves the built-in bot over GTP; ``ikeda match`` referees engines.
``ikeda conform`` checks another engine's rules against ikeda's; ``ikeda vectors``
writes test vectors for rules kernels; ``ikeda regress`` runs GNU Go's regression files;
``ikeda bench`` times ikeda beside the peer kernels that are installed.
``ikeda analysis`` serves the search as KataGo's JSON analysis engine (for KaTrain).
Each command module has ``add_parser(sub)``, which adds its subparser and sets
``args.run`` to its ``run(args) -> int``.
"""

from __future__ import annotations

import argparse
import os
import select
import sys

from ..errors import IkedaError
from . import gtp, match, render, replay, simulate, summary
from . import conform, regress, vectors
from . import bench
from . import analysis

#: The commands in the order ``--help`` lists them; the first is the default.
COMMANDS = (simulate, summary, replay, render, gtp, match, conform, vectors, regress, bench, analysis)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ikeda", description="Go under Ikeda's rules, fast.")
    sub = parser.add_subparsers(dest="command")
    for command in COMMANDS:
        command.add_parser(sub)
    words = sys.argv[1:] if argv is None else argv
    if not words or words[0] not in (*sub.choices, "-h", "--help"):
        words = ["simulate", *words]  # simulate is the default command
    args = parser.parse_args(words)
    try:
        code = int(args.run(args))
        sys.stdout.flush()  # here, so that a reader gone before the end is met below, not at exit
        return code
    except IkedaError as e:
        print(f"ikeda: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("ikeda: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        if not _stdout_reader_gone():
            raise  # another pipe (an engine's, say): a real failure
        # The reader of stdout has closed it (`ikeda replay --json ... | head -1`): stop
        # quietly, as Unix tools do. What is left to write goes to /dev/null, so that the
        # flush at exit does not fail again; status 1, as Python's docs advise ("Note on
        # SIGPIPE") and as rich, which prints the tables of the other commands, does.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _stdout_reader_gone() -> bool:
    """Whether stdout is a pipe whose reader has closed it: poll reports an error (Linux)
    or a hang-up (macOS, BSD) on such a write end. Without poll (Windows) a broken pipe is
    taken to be stdout's; a stdout with no descriptor (replaced in-process) never is."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    if not hasattr(select, "poll"):
        return True
    poll = select.poll()
    poll.register(fd, select.POLLOUT)
    return any(events & (select.POLLERR | select.POLLHUP) for _, events in poll.poll(0))
