"""Every record of the status sample (``tests/data/status-sample``, its README says where it
came from): small whole boards confirmed by an independent, exhaustive reading of
STATUS.md. Its README describes the fields; a missing sample is an error, never a skip."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import ikeda

SAMPLE = Path(__file__).resolve().parent / "data" / "status-sample" / "positions.jsonl"


def _load() -> list[dict[str, Any]]:
    if not SAMPLE.is_file():
        raise FileNotFoundError(f"status sample not found: {SAMPLE}")
    with SAMPLE.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


RECORDS = _load()


def _options(rec: dict[str, Any]) -> dict[str, Any]:
    opts = rec.get("options", {})
    return {
        "ko_rule": opts.get("ko_rule", "simple"),
        "first": opts.get("first", "attacker"),
        "strict_dame_seki": opts.get("strict_dame_seki", False),
    }


def test_sample_is_present() -> None:
    assert len(RECORDS) >= 10
    assert len({r["id"] for r in RECORDS}) == len(RECORDS)


@pytest.mark.parametrize("rec", RECORDS, ids=[r["id"] for r in RECORDS])
def test_status_record(rec: dict[str, Any]) -> None:
    expected = rec["expected"]
    result = ikeda.confirm_status(rec["rows"], **_options(rec))
    assert result.status == expected["status"]
    assert result.classes == expected["class"]
    assert [c.to_dict() for c in result.chains] == expected["chains"]


@pytest.mark.parametrize("rec", RECORDS, ids=[r["id"] for r in RECORDS])
def test_score_record(rec: dict[str, Any]) -> None:
    expected = rec["expected"]["score"]
    score = ikeda.japanese_score(rec["rows"], komi=rec.get("komi", 0), prisoners=rec.get("prisoners"), **_options(rec))
    assert score.to_dict() == expected
    assert score.margin == expected["D"]


@pytest.mark.parametrize("rec", RECORDS, ids=[r["id"] for r in RECORDS])
def test_record_whole_board(rec: dict[str, Any]) -> None:
    """Section 7: the region split gives the whole-board search's answer."""
    whole = ikeda.confirm_status(rec["rows"], split=False, **_options(rec))
    assert whole.status == rec["expected"]["status"]
    assert [c.to_dict() for c in whole.chains] == rec["expected"]["chains"]
