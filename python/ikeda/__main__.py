"""``python -m ikeda``: the command line of :mod:`ikeda.cli`."""

from __future__ import annotations

import os
import sys

from .cli import main

__all__ = ["main"]

if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
