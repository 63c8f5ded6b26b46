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
    "oriented_keys",
    "endpoint_counts",
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
            """
            if (n <= 2147483648LL) { a = key >> 32; b = key & 0xFFFFFFFFLL; }
            else { a = key / n; b = key % n; }
            """,
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
        "count": kernel(
            "T id", "raw U counts", "atomicAdd(&counts[id], (U)1);", "vertex_counts"
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
