"""The GTP engine framework: protocol, commands, rules, and robustness to bad input."""

from __future__ import annotations

import importlib.util
import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikeda import Game, confirm_status
from ikeda import status as ikeda_status
from ikeda.gtp import Engine, MctsEngine

REQUIRED = (
    "protocol_version name version known_command list_commands quit boardsize clear_board komi play genmove "
    "undo showboard final_score final_status_list fixed_handicap place_free_handicap set_free_handicap loadsgf "
    "printsgf kgs-genmove_cleanup ikeda-rules time_settings kgs-time_settings time_left ikeda-final_status_proofs"
).split()


def first_legal(game: Game) -> str:
    return game.legal_moves()[0]


def ask(engine: Engine, *lines: str) -> list[str]:
    """Replies without the status character and the final blank line; failures keep '?'."""
    out = []
    for line in lines:
        reply = engine.handle(line)
        assert reply is not None and reply.endswith("\n\n"), (line, reply)
        out.append(reply[1:-2].strip() if reply[0] == "=" else "?" + reply[1:-2])
    return out


def test_protocol_basics() -> None:
    e = Engine(first_legal, name="first", version="9")
    assert e.handle("protocol_version") == "= 2\n\n"
    assert e.handle("7 name") == "=7 first\n\n"
    assert e.handle("\t# only a comment") is None and e.handle("   ") is None
    assert e.handle("12 frobnicate") == "?12 unknown command\n\n"
    listed = ask(e, "list_commands")[0].split("\n")
    assert sorted(listed) == sorted(REQUIRED)
    assert ask(e, "known_command genmove", "known_command frob", "version") == ["true", "false", "9"]
    assert ask(e, "known_command", "known_command a b") == ["? syntax error: known_command takes one command name"] * 2


def test_play_genmove_undo_and_illegal_moves() -> None:
    e = Engine(first_legal)
    assert ask(e, "boardsize 5", "clear_board", "play B c3", "genmove w") == ["", "", "", "A5"]
    assert ask(e, "play b c3")[0].startswith("? illegal move") and "occupied" in ask(e, "play b c3")[0]
    assert ask(e, "play b z9")[0].startswith("? illegal move")
    assert ask(e, "play purple a1")[0].startswith("? syntax error")
    assert ask(e, "play b")[0].startswith("? syntax error")
    assert e.game.moves == ["C3", "A5"]
    assert ask(e, "undo", "undo", "undo") == ["", "", "? cannot undo"]
    assert ask(e, "play w a1") == [""] and e.game.moves == ["A1"]
    assert ask(e, "boardsize 0", "boardsize 26", "boardsize x") == ["? unacceptable size"] * 2 + ["? syntax error: 'x' is not an integer"]
    # White may move first on an empty board
    assert ask(e, "play w c3") == [""] and e.game.to_move == "B"


def test_final_score_follows_the_ruleset_with_the_first_pass_half_point() -> None:
    e = Engine(first_legal)
    # White passes first, then two passes in succession end the game (Rule 6).
    ask(e, "boardsize 5", "komi 0", "play b c3", "play w pass", "play b pass", "play w pass")
    assert e.game.is_over and e.game.first_passer == "W"
    assert ask(e, "final_score") == ["B+24"]  # 25 points, half a point to White
    # Under Area II the game ended a move earlier: the record cannot be replayed.
    assert ask(e, "ikeda-rules area2")[0].startswith("? the game so far is not a game under area2")
    assert ask(e, "ikeda-rules") == ["area3:komi=0"]
    assert ask(e, "ikeda-rules area3:komi=2") == ["area3:komi=2"] and ask(e, "final_score") == ["B+22"]
    a2 = Engine(first_legal)
    ask(a2, "boardsize 5", "komi 0", "ikeda-rules area2", "play b c3", "play w pass", "play b pass")
    assert a2.game.is_over and ask(a2, "final_score") == ["B+25"]  # no half point
    assert ask(e, "ikeda-rules nonsense")[0].startswith("? unknown ruleset")
    assert ask(e, "komi 7.25")[0].startswith("? komi must be a multiple of 1/2")
    assert ask(e, "komi x")[0].startswith("? syntax error")
    assert str(e.rules) == "area3:komi=2"  # refused changes leave everything as it was
    # After the end: a play is illegal, genmove answers pass without recording it.
    assert ask(e, "genmove b") == ["pass"]  # (a play after the end resumes: test_gtp_analysis.py)
    assert ask(e, "final_status_list alive") == ["C3"]
    assert ask(e, "final_status_list dead", "final_status_list foo") == ["", "? syntax error: final_status_list takes alive, dead, seki, estimated or proven"]


