"""Status confirmation after Sekiguchi: alive, dead and seki stones decided by hypothetical
play (STATUS.md), and the Japanese-style count that follows from it.

The search runs in the native core with the GIL released; this module reads the position
and the options and shapes the answer. A position is its rows, top row first, ``X``
Black, ``O`` White, ``.`` empty, or anything with the stones as ``to_numpy()`` (an
:class:`ikeda.Game`; this module does not import the game, the game asks it)::

    >>> r = confirm_status(["X.XO.O", ".XXOO.", "XXXOOO", "X.XO.O"])
    >>> r.status
    ['a.aa.a', '.aaaa.', 'aaaaaa', 'a.aa.a']
    >>> japanese_score(["X...X", "XXXXX", "OOOOO", "O.O.O"]).margin
    -19
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, Union, runtime_checkable

import numpy as np
import numpy.typing as npt

from . import _core
from .coords import Color, color_name, vertex_names
from .errors import ArgumentError, InvalidPositionError
from .rules import MAX_KOMI


@runtime_checkable
class Stones(Protocol):
    """A position object: its stones as int8 ``(h, w)``, 0 empty, 1 Black, 2 White."""

    def to_numpy(self) -> npt.NDArray[np.int8]: ...


@runtime_checkable
class PlayedStones(Stones, Protocol):
    """A position of a game, whose komi and prisoners are :func:`japanese_score`'s
    defaults (an :class:`ikeda.Game`)."""

    @property
    def komi(self) -> float: ...

    @property
    def prisoners(self) -> dict[str, int]: ...


Position = Union[Stones, Sequence[str]]

#: The options of the hypothetical play (STATUS.md Decisions 6, 8 and 8b): the ko rule of
#: status confirmation's hypothetical play (``ko_rule``), not the ko rule of a game
#: (:data:`ikeda.rules.KO_RULES`, ``Rules.ko``).
STATUS_KO_RULES = ("simple", "koban")
#: The former name of :data:`STATUS_KO_RULES`, kept for code that imports it.
KO_RULES = STATUS_KO_RULES
FIRST = ("attacker", "defender")
#: States the whole confirmation may visit, all regions together (Section 7).
BUDGET: int = _core.STATUS_BUDGET
#: Bytes the search may hold at once; regions are searched one after another, so this
#: bounds the whole confirmation (docs/status.md, "Limits").
MEMORY: int = _core.STATUS_MEMORY
#: What to do with a region beyond the limits: refuse, or estimate its chains (the default).
UNRESOLVED = ("raise", "estimate")
#: Playouts of the Monte-Carlo estimate of unresolved regions.
PLAYOUTS: int = 1000
#: The most playouts an estimate takes (100 times the default): bounds how long a
#: confirmation runs on after Ctrl-C has returned control (docs/security.md).
MAX_PLAYOUTS: int = 100_000
#: Work of one proof of a pocket of 13 to 20 points (docs/status.md 2c); a colour's
#: pockets share 2.5 times as much. More proves more, for more time (docs/status.md,
#: "Limits").
PROOF_WORK: int = _core.STATUS_PROOF_WORK
#: The most ``proof_work`` taken: ten times the default (the proof's table under 280 MB).
MAX_PROOF_WORK: int = _core.STATUS_MAX_PROOF_WORK

_STATUS_MARK = {"alive": "a", "seki": "s", "dead": "d"}


@dataclass(frozen=True)
class ChainStatus:
    """One chain: ``colour`` ("B"/"W"), ``stones`` (GTP vertices, top row first), the class
    ``class_`` ("F", "S", "N"), the ``case`` that holds first ("F1" "F2" "F3" "S1" "S2" or
    "N", or "estimated"), the final ``status`` ("alive", "seki", "dead") and the ``proof``:
    "static" (first-class at the start, or a vital wall), "searched" (the exhaustive search
    of its region), "estimated" (its region was beyond the search and
    ``unresolved="estimate"`` decided it by Monte-Carlo ownership: not proven) or
    "conditional" (searched exactly in a part of such a region walled off by chains the
    estimate calls alive: not proven either, docs/status.md).
    ``chain["class"]`` reads the fields by their names in the status sample."""

    colour: Color
    stones: list[str]
    class_: Literal["F", "S", "N"]
    case: str
    status: Literal["alive", "seki", "dead"]
    proof: Literal["static", "searched", "estimated", "conditional"] = "searched"

    @property
    def proven(self) -> bool:
        return self.proof in ("static", "searched")

    def __getitem__(self, key: str) -> Any:
        return self.to_dict()[key]

    def to_dict(self) -> dict[str, Any]:
        """The fields in the status sample's layout (without ``proof``)."""
        return {"colour": self.colour, "stones": list(self.stones), "class": self.class_, "case": self.case, "status": self.status}


