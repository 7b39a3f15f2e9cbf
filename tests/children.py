"""Child processes that need a signal disposition or a resource limit of their own.

`subprocess`'s `preexec_fn` would set them, but it runs Python between fork and exec, which is
unsafe once the test process has threads: JAX (imported by the pgx adapter tests) warns on
every such fork, and a lock held by another thread at the fork can hang the child. Instead the
child is a small Python that sets what is asked and then execs the command, so the fork itself
runs no Python code.
"""

from __future__ import annotations

import sys

_PRELUDE = """
import os, resource, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
limit = int(sys.argv[1])
if limit:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
os.execv(sys.argv[2], sys.argv[2:])
"""


def interruptible(command: list[str], *, file_size_limit: int = 0) -> list[str]:
    """`command` (its first item an absolute path) run with SIGINT at its default, so that a
    child of a non-interactive shell, which may inherit SIGINT ignored, can be Ctrl-C'd; with
    `file_size_limit` bytes, writes past the limit fail (EFBIG) as on a full disk."""
    return [sys.executable, "-c", _PRELUDE, str(file_size_limit), *command]
