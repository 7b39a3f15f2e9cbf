"""``ikeda replay`` and ``sgf.replay_many``: the recorded result beside our count, Japanese
counting only where the record was counted, trailing setup, ``--tolerant``, full names."""

from __future__ import annotations

import io
import json
import re
import sys
import threading
import time
import warnings
from pathlib import Path

import pytest

from ikeda import sgf
from ikeda.errors import ArgumentError, IkedaError
from ikeda.__main__ import main
from ikeda.cli.replay import agreement, recorded_outcome

# Black owns the left, White the right, of a 5x5 board; then two passes. A3 and E3 give
# each wall two eyes, so that status confirmation proves both alive statically (Benson's
# test) in milliseconds: walls with one five-point eye each are alive too, but only the
# search of the whole board says so, and it spends the whole budget (5 s of CPU) first.
WALLS = ";B[bc];W[dc];B[bb];W[db];B[bd];W[dd];B[ba];W[da];B[be];W[de];B[ac];W[ec]"


def write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


@pytest.mark.parametrize("ru", ["Japanese", "Chinese"])
def test_setup_after_the_last_move_is_markup_in_both_replays(tmp_path: Path, ru: str) -> None:
    # How real records mark dead stones after the last move: AE/AB after it, no passes.
    text = f"(;GM[1]FF[4]SZ[5]RU[{ru}]KM[0.5]RE[B+R]{WALLS};AE[dc]AB[ee];PL[W])"
    path = write(tmp_path, "trailing.sgf", text)
    [native] = sgf.replay_many([path], rules="area3")
    record = sgf.read(text)
    game = record.replay("area3")
    assert native.ok and native.moves == len(record.moves) == 12
    assert (native.black, native.white) == (game.score().black, game.score().white)
    assert [p.reason for p in record.problems] == ["setup"]
    assert "after the last move is markup" in record.problems[0].message
    # Under the record's own rules (the Japanese preset goes through Record.replay): a
    # result, not an IndexError, and the same moves.
    [own] = sgf.replay_many([path])
    assert own.ok and own.moves == 12 and own.recorded == "B+R"


def test_japanese_records_are_counted_only_when_the_result_is_a_count(tmp_path: Path) -> None:
    head = "(;GM[1]FF[4]SZ[5]RU[Japanese]KM[0.5]"
    resigned = write(tmp_path, "a-resigned.sgf", head + f"RE[W+R]{WALLS})")
    counted = write(tmp_path, "b-counted.sgf", head + f"RE[B+0.5]{WALLS};B[];W[])")
    timed = write(tmp_path, "c-time.sgf", head + f"RE[B+T]{WALLS};B[];W[])")
    chinese = write(tmp_path, "d-chinese.sgf", f"(;GM[1]FF[4]SZ[5]RU[Chinese]KM[0.5]RE[B+R]{WALLS})")
    results = sgf.replay_many([resigned, counted, timed, chinese], threads=2)
    assert [r.path for r in results] == [resigned, counted, timed, chinese]  # input order
    by = {Path(r.path).name: r for r in results}
    assert by["a-resigned.sgf"].black is None and by["c-time.sgf"].black is None
    # 4 points of territory each (the walls and their eyes' dividers are stones), komi to White.
    assert (by["b-counted.sgf"].black, by["b-counted.sgf"].white) == (4, 4.5)
    assert by["d-chinese.sgf"].black is not None  # area counting is native and always counts
    assert [r.rules for r in results] == ["japanese"] * 3 + ["area2"]
    assert [r.recorded for r in results] == ["W+R", "B+0.5", "B+T", "B+R"]
    # Only a Japanese count says how much of it is estimated: here nothing.
    assert [r.estimated for r in results] == [None, 0, None, None]


