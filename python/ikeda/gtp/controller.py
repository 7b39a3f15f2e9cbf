"""Driving an external GTP engine: a subprocess, a time limit on every command, a bounded
reply size, a transcript, and a clean shutdown.

Every failure is a typed :class:`ikeda.errors.EngineError`: :class:`GtpError` when the
engine answers ``? message`` (it stays usable), :class:`EngineTimeout`,
:class:`EngineCrashed` and :class:`EngineProtocolError` (garbage or an oversized reply)
otherwise. After any of the last three the engine is stopped, because its output can no
longer be matched to commands; :meth:`GtpController.restart` starts a fresh one.
"""

from __future__ import annotations

import os
import queue
import secrets
import select
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from types import TracebackType
from typing import IO, NoReturn, TextIO

from ..errors import EngineCrashed, EngineError, EngineProtocolError, EngineTimeout, GtpError, IkedaError

#: Longest reply accepted, in bytes (a 25x25 showboard is about 2 KB).
MAX_REPLY = 1 << 20
#: Engine output held between commands, in 64 KB chunks: an engine that writes more while
#: no command is pending blocks on its pipe instead of growing the referee.
MAX_QUEUED_CHUNKS = 16
#: The longest time limit per command, in seconds (one day).
MAX_TIMEOUT = 86_400.0
#: How often a wait for a reply checks that the engine process still runs, in seconds.
POLL = 0.05
#: The environment variable that marks an engine's processes: each start gets a fresh
#: value, which every descendant inherits, also one that left the engine's session.
TOKEN_VARIABLE = "IKEDA_ENGINE_TOKEN"


def check_timeout(timeout: object) -> float:
    """A time limit in seconds: a finite number in (0, MAX_TIMEOUT], or IkedaError."""
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout <= MAX_TIMEOUT:
        raise IkedaError(f"timeout must be a number of seconds in (0, {MAX_TIMEOUT:g}], not {timeout!r}")
    return float(timeout)


def kill_marked(token: str, rounds: int = 20) -> int:
    """Kills (SIGKILL) every process this user may see whose environment holds
    ``IKEDA_ENGINE_TOKEN=token``, scanning ``/proc`` again until a scan finds none (a
    process may fork between a scan and its kill) or `rounds` scans are done; returns how
    many were killed. Linux only (elsewhere, and where ``/proc`` is missing, nothing).
    A process that cleared its environment, or runs as another user, is not found: run
    untrusted engines in a container or cgroup of their own (docs/security.md)."""
    mark = f"{TOKEN_VARIABLE}={token}".encode()
    killed: set[int] = set()
    for _ in range(rounds):
        try:
            pids = [int(name) for name in os.listdir("/proc") if name.isdigit()]
        except OSError:
            break
        found = False
        for pid in pids:
            if pid == os.getpid() or pid in killed:  # one killed may not be gone yet
                continue
            try:
                with open(f"/proc/{pid}/environ", "rb") as f:
                    environ = f.read()
            except OSError:
                continue  # gone, or another user's
            if mark in environ.split(b"\0"):
                try:
                    os.kill(pid, signal.SIGKILL)
                    killed.add(pid)
                    found = True
                except OSError:
                    pass
        if not found:
            break
    return len(killed)


