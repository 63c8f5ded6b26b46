"""Bit-wise intersection (bitwise-2d-partition.md §3.3, Algorithm 1): one task
per oriented arc ``u -> v``, counting ``|N+(u) ∩ N+(v)|`` by AND-ing bit slices
of the two neighbour lists.

The paper reads the count of triangles as the non-zero entries of ``A AND A²``
and computes it per arc: the vertex-id space is cut into slices of ``m``
consecutive ids, each neighbour list becomes one bit word per slice, and the
words of ``u`` and ``v`` for the same slice are AND-ed and popcounted. Slices
where ``u`` has no neighbour are skipped. The tasks run over 2D partitions of
the CSR (§3.2) so that large graphs fit in GPU memory, on the paper's
preprocessing (§3.1: arcs from non-center to center vertices, our orientation
``a-direction``).

What we do: slices of :data:`SLICE_BITS` = 32 ids (one 32-bit word, the width
of the GPU's ``__popc``); for each slice ``k`` holding a neighbour of ``u``
(``w >> 5 == k``) we build ``u``'s word from its run of neighbours in that
slice, advance in the sorted ``N+(v)`` to the same slice, build ``v``'s word,
AND and popcount. Per node, per edge and weighted, each set bit ``b`` of the
AND word is a third vertex ``w = 32 k + b``; its positions in ``N+(u)`` and
``N+(v)`` (which name the triangle's other two arcs) are the start of slice
``k``'s run in each list plus the popcount of that list's word below bit ``b``.
When every arc goes to a higher id (``Prepared.ascending``), common neighbours
lie after ``v`` in ``N+(u)``, so ``u``'s walk starts after the arc's own position.

On an acyclic orientation each triangle is met once, at the arc from its source
to its middle vertex (the third is their common out-neighbour); on the arcs of a directed graph as given (orientation
``arcs``) it counts transitive triples ``u->v, u->w, v->w``, as merge does. The
result does not depend on the orientation's rule, only on its being acyclic.

Deviations from the paper:

- The words are built on the fly from the CSR for every arc; there are no 2D
  partitions and no precomputed slice arrays. The paper converts each CSR
  partition to slices once, but reports (§4.2) that its own implementation
  regenerates them per arc too. Stored slices (a slice id and a word per
  non-empty slice) would be a second copy of the CSR that is smaller only where
  neighbours are dense within 32 consecutive ids, which sparse graphs rarely
  are; building a word costs one OR per element already read. Partitioning the
  graph across memory and GPUs belongs to ``scale.py`` for every algorithm.
- The paper gives the total only; the per-node, per-edge and weighted modes
  locate the third vertex's arcs by popcounts, as described above.
"""

import numba
import numpy as np
from numba import njit, prange, types
from numba.extending import intrinsic

from .accumulate import accumulate_per_thread, credit_arc, credit_triangle
from .counts import TOTAL

__all__ = ["SLICE_BITS", "count_cpu", "count_gpu"]

#: Ids per slice: one 32-bit word, as in ``kernels/bitmap.cu``.
SLICE_BITS = 32
_SLICE_SHIFT = SLICE_BITS.bit_length() - 1  # slice of w: w >> 5
_SLICE_MASK = SLICE_BITS - 1  # bit of w in its slice: w & 31


@intrinsic
def _popcount(typingctx, word):
    """Number of set bits of an integer: LLVM's ``ctpop``, the CPU's popcount
    instruction where it has one."""
    if not isinstance(word, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return word(word), codegen


@njit(cache=True)
def _intersect(indptr, indices, e, u, v, ascending, values, weighted, mode, row):
    """Triangles on arc ``e = u -> v``; with a mode other than TOTAL, each one's
    third vertex (or its two other arcs) is credited in ``row``.

    Words are int64 holding 32 bits, so that no mix of signed and unsigned
    types turns the arithmetic into floats.
    """
    i = e + 1 if ascending else indptr[u]
    i_end = indptr[u + 1]
    j, j_end = indptr[v], indptr[v + 1]
    found = 0
    while i < i_end and j < j_end:
        k = indices[i] >> _SLICE_SHIFT  # the next slice where u has a neighbour
        u_start = i
        u_word = 0
        while i < i_end and indices[i] >> _SLICE_SHIFT == k:
            u_word |= np.int64(1) << (indices[i] & _SLICE_MASK)
            i += 1
        while j < j_end and indices[j] >> _SLICE_SHIFT < k:
            j += 1
        v_start = j
        v_word = 0
        while j < j_end and indices[j] >> _SLICE_SHIFT == k:
            v_word |= np.int64(1) << (indices[j] & _SLICE_MASK)
            j += 1
        common = u_word & v_word
        found += _popcount(common)
        if mode != TOTAL:
            while common != 0:
                below = (common & -common) - 1  # the bits under the lowest set bit
                a = (k << _SLICE_SHIFT) | _popcount(below)
                i_a = u_start + _popcount(u_word & below)
                j_a = v_start + _popcount(v_word & below)
                credit_triangle(row, values, weighted, mode, e, i_a, j_a, u, v, a)
                common &= common - 1
    return found


@njit(parallel=True, cache=True)
def _total(indptr, indices, rows, ascending):
    no_values = np.zeros(0, dtype=np.int64)
    total = 0
    for e in prange(indices.size):
        total += _intersect(
            indptr, indices, e, rows[e], indices[e], ascending, no_values, False, TOTAL, no_values
        )
    return total


@njit(parallel=True, cache=True)
def _accumulate(indptr, indices, rows, ascending, values, weighted, mode, out):
    """Per-vertex or per-arc counts (see ``accumulate.accumulate_per_thread``)."""
    for e in prange(indices.size):
        row = out[numba.get_thread_id()]
        u = rows[e]
        v = indices[e]
        found = _intersect(indptr, indices, e, u, v, ascending, values, weighted, mode, row)
        credit_arc(row, weighted, mode, e, u, v, found)


def count_cpu(prepared, mode):
    """Count on the CPU; returns an int (total) or an array in CSR ids.

    Parameters
    ----------
    prepared : Prepared
        Oriented CSR (host arrays).
    mode : {"total", "per_node", "per_edge"}

    Returns
    -------
    int or numpy array
        The total; or int64 counts per vertex (per arc, in CSR order), or the
        per-vertex sums of triangle arc-value products when ``prepared.values``
        is set and ``mode`` is ``"per_node"``.
    """
    p = prepared
    arrays = (p.indptr, p.indices, p.rows, bool(p.ascending))
    if mode == "total":
        return int(_total(*arrays))
    return accumulate_per_thread(_accumulate, arrays, p, mode)


def count_gpu(prepared, mode):
    """Count on the GPU (``kernels/bitmap.cu``): one thread per arc.

    Same contract as :func:`count_cpu`, with CuPy arrays in and out.
    """
    from .. import runtime

    p = prepared
    ascending = np.int32(p.ascending)
    return runtime.count(p, mode, "bitmap", p.m, (p.indptr, p.indices, p.rows, np.int64(p.m), ascending))
