"""Dedup and self-loop removal: any edge list becomes a simple graph.

Works on NumPy and CuPy arrays alike (the array module is taken from the
input; on the GPU the elementwise steps are single launches from
:mod:`.elementwise`). Duplicates are found by sorting 64-bit packed keys of
``(a, b)``; self-loops get a key that sorts last and leave with the duplicates,
so one compaction does both. Where an edge repeats with values, the last
occurrence wins, as when NetworkX adds the same edge twice.
"""

import numpy as np

from ..device import module_of
from . import elementwise
from .elementwise import SENTINEL

__all__ = [
    "simplify_undirected",
    "distinct_edge_keys",
    "simplify_directed",
    "packed_keys",
    "unpack_keys",
]


def packed_keys(a, b, n):
    """Pack vertex pairs into int64 keys that sort like ``(a, b)``.

    ``a << 32 | b`` when ids fit in 31 bits (shifts and masks, much cheaper to
    undo than a division), else ``a * n + b`` (exact while ``n**2 < 2**63``).
    """
    xp = module_of(a)
    if xp is not np:
        return elementwise.packed_keys(a, b, n)
    if n <= 2**31:
        return (a.astype(xp.int64) << 32) | b.astype(xp.int64)
    return a.astype(xp.int64) * n + b.astype(xp.int64)


def unpack_keys(keys, n, dtype):
    """Invert :func:`packed_keys`."""
    if module_of(keys) is not np:
        return elementwise.unpack_keys(keys, n, dtype)
    if n <= 2**31:
        return (keys >> 32).astype(dtype), (keys & 0xFFFFFFFF).astype(dtype)
    return (keys // n).astype(dtype), (keys % n).astype(dtype)


def _edge_keys(src, dst, n):
    """Keys of the undirected edges ``min(src, dst) - max(src, dst)``, with
    :data:`SENTINEL` for self-loops."""
    xp = module_of(src)
    if xp is not np:
        return elementwise.edge_keys(src, dst, n)
    keys = packed_keys(np.minimum(src, dst), np.maximum(src, dst), n)
    keys[src == dst] = SENTINEL
    return keys


def _unique_keys(keys, values):
    """Sorted unique keys without :data:`SENTINEL`, with the value of each key's
    last occurrence."""
    xp = module_of(keys)
    if values is None:
        keys = xp.sort(keys)
    else:
        order = xp.argsort(keys, kind="stable")
        keys = keys[order]
        values = values[order]
    if keys.size == 0:
        return keys, values
    last = xp.empty(keys.size, dtype=bool)
    last[-1] = True
    xp.not_equal(keys[1:], keys[:-1], out=last[:-1])
    last &= keys != SENTINEL
    keys = keys[last]
    if values is not None:
        values = values[last]
    return keys, values


def simplify_undirected(src, dst, n, values=None, index_dtype=None, unique=False):
    """Return the simple undirected graph of an edge list.

    Parameters
    ----------
    src, dst : integer arrays
        Endpoints, ids in ``0..n-1``; each edge may appear in one or both
        directions, any number of times.
    n : int
        Number of vertices.
    values : array, optional
        One value per edge; the last occurrence of an edge wins.
    index_dtype : dtype, optional
        Dtype of the returned ids (defaults to ``src.dtype``).
    unique : bool
        The caller guarantees each undirected edge appears once (as in a
        NetworkX graph): only self-loops are dropped, without the sort.

    Returns
    -------
    lo, hi : arrays
        Each undirected edge once, ``lo < hi``, sorted by ``(lo, hi)`` unless
        ``unique``.
    values : array or None
        The edges' values, aligned with ``lo, hi``.
    """
    xp = module_of(src)
    index_dtype = index_dtype or src.dtype
    if unique:
        keep = xp.flatnonzero(src != dst)  # one compaction for both arrays
        src, dst = src[keep], dst[keep]
        if values is not None:
            values = values[keep]
        lo, hi = xp.minimum(src, dst), xp.maximum(src, dst)
        return lo.astype(index_dtype), hi.astype(index_dtype), values
    keys, values = _unique_keys(_edge_keys(src, dst, n), values)
    lo, hi = unpack_keys(keys, n, index_dtype)
    return lo, hi, values


def distinct_edge_keys(src, dst, n, *, square_sum=False):
    """The deduplication of an unweighted edge list on the GPU, before its
    compaction: sorted edge keys with the distinct ones marked, and the degrees
    of the simple graph, with no synchronisation (unless ``square_sum``).

    Returns
    -------
    keys : int64 array
        :func:`packed_keys` of ``(min, max)`` of every row, sorted.
    kept, degree, count, squares
        As :func:`~.elementwise.distinct_and_degrees` returns them.
    """
    import cupy

    keys = cupy.sort(elementwise.edge_keys(src, dst, n))
    return (keys, *elementwise.distinct_and_degrees(keys, n, square_sum=square_sum))


def simplify_directed(src, dst, n, values=None, index_dtype=None):
    """Return the simple directed graph (unique arcs, no self-loops), sorted by (src, dst).

    Same parameters and returns as :func:`simplify_undirected`, with arcs kept in
    their direction.
    """
    xp = module_of(src)
    index_dtype = index_dtype or src.dtype
    keys = xp.where(src != dst, packed_keys(src, dst, n), SENTINEL)
    keys, values = _unique_keys(keys, values)
    src, dst = unpack_keys(keys, n, index_dtype)
    return src, dst, values
