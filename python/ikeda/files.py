"""Reading a file named by untrusted input (GTP's ``loadsgf``): only a regular file, and
only up to a size limit, without ever blocking on a FIFO or reading a device."""

from __future__ import annotations

import os
import stat

from .errors import IkedaError

#: The largest SGF file ``loadsgf`` reads (docs/security.md).
MAX_SGF_FILE = 16 * 2**20


def read_regular(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file `path`, at most `limit` of them, or IkedaError.

    The file is opened non-blocking (opening a FIFO for reading would otherwise wait for
    a writer) and checked with ``fstat`` on the open descriptor, so a name swapped after a
    check cannot slip a device or a FIFO in."""
    # A name that cannot be encoded (a lone surrogate) is shown escaped, so the error can
    # be written to any UTF-8 stream.
    shown = os.fsdecode(path).encode("utf-8", "backslashreplace").decode("utf-8")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as e:
        raise IkedaError(f"cannot read {shown}: {e.strerror}") from None
    except ValueError:  # a NUL byte, or a name the file system encoding cannot hold
        raise IkedaError(f"cannot read {shown}: not a valid file name") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise IkedaError(f"cannot read {shown}: not a regular file")
        if info.st_size > limit:
            raise IkedaError(f"cannot read {shown}: {info.st_size:,} bytes is over the limit of {limit:,}")
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise IkedaError(f"cannot read {shown}: {e.strerror}") from None
    finally:
        os.close(fd)
    if len(data) > limit:  # the file grew after the check
        raise IkedaError(f"cannot read {shown}: over the limit of {limit:,} bytes")
    return data
