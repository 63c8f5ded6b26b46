"""The preprocessing's primitives on CuPy arrays: the functions of
:mod:`.host_ops`, with the same signatures and results, each in one or two
launches (docs/algorithms.md, 'GPU preprocessing: one launch per step').

None of them synchronises unless it returns a number to the host: the host keeps
queuing while the GPU works. Their CUDA lives in ``kernels/``: ``keys.cu`` (the
key packing, also the ElementwiseKernels' preamble), ``distinct.cu`` and
``csr.cu``. The deduplication's GPU shortcut is here only:
:class:`KeptKeysGraph`. CuPy is imported on first use, as in
:mod:`nx_tricount.runtime`.
"""

import functools
from importlib.resources import files

import numpy as np

from . import host_ops
from .host_ops import SENTINEL
from .simplify import SimpleGraph, index_dtype

__all__ = [*host_ops.__all__, "KeptKeysGraph"]


@functools.cache
def _kernels():
    import cupy

    preamble = files("nx_tricount.kernels").joinpath("keys.cu").read_text()

    def kernel(inputs, outputs, body, name):
        return cupy.ElementwiseKernel(inputs, outputs, body, f"nx_tricount_{name}", preamble=preamble)

    return {
        # ElementwiseKernels where CuPy types T, U, V from each call's dtypes
        # (int32/int64 ids, uint64/float64 counters), which a RawModule would
        # compile per combination by hand.
        "edge_keys": kernel(
            "T src, U dst, int64 n",
            "int64 key",
            """
            long long lo = src < dst ? src : dst, hi = src < dst ? dst : src;
            key = lo == hi ? KEY_SENTINEL : pack_key(lo, hi, n);
            """,
            "edge_keys",
        ),
        "pack": kernel("T a, U b, int64 n", "int64 key", "key = pack_key(a, b, n);", "pack"),
        "unpack": kernel(
            "int64 key, int64 n",
            "T a, T b",
            "long long x, y; unpack_key(key, n, x, y); a = x; b = y;",
            "unpack",
        ),
        "oriented_keys": kernel(
            "T lo, T hi, raw R rank, raw D degree, int32 relabel, int32 by_degree, int64 n",
            "int64 key",
            "key = arc_key(lo, hi, rank, degree, relabel, by_degree, n);",
            "oriented_keys",
        ),
        # The same from the edges' sorted keys, of which only the kept are edges
        # (the others become KEY_SENTINEL and sort last).
        "oriented_kept_keys": kernel(
            "int64 edge, bool kept, raw R rank, raw D degree, int32 relabel, int32 by_degree, int64 n",
            "int64 key",
            """
            long long u, v;
            unpack_key(edge, n, u, v);
            key = kept ? arc_key(u, v, rank, degree, relabel, by_degree, n) : KEY_SENTINEL;
            """,
            "oriented_kept_keys",
        ),
        # A one-line body: as an ElementwiseKernel it needs no source file or launch code.
        "scatter_distinct": kernel(
            "raw int64 keys, raw bool last, raw int64 position",
            "raw int64 out",
            "if (last[i]) out[position[i] - 1] = keys[i];",
            "scatter_distinct",
        ),
        "count": kernel(
            "T id", "raw U counts", "atomicAdd(&counts[id], (U)1);", "vertex_counts"
        ),
        "count_sorted_both": kernel(
            "raw T a, U b, int64 m",
            "raw V counts",
            """
            // a is sorted: a run of equal ids adds its end at its last row and
            // subtracts its start at its first, one atomic per run instead of
            // one per row on the same counter (the hubs' rows serialise).
            long long v = a[i];
            if (i + 1 == m || a[i + 1] != v) atomicAdd(&counts[v], (V)(i + 1));
            if (i == 0 || a[i - 1] != v) atomicAdd(&counts[v], (V)0 - (V)i);
            atomicAdd(&counts[b], (V)1);
            """,
            "count_sorted_both",
        ),
        "count_both": kernel(
            "T a, T b",
            "raw U counts",
            "atomicAdd(&counts[a], (U)1); atomicAdd(&counts[b], (U)1);",
            "endpoint_counts",
        ),
        "sum": kernel(
            "T id, float64 weight", "raw float64 sums", "atomicAdd(&sums[id], weight);", "vertex_sums"
        ),
    }


