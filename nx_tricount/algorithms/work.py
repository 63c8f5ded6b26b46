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
from .wedge_layout import BITMAP_MIN_OUT_DEGREE

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


def work_of(prepared, meanwhile=None):
    """The :class:`Work` of ``prepared`` (NumPy or CuPy), read once per graph: on
    the GPU one launch and one copy back into pinned memory (a few CuPy reductions
    took 0.25 ms of R-MAT 18's 1.5).

    ``meanwhile``: called after the launch and before the read, when the graph
    has not been read yet. Reading a number from the GPU makes the host wait for
    all it had queued, and the GPU then idles while the host queues what comes
    next: the caller queues there what the count will likely need, which waits
    for the GPU itself (wedge's layout), so that the host waits once."""
    if WORK not in prepared.derived:
        prepared.derived[WORK] = _read_work(prepared, meanwhile)
    return prepared.derived[WORK]


def _read_work(prepared, meanwhile):
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
        pending = None
    else:
        import cupy

        from ..gpu import runtime, transfers

        sums = cupy.zeros(5, dtype=np.uint64)
        kernel = runtime.function("work.cu", "oriented_work", vid=p.indices.dtype)
        counts = (p.n, p.m, samples, first, BITMAP_MIN_OUT_DEGREE)
        args = (p.indptr, p.indices, *map(np.int64, counts), sums)
        runtime.launch(kernel, max(p.n, samples, 1), args, grid=WORK_BLOCKS)
        pending = transfers.PendingValues(sums)
    if meanwhile is not None:
        meanwhile()
    if pending is not None:
        sums = pending.values()
    wedges, bitmap_wedges, squares, heads, widest = (int(x) for x in sums)
    # The sampled heads' sum scaled to every arc (exact when every arc is a sample).
    reads = squares + (heads * p.m + samples // 2) // samples if samples else squares
    return Work(p.m, wedges, bitmap_wedges, reads, widest)
