"""Each vertex's clustering coefficient from the per-vertex terms it is made of
(:func:`nx_tricount.quantities.per_vertex.clustering_terms`): the numerator ``t = 2 sums`` over
the denominator ``deg (deg - 1)``, or for a directed graph (Fagiolo)
``2 (d_tot (d_tot - 1) - 2 d_recip)``; 0.0 where ``t`` is 0.

On the CPU one pass of a numba loop computes it (NumPy's four passes over
arrays took 116 us of 62,586 vertices, the loop 21). On the GPU one launch of
``kernels/coefficients.cu`` does, a kernel compiled ahead at install time as the
others are: CuPy's arithmetic on arrays would compile a kernel per operation and
dtypes at a process's first call, and its first elementwise call imports
``cupyx`` even when every kernel is in CuPy's cache.
"""

import numpy as np
from numba import njit

from ..gpu.device import module_of

__all__ = ["from_sums", "nonzero_terms"]


def from_sums(sums, degree, reciprocal=None):
    """``(ratio, nonzero)`` per vertex, on the device of ``sums``.

    Parameters
    ----------
    sums : int64 or float64 array
        The triangles at each vertex, or the sums of their arc values' products.
    degree : int64 array
        Each vertex's degree; for a directed graph its in- plus out-degree.
    reciprocal : int64 array, optional
        For a directed graph: the reciprocal pairs at each vertex.

    Returns
    -------
    ratio : float64 array
        ``t / denominator``, 0.0 where ``t`` is 0.
    nonzero : bool array
        Where ``t`` is nonzero.
    """
    if module_of(sums) is not np:
        return _on_gpu(sums, degree, reciprocal)
    ratio = np.empty(sums.size, dtype=np.float64)
    nonzero = np.empty(sums.size, dtype=np.bool_)
    directed = reciprocal is not None
    _coefficients(sums, degree, reciprocal if directed else degree, directed, ratio, nonzero)
    return ratio, nonzero


# error_model="numpy": a division as NumPy's, never Python's ZeroDivisionError.
@njit(cache=True, error_model="numpy")
def _coefficients(sums, degree, reciprocal, directed, ratio, nonzero):
    for v in range(sums.size):
        t = 2 * sums[v]
        nonzero[v] = t != 0
        d = degree[v]
        denominator = 2 * (d * (d - 1) - 2 * reciprocal[v]) if directed else d * (d - 1)
        # A vertex with a triangle has a nonzero denominator; the others keep 0.0.
        ratio[v] = t / denominator if t != 0 else 0.0


def _on_gpu(sums, degree, reciprocal):
    """:func:`from_sums` of CuPy arrays, in one launch."""
    import cupy

    from ..gpu import runtime

    if sums.dtype not in (np.int64, np.float64):
        raise TypeError(f"clustering sums must be int64 or float64 on the GPU, got {sums.dtype}")
    for name, array in (("degree", degree), ("reciprocal", reciprocal)):
        if array is not None and array.dtype != np.int64:
            raise TypeError(f"clustering {name} must be int64 on the GPU, got {array.dtype}")
    n = sums.size
    ratio = cupy.empty(n, dtype=np.float64)
    nonzero = cupy.empty(n, dtype=bool)
    directed = reciprocal is not None
    arrays = [cupy.ascontiguousarray(a) for a in (sums, degree, reciprocal if directed else degree)]
    kernel = runtime.function("coefficients.cu", "clustering_coefficients", weight=sums.dtype)
    runtime.launch(kernel, n, (*arrays, np.int64(n), np.int32(directed), ratio, nonzero))
    return ratio, nonzero


def nonzero_terms(ratio, nonzero):
    """The coefficients ``ratio`` (CuPy) where ``nonzero`` (:func:`from_sums`)
    holds, in order, on the GPU: every nonzero coefficient, and any that
    rounded to 0. A compaction by kernels compiled ahead (CuPy's masks would
    compile theirs at a process's first call)."""
    from ..preprocess.gpu_rows import compact_kept

    return compact_kept(ratio.view(np.int64), nonzero).view(np.float64)
