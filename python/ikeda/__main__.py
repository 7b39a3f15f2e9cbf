"""`python -m ikeda` / `ikeda`: a short demo game under Area Rules III.

A random game is played natively (seeded), replayed move by move through
:class:`ikeda.Game`, and printed with its Area III score.
"""

from __future__ import annotations

import argparse
import sys

from . import _core
from .game import Game


def demo(size: int, komi: float, seed: int) -> int:
    moves, ended, _, black2, white2 = _core.random_game(size, size, komi, seed, pass_probability=0.02)
    game = Game(size, komi=komi)
    for m in moves:
        game.play(m)
    print(game)
    print()
    print(f"{len(moves)} moves ({moves.count(size * size)} passes), first pass by {game.first_passer}")
    score = game.score()
    print(score)
    if not ended or (score.black, score.white) != (black2 / 2, white2 / 2):
        print("native and Python game flow disagree", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ikeda", description=__doc__)
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--komi", type=float, default=6.5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    return demo(args.size, args.komi, args.seed)


if __name__ == "__main__":
    sys.exit(main())
