"""Edge orientations: direct each undirected edge so that every triangle is
found exactly once (the oriented graph is acyclic).

``id`` directs from the smaller id to the larger. ``degree`` directs from the
lower degree to the higher, ties by id (Polak's forward algorithm, §II-B): out-
degrees are then at most about sqrt(2m). ``a-direction`` peels the graph with a
doubling degree threshold, which evens the out-degrees out further
(:mod:`.a_direction`).
"""

import numpy as np

from ..device import module_of
from . import elementwise
from .a_direction import a_direction
from .ordering import relabel
from .simplify import packed_keys

__all__ = ["ORIENTATIONS", "orient", "oriented_keys"]

ORIENTATIONS = ("id", "degree", "a-direction")


def orient(how, lo, hi, degree):
    """Return ``(src, dst)``: the edges ``lo < hi`` directed by rule ``how``.

    Parameters
    ----------
    how : {"id", "degree", "a-direction"}
    lo, hi : integer arrays
        Undirected simple edges with ``lo < hi``.
    degree : integer array
        Undirected degree of every vertex.

    Returns
    -------
    src, dst : arrays
        The arcs, aligned with ``lo, hi``.
    """
    if how == "id":
        return lo, hi
    if how == "degree":
        xp = module_of(lo)
        dlo, dhi = degree[lo], degree[hi]
        # lo < hi already breaks ties by id.
        forward = dlo <= dhi
        return xp.where(forward, lo, hi), xp.where(forward, hi, lo)
    if how == "a-direction":
        return a_direction(lo, hi, degree)
    raise ValueError(f"unknown orientation {how!r}; accepted: {', '.join(ORIENTATIONS)}")


def oriented_keys(how, simple, perm=None):
    """Relabel the edges of a simple graph by ``perm`` and orient them by
    ``how``, as :func:`~.simplify.packed_keys` of the arcs.

    On the GPU, for ``id`` and ``degree``, the relabelling, the orientation and
    the packing are one launch, which reads the deduplication's sorted keys
    where the graph still has them (:attr:`~.SimpleGraph.kept_keys`): the keys
    of the rows that are not edges are then :data:`~.elementwise.SENTINEL`,
    which sort last.

    Parameters
    ----------
    how : {"id", "degree", "a-direction"}
    simple : SimpleGraph
        Its edges ``lo < hi`` and ``degree`` are in old ids.
    perm : integer array, optional
        ``perm[new_id] = old_id``; None keeps the ids.

    Returns
    -------
    int64 array
        One key per edge (aligned with ``lo, hi``), or per sorted key.
    """
    if how not in ORIENTATIONS:
        raise ValueError(f"unknown orientation {how!r}; accepted: {', '.join(ORIENTATIONS)}")
    n, degree = simple.n, simple.degree
    xp = module_of(degree)
    rank = None if perm is None else relabel(perm, n)
    if xp is not np and how in ("id", "degree"):
        if simple.kept_keys is not None:
            keys, kept = simple.kept_keys
            return elementwise.oriented_kept_keys(how, keys, kept, degree, n, rank)
        return elementwise.oriented_keys(how, simple.lo, simple.hi, degree, n, rank)
    lo, hi = simple.lo, simple.hi
    if perm is not None:
        a, b = rank[lo], rank[hi]
        lo, hi = xp.minimum(a, b), xp.maximum(a, b)
        degree = degree[perm]
    return packed_keys(*orient(how, lo, hi, degree), n)
