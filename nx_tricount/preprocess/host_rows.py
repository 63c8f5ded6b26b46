"""The CPU preprocessing's counting sorts: pairs of vertex ids grouped into the
rows of a CSR on every core (numba), where NumPy would sort 64-bit packed keys on
one core. :mod:`.host_ops` builds the simple graph and the oriented CSR on them.

A pass over the pairs counts each row's length in one histogram per block of
pairs; the blocks' offsets into each row then let every block place its pairs
with no two threads writing one slot, in the pairs' order. Each row is sorted
(and its repeats dropped) on its own: rows are short, and the rows are dealt to
the threads in spans of about equal length. The result is the one a sort of the
packed keys gives, array for array (``tests/test_host_rows.py``). Measured:
``docs/benchmarks.md``, "CPU engine against NetworkX, networkit and igraph".
"""

import numba
import numpy as np
from numba import njit, prange

from .host_index import at

__all__ = ["grouped_rows", "distinct_pairs", "in_row_order", "oriented_pairs", "rows_of", "counting_order"]

#: Rows up to this long are sorted by insertion: most rows of a sparse graph are
#: short, and numba's quicksort costs more than the row itself there.
INSERTION_ROWS = 24

#: Fewest pairs a block of the row count takes.
BLOCK_PAIRS = 4096

#: Spans of rows per thread for the row sorts: enough that a few long rows do not
#: leave one thread working alone.
SPANS_PER_THREAD = 8


