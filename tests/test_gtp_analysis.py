"""GTP for GUIs: ``Engine.register``, the analysis commands (``lz-analyze``,
``kata-analyze``, ``genmove_analyze``, ``gogui-analyze_commands``), ``loadsgf`` with the
record's rules, playing on after the end, the clock's bound and ``printsgf``'s files.

The GUIs' transcripts are checked by re-implementations of the GUIs' own parsing rules,
not by our emitter:

- Lizzie, ``featurecat/lizzie`` ``src/main/java/featurecat/lizzie/analysis/Leelaz.java``
  (``parseInfo``: the line after ``info `` split on ``" info "``) and
  ``analysis/MoveData.java`` (``fromInfo``: key/value pairs, ``pv`` to the end, the win
  rate ``Integer.parseInt(value) / 100.0``);
- KataGo's ``kata-analyze`` as Lizzie's ``fromInfoKatago`` and Sabaki read it: the same
  pairs with fractional win rates, and ``ownership`` followed by one number per point;
- GoGui's ``gogui-analyze_commands``: ``type/label/command`` per line, the types
  ``gfx plist string ...``; a ``gfx`` reply's lines start with a keyword (``INFLUENCE``
  with vertex/value pairs, ``MARK``/``TRIANGLE``/``CIRCLE`` with vertices, ``TEXT``).
"""

from __future__ import annotations

import io
import os
import threading
import time
from pathlib import Path

import pytest

from ikeda import Game, IkedaError
from ikeda.gtp import Engine, MctsEngine
from ikeda.limits import MAX_SECONDS

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


# -- the GUIs' parsers ----------------------------------------------------------------


def lizzie_from_info(segment: str) -> dict[str, object]:
    """Lizzie's ``MoveData.fromInfo``: ``split(" ")``, pairs until ``pv``."""
    data = segment.strip().split(" ")
    out: dict[str, object] = {}
    i = 0
    while i < len(data):
        key = data[i]
        if key == "pv":
            out["variation"] = data[i + 1 :]
            break
        i += 1
        value = data[i]  # an IndexError here is Lizzie's ArrayIndexOutOfBoundsException
        if key == "move":
            out["coordinate"] = value
        if key == "visits":
            out["playouts"] = int(value)  # Integer.parseInt: no decimals allowed
        if key == "winrate":
            out["winrate"] = int(value) / 100.0
        i += 1
    return out


def lizzie_parse_info(line: str) -> list[dict[str, object]]:
    """Lizzie's ``Leelaz.parseInfo`` on a line that starts with ``info``."""
    assert line.startswith("info ")
    return [lizzie_from_info(v) for v in line[len("info ") :].split(" info ") if v.strip()]


def kata_parse(line: str) -> tuple[list[dict[str, object]], list[float] | None]:
    """KataGo's ``kata-analyze`` line as the GUIs read it: ``ownership`` splits off the
    per-point values; each ``info`` has key/value pairs (floats) and ``pv`` to its end."""
    ownership = None
    if " ownership " in line:
        line, rest = line.split(" ownership ", 1)
        ownership = [float(x) for x in rest.split()]
    moves = []
    for seg in line[len("info ") :].split(" info "):
        data = seg.split()
        m: dict[str, object] = {}
        i = 0
        while i < len(data):
            if data[i] == "pv":
                m["pv"] = data[i + 1 :]
                break
            key, value = data[i], data[i + 1]
            m[key] = value if key == "move" else float(value)
            i += 2
        moves.append(m)
    return moves, ownership


def vertex_ok(v: str, size: int) -> bool:
    return v == "pass" or (v[0] in LETTERS[:size] and v[1:].isdigit() and 1 <= int(v[1:]) <= size)


# -- a GUI session over serve() ---------------------------------------------------------


def session(engine: Engine, script: list[tuple[str, float]]) -> str:
    """Runs `engine.serve` on a pipe, writing each command then waiting its seconds, as a
    GUI does; returns everything the engine wrote."""
    r, w = os.pipe()
    out = io.BytesIO()

    class Sink(io.TextIOWrapper):
        pass

    sink = io.TextIOWrapper(out, encoding="utf-8", write_through=True)

    def feed() -> None:
        with os.fdopen(w, "wb", buffering=0) as f:
            for line, wait in script:
                f.write(line.encode() + b"\n")
                time.sleep(wait)

    t = threading.Thread(target=feed)
    t.start()
    with os.fdopen(r, "rb") as f:
        engine.serve(f, sink)  # type: ignore[arg-type]
    t.join()
    sink.flush()
    return out.getvalue().decode()


