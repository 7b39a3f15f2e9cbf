"""Shards played as Ray tasks, on this machine or a cluster (docs/ray.md).

Each shard is one task that takes one CPU and plays its games natively on one thread.
Ray retries a task whose worker died (a lost node, a killed process) up to ``retries``
times; the driver takes each shard's result once, by its shard id, so a retried shard
is neither lost nor counted twice. At most ``limit`` tasks are in flight, so a run of
billions of games neither floods the scheduler nor the driver's memory. When the driver
stops early (an error, Ctrl-C), the tasks still in flight are cancelled.

Ray is an optional dependency (``pip install 'ikeda[ray]'``); it is imported only here,
and only when a run asks for it.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any

from .errors import ArgumentError, IkedaError
from .errors import RayNotInstalledError as RayNotInstalledError
from .shards import Shard, ShardResult, play_shard

INSTALL = "pip install 'ikeda[ray]'"


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
    (``"10.0.0.5:6379"``, ``"ray://head:10001"``). If this process is already connected
    (``ray.init`` was called), that connection is used as it is. A Ray started here is shut
    down at the end of the block when `shutdown` is true.
    """
    ray = import_ray()
    if workers is not None and workers < 1:
        raise ArgumentError(f"workers must be at least 1, not {workers}")
    started = False
    if not ray.is_initialized():
        options: dict[str, Any] = {"logging_level": logging.WARNING, "log_to_driver": False}
        if address == "local":
            options.update(address="local", num_cpus=workers, include_dashboard=False)
        elif address != "auto":
            options.update(address=address)
        try:
            ray.init(**options)
        except (ConnectionError, ValueError, RuntimeError) as e:
            raise IkedaError(f"cannot connect to Ray at {address!r}: {e}") from None
        started = True
    try:
        yield ray
    finally:
        if started and shutdown:
            ray.shutdown()


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
