"""The CPU driver of the arc-intersection algorithms, as ``kernels/common.cu`` is
on the GPU: merge, edge and bitmap run one task per oriented arc
``e = rows[e] -> indices[e]``, vertex one task per vertex ``u`` over its arcs, and
each algorithm gives only its intersection of ``N+(u)`` and ``N+(v)``
(:mod:`.intersections`, which credit the triangles' third vertices); the driver
credits the arc's ends (or the arc) with ``accumulate.credit_arc``.

The algorithm is an int code (:data:`MERGE`, :data:`SEARCH`, :data:`BITMAP`) that
the task branches on. Each (loop, code) pair has a three-line parallel entry point
that inlines the loop with its code as a constant, so the compiler keeps one
intersection per loop (a run-time code was slower: docs/algorithms.md, 'The per-arc
algorithms: one driver, one intersection each'). Passing the intersection as an
argument or closing over it would miss numba's on-disk cache in every process;
``numba.literally`` retypes on every call.
"""

import numba
import numpy as np
from numba import njit, prange

from ..preprocess.host_index import at
from .accumulate import accumulate_per_thread, credit_arc
from .counts import TOTAL
from .intersections import merge_intersection, search_intersection, slice_intersection

__all__ = ["MERGE", "SEARCH", "BITMAP", "count_arcs", "count_vertices"]

#: Intersection codes: two-pointer merge, binary search (edge and vertex), bit slices.
MERGE, SEARCH, BITMAP = 0, 1, 2


@njit(cache=True, inline="always")
def _count_arc(kind, indptr, indices, e, u, v, ascending, values, weighted, mode, row):
    """Triangles on arc ``e = u -> v``, credited in ``row`` unless ``mode`` is TOTAL.

    With every arc going to a higher id (``ascending``), every common out-neighbour
    lies after ``v`` in ``N+(u)``, so ``u``'s list is walked from ``e + 1``.
    """
    i = e + 1 if ascending else indptr[at(u)]
    i_end = indptr[at(u + 1)]
    j, j_end = indptr[at(v)], indptr[at(v + 1)]
    if kind == MERGE:
        found = merge_intersection(indices, i, i_end, j, j_end, e, u, v, values, weighted, mode, row)
    elif kind == SEARCH:
        found = search_intersection(indices, i, i_end, j, j_end, e, u, v, values, weighted, mode, row)
    else:
        found = slice_intersection(indices, i, i_end, j, j_end, e, u, v, values, weighted, mode, row)
    if mode != TOTAL:
        credit_arc(row, weighted, mode, e, u, v, found)
    return found


#: Arcs, and vertices, a thread takes at a time: each thread takes every
#: threads-th chunk (numba hands each thread one contiguous range of a prange,
#: and where the work gathers on some ids one thread did most of it).
ARC_CHUNK = 1024
VERTEX_CHUNK = 64


@njit(cache=True, inline="always")
def _arc_total(kind, indptr, indices, rows, ascending, first, end, threads):
    nothing = np.zeros(0, dtype=np.int64)  # no values, no row: TOTAL credits nothing
    total = 0
    for t in prange(threads):
        for chunk_start in range(first + t * ARC_CHUNK, end, threads * ARC_CHUNK):
            for e in range(chunk_start, min(end, chunk_start + ARC_CHUNK)):
                u, v = rows[at(e)], indices[at(e)]
                total += _count_arc(kind, indptr, indices, e, u, v, ascending, nothing, False, TOTAL, nothing)
    return total


@njit(cache=True, inline="always")
def _arc_accumulate(kind, indptr, indices, rows, ascending, first, end, values, weighted, mode, out):
    """Per-vertex or per-arc counts (see ``accumulate.accumulate_per_thread``)."""
    threads = out.shape[0]
    for t in prange(threads):
        row = out[at(numba.get_thread_id())]
        for chunk_start in range(first + t * ARC_CHUNK, end, threads * ARC_CHUNK):
            for e in range(chunk_start, min(end, chunk_start + ARC_CHUNK)):
                u, v = rows[at(e)], indices[at(e)]
                _count_arc(kind, indptr, indices, e, u, v, ascending, values, weighted, mode, row)


@njit(cache=True, inline="always")
def _vertex_total(kind, indptr, indices, ascending, first, end, threads):
    nothing = np.zeros(0, dtype=np.int64)
    total = 0
    for t in prange(threads):
        for chunk_start in range(first + t * VERTEX_CHUNK, end, threads * VERTEX_CHUNK):
            for u in range(chunk_start, min(end, chunk_start + VERTEX_CHUNK)):
                for e in range(indptr[at(u)], indptr[at(u + 1)]):
                    v = indices[at(e)]
                    total += _count_arc(
                        kind, indptr, indices, e, u, v, ascending, nothing, False, TOTAL, nothing
                    )
    return total


