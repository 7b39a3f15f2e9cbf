"""KataGo's JSON analysis-engine protocol, the subset KaTrain speaks, on the built-in search
(``ikeda analysis``; docs/gtp.md, "KaTrain").

One JSON query per line comes in (``id``, ``moves``, ``initialStones``, ``initialPlayer``,
``rules``, ``komi``, ``boardXSize``/``boardYSize``, ``analyzeTurns``, ``maxVisits``,
``includeOwnership``, ``includePolicy``, ``reportDuringSearchEvery``, ``priority``,
``overrideSettings``; ``action`` ``terminate``/``terminate_all``/``query_version``/
``clear_cache``); one JSON answer per line goes out, per analysed turn: ``id``,
``turnNumber``, ``isDuringSearch``, ``moveInfos`` (``move``, ``visits``, ``winrate``,
``scoreLead``, ``prior``, ``order``, ``pv``...), ``rootInfo``, and ``ownership`` and
``policy`` when asked, row by row from the top left as KataGo writes them. Bad queries get
``{"id": ..., "error": ...}`` and ignored fields ``{"id": ..., "warning": ..., "field":
...}``, as KataGo answers; nothing a query holds stops the engine.

Queries wait in a queue, highest ``priority`` first; a reader thread keeps reading while
the search runs (natively, the GIL released), so that ``terminate`` stops a search between
two of its reports.
"""

from __future__ import annotations

import heapq
import itertools
import json
import math
import threading
import time
from dataclasses import dataclass, field
from typing import Any, TextIO

from .. import _core
from ..coords import Color, parse_color
from ..errors import IkedaError, IllegalMoveError
from ..game import Game
from ..limits import MAX_SEED
from ..rules import PRESETS, Rules
from ..sgf import rules_named
from . import analysis
from .bot import MAX_PLAYOUTS

#: ``maxVisits`` when a query gives none (KataGo's takes its config file's).
DEFAULT_VISITS = 1000
#: The longest search between two checks for ``terminate`` when no report interval is asked.
CHECK_SECONDS = 1.0
#: The fields read from a query; any other is answered with a warning and ignored.
FIELDS = frozenset(
    {
        "id", "moves", "initialStones", "initialPlayer", "rules", "komi", "boardXSize", "boardYSize",
        "analyzeTurns", "maxVisits", "includeOwnership", "includePolicy", "reportDuringSearchEvery",
        "priority", "overrideSettings",
    }
)
#: ``overrideSettings`` that are read; the others are answered with a warning.
SETTINGS = frozenset({"reportAnalysisWinratesAs", "maxTime", "maxVisits"})
#: KataGo's ``scoring`` in a rules object, as the closest preset.
SCORING_PRESETS = {"AREA": "area2", "TERRITORY": "japanese"}


class QueryError(IkedaError, ValueError):
    """A query that cannot be analysed: the answer is ``{"id": ..., "error": message}``."""


@dataclass(eq=False)  # jobs are told apart by identity
class Job:
    """One turn of one query, waiting or being searched."""

    query_id: str
    turn: int
    game: Game
    visits: int
    max_time: float
    every: float
    ownership: bool
    policy: bool
    perspective: str  # "BLACK", "WHITE" or "SIDETOMOVE"
    terminated: bool = field(default=False)


def _rules(value: object) -> Rules:
    """KataGo's ``rules``: a name (``japanese``, ``chinese``, ``tromp-taylor``...; as SGF's
    ``RU`` is read) or an object whose ``scoring`` is ``AREA`` or ``TERRITORY``."""
    if isinstance(value, str):
        key = _core.sgf_rules_key(value)
        named = PRESETS["area2"] if key == "stone scoring" else rules_named(value, key)
        if named is None:
            raise QueryError(f"Unknown rules {value!r}")
        return named
    if isinstance(value, dict) and str(value.get("scoring", "")).upper() in SCORING_PRESETS:
        return PRESETS[SCORING_PRESETS[str(value["scoring"]).upper()]]
    raise QueryError(f"Unknown rules {value!r}: a name or an object with scoring AREA or TERRITORY")


def _int(query: dict[str, Any], key: str, default: int | None, low: int, high: int) -> int:
    value = query.get(key, default)
    if value is None:
        raise QueryError(f"Required field {key} is missing")
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise QueryError(f"Field {key} must be an integer from {low} to {high}, not {value!r}")
    return value


