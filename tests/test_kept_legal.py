"""The legal plays a game keeps from one move to the next (rust/ikeda-core/src/kept_legal.rs,
by the watch rules of legal_watch.rs) equal a scan from scratch after every move, under
every rules preset: the native test of each point (``Board.illegal_reason``, which reads no
kept set) and, where the reference models the preset, tests/reference.py. Lines fill their
own eyes, so captures, ko and superko bans come up all the time; passes, undos, copies,
resignation and games loaded from SGF are mixed in."""

from __future__ import annotations

import os
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ikeda
from reference import RulesGame

EXAMPLES = int(os.environ.get("IKEDA_HYPOTHESIS_EXAMPLES", "15"))
PRESETS = ("area3", "area2", "territory1", "tromp-taylor", "japanese")
SGF = Path(__file__).parent / "data" / "sgf"


def scratch(game: ikeda.Game) -> list[int]:
    """The legal plays of the side to move, each tested on its own."""
    if game.is_over:
        return []
    board, color = game._board, game._color
    return [i for i in range(game.width * game.height) if board.illegal_reason(i, color) is None]


def check(game: ikeda.Game, ref: RulesGame | None, where: str) -> list[int]:
    got = game.legal_indices()
    assert got == scratch(game), where
    if ref is not None:
        assert got == [p for p in ref.legal_moves() if p != ref.pass_move], where
    mask = game.legal_mask()
    assert [i for i in range(game.width * game.height) if mask[i]] == got, where
    assert bool(mask[-1]) == (not game.is_over), where
    names = game.legal_moves()
    assert names == ([game._board.vertex(i) for i in got] + ["pass"] if not game.is_over else []), where
    # A caller's changes to a returned list reach nothing kept.
    got.append(-1)
    got.reverse()
    return game.legal_indices()


def ref_for(rules: str, w: int, h: int) -> RulesGame | None:
    """The reference for the preset, if it models it (simple ko it does not)."""
    return None if rules == "japanese" else RulesGame(w, h, komi=0.5, rules=rules)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(PRESETS), w=st.integers(1, 5), h=st.integers(1, 5), data=st.data())
def test_kept_legal_set_equals_the_scan_after_every_move(rules: str, w: int, h: int, data: st.DataObject) -> None:
    game, ref = ikeda.Game(width=w, height=h, komi=0.5, rules=rules), ref_for(rules, w, h)
    for step in range(60):
        where = f"{w}x{h} {rules} step {step} moves {game.move_indices}"
        legal = check(game, ref, where)
        if game.is_over:
            break
        action = data.draw(st.sampled_from(["play"] * 8 + ["pass", "undo", "copy", "copy-play"]))
        if action == "undo" and game.move_indices:
            game.undo()
            if ref is not None:
                ref.undo()
        elif action == "copy":
            game = game.copy()
        elif action == "copy-play" and legal:
            # The copy moves on; the original's kept set must not.
            before = game.legal_indices()
            other = game.copy()
            other.play(legal[0])
            assert game.legal_indices() == before == scratch(game), where
            check(other, None, where)
        elif action == "play" and legal:
            p = data.draw(st.sampled_from(legal))
            game.play(p)
            if ref is not None:
                ref.play(p)
        else:
            game.play(game.width * game.height)
            if ref is not None:
                ref.play(ref.pass_move)


def random_line(game: ikeda.Game, rng: random.Random, moves: int, ref: RulesGame | None = None) -> tuple[int, int]:
    """Plays up to `moves` random moves (eye filling, a pass now and then, an undo now and
    then), checking the kept set after each; returns (ko and superko bans seen, moves)."""
    bans = 0
    pass_ = game.width * game.height
    for n in range(moves):
        legal = check(game, ref, f"move {n}: {game.move_indices}")
        if game.is_over:
            return bans, n
        board, color = game._board, game._color
        bans += sum(board.illegal_reason(i, color) in ("ko", "superko") for i in range(pass_))
        r = rng.random()
        if r < 0.02 and game.move_indices:
            game.undo()
            if ref is not None:
                ref.undo()
            continue
        p = rng.choice(legal) if legal and r > 0.05 else pass_
        game.play(p)
        if ref is not None:
            ref.play(p)
    return bans, moves


def test_kept_legal_set_over_long_lines_under_every_preset() -> None:
    bans = 0
    for k, rules in enumerate(PRESETS):
        for size in (4, 5, 7):
            rng = random.Random(1000 * k + size)
            game = ikeda.Game(size, komi=0.5, rules=rules)
            b, _ = random_line(game, rng, 250, ref_for(rules, size, size))
            bans += b
        # 19x19 against the native scan only (the reference is slow there).
        b, _ = random_line(ikeda.Game(19, rules=rules), random.Random(k), 600)
        bans += b
    assert bans > 200, f"only {bans} ko and superko bans seen"


def test_kept_legal_set_after_resignation() -> None:
    game = ikeda.Game(9)
    for p in (40, 41, 30):
        game.play(p)
    assert game.legal_indices() == scratch(game)
    game.resign()
    assert game.legal_indices() == [] and game.legal_moves() == []
    assert not game.legal_mask().any()
    game.undo()  # the resignation, taken back: the kept set answers again
    assert game.legal_indices() == scratch(game) != []
    game.play(game.legal_indices()[0])
    assert game.legal_indices() == scratch(game)


def test_kept_legal_set_of_games_loaded_from_sgf() -> None:
    files = sorted(SGF.glob("random_*.sgf")) + sorted((SGF.parent / "real").glob("*.sgf"))[:3]
    assert files
    for k, path in enumerate(files):
        game = ikeda.sgf.read(path).replay()
        check(game, None, f"{path.name} as loaded")
        if not game.is_over:
            random_line(game, random.Random(k), 80)
        # Undone back into the record, then on again.
        for _ in range(min(20, len(game.move_indices))):
            game.undo()
            check(game, None, f"{path.name} after undo")
        if not game.is_over:
            random_line(game, random.Random(k + 100), 40)
