"""Listing triangles, a range of arcs at a time: each triangle of an oriented
CSR once, as ``(u, v, w)`` from its arc ``u -> v`` and the common out-neighbour
``w`` of ``u`` and ``v`` (the two-pointer merge of Polak's forward algorithm).

The caller gives each arc of the range a slot offset from the arcs' triangle
support (the per-edge count): an arc lists at most as many triangles as it is
on, so the slots of a range bound its output and the memory of a batch is known
before it runs. Slots left over are dropped. The CPU runs one numba task per
arc, the GPU one thread per arc (``kernels/listing.cu``).
"""

import numpy as np
from numba import njit, prange

from ..gpu.device import module_of

__all__ = ["list_arcs"]


@njit(parallel=True, cache=True)
def _list_cpu(indptr, indices, rows, lo, hi, offsets, ascending, out):
    for k in prange(hi - lo):
        e = lo + k
        u, v = rows[e], indices[e]
        i = e + 1 if ascending else indptr[u]
        i_end = indptr[u + 1]
        j, j_end = indptr[v], indptr[v + 1]
        slot = offsets[k]
        while i < i_end and j < j_end:
            a = indices[i]
            b = indices[j]
            if a < b:
                i += 1
            elif a > b:
                j += 1
            else:
                out[0, slot] = u
                out[1, slot] = v
                out[2, slot] = a
                slot += 1
                i += 1
                j += 1


def list_arcs(prepared, lo, hi, offsets, slots, device):
    """The triangles found at the arcs ``lo .. hi - 1`` of ``prepared``.

    Parameters
    ----------
    prepared : Prepared
        Oriented CSR (acyclic: every triangle is found at one arc).
    lo, hi : int
        The range of CSR positions.
    offsets : int64 array, length ``hi - lo``
        First slot of each arc; arc ``e`` has at least as many slots as
        triangles found at it.
    slots : int
        Slots in all.
    device : {"cpu", "gpu"}

    Returns
    -------
    array of shape (3, triangles)
        The rows ``u``, ``v``, ``w`` of each triangle, in CSR ids, in arc order.
    """
    p = prepared
    if device == "gpu":
        out = _list_gpu(p, lo, hi, offsets, slots)
    else:
        out = np.full((3, slots), -1, dtype=p.indices.dtype)
        _list_cpu(p.indptr, p.indices, p.rows, np.int64(lo), np.int64(hi), offsets, bool(p.ascending), out)
    return out[:, module_of(out).flatnonzero(out[0] >= 0)]


def _list_gpu(prepared, lo, hi, offsets, slots):
    import cupy

    from ..gpu import runtime

    p = prepared
    kernel = runtime.function("listing.cu", "list_arcs", vid=p.indices.dtype)
    runtime.check_memory(3 * slots * p.indices.itemsize, "a batch of listed triangles")
    out = cupy.full((3, slots), -1, dtype=p.indices.dtype)
    args = (
        p.indptr,
        p.indices,
        p.rows,
        np.int64(lo),
        np.int64(hi),
        offsets,
        np.int64(slots),
        np.int32(p.ascending),
        out,
    )
    runtime.launch(kernel, hi - lo, args)
    return out
