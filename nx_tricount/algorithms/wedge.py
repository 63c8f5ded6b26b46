"""WeTriC's wedge-parallel counting (wetric-wedge-parallel.md §3, §5): every
oriented wedge ``(v; w, u)`` gets a 64-bit index; a task takes ``spread``
consecutive wedges, finds its base vertex by binary search over the wedge prefix
sums, maps its index to the pair ``(w, u)`` by the triangular root, and binary
searches ``N+(w)`` for ``u`` (both directions unless arcs go to higher ids). On
the graph of a task of a 2D partition only the wedges of a source's middle and
sink are numbered (``Prepared.task_blocks``): no other wedge can close there.
``count_gpu`` runs it in ``kernels/wedge.cu`` with the paper's cooperation through
shared memory and bitmap rows. docs/algorithms.md has the notes.
"""

import math

import numba
import numpy as np
from numba import njit, prange

from ..metadata.catalog import BITMAP_ROWS as CATALOG_BITMAP_ROWS
from ..metadata.catalog import MAX_HUB_WORDS
from .accumulate import accumulate_per_thread, add_term
from .counts import PER_NODE
from .wedge_credit import arc_array, credit_counts, credit_terms
from .wedge_hub import HUB_MIN_SHARE, HUB_NODE_WORDS, HUB_WORDS, count_hub, gpu_hub_prefix
from .wedge_layout import (
    BITMAP_MIN_OUT_DEGREE,
    count_bitmap,
    count_ranks,
    cross_sides,
    cross_splits,
    gpu_layout,
    gpu_share_wedges,
    gpu_vertex_costs,
    kept_layout,
    plain_kernel_types,
    rectangle_bytes,
    share_arcs,
    share_prefix,
    triangle_words,
    wedge_prefix,
)

__all__ = [
    "count_cpu",
    "count_gpu",
    "gpu_base_costs",
    "wedge_pair",
    "first_wedge",
    "next_wedge",
    "find_position",
    "fitted_spread",
    "PLAIN_SPREAD",
    "SPREAD",
    "THREADS",
    "BITMAP_ROWS",
    "BITMAP_MIN_OUT_DEGREE",
    "HUB_WORDS",
    "HUB_NODE_WORDS",
    "SMALL_VALUES",
]

#: Wedges per GPU thread (§5.2), the default of :func:`count_gpu`. Odd, so that the
#: lanes' slots, a spread apart, fall on different shared-memory banks (measured:
#: docs/algorithms.md, 'wedge: spread, fill and threads').
SPREAD = 11

#: Wedges per GPU thread where the mode's hub block finds too few hubs to run: every
#: wedge is then searched or looked up in the bitmap, and a smaller spread pays
#: (measured: docs/algorithms.md, 'wedge: spread, fill and threads').
PLAIN_SPREAD = 9

#: Bitmap rows (§5.4), the default of :func:`count_gpu`: the closing arcs of wedges
#: whose middle vertex is among the last ``BITMAP_ROWS`` ids are looked up in an
#: upper-triangular ``x * x`` bit matrix (256 MiB at 65536) instead of by binary
#: search. Used with ascending-degree ids only (ordering "degree", orientation "id"),
#: and only as many rows as vertices of out-degree at least
#: :data:`BITMAP_MIN_OUT_DEGREE` (measured: docs/algorithms.md, 'wedge: bitmap rows').
BITMAP_ROWS = CATALOG_BITMAP_ROWS

#: Rounds of :data:`SPREAD` wedges each resident thread should get; graphs with
#: fewer wedges get a smaller spread (measured: docs/algorithms.md, 'wedge: spread,
#: fill and threads').
FILL = 4

#: Threads per block of the counting kernel: a round of cooperation covers
#: ``THREADS * SPREAD`` wedges between two barriers (measured: docs/algorithms.md,
#: 'wedge: spread, fill and threads').
THREADS = 128

#: The key of ``Prepared.derived`` that says its arc values are all 1, 2 or 3 (a
#: directed graph's pair counts): a per-node count then adds each triangle's product
#: to the plain count's arc counters, its closing values read from a bitmap of two
#: planes (docs/algorithms.md, "wedge: small arc values").
SMALL_VALUES = "small_values"

