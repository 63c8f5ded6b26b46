"""Edge values as NetworkX's clustering reads them, on NumPy and CuPy arrays:
the largest edge value (:func:`max_edge_value`), and a directed graph's arcs
merged into undirected pairs with summed values (:func:`directed_pairs`, for
Fagiolo's directed clustering). See docs/algorithms.md, 'Preprocessing'.
"""

from typing import NamedTuple

import numpy as np

from ..device import module_of
from .ops import ops_for
from .simplify import simplify_directed, unique_keys

__all__ = ["ArcPairs", "max_edge_value", "directed_pairs"]


def max_edge_value(src, dst, n, values, *, directed, unique):
    """NetworkX's ``max_weight``: the largest value over the graph's edges.

    Parameters
    ----------
    src, dst : integer arrays
        Edge rows, duplicates and self-loops allowed.
    n : int
    values : array
        One value per row; a repeated edge keeps its last row's value.
    directed : bool
        ``u -> v`` and ``v -> u`` are different edges.
    unique : bool
        Each edge has one row (skips the sort).

    Returns
    -------
    float
        The largest value over the edges, self-loops included; 1.0 for no rows.
    """
    if src.size == 0:
        return 1.0
    if unique:
        return float(values.max())
    xp = module_of(src)
    if not directed:
        src, dst = xp.minimum(src, dst), xp.maximum(src, dst)
    # A self-loop's key is a real key here: it stays among the edges.
    _, last_values = unique_keys(ops_for(src).packed_keys(src, dst, n), values)
    return float(last_values.max())


class ArcPairs(NamedTuple):
    """The arcs of a simple directed graph merged into undirected pairs.

    Attributes
    ----------
    lo, hi : arrays
        Each pair once, ``lo < hi``, sorted by ``(lo, hi)``.
    b : array
        The value of each pair: the sum of its one or two arcs' values.
    total_degree : int64 array
        In-degree plus out-degree of every vertex.
    reciprocal_degree : int64 array
        The number of reciprocal pairs (both arcs present) at every vertex.
    """

    lo: object
    hi: object
    b: object
    total_degree: object
    reciprocal_degree: object


def directed_pairs(src, dst, n, values=None):
    """Merge the arcs of a directed edge list into undirected pairs.

    Parameters
    ----------
    src, dst : integer arrays
        Arcs ``src -> dst``, duplicates and self-loops allowed (dropped; a
        repeated arc keeps its last row's value).
    n : int
    values : array, optional
        One value per row; None counts every arc as 1 (int64).

    Returns
    -------
    ArcPairs
    """
    xp = module_of(src)
    ops = ops_for(src)
    if values is None:
        values = xp.ones(src.size, dtype=np.int64)
    arc_src, arc_dst, values = simplify_directed(src, dst, n, values)
    total_degree = ops.endpoint_counts(arc_src, arc_dst, n, a_sorted=True)  # arcs come sorted
    keys = ops.edge_keys(arc_src, arc_dst, n)  # no self-loops are left
    order = xp.argsort(keys)
    keys, values = keys[order], values[order]
    # Each pair has one or two arcs: add the second arc's value to the first's.
    first = xp.ones(keys.size, dtype=bool)
    first[1:] = keys[1:] != keys[:-1]
    starts = xp.flatnonzero(first)
    second = xp.zeros(keys.size, dtype=bool)
    second[:-1] = keys[1:] == keys[:-1]
    reciprocal = second[starts]
    b = values[starts] + xp.where(reciprocal, values[xp.minimum(starts + 1, keys.size - 1)], 0)
    lo, hi = ops.unpack_keys(keys[starts], n, arc_src.dtype)
    reciprocal_degree = ops.endpoint_counts(lo[reciprocal], hi[reciprocal], n, a_sorted=True)
    return ArcPairs(lo, hi, b, total_degree, reciprocal_degree)
