"""One oriented CSR prepared on one device in passes, within a memory limit: for a
graph whose whole preparation does not fit the count's device but whose
prepared CSR and count do (``docs/algorithms.md``, "Prepared in passes").

The steps of :mod:`.together`, one range at a time on one device; what waits
between passes stays on the device where it fits beside them, else it waits in
host memory:

1. **Edge keys by range.** Chunks of the edge rows (from host memory, or the GPU
   that holds them) become edge keys, each going to its range of keys (splitters
   drawn from a sample of the rows).
2. **Distinct edges.** Each range of keys is sorted and keeps its distinct
   edges, whose degrees it adds up.
3. **Arcs by rows.** With the degrees complete, each range's edges are
   relabelled and oriented, counting each vertex's out-degree; then each arc
   goes to its range of rows, cut so that the ranges hold about equal arcs.
4. **The CSR.** Each range of rows is sorted and written into the CSR at its
   place; the arcs' sources last, once the rest is freed.

The CSR is :func:`~.prepare.prepare_simple`'s of the same graph, array for
array. The orientations and orderings prepared so are those that need only the
degrees (:data:`~.streamed.STREAMED`).
"""

import contextlib
import math

import numpy as np

from ..gpu.device import array_module, module_of, to_host, to_module
from . import host_ops
from .dedup import SimpleGraph, index_dtype
from .ops import ops_for
from .ordering import relabel, vertex_order
from .prepare import Prepared, ascending_arcs
from .streamed import STREAMED
from .together import range_splitters

__all__ = ["PASS_BYTES_PER_ROW", "prepare_in_passes"]

#: Device bytes a pass takes per key of its range (an edge row, or an arc): the
#: keys, their join from pieces or their ranges, the sort's buffer, and the copy
#: of what it keeps.
PASS_BYTES_PER_ROW = 32
#: What waits between the passes stays on the device when it leaves them at
#: least 1 / PASS_SHARE of the room the limit leaves beside the vertices.
PASS_SHARE = 4
#: Rows of the sample the ranges of keys are cut from, per pass.
SAMPLES_PER_PASS = 4096
#: Device bytes per vertex beside the passes: the degrees, the vertex map and its
#: inverse, the out-degrees and the row pointers, the whole CSR's and a range's.
VERTEX_BYTES = 40


def prepare_in_passes(src, dst, n, *, orientation, ordering, memory_limit=None, passes=None, device="gpu"):
    """The oriented CSR of an undirected edge list, prepared in passes.

    Parameters
    ----------
    src, dst : integer arrays
        Edges in either or both directions, duplicates and self-loops allowed:
        NumPy arrays, or CuPy arrays on the current GPU.
    n : int
    orientation : {"id", "degree"}
    ordering : {"none", "degree"}
    memory_limit : int, optional
        Bytes the preparation may take on ``device``: with the sizes, it sets
        whether what waits between the passes (8 bytes an edge row, then an arc)
        stays there, and the passes, each taking :data:`PASS_BYTES_PER_ROW` per
        key of its range. None: everything stays, and one pass each.
    passes : int, optional
        Ranges of keys, and of rows, whatever the limit says.
    device : {"gpu", "cpu"}
        Where the passes run (the CPU runs the same steps, the tests' reference).

    Returns
    -------
    Prepared
        On ``device``; the same arrays as
        :func:`~.prepare.prepare_simple` makes of the same graph.
    """
    if (orientation, ordering) not in STREAMED:
        raise ValueError(
            f"orientation {orientation!r} with ordering {ordering!r} cannot be prepared in "
            f"passes; accepted: {sorted(STREAMED)}"
        )
    xp = array_module(device)
    dtype = index_dtype(n)
    fixed = VERTEX_BYTES * n
    scratch = _scratch if memory_limit is not None and xp is not np else _no_scratch
    stay, key_passes = _schedule(int(src.size), fixed, memory_limit, passes)
    degree, edges = _distinct_edges(src, dst, n, key_passes, xp, stay, scratch)

    perm = vertex_order(ordering, degree)
    perm = None if perm is None else perm.astype(dtype)
    rank = None if perm is None else relabel(perm, n)
    m = sum(int(lo.size) for lo, _ in edges)
    stay, row_passes = _schedule(m, fixed, memory_limit, passes)
    arcs, out_degree = [], xp.zeros(n, dtype=np.int64)
    with scratch() as keep:
        for r, pair in enumerate(edges):
            lo, hi = (to_module(a, xp) for a in pair)
            edges[r] = pair = None
            keys, _ = ops_for(lo).oriented_keys(orientation, SimpleGraph(n, lo, hi, degree), rank)
            del lo, hi
            sources, _ = ops_for(keys).unpack_keys(keys, n, dtype)
            out_degree += ops_for(sources).vertex_counts(sources, n)
            del sources
            arcs.append(_waiting(keys, stay, keep))
            del keys
    del rank
    first_rows = _row_cuts(out_degree, row_passes)
    del out_degree
    by_rows = _arcs_by_rows(arcs, first_rows, n, xp, stay, scratch)
    indptr, indices = _csr_rows(by_rows, first_rows, n, m, xp, stay, scratch)
    return Prepared(
        n,
        indptr,
        indices,
        ops_for(indptr).rows_of(indptr, dtype),
        None,
        perm,
        degree if perm is None else degree[perm],
        orientation,
        ordering,
        ascending_arcs(orientation, ordering),
    )


