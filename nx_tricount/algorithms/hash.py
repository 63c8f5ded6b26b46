"""Vertex-centric hashing (trust-hashing.md §3): one task per vertex ``u``
puts its out-neighbours ``N+(u)`` in a table once, then looks up every 2-hop
neighbour ``w ∈ N+(v)`` of every ``v ∈ N+(u)``; each hit closes the triangle
``(u, v, w)``. The GPU kernel (``kernels/hash.cu``) has TRUST's bucketed tables;
the CPU engine a direct-address table of ``n`` slots per thread, where slot ``w``
holds the CSR position of the arc ``u -> w`` (a slot written for an earlier vertex
lies outside ``u``'s CSR row, so the table is never cleared). docs/algorithms.md
has the notes.
"""

import numba
import numpy as np
from numba import njit, prange

from ..preprocess.host_index import at
from .accumulate import accumulate_per_thread, add_term
from .counts import PER_NODE, TOTAL

__all__ = ["count_cpu", "count_gpu"]

#: Vertices per scheduling chunk: small enough to spread the few heavy
#: vertices of a skewed graph over the threads.
CHUNK = 64

#: Per node, graphs of at most this many vertices (a thread's row of int64
#: counters and its int32 slots, 12 bytes a vertex, in about half of a core's 1 MiB
#: L2) add every lookup's 0 or 1 to its closing vertex, with no branch and no buffer;
#: larger rows miss the cache on those adds. The count alone on two threads, 2-core
#: machine, buffer against no buffer: email-Enron (36,692 vertices) 5.14 -> 4.12 ms,
#: cit-HepTh (27,769) 10.6 -> 8.4; but deezer_HU (47,538) 4.21 -> 4.13, R-MAT 16 (46,707)
#: 85.2 -> 89.8 and p2p-Gnutella31 (62,586) 1.91 -> 2.11.
STORE_ROW_VERTICES = 40_960

#: Out-degree above which a vertex is the task of a whole block rather than of one
#: warp, the default of :func:`count_gpu`. TRUST §4.3 found 100 best; here 32 is as
#: fast or faster in every mode (measured: docs/algorithms.md, 'hash: warp buckets,
#: heavy tasks and cached levels').
BLOCK_DEGREE = 32

#: :data:`BLOCK_DEGREE` of weighted sums: 16 is faster than 32 there, where it
#: slows the total and the per-edge count down (same section).
WEIGHTED_BLOCK_DEGREE = 16

#: Threads per block of the GPU kernel: eight warps, and the width of a block's tile
#: of out-neighbours in the virtual combination.
GPU_THREADS = 256

#: Levels of each bucket cached in shared memory in a block's and a warp's table
#: (TRUST §3.2 caches 6), and levels a bucket holds in all before it overflows into
#: the next one (TRUST sees at most 16 collisions after its reorderings) (measured:
#: docs/algorithms.md, 'hash: warp buckets, heavy tasks and cached levels').
CACHED_LEVELS = 6
WARP_CACHED_LEVELS = 4
MIN_LEVELS = 16

#: Buckets of a warp's table, the default of :func:`count_gpu`; a power of two.
#: TRUST uses 32, one per lane; 128 shortens the buckets of vertices of out-degree
#: up to 100 (measured: docs/algorithms.md, 'hash: warp buckets, heavy tasks and
#: cached levels').
WARP_BUCKETS = 128

#: Mean 2-hop entries per task (TRUST's collective degree over the tasks) from
#: which tasks count as heavy: graphs of heavy tasks run with one vertex a take and
#: the registers capped for 8 blocks a multiprocessor, graphs of light ones with
#: several vertices a take and 4 blocks (measured: docs/algorithms.md, 'hash: warp
#: buckets, heavy tasks and cached levels').
HEAVY_TASK = 1000

#: Shared memory a block's table may use (bytes): the rest of the multiprocessor's
#: shared memory keeps several blocks resident for the warp phase.
BLOCK_TABLE_BYTES = 24 * 1024

#: Fewest and most buckets of a block's table: about one bucket per two entries of the
#: largest block vertex, within these bounds.
MIN_BUCKETS, MAX_BUCKETS = 64, 1024


