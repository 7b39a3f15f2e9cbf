"""`ikeda match` end to end: the referee against scripted faulty engines, the built-in bot
against GNU Go, SGF files and the results."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from ikeda import AREA_III, Game
from ikeda.__main__ import main
from ikeda.match import run_match

from engines import GNUGO, MOCK, needs_gnugo

BOT = [sys.executable, "-m", "ikeda", "gtp", "--playouts", "300"]


def replay(path: Path) -> Game:
    """Our own replay of a written SGF's moves (a check of the file, not of the referee)."""
    text = path.read_text()
    size = int(re.search(r"SZ\[(\d+)\]", text).group(1))  # type: ignore[union-attr]
    komi = float(re.search(r"KM\[([-\d.]+)\]", text).group(1))  # type: ignore[union-attr]
    rules = re.search(r"RU\[([^\]]+)\]", text).group(1)  # type: ignore[union-attr]
    game = Game(size, komi=komi, rules=rules)
    for color, point in re.findall(r";([BW])\[(\w*)\]", text):
        assert color == game.to_move
        game.play("pass" if not point else "ABCDEFGHJKLMNOPQRSTUVWXYZ"[ord(point[0]) - 97] + str(size - (ord(point[1]) - 97)))
    return game


def test_mock_games_alternate_colours_and_write_sgf(tmp_path: Path) -> None:
    seen = []
    result = run_match(
        [*MOCK, "--seed", "1", "--name", "one"], [*MOCK, "--seed", "2", "--name", "two"], games=2, size=7,
        rules=AREA_III.replace(komi=0.5), timeout=20, sgf_dir=str(tmp_path), on_game=lambda r, s: seen.append(r.result),
    )
    assert [(g.black, g.white) for g in result.games] == [("A", "B"), ("B", "A")]
    assert len(seen) == 2 and result.engines["A"].games == 2
    for g in result.games:
        assert g.reason == "score" and g.sgf is not None
        game = replay(Path(g.sgf))
        text = Path(g.sgf).read_text()
        assert f"RE[{g.result}]" in text and "RU[area3]" in text and "KM[0.5]" in text
        assert game.is_over and game.score().result == g.result  # the referee's own count
        assert g.margin == game.score().margin and g.first_passer == game.first_passer
    a, b = result.engines["A"], result.engines["B"]
    assert a.wins + b.wins + a.draws == 2 and (a.name, b.name) == ("one", "two")
    assert a.mean_margin == pytest.approx(-(b.mean_margin or 0.0))


@pytest.mark.parametrize("fault", ["garbage", "flood", "crash", "hang", "illegal", "refuse"])
def test_a_faulty_engine_forfeits_and_the_match_goes_on(fault: str, tmp_path: Path) -> None:
    result = run_match(
        [*MOCK, "--fault", fault, "--at", "3"], MOCK, games=2, size=5, rules=AREA_III, timeout=1.5, sgf_dir=str(tmp_path)
    )
    assert len(result.games) == 2 and len(list(tmp_path.glob("*.sgf"))) == 2
    for g in result.games:
        faulty = "B" if g.black == "A" else "W"
        assert g.reason == "forfeit" and g.winner != faulty and g.result.endswith("+F"), g
        assert f"RE[{g.result}]" in Path(g.sgf or "").read_text()
    assert result.engines["A"].forfeits == 2 and result.engines["B"].wins == 2


def test_an_engine_that_cannot_start_loses_every_game() -> None:
    result = run_match(["/nonexistent/engine"], MOCK, games=2, size=5, rules=AREA_III, timeout=5)
    assert [g.reason for g in result.games] == ["forfeit", "forfeit"]
    assert all("setup failed" in g.detail for g in result.games)
    assert result.engines["B"].wins == 2


@needs_gnugo
def test_builtin_bot_against_gnu_go_cli_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["match", "--black", " ".join(BOT), "--white", " ".join(GNUGO), "--games", "1", "--size", "7",
            "--komi", "4.5", "--sgf-dir", str(tmp_path), "--timeout", "60", "--json", "--quiet"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    (game,) = out["games"]
    assert game["reason"] in ("score", "resign") and out["engines"]["B"]["name"] == "GNU Go"
    assert out["engines"]["A"]["name"] == "ikeda-mcts" and out["rules"] == "area3:komi=4.5"
    replayed = replay(Path(game["sgf"]))
    if game["reason"] == "score":
        assert replayed.is_over and replayed.score().result == game["result"]
    lo, hi = out["engines"]["A"]["ci95"]
    assert 0 <= lo <= out["engines"]["A"]["score"] <= hi <= 1


def test_cli_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--black", " ".join(MOCK), "--white", " ".join(BOT), "--games", "2", "--size", "5", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "2 games, 5x5, area3" in out and "B: ikeda-mcts" in out and "A: mock" in out
