"""Sorts the counted games of a KGS archive by kind, for the real-game benches.

The KGS archives of games with a 6-dan or stronger player (u-go.net, mirrored in
github.com/godmoves/Standard_Computer_Go_Dataset `KGS_6d_190000/KGS-YEAR-19-N-.tar.gz`)
hold one SGF per game. Copies to OUT_DIR/even and OUT_DIR/handicap (``HA`` of 2 or more)
the 19x19 games played under Japanese rules (``RU[Japanese]``) whose result is a count
(``RE[B+3.5]``), unchanged.

    python benches/real_games/kgs.py EXTRACTED_ARCHIVE_DIR OUT_DIR
"""

from __future__ import annotations

import argparse
import re
import shutil
from pathlib import Path


def kind(text: str) -> str | None:
    """"even" or "handicap" for a counted 19x19 game under Japanese rules, else None."""
    rules = re.search(r"RU\[([^\]]*)\]", text)
    if not re.search(r"RE\[[BW]\+\d+(?:\.\d+)?\]", text) or not rules or rules.group(1).lower() != "japanese":
        return None
    if not re.search(r"SZ\[19\]", text):
        return None
    handicap = re.search(r"HA\[(\d+)\]", text)
    return "handicap" if handicap and int(handicap.group(1)) >= 2 else "even"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("archive", type=Path)
    ap.add_argument("out", type=Path)
    args = ap.parse_args()
    counts = {"even": 0, "handicap": 0, "other": 0}
    for sub in ("even", "handicap"):
        (args.out / sub).mkdir(parents=True, exist_ok=True)
    for f in sorted(args.archive.rglob("*.sgf")):
        k = kind(f.read_text(errors="replace"))
        if k is None:
            counts["other"] += 1
            continue
        shutil.copy(f, args.out / k / f.name)
        counts[k] += 1
    print(f"{counts['even']} even and {counts['handicap']} handicap counted games under Japanese rules written to "
          f"{args.out}; {counts['other']} others left out")


if __name__ == "__main__":
    main()
