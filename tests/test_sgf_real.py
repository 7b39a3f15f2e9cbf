"""ikeda.sgf on real-shaped records (tests/data/sgf/real_shaped, one small file per
case met in public archives): lenient decoding, charset scoring, CA on write, the
text-or-path rule, setup after moves, bad informational values, text outside the game
trees, collections, Fox komi, RU mapping; and the corpus check against sgfmill."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pytest

import ikeda
from ikeda import IllegalMoveError, SgfError
from ikeda.sgf import Problem, SgfWarning, read, read_all, replay_many

REAL = Path(__file__).parent / "data" / "sgf" / "real_shaped"
sys.path.insert(0, str(Path(__file__).parent))
from sgf_corpus_check import check  # noqa: E402


def quiet(source: object, **kw: object) -> ikeda.sgf.Record:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SgfWarning)
        return read(source, **kw)  # type: ignore[arg-type]


def properties(r: ikeda.sgf.Record) -> list[str | None]:
    return [p.property for p in r.problems]


# -- the corpus check --------------------------------------------------------------------


def test_sgfmill_reads_nothing_we_refuse_and_main_lines_agree() -> None:
    kinds, examples = check([str(REAL)])
    assert kinds["sgfmill reads, ikeda refuses"] == 0, examples
    assert kinds["both read, main lines differ"] == 0, examples
    assert kinds["both read, same main line"] >= 15


# -- text and charsets -------------------------------------------------------------------


def test_undecodable_bytes_are_replaced_reported_and_warned() -> None:
    with pytest.warns(SgfWarning, match="read with problems"):
        r = read(REAL / "fox_cut_name.SGF")
    assert r.root.get("PB") == "神的\ufffd" and r.root.get("BR") == "9段"
    assert [str(m) for m in r.moves][:2] == ["B Q16", "W D16"]
    (cut,) = [p for p in r.problems if p.property == "PB"]
    assert (cut.line, cut.column) == (5, 6) and "UTF-8" in cut.message
    # CA[UTF-8] with one Latin-1 byte: windows-1252 reads every byte, and says so
    r = quiet(REAL / "bad_utf8_in_comment.sgf")
    assert (r.root.comment, r.charset, properties(r)) == ("café", "windows-1252", ["CA"])


def test_encoding_override() -> None:
    data = (REAL / "korean_names_no_ca.sgf").read_bytes()
    assert quiet(data).root.get("PB") == "조훈현"
    forced = quiet(data, encoding="gb18030")
    assert forced.charset == "gb18030" and forced.root.get("PB") != "조훈현"
    assert quiet(REAL / "bad_utf8_in_comment.sgf", encoding="latin1").root.comment == "café"
    with pytest.raises(ikeda.IkedaError, match="unknown encoding"):
        read(data, encoding="no-such-charset")
    with pytest.raises(ikeda.IkedaError, match="bytes and files"):
        read("(;B[aa])", encoding="utf-8")


@pytest.mark.parametrize(
    ("name", "charset", "prop", "value"),
    [
        ("ff3_latin1.sgf", "windows-1252", "PB", "Jörg"),
        ("ff3_latin1.sgf", "windows-1252", "C", "Fichier créé par TurboGo"),
        ("chinese_white_no_ca.sgf", "gb18030", "PW", "白"),
        ("chinese_white_no_ca.sgf", "gb18030", "PB", "黑"),
        ("korean_names_no_ca.sgf", "EUC-KR", "PW", "이창호"),
        ("japanese_names_no_ca.sgf", "Shift_JIS", "PW", "本因坊秀策"),
        ("wrong_ca.sgf", "UTF-8", "PB", "古力"),
    ],
)
def test_charset_scoring_on_labelled_samples(name: str, charset: str, prop: str, value: str) -> None:
    r = quiet(REAL / name)
    assert (r.charset, r.root.get(prop)) == (charset, value)


def test_to_sgf_declares_utf8() -> None:
    r = read((REAL / "korean_names_no_ca.sgf").read_bytes())
    text = r.to_sgf()
    assert "CA[UTF-8]" in text
    again = read(text.encode("utf-8"))
    assert again.charset == "UTF-8" and again.root.get("PB") == "조훈현"
    r = read("(;CA[EUC-KR]PB[x])")
    assert r.to_sgf().count("CA[") == 1 and "CA[UTF-8]" in r.to_sgf()


def test_str_is_text_unless_it_names_an_existing_file(tmp_path: Path) -> None:
    with pytest.raises(SgfError):
        read("")
    with pytest.raises(SgfError, match="no file"):
        read("GM[1]SZ[9];B[ee]")
    with pytest.raises(SgfError):
        read(str(tmp_path))  # a directory is not a file: read as text
    assert read("\ufeff(;SZ[9];B[ee])").moves[0].vertex == "E5"
    long = "(;SZ[9]C[" + "x" * 10_000 + "];B[ee])"
    assert read(long).moves[0].vertex == "E5"
    p = tmp_path / "g.sgf"
    p.write_text("(;SZ[9];B[ee])")
    assert read(str(p)).width == read(p).width == 9
    with pytest.raises(FileNotFoundError):
        read(tmp_path / "missing.sgf")
    with pytest.raises(SgfError, match="surrogate"):
        read("(;C[\ud800])")


# -- legal SGF that was refused ------------------------------------------------------------


def test_pl_agreeing_with_the_turn_and_setup_after_the_end() -> None:
    r = read(REAL / "setup_after_the_end.sgf")
    assert [c.before for c in r.setup_changes] == [1, 4]
    g = r.replay()
    assert g.is_over and g.moves == ["C3", "A5", "pass", "pass"]
    assert [(p.reason, p.property) for p in r.problems] == [("setup", "AE")]
    assert g.to_numpy()[0, 0] == 2  # markup: the stone stays


def test_setup_in_the_middle_strict_and_tolerant() -> None:
    r = read(REAL / "setup_mid_game.sgf")
    with pytest.raises(IllegalMoveError) as info:
        r.replay()
    assert (info.value.reason, info.value.move_number) == ("setup", 3)
    assert "line 1" in str(info.value) and "before move 3" in str(info.value)
    g = r.replay(tolerant=True)
    board = g.to_numpy()
    # AB[gg] (G3) applied, B G7 played, PL[B] applied, W C3 then out of turn: a pass first
    assert (board[6, 6], board[2, 6], board[6, 2]) == (1, 1, 2)
    assert [p.reason for p in r.problems] == ["setup", "setup", "out_of_turn"]
    native = replay_many([REAL / "setup_mid_game.sgf"])[0]
    assert (native.status, native.illegal.reason if native.illegal else None, native.moves) == ("illegal", "setup", 2)


def test_bad_informational_values_are_problems() -> None:
    r = quiet(REAL / "bad_info_values.sgf")
    assert (r.handicap, r.komi, r.to_move) == (0, None, "B")
    assert properties(r) == ["HA", "KM", "PL"]
    assert quiet(REAL / "bad_komi.sgf").komi is None
    r = quiet(REAL / "ff3_player_two.sgf")
    assert r.to_move == "W" and r.problems == []
    assert quiet(REAL / "ff3_latin1.sgf").to_move == "B"


def test_repeated_root_property_first_wins_everywhere() -> None:
    r = quiet(REAL / "repeated_root.sgf")
    assert (r.komi, r.width, r.root.get("KM"), r.root.get("SZ")) == (0.5, 9, "0.5", "9")
    assert properties(r) == ["KM", "SZ"]
    again = quiet(r.to_sgf())
    assert (again.komi, again.width) == (0.5, 9)
    assert replay_many([REAL / "repeated_root.sgf"])[0].white == 0.5


def test_mail_header_blanks_and_junk_are_skipped() -> None:
    r = quiet(REAL / "mail_header.sgf")
    assert r.setup == {"B": ["C7", "G3"], "W": ["E5"]}
    assert [str(m) for m in r.moves] == ["W C5", "B D6"]
    assert [p.property for p in r.problems] == [None, None]
    assert "From: someone" in r.problems[0].message


def test_two_moves_in_one_node_keep_the_first() -> None:
    r = quiet(REAL / "two_moves_in_one_node.sgf")
    assert [str(m) for m in r.moves] == ["B E5"] and properties(r) == ["W"]


def test_read_all_reads_every_game() -> None:
    games = read_all(REAL / "collection.sgf")
    assert [(g.width, g.root.get("PB"), len(g.moves)) for g in games] == [(9, "first", 2), (13, "second", 3)]
    assert read(REAL / "collection.sgf").root.get("PB") == "first"
    assert "(;GM[1]FF[4]SZ[13]PB[second];B[gg];W[dd];B[jj])" in games[1].to_sgf().replace("CA[UTF-8]", "")


@pytest.mark.parametrize(("name", "komi"), [("fox_cut_name.SGF", 7.5), ("fox_komi_hundredths.SGF", 6.5)])
def test_fox_komi_is_normalised_and_reported(name: str, komi: float) -> None:
    r = quiet(REAL / name)
    assert r.komi == komi and "KM" in properties(r)
    native = replay_many([REAL / name])[0]
    assert native.ok and native.white is not None and native.white % 1 == 0.5


def test_japanese_and_korean_rules_are_the_japanese_preset(tmp_path: Path) -> None:
    for ru in ("Japanese", "japanese", "JAPANESE", "Korean", " korean "):
        r = read(f"(;SZ[9]RU[{ru}];B[ee])")
        assert r.ruleset().name == "japanese", ru
    # The Python path (Japanese counting is not native): replayed, and counted only where
    # the record's result is a count (no RE: nothing to compare with, no confirmation).
    native = replay_many([REAL / "japanese_rules.sgf"])[0]
    assert (native.status, native.moves) == ("ok", 2)
    small = replay_many([REAL / "japanese_small.sgf"])[0]
    assert small.ok and small.over and (small.black, small.white) == (None, None)
    counted = tmp_path / "japanese_small_counted.sgf"
    counted.write_text((REAL / "japanese_small.sgf").read_text().replace("KM[0.5]", "KM[0.5]RE[B+7.5]"))
    s = quiet(counted).replay().score()
    small = replay_many([counted])[0]
    assert small.ok and small.over and (small.black, small.white) == (s.black, s.white) == (8, 0.5)
    forced = replay_many([counted], rules="japanese")[0]
    assert (forced.black, forced.white) == (8, 0.5)


def test_problem_is_printable() -> None:
    assert str(Problem("x", "KM", 2, 3)) == "line 2, column 3: x"


# -- ikeda replay ---------------------------------------------------------------------------


def test_replay_dir_matches_any_case_skips_non_regular_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json
    import os

    from ikeda.__main__ import main

    for p in REAL.glob("fox_*"):
        (tmp_path / p.name).write_bytes(p.read_bytes())  # *.SGF
    (tmp_path / "lower.sgf").write_bytes((REAL / "mail_header.sgf").read_bytes())
    os.mkfifo(tmp_path / "blocks.sgf")  # a FIFO would block a reader for ever
    (tmp_path / "zero.sgf").symlink_to("/dev/zero")  # a device would be read without end
    assert main(["replay", "--json", str(tmp_path)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert sorted(Path(r["path"]).name for r in rows) == ["fox_cut_name.SGF", "fox_komi_hundredths.SGF", "lower.sgf"]
    # named outright, a device is refused by the reader, not read
    assert main(["replay", "--json", str(tmp_path / "zero.sgf")]) == 1
    (row,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert row["status"] == "unreadable" and "regular file" in row["error"]


def test_replay_rules_japanese_works(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from ikeda.__main__ import main

    counted = tmp_path / "japanese_small.sgf"  # with a counted result, so that it is counted
    counted.write_text((REAL / "japanese_small.sgf").read_text().replace("KM[0.5]", "KM[0.5]RE[B+7.5]"))
    assert main(["replay", "--json", "--rules", "japanese", str(counted), str(REAL / "setup_mid_game.sgf")]) == 1
    rows = {Path(r["path"]).name: r for r in map(json.loads, capsys.readouterr().out.splitlines())}
    assert rows["japanese_small.sgf"]["status"] == "ok" and rows["japanese_small.sgf"]["black"] == 8
    assert rows["setup_mid_game.sgf"]["illegal"]["reason"] == "setup"
