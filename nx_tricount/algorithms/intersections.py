"""The intersections of ``N+(u)`` and ``N+(v)`` that the CPU driver of the
arc-intersection algorithms (:mod:`.per_arc`) runs for each arc ``e = u -> v``: a
two-pointer merge (merge), binary search (edge, vertex), and AND-ed bit slices
(bitmap). docs/algorithms.md has the notes.

Each is ``intersect(indices, i, i_end, j, j_end, e, u, v, values, weighted, mode,
row) -> found``: it walks ``N+(u)`` over ``indices[i:i_end]`` and ``N+(v)`` over
``indices[j:j_end]``, credits each triangle's third vertex (or its two other arcs)
with ``accumulate.credit_triangle`` unless ``mode`` is TOTAL, and returns the number
of triangles on the arc. They are inlined into the driver's loops.
"""

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

from ..preprocess.host_index import at
from .accumulate import credit_triangle
from .counts import TOTAL

__all__ = ["SLICE_BITS", "merge_intersection", "search_intersection", "slice_intersection"]


@njit(cache=True, inline="always")
def merge_intersection(indices, i, i_end, j, j_end, e, u, v, values, weighted, mode, row):
    """Triangles on arc ``e = u -> v`` by merging ``indices[i:i_end]`` (``N+(u)``)
    and ``indices[j:j_end]`` (``N+(v)``); the merge algorithm's."""
    found = 0
    while i < i_end and j < j_end:
        a = indices[at(i)]
        b = indices[at(j)]
        if a < b:
            i += 1
        elif a > b:
            j += 1
        else:
            if mode != TOTAL:
                credit_triangle(row, values, weighted, mode, e, i, j, u, v, a)
            found += 1
            i += 1
            j += 1
    return found


@njit(cache=True, inline="always")
def _lower_bound(indices, lo, hi, x):
    """First position in the sorted ``indices[lo:hi]`` holding a value >= ``x``."""
    while lo < hi:
        mid = (lo + hi) >> 1
        if indices[at(mid)] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True, inline="always")
def search_intersection(indices, i, i_end, j, j_end, e, u, v, values, weighted, mode, row):
    """Triangles on arc ``e = u -> v`` by binary search of ``indices[i:i_end]``
    (``N+(u)``) and ``indices[j:j_end]`` (``N+(v)``); the edge and vertex algorithms'.

    After each hit or miss, the lower bound of the searched list moves past the
    element searched for: both lists are sorted.
    """
    found = 0
    if i_end - i <= j_end - j:
        while i < i_end and j < j_end:
            a = indices[at(i)]
            j = _lower_bound(indices, j, j_end, a)
            if j < j_end and indices[at(j)] == a:
                if mode != TOTAL:
                    credit_triangle(row, values, weighted, mode, e, i, j, u, v, a)
                found += 1
                j += 1
            i += 1
    else:
        while j < j_end and i < i_end:
            a = indices[at(j)]
            i = _lower_bound(indices, i, i_end, a)
            if i < i_end and indices[at(i)] == a:
                if mode != TOTAL:
                    credit_triangle(row, values, weighted, mode, e, i, j, u, v, a)
                found += 1
                i += 1
            j += 1
    return found


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
    (``N+(u)``) and ``indices[j:j_end]`` (``N+(v)``); the bitmap algorithm's.

    For each slice ``k`` holding a neighbour of ``u``, the words of ``u``'s and
    ``v``'s runs in it are AND-ed; each set bit ``b`` is the third vertex
    ``32 k + b``, at the start of each run plus the popcount of its word below
    ``b``. Words are int64 holding 32 bits, so that no mix of signed and unsigned
    types turns the arithmetic into floats.
    """
    found = 0
    while i < i_end and j < j_end:
        k = indices[at(i)] >> _SLICE_SHIFT  # the next slice where u has a neighbour
        u_start = i
        u_word = 0
        while i < i_end and indices[at(i)] >> _SLICE_SHIFT == k:
            u_word |= np.int64(1) << (indices[at(i)] & _SLICE_MASK)
            i += 1
        while j < j_end and indices[at(j)] >> _SLICE_SHIFT < k:
            j += 1
        v_start = j
        v_word = 0
        while j < j_end and indices[at(j)] >> _SLICE_SHIFT == k:
            v_word |= np.int64(1) << (indices[at(j)] & _SLICE_MASK)
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
