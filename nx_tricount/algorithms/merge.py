"""Polak's forward algorithm (polak-forward.md §II): one task per oriented arc
``u -> v``, counting ``|N+(u) ∩ N+(v)|`` by a two-pointer merge of the two
sorted out-neighbour lists. On the arcs of a directed graph as given it counts
transitive triples ``u->v, u->w, v->w``. docs/algorithms.md has the notes.
"""

import numpy as np
from numba import njit

from .accumulate import credit_triangle
from .counts import TOTAL

__all__ = ["count_cpu", "count_gpu", "merge_intersection"]


@njit(cache=True, inline="always")
def merge_intersection(indices, i, i_end, j, j_end, e, u, v, values, weighted, mode, row):
    """Triangles on arc ``e = u -> v`` by merging ``indices[i:i_end]`` (``N+(u)``)
    and ``indices[j:j_end]`` (``N+(v)``); the intersection of ``per_arc``."""
    found = 0
    while i < i_end and j < j_end:
        a = indices[i]
        b = indices[j]
        if a < b:
            i += 1
        elif a > b:
            j += 1
        else:
            if mode != TOTAL:
                credit_triangle(row, values, weighted, mode, e, i, j, u, v, a)
            found += 1
            i += 1
            j += 1
    return found


def count_cpu(prepared, mode):
    """Count on the CPU, one task per arc (``per_arc.count_arcs``); returns an int
    (total) or an array in CSR ids."""
    from . import per_arc  # here: per_arc imports merge_intersection from this module

    return per_arc.count_arcs(per_arc.MERGE, prepared, mode)


def count_gpu(prepared, mode):
    """Count on the GPU (``kernels/merge.cu``): one thread per arc.

    Same contract as :func:`count_cpu`, with CuPy arrays in and out.
    """
    from .. import runtime

    p = prepared
    id_oriented = np.int32(p.ascending)
    return runtime.count(p, mode, "merge", p.m, (p.indptr, p.indices, p.rows, np.int64(p.m), id_oriented))
