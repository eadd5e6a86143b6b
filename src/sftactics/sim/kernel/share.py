"""Cover answers shared between the worker processes of one simulation.

Every process keeps its own cover cache (:func:`sftactics.sim.kernel.geo.cover_cache`), and a miss costs a call
into the grid package from object mode (about 0.15 ms). Two workers playing halves of the same simulation meet
mostly the same squares, so each would pay for most of the misses the other has already paid for. The workers
of ``simulate`` therefore send the answers they computed with each batch's results, and receive the other
workers' answers with their next batch (``sim.kernel.pool``). A cover answer depends only on its key (the map,
the squares, ranged or not), so sharing changes no fight: only how often the grid package is asked.

:class:`CoverShare` keeps a process's side of it: :meth:`~CoverShare.take` stores answers from elsewhere,
:meth:`~CoverShare.give` returns the ones this process computed since it last gave or took.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba.core import types as nb_types
from numba.np.unsafe.ndarray import to_fixed_tuple as _to_fixed_tuple
from numba.typed import Dict as NumbaDict
from numpy.typing import NDArray

from sftactics.sim.kernel.geo import _COVER_KEY, COVER_CACHE_LIMIT, COVER_KEY_CREATURES, _jit

#: Numbers in a cover cache key: attacker, target, ranged, then the other creatures' squares.
KEY_LEN = 3 + COVER_KEY_CREATURES

_fixed: Any = _to_fixed_tuple  # (its stub wants the typing context numba passes itself)

Entries = tuple[NDArray[np.int64], NDArray[np.int64]]


@_jit
def _size(cache: Any) -> int:
    return len(cache)


@_jit
def _export(cache: Any, start: int, keys: NDArray[np.int64], values: NDArray[np.int64]) -> int:
    """The entries of ``cache`` from the ``start``-th on (a typed dict keeps its insertion order) into
    ``keys`` and ``values``; how many."""
    n = 0
    for i, (k, v) in enumerate(cache.items()):
        if i >= start:
            for j in range(KEY_LEN):
                keys[n, j] = k[j]
            values[n] = v
            n += 1
    return n


@_jit
def _import(cache: Any, keys: NDArray[np.int64], values: NDArray[np.int64]) -> None:
    for i in range(keys.shape[0]):
        if len(cache) >= COVER_CACHE_LIMIT:
            return
        k = _fixed(keys[i], KEY_LEN)
        if k not in cache:
            cache[k] = values[i]


_COVER_VALUE = nb_types.int64
_AREA_KEY = nb_types.int64
_AREA_VALUE = nb_types.int32[:]


# A typed dict made from Python compiles numba's code for its types in every process (about 0.15 s each); made
# by these, numba loads that code from its disk cache with theirs.
@_jit
def empty_cover_cache() -> Any:
    """An empty cover cache (``geo.cover_cache``)."""
    return NumbaDict.empty(key_type=_COVER_KEY, value_type=_COVER_VALUE)


@_jit
def empty_area_cache() -> Any:
    """An empty area cache (``abilities.area_cache``)."""
    return NumbaDict.empty(key_type=_AREA_KEY, value_type=_AREA_VALUE)


def empty() -> Entries:
    """No entries."""
    return np.zeros((0, KEY_LEN), dtype=np.int64), np.zeros(0, dtype=np.int64)


def warm(cache: Any) -> None:
    """Load (or compile) the njit functions above, as a process does before forking its workers."""
    keys, values = empty()
    _import(cache, keys, values)
    _export(cache, int(_size(cache)), keys, values)


class CoverShare:
    """One process's view of a cover cache (a typed dict of :func:`~sftactics.sim.kernel.geo.cover_cache`)."""

    def __init__(self, cache: Any) -> None:
        self.cache = cache
        self.mark = int(_size(cache))  # entries before it are known to the others (or were there at the fork)

    def take(self, entries: Entries) -> None:
        """Store answers computed elsewhere (those already known are skipped)."""
        keys, values = entries
        if len(values):
            _import(self.cache, keys, values)
        self.mark = int(_size(self.cache))

    def give(self) -> Entries:
        """The answers this process computed since it last gave or took."""
        size = int(_size(self.cache))
        start = self.mark if size >= self.mark else 0  # the cache was cleared on reaching its limit
        keys = np.empty((size - start, KEY_LEN), dtype=np.int64)
        values = np.empty(size - start, dtype=np.int64)
        n = int(_export(self.cache, start, keys, values))
        self.mark = size
        return keys[:n], values[:n]
