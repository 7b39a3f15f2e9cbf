"""The charset never changes a record's structure silently (docs/sgf.md, "Charsets"): a
decoding that moves a '[', '\\' or ']' (a wrong guess, or a character cut before its ']')
gives way to the bytes' own nodes and properties; a right one (Shift_JIS, GB18030, Big5
characters whose second byte is 0x5C or 0x5D) is kept, and said when it was guessed; a
mostly valid UTF-8 file stays UTF-8 whatever its broken bytes."""

from __future__ import annotations

import warnings

import pytest
from sgfmill import sgf as sgfmill_sgf
from sgfmill import sgf_moves

from ikeda import sgf

#: Names and words whose last character's second byte is 0x5C or 0x5D in the charset.
TRAILS = [
    ("shift_jis", "本因坊十"),  # 十: 0x8F 0x5C
    ("shift_jis", "表"),  # 0x95 0x5C
    ("shift_jis", "ソ"),  # 0x83 0x5C
    ("shift_jis", "余"),  # 0x97 0x5D
    ("gb18030", "乗"),  # 0x81 0x5C
    ("gb18030", "乚"),  # 0x81 0x5D
    ("big5", "成功"),  # 功: 0xA5 0x5C
    ("big5", "許"),  # 0xB3 0x5C
    ("big5", "也"),  # 0xA4 0x5D
]

#: The reproduction of a Fox record (UTF-8, bytes broken to '?', no CA) that GB18030
#: decoding read as two moves, PB swallowing PW and the first move.
FOX = b"(;GM[1]FF[4]SZ[9]PB[\xe5\xad\x94\xe6?\xb0]PW[\xe6\x98\x8c\xe9\x95?\xe5?\xb4];B[ee]C[\xe8?\xbd\xe6\xb8\x8a];W[cc];B[gg])"


def quiet(data: bytes, **kw: str) -> sgf.Record:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sgf.SgfWarning)
        return sgf.read(data, **kw)  # type: ignore[arg-type]


def sgfmill_moves(data: bytes) -> list[tuple[str, object]]:
    game = sgfmill_sgf.Sgf_game.from_bytes(data)
    return [(c, mv) for c, mv in sgf_moves.get_setup_and_moves(game)[1]]


def test_the_fox_reproduction_keeps_its_three_moves() -> None:
    r = quiet(FOX)
    assert [str(m) for m in r.moves] == ["B E5", "W C7", "B G3"]
    assert r.charset == "UTF-8"
    pb = r.root.get("PB")
    assert pb is not None and "PW" not in pb and ";" not in pb and pb.startswith("孔")
    assert r.root.get("PW", "").startswith("昌")
    assert len(sgfmill_moves(FOX)) == len(r.moves)


def test_the_fox_reproduction_under_a_forced_or_declared_multibyte_charset() -> None:
    # Forced or declared GB18030 (wrongly): the bytes' structure still holds, and the
    # record names the node where the whole-file decoding would have moved it.
    for r in (quiet(FOX, encoding="gb18030"), quiet(FOX.replace(b"FF[4]", b"FF[4]CA[GB2312]"))):
        assert len(r.moves) == 3, r.charset
        assert "PW" not in (r.root.get("PB") or "")
    r = quiet(FOX, encoding="gb18030")
    (moved,) = [p for p in r.problems if "structure" in p.message]
    assert moved.message.startswith("node 1:") and (moved.line, moved.column) == (1, 2)


@pytest.mark.parametrize(("charset", "value"), TRAILS)
@pytest.mark.parametrize("declared", [True, False])
def test_trail_bytes_0x5c_and_0x5d_are_kept_where_the_charset_is_right(charset: str, value: str, declared: bool) -> None:
    encoded = value.encode(charset)
    assert encoded[-1] in b"\\]"
    ca = f"CA[{charset}]" if declared else ""
    # Long enough text in the charset for a guess to be sure of it.
    comment = {"shift_jis": "これはとても良い碁でした", "gb18030": "黑中盘胜，这是一盘精彩的对局", "big5": "黑中盤勝，這是一盤精彩的對局"}[charset]
    text = f"(;GM[1]FF[4]{ca}SZ[9]PB[{value}]PW[{value}]C[{comment}];B[ee]C[{value}];W[cc];B[gg])"
    r = quiet(text.encode(charset))
    if charset == "big5" and not declared:
        # Big5 is read when declared, never guessed (docs/sgf.md): another charset's
        # reading, but one that keeps the moves.
        assert len(r.moves) == 3
        return
    assert [str(m) for m in r.moves] == ["B E5", "W C7", "B G3"]
    assert (r.root.get("PB"), r.root.get("PW"), r.main_line[1].comment) == (value, value, value)
    moved = [p for p in r.problems if "two-byte characters" in p.message]
    # Declared: nothing to say. Guessed: the record says that the charset made the structure.
    assert len(moved) == (0 if declared else 1), r.problems
    if moved:
        assert moved[0].message.startswith("node 1:")


@pytest.mark.parametrize("declared", [True, False])
def test_euc_kr_has_no_ascii_trail_bytes(declared: bool) -> None:
    ca = "CA[EUC-KR]" if declared else ""
    text = f"(;GM[1]{ca}SZ[9]PB[이세돌]PW[박정환]C[좋은 대국이었습니다];B[ee];W[cc])"
    data = text.encode("euc-kr")
    assert not any(b in b"\\][" for b in data[data.index(b"PB[") + 3 : data.index(b"];B")] if b > 0x7F)
    r = quiet(data)
    assert (r.charset, r.root.get("PB"), len(r.moves), r.problems) == ("EUC-KR", "이세돌", 2, [])


@pytest.mark.parametrize("ca", [b"", b"CA[UTF-8]", b"CA[GB18030]", b"CA[Shift_JIS]"])
def test_mostly_valid_utf8_stays_utf8_whatever_its_broken_bytes(ca: bytes) -> None:
    # Names cut inside their last character, just before ']', and a long comment.
    comment = "黑中盘胜，这是一盘精彩的对局。白棋在右下角的打入非常有力。".encode()
    data = b"(;GM[1]FF[4]" + ca + b"SZ[9]PB[\xe9\xaa\x8a\xe9\xbe]PW[\xe7\xa5\x9e\xe7\x9a\x84\xe8]C[" + comment + b"];B[ee]C[\xe5\xa5\xbd\xe6];W[cc];B[gg])"
    r = quiet(data)
    assert r.charset == "UTF-8"
    assert [str(m) for m in r.moves] == ["B E5", "W C7", "B G3"]
    assert r.root.get("PB") == "骊\ufffd" and r.root.get("PW") == "神的\ufffd"
    assert r.root.comment == comment.decode()
    assert [p.property for p in r.problems if "U+FFFD" in p.message] == ["PB", "PW", "C"]
    assert len(sgfmill_moves(data)) == 3


def test_one_broken_byte_before_a_bracket_in_a_short_utf8_record() -> None:
    # One valid character, one cut: UTF-8 by the bytes' structure (the cut character
    # could be read as GB18030 only by taking its ']').
    data = b"(;GM[1]SZ[9]PB[\xe6\x9d\x8e\xe6]PW[x];B[ee];W[cc])"
    r = quiet(data)
    assert len(r.moves) == 2 and r.root.get("PW") == "x"