@dataclass(frozen=True)
class UnresolvedRegion:
    """A region the search could not settle within the limits: its ``points`` (GTP
    vertices), its ``size`` and ``why``."""

    points: list[str]
    why: str

    @property
    def size(self) -> int:
        return len(self.points)


@dataclass(frozen=True)
class StatusResult:
    """The confirmation of a position.

    ``status``: rows of ``a`` alive, ``s`` seki stones, ``d`` dead, ``.`` empty; ``classes``:
    rows of ``F``, ``S``, ``N``; ``chains``: every chain, Black's then White's, each by its
    first stone. ``territory`` (rows of ``b``/``w``/``.``) and the counts are Section 6's on
    the board with the dead stones removed; ``regions`` are the searched regions with
    their numbers of states, and ``unresolved`` the regions the search could not settle
    (their chains are estimated; always empty with ``unresolved="raise"``).
    """

    status: list[str]
    classes: list[str]
    chains: list[ChainStatus]
    territory: list[str]
    territory_count: dict[str, int]
    dead_count: dict[str, int]
    regions: list[tuple[list[str], int]]
    options: dict[str, Any]
    unresolved: list[UnresolvedRegion] = field(default_factory=list)

    @property
    def dead_stones(self) -> list[str]:
        """The dead stones as GTP vertices."""
        return [v for c in self.chains if c.status == "dead" for v in c.stones]

    @property
    def proven(self) -> bool:
        """Whether every chain's status is proven (none estimated)."""
        return all(c.proven for c in self.chains)

    @property
    def estimated_stones(self) -> list[str]:
        """The stones whose status was estimated, not proven, as GTP vertices."""
        return [v for c in self.chains if not c.proven for v in c.stones]

    def __str__(self) -> str:
        return "\n".join(self.status)


@dataclass(frozen=True)
class JapaneseScore:
    """A Japanese-style count (STATUS.md Section 6): territory + prisoners, komi to White.

    ``prisoners`` include the dead stones (``dead`` counts them by their colour: ``dead["B"]``
    Black stones went to White's prisoners). ``margin`` = ``black - white``.
    """

    black: float
    white: float
    komi: float
    territory: dict[str, int]
    prisoners: dict[str, int]
    dead: dict[str, int]
    dead_stones: list[str]
    status: StatusResult

    @property
    def margin(self) -> float:
        return self.black - self.white

    @property
    def proven(self) -> bool:
        """Whether the count rests on proven statuses only (nothing estimated)."""
        return self.status.proven

    @property
    def estimated_stones(self) -> list[str]:
        """The stones whose status was estimated, not proven, as GTP vertices."""
        return self.status.estimated_stones

    def to_dict(self) -> dict[str, Any]:
        """The count in the status sample's ``expected.score`` layout."""
        return {
            "B": self.black, "W": self.white, "D": self.margin,
            "territory": dict(self.territory), "prisoners": dict(self.prisoners), "dead": dict(self.dead),
        }


def _cells(position: Position) -> tuple[int, int, list[int]]:
    """Width, height and cells (0 empty, 1 Black, 2 White; top row first)."""
    if isinstance(position, Stones):
        stones = position.to_numpy()
        height, width = stones.shape
        return int(width), int(height), [int(v) for v in stones.ravel()]
    if isinstance(position, (str, bytes)) or not isinstance(position, Sequence):
        raise InvalidPositionError(f"a position is a Game or a list of row strings, not {position!r}")
    rows = list(position)
    if not rows or not all(isinstance(r, str) for r in rows):
        raise InvalidPositionError(f"a position needs at least one row, each a string: {rows!r}")
    width = len(rows[0])
    if any(len(r) != width for r in rows):
        raise InvalidPositionError(f"the rows of a position must have equal lengths: {rows!r}")
    if not (1 <= width <= 25 and 1 <= len(rows) <= 25):
        raise InvalidPositionError(f"board size {width}x{len(rows)} is not within 1..=25 each way")
    codes = {".": 0, "X": 1, "O": 2}
    bad = sorted({ch for r in rows for ch in r} - set(codes))
    if bad:
        raise InvalidPositionError(f"a row may hold only 'X', 'O' and '.', not {bad}: {rows!r}")
    return width, len(rows), [codes[ch] for r in rows for ch in r]


