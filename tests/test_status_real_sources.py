"""Status confirmation on real games from other sources than Tygem (tests/data/real): KGS
games under Japanese rules, even and handicap (HA/AB, komi 0.5), and counted 9x9 games.
Only what is proven is checked: the chains proven today stay proven with the same status,
GNU Go 3.8's independent reading agrees with every proof, and a game proven whole gives its
count. Estimated chains are never checked as if proven."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import ikeda
from ikeda import sgf

DATA = Path(__file__).parent / "data" / "real"
#: Per sample: today's proven dead stones and number of proven chains, GNU Go 3.8's
#: `final_status_list dead`, and whether every chain is proven (tests/data/real/README.md).
SAMPLES: dict[str, dict[str, object]] = json.loads((DATA / "sources.json").read_text())
#: The budget of the other real-game tests: the samples' proofs need no more.
BUDGET = 50_000


def recorded(path: Path) -> float:
    m = re.search(r"RE\[([BW])\+(\d+(?:\.\d+)?)\]", path.read_text(errors="replace"))
    assert m, path
    return float(m.group(2)) * (1 if m.group(1) == "B" else -1)


@pytest.mark.parametrize("name", sorted(SAMPLES), ids=[Path(n).stem for n in sorted(SAMPLES)])
def test_proven_statuses_of_kgs_and_9x9_games_hold_and_agree_with_gnugo(name: str) -> None:
    want = SAMPLES[name]
    game = sgf.read((DATA / name).read_text(errors="replace")).replay(rules="japanese", tolerant=True)
    js = ikeda.japanese_score(game, unresolved="estimate", budget=BUDGET)
    proven = [c for c in js.status.chains if c.proven]
    dead = {v for c in proven if c.status == "dead" for v in c.stones}
    alive = {v for c in proven if c.status == "alive" for v in c.stones}
    gnugo_dead = set(want["gnugo_dead"])  # type: ignore[call-overload]
    assert len(proven) >= want["chains_proven"]  # type: ignore[operator]
    assert set(want["proven_dead"]) <= dead  # type: ignore[call-overload]
    assert dead <= gnugo_dead and not alive & gnugo_dead
    assert js.proven == want["whole"]
    if js.proven:
        assert js.margin == recorded(DATA / name)
