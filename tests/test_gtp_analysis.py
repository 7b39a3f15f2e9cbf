"""GTP for GUIs: ``Engine.register``, the analysis commands (``lz-analyze``,
``kata-analyze``, ``genmove_analyze``, ``gogui-analyze_commands``), ``loadsgf`` with the
record's rules, playing on after the end, the clock's bound and ``printsgf``'s files.

The GUIs' transcripts are checked by small readings of each GUI's own parser, not by our
emitter; each rule names the file and function it comes from (docs/gtp.md, "Analysis for
GUIs", gives the commits read). The sessions send exactly the command lines each GUI
sends. KaTrain speaks only KataGo's JSON analysis engine, not GTP (docs/gtp.md), so it
has no transcript here.
"""

from __future__ import annotations

import io
import math
import os
import re
import threading
import time
from pathlib import Path

import pytest

from ikeda import Game, IkedaError
from ikeda.gtp import Engine, MctsEngine
from ikeda.limits import MAX_SECONDS

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


# -- Lizzie (featurecat/lizzie, src/main/java/featurecat/lizzie/analysis/) ---------------


def lizzie_from_info(segment: str, katago: bool = False) -> dict[str, object]:
    """``MoveData.fromInfo``: ``trim().split(" ")``, key/value pairs until ``pv`` (the
    rest of the segment is the variation); ``visits``, ``winrate``, ``lcb`` and ``prior``
    through ``Integer.parseInt`` (``winrate``/``lcb``/``prior`` then over 100.0: hundredths
    of a percent), ``scoreMean`` through ``Double.parseDouble``. ``fromInfoKatago``
    (`katago`): the same but ``winrate``/``lcb``/``prior`` by ``Double.parseDouble`` times
    100 (fractions)."""
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
            out["playouts"] = java_parse_int(value)
        if key in ("winrate", "lcb", "prior"):
            out["policy" if key == "prior" else key] = float(value) * 100 if katago else java_parse_int(value) / 100.0
        if key == "scoreMean":
            out["scoreMean"] = float(value)
        i += 1
    return out


def java_parse_int(text: str) -> int:
    """``Integer.parseInt``: an optional sign and decimal digits, nothing else."""
    assert re.fullmatch(r"[+-]?\d+", text), f"Integer.parseInt({text!r}) throws"
    return int(text)


def lizzie_parse_info(line: str) -> list[dict[str, object]]:
    """``Leelaz.parseLine`` for a line that ``startsWith("info")``: ``parseInfo(line.
    substring(5))``, which splits on ``" info "`` and reads each non-blank part."""
    assert line.startswith("info")
    return [lizzie_from_info(v) for v in line[5:].split(" info ") if v.strip()]


def lizzie_read(transcript: str) -> dict[str, list[object]]:
    """``Leelaz.parseLine`` over an engine's output: a line starting with ``=`` or ``?``
    has its id read by ``Integer.parseInt(params[0].substring(1).trim())`` (Lizzie numbers
    every command, ``sendCommandToLeelaz``), ``info`` lines are analysis, ``play`` lines
    end ``lz-genmove_analyze`` (``line.substring(5).trim()`` is placed)."""
    seen: dict[str, list[object]] = {"ids": [], "info": [], "play": [], "replies": []}
    for line in transcript.split("\n"):
        if line.startswith("=") or line.startswith("?"):
            params = line.strip().split(" ")
            seen["ids"].append(java_parse_int(params[0][1:].strip()))
            seen["replies"].append(params[1:])
        elif line.startswith("info"):
            seen["info"].append(lizzie_parse_info(line))
        elif line.startswith("play"):
            seen["play"].append(line[5:].strip())
    return seen


# -- Sabaki (SabakiHQ/Sabaki src/modules/, SabakiHQ/gtp src/) ---------------------------


def sabaki_responses(transcript: str) -> list[list[str]]:
    """``@sabaki/gtp`` ``helper.lineSubscribe`` and ``StreamController.sendCommand``: the
    output is split into lines (``\\r`` removed); a response's first line must start with
    ``=`` or ``?`` (others are ignored), and the first empty line ends it."""
    responses: list[list[str]] = []
    current: list[str] | None = None
    for line in transcript.replace("\r", "").split("\n"):
        if current is None:
            if line and line[0] in "=?":
                current = [line]
            continue
        if line == "":
            responses.append(current)
            current = None
        else:
            current.append(line)
    return responses


