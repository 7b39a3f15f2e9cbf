"""``ikeda render`` and ``svg.board``: the count of a finished record by default, typed
errors for bad sizes and outputs."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ikeda import ArgumentError, Game
from ikeda.__main__ import main
from ikeda.status import japanese_score
from ikeda.svg import board

NS = "{http://www.w3.org/2000/svg}"
# Black walls column B, White column D on 5x5; a dead white stone at A3 in Black's area.
MOVES = "B2 D2 B3 D3 B4 D4 B1 D1 B5 D5 pass A3".split()


def texts(svg: str, cls: str) -> list[str]:
    return [el.text or "" for el in ET.fromstring(svg).iter(NS + "text") if el.get("class") == cls]


def record(tmp_path: Path, ru: str = "Japanese", end: str = ";B[];W[]", re_: str = "B+1.5") -> Path:
    sgf_moves = "".join(f";{'BW'[k % 2]}[{'abcde'[ord(m[0]) - 65]}{'edcba'[int(m[1:]) - 1]}]" for k, m in enumerate(MOVES[:10]))
    p = tmp_path / "game.sgf"
    p.write_text(f"(;GM[1]FF[4]SZ[5]RU[{ru}]KM[0.5]RE[{re_}]{sgf_moves};B[];W[ac]{end})")
    return p


def test_render_of_a_finished_record_shows_the_count(tmp_path: Path) -> None:
    out = tmp_path / "b.svg"
    assert main(["render", str(record(tmp_path)), "-o", str(out)]) == 0
    svg = out.read_text()
    caption = texts(svg, "caption")
    # Japanese counting: the White stone at A3 is dead (status confirmation), so Black has
    # 5 territory + 1 prisoner, White 5 territory + 0.5 komi.
    assert caption[0] == "Black 6 = 5 territory + 1 prisoners"
    assert caption[1] == "White 5.5 = 5 territory + 0 prisoners + 0.5 komi"
    assert "dead stones: 1" in caption[2]
    assert caption[3].startswith("B+0.5 by japanese counting (recorded: B+1.5)")
    assert caption[4] == "status proven for every stone (11)"
    classes = [el.get("class") for el in ET.fromstring(svg).iter()]
    assert classes.count("dead") == 1 and classes.count("territory black") >= 5
    bare = tmp_path / "bare.svg"
    assert main(["render", str(record(tmp_path)), "-o", str(bare), "--no-count"]) == 0
    assert texts(bare.read_text(), "caption") == [] and "dead" not in bare.read_text()


def test_render_takes_the_rules_from_ru_and_counts_only_finished_records(tmp_path: Path) -> None:
    out = tmp_path / "b.svg"
    assert main(["render", str(record(tmp_path, ru="Chinese")), "-o", str(out)]) == 0
    assert "by area2 counting" in texts(out.read_text(), "caption")[-1]
    # A resigned record is not finished by a count: no caption, unless it ended by passes.
    assert main(["render", str(record(tmp_path, end="", re_="W+R")), "-o", str(out)]) == 0
    assert texts(out.read_text(), "caption") == []
    assert main(["render", str(record(tmp_path)), "-o", str(out), "--move", "4"]) == 0
    assert texts(out.read_text(), "caption") == []


def test_a_legend_explains_estimated_stones() -> None:
    g = Game(5, rules="japanese:komi=0.5")
    for m in MOVES + ["pass", "pass"]:
        g.play(m)
    assert texts(board(g, count=True), "legend") == []
    import ikeda.svg as svg_module

    real = Game.final_status

    def estimated(self: Game) -> dict[str, list[str]]:
        out = real(self)
        out["estimated"] = ["A3"]
        return out

    try:
        Game.final_status = estimated  # type: ignore[method-assign]
        assert texts(svg_module.board(g, count=True), "legend") == [
            "dashed ring: status estimated (a region beyond the search), not proven"
        ]
    finally:
        Game.final_status = real  # type: ignore[method-assign]


def test_estimated_stones_are_counted_ringed_and_explained(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """With the status search starved (one state, the whole board one region) every chain
    is estimated: the caption, the rings, the legend and the command's line all say so."""
    import ikeda.status

    real = ikeda.status.confirm_status
    monkeypatch.setattr(ikeda.status, "confirm_status", lambda position, **kw: real(position, **{**kw, "budget": 1, "split": False, "playouts": 50}))
    out = tmp_path / "b.svg"
    assert main(["render", str(record(tmp_path)), "-o", str(out)]) == 0
    svg = out.read_text()
    assert texts(svg, "caption")[-1] == "status proven for 0 of 11 stones, 11 estimated"
    assert [el.get("class") for el in ET.fromstring(svg).iter()].count("estimated") == 11
    assert texts(svg, "legend") == ["dashed ring: status estimated (a region beyond the search), not proven"]
    assert capsys.readouterr().out.rstrip().endswith("with the count; status proven for 0 of 11 stones, 11 estimated)")


@pytest.mark.parametrize("size", [math.nan, math.inf, 0, -1, "x", None, 10**400, 15, 8193, True])
def test_board_size_is_checked(size: object) -> None:
    with pytest.raises(ArgumentError, match="size"):
        board(Game(9), size=size)  # type: ignore[arg-type]


@pytest.mark.parametrize("size", ["-5", "0", "30000", "40000"])
def test_render_size_out_of_range_is_a_typed_error(tmp_path: Path, size: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "b.svg"
    assert main(["render", str(record(tmp_path)), "-o", str(out), "--size", size]) == 2
    assert capsys.readouterr().err.startswith("ikeda: --size must be within")
    assert not out.exists()


def test_render_output_errors_are_typed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sgf = str(record(tmp_path))
    folder = tmp_path / "folder.svg"
    folder.mkdir()
    for out, why in ((tmp_path / "missing" / "b.svg", "no directory"), (folder, "is a directory")):
        assert main(["render", sgf, "-o", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("ikeda: cannot write") and why in err, err


def test_render_onto_a_full_disk_is_a_typed_error(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    def full(self: Path, *args: object, **kwargs: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    sgf = str(record(tmp_path))
    monkeypatch.setattr(Path, "write_text", full)
    assert main(["render", sgf, "-o", str(tmp_path / "b.svg")]) == 2
    assert capsys.readouterr().err == f"ikeda: cannot write {tmp_path / 'b.svg'}: No space left on device\n"


@pytest.mark.parametrize("komi", [1e308, -1e308, 0.3, 1000.5, -1001])
def test_japanese_score_komi_is_bounded_like_every_komi(komi: float) -> None:
    with pytest.raises(ArgumentError, match="komi"):
        japanese_score([".X.", "XX.", "..."], komi=komi)
    assert japanese_score([".X.", "XX.", "..."], komi=1000).white == 1000
