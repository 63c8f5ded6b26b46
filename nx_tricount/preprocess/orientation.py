"""Edge orientations: direct each undirected edge so that every triangle is
found exactly once (the oriented graph is acyclic).

``id`` directs from the smaller id to the larger. ``degree`` directs from the
lower degree to the higher, ties by id (Polak's forward algorithm, §II-B): out-
degrees are then at most about sqrt(2m). ``a-direction`` peels the graph with a
doubling degree threshold, which evens the out-degrees out further
(:mod:`.a_direction`).
"""

from ..device import module_of
from .a_direction import a_direction

__all__ = ["ORIENTATIONS", "orient"]

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
