"""ikeda.svg boards (parsed back with xml.etree) and the replay / render commands."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ikeda import Game
from ikeda.__main__ import main
from ikeda.svg import board

DATA = Path(__file__).parent / "data" / "sgf"
NS = "{http://www.w3.org/2000/svg}"


def classes(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    return [el.get("class", "") for el in root.iter()]


def count(svg: str, cls: str) -> int:
    return classes(svg).count(cls)


def test_stones_coordinates_and_last_move() -> None:
    g = Game(9)
    for m in ["E5", "C3", "G7", "pass", "D4"]:
        g.play(m)
    svg = board(g)
    assert count(svg, "stone black") == 3 and count(svg, "stone white") == 1
    assert count(svg, "last-move") == 1
    assert count(svg, "coord") == 4 * 9
    assert count(svg, "star") == 5  # 9x9: corners and centre
    assert count(svg, "move-number") == 0
    assert count(board(g, coordinates=False), "coord") == 0
    g.play("pass")  # the last move is a pass: no marker
    assert count(board(g), "last-move") == 0


@pytest.mark.parametrize(("size", "stars"), [(19, 9), (17, 9), (13, 5), (11, 5), (9, 5), (8, 4), (7, 4), (5, 0)])
def test_star_points(size: int, stars: int) -> None:
    assert count(board(Game(size)), "star") == stars


def test_last_move_is_marked_with_move_numbers_too() -> None:
    g = Game(9)
    for m in ["E5", "C3"]:
        g.play(m)
    svg = board(g, move_numbers=True)
    assert count(svg, "move-number") == 2 and count(svg, "last-move") == 1
    assert count(board(g, move_numbers=True, last_move=False), "last-move") == 0


def test_move_numbers_follow_the_stones_on_the_board() -> None:
    g = Game(5)
    for m in ["B1", "A1", "pass", "A2"]:  # numbers 1, 2 and 4; the pass has no stone
        g.play(m)
    svg = board(g, move_numbers=True)
    texts = sorted(el.text or "" for el in ET.fromstring(svg).iter() if el.get("class") == "move-number")
    assert texts == ["1", "2", "4"]
    setup = Game(5, setup={"B": ["C3"]})
    setup.play("D4")
    assert count(board(setup, move_numbers=True), "move-number") == 1


def test_territory_and_dead_stones() -> None:
    g = Game(5, setup={"B": ["C1", "C2", "C3", "C4", "C5"], "W": ["D1", "D2", "D3", "D4", "D5", "A3"]})
    plain = board(g, territory=True)
    # A3 alive: no territory on the left; White owns E (5 points)
    assert count(plain, "territory white") == 5 and count(plain, "territory black") == 0
    marked = board(g, territory=True, dead=["A3"])
    assert count(marked, "dead") == 1
    assert count(marked, "territory black") == 10  # the A and B files, the dead stone's point included
    assert count(marked, "stone white") == 6  # dead stones are still drawn (faded)


@pytest.mark.parametrize(("w", "h"), [(1, 1), (2, 7), (19, 19), (25, 25), (13, 4)])
def test_any_size(w: int, h: int) -> None:
    g = Game(width=w, height=h)
    if w * h > 1:
        g.play(0)
    svg = board(g, size=300)
    root = ET.fromstring(svg)
    assert max(float(root.get("width", 0)), float(root.get("height", 0))) == pytest.approx(300, abs=1)
    assert count(svg, "stone black") == (1 if w * h > 1 else 0)


def test_repr_svg_for_jupyter() -> None:
    g = Game(9)
    g.play("E5")
    assert g._repr_svg_() == board(g)


def test_render_command_writes_svg_and_png(tmp_path: Path) -> None:
    svg_out, png_out = tmp_path / "b.svg", tmp_path / "b.png"
    assert main(["render", str(DATA / "random_9x9_area3.sgf"), "--move", "20", "-o", str(svg_out), "--numbers"]) == 0
    svg = svg_out.read_text()
    assert count(svg, "stone black") + count(svg, "stone white") <= 20
    assert count(svg, "move-number") == count(svg, "stone black") + count(svg, "stone white")
    pytest.importorskip("cairosvg")
    assert main(["render", str(DATA / "handicap.sgf"), "-o", str(png_out), "--territory"]) == 0
    assert png_out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["render", str(DATA / "handicap.sgf"), "-o", str(tmp_path / "b.gif")]) == 2


def test_replay_command_json_and_exit_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = [str(DATA / "random_9x9_area3.sgf"), str(DATA / "rectangular.sgf")]
    assert main(["replay", "--quiet", *good]) == 0
    assert "replayed to the end" in capsys.readouterr().out
    assert main(["replay", "--json", *good, str(DATA / "illegal_occupied.sgf"), str(DATA / "malformed")]) == 1
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == 3 + len(list((DATA / "malformed").glob("*.sgf")))
    by_name = {Path(r["path"]).name: r for r in rows}
    assert by_name["illegal_occupied.sgf"]["illegal"] == {"number": 4, "color": "W", "vertex": "E5", "reason": "occupied"}
    assert by_name["off_board.sgf"]["line"] == 3 and by_name["random_9x9_area3.sgf"]["status"] == "ok"
    assert main(["replay", str(tmp_path)]) == 2  # no SGF files


def test_japanese_territory_marks_the_stones_status_confirmation_finds_dead() -> None:
    g = Game(5, rules="japanese")
    for mv in ["A2", "A3", "B2", "B3", "C2", "C3", "D2", "D3", "E2", "E3", "B1", "A4", "E1", "B4", "pass", "C4", "pass", "D4", "pass", "E4", "pass", "B5", "pass", "D5", "pass", "E5", "pass", "C1"]:
        g.play(mv)
    shown = board(g, territory=True)
    assert count(shown, "dead") == 1
    assert count(board(g), "dead") == 0, "no marks unless territory is asked for"
