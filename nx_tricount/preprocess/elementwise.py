"""One-launch GPU versions of the preprocessing's elementwise steps.

Written as array expressions, packing an edge into a sort key is several CuPy
launches (casts, a minimum, a maximum, shifts, a ``where``), and CuPy's
``bincount`` synchronises twice and runs a histogram that serialises on sorted
ids (12 ms of a 19 ms preprocessing on a 20M-edge graph, H100). Each function
here is one ``cupy.ElementwiseKernel`` (the deduplication's pass, which needs
warp-level sums, one launch of ``kernels/distinct.cu``) computing exactly what
the NumPy expression in the calling module computes; that expression is the
reference, and tests/test_gpu_preprocess.py checks the two agree. None of them
synchronises unless it returns a number to the host: the host keeps queuing
while the GPU works.
"""

import functools

import numpy as np

__all__ = [
    "SENTINEL",
    "edge_keys",
    "packed_keys",
    "unpack_keys",
    "distinct_and_degrees",
    "compact_keys",
    "oriented_keys",
    "oriented_kept_keys",
    "csr_of_sorted_keys",
    "endpoint_counts",
    "sorted_endpoint_counts",
    "square_sum",
    "vertex_counts",
]

#: The key of a self-loop: sorts after every real key and is dropped with duplicates.
SENTINEL = np.iinfo(np.int64).max

# Pairs pack as ``a << 32 | b`` while ids fit in 31 bits, else ``a * n + b``.
_PACK = """
__device__ long long nx_tricount_pack(long long a, long long b, long long n) {
    return n <= 2147483648LL ? (a << 32) | b : a * n + b;
}
__device__ void nx_tricount_unpack(long long key, long long n, long long& a, long long& b) {
    if (n <= 2147483648LL) { a = key >> 32; b = key & 0xFFFFFFFFLL; }
    else { a = key / n; b = key % n; }
}
// Edge u - v (u < v, old ids) becomes the arc between new ids rank[u] and
// rank[v], from the lower new id to the higher, or (by_degree) from the lower
// degree to the higher with ties by new id.
template <class Rank, class Degree>
__device__ long long nx_tricount_arc_key(long long u, long long v, Rank& rank, Degree& degree,
                                         int relabel, int by_degree, long long n) {
    long long a = relabel ? (long long)rank[u] : u, b = relabel ? (long long)rank[v] : v;
    if (a > b) { long long t = a; a = b; b = t; t = u; u = v; v = t; }
    if (by_degree && degree[u] > degree[v]) { long long t = a; a = b; b = t; }
    return nx_tricount_pack(a, b, n);
}
"""


