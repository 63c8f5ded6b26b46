"""Vertex-centric hashing (trust-hashing.md §3): one task per vertex ``u``
puts its out-neighbours ``N+(u)`` in a table once, then looks up every 2-hop
neighbour ``w ∈ N+(v)`` of every ``v ∈ N+(u)``; each hit closes the triangle
``(u, v, w)``. One table per vertex (not per arc) is TRUST's point: ``n``
table builds instead of ``m``, and each lookup is O(1).

The CPU engine uses a direct-address table: one array of ``n`` slots per
thread, where slot ``w`` holds the CSR position of the arc ``u -> w``. A slot
written for an earlier vertex holds a position outside ``u``'s CSR row, so the
table never needs clearing and has no collisions. TRUST's bucketed tables,
interleaved bucket layout and warp/block split are GPU shared-memory mechanics
and belong to the GPU kernel.
"""

import numba
import numpy as np
from numba import njit, prange

from .counts import PER_EDGE, PER_NODE, TOTAL

__all__ = ["count_cpu"]

#: Vertices per scheduling chunk: small enough to spread the few heavy
#: vertices of a skewed graph over the threads.
CHUNK = 64


@njit(parallel=True, cache=True)
def _count(indptr, indices, values, weighted, mode, slots, buffers, out):
    """Credit every triangle once, into this thread's row of ``out``.

    ``mode`` TOTAL adds the count into ``out[thread, 0]``; PER_NODE and
    PER_EDGE credit vertices or arcs; ``weighted`` (PER_NODE) adds the product
    of the three arc values instead of 1.
    """
    n = indptr.size - 1
    chunks = (n + CHUNK - 1) // CHUNK
    for chunk in prange(chunks):
        thread = numba.get_thread_id()
        slot = slots[thread]
        row = out[thread]
        closing = buffers[thread]
        for u in range(chunk * CHUNK, min(n, (chunk + 1) * CHUNK)):
            start, end = indptr[u], indptr[u + 1]
            if end - start < 2:
                continue
            for e in range(start, end):
                slot[indices[e]] = e
            found = 0
            for uv in range(start, end):
                v = indices[uv]
                hits = 0
                if mode == TOTAL:
                    for vw in range(indptr[v], indptr[v + 1]):
                        uw = slot[indices[vw]]
                        hits += (uw >= start) & (uw < end)
                    found += hits
                    continue
                # Collect the closing arcs v -> w without a branch (a store on
                # every step, the count advancing on hits): mispredicted
                # branches and scattered stores in this loop cost a third more.
                for vw in range(indptr[v], indptr[v + 1]):
                    uw = slot[indices[vw]]
                    closing[hits] = vw
                    hits += (uw >= start) & (uw < end)
                found += hits
                for i in range(hits):
                    vw = closing[i]
                    w = indices[vw]
                    if weighted:
                        x = values[uv] * values[slot[w]] * values[vw]
                        row[u] += x
                        row[v] += x
                        row[w] += x
                    elif mode == PER_NODE:
                        row[w] += 1
                    else:
                        row[slot[w]] += 1
                        row[vw] += 1
                if not weighted:
                    if mode == PER_NODE:
                        row[v] += hits
                    else:
                        row[uv] += hits
            if mode == PER_NODE and not weighted:
                row[u] += found
            elif mode == TOTAL:
                row[0] += found


def count_cpu(prepared, mode):
    """Count on the CPU; returns an int (total) or an array in CSR ids.

    Parameters
    ----------
    prepared : Prepared
        Oriented CSR (host arrays); on the arcs of a directed graph (orientation
        ``"arcs"``) the total counts transitive triples.
    mode : {"total", "per_node", "per_edge"}
    """
    p = prepared
    threads = numba.get_num_threads()
    weighted = p.values is not None and mode == "per_node"
    values = p.values if weighted else np.zeros(0, dtype=np.int64)
    length = {"total": 8, "per_node": p.n, "per_edge": p.m}[mode]  # 8: one cache line
    out = np.zeros((threads, length), dtype=values.dtype)
    # Arc positions in 32 bits where they fit: half the table, more of it in cache.
    position = np.int32 if p.m < 2**31 else np.int64
    slots = np.full((threads, p.n), -1, dtype=position)
    max_out_degree = int(np.diff(p.indptr).max()) if p.m else 0
    buffers = np.empty((threads, max_out_degree), dtype=position)
    code = {"total": TOTAL, "per_node": PER_NODE, "per_edge": PER_EDGE}[mode]
    _count(p.indptr, p.indices, values, weighted, code, slots, buffers, out)
    if mode == "total":
        return int(out[:, 0].sum())
    return out.sum(axis=0)
