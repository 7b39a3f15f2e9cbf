"""``ikeda conform`` and :mod:`ikeda.conform`: a correct kernel agrees, each planted bug
is caught within seconds with a short reproduction, GNU Go agrees under the rules it
plays and diverges exactly where its rules differ, and engine trouble is exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from engines import GNUGO, MOCK, needs_gnugo
from ikeda import Game
from ikeda.conform import Checker, GtpKernel, parse_score
from ikeda.errors import EngineCrashed, IkedaError

KERNEL = [sys.executable, os.path.join(os.path.dirname(__file__), "kernel_mock.py")]
CLAIMED = "tromp-taylor:suicide=no"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def check(args: list[str], rules: str = CLAIMED, size: int = 5, games: int = 10, seed: int = 1, **kw: object):
    kernel = GtpKernel(args, timeout=10)
    try:
        checker = Checker(kernel, rules, size, seed=seed, minimise_seconds=10, **kw)  # type: ignore[arg-type]
        return checker.run(games)
    finally:
        kernel.close()


def replays_to(moves: list[str], rules: str, size: int = 5) -> Game:
    g = Game(size, rules=rules)
    for m in moves:
        g.play(m)
    return g


@pytest.mark.parametrize("legal", ["all_legal", "is_legal", "play"])
def test_a_correct_kernel_agrees_whatever_commands_it_has(legal: str) -> None:
    board = "showboard" if legal == "play" else "list_stones"
    r = check([*KERNEL, "--legal", legal, "--board", board], games=4)
    assert r.divergences == [] and r.exit_code == 0
    assert r.checks == ("legal", "stones", "score") and r.positions > 50
    assert "status" in r.not_applicable


def test_suicide_allowed_is_caught_with_a_short_reproduction() -> None:
    t0 = time.monotonic()
    r = check([*KERNEL, "--bug", "suicide", "--legal", "all_legal"])
    assert time.monotonic() - t0 < 30
    (d,) = r.divergences
    assert (d.finding.check, d.finding.rule, d.finding.ikeda, d.finding.kernel) == ("legal", "suicide", "illegal (suicide)", "legal")
    assert len(d.moves) <= 6 < d.found_after
    g = replays_to(d.moves, CLAIMED)
    assert g.illegal_reason(d.finding.point) == "suicide"
    assert d.sgf.startswith("(;C[legal (suicide)") and "*" in d.diagram


def test_ko_not_enforced_is_caught_as_a_simple_ko() -> None:
    rules = CLAIMED + ",ko=simple-ko"
    r = check([*KERNEL, "--bug", "ko", "--ko", "simple", "--legal", "all_legal"], rules=rules)
    (d,) = r.divergences
    assert (d.finding.check, d.finding.rule) == ("legal", "ko") and len(d.moves) <= 8
    assert r.seconds < 30  # found and minimised within seconds
    assert replays_to(d.moves, rules).illegal_reason(d.finding.point) == "ko"
    assert check([*KERNEL, "--ko", "simple", "--legal", "all_legal"], rules=rules, games=4).divergences == []


def test_superko_ignored_is_caught_beyond_simple_ko() -> None:
    r = check([*KERNEL, "--bug", "superko", "--legal", "all_legal"])
    (d,) = r.divergences
    assert (d.finding.check, d.finding.rule, d.finding.kernel) == ("legal", "superko", "legal")
    assert r.seconds < 30  # found and minimised within seconds
    g = replays_to(d.moves, CLAIMED)
    assert g.illegal_reason(d.finding.point) == "superko"
    # Not a simple-ko retake: the same point is legal under the simple-ko ban.
    assert replays_to(d.moves, CLAIMED + ",ko=simple-ko").is_legal(d.finding.point)


def test_a_wrong_capture_is_caught_on_the_board() -> None:
    r = check([*KERNEL, "--bug", "capture", "--legal", "all_legal"])
    stones = [d for d in r.divergences if d.finding.check == "stones"]
    assert len(stones) == 1 and stones[0].finding.rule == "capture" and stones[0].count >= 1
    assert r.seconds < 30  # found and minimised within seconds
    d = stones[0]
    assert len(d.moves) <= 8
    # The last move captures exactly two stones in ikeda's game.
    before, after = replays_to(d.moves[:-1], CLAIMED), replays_to(d.moves, CLAIMED)
    assert sum(before.prisoners.values()) + 2 == sum(after.prisoners.values())


def test_a_wrong_score_is_caught_at_the_end() -> None:
    r = check([*KERNEL, "--bug", "score", "--legal", "all_legal"])
    (d,) = r.divergences
    assert (d.finding.check, d.finding.rule) == ("score", "scoring")
    assert r.seconds < 30  # found and minimised within seconds
    g = replays_to(d.moves, CLAIMED)
    assert g.is_over
    ours, theirs = parse_score(d.finding.ikeda), parse_score(d.finding.kernel)
    assert ours == g.score().margin and theirs - ours == 6.5  # komi left out


def test_checks_can_be_limited_and_unknown_ones_are_refused() -> None:
    r = check([*KERNEL, "--bug", "score", "--legal", "all_legal"], checks=("legal", "stones"))
    assert r.divergences == [] and r.checks == ("legal", "stones")
    with pytest.raises(IkedaError, match="unknown checks"):
        check(KERNEL, checks=("legality",))


def test_parse_score() -> None:
    assert [parse_score(t) for t in ("B+3.5", "W+0.5", "0", "w+2")] == [3.5, -0.5, 0.0, -2.0]
    with pytest.raises(IkedaError):
        parse_score("black wins")


def conform(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "python"), "PATH": os.environ.get("PATH", "") + ":/usr/games"}
    return subprocess.run([sys.executable, "-m", "ikeda", "conform", *args], capture_output=True, text=True,
                          env=env, timeout=timeout)


def test_the_command_exits_1_with_the_reproduction() -> None:
    p = conform("--engine", " ".join([*KERNEL, "--bug", "suicide"]), "--rules", CLAIMED, "--size", "5", "--games", "5")
    assert p.returncode == 1, p.stderr
    assert "divergence 1: legal, rule suicide" in p.stdout and "(;C[legal (suicide)" in p.stdout
    assert "ikeda:  illegal (suicide)" in p.stdout and "mock-suicide: legal" in p.stdout


def test_engine_trouble_is_exit_2() -> None:
    p = conform("--engine", " ".join([*MOCK, "--fault", "exit-on-start"]), "--games", "1")
    assert p.returncode == 2 and "ikeda:" in p.stderr
    with pytest.raises(EngineCrashed):
        GtpKernel([*MOCK, "--fault", "exit-on-start"])


@needs_gnugo
@pytest.mark.parametrize("flags, rules", [(["--chinese-rules"], "area2:ko=simple-ko"), ([], "japanese")])
def test_gnu_go_agrees_under_the_rules_it_plays(flags: list[str], rules: str) -> None:
    gnugo = [GNUGO[0], "--mode", "gtp", "--level", "1", *flags]
    r = check(gnugo, rules=rules, size=9, games=3)
    assert r.divergences == [], [(d.finding, d.moves) for d in r.divergences]
    assert set(r.checks) >= {"legal", "stones", "score"} and r.positions > 200
    if rules == "japanese":
        assert "status" in r.checks


@needs_gnugo
def test_gnu_go_diverges_where_tromp_taylor_differs() -> None:
    """GNU Go forbids suicide and tests only simple ko: under Tromp-Taylor both show."""
    p = conform("--engine", " ".join([GNUGO[0], "--mode", "gtp", "--level", "1", "--chinese-rules"]),
                "--rules", "tromp-taylor", "--size", "5", "--games", "20", "--minimise-seconds", "10")
    assert p.returncode == 1
    assert "rule suicide" in p.stdout and "rule superko" in p.stdout
