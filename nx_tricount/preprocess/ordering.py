"""Vertex orderings: relabel vertices before orientation.

``none`` keeps the ids. ``degree`` numbers vertices by ascending undirected
degree, ties by id (WeTriC §5.1): it flattens the out-degree distribution after
orientation and puts the densest vertices last, where WeTriC's bitmap rows live.
"""

from ..device import module_of

__all__ = ["ORDERINGS", "vertex_order", "relabel"]

ORDERINGS = ("none", "degree")


def vertex_order(how, degree):
    """Return ``perm`` with ``perm[new_id] = old_id``, or None for the identity.

    Parameters
    ----------
    how : {"none", "degree"}
    degree : integer array
        Undirected degree of every vertex (old ids).
    """
    if how == "none":
        return None
    if how == "degree":
        xp = module_of(degree)
        return xp.argsort(degree, kind="stable")
    raise ValueError(f"unknown ordering {how!r}; accepted: {', '.join(ORDERINGS)}")


def relabel(perm, n):
    """Return ``rank`` with ``rank[old_id] = new_id`` for a permutation ``perm``."""
    xp = module_of(perm)
    rank = xp.empty(n, dtype=perm.dtype)
    rank[perm] = xp.arange(n, dtype=perm.dtype)
    return rank
