"""Polak's forward algorithm (polak-forward.md §II): one task per oriented arc
``u -> v``, counting ``|N+(u) ∩ N+(v)|`` by a two-pointer merge of the two
sorted out-neighbour lists. On the arcs of a directed graph as given it counts
transitive triples ``u->v, u->w, v->w``. On the GPU a total can read an
inline layout of the CSR, each list beside its length (the plan chooses it for
large graphs). docs/algorithms.md has the notes.
"""

import numpy as np

from . import per_arc
from .work import work_of

__all__ = ["INLINE_MAX_POSITIONS", "TOTAL_LAYOUTS", "count_cpu", "count_gpu", "inline_layout"]

#: Positions of the inline layout (``n + m``) must fit its int32 entries; beyond
#: them the total reads the CSR as the other modes do.
INLINE_MAX_POSITIONS = 2**31

#: What :func:`count_gpu`'s total reads: the CSR, or its inline layout.
TOTAL_LAYOUTS = ("csr", "inline")

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


def count_cpu(prepared, mode, vertices=None):
    """Count on the CPU, one task per arc (``per_arc.count_arcs``,
    ``intersections.merge_intersection``); returns an int (total) or an array in
    CSR ids."""
    return per_arc.count_arcs(per_arc.MERGE, prepared, mode, vertices)


def count_gpu(prepared, mode, *, total_layout="csr", vertices=None):
    """Count on the GPU (``kernels/merge.cu``): one thread per arc.

    Parameters
    ----------
    prepared : Prepared
    mode : {"total", "per_node", "per_edge"}
    total_layout : {"csr", "inline"}
        What a total reads, as the plan says (``Plan.merge_total``): the CSR, or
        its inline layout (``kernels/merge_inline.cu``, :func:`inline_layout`)
        where its positions fit 32 bits (:data:`INLINE_MAX_POSITIONS`; beyond,
        the CSR). The other modes read the CSR.
    vertices : (int, int), optional
        Count only the triangles of the arcs of these base vertices, a share
        ``(first, end)`` of CSR ids (:mod:`.shares`); all when None.

    Same contract as :func:`count_cpu`, with CuPy arrays in and out.

    Raises
    ------
    ValueError
        ``total_layout`` is not one of :data:`TOTAL_LAYOUTS`.
    """
    from . import gpu_count

    if total_layout not in TOTAL_LAYOUTS:
        raise ValueError(f"merge total_layout {total_layout!r}: accepted are 'csr' and 'inline'")
    p = prepared
    id_oriented = np.int32(p.ascending)
    first, end = gpu_count.arc_range(p, vertices)
    arcs = (np.int64(first), np.int64(end), id_oriented)
    if mode == "total" and total_layout == "inline" and p.n + p.m < INLINE_MAX_POSITIONS:
        layout, widest = inline_layout(p)
        waves = INLINE_WAVES if p.ascending and widest <= INLINE_EVEN_DEGREE else None
        return gpu_count.count(
            p, mode, "merge_inline", end - first, (layout, p.indptr, p.rows, *arcs), waves=waves
        )
    return gpu_count.count(p, mode, "merge", end - first, (p.indptr, p.indices, p.rows, *arcs))


def inline_layout(prepared):
    """The inline layout of ``prepared``'s CSR on the GPU (``kernels/merge_inline.cu``)
    and its largest out-degree.

    The layout is ``n + m`` int32: each vertex's out-degree followed by where
    each of its out-neighbours' own entries start. Made once per Prepared, in
    one launch; the largest out-degree is the graph's :func:`~.work.work_of`
    (read once, and already where ``auto`` chose merge on the prepared graph).

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
        runtime.launch(kernel, max(p.n, p.m), args)
        derived[INLINE_LAYOUT] = layout, work_of(p).widest
    return derived[INLINE_LAYOUT]
