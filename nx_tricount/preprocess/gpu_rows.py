"""The GPU preprocessing's launches of ``kernels/edge_rows.cu``, and its sorts and
stable compactions, made of kernels compiled ahead and CuPy's in-place sort.

CuPy compiles its own elementwise kernels (arithmetic, casts, copies, gathers,
masks) at a process's first use of each: a fresh install's first call would wait
for them. ``cupy.sort``, ``cupy.argsort`` and ``cupy.cumsum`` copy their input
with such a kernel before calling the sorts and scans CuPy ships compiled, so
this module copies keys with a plain device copy and sorts them in place
(``ndarray.sort``: Thrust), and compacts arrays by a chunked scan of its own (two
launches of one grid, ``kernels/common.cu``). Ids of one type, int32 or int64, run
as they are; others are converted to int64 first, by CuPy. CuPy is imported on
first use.
"""

import numpy as np

from .dedup import SimpleGraph, index_dtype

__all__ = [
    "SCAN_BLOCKS",
    "launch",
    "launch_scan",
    "ids_of",
    "scan_chunks",
    "queue_prefix_sums",
    "sorted_copy",
    "loop_free",
    "compact_kept",
    "kept_edges",
    "keys_by_range",
]

#: Ranges one pair of :func:`keys_by_range`'s launches fills: the kernels' own
#: ``RANGES_PER_LAUNCH`` (``kernels/edge_rows.cu``), which sizes their counters.
RANGES_PER_LAUNCH = 8

#: Most blocks of a chunked scan's two launches: each block adds up the totals of
#: the blocks before its chunk. 4096 fill an H200's multiprocessors more evenly
#: than 1024 did: keys_by_range of 358M keys in 5.1 ms against 6.1.
SCAN_BLOCKS = 4096


def launch(name, items, args, *, vid=np.int32, weight=np.float64, source="edge_rows.cu"):
    """Launch kernel ``name`` of ``kernels/<source>`` for ids of ``vid`` and values
    of ``weight``, one thread per item."""
    from ..gpu import runtime

    runtime.launch(runtime.function(source, name, vid=vid, weight=weight), items, args)


def launch_scan(name, blocks, args, *, vid=np.int32, source="edge_rows.cu", **types):
    """Launch one of a chunked scan's kernels on ``blocks`` blocks (:func:`scan_chunks`)."""
    from ..gpu import runtime

    kernel = runtime.function(source, name, vid=vid, **types)
    runtime.launch(kernel, blocks * runtime.THREADS, args, grid=blocks)


def queue_prefix_sums(name, items, args, out, *, source, **types):
    """Queue the two launches of a chunked scan over ``items`` whose kernels
    ``<name>_totals`` and ``<name>_scan`` take ``args``, then the scan's ``(items,
    chunk, totals)`` (the second also ``out``, where it writes the prefix sums): no
    read, two launches where ``cupy.cumsum`` took 90 us of host time."""
    import cupy

    blocks, chunk = scan_chunks(items)
    scan = (np.int64(items), np.int64(chunk), cupy.empty(blocks, dtype=np.int64))
    launch_scan(f"{name}_totals", blocks, (*args, *scan), source=source, **types)
    launch_scan(f"{name}_scan", blocks, (*args, *scan, out), source=source, **types)