@functools.cache
def _kernels():
    import cupy

    def kernel(inputs, outputs, body, name):
        return cupy.ElementwiseKernel(inputs, outputs, body, f"nx_tricount_{name}", preamble=_PACK)

    return {
        "edge_keys": kernel(
            "T src, U dst, int64 n",
            "int64 key",
            f"""
            long long lo = src < dst ? src : dst, hi = src < dst ? dst : src;
            key = lo == hi ? {SENTINEL}LL : nx_tricount_pack(lo, hi, n);
            """,
            "edge_keys",
        ),
        "pack": kernel("T a, U b, int64 n", "int64 key", "key = nx_tricount_pack(a, b, n);", "pack"),
        "unpack": kernel(
            "int64 key, int64 n",
            "T a, T b",
            "long long x, y; nx_tricount_unpack(key, n, x, y); a = x; b = y;",
            "unpack",
        ),
        "oriented_keys": kernel(
            "T lo, T hi, raw R rank, raw D degree, int32 relabel, int32 by_degree, int64 n",
            "int64 key",
            "key = nx_tricount_arc_key(lo, hi, rank, degree, relabel, by_degree, n);",
            "oriented_keys",
        ),
        # The same from the edges' sorted keys, of which only the kept are edges
        # (the others become SENTINEL and sort last).
        "oriented_kept_keys": kernel(
            "int64 edge, bool kept, raw R rank, raw D degree, int32 relabel, int32 by_degree, int64 n",
            "int64 key",
            f"""
            long long u, v;
            nx_tricount_unpack(edge, n, u, v);
            key = kept ? nx_tricount_arc_key(u, v, rank, degree, relabel, by_degree, n) : {SENTINEL}LL;
            """,
            "oriented_kept_keys",
        ),
        # CSR of sorted arc keys (SENTINELs last): each key's two ids, and row v's
        # start as the first key of a row >= v (binary search; the gaps of empty
        # rows would serialise a thread that filled them).
        "csr": kernel(
            "raw int64 keys, int64 m, int64 n",
            "raw T rows, raw T indices, raw int64 indptr",
            f"""
            if (i < m && keys[i] != {SENTINEL}LL) {{
                long long a, b;
                nx_tricount_unpack(keys[i], n, a, b);
                rows[i] = a;
                indices[i] = b;
            }}
            if (i <= n) {{
                long long first = i == n ? {SENTINEL}LL : nx_tricount_pack(i, 0, n);
                long long low = 0, high = m;
                while (low < high) {{
                    long long mid = (low + high) / 2;
                    if (keys[mid] < first) low = mid + 1; else high = mid;
                }}
                indptr[i] = low;
            }}
            """,
            "csr",
        ),
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
    """Keys of the pairs ``(a, b)``."""
    return _kernels()["pack"](a, b, n)


def distinct_and_degrees(keys, n, *, square_sum=False):
    """Mark the distinct keys of sorted ``keys`` (without :data:`SENTINEL`), count
    the degrees of the pairs they pack and how many there are: one launch of
    ``kernels/distinct.cu`` and no synchronisation, unless ``square_sum`` asks for
    ``sum(degree**2)`` (read with the number of distinct keys in one transfer).

    Returns
    -------
    kept : bool array
        True at the last key of each run of equal keys, unless :data:`SENTINEL`.
    degree : int64 array
    count : int or :class:`~nx_tricount.algorithms.runtime.PendingCount`
        The number of distinct keys (an int when ``square_sum``).
    squares : float or None
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
    if not square_sum:
        return kept, degree.view(np.int64), runtime.PendingCount(counter), None
    count, squares = cupy.concatenate([counter.astype(np.float64), _square_sum()(degree)[None]]).get()
    return kept, degree.view(np.int64), int(count), float(squares)


def compact_keys(keys, kept, count):
    """``keys[kept]``, of which there are ``count``."""
    import cupy

    out = cupy.empty(count, dtype=np.int64)
    if count:
        position = cupy.cumsum(kept, dtype=np.int64)
        _kernels()["scatter_distinct"](keys, kept, position, out, size=keys.size)
    return out


def unpack_keys(keys, n, dtype):
    """The pairs of ``keys``, as two arrays of ``dtype``."""
    import cupy

    a = cupy.empty(keys.size, dtype=dtype)
    b = cupy.empty(keys.size, dtype=dtype)
    _kernels()["unpack"](keys, n, a, b)
    return a, b


def oriented_keys(orientation, lo, hi, degree, n, rank=None):
    """Keys of the arcs of the edges ``lo < hi`` relabelled by ``rank`` (old id ->
    new id) and directed by ``orientation`` ("id" or "degree"; ``degree`` in old ids)."""
    return _arc_keys("oriented_keys", (lo, hi), orientation, degree, n, rank)


def oriented_kept_keys(orientation, keys, kept, degree, n, rank=None):
    """:func:`oriented_keys` of the edges packed in ``keys[kept]``, aligned with
    ``keys``: the keys not kept become :data:`SENTINEL`."""
    return _arc_keys("oriented_kept_keys", (keys, kept), orientation, degree, n, rank)


def _arc_keys(name, edges, orientation, degree, n, rank):
    import cupy

    placeholder = cupy.zeros(1, dtype=np.int32)
    return _kernels()[name](
        *edges,
        placeholder if rank is None else rank,
        degree if orientation == "degree" else placeholder,
        np.int32(rank is not None),
        np.int32(orientation == "degree"),
        n,
    )


def csr_of_sorted_keys(keys, n, dtype, arcs):
    """The CSR ``(indptr, indices, rows)`` of sorted arc keys, of which the first
    ``arcs`` are arcs and the rest :data:`SENTINEL`. ``arcs`` may be a
    :class:`~nx_tricount.algorithms.runtime.PendingCount`, read after the launch.

    Returns
    -------
    indptr : int64 array, length n + 1
    indices, rows : arrays of ``dtype``
    """
    import cupy

    m = keys.size
    rows = cupy.empty(m, dtype=dtype)
    indices = cupy.empty(m, dtype=dtype)
    indptr = cupy.empty(n + 1, dtype=np.int64)
    _kernels()["csr"](keys, np.int64(m), np.int64(n), rows, indices, indptr, size=max(m, n + 1))
    arcs = int(arcs)
    return indptr, indices[:arcs], rows[:arcs]


def square_sum(x):
    """``sum(x * x)`` as a Python float, in one reduction launch."""
    return float(_square_sum()(x))


@functools.cache
def _square_sum():
    import cupy

    return cupy.ReductionKernel(
        "T x", "float64 total", "(double)x * x", "a + b", "total = a", "0", "nx_tricount_square_sum"
    )


def endpoint_counts(a, b, n):
    """Occurrences of each id in ``0..n-1`` in ``a`` and ``b`` together (int64)."""
    import cupy

    counts = cupy.zeros(n, dtype=np.uint64)
    _kernels()["count_both"](a, b, counts)
    return counts.view(np.int64)


def sorted_endpoint_counts(a, b, n):
    """:func:`endpoint_counts` where ``a`` is sorted (one launch, no atomics
    contending on ``a``'s counters)."""
    import cupy

    counts = cupy.zeros(n, dtype=np.uint64)
    _kernels()["count_sorted_both"](a, b, np.int64(a.size), counts)
    return counts.view(np.int64)


def vertex_counts(ids, n, weights=None):
    """Occurrences of each id in ``0..n-1`` (int64), or sums of ``weights`` (float64)."""
    import cupy

    if weights is None:
        counts = cupy.zeros(n, dtype=np.uint64)  # atomicAdd has no signed 64-bit form
        _kernels()["count"](ids, counts)
        return counts.view(np.int64)
    sums = cupy.zeros(n, dtype=np.float64)
    _kernels()["sum"](ids, weights.astype(np.float64, copy=False), sums)
    return sums
