"""Bit-wise intersection (bitwise-2d-partition.md §3.3, Algorithm 1): one task
per oriented arc ``u -> v``, counting ``|N+(u) ∩ N+(v)|`` by AND-ing and
popcounting 32-id bit slices of the two neighbour lists, built per arc from the
CSR (no 2D partitions; ``intersections.slice_intersection``). Per node, per edge
and weighted, each set bit of the AND is a third vertex, whose arcs are found by
popcounts. docs/algorithms.md has the notes and the deviations from the paper.
"""

import numpy as np

from . import per_arc

__all__ = ["count_cpu", "count_gpu"]


def count_cpu(prepared, mode, vertices=None):
    """Count on the CPU, one task per arc (``per_arc.count_arcs``); returns an int
    (total) or an array in CSR ids: int64 counts, or per-vertex sums of triangle
    arc-value products when ``prepared.values`` is set and ``mode`` is "per_node"."""
    return per_arc.count_arcs(per_arc.BITMAP, prepared, mode, vertices)


def count_gpu(prepared, mode, vertices=None):
    """Count on the GPU (``kernels/bitmap.cu``): one thread per arc.

    Same contract as :func:`count_cpu`, with CuPy arrays in and out.
    """
    from . import gpu_count

    p = prepared
    ascending = np.int32(p.ascending)
    first, end = gpu_count.arc_range(p, vertices)
    args = (p.indptr, p.indices, p.rows, np.int64(first), np.int64(end), ascending)
    return gpu_count.count(p, mode, "bitmap", end - first, args)
