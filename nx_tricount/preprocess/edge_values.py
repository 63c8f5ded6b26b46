"""Edge values as NetworkX's clustering reads them, on NumPy and CuPy arrays:
the largest edge value (:func:`max_edge_value`, or :func:`largest_kept_value` from
the deduplicated edges), the values normalised by it
(:func:`normalised_values`), a directed graph's arcs merged into undirected pairs
with summed values (:func:`directed_pairs`, for Fagiolo's directed clustering),
and the directions each pair has (:func:`pair_directions`, for directed
transitivity). See docs/algorithms.md, 'Preprocessing'.

On the GPU, int32 or int64 ids and float64 values (the pairs: or int64) go
through kernels compiled ahead (:mod:`.gpu_values`), a distinct-edge graph's
largest value too; the rest is this module's array code, whose CuPy kernels
compile at their first use.
"""

from typing import NamedTuple

import numpy as np

from ..gpu.device import module_of
from . import gpu_values
from .dedup import unique_keys
from .ops import ops_for
from .simplify import simplify_directed

__all__ = [
    "ArcPairs",
    "max_edge_value",
    "largest_kept_value",
    "normalised_values",
    "directed_pairs",
    "pair_directions",
    "oriented_directions",
]


def max_edge_value(src, dst, n, values, *, directed, unique):
    """NetworkX's ``max_weight``: Python's ``max`` over the edges' values, in the
    order of ``G.edges(data=weight, default=1)``.

    Python's ``max`` keeps its first item and takes a later one only when it is
    greater, so a NaN decides only when it is the first edge's value (then the
    result is NaN); a later NaN is never greater and is skipped. The first edge
    of ``G.edges`` is the first one listed at the first node (in id order, which
    is G's node order) that has an edge: the edge of the first row whose lower
    endpoint (undirected) or source (directed) is the smallest; its value is the
    last row's of that edge, as NetworkX keeps the last value of a repeated edge.

    Parameters
    ----------
    src, dst : integer arrays
        Edge rows, duplicates and self-loops allowed, in insertion order.
    n : int
    values : float array
        One value per row; a repeated edge keeps its last row's value.
    directed : bool
        ``u -> v`` and ``v -> u`` are different edges.
    unique : bool
        Each edge has one row (skips the sort).

    Returns
    -------
    float
        The largest value over the edges, self-loops included, NaN where the
        first edge's value is NaN; 1.0 for no rows.
    """
    if src.size == 0:
        return 1.0
    xp = module_of(src)
    if xp is not np and unique and gpu_values.first_edge_applies(src.size, n):
        return gpu_values.max_edge_value(src, dst, values, directed=directed)
    lower = src if directed else xp.minimum(src, dst)
    first = int(xp.argmin(lower))  # the first row of the smallest lower endpoint
    if unique:
        first_value = float(values[first])
        edge_values = values
    else:
        u, v = src[first], dst[first]
        same = (src == u) & (dst == v)
        if not directed:
            same |= (src == v) & (dst == u)
        last = _last_true(same)
        first_value = float(values[last])
    if first_value != first_value:  # NaN first: nothing is greater
        return first_value
    if not unique:
        hi = dst if directed else xp.maximum(src, dst)
        largest = _largest_kept(lower, hi, values)
        if largest is not None:
            return largest
        # A self-loop's key is a real key here: it stays among the edges.
        _, edge_values = unique_keys(ops_for(src).packed_keys(lower, hi, n), values)
    numbers = edge_values[~xp.isnan(edge_values)]
    return float(numbers.max())  # the first value is a number, so numbers is not empty