def test_the_summary_tells_proven_japanese_counts_from_estimated_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    counted = write(tmp_path, "counted.sgf", f"(;GM[1]FF[4]SZ[5]RU[Japanese]KM[0.5]RE[B+0.5]{WALLS};B[];W[])")
    monkeypatch.setenv("COLUMNS", "200")
    row = r"every status proven / some estimated\s*│\s*{} / {}\s*│"
    assert main(["replay", "--quiet", counted]) == 0
    assert re.search(row.format(1, 0), capsys.readouterr().out)
    import ikeda.status

    real = ikeda.status.confirm_status
    monkeypatch.setattr(ikeda.status, "confirm_status", lambda position, **kw: real(position, **{**kw, "budget": 1, "split": False, "playouts": 50}))
    assert main(["replay", "--quiet", counted]) == 0
    assert re.search(row.format(0, 1), capsys.readouterr().out)
    assert main(["replay", "--json", counted]) == 0
    assert json.loads(capsys.readouterr().out)["estimated"] == 12


def test_recorded_results_are_read_and_compared() -> None:
    assert recorded_outcome("B+3.5") == ("B", 3.5)
    assert recorded_outcome("W+R") == ("W", None)
    assert recorded_outcome("0") == ("0", 0.0) and recorded_outcome("Draw") == ("0", 0.0)
    assert recorded_outcome("?") == (None, None) and recorded_outcome(None) == (None, None)
    assert sgf.result_is_count("W+0.5") and not sgf.result_is_count("B+Resign")
    r = sgf.ReplayResult("x", "ok", 9, None, True, 10.0, 6.5, None, None, None, "B+3.5", "area3")
    assert agreement(r) == {"winner_agrees": True, "margin_agrees": True}
    assert agreement(sgf.ReplayResult("x", "ok", 9, None, True, 10.0, 6.5, None, None, None, "B+1.5", "area3")) == {
        "winner_agrees": True, "margin_agrees": False}
    assert agreement(sgf.ReplayResult("x", "ok", 9, None, True, 10.0, 6.5, None, None, None, "W+R", "area3")) == {
        "winner_agrees": None, "margin_agrees": None}