def _schedule(keys, fixed, memory_limit, passes):
    """``(stay, passes)`` for ``keys`` keys of 8 bytes waiting between passes: they
    stay on the device when they leave the passes at least a
    :data:`PASS_SHARE`-th of the room the limit leaves beside ``fixed`` bytes; the
    passes (unless given) as many as it takes for each to fit the room left."""
    if memory_limit is None:
        return True, passes or 1
    room = memory_limit - fixed
    if room < PASS_BYTES_PER_ROW:
        raise ValueError(
            f"memory_limit of {memory_limit:,} bytes leaves no room for passes beside the "
            f"{fixed:,} bytes the vertices take; raise it"
        )
    stay = room - 8 * keys >= room // PASS_SHARE
    if stay:
        room -= 8 * keys
    # At least one key a pass.
    return stay, passes or max(1, min(keys, math.ceil(PASS_BYTES_PER_ROW * keys / room)))


def _distinct_edges(src, dst, n, passes, xp, stay, scratch):
    """``(degree, edges)``: the degrees of the simple graph of the rows (on the
    device), and its edges ``(lo, hi)`` in ``passes`` ranges of keys (on the
    device where they ``stay``, else in host memory). A chunk of rows per pass
    becomes edge keys, each going to its range; then each range keeps its
    distinct keys and adds their degrees."""
    rows = int(src.size)
    stride = max(1, rows // (SAMPLES_PER_PASS * passes))
    sample = host_ops.edge_keys(to_host(src[::stride]), to_host(dst[::stride]), n)
    splitters = range_splitters([sample], passes)
    ranges = [[] for _ in range(passes)]
    chunk = max(1, -(-rows // passes))
    with scratch() as keep:
        for start in range(0, rows, chunk):
            here_src = to_module(src[start : start + chunk], xp)
            here_dst = to_module(dst[start : start + chunk], xp)
            keys = ops_for(here_src).edge_keys(here_src, here_dst, n)
            del here_src, here_dst
            for r, piece in enumerate(ops_for(keys).keys_by_range(keys, splitters)):
                ranges[r].append(_waiting(piece, stay, keep))
            del keys, piece
    degree = xp.zeros(n, dtype=np.int64)
    edges = []
    with scratch() as keep:
        for pieces in ranges:
            keys = _joined(pieces, xp, np.int64)
            pieces.clear()
            graph = ops_for(keys).distinct_keys_graph(keys, n)
            degree += graph.degree
            edges.append(_waiting((graph.lo, graph.hi), stay, keep))
            del keys, graph
    return degree, edges


def _row_cuts(out_degree, passes):
    """``passes + 1`` ascending vertex ids from 0 to ``n`` (int64, host memory)
    cutting the rows into ranges of about equal arcs."""
    xp = module_of(out_degree)
    total = xp.cumsum(out_degree)
    whole = int(total[-1]) if out_degree.size else 0
    targets = xp.asarray([whole * s // passes for s in range(1, passes)], dtype=np.int64)
    inner = to_host(xp.searchsorted(total, targets, side="right")).astype(np.int64)
    return np.concatenate([[0], inner, [out_degree.size]]).astype(np.int64)


def _arcs_by_rows(arcs, first_rows, n, xp, stay, scratch):
    """The arc keys of each range of rows cut at ``first_rows``, as pieces (one
    from each range of ``arcs``, freed as it goes), where they ``stay``."""
    splitters = host_ops.packed_keys(first_rows[1:-1], np.zeros(first_rows.size - 2, np.int64), n).tolist()
    by_rows = [[] for _ in range(first_rows.size - 1)]
    with scratch() as keep:
        for r in range(len(arcs)):
            keys = to_module(arcs[r], xp)
            arcs[r] = None
            for s, piece in enumerate(ops_for(keys).keys_by_range(keys, splitters)):
                by_rows[s].append(_waiting(piece, stay, keep))
            del keys, piece
    return by_rows


def _csr_rows(by_rows, first_rows, n, m, xp, stay, scratch):
    """``(indptr, indices)`` of the CSR: each range of rows sorted, its row
    pointers written in place and its targets kept (where they ``stay``) until
    the last range is done."""
    dtype = index_dtype(n)
    indptr = xp.empty(n + 1, dtype=np.int64)
    indptr[n] = m
    targets, start = [], 0
    with scratch() as keep:
        for s, pieces in enumerate(by_rows):
            keys = _joined(pieces, xp, np.int64)
            pieces.clear()
            keys.sort()
            part_indptr, part_indices, _ = ops_for(keys).csr_of_sorted_keys(keys, n, dtype, keys.size)
            del keys
            first, last = int(first_rows[s]), int(first_rows[s + 1])
            indptr[first:last] = part_indptr[first:last] + start
            start += int(part_indices.size)
            targets.append(_waiting(part_indices, stay, keep))
            del part_indptr, part_indices
    return indptr, _joined(targets, xp, dtype)


@contextlib.contextmanager
def _scratch():
    """The passes of one step on the GPU under a limit: their arrays come from a
    memory pool of their own, given back whole when the step ends, and the
    function it yields copies what a pass keeps out of it, into a block of its
    own (CuPy's pool gives back its unused blocks first). In CuPy's one pool,
    the blocks a pass dropped were split among the arrays later passes kept, and
    the rest of each block held: 1.2 GB beside R-MAT 24's 3 GB in use
    (docs/algorithms.md, "Prepared in passes")."""
    import cupy

    pool, kept = cupy.cuda.MemoryPool(), cupy.get_default_memory_pool()
    outer = cupy.cuda.get_allocator()

    def keep(array):
        kept.free_all_blocks()
        with cupy.cuda.using_allocator(outer):
            return array.copy()

    kept.free_all_blocks()
    try:
        with cupy.cuda.using_allocator(pool.malloc):
            yield keep
    finally:
        pool.free_all_blocks()
        kept.free_all_blocks()


@contextlib.contextmanager
def _no_scratch():
    """A pass in the memory it finds: what it keeps stays where it is."""
    yield lambda array: array


def _waiting(arrays, stay, keep):
    """``arrays`` (one, or a tuple) kept on the device (by ``keep``) when they
    ``stay``, else moved to host memory."""
    move = keep if stay else to_host
    if isinstance(arrays, tuple):
        return tuple(move(a) for a in arrays)
    return move(arrays)


def _joined(pieces, xp, dtype):
    """The pieces one after another, on ``xp``'s device."""
    if not pieces:
        return xp.zeros(0, dtype=dtype)
    if len(pieces) == 1:
        return to_module(pieces[0], xp)
    return xp.concatenate([to_module(piece, xp) for piece in pieces])
