"""The quantities of the rest of NetworkX's triangle family, counted on a
``TriGraph`` as a plan says: square clustering's squares and their potential,
each vertex's edges by triangle multiplicity (generalized degree), the
triangles themselves in batches (each with its nodes in NetworkX's order), and
the k-truss.

The triangles on each edge (its support) come from the plan's ``per_edge``
count (:func:`nx_tricount.execution.execute.run`); listing and peeling start from them.
The graph is prepared where the plan prepares it (its device, or host memory
when the graph does not fit the device and the count is partitioned), by the
plan's pipeline, and whole even where the plan streams a count per node: the
per-edge counts, listing and peeling are indexed by the whole CSR's arcs. What
follows the count (squares, listing, peeling) runs there, on the prepared
arrays. The NetworkX layer (:mod:`nx_tricount.nxapi.triangle_family`) turns the
results into NetworkX's.
"""

import logging
import math
from itertools import chain

import numpy as np

from ..algorithms import listing, neighbourhoods, squares, truss
from ..classes import preparation
from ..classes.graph import TriGraph
from ..classes.labels import gather
from ..execution.execute import run
from ..gpu import runtime
from ..gpu.device import module_of, to_host
from ..preprocess.ops import ops_for
from .oriented import whole_oriented

__all__ = [
    "SQUARE_MEMORY",
    "square_coefficients",
    "edge_support",
    "triangle_multiplicities",
    "triangle_batches",
    "listing_rank",
    "k_truss",
]

#: Bytes square clustering's rows of counters may take in host memory; on the
#: GPU, a quarter of the count's memory limit (the free memory by default). One
#: row of ``n`` counters and ``n`` stamps serves one vertex at a time, so hubs
#: take no more memory than other vertices.
SQUARE_MEMORY = 2**30
#: Slots of the first batch of listed triangles (the first triple comes after it)
#: and of the largest (batches double up to it; each slot holds three ids).
FIRST_BATCH, LARGEST_BATCH = 2**10, 2**20

logger = logging.getLogger("nx_tricount")


def square_coefficients(G, plan, ids=None):
    """Square clustering (NetworkX's ``squares / potential``) of vertices of ``G``.

    Undirected graphs count on their neighbour lists, directed ones on their
    successor lists, as NetworkX reads ``G._adj``; self-loops and parallel edges
    do not count.

    Parameters
    ----------
    G : TriGraph
    plan : Plan
        Where the graph is prepared, and how (undirected); no triangle count
        runs: the closed wedges come with the squares.
    ids : list of int, optional
        The vertices to count (original ids); every vertex when None.

    Returns
    -------
    ratio : float64 NumPy array, length n
        ``squares / potential`` rounded as Python's int division rounds it, at
        the counted vertices where it is defined; 0.0 elsewhere.
    defined : bool NumPy array, length n
        Counted vertices with at least two neighbours and a positive potential
        (NetworkX's int ``0`` elsewhere).
    """
    where = plan.preparation_device
    if plan.spread.executor != "whole":
        # The settings spread triangle counts; squares have no partition of theirs.
        logger.info(
            "tricount: square clustering counts whole on the %s, where the plan prepares the "
            "graph: partitions, devices and distributed spread triangle counts only",
            where,
        )
    if G.directed:
        prepared = preparation.successor_csr(G, where)
        successors = (prepared.indptr, prepared.indices)
        predecessors = neighbourhoods.predecessors(prepared)
    else:
        prepared = whole_oriented(G, plan)
        successors = predecessors = squares.neighbour_lists(prepared)
    n = prepared.n
    targets = _csr_ids(prepared, ids, where)
    memory = SQUARE_MEMORY
    if where == "gpu":
        memory = (plan.spread.memory_limit or runtime.free_memory()) // 4
    found, closed = squares.count_squares(successors, predecessors, targets, n, where, memory)
    potential, defined, at = squares.potentials(successors, targets, found, closed, prepared.perm)
    defined, at = to_host(defined), to_host(at)
    ratio = np.zeros(n)
    ratio[at] = _exact_ratio(to_host(found), to_host(potential), defined)
    mask = np.zeros(n, dtype=bool)
    mask[at] = defined
    return ratio, mask


def _csr_ids(prepared, ids, where):
    """The distinct CSR ids of the original ids ``ids`` (every vertex when None),
    on ``where``."""
    xp = module_of(prepared.indptr)
    dtype = prepared.indices.dtype
    if ids is None:
        return squares.every_vertex(prepared.n, dtype, where)
    original = np.unique(np.asarray(ids, dtype=np.int64))
    if prepared.perm is None:
        return xp.asarray(original.astype(dtype))  # cast on the host
    original = xp.asarray(original)
    inverse = xp.empty(prepared.n, dtype=dtype)
    inverse[prepared.perm] = xp.arange(prepared.n, dtype=dtype)
    return inverse[original]