#: Wedges per CPU task: enough to amortise the base-vertex search, small enough
#: to balance 2..64 threads on graphs with a few hundred thousand wedges.
CPU_SPREAD = 4096


@njit(cache=True, inline="always")
def wedge_pair(k, d):
    """Map wedge ``k`` of a vertex with out-degree ``d`` to positions ``(i, j)``, i < j.

    Wedges are numbered row by row, ``(0,1), (0,2), …, (0,d-1), (1,2), …``, so
    consecutive wedges share ``w = N+(v)[i]`` and search the same list. Counting
    from the end, ``r = C(d,2) - 1 - k`` is a column-major triangular index
    ``r = b(b-1)/2 + a`` with ``b = d-1-i`` and ``a = d-1-j``, and ``b`` is the
    largest integer with ``b(b-1)/2 <= r`` (the triangular root).
    """
    r = d * (d - 1) // 2 - 1 - k
    b = np.int64((1.0 + math.sqrt(1.0 + 8.0 * r)) / 2.0)
    while b * (b - 1) // 2 > r:  # correct float rounding, at most a step or two
        b -= 1
    while (b + 1) * b // 2 <= r:
        b += 1
    a = r - b * (b - 1) // 2
    return d - 1 - b, d - 1 - a


@njit(cache=True, inline="always")
def find_position(indices, lo, hi, x):
    """Position of ``x`` in the sorted ``indices[lo:hi]``, or -1."""
    while lo < hi:
        mid = (lo + hi) >> 1
        y = indices[mid]
        if y < x:
            lo = mid + 1
        elif y > x:
            hi = mid
        else:
            return mid
    return -1


@njit(cache=True, inline="always")
def first_wedge(indptr, prefix, splits, k):
    """Base vertex, its out-degree and the pair ``(i, j)`` of global wedge ``k``:
    a binary search over the prefix sums (§3 step a), then the triangular mapping
    (or, with ``splits``, the rectangular one of a task graph's cross wedges)."""
    v = np.searchsorted(prefix, k, side="right") - 1
    d = indptr[v + 1] - indptr[v]
    if splits.size:
        split, r = splits[v], k - prefix[v]
        return v, d, r // (d - split), split + r % (d - split)
    i, j = wedge_pair(k - prefix[v], d)
    return v, d, i, j


@njit(cache=True, inline="always")
def next_wedge(indptr, prefix, splits, v, d, i, j):
    """The wedge after ``(v; i, j)`` without searching (§5.2): the next ``j``, else
    the next row ``i``, else the next vertex that has a wedge."""
    j += 1
    if j < d:
        return v, d, i, j
    i += 1
    last_row = splits[v] if splits.size else d - 1
    if i == last_row:
        v += 1
        while prefix[v + 1] == prefix[v]:
            v += 1
        d = indptr[v + 1] - indptr[v]
        i = 0
    j = splits[v] if splits.size else i + 1
    return v, d, i, j


@njit(parallel=True, cache=True)
def _total(indptr, indices, prefix, splits, spread, both_directions):
    wedges = prefix[-1]
    tasks = (wedges + spread - 1) // spread
    total = 0
    for t in prange(tasks):
        k = t * spread
        k_end = min(k + spread, wedges)
        v, d, i, j = first_wedge(indptr, prefix, splits, k)
        found = 0
        while True:
            base = indptr[v]
            w = indices[base + i]
            u = indices[base + j]
            if find_position(indices, indptr[w], indptr[w + 1], u) >= 0:
                found += 1
            # Acyclic orientations have at most one of the two closing arcs; the
            # arcs of a directed graph may have both, and both count.
            if both_directions and find_position(indices, indptr[u], indptr[u + 1], w) >= 0:
                found += 1
            k += 1
            if k == k_end:
                break
            v, d, i, j = next_wedge(indptr, prefix, splits, v, d, i, j)
        total += found
    return total


