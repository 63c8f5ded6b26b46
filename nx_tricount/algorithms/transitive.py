"""Transitive triples of a directed graph (NetworkX's numerator of directed
transitivity: ``v->w, v->u, w->u`` over ordered pairs of successors), counted
once per triangle of its undirected pairs instead of once per arc of its
successor lists.

The pairs are oriented and ordered as any undirected graph
(:func:`~nx_tricount.classes.preparation.directions_csr`), so a hub's long successor
list is never intersected whole; each arc carries the directions its pair has
(bit 0 along the arc, bit 1 against it). Polak's merge (:mod:`.merge`) finds
each triangle ``u -> v, u -> a, v -> a`` once, and the triangle adds its
transitive triples: each way of choosing one present direction per pair is a
tournament on the three vertices, transitive (one triple) or one of the two
cycles ``u->v->a->u``, ``u->a->v->u`` (none). ``kernels/transitive.cu`` is the
GPU kernel. docs/algorithms.md, "Directed transitivity", has the notes.
"""

import numpy as np
from numba import njit, prange

__all__ = ["count_cpu", "count_gpu", "transitive_triples"]


@njit(cache=True, inline="always")
def _directions(state):
    return (state & 1) + (state >> 1)


@njit(cache=True, inline="always")
def transitive_triples(uv, ua, va):
    """Transitive triples on the triangle of the pairs ``uv``, ``ua``, ``va``
    (each the directions of its oriented arc ``u -> v``, ``u -> a``, ``v -> a``)."""
    choices = _directions(uv) * _directions(ua) * _directions(va)
    cycles = (uv & va & (ua >> 1) & 1) + ((uv >> 1) & (va >> 1) & ua & 1)
    return choices - cycles


@njit(parallel=True, cache=True)
def _total(indptr, indices, rows, ascending, states):
    total = 0
    for e in prange(indices.size):
        u, v = rows[e], indices[e]
        i = e + 1 if ascending else indptr[u]
        i_end, j, j_end = indptr[u + 1], indptr[v], indptr[v + 1]
        uv = states[e]
        while i < i_end and j < j_end:
            a, b = indices[i], indices[j]
            if a < b:
                i += 1
            elif a > b:
                j += 1
            else:
                total += transitive_triples(uv, states[i], states[j])
                i += 1
                j += 1
    return total


def count_cpu(prepared):
    """Transitive triples of ``prepared`` (a
    :func:`~nx_tricount.classes.preparation.directions_csr`), an int."""
    p = prepared
    return int(_total(p.indptr, p.indices, p.rows, bool(p.ascending), p.values))


def count_gpu(prepared):
    """:func:`count_cpu` on the GPU (``kernels/transitive.cu``), CuPy arrays in."""
    import cupy

    from ..gpu import runtime
    from . import gpu_count

    p = prepared
    out = cupy.zeros(1, dtype=np.uint64)
    kernel = runtime.function("transitive.cu", "transitive_total", vid=p.indices.dtype)
    args = (p.indptr, p.indices, p.rows, np.int64(p.m), np.int32(p.ascending), p.values, out)
    runtime.launch(kernel, p.m, args)
    return gpu_count.finish(out, "total")
