"""The preprocessing's primitives on CuPy arrays: the functions of
:mod:`.host_ops`, with the same signatures and results, each in one or two
launches (docs/algorithms.md, 'GPU preprocessing: one launch per step').

None of them synchronises unless it returns a number to the host: the host keeps
queuing while the GPU works. Their CUDA lives in ``kernels/`` and is compiled
ahead at install time: ``edge_rows.cu`` (a pass over rows, ids or keys, launched
through :mod:`.gpu_rows`, which also sorts and compacts without CuPy's kernels
compiled at run time), ``distinct.cu`` and ``csr.cu``. The deduplication's GPU
shortcut is here only: :class:`KeptKeysGraph`. CuPy is imported on first use, as
in :mod:`nx_tricount.gpu.runtime`.
"""

import sys

import numpy as np

from . import host_ops
from .dedup import SENTINEL, SimpleGraph, deduplicated, index_dtype  # noqa: F401  (SENTINEL: of the seam)
from .gpu_rows import (
    compact_kept,
    ids_of,
    kept_edges,
    keys_by_range,  # noqa: F401  (of the seam: host_ops.keys_by_range)
    launch,
    loop_free,
    sorted_copy,
)

__all__ = [*host_ops.__all__, "KeptKeysGraph"]


def edge_keys(src, dst, n):
    """Keys of the undirected edges ``min - max``, :data:`SENTINEL` for self-loops."""
    import cupy

    src, dst = ids_of(src, dst)
    keys = cupy.empty(src.size, dtype=np.int64)
    launch("edge_keys", src.size, (src, dst, np.int64(src.size), np.int64(n), keys), vid=src.dtype)
    return keys


def packed_keys(a, b, n):
    """Keys of the pairs ``(a, b)`` (int64, sorting like the pairs)."""
    import cupy

    a, b = ids_of(a, b)
    keys = cupy.empty(a.size, dtype=np.int64)
    launch("packed_keys", a.size, (a, b, np.int64(a.size), np.int64(n), keys), vid=a.dtype)
    return keys


def unpack_keys(keys, n, dtype):
    """The pairs of ``keys`` (no :data:`SENTINEL`), as two arrays of ``dtype``."""
    import cupy

    vid = np.dtype(dtype) if np.dtype(dtype) in (np.int32, np.int64) else np.dtype(np.int64)
    a = cupy.empty(keys.size, dtype=vid)
    b = cupy.empty(keys.size, dtype=vid)
    args = (cupy.ascontiguousarray(keys), np.int64(keys.size), np.int64(n), a, b)
    launch("unpack_keys", keys.size, args, vid=vid)
    if vid != np.dtype(dtype):
        return a.astype(dtype), b.astype(dtype)
    return a, b


def endpoint_counts(a, b, n, *, a_sorted=False):
    """Occurrences of each id in ``0..n-1`` in ``a`` and ``b`` together (int64),
    in one launch; with ``a_sorted``, one atomic per run of ``a`` instead of per row."""
    import cupy

    a, b = ids_of(a, b)
    counts = cupy.zeros(n, dtype=np.uint64)  # atomicAdd has no signed 64-bit form
    launch("endpoint_counts", a.size, (a, b, np.int64(a.size), np.int32(a_sorted), counts), vid=a.dtype)
    return counts.view(np.int64)


def vertex_counts(ids, n, weights=None):
    """Occurrences of each id in ``0..n-1`` (int64), or sums of ``weights``
    (float64), by atomic adds: CuPy's bincount synchronises and serialises on
    sorted ids."""
    import cupy

    (ids,) = ids_of(ids)
    if weights is None:
        counts = cupy.zeros(n, dtype=np.uint64)
        launch("vertex_counts", ids.size, (ids, np.int64(ids.size), counts), vid=ids.dtype)
        return counts.view(np.int64)
    sums = cupy.zeros(n, dtype=np.float64)
    weights = cupy.ascontiguousarray(weights, dtype=np.float64)
    launch("vertex_sums", ids.size, (ids, weights, np.int64(ids.size), sums), vid=ids.dtype)
    return sums


