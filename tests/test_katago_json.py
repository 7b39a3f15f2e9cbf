"""``ikeda analysis`` (ikeda.gtp.katago_json) against KaTrain, read from its source
(sanderland/katrain at 30ccf86):

- what it sends: ``katrain/core/engine.py``, ``KataGoEngine.request_analysis`` builds the
  query, ``_write_stdin_thread`` adds ``id`` ``QUERY:n``, drops ``_kt_continuous`` and, to
  ponder, sets ``maxVisits`` 10,000,000 and ``reportDuringSearchEvery``
  ``PONDERING_REPORT_DT`` (0.25); ``terminate_query`` sends ``{"action": "terminate",
  "terminateId": ...}``; ``GameNode.analyze`` passes ``report_every=REPORT_DT`` (1);
  defaults from ``katrain/config.json`` (``max_visits`` 500, ``max_time`` 8.0,
  ``wide_root_noise`` 0.04);
- what it reads: ``KataGoEngine._analysis_read_thread`` (``id``, ``error``, ``warning``,
  ``terminateId``, ``isDuringSearch``, ``noResults``, ``rootInfo.visits``),
  ``GameNode.set_analysis``/``update_move_analysis`` (``moveInfos``: ``move``, ``order``,
  ``visits``; ``ownership``, ``policy``, ``rootInfo``), ``GameNode.candidate_moves``
  (``scoreLead``, ``winrate`` of root and moves, signed by the side to move: Black's view),
  ``GameNode.policy_ranking`` and ``katrain.core.utils.var_to_grid`` (the arrays row by
  row from the top, ``grid[y][x]`` with ``y`` 0 the bottom row, the pass last).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from ikeda.gtp.katago_json import AnalysisEngine, positions
from ikeda.rules import PRESETS

GTP_COORD = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
ADDITIONAL_MOVE_ORDER = 999  # katrain/core/constants.py


def katrain_gtp(x: int, y: int) -> str:
    """``Move((x, y)).gtp()`` (katrain/core/sgf_parser.py): y counts from the bottom."""
    return GTP_COORD[x] + str(y + 1)


def var_to_grid(array: list[float], size: tuple[int, int]) -> list[list[float]]:
    """``katrain.core.utils.var_to_grid``: grid[y][x], the array's first row the top one."""
    grid: list[list[float]] = [[] for _ in range(size[1])]
    ix = 0
    for y in range(size[1] - 1, -1, -1):
        grid[y] = array[ix : ix + size[0]]
        ix += size[0]
    return grid


def katrain_query(n: int, moves: list[list[str]], *, size: int = 9, ponder: bool = False, **changes: Any) -> dict[str, Any]:
    """The query ``KataGoEngine.request_analysis`` writes (defaults of config.json, a node
    without placements, ``GameNode.analyze``'s ``report_every`` 1), as sent."""
    query: dict[str, Any] = {
        "rules": "japanese",
        "priority": 1000,
        "analyzeTurns": [len(moves)],
        "maxVisits": 500,
        "komi": 6.5,
        "boardXSize": size,
        "boardYSize": size,
        "includeOwnership": True,
        "includeMovesOwnership": True,
        "includePolicy": True,
        "initialStones": [],
        "initialPlayer": "B",
        "moves": moves,
        "overrideSettings": {"reportAnalysisWinratesAs": "BLACK", "wideRootNoise": 0.04, "maxTime": 8.0},
        "reportDuringSearchEvery": 1,
        **changes,
    }
    query = {k: v for k, v in query.items() if v is not None}  # report_every None: no key
    query["id"] = f"QUERY:{n}"
    if ponder:  # Game.analyze_extra("ponder"): time_limit=False; then _write_stdin_thread
        del query["overrideSettings"]["maxTime"]
        query["maxVisits"] = 10_000_000
        query["reportDuringSearchEvery"] = 0.25
    return query


