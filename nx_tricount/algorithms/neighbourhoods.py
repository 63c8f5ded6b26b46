"""Whole neighbour lists, for the counts that walk neighbourhoods rather than
oriented arcs (square clustering, the k-truss's peeling).

An oriented CSR keeps each undirected edge once, as an arc from one end; these
builders give every vertex's whole neighbour list (both directions of every
arc, each entry with the CSR position of its arc) and a directed graph's
predecessor lists. Each is derived once from a ``Prepared`` and kept in its
``derived`` dict, on the ``Prepared``'s device (NumPy or CuPy).
"""

from ..gpu.device import module_of
from ..preprocess.csr import build_csr

__all__ = ["symmetric", "predecessors"]


def symmetric(prepared):
    """Every vertex's whole neighbour list, with the arc of each neighbour.

    Parameters
    ----------
    prepared : Prepared
        An oriented CSR of an undirected simple graph.

    Returns
    -------
    indptr : int64 array, length n + 1
    neighbours : array of the CSR's id dtype, length 2 m
        Each vertex's neighbours (CSR ids), sorted ascending.
    arcs : int64 array, length 2 m
        ``arcs[k]`` is the CSR position of the arc joining the vertex of row ``k``
        and ``neighbours[k]`` (in either direction).
    """
    if "symmetric" not in prepared.derived:
        p = prepared
        xp = module_of(p.indices)
        src = xp.concatenate([p.rows, p.indices])
        dst = xp.concatenate([p.indices, p.rows])
        arc = xp.arange(p.m, dtype=xp.int64)
        indptr, neighbours, _, arcs = build_csr(src, dst, p.n, xp.concatenate([arc, arc]))
        prepared.derived["symmetric"] = (indptr, neighbours, arcs)
    return prepared.derived["symmetric"]


def predecessors(prepared):
    """``(indptr, sources)``: the CSR of the reversed arcs of ``prepared``, each
    vertex's predecessors sorted ascending (CSR ids)."""
    if "predecessors" not in prepared.derived:
        p = prepared
        indptr, sources, _, _ = build_csr(p.indices, p.rows, p.n)
        prepared.derived["predecessors"] = (indptr, sources)
    return prepared.derived["predecessors"]
