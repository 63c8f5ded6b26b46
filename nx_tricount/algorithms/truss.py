"""Peeling to the k-truss: from each arc's triangle support (the per-edge count),
remove the arcs supported by fewer than ``threshold`` triangles, lowering the
support of the arcs that shared a triangle with a removed one, until none is
left below it. The k-truss (``threshold = k - 2``) is what remains: it is unique,
so the order of removals does not change it.

Each triangle is taken off its arcs' support once, when the first of its arcs
is removed: supports are updated where they change, never recounted. The
triangles on an arc ``u -> v`` are the common entries of ``u``'s and ``v``'s whole
neighbour lists (:func:`~.neighbourhoods.symmetric`, which also give the arcs to
the third vertex).

- CPU: one queue of arcs to remove (numba); an arc joins it when its support
  falls below the threshold.
- GPU (``kernels/truss.cu``): rounds; the arcs below the threshold form the
  frontier, one warp per frontier arc walks its triangles and lowers the
  support of the triangle's arcs outside the frontier (a triangle with several
  frontier arcs is handled by the one with the smallest position), and the arcs
  that fall below the threshold form the next frontier.
"""

import numpy as np
from numba import njit

from .neighbourhoods import symmetric

__all__ = ["peel"]

#: Arc states of the GPU rounds (kernels/truss.cu).
ALIVE, FRONTIER, REMOVED = 0, 1, 2


@njit(cache=True, inline="always")
def _lose_triangle(x, support, threshold, queued, queue, tail):
    """Take one triangle off arc ``x``'s support; queue it if it falls below the
    threshold. Returns the queue's new tail."""
    support[x] -= 1
    if support[x] < threshold and not queued[x]:
        queued[x] = True
        queue[tail] = x
        tail += 1
    return tail


@njit(cache=True)
def _peel_cpu(rows, cols, sym_ptr, sym_nbr, sym_arc, support, threshold, alive):
    m = rows.size
    queue = np.empty(m, dtype=np.int64)
    queued = np.zeros(m, dtype=np.bool_)
    tail = 0
    for e in range(m):
        if support[e] < threshold:
            queued[e] = True
            queue[tail] = e
            tail += 1
    head = 0
    while head < tail:
        e = queue[head]
        head += 1
        alive[e] = False
        i, i_end = sym_ptr[rows[e]], sym_ptr[rows[e] + 1]
        j, j_end = sym_ptr[cols[e]], sym_ptr[cols[e] + 1]
        while i < i_end and j < j_end:
            a = sym_nbr[i]
            b = sym_nbr[j]
            if a < b:
                i += 1
            elif a > b:
                j += 1
            else:
                # Triangle (e, e1, e2): still counted in the others' supports
                # unless one of them was removed before e.
                e1, e2 = sym_arc[i], sym_arc[j]
                if alive[e1] and alive[e2]:
                    tail = _lose_triangle(e1, support, threshold, queued, queue, tail)
                    tail = _lose_triangle(e2, support, threshold, queued, queue, tail)
                i += 1
                j += 1


def peel(prepared, support, threshold, device):
    """The arcs of the k-truss with ``threshold = k - 2``.

    Parameters
    ----------
    prepared : Prepared
        Oriented CSR of an undirected simple graph.
    support : int64 array
        Triangles on each arc, in CSR order (the ``per_edge`` count); not modified.
    threshold : int
        Arcs on fewer triangles than this are removed (at least 1).
    device : {"cpu", "gpu"}

    Returns
    -------
    bool array
        Per arc, in CSR order: whether it is in the k-truss.
    """
    sym_ptr, sym_nbr, sym_arc = symmetric(prepared)
    support = support.astype(np.int64, copy=True)
    if device == "gpu":
        return _peel_gpu(prepared, sym_ptr, sym_nbr, sym_arc, support, threshold)
    alive = np.ones(prepared.m, dtype=np.bool_)
    _peel_cpu(prepared.rows, prepared.indices, sym_ptr, sym_nbr, sym_arc, support, np.int64(threshold), alive)
    return alive


def _peel_gpu(prepared, sym_ptr, sym_nbr, sym_arc, support, threshold):
    """:func:`peel` on the GPU, in rounds (see the module docstring)."""
    import cupy

    from ..gpu import runtime

    p = prepared
    kernel = runtime.function("truss.cu", "truss_round", vid=p.indices.dtype)
    runtime.check_memory(10 * p.m, "the k-truss's arc states and frontiers")
    state = cupy.zeros(p.m, dtype=np.uint8)
    frontier = cupy.flatnonzero(support < threshold)
    following = cupy.empty(p.m, dtype=np.int64)
    size = cupy.zeros(1, dtype=np.uint64)
    while frontier.size:
        state[frontier] = FRONTIER
        size.fill(0)
        args = (
            sym_ptr,
            sym_nbr,
            sym_arc,
            p.rows,
            p.indices,
            frontier,
            np.int64(frontier.size),
            state,
            support,
            np.int64(threshold),
            following,
            size,
        )
        runtime.launch(kernel, 32 * int(frontier.size), args)
        state[frontier] = REMOVED
        frontier = following[: int(size.get()[0])].copy()
    return state != REMOVED