def test_consecutive_moves_of_one_colour_set_up_the_position() -> None:
    e = Engine(first_legal, rules="area3")
    assert ask(e, "boardsize 5", "play b c3", "play w b2", "play b pass") == ["", "", "", ""]
    assert e.game.first_passer == "B"
    assert ask(e, "clear_board", "play b c3", "play w b2", "play b d2", "play w pass") == ["", "", "", "", ""]
    assert e.game.first_passer == "W"
    # Black to move; White plays again: accepted as setup, no pass invented
    assert ask(e, "play w d4", "play w a5") == ["", ""]
    assert e.game.first_passer is None and e.game.setup == {"B": ["C3", "D2"], "W": ["D4", "B2"]}
    assert e.game.moves == ["A5"] and e.game.to_move == "B"
    # captures still happen: White surrounds C3 by plays of one colour
    assert ask(e, "play w b3", "play w c4", "play w d3", "play w c2") == ["", "", "", ""]
    assert e.game.to_numpy()[2, 2] == 0
    assert ask(e, "undo", "undo") == ["", "? cannot undo"]  # back to the setup, no further
    text = ask(e, "printsgf")[0]
    assert "AB[cc]" in text and "AW[" in text and "PL[W]" in text


def test_clock_commands_and_time_for_move() -> None:
    e = Engine(first_legal)
    assert e.time_for_move() is None
    assert ask(e, "boardsize 9", "time_settings 300 30 5") == ["", ""]
    main_time = e.time_for_move()
    assert main_time is not None and 0.05 < main_time < 300 / 10
    assert ask(e, "time_left b 25 5") == [""]
    assert e.time_for_move("B") == pytest.approx(0.9 * 5 - 0.1)
    assert ask(e, "time_left w 0.1 1") == [""] and e.time_for_move("W") == 0.05
    assert ask(e, "time_settings 0 1 0") == [""] and e.time_for_move() is None  # no limit
    assert ask(e, "kgs-time_settings byoyomi 60 10 3", "time_left b 8 1") == ["", ""]
    assert e.time_for_move("B") == pytest.approx(0.9 * 8 - 0.1)
    assert ask(e, "kgs-time_settings canadian 0 100 25", "kgs-time_settings absolute 600", "kgs-time_settings none") == ["", "", ""]
    assert e.time_for_move() is None
    bad = ask(e, "time_settings 1 2", "time_left x 1 1", "time_left b -1 0", "kgs-time_settings byoyomi 1", "kgs-time_settings fischer 1 2")
    assert all(r.startswith("? syntax error") for r in bad), bad


def test_the_bot_spends_the_time_the_clock_gives() -> None:
    import time

    bot = MctsEngine(seed=3)  # 10,000 playouts by default; the clock bounds each move
    assert ask(bot, "boardsize 9", "time_settings 0 0.5 1", "time_left b 0.5 1") == ["", "", ""]
    start = time.perf_counter()
    assert ask(bot, "genmove b")[0][0] != "?"
    assert time.perf_counter() - start < 2.0
    assert bot.time_for_move("B") == pytest.approx(0.9 * 0.5 - 0.1)


