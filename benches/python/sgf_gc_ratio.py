"""Whether pausing the cyclic garbage collector while records are built still pays:
``ikeda.sgf.read`` (paused) beside the same read with the collector left on, same process.

    python benches/python/sgf_gc_ratio.py [ROUNDS]

Records: the real ones of tests/data/real (20 times over) and 300 19x19 records of the
mixed corpus (``sgf_corpus.mixed_sgf``), read with 200 records already held (a program
that keeps what it reads, so the heap the collector walks grows). Each round times both
ways on the process's CPU time, in alternating order; one JSON line per set gives both
totals and the ratio (collector on / paused). The records read both ways are checked to
be equal first.
"""

from __future__ import annotations

import json
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from sgf_corpus import mixed_sgf  # noqa: E402

from ikeda import sgf  # noqa: E402


def paused(data: bytes) -> list[sgf.Record]:
    return sgf._read(data, None, False)


def collector_on(data: bytes) -> list[sgf.Record]:
    return sgf._records(data, None, data, None, False, True)


def main(rounds: int) -> None:
    warnings.simplefilter("ignore", sgf.SgfWarning)
    real = [p.read_bytes() for p in sorted((ROOT / "tests" / "data" / "real").glob("*.sgf"))]
    mixed = [mixed_sgf(k) for k in range(300)]
    held = [sgf.read(d) for d in mixed[:200]]  # noqa: F841 (kept alive on purpose)
    ways: dict[str, Callable[[bytes], list[sgf.Record]]] = {"paused": paused, "collector_on": collector_on}
    for name, data in (("real x20", real * 20), ("mixed 19x19", mixed)):
        assert [r.moves for d in data[:50] for r in paused(d)] == [r.moves for d in data[:50] for r in collector_on(d)]
        total = dict.fromkeys(ways, 0.0)
        for k in range(rounds):
            for way in sorted(ways, reverse=bool(k % 2)):
                start = time.process_time()
                for d in data:
                    ways[way](d)
                total[way] += time.process_time() - start
        print(json.dumps({"records": name, "files": len(data), "rounds": rounds, **{w: round(t, 3) for w, t in total.items()},
                          "ratio": round(total["collector_on"] / total["paused"], 2)}))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
