"""ikeda.sgf: reading, errors with positions, charsets, replay (strict and tolerant),
writing, round trips through sgfmill, and native bulk replay agreeing with Game."""

from __future__ import annotations

import gc
import random
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from sgfmill import sgf as sgfmill_sgf
from sgfmill import sgf_moves

import ikeda
from ikeda import Game, IllegalMoveError, SgfError
from ikeda import sgf
from ikeda.sgf import read, replay_many
from sgf_corpus import random_sgf, write_corpus

DATA = Path(__file__).parent / "data" / "sgf"
VALID = sorted(p for p in DATA.glob("*.sgf"))
PRESETS = ["area3", "area2", "territory1", "tromp-taylor", "area3:ko=simple-ko"]


# -- reading -------------------------------------------------------------------------


def test_read_tree_setup_and_moves() -> None:
    r = read(DATA / "handicap.sgf")
    assert (r.width, r.height, r.komi, r.handicap, r.rules, r.result) == (9, 9, 0.5, 2, "Japanese", "W+3.5")
    assert r.setup == {"B": ["C7", "G3"], "W": []}
    assert r.to_move == "W"
    assert [str(m) for m in r.moves] == ["W G5", "B E7", "W pass", "B C3", "W D3", "B pass", "W pass"]
    assert r.root.get("PB") == "Black ] player"
    assert r.root.comment == "A handicap game with a comment holding a ] bracket."
    assert r.root.properties["XY"] == ["kept as is"]
    assert [n.properties for n in r.variations] == [{"W": ["ch"]}, {"B": ["dg"], "N": ["variation"]}]
    assert len(r.main_line) == 8 and r.main_line[3].comment == "a pass written tt"
    assert (r.moves[0].line, r.moves[0].column) == (4, 1)


def test_read_accepts_text_bytes_and_paths() -> None:
    path = DATA / "rectangular.sgf"
    a, b, c = read(path), read(str(path)), read(path.read_bytes())
    d = read(path.read_text())
    assert a.moves == b.moves == c.moves == d.moves
    assert (a.width, a.height) == (7, 5)
    # setup before the first move accumulates over nodes; AE removes
    assert a.setup == {"B": ["B5", "C5"], "W": ["A4", "B4"]}


@pytest.mark.parametrize(
    ("name", "charset", "player"),
    [
        ("gbk_without_ca.sgf", "gb18030", "柯洁"),
        ("shift_jis.sgf", "Shift_JIS", "井山裕太"),
        ("euc_kr_without_ca.sgf", "EUC-KR", "이세돌"),
        ("latin1.sgf", "windows-1252", "José Müller"),
        ("handicap.sgf", "UTF-8", "Black ] player"),
    ],
)
def test_charsets(name: str, charset: str, player: str) -> None:
    r = read(DATA / name)
    assert (r.charset, r.root.get("PB")) == (charset, player)
    assert r.moves[0].vertex == "E5" or name == "handicap.sgf"


def test_shift_jis_backslash_bytes_do_not_break_the_structure() -> None:
    # ソ and 表 end in the byte 0x5C, the SGF escape character.
    r = read(DATA / "shift_jis.sgf")
    assert r.root.comment == "ソ表示 ] です"


