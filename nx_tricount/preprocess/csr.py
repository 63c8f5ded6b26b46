"""Compressed sparse rows with sorted neighbour lists, from a list of arcs, and
the two small CSR helpers the orientation and orderings share (see
docs/algorithms.md, 'Preprocessing')."""

from ..gpu.device import module_of
from .ops import ops_for

__all__ = ["build_csr", "csr_from_keys", "row_pointers", "row_positions"]


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
    return csr_from_keys(ops_for(src).packed_keys(src, dst, n), n, src.dtype, values)


def csr_from_keys(keys, n, dtype, values=None, arcs=None):
    """:func:`build_csr` of arcs given as ``packed_keys`` (any order), with ids
    of ``dtype``.

    ``arcs`` says how many keys are arcs (default all; the others are
    ``SENTINEL``, as :func:`~.host_ops.oriented_keys` may give them, never with
    ``values``). It is read with ``int()`` only once the sort and the CSR are
    queued: on the GPU it may be a :class:`~nx_tricount.gpu.transfers.PendingCount`."""
    arcs = keys.size if arcs is None else arcs
    return ops_for(keys).csr_of_keys(keys, n, dtype, arcs, values)


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
