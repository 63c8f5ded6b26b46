"""Square clustering's counts (Lind et al.; NetworkX's 2-hop form): for each
target vertex ``v`` with successor lists ``S`` (neighbour lists, undirected),
the squares ``sum over x of p(v, x) (p(v, x) - 1) / 2`` and ``sum over u in S(v)
of p(v, u)``, where ``p(v, x) = |S(v) ∩ S(x)|`` and ``x`` runs over ``S(v)`` and
the successors of its members, ``v`` excluded.

One vertex at a time per row of counters, so memory is bounded whatever the
degrees: a row is ``n`` counters ``count`` and ``n`` stamps ``seen``.

1. ``count[x] += 1`` over the wedges ``v -> w <- x`` (``w`` in ``S(v)``, ``x`` a
   predecessor of ``w``, ``x != v``): then ``count[x] = p(v, x)``.
2. Each ``x`` of ``S(v)`` and of ``S(u)`` for ``u`` in ``S(v)`` (``x != v``), the
   first time it is met (``seen[x]`` takes ``v + 1``), adds ``C(count[x], 2)``
   to the squares; each ``u`` of ``S(v)`` adds ``count[u]`` to the triangles.
3. The wedges of step 1 again, setting ``count[x] = 0`` for the next vertex.

The CPU runs one vertex per thread (one row each), the GPU one per block
(``kernels/squares.cu``), with as many rows as the memory budget holds.
"""

import numba
import numpy as np
from numba import njit, prange

__all__ = ["count_squares", "row_bytes"]


def row_bytes(n):
    """Bytes of one row of counters and stamps for ``n`` vertices."""
    return 2 * n * np.dtype(_counter_dtype(n)).itemsize


def _counter_dtype(n):
    """The CSR's id dtype: counts stay below ``n`` and stamps reach ``n``."""
    return np.int32 if n < 2**31 else np.int64


@njit(cache=True, inline="always")
def _pairs(c):
    k = np.int64(c)
    return k * (k - 1) // 2


@njit(parallel=True, cache=True)
def _squares_cpu(s_ptr, s_idx, p_ptr, p_idx, targets, count, seen, squares, triangles):
    for t in prange(targets.size):
        row = numba.get_thread_id()
        c = count[row]
        s = seen[row]
        v = targets[t]
        if s_ptr[v + 1] - s_ptr[v] < 2:
            continue  # NetworkX's coefficient is 0 without reading the counts
        for i in range(s_ptr[v], s_ptr[v + 1]):
            w = s_idx[i]
            for j in range(p_ptr[w], p_ptr[w + 1]):
                x = p_idx[j]
                if x != v:
                    c[x] += 1
        stamp = v + 1
        found = np.int64(0)
        closed = np.int64(0)
        for i in range(s_ptr[v], s_ptr[v + 1]):
            u = s_idx[i]
            closed += c[u]
            if s[u] != stamp:
                s[u] = stamp
                found += _pairs(c[u])
            for j in range(s_ptr[u], s_ptr[u + 1]):
                x = s_idx[j]
                if x != v and s[x] != stamp:
                    s[x] = stamp
                    found += _pairs(c[x])
        for i in range(s_ptr[v], s_ptr[v + 1]):
            w = s_idx[i]
            for j in range(p_ptr[w], p_ptr[w + 1]):
                c[p_idx[j]] = 0
        squares[t] = found
        triangles[t] = closed


def count_squares(successors, predecessors, targets, n, device, memory):
    """Squares and closed wedges of each target vertex.

    Parameters
    ----------
    successors, predecessors : (indptr, indices) pairs
        CSR of each vertex's successors and of its predecessors (the same lists
        twice for an undirected graph), sorted, without self-loops.
    targets : integer array
        Distinct vertices (CSR ids) to count.
    n : int
        Number of vertices.
    device : {"cpu", "gpu"}
        Where the arrays live and the count runs.
    memory : int
        Bytes the rows of counters may take (at least one row is used).

    Returns
    -------
    squares, triangles : int64 arrays aligned with ``targets``
        ``sum over x of C(p(v, x), 2)`` and ``sum over u in S(v) of p(v, u)``; 0
        for vertices with fewer than two successors.
    """
    rows = max(1, memory // max(row_bytes(n), 1))
    if device == "gpu":
        return _count_gpu(successors, predecessors, targets, n, rows)
    rows = min(rows, numba.get_num_threads())
    dtype = _counter_dtype(n)
    count = np.zeros((rows, n), dtype=dtype)
    seen = np.zeros((rows, n), dtype=dtype)
    squares = np.zeros(targets.size, dtype=np.int64)
    triangles = np.zeros(targets.size, dtype=np.int64)
    threads = numba.get_num_threads()
    numba.set_num_threads(rows)  # one row per thread
    try:
        _squares_cpu(*successors, *predecessors, targets, count, seen, squares, triangles)
    finally:
        numba.set_num_threads(threads)
    return squares, triangles


def _count_gpu(successors, predecessors, targets, n, rows):
    """:func:`count_squares` on the GPU: a persistent grid of at most ``rows``
    blocks, each taking the next target when done with one."""
    import cupy

    from .. import runtime

    vid = successors[1].dtype
    kernel = runtime.function("squares.cu", "squares", vid=vid)
    blocks = min(rows, runtime.resident_blocks(kernel, 0), max(int(targets.size), 1))
    dtype = _counter_dtype(n)
    runtime.check_memory(
        blocks * row_bytes(n) + 16 * targets.size, "square clustering's rows of counters"
    )
    with runtime.cuda_errors("counting squares on the GPU"):
        counters = cupy.zeros((blocks, 2, n), dtype=dtype)
        squares = cupy.zeros(targets.size, dtype=np.int64)
        triangles = cupy.zeros(targets.size, dtype=np.int64)
        taken = cupy.zeros(1, dtype=np.uint64)
        args = (*successors, *predecessors, targets.astype(vid, copy=False),
                np.int64(targets.size), np.int64(n), counters, taken, squares, triangles)
        runtime.launch(kernel, blocks * runtime.THREADS, args, grid=blocks)
        cupy.cuda.get_current_stream().synchronize()
    return squares, triangles