def _exact_ratio(numerator, denominator, defined):
    """``numerator / denominator`` where ``defined``, as Python's int division
    rounds it: float64 division is that rounding for both below 2**53."""
    ratio = np.zeros(numerator.size)
    ratio[defined] = numerator[defined] / denominator[defined]
    for i in np.flatnonzero(defined & ((numerator >= 2**53) | (denominator >= 2**53))).tolist():
        ratio[i] = int(numerator[i]) / int(denominator[i])
    return ratio


def edge_support(G, plan):
    """The plan's ``per_edge`` count of ``G``'s simple undirected graph: the
    triangles on each arc of the oriented CSR (:class:`~nx_tricount.algorithms.Counts`)."""
    return run(plan, whole_oriented(G, plan), "per_edge")


def triangle_multiplicities(G, plan):
    """``(vertex, multiplicity, edges)`` host int64 arrays, sorted by vertex and
    then multiplicity: ``vertex`` has ``edges`` edges that are each on exactly
    ``multiplicity`` triangles (NetworkX's generalized degree). Vertices without
    edges are absent."""
    counts = edge_support(G, plan)
    xp = module_of(counts.per_edge)
    if counts.per_edge.size == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    span = int(counts.per_edge.max()) + 1
    ends = xp.concatenate([counts.edge_src, counts.edge_dst]).astype(xp.int64)
    support = xp.concatenate([counts.per_edge, counts.per_edge]).astype(xp.int64)
    keys, edges = xp.unique(ends * span + support, return_counts=True)
    keys = to_host(keys)
    return keys // span, keys % span, to_host(edges).astype(np.int64)


def triangle_batches(G, plan, rank, members=None):
    """Every triangle of ``G``'s simple undirected graph once, in batches.

    The triangles on each arc (the per-edge count) bound what each arc lists,
    so a batch takes the arcs whose bounds fill its slots; the first batch is
    small (:data:`FIRST_BATCH` slots, so the first triangles come soon) and the
    slots double up to :data:`LARGEST_BATCH`.

    Parameters
    ----------
    G : TriGraph
    plan : Plan
    rank : int64 NumPy array, length n
        Each triple comes ordered by ascending rank of its vertices (original ids).
    members : bool NumPy array, optional
        Only triangles with a vertex where it holds are listed.

    Yields
    ------
    array of shape (3, k)
        Original ids, one triangle per column, where the graph is prepared.
    """
    prepared = whole_oriented(G, plan)
    support = edge_support(G, plan).per_edge
    ends = to_host(support.cumsum())  # the last slot of each arc, plus one
    xp = module_of(support)
    device_rank = xp.asarray(rank)
    device_members = None if members is None else xp.asarray(members)
    lo, base, batch = 0, 0, FIRST_BATCH
    while lo < prepared.m:
        hi = max(int(np.searchsorted(ends, base + batch, side="right")), lo + 1)
        slots = int(ends[hi - 1]) - base
        if slots:
            offsets = support[lo:hi].cumsum() - support[lo:hi]
            found = listing.list_arcs(prepared, lo, hi, offsets, slots, plan.preparation_device)
            if prepared.perm is not None:
                found = prepared.perm[found]
            triples = _in_rank_order(found.astype(xp.int64), device_rank, device_members)
            if triples.shape[1]:
                yield triples
        lo, base, batch = hi, int(ends[hi - 1]), min(2 * batch, LARGEST_BATCH)


def _in_rank_order(found, rank, members):
    """The triangles (columns of original ids) with a member, each column sorted
    by rank: three compare-exchanges over whole rows."""
    xp = module_of(found)
    if members is not None:
        found = found[:, xp.flatnonzero(members[found].any(axis=0))]
    ids = [found[0], found[1], found[2]]
    keys = [rank[row] for row in ids]
    for a, b in ((0, 1), (1, 2), (0, 1)):
        swap = keys[a] > keys[b]
        ids[a], ids[b] = xp.where(swap, ids[b], ids[a]), xp.where(swap, ids[a], ids[b])
        keys[a], keys[b] = xp.where(swap, keys[b], keys[a]), xp.where(swap, keys[a], keys[b])
    return xp.stack(ids)


def listing_rank(G, ids, adjacency=None):
    """NetworkX's ``node_to_id`` of ``all_triangles(G, nbunch)``, by which each
    triple's nodes are ordered, and the members of ``nbunch``.

    The members (``ids``: distinct, in ``nbunch``'s order) come first; then each
    other neighbour of a member, at its last place in the members' neighbour
    lists read one after another, each in NetworkX's order: that of
    ``adjacency`` (the ``_adj`` of the NetworkX graph G was converted from), else
    that of the NetworkX graph G's rows build (``to_networkx``). The vertices
    after them are on no triangle with a member.

    Returns
    -------
    rank : int64 NumPy array, length n
    members : bool NumPy array, length n
    """
    members = np.zeros(G.n, dtype=bool)
    members[ids] = True
    found = _neighbour_lists(G, ids, adjacency)
    found = found[~members[found]]
    k = ids.size
    rank = np.full(G.n, k + found.size, dtype=np.int64)
    rank[ids] = np.arange(k)
    # NetworkX numbers the nodes by a dict comprehension, which keeps a node's last place.
    others, from_end = np.unique(found[::-1], return_index=True)
    rank[others] = k + found.size - 1 - from_end
    return rank, members