class KaTrainReader:
    """A small reading of ``_analysis_read_thread`` and ``GameNode.set_analysis``:
    outstanding queries by id, then per answer what KaTrain takes from it."""

    def __init__(self, size: tuple[int, int], next_player: str) -> None:
        self.size = size
        self.next_player = next_player
        self.queries: set[str] = set()
        self.errors: list[dict[str, Any]] = []
        self.logged: list[dict[str, Any]] = []
        self.analysis: dict[str, Any] = {"moves": {}, "root": None, "ownership": None, "policy": None, "completed": False}

    def read(self, line: str) -> None:
        answer = json.loads(line.strip())
        assert "id" in answer, f"KaTrain logs 'Error without ID': {answer}"
        if answer["id"] not in self.queries:
            return  # discarded (terminate acknowledgements land here too)
        if "error" in answer:
            self.queries.discard(answer["id"])
            self.errors.append(answer)
        elif "warning" in answer or "terminateId" in answer:
            self.logged.append(answer)
        else:
            partial = answer.get("isDuringSearch", False)
            if not partial:
                self.queries.discard(answer["id"])
            if not answer.get("noResults", False):
                assert isinstance(answer["rootInfo"]["visits"], int)
                self.set_analysis(answer, partial)

    def set_analysis(self, answer: dict[str, Any], partial: bool) -> None:
        for d in self.analysis["moves"].values():
            d["order"] = ADDITIONAL_MOVE_ORDER
        for m in answer["moveInfos"]:
            cur = self.analysis["moves"].get(m["move"])
            if cur is None:
                self.analysis["moves"][m["move"]] = {"move": m["move"], "order": ADDITIONAL_MOVE_ORDER, **m}
            else:
                cur["order"] = min(cur["order"], m.get("order", ADDITIONAL_MOVE_ORDER))
                if cur["visits"] < m["visits"]:
                    cur.update(m)
        self.analysis["ownership"] = answer.get("ownership")
        self.analysis["policy"] = answer.get("policy")
        self.analysis["root"] = answer["rootInfo"]
        self.analysis["completed"] = self.analysis["completed"] or not partial

    def candidate_moves(self) -> list[dict[str, Any]]:
        sign = {"B": 1, "W": -1}[self.next_player]
        root = self.analysis["root"]
        top = [d for d in self.analysis["moves"].values() if d["order"] == 0]
        top_lead = top[0]["scoreLead"] if top else root["scoreLead"]
        return sorted(
            (
                {
                    "pointsLost": sign * (root["scoreLead"] - d["scoreLead"]),
                    "relativePointsLost": sign * (top_lead - d["scoreLead"]),
                    "winrateLost": sign * (root["winrate"] - d["winrate"]),
                    **d,
                }
                for d in self.analysis["moves"].values()
            ),
            key=lambda d: (d["order"], d["pointsLost"]),
        )

    def policy_ranking(self) -> list[tuple[float, str]]:
        policy = self.analysis["policy"]
        grid = var_to_grid(policy, self.size)
        moves = [(grid[y][x], katrain_gtp(x, y)) for x in range(self.size[0]) for y in range(self.size[1])]
        moves.append((policy[-1], "pass"))
        return sorted(moves, key=lambda mp: -mp[0])


def run_engine(*queries: dict[str, Any] | str, seed: int = 1) -> list[str]:
    """Every query handled, then the queue searched; the answer lines."""
    out = io.StringIO()
    engine = AnalysisEngine(out, seed=seed)
    for q in queries:
        engine.handle(q if isinstance(q, str) else json.dumps(q))
    engine.work(block=False)
    return out.getvalue().splitlines()


# A 9x9 position whose top two rows are Black's and bottom two White's, each with two eyes.
WALLS = [
    [color, katrain_gtp(x, y)]
    for color, rows, eye_row in (("B", (7, 8), 8), ("W", (0, 1), 0))
    for y in rows
    for x in range(9)
    if not (y == eye_row and x in (1, 6))
]


