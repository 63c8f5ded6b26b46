"""Dedup and self-loop removal: any edge list becomes a simple graph
(:class:`SimpleGraph`), what every preprocessing starts from.

Duplicates are found by sorting 64-bit packed keys of ``(a, b)``; self-loops get
a key that sorts last (:data:`~.host_ops.SENTINEL`) and leave with the
duplicates, so one compaction does both. Where an edge repeats with values, the
last occurrence wins, as when NetworkX adds the same edge twice. See
docs/algorithms.md, 'Preprocessing'.
"""

import numpy as np

from ..gpu.device import module_of
from .ops import ops_for

__all__ = [
    "SimpleGraph",
    "index_dtype",
    "simple_graph",
    "simplified",
    "simplify_undirected",
    "simplify_directed",
    "unique_keys",
]


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


def simple_graph(src, dst, n, *, values=None, unique=False):
    """The simple undirected graph of an edge list: duplicates and self-loops
    dropped, degrees counted.

    Parameters
    ----------
    src, dst : integer arrays
        Edges in either or both directions, duplicates and self-loops allowed.
    n : int
    values : array, optional
        One value per edge (last occurrence of a repeated edge wins).
    unique : bool
        Each undirected edge appears at most once (skips the dedup sort).

    Returns
    -------
    SimpleGraph
        The one :func:`~.host_ops.deduplicate` of the array's module returns (on
        the GPU, unweighted and deduplicated, it has not synchronised).
    """
    return ops_for(src).deduplicate(src, dst, n, values=values, unique=unique)


def simplified(src, dst, n, *, values=None, unique=False):
    """:func:`simple_graph` by :func:`simplify_undirected`, in any array module."""
    lo, hi, values = simplify_undirected(
        src, dst, n, values, index_dtype=index_dtype(n), unique=unique
    )
    degree = ops_for(lo).endpoint_counts(lo, hi, n, a_sorted=not unique)
    return SimpleGraph(n, lo, hi, degree, values)


def unique_keys(keys, values):
    """Sorted unique keys without :data:`~.host_ops.SENTINEL`, with the value of
    each key's last occurrence."""
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
    last &= keys != ops_for(keys).SENTINEL
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
    ops = ops_for(src)
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


def simplify_directed(src, dst, n, values=None, index_dtype=None):
    """Return the simple directed graph (unique arcs, no self-loops), sorted by (src, dst).

    Same parameters and returns as :func:`simplify_undirected`, with arcs kept in
    their direction.
    """
    xp = module_of(src)
    ops = ops_for(src)
    index_dtype = index_dtype or src.dtype
    keys = xp.where(src != dst, ops.packed_keys(src, dst, n), ops.SENTINEL)
    keys, values = unique_keys(keys, values)
    src, dst = ops.unpack_keys(keys, n, index_dtype)
    return src, dst, values
