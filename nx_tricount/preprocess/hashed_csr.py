"""A small graph's oriented CSR on the GPU without a sort: the GPU's shortcut for
:func:`~.prepare.prepare_undirected` with degree orientation on the ids as given.

On a graph of a few thousand to a hundred thousand edge rows the sorting pipeline's
time is the host's: two CuPy sorts and a dozen other calls, each costing more host
time than its GPU work. Here the edge rows go into a hash table of undirected edges,
which drops repeats and self-loops and counts the degrees; each distinct edge is
directed from its lower-degree end, put in its source's row at an atomic cursor, and
each row is put in order by rank (``kernels/hashed_csr.cu``): one cooperative
launch, whose steps meet at grid-wide barriers and which writes the number of arcs
and ``sum d (d - 1)`` to pinned host memory, read after it. The result is the
sorting pipeline's, array for array (tests/test_gpu_preprocess.py). See
docs/algorithms.md, 'Preprocessing'.

The same launch can go on to count the triangles as merge counts them on the CSR
it has just built, for a small graph's total: the plan decides it
(``Plan.merge_total == "fused"``), and the count comes back beside the CSR, as the
launch's own result, not kept in the CSR.
"""

from typing import NamedTuple

import numpy as np

from .prepare import Prepared

__all__ = ["HASHED_MAX_ROWS", "HASHED_MAX_VERTICES", "HashedCSR", "hashed_applies", "prepare_hashed"]

#: Most edge rows prepared this way: beyond them the sorts' GPU time, not the
#: host's, is what a preparation costs, and a hub's row sorted by rank costs the
#: square of its length.
HASHED_MAX_ROWS = 1 << 17

#: Most vertices (``n``): the launch zeroes and scans a few words per vertex, which
#: beyond this outweighs a small graph's rows.
HASHED_MAX_VERTICES = 1 << 20


class HashedCSR(NamedTuple):
    """What one launch of :func:`prepare_hashed` gives.

    Attributes
    ----------
    prepared : Prepared
        The oriented CSR, the sorting pipeline's arrays.
    pair_sum : int
        ``sum d (d - 1)`` over the undirected degrees (transitivity's
        denominator), summed by the launch beside the row pointers.
    triangles : int or None
        The triangles merge counts on the CSR, when the launch was asked to
        count them; None otherwise.
    """

    prepared: Prepared
    pair_sum: int
    triangles: int | None = None


def hashed_applies(rows, n, orientation, ordering):
    """Whether :func:`prepare_hashed` takes this graph: degree orientation on
    the ids as given, at least one and at most :data:`HASHED_MAX_ROWS` edge rows,
    and at most :data:`HASHED_MAX_VERTICES` vertices. The plan reads it to choose
    the preparation pipeline (``Plan.pipeline``)."""
    return (
        (orientation, ordering) == ("degree", "none")
        and 0 < rows <= HASHED_MAX_ROWS
        and n <= HASHED_MAX_VERTICES
    )


def prepare_hashed(src, dst, n, *, count_triangles=False):
    """``prepare_undirected(src, dst, n, orientation="degree", ordering="none")``
    of CuPy edge rows, by a hash table of the edges instead of sorts.

    Parameters
    ----------
    src, dst : CuPy integer arrays
        Edge rows, ids in ``0..n-1``, duplicates and self-loops allowed; at
        most :data:`HASHED_MAX_ROWS` of them (:func:`hashed_applies`).
    n : int
        Number of vertices, at most :data:`HASHED_MAX_VERTICES`.
    count_triangles : bool
        Also count the triangles as merge does (``kernels/merge.cu``), in the
        same launch, so that the read carries the total: no launch and no wait
        of their own.

    Returns
    -------
    HashedCSR
        Its ``prepared`` has int64 ``indptr`` and ``degree``, int32 ``indices``
        and ``rows``; ``triangles`` is None unless ``count_triangles``.

    Raises
    ------
    ValueError
        No edge rows or more than :data:`HASHED_MAX_ROWS`, or more than
        :data:`HASHED_MAX_VERTICES` vertices.
    """
    import cupy

    from ..gpu import runtime

    rows = int(src.size)
    if not 0 < rows <= HASHED_MAX_ROWS or not 0 < n <= HASHED_MAX_VERTICES:
        raise ValueError(
            f"prepare_hashed takes 1 to {HASHED_MAX_ROWS:,} edge rows and at most "
            f"{HASHED_MAX_VERTICES:,} vertices, got {rows:,} rows and n = {n:,}"
        )
    if src.dtype != dst.dtype or src.dtype not in (np.int32, np.int64):
        src, dst = src.astype(np.int64), dst.astype(np.int64)
    kernel = runtime.function("hashed_csr.cu", "hashed_csr", vid=src.dtype)
    slots = 1 << max(1, (2 * rows - 1).bit_length())  # at least twice the rows
    blocks = min(runtime.resident_blocks(kernel, 0), -(-max(slots, n) // runtime.THREADS))
    # The kernel zeroes and lays out the words (HashedBuffers in the kernel file).
    words = cupy.empty(slots + 2 * n + 3 + blocks + (n + 1) // 2, dtype=np.uint64)
    arcs = cupy.empty(3 * rows, dtype=np.int32)  # rows, unsorted, indices
    totals = cupy.cuda.alloc_pinned_memory(24)  # arcs, sum d (d - 1), triangles
    shift = np.int32(64 - (slots.bit_length() - 1))
    args = (src, dst, np.int64(rows), np.int64(n), words, np.int64(slots), shift, arcs)
    args += (np.int32(count_triangles), np.uint64(totals.ptr))
    runtime.launch(kernel, blocks * runtime.THREADS, args)
    # The views are made while the GPU runs the launch; the read waits for it.
    degree = words[slots : slots + n].view(np.int64)
    indptr = words[slots + n : slots + 2 * n + 1].view(np.int64)
    cupy.cuda.get_current_stream().synchronize()
    m, pair_sum, triangles = np.frombuffer(totals, dtype=np.uint64, count=3).tolist()
    arc_rows, indices = arcs[:m], arcs[2 * rows : 2 * rows + m]
    prepared = Prepared(n, indptr, indices, arc_rows, None, None, degree, "degree", "none", False)
    return HashedCSR(prepared, pair_sum, triangles if count_triangles else None)