def test_katrain_analysis_query_is_answered_as_katrain_reads_it() -> None:
    moves = [["B", "E5"], ["W", "C3"], ["B", "G7"]]
    query = katrain_query(1, moves, maxVisits=300)
    reader = KaTrainReader((9, 9), "W")
    reader.queries.add(query["id"])
    lines = run_engine(query)
    for line in lines:
        reader.read(line)
    assert not reader.errors and not reader.queries, "the query is answered and done"
    assert reader.analysis["completed"]
    # The fields KaTrain does not act on are reported, not silently dropped.
    assert {a["field"] for a in reader.logged} == {"includeMovesOwnership", "overrideSettings.wideRootNoise"}
    final = json.loads(lines[-1])
    assert final["turnNumber"] == 3 and final["rootInfo"]["visits"] == 300
    assert sum(m["visits"] for m in final["moveInfos"]) == 300
    cands = reader.candidate_moves()
    assert cands[0]["order"] == 0 and cands[0]["move"] == final["moveInfos"][0]["move"]
    assert [c["order"] for c in cands] == list(range(len(cands)))
    for c in cands:
        assert 0 <= c["winrate"] <= 1 and c["pv"][0] == c["move"] and 0 < c["prior"] < 1
    assert len(reader.analysis["ownership"]) == 81 and len(reader.analysis["policy"]) == 82
    ranking = reader.policy_ranking()
    occupied = {m for _, m in moves}
    assert {m for p, m in ranking if p < 0} == occupied, "illegal points are -1, the rest legal"
    assert abs(sum(p for p, _ in ranking if p > 0) - 1) < 1e-4


def test_ownership_and_policy_rows_run_from_the_top_and_values_are_black_s_view() -> None:
    query = katrain_query(2, [], maxVisits=200, initialStones=WALLS, initialPlayer="W", rules="chinese")
    reader = KaTrainReader((9, 9), "W")
    reader.queries.add(query["id"])
    for line in run_engine(query):
        reader.read(line)
    own = var_to_grid(reader.analysis["ownership"], (9, 9))
    assert all(own[8][x] > 0.9 and own[0][x] < -0.9 for x in range(9)), "top Black, bottom White, White to move"
    policy = var_to_grid(reader.analysis["policy"], (9, 9))
    assert all(policy[7][x] == -1 and policy[1][x] == -1 and policy[4][x] > 0 for x in range(9))
    assert reader.analysis["root"]["currentPlayer"] == "W"


def test_black_view_is_the_side_to_move_view_flipped_for_white() -> None:
    moves = [["B", "E5"], ["W", "C3"], ["B", "G7"]]
    common = {"maxVisits": 200, "reportDuringSearchEvery": None}
    black = json.loads(run_engine(katrain_query(1, moves, **common))[-1])
    stm = katrain_query(1, moves, **common)
    stm["overrideSettings"] = {"reportAnalysisWinratesAs": "SIDETOMOVE"}
    mover = json.loads(run_engine(stm)[-1])
    assert black["rootInfo"]["winrate"] == pytest.approx(1 - mover["rootInfo"]["winrate"], abs=1e-5)
    assert black["rootInfo"]["scoreLead"] == pytest.approx(-mover["rootInfo"]["scoreLead"], abs=1e-5)
    assert black["ownership"] == pytest.approx([-o for o in mover["ownership"]], abs=1e-5)


def test_each_analyze_turn_gets_its_own_answer() -> None:
    moves = [["B", "E5"], ["W", "C3"], ["B", "G7"]]
    lines = run_engine(katrain_query(1, moves, maxVisits=50, analyzeTurns=[0, 2], reportDuringSearchEvery=None))
    finals = [a for a in map(json.loads, lines) if "moveInfos" in a]
    assert sorted(a["turnNumber"] for a in finals) == [0, 2]
    assert {a["rootInfo"]["currentPlayer"] for a in finals} == {"B"}


def test_higher_priority_queries_are_searched_first() -> None:
    low = katrain_query(1, [], maxVisits=20, priority=1, reportDuringSearchEvery=None)
    high = katrain_query(2, [], maxVisits=20, priority=5, reportDuringSearchEvery=None)
    ids = [a["id"] for a in map(json.loads, run_engine(low, high)) if "moveInfos" in a]
    assert ids == ["QUERY:2", "QUERY:1"]


def test_two_moves_of_one_colour_and_moves_after_two_passes_are_analysed() -> None:
    moves = [["B", "E5"], ["B", "C3"], ["W", "pass"], ["B", "pass"], ["W", "D4"]]
    answer = json.loads(run_engine(katrain_query(1, moves, maxVisits=30, reportDuringSearchEvery=None))[-1])
    assert answer["rootInfo"]["currentPlayer"] == "B" and answer["moveInfos"]