def test_handicap_commands() -> None:
    e = Engine(first_legal)
    assert ask(e, "boardsize 9", "fixed_handicap 4") == ["", "C3 G7 C7 G3"]
    assert e.game.to_move == "W" and ask(e, "fixed_handicap 2") == ["? board not empty"]
    assert ask(e, "clear_board", "fixed_handicap 10", "fixed_handicap 1") == ["", "? invalid number of stones", "? invalid number of stones"]
    assert ask(e, "place_free_handicap 3") == ["C3 G7 C7"]
    assert ask(e, "clear_board", "set_free_handicap a1 a1")[1] == "? bad vertex list"
    assert ask(e, "set_free_handicap a1 A1") == ["? bad vertex list"]  # one point, two spellings
    assert ask(e, "set_free_handicap a1 PaSs") == ["? bad vertex list"]
    assert ask(e, "set_free_handicap a1 b2 z9")[0].startswith("? bad vertex list")
    assert ask(e, "set_free_handicap a1 b2", "genmove w") == ["", "A9"]
    assert ask(e, "printsgf")[0].count("AB[") == 1
    for command in ("fixed_handicap 3", "place_free_handicap 3", "set_free_handicap c3 g7 c7"):
        assert ask(e, "clear_board", command)[1] != ""  or command.startswith("set")
        text = ask(e, "printsgf")[0]
        assert "HA[3]" in text, command
    assert "HA[" not in ask(e, "clear_board", "printsgf")[1]


def test_printsgf_and_loadsgf(tmp_path: Path) -> None:
    e = Engine(first_legal)
    ask(e, "boardsize 9", "play b e5", "play w pass")
    path = tmp_path / "g.sgf"
    assert ask(e, f"printsgf {path}") == [""]
    text = path.read_text()
    assert "SZ[9]" in text and "RU[area3]" in text and ";B[ee]" in text and ";W[]" in text
    assert ask(e, f"printsgf {tmp_path}/missing/g.sgf")[0].startswith("? cannot write")
    ask(e, "clear_board")
    reply = ask(e, f"loadsgf {path}")[0]
    if importlib.util.find_spec("ikeda.sgf") is None:
        assert reply == "? loadsgf is not available: it needs ikeda.sgf"
    else:
        assert reply == "" and e.game.moves == ["E5", "pass"]
        assert ask(e, f"loadsgf {path} 2") == [""] and e.game.moves == ["E5"]


def test_policy_failures_are_answered_and_the_engine_goes_on() -> None:
    def broken(game: Game) -> str:
        raise RuntimeError("boom")

    e = Engine(broken)
    assert ask(e, "genmove b") == ["? internal error: RuntimeError: boom"]
    e = Engine(lambda g: "A1")
    ask(e, "boardsize 5")
    assert ask(e, "genmove b") == ["A1"]
    assert ask(e, "genmove w")[0].startswith("? the policy chose an illegal move")
    assert ask(Engine(), "genmove b")[0].startswith("? this engine has no policy")
    assert ask(e, "name") == ["ikeda"]


def test_serve_stops_at_quit() -> None:
    out = io.StringIO()
    Engine(first_legal).serve(io.StringIO("boardsize 5\n2 quit\nname\n"), out)
    assert out.getvalue() == "=\n\n=2\n\n"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=30) | st.sampled_from([c for c in REQUIRED if c != "printsgf"]).map(lambda c: c + " b a1 3"), max_size=12))
def test_any_input_gets_an_answer_and_never_crashes(lines: list[str]) -> None:
    e = Engine(first_legal, size=5)
    for line in lines:
        for part in line.splitlines() or [""]:
            reply = e.handle(part)
            assert reply is None or (reply[0] in "=?" and reply.endswith("\n\n"))


def test_the_bot_plays_captures_and_resigns_hopeless_games() -> None:
    bot = MctsEngine(playouts=2000)
    # White C3 is in atari on 5x5; Black takes it.
    ask(bot, "boardsize 5", "play b b3", "play w c3", "play b c2", "play w d2", "play b c4", "play w d4", "play b a1", "play w e3")
    assert ask(bot, "genmove b") == ["D3"]
    # A board White owns entirely, with a huge komi: Black resigns.
    hopeless = MctsEngine(playouts=500)
    ask(hopeless, "boardsize 5", "komi 30", "play w c3", "play b pass", "play w b3")
    assert ask(hopeless, "genmove b") == ["resign"]