def sabaki_parse_vertex(v: str, size: int) -> tuple[int, int]:
    """``@sabaki/go-board`` ``parseVertex``: the letter's index in the alphabet without
    I, the row from the top; (-1, -1) when off the board."""
    x, y = LETTERS.find(v[0].upper()), size - int(v[1:])
    return (x, y) if 0 <= x < size and 0 <= y < size else (-1, -1)


def sabaki_parse_analysis(line: str, size: int, winrate_format: str) -> list[dict[str, object]]:
    """``src/modules/analysis.js`` ``parseAnalysis``: split on ``\\s*info\\s+``; in each
    part the trailing run of vertices is the pv (cut at its first ``pass``, tokens of at
    least two characters), the tokens before it less the last (``pv``) are key/value
    pairs; parts without ``move`` and ``winrate`` or whose move is not a vertex (a pass)
    are skipped; ``visits`` and ``scoreLead`` through unary ``+``; the win rate through
    ``normalizeWinrate``: ``'float'`` (kata-analyze) times 100, ``'integer'`` over 100."""
    out: list[dict[str, object]] = []
    for part in (p.strip() for p in re.split(r"\s*info\s+", line)[1:]):
        match = re.search(r"(pass|[A-Za-z]\d+)(\s+(pass|[A-Za-z]\d+))*$", part)
        if match is None:
            continue
        pv_text = match.group(0)
        cut = pv_text.find("pass")
        pv = [t for t in (pv_text if cut < 0 else pv_text[:cut]).split() if len(t) >= 2]
        tokens = part[: match.start()].strip().split()[:-1]
        fields = dict(zip(tokens[::2], tokens[1::2]))
        move, winrate = fields.get("move"), fields.get("winrate")
        if move is None or winrate is None or not re.fullmatch(r"[A-Za-z]\d+", move):
            continue
        out.append(
            {
                "vertex": sabaki_parse_vertex(move, size),
                "visits": js_number(fields.get("visits")),
                "winrate": js_number(winrate) * 100 if winrate_format == "float" else js_number(winrate) / 100,
                "scoreLead": js_number(fields["scoreLead"]) if "scoreLead" in fields else None,
                "moves": [sabaki_parse_vertex(v, size) for v in pv],
                "winrate_text": winrate,  # for the dialect check below
            }
        )
    return out


def js_number(text: str | None) -> float:
    """JavaScript's unary ``+``: NaN for a missing or malformed number."""
    try:
        return float(text) if text is not None and text.strip() else math.nan
    except ValueError:
        return math.nan


def sabaki_pick(setting: list[str], commands: list[str]) -> str | None:
    """``sabaki.js`` ``analyzeMove``/``generateMove``: the first command of the setting
    (``setting.js``: ``engines.analyze_commands``, ``engines.gemove_analyze_commands``)
    that the engine's ``list_commands`` has."""
    return next((c for c in setting if c in commands), None)


SABAKI_ANALYZE = ["analyze", "kata-analyze", "lz-analyze"]  # setting.js
SABAKI_GENMOVE_ANALYZE = ["genmove_analyze", "kata-genmove_analyze", "lz-genmove_analyze"]
SABAKI_INTERVAL = 50  # setting.js 'board.analysis_interval'


# -- GoGui (Remi-Coulom/gogui, src/net/sf/gogui/) ---------------------------------------

GOGUI_TYPES = (
    "bwboard cboard dboard eplist gfx hstring hpstring param plist pspairs pstring string sboard var varb varc varp varpo varw".split()
)


