"""A scripted GTP engine for tests: plays random legal moves through ikeda's own engine
framework, and misbehaves on request at its Nth genmove.

    python tests/gtp_mock.py [--fault KIND] [--at N] [--seed S] [--name NAME]

KIND: garbage (non-GTP output), hang (never answers), crash (exits), flood (megabytes of
output), illegal (an occupied point, or an unreadable vertex on an empty board),
refuse (``? no``), slow (answers after 3 s), exit-on-start (dies at once), fork (starts a
child that keeps its output open, then exits), escape (starts a child in a session of its
own, then hangs), deaf-flood (never reads its input and writes empty replies for ever,
from the start).

``--pidfile PATH`` appends the engine's pid (and a forked child's) to PATH.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time

from ikeda import Game
from ikeda.gtp import Engine


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fault", default="none")
    ap.add_argument("--at", type=int, default=1, help="misbehave from this genmove on")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--name", default="mock")
    ap.add_argument("--pidfile", default=None)
    args = ap.parse_args()
    if args.pidfile:
        with open(args.pidfile, "a") as f:
            f.write(f"{os.getpid()}\n")
    if args.fault == "exit-on-start":
        sys.exit(5)
    if args.fault == "deaf-flood":
        while True:
            sys.stdout.write("= \n\n" * 1000)
    rng = random.Random(args.seed)

    def policy(game: Game) -> str:
        plays = game.legal_moves()[:-1]
        return rng.choice(plays) if plays and len(game.moves) < 60 else "pass"

    engine = Engine(policy, name=args.name, version="0")
    genmoves = 0
    out = sys.stdout
    for line in sys.stdin:
        words = line.split()
        if words and words[0] in ("genmove", "kgs-genmove_cleanup"):
            genmoves += 1
            if genmoves >= args.at and args.fault != "none":
                misbehave(args.fault, engine, args.pidfile)
                continue
        reply = engine.handle(line)
        if reply:
            out.write(reply)
            out.flush()
        if words and words[0] == "quit":
            return


def misbehave(fault: str, engine: Engine, pidfile: str | None) -> None:
    write = sys.stdout.write
    if fault == "fork":
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"], stdout=sys.stdout)
        if pidfile:
            with open(pidfile, "a") as f:
                f.write(f"{child.pid}\n")
        os._exit(4)
    if fault == "escape":
        # A child that leaves the engine's session and process group (setsid), as a
        # daemonising engine would; it outlives the engine unless found another way.
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"],
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, start_new_session=True)
        if pidfile:
            with open(pidfile, "a") as f:
                f.write(f"{child.pid}\n")
        time.sleep(3600)
    if fault == "garbage":
        write("I am not a GTP engine\n\n")
    elif fault == "hang":
        time.sleep(3600)
    elif fault == "crash":
        sys.exit(3)
    elif fault == "flood":
        chunk = "= " + "A1 " * 50_000 + "\n"
        for _ in range(200):  # about 30 MB, no empty line
            write(chunk)
    elif fault == "illegal":
        stones = [v for v in engine.game.moves if v != "pass"]
        write(f"= {stones[0] if stones else 'Z99'}\n\n")
    elif fault == "refuse":
        write("? no\n\n")
    elif fault == "slow":
        time.sleep(3)
        write("= pass\n\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
