"""Bit-wise intersection (bitwise-2d-partition.md §3.3, Algorithm 1): one task
per oriented arc ``u -> v``, counting ``|N+(u) ∩ N+(v)|`` by AND-ing and
popcounting 32-id bit slices of the two neighbour lists, built per arc from the
CSR (no 2D partitions). Per node, per edge and weighted, each set bit of the AND
is a third vertex, whose arcs are found by popcounts. docs/algorithms.md has the
notes and the deviations from the paper.
"""

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

from .accumulate import credit_triangle
from .counts import TOTAL

__all__ = ["SLICE_BITS", "count_cpu", "count_gpu", "slice_intersection"]

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


@njit(cache=True, inline="always")
def slice_intersection(indices, i, i_end, j, j_end, e, u, v, values, weighted, mode, row):
    """Triangles on arc ``e = u -> v`` by bit slices of ``indices[i:i_end]``
    (``N+(u)``) and ``indices[j:j_end]`` (``N+(v)``); the intersection of ``per_arc``.

    For each slice ``k`` holding a neighbour of ``u``, the words of ``u``'s and
    ``v``'s runs in it are AND-ed; each set bit ``b`` is the third vertex
    ``32 k + b``, at the start of each run plus the popcount of its word below
    ``b``. Words are int64 holding 32 bits, so that no mix of signed and unsigned
    types turns the arithmetic into floats.
    """
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


def count_cpu(prepared, mode):
    """Count on the CPU, one task per arc (``per_arc.count_arcs``); returns an int
    (total) or an array in CSR ids: int64 counts, or per-vertex sums of triangle
    arc-value products when ``prepared.values`` is set and ``mode`` is "per_node"."""
    from . import per_arc  # here: per_arc imports slice_intersection from this module

    return per_arc.count_arcs(per_arc.BITMAP, prepared, mode)


def count_gpu(prepared, mode):
    """Count on the GPU (``kernels/bitmap.cu``): one thread per arc.

    Same contract as :func:`count_cpu`, with CuPy arrays in and out.
    """
    from ..gpu import runtime

    p = prepared
    ascending = np.int32(p.ascending)
    return runtime.count(p, mode, "bitmap", p.m, (p.indptr, p.indices, p.rows, np.int64(p.m), ascending))
