"""The simple graph (:class:`SimpleGraph`) and the deduplication that makes one
from an edge list, on the primitives of either device.

Duplicates are found by sorting 64-bit packed keys of ``(a, b)``; self-loops get
a key that sorts last (:data:`SENTINEL`) and leave with the duplicates, so one
compaction does both. Where an edge repeats with values, the last occurrence
wins, as when NetworkX adds the same edge twice. See docs/algorithms.md,
'Preprocessing'.

Packing keys and counting degrees differ between NumPy and CuPy: the functions
that do them take the module of primitives of the arrays' device, ``ops``
(:mod:`.host_ops` or :mod:`.gpu_ops`), from their caller. Both modules build on
this one; :func:`.ops.ops_for`, above them, picks one.
"""

import numpy as np

from ..gpu.device import module_of

__all__ = ["SENTINEL", "SimpleGraph", "index_dtype", "unique_keys", "distinct_edges", "deduplicated"]

#: The key of a self-loop, or of a row that is not an arc: sorts after every real key.
SENTINEL = np.iinfo(np.int64).max


def index_dtype(n):
    """Narrowest vertex-id dtype for ``n`` vertices (int32 halves memory traffic)."""
    return np.int32 if n < 2**31 else np.int64


class SimpleGraph:
    """A simple undirected graph.

    Attributes
    ----------
    n : int
        Number of vertices.
    lo, hi : arrays
        Each undirected edge once, ``lo < hi`` (ids of the narrowest dtype for ``n``).
    degree : array
        Degree of every vertex (int64).
    values : array or None
        One value per edge, aligned with ``lo, hi``.
    """

    def __init__(self, n, lo, hi, degree, values=None):
        self.n = n
        self.lo, self.hi = lo, hi
        self.degree = degree
        self.values = values

    @property
    def m(self):
        """Number of edges."""
        return int(self.lo.size)


def unique_keys(keys, values):
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


def distinct_edges(ops, src, dst, n, values=None, index_dtype=None, unique=False):
    """Each undirected edge of an edge list once, by the primitives ``ops``.

    Parameters
    ----------
    ops : module
        :mod:`.host_ops` or :mod:`.gpu_ops`, of the arrays' device.
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
    keys, values = unique_keys(ops.edge_keys(src, dst, n), values)
    lo, hi = ops.unpack_keys(keys, n, index_dtype)
    return lo, hi, values


def deduplicated(ops, src, dst, n, *, values=None, unique=False):
    """The :class:`SimpleGraph` of an edge list by :func:`distinct_edges`, with
    the primitives ``ops`` (as there): duplicates and self-loops dropped,
    degrees counted."""
    lo, hi, values = distinct_edges(ops, src, dst, n, values, index_dtype(n), unique)
    degree = ops.endpoint_counts(lo, hi, n, a_sorted=not unique)
    return SimpleGraph(n, lo, hi, degree, values)