@njit(parallel=True, cache=True)
def _count(indptr, indices, slots, buffers, first_task, end_task, short_rows, values, weighted, mode, out):
    """Credit every triangle of the tasks ``first_task <= u < end_task`` once, into this
    thread's row of ``out`` (see ``accumulate.accumulate_per_thread``): ``mode``
    TOTAL adds the count into ``out[thread, 0]``; PER_NODE and PER_EDGE credit
    vertices or arcs; ``weighted`` (PER_NODE) adds the product of the three arc
    values instead of 1. ``short_rows``: per node, every lookup adds its 0 or 1
    (:data:`STORE_ROW_VERTICES`). Indexes are cast to unsigned
    (:func:`~nx_tricount.preprocess.host_index.at`).
    """
    chunks = (end_task - first_task + CHUNK - 1) // CHUNK
    # Per-node counts need no position: the slot holds the task's vertex, one compare
    # per lookup where a position takes a range check (totals gain nothing from it:
    # docs/algorithms.md, CPU engine).
    counts_only = mode == PER_NODE and not weighted
    every_lookup = counts_only and short_rows
    # Each thread takes every threads-th chunk: numba hands each thread one
    # contiguous range of a prange, and on ids where the work gathers (the first
    # half of soc-Slashdot0902's held 88% of it) one thread did most of it.
    threads = slots.shape[0]
    for first_chunk in prange(threads):
        thread = numba.get_thread_id()
        slot = slots[thread]
        row = out[thread]
        closing = buffers[thread]
        for chunk in range(first_chunk, chunks, threads):
            for u in range(first_task + chunk * CHUNK, min(end_task, first_task + (chunk + 1) * CHUNK)):
                start, end = indptr[at(u)], indptr[at(u + 1)]
                if end - start < 2:
                    continue
                for e in range(start, end):
                    slot[at(indices[at(e)])] = u if counts_only else e
                found = 0
                for uv in range(start, end):
                    v = indices[at(uv)]
                    first, last = indptr[at(v)], indptr[at(v + 1)]
                    hits = 0
                    if mode == TOTAL:
                        for vw in range(first, last):
                            uw = slot[at(indices[at(vw)])]
                            hits += (uw >= start) & (uw < end)
                        found += hits
                        continue
                    if every_lookup:  # a row in cache: each lookup adds its 0 or 1
                        for vw in range(first, last):
                            w = indices[at(vw)]
                            hit = slot[at(w)] == u
                            row[at(w)] += hit
                            hits += hit
                        found += hits
                        row[at(v)] += hits
                        continue
                    # Collect the closing arcs v -> w without a branch (a store on
                    # every step, the count advancing on hits): faster than a branch
                    # and a scattered store per hit (docs/algorithms.md, CPU engine).
                    # Per node the closing vertices w themselves: a load fewer per hit.
                    if counts_only:
                        for vw in range(first, last):
                            w = indices[at(vw)]
                            closing[at(hits)] = w
                            hits += slot[at(w)] == u
                        found += hits
                        for i in range(hits):
                            row[at(closing[at(i)])] += 1
                        row[at(v)] += hits
                        continue
                    for vw in range(first, last):
                        uw = slot[at(indices[at(vw)])]
                        closing[at(hits)] = vw
                        hits += (uw >= start) & (uw < end)
                    found += hits
                    for i in range(hits):
                        vw = closing[at(i)]
                        w = indices[at(vw)]
                        if weighted:
                            x = values[at(uv)] * values[at(slot[at(w)])] * values[at(vw)]
                            add_term(row, u, x)
                            add_term(row, v, x)
                            add_term(row, w, x)
                        else:
                            row[at(slot[at(w)])] += 1
                            row[at(vw)] += 1
                    if not weighted:
                        row[at(uv)] += hits
                if counts_only:
                    row[at(u)] += found
                elif mode == TOTAL:
                    row[0] += found


def count_cpu(prepared, mode, vertices=None):
    """Count on the CPU; returns an int (total) or an array in CSR ids.

    Parameters
    ----------
    prepared : Prepared
        Oriented CSR (host arrays); on the arcs of a directed graph (orientation
        ``"arcs"``) the total counts transitive triples.
    mode : {"total", "per_node", "per_edge"}
    vertices : (int, int), optional
        Only the tasks of these vertices, a share ``(first, end)`` of CSR ids
        (:mod:`.shares`); all when None.
    """
    p = prepared
    threads = numba.get_num_threads()
    # Arc positions in 32 bits where they fit: half the table, more of it in cache.
    position = np.int32 if p.m < 2**31 else np.int64
    # Arc positions, or per node the task's vertex: a dtype that holds both.
    slots = np.full((threads, p.n), -1, dtype=np.promote_types(position, p.indices.dtype))
    max_out_degree = int(np.diff(p.indptr).max()) if p.m else 0
    # Closing arcs, or per node closing vertices: a dtype that holds both.
    buffers = np.empty((threads, max_out_degree), dtype=np.promote_types(position, p.indices.dtype))
    first, end = (0, p.n) if vertices is None else vertices
    arrays = (p.indptr, p.indices, slots, buffers, first, end, p.n <= STORE_ROW_VERTICES)
    return accumulate_per_thread(_count, arrays, p, mode)