@njit(cache=True, inline="always")
def _vertex_accumulate(kind, indptr, indices, ascending, first, end, values, weighted, mode, out):
    """Per-vertex or per-arc counts (see ``accumulate.accumulate_per_thread``)."""
    threads = out.shape[0]
    for t in prange(threads):
        row = out[at(numba.get_thread_id())]
        for chunk_start in range(first + t * VERTEX_CHUNK, end, threads * VERTEX_CHUNK):
            for u in range(chunk_start, min(end, chunk_start + VERTEX_CHUNK)):
                for e in range(indptr[at(u)], indptr[at(u + 1)]):
                    v = indices[at(e)]
                    _count_arc(kind, indptr, indices, e, u, v, ascending, values, weighted, mode, row)


# The parallel entry points: each loop with one intersection inlined (see above).
@njit(parallel=True, cache=True)
def _merge_arcs_total(indptr, indices, rows, ascending, first, end, threads):
    return _arc_total(MERGE, indptr, indices, rows, ascending, first, end, threads)


@njit(parallel=True, cache=True)
def _merge_arcs_accumulate(indptr, indices, rows, ascending, first, end, values, weighted, mode, out):
    _arc_accumulate(MERGE, indptr, indices, rows, ascending, first, end, values, weighted, mode, out)


@njit(parallel=True, cache=True)
def _search_arcs_total(indptr, indices, rows, ascending, first, end, threads):
    return _arc_total(SEARCH, indptr, indices, rows, ascending, first, end, threads)


@njit(parallel=True, cache=True)
def _search_arcs_accumulate(indptr, indices, rows, ascending, first, end, values, weighted, mode, out):
    _arc_accumulate(SEARCH, indptr, indices, rows, ascending, first, end, values, weighted, mode, out)


@njit(parallel=True, cache=True)
def _bitmap_arcs_total(indptr, indices, rows, ascending, first, end, threads):
    return _arc_total(BITMAP, indptr, indices, rows, ascending, first, end, threads)


@njit(parallel=True, cache=True)
def _bitmap_arcs_accumulate(indptr, indices, rows, ascending, first, end, values, weighted, mode, out):
    _arc_accumulate(BITMAP, indptr, indices, rows, ascending, first, end, values, weighted, mode, out)


@njit(parallel=True, cache=True)
def _search_vertices_total(indptr, indices, ascending, first, end, threads):
    return _vertex_total(SEARCH, indptr, indices, ascending, first, end, threads)


@njit(parallel=True, cache=True)
def _search_vertices_accumulate(indptr, indices, ascending, first, end, values, weighted, mode, out):
    _vertex_accumulate(SEARCH, indptr, indices, ascending, first, end, values, weighted, mode, out)


#: Intersection code -> (total, accumulate) entry points, one task per arc.
_ARC_ENTRIES = {
    MERGE: (_merge_arcs_total, _merge_arcs_accumulate),
    SEARCH: (_search_arcs_total, _search_arcs_accumulate),
    BITMAP: (_bitmap_arcs_total, _bitmap_arcs_accumulate),
}
#: The same, one task per vertex.
_VERTEX_ENTRIES = {SEARCH: (_search_vertices_total, _search_vertices_accumulate)}


def count_arcs(kind, prepared, mode, vertices=None):
    """Count with intersection ``kind``, one task per arc; an int (total) or an
    array in CSR ids (see ``accumulate.accumulate_per_thread``). ``vertices``, a
    range ``(first, end)`` of base vertices, counts only their arcs' triangles
    (:mod:`.shares`)."""
    p = prepared
    total, accumulate = _ARC_ENTRIES[kind]
    first, end = (0, p.m) if vertices is None else (int(p.indptr[vertices[0]]), int(p.indptr[vertices[1]]))
    arrays = (p.indptr, p.indices, p.rows, bool(p.ascending), first, end)
    if mode == "total":
        return int(total(*arrays, numba.get_num_threads()))
    return accumulate_per_thread(accumulate, arrays, p, mode)


def count_vertices(kind, prepared, mode, vertices=None):
    """Count with intersection ``kind``, one task per vertex; as :func:`count_arcs`."""
    p = prepared
    total, accumulate = _VERTEX_ENTRIES[kind]
    first, end = (0, p.n) if vertices is None else (int(vertices[0]), int(vertices[1]))
    arrays = (p.indptr, p.indices, bool(p.ascending), first, end)
    if mode == "total":
        return int(total(*arrays, numba.get_num_threads()))
    return accumulate_per_thread(accumulate, arrays, p, mode)
