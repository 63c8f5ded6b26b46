"""The GPU's forms of :mod:`.edge_values`, in kernels compiled ahead
(``kernels/edge_values.cu``): the largest value of a graph whose edges are
distinct, the values normalised, and a directed graph's arcs merged into
undirected pairs (with their values, or the directions each pair has). CuPy's
elementwise arithmetic, masks and gathers would compile at a process's first
weighted or directed clustering; here the work is a few launches around CuPy's
in-place sort and the compactions of :mod:`.gpu_rows`. Only a directed graph's
arcs with values take CuPy's argsort and gathers (compiled at their first use).
:mod:`.edge_values` calls them for int32 or int64 ids and float64 (pairs: or
int64) values, and says what they compute. CuPy is imported on first use.
"""

import numpy as np

from .gpu_rows import ids_of, launch, launch_scan, scan_chunks
from .ops import ops_for

__all__ = [
    "EXTREME_BLOCKS",
    "first_edge_applies",
    "max_edge_value",
    "normalised_values",
    "pairs_apply",
    "directed_pairs",
]

#: Most blocks of the launch that reads the first edge and the largest value (each
#: adds one atomic per extreme).
EXTREME_BLOCKS = 1024

_SOURCE = "edge_values.cu"
_SIGN = 1 << 63
_BITS = (1 << 64) - 1


def first_edge_applies(rows, n):
    """Whether :func:`max_edge_value` takes these edge rows: the first edge's row is
    packed with its lower end into one 64-bit word (ids below 2**31, fewer than
    2**32 rows)."""
    return n <= 2**31 and rows < 2**32


def max_edge_value(src, dst, values, *, directed):
    """:func:`.edge_values.max_edge_value` of distinct edges (``unique``), of
    non-empty rows, in one launch and two reads: the first edge's row with the
    largest number, then the first edge's value."""
    import cupy

    from ..gpu import runtime

    src, dst = ids_of(src, dst)
    values = cupy.ascontiguousarray(values, dtype=np.float64)
    extremes = cupy.zeros(2, dtype=np.uint64)
    kernel = runtime.function(_SOURCE, "edge_value_extremes", vid=src.dtype)
    args = (src, dst, values, np.int64(src.size), np.int32(directed), extremes)
    runtime.launch(kernel, src.size, args, grid=EXTREME_BLOCKS)
    first, largest = extremes.get().tolist()
    first_value = float(values[(~first & _BITS) & 0xFFFFFFFF])
    if first_value != first_value:  # NaN first: nothing is greater
        return first_value
    # Undo the order-keeping map of kernels/edge_values.cu's ordered_bits.
    bits = largest ^ _SIGN if largest & _SIGN else ~largest & _BITS
    return float(np.array(bits, dtype=np.uint64).view(np.float64))


def normalised_values(values, largest):
    """``cbrt(values / largest)`` of float64 values, in one launch."""
    import cupy

    values = cupy.ascontiguousarray(values)
    out = cupy.empty(values.size, dtype=np.float64)
    launch(
        "normalised_values",
        values.size,
        (values, np.int64(values.size), np.float64(largest), out),
        source=_SOURCE,
    )
    return out


def pairs_apply(n):
    """Whether :func:`directed_pairs` takes a graph of ``n`` vertices: its keys pack
    an arc's ends and direction into one int64 while ids fit in 31 bits."""
    return n <= 2**31


def directed_pairs(src, dst, n, values=None, *, codes=False):
    """:func:`.edge_values.directed_pairs` as its tuple of fields, ``n`` within
    :func:`pairs_apply`: the rows' direction keys sorted (with ``values``, their
    stable order gathered), then one launch reads the arcs and their pairs and a
    stable compaction keeps the pairs in key order. ``values``: float64 or int64,
    or None (every arc 1, or with ``codes`` its direction's code: 1 along
    ``lo -> hi``, 2 against; int64)."""
    import cupy

    dtype = src.dtype  # the pairs' ends come in the rows' id type, as on the CPU
    src, dst = ids_of(src, dst)
    m = src.size
    keys = cupy.empty(m, dtype=np.int64)
    launch("direction_keys", m, (src, dst, np.int64(m), keys), vid=src.dtype, source=_SOURCE)
    if values is None:
        keys.sort()
    else:
        order = cupy.argsort(keys)  # stable: an arc's last row stays last in its run
        keys, values = keys[order], cupy.ascontiguousarray(values)[order]
    weight = np.int64 if values is None else values.dtype
    kept, run_values = cupy.empty(m, dtype=bool), cupy.empty(m, dtype=weight)
    total_degree, reciprocal_degree = cupy.zeros(n, dtype=np.uint64), cupy.zeros(n, dtype=np.uint64)
    count = cupy.zeros(1, dtype=np.uint64)
    degrees = (total_degree, reciprocal_degree)
    args = (keys, np.int64(m), values, np.int32(codes), kept, run_values, *degrees, count)
    launch("direction_runs", m, args, weight=weight, source=_SOURCE)
    pairs = int(count.get()[0])
    pair_keys, b = cupy.empty(pairs, dtype=np.int64), cupy.empty(pairs, dtype=weight)
    if pairs:
        blocks, chunk = scan_chunks(m)
        totals = cupy.empty(blocks, dtype=np.int64)
        launch_scan("kept_totals", blocks, (kept, np.int64(m), np.int64(chunk), totals))
        scan = (np.int64(m), np.int64(n), np.int64(chunk), totals, pair_keys, b)
        launch_scan("kept_pairs", blocks, (keys, kept, run_values, *scan), source=_SOURCE)
    lo, hi = ops_for(pair_keys).unpack_keys(pair_keys, n, dtype)
    return lo, hi, b, total_degree.view(np.int64), reciprocal_degree.view(np.int64)
