"""Hostile input to every public entry point that takes user input: wrong types, None,
huge and negative ints, NaN and infinities, numpy scalars and arrays of odd dtypes and
shapes, lone surrogates, empty and very long strings, bytes. Each call either succeeds or
raises an :class:`ikeda.IkedaError` (``MemoryError`` only where docs/security.md says an
allocation sized by the input may fail), never another exception type and never a crash;
a refused call leaves the Game or Batch exactly as it was. Cases that once failed are
kept as explicit examples. The example budget is small for CI;
``IKEDA_HYPOTHESIS_EXAMPLES`` raises it for a longer run (as in tests/test_stateful.py)."""

from __future__ import annotations

import io
import os
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import ikeda
from ikeda import coords, sgf
from ikeda.gtp.engine import MAX_LINE, Engine
from test_differential import snapshot

EXAMPLES = int(os.environ.get("IKEDA_HYPOTHESIS_EXAMPLES", "15"))
HOSTILE = settings(max_examples=EXAMPLES, deadline=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

# -- the hostile values -------------------------------------------------------------------

ints = st.one_of(
    st.integers(-(2**70), 2**70),
    st.sampled_from([0, -1, 1, 2**31, 2**32, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**100]),
)
floats = st.one_of(st.floats(), st.sampled_from([float("nan"), float("inf"), -float("inf"), -0.0, 1e308, 0.5]))
numpy_scalars = st.one_of(
    st.builds(np.int8, st.integers(-128, 127)),
    st.builds(np.uint64, st.integers(0, 2**64 - 1)),
    st.builds(np.int64, st.integers(-(2**63), 2**63 - 1)),
    st.builds(np.float32, st.floats(width=32)),
    st.builds(np.float64, st.floats()),
    st.just(np.bool_(True)),
    st.just(np.str_("D4")),
)
numpy_arrays = st.one_of(
    st.sampled_from([
        np.zeros(0), np.zeros((0, 3)), np.zeros((2, 2), dtype=np.int8), np.array([1.5, np.nan]),
        np.array(["a", "b"]), np.array([None, 1], dtype=object), np.array(3), np.zeros(4, dtype=np.complex64),
        np.array([2**64 - 1], dtype=np.uint64), np.array([-1, 2**62], dtype=np.int64), np.zeros(4, dtype=bool),
        np.ones((2, 9, 9), dtype=np.float32), np.array([b"x"]),
    ]),
    st.builds(lambda n, v: np.full(n, v, dtype=np.int64), st.integers(0, 6), st.integers(-(2**63), 2**63 - 1)),
)
strings = st.one_of(
    st.text(max_size=8),
    st.sampled_from(["", " ", "\ud800", "D4\udfff", "pass", "PASS", "resign", "\x00", "A0", "Z99", "I5", "-1",
                     "1e9", "nan", "area3:komi=nan", "x" * 100_000, "(" * 10_000, "(;", "\ufeff", "T19", "A1 "]),
)
byte_strings = st.one_of(st.binary(max_size=16), st.sampled_from([b"", b"(;SZ[9])", b"\xff\xfe", b"(;C[\xed\xa0\x80])"]))
atoms = st.one_of(st.none(), st.booleans(), ints, floats, numpy_scalars, numpy_arrays, strings, byte_strings,
                  st.just(object()), st.just(ikeda.Game(3)), st.just(Path("/dev/null")))
hostile = st.recursive(atoms, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.tuples(inner, inner), st.dictionaries(st.sampled_from(["B", "W", "x", 1]), inner, max_size=2),
), max_leaves=6)
#: Hostile values and plausible ones, so that the checks behind the first refusal run too.
moves = st.one_of(hostile, st.sampled_from(["D4", "A1", "pass", 0, 8, 9, np.int64(4), np.uint8(3)]))


