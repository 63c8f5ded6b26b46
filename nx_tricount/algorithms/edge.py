"""Edge-parallel binary-search counting, WeTriC's baseline (wetric-wedge-parallel.md
§6.2): one task per oriented arc ``u -> v``, counting ``|N+(u) ∩ N+(v)|`` by
searching each element of the shorter list in the longer one. docs/algorithms.md
has the notes.
"""

import numpy as np
from numba import njit

from .accumulate import credit_triangle
from .counts import TOTAL

__all__ = ["count_cpu", "count_gpu", "search_intersection"]


@njit(cache=True, inline="always")
def _lower_bound(indices, lo, hi, x):
    """First position in the sorted ``indices[lo:hi]`` holding a value >= ``x``."""
    while lo < hi:
        mid = (lo + hi) >> 1
        if indices[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True, inline="always")
def search_intersection(indices, i, i_end, j, j_end, e, u, v, values, weighted, mode, row):
    """Triangles on arc ``e = u -> v`` by binary search of ``indices[i:i_end]``
    (``N+(u)``) and ``indices[j:j_end]`` (``N+(v)``); the intersection of ``per_arc``
    for the edge and vertex algorithms.

    After each hit or miss, the lower bound of the searched list moves past the
    element searched for: both lists are sorted.
    """
    found = 0
    if i_end - i <= j_end - j:
        while i < i_end and j < j_end:
            a = indices[i]
            j = _lower_bound(indices, j, j_end, a)
            if j < j_end and indices[j] == a:
                if mode != TOTAL:
                    credit_triangle(row, values, weighted, mode, e, i, j, u, v, a)
                found += 1
                j += 1
            i += 1
    else:
        while j < j_end and i < i_end:
            a = indices[j]
            i = _lower_bound(indices, i, i_end, a)
            if i < i_end and indices[i] == a:
                if mode != TOTAL:
                    credit_triangle(row, values, weighted, mode, e, i, j, u, v, a)
                found += 1
                i += 1
            j += 1
    return found


def count_cpu(prepared, mode):
    """Count on the CPU, one task per arc (``per_arc.count_arcs``); returns an int
    (total) or an array in CSR ids."""
    from . import per_arc  # here: per_arc imports search_intersection from this module

    return per_arc.count_arcs(per_arc.SEARCH, prepared, mode)


def count_gpu(prepared, mode):
    """Count on the GPU (``kernels/edge.cu``): one thread per arc.

    Same contract as :func:`count_cpu`, with CuPy arrays in and out.
    """
    from ..gpu import runtime

    p = prepared
    id_oriented = np.int32(p.ascending)
    return runtime.count(p, mode, "edge", p.m, (p.indptr, p.indices, p.rows, np.int64(p.m), id_oriented))
