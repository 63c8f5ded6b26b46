"""The preprocessing's primitives on NumPy arrays: the reference that
:mod:`.gpu_ops` (same functions, same signatures) must equal.

Pairs of vertex ids pack into int64 keys that sort like ``(a, b)``:
``a << 32 | b`` when ids fit in 31 bits (shifts and masks, much cheaper to undo
than a division), else ``a * n + b`` (exact while ``n**2 < 2**63``).
"""

import sys

import numpy as np
from numba import njit, prange

from . import host_rows
from .dedup import SENTINEL, SimpleGraph, deduplicated, index_dtype, unique_keys

__all__ = [
    "SENTINEL",
    "edge_keys",
    "packed_keys",
    "unpack_keys",
    "endpoint_counts",
    "vertex_counts",
    "sampled_degree_sum",
    "pair_sum",
    "csr_of_sorted_keys",
    "csr_of_keys",
    "rows_of",
    "sorted_keys",
    "ascending_order",
    "oriented_keys",
    "oriented_csr",
    "deduplicate",
    "distinct_keys_graph",
    "keys_by_range",
    "scatter_add",
    "id_range",
]


def edge_keys(src, dst, n):
    """Keys of the undirected edges ``min - max``, :data:`SENTINEL` for self-loops."""
    keys = packed_keys(np.minimum(src, dst), np.maximum(src, dst), n)
    keys[src == dst] = SENTINEL
    return keys


def packed_keys(a, b, n):
    """Keys of the pairs ``(a, b)`` (int64, sorting like the pairs)."""
    if n <= 2**31:
        return (a.astype(np.int64) << 32) | b.astype(np.int64)
    return a.astype(np.int64) * n + b.astype(np.int64)