def test_a_japanese_query_is_a_game_under_the_japanese_preset_with_the_querys_komi() -> None:
    # Its ko rule (simple ko) and ending are the preset's; only the search counts it as
    # territory (ikeda.gtp.analysis.search_rules).
    [(turn, game)] = positions(katrain_query(1, [["B", "E5"]], komi=7))
    assert turn == 1 and game.rules == PRESETS["japanese"].replace(komi=7.0)
    answer = json.loads(run_engine(katrain_query(1, [["B", "E5"]], maxVisits=30, reportDuringSearchEvery=None))[-1])
    assert answer["moveInfos"] and answer["rootInfo"]["currentPlayer"] == "W"


MALFORMED = [
    ('{"id": "a", "rules": "japanese", "boardXSize": 9, "boardYSize": 9, "moves": [["B", "E5"], ["W", "E5"]]}', "a", "Illegal move 1: E5"),
    ('{"id": "b", "rules": "japanese", "boardXSize": 9, "boardYSize": 9, "moves": [["B", "Z99"]]}', "b", "Could not parse move 0"),
    ('{"id": "c", "rules": "japanese", "boardXSize": 9, "boardYSize": 9, "moves": [["X", "E5"]]}', "c", "not a player"),
    ('{"id": "d", "rules": "japanese", "boardXSize": 9, "boardYSize": 9, "moves": ["E5"]}', "d", "moves[0]"),
    ('{"id": "e", "rules": "go-rules", "boardXSize": 9, "boardYSize": 9, "moves": []}', "e", "Unknown rules"),
    ('{"id": "f", "boardXSize": 9, "boardYSize": 9, "moves": []}', "f", "rules is missing"),
    ('{"id": "g", "rules": "chinese", "boardXSize": 0, "boardYSize": 9, "moves": []}', "g", "boardXSize"),
    ('{"id": "h", "rules": "chinese", "boardXSize": 99, "boardYSize": 9, "moves": []}', "h", "Bad position"),
    ('{"id": "i", "rules": "chinese", "komi": 7.25, "boardXSize": 9, "boardYSize": 9, "moves": []}', "i", "komi"),
    ('{"id": "j", "rules": "chinese", "boardXSize": 9, "boardYSize": 9, "moves": [], "analyzeTurns": [1]}', "j", "analyzeTurns"),
    ('{"id": "k", "rules": "chinese", "boardXSize": 9, "boardYSize": 9, "moves": [], "maxVisits": 0}', "k", "maxVisits"),
    ('{"id": "l", "rules": "chinese", "boardXSize": 9, "boardYSize": 9, "moves": [], "includeOwnership": "yes"}', "l", "includeOwnership"),
    ('{"id": "m", "rules": "chinese", "boardXSize": 9, "boardYSize": 9, "moves": [], "overrideSettings": {"reportAnalysisWinratesAs": "RED"}}', "m", "reportAnalysisWinratesAs"),
    ('{"id": "n", "rules": "chinese", "boardXSize": 9, "boardYSize": 9, "moves": [], "initialStones": [["B", "E5"], ["W", "E5"]]}', "n", "Bad position"),
    ('{"id": "o", "action": "fly"}', "o", "Unknown action"),
    ('{"id": "p", "action": "terminate"}', "p", "terminateId"),
    ('{"id": "q", "rules": "chinese", "boardXSize": 9, "boardYSize": 9, "moves": [], "reportDuringSearchEvery": -1}', "q", "reportDuringSearchEvery"),
    ('{"id": "r", "rules": "chinese", "komi": 1e999, "boardXSize": 9, "boardYSize": 9, "moves": []}', "r", "komi"),
    ('{"id": "s", "rules": "chinese", "komi": 1' + "0" * 400 + ', "boardXSize": 9, "boardYSize": 9, "moves": []}', "s", "Bad query"),
    ('{"id": "t", "rules": ["chinese"], "boardXSize": 9, "boardYSize": 9, "moves": []}', "t", "Unknown rules"),
    ('{"id": 7, "rules": "chinese"}', None, "id must be a string"),
    ("[" * 100_000, None, "Could not parse json"),
    ("not json", None, "Could not parse json"),
    ("[1, 2]", None, "JSON object"),
]


@pytest.mark.parametrize(("name", "preset"), [("Tromp_Taylor", "tromp-taylor"), (" JAPANESE ", "japanese"),
                                             ("stone-scoring", "area2"), ("Chinese", "area2")])