#: Most blocks of sampled_degree_sum's launch (each builds the samples' table), and
#: most samples (half the slots of kernels/sample.cu's table).
SAMPLE_BLOCKS = 512
MAX_SAMPLES = 1024


def sampled_degree_sum(src, dst, samples):
    """:func:`.host_ops.sampled_degree_sum` in one launch (``kernels/sample.cu``) on
    a stream of its own, beside the current stream's later work. Each block writes
    its sum to pinned host memory, which the kernel reaches directly (unified
    addressing): the function it returns waits for that launch alone and adds the
    blocks' sums, so the work queued on the current stream meanwhile is not waited
    for, and no zeroed sum or copy costs host time."""
    import cupy

    from ..gpu import runtime

    if not 0 < samples <= MAX_SAMPLES:
        raise ValueError(f"samples must be from 1 to {MAX_SAMPLES}, got {samples}")
    if src.dtype != dst.dtype or src.dtype not in (np.int32, np.int64):
        src, dst = src.astype(np.int64), dst.astype(np.int64)
    side = runtime.side_stream(cupy.cuda.Device().id)
    side.wait_event(cupy.cuda.get_current_stream().record())  # src and dst are ready
    kernel = runtime.function("sample.cu", "sampled_degree_sum", vid=src.dtype)
    skip = host_ops.counted_chunk_skip(src.size)
    blocks = min(SAMPLE_BLOCKS, max(1, -(-src.size // (skip * runtime.THREADS))))
    partials = cupy.cuda.alloc_pinned_memory(8 * blocks)
    with side:
        # The pinned buffer's address is the kernel's pointer: passed as its 64 bits.
        args = (src, dst, np.int64(src.size), np.int32(samples), np.int64(skip), np.uint64(partials.ptr))
        runtime.launch(kernel, blocks * runtime.THREADS, args)
        done = side.record()

    # The rows stay referenced until the kernel is done: freed earlier, the current
    # stream could reuse their memory while the side stream reads it.
    in_use = [src, dst]

    def read():
        done.synchronize()
        in_use.clear()
        return skip * int(np.frombuffer(partials, dtype=np.uint64, count=blocks).sum())

    return read


#: Blocks of pair_sum's launch: an H100 filled several times, and as many atomics.
PAIR_SUM_BLOCKS = 1024


def pair_sum(degree):
    """``sum(d (d - 1))`` over an int64 array of degrees, exact: the terms' high
    and low 32 bits summed apart, in one launch (``kernels/pairs.cu``), queued
    and copied to pinned memory behind it. Returns a
    :class:`~nx_tricount.gpu.transfers.PendingPairSum`: ``int()`` reads it, waiting
    only for the work queued before this call."""
    import cupy

    from ..gpu import runtime, transfers

    degree = cupy.ascontiguousarray(degree, dtype=np.int64)
    halves = cupy.zeros(2, dtype=np.uint64)
    if degree.size:
        kernel = runtime.function("pairs.cu", "pair_sum_halves")
        runtime.launch(kernel, degree.size, (degree, np.int64(degree.size), halves), grid=PAIR_SUM_BLOCKS)
    return transfers.PendingPairSum(halves)


def csr_of_sorted_keys(keys, n, dtype, arcs):
    """The CSR of sorted arc keys, of which the first ``arcs`` are arcs and the
    rest :data:`SENTINEL`: one launch of ``kernels/csr.cu``. ``arcs`` may be a
    :class:`~nx_tricount.gpu.transfers.PendingCount`, read after the launch.

    Returns
    -------
    indptr : int64 array, length n + 1
    indices, rows : arrays of ``dtype``
    """
    import cupy

    from ..gpu import runtime

    m = keys.size
    rows = cupy.empty(m, dtype=dtype)
    indices = cupy.empty(m, dtype=dtype)
    indptr = cupy.empty(n + 1, dtype=np.int64)
    csr = runtime.function("csr.cu", "csr_of_sorted_keys", vid=dtype)
    runtime.launch(csr, max(m, n + 1), (keys, np.int64(m), np.int64(n), rows, indices, indptr))
    arcs = int(arcs)
    return indptr, indices[:arcs], rows[:arcs]


#: Arcs whose rows one thread of ``rows_of``'s kernel writes (``kernels/csr.cu``),
#: a block apart: a block's two searches cover this many arcs a thread.
ROWS_SPAN = 8


def rows_of(indptr, dtype, out=None):
    """:func:`.host_ops.rows_of` in one launch of ``kernels/csr.cu``, into ``out``
    when given (then without reading the arcs' count back)."""
    import cupy

    from ..gpu import runtime

    indptr = cupy.ascontiguousarray(indptr, dtype=np.int64)
    rows = cupy.empty(int(indptr[-1]), dtype=dtype) if out is None else out
    kernel = runtime.function("csr.cu", "rows_of_pointers", vid=dtype)
    args = (indptr, np.int64(indptr.size - 1), np.int64(rows.size), np.int64(ROWS_SPAN), rows)
    runtime.launch(kernel, -(-rows.size // ROWS_SPAN), args)
    return rows


def ascending_order(keys):
    """:func:`.host_ops.ascending_order`: CuPy's stable argsort (a radix sort)."""
    import cupy

    return cupy.argsort(keys, kind="stable")


def sorted_keys(keys, values=None):
    """:func:`.host_ops.sorted_keys`: a copy of the keys sorted in place (Thrust);
    with values, an argsort and its gathers (:func:`csr_of_keys` places 8-byte
    values without them)."""
    if values is None:
        return sorted_copy(keys), None
    order = keys.argsort()
    return keys[order], values[order]


def csr_of_keys(keys, n, dtype, arcs, values=None):
    """:func:`.host_ops.csr_of_keys`: 8-byte values are put at their arcs once the
    CSR is built, each by a search of its target within its row (``values_by_arc``)."""
    import cupy

    from ..gpu import runtime

    if values is not None and values.itemsize != 8:
        keys, values = sorted_keys(keys, values)
        return (*csr_of_sorted_keys(keys, n, dtype, arcs), values)
    ordered, _ = sorted_keys(keys)
    indptr, indices, rows = csr_of_sorted_keys(ordered, n, dtype, arcs)
    if values is None:
        return indptr, indices, rows, None
    placed = cupy.empty(indices.size, dtype=values.dtype)
    kernel = runtime.function("csr.cu", "values_by_arc", vid=dtype)
    args = (keys, cupy.ascontiguousarray(values), np.int64(keys.size), np.int64(n), indptr, indices, placed)
    runtime.launch(kernel, keys.size, args)
    return indptr, indices, rows, placed


def oriented_keys(how, simple, rank=None):
    """:func:`.host_ops.oriented_keys` in one launch; on a :class:`KeptKeysGraph`,
    straight from its sorted keys: the keys of the rows that are not edges are
    then :data:`SENTINEL`, and ``arcs`` its pending edge count."""
    import cupy

    ranks = () if rank is None else (rank,)
    if isinstance(simple, KeptKeysGraph):
        name, edges, arcs = "oriented_kept_keys", (simple.keys, simple.kept), simple.count
        ranks = ids_of(*ranks) if ranks else ()
        vid = ranks[0].dtype if ranks else np.int32
    else:
        name, arcs = "oriented_keys", None
        lo, hi, *ranks = ids_of(simple.lo, simple.hi, *ranks)
        edges, vid = (lo, hi), lo.dtype
    degree = cupy.ascontiguousarray(simple.degree, dtype=np.int64) if how == "degree" else None
    m = edges[0].size
    keys = cupy.empty(m, dtype=np.int64)
    # None: a null pointer, which the kernel reads only with relabel or by_degree.
    args = (
        *edges,
        np.int64(m),
        ranks[0] if ranks else None,
        degree,
        np.int32(bool(ranks)),
        np.int32(how == "degree"),
        np.int64(simple.n),
        keys,
    )
    launch(name, m, args, vid=vid)
    return keys, m if arcs is None else arcs


def deduplicate(src, dst, n, *, values=None, unique=False):
    """:func:`.host_ops.deduplicate`. Unweighted, without its compaction: a
    :class:`KeptKeysGraph`, with no synchronisation. Edges known to be distinct
    (``unique``) lose their self-loops in a stable compaction, their 8-byte values
    with them (:func:`~.gpu_rows.loop_free`); other rows with 8-byte values go
    through :func:`valued_graph`."""
    if unique and (values is None or values.itemsize == 8):
        return loop_free(src, dst, n, values)
    if values is not None and values.itemsize == 8:
        return valued_graph(src, dst, n, values)
    if values is not None or unique:
        return deduplicated(sys.modules[__name__], src, dst, n, values=values, unique=unique)
    return distinct_keys_graph(edge_keys(src, dst, n), n)


def valued_graph(src, dst, n, values):
    """The :class:`~.dedup.SimpleGraph` of rows with 8-byte values, each edge with
    its last row's: a stable argsort, the distinct keys marked with their degrees
    as without values, then one compaction to the ends and values
    (:func:`~.gpu_rows.kept_edges`). One synchronisation."""
    import cupy

    keys = edge_keys(src, dst, n)
    order = cupy.argsort(keys, kind="stable")  # a repeated edge's last row stays last
    ordered = keys[order]
    kept, degree, count = _distinct_and_degrees(ordered, n)
    lo, hi, kept_values = kept_edges(ordered, kept, order, values, int(count), n)
    return SimpleGraph(n, lo, hi, degree, kept_values)


def oriented_csr(how, simple, rank, dtype):
    """:func:`.host_ops.oriented_csr`: the CSR of the sorted :func:`oriented_keys`."""
    keys, arcs = oriented_keys(how, simple, rank)
    keys, _ = sorted_keys(keys)
    return csr_of_sorted_keys(keys, simple.n, dtype, arcs)


def distinct_keys_graph(keys, n):
    """:func:`.host_ops.distinct_keys_graph`: the keys sorted in place (cupy.sort
    would copy them first) and their distinct ones marked, without the compaction:
    a :class:`KeptKeysGraph`, with no synchronisation."""
    keys.sort()
    kept, degree, count = _distinct_and_degrees(keys, n)
    return KeptKeysGraph(n, keys, kept, degree, count)


class KeptKeysGraph(SimpleGraph):
    """A :class:`~.dedup.SimpleGraph` on the GPU before its deduplication's
    compaction; ``lo`` and ``hi`` are compacted when first read, and
    :func:`oriented_keys` reads the sorted keys directly.

    Attributes
    ----------
    keys : int64 array
        :func:`edge_keys` of every row of the edge list, sorted.
    kept : bool array
        Which of ``keys`` are the distinct edges.
    count : :class:`~nx_tricount.gpu.transfers.PendingCount`
        The number of edges, which ``int()`` (and :attr:`m`) waits for.
    """

    # lo and hi are computed, so SimpleGraph.__init__ (which assigns them) is not called.
    def __init__(self, n, keys, kept, degree, count):  # pylint: disable=super-init-not-called
        self.n = n
        self.keys, self.kept, self.count = keys, kept, count
        self.degree = degree
        self.values = None
        self._edges = None

    @property
    def lo(self):
        return self._compacted()[0]

    @property
    def hi(self):
        return self._compacted()[1]

    @property
    def m(self):
        """Number of edges."""
        return int(self.count)

    def _compacted(self):
        if self._edges is None:
            distinct = compact_kept(self.keys, self.kept, self.m)
            self._edges = unpack_keys(distinct, self.n, index_dtype(self.n))
        return self._edges


def _distinct_and_degrees(keys, n):
    """Mark the distinct keys of sorted ``keys`` (without :data:`SENTINEL`), count
    the degrees of the pairs they pack and how many there are: one launch of
    ``kernels/distinct.cu``, and no synchronisation.

    Returns
    -------
    kept : bool array
        True at the last key of each run of equal keys, unless :data:`SENTINEL`.
    degree : int64 array
    count : :class:`~nx_tricount.gpu.transfers.PendingCount`
        The number of distinct keys.
    """
    import cupy

    from ..gpu import runtime, transfers

    m = keys.size
    degree = cupy.zeros(n, dtype=np.uint64)
    kept = cupy.empty(m, dtype=bool)
    counter = cupy.zeros(1, dtype=np.uint64)
    if m:
        distinct = runtime.function("distinct.cu", "distinct_edges")
        runtime.launch(distinct, m, (keys, np.int64(m), np.int64(n), kept, degree, counter))
        _add_high_ends(keys, kept, n, degree)
    return kept, degree.view(np.int64), transfers.PendingCount(counter)


#: Most vertices whose high ends :func:`_add_high_ends` counts in 32 bits (a simple
#: graph's degrees are below n).
NARROW_COUNTS_UP_TO = 2**32


def _add_high_ends(keys, kept, n, degree):
    """Add to ``degree`` the high end of each kept key, in passes over ranges of
    counters about the size of the GPU's L2 cache, each a launch over every key,
    in 32-bit counters where ``n`` allows. The atomics of one pass over all the
    64-bit counters mostly missed the cache: on R-MAT 25 (5.4e8 keys, 3.4e7
    vertices) on an H200, 16 ms against 11 in three passes of 32-bit counters."""
    import cupy

    from ..gpu import runtime

    wide = n > NARROW_COUNTS_UP_TO
    counts = degree if wide else cupy.zeros(n, dtype=np.uint32)
    cache = runtime.device_properties()["l2CacheSize"]
    passes = max(1, -(-counts.nbytes // cache))
    kernel = runtime.function("distinct.cu", "high_end_counts_wide" if wide else "high_end_counts")
    for k in range(passes):
        low, high = n * k // passes, n * (k + 1) // passes
        args = (keys, kept, np.int64(keys.size), np.int64(n), np.int64(low), np.int64(high), counts)
        runtime.launch(kernel, keys.size, args)
    if not wide:
        runtime.launch(runtime.function("distinct.cu", "add_counts"), n, (counts, np.int64(n), degree))


def scatter_add(target, index, values):
    """``target[index] += values`` in place, repeated indices adding up (atomics)."""
    import cupy

    cupy.add.at(target, index, values)


#: Most blocks of id_range's launch, each writing its least and greatest id.
RANGE_BLOCKS = 1024


def id_range(src, dst):
    """The smallest and the largest id of two non-empty id arrays, as Python ints:
    int32 or int64 ids of one type in one launch (``kernels/id_range.cu``) that
    writes to pinned host memory, others by CuPy's reductions, read one by one."""
    import cupy

    from ..gpu import runtime

    if src.dtype != dst.dtype or src.dtype not in (np.int32, np.int64):
        return min(int(src.min()), int(dst.min())), max(int(src.max()), int(dst.max()))
    blocks = min(RANGE_BLOCKS, -(-src.size // runtime.THREADS))
    extremes = cupy.cuda.alloc_pinned_memory(16 * blocks)
    kernel = runtime.function("id_range.cu", "id_range", vid=src.dtype)
    args = (src, dst, np.int64(src.size), np.uint64(extremes.ptr))  # the pinned address
    runtime.launch(kernel, src.size, args, grid=RANGE_BLOCKS)
    cupy.cuda.get_current_stream().synchronize()
    values = np.frombuffer(extremes, dtype=np.int64, count=2 * blocks)
    return int(values[0::2].min()), int(values[1::2].max())
