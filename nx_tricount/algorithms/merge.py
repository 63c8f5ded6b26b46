"""Polak's forward algorithm (polak-forward.md §II): one task per oriented arc
``u -> v``, counting ``|N+(u) ∩ N+(v)|`` by a two-pointer merge of the two
sorted out-neighbour lists. On the arcs of a directed graph as given it counts
transitive triples ``u->v, u->w, v->w``. On the GPU the total of a graph of
four million arcs or more reads an inline layout of the CSR, each list beside
its length. docs/algorithms.md has the notes.
"""

import numpy as np
from numba import njit

from ..preprocess.hashed_csr import MERGE_TOTAL
from .accumulate import credit_triangle
from .counts import TOTAL

__all__ = [
    "INLINE_MAX_POSITIONS", "INLINE_MIN_ARCS", "count_cpu", "count_gpu", "inline_layout",
    "merge_intersection",
]

#: Positions of the inline layout (``n + m``) must fit its int32 entries; beyond
#: them the total reads the CSR as the other modes do.
INLINE_MAX_POSITIONS = 2**31

#: Fewest arcs whose total reads the inline layout. Making it (a launch, a gather
#: of ``indptr[v]`` per arc and a read) costs a fresh graph about what the kernel
#: saves on BA 2M×10, and more than it saves on smaller graphs (measured:
#: docs/algorithms.md, "merge: the inline layout").
INLINE_MIN_ARCS = 1 << 22

#: Largest out-degree up to which an id-oriented graph's merges are short and
#: even enough for a grid-stride loop (:data:`INLINE_WAVES`); other graphs take
#: one thread per arc, where the block scheduler balances unequal merges.
INLINE_EVEN_DEGREE = 64

#: The grid-stride loop gets four times the blocks the GPU holds at once: faster
#: than one thread per arc or 64 waves on graphs of low, even out-degree, slower on
#: R-MAT's uneven ones (measured: docs/algorithms.md, "merge: the inline layout").
INLINE_WAVES = 4

#: Key of ``Prepared.derived`` that holds the inline layout and the largest out-degree.
INLINE_LAYOUT = "merge_inline_layout"


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
    """Count on the GPU (``kernels/merge.cu``): one thread per arc. The total of
    a graph of :data:`INLINE_MIN_ARCS` arcs or more reads the CSR's inline layout
    (``kernels/merge_inline.cu``, :func:`inline_layout`) where its positions fit
    32 bits; a small graph's may have been counted with its CSR
    (:func:`~nx_tricount.preprocess.hashed_csr.prepare_hashed`).

    Same contract as :func:`count_cpu`, with CuPy arrays in and out.
    """
    from ..gpu import runtime

    p = prepared
    if mode == "total" and MERGE_TOTAL in p.derived:  # counted with a small graph's CSR
        return p.derived[MERGE_TOTAL]
    id_oriented = np.int32(p.ascending)
    if mode == "total" and p.m >= INLINE_MIN_ARCS and p.n + p.m < INLINE_MAX_POSITIONS:
        layout, widest = inline_layout(p)
        waves = INLINE_WAVES if p.ascending and widest <= INLINE_EVEN_DEGREE else None
        args = (layout, p.indptr, p.rows, np.int64(p.m), id_oriented)
        return runtime.count(p, mode, "merge_inline", p.m, args, waves=waves)
    return runtime.count(p, mode, "merge", p.m, (p.indptr, p.indices, p.rows, np.int64(p.m), id_oriented))


def inline_layout(prepared):
    """The inline layout of ``prepared``'s CSR on the GPU (``kernels/merge_inline.cu``)
    and its largest out-degree.

    The layout is ``n + m`` int32: each vertex's out-degree followed by where
    each of its out-neighbours' own entries start. Made once per Prepared, in
    one launch and one read.

    Returns
    -------
    layout : cupy array
    widest : int
        The largest out-degree.
    """
    import cupy

    from ..gpu import runtime

    p, derived = prepared, prepared.derived
    if INLINE_LAYOUT not in derived:
        layout = cupy.empty(p.n + p.m, dtype=np.int32)
        kernel = runtime.function("merge_inline.cu", "merge_inline_layout", vid=p.indices.dtype)
        args = (p.indptr, p.indices, p.rows, np.int64(p.n), np.int64(p.m), layout)
        with runtime.cuda_errors("laying out the CSR for merge"):
            runtime.launch(kernel, max(p.n, p.m), args)
            widest = int((p.indptr[1:] - p.indptr[:-1]).max()) if p.n else 0
        derived[INLINE_LAYOUT] = layout, widest
    return derived[INLINE_LAYOUT]