def _choice(name: str, value: object, allowed: tuple[str, ...]) -> str:
    # `in` on a tuple compares with ==, which an array answers elementwise: only a str
    # can be one of the names.
    if not isinstance(value, str) or value not in allowed:
        raise ArgumentError(f"{name} must be one of {', '.join(map(repr, allowed))}, not {value!r}")
    return str(value)


def confirm_status(
    position: Position,
    *,
    ko_rule: str = "simple",
    first: str = "attacker",
    strict_dame_seki: bool = False,
    prune: bool = True,
    split: bool = True,
    budget: int = BUDGET,
    memory: int = MEMORY,
    unresolved: str = "estimate",
    playouts: int = PLAYOUTS,
    seed: int = 0,
    proof_work: int = PROOF_WORK,
) -> StatusResult:
    """Confirms the status of every chain of `position` by Sekiguchi's hypothetical play.

    ``ko_rule``: "simple" (Decision 8) or "koban" (Decision 8b); ``first``: "attacker"
    (Decision 6) or "defender" (for comparison); ``strict_dame_seki``: Art. 8's dame seki
    (Section 6). ``prune`` (Decision 7) and ``split`` (Section 7's frozen chains and
    regions) are exact and on by default; turning them off makes the search whole-board and
    exhaustive, for tests on tiny boards. ``budget``: states of the whole confirmation
    (all regions together); ``memory``: bytes the search may hold at once;
    ``proof_work``: work of one proof of a pocket of 13 to 20 points (up to
    :data:`MAX_PROOF_WORK`, ten times the default :data:`PROOF_WORK`): more proves more
    chains, for more time.

    ``unresolved``: what to do with a region beyond the limits. "estimate" (the default,
    as :meth:`ikeda.Game.score` under the ``japanese`` preset) decides the chains of such
    regions only, by Monte-Carlo ownership over ``playouts`` native random playouts seeded
    with ``seed`` (reproducible), marks each with its proof kind (``proof="estimated"`` or
    ``"conditional"``, ``proven`` false), lists the regions in ``.unresolved`` and the
    stones in ``.estimated_stones``; proven chains are never estimated, and ``.proven``
    says whether every chain is. "raise" answers with proofs only: it raises
    :class:`StatusBudgetError` naming the region, at the first one.

    Raises :class:`InvalidPositionError` for a position that cannot exist.
    """
    width, height, cells = _cells(position)
    names = vertex_names(width, height)
    ko = _choice("ko_rule", ko_rule, STATUS_KO_RULES)
    mover = _choice("first", first, FIRST)
    for name, flag in (("strict_dame_seki", strict_dame_seki), ("prune", prune), ("split", split)):
        if not isinstance(flag, bool):
            raise ArgumentError(f"{name} must be True or False, not {flag!r}")
    for name, value, top in (("budget", budget, 2**63), ("memory", memory, 2**63), ("playouts", playouts, MAX_PLAYOUTS + 1), ("seed", seed, 2**64), ("proof_work", proof_work, MAX_PROOF_WORK + 1)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value < top and not (name == "seed" and value == 0):
            raise ArgumentError(f"{name} must be an int in 1..{top - 1}, not {value!r}")
    how = _choice("unresolved", unresolved, UNRESOLVED)
    chains, territory, dead, owner, regions = _core.confirm_status(
        width, height, cells, ko=ko, first=mover, strict_dame_seki=strict_dame_seki, prune=prune, split=split,
        budget=budget, memory=memory, playouts=playouts if how == "estimate" else 0, seed=seed,
        proof_work=proof_work,
    )
    status = ["."] * (width * height)
    classes = ["."] * (width * height)
    out = []
    for colour, stones, case, cls, st, proof in chains:
        for p in stones:
            status[p] = _STATUS_MARK[st]
            classes[p] = cls
        out.append(ChainStatus(
            color_name(colour), [names[p] for p in stones], cls, case, st, proof,  # type: ignore[arg-type]
        ))
    marks = [".bw"[o] for o in owner]

    def rows(cells: list[str]) -> list[str]:
        return ["".join(cells[r * width:(r + 1) * width]) for r in range(height)]

    return StatusResult(
        rows(status), rows(classes), out, rows(marks),
        {"B": territory[0], "W": territory[1]}, {"B": dead[0], "W": dead[1]},
        [([names[p] for p in pts], n) for pts, n, why in regions if why is None],
        {"ko_rule": ko, "first": mover, "strict_dame_seki": strict_dame_seki, "unresolved": how},
        [UnresolvedRegion([names[p] for p in pts], why) for pts, _, why in regions if why is not None],
    )


def japanese_score(
    position: Position,
    *,
    komi: float | None = None,
    prisoners: Mapping[str, int] | None = None,
    ko_rule: str = "simple",
    first: str = "attacker",
    strict_dame_seki: bool = False,
    prune: bool = True,
    split: bool = True,
    budget: int = BUDGET,
    memory: int = MEMORY,
    unresolved: str = "estimate",
    playouts: int = PLAYOUTS,
    seed: int = 0,
    proof_work: int = PROOF_WORK,
) -> JapaneseScore:
    """Counts `position` Japanese-style after confirming its status (STATUS.md Section 6).

    ``komi`` goes to White (default: the game's komi for a Game, 0 for rows);
    ``prisoners`` are the stones taken during the game, ``{"B": taken by Black, "W": taken
    by White}`` (default: the game's captures for a Game, none for rows). Dead stones are
    removed and added to the capturer's prisoners; the other options are
    :func:`confirm_status`'s. By default (``unresolved="estimate"``) the count always comes
    out, the same count as :meth:`ikeda.Game.score` under the ``japanese`` preset;
    ``.proven`` says whether it rests on proven statuses only, ``.estimated_stones`` lists
    the stones that were estimated and ``.status.chains`` each chain's proof kind.
    ``unresolved="raise"`` counts only what is proven, else raises
    :class:`StatusBudgetError`.
    """
    status = confirm_status(
        position, ko_rule=ko_rule, first=first, strict_dame_seki=strict_dame_seki, prune=prune, split=split,
        budget=budget, memory=memory, unresolved=unresolved, playouts=playouts, seed=seed,
        proof_work=proof_work,
    )
    if komi is None:
        komi = position.komi if isinstance(position, PlayedStones) else 0
    if prisoners is None:
        prisoners = position.prisoners if isinstance(position, PlayedStones) else {}
    return japanese_count(status, komi=komi, prisoners=prisoners)


def japanese_count(status: StatusResult, *, komi: float, prisoners: Mapping[str, int]) -> JapaneseScore:
    """The Japanese-style count of a confirmed position: its territory, plus for each side
    the `prisoners` it took (``{"B": taken by Black, "W": taken by White}``) and the dead
    stones of the other, komi to White."""
    if isinstance(komi, bool) or not isinstance(komi, (int, float)) or komi != komi or abs(komi) == float("inf"):
        raise ArgumentError(f"komi must be a number, not {komi!r}")
    # Bounded like every other komi (ikeda.rules.MAX_KOMI, halves).
    if not -MAX_KOMI <= komi <= MAX_KOMI or komi * 2 != int(komi * 2):
        raise ArgumentError(f"komi must be a multiple of 1/2 within -{MAX_KOMI}..={MAX_KOMI}, not {komi!r}")
    if not isinstance(prisoners, Mapping) or set(prisoners) - {"B", "W"} or not all(
        isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in prisoners.values()
    ):
        raise ArgumentError(f"prisoners must be {{'B': int, 'W': int}} (non-negative), not {prisoners!r}")
    taken = {"B": int(prisoners.get("B", 0)), "W": int(prisoners.get("W", 0))}
    dead = status.dead_count
    total = {"B": taken["B"] + dead["W"], "W": taken["W"] + dead["B"]}
    terr = status.territory_count
    return JapaneseScore(
        terr["B"] + total["B"], terr["W"] + total["W"] + komi, komi, dict(terr), total, dict(dead),
        status.dead_stones, status,
    )