def largest_kept_value(src, dst, n, values, kept):
    """:func:`max_edge_value` of undirected rows, given ``kept``: the values their
    distinct edges other than self-loops keep (each its last row's, as the
    deduplication leaves them). Where no edge's value is NaN, the first edge's
    value decides nothing and the result is the largest edge value; where no
    self-loop row holds more than the largest of ``kept``, that is it. Two passes
    and one read, where the rows' rule makes a dozen passes over the rows (R-MAT
    22's 67M rows, one H200: 6.7 ms); a NaN, a self-loop holding the largest value,
    or no edge but self-loops take the rows' rule."""
    xp = module_of(values)
    if kept.size:
        loop_values = xp.where(src == dst, values, -xp.inf)
        # NaN wherever one is: NumPy's and CuPy's max propagate it.
        largest, loop_largest = xp.stack([kept.max(), loop_values.max()]).tolist()
        if largest == largest and loop_largest == loop_largest and loop_largest <= largest:
            return largest
    return max_edge_value(src, dst, n, values, directed=False, unique=False)


def normalised_values(values, largest):
    """``cbrt(values / largest)``: NetworkX's weights normalised by
    :func:`max_edge_value` for its geometric means (float64; inf or NaN where
    ``largest`` is 0, where NetworkX raises ZeroDivisionError)."""
    if module_of(values) is not np and values.dtype == np.float64:
        return gpu_values.normalised_values(values, largest)
    with np.errstate(divide="ignore", invalid="ignore"):
        return module_of(values).cbrt(values / largest)


def _last_true(mask):
    """Position of the last True of ``mask``, which has one."""
    xp = module_of(mask)
    # CuPy's argmax of a reversed view is a strided reduction: 51 ms over R-MAT 22's
    # 67M rows on an H100, against 0.5 ms for a copy's.
    backwards = mask[::-1] if xp is np else xp.ascontiguousarray(mask[::-1])
    return mask.size - 1 - int(xp.argmax(backwards))


def _largest_kept(lower, upper, values):
    """The largest number among the rows' values if an edge keeps it, else None.

    An edge keeps the value of its last row. Where no later row repeats the edge
    of the last row holding the largest value, that edge keeps it, and no edge
    keeps more: a few passes over the rows instead of sorting them (R-MAT 22's
    67M rows on an H100: 17 ms). Otherwise the caller sorts.
    """
    xp = module_of(values)
    largest = float(xp.nanmax(values))  # some value is a number (the first edge's)
    held = values == largest
    at = _last_true(held)
    repeated = (lower[at + 1 :] == lower[at]) & (upper[at + 1 :] == upper[at])
    return None if bool(repeated.any()) else largest


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
    on_gpu = xp is not np and gpu_values.pairs_apply(n)
    if on_gpu and (values is None or values.dtype in (np.float64, np.int64)):
        return ArcPairs(*gpu_values.directed_pairs(src, dst, n, values))
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


def pair_directions(src, dst, n):
    """A directed graph's arcs merged into undirected pairs ``lo < hi``, with the
    directions each pair has: bit 0 ``lo -> hi``, bit 1 ``hi -> lo`` (1, 2 or 3).

    Parameters
    ----------
    src, dst : integer arrays
        Arcs ``src -> dst``, duplicates and self-loops allowed (dropped).
    n : int

    Returns
    -------
    ArcPairs
        ``b`` holds the directions (int64); the degrees are :func:`directed_pairs`'.
    """
    xp = module_of(src)
    if xp is not np and gpu_values.pairs_apply(n):
        return ArcPairs(*gpu_values.directed_pairs(src, dst, n, codes=True))
    # Each arc's own bit: the pair's two arcs, when both exist, add up to 3.
    codes = xp.where(src < dst, 1, 2).astype(np.int64)
    return directed_pairs(src, dst, n, codes)


def oriented_directions(directions, arc_src, arc_dst):
    """Each oriented arc ``u -> v``'s directions in the directed graph, bit 0
    ``u -> v`` and bit 1 ``v -> u``, from its pair's :func:`pair_directions`
    (relative to ``lo -> hi``) and its ends in original ids; uint8, so that a
    count reads one byte per arc."""
    xp = module_of(directions)
    swapped = ((directions & 1) << 1) | (directions >> 1)
    return xp.where(arc_src < arc_dst, directions, swapped).astype(np.uint8)
