"""Race-free accumulation for the CPU kernels.

numba has no atomic adds on the CPU, so a kernel that credits a triangle to
vertices or arcs other than its own task's writes into a private row of an
``(threads, length)`` array, indexed by ``numba.get_thread_id()``; the rows
are summed afterwards. Memory is ``threads * length`` counters.

Weighted sums are compensated: each row holds a (sum, error) pair per vertex,
:func:`add_term` adds a term with Knuth's TwoSum (the addition's exact rounding
error goes to the pair's second word) as ``add_value`` in ``kernels/common.cu``
does on the GPU, and :func:`combine_compensated` adds the rows' pairs the same way.
The result is within one rounding of the exact sum plus a second-order term,
whatever the number of terms (``docs/algorithms.md``, "What is exact").

The kernels index these rows, and their own arrays, through
:func:`~nx_tricount.preprocess.host_index.at`: an unsigned index, which numba
does not check for a negative one.
"""

import numba
import numpy as np
from numba import njit

from ..preprocess.host_index import at
from .counts import PER_EDGE, PER_NODE, TOTAL, two_sum

#: The kernels' integer code of each mode.
_MODE_CODES = {"total": TOTAL, "per_node": PER_NODE, "per_edge": PER_EDGE}

__all__ = ["accumulate_per_thread", "add_term", "combine_compensated", "credit_arc", "credit_triangle"]


def accumulate_per_thread(kernel, arrays, prepared, mode):
    """Run ``kernel(*arrays, values, weighted, mode_code, out)`` and sum its rows.

    Parameters
    ----------
    kernel : numba function
        Adds counts into ``out[thread_id]``; with mode TOTAL, into ``out[thread_id, 0]``.
    arrays : tuple
        The kernel's leading arguments (CSR arrays and algorithm extras).
    prepared : Prepared
        Gives the length (``n`` per vertex, ``m`` per arc) and the arc values.
    mode : {"total", "per_node", "per_edge"}
        Kernels with a reduction of their own count ``"total"`` without this.

    Returns
    -------
    int or numpy array
        The total; or int64 counts; or for weighted per-vertex sums, in the
        values' dtype, the ``(2, n)`` compensated pairs (sums, errors).
    """
    mode_code = _MODE_CODES[mode]
    weighted = prepared.values is not None and mode_code == PER_NODE
    length = {TOTAL: 8, PER_NODE: prepared.n, PER_EDGE: prepared.m}[mode_code]  # 8: a cache line
    values = prepared.values if weighted else np.zeros(0, dtype=np.int64)
    out = np.zeros((numba.get_num_threads(), 2 * length if weighted else length), dtype=values.dtype)
    kernel(*arrays, values, weighted, mode_code, out)
    if mode_code == TOTAL:
        return int(out[:, 0].sum())
    if weighted:
        return combine_compensated(out)
    return out.sum(axis=0)


def combine_compensated(rows):
    """Each vertex's compensated sum over ``rows`` of (sum, error) pairs.

    ``rows`` has shape ``(threads, 2 n)``: the sums at even and the errors at odd
    positions. Returns the ``(2, n)`` pairs (sums, errors); integer sums are
    exact, with zero errors.
    """
    sums, errors = rows[:, 0::2], rows[:, 1::2]
    if rows.dtype.kind != "f":
        return np.stack([sums.sum(axis=0), errors.sum(axis=0)])
    total = sums[0].copy()
    error = errors.sum(axis=0)  # second-order: plain sums suffice
    for row in sums[1:]:
        total, rounding = two_sum(total, row)
        error += rounding
    return np.stack([total, error])


@njit(cache=True, inline="always")
def add_term(row, k, x):
    """Add ``x`` to the compensated pair ``row[2 k], row[2 k + 1]`` (TwoSum)."""
    before = row[at(2 * k)]
    total = before + x
    row[at(2 * k)] = total
    x_part = total - before
    error = (before - (total - x_part)) + (x - x_part)
    if error != 0 and np.isfinite(total):
        row[at(2 * k + 1)] += error


@njit(cache=True, inline="always")
def credit_arc(row, weighted, mode, e, u, v, found):
    """Credit the ``found`` triangles on arc ``e = u -> v`` to its two ends
    (PER_NODE) or to the arc (PER_EDGE); weighted sums were credited per triangle."""
    if not weighted:
        if mode == PER_NODE:
            row[at(u)] += found
            row[at(v)] += found
        else:
            row[at(e)] += found


@njit(cache=True, inline="always")
def credit_triangle(row, values, weighted, mode, e, i, j, u, v, a):
    """Credit one triangle ``u, v, a`` found at arc ``e = u -> v``, where ``a`` sits
    at positions ``i`` and ``j`` of ``N+(u)`` and ``N+(v)``: the product of its three
    arc values to all three vertices (weighted), 1 to the third vertex (PER_NODE;
    :func:`credit_arc` credits ``u`` and ``v`` once per arc), or 1 to the arcs
    ``u -> a`` and ``v -> a`` (PER_EDGE)."""
    if weighted:
        x = values[at(e)] * values[at(i)] * values[at(j)]
        add_term(row, u, x)
        add_term(row, v, x)
        add_term(row, a, x)
    elif mode == PER_NODE:
        row[at(a)] += 1
    else:
        row[at(i)] += 1
        row[at(j)] += 1
