"""The rules sample (``tests/data/rules-sample``, its README says where it came from): games
and legality probes from an independent reading of the rules. It is part of the repository,
so a missing sample is an error, never a skip."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SAMPLE = Path(__file__).resolve().parent / "data" / "rules-sample"


def load(name: str) -> list[dict[str, Any]]:
    """The records of `games.jsonl` or `probes.jsonl`."""
    path = SAMPLE / name
    if not path.is_file():
        raise FileNotFoundError(f"rules sample not found: {path}")
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]
