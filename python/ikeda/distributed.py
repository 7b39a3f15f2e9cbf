"""Shards played as Ray tasks, on this machine or a cluster (docs/ray.md).

Each shard is one task that takes one CPU and plays its games natively on one thread.
Ray retries a task whose worker died (a lost node, a killed process) up to ``retries``
times; the driver takes each shard's result once, by its shard id, so a retried shard
is neither lost nor counted twice. At most ``limit`` tasks are in flight, so a run of
billions of games neither floods the scheduler nor the driver's memory. When the driver
stops early (an error, Ctrl-C), the tasks still in flight are cancelled.

Ctrl-C is held back while Ray starts, while tasks are cancelled and while a Ray started
here shuts down, and raised after: Ray's core interrupted halfway through its start or
stop fails a C++ check or crashes at exit. A Ray started here is shut down with every
process it started, its agents included (they would otherwise linger a minute).

Ray is an optional dependency (``pip install 'ikeda[ray]'``); it is imported only here,
and only when a run asks for it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any

from .errors import ArgumentError, IkedaError
from .errors import RayNotInstalledError as RayNotInstalledError
from .shards import Shard, ShardResult, play_shard

INSTALL = "pip install 'ikeda[ray]'"
#: How long a cluster address has to answer a TCP connection (docs/ray.md).
CONNECT_SECONDS = 10.0


def import_ray() -> Any:
    """The ``ray`` module, or a :class:`RayNotInstalledError` that says how to install it."""
    try:
        import ray
    except ImportError:
        raise RayNotInstalledError(f"running on Ray needs the ray package, which is not installed: {INSTALL}") from None
    return ray


@contextlib.contextmanager
def session(address: str = "auto", *, workers: int | None = None, shutdown: bool = True) -> Iterator[Any]:
    """Ray, connected for the block.

    `address`: ``"auto"`` joins the cluster that ``RAY_ADDRESS`` or a ``ray start`` on this
    machine names, or else starts Ray here; ``"local"`` always starts a new Ray here, with
    `workers` CPUs (default: every core); anything else is a cluster address
    (``"10.0.0.5:6379"``, ``"ray://head:10001"``), which must accept a connection within
    :data:`CONNECT_SECONDS` (else :class:`IkedaError`, where Ray would retry for minutes).
    If this process is already connected (``ray.init`` was called), that connection is
    used as it is. A Ray started here is shut down at the end of the block when
    `shutdown` is true, with every process it started.
    """
    ray = import_ray()
    if workers is not None and workers < 1:
        raise ArgumentError(f"workers must be at least 1, not {workers}")
    started = False
    before: set[tuple[int, int]] = set()
    if not ray.is_initialized():
        options: dict[str, Any] = {"logging_level": logging.WARNING, "log_to_driver": False}
        if address == "local":
            options.update(address="local", num_cpus=workers, include_dashboard=False)
        elif address != "auto":
            reachable(ray, address)
            options.update(address=address)
        elif os.environ.get("RAY_ADDRESS"):
            reachable(ray, os.environ["RAY_ADDRESS"])
        before = _children()
        try:
            with held_sigint():
                ray.init(**options)
        except (ConnectionError, ValueError, RuntimeError) as e:
            raise IkedaError(f"cannot connect to Ray at {address!r}: {e}") from None
        started = True
    try:
        yield ray
    finally:
        if started and shutdown:
            with held_sigint():
                ours = _ray_processes(before)
                ray.shutdown()
                _end(ours | _ray_processes(before))


def reachable(ray: Any, address: str) -> None:
    """Raises :class:`IkedaError` unless something accepts a TCP connection at the
    cluster address within :data:`CONNECT_SECONDS`. Ray reads a loopback host as this
    node's address, so for one both are tried."""
    target = address.removeprefix("ray://").rsplit("/", 1)[0]
    host, colon, port = target.rpartition(":")
    if not colon or not port.isdigit() or not host:
        return  # not HOST:PORT; Ray's own check reports it
    host = host.strip("[]")
    hosts = [host]
    if host in ("localhost", "127.0.0.1", "::1"):
        with contextlib.suppress(Exception):
            hosts.append(ray.util.get_node_ip_address())
    deadline = time.monotonic() + CONNECT_SECONDS
    why = ""
    for h in hosts:
        try:
            with socket.create_connection((h, int(port)), timeout=max(0.1, deadline - time.monotonic())):
                return
        except (OSError, ValueError, OverflowError) as e:
            why = getattr(e, "strerror", None) or str(e) or type(e).__name__
    raise IkedaError(f"cannot connect to Ray at {address!r}: nothing answers at {host}:{port} within {CONNECT_SECONDS:g} s ({why})")