def scan_chunks(items):
    """``(blocks, chunk)`` of a chunked scan over ``items``: block ``b`` takes the
    items ``b * chunk`` to ``(b + 1) * chunk``."""
    from ..gpu import runtime

    blocks = max(1, min(SCAN_BLOCKS, -(-items // runtime.THREADS)))
    return blocks, max(1, -(-items // blocks))


def ids_of(*arrays):
    """The id arrays, contiguous and of one type the kernels take: as they are when
    they share int32 or int64, else all converted to int64."""
    import cupy

    dtype = arrays[0].dtype
    if dtype not in (np.int32, np.int64) or any(a.dtype != dtype for a in arrays):
        return tuple(cupy.ascontiguousarray(a, dtype=np.int64) for a in arrays)
    return tuple(cupy.ascontiguousarray(a) for a in arrays)


def sorted_copy(keys):
    """The int64 ``keys`` sorted, in a copy (``keys`` stay as they are)."""
    import cupy

    keys = cupy.ascontiguousarray(keys)
    ordered = cupy.empty_like(keys)
    if keys.size:
        ordered.data.copy_from_device_async(keys.data, keys.nbytes)
    ordered.sort()
    return ordered


def loop_free(src, dst, n, values=None):
    """The :class:`~.dedup.SimpleGraph` of the rows of a graph whose edges are
    distinct: the rows that are no self-loop, in their order, as ``lo = min`` and
    ``hi = max`` of ids of :func:`~.dedup.index_dtype`, their values (8-byte, or
    None) and the degrees; one synchronisation (reading the number of edges)."""
    import cupy

    src, dst = ids_of(src, dst)
    m, dtype = src.size, index_dtype(n)
    blocks, chunk = scan_chunks(m)
    totals = cupy.empty(blocks, dtype=np.int64)
    scan = (np.int64(m), np.int64(chunk), totals)
    launch_scan("loop_free_totals", blocks, (src, dst, *scan), vid=src.dtype)
    lo, hi = cupy.empty(m, dtype=dtype), cupy.empty(m, dtype=dtype)
    degree = cupy.zeros(n, dtype=np.uint64)  # atomicAdd has no signed 64-bit form
    kept = None
    if values is not None:
        values = cupy.ascontiguousarray(values)
        kept = cupy.empty_like(values)
    args = (src, dst, values, *scan, lo, hi, kept, degree)  # None: a null pointer
    name = "loop_free_rows_int" if dtype == np.int32 else "loop_free_rows_long"
    launch_scan(name, blocks, args, vid=src.dtype)
    edges = int(totals.get().sum())
    kept = None if kept is None else kept[:edges]
    return SimpleGraph(n, lo[:edges], hi[:edges], degree.view(np.int64), kept)


def compact_kept(keys, kept, count=None):
    """``keys[kept]`` (int64 keys, a bool mask of which ``count`` hold), in order;
    without ``count``, the mask's count is read from the scan's block totals (one
    transfer)."""
    import cupy

    m = keys.size
    blocks, chunk = scan_chunks(m)
    totals = cupy.empty(blocks, dtype=np.int64)
    if count is None or count:
        launch_scan("kept_totals", blocks, (kept, np.int64(m), np.int64(chunk), totals))
    out = cupy.empty(int(totals.get().sum()) if count is None else count, dtype=np.int64)
    if out.size:
        launch_scan("kept_keys", blocks, (keys, kept, np.int64(m), np.int64(chunk), totals, out))
    return out


def kept_edges(ordered, kept, order, values, edges, n):
    """The ``edges`` kept of the keys ``ordered`` (the rows' keys in the order of
    their stable argsort ``order``) as ends ``lo, hi`` of
    :func:`~.dedup.index_dtype`, each with the 8-byte value of its last row: one
    stable compaction, which gathers the kept rows' values alone."""
    import cupy

    m, dtype = ordered.size, index_dtype(n)
    lo, hi = cupy.empty(edges, dtype=dtype), cupy.empty(edges, dtype=dtype)
    kept_values = cupy.empty(edges, dtype=values.dtype)
    if edges:
        blocks, chunk = scan_chunks(m)
        totals = cupy.empty(blocks, dtype=np.int64)
        launch_scan("kept_totals", blocks, (kept, np.int64(m), np.int64(chunk), totals))
        name = "kept_edges_int" if dtype == np.int32 else "kept_edges_long"
        args = (ordered, kept, order, cupy.ascontiguousarray(values), np.int64(m), np.int64(n))
        launch_scan(name, blocks, (*args, np.int64(chunk), totals, lo, hi, kept_values))
    return lo, hi, kept_values


def keys_by_range(keys, splitters):
    """The int64 ``keys`` of each range cut by the ascending ``splitters`` (Python
    ints; :data:`~.dedup.SENTINEL` keys in none), each in order: a chunked
    compaction into :data:`RANGES_PER_LAUNCH` ranges at once, and one
    synchronisation for their sizes. A compaction per range would read the keys
    twice a range: two ranges of R-MAT 25's half took 5.4 ms so on an H200, 4.3
    at once."""
    import cupy

    keys = cupy.ascontiguousarray(keys)
    cuts = cupy.asarray(splitters, dtype=np.int64)
    m = keys.size
    blocks, chunk = scan_chunks(m)
    ranges = []
    for first in range(0, len(splitters) + 1, RANGES_PER_LAUNCH):
        count = min(RANGES_PER_LAUNCH, len(splitters) + 1 - first)
        common = (keys, np.int64(m), cuts, np.int32(len(splitters)), np.int32(first), np.int32(count))
        common += (np.int64(chunk),)
        totals = cupy.empty(count * blocks, dtype=np.int64)
        launch_scan("range_totals", blocks, (*common, totals))
        sizes = totals.reshape(count, blocks).sum(axis=1).get()
        outs = [cupy.empty(int(size), dtype=np.int64) for size in sizes]
        pointers = cupy.asarray([out.data.ptr for out in outs], dtype=np.uint64)
        if m:
            launch_scan("range_keys", blocks, (*common, totals, pointers))
        ranges.extend(outs)
    return ranges