def gogui_analyze_definitions(reply: str, supported: list[str]) -> list[tuple[str, str, str]]:
    """``gtp/AnalyzeDefinition.java`` ``readConfig``: lines trimmed, blank and ``#`` lines
    skipped, split on ``/`` into 3 to 5 parts (else an error), kept only when the
    command's first word is among the supported (``list_commands``) commands and the
    label is new; the constructor maps an unknown type to NONE (shown as nothing)."""
    out = []
    labels: set[str] = set()
    for line in reply.split("\n"):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split("/")
        assert 3 <= len(parts) <= 5, f"GoGui: error in gogui-analyze_commands: {line!r}"
        words = parts[2].strip().split()
        if not words or words[0] not in supported or parts[1] in labels:
            continue
        labels.add(parts[1])
        assert parts[0] in GOGUI_TYPES, f"GoGui shows nothing for type {parts[0]!r}"
        out.append((parts[0], parts[1], parts[2]))
    return out


def gogui_parse_point(text: str, size: int) -> tuple[int, int] | None:
    """``go/GoPoint.java`` ``parsePoint``: case-insensitive, ``PASS`` is None, the letter
    skips I; a point off the board raises (InvalidPointException)."""
    text = text.strip().upper()
    if text == "PASS":
        return None
    x, y = LETTERS.find(text[0]), int(text[1:]) - 1 if text[1:].isdigit() else -1
    if not (0 <= x < size and 0 <= y < size):
        raise ValueError(f"GoGui: invalid point {text!r}")
    return x, y


def gogui_show_gfx(response: str, size: int) -> dict[str, list[object]]:
    """``gui/AnalyzeShow.java`` ``showGfx``/``showGfxLine``: each line's first word, upper
    cased, picks the drawing (``BLACK CIRCLE CLEAR COLOR INFLUENCE LABEL MARK SQUARE TEXT
    TRIANGLE VAR WHITE``; any other line draws nothing). GoGui skips a point it cannot
    parse, and ``INFLUENCE`` a value ``Double.parseDouble`` refuses, without a word, so
    here every point and value must parse: otherwise GoGui would silently draw less."""
    drawn: dict[str, list[object]] = {}
    for line in response.split("\n"):
        args = line.split()
        if not args:
            continue
        cmd = args[0].upper()
        assert cmd in ("BLACK", "CIRCLE", "CLEAR", "COLOR", "INFLUENCE", "LABEL", "MARK", "SQUARE", "TEXT", "TRIANGLE", "VAR", "WHITE"), line
        if cmd == "TEXT":  # the rest of the line after the first space
            drawn.setdefault(cmd, []).append(line.strip().split(" ", 1)[1] if " " in line.strip() else "")
        elif cmd in ("INFLUENCE", "LABEL"):  # showGfxInfluence/showGfxLabel: point, value pairs
            assert len(args) % 2 == 1, line
            for point, value in zip(args[1::2], args[2::2]):
                p = gogui_parse_point(point, size)
                assert p is not None, line  # a pass would be skipped
                drawn.setdefault(cmd, []).append((p, float(value) if cmd == "INFLUENCE" else value))
        elif cmd == "VAR":  # showGfxVariation: colour, point pairs; stops at a bad colour
            assert len(args) % 2 == 1, line
            for colour, point in zip(args[1::2], args[2::2]):
                assert colour.lower() in ("b", "w"), line
                drawn.setdefault(cmd, []).append((colour.lower(), gogui_parse_point(point, size)))
        elif cmd in ("CIRCLE", "MARK", "SQUARE", "TRIANGLE", "BLACK", "WHITE"):
            drawn.setdefault(cmd, []).extend(gogui_parse_point(p, size) for p in args[1:])
    return drawn


def gogui_parse_point_list(response: str, size: int) -> list[tuple[int, int] | None]:
    """``gtp/GtpUtil.java`` ``parsePointList`` (a ``plist`` reply): every word a point,
    one that does not parse is a GtpResponseFormatError."""
    return [gogui_parse_point(p, size) for p in response.split()]


def vertex_ok(v: str, size: int) -> bool:
    return v == "pass" or (v[0] in LETTERS[:size] and v[1:].isdigit() and 1 <= int(v[1:]) <= size)


# -- a GUI session over serve() ---------------------------------------------------------


def session(engine: Engine, script: list[tuple[str, float]]) -> str:
    """Runs `engine.serve` on a pipe, writing each command then waiting its seconds, as a
    GUI does; returns everything the engine wrote."""
    r, w = os.pipe()
    out = io.BytesIO()
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


