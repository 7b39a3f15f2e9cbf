"""Generated game records: native random games written as SGF (for tests and the
replay benchmark). Fast: one native call per game and a string join."""

from __future__ import annotations

from pathlib import Path

from ikeda import _core
from ikeda.rules import Rules, as_rules

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def random_sgf(width: int, height: int, rules: Rules | str, seed: int, pass_probability: float = 0.02) -> str:
    """A random game (ikeda-core's playout policy, to its end under `rules`) as SGF."""
    r = as_rules(rules)
    moves = _core.random_game(width, height, r, seed, pass_probability)[0]
    points = width * height
    nodes = []
    color = "BW"
    for n, i in enumerate(moves):
        where = "" if i == points else LETTERS[i % width] + LETTERS[i // width]
        nodes.append(f";{color[n % 2]}[{where}]")
    size = str(width) if width == height else f"{width}:{height}"
    ru = str(r.replace(komi=6.5))
    return f"(;GM[1]FF[4]SZ[{size}]KM[{r.komi:g}]RU[{ru}]{''.join(nodes)})\n"


def write_corpus(directory: Path, count: int, size: int = 9, rules: str = "area3", seed: int = 1) -> list[Path]:
    """`count` random records in `directory` (game k seeded with `seed + k`)."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for k in range(count):
        p = directory / f"game{k:05d}.sgf"
        p.write_text(random_sgf(size, size, rules, seed + k))
        paths.append(p)
    return paths
