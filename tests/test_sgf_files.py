"""ikeda.sgf's file reading and bulk-input limits: one reader of SGF files (regular files
only, one bound, never blocking on a FIFO) for ``read``, ``replay_many`` and GTP
``loadsgf``; the encoding label checked; and reading that stays linear in the input
(undecodable bytes for the charset guesser, a property repeated in one node, many games
in one collection)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

from ikeda import ArgumentError, sgf
from ikeda.gtp import Engine
from sgf_corpus_timing import stress_input

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


def quiet_read(data: bytes, all_games: bool = False) -> object:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sgf.SgfWarning)
        return sgf.read_all(data) if all_games else sgf.read(data)


# -- one reader --------------------------------------------------------------------------


@needs_fifo
def test_a_fifo_is_refused_by_every_reader_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "game.sgf"
    os.mkfifo(fifo)  # no writer: a blocking open would wait for ever
    # In a child with a deadline, so that a regression fails instead of hanging.
    code = f"""
import sys
from pathlib import Path
from ikeda import ArgumentError, sgf
from ikeda.gtp import Engine
try:
    sgf.read(Path({str(fifo)!r}))
except ArgumentError as e:
    assert "not a regular file" in str(e), e
else:
    sys.exit("read a FIFO")
(r,) = sgf.replay_many([{str(fifo)!r}])
assert r.status == "unreadable" and "not a regular file" in r.error, r
(r,) = sgf.replay_many([{str(fifo)!r}], rules="japanese")
assert r.status == "unreadable" and "not a regular file" in r.error, r
reply = Engine(lambda g: "pass").handle("loadsgf {fifo}")
assert reply.startswith("?") and "not a regular file" in reply, reply
from ikeda.cli import main
assert main(["replay", {str(fifo)!r}, "--json"]) == 1
print("ok")
"""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env)
    assert done.stdout.strip().endswith("ok") and "not a regular file" in done.stdout, (done.stdout, done.stderr)


def test_one_bound_for_every_reader(tmp_path: Path) -> None:
    big = tmp_path / "big.sgf"
    with open(big, "wb") as f:
        f.truncate(sgf.MAX_FILE_BYTES + 1)
    with pytest.raises(ArgumentError, match="over the limit"):
        sgf.read(big)
    (r,) = sgf.replay_many([big])
    assert r.status == "unreadable" and "over the limit" in (r.error or "")
    reply = Engine(lambda g: "pass").handle(f"loadsgf {big}")
    assert reply is not None and reply.startswith("?") and "over the limit" in reply
    ok = tmp_path / "ok.sgf"
    with open(ok, "wb") as f:
        f.write(b"(;SZ[9];B[ee]C[")
        f.write(b"x" * (sgf.MAX_FILE_BYTES - f.tell() - 2))
        f.write(b"])")
    assert ok.stat().st_size == sgf.MAX_FILE_BYTES
    assert sgf.read(ok).moves[0].vertex == "E5"
    assert sgf.MAX_FILE_BYTES == 16 << 20


def test_missing_files_and_folders(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError) as e:
        sgf.read(tmp_path / "missing.sgf")
    assert e.value.filename == str(tmp_path / "missing.sgf")
    with pytest.raises(ArgumentError, match="not a regular file"):
        sgf.read(tmp_path)
    reply = Engine(lambda g: "pass").handle(f"loadsgf {tmp_path / 'missing.sgf'}")
    assert reply is not None and reply.startswith("?") and "No such file" in reply


def test_an_encoding_no_codec_can_name_is_a_typed_error() -> None:
    for label in ("\ud800", "gb18030\udcff", "ｕｔｆ８"):
        with pytest.raises(ArgumentError, match="unknown encoding"):
            sgf.read(b"(;B[aa])", encoding=label)
    with pytest.raises(ArgumentError, match="unknown encoding"):
        sgf.read(b"(;B[aa])", encoding="nonsense")


# -- linear time ---------------------------------------------------------------------------


def cpu(kind: str, size: int) -> float:
    """The least CPU time of three readings of `size` bytes of `kind`."""
    data = stress_input(kind, size)
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        quiet_read(data, kind == "collection")
        best = min(best, time.process_time() - start)
    return best


@pytest.mark.parametrize("kind", ["undecodable", "repeated", "collection"])
def test_reading_is_linear_in_the_input(kind: str) -> None:
    # Four times the input: four times the time, not sixteen (each of these was quadratic).
    small, large = cpu(kind, 128 << 10), cpu(kind, 512 << 10)
    assert large < 8 * max(small, 0.005), (kind, small, large)


def test_what_the_stress_inputs_read_as() -> None:
    r = quiet_read(stress_input("repeated", 4000))
    assert isinstance(r, sgf.Record) and r.root.properties["C"] == ["x"] * 1000 and len(r.moves) == 1
    games = quiet_read(stress_input("collection", 900), True)
    assert isinstance(games, list) and len(games) == 100
    assert [(g.moves[0].line, g.moves[0].column) for g in games[:3]] == [(1, 2), (2, 2), (3, 2)]
    assert (games[-1].moves[0].line, games[-1].moves[0].column) == (100, 2)
    r = quiet_read(stress_input("undecodable", 3000))
    assert isinstance(r, sgf.Record) and r.charset == "windows-1252" and len(r.moves) == 1


def test_a_repeated_setup_point_is_one_problem_per_node() -> None:
    r = quiet_read(b"(;SZ[9]" + b"AB[aa]" * 10_000 + b";W[bb])")
    assert isinstance(r, sgf.Record) and r.setup["B"] == ["A9"]
    assert [p.property for p in r.problems] == ["AB"]
    assert isinstance(r.root.properties["AB"], list) and len(r.root.properties["AB"]) == 10_000
