"""ikeda's proven statuses against Fuego's whole-board safety suite (tests/data/fuego-safety):
no point that Fuego's static safety solver proves neutral may be proven territory of a
colour, and Fuego's counts of safe points must fit beside ikeda's proven points."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

import ikeda

DATA = Path(__file__).parent / "data" / "fuego-safety"
EXPECTED: dict[str, dict[str, object]] = json.loads((DATA / "expected.json").read_text())
#: A small budget keeps the suite quick; fewer chains are proven, none differently.
BUDGET = 50_000


def bench() -> ModuleType:
    """benches/fuego_safety.py, which owns the reading of the suite and `proven_points`."""
    path = Path(__file__).parent.parent / "benches" / "fuego_safety.py"
    spec = importlib.util.spec_from_file_location("fuego_safety", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FUEGO = bench()


@pytest.mark.parametrize("name", sorted(EXPECTED), ids=[Path(n).stem for n in sorted(EXPECTED)])
def test_proofs_never_contradict_fuegos_safe_points(name: str) -> None:
    """Fuego's safe dame (empty points next to safe stones of both colours) are nobody's
    territory, so no proof may give them to a colour. The .tst gives the safe points of
    each colour by count only; a proof contradicting them would have to leave too few
    points for Fuego's count: Black's safe points lie outside White's proven points and the
    dame, White's outside Black's, and the two are disjoint."""
    want = EXPECTED[name]
    r = ikeda.confirm_status(FUEGO.position(DATA / name), unresolved="estimate", budget=BUDGET)
    got = FUEGO.proven_points(r)
    dame = set(want["dame"])  # type: ignore[call-overload]
    assert not dame & (got["B"] | got["W"])
    free = 361 - len(got["B"]) - len(got["W"]) - len(dame - got["B"] - got["W"])
    assert want["B"] <= len(got["B"]) + free  # type: ignore[operator]
    assert want["W"] <= len(got["W"]) + free  # type: ignore[operator]
    assert want["B"] + want["W"] <= len(got["B"]) + len(got["W"]) + free  # type: ignore[operator]


def test_proven_points_are_the_proven_chains_and_their_territory() -> None:
    """A Black wall with a two-point eye space holding a dead White stone, beside an empty
    row that nobody owns: the wall and its eye space are proven Black's (the dead stone's
    point with them); the open points are nobody's."""
    rows = ["X.OX.X", "XXXXXX", "......", "OOOOOO", "......"]
    r = ikeda.confirm_status(rows)
    got = FUEGO.proven_points(r)
    assert got["B"] == {f"{c}{n}" for c in "ABCDEF" for n in (4, 5)}
    assert got["W"] == {f"{c}{n}" for c in "ABCDEF" for n in (1, 2)}
    # Estimated chains prove nothing: with the search refused, the bulky five is estimated.
    cut = ikeda.confirm_status(["...XO", "..XXO", "XXXOO", "OOOO.", "O.O.O"], budget=1, unresolved="estimate",
                               playouts=10)
    estimated = set(cut.estimated_stones)
    assert estimated
    got = FUEGO.proven_points(cut)
    assert not estimated & (got["B"] | got["W"])


def test_parts_where_the_defender_stands_alone_prove_a_real_group() -> None:
    """k01: Black's group at the top (from G19, K18, J17 and D16) lives by corners of its
    large open area settled alone (docs/status.md 2g), where Black's answers include stones
    that join no wall yet, which A may never capture; when every Black stone had to join a
    wall none of these chains was proven."""
    r = ikeda.confirm_status(FUEGO.position(DATA / "k01.sgf"), unresolved="estimate", budget=BUDGET)
    found = {c.stones[0]: (c.status, c.proof) for c in r.chains}
    for first in ("G19", "K18", "J17", "D16"):
        assert found[first] == ("alive", "static"), first


def test_more_proof_work_proves_more_of_a_real_position() -> None:
    """``proof_work`` buys proofs with time (docs/status.md, "Limits"): on q8 of Fuego's
    suite ten times the default proves more chains, and every chain proven with the default
    keeps its status."""
    position = FUEGO.position(DATA / "q8.sgf")

    def proven(work: int) -> dict[tuple[str, ...], str]:
        r = ikeda.confirm_status(position, unresolved="estimate", budget=BUDGET, proof_work=work)
        return {tuple(c.stones): c.status for c in r.chains if c.proof in ("static", "searched")}

    base, more = proven(ikeda.status.PROOF_WORK), proven(ikeda.status.MAX_PROOF_WORK)
    assert len(more) >= len(base) + 3, (len(base), len(more))
    assert all(more.get(stones) == status for stones, status in base.items())
