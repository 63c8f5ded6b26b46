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

Around the count: each vertex's whole neighbour list (:func:`neighbour_lists`),
the targets (:func:`every_vertex`) and each target's potential squares
(:func:`potentials`); on the GPU each is a launch or two of ``kernels/squares.cu``,
compiled ahead as the count is, where CuPy's array arithmetic would compile its
kernels at a process's first call.
"""

import numba
import numpy as np
from numba import njit, prange

from ..gpu.device import module_of
from . import neighbourhoods

__all__ = ["count_squares", "row_bytes", "neighbour_lists", "every_vertex", "potentials"]


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

    from ..gpu import runtime

    vid = successors[1].dtype
    kernel = runtime.function("squares.cu", "squares", vid=vid)
    blocks = min(rows, runtime.resident_blocks(kernel, 0), max(int(targets.size), 1))
    dtype = _counter_dtype(n)
    runtime.check_memory(blocks * row_bytes(n) + 16 * targets.size, "square clustering's rows of counters")
    counters = cupy.zeros((blocks, 2, n), dtype=dtype)
    squares = cupy.zeros(targets.size, dtype=np.int64)
    triangles = cupy.zeros(targets.size, dtype=np.int64)
    taken = cupy.zeros(1, dtype=np.uint64)
    args = (
        *successors,
        *predecessors,
        targets.astype(vid, copy=False),
        np.int64(targets.size),
        np.int64(n),
        counters,
        taken,
        squares,
        triangles,
    )
    runtime.launch(kernel, blocks * runtime.THREADS, args, grid=blocks)
    cupy.cuda.get_current_stream().synchronize()
    return squares, triangles


def neighbour_lists(prepared):
    """``(indptr, neighbours)``: every vertex's whole neighbour list, of an oriented
    CSR of an undirected graph (CSR ids).

    On the CPU, and where they are made already, the sorted lists of
    :func:`~.neighbourhoods.symmetric`. On the GPU, from the CSR's degrees: their
    running sums in two launches, then each arc put in both ends' lists at atomic
    cursors, in no order within a list (the counts do not read one); kept in the
    CSR's ``derived``.
    """
    gpu = module_of(prepared.indptr) is not np and prepared.degree is not None
    if not gpu or "symmetric" in prepared.derived:
        return neighbourhoods.symmetric(prepared)[:2]
    if "neighbour_lists" not in prepared.derived:
        prepared.derived["neighbour_lists"] = _neighbour_lists_gpu(prepared)
    return prepared.derived["neighbour_lists"]


def _neighbour_lists_gpu(prepared):
    import cupy

    from ..gpu import runtime
    from ..preprocess.gpu_rows import launch_scan, scan_chunks

    n, m, vid = prepared.n, prepared.m, prepared.indices.dtype
    degree = cupy.ascontiguousarray(prepared.degree, dtype=np.int64)
    indptr = cupy.zeros(n + 1, dtype=np.int64)
    if n:
        blocks, chunk = scan_chunks(n)
        totals = cupy.empty(blocks, dtype=np.int64)
        scan = (degree, np.int64(n), np.int64(chunk), totals)
        launch_scan("degree_totals", blocks, scan, source="squares.cu")
        launch_scan("row_starts", blocks, (*scan, indptr), source="squares.cu")
    neighbours = cupy.empty(2 * m, dtype=vid)
    cursor = cupy.zeros(n, dtype=np.uint64)
    kernel = runtime.function("squares.cu", "fill_neighbours", vid=vid)
    runtime.launch(kernel, m, (prepared.rows, prepared.indices, np.int64(m), indptr, cursor, neighbours))
    return indptr, neighbours


def every_vertex(n, dtype, device):
    """The ids ``0 .. n - 1`` of ``dtype`` on ``device``."""
    if device != "gpu":
        return np.arange(n, dtype=dtype)
    import cupy

    from ..gpu import runtime

    ids = cupy.empty(n, dtype=dtype)
    runtime.launch(runtime.function("squares.cu", "vertex_ids", vid=dtype), n, (np.int64(n), ids))
    return ids


def potentials(successors, targets, found, closed, perm=None):
    """Each target's potential squares, NetworkX's denominator: ``(d - 1) around
    - d (d - 1) - closed - found``, ``d`` its successors (its degree, undirected)
    and ``around`` the sum of theirs.

    Parameters
    ----------
    successors : (indptr, indices) pair
        The lists the squares were counted on.
    targets : integer array
        The vertices counted (CSR ids).
    found, closed : int64 arrays
        :func:`count_squares`' squares and closed wedges of each target.
    perm : integer array, optional
        ``perm[csr_id] = original_id`` when the vertices were reordered.

    Returns
    -------
    potential : int64 array
    defined : bool array
        Where ``d >= 2`` and the potential is positive.
    at : integer array
        Each target's original id.
    """
    indptr, indices = successors
    if module_of(indptr) is not np:
        return _potentials_gpu(indptr, indices, targets, found, closed, perm)
    degree = indptr[1:] - indptr[:-1]
    reach = np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(degree[indices])])
    around = reach[indptr[1:]] - reach[indptr[:-1]]  # sum of the successors' degrees
    d = degree[targets]
    potential = (d - 1) * around[targets] - d * (d - 1) - closed - found
    defined = (d >= 2) & (potential > 0)
    return potential, defined, targets if perm is None else perm[targets]


def _potentials_gpu(indptr, indices, targets, found, closed, perm):
    """:func:`potentials` in one launch, one thread per target."""
    import cupy

    from ..gpu import runtime

    count = targets.size
    potential = cupy.empty(count, dtype=np.int64)
    defined = cupy.empty(count, dtype=bool)
    at = cupy.empty(count, dtype=np.int64)
    kernel = runtime.function("squares.cu", "square_potentials", vid=indices.dtype)
    args = (indptr, indices, targets, np.int64(count), found, closed, perm, potential, defined, at)
    runtime.launch(kernel, count, args)
    return potential, defined, at
