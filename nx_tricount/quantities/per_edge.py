"""The per-edge quantities of a ``TriGraph``, counted as a plan says (as
:mod:`nx_tricount.quantities.per_vertex` counts the per-vertex ones): the triangles on each
edge of the simple undirected graph, its support, one row per edge in the
graph's node order. The count is the triangle family's
(:func:`nx_tricount.quantities.family.edge_support`); arrays stay where it leaves them.
"""

import numpy as np

from ..gpu.device import module_of
from .family import edge_support

__all__ = ["triangles_per_edge"]


def triangles_per_edge(G, plan):
    """Triangles on each edge of ``G``'s simple undirected graph.

    Returns
    -------
    source, target, triangles : int64 arrays
        Each edge once, ``source < target`` (ids of ``G``), sorted by
        ``(source, target)``, and the triangles it is in.
    """
    counts = edge_support(G, plan)
    xp = module_of(counts.per_edge)
    source = xp.minimum(counts.edge_src, counts.edge_dst).astype(np.int64)
    target = xp.maximum(counts.edge_src, counts.edge_dst).astype(np.int64)
    order = xp.lexsort(xp.stack([target, source]))
    return source[order], target[order], counts.per_edge[order].astype(np.int64)