def test_lizzie_session_streams_lz_analyze_until_name_and_plays_lz_genmove_analyze() -> None:
    # Leelaz.java: "name" and "version" first (the KataGo check), boardSize, komi, then
    # ponder() "lz-analyze 10" (Config.java: analyze-update-interval-centisec 10) for an
    # engine whose name does not start with KataGo; togglePonder ends it with "name";
    # genmove_analyze sends "lz-genmove_analyze b 10". Every command carries its number.
    e = MctsEngine(size=9, playouts=300)
    script = ["name", "version", "boardsize 9", "komi 7.5", "play b E5", "lz-analyze 10", "name", "lz-genmove_analyze w 10", "quit"]
    waits = {"lz-analyze 10": 1.0}
    text = session(e, [(f"{k} {c}", waits.get(c, 0)) for k, c in enumerate(script, 1)])
    seen = lizzie_read(text)
    assert seen["ids"] == list(range(1, len(script) + 1)), text  # every reply answers its number
    assert seen["replies"][0] == ["ikeda-mcts"]  # not "KataGo...": Lizzie sends lz-analyze
    # Lizzie's version check (isCheckingVersion): split on ".", Integer.parseInt(ver[1]).
    java_parse_int(str(seen["replies"][1][0]).split(".")[1])
    infos = seen["info"]
    assert len(infos) >= 3, text  # several reports in 1 s at 0.1 s, and genmove's one
    for moves in infos:
        assert moves, text
        for m in moves:  # type: ignore[attr-defined]
            assert vertex_ok(m["coordinate"], 9) and m["variation"] and m["variation"][0] == m["coordinate"]
            assert 0 <= m["winrate"] <= 100 and 0 <= m["lcb"] <= m["winrate"] and 0 < m["policy"] <= 100
            assert m["playouts"] > 0
    # Visits grow from report to report of one stream (the searches add up).
    totals = [sum(m["playouts"] for m in moves) for moves in infos[:-1]]  # type: ignore[attr-defined]
    assert totals == sorted(totals) and totals[-1] > totals[0]
    assert seen["play"] == [e.game.moves[-1]] and len(e.game.moves) == 2  # analysis changed nothing


def test_lizzie_avoid_arguments_are_read() -> None:
    # Leelaz.analyzeAvoid: "lz-analyze 10 avoid b D4,E5 1 avoid w D4,E5 1".
    e = MctsEngine(size=9, playouts=100)
    reply = e.handle("3 lz-analyze 10 avoid b D4,E5 1 avoid w D4,E5 1")
    assert reply is not None and reply.startswith("=3\ninfo "), reply
    assert lizzie_parse_info(reply.split("\n")[1])


def test_sabaki_session_picks_kata_analyze_and_reads_every_report() -> None:
    # Sabaki: enginesyncer.js sends name, version, protocol_version, list_commands at start;
    # @sabaki/gtp's ControllerStateTracker syncs boardsize, clear_board, komi, play; then
    # analyzeMove sends the first of setting.js's analyze_commands that the engine lists,
    # with [colour, interval]; sendAbort stops it with protocol_version.
    e = MctsEngine(size=9, playouts=300)
    commands = (e.handle("list_commands") or "")[2:].split("\n")
    analyze = sabaki_pick(SABAKI_ANALYZE, commands)
    genmove = sabaki_pick(SABAKI_GENMOVE_ANALYZE, commands)
    assert analyze == "kata-analyze" and genmove == "genmove_analyze"
    script = [("name", 0), ("version", 0), ("protocol_version", 0), ("list_commands", 0), ("boardsize 9", 0), ("clear_board", 0)]
    script += [("komi 6.5", 0), ("play B E5", 0), (f"{analyze} W {SABAKI_INTERVAL}", 1.2), ("protocol_version", 0)]
    script += [(f"{genmove} W {SABAKI_INTERVAL}", 0), ("quit", 0)]
    responses = sabaki_responses(session(e, script))
    assert len(responses) == len(script)
    assert all(r[0].startswith("=") for r in responses), responses
    stream = responses[8]
    assert stream[0] == "=" and len(stream) >= 2, stream  # reports every 0.5 s until the abort
    assert responses[9] == ["= 2"]  # the abort's own reply follows the stream's end
    for line, fmt in [(x, "float") for x in stream[1:]] + [(x, "integer") for x in responses[10] if x.startswith("info ")]:
        variations = sabaki_parse_analysis(line, 9, fmt)  # enginesyncer.js: kata* float
        assert variations, line  # an update with none is ignored by Sabaki
        for v in variations:
            assert v["vertex"] != (-1, -1) and all(p != (-1, -1) for p in v["moves"])  # type: ignore[attr-defined]
            assert v["moves"] and v["moves"][0] == v["vertex"], line  # type: ignore[index]
            assert float(v["visits"]) >= 1 and float(v["visits"]).is_integer()  # type: ignore[arg-type]
            assert 0 <= float(v["winrate"]) <= 100  # type: ignore[arg-type]
            # normalizeWinrate trusts the command's dialect: ten-thousandths are whole
            # numbers (a fraction read as them would show as under 1%).
            assert fmt == "float" or str(v["winrate_text"]).isdigit(), line
            assert fmt == "integer" or math.isfinite(float(v["scoreLead"]))  # type: ignore[arg-type]
    # generateMove: the "play " line is the move; Sabaki appends it to its tree.
    play = [x for x in responses[10] if x.startswith("play ")]
    assert play == [f"play {e.game.moves[-1]}"] and len(e.game.moves) == 2