def test_lz_analyze_streams_until_the_next_command_in_lizzies_format() -> None:
    e = MctsEngine(size=9, playouts=300)
    text = session(e, [("boardsize 9", 0), ("play b E5", 0), ("lz-analyze 10", 0.6), ("name", 0), ("quit", 0)])
    replies = text.split("\n\n")
    assert replies[0] == "=" and replies[1] == "="
    head, *infos = replies[2].split("\n")
    assert head == "=" and len(infos) >= 2, text  # several reports in 0.6 s at 0.1 s each
    for line in infos:
        moves = lizzie_parse_info(line)
        assert moves and all(vertex_ok(str(m["coordinate"]), 9) for m in moves)
        assert all(0 <= float(m["winrate"]) <= 100 and int(m["playouts"]) > 0 for m in moves)  # type: ignore[arg-type]
        assert all(m["variation"][0] == m["coordinate"] for m in moves)  # type: ignore[index]
    # Visits grow from report to report (the searches' statistics add up).
    totals = [sum(int(m["playouts"]) for m in lizzie_parse_info(line)) for line in infos]  # type: ignore[call-overload]
    assert totals == sorted(totals) and totals[-1] > totals[0]
    assert replies[3] == "= ikeda-mcts"  # the next command's reply, after the blank line
    assert e.game.moves == ["E5"]  # analysis changes nothing


def test_kata_analyze_reports_ownership_for_every_point() -> None:
    e = MctsEngine(size=9, playouts=300)
    text = session(e, [("boardsize 9", 0), ("kata-analyze B interval 10 ownership true", 0.35), ("quit", 0)])
    reply = text.split("\n\n")[1].split("\n")
    assert reply[0] == "=" and len(reply) >= 2
    moves, ownership = kata_parse(reply[1])
    assert ownership is not None and len(ownership) == 81 and all(-1 <= o <= 1 for o in ownership)
    for k, m in enumerate(moves):
        assert vertex_ok(str(m["move"]), 9) and m["order"] == k
        assert 0 <= float(m["winrate"]) <= 1 and 0 < float(m["prior"]) <= 1 and float(m["visits"]) >= 1  # type: ignore[arg-type]
    assert [m["visits"] for m in moves] == sorted((m["visits"] for m in moves), reverse=True)  # type: ignore[type-var]


def test_ownership_is_the_side_to_moves_view() -> None:
    # White owns the board but for Black's corner: from White's side, most points are +.
    g = Game(5, setup={"B": ["A1"], "W": ["B2", "C3", "D4", "C2", "B3"]}, to_move="W")
    from ikeda.gtp.analysis import analyze

    a = analyze(g, playouts=400, seconds=0, seed=1)
    assert sum(a.ownership) > 10
    b = analyze(g.copy(), playouts=400, seconds=0, seed=1)
    assert a.ownership == b.ownership  # seeded: reproducible


def test_genmove_analyze_plays_and_ends_with_the_move() -> None:
    e = MctsEngine(size=9, playouts=300)
    for cmd, fmt in (("genmove_analyze b", "lz"), ("kata-genmove_analyze w 50", "kata")):
        reply = e.handle(cmd)
        assert reply is not None
        lines = reply.rstrip("\n").split("\n")
        assert lines[0] == "=" and lines[-1].startswith("play ")
        move = lines[-1].split()[1]
        assert move == e.game.moves[-1]
        info = lines[1]
        parsed = lizzie_parse_info(info) if fmt == "lz" else kata_parse(info)[0]
        assert parsed
    assert len(e.game.moves) == 2


def test_gogui_analyze_commands_are_gogui_lines_and_their_gfx_replies_parse() -> None:
    e = MctsEngine(size=9, playouts=200)
    reply = e.handle("gogui-analyze_commands")
    assert reply is not None and reply.startswith("= ")
    entries = [line.split("/") for line in reply[2:].strip().split("\n")]
    assert all(len(x) == 3 and x[0] in ("gfx", "plist", "string", "sboard", "cboard", "none") for x in entries)
    for kind, _, command in entries:
        answer = e.handle(command)
        assert answer is not None and answer.startswith("="), (command, answer)
        if kind == "gfx":
            for line in answer[1:].strip().split("\n"):
                word, *rest = line.split()
                assert word in ("INFLUENCE", "MARK", "TRIANGLE", "CIRCLE", "TEXT"), line
                if word == "INFLUENCE":
                    assert len(rest) == 2 * 81
                    assert all(vertex_ok(v, 9) and -1 <= float(x) <= 1 for v, x in zip(rest[::2], rest[1::2]))


