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


#: The shapes of real records the mixed corpus cycles through: (name, charset, text of
#: the root beyond GM/FF/SZ, whether the name is cut inside a UTF-8 character).
MIXED_SHAPES = [
    ("kgs", "utf-8", "CA[UTF-8]RU[Japanese]KM[6.50]PB[alice]PW[bob]C[Game played on a server: a comment of some length, as servers write them.]", False),
    ("fox", "utf-8", "CA[UTF-8]RU[Chinese]KM[375]AP[foxwq]PB[神的血脉]PW[骊龙]BR[9段]", True),
    ("gb", "gb18030", "RU[Chinese]KM[7.5]PB[柯洁]PW[古力]C[黑中盘胜，这是一盘精彩的对局]", False),
    ("jp", "shift_jis", "CA[Shift_JIS]RU[Japanese]KM[6.5]PB[井山裕太]PW[本因坊秀策]C[これはとても良い碁でした]", False),
    ("kr", "euc-kr", "RU[Korean]KM[6.5]PB[이세돌]PW[박정환]C[좋은 대국이었습니다]", False),
    ("ff3", "latin-1", "RU[Japanese]KM[5.5]PB[Jörg]PW[René]C[Fichier créé par TurboGo]", False),
]


def mixed_sgf(k: int, size: int = 19) -> bytes:
    """Record `k` of a mixed corpus in the shapes of real archives (MIXED_SHAPES, in
    turn): a native random game with that root, a variation, and per-move comments."""
    name, charset, root, cut = MIXED_SHAPES[k % len(MIXED_SHAPES)]
    r = as_rules("area2")
    moves = _core.random_game(size, size, r, 1000 + k, 0.02)[0]
    points = size * size
    nodes = []
    for n, i in enumerate(moves):
        where = "" if i == points else LETTERS[i % size] + LETTERS[i // size]
        note = f"C[move {n + 1}]" if n % 25 == 0 else ""
        nodes.append(f";{'BW'[n % 2]}[{where}]{note}")
    variation = f"(;{'BW'[len(moves) % 2]}[aa]C[a variation])" if moves else ""
    ff = "3" if name == "ff3" else "4"
    text = f"(;GM[1]FF[{ff}]SZ[{size}]{root}{''.join(nodes[:-1])}({nodes[-1] if nodes else ''}){variation})\n"
    data = text.encode(charset)
    if cut:  # a name cut inside its last UTF-8 character, as Fox writes them
        data = data.replace("骊龙".encode(), "骊龙".encode()[:-1], 1)
    return data


def write_mixed_corpus(directory: Path, count: int, size: int = 19) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for k in range(count):
        p = directory / f"game{k:05d}.{'SGF' if k % 2 else 'sgf'}"
        p.write_bytes(mixed_sgf(k, size))
        paths.append(p)
    return paths
