"""GNU Go's reading of finished game records, for the real-game status comparison.

For each SGF record: `loadsgf`, `final_status_list dead` and `final_score`, each timed,
written as one JSON line. Run once per corpus; `real_games.py` compares ikeda with it.

    python benches/real_games/gnugo_reference.py DIR_OF_SGF OUT.jsonl [--limit N]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
from pathlib import Path
from typing import Any

GNUGO = "/usr/games/gnugo"


class Gtp:
    def __init__(self) -> None:
        self.proc = subprocess.Popen([GNUGO, "--mode", "gtp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, line: str) -> str:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        out = []
        while True:
            row = self.proc.stdout.readline()
            if row == "":
                raise RuntimeError("GNU Go exited")
            if row == "\n" and out:
                break
            out.append(row.rstrip("\n"))
        reply = "\n".join(out)
        if reply.startswith("?"):
            raise RuntimeError(f"{line}: {reply}")
        return reply[1:].strip()

    def cpu(self) -> float:
        """GNU Go's own CPU seconds so far (user + system), so that the figures do not
        depend on the load of a shared machine."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self) -> None:
        self.ask("quit")
        self.proc.wait()


def read(gtp: Gtp, path: Path) -> dict[str, Any]:
    """GNU Go's dead stones and count of one record, with its CPU seconds for each."""
    try:
        gtp.ask(f"loadsgf {path}")
        t0 = gtp.cpu()
        dead = gtp.ask("final_status_list dead").split()
        t1 = gtp.cpu()
        score = gtp.ask("final_score")
        t2 = gtp.cpu()
    except RuntimeError as e:
        return {"file": path.name, "error": str(e)}
    return {"file": path.name, "dead": dead, "score": score, "dead_s": t1 - t0, "score_s": t2 - t1}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--limit", type=int, default=0)
    args = ap.parse_args()
    files = sorted(args.corpus.glob("*.sgf"))
    if args.limit:
        files = files[: args.limit]
    done = set()
    if args.out.exists():
        done = {json.loads(line)["file"] for line in args.out.read_text().splitlines() if line.strip()}
    gtp = Gtp()
    with args.out.open("a") as out:
        for f in files:
            if f.name in done:
                continue
            row = read(gtp, f)
            out.write(json.dumps(row) + "\n")
            out.flush()
            if "error" in row:
                gtp.close()
                gtp = Gtp()
    gtp.close()


if __name__ == "__main__":
    main()