def edge_keys(src, dst, n):
    """Keys of the undirected edges ``min - max``, :data:`SENTINEL` for self-loops."""
    return _kernels()["edge_keys"](src, dst, n)


def packed_keys(a, b, n):
    """Keys of the pairs ``(a, b)`` (int64, sorting like the pairs)."""
    return _kernels()["pack"](a, b, n)


def unpack_keys(keys, n, dtype):
    """The pairs of ``keys`` (no :data:`SENTINEL`), as two arrays of ``dtype``."""
    import cupy

    a = cupy.empty(keys.size, dtype=dtype)
    b = cupy.empty(keys.size, dtype=dtype)
    _kernels()["unpack"](keys, n, a, b)
    return a, b


def endpoint_counts(a, b, n, *, a_sorted=False):
    """Occurrences of each id in ``0..n-1`` in ``a`` and ``b`` together (int64),
    in one launch; with ``a_sorted``, one atomic per run of ``a`` instead of per row."""
    import cupy

    counts = cupy.zeros(n, dtype=np.uint64)  # atomicAdd has no signed 64-bit form
    if a_sorted:
        _kernels()["count_sorted_both"](a, b, np.int64(a.size), counts)
    else:
        _kernels()["count_both"](a, b, counts)
    return counts.view(np.int64)


def vertex_counts(ids, n, weights=None):
    """Occurrences of each id in ``0..n-1`` (int64), or sums of ``weights``
    (float64), by atomic adds: CuPy's bincount synchronises and serialises on
    sorted ids."""
    import cupy

    if weights is None:
        counts = cupy.zeros(n, dtype=np.uint64)
        _kernels()["count"](ids, counts)
        return counts.view(np.int64)
    sums = cupy.zeros(n, dtype=np.float64)
    _kernels()["sum"](ids, weights.astype(np.float64, copy=False), sums)
    return sums


#: Most blocks of sampled_degree_sum's launch (each builds the samples' table), and
#: most samples (half the slots of kernels/sample.cu's table).
SAMPLE_BLOCKS = 512
MAX_SAMPLES = 1024


@functools.cache
def _side_stream(device_id):
    """A stream of its own per GPU, for work that runs beside the current stream's."""
    import cupy

    with cupy.cuda.Device(device_id):
        return cupy.cuda.Stream(non_blocking=True)