def test_rules_names_are_read_as_an_sgf_ru_is(name: str, preset: str) -> None:
    # One normalisation for both readers (the native rules_key): case, blanks, - and _.
    [(_, game)] = positions(katrain_query(0, [], rules=name))
    assert game.rules == PRESETS[preset].replace(komi=6.5)


@pytest.mark.parametrize(("line", "qid", "message"), MALFORMED, ids=[m[2] for m in MALFORMED])
def test_malformed_query_gets_one_error_answer_and_the_engine_goes_on(line: str, qid: str | None, message: str) -> None:
    valid = katrain_query(9, [], maxVisits=10, reportDuringSearchEvery=None, overrideSettings={})
    answers = [json.loads(a) for a in run_engine(line, valid)]
    errors = [a for a in answers if "error" in a]
    assert len(errors) == 1 and message in errors[0]["error"]
    assert errors[0].get("id") == qid
    assert answers[-1]["id"] == "QUERY:9" and answers[-1]["moveInfos"]


def test_katrain_sees_illegal_move_errors_as_it_expects() -> None:
    # _analysis_read_thread treats an error holding "Illegal move" as a sweep's expected one.
    query = katrain_query(1, [["B", "E5"], ["W", "E5"]])
    errors = [a for a in map(json.loads, run_engine(query)) if "error" in a]
    assert errors and "Illegal move" in errors[0]["error"] and errors[0]["id"] == "QUERY:1"


def test_query_version_and_clear_cache_are_acknowledged() -> None:
    version, cache = map(json.loads, run_engine('{"id": "v", "action": "query_version"}', '{"id": "c", "action": "clear_cache"}'))
    assert version["action"] == "query_version" and version["version"].startswith("ikeda-")
    assert cache == {"id": "c", "action": "clear_cache"}


def test_terminate_stops_a_ponder_query_with_a_final_answer() -> None:
    """KaTrain's ponder query (maxVisits 10,000,000, reports every 0.25 s) through the
    ``ikeda analysis`` command KaTrain's ``altcommand`` runs, then ``terminate_query``'s
    terminate; KataGo's own arguments are accepted."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "python")}
    with subprocess.Popen(
        [sys.executable, "-m", "ikeda", "analysis", "-model", "m.bin.gz", "-config", "a.cfg"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
    ) as proc:
        assert proc.stdin and proc.stdout
        timer = threading.Timer(60, proc.kill)
        timer.start()
        try:
            proc.stdin.write(json.dumps(katrain_query(1, [["B", "E5"]], ponder=True, rules="chinese", priority=100)) + "\n")
            proc.stdin.flush()
            seen = []
            while True:
                a = json.loads(proc.stdout.readline())
                seen.append(a)
                if a.get("isDuringSearch"):
                    break
            proc.stdin.write(json.dumps({"action": "terminate", "terminateId": "QUERY:1", "id": "QUERY:2"}) + "\n")
            proc.stdin.close()
            sent = time.monotonic()
            rest = [json.loads(line) for line in proc.stdout]
            assert proc.wait() == 0, "without terminate the ponder query runs until killed"
            assert time.monotonic() - sent < 20
        finally:
            timer.cancel()
    assert {"id": "QUERY:2", "action": "terminate", "terminateId": "QUERY:1"} in rest
    final = [a for a in rest if a.get("isDuringSearch") is False]
    assert len(final) == 1 and final[0]["id"] == "QUERY:1" and final[0]["rootInfo"]["visits"] < 10_000_000
    partial = [a for a in seen + rest if a.get("isDuringSearch")]
    assert all(p["rootInfo"]["visits"] <= final[0]["rootInfo"]["visits"] for p in partial)


def test_bytes_that_are_not_utf8_get_an_error_answer_from_the_command() -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "python")}
    valid = json.dumps(katrain_query(1, [], maxVisits=10, rules="chinese")).encode()
    done = subprocess.run(
        [sys.executable, "-m", "ikeda", "analysis"], input=b'{"id": "\xff\xfe"}\n' + valid + b"\n",
        capture_output=True, env=env, timeout=60, check=True,
    )
    answers = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert "error" in answers[0] and answers[-1]["id"] == "QUERY:1" and answers[-1]["moveInfos"]