def _neighbour_lists(G, ids, adjacency):
    """The neighbours of the vertices ``ids``, list after list, as ids (NumPy)."""
    if adjacency is not None:
        labels = G.label_list()
        found = chain.from_iterable(adjacency[labels[i]] for i in ids.tolist())
        return np.fromiter(found if G.labels is None else map(G.node_id, found), dtype=np.int64)
    # A neighbour joins a node's dict at the first row joining them, as NetworkX adds edges.
    place = np.full(G.n, -1, dtype=np.int64)
    place[ids] = np.arange(ids.size)
    xp = module_of(G.src)
    on_device = xp.asarray(place)
    rows = xp.flatnonzero((on_device[G.src] >= 0) | (on_device[G.dst] >= 0))
    src, dst = (to_host(ends[rows]).astype(np.int64, copy=False) for ends in (G.src, G.dst))
    rows = to_host(rows)
    at_src, at_dst = place[src] >= 0, place[dst] >= 0
    member = np.concatenate([src[at_src], dst[at_dst]])
    neighbour = np.concatenate([dst[at_src], src[at_dst]])
    order = np.lexsort((np.concatenate([rows[at_src], rows[at_dst]]), place[member]))
    member, neighbour = member[order], neighbour[order]
    _, first = np.unique(member * G.n + neighbour, return_index=True)  # parallel rows once
    return neighbour[np.sort(first)]


def k_truss(G, plan, k):
    """The k-truss of ``G`` (undirected, no multigraph, no self-loops) as a new
    ``TriGraph`` of its rows whose edge is in the k-truss, without the nodes
    left without edges, with every node, edge and graph attribute kept.

    Edges on fewer than ``k - 2`` triangles are peeled away
    (:func:`nx_tricount.algorithms.truss.peel`); with ``k <= 2`` (or a NaN) only
    the nodes without edges go.
    """
    keep = module_of(G.src).ones(G.src.size, dtype=bool)
    threshold = k - 2 if G.src.size else 0  # NetworkX computes k - 2 only on an edge
    if threshold > 0:
        prepared = whole_oriented(G, plan)
        counts = run(plan, prepared, "per_edge")
        # No edge is on more than n - 2 triangles: larger thresholds act as n.
        limit = math.ceil(min(threshold, prepared.n))
        where = plan.preparation_device
        alive = truss.peel(prepared, counts.per_edge, limit, where)
        found = _rows_of(G, counts.edge_src[alive], counts.edge_dst[alive], where)
        keep = G.column_on(found, _device_of(G.src))
    return _edge_subgraph(G, keep)


def _device_of(array):
    return "cpu" if module_of(array) is np else "gpu"


def _rows_of(G, src, dst, device):
    """Which rows of ``G``'s edge frame (on ``device``) join ``src[i]`` and ``dst[i]``
    for some ``i``, in either direction."""
    rows_src, rows_dst = G.edges_on(device)
    xp = module_of(rows_src)
    if src.size == 0:
        return xp.zeros(rows_src.size, dtype=bool)
    pack = ops_for(rows_src).packed_keys
    edges = xp.sort(pack(xp.minimum(src, dst), xp.maximum(src, dst), G.n))
    rows = pack(xp.minimum(rows_src, rows_dst), xp.maximum(rows_src, rows_dst), G.n)
    at = xp.minimum(xp.searchsorted(edges, rows), edges.size - 1)
    return edges[at] == rows


def _edge_subgraph(G, keep):
    """The TriGraph of ``G``'s rows where ``keep`` holds and the nodes they touch,
    in ``G``'s order, with their attributes."""
    xp = module_of(G.src)
    src, dst = G.src[keep], G.dst[keep]
    touched = xp.zeros(G.n, dtype=bool)
    touched[src] = True
    touched[dst] = True
    new_id = xp.cumsum(touched) - 1
    kept = to_host(xp.flatnonzero(touched))
    host_keep = to_host(keep)
    if G.labels is None:
        labels = None if kept.size == G.n else kept
    elif isinstance(G.labels, list):
        labels = [G.labels[i] for i in kept.tolist()]
    else:
        labels = gather(G.labels, kept)
    return TriGraph(
        new_id[src].astype(G.src.dtype),
        new_id[dst].astype(G.dst.dtype),
        kept.size,
        labels=labels,
        edge_data={name: _rows(values, keep, host_keep) for name, values in G.edge_data.items()},
        edge_masks={name: _rows(mask, keep, host_keep) for name, mask in G.edge_masks.items()},
        graph=G.graph,
        node_data=None if G.node_data is None else [dict(G.node_data[i]) for i in kept.tolist()],
        unique_edges=G.unique_edges,
    )


def _rows(values, keep, host_keep):
    """The kept rows of an edge column: a list, or an array on its own device."""
    if isinstance(values, list):
        return [value for value, kept in zip(values, host_keep.tolist()) if kept]
    if module_of(values) is not module_of(keep):
        keep = module_of(values).asarray(host_keep)
    return values[keep]
