"""CPU time of reading SGF inputs that used to take quadratic time, at a few sizes
(docs/sgf.md, "Limits"): undecodable bytes for the charset guesser, one property repeated
in one node, and a collection of many one-move games.

    python tests/sgf_corpus_timing.py [MB ...] [--only KIND]

Each input is built in memory (see :func:`stress_input`) and read once with
``ikeda.sgf.read`` (``read_all`` for the collection); the figure is the process's CPU
time, which counts the native threads too.
"""

from __future__ import annotations

import argparse
import time
import warnings

from ikeda import sgf

#: The inputs measured, by name: what each stresses.
KINDS = {
    "undecodable": "the charset guesser: a comment of bytes no multi-byte guess decodes",
    "repeated": "one property repeated in one node (C[x]C[x]...)",
    "collection": "read_all of many one-move games",
}


def stress_input(kind: str, size: int) -> bytes:
    """About `size` bytes of SGF of the given kind (see :data:`KINDS`)."""
    if kind == "undecodable":
        # 0xFF is no lead byte in UTF-8, GB18030, Shift_JIS or EUC-KR: one malformed
        # sequence every three bytes in every multi-byte guess.
        return b"(;GM[1]C[" + b"\xffab" * (size // 3) + b"];B[aa])"
    if kind == "repeated":
        return b"(;GM[1]" + b"C[x]" * (size // 4) + b";B[aa])"
    if kind == "collection":
        return b"(;B[aa])\n" * (size // 9)
    raise ValueError(kind)


def cpu_seconds(kind: str, size: int) -> float:
    data = stress_input(kind, size)
    start = time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sgf.SgfWarning)
        if kind == "collection":
            sgf.read_all(data)
        else:
            sgf.read(data)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mb", nargs="*", type=int, default=[1, 4, 16])
    parser.add_argument("--only", choices=sorted(KINDS))
    args = parser.parse_args()
    for kind in [args.only] if args.only else list(KINDS):
        for mb in args.mb:
            print(f"{kind:12} {mb:3} MB  {cpu_seconds(kind, mb << 20):8.2f} s CPU", flush=True)


if __name__ == "__main__":
    main()