@contextlib.contextmanager
def held_sigint() -> Iterator[None]:
    """Holds Ctrl-C back for the block and raises it after (on the main thread; other
    threads receive no signals)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught and callable(previous):
        previous(signal.SIGINT, None)


def _processes() -> dict[int, tuple[int, int]]:
    """Every process's parent and start time, from /proc (empty where there is none)."""
    table: dict[int, tuple[int, int]] = {}
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc"):
            if name.isdigit():
                with contextlib.suppress(OSError, ValueError, IndexError):
                    with open(f"/proc/{name}/stat", "rb") as f:
                        fields = f.read().rsplit(b")", 1)[1].split()
                    table[int(name)] = (int(fields[1]), int(fields[19]))
    return table


def _children() -> set[tuple[int, int]]:
    """This process's children as (pid, start time)."""
    me = os.getpid()
    return {(pid, start) for pid, (parent, start) in _processes().items() if parent == me}


def _ray_processes(before: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """The processes Ray started here: the children of this process that were not there
    before ``ray.init`` and run a program of the ``ray`` package (GCS, raylet, monitors),
    and all their descendants (agents, workers). Other children are left alone."""
    table = _processes()
    roots = []
    for child in _children() - before:
        with contextlib.suppress(OSError):
            with open(f"/proc/{child[0]}/cmdline", "rb") as f:
                if b"ray" in f.read():
                    roots.append(child)
    out = set(roots)
    todo = [pid for pid, _ in roots]
    while todo:
        parent = todo.pop()
        for pid, (ppid, start) in table.items():
            if ppid == parent and (pid, start) not in out:
                out.add((pid, start))
                todo.append(pid)
    return out


def _alive(pid: int, start: int) -> bool:
    """Whether process `pid` still runs and is the one that started at `start` (not a
    zombie, not a later process given the same number)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != b"Z" and int(fields[19]) == start


def _end(processes: set[tuple[int, int]], *, seconds: float = 5.0) -> None:
    """Stops the processes still alive: SIGTERM, then SIGKILL after `seconds`/2, and
    waits until they are gone or `seconds` pass."""
    deadline = time.monotonic() + seconds
    sig = signal.SIGTERM
    while True:
        alive = [pid for pid, start in processes if _alive(pid, start)]
        if not alive or time.monotonic() > deadline:
            return
        for pid in alive:
            with contextlib.suppress(OSError):
                os.kill(pid, sig)
        if time.monotonic() > deadline - seconds / 2:
            sig = signal.SIGKILL
        time.sleep(0.05)


def in_flight(ray: Any, workers: int | None) -> int:
    """How many tasks to keep submitted: `workers` when given (at most that many run at
    once), else twice the cluster's CPUs (so no CPU waits for the next submission)."""
    if workers is not None:
        return workers
    return max(1, 2 * int(ray.cluster_resources().get("CPU", 1)))


def results(
    ray: Any,
    shards: Iterable[Shard],
    *,
    limit: int,
    retries: int = 3,
    play: Callable[[Shard], ShardResult] = play_shard,
) -> Generator[ShardResult, None, None]:
    """Plays `shards` as Ray tasks and yields each one's result once, as they finish (in
    no set order). `play` is the task (tests give one that kills its own worker). Closing
    the iterator early cancels the tasks in flight."""
    task = ray.remote(play).options(num_cpus=1, max_retries=retries, retry_exceptions=False)
    todo = iter(shards)
    pending: dict[Any, Shard] = {}
    try:
        while True:
            while len(pending) < limit and (shard := next(todo, None)) is not None:
                pending[task.remote(shard)] = shard
            if not pending:
                return
            # A timeout keeps the wait interruptible by Ctrl-C.
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=1.0)
            for ref in ready:
                shard = pending.pop(ref)
                yield _get(ray, ref, shard, retries)
    finally:
        with held_sigint():
            cancel(ray, list(pending))


def cancel(ray: Any, refs: list[Any], *, seconds: float = 10.0) -> None:
    """Cancels tasks, stopping their workers (a native batch cannot be interrupted
    halfway), and waits until they are gone. A cancel that reaches a worker while it is
    still taking the task up can be lost (a race in Ray), so the tasks not gone yet are
    cancelled again until they are or `seconds` pass."""
    deadline = time.monotonic() + seconds
    while refs and time.monotonic() < deadline:
        for ref in refs:
            ray.cancel(ref, force=True)
        _, refs = ray.wait(refs, num_returns=len(refs), timeout=0.5, fetch_local=False)


def _get(ray: Any, ref: Any, shard: Shard, retries: int) -> ShardResult:
    try:
        result: ShardResult = ray.get(ref)
    except ray.exceptions.RayTaskError as e:
        cause = e.cause if isinstance(e.cause, IkedaError) else None
        if cause is not None:
            raise cause from None
        raise IkedaError(f"shard {shard.id} failed: {e}") from None
    except ray.exceptions.RayError as e:
        raise IkedaError(f"shard {shard.id} was lost {retries + 1} times (workers died): {e}") from None
    if result.shard != shard:
        raise IkedaError(f"shard {shard.id} came back as {result.shard.id}")
    return result
