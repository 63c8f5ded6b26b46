"""Vertex-parallel binary-search counting, WeTriC's other baseline
(wetric-wedge-parallel.md §6.2): one task per vertex ``u`` intersects each of its
out-arcs ``u -> v`` by binary search (``edge.search_arc``).

Same triangles at the same arcs as the merge and edge algorithms, so every mode
gives the same result; the work per task follows the out-degree distribution,
which is what the wedge- and edge-parallel algorithms balance better.
"""

import numba
import numpy as np
from numba import njit, prange

from .accumulate import accumulate_per_thread, credit_arc
from .counts import TOTAL
from .edge import search_arc

__all__ = ["count_cpu", "count_gpu"]


@njit(parallel=True, cache=True)
def _total(indptr, indices):
    no_values = np.zeros(0, dtype=np.int64)
    total = 0
    for u in prange(indptr.size - 1):
        for e in range(indptr[u], indptr[u + 1]):
            total += search_arc(
                indptr, indices, e, u, indices[e], no_values, False, TOTAL, no_values
            )
    return total


@njit(parallel=True, cache=True)
def _accumulate(indptr, indices, values, weighted, mode, out):
    """Per-vertex or per-arc counts (see ``accumulate.accumulate_per_thread``)."""
    for u in prange(indptr.size - 1):
        row = out[numba.get_thread_id()]
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            found = search_arc(indptr, indices, e, u, v, values, weighted, mode, row)
            credit_arc(row, weighted, mode, e, u, v, found)


def count_cpu(prepared, mode):
    """Count on the CPU; returns an int (total) or an array in CSR ids.

    Parameters
    ----------
    prepared : Prepared
        Oriented CSR (host arrays).
    mode : {"total", "per_node", "per_edge"}
    """
    p = prepared
    if mode == "total":
        return int(_total(p.indptr, p.indices))
    return accumulate_per_thread(_accumulate, (p.indptr, p.indices), p, mode)


def count_gpu(prepared, mode):
    """Count on the GPU (``kernels/vertex.cu``): one thread per vertex.

    Same contract as :func:`count_cpu`, with CuPy arrays in and out.
    """
    from .. import runtime

    p = prepared
    id_oriented = np.int32(p.ascending)
    return runtime.count(p, mode, "vertex", p.n, (p.indptr, p.indices, np.int64(p.n), id_oriented))
