"""Polak's forward algorithm (polak-forward.md §II): one task per oriented arc
``u -> v``, counting ``|N+(u) ∩ N+(v)|`` by a two-pointer merge of the two
sorted out-neighbour lists.

On an acyclic orientation each triangle is met exactly once, at the arc
between its two lowest vertices. On the arcs of a directed graph as given it
counts transitive triples ``u->v, u->w, v->w`` instead (directed transitivity).
"""

import numba
import numpy as np
from numba import njit, prange

from .accumulate import accumulate_per_thread, credit_arc, credit_triangle

__all__ = ["count_cpu", "count_gpu"]


@njit(parallel=True, cache=True)
def _total(indptr, indices, rows):
    total = 0
    for e in prange(indices.size):
        u = rows[e]
        v = indices[e]
        i, i_end = indptr[u], indptr[u + 1]
        j, j_end = indptr[v], indptr[v + 1]
        found = 0
        while i < i_end and j < j_end:
            a = indices[i]
            b = indices[j]
            if a < b:
                i += 1
            elif a > b:
                j += 1
            else:
                found += 1
                i += 1
                j += 1
        total += found
    return total


@njit(parallel=True, cache=True)
def _accumulate(indptr, indices, rows, values, weighted, mode, out):
    """Add per-vertex (mode PER_NODE) or per-arc (PER_EDGE) counts into ``out``.

    ``out`` has one row per thread, so threads never write the same cell; the
    caller sums the rows. With ``weighted``, each triangle adds the product of
    its three arc values instead of 1 (PER_NODE only).
    """
    for e in prange(indices.size):
        row = out[numba.get_thread_id()]
        u = rows[e]
        v = indices[e]
        i, i_end = indptr[u], indptr[u + 1]
        j, j_end = indptr[v], indptr[v + 1]
        found = 0
        while i < i_end and j < j_end:
            a = indices[i]
            b = indices[j]
            if a < b:
                i += 1
            elif a > b:
                j += 1
            else:
                credit_triangle(row, values, weighted, mode, e, i, j, u, v, a)
                found += 1
                i += 1
                j += 1
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
        return int(_total(p.indptr, p.indices, p.rows))
    return accumulate_per_thread(_accumulate, (p.indptr, p.indices, p.rows), p, mode)


def count_gpu(prepared, mode):
    """Count on the GPU (``kernels/merge.cu``): one thread per arc.

    Same contract as :func:`count_cpu`, with CuPy arrays in and out.
    """
    from .. import runtime

    p = prepared
    id_oriented = np.int32(p.ascending)
    return runtime.count(p, mode, "merge", p.m, (p.indptr, p.indices, p.rows, np.int64(p.m), id_oriented))