def unpack_keys(keys, n, dtype):
    """The pairs of ``keys`` (no :data:`SENTINEL`), as two arrays of ``dtype``."""
    if n <= 2**31:
        return (keys >> 32).astype(dtype), (keys & 0xFFFFFFFF).astype(dtype)
    return (keys // n).astype(dtype), (keys % n).astype(dtype)


def endpoint_counts(a, b, n, *, a_sorted=False):
    """Occurrences of each id in ``0..n-1`` in ``a`` and ``b`` together (int64):
    the degrees of the edges ``a - b``. ``a_sorted`` says ``a`` is sorted (the
    GPU counts its runs instead of its rows)."""
    return np.bincount(a, minlength=n) + np.bincount(b, minlength=n)


def vertex_counts(ids, n, weights=None):
    """Occurrences of each id in ``0..n-1`` (int64), or sums of ``weights`` (float64)."""
    return np.bincount(ids, weights=weights, minlength=n)


def _sample_rows(samples, rows):
    """Row of each sampled endpoint (endpoint ``i`` is side ``i & 1`` of its row):
    a multiplicative hash of ``i // 2``, as ``kernels/sample.cu`` draws them."""
    i = np.arange(samples, dtype=np.uint64) >> np.uint64(1)
    return (i * np.uint64(0x9E3779B97F4A7C15)) % np.uint64(rows)


#: Rows of a counted chunk of sampled_degree_sum, and most rows counted: a larger
#: edge list counts every k-th chunk and multiplies the counts by k.
SAMPLE_CHUNK = 32
COUNTED_ROWS = 1 << 21


def sampled_degree_sum(src, dst, samples):
    """The sum, over ``samples`` endpoints drawn from the rows ``src[i] - dst[i]``
    (non-empty), of each one's count among the rows' endpoints: divided by
    ``samples``, an estimate of ``sum(d**2) / sum(d)``. Above
    :data:`COUNTED_ROWS` rows the counts are taken in every k-th chunk of
    :data:`SAMPLE_CHUNK` rows and multiplied by k. Returns a function that
    returns the sum as an int (the GPU's form reads it later)."""
    rows = _sample_rows(samples, src.size)
    drawn = np.where(np.arange(samples) & 1, dst[rows], src[rows]).astype(np.int64)
    ids, multiplicity = np.unique(drawn, return_counts=True)
    skip = counted_chunk_skip(src.size)
    starts = np.arange(0, src.size, SAMPLE_CHUNK * skip, dtype=np.int64)
    found = _sample_positions(ids, src, dst, starts, SAMPLE_CHUNK)
    counts = np.bincount(found[found >= 0], minlength=ids.size)
    total = skip * int(np.dot(multiplicity, counts))
    return lambda: total


# In parallel, through a small hash table of the ids: a large edge list counts
# millions of endpoints, and binary searches of them (mispredicted branches) took
# 0.31 of the 0.39 s of R-MAT 25's estimate on two cores.
@njit(parallel=True, cache=True)
def _sample_positions(ids, src, dst, starts, chunk):
    """Position in the sorted ``ids`` (non-negative) of each endpoint of the
    ``chunk`` rows from each of ``starts`` (two per row, -1 for none and past the
    last row)."""
    bits = 1
    while (1 << bits) < 4 * ids.size:
        bits += 1
    slots = np.full(1 << bits, -1, dtype=np.int64)
    for i in range(ids.size):
        h = _slot(ids[i], bits)
        while slots[h] >= 0:
            h = (h + 1) & ((1 << bits) - 1)
        slots[h] = i
    found = np.full(2 * starts.size * chunk, -1, dtype=np.int64)
    for c in prange(starts.size):
        for r in range(min(chunk, src.size - starts[c])):
            row, at = starts[c] + r, 2 * (c * chunk + r)
            found[at] = _position(ids, slots, bits, src[row])
            found[at + 1] = _position(ids, slots, bits, dst[row])
    return found


@njit(cache=True)
def _slot(value, bits):
    # Fibonacci hashing: the top bits of the id times 2^64 / phi (unsigned, wrapping).
    return np.int64((np.uint64(value) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - bits))


@njit(cache=True)
def _position(ids, slots, bits, value):
    h = _slot(value, bits)
    while slots[h] >= 0:
        if ids[slots[h]] == value:
            return slots[h]
        h = (h + 1) & ((1 << bits) - 1)
    return -1


def counted_chunk_skip(rows):
    """k of :func:`sampled_degree_sum`: every k-th chunk of rows is counted."""
    return max(1, -(-rows // COUNTED_ROWS))


#: Degrees from which pair_sum runs in parallel: below, starting numba's threads
#: costs more than the sum.
PARALLEL_PAIRS = 1 << 16


def pair_sum(degree):
    """``sum(d (d - 1))`` over an int64 array of degrees, exact, as a Python int
    (the GPU's is read by ``int()``, which takes this one as it is): each term's
    high and low 32 bits summed apart (each term below 2**64), in one parallel
    pass for large arrays."""
    if degree.size >= PARALLEL_PAIRS:
        high, low = _pair_sum_halves(degree)
    else:
        d = np.maximum(degree, 1).astype(np.uint64)
        pairs = d * (d - np.uint64(1))
        high, low = (pairs >> np.uint64(32)).sum(), (pairs & np.uint64(0xFFFFFFFF)).sum()
    return (int(high) << 32) + int(low)


@njit(parallel=True, cache=True)
def _pair_sum_halves(degree):
    # Unsigned throughout: numba makes a float of an unsigned and a signed int.
    one, shift, mask = np.uint64(1), np.uint64(32), np.uint64(0xFFFFFFFF)
    high = np.uint64(0)
    low = np.uint64(0)
    for v in prange(degree.size):
        d = np.uint64(max(degree[v], 1))
        pairs = d * (d - one)
        high += pairs >> shift
        low += pairs & mask
    return high, low


def csr_of_sorted_keys(keys, n, dtype, arcs):
    """The CSR of sorted arc keys, of which the first ``arcs`` are arcs and the
    rest :data:`SENTINEL`.

    Parameters
    ----------
    keys : int64 array
        Sorted :func:`packed_keys` of ``(source, target)``.
    n : int
    dtype : dtype
        Of the returned ids.
    arcs : int or int-like
        Read with ``int()``; on the GPU it may still be computing.

    Returns
    -------
    indptr : int64 array, length n + 1
    indices, rows : arrays of ``dtype``
    """
    rows, indices = unpack_keys(keys[: int(arcs)], n, dtype)
    # csr.row_pointers, in NumPy: the CSR step stands above the seam, not below it.
    indptr = np.searchsorted(rows, np.arange(n + 1, dtype=rows.dtype)).astype(np.int64, copy=False)
    return indptr, indices, rows


def csr_of_keys(keys, n, dtype, arcs, values=None):
    """:func:`csr_of_sorted_keys` of arc keys in any order, and the values (one per
    key, or None) in the arcs' CSR order; with values, each key that is not
    :data:`SENTINEL` is there once."""
    keys, values = sorted_keys(keys, values)
    return (*csr_of_sorted_keys(keys, n, dtype, arcs), values)


def rows_of(indptr, dtype, out=None):
    """The row of every position of a CSR's row pointers ``indptr`` (the arcs'
    sources), in ``dtype``; written into ``out`` when given."""
    return host_rows.rows_of(indptr, dtype, out)


def ascending_order(keys):
    """The stable ascending order of non-negative integer keys (an int64
    permutation, ties by position), by a counting sort (:func:`.host_rows.counting_order`):
    NumPy's stable argsort of 32-bit keys is a merge sort, 1.7 ms for
    p2p-Gnutella31's 62,586 degrees."""
    return host_rows.counting_order(keys)


def sorted_keys(keys, values=None):
    """The keys sorted, and the values (one per key, or None) in the keys' new
    order; with values, each key that is not :data:`SENTINEL` is there once."""
    if values is None:
        return np.sort(keys), None
    order = np.argsort(keys)
    return keys[order], values[order]


def oriented_keys(how, simple, rank=None):
    """Keys of the arcs of a simple graph's edges relabelled by ``rank`` (old id
    -> new id; None keeps the ids) and directed by ``how``: ``"id"`` from the
    lower new id to the higher, ``"degree"`` from the lower degree to the higher,
    ties by new id.

    Returns
    -------
    keys : int64 array
        One :func:`packed_keys` per edge, or more with :data:`SENTINEL` for the
        rows that are not edges (on the GPU).
    arcs : int or int-like
        How many of ``keys`` are arcs (for :func:`csr_of_sorted_keys`).
    """
    lo, hi, degree = simple.lo, simple.hi, simple.degree
    if rank is not None:
        a, b = rank[lo], rank[hi]
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        relabelled = np.empty_like(degree)
        relabelled[rank] = degree
        degree = relabelled
    if how == "degree":
        forward = degree[lo] <= degree[hi]  # lo < hi already breaks ties by id
        lo, hi = np.where(forward, lo, hi), np.where(forward, hi, lo)
    return packed_keys(lo, hi, simple.n), int(lo.size)


class RowOrderGraph(SimpleGraph):
    """A :class:`~.dedup.SimpleGraph` whose edges come in row order: ``lo``
    ascending, and ``hi`` ascending within each ``lo`` (:func:`deduplicate`)."""


def oriented_csr(how, simple, rank, dtype):
    """The CSR (``indptr, indices, rows``, ids of ``dtype``) of the arcs of
    :func:`oriented_keys`: a counting sort of the arcs into their rows
    (:mod:`.host_rows`), the CSR :func:`csr_of_sorted_keys` makes of the sorted keys."""
    src, dst = host_rows.oriented_pairs(simple.lo, simple.hi, rank, simple.degree, how == "degree", dtype)
    # Edges in row order keep their ids' order in the arcs' rows: each vertex's arcs
    # to lower ids come from the rows before its own, ascending, then its own row's.
    ordered = rank is None and isinstance(simple, RowOrderGraph)
    return host_rows.grouped_rows(src, dst, simple.n, distinct=False, ordered=ordered, rows_dtype=dtype)


def deduplicate(src, dst, n, *, values=None, unique=False):
    """The :class:`~.dedup.SimpleGraph` of an edge list (duplicates and
    self-loops dropped, ``lo`` sorted unless ``unique``; see
    :func:`~.simplify.simple_graph`): without values, the rows themselves where
    they already are a simple graph's (:func:`.host_rows.in_row_order`), else a
    counting sort of the edges into rows (:mod:`.host_rows`); with values,
    :func:`~.dedup.deduplicated` with this module's primitives."""
    if values is not None or unique:
        return deduplicated(sys.modules[__name__], src, dst, n, values=values, unique=unique)
    dtype = index_dtype(n)
    degree = host_rows.in_row_order(src, dst, n)
    if degree is not None:  # already the simple graph's rows: copied as they are
        return RowOrderGraph(n, src.astype(dtype), dst.astype(dtype), degree)
    lo, hi = host_rows.distinct_pairs(src, dst, n, dtype)
    indptr, hi, lo = host_rows.grouped_rows(lo, hi, n, distinct=True, rows_dtype=dtype)
    degree = np.diff(indptr) + np.bincount(hi, minlength=n)
    return RowOrderGraph(n, lo, hi, degree)


def distinct_keys_graph(keys, n):
    """The :class:`~.dedup.SimpleGraph` of the edges of :func:`edge_keys` (any
    order, repeats and :data:`~.dedup.SENTINEL` allowed): each once, ``lo`` sorted,
    with the degrees they give."""
    keys, _ = unique_keys(keys, None)
    lo, hi = unpack_keys(keys, n, index_dtype(n))
    return SimpleGraph(n, lo, hi, endpoint_counts(lo, hi, n, a_sorted=True))


def keys_by_range(keys, splitters):
    """The int64 ``keys`` of each range cut by the ascending ``splitters`` (Python
    ints): range ``h`` holds those from ``splitters[h - 1]`` up to
    ``splitters[h]``, in their order; :data:`SENTINEL` keys are in none."""
    edges = [None, *splitters, None]
    ranges = []
    for h in range(len(splitters) + 1):
        mine = keys != SENTINEL
        if edges[h] is not None:
            mine &= keys >= edges[h]
        if edges[h + 1] is not None:
            mine &= keys < edges[h + 1]
        ranges.append(keys[mine])
    return ranges


def scatter_add(target, index, values):
    """``target[index] += values`` in place, repeated indices adding up."""
    np.add.at(target, index, values)


#: Fewer ids are ranged on one core: after 50 ms of rest, the 2-core VM of
#: docs/benchmarks.md took 11 ms to wake numba's threads for two arrays of any
#: size up to 4M, one core 0.06 ms for 31K ids, 0.9 for 1M.
SERIAL_RANGE_IDS = 1 << 21


def id_range(src, dst):
    """The smallest and the largest id of two non-empty id arrays, as Python ints:
    one pass over each (on every core for long arrays), where NumPy's min and max
    would make four passes on one core."""
    ranges = [_range_of(ids) for ids in (src, dst)]
    return min(low for low, _ in ranges), max(high for _, high in ranges)


def _range_of(ids):
    if ids.size < SERIAL_RANGE_IDS:
        low, high = _serial_range(ids)
        return int(low), int(high)
    chunks = min(ids.size, 256)
    # Allocated here: a dtype inside the parallel function is unpickled at each
    # call, where a Ctrl-C turns into numba's SystemError, not KeyboardInterrupt.
    lows, highs = np.empty(chunks, dtype=ids.dtype), np.empty(chunks, dtype=ids.dtype)
    _chunk_ranges(ids, lows, highs)
    return int(lows.min()), int(highs.max())


@njit(cache=True)
def _serial_range(ids):
    low = high = ids[0]
    for t in range(1, ids.size):
        x = ids[t]
        low = min(low, x)
        high = max(high, x)
    return low, high


@njit(parallel=True, cache=True)
def _chunk_ranges(ids, lows, highs):
    """Minima and maxima of ``ids`` in ``lows.size`` non-empty chunks."""
    chunks = lows.size
    for c in prange(chunks):
        lows[c], highs[c] = _serial_range(ids[ids.size * c // chunks : ids.size * (c + 1) // chunks])