@pytest.mark.parametrize("budget", [{"seconds": 0.05}, {"playouts": 50}])
def test_bot_budgets(budget: dict[str, float]) -> None:
    bot = MctsEngine(**budget)  # type: ignore[arg-type]
    reply = ask(bot, "boardsize 9", "genmove b")[1]
    assert reply != "pass" and Game(9).is_legal(reply)


def test_japanese_preset_lists_and_counts_by_status_confirmation() -> None:
    """Under the japanese preset the dead stones come from status confirmation (STATUS.md):
    both walls have two eyes, and the lone White stone at C1 inside Black's area is dead."""
    e = Engine(first_legal)
    ask(e, "boardsize 5", "komi 0", "ikeda-rules japanese")
    for color, mv in zip("bw" * 14, ["A2", "A3", "B2", "B3", "C2", "C3", "D2", "D3", "E2", "E3", "B1", "A4", "E1", "B4", "pass", "C4", "pass", "D4", "pass", "E4", "pass", "B5", "pass", "D5", "pass", "E5", "pass", "C1"]):
        assert ask(e, f"play {color} {mv}") == [""]
    assert ask(e, "final_status_list dead") == ["C1"]
    assert ask(e, "final_status_list seki") == [""]
    assert len(ask(e, "final_status_list alive")[0].split()) == 7 + 13
    assert confirm_status(e.game).dead_stones == ["C1"]
    assert ask(e, "final_score") == [e.game.score().result]
    assert ask(e, "final_status_list estimated") == [""]
    assert sorted(ask(e, "final_status_list proven")[0].split()) == sorted(s for c in confirm_status(e.game).chains for s in c.stones)


def _japanese_engine_at_the_end() -> Engine:
    """Black's wall along row 2 with two eyes, White's above it, White's C1 dead inside."""
    e = Engine(first_legal)
    ask(e, "boardsize 5", "komi 0", "ikeda-rules japanese")
    for color, mv in zip("bw" * 14, ["A2", "A3", "B2", "B3", "C2", "C3", "D2", "D3", "E2", "E3", "B1", "A4", "E1", "B4", "pass", "C4", "pass", "D4", "pass", "E4", "pass", "B5", "pass", "D5", "pass", "E5", "pass", "C1"]):
        ask(e, f"play {color} {mv}")
    return e


def test_final_status_proofs_lists_each_chain_with_its_proof_kind() -> None:
    e = _japanese_engine_at_the_end()
    lines = ask(e, "ikeda-final_status_proofs")[0].split("\n")
    expected = [f"{c.colour} {c.status} {c.proof} {' '.join(c.stones)}" for c in confirm_status(e.game).chains]
    assert lines == expected and any(line.startswith("W dead ") and line.endswith(" C1") for line in lines)
    assert ask(e, "ikeda-final_status_proofs x") == ["? syntax error: ikeda-final_status_proofs takes no arguments"]
    assert ask(e, "ikeda-rules area3", "ikeda-final_status_proofs")[1].startswith("? no status confirmation under area3")


def test_estimated_chains_are_told_apart_from_proven_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the search starved (one state, one region) every chain is estimated: GTP says
    so in `final_status_list estimated`, `proven` and the proof listing."""
    e = _japanese_engine_at_the_end()
    real = ikeda_status.confirm_status
    monkeypatch.setattr(ikeda_status, "confirm_status", lambda position, **kw: real(position, **{**kw, "budget": 1, "split": False, "playouts": 50}))
    stones = sorted(ask(e, "final_status_list estimated")[0].split())
    assert len(stones) == 20 + 1 and ask(e, "final_status_list proven") == [""]
    proofs = {line.split()[2] for line in ask(e, "ikeda-final_status_proofs")[0].split("\n")}
    assert proofs and proofs <= {"estimated", "conditional"}
