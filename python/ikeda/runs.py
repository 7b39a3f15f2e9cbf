"""Plays the shards of a run, here on threads or on Ray, and yields their results: the one
loop behind ``simulate()``, ``dataset.write()`` and the command line."""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator, Iterable

from .shards import Plan, Shard, ShardResult, check, play_shard


def played(
    shards: Plan | Iterable[Shard],
    *,
    ray: str | None = None,
    workers: int | None = None,
    threads: int = 0,
    retries: int = 3,
    shutdown: bool = False,
    play: Callable[[Shard], ShardResult] = play_shard,
) -> Generator[ShardResult, None, None]:
    """Each shard's result once, as shards finish.

    Without `ray`, shards are played one after another in this process, each on `threads`
    threads (0: every core), in order. With `ray` (``"auto"``, ``"local"`` or an address,
    see :func:`ikeda.distributed.session`) they are Ray tasks of one CPU each, at most
    `workers` at once, finishing in any order; a task whose worker dies is retried up to
    `retries` times. `shutdown`: shut down a Ray started here when done. Bad parameters
    raise here, before any task starts. Closing the iterator early cancels what is in
    flight. A :class:`~ikeda.shards.Plan` is played as it is made, one shard at a time.
    """
    if isinstance(shards, Plan):
        shards.check()
    else:
        shards = list(shards)
        for shard in {s.cell: s for s in shards}.values():  # one shard per cell
            check(shard)
    if ray is None:
        one = play if play is not play_shard else functools.partial(play_shard, threads=threads)
        for shard in shards:
            yield one(shard)
        return
    from . import distributed

    with distributed.session(ray, workers=workers, shutdown=shutdown) as r:
        limit = distributed.in_flight(r, workers)
        yield from distributed.results(r, shards, limit=limit, retries=retries, play=play)