def _seconds(value: object, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise QueryError(f"Field {key} must be a number of seconds, not {value!r}")
    return float(value)


def _bool(query: dict[str, Any], key: str) -> bool:
    value = query.get(key, False)
    if not isinstance(value, bool):
        raise QueryError(f"Field {key} must be true or false, not {value!r}")
    return value


def _moves(value: object, key: str) -> list[tuple[Color, str]]:
    """``[["B", "D4"], ["W", "pass"], ...]``."""
    if not isinstance(value, list):
        raise QueryError(f"Field {key} must be a list of [player, move] pairs, not {value!r}")
    pairs: list[tuple[Color, str]] = []
    for k, pair in enumerate(value):
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
            raise QueryError(f"{key}[{k}] must be a [player, move] pair of strings, not {pair!r}")
        try:
            color: Color = "B" if parse_color(pair[0].lower()) == 1 else "W"
        except IkedaError:
            raise QueryError(f"{key}[{k}]: {pair[0]!r} is not a player (B or W)") from None
        pairs.append((color, pair[1]))
    return pairs


def _position(game: Game, color: Color) -> Game:
    """The position reached, `color` to move, as a new game: for a second move of one
    colour in a row, or a move after the game's end (its history is not carried over)."""
    board = game.to_numpy().reshape(-1)
    vertex = game.board.vertex
    setup = {c: [vertex(int(i)) for i in (board == code).nonzero()[0]] for c, code in (("B", 1), ("W", 2))}
    return Game(width=game.width, height=game.height, rules=game.rules, setup=setup, to_move=color)


def positions(query: dict[str, Any]) -> list[tuple[int, Game]]:
    """The games of a query's ``analyzeTurns`` (by default the last), each after its
    first ``turn`` moves. Raises QueryError naming what is wrong."""
    width = _int(query, "boardXSize", None, 1, 10**6)
    height = _int(query, "boardYSize", None, 1, 10**6)
    if "rules" not in query:
        raise QueryError("Required field rules is missing")
    rules = _rules(query["rules"])
    komi = query.get("komi", rules.komi)
    if isinstance(komi, bool) or not isinstance(komi, (int, float)):
        raise QueryError(f"Field komi must be a number, not {komi!r}")
    if "moves" not in query:
        raise QueryError("Required field moves is missing")
    moves = _moves(query["moves"], "moves")
    stones = _moves(query.get("initialStones", []), "initialStones")
    first = query.get("initialPlayer", moves[0][0] if moves else "B")
    try:
        color: Color = "B" if parse_color(str(first).lower()) == 1 else "W"
    except IkedaError:
        raise QueryError(f"Field initialPlayer must be B or W, not {first!r}") from None
    turns = query.get("analyzeTurns", [len(moves)])
    if not (isinstance(turns, list) and turns) or any(
        isinstance(t, bool) or not isinstance(t, int) or not 0 <= t <= len(moves) for t in turns
    ):
        raise QueryError(f"Field analyzeTurns must be a list of turns from 0 to {len(moves)}, not {turns!r}")
    try:
        setup = {c: [m for p, m in stones if p == c] for c in "BW"}
        game = Game(width=width, height=height, rules=rules, komi=float(komi), setup=setup, to_move=color)
    except IkedaError as e:
        raise QueryError(f"Bad position: {e}") from None
    wanted = set(turns)
    found: dict[int, Game] = {}
    for turn in range(len(moves) + 1):
        if turn in wanted:
            found[turn] = game if turn == len(moves) else game.copy()
        if turn == len(moves):
            break
        color, move = moves[turn]
        if game.is_over or color != game.to_move:
            game = _position(game, color)
        try:
            game.play(move)
        except IllegalMoveError:
            raise QueryError(f"Illegal move {turn}: {move}") from None
        except IkedaError as e:
            raise QueryError(f"Could not parse move {turn} ({move!r}): {e}") from None
    return [(t, _playable(found[t])) for t in turns]


def _playable(game: Game) -> Game:
    # After the game's end (two passes) KataGo analyses on; so do we, from the position.
    return _position(game, game.to_move) if game.is_over else game


def _flip(perspective: str, mover: str) -> bool:
    """Whether values of the side to move are reported as the other side's."""
    return (perspective == "BLACK" and mover == "W") or (perspective == "WHITE" and mover == "B")


def _r(x: float) -> float:
    return round(x, 6)


def answer(job: Job, a: analysis.Analysis | None, during: bool) -> dict[str, Any]:
    """KataGo's answer for `job` from what the search saw (None: no search ran)."""
    base: dict[str, Any] = {"id": job.query_id, "turnNumber": job.turn, "isDuringSearch": during}
    if a is None or not a.moves:
        return {**base, "noResults": True}
    game = job.game
    mover = game.to_move
    flip = _flip(job.perspective, mover)

    def win(w: float) -> float:
        return _r(1 - w if flip else w)

    def score(s: float) -> float:
        return _r(-s if flip else s)

    legal = game.legal_indices()
    prior = 1.0 / (len(legal) + 1)  # no policy: the legal plays and the pass weigh the same
    infos = []
    for order, m in enumerate(a.moves):
        wr, lead = win(m.winrate), score(m.score_mean)
        infos.append({
            "move": m.move, "visits": m.visits, "winrate": wr, "scoreLead": lead, "scoreMean": lead,
            "scoreSelfplay": lead, "scoreStdev": 0.0, "utility": _r(2 * wr - 1), "prior": _r(prior),
            "order": order, "pv": m.pv,
        })
    visits = sum(m.visits for m in a.moves)
    wr = sum(m.wins for m in a.moves) / visits
    lead = sum(m.margin_sum for m in a.moves) / visits
    out: dict[str, Any] = {**base, "moveInfos": infos, "rootInfo": {
        "visits": visits, "winrate": win(wr), "scoreLead": score(lead), "scoreSelfplay": score(lead),
        "scoreStdev": 0.0, "utility": _r(2 * win(wr) - 1), "currentPlayer": mover,
    }}
    if job.ownership:
        sign = -1.0 if flip else 1.0
        out["ownership"] = [_r(sign * o) for o in a.ownership]
    if job.policy:
        policy = [-1.0] * (game.width * game.height)
        for i in legal:
            policy[i] = _r(prior)
        out["policy"] = [*policy, _r(prior)]  # the pass last
    return out


class AnalysisEngine:
    """Reads queries (``handle``) and searches them (``work``), writing each answer as one
    JSON line to `out`. ``serve`` does both on two threads."""

    def __init__(self, out: TextIO, *, seed: int = 1, default_visits: int = DEFAULT_VISITS) -> None:
        self.out = out
        self.seed = seed
        self.default_visits = default_visits
        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)
        self._queue: list[tuple[int, int, Job]] = []
        self._jobs: dict[str, list[Job]] = {}  # waiting or being searched, by query id
        self._count = itertools.count()
        self._closed = False

    def write(self, obj: dict[str, Any]) -> None:
        line = json.dumps(obj, separators=(",", ":"))
        with self._lock:
            self.out.write(line + "\n")
            self.out.flush()

    # -- reading ---------------------------------------------------------------------

    def handle(self, line: str) -> None:
        """One line of input: answered at once (an action, an error) or queued."""
        if not line.strip():
            return
        try:
            query = json.loads(line)
        except (ValueError, RecursionError) as e:
            self.write({"error": f"Could not parse json: {e}"})
            return
        if not isinstance(query, dict):
            self.write({"error": f"Query must be a JSON object, not {line.strip()[:80]!r}"})
            return
        qid = query.get("id")
        if not isinstance(qid, str):
            self.write({"error": f"Field id must be a string, not {qid!r}"})
            return
        try:
            if "action" in query:
                self._action(qid, query)
            else:
                self._enqueue(qid, query)
        except QueryError as e:
            self.write({"id": qid, "error": str(e)})
        except Exception as e:  # a value no check foresaw: an answer, never a dead reader
            self.write({"id": qid, "error": f"Bad query: {type(e).__name__}: {e}"})

    def _action(self, qid: str, query: dict[str, Any]) -> None:
        action = query["action"]
        if action == "query_version":
            self.write({"id": qid, "action": action, "version": f"ikeda-{_core.__version__}", "git_hash": ""})
        elif action == "clear_cache":
            self.write({"id": qid, "action": action})  # no cache: each search starts afresh
        elif action in ("terminate", "terminate_all"):
            target = query.get("terminateId")
            if action == "terminate" and not isinstance(target, str):
                raise QueryError(f"Field terminateId must be a string, not {target!r}")
            turns = query.get("turnNumbers")
            if turns is not None and not (isinstance(turns, list) and all(isinstance(t, int) for t in turns)):
                raise QueryError(f"Field turnNumbers must be a list of integers, not {turns!r}")
            with self._lock:
                for key, jobs in self._jobs.items():
                    if action == "terminate_all" or key == target:
                        for job in jobs:
                            if turns is None or job.turn in turns:
                                job.terminated = True
            reply = {"id": qid, "action": action}
            if action == "terminate":
                reply["terminateId"] = target
            self.write(reply)
        else:
            raise QueryError(f"Unknown action {action!r}")

    def _enqueue(self, qid: str, query: dict[str, Any]) -> None:
        for key in sorted(set(query) - FIELDS):
            self.write({"id": qid, "warning": "Unexpected or unused field", "field": key})
        settings = query.get("overrideSettings", {})
        if not isinstance(settings, dict):
            raise QueryError(f"Field overrideSettings must be an object, not {settings!r}")
        for key in sorted(set(settings) - SETTINGS):
            self.write({"id": qid, "warning": "Unsupported setting, ignored", "field": f"overrideSettings.{key}"})
        perspective = settings.get("reportAnalysisWinratesAs", "BLACK")
        if perspective not in ("BLACK", "WHITE", "SIDETOMOVE"):
            raise QueryError(f"reportAnalysisWinratesAs must be BLACK, WHITE or SIDETOMOVE, not {perspective!r}")
        visits = _int(query, "maxVisits", settings.get("maxVisits", self.default_visits), 1, MAX_PLAYOUTS)
        max_time = _seconds(settings.get("maxTime", 0), "maxTime")
        every = _seconds(query.get("reportDuringSearchEvery", 0), "reportDuringSearchEvery")
        priority = _int(query, "priority", 0, -(2**31), 2**31 - 1)
        ownership, policy = _bool(query, "includeOwnership"), _bool(query, "includePolicy")
        jobs = [
            Job(qid, turn, game, visits, max_time, every, ownership, policy, perspective)
            for turn, game in positions(query)
        ]
        with self._ready:
            for job in jobs:
                self._jobs.setdefault(qid, []).append(job)
                heapq.heappush(self._queue, (-priority, next(self._count), job))
            self._ready.notify()

    def close(self) -> None:
        """No more input: ``work`` returns once the queue is empty."""
        with self._ready:
            self._closed = True
            self._ready.notify()

    # -- searching -------------------------------------------------------------------

    def _next(self, block: bool) -> Job | None:
        with self._ready:
            while not self._queue:
                if self._closed or not block:
                    return None
                self._ready.wait()
            return heapq.heappop(self._queue)[2]

    def work(self, block: bool = True) -> None:
        """Searches the queued jobs, highest priority first; with `block`, waits for more
        until ``close``."""
        while (job := self._next(block)) is not None:
            try:
                self.search(job)
            except Exception as e:  # an answer, never a dead engine
                self.write({"id": job.query_id, "turnNumber": job.turn, "error": f"Search failed: {e}"})
            finally:
                with self._lock:
                    jobs = self._jobs.get(job.query_id, [])
                    if job in jobs:
                        jobs.remove(job)
                    if not jobs:
                        self._jobs.pop(job.query_id, None)

    def search(self, job: Job) -> None:
        """One job's search in rounds (a report interval, or at most CHECK_SECONDS), each a
        fresh search whose root statistics are added to the rounds before (as
        ``kata-analyze`` does), until its visits, its time or a ``terminate``."""
        start = time.monotonic()
        seen: analysis.Analysis | None = None
        for k in itertools.count():
            done = seen.playouts if seen else 0
            elapsed = time.monotonic() - start
            if job.terminated or done >= job.visits or (job.max_time and elapsed >= job.max_time):
                break
            chunk = job.every or CHECK_SECONDS
            if job.max_time:
                chunk = min(chunk, max(job.max_time - elapsed, 0.001))
            seed = (self.seed * 1_000_003 + len(job.game.moves) * 101 + k) % (MAX_SEED + 1)
            a = analysis.analyze(job.game, playouts=job.visits - done, seconds=chunk, seed=seed)
            if a.playouts == 0:
                break
            seen = seen.merge(a) if seen else a
            if job.every and seen.playouts < job.visits and not job.terminated:
                self.write(answer(job, seen, during=True))
        self.write(answer(job, seen, during=False))

    def serve(self, stdin: TextIO) -> None:
        """Reads `stdin` on a thread and searches on this one, until end of input and an
        empty queue."""

        def read() -> None:
            try:
                for line in stdin:
                    self.handle(line)
            finally:
                self.close()

        reader = threading.Thread(target=read, name="ikeda-analysis-reader", daemon=True)
        reader.start()
        self.work()
        reader.join()
