"""One-launch GPU versions of the preprocessing's elementwise steps.

Written as array expressions, packing an edge into a sort key is several CuPy
launches (casts, a minimum, a maximum, shifts, a ``where``), and CuPy's
``bincount`` synchronises twice and runs a histogram that serialises on sorted
ids (12 ms of a 19 ms preprocessing on a 20M-edge graph, H100). Each function
here is one ``cupy.ElementwiseKernel`` computing exactly what the NumPy
expression in the calling module computes; that expression is the reference,
and tests/test_gpu_preprocess.py checks the two agree.
"""

import functools

import numpy as np

__all__ = [
    "SENTINEL",
    "edge_keys",
    "packed_keys",
    "unpack_keys",
    "distinct_keys_and_degrees",
    "oriented_keys",
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
        # Edge u - v (u < v, old ids) becomes the arc between new ids rank[u] and
        # rank[v], from the lower new id to the higher, or (by_degree) from the
        # lower degree to the higher with ties by new id.
        "oriented_keys": kernel(
            "T lo, T hi, raw R rank, raw D degree, int32 relabel, int32 by_degree, int64 n",
            "int64 key",
            """
            long long u = lo, v = hi;
            long long a = relabel ? (long long)rank[u] : u, b = relabel ? (long long)rank[v] : v;
            if (a > b) { long long t = a; a = b; b = t; t = u; u = v; v = t; }
            if (by_degree && degree[u] > degree[v]) { long long t = a; a = b; b = t; }
            key = nx_tricount_pack(a, b, n);
            """,
            "oriented_keys",
        ),
        # Sorted keys: the last row of each run of equal keys, unless a self-loop.
        "distinct": kernel(
            "raw int64 keys, int64 m",
            "bool last",
            f"last = keys[i] != {SENTINEL}LL && (i + 1 == m || keys[i + 1] != keys[i]);",
            "distinct",
        ),
        # Degrees of the distinct pairs of sorted keys (position: inclusive prefix
        # sums of last). The low ends come in runs: a run adds the distinct pairs
        # up to its end and subtracts those before its start (one atomic at each
        # end instead of one per row on the same counter); high ends one atomic
        # per distinct pair.
        "distinct_degrees": kernel(
            "raw int64 keys, raw bool last, raw int64 position, int64 n, int64 m",
            "raw uint64 counts",
            f"""
            long long key = keys[i];
            if (key != {SENTINEL}LL) {{
                long long a, b, x, y;
                nx_tricount_unpack(key, n, a, b);
                long long next = i + 1 < m ? keys[i + 1] : {SENTINEL}LL;
                if (next == {SENTINEL}LL) {{ x = -1; }} else {{ nx_tricount_unpack(next, n, x, y); }}
                if (x != a) atomicAdd(&counts[a], (unsigned long long)position[i]);
                if (i == 0) {{ x = -1; }} else {{ nx_tricount_unpack(keys[i - 1], n, x, y); }}
                if (x != a) atomicAdd(&counts[a], 0ull - (unsigned long long)(i ? position[i - 1] : 0));
                if (last[i]) atomicAdd(&counts[b], 1ull);
            }}
            """,
            "distinct_degrees",
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


def distinct_keys_and_degrees(keys, n, *, square_sum=False):
    """The distinct keys of sorted ``keys`` without :data:`SENTINEL`, the degrees
    of the pairs they pack, and (``square_sum``) ``sum(degree**2)``.

    Like ``keys[last]`` this synchronises once, to learn how many keys are
    distinct; the degrees and their squares are computed before it, so that
    reading the sum costs no synchronisation of its own.

    Returns
    -------
    keys : int64 array
    degree : int64 array
    squares : float or None
    """
    import cupy

    m = keys.size
    degree = cupy.zeros(n, dtype=np.uint64)
    if m == 0:
        return keys, degree.view(np.int64), 0.0 if square_sum else None
    kernels = _kernels()
    last = cupy.empty(m, dtype=bool)
    kernels["distinct"](keys, np.int64(m), last)
    position = cupy.cumsum(last, dtype=np.int64)
    kernels["distinct_degrees"](keys, last, position, np.int64(n), np.int64(m), degree, size=m)
    if square_sum:
        total = cupy.stack([position[-1].astype(np.float64), _square_sum()(degree)])
        count, squares = total.get()
        count = int(count)
    else:
        count, squares = int(position[-1]), None
    out = cupy.empty(count, dtype=np.int64)
    kernels["scatter_distinct"](keys, last, position, out, size=m)
    return out, degree.view(np.int64), squares


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
    import cupy

    placeholder = cupy.zeros(1, dtype=lo.dtype)
    return _kernels()["oriented_keys"](
        lo,
        hi,
        placeholder if rank is None else rank,
        degree if orientation == "degree" else placeholder,
        np.int32(rank is not None),
        np.int32(orientation == "degree"),
        n,
    )


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