class GtpController:
    """One external GTP engine.

    `command` is an argument list or a shell-like string (split with :mod:`shlex`, no
    shell); it is started at once unless `start` is false. `timeout` is the default limit in seconds per command. `transcript`, if given,
    receives every command (``name> command``) and reply (``name< reply``). The engine's
    stderr goes to `stderr` (a file) or is discarded.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        timeout: float = 30.0,
        name: str | None = None,
        transcript: TextIO | None = None,
        stderr: TextIO | None = None,
        max_reply: int = MAX_REPLY,
        start: bool = True,
    ) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise EngineCrashed("empty engine command", name or "")
        self.name = name or os.path.basename(self.argv[0])
        self.timeout = check_timeout(timeout)
        self.transcript = transcript
        self._stderr = stderr
        self.max_reply = max_reply
        self._proc: subprocess.Popen[bytes] | None = None
        self._chunks: queue.Queue[bytes] = queue.Queue(MAX_QUEUED_CHUNKS)
        self._stop = threading.Event()
        self._pending = b""
        self.returncode: int | None = None
        if start:
            self.restart()

    # -- life cycle ------------------------------------------------------------------

    def restart(self) -> None:
        """Starts the engine (stopping a running one first)."""
        self.kill()
        self._chunks = queue.Queue(MAX_QUEUED_CHUNKS)
        self._stop = threading.Event()
        self._pending = b""
        self.returncode = None
        self._token = f"{os.getpid()}-{secrets.token_hex(8)}"
        try:
            self._proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr if self._stderr is not None else subprocess.DEVNULL,
                start_new_session=True,  # its own process group: a kill reaches its children
                env={**os.environ, TOKEN_VARIABLE: self._token},
            )
        except OSError as e:
            self._proc = None
            raise EngineCrashed(f"cannot start {self.name}: {e}", self.name) from None
        stdout = self._proc.stdout
        assert stdout is not None and self._proc.stdin is not None
        # Commands are written without blocking (see _write): an engine that does not read
        # its input cannot stall us past a command's deadline.
        os.set_blocking(self._proc.stdin.fileno(), False)
        threading.Thread(target=_pump, args=(stdout, self._chunks, self._stop), daemon=True).start()

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def kill(self) -> None:
        """Stops the engine at once: its whole process group, children it left behind
        included (the group outlives its leader; Linux does not reuse its id while a
        member lives), and on Linux every process that carries the engine's token in its
        environment, also one that started a session of its own (see
        :func:`kill_marked`)."""
        proc, self._proc = self._proc, None
        self._stop.set()
        if proc is None:
            return
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            if proc.poll() is None:
                proc.kill()
        self.returncode = proc.wait()
        kill_marked(self._token)
        _close(proc)

    def close(self, timeout: float = 5.0) -> None:
        """Sends ``quit``, waits up to `timeout` seconds for the engine to exit, then
        kills it. Never raises."""
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            try:
                self.send("quit", timeout=timeout)
                proc.wait(timeout=timeout)
            except (EngineError, subprocess.TimeoutExpired):
                pass
        self.kill()

    def __enter__(self) -> GtpController:
        return self

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    # -- commands --------------------------------------------------------------------

    def send(self, command: str, timeout: float | None = None) -> str:
        """Sends one command and returns the text of its success reply (without ``=``).

        Raises :class:`GtpError` for a ``?`` reply, :class:`EngineTimeout` after
        `timeout` seconds (default: the controller's), :class:`EngineCrashed` if the
        engine is gone, :class:`EngineProtocolError` for output that is not GTP."""
        command = command.strip()
        if not command or "\n" in command:
            raise EngineProtocolError(f"not one GTP command: {command!r}", self.name, command)
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise EngineCrashed(f"{self.name} is not running", self.name, command, self.returncode)
        self._log(f"{self.name}> {command}")
        limit = self.timeout if timeout is None else check_timeout(timeout)
        deadline = time.monotonic() + limit  # for the write and the reply together
        self._write(proc, command.encode() + b"\n", command, deadline, limit)
        reply = self._read_reply(command, limit, deadline)
        self._log(f"{self.name}< {reply}")
        status, text = reply[0], reply[1:].lstrip("0123456789").strip()
        if status == "?":
            raise GtpError(f"{self.name} refused {command!r}: {text}", self.name, command, text)
        return text

    def _write(self, proc: subprocess.Popen[bytes], data: bytes, command: str, deadline: float, timeout: float) -> None:
        """Writes `data` to the engine's input (non-blocking) by `deadline`: an engine
        that stops reading (one flooding us with output, say) is a timeout, not a hang."""
        assert proc.stdin is not None
        fd = proc.stdin.fileno()
        while data:
            try:
                data = data[os.write(fd, data):]
                continue
            except BlockingIOError:
                pass
            except OSError:
                self._crashed(command)
            left = deadline - time.monotonic()
            if left <= 0:
                shown = command if len(command) <= 80 else command[:80] + "..."
                self._fail(EngineTimeout(f"{self.name} did not read {shown!r} within {timeout:g} s", self.name, command))
            if proc.poll() is not None:
                self._crashed(command)
            select.select([], [fd], [], min(left, POLL))

    def _read_reply(self, command: str, timeout: float, deadline: float) -> str:
        """One reply by `deadline`: blank lines skipped, then lines up to an empty line."""
        buf = self._pending
        exited_at: float | None = None
        while True:
            text = buf.replace(b"\r", b"").lstrip(b"\n")
            if text and text[:1] not in (b"=", b"?"):
                line = text.split(b"\n", 1)[0][:80]
                self._fail(EngineProtocolError(f"{self.name} answered {command!r} with non-GTP output {line!r}", self.name, command))
            end = text.find(b"\n\n")
            if end >= 0:
                self._pending = text[end + 2 :]
                return text[:end].decode("utf-8", "replace")
            if len(buf) > self.max_reply:
                self._fail(EngineProtocolError(f"{self.name}'s reply to {command!r} exceeds {self.max_reply} bytes", self.name, command))
            left = deadline - time.monotonic()
            if left <= 0:
                self._fail(EngineTimeout(f"{self.name} did not answer {command!r} within {timeout:g} s", self.name, command))
            try:
                chunk = self._chunks.get(timeout=min(left, POLL))
            except queue.Empty:
                proc = self._proc
                if proc is not None and proc.poll() is not None:
                    # The engine exited; if something it started holds its output open,
                    # no end of output comes either. Its last words get a moment.
                    exited_at = exited_at or time.monotonic()
                    if time.monotonic() - exited_at > 4 * POLL:
                        self._crashed(command)
                continue
            if not chunk:
                self._crashed(command)
            buf += chunk

    def _fail(self, error: EngineError) -> NoReturn:
        self._log(f"{self.name}! {error}")
        self.kill()
        raise error

    def _crashed(self, command: str) -> NoReturn:
        proc = self._proc
        code = None
        if proc is not None:
            try:
                code = proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                pass
        self.kill()
        self.returncode = code if code is not None else self.returncode
        error = EngineCrashed(f"{self.name} exited (status {self.returncode}) during {command!r}", self.name, command, self.returncode)
        self._log(f"{self.name}! {error}")
        raise error

    def _log(self, text: str) -> None:
        if self.transcript is not None:
            self.transcript.write(text.rstrip("\n") + "\n")
            self.transcript.flush()


def _pump(stream: IO[bytes], chunks: queue.Queue[bytes], stop: threading.Event) -> None:
    """Copies the engine's output into the bounded queue; an empty chunk marks its end.
    When the queue is full the copy waits (the engine then blocks on its full pipe), and
    it gives up once the engine is stopped. The stream is closed here, at its end, so
    that its descriptor is never reused under us."""
    fd = stream.fileno()
    try:
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            while True:
                try:
                    chunks.put(data, timeout=POLL)
                    break
                except queue.Full:
                    if stop.is_set():
                        return
            if not data:
                return
    finally:
        stream.close()


def _close(proc: subprocess.Popen[bytes]) -> None:
    try:
        if proc.stdin is not None:
            proc.stdin.close()
    except OSError:
        pass