def grouped_rows(first, second, n, *, distinct, ordered=False, rows_dtype=None):
    """The rows of the pairs ``(first[i], second[i])`` whose ``first`` is not
    negative: ``indptr`` (int64, ``n + 1``) and each row's ``second`` values
    sorted (without repeats when ``distinct``), in ``second``'s dtype. With
    ``ordered`` (not ``distinct``), the pairs of each row already come in
    ascending ``second``: the pairs keep their order, so the rows are not sorted.
    With ``rows_dtype``, also the row of each position (:func:`rows_of`), written
    as the values are placed: ``(indptr, values, rows)``."""
    # A block's histogram has n counters: no more of them than the pairs pay for.
    blocks = max(1, min(numba.get_num_threads(), first.size // max(n, BLOCK_PAIRS)))
    counts = np.zeros((blocks, n), dtype=np.int64)
    _count_rows(first, counts)
    indptr = np.empty(n + 1, dtype=np.int64)
    _offsets(counts, indptr)
    values = np.empty(int(indptr[-1]), dtype=second.dtype)
    # Empty where not asked for, or (distinct) made by the compaction instead.
    row_type = second.dtype if rows_dtype is None else rows_dtype
    rows = np.empty(0 if rows_dtype is None or distinct else values.size, dtype=row_type)
    _place(first, second, counts, values, rows)
    wanted = (indptr, values) if rows_dtype is None else (indptr, values, rows)
    if ordered and not distinct:
        return wanted
    spans = _spans(indptr, numba.get_num_threads() * SPANS_PER_THREAD)
    if not distinct:
        _sort_rows(indptr, values, spans)  # within rows: each position keeps its row
        return wanted
    kept = np.empty(n, dtype=np.int64)
    _sort_distinct_rows(indptr, values, spans, kept)
    compact = np.empty(n + 1, dtype=np.int64)
    compact[0] = 0
    np.cumsum(kept, out=compact[1:])
    out = np.empty(int(compact[-1]), dtype=second.dtype)
    rows = np.empty(0 if rows_dtype is None else out.size, dtype=row_type)
    _compact_rows(indptr, values, compact, spans, out, rows)
    return (compact, out) if rows_dtype is None else (compact, out, rows)


def rows_of(indptr, dtype, out=None):
    """The row of every CSR position (the COO row array), in ``dtype``; into
    ``out`` (as many items as there are positions) when given."""
    rows = np.empty(int(indptr[-1]), dtype=dtype) if out is None else out
    _fill_rows(indptr, rows, _spans(indptr, numba.get_num_threads() * SPANS_PER_THREAD))
    return rows


def counting_order(keys):
    """The stable ascending order of non-negative integer keys (int64 positions):
    each key's first place from a cumulative count of the keys below it, then one
    pass placing the positions in order (O(size + largest key))."""
    keys = np.ascontiguousarray(keys)
    order = np.empty(keys.size, dtype=np.int64)
    if keys.size:
        counts = np.bincount(keys)
        places = np.zeros(counts.size, dtype=np.int64)
        np.cumsum(counts[:-1], out=places[1:])
        _place_in_order(keys, places, order)
    return order


def distinct_pairs(src, dst, n, dtype):
    """``(min, max)`` of each row ``src[i] - dst[i]`` in ``dtype``, with ``-1`` as
    the first of a self-loop (no row then). Ids outside ``0..n-1`` raise ValueError."""
    lo, hi = np.empty(src.size, dtype=dtype), np.empty(src.size, dtype=dtype)
    outside = np.zeros(max(1, src.size // BLOCK_PAIRS + 1), dtype=np.int64)
    _min_max(src, dst, n, lo, hi, outside)
    if outside.any():
        raise ValueError(f"vertex ids must be in 0..{n - 1}; {int(outside.sum())} edge rows have others")
    return lo, hi


def in_row_order(src, dst, n):
    """The degrees of the rows ``src[i] - dst[i]`` (int64) if they are distinct
    edges ``src < dst``, ids in ``0..n-1``, in ascending ``(src, dst)`` order (the
    pairs as :func:`distinct_pairs` and :func:`grouped_rows` would leave them, so a
    simple graph is the rows themselves), else None. One pass over blocks of rows
    in parallel, each checking its rows up to the first out of place, then counting
    their ends into a histogram of its own (as many blocks as threads, as long as
    the rows pay for the histograms' ``n`` counters each, as in :func:`grouped_rows`)."""
    blocks = max(1, min(numba.get_num_threads(), src.size // max(n, BLOCK_PAIRS)))
    counts = np.zeros((blocks, n), dtype=np.int64)
    if not _row_order_degrees(src, dst, n, counts):
        return None
    return counts[0] if blocks == 1 else counts.sum(axis=0)


def oriented_pairs(lo, hi, rank, degree, by_degree, dtype):
    """The arcs of the edges ``lo < hi`` relabelled by ``rank`` (old id -> new id;
    None keeps the ids) and directed from the lower new id to the higher, or with
    ``by_degree`` from the lower degree (``degree`` in old ids) to the higher, ties
    by new id: ``(sources, targets)`` in ``dtype``."""
    src, dst = np.empty(lo.size, dtype=dtype), np.empty(lo.size, dtype=dtype)
    identity = rank is None
    _orient(lo, hi, np.zeros(1, dtype=lo.dtype) if identity else rank, identity, degree, by_degree, src, dst)
    return src, dst


@njit(parallel=True, cache=True)
def _min_max(src, dst, n, lo, hi, outside):
    blocks = outside.size
    for block in prange(blocks):
        for i in range(src.size * block // blocks, src.size * (block + 1) // blocks):
            a, b = src[at(i)], dst[at(i)]
            if a < 0 or b < 0 or a >= n or b >= n:
                outside[at(block)] += 1
                lo[at(i)] = -1
            elif a == b:
                lo[at(i)] = -1
            else:
                lo[at(i)] = min(a, b)
                hi[at(i)] = max(a, b)


@njit(parallel=True, cache=True)
def _row_order_degrees(src, dst, n, counts):
    """Whether the rows are distinct edges ``src < dst`` in ``0..n-1``, in ascending
    order, and each block's degrees of their endpoints into its row of ``counts``:
    blocks of consecutive rows, each checked from the row before it and left at
    its first row out of place."""
    blocks = counts.shape[0]
    wrong = np.zeros(blocks, dtype=np.bool_)
    for block in prange(blocks):
        start, end = src.size * block // blocks, src.size * (block + 1) // blocks
        degree = counts[at(block)]
        last_src, last_dst = -1, -1
        if start > 0:
            last_src, last_dst = src[at(start - 1)], dst[at(start - 1)]
        for i in range(start, end):
            a, b = src[at(i)], dst[at(i)]
            if a < 0 or a >= b or b >= n or a < last_src or (a == last_src and b <= last_dst):
                wrong[at(block)] = True
                break
            last_src, last_dst = a, b
        if not wrong[at(block)]:
            for i in range(start, end):
                degree[at(src[at(i)])] += 1
                degree[at(dst[at(i)])] += 1
    return not wrong.any()


@njit(parallel=True, cache=True)
def _orient(lo, hi, rank, identity, degree, by_degree, src, dst):
    for i in prange(lo.size):
        a, b = lo[at(i)], hi[at(i)]
        da = db = 0
        if by_degree:
            da, db = degree[at(a)], degree[at(b)]
        if not identity:
            a, b = rank[at(a)], rank[at(b)]
        if a > b:  # the lower new id first
            a, b, da, db = b, a, db, da
        if da > db:  # then the lower degree first, ties staying by id
            a, b = b, a
        src[at(i)], dst[at(i)] = a, b


@njit(cache=True)
def _place_in_order(keys, places, order):
    for position in range(keys.size):
        key = at(keys[at(position)])
        place = places[key]
        order[at(place)] = position
        places[key] = place + 1


@njit(parallel=True, cache=True)
def _count_rows(first, counts):
    """Each block's row lengths, blocks of consecutive pairs."""
    blocks = counts.shape[0]
    for block in prange(blocks):
        start, end = first.size * block // blocks, first.size * (block + 1) // blocks
        row = counts[at(block)]
        for i in range(start, end):
            v = first[at(i)]
            if v >= 0:
                row[at(v)] += 1


@njit(cache=True)
def _offsets(counts, indptr):
    """``indptr`` of the rows, and each block's first slot in each row in place
    of its count."""
    blocks, n = counts.shape
    offset = 0
    for v in range(n):
        indptr[at(v)] = offset
        for block in range(blocks):
            length = counts[at(block), at(v)]
            counts[at(block), at(v)] = offset
            offset += length
    indptr[at(n)] = offset


@njit(parallel=True, cache=True)
def _place(first, second, slots, values, rows):
    """Each block's pairs into their rows; their rows beside them where ``rows``
    is not empty."""
    blocks = slots.shape[0]
    with_rows = rows.size > 0
    for block in prange(blocks):
        start, end = first.size * block // blocks, first.size * (block + 1) // blocks
        slot = slots[at(block)]
        for i in range(start, end):
            v = first[at(i)]
            if v >= 0:
                place = at(slot[at(v)])
                values[place] = second[at(i)]
                if with_rows:
                    rows[place] = v
                slot[at(v)] += 1


def _spans(indptr, spans):
    """Row bounds (ascending, from 0 to n) cutting the rows into ``spans`` runs of
    about equal length, some perhaps empty."""
    targets = int(indptr[-1]) * np.arange(1, spans, dtype=np.int64) // spans
    cuts = np.searchsorted(indptr, targets, side="right") - 1
    return np.concatenate(([0], cuts, [indptr.size - 1])).astype(np.int64)


@njit(cache=True, inline="always")
def _sort_row(values, start, end):
    if end - start > INSERTION_ROWS:
        values[start:end].sort()
        return
    for i in range(start + 1, end):
        x = values[at(i)]
        j = i
        while j > start and values[at(j - 1)] > x:
            values[at(j)] = values[at(j - 1)]
            j -= 1
        values[at(j)] = x


@njit(parallel=True, cache=True)
def _sort_rows(indptr, values, spans):
    for s in prange(spans.size - 1):
        for v in range(spans[at(s)], spans[at(s + 1)]):
            _sort_row(values, indptr[at(v)], indptr[at(v + 1)])


@njit(parallel=True, cache=True)
def _sort_distinct_rows(indptr, values, spans, kept):
    """Each row sorted, its distinct values moved to its front, their number in ``kept``."""
    for s in prange(spans.size - 1):
        for v in range(spans[at(s)], spans[at(s + 1)]):
            start, end = indptr[at(v)], indptr[at(v + 1)]
            _sort_row(values, start, end)
            last = start
            for i in range(start, end):
                if i == start or values[at(i)] != values[at(i - 1)]:
                    values[at(last)] = values[at(i)]
                    last += 1
            kept[at(v)] = last - start


# The row loops below copy item by item: a slice assignment per row cost about 12 ns
# a row in numba, most of the pass on graphs of short rows (p2p-Gnutella31, one
# thread: 825 us for 62k rows, 148k items).
@njit(parallel=True, cache=True)
def _compact_rows(indptr, values, compact, spans, out, rows):
    """Each row's first ``compact`` lengths of values into ``out``; their rows into
    ``rows`` where it is not empty."""
    with_rows = rows.size > 0
    for s in prange(spans.size - 1):
        for v in range(spans[at(s)], spans[at(s + 1)]):
            shift = indptr[at(v)] - compact[at(v)]
            for i in range(compact[at(v)], compact[at(v + 1)]):
                out[at(i)] = values[at(i + shift)]
                if with_rows:
                    rows[at(i)] = v


@njit(parallel=True, cache=True)
def _fill_rows(indptr, rows, spans):
    for s in prange(spans.size - 1):
        for v in range(spans[at(s)], spans[at(s + 1)]):
            for i in range(indptr[at(v)], indptr[at(v + 1)]):
                rows[at(i)] = v
