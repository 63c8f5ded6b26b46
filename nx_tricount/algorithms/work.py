"""What a total count of a prepared graph asks of wedge and of merge, read from
its oriented CSR: ``auto`` chooses between the two on a graph prepared on
ascending-degree ids (:func:`nx_tricount.planning.rules.choose_after_preparation`).

Wedge's work is its wedges, ``C(d+, 2)`` at each base vertex; those of the
densest vertices (the bitmap's, :mod:`.wedge_layout`) it may count by ANDing
bitmap rows instead. Merge reads both lists of each arc ``u -> v``, ``d+(u) +
d+(v)`` entries. See docs/algorithms.md, "Choosing by itself".
"""

from dataclasses import dataclass

import numpy as np

from ..gpu.device import module_of
from ..metadata.catalog import BITMAP_ROWS
from .wedge_hub import keep_hub_wedges, queue_hub_taken
from .wedge_layout import (
    BITMAP_MIN_OUT_DEGREE,
    gpu_prefix_ahead,
    keep_layout,
    keep_layout_ahead,
    plain_kernel_types,
    uses_bitmap,
)

__all__ = ["Work", "work_of"]


@dataclass(frozen=True)
class Work:
    """A prepared graph's work for wedge and merge.

    Attributes
    ----------
    arcs : int
    wedges : int
        ``sum C(d+, 2)``: wedge's wedges.
    bitmap_wedges : int
        The wedges of the vertices of the bitmap: out-degree at least
        ``BITMAP_MIN_OUT_DEGREE``, among the last ``BITMAP_ROWS`` ids.
    merge_reads : int
        ``sum d+(u) + d+(v)`` over the arcs ``u -> v``: the list entries merge
        reads, its ``d+(v)`` terms estimated from :data:`ARC_SAMPLES` arcs spread
        evenly over the CSR (exact on a graph of fewer arcs).
    widest : int
        The largest out-degree (merge's inline layout reads it).
    """

    arcs: int
    wedges: int
    bitmap_wedges: int
    merge_reads: int
    widest: int

    @property
    def bitmap_share(self):
        """The bitmap's share of the wedges (0.0 without wedges)."""
        return self.bitmap_wedges / self.wedges if self.wedges else 0.0


#: Most blocks of the GPU's launch (``kernels/work.cu``): an H100 filled several
#: times over, and as many atomics.
WORK_BLOCKS = 1024

#: Arcs whose heads' out-degrees estimate what merge reads of the heads: their sum
#: over every arc of the copying-model web graph (2e7 arcs) took 0.24 ms of an H100,
#: 5% of its count.
ARC_SAMPLES = 1 << 16


#: Key of ``Prepared.derived`` that keeps a graph's :class:`Work`: a graph counted
#: again (its CSR cached on the ``TriGraph``) is not read again.
WORK = "work"


def work_of(prepared, layout_rows=None, hub_words=None):
    """The :class:`Work` of ``prepared`` (NumPy or CuPy), read once per graph: on
    the GPU one launch and one read (a few CuPy reductions took 0.25 ms of R-MAT
    18's 1.5).

    ``layout_rows``: on the GPU, what a total wedge count of ``prepared`` with at
    most that many bitmap rows (``gpu_layout``'s ``largest``) reads before its
    launches is queued behind the work, with wedge's prefix sums: its layout
    and, with ``hub_words`` (its hub block's), the wedges its hub block leaves and
    their prefix sums. The work is read without waiting for them, and they are
    read where a wedge count asks for its layout
    (:func:`.wedge_layout.keep_layout_ahead`). Each read makes the host wait for
    the GPU, which then idles while the host queues what comes next: on graphs of
    a few milliseconds the launches' host time is most of a count, and a choice
    that read twice had cost 8.5% of R-MAT 18's (docs/algorithms.md, "Choosing by
    itself"). Here the GPU runs wedge's part while the host chooses and sets the
    count up."""
    if WORK not in prepared.derived:
        prepared.derived[WORK] = _read_work(prepared, layout_rows, hub_words)
    return prepared.derived[WORK]


def _read_work(prepared, layout_rows, hub_words):
    p = prepared
    first = max(0, p.n - BITMAP_ROWS)
    samples = min(p.m, ARC_SAMPLES)
    if module_of(p.indptr) is np:
        out_degree = np.diff(p.indptr).astype(np.int64)
        pairs = out_degree * (out_degree - 1) // 2
        dense = out_degree[first:] >= BITMAP_MIN_OUT_DEGREE
        sampled = p.indices[np.arange(samples, dtype=np.int64) * p.m // max(samples, 1)]
        heads, widest = out_degree[sampled].sum(), out_degree.max() if p.n else 0
        sums = (pairs.sum(), pairs[first:][dense].sum(), out_degree @ out_degree, heads, widest)
    else:
        import cupy

        from ..gpu import runtime
        from ..gpu.transfers import PendingValues

        sums = cupy.zeros(9, dtype=np.uint64)
        kernel = runtime.function("work.cu", "oriented_work", vid=p.indices.dtype)
        counts = (p.n, p.m, samples, first, BITMAP_MIN_OUT_DEGREE)
        args = (p.indptr, p.indices, *map(np.int64, counts), sums)
        runtime.launch(kernel, max(p.n, samples, 1), args, grid=WORK_BLOCKS)
        work = PendingValues(sums[:5])
        layout = layout_rows is not None and p.task_blocks is None
        if layout:
            _queue_layout(p, layout_rows, hub_words, sums)
        sums = work.values()
    wedges, bitmap_wedges, squares, heads, widest = (int(x) for x in sums[:5])
    # The sampled heads' sum scaled to every arc (exact when every arc is a sample).
    reads = squares + (heads * p.m + samples // 2) // samples if samples else squares
    return Work(p.m, wedges, bitmap_wedges, reads, widest)


def _queue_layout(p, layout_rows, hub_words, sums):
    """Queue wedge's layout into ``sums[5:8]`` (as ``gpu_layout`` makes it, from the
    heavy rows ``oriented_work`` counted into ``sums[6]``), its prefix sums and,
    with ``hub_words``, the wedges its hub block takes off into ``sums[8]`` and the
    prefix sums of those it leaves; kept for a wedge count to read
    (:func:`.wedge_layout.keep_layout_ahead`)."""
    from ..gpu import runtime
    from ..gpu.transfers import PendingValues

    largest = layout_rows if uses_bitmap(p, layout_rows) else 0
    hub = bool(largest and hub_words)
    kernel_types = plain_kernel_types(p)
    gpu_prefix_ahead(p, kernel_types)
    layout_kernel = runtime.function("wedge.cu", "wedge_layout", **kernel_types)
    args = (p.derived["wedge_prefix"], p.indptr, np.int64(p.n), np.int64(largest), sums[5:8])
    runtime.launch(layout_kernel, 1, args, threads=32)
    hub_prefix = None
    if hub:
        hub_prefix = queue_hub_taken(p, largest, sums[5:8], hub_words, "total", kernel_types, sums[8:9])
    layout = PendingValues(sums[5:9])

    # The graph is given, not held: its own derived values hold this function, and
    # a cycle would keep its arrays until a garbage collection.
    def settle(prepared):
        wedges, rows, first_arc, taken = (int(x) for x in layout.values())
        bitmap = keep_layout(prepared, layout_rows, wedges, rows, first_arc)
        if hub and bitmap.rows:
            keep_hub_wedges(prepared, bitmap, hub_words, "total", wedges - taken, hub_prefix)

    keep_layout_ahead(p, layout_rows, settle)
