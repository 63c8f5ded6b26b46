"""Preparing an undirected edge list in host memory that does not fit on the GPU:
through the GPU in chunks, straight into the 2D partition that the count tasks
read (``docs/algorithms.md``, "Partitioned counting").

1. Chunks of edge rows go up; each leaves as its distinct edges ``lo < hi``
   (packed keys), sorted into ``p²`` buckets by ``(lo mod p, hi mod p)``, so
   that every copy of an edge lands in one bucket.
2. Each bucket goes up whole, drops its duplicates and adds its degrees.
3. With the degrees complete, the vertex classes are known (hashed, or ranges of
   the final ids); each bucket goes up again: its edges are relabelled (ordering
   ``degree``) and oriented (``id`` or ``degree``), and each arc ``u -> v`` goes
   to the part of its classes as local ids.
4. Each part goes up once more and is sorted, so that the tasks' graphs are
   merged from the parts without a sort of their own (``partition.py``).

Host memory holds the keys (8 bytes an edge row) and the parts (8 bytes an arc),
the GPU one chunk or one bucket at a time; or, when they fit beside a chunk and
a task, the keys and parts stay on the GPU and only the input crosses the bus.
The orientations and orderings that need more than the degrees (A-direction,
A-order, TRUST's) are prepared whole in host memory instead.
"""

import numpy as np

from ..gpu.device import array_module, module_of, to_host, to_module
from .dedup import SENTINEL, SimpleGraph, index_dtype
from .ops import ops_for
from .ordering import relabel, vertex_order
from .partition import Partition, VertexClasses

__all__ = [
    "PartitionedGraph",
    "STREAMED",
    "prepare_streamed",
    "distinct_edge_keys",
    "bucket_of",
    "key_degrees",
    "oriented_parts",
    "by_part",
]

#: The (orientation, ordering) pairs prepared here: they need only the degrees.
STREAMED = {("id", "none"), ("id", "degree"), ("degree", "none"), ("degree", "degree")}


class PartitionedGraph:
    """An oriented graph as its 2D partition in host memory: what the
    count tasks read, with what the results need (as a ``Prepared`` offers it).

    Attributes
    ----------
    n, m : int
        Vertices and arcs.
    partition : Partition
        Its parts' arcs are numbered by the partition's ``offsets``.
    degree : numpy array
        Degree of every vertex, in the partition's ids.
    perm : numpy array or None
        ``perm[id] = original id`` when the vertices were reordered.
    orientation, ordering : str
    values : None
        (Weights are prepared whole.)
    """

    values = None

    def __init__(self, partition, degree, perm, orientation, ordering):
        self.partition = partition
        self.n = partition.n
        self.m = sum(int(part[0].size) for part in partition.parts.values())
        self.degree, self.perm = degree, perm
        self.orientation, self.ordering = orientation, ordering

    def to_original_vertices(self, per_vertex):
        """Reindex a per-vertex array from the partition's ids to original ids."""
        if self.perm is None:
            return per_vertex
        out = np.empty_like(per_vertex)
        out[self.perm] = per_vertex
        return out

    def arcs_original(self):
        """The arcs ``(src, dst)``, part after part (the numbering of the
        partition's ``offsets``), as original ids."""
        classes, parts = self.partition.classes, self.partition.parts
        src = np.concatenate(
            [classes.global_ids(to_host(part[0]).astype(np.int64), a) for (a, _), part in parts.items()]
        )
        dst = np.concatenate(
            [classes.global_ids(to_host(part[1]).astype(np.int64), b) for (_, b), part in parts.items()]
        )
        if self.perm is not None:
            src, dst = self.perm[src], self.perm[dst]
        return src, dst


def prepare_streamed(
    src,
    dst,
    n,
    *,
    orientation,
    ordering,
    parts,
    scheme="hashed",
    chunk_rows=1 << 27,
    device="gpu",
    keep=False,
):
    """The :class:`PartitionedGraph` of a host edge list, prepared on the GPU in chunks.

    Parameters
    ----------
    src, dst : numpy integer arrays
        Edges in either or both directions, duplicates and self-loops allowed.
    n : int
    orientation : {"id", "degree"}
    ordering : {"none", "degree"}
    parts : int
        Parts per side ``p``.
    scheme : {"hashed", "range"}
        How vertices fall into classes (ranges of the final ids, by degree).
    chunk_rows : int
        Edge rows per transfer.
    device : {"gpu", "cpu"}
        Where the chunks are processed (the CPU runs the same steps, in bounded
        memory).
    keep : bool
        Keep the buckets and the parts on ``device`` (when they fit beside a
        chunk and a task): no round trips through host memory but the input's.
    """
    xp = array_module(device)
    if (orientation, ordering) not in STREAMED:
        raise ValueError(
            f"orientation {orientation!r} with ordering {ordering!r} cannot be prepared in "
            f"chunks; accepted: {sorted(STREAMED)}"
        )
    p = parts
    buckets = _buckets(xp, src, dst, n, p, chunk_rows, keep)
    degree = xp.zeros(n, dtype=np.int64)
    for b, pieces in enumerate(buckets):
        # The pieces are joined on the device, not in host memory first.
        keys = xp.unique(xp.concatenate([to_module(piece, xp) for piece in pieces]))
        degree += key_degrees(keys, n)
        buckets[b] = [keys if keep else to_host(keys)]
        del keys
    perm = vertex_order(ordering, degree)
    rank = None if perm is None else relabel(perm.astype(index_dtype(n)), n)
    new_degree = degree if perm is None else degree[perm]
    classes = VertexClasses.of_scheme(scheme, p, n, new_degree)
    pieces = {(a, b): [] for a in range(p) for b in range(p)}
    for bucket in buckets:
        keys = to_module(bucket[0], xp)
        bucket.clear()
        local_u, local_v = oriented_parts(keys, n, classes, orientation, degree, rank, keep)
        del keys
        for index, key in enumerate(sorted(pieces)):
            if local_u[index].size:
                pieces[key].append((local_u[index], local_v[index]))
    arcs, offsets, start = {}, {}, 0
    for key in sorted(pieces):
        local_u, local_v = _in_csr_order(xp, pieces.pop(key), n, keep)
        arcs[key] = (local_u, local_v, None, None)
        offsets[key], start = start, start + local_u.size
    return PartitionedGraph(
        Partition(classes, arcs, orientation, offsets, in_csr_order=True, ordering=ordering),
        to_host(new_degree),
        None if perm is None else to_host(perm),
        orientation,
        ordering,
    )


