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
        ``sum d+(u) + d+(v)`` over the arcs ``u -> v``: the list entries merge reads.
    """

    arcs: int
    wedges: int
    bitmap_wedges: int
    merge_reads: int

    @property
    def bitmap_share(self):
        """The bitmap's share of the wedges (0.0 without wedges)."""
        return self.bitmap_wedges / self.wedges if self.wedges else 0.0


#: Most blocks of the GPU's launch (``kernels/work.cu``): an H100 filled several
#: times over, and as many atomics.
WORK_BLOCKS = 1024


def work_of(prepared):
    """The :class:`Work` of ``prepared`` (NumPy or CuPy): on the GPU one launch
    and one copy back (a few CuPy reductions took 0.25 ms of R-MAT 18's 1.5)."""
    p = prepared
    first = max(0, p.n - BITMAP_ROWS)
    if module_of(p.indptr) is np:
        out_degree = np.diff(p.indptr).astype(np.int64)
        pairs = out_degree * (out_degree - 1) // 2
        dense = out_degree[first:] >= BITMAP_MIN_OUT_DEGREE
        reads = int(out_degree @ out_degree) + int(out_degree[p.indices].sum())
        return Work(p.m, int(pairs.sum()), int(pairs[first:][dense].sum()), reads)
    import cupy

    from ..gpu import runtime

    sums = cupy.zeros(3, dtype=np.uint64)
    kernel = runtime.function("work.cu", "oriented_work", vid=p.indices.dtype)
    args = (
        p.indptr,
        p.indices,
        np.int64(p.n),
        np.int64(p.m),
        np.int64(first),
        np.int64(BITMAP_MIN_OUT_DEGREE),
        sums,
    )
    runtime.launch(kernel, max(p.n, p.m, 1), args, grid=WORK_BLOCKS)
    wedges, bitmap_wedges, reads = (int(x) for x in sums.get())
    return Work(p.m, wedges, bitmap_wedges, reads)
