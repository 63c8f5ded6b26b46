"""Dedup and self-loop removal: any edge list becomes a simple graph
(:class:`~.dedup.SimpleGraph`), what every preprocessing starts from, on the
primitives of the arrays' device (:func:`.ops.ops_for`); :mod:`.dedup` has how.
"""

from ..gpu.device import module_of
from .dedup import SENTINEL, distinct_edges, unique_keys
from .ops import ops_for

__all__ = [
    "simple_graph",
    "simplify_undirected",
    "simplify_directed",
]


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


def simplify_undirected(src, dst, n, values=None, index_dtype=None, unique=False):
    """Each undirected edge of an edge list once, ``lo < hi``: :func:`.dedup.distinct_edges`
    (same parameters but ``ops``, same returns) with the primitives of the arrays' device."""
    return distinct_edges(ops_for(src), src, dst, n, values, index_dtype, unique)


def simplify_directed(src, dst, n, values=None, index_dtype=None):
    """Return the simple directed graph (unique arcs, no self-loops), sorted by (src, dst).

    Same parameters and returns as :func:`simplify_undirected`, with arcs kept in
    their direction.
    """
    xp = module_of(src)
    ops = ops_for(src)
    index_dtype = index_dtype or src.dtype
    keys = xp.where(src != dst, ops.packed_keys(src, dst, n), SENTINEL)
    keys, values = unique_keys(keys, values)
    src, dst = ops.unpack_keys(keys, n, index_dtype)
    return src, dst, values