def test_register_adds_commands_as_a_call_or_a_decorator() -> None:
    e = Engine(lambda g: "pass")

    @e.register("my-moves")
    def moves(args: list[str]) -> str:
        return str(len(e.game.moves))

    e.register("my-fail", lambda args: (_ for _ in ()).throw(IkedaError("no")))
    assert e.handle("known_command my-moves") == "= true\n\n"
    assert "my-moves" in (e.handle("list_commands") or "")
    e.handle("play b D4")
    assert e.handle("7 my-moves") == "=7 1\n\n"
    assert e.handle("my-fail") == "? no\n\n"
    for bad in ("", "12", "a b", "x" * 65):
        with pytest.raises(IkedaError):
            e.register(bad, lambda args: "")
    with pytest.raises(IkedaError):
        e.register("ok-name", "not callable")  # type: ignore[arg-type]


KGS_JAPANESE = (
    "(;GM[1]FF[4]SZ[5]RU[Japanese]KM[0.5]"
    ";B[bd];W[dd];B[bc];W[dc];B[bb];W[db];B[be];W[de];B[ba];W[da];B[];W[])"
)


def test_loadsgf_takes_the_records_rules_and_komi_unless_ikeda_rules_fixed_them(tmp_path: Path) -> None:
    f = tmp_path / "kgs.sgf"
    f.write_text(KGS_JAPANESE)
    e = Engine(lambda g: "pass")
    assert e.handle(f"loadsgf {f}") == "=\n\n"
    assert e.handle("ikeda-rules") == "= japanese:komi=0.5\n\n"
    assert e.handle("final_score") == "= W+0.5\n\n"  # 5 territory each, komi 0.5
    e.handle("ikeda-rules area3:komi=7")
    assert e.handle(f"loadsgf {f}") == "=\n\n"
    assert e.handle("ikeda-rules") == "= area3:komi=7\n\n"


def test_play_after_the_end_resumes_the_game(tmp_path: Path) -> None:
    e = Engine(lambda g: "pass", size=5, rules="area2:komi=0.5")
    for m in ("b C3", "w pass", "b pass"):
        assert e.handle(f"play {m}") == "=\n\n"
    assert e.game.is_over
    assert e.handle("play w D4") == "=\n\n"  # not refused: the game goes on
    assert not e.game.is_over and e.game.moves == ["D4"] and e.game.to_move == "B"
    assert e.handle("play b pass") == "=\n\n" and e.handle("play w pass") == "=\n\n"
    assert e.game.is_over  # and ends again by the rules, counted at the new end
    assert e.handle("final_score") == f"= {e.game.score().result}\n\n"


def test_a_long_clock_never_exceeds_the_search_bound() -> None:
    e = MctsEngine(size=9, playouts=50)
    for setting in ("time_settings 3000000 0 0", "kgs-time_settings byoyomi 0 999999 5", "time_settings 0 999999 1"):
        assert e.handle(setting) == "=\n\n"
        assert (e.time_for_move() or 0) <= MAX_SECONDS
    e.handle("time_left b 5000000 0")
    assert (e.time_for_move() or 0) <= MAX_SECONDS
    e.playouts = 50  # the clock bounds the time; keep the test quick
    e._playouts_given = 50
    reply = e.handle("genmove b")
    assert reply is not None and reply.startswith("= "), reply


def test_printsgf_writes_regular_files_only_and_never_blocks(tmp_path: Path) -> None:
    e = Engine(lambda g: "pass", size=9)
    e.handle("play b E5")
    fifo = tmp_path / "out.sgf"
    os.mkfifo(fifo)
    started = time.monotonic()
    reply = e.handle(f"printsgf {fifo}")  # no reader: a plain open would block for ever
    assert reply is not None and reply.startswith("?") and "not a regular file" in reply
    # With a reader waiting, still refused, nothing written to it.
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        reply = e.handle(f"printsgf {fifo}")
        assert reply is not None and "not a regular file" in reply
    finally:
        os.close(fd)
    assert time.monotonic() - started < 5
    assert (e.handle(f"printsgf {tmp_path}") or "").startswith("? cannot write")
    old = tmp_path / "old.sgf"
    old.write_text("x" * 10_000)  # a longer file is truncated, not partly overwritten
    assert e.handle(f"printsgf {old}") == "=\n\n"
    assert old.read_text().startswith("(;") and old.read_text().rstrip().endswith(")")
