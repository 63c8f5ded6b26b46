"""Vertex-parallel binary-search counting, WeTriC's other baseline
(wetric-wedge-parallel.md §6.2): one task per vertex ``u`` intersects each of its
out-arcs ``u -> v`` by binary search (``edge.search_intersection``).
docs/algorithms.md has the notes.
"""

import numpy as np

from . import per_arc

__all__ = ["count_cpu", "count_gpu"]


def count_cpu(prepared, mode, vertices=None):
    """Count on the CPU, one task per vertex (``per_arc.count_vertices``); returns
    an int (total) or an array in CSR ids."""
    return per_arc.count_vertices(per_arc.SEARCH, prepared, mode, vertices)


def count_gpu(prepared, mode, vertices=None):
    """Count on the GPU (``kernels/vertex.cu``): one thread per vertex.

    Same contract as :func:`count_cpu`, with CuPy arrays in and out.
    """
    from . import gpu_count

    p = prepared
    id_oriented = np.int32(p.ascending)
    first, end = (0, p.n) if vertices is None else vertices
    args = (p.indptr, p.indices, np.int64(first), np.int64(end), id_oriented)
    return gpu_count.count(p, mode, "vertex", end - first, args)