def _buckets(xp, src, dst, n, p, chunk_rows, keep):
    """The distinct edge keys of each chunk, in ``p²`` buckets by ``(lo mod p, hi mod p)``,
    in host memory (or on ``xp``'s device, with ``keep``)."""
    buckets = [[] for _ in range(p * p)]
    for start in range(0, int(src.size), chunk_rows):
        rows = slice(start, start + chunk_rows)
        keys = distinct_edge_keys(to_module(src[rows], xp), to_module(dst[rows], xp), n)
        [split] = by_part((keys,), bucket_of(keys, n, p), p, keep)
        for b, piece in enumerate(split):
            buckets[b].append(piece)
        del keys
    for pieces in buckets:
        if not pieces:
            pieces.append((xp if keep else np).zeros(0, np.int64))
    return buckets


def _in_csr_order(xp, chunks, n, keep):
    """A part's arcs, its pieces ``(local_u, local_v)`` joined and sorted by local
    source, then local target, on ``xp``'s device (no join in host memory); kept
    there with ``keep``, else returned to host memory."""
    dtype = index_dtype(n)
    u, v = (
        xp.concatenate([to_module(c[i], xp) for c in chunks]) if chunks else xp.zeros(0, dtype)
        for i in (0, 1)
    )
    chunks.clear()
    ops = ops_for(u)
    keys = xp.sort(ops.packed_keys(u, v, n))
    del u, v
    u, v = ops.unpack_keys(keys, n, dtype)
    return (u, v) if keep else (to_host(u), to_host(v))


# The steps, shared with the preparation of Dask frames (nx_tricount/execution/dask.py).


def distinct_edge_keys(src, dst, n):
    """The sorted keys of the distinct edges ``lo < hi`` among the rows (self-loops dropped)."""
    xp = module_of(src)
    keys = xp.unique(ops_for(src).edge_keys(src, dst, n))
    return keys[: int(xp.searchsorted(keys, SENTINEL))]  # self-loops sort last


def bucket_of(keys, n, p):
    """The bucket ``(lo mod p) p + hi mod p`` of each edge key: every copy of an
    edge has the same."""
    lo, hi = ops_for(keys).unpack_keys(keys, n, np.int64)
    return (lo % p) * p + hi % p


def key_degrees(keys, n):
    """Each vertex's degree among the distinct edge ``keys`` (int64)."""
    ops = ops_for(keys)
    lo, hi = ops.unpack_keys(keys, n, index_dtype(n))
    return ops.endpoint_counts(lo, hi, n)


def oriented_parts(keys, n, classes, orientation, degree, rank=None, keep=False):
    """The edges of ``keys`` relabelled by ``rank`` (None keeps the ids), oriented by
    ``orientation`` on the complete ``degree``, and split into the parts ``0 .. p² - 1``
    of ``classes`` (a :class:`~.partition.VertexClasses`; part ``(a, b)`` is ``a p + b``):
    ``(local_u, local_v)``, two lists of arrays of local ids, in host memory (or where
    ``keys`` are, with ``keep``)."""
    ops = ops_for(keys)
    lo, hi = ops.unpack_keys(keys, n, index_dtype(n))
    arcs, _ = ops.oriented_keys(orientation, SimpleGraph(n, lo, hi, degree), rank)
    del lo, hi
    u, v = ops.unpack_keys(arcs, n, np.int64)
    dtype = index_dtype(n)
    source_class, target_class = classes.of(u), classes.of(v)
    local = (classes.local(u, source_class).astype(dtype), classes.local(v, target_class).astype(dtype))
    return by_part(local, source_class * classes.p + target_class, classes.p, keep)


def by_part(arrays, part, p, keep=False):
    """Each of ``arrays``' elements of each part ``0 .. p² - 1`` (one sort of
    ``part`` for all), keeping their order, in host memory (or where they are,
    with ``keep``)."""
    xp = module_of(part)
    order = xp.argsort(part, kind="stable")
    bounds = to_host(xp.searchsorted(part[order], xp.arange(p * p + 1)))
    move = (lambda a: a.copy()) if keep else to_host
    split = []
    for array in arrays:
        array = array[order]
        split.append([move(array[bounds[b] : bounds[b + 1]]) for b in range(p * p)])
    return split
