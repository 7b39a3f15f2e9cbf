"""Property tests of SGF reading on inputs that stress the charset guesser (values in
several charsets, broken bytes, trail bytes 0x5C/0x5D, undecodable runs) and repeated
properties: reading never fails untyped, never loses a move of the bytes' structure when
the values are well-formed or the bytes are UTF-8, and joins repeated properties in
order."""

from __future__ import annotations

import os
import warnings

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ikeda import IkedaError, sgf

FUZZ = settings(max_examples=int(os.environ.get("IKEDA_HYPOTHESIS_EXAMPLES", "150")), deadline=None, suppress_health_check=[HealthCheck.too_slow])

CHARSETS = ["utf-8", "gb18030", "shift_jis", "big5", "euc-kr", "latin-1"]
#: Text each charset can hold, with characters whose second byte is 0x5C or 0x5D.
WORDS = ["表", "十段", "ソ", "乗", "功", "許", "也", "李世石", "이세돌", "José", "柯洁", "井山裕太", "x", "]", "\\", "a:b"]

values = st.lists(st.sampled_from(WORDS), min_size=0, max_size=4).map("".join)


def escape(v: str) -> str:
    return v.replace("\\", "\\\\").replace("]", "\\]")


def quiet(data: bytes, **kw: str) -> sgf.Record | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sgf.SgfWarning)
        try:
            return sgf.read(data, **kw)  # type: ignore[arg-type]
        except IkedaError:
            return None


@FUZZ
@given(charset=st.sampled_from(CHARSETS), declared=st.booleans(), pb=values, pw=values, comments=st.lists(values, min_size=1, max_size=5))
def test_well_formed_values_in_any_charset_keep_every_move(charset: str, declared: bool, pb: str, pw: str, comments: list[str]) -> None:
    ca = f"CA[{charset}]" if declared else ""
    nodes = "".join(f";{'BW'[k % 2]}[{'abcdefghi'[k]}{'abcdefghi'[k]}]C[{escape(c)}]" for k, c in enumerate(comments))
    text = f"(;GM[1]FF[4]{ca}SZ[9]PB[{escape(pb)}]PW[{escape(pw)}]{nodes})"
    try:
        data = text.encode(charset)
    except UnicodeEncodeError:
        return
    r = quiet(data)
    assert r is not None
    if charset == "big5" and not declared:
        return  # Big5 is read when declared, never guessed (docs/sgf.md): no claim
    assert len(r.moves) == len(comments)
    # (Python's big5 codec and the WHATWG Big5 that encoding_rs reads differ on kana.)
    if (declared and charset != "big5") or charset == "utf-8":
        assert (r.root.get("PB"), r.root.get("PW")) == (pb, pw)
        assert [n.comment for n in r.main_line[1:]] == comments


@FUZZ
@given(
    parts=st.lists(st.one_of(st.sampled_from(WORDS).map(str.encode), st.binary(min_size=1, max_size=3)), min_size=1, max_size=12),
    moves=st.integers(1, 6),
    encoding=st.one_of(st.none(), st.sampled_from(["gb18030", "shift_jis", "big5", "utf-8"])),
)
def test_broken_bytes_never_swallow_a_move_of_a_utf8_record(parts: list[bytes], moves: int, encoding: str | None) -> None:
    # UTF-8 names and comments with arbitrary bytes, kept away from the structure's own
    # bytes so the bytes' structure is plain: every move is kept whatever the charset
    # chosen or forced.
    junk = b"".join(p for p in parts).replace(b"\\", b"").replace(b"]", b"").replace(b"[", b"")
    nodes = b"".join(b";" + b"BW"[k % 2 : k % 2 + 1] + b"[" + bytes([97 + k]) * 2 + b"]C[" + junk + b"]" for k in range(moves))
    data = b"(;GM[1]SZ[9]PB[" + junk + b"]PW[" + junk + b"]" + nodes + b")"
    r = quiet(data) if encoding is None else quiet(data, encoding=encoding)
    assert r is not None
    assert len(r.moves) == moves, (r.charset, r.problems)


@FUZZ
@given(ident=st.sampled_from(["C", "AB", "LB", "XX"]), groups=st.lists(st.lists(st.sampled_from(["aa", "bb", "cc", "x"]), min_size=1, max_size=3), min_size=1, max_size=30))
def test_repeated_properties_join_their_values_in_order(ident: str, groups: list[list[str]]) -> None:
    if ident == "AB":
        groups = [[v for v in g if v != "x"] or ["aa"] for g in groups]
    if ident == "LB":
        groups = [[f"{v}:{v}" if v != "x" else "aa:x" for v in g] for g in groups]
    props = "".join(ident + "".join(f"[{v}]" for v in g) for g in groups)
    r = quiet(f"(;SZ[9]{props};B[ee]{props})".encode())
    assert r is not None
    joined = [v for g in groups for v in g]
    assert r.root.properties[ident] == joined
    assert r.main_line[1].properties[ident] == joined


@FUZZ
@given(bytes_=st.binary(max_size=300), prefix=st.sampled_from([b"", b"(;CA[gb18030]C[", b"(;C[", b"(;CA[Shift_JIS]PB["]))
def test_any_bytes_read_or_fail_typed(bytes_: bytes, prefix: bytes) -> None:
    for data in (prefix + bytes_, prefix + bytes_ + b"];B[aa])"):
        quiet(data)
