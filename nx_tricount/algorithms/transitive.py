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
GPU kernel. WeTriC's wedges (:mod:`.wedge`) find each triangle once too, as a
wedge ``v -> w, v -> u`` and its closing arc: the wedge's two arcs give two
states, the closing arc the third (``kernels/wedge.cu``, ``wedge_transitive``,
where the densest rows' states lie in a bitmap of two planes). docs/algorithms.md,
"Directed transitivity", has the notes.
"""

import numpy as np
from numba import njit, prange

from .wedge import CPU_SPREAD, find_position, first_wedge, next_wedge
from .wedge_layout import wedge_prefix

__all__ = ["count_cpu", "count_gpu", "transitive_triples", "HUB_WORDS"]

#: Wedge's ``hub_words`` for transitive triples: a word of the two planes costs two
#: loads and six ANDs, so fewer vertices pay for the hub block than in a plain total
#: (R-MAT 22 on one H200: 25.7 ms against 26.9 at 4 and 43.9 without the block;
#: docs/algorithms.md, "Directed transitivity").
HUB_WORDS = 2


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


@njit(parallel=True, cache=True)
def _wedge_total(indptr, indices, prefix, spread, ascending, states):
    wedges = prefix[-1]
    tasks = (wedges + spread - 1) // spread
    no_splits = np.empty(0, dtype=np.int64)
    total = 0
    for t in prange(tasks):
        k = t * spread
        k_end = min(k + spread, wedges)
        v, d, i, j = first_wedge(indptr, prefix, no_splits, k)
        found = 0
        while True:
            base = indptr[v]
            w, u = indices[base + i], indices[base + j]
            closing = find_position(indices, indptr[w], indptr[w + 1], u)
            if closing >= 0:
                found += transitive_triples(states[base + i], states[base + j], states[closing])
            elif not ascending:
                # The closing arc runs u -> w: the triangle v -> u, v -> w, u -> w.
                closing = find_position(indices, indptr[u], indptr[u + 1], w)
                if closing >= 0:
                    found += transitive_triples(states[base + j], states[base + i], states[closing])
            k += 1
            if k == k_end:
                break
            v, d, i, j = next_wedge(indptr, prefix, no_splits, v, d, i, j)
        total += found
    return total


def count_cpu(prepared, algorithm="merge"):
    """Transitive triples of ``prepared`` (a
    :func:`~nx_tricount.classes.preparation.directions_csr`), an int, counted by
    ``algorithm`` (merge or wedge: ``catalog.PAIR_TRANSITIVITY``)."""
    p = prepared
    if algorithm == "wedge":
        prefix = wedge_prefix(p.indptr)
        return int(_wedge_total(p.indptr, p.indices, prefix, CPU_SPREAD, bool(p.ascending), p.values))
    return int(_total(p.indptr, p.indices, p.rows, bool(p.ascending), p.values))


def count_gpu(prepared, algorithm="merge", **parameters):
    """:func:`count_cpu` on the GPU (``kernels/transitive.cu``, or for wedge
    ``kernels/wedge.cu``), CuPy arrays in; ``parameters``: wedge's kernel
    parameters (``spread``, ``bitmap_rows``, ``hub_words``, as
    :func:`.wedge.count_gpu` takes them; ``hub_words`` defaults to :data:`HUB_WORDS`)."""
    import cupy

    from ..gpu import runtime
    from . import gpu_count

    p = prepared
    out = cupy.zeros(1, dtype=np.uint64)
    if algorithm == "wedge":
        _wedge_gpu(p, out, **parameters)
    else:
        kernel = runtime.function("transitive.cu", "transitive_total", vid=p.indices.dtype)
        args = (p.indptr, p.indices, p.rows, np.int64(p.m), np.int32(p.ascending), p.values, out)
        runtime.launch(kernel, p.m, args)
    return gpu_count.finish(out, "total")


def _wedge_gpu(p, out, spread=None, bitmap_rows=None, hub_words=None):
    """Add the transitive triples of ``p``'s wedges to ``out[0]``: the wedge layout,
    bitmap rows and hub block of :mod:`.wedge`, the bitmap's two planes holding the
    states' two bits (``kernels/wedge.cu``, ``wedge_transitive``)."""
    from ..gpu import runtime
    from . import wedge
    from .wedge_hub import HUB_THREADS, gpu_hub_prefix
    from .wedge_layout import count_bitmap, gpu_layout, triangle_words

    eid = np.uint32 if p.m < 2**32 else np.int64
    kernel_types = dict(vid=p.indices.dtype, weight=np.float64, eid=eid)
    largest = wedge.BITMAP_ROWS if bitmap_rows is None else int(bitmap_rows)
    hub_words = HUB_WORDS if hub_words is None else int(hub_words)
    runtime.check_memory(
        56 * (p.n + 1) + 8 * triangle_words(min(largest, p.n)),
        "the wedge and hub prefix sums and the bitmap's two planes",
    )
    prefix, wedges, layout = gpu_layout(p, largest, kernel_types)
    bitmap = count_bitmap(p, layout, kernel_types, None, planes=True)
    vid = p.indices.dtype.type
    if layout.rows and hub_words > 0:
        hub_prefix, hub_wedges = gpu_hub_prefix(p, layout, hub_words, "total", kernel_types)
        # As wedge's total: the hub block only where it takes enough wedges off.
        if hub_wedges <= (1 - wedge.HUB_MIN_SHARE) * wedges:
            hub = runtime.function("wedge.cu", "wedge_hub_transitive", **kernel_types)
            args = (p.indptr, p.indices, prefix, hub_prefix, bitmap, vid(layout.first_row))
            args += (np.uint32(layout.words), p.values, out)
            runtime.launch(
                hub, layout.rows * HUB_THREADS, args, threads=HUB_THREADS, shared_mem=8 * layout.words
            )
            prefix, wedges = hub_prefix, hub_wedges
    if not wedges:
        return
    count = runtime.function("wedge.cu", "wedge_transitive", **kernel_types)
    slot_bytes = 2 * wedge.THREADS * np.dtype(eid).itemsize
    if spread is None:
        spread = wedge.fitted_spread(count, wedges, wedge.THREADS, slot_bytes)
    args = (p.indptr, p.indices, prefix, vid(p.n), np.int64(wedges), np.int32(spread))
    args += (np.int32(not p.ascending), bitmap, vid(layout.first_row), np.uint32(layout.words), p.values, out)
    launch = dict(threads=wedge.THREADS, shared_mem=int(spread) * slot_bytes)
    runtime.launch(count, -(-wedges // int(spread)), args, **launch)
