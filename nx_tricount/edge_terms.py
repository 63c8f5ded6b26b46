"""The per-edge quantities of a ``TriGraph``, counted as a plan says (as
:mod:`nx_tricount.terms` counts the per-vertex ones): the triangles on each
edge of the simple undirected graph, its support. Arrays stay on the plan's
device.
"""

import numpy as np

from . import preparation
from .device import module_of
from .execute import run
from .terms import _failures

__all__ = ["triangles_per_edge"]


def triangles_per_edge(G, plan):
    """Triangles on each edge of ``G``'s simple undirected graph.

    Returns
    -------
    source, target, triangles : int64 arrays on the plan's device
        Each edge once, ``source < target`` (ids of ``G``), sorted by
        ``(source, target)``, and the triangles it is in.
    """
    with _failures(plan):
        prepared = preparation.oriented_csr(G, plan.orientation, plan.ordering, plan.device)
        counts = run(plan, prepared, "per_edge")
        xp = module_of(counts.per_edge)
        source = xp.minimum(counts.edge_src, counts.edge_dst).astype(np.int64)
        target = xp.maximum(counts.edge_src, counts.edge_dst).astype(np.int64)
        order = xp.lexsort(xp.stack([target, source]))
        return source[order], target[order], counts.per_edge[order].astype(np.int64)