def test_kata_analyze_reports_ownership_for_every_point() -> None:
    # KataGo's form with "ownership true" (as Lizzie sends it to KataGo): Leelaz.parseLine
    # takes the values after "ownership" with Double.parseDouble, one per point.
    e = MctsEngine(size=9, playouts=300)
    text = session(e, [("boardsize 9", 0), ("kata-analyze B interval 10 ownership true", 0.35), ("quit", 0)])
    reply = sabaki_responses(text)[1]
    assert reply[0] == "=" and len(reply) >= 2
    line = reply[1]
    values = [float(x) for x in line.strip().split("ownership")[1].strip().split(" ")]
    assert len(values) == 81 and all(-1 <= o <= 1 for o in values)
    # Leelaz.parseInfoKatago: the line after "info " split on " info ", each part by
    # MoveData.fromInfoKatago (KataGo's own lines carry the ownership at the end of the
    # last pv too, so Lizzie shows the same with KataGo).
    moves = [lizzie_from_info(v, katago=True) for v in line[5:].split(" info ") if v.strip()]
    assert moves and all(vertex_ok(str(m["coordinate"]), 9) for m in moves)
    assert all(0 <= float(m["winrate"]) <= 100 and 0 < float(m["policy"]) <= 100 for m in moves)  # type: ignore[arg-type]
    pvs = [m["variation"] for m in moves]
    pvs[-1] = pvs[-1][: pvs[-1].index("ownership")]  # type: ignore[attr-defined,index]
    assert all(pv and all(vertex_ok(v, 9) for v in pv) for pv in pvs)  # type: ignore[attr-defined]


def test_ownership_is_the_side_to_moves_view() -> None:
    # White owns the board but for Black's corner: from White's side, most points are +.
    g = Game(5, setup={"B": ["A1"], "W": ["B2", "C3", "D4", "C2", "B3"]}, to_move="W")
    from ikeda.gtp.analysis import analyze

    a = analyze(g, playouts=400, seconds=0, seed=1)
    assert sum(a.ownership) > 10
    b = analyze(g.copy(), playouts=400, seconds=0, seed=1)
    assert a.ownership == b.ownership  # seeded: reproducible


def test_genmove_analyze_answers_with_one_report_then_the_move() -> None:
    e = MctsEngine(size=9, playouts=300)
    for cmd, fmt in (("genmove_analyze b", "integer"), ("kata-genmove_analyze w 50", "float")):
        lines = (e.handle(cmd) or "").rstrip("\n").split("\n")
        assert lines[0] == "=" and lines[-1] == f"play {e.game.moves[-1]}"
        assert sabaki_parse_analysis(lines[1], 9, fmt)
    assert len(e.game.moves) == 2


