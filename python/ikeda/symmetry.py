"""The 8 dihedral symmetries of a square board, for augmenting training data: input
planes, policies over flat actions (the pass last, unmoved) and single actions.

Symmetry ``k`` (0..7) transposes the board if ``k >= 4`` and then turns it ``k % 4``
quarter turns counter-clockwise (``numpy.rot90`` over the last two axes); 0 is the
identity. :func:`inverse` gives the one that undoes it, so a policy a network predicts
on transformed planes is brought back with ``policy(p, inverse(k), size)``.

>>> import numpy as np
>>> x = np.arange(4.0).reshape(1, 2, 2)
>>> planes(planes(x, 1), inverse(1)).tolist() == x.tolist()
True
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from .errors import ArgumentError

#: The symmetries, 0 the identity.
SYMMETRIES = tuple(range(8))


def _check(k: int) -> int:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 0 <= k < 8:
        raise ArgumentError(f"a symmetry is an int in 0..8, not {k!r}")
    return int(k)


def inverse(k: int) -> int:
    """The symmetry that undoes `k` (the reflections undo themselves)."""
    k = _check(k)
    return k if k >= 4 else (4 - k) % 4


def planes(x: npt.NDArray[Any], k: int, *, channels_last: bool = False) -> npt.NDArray[Any]:
    """`x` (``(..., h, w)``, or ``(..., h, w, c)`` with `channels_last`) under symmetry
    `k`: a new contiguous array."""
    k = _check(k)
    axes = (-3, -2) if channels_last else (-2, -1)
    if x.ndim < 2 or x.shape[axes[0]] != x.shape[axes[1]]:
        raise ArgumentError(f"symmetries need square boards, not planes of shape {x.shape}")
    if k >= 4:
        x = np.swapaxes(x, *axes)
    return np.ascontiguousarray(np.rot90(x, k % 4, axes=axes))


@lru_cache(maxsize=256)
def _gather(k: int, size: int) -> npt.NDArray[np.intp]:
    """For each flat action of the transformed board, the action it comes from (the pass
    last, to itself)."""
    idx = planes(np.arange(size * size).reshape(size, size), k).ravel()
    out = np.append(idx, size * size).astype(np.intp)
    out.flags.writeable = False
    return out


def policy(p: npt.NDArray[Any], k: int, size: int) -> npt.NDArray[Any]:
    """A policy (or legal mask) over flat actions, ``(..., size*size + 1)``, the pass
    last, under symmetry `k`: the value of each point moves with the point."""
    k = _check(k)
    if p.shape[-1] != size * size + 1:
        raise ArgumentError(f"a policy on {size}x{size} has {size * size + 1} actions, not {p.shape[-1]}")
    return p[..., _gather(k, size)]


def action(a: int, k: int, size: int) -> int:
    """Where the flat action `a` goes under symmetry `k` (the pass stays the pass)."""
    k = _check(k)
    if not 0 <= a <= size * size:
        raise ArgumentError(f"action {a} is not a flat index on {size}x{size}")
    return int(np.flatnonzero(_gather(k, size) == a)[0])
