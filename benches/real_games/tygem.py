"""Writes the counted games of the public Tygem collection as SGF records.

The collection (github.com/yenw/computer-go-dataset, `TYGEM/`) keeps one game per line,
``id<TAB>;B[..];W[..]...``, in monthly archives, and an index per year whose fields are
id, date, White, White (latin), White's nation, Black, Black (latin), Black's nation,
result, moves and time. Only games whose result is a count (``B+3.5``) are written, with
the server's komi (6.5) and rules (Korean: territory and prisoners).

    python benches/real_games/tygem.py KIFU_FILE INDEX_FILE OUT_DIR
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("kifu", type=Path)
    ap.add_argument("index", type=Path)
    ap.add_argument("out", type=Path)
    args = ap.parse_args()
    counted = {}
    for line in args.index.read_text(encoding="utf-8", errors="replace").splitlines():
        f = line.split("\t")
        if len(f) >= 9 and re.fullmatch(r"[BW]\+\d+(\.5)?", f[8]):
            counted[f[0]] = f
    args.out.mkdir(parents=True, exist_ok=True)
    n = 0
    for line in args.kifu.read_text(encoding="utf-8", errors="replace").splitlines():
        gid, _, moves = line.partition("\t")
        f = counted.get(gid)
        if f is None:
            continue
        head = f"(;GM[1]FF[4]SZ[19]KM[6.5]RU[Korean]PW[{f[3]}]PB[{f[6]}]RE[{f[8]}]DT[{f[1][1:11]}]"
        (args.out / f"tygem-{gid}.sgf").write_text(head + moves + ")\n")
        n += 1
    print(f"{n} counted games written to {args.out}")


if __name__ == "__main__":
    main()
