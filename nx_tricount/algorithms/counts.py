"""Counting modes and the ``Counts`` every algorithm returns."""

from dataclasses import dataclass

import numpy as np

from ..gpu.device import module_of

__all__ = ["MODES", "TOTAL", "PER_NODE", "PER_EDGE", "Counts", "two_sum", "round_pairs"]

#: ``total``: the number of triangles. ``per_node``: triangles at each vertex
#: (or, when the Prepared carries arc values, the sum over each vertex's
#: triangles of the product of their three arc values). ``per_edge``: triangles
#: on each arc (edge support, for k-truss).
MODES = ("total", "per_node", "per_edge")

# Integer codes passed to the compiled kernels.
TOTAL, PER_NODE, PER_EDGE = 0, 1, 2


@dataclass
class Counts:
    """Result of one count, in original vertex ids.

    Attributes
    ----------
    mode : str
        One of :data:`MODES`.
    total : int or None
        Number of triangles (mode ``total``).
    per_node : array or None
        Per-vertex counts or weighted sums, indexed by original id (mode ``per_node``).
    per_node_error : array or None
        Weighted sums only: what each rounded sum in ``per_node`` misses of its
        compensated pair, so that partial sums combine without a second rounding.
    edge_src, edge_dst, per_edge : arrays or None
        Each arc of the oriented graph (original ids) and its triangle count
        (mode ``per_edge``).
    algorithm, device : str
        What produced the result.
    """

    mode: str
    algorithm: str
    device: str
    total: int | None = None
    per_node: object = None
    per_node_error: object = None
    edge_src: object = None
    edge_dst: object = None
    per_edge: object = None


def two_sum(a, b):
    """``(s, e)``: ``s = a + b`` rounded and its exact error ``e`` (Knuth's TwoSum),
    elementwise on NumPy or CuPy arrays; ``e`` is 0 where ``s`` is not finite."""
    xp = module_of(a)
    s = a + b
    with np.errstate(invalid="ignore"):
        b_part = s - a
        e = (a - (s - b_part)) + (b - b_part)
    return s, xp.where(xp.isfinite(s), e, 0)


def round_pairs(sums, errors):
    """Compensated pairs rounded once: ``(rounded, residual)`` with ``rounded +
    residual`` exactly ``sums + errors``; integer pairs are exact already.

    On the GPU, float64 and int64 pairs (the output of every weighted count) are
    rounded in one launch of ``kernels/compensated.cu``, the same arithmetic as
    here: CuPy's would compile four kernels at a process's first weighted count.
    """
    if module_of(sums) is not np and sums.dtype == errors.dtype and sums.dtype in (np.float64, np.int64):
        return _round_pairs_gpu(sums, errors)
    if sums.dtype.kind != "f":
        return sums + errors, errors * 0
    return two_sum(sums, errors)


def _round_pairs_gpu(sums, errors):
    """:func:`round_pairs` of CuPy arrays, strided ones too (a count's output is
    its pairs interleaved)."""
    import cupy

    from ..gpu import runtime

    n = sums.size
    rounded = cupy.empty(n, dtype=sums.dtype)
    residual = cupy.empty(n, dtype=sums.dtype)
    steps = [np.int64(a.strides[0] // a.itemsize if n else 1) for a in (sums, errors)]
    kernel = runtime.function("compensated.cu", "round_pairs", weight=sums.dtype)
    runtime.launch(kernel, n, (sums, steps[0], errors, steps[1], np.int64(n), rounded, residual))
    return rounded, residual