def sampled_degree_sum(src, dst, samples):
    """:func:`.host_ops.sampled_degree_sum` in one launch (``kernels/sample.cu``) on
    a stream of its own, beside the current stream's later work. Each block writes
    its sum to pinned host memory, which the kernel reaches directly (unified
    addressing): the function it returns waits for that launch alone and adds the
    blocks' sums, so the work queued on the current stream meanwhile is not waited
    for, and no zeroed sum or copy costs host time."""
    import cupy

    from .. import runtime

    if not 0 < samples <= MAX_SAMPLES:
        raise ValueError(f"samples must be from 1 to {MAX_SAMPLES}, got {samples}")
    if src.dtype != dst.dtype or src.dtype not in (np.int32, np.int64):
        src, dst = src.astype(np.int64), dst.astype(np.int64)
    side = _side_stream(cupy.cuda.Device().id)
    side.wait_event(cupy.cuda.get_current_stream().record())  # src and dst are ready
    kernel = runtime.function("sample.cu", "sampled_degree_sum", vid=src.dtype)
    skip = host_ops.counted_chunk_skip(src.size)
    blocks = min(SAMPLE_BLOCKS, max(1, -(-src.size // (skip * runtime.THREADS))))
    partials = cupy.cuda.alloc_pinned_memory(8 * blocks)
    with side:
        # The pinned buffer's address is the kernel's pointer: passed as its 64 bits.
        args = (src, dst, np.int64(src.size), np.int32(samples), np.int64(skip),
                np.uint64(partials.ptr))
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
    """``sum(d (d - 1))`` over an int64 array of degrees, exact, as a Python int:
    the terms' high and low 32 bits summed apart, in one launch
    (``kernels/pairs.cu``) and one transfer."""
    import cupy

    from .. import runtime

    degree = cupy.ascontiguousarray(degree, dtype=np.int64)
    halves = cupy.zeros(2, dtype=np.uint64)
    if degree.size:
        kernel = runtime.function("pairs.cu", "pair_sum_halves")
        runtime.launch(kernel, degree.size, (degree, np.int64(degree.size), halves), grid=PAIR_SUM_BLOCKS)
    high, low = halves.get().tolist()
    return (high << 32) + low


def csr_of_sorted_keys(keys, n, dtype, arcs):
    """The CSR of sorted arc keys, of which the first ``arcs`` are arcs and the
    rest :data:`SENTINEL`: one launch of ``kernels/csr.cu``. ``arcs`` may be a
    :class:`~nx_tricount.runtime.PendingCount`, read after the launch.

    Returns
    -------
    indptr : int64 array, length n + 1
    indices, rows : arrays of ``dtype``
    """
    import cupy

    from .. import runtime

    m = keys.size
    rows = cupy.empty(m, dtype=dtype)
    indices = cupy.empty(m, dtype=dtype)
    indptr = cupy.empty(n + 1, dtype=np.int64)
    csr = runtime.function("csr.cu", "csr_of_sorted_keys", vid=dtype)
    runtime.launch(csr, max(m, n + 1), (keys, np.int64(m), np.int64(n), rows, indices, indptr))
    arcs = int(arcs)
    return indptr, indices[:arcs], rows[:arcs]


def oriented_keys(how, simple, rank=None):
    """:func:`.host_ops.oriented_keys` in one launch; on a :class:`KeptKeysGraph`,
    straight from its sorted keys: the keys of the rows that are not edges are
    then :data:`SENTINEL`, and ``arcs`` its pending edge count."""
    if isinstance(simple, KeptKeysGraph):
        keys = _arc_keys("oriented_kept_keys", (simple.keys, simple.kept), how, simple, rank)
        return keys, simple.count
    keys = _arc_keys("oriented_keys", (simple.lo, simple.hi), how, simple, rank)
    return keys, keys.size


def _arc_keys(name, edges, how, simple, rank):
    import cupy

    placeholder = cupy.zeros(1, dtype=np.int32)
    return _kernels()[name](
        *edges,
        placeholder if rank is None else rank,
        simple.degree if how == "degree" else placeholder,
        np.int32(rank is not None),
        np.int32(how == "degree"),
        simple.n,
    )


def deduplicate(src, dst, n):
    """:func:`.host_ops.deduplicate`, without its compaction: a
    :class:`KeptKeysGraph`, with no synchronisation."""
    import cupy

    keys = cupy.sort(edge_keys(src, dst, n))
    kept, degree, count = _distinct_and_degrees(keys, n)
    return KeptKeysGraph(n, keys, kept, degree, count)


class KeptKeysGraph(SimpleGraph):
    """A :class:`~.simplify.SimpleGraph` on the GPU before its deduplication's
    compaction; ``lo`` and ``hi`` are compacted when first read, and
    :func:`oriented_keys` reads the sorted keys directly.

    Attributes
    ----------
    keys : int64 array
        :func:`edge_keys` of every row of the edge list, sorted.
    kept : bool array
        Which of ``keys`` are the distinct edges.
    count : :class:`~nx_tricount.runtime.PendingCount`
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
            distinct = _compact_keys(self.keys, self.kept, self.m)
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
    count : :class:`~nx_tricount.runtime.PendingCount`
        The number of distinct keys.
    """
    import cupy

    from .. import runtime

    m = keys.size
    degree = cupy.zeros(n, dtype=np.uint64)
    kept = cupy.empty(m, dtype=bool)
    counter = cupy.zeros(1, dtype=np.uint64)
    if m:
        distinct = runtime.function("distinct.cu", "distinct_edges")
        runtime.launch(distinct, m, (keys, np.int64(m), np.int64(n), kept, degree, counter))
    return kept, degree.view(np.int64), runtime.PendingCount(counter)


def _compact_keys(keys, kept, count):
    """``keys[kept]``, of which there are ``count``."""
    import cupy

    out = cupy.empty(count, dtype=np.int64)
    if count:
        position = cupy.cumsum(kept, dtype=np.int64)
        _kernels()["scatter_distinct"](keys, kept, position, out, size=keys.size)
    return out


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

    from .. import runtime

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
