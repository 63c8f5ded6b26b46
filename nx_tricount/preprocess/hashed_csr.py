"""A small graph's oriented CSR on the GPU without a sort: the GPU's shortcut for
:func:`~.prepare.prepare_undirected` with degree orientation on the ids as given.

On a graph of a few thousand to a hundred thousand edge rows the sorting pipeline's
time is the host's: two CuPy sorts and a dozen other calls, each costing more host
time than its GPU work. Here the edge rows go into a hash table of undirected edges,
which drops repeats and self-loops and counts the degrees; each distinct edge is
directed from its lower-degree end, put in its source's row at an atomic cursor, and
each row is put in order by rank (``kernels/hashed_csr.cu``): one memset, five
launches and one read, of the number of arcs and of ``sum d (d - 1)``. The result is
the sorting pipeline's, array for array (tests/test_gpu_preprocess.py). See
docs/algorithms.md, 'Preprocessing'.
"""

import numpy as np

from .prepare import Prepared

__all__ = [
    "HASHED_MAX_ROWS", "HASHED_MAX_VERTICES", "MERGE_TOTAL", "PAIR_SUM", "hashed_applies", "prepare_hashed",
]

#: Most edge rows prepared this way: beyond them the sorts' GPU time, not the
#: host's, is what a preparation costs, and a hub's row sorted by rank costs the
#: square of its length.
HASHED_MAX_ROWS = 1 << 17

#: Most vertices (``n``): one block turns the counts into row pointers.
HASHED_MAX_VERTICES = 1 << 20

#: Key of ``Prepared.derived`` under which :func:`prepare_hashed` leaves
#: ``sum d (d - 1)`` over the degrees (a Python int), transitivity's denominator.
PAIR_SUM = "degree_pair_sum"

#: Key of ``Prepared.derived`` under which :func:`prepare_hashed` leaves the
#: triangles merge counts on the CSR (a Python int), when asked to.
MERGE_TOTAL = "merge_total"

#: Threads of the scan's one block (``SCAN_THREADS`` in ``kernels/hashed_csr.cu``).
SCAN_THREADS = 1024


def hashed_applies(rows, n, orientation, ordering):
    """Whether :func:`prepare_hashed` prepares this graph: degree orientation on
    the ids as given, at least one and at most :data:`HASHED_MAX_ROWS` edge rows,
    and at most :data:`HASHED_MAX_VERTICES` vertices."""
    return (
        (orientation, ordering) == ("degree", "none")
        and 0 < rows <= HASHED_MAX_ROWS
        and n <= HASHED_MAX_VERTICES
    )


def prepare_hashed(src, dst, n, *, merge_total=False):
    """``prepare_undirected(src, dst, n, orientation="degree", ordering="none")``
    of CuPy edge rows, by a hash table of the edges instead of sorts.

    Parameters
    ----------
    src, dst : CuPy integer arrays
        Edge rows, ids in ``0..n-1``, duplicates and self-loops allowed; at
        most :data:`HASHED_MAX_ROWS` of them (:func:`hashed_applies`).
    n : int
        Number of vertices, at most :data:`HASHED_MAX_VERTICES`.
    merge_total : bool
        Also count the triangles as merge does (``kernels/merge.cu``), queued
        before the read, which then carries the total: one launch and one wait
        fewer than counting after the preparation.

    Returns
    -------
    Prepared
        Its ``indptr`` and ``degree`` are int64, ``indices`` and ``rows`` int32;
        ``derived`` holds ``sum d (d - 1)`` (:data:`PAIR_SUM`) and, with
        ``merge_total``, the triangles (:data:`MERGE_TOTAL`).
    """
    import cupy

    from .. import runtime

    rows = int(src.size)
    if not 0 < rows <= HASHED_MAX_ROWS or not 0 < n <= HASHED_MAX_VERTICES:
        raise ValueError(
            f"prepare_hashed takes 1 to {HASHED_MAX_ROWS:,} edge rows and at most "
            f"{HASHED_MAX_VERTICES:,} vertices, got {rows:,} rows and n = {n:,}"
        )
    if src.dtype != dst.dtype or src.dtype not in (np.int32, np.int64):
        src, dst = src.astype(np.int64), dst.astype(np.int64)
    slots = 1 << max(1, (2 * rows - 1).bit_length())  # at least twice the rows
    # Zeroed in one memset: the table, the degrees, the row pointers, the sum of
    # d (d - 1) and the triangles right after them (read with the arcs' count) and
    # the cursors.
    cursor_words = -(-n // 2)
    zeroed = cupy.empty(slots + 2 * n + 3 + cursor_words, dtype=np.uint64)
    cupy.cuda.runtime.memsetAsync(
        zeroed.data.ptr, 0, zeroed.nbytes, cupy.cuda.get_current_stream().ptr
    )
    table = zeroed[:slots]
    degree = zeroed[slots : slots + n].view(np.int64)
    indptr = zeroed[slots + n : slots + 2 * n + 1].view(np.int64)
    pairs = zeroed[slots + 2 * n + 1 : slots + 2 * n + 2]
    cursor = zeroed[slots + 2 * n + 3 :].view(np.uint32)
    arcs = cupy.empty(3 * rows, dtype=np.int32)  # rows, unsorted, indices
    arc_rows, unsorted, indices = arcs[:rows], arcs[rows : 2 * rows], arcs[2 * rows :]

    def kernel(name):
        return runtime.function("hashed_csr.cu", name, vid=src.dtype)

    shift = np.int32(64 - (slots.bit_length() - 1))
    runtime.launch(kernel("hashed_insert"), rows, (src, dst, np.int64(rows), table, shift, degree))
    runtime.launch(kernel("hashed_out_counts"), slots, (table, np.int64(slots), degree, indptr[1:]))
    runtime.launch(
        kernel("hashed_scan"), SCAN_THREADS, (indptr[1:], np.int64(n), degree, pairs),
        threads=SCAN_THREADS,
    )
    runtime.launch(
        kernel("hashed_fill"),
        slots,
        (table, np.int64(slots), degree, indptr, cursor, arc_rows, unsorted),
    )
    runtime.launch(kernel("hashed_sort_rows"), rows, (arc_rows, unsorted, indptr, np.int64(n), indices))
    if merge_total:
        # Every row gives at most one arc: `rows` threads cover them, m read on the GPU.
        total = zeroed[slots + 2 * n + 2 : slots + 2 * n + 3]
        merge = runtime.function("merge.cu", "merge_total_unread", vid=np.int32)
        no_values = runtime.kernel_values(None, False)
        runtime.launch(merge, rows, (indptr, indices, arc_rows, np.int64(n), np.int32(0), no_values, total))
    m, pair_sum, triangles = zeroed[slots + 2 * n : slots + 2 * n + 3].get().tolist()
    prepared = Prepared(
        n, indptr, indices[:m], arc_rows[:m], None, None, degree, "degree", "none", False
    )
    prepared.derived[PAIR_SUM] = pair_sum
    if merge_total:
        prepared.derived[MERGE_TOTAL] = triangles
    return prepared