@njit(parallel=True, cache=True)
def _accumulate(indptr, indices, prefix, splits, spread, both_directions, values, weighted, mode, out):
    """Per-vertex or per-arc counts (see ``accumulate.accumulate_per_thread``)."""
    wedges = prefix[-1]
    tasks = (wedges + spread - 1) // spread
    for t in prange(tasks):
        row = out[numba.get_thread_id()]
        k = t * spread
        k_end = min(k + spread, wedges)
        v, d, i, j = first_wedge(indptr, prefix, splits, k)
        while True:
            base = indptr[v]
            w = indices[base + i]
            u = indices[base + j]
            closing = find_position(indices, indptr[w], indptr[w + 1], u)
            if closing < 0 and both_directions:
                closing = find_position(indices, indptr[u], indptr[u + 1], w)
            if closing >= 0:
                if weighted:
                    x = values[base + i] * values[base + j] * values[closing]
                    add_term(row, v, x)
                    add_term(row, w, x)
                    add_term(row, u, x)
                elif mode == PER_NODE:
                    row[v] += 1
                    row[w] += 1
                    row[u] += 1
                else:
                    row[base + i] += 1
                    row[base + j] += 1
                    row[closing] += 1
            k += 1
            if k == k_end:
                break
            v, d, i, j = next_wedge(indptr, prefix, splits, v, d, i, j)


def _prefix(prepared):
    """``(prefix, splits)``: the wedge prefix sums and, on a task graph, each vertex's
    split (else empty), derived once per Prepared."""
    derived = prepared.derived
    if "wedge_prefix" not in derived:
        splits = None if prepared.task_blocks is None else cross_splits(prepared)
        derived["wedge_prefix"] = wedge_prefix(prepared.indptr, splits)
        derived["wedge_splits"] = np.empty(0, dtype=np.int64) if splits is None else splits
    return derived["wedge_prefix"], derived["wedge_splits"]