def _task_lists(prepared, block_degree):
    """``(large, small, largest, entries)``: the vertices with out-degree above
    ``block_degree``, those with out-degree 2 to ``block_degree`` (vertex-id arrays),
    the largest out-degree, and the number of 2-hop entries all tasks look up.
    Derived once per Prepared and threshold."""
    import cupy

    p = prepared
    key = ("hash_tasks", block_degree)
    if key not in p.derived:
        out_degree = cupy.diff(p.indptr)
        large = cupy.flatnonzero(out_degree > block_degree).astype(p.indices.dtype)
        small = cupy.flatnonzero((out_degree >= 2) & (out_degree <= block_degree))
        largest = int(out_degree.max()) if p.n else 0
        entries = int(out_degree[p.indices].sum()) if p.m else 0
        p.derived[key] = (large, small.astype(p.indices.dtype), largest, entries)
    return p.derived[key]


def _within(tasks, vertices):
    """The slice of the ascending vertex list ``tasks`` inside the range ``vertices``."""
    import cupy

    bounds = cupy.searchsorted(tasks, cupy.asarray(vertices, dtype=tasks.dtype)).get()
    return tasks[int(bounds[0]) : int(bounds[1])]


def _block_table(largest, vid_bytes, eid_bytes):
    """``(buckets, levels, cached)`` of a block's table for out-degrees up to ``largest``:
    about one bucket per two entries, enough levels that the table holds ``largest``
    entries, and as many cached levels as :data:`BLOCK_TABLE_BYTES` allows."""
    buckets = MIN_BUCKETS
    while buckets < MAX_BUCKETS and 2 * buckets < largest:
        buckets *= 2
    levels = max(MIN_LEVELS, -(-largest // buckets))
    room = (BLOCK_TABLE_BYTES - _tile_bytes(vid_bytes, eid_bytes) - 4 * buckets) // (buckets * vid_bytes)
    return buckets, levels, max(1, min(CACHED_LEVELS, room))


def _tile_bytes(vid_bytes, eid_bytes):
    """Shared memory of a block's tile of arcs: their prefix, firsts and middles."""
    return GPU_THREADS * (2 * eid_bytes + vid_bytes)


def _warp_shared_bytes(buckets, cached, vid_bytes, eid_bytes):
    """Shared memory of one warp's task (as ``warp_shared_bytes`` in the kernel)."""
    return -(-(64 * eid_bytes + buckets * 4 + (32 + cached * buckets) * vid_bytes) // 8) * 8


def count_gpu(prepared, mode, *, block_degree=None, chunk=None, warp_buckets=None, vertices=None):
    """Count on the GPU (``kernels/hash.cu``): TRUST's vertex-centric hashing.

    Same contract as :func:`count_cpu`, with CuPy arrays in and out.

    Parameters
    ----------
    prepared : Prepared
        Oriented CSR on the GPU.
    mode : {"total", "per_node", "per_edge"}
    block_degree : int, optional
        Out-degree above which a vertex is counted by a whole block instead of one
        warp (default :data:`BLOCK_DEGREE`, weighted :data:`WEIGHTED_BLOCK_DEGREE`).
    chunk : int, optional
        Small vertices a warp takes at a time (default: 1 on graphs of heavy tasks,
        see :data:`HEAVY_TASK`; else about 16 takes per warp, of up to 32 vertices).
    warp_buckets : int, optional
        Buckets of a warp's table, a power of two from 32 to 1024 (default
        :data:`WARP_BUCKETS`).
    vertices : (int, int), optional
        Only the tasks of these vertices, a share ``(first, end)`` of CSR ids
        (:mod:`.shares`); all when None.
    """
    import cupy

    from ..gpu import runtime
    from . import gpu_count

    p = prepared
    if block_degree is None:
        block_degree = WEIGHTED_BLOCK_DEGREE if gpu_count.is_weighted(p, mode) else BLOCK_DEGREE
    block_degree = int(block_degree)
    if block_degree < 2:
        raise ValueError(f"block_degree must be at least 2, got {block_degree}")
    warp_buckets = WARP_BUCKETS if warp_buckets is None else int(warp_buckets)
    if warp_buckets not in [2**k for k in range(5, 11)]:
        raise ValueError(f"warp_buckets must be a power of two from 32 to 1024, got {warp_buckets}")
    vid_bytes = np.dtype(p.indices.dtype).itemsize
    # CSR positions in 32 bits where every sum of two fits: fewer registers, so fewer
    # spills at the 32 registers a thread of a heavy graph gets.
    eid = np.uint32 if p.m < 2**31 else np.int64
    eid_bytes = np.dtype(eid).itemsize
    runtime.check_memory(
        gpu_count.output_bytes(p, mode) + 2 * vid_bytes * p.n, f"the {mode} output and task lists"
    )
    large, small, largest, entries = _task_lists(p, block_degree)
    heavy = entries >= HEAVY_TASK * max(1, large.size + small.size)
    if vertices is not None:  # a share's tasks: a slice of each ascending list
        large, small = (_within(tasks, vertices) for tasks in (large, small))
    buckets, block_levels, block_cached = _block_table(max(largest, block_degree), vid_bytes, eid_bytes)
    warp_levels = max(MIN_LEVELS, -(-block_degree // warp_buckets))
    warp_cached = min(WARP_CACHED_LEVELS, warp_levels)
    warps = GPU_THREADS // 32
    block_bytes = _tile_bytes(vid_bytes, eid_bytes) + buckets * (4 + block_cached * vid_bytes)
    warp_bytes = _warp_shared_bytes(warp_buckets, warp_cached, vid_bytes, eid_bytes)
    shared = max(block_bytes, warps * warp_bytes)

    out, weighted = gpu_count.output(p, mode)
    weight = p.values.dtype if weighted else np.float64
    kernel = runtime.function(
        "hash.cu",
        runtime.entry("hash", mode, weighted),
        vid=p.indices.dtype,
        weight=weight,
        eid=eid,
        defines={"HASH_MIN_BLOCKS": 8 if heavy else 4},
    )
    tasks = large.size + -(-small.size // warps)
    grid = min(runtime.resident_blocks(kernel, shared, GPU_THREADS), max(1, tasks))
    if chunk is None:
        chunk = 1 if heavy else min(32, max(1, small.size // (grid * warps * 16)))
    elif int(chunk) < 1:
        raise ValueError(f"chunk must be at least 1, got {chunk}")
    scratch_stride = max(
        buckets * (block_levels - block_cached), warps * warp_buckets * (warp_levels - warp_cached)
    )
    needs_positions = mode == "per_edge" or weighted
    positions_stride = (
        max(buckets * block_levels, warps * warp_buckets * warp_levels) if needs_positions else 0
    )
    # Weighted, each warp's task keeps a (sum, error) pair per out-neighbour, and a
    # block's task the pairs of all its warps (kernels/hash.cu, flush_terms).
    terms_stride = max(block_degree, -(-largest // warps)) if weighted else 0
    terms_bytes = grid * warps * terms_stride * 2 * np.dtype(weight).itemsize
    runtime.check_memory(
        grid * (scratch_stride * vid_bytes + positions_stride * 4) + terms_bytes,
        "the hash tables' global levels and the weighted terms",
    )
    scratch = cupy.empty(max(1, grid * scratch_stride), dtype=p.indices.dtype)
    positions = cupy.empty(max(1, grid * positions_stride), dtype=np.int32)
    terms = cupy.zeros(max(1, grid * warps * terms_stride * 2), dtype=weight)
    claimed = cupy.zeros(2, dtype=np.uint64)
    if large.size or small.size:
        runtime.launch(
            kernel,
            grid * GPU_THREADS,
            (
                p.indptr,
                p.indices,
                large,
                np.int64(large.size),
                small,
                np.int64(small.size),
                claimed,
                np.int32(chunk),
                np.int32(buckets),
                np.int32(block_levels),
                np.int32(block_cached),
                np.int32(warp_buckets),
                np.int32(warp_levels),
                np.int32(warp_cached),
                scratch,
                np.int64(scratch_stride),
                positions,
                np.int64(positions_stride),
                terms,
                np.int64(terms_stride),
                gpu_count.kernel_values(p, weighted),
                out,
            ),
            threads=GPU_THREADS,
            shared_mem=shared,
        )
    return gpu_count.finish(out, mode, weighted)
