"""How the GPU wedge count's per-node results reach the vertices through the
arcs (``kernels/wedge.cu``): the arcs' counters or pairs of terms, zeroed over the
count's arcs, and the launch that credits them to the vertices.

A triangle ``(v; w, u)`` is found at its wedge, whose two arcs ``v -> w`` and
``v -> u`` belong to the base vertex ``v``: crediting them, where neighbouring
threads share arcs, costs fewer scattered atomics than crediting ``w`` and ``u``
per triangle (docs/algorithms.md, 'wedge: per-node launch bounds and hub
counters', 'wedge: weighted sums by arcs').
"""

import numpy as np

__all__ = ["arc_array", "credit_counts", "credit_terms"]


def arc_array(p, first_arc, end_arc, items, dtype):
    """Per-arc scratch of ``items`` elements of ``dtype`` an arc, zeroed over the
    arcs ``first_arc`` to ``end_arc`` alone (a memset: CuPy's fill would compile a
    kernel at its first use)."""
    import cupy

    array = cupy.empty(items * p.m, dtype=dtype)
    width = items * array.itemsize
    if end_arc > first_arc:
        (array.data + width * first_arc).memset_async(0, width * (end_arc - first_arc))
    return array


def credit_counts(p, arc_hits, first_arc, end_arc, sums, kernel_types):
    """Each arc's 32-bit count to its source once and to its target twice, into
    ``sums`` (``wedge_arc_credit``), then halved (:func:`.gpu_count.halve_once`)."""
    from ..gpu import runtime
    from .gpu_count import halve_once

    credit = runtime.function("wedge.cu", "wedge_arc_credit", **kernel_types)
    arcs, size = slice(first_arc, end_arc), end_arc - first_arc
    vid = p.indices.dtype.type
    args = (p.indices[arcs], p.rows[arcs], arc_hits[arcs], np.int64(size), vid(p.n), sums)
    runtime.launch(credit, size, args, grid=runtime.resident_blocks(credit, 0))
    halve_once(sums)


def credit_terms(p, terms, first_arc, end_arc, out, kernel_types):
    """Each arc's pair of terms (sum, compensation) to its target's pair in ``out``
    (``wedge_arc_terms``); the sources took theirs in the count."""
    from ..gpu import runtime

    credit = runtime.function("wedge.cu", "wedge_arc_terms", **kernel_types)
    size = end_arc - first_arc
    args = (p.indices[first_arc:end_arc], terms[2 * first_arc : 2 * end_arc], np.int64(size), out)
    runtime.launch(credit, size, args, grid=runtime.resident_blocks(credit, 0))
