"""GNU Go's regression format (``.tst``), run against any GTP engine.

A file is GTP commands, one a line, optionally numbered (``12 final_score``); after a
numbered command a line ``#? [REGEX]`` gives the expected answer: the reply must match
REGEX in full (``!REGEX``: must not match). A ``*`` after the bracket marks an expected
failure (a known problem: its failing is not counted against the engine, its passing is
reported as an unexpected pass), ``&`` an ignored result. Other lines starting with
``#`` are comments. A relative path after ``loadsgf`` is read from the file's folder.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from ..errors import GtpError, IkedaError
from ..gtp.controller import GtpController

_EXPECT = re.compile(r"#\?\s*\[(.*)\]\s*([*&]?)\s*$")


@dataclass
class Case:
    """One numbered command and its verdict: ``pass``, ``fail``, ``expected fail``,
    ``unexpected pass`` or ``ignored``."""

    number: int
    command: str
    expected: str
    reply: str
    verdict: str
    line: int


@dataclass
class RegressReport:
    cases: list[Case] = field(default_factory=list)

    def count(self, verdict: str) -> int:
        return sum(c.verdict == verdict for c in self.cases)

    @property
    def exit_code(self) -> int:
        """1 if a case failed that was not expected to, else 0."""
        return 1 if self.count("fail") else 0


def run(path: str, engine: GtpController) -> RegressReport:
    """Runs the regression file `path` against `engine`."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise IkedaError(f"cannot read {path}: {e.strerror}") from None
    folder = os.path.dirname(os.path.abspath(path))
    report = RegressReport()
    last: tuple[int, str, str, int] | None = None  # number, command, reply, line
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            m = _EXPECT.match(line)
            if m and last is not None:
                number, command, reply, at = last
                report.cases.append(Case(number, command, m.group(1), reply, _verdict(m.group(1), m.group(2), reply), at))
                last = None
            continue
        words = line.split()
        label = int(words[0]) if words[0].isdigit() else None
        command = " ".join(words[1:] if label is not None else words)
        if not command:
            continue  # a number alone: nothing to send
        if command.split()[0] == "loadsgf" and len(command.split()) >= 2:
            parts = command.split()
            if not os.path.isabs(parts[1]):
                parts[1] = os.path.join(folder, parts[1])
            command = " ".join(parts)
        try:
            reply = "= " + engine.send(command)
        except GtpError as e:
            reply = "? " + e.reply
        if label is not None:
            last = (label, command, reply, n)
    return report


def _verdict(pattern: str, mark: str, reply: str) -> str:
    if mark == "&":
        return "ignored"
    ok = reply.startswith("=")
    if ok:
        answer = reply[1:].strip()
        negate = pattern.startswith("!")
        try:
            matched = re.fullmatch(pattern[1:] if negate else pattern, answer) is not None
        except re.error:
            matched = False
        ok = matched != negate
    if mark == "*":
        return "unexpected pass" if ok else "expected fail"
    return "pass" if ok else "fail"
