"""Edge orientations: direct each undirected edge so that every triangle is
found exactly once (the oriented graph is acyclic).

``id`` directs from the smaller id to the larger. ``degree`` directs from the
lower degree to the higher, ties by id (Polak's forward algorithm, §II-B): out-
degrees are then at most about sqrt(2m). ``a-direction`` peels the graph with a
doubling degree threshold, which evens the out-degrees out further
(:mod:`.a_direction`). See docs/algorithms.md, 'Preprocessing'.
"""

from ..gpu.device import module_of
from ..metadata import catalog
from .a_direction import a_direction
from .ops import ops_for
from .ordering import relabel

__all__ = ["ORIENTATIONS", "orient", "arc_keys"]

ORIENTATIONS = tuple(catalog.ORIENTATIONS)


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


def arc_keys(how, simple, perm=None):
    """Relabel the edges of a simple graph by ``perm`` and orient them by
    ``how``, as packed keys of the arcs.

    ``id`` and ``degree`` are the primitive ``oriented_keys`` of the array
    module (one launch on the GPU, which may read the deduplication's sorted
    keys: rows that are not edges then get ``SENTINEL`` keys, sorting last).

    Parameters
    ----------
    how : {"id", "degree", "a-direction"}
    simple : SimpleGraph
        Its edges ``lo < hi`` and ``degree`` are in old ids.
    perm : integer array, optional
        ``perm[new_id] = old_id``; None keeps the ids.

    Returns
    -------
    keys : int64 array
    arcs : int or int-like
        How many of ``keys`` are arcs (see :func:`~.csr.csr_from_keys`).
    """
    if how not in ORIENTATIONS:
        raise ValueError(f"unknown orientation {how!r}; accepted: {', '.join(ORIENTATIONS)}")
    n, degree = simple.n, simple.degree
    ops = ops_for(degree)
    rank = None if perm is None else relabel(perm, n)
    if how in ("id", "degree"):
        return ops.oriented_keys(how, simple, rank)
    xp = module_of(degree)
    lo, hi = simple.lo, simple.hi
    if perm is not None:
        a, b = rank[lo], rank[hi]
        lo, hi = xp.minimum(a, b), xp.maximum(a, b)
        degree = degree[perm]
    keys = ops.packed_keys(*a_direction(lo, hi, degree), n)
    return keys, keys.size