def test_gogui_session_lists_analyze_commands_and_each_reply_draws() -> None:
    # GoGui: GtpClientUtil.getAnalyzeCommands asks gogui-analyze_commands only when
    # list_commands has it; each entry is sent as its command (none of ours has
    # wildcards) and its reply shown by AnalyzeShow.show for its type.
    e = MctsEngine(size=9, playouts=200)
    for move in ("b E5", "w C3", "b D4"):
        e.handle(f"play {move}")
    supported = (e.handle("list_commands") or "")[2:].split("\n")
    assert "gogui-analyze_commands" in supported
    reply = e.handle("gogui-analyze_commands") or ""
    assert reply.startswith("= ")
    definitions = gogui_analyze_definitions(reply[2:], supported)
    assert len(definitions) == len(reply.strip().split("\n"))  # none dropped by GoGui
    drawn: dict[str, list[object]] = {}
    for kind, label, command in definitions:
        answer = e.handle(command) or ""
        assert answer.startswith("="), (command, answer)
        body = answer[1:].strip()
        if kind == "gfx":
            for key, items in gogui_show_gfx(body, 9).items():
                drawn.setdefault(key, []).extend(items)
        elif kind == "plist":
            gogui_parse_point_list(body, 9)
        else:
            assert kind == "string" and body
    # Ownership: one INFLUENCE per point in [-1, 1] (Field.setInfluence clamps beyond).
    influence = [x for x in drawn["INFLUENCE"] if isinstance(x, tuple)]
    assert len(influence) == 81 and len({p for p, _ in influence}) == 81
    assert all(-1 <= v <= 1 for _, v in influence)  # type: ignore[operator]
    # Best moves: LABELs on empty points; the pv: VAR alternating from the side to move.
    occupied = {gogui_parse_point(v, 9) for v in ("E5", "C3", "D4")}
    assert drawn["LABEL"] and all(p not in occupied for p, _ in drawn["LABEL"])  # type: ignore[misc]
    colours = [c for c, _ in drawn["VAR"]]  # type: ignore[misc]
    assert colours and all(c == "wb"[k % 2] for k, c in enumerate(colours))
    assert drawn["TEXT"]


def test_gogui_influence_is_blacks_view_whoever_moves() -> None:
    # Field.drawInfluence: positive is drawn as Black's. Black's wall on the left half.
    setup = {"B": [f"{c}{r}" for c in "CD" for r in range(1, 8)], "W": [f"{c}{r}" for c in "FG" for r in range(1, 4)]}
    for to_move in ("B", "W"):
        e = MctsEngine(size=7, playouts=300)
        e.game = Game(7, setup=setup, to_move=to_move)
        drawn = gogui_show_gfx((e.handle("ikeda-ownership") or "")[2:], 7)
        values = dict(x for x in drawn["INFLUENCE"] if isinstance(x, tuple))  # type: ignore[misc]
        assert values[(0, 3)] > 0.5, (to_move, values[(0, 3)])  # A4: Black's side


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


def test_the_bot_searches_and_analyses_under_the_japanese_preset() -> None:
    # Japanese counting confirms status, which no native loop counts: the search counts
    # its playouts as territory instead of refusing the preset (docs/gtp.md).
    e = MctsEngine(size=9, playouts=200)
    for command in ("ikeda-rules japanese", "play b E5"):
        assert e.handle(command).startswith("=")
    for command, form in (("lz-analyze 10", "integer"), ("kata-analyze 10", "float"), ("genmove_analyze w", "integer")):
        lines = str(e.handle(command)).split("\n")
        assert lines[0] == "=" and sabaki_parse_analysis(lines[1], 9, form), (command, lines)
    assert e.handle("genmove b").startswith("= ") and len(e.game.moves) == 3
    assert e.handle("ikeda-best_moves").startswith("= ")
    assert e.game.rules.scoring == "japanese"  # the game itself still counts by status confirmation


def test_the_search_counts_japanese_as_territory_under_the_games_own_ko_rule_and_ending() -> None:
    from ikeda.gtp.analysis import search_rules
    from ikeda.rules import PRESETS

    japanese = PRESETS["japanese"].replace(komi=0.5)
    searched = search_rules(japanese)
    assert searched.scoring == "territory"
    assert searched.replace(scoring="japanese") == japanese  # nothing else changes
    assert all(search_rules(PRESETS[name]) == PRESETS[name] for name in PRESETS if name != "japanese")
