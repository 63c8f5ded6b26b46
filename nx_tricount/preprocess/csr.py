"""Compressed sparse rows with sorted neighbour lists, from a list of arcs."""

from ..device import module_of
from .simplify import packed_keys, unpack_keys

__all__ = ["build_csr"]


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
    xp = module_of(src)
    keys = packed_keys(src, dst, n)
    if values is None:
        keys = xp.sort(keys)
    else:
        order = xp.argsort(keys)
        keys = keys[order]
        values = values[order]
    rows, indices = unpack_keys(keys, n, src.dtype)
    indptr = xp.searchsorted(rows, xp.arange(n + 1, dtype=rows.dtype)).astype(xp.int64)
    return indptr, indices, rows, values
