"""Compressed sparse rows with sorted neighbour lists, from a list of arcs, and
the two small CSR helpers the orientation and orderings share."""

import numpy as np

from ..device import module_of
from . import elementwise
from .simplify import packed_keys, unpack_keys

__all__ = [
    "build_csr",
    "csr_from_keys",
    "endpoint_counts",
    "row_pointers",
    "row_positions",
    "vertex_counts",
]


def build_csr(src, dst, n, values=None):
    """Build the CSR of the arcs ``src -> dst`` (no duplicates expected).

    Returns
    -------
    indptr : int64 array, length n + 1
    indices : array of ``src.dtype``
        Neighbour lists, each sorted ascending.
    rows : array of ``src.dtype``
        Source vertex of each CSR position (the COO row array).
    values : array or None
        ``values`` permuted to CSR order.
    """
    return csr_from_keys(packed_keys(src, dst, n), n, src.dtype, values)


def csr_from_keys(keys, n, dtype, values=None, arcs=None):
    """:func:`build_csr` of arcs given as :func:`~.simplify.packed_keys` (any order),
    with ids of ``dtype``.

    ``arcs`` says how many keys are arcs (default all): on the GPU, without
    values, the others are :data:`~.elementwise.SENTINEL`, which
    :func:`~.orientation.oriented_keys` gives the rows of an edge list that are
    not edges. It may be a :class:`~nx_tricount.runtime.PendingCount`,
    read once the sort and the CSR kernel are queued."""
    xp = module_of(keys)
    if values is None and xp is not np:
        arcs = keys.size if arcs is None else arcs
        indptr, indices, rows = elementwise.csr_of_sorted_keys(xp.sort(keys), n, dtype, arcs)
        return indptr, indices, rows, None
    if values is None:
        keys = xp.sort(keys)
    else:
        order = xp.argsort(keys)
        keys = keys[order]
        values = values[order]
    rows, indices = unpack_keys(keys, n, dtype)
    return row_pointers(rows, n), indices, rows, values


def row_pointers(rows, n):
    """The CSR ``indptr`` (int64, length n + 1) of a sorted row array."""
    xp = module_of(rows)
    return xp.searchsorted(rows, xp.arange(n + 1, dtype=rows.dtype)).astype(xp.int64, copy=False)


def row_positions(indptr, vertices):
    """CSR positions of the arcs of ``vertices``, row after row.

    Touches only those rows: the work is the number of their arcs (times the log
    of the number of vertices, for the search that maps a position to its row).

    Parameters
    ----------
    indptr : int64 array
    vertices : integer array

    Returns
    -------
    int64 array
        ``indptr[v] .. indptr[v + 1] - 1`` for each ``v`` of ``vertices`` in turn.
    """
    xp = module_of(indptr)
    start = indptr[vertices]
    length = indptr[vertices + 1] - start
    end = xp.cumsum(length)
    total = int(end[-1]) if end.size else 0
    k = xp.arange(total, dtype=xp.int64)
    # The row of output position k is the first whose end lies beyond k
    # (empty rows share their end with the row before and are skipped).
    row = xp.searchsorted(end, k, side="right")
    return start[row] + (k - (end[row] - length[row]))


def endpoint_counts(a, b, n, *, a_sorted=False):
    """``vertex_counts(a, n) + vertex_counts(b, n)`` (one launch on the GPU): the
    degrees of the edges ``a - b``. ``a_sorted`` says ``a`` is sorted, which the
    GPU uses to count ``a``'s runs instead of its rows."""
    if module_of(a) is not np:
        if a_sorted:
            return elementwise.sorted_endpoint_counts(a, b, n)
        return elementwise.endpoint_counts(a, b, n)
    return np.bincount(a, minlength=n) + np.bincount(b, minlength=n)


def vertex_counts(ids, n, weights=None):
    """``bincount(ids, weights, minlength=n)`` (on the GPU by atomic adds: CuPy's
    bincount synchronises and serialises on sorted ids).

    Returns
    -------
    array of length ``n``
        int64 counts, or float64 sums of ``weights``.
    """
    xp = module_of(ids)
    if xp is not np:
        return elementwise.vertex_counts(ids, n, weights)
    return np.bincount(ids, weights=weights, minlength=n)