def refused_or_done(call: Callable[[], Any], memory: bool = False) -> tuple[bool, Any]:
    """Runs `call`: (True, result) if it succeeded, (False, error) if it raised an
    IkedaError (or a MemoryError where allowed). Any other exception fails the test."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return True, call()
    except ikeda.IkedaError as e:
        assert str(e), "an error names what was wrong"
        return False, e
    except MemoryError as e:
        if not memory:
            raise
        return False, e


def game_state(game: ikeda.Game) -> tuple[Any, ...]:
    return (*snapshot(game), game.komi, str(game.rules), game.prisoners, game.setup)


def a_game() -> ikeda.Game:
    g = ikeda.Game(3, komi=0.5)
    for m in ("B2", "A1", "C3"):
        g.play(m)
    return g


# -- Game ---------------------------------------------------------------------------------

game_kwargs = st.fixed_dictionaries({}, optional={
    "komi": st.one_of(hostile, st.just(7.5)), "rules": st.one_of(hostile, st.sampled_from(["japanese", "tromp-taylor:komi=7"])),
    "width": st.one_of(hostile, st.integers(1, 6)), "height": st.one_of(hostile, st.integers(1, 6)),
    "setup": st.one_of(hostile, st.just({"B": ["A1"], "W": ["B2"]})), "handicap": st.one_of(hostile, st.integers(-1, 10)),
    "to_move": st.one_of(hostile, st.sampled_from(["B", "W", "white"])),
})


@HOSTILE
@example(size=1, kwargs={"setup": {"x": None, 1: None}})  # unknown keys of two types: sorting them raised TypeError
@given(size=st.one_of(hostile, st.integers(1, 25)), kwargs=game_kwargs)
def test_game_construction_succeeds_or_raises_an_ikeda_error(size: Any, kwargs: dict[str, Any]) -> None:
    ok, game = refused_or_done(lambda: ikeda.Game(size, **kwargs))
    if ok:
        assert isinstance(game, ikeda.Game) and 1 <= game.width <= 25 and 1 <= game.height <= 25


@HOSTILE
@given(move=moves)
def test_a_refused_move_leaves_the_game_as_it_was(move: Any) -> None:
    for game in (a_game(), ikeda.Game(2, rules="japanese")):
        before = game_state(game)
        legal, _ = refused_or_done(lambda: game.is_legal(move))
        _, reason = refused_or_done(lambda: game.illegal_reason(move))
        assert game_state(game) == before
        ok, _ = refused_or_done(lambda: game.play(move))
        if not ok:
            assert game_state(game) == before
        assert not (ok and legal is False)


@HOSTILE
@given(dead=st.one_of(hostile, st.lists(moves, max_size=4)), rules=st.one_of(st.none(), hostile, st.sampled_from(["territory1", "japanese"])))
def test_score_and_ownership_take_any_dead_list(dead: Any, rules: Any) -> None:
    game = a_game()
    before = game_state(game)
    refused_or_done(lambda: game.score(dead=dead, rules=rules))
    refused_or_done(lambda: game.score(dead=dead))
    ok, owner = refused_or_done(lambda: game.ownership(dead))
    if ok:
        assert owner.shape == (3, 3)
    assert game_state(game) == before


@HOSTILE
@given(depth=st.one_of(hostile, st.integers(0, 3)), size=st.tuples(st.one_of(hostile, st.integers(1, 2)), st.one_of(hostile, st.integers(1, 2))),
       rules=st.one_of(hostile, st.sampled_from(["tromp-taylor", "area3", "territory1", "area2:ko=positional-superko,suicide=yes"])),
       budget=st.one_of(hostile, st.integers(-1, 2**65)))
@example(depth=0, size=(1, 1), rules="area3:suicide=yes", budget=1)  # an endless game: the native recursion overflowed the stack
@example(depth=0, size=(1, 1), rules="tromp-taylor:ko=simple-ko", budget=1)
@example(depth=0, size=(25, 25), rules="area3", budget=1)  # more points than a count takes
def test_perft_and_count_games(depth: Any, size: Any, rules: Any, budget: Any) -> None:
    game = ikeda.Game(2)
    before = game_state(game)
    bounded = depth if not isinstance(depth, (int, np.integer)) or depth <= 3 else -1  # a deep perft never ends
    ok, n = refused_or_done(lambda: ikeda.perft(game, bounded))
    assert game_state(game) == before
    if ok:
        assert isinstance(n, int) and n >= 0
    # Any board it accepts, under any rules it accepts: the budget ends every count soon
    # (a valid budget, or a hostile one that is refused).
    w, h = size
    refused_or_done(lambda: ikeda.count_games(w, h, rules, budget=200_000))
    refused_or_done(lambda: ikeda.count_games(1, 1, "tromp-taylor", budget=budget))


# -- Rules --------------------------------------------------------------------------------

@HOSTILE
@given(text=st.one_of(hostile, strings, st.builds(lambda k, v: f"area3:{k}={v}", st.sampled_from(["komi", "ko", "suicide", "x", ""]), strings)))
def test_rules_from_string(text: Any) -> None:
    ok, rules = refused_or_done(lambda: ikeda.Rules.from_string(text))
    if ok:
        assert ikeda.Rules.from_string(str(rules)) == rules


@HOSTILE
@example(fields=[np.zeros(0)] * 8, field="name", value=None)  # an array as the name: numpy's ambiguous truth value
@example(fields=[None] * 8, field="nonsense", value=None)  # an unknown component: a TypeError
@given(fields=st.lists(hostile, min_size=8, max_size=8), field=st.sampled_from(["name", "ko", "suicide", "ending", "scoring", "half_point", "pass_stones", "komi", "nonsense"]),
       value=hostile)
def test_rules_construction_and_replace(fields: list[Any], field: str, value: Any) -> None:
    refused_or_done(lambda: ikeda.Rules(*fields))
    ok, rules = refused_or_done(lambda: ikeda.AREA_III.replace(**{field: value}))
    if ok:
        assert ikeda.Rules.from_string(str(rules)) == rules


# -- SGF ----------------------------------------------------------------------------------

@HOSTILE
@given(source=st.one_of(hostile, strings, byte_strings, st.builds(lambda s: f"(;SZ[{s}]KM[{s}];B[{s}])", strings)),
       encoding=st.one_of(st.none(), hostile, st.sampled_from(["latin1", "gb18030", "nonsense"])))
@example(source="(;)", encoding=[])  # a list as the encoding: the native TypeError
def test_sgf_read(source: Any, encoding: Any) -> None:
    refused_or_done(lambda: sgf.read(source, encoding=encoding))


@HOSTILE
@given(text=st.one_of(strings, st.builds(lambda s, m: f"(;SZ[{s}];B[{m}];W[{m}])", st.sampled_from(["3", "0", "99", "9:5", "-1", ""]), strings)),
       rules=st.one_of(st.none(), hostile), tolerant=hostile, until=st.one_of(st.none(), hostile, st.integers(-2, 4)))
@example(text="(;SZ[3];B[aa];W[bb])", rules=None, tolerant=None, until=np.True_)  # numpy's bool: a TypeError from the slice
def test_sgf_read_a_file_and_replay(tmp_path: Path, text: str, rules: Any, tolerant: Any, until: Any) -> None:
    path = tmp_path / "game.sgf"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    ok, record = refused_or_done(lambda: sgf.read(path))
    if ok:
        refused_or_done(lambda: record.replay(rules, tolerant, until=until))
        refused_or_done(lambda: record.replay())


# -- Batch --------------------------------------------------------------------------------

@HOSTILE
@given(n=st.one_of(hostile, st.integers(0, 3)), size=st.one_of(hostile, st.integers(1, 5), st.tuples(hostile, hostile)),
       rules=st.one_of(hostile, st.just("area2")), komi=st.one_of(st.none(), hostile), seed=st.one_of(hostile, st.just(3)),
       threads=st.one_of(hostile, st.integers(0, 2)))
@example(n=0, size=1, rules="area2", komi=(None, np.array([])), seed=3, threads=0)  # ragged: numpy cannot shape it
def test_batch_construction(n: Any, size: Any, rules: Any, komi: Any, seed: Any, threads: Any) -> None:
    refused_or_done(lambda: ikeda.Batch(n, size, rules=rules, komi=komi, seed=seed, threads=threads), memory=True)


def batch_state(b: ikeda.Batch) -> tuple[Any, ...]:
    return (b.boards().tolist(), b.to_move.tolist(), b.first_passer.tolist(), b.lengths.tolist(),
            b.is_over.tolist(), b.legal_mask().tolist(), b.scores().tolist())


@HOSTILE
@given(actions=st.one_of(hostile, st.lists(st.integers(-3, 12), min_size=3, max_size=3)), where=st.one_of(hostile, st.none()),
       p=st.one_of(hostile, st.just(0.5)), cap=st.one_of(hostile, st.none(), st.integers(0, 5)), history=st.one_of(hostile, st.integers(1, 3)),
       out=st.one_of(st.none(), hostile))
@example(actions=[[1, 2], 3, 4], where=[[0], 1], p=0.5, cap=None, history=1, out=None)  # ragged: numpy's ValueError
def test_a_refused_batch_call_leaves_the_batch_as_it_was(actions: Any, where: Any, p: Any, cap: Any, history: Any, out: Any) -> None:
    b = ikeda.Batch(3, 3, seed=5, threads=1)
    b.step(np.array([4, 0, 8]))

    def checked(call: Callable[[], Any]) -> Any:
        before = batch_state(b)
        ok, value = refused_or_done(call, memory=True)
        if not ok:
            assert batch_state(b) == before
        return value

    mask = np.zeros((3, 10), dtype=bool)
    checked(lambda: b.step(actions))
    checked(lambda: b.step(actions, mask=out))
    checked(lambda: b.step(np.array([9, 9, 9]), mask=out))
    assert not mask.any()
    checked(lambda: b.legal_mask(out))
    checked(lambda: b.features(history, out))
    checked(lambda: b.features(history))
    checked(lambda: b.playout(pass_probability=p, max_moves=cap))
    checked(lambda: b.reset(where))
    checked(lambda: b.sample(actions))
    checked(lambda: b.sample(out=out))
    checked(lambda: b.sample(np.ones((3, 10)), logits=p))


# -- status, handicap, coordinates --------------------------------------------------------

@HOSTILE
@given(position=st.one_of(hostile, st.lists(st.sampled_from(["X.O", "...", "XX", "", "\ud800..", "XOX"]), max_size=3)),
       option=st.sampled_from(["ko_rule", "first", "strict_dame_seki", "prune", "split", "budget", "memory", "unresolved", "playouts", "seed"]),
       value=hostile, komi=st.one_of(st.none(), hostile), prisoners=st.one_of(st.none(), hostile))
def test_status_confirmation(position: Any, option: str, value: Any, komi: Any, prisoners: Any) -> None:
    refused_or_done(lambda: ikeda.confirm_status(position, **{option: value}))
    refused_or_done(lambda: ikeda.confirm_status(position))
    refused_or_done(lambda: ikeda.japanese_score(position, komi=komi, prisoners=prisoners))
    game = a_game()
    before = game_state(game)
    refused_or_done(lambda: ikeda.japanese_score(game, komi=komi, prisoners=prisoners, **{option: value}))
    assert game_state(game) == before


@HOSTILE
@given(stones=st.one_of(hostile, st.integers(-1, 10)), size=st.one_of(hostile, st.integers(1, 25)))
@example(stones=[], size=9)  # unhashable stones: a TypeError
@example(stones=2, size=None)  # a size that is not a number: a TypeError
@example(stones=2, size=np.zeros(0))  # an array size: numpy's ambiguous truth value
def test_handicap_points(stones: Any, size: Any) -> None:
    ok, points = refused_or_done(lambda: ikeda.handicap_points(stones, size))
    if ok:
        assert len(points) == stones


@HOSTILE
@given(text=st.one_of(hostile, strings), width=st.one_of(hostile, st.integers(1, 25)), height=st.one_of(hostile, st.integers(1, 25)))
@example(text="A1", width=None, height=1)  # the native TypeError
@example(text="A1", width=[], height=1)  # unhashable: the size cache's TypeError
def test_coordinate_parsers(text: Any, width: Any, height: Any) -> None:
    ok, index = refused_or_done(lambda: coords.parse_vertex(text, width, height))
    if ok:
        assert 0 <= index <= width * height
    refused_or_done(lambda: coords.parse_color(text))
    refused_or_done(lambda: coords.parse_color(text, "to_move"))


# -- GTP ----------------------------------------------------------------------------------

gtp_commands = st.sampled_from([
    "boardsize", "clear_board", "komi", "play", "genmove", "undo", "fixed_handicap", "place_free_handicap",
    "set_free_handicap", "final_score", "final_status_list", "loadsgf", "time_settings", "time_left",
    "kgs-rules", "ikeda-rules", "showboard", "list_commands", "known_command", "protocol_version", "name",
])
#: Commands that only answer: the engine's state is the same after them.
GTP_QUERIES = {"protocol_version", "name", "version", "known_command", "list_commands", "showboard",
               "final_score", "final_status_list", "printsgf"}
gtp_args = st.one_of(strings, st.builds(str, ints), st.builds(str, floats),
                     st.sampled_from(["b c3", "w C3", "b pass", "white b2", "5", "3", "6.5", "alive", "2 b2 d4"]))
gtp_lines = st.lists(st.one_of(strings, st.builds(lambda c, a: f"{c} {a}", gtp_commands, gtp_args)), max_size=6)


def gtp_first_legal(game: ikeda.Game) -> str:
    return game.legal_moves()[0]


def engine_state(e: Engine) -> tuple[Any, ...]:
    """Everything a GTP command may change."""
    g = e.game
    return (e.size, e.rules, {c: list(v) for c, v in e.setup.items()}, e._first, e._handicap_stones,
            e.time_settings, dict(e.time_left), g.width, g.rules, g.to_move, tuple(g.moves), g.to_numpy().tobytes(),
            g.is_over, g.result)


def gtp_words(line: str) -> list[str]:
    """The command and its arguments as GTP reads them (comments, control characters and
    the id dropped, tabs as blanks)."""
    text = "".join(" " if ch == "\t" else ch for ch in line.split("#", 1)[0] if ch >= " " or ch == "\t")
    words = text.split()
    return words[1:] if words and words[0].isdigit() else words


def check_gtp_effect(line: str, reply: str, before: tuple[Any, ...], engine: Engine) -> None:
    """What an accepted command did to the engine, checked against what it means."""
    command, args = gtp_words(line)[0], gtp_words(line)[1:]
    after = engine_state(engine)
    moves_before, moves = list(before[10]), engine.game.moves
    size = engine.game.width
    if command in GTP_QUERIES:
        assert after == before, line
    elif command == "play":
        # The move is the game's last (after the moves before it, or alone after a second
        # move of one colour in a row made the position the setup).
        assert moves in (moves_before + moves[-1:], moves[-1:]), (line, moves_before, moves)
        played = moves[-1]
        wanted = args[1]
        assert coords.parse_vertex(played, size, size) == coords.parse_vertex(wanted, size, size), (line, played)
        assert engine.game.to_move != coords.color_name(coords.parse_color(args[0].lower())), line
    elif command in ("genmove", "kgs-genmove_cleanup"):
        answer = reply.split()[1]
        if answer == "resign" or before[12]:
            assert moves == moves_before, line  # a game over answers pass, unrecorded
        else:
            assert moves in (moves_before + [answer], [answer]), (line, answer, moves)
    elif command == "undo":
        assert moves == moves_before[:-1], (line, moves_before, moves)
    elif command in ("boardsize", "clear_board"):
        assert moves == [] and engine.setup == {"B": [], "W": []} and not engine.game.to_numpy().any(), line
        if command == "boardsize":
            assert size == engine.size == int(args[0]), line
    elif command == "komi":
        assert engine.rules.komi == engine.game.rules.komi == float(args[0]), line
        assert moves == moves_before and after[11] == before[11], line
    elif command in ("fixed_handicap", "place_free_handicap", "set_free_handicap"):
        placed = engine.setup["B"]
        assert moves == [] and engine._handicap_stones == len(placed) == int((engine.game.to_numpy() == 1).sum()), line
        assert engine.game.to_move == "W", line
    elif command in ("time_settings", "kgs-time_settings", "time_left"):
        assert after[:5] == before[:5] and after[7:] == before[7:], line
    elif command == "ikeda-rules":
        assert moves == moves_before and after[11] == before[11], line


@HOSTILE
@given(lines=gtp_lines)
@example(lines=["play b c3", "play w c3"])  # refused after the colour check restarted the game
@example(lines=["play b c3", "play b c3"])
@example(lines=["play b c3", "undo", "undo", "komi 7.25", "komi 0.5"])
@example(lines=["loadsgf \ud800", "printsgf \ud800", "loadsgf a\x00b"])  # names no file system can hold
def test_gtp_engine_answers_every_line(lines: list[str]) -> None:
    # Every line gets a well-formed reply; a refused command leaves the engine exactly as
    # it was, and an accepted one did what it means.
    engine = Engine(gtp_first_legal, size=5)
    for line in ["boardsize 5", *lines, "play b c3", "genmove w"]:
        before = engine_state(engine)
        reply = engine.handle(line)
        assert reply is None or (reply[0] in "=?" and reply.endswith("\n\n")), (line, reply)
        assert reply is None or "internal error" not in reply, (line, reply)
        if reply is None or reply.startswith("?"):
            assert engine_state(engine) == before, (line, reply)
        else:
            check_gtp_effect(line, reply, before, engine)


raw_gtp_lines = st.one_of(
    st.builds(lambda s: s.encode("utf-8", "surrogatepass"), strings),
    st.binary(max_size=24),
    st.builds(lambda c, a: f"{c} {a}".encode("utf-8", "surrogatepass"), gtp_commands, gtp_args),
    st.just(b"play b " + b"A" * 20_000),  # past the line limit
).map(lambda raw: raw.replace(b"\n", b" ").replace(b"\r", b" "))


@HOSTILE
@given(lines=st.lists(raw_gtp_lines, max_size=8))
@example(lines=[b"play b c3", b"play w \xff", b"play w d4"])
def test_gtp_serve_answers_every_line_in_order(lines: list[bytes]) -> None:
    # Numbered lines of any bytes, over ``serve``: one reply per line, in order, each with
    # its line's id, up to the first quit; a bad line costs no earlier or later reply.
    data = b"".join(b"%d " % (k + 1) + raw + b"\n" for k, raw in enumerate(lines))
    sink = io.BytesIO()
    out = io.TextIOWrapper(sink, encoding="utf-8")
    Engine(gtp_first_legal, size=5).serve(io.BytesIO(data), out)
    out.flush()
    expected = []
    for k, raw in enumerate(lines, 1):
        expected.append(k)
        line = b"%d " % k + raw + b"\n"
        if len(line) <= MAX_LINE and _utf8(line) and _quits(line.decode()):
            break
    replies = sink.getvalue().split(b"\n\n")
    assert replies[-1] == b"", sink.getvalue()
    ids = []
    for r in replies[:-1]:
        head = r.split(b" ", 1)[0]
        assert head[:1] in (b"=", b"?"), (r, sink.getvalue())
        ids.append(int(head[1:]))
    assert ids == expected, sink.getvalue()


def _quits(line: str) -> bool:
    """Whether ``serve`` stops after `line` (its command word, read as it reads it)."""
    words = line.split("#", 1)[0].split()
    if words and words[0].isdigit():
        words = words[1:]
    return words[:1] == ["quit"]


def _utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