def fitted_spread(kernel, wedges, threads, slot_bytes, most=SPREAD):
    """``most`` wedges per thread, or fewer where that would not give every thread
    the GPU holds at once (its multiprocessors x resident blocks of ``kernel``)
    :data:`FILL` rounds of work; ``slot_bytes``: shared memory a wedge."""
    from ..gpu import runtime

    resident = runtime.resident_blocks(kernel, most * slot_bytes, threads) * threads
    return int(min(most, max(1, -(-wedges // (FILL * resident)))))


def count_cpu(prepared, mode, vertices=None):
    """Count on the CPU; returns an int (total) or an array in CSR ids.

    On the arcs of a directed graph (orientation ``"arcs"``) the total is the
    number of transitive triples ``v->w, v->u`` closed by ``w->u`` or ``u->w``,
    each closing arc counted. ``vertices``, a range ``(first, end)`` of base
    vertices, counts only their wedges (:mod:`.shares`).
    """
    p = prepared
    prefix, splits = _prefix(p)
    if vertices is not None:
        prefix = share_prefix(prefix, vertices)
    both = not p.ascending
    if mode == "total":
        return int(_total(p.indptr, p.indices, prefix, splits, CPU_SPREAD, both))
    arrays = (p.indptr, p.indices, prefix, splits, CPU_SPREAD, both)
    return accumulate_per_thread(_accumulate, arrays, p, mode)


def gpu_base_costs(prepared, mode, *, bitmap_rows=None, hub_words=None, **_):
    """Each base vertex's cost in :func:`count_gpu` of ``mode`` with these
    parameters (:func:`.wedge_layout.gpu_vertex_costs`), for cutting its shares;
    None where the count reads arc values, counts a task graph or per edge."""
    p = prepared
    if p.values is not None or p.task_blocks is not None or mode == "per_edge":
        return None
    hub_words = (HUB_NODE_WORDS if mode == "per_node" else HUB_WORDS) if hub_words is None else int(hub_words)
    largest = BITMAP_ROWS if bitmap_rows is None else int(bitmap_rows)
    if hub_words < 0 or not 0 <= largest <= 2**17:  # count_gpu says what is wrong
        return None
    return gpu_vertex_costs(p, mode, largest, hub_words, plain_kernel_types(p))


def count_gpu(prepared, mode, *, spread=None, bitmap_rows=None, hub_words=None, threads=None, vertices=None):
    """Count on the GPU (``kernels/wedge.cu``): one thread per ``spread`` wedges.

    Same contract as :func:`count_cpu`, with CuPy arrays in and out.

    Parameters
    ----------
    prepared : Prepared
        Oriented CSR on the GPU.
    mode : {"total", "per_node", "per_edge"}
    spread : int, optional
        Wedges per thread (default :data:`SPREAD`, :data:`PLAIN_SPREAD` where the
        mode's hub block does not run, or fewer when the graph has fewer than that
        many wedges for each thread the GPU runs at once).
    bitmap_rows : int, optional
        Most rows of the bitmap of the last vertices' out-neighbourhoods, up to
        2**17 (default :data:`BITMAP_ROWS`; 0 disables it). Used only with ordering "degree" and
        orientation "id", where the densest vertices have the highest ids; on a
        task graph of a 2D partition, a rectangle of up to ``bitmap_rows // 2``
        middles by as many sinks.
    hub_words : int, optional
        A total or per-node count (but of small arc values) takes the bitmap's
        vertices whose out-neighbours' rows hold fewer than ``hub_words`` words per
        wedge off the wedges and counts them by ANDing bitmap rows (default
        :data:`HUB_WORDS`, per node :data:`HUB_NODE_WORDS`; 0 disables it).
    threads : int, optional
        Threads per block, a multiple of 32 up to 256 (default :data:`THREADS`).
    vertices : (int, int), optional
        Count only the wedges of these base vertices, a share ``(first, end)`` of
        CSR ids (:mod:`.shares`); all when None. The hub block takes the share's
        hubs alone: outside it both prefix sums are flat.
    """
    from ..gpu import runtime
    from . import gpu_count

    p = prepared
    chosen_spread = spread
    spread = SPREAD if spread is None else int(spread)
    threads = THREADS if threads is None else int(threads)
    if threads % 32 or not 32 <= threads <= 256:  # 256: the kernels' launch bounds
        raise ValueError(f"threads must be a multiple of 32 up to 256, got {threads}")
    eid = np.uint32 if p.m < 2**32 else np.int64
    # Small values count as the plain per node does; other sums go through pairs of terms.
    small_values = mode == "per_node" and p.derived.get(SMALL_VALUES, False) and 27 * p.n < 2**32
    small_values = small_values and p.task_blocks is None
    terms = mode == "per_node" and p.values is not None and not small_values
    # Each thread keeps two arc positions per wedge in shared memory (weighted, a third word for
    # arc v -> w once the term takes the two): 48 KiB a block, less the total's 256 bytes.
    shared_limit = 48 * 1024 - 256
    slot_bytes = (3 if terms else 2) * threads * np.dtype(eid).itemsize
    largest = shared_limit // slot_bytes
    if not 1 <= spread <= largest:
        raise ValueError(f"spread must be between 1 and {largest}, got {spread}")
    largest_bitmap = BITMAP_ROWS if bitmap_rows is None else int(bitmap_rows)
    if not 0 <= largest_bitmap <= 2**17:  # the kernel indexes the bitmap in 32 bits
        raise ValueError(f"bitmap_rows must be between 0 and {2**17}, got {largest_bitmap}")
    # Per node each arc counts its triangles in 32 bits (wedge_arc_credit), as do small values.
    arc_credit = mode == "per_node" and (p.values is None or small_values)
    if hub_words is None:
        hub_words = HUB_NODE_WORDS if mode == "per_node" else HUB_WORDS
    hub_words = int(hub_words)
    if not 0 <= hub_words <= MAX_HUB_WORDS:
        raise ValueError(f"hub_words must be between 0 and {MAX_HUB_WORDS}, got {hub_words}")
    arc_bytes = 4 * p.m if arc_credit else (16 * p.m if terms else 0)
    prefix_bytes = 0 if "wedge_prefix" in p.derived else 40 * (p.n + 1)
    hub_kind = "per_node" if arc_credit else "weighted" if terms else "total"
    hub = terms or (mode == "total" or arc_credit) and p.values is None
    hub = hub and hub_words > 0 and p.task_blocks is None
    hub_mode = hub  # whether the mode has a hub block; below, whether it runs
    prefix_bytes += 16 * (p.n + 1) if hub else 0  # the hub's pairs and prefix sums
    # A hit's closing arc, per edge and weighted, is read off the words' ranks (kernels/wedge.cu).
    ranked = (terms or mode == "per_edge") and p.task_blocks is None
    if p.task_blocks is None:
        planes = 2 if small_values or ranked else 1  # two planes, or the words' ranks beside them
        # The bitmap's own rows where its layout was read (by the choice, or a count before):
        # a block the pool holds then passes the check without asking the driver (30 us).
        known = kept_layout(p, largest_bitmap)
        rows = min(largest_bitmap, p.n) if known is None else known.rows
        largest_bytes = 4 * triangle_words(rows) * planes
    else:
        largest_bytes = rectangle_bytes(*cross_sides(p, largest_bitmap))
    runtime.check_memory(
        gpu_count.output_bytes(p, mode) + arc_bytes + prefix_bytes + largest_bytes,
        f"the {mode} output, per-arc counts, wedge prefix sums and the bitmap",
    )
    out, weighted = gpu_count.output(p, mode)
    weight = p.values.dtype if weighted else np.float64
    vid = p.indices.dtype
    kernel_types = dict(vid=vid, weight=weight, eid=eid)
    prefix, wedges, layout = gpu_layout(p, largest_bitmap, kernel_types)
    # The bitmap first: the GPU builds it while the host sets the rest of the count up.
    bitmap = count_bitmap(p, layout, kernel_types, vertices, planes=small_values)
    share_start = 0
    if vertices is not None:
        share_start, wedges = gpu_share_wedges(prefix, vertices)
    if hub and layout.rows:
        complete = vertices is not None  # a share reads them beside
        hub_prefix, hub_wedges = gpu_hub_prefix(p, layout, hub_words, hub_kind, kernel_types, complete)
        hub_start = 0
        if vertices is not None:
            hub_start, hub_wedges = gpu_share_wedges(hub_prefix, vertices)
        # Taking few wedges off, the hub block costs more than it saves: its launch
        # spans every bitmap row (docs/algorithms.md, 'wedge: the hub block').
        hub = hub_wedges <= (1 - HUB_MIN_SHARE) * wedges
        if hub:
            share_start, wedges = hub_start, hub_wedges
    else:
        hub = False
    # A task graph's cross wedges only (kernels/wedge.cu): the others cannot close.
    name = "wedge_cross" if p.task_blocks is not None else "wedge"
    entry = "wedge_per_node_values" if small_values else runtime.entry(name, mode, weighted)
    count = runtime.function("wedge.cu", entry, **kernel_types)
    if chosen_spread is None:
        most = PLAIN_SPREAD if hub_mode and not hub else SPREAD
        spread = fitted_spread(count, wedges, threads, slot_bytes, most)
    shared = spread * slot_bytes
    # A share's wedges start at its own arcs alone, which its credit reads.
    by_arcs = arc_credit or terms
    first_arc, end_arc = (0, p.m) if vertices is None or not by_arcs else share_arcs(p, vertices)
    if by_arcs:
        arc_hits = arc_array(p, first_arc, end_arc, *((2, weight) if terms else (1, np.uint32)))
    else:  # unread: the bitmap stands in (one allocation and memset fewer)
        arc_hits = bitmap
    ranks = count_ranks(p, layout, bitmap, kernel_types, vertices) if ranked and layout.rows else None
    if hub:
        count_hub(
            p, layout, prefix, hub_prefix, bitmap, hub_kind, kernel_types, arc_hits, out, vertices, ranks
        )
        prefix = hub_prefix
    if wedges:
        runtime.launch(
            count,
            -(-wedges // spread),
            (
                p.indptr,
                p.indices,
                p.rows,
                prefix,
                p.derived.get("wedge_splits", prefix),
                vid.type(p.n),
                np.int64(share_start),
                np.int64(wedges),
                np.int32(spread),
                np.int32(not p.ascending),
                bitmap,
                vid.type(layout.first_row),
                vid.type(layout.first_col),
                np.uint32(layout.words),
                gpu_count.kernel_values(p, weighted),
                ranks,
                arc_hits,
                out,
            ),
            threads=threads,
            shared_mem=shared,
        )
    if terms:
        credit_terms(p, arc_hits, first_arc, end_arc, out, kernel_types)
    elif arc_credit:
        # Small values: the sums into the pairs' first row, their compensations 0.
        credit_counts(p, arc_hits, first_arc, end_arc, out[: p.n] if small_values else out, kernel_types)
        if small_values:
            return gpu_count.finish(out, mode).reshape(2, p.n)
    return gpu_count.finish(out, mode, weighted)