MALFORMED = {
    "unescaped_bracket.sgf": (2, 16, "unescaped ']'"),
    "missing_first_semicolon.sgf": (1, 1, "no game tree"),
    "size_30.sgf": (1, 2, "board size 30x30"),
    "size_0.sgf": (1, 2, "board size 0x0"),
    "off_board.sgf": (3, 1, "W[jj] is off the 9x9 board"),
    "unclosed.sgf": (2, 1, "ends inside a game tree"),
    "not_go.sgf": (1, 2, "not a game of Go"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_records_raise_sgf_error_with_position(name: str) -> None:
    line, column, words = MALFORMED[name]
    with pytest.raises(SgfError) as info:
        read(DATA / "malformed" / name)
    e = info.value
    assert isinstance(e, ikeda.IkedaError) and isinstance(e, ValueError)
    assert (e.line, e.column) == (line, column), str(e)
    assert words in str(e)


def test_every_malformed_file_is_covered() -> None:
    assert {p.name for p in (DATA / "malformed").glob("*.sgf")} == set(MALFORMED)


@pytest.mark.parametrize("text", ["", "   ", "not sgf at all(", "(;B[aa]", ")(;", "(;SZ[9:x])", "(;SZ[9];B[a])", "(;AB[aa:zz]SZ[5])"])
def test_garbage_is_an_sgf_error(text: str) -> None:
    with pytest.raises(SgfError):
        read(text.encode())


def test_read_rejects_other_types() -> None:
    with pytest.raises(ikeda.IkedaError):
        read(42)  # type: ignore[arg-type]


# -- replay ----------------------------------------------------------------------------


def test_replay_names_the_first_illegal_move() -> None:
    with pytest.raises(IllegalMoveError) as info:
        read(DATA / "illegal_occupied.sgf").replay()
    e = info.value
    assert (e.move_number, e.move, e.reason) == (4, "E5", "occupied")
    assert "move 4" in str(e) and "E5" in str(e)
    with pytest.raises(IllegalMoveError) as info:
        read(DATA / "illegal_superko.sgf").replay()
    assert (info.value.move_number, info.value.move, info.value.reason) == (9, "C2", "superko")
    # under simple ko the same retake is the ko ban
    with pytest.raises(IllegalMoveError) as info:
        read(DATA / "illegal_superko.sgf").replay("area3:ko=simple-ko")
    assert info.value.reason == "ko"
    # the native bulk replay names the same reasons as Game
    native = {rules: replay_many([DATA / "illegal_superko.sgf"], rules)[0].illegal for rules in ("area3", "area3:ko=simple-ko")}
    assert {rules: (i.number, i.vertex, i.reason) for rules, i in native.items() if i is not None} == {
        "area3": (9, "C2", "superko"), "area3:ko=simple-ko": (9, "C2", "ko")}


def test_tolerant_replay_records_problems_and_goes_on() -> None:
    r = read("(;SZ[5];B[cc];W[cc];B[bb];B[dd];W[aa])")
    with pytest.raises(IllegalMoveError) as info:
        r.replay()
    assert (info.value.move_number, info.value.reason) == (2, "occupied")
    g = r.replay(tolerant=True)
    assert [(p.move_number, p.reason) for p in r.problems] == [(2, "occupied"), (3, "out_of_turn"), (4, "out_of_turn")]
    assert all(p.reason in ikeda.errors.ILLEGAL_REASONS for p in r.problems)
    # W's occupied move skipped; each B move out of turn preceded by a pass for W
    assert g.moves == ["C3", "pass", "B4", "pass", "D2", "A5"]


def test_replay_uses_ru_and_km() -> None:
    cases = {"Japanese": "japanese", "korean": "japanese", "JAPANESE": "japanese", "Chinese": "area2", "AGA": "area2", "NZ": "tromp-taylor", "tromp_taylor": "tromp-taylor",
             "area3:ko=simple-ko": "area3:ko=simple-ko,komi=5", "Unheard Of": "area3"}
    for ru, expected in cases.items():
        r = read(f"(;SZ[9]KM[5]RU[{ru}];B[ee])")
        g = r.replay()
        want = ikeda.Rules.from_string(expected).replace(komi=5)
        assert g.rules == want, ru
        assert r.rules == ru  # kept as written
    assert read("(;SZ[9];B[ee])").replay().rules == ikeda.AREA_III
    assert read("(;SZ[9]KM[7.5];B[ee])").replay("territory1").rules == ikeda.TERRITORY_I.replace(komi=7.5)


def test_replay_handicap_game_matches_a_game_played_directly() -> None:
    g = read(DATA / "handicap.sgf").replay("territory1")
    h = Game(9, rules="territory1:komi=0.5", setup={"B": ["C7", "G3"]}, to_move="W")
    for m in ["G5", "E7", "pass", "C3", "D3", "pass", "pass"]:
        h.play(m)
    assert (g.to_numpy() == h.to_numpy()).all() and g.moves == h.moves and g.score() == h.score()
    assert g.handicap == 2 and g.setup == {"B": ["C7", "G3"], "W": []}


# -- writing and round trips ---------------------------------------------------------------


def test_record_round_trip_keeps_every_property() -> None:
    for path in VALID:
        r = read(path)
        again = read(r.to_sgf())
        assert again.root.properties.pop("CA") == ["UTF-8"]  # the text is decoded
        r.root.properties.pop("CA", None)
        assert _tree(again.root) == _tree(r.root), path.name
        assert again.moves == [m._replace(line=a.line, column=a.column) for m, a in zip(r.moves, again.moves)]


def _tree(node: ikeda.sgf.Node) -> list[object]:
    """The tree in document order: (properties, number of children) per node."""
    out: list[object] = []
    stack = [node]
    while stack:
        n = stack.pop()
        out.append((n.properties, len(n.children)))
        stack.extend(reversed(n.children))
    return out


def _random_games(n: int) -> list[Game]:
    rng = random.Random(5)
    games = []
    for k in range(n):
        size = rng.choice([5, 9, 13, 19])
        rules = rng.choice(PRESETS)
        handicap = rng.choice([0, 0, 2, 4]) if size >= 9 else 0
        g = Game(size, rules=rules, handicap=handicap, komi=rng.choice([0, 0.5, 6.5, 7.5]))
        for _ in range(rng.randrange(0, 3 * size)):
            if g.is_over:
                break
            legal = g.legal_indices()
            g.play(rng.choice(legal) if legal and rng.random() > 0.05 else "pass")
        games.append(g)
    return games


def test_our_sgf_read_by_sgfmill_and_by_us() -> None:
    for g in _random_games(30):
        text = g.to_sgf()
        mill = sgfmill_sgf.Sgf_game.from_string(text)
        board, plays = sgf_moves.get_setup_and_moves(mill)
        setup = {"B": set(), "W": set()}
        for color, point in board.list_occupied_points():
            setup[color.upper()].add(_gtp(point))
        assert setup == {c: set(v) for c, v in g.setup.items()}
        assert [(c.upper(), _gtp(p)) for c, p in plays] == list(zip(_colors(g), g.moves))
        assert mill.get_komi() == g.komi and mill.get_handicap() == (g.handicap or None)
        back = read(text).replay()
        assert back.moves == g.moves and back.rules == g.rules
        assert {c: sorted(v) for c, v in back.setup.items()} == {c: sorted(v) for c, v in g.setup.items()}
        assert back.score() == g.score() and back.result == g.result


def test_sgfmill_sgf_read_by_us() -> None:
    rng = random.Random(8)
    for _ in range(20):
        size = rng.choice([7, 9, 19])
        mill = sgfmill_sgf.Sgf_game(size)
        root = mill.get_root()
        root.set("KM", 6.5)
        black = {(rng.randrange(size), rng.randrange(size)) for _ in range(3)}
        root.set_setup_stones(black, [])
        g = Game(size, setup={"B": [_gtp(p) for p in black]})
        for _ in range(rng.randrange(1, 40)):
            legal = g.legal_indices()
            if not legal:
                break
            i = rng.choice(legal)
            color = g.to_move
            g.play(i)
            node = mill.extend_main_sequence()
            node.set_move(color.lower(), _mill_point(g.board.vertex(i), size))
        r = read(mill.serialise())
        assert set(r.setup["B"]) == set(g.setup["B"])
        assert [m.vertex for m in r.moves] == g.moves
        assert r.replay().moves == g.moves


def _gtp(point: tuple[int, int] | None) -> str:
    if point is None:
        return "pass"
    row, col = point
    return "ABCDEFGHJKLMNOPQRSTUVWXYZ"[col] + str(row + 1)


def _mill_point(vertex: str, size: int) -> tuple[int, int]:
    return int(vertex[1:]) - 1, "ABCDEFGHJKLMNOPQRSTUVWXYZ".index(vertex[0])


def _colors(g: Game) -> list[str]:
    first = g.first_color
    other = "W" if first == "B" else "B"
    return [first if k % 2 == 0 else other for k in range(len(g.moves))]


def test_game_to_sgf_writes_the_named_properties() -> None:
    g = Game(9, rules="area2", handicap=2, komi=0.5)
    for m in ["E5", "pass", "pass"]:
        g.play(m)
    root = read(g.to_sgf()).root.properties
    assert root["SZ"] == ["9"] and root["KM"] == ["0.5"] and root["HA"] == ["2"]
    assert root["RU"] == ["area2"] and sorted(root["AB"]) == ["cg", "gc"] and root["PL"] == ["W"]
    assert g.is_over and root["RE"] == [g.result]
    rect = Game(width=7, height=5)
    rect.play("C3")
    assert read(rect.to_sgf()).root.properties["SZ"] == ["7:5"]


# -- many records natively -------------------------------------------------------------


def test_replay_many_agrees_with_game(tmp_path: Path) -> None:
    paths = []
    for k, rules in enumerate(PRESETS[:4] * 10):
        size = (5, 7, 9, 13)[k % 4]
        p = tmp_path / f"g{k}.sgf"
        p.write_text(random_sgf(size, size, rules, 100 + k))
        paths.append(p)
    paths += VALID + sorted((DATA / "malformed").glob("*.sgf"))
    paths.append(tmp_path / "missing.sgf")
    results = replay_many(paths, threads=2)
    assert [r.path for r in results] == [str(p) for p in paths]
    assert replay_many(paths, threads=1) == results
    statuses = {r.status for r in results}
    assert statuses == {"ok", "illegal", "sgf_error", "unreadable"}
    for p, r in zip(paths, results):
        if r.status == "unreadable":
            continue
        try:
            record = read(p)
        except SgfError as e:
            assert r.status == "sgf_error" and (r.line, r.column) == (e.line, e.column) and r.error and r.error in str(e)
            continue
        try:
            g = record.replay()
        except IllegalMoveError as e:
            assert r.status == "illegal" and r.illegal is not None
            assert (r.illegal.number, r.illegal.vertex, r.illegal.reason) == (e.move_number, e.move, e.reason)
            g = record.replay(tolerant=True)
            assert r.moves == e.move_number - 1
            continue
        assert r.status == "ok" and r.moves == len(record.moves) and r.over == g.is_over, p.name
        try:
            s = g.score()
        except ikeda.StatusBudgetError:  # Japanese counting (RU[Japanese]) that cannot confirm
            assert (r.black, r.white) == (None, None), p.name
            continue
        assert (r.black, r.white) == (s.black, s.white), p.name
        assert r.result == s.result


@pytest.mark.parametrize("rules", PRESETS)
def test_replay_many_forced_rules_agree_with_game(tmp_path: Path, rules: str) -> None:
    paths = write_corpus(tmp_path, 12, size=7, rules="area3", seed=40)
    for p, r in zip(paths, replay_many(paths, rules=rules, threads=2)):
        try:
            g = read(p).replay(rules)
        except IllegalMoveError as e:
            assert r.illegal is not None and (r.illegal.number, r.illegal.reason) == (e.move_number, e.reason)
            continue
        s = g.score()
        assert (r.status, r.black, r.white, r.over) == ("ok", s.black, s.white, g.is_over)


def test_replay_many_bad_setup_and_arguments(tmp_path: Path) -> None:
    p = tmp_path / "dead.sgf"
    p.write_text("(;SZ[2]AB[aa][ab]AW[ba][bb])")
    (r,) = replay_many([p])
    assert r.status == "bad_setup" and r.error
    with pytest.raises(ikeda.InvalidPositionError):
        read(p).replay()
    with pytest.raises(ikeda.IkedaError):
        replay_many([p], threads=-1)
    seen: list[int] = []
    assert len(replay_many([p] * 5, chunk=2, on_chunk=seen.append)) == 5 and seen == [2, 4, 5]


def test_read_a_path_that_cannot_name_a_file_is_a_typed_error() -> None:
    # '\ud800' is a lone surrogate that no file name decodes to (surrogateescape only
    # yields U+DC80..U+DCFF): open() would raise a bare UnicodeEncodeError.
    with pytest.raises(ikeda.ArgumentError, match="cannot name a file"):
        read(Path("/tmp/game\ud800.sgf"))
    with pytest.raises(SgfError):  # a str that names no file is SGF text, and this is not
        read("/tmp/game\ud800.sgf")
    results = replay_many(["/tmp/game\ud800.sgf", VALID[0]])
    assert results[0].status == "unreadable" and "cannot name a file" in (results[0].error or "")
    assert results[1].status == "ok"


def test_the_collector_stays_paused_until_the_last_of_two_overlapping_reads_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """A starts reading, B starts, A ends while B still reads: A's end must not turn the
    collector back on under B; B's end turns it on again, as it was before both."""
    started = {name: threading.Event() for name in "AB"}
    go_on = {name: threading.Event() for name in "AB"}
    seen: dict[str, bool] = {}
    build = sgf._records

    def records(*args: Any) -> list[sgf.Record]:
        name = threading.current_thread().name
        started[name].set()
        go_on[name].wait(10)
        seen[name] = gc.isenabled()  # while this thread is still reading
        return build(*args)

    monkeypatch.setattr(sgf, "_records", records)
    readers = {name: threading.Thread(target=read, args=(VALID[0],), name=name) for name in "AB"}
    assert gc.isenabled()
    readers["A"].start()
    assert started["A"].wait(10)
    readers["B"].start()
    assert started["B"].wait(10)
    go_on["A"].set()
    readers["A"].join(10)
    assert gc.isenabled() is False  # B still reads
    go_on["B"].set()
    readers["B"].join(10)
    assert seen == {"A": False, "B": False} and gc.isenabled()


def test_reads_on_many_threads_leave_the_collector_as_they_found_it() -> None:
    texts = [random_sgf(9, 9, "area3", seed=k) for k in range(40)] * 5
    for enabled in (True, False):
        (gc.enable if enabled else gc.disable)()
        try:
            with ThreadPoolExecutor(8) as pool:
                records = list(pool.map(read, texts))
            assert gc.isenabled() is enabled
        finally:
            gc.enable()
        assert [r.moves for r in records] == [read(t).moves for t in texts]
