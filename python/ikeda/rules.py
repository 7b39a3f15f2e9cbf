"""Rulesets as values: Ikeda's Area III (the default), Area II and Territory I, and
Tromp-Taylor for comparison.

A :class:`Rules` is a frozen value of components; ``str()`` gives its preset name followed
by the components that differ from that preset, and :meth:`Rules.from_string` reads it
back::

    >>> str(AREA_III.replace(komi=7.5))
    'area3:komi=7.5'
    >>> Rules.from_string("tromp-taylor:komi=7").komi
    7.0
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
from dataclasses import dataclass
from typing import Any

from .errors import RulesError

#: The ko rule of a game (``Rules.ko``): which repetitions a play may not create: Ikeda's
#: Rule 4 (only plays that remove stones are tested, against every earlier
#: configuration); every play tested; or only the immediate retaking of a single-stone
#: ko. (Status confirmation's hypothetical play has its own, ``ikeda.status.STATUS_KO_RULES``.)
KO_RULES = ("capturing-superko", "positional-superko", "simple-ko")
#: How a game ends: Area III's Rule 6 (the first pass is special); two passes in
#: succession; Territory I's preliminary end followed by equal numbers of moves.
ENDINGS = ("first-pass", "two-passes", "equal-moves")
#: Area (stones + territory), territory (territory - stones lost) counting, or Japanese
#: (territory + prisoners, the dead stones decided by status confirmation, STATUS.md).
SCORINGS = ("area", "territory", "japanese")
#: The largest komi either way, the same for the rules, the SGF reader and writer and the
#: native counters (ikeda-core's ``MAX_KOMI``).
MAX_KOMI = 1000


@dataclass(frozen=True)
class Rules:
    """A ruleset: a preset name and the components that make it.

    ``half_point``: 1/2 point moves from Black to White when White made the first pass of
    the game (Area III's Rule 7). ``pass_stones``: after the preliminary end each pass
    hands a prisoner to the opponent (Territory I).
    """

    name: str
    ko: str
    suicide: bool
    ending: str
    scoring: str
    half_point: bool
    pass_stones: bool
    komi: float

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or self.name not in PRESET_NAMES:
            raise RulesError(f"unknown ruleset {self.name!r}; presets: {', '.join(PRESET_NAMES)}")
        for field, allowed in (("ko", KO_RULES), ("ending", ENDINGS), ("scoring", SCORINGS)):
            if not isinstance(getattr(self, field), str) or getattr(self, field) not in allowed:
                raise RulesError(f"{field} must be one of {', '.join(allowed)}, not {getattr(self, field)!r}")
        for flag in ("suicide", "half_point", "pass_stones"):
            if not isinstance(getattr(self, flag), bool):
                raise RulesError(f"{flag} must be True or False, not {getattr(self, flag)!r}")
        komi = self.komi
        if isinstance(komi, bool) or not isinstance(komi, (int, float)) or not math.isfinite(komi):
            raise RulesError(f"komi must be a multiple of 1/2, not {komi!r}")
        if not -MAX_KOMI <= komi <= MAX_KOMI:
            raise RulesError(f"komi must be within -{MAX_KOMI}..={MAX_KOMI}, not {komi!r}")
        if komi * 2 != int(komi * 2):
            raise RulesError(f"komi must be a multiple of 1/2, not {komi!r}")
        object.__setattr__(self, "komi", float(komi) + 0.0)  # + 0.0 turns -0.0 into 0.0

    @classmethod
    def preset(cls, name: str) -> Rules:
        """One of ``"area3"``, ``"area2"``, ``"territory1"``, ``"tromp-taylor"``, ``"japanese"``."""
        try:
            return PRESETS[name]
        except KeyError:
            raise RulesError(f"unknown ruleset {name!r}; presets: {', '.join(PRESET_NAMES)}") from None

    @classmethod
    def from_string(cls, text: str) -> Rules:
        """Reads ``name`` or ``name:key=value,...`` (keys: ko, suicide, ending, scoring,
        half-point, pass-stones, komi; yes/no for the flags)."""
        if not isinstance(text, str):
            raise RulesError(f"rules must be a string, not {text!r}")
        name, colon, rest = text.strip().partition(":")
        rules = cls.preset(name.strip())
        changes: dict[str, Any] = {}
        for item in (p.strip() for p in rest.split(",")) if colon else ():
            key, eq, value = item.partition("=")
            field = key.strip().replace("-", "_")
            if not eq or field not in _FIELDS:
                raise RulesError(f"cannot read {item!r} in rules {text!r}")
            changes[field] = _read(field, value.strip(), text)
        return rules.replace(**changes)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some components changed (the preset name stays)."""
        unknown = sorted(set(changes) - {"name", *_FIELDS})
        if unknown:
            raise RulesError(f"no rules component named {', '.join(unknown)}; components: {', '.join(_FIELDS)}")
        return dataclasses.replace(self, **changes)

    def __str__(self) -> str:
        base = PRESETS[self.name]
        diffs = [
            f"{f.replace('_', '-')}={_show(getattr(self, f))}"
            for f in _FIELDS
            if getattr(self, f) != getattr(base, f)
        ]
        return self.name + (":" + ",".join(diffs) if diffs else "")

    @property
    def digest(self) -> str:
        """A stable 16-hex-digit digest of the value (the same in every process)."""
        return hashlib.sha256(str(self).encode()).hexdigest()[:16]


_FIELDS = ("ko", "suicide", "ending", "scoring", "half_point", "pass_stones", "komi")


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _read(field: str, value: str, text: str) -> object:
    if field in ("suicide", "half_point", "pass_stones"):
        flags = {"yes": True, "no": False, "true": True, "false": False}
        if value.lower() not in flags:
            raise RulesError(f"{field} must be yes or no in rules {text!r}, not {value!r}")
        return flags[value.lower()]
    if field == "komi":
        try:
            return float(value)
        except ValueError:
            raise RulesError(f"komi {value!r} in rules {text!r} is not a number") from None
    return value


PRESET_NAMES = ("area3", "area2", "territory1", "tromp-taylor", "japanese")

AREA_III = Rules("area3", "capturing-superko", False, "first-pass", "area", True, False, 6.5)
AREA_II = Rules("area2", "capturing-superko", False, "two-passes", "area", False, False, 6.5)
TERRITORY_I = Rules("territory1", "capturing-superko", False, "equal-moves", "territory", False, True, 6.5)
TROMP_TAYLOR = Rules("tromp-taylor", "positional-superko", True, "two-passes", "area", False, False, 6.5)
#: Japanese-style play and counting: the basic ko rule, two passes in succession end the
#: game, and status confirmation after Sekiguchi decides the dead stones (no agreement).
JAPANESE = Rules("japanese", "simple-ko", False, "two-passes", "japanese", False, False, 6.5)
PRESETS = {r.name: r for r in (AREA_III, AREA_II, TERRITORY_I, TROMP_TAYLOR, JAPANESE)}


def as_rules(rules: Rules | str) -> Rules:
    """A Rules value from a value, a preset name or a rules string."""
    if isinstance(rules, Rules):
        return rules
    preset = PRESETS.get(rules) if isinstance(rules, str) else None  # the common case, without parsing
    return preset if preset is not None else Rules.from_string(rules)
