"""Edge-parallel binary-search counting, WeTriC's baseline (wetric-wedge-parallel.md
§6.2): one task per oriented arc ``u -> v``, counting ``|N+(u) ∩ N+(v)|`` by
searching each element of the shorter list in the longer one
(``intersections.search_intersection``). docs/algorithms.md has the notes.
"""

import numpy as np

from . import per_arc

__all__ = ["count_cpu", "count_gpu"]


def count_cpu(prepared, mode, vertices=None):
    """Count on the CPU, one task per arc (``per_arc.count_arcs``); returns an int
    (total) or an array in CSR ids."""
    return per_arc.count_arcs(per_arc.SEARCH, prepared, mode, vertices)


def count_gpu(prepared, mode, vertices=None):
    """Count on the GPU (``kernels/edge.cu``): one thread per arc.

    Same contract as :func:`count_cpu`, with CuPy arrays in and out.
    """
    from . import gpu_count

    p = prepared
    id_oriented = np.int32(p.ascending)
    first, end = gpu_count.arc_range(p, vertices)
    args = (p.indptr, p.indices, p.rows, np.int64(first), np.int64(end), id_oriented)
    return gpu_count.count(p, mode, "edge", end - first, args)
