"""``ikeda regress``: GNU Go's regression format (numbered commands, ``#? [regex]``,
``*`` expected failures, ``&`` ignored, ``!`` negation, ``loadsgf`` paths relative to
the file) against ikeda's own engine and GNU Go, and GNU Go's public score.tst."""

from __future__ import annotations

import os
import sys

from engines import GNUGO, needs_gnugo
from ikeda.cli import main
from ikeda.conform.regress import run
from ikeda.gtp import GtpController

DATA = os.path.join(os.path.dirname(__file__), "data", "gnugo-regress")
IKEDA_GTP = [sys.executable, "-m", "ikeda", "gtp", "--playouts", "1", "--rules", "japanese"]

SAMPLE = """# a comment
boardsize 5
clear_board
play b c3
1 known_command play
#? [true]
2 known_command is_legal
#? [!true]
3 known_command play
#? [false]*
4 known_command play
#? [tr.e]*
5 name
#? [nothing]&
6 play w c3
#? [.*]
loadsgf games/seki04.sgf
7 final_status_list seki
#? [.*]
"""


def test_the_format_verdicts(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "games").mkdir()
    with open(os.path.join(DATA, "games", "seki04.sgf"), encoding="utf-8") as f:
        (tmp_path / "games" / "seki04.sgf").write_text(f.read(), encoding="utf-8")
    path = tmp_path / "sample.tst"
    path.write_text(SAMPLE, encoding="utf-8")
    with GtpController(IKEDA_GTP, timeout=60) as engine:
        report = run(str(path), engine)
    verdicts = {c.number: c.verdict for c in report.cases}
    # 2: "is_legal" is not an ikeda command: not "true";
    # 6: an illegal play is a "?" reply, a failure even against ".*";
    # 7: the relative loadsgf path was found (a "=" reply).
    assert verdicts == {1: "pass", 2: "pass", 3: "expected fail", 4: "unexpected pass", 5: "ignored",
                        6: "fail", 7: "pass"}
    assert report.exit_code == 1 and report.cases[0].line == 5


def _first_score_cases(tmp_path) -> str:  # type: ignore[no-untyped-def]
    """score.tst's cases 2-6 (the whole file takes minutes), its paths made absolute."""
    with open(os.path.join(DATA, "score.tst"), encoding="utf-8") as f:
        text = f.read()
    text = text[: text.index("loadsgf games/scoring/score7.sgf")].replace("loadsgf games/", f"loadsgf {DATA}/games/")
    path = tmp_path / "score-2-6.tst"
    path.write_text(text, encoding="utf-8")
    return str(path)


@needs_gnugo
def test_gnu_go_and_ikeda_agree_on_the_first_score_cases(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """Japanese counting with status confirmation gives GNU Go's expected scores."""
    path = _first_score_cases(tmp_path)
    for engine in (" ".join([*GNUGO[:3], "--level", "1"]), " ".join(IKEDA_GTP)):
        code = main(["regress", path, "--engine", engine])
        assert code == 0 and "5 passed, 0 failed" in capsys.readouterr().out, engine
