"""Hashed 2D partitions of an oriented CSR, and the graph of one count task
(TRUST §5.2, ``docs/algorithms.md``, "Partitioned counting").

With ``p`` parts per side, vertex ``v`` is in class ``v mod p``, where its local
id is ``v // p``; part ``P_ab`` holds the arcs ``u -> v`` with ``u mod p = a``
and ``v mod p = b``. A triangle is found as the arcs ``u -> v``, ``u -> w``,
``v -> w`` of its source, middle and sink (one way in an acyclic orientation;
in a directed graph's arcs every transitive triple has its own), so the task
``(i, j, k)`` that takes the triangles with ``u, v, w`` in the classes ``i, j,
k`` needs only ``P_ij``, ``P_ik`` and ``P_jk``, and the ``p³`` tasks share the
triangles out exactly.

A task's graph keeps three copies of the vertices apart: sources (class ``i``),
middles (class ``j``) and sinks (class ``k``), numbered block after block, with
``P_ij`` as arcs from sources to middles, ``P_ik`` from sources to sinks and
``P_jk`` from middles to sinks. Its triangles are exactly the task's, equal
classes included (the copies are distinct vertices), and every arc goes to a
higher id, so every algorithm counts it as it is.
"""

from dataclasses import dataclass

from ..device import module_of
from .ops import ops_for
from .prepare import Prepared
from .simplify import index_dtype

__all__ = ["Partition", "TaskGraph", "split", "task_graph", "class_size", "task_arcs"]


@dataclass
class Partition:
    """The ``p²`` parts of an oriented CSR.

    Attributes
    ----------
    p : int
        Parts per side (vertex classes).
    n : int
        Vertices of the whole graph.
    parts : dict
        ``(a, b)`` -> ``(sources, targets, arcs, values)``: the local ids of the
        part's arcs in CSR order, their positions in the whole CSR (int64) and
        their values (or None).
    orientation : str
        The whole CSR's orientation (``"arcs"``: a directed graph's arcs as given).
    offsets : dict or None
        Where the parts' ``arcs`` are None (a graph prepared straight into parts,
        ``streamed.py``): arc ``t`` of part ``(a, b)`` is arc ``offsets[(a, b)] + t``.
    """

    p: int
    n: int
    parts: dict
    orientation: str
    offsets: dict | None = None


@dataclass
class TaskGraph:
    """The graph of task ``(i, j, k)`` and how its results map back.

    Attributes
    ----------
    prepared : Prepared
        Sources, then middles, then sinks; arcs in CSR order.
    classes : tuple of int
        ``(i, j, k)``.
    sizes : tuple of int
        Vertices in each block (the sizes of classes ``i``, ``j``, ``k``).
    arcs : int64 array or None
        Each arc's position in the whole CSR (an arc of ``P_ab`` appears twice
        when two of ``i, j, k`` are equal); None unless asked for.
    """

    prepared: Prepared
    classes: tuple
    sizes: tuple
    arcs: object


def class_size(n, p, c):
    """Vertices ``v < n`` with ``v mod p = c``."""
    return max(0, (n - c + p - 1) // p)


def split(prepared, p):
    """The hashed 2D partition of ``prepared`` into ``p²`` parts, on its device.

    Parameters
    ----------
    prepared : Prepared
        Oriented CSR (any orientation, arcs as given included).
    p : int
        Parts per side, at least 1.

    Returns
    -------
    Partition
    """
    if p < 1:
        raise ValueError(f"parts per side must be at least 1, got {p}")
    xp = module_of(prepared.indices)
    rows, indices = prepared.rows, prepared.indices
    part_of = (rows.astype(xp.int64) % p) * p + indices % p
    # A stable sort keeps each part's arcs in CSR order.
    order = xp.argsort(part_of, kind="stable")
    bounds = xp.searchsorted(part_of[order], xp.arange(p * p + 1)).tolist()
    parts = {}
    for a in range(p):
        for b in range(p):
            arcs = order[bounds[a * p + b] : bounds[a * p + b + 1]]
            values = None if prepared.values is None else prepared.values[arcs]
            parts[(a, b)] = (rows[arcs] // p, indices[arcs] // p, arcs, values)
    return Partition(p, prepared.n, parts, prepared.orientation)


def task_arcs(partition, i, j, k):
    """The arcs of task ``(i, j, k)``: ``P_ij``, ``P_ik``, ``P_jk`` (how many rows)."""
    parts = partition.parts
    return sum(int(parts[key][0].size) for key in ((i, j), (i, k), (j, k)))


def task_graph(partition, i, j, k, xp=None, *, with_arcs=True):
    """The graph of task ``(i, j, k)``, built with array module ``xp`` (default:
    the partition's), the parts copied there.

    ``with_arcs``: find each task arc's position in the whole graph (per-edge
    counts need it; ``TaskGraph.arcs`` is None without).

    Returns
    -------
    TaskGraph
    """
    n, p = partition.n, partition.p
    sizes = tuple(class_size(n, p, c) for c in (i, j, k))
    starts = (0, sizes[0], sizes[0] + sizes[1])
    total = sum(sizes)
    blocks = (((i, j), 0, 1), ((i, k), 0, 2), ((j, k), 1, 2))
    pieces = [partition.parts[key] for key, _, _ in blocks]
    xp = xp or module_of(pieces[0][2])
    dtype = index_dtype(total)
    sources = xp.concatenate(
        [xp.asarray(piece[0]).astype(dtype) + starts[s] for piece, (_, s, _) in zip(pieces, blocks)]
    )
    targets = xp.concatenate(
        [xp.asarray(piece[1]).astype(dtype) + starts[t] for piece, (_, _, t) in zip(pieces, blocks)]
    )
    ops = ops_for(sources)
    keys = ops.packed_keys(sources, targets, total)
    values = arcs = None
    if pieces[0][3] is None and not with_arcs:  # nothing rides with the keys: sort them alone
        indptr, indices, rows = ops.csr_of_sorted_keys(xp.sort(keys), total, dtype, keys.size)
        return TaskGraph(_task_prepared(partition, total, indptr, indices, rows, None), (i, j, k), sizes, None)
    order = xp.argsort(keys)
    indptr, indices, rows = ops.csr_of_sorted_keys(keys[order], total, dtype, keys.size)
    if pieces[0][3] is not None:
        values = xp.concatenate([xp.asarray(piece[3]) for piece in pieces])[order]
    if with_arcs:
        arcs = xp.concatenate(
            [
                xp.asarray(piece[2])
                if piece[2] is not None
                else xp.arange(partition.offsets[key], partition.offsets[key] + piece[0].size)
                for (key, _, _), piece in zip(blocks, pieces)
            ]
        )[order]
    prepared = _task_prepared(partition, total, indptr, indices, rows, values)
    return TaskGraph(prepared, (i, j, k), sizes, arcs)


def _task_prepared(partition, n, indptr, indices, rows, values):
    # Ordered ids ascend by degree only within each block, not across the task:
    # its ordering is "none" (the wedge kernel's bitmap of the densest last ids
    # relies on a global one).
    return Prepared(n, indptr, indices, rows, values, orientation=partition.orientation, ascending=True)