def test_json_has_one_line_per_file_with_the_recorded_result(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = write(tmp_path, "a.sgf", f"(;GM[1]FF[4]SZ[5]RU[Japanese]KM[0.5]RE[W+0.5]{WALLS};B[];W[])")
    b = write(tmp_path, "b.sgf", f"(;GM[1]FF[4]SZ[5]KM[0.5]RE[B+2]{WALLS};B[];W[])")
    assert main(["replay", "--json", a, b]) == 0
    lines = sorted((json.loads(x) for x in capsys.readouterr().out.splitlines()), key=lambda x: str(x["path"]))
    assert [x["path"] for x in lines] == [a, b]
    assert lines[0]["recorded"] == "W+0.5" and lines[0]["result"] == "W+0.5" and lines[0]["margin_agrees"] is True
    # Area III: 10 points each, 6 stones and 4 eyes (the middle column is neither's), komi to White.
    assert lines[1]["recorded"] == "B+2" and lines[1]["result"].startswith("W+") and lines[1]["winner_agrees"] is False


def test_tolerant_replays_past_a_refused_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "occupied.sgf", "(;GM[1]FF[4]SZ[5];B[cc];W[cc];W[dd])")
    assert main(["replay", "--json", path]) == 1
    assert json.loads(capsys.readouterr().out)["status"] == "illegal"
    assert main(["replay", "--json", "--tolerant", path]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["status"] == "ok" and line["moves"] == 3


def test_table_shows_full_file_names_and_agreement_by_ruleset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    name = "a-record-with-a-long-name-that-a-narrow-column-would-cut-" + "x" * 40 + ".sgf"
    path = write(tmp_path, name, "(;GM[1]FF[4]SZ[5];B[cc];W[cc])")
    write(tmp_path, "counted.sgf", f"(;GM[1]FF[4]SZ[5]RU[Japanese]KM[0.5]RE[B+0.5]{WALLS};B[];W[])")
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["replay", "--quiet", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "…" not in out and "by ruleset" in out and "japanese" in out  # folded, never cut
    monkeypatch.setenv("COLUMNS", "400")
    assert main(["replay", "--quiet", str(tmp_path)]) == 1
    assert path in capsys.readouterr().out


def test_json_lines_are_streamed_as_each_record_finishes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A record of the Python path held back until released: the lines of the native one and
    # of another Japanese one are printed meanwhile, not all at the end.
    native = write(tmp_path, "a-native.sgf", f"(;GM[1]FF[4]SZ[5]KM[0.5]RE[B+2]{WALLS};B[];W[])")
    held = write(tmp_path, "b-held.sgf", f"(;GM[1]FF[4]SZ[5]RU[Japanese]KM[0.5]RE[B+R]{WALLS})")
    quick = write(tmp_path, "c-quick.sgf", f"(;GM[1]FF[4]SZ[5]RU[Japanese]KM[0.5]RE[W+R]{WALLS})")
    release = threading.Event()
    replay_python = sgf._replay_python

    def held_back(path: str, *args: object) -> sgf.ReplayResult:
        if path == held:
            release.wait(30)
        return replay_python(path, *args)  # type: ignore[arg-type]

    class Lines(io.StringIO):  # what is printed, read while the command runs
        def lines(self) -> list[str]:
            return self.getvalue().splitlines()

    out = Lines()
    monkeypatch.setattr(sgf, "_replay_python", held_back)
    monkeypatch.setattr(sys, "stdout", out)
    codes: list[int] = []
    run = threading.Thread(target=lambda: codes.append(main(["replay", "--json", "--threads", "2", native, held, quick])))
    run.start()
    deadline = time.monotonic() + 30
    while len(out.lines()) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    early = sorted(json.loads(x)["path"] for x in out.lines())
    alive = run.is_alive()
    release.set()
    run.join(30)
    assert early == [native, quick] and alive
    lines = [json.loads(x) for x in out.lines()]
    assert [(x["path"], x["recorded"]) for x in lines[2:]] == [(held, "B+R")]
    assert codes == [0]


def test_replay_iter_gives_replay_many_results(tmp_path: Path) -> None:
    paths = [
        write(tmp_path, "area.sgf", f"(;GM[1]FF[4]SZ[5]KM[0.5]RE[B+2]{WALLS};B[];W[])"),
        write(tmp_path, "japanese.sgf", f"(;GM[1]FF[4]SZ[5]RU[Japanese]KM[0.5]RE[W+R]{WALLS})"),
        write(tmp_path, "illegal.sgf", "(;GM[1]FF[4]SZ[5];B[cc];W[cc])"),
        str(tmp_path / "missing.sgf"),
    ]
    many = sgf.replay_many(paths, chunk=1)
    streamed = list(sgf.replay_iter(paths, chunk=1))
    assert sorted(streamed, key=lambda r: r.path) == sorted(many, key=lambda r: r.path)
    assert [r.status for r in many] == ["ok", "ok", "illegal", "unreadable"]


def test_records_with_problems_replay_on_threads_without_warnings(tmp_path: Path) -> None:
    # Fox's KM[750] is read as 7.5 and listed as a problem. The Python path's pool reads
    # such records on two threads: no SgfWarning escapes (the tests turn warnings into
    # errors) and the process's warning filters are left as they were.
    paths = [
        write(tmp_path, f"{i:03d}.sgf", f"(;GM[1]FF[4]SZ[5]RU[Japanese]KM[750]RE[W+R]{WALLS})") for i in range(300)
    ]
    filters = list(warnings.filters)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        results = sgf.replay_many(paths, threads=2)
        assert [w.message for w in caught] == []
    assert warnings.filters == filters
    assert {(r.status, r.recorded) for r in results} == {("ok", "W+R")}
    with pytest.warns(sgf.SgfWarning, match="hundredths"):  # read alone says so
        sgf.read(Path(paths[0]))


def test_replay_iter_refuses_bad_arguments_before_it_is_iterated() -> None:
    with pytest.raises(ArgumentError, match="threads must be >= 0"):
        sgf.replay_iter(["a.sgf"], threads=-1)
    with pytest.raises(IkedaError):
        sgf.replay_iter(["a.sgf"], rules="no-such-rules")
