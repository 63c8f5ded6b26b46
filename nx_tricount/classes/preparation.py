"""Preparing a graph for counting: every structure a count needs, made from a
``TriGraph``'s edge frame once and cached on it under one key scheme.

========================  ===================================================  ==================
structure                 cache key                                            made by
========================  ===================================================  ==================
endpoint degree estimate  ``("endpoint degree", device)``                      :class:`Statistics`
simple graph              ``("simple", device)``                               :func:`simple_graph`
oriented CSR              ``("oriented", orientation, ordering, device, w)``   :func:`oriented_csr`
the same, in passes       the same, ``w`` None                                 :func:`csr_in_passes`
the same, on each GPU     ``("replicated", orientation, ordering, devices)``   :func:`replicated_csr`
hashed CSR                ``("hashed", device, counted)``                      :func:`hashed_csr`
successor CSR (arcs)      ``("arcs", device)``                                 :func:`successor_csr`
normalised edge values    ``("values", w, device)``                            :func:`normalised_weights`
largest edge value        ``("max weight", w)``                                :func:`max_weight`
directed pairs            ``("pairs", orientation, ordering, device, w)``      :func:`directed_pairs_csr`
pair directions           ``("directions", orientation, ordering, device)``    :func:`directions_csr`
2D partition              ``("partitioned", orientation, ordering, p, s, d)``  :func:`partitioned_graph`
========================  ===================================================  ==================

``w`` is the weight attribute's name, or None; ``counted`` whether the hashed
launch also counted merge's triangles; ``p`` the parts per side, ``s`` the
partitioning (``hashed`` or ``range``) and ``d`` the device of the chunks. The
undirected structures share the simple graph; every array stays on ``device``.
Each structure is built as the plan says (its pipeline, its spread): nothing
here chooses.

Weighted and directed clustering reduce to one count: the per-vertex sum, over
the vertex's triangles of the undirected simple graph, of the product of the
triangle's three edge values ``b`` (NetworkX's ``t`` is twice that sum):

- ``b = 1`` (unweighted);
- ``b = cbrt(w / max_w)`` (weighted, Onnela's geometric mean);
- ``b = [u->v] + [v->u]`` (directed, Fagiolo: ``t = diag((A + A^T)^3)``);
- ``b = cbrt(w_uv / max_w) + cbrt(w_vu / max_w)`` (directed weighted).
"""

import time
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import numpy as np

from .. import preprocess
from ..gpu.device import module_of
from ..preprocess.ops import ops_for
from .weights import max_weight, normalised_weights, weighted_simple_graph

#: GPU bytes per edge row of a chunk prepared in host memory's stead: the rows,
#: their keys, the keys' sort and buckets (``preprocess/streamed.py``).
CHUNK_BYTES_PER_ROW = 96

__all__ = [
    "DirectedPairs",
    "Statistics",
    "statistics",
    "simple_graph",
    "mean_endpoint_degree",
    "id_span",
    "oriented_csr",
    "csr_in_passes",
    "replicated_csr",
    "hashed_csr",
    "partitioned_graph",
    "successor_csr",
    "normalised_weights",
    "max_weight",
    "directed_pairs_csr",
    "directions_csr",
]


class DirectedPairs(NamedTuple):
    """A directed graph's arcs merged into undirected pairs, ready for Fagiolo's
    clustering (see :func:`directed_pairs_csr`).

    Attributes
    ----------
    prepared : Prepared
        The oriented CSR of the pairs, with ``b`` as arc values.
    total_degree, reciprocal_degree : arrays
        Per vertex (original ids): in- plus out-degree, and the number of
        reciprocal pairs it is in.
    max_weight : float
        The largest weight over the edges (1.0 unweighted).
    """

    prepared: object
    total_degree: object
    reciprocal_degree: object
    max_weight: float


@dataclass(frozen=True)
class Statistics:
    """What a plan reads of a graph (:func:`statistics`).

    Attributes
    ----------
    rows, n : int
        Edge rows and vertices.
    directed : bool
    resident : bool
        The edge rows are in GPU memory.
    graph : TriGraph or None
        The graph they are read from (None: a plan for no graph in particular),
        which :meth:`mean_endpoint_degree` samples.
    """

    rows: int = 0
    n: int = 0
    directed: bool = False
    resident: bool = False
    graph: object = field(default=None, repr=False, compare=False)

    def mean_endpoint_degree(self, device, *, then_simple_graph=False):
        """The graph's :func:`mean_endpoint_degree` on ``device``, sampled once
        (cached on the graph): one launch on the GPU, the one statistic that costs
        one, read only by the plan's rule for large graphs. With
        ``then_simple_graph`` the build of the simple graph the count starts from
        is queued on ``device`` while the estimate is read, so the GPU has it to
        run meanwhile, from the edge rows the estimate moved there. 0.0 without
        a graph."""
        G = self.graph
        if G is None:
            return 0.0
        meanwhile = (lambda src, dst: simple_graph(G, device, (src, dst))) if then_simple_graph else None
        return G.cached(("endpoint degree", device), lambda: mean_endpoint_degree(G, device, meanwhile))

    def id_span(self):
        """The graph's :func:`id_span`, drawn once (cached on the graph), read only
        by the CPU's rule for large graphs; 0.0 without a graph."""
        G = self.graph
        return 0.0 if G is None else G.cached(("id span",), lambda: id_span(G))


def statistics(G):
    """The :class:`Statistics` of the TriGraph ``G``, or of no graph when ``G`` is
    None: read from its attributes, without a launch or a copy (not kept on ``G``,
    which they refer to; the mean endpoint degree is)."""
    if G is None:
        return Statistics()
    return Statistics(int(G.src.size), G.n, G.directed, module_of(G.src) is not np, G)


def simple_graph(G, device, edges=None):
    """The simple undirected graph of ``G``'s edge rows on ``device`` (``edges``:
    the rows already moved there, if they were)."""

    def build():
        src, dst = G.edges_on(device) if edges is None else edges
        unique = G.unique_edges and not G.directed
        return preprocess.simple_graph(src, dst, G.n, unique=unique)

    return G.cached(("simple", device), build)


#: Endpoints of the edge rows :func:`mean_endpoint_degree` draws.
ENDPOINT_SAMPLES = 1024


def mean_endpoint_degree(G, device, meanwhile=None):
    """``sum(d**2) / sum(d)`` over the endpoint counts ``d`` of ``G``'s edge rows,
    estimated from :data:`ENDPOINT_SAMPLES` endpoints drawn from the rows.

    The degree of an edge's endpoint, averaged over the edges: on a graph of hubs
    most edges touch one, and the wedges through the hubs (the work of an
    intersection-based count) grow with it. A row's endpoint is a vertex drawn in
    proportion to its count, so the mean count of the drawn endpoints estimates
    it; the draw is a fixed hash of the row positions, so the estimate is the same
    on every call and device. Counted on the rows as given (a repeated row and a
    self-loop count at each end). 0.0 without edges.

    ``meanwhile``: a function of the edge rows on ``device``, called after the
    estimate is queued and before it is read: on the GPU the caller queues its
    next work there (the count's deduplication), and the estimate, one launch, is
    read without waiting for it.
    """
    src, dst = G.edges_on(device)
    if src.size == 0:
        return 0.0
    total = ops_for(src).sampled_degree_sum(src, dst, ENDPOINT_SAMPLES)
    try:
        if meanwhile is not None:
            meanwhile(src, dst)
    finally:
        # Read even when meanwhile fails: on the GPU the launch writes to pinned memory
        # that the reader keeps alive until it has run.
        value = total()
    return value / ENDPOINT_SAMPLES


#: Edge rows :func:`id_span` draws.
SPAN_SAMPLES = 4096


def id_span(G):
    """The median of ``|src - dst|`` over :data:`SPAN_SAMPLES` edge rows spread
    evenly over ``G``'s rows, as a share of its ``n`` ids: near 0 where the ids
    follow the graph (a grid numbered row by row: 0.001), about 0.3 where they
    are drawn at random. 0.0 without edges."""
    if G.src.size == 0:
        return 0.0
    xp = module_of(G.src)
    rows = xp.arange(SPAN_SAMPLES, dtype=np.int64) * G.src.size // SPAN_SAMPLES
    spans = xp.abs(G.src[rows].astype(np.int64) - G.dst[rows].astype(np.int64))
    return float(xp.median(spans)) / G.n


def oriented_csr(G, orientation, ordering, device, weight=None, *, pipeline="sorted"):
    """The oriented CSR of ``G``'s simple undirected graph.

    With ``weight``, its arcs carry ``cbrt(w / max_w)`` (:func:`normalised_weights`),
    the last row's value where an edge repeats. ``pipeline`` is the plan's
    (``Plan.pipeline``): ``"sorted"``, the sorting pipeline from the simple
    graph, or ``"hashed"``, one launch on the GPU (:func:`hashed_csr`), to the
    same arrays; a CSR already made by either is returned as it is.

    Returns
    -------
    Prepared

    Raises
    ------
    ValueError
        ``pipeline="hashed"`` with a ``weight``, or with ``device="cpu"``: that
        launch prepares unweighted graphs on the GPU only.
    """
    if pipeline == "hashed" and (weight is not None or device != "gpu"):
        raise ValueError(
            f"the hashed pipeline prepares unweighted graphs on the GPU; got weight={weight!r} "
            f"on the {device} (make_plan(weighted=True) plans the sorting pipeline)"
        )

    def build():
        if pipeline == "hashed":
            return hashed_csr(G, device).prepared
        simple = simple_graph(G, device) if weight is None else weighted_simple_graph(G, weight, device)
        return preprocess.prepare_simple(simple, orientation=orientation, ordering=ordering)

    return G.cached(("oriented", orientation, ordering, device, weight), build)


def csr_in_passes(G, orientation, ordering, memory_limit, device="gpu", built=None):
    """The oriented CSR of ``G``'s unweighted simple undirected graph, prepared on
    ``device`` (the current GPU) in passes within ``memory_limit`` bytes
    (:func:`~nx_tricount.preprocess.passes.prepare_in_passes`): the same arrays as
    :func:`oriented_csr`'s, cached as its. ``built``, if given, is called with the
    seconds the preparation took, when it runs (not on a cache hit).

    Returns
    -------
    Prepared
    """

    def build():
        return preprocess.prepare_in_passes(
            G.src,
            G.dst,
            G.n,
            orientation=orientation,
            ordering=ordering,
            memory_limit=memory_limit,
            device=device,
        )

    return G.cached(("oriented", orientation, ordering, device, None), _timed(build, built, device))


def replicated_csr(G, orientation, ordering, devices, built=None):
    """The oriented CSR of ``G``'s simple undirected graph, prepared by the GPUs
    ``devices`` together (:func:`~nx_tricount.preprocess.together.prepare_together`):
    the current GPU's copy, the others' in its ``derived[REPLICAS]`` by GPU id.
    ``built`` as :func:`csr_in_passes` calls it.

    Returns
    -------
    Prepared
    """

    def build():
        import cupy

        current = cupy.cuda.Device().id
        ordered = list(devices)
        ordered.remove(current)  # the plan made sure it is one of them
        ordered.insert(0, current)  # the current GPU leads: it holds the results
        copies = preprocess.prepare_together(
            G.src, G.dst, G.n, orientation=orientation, ordering=ordering, devices=ordered
        )
        home = copies[0]
        others = {}
        for device, prepared in zip(ordered[1:], copies[1:]):
            if device != current:
                others.setdefault(device, prepared)
        home.derived[preprocess.REPLICAS] = others
        return home

    return G.cached(("replicated", orientation, ordering, tuple(devices)), _timed(build, built, "gpu"))


def _timed(build, built, device):
    """``build``, calling ``built`` with its seconds after it when given (on the
    GPU once the work it queued has run)."""
    if built is None:
        return build

    def timed():
        started = time.perf_counter()
        result = build()
        if device == "gpu":
            import cupy

            cupy.cuda.get_current_stream().synchronize()
        built(time.perf_counter() - started)
        return result

    return timed


def hashed_csr(G, device, *, count_triangles=False):
    """``G``'s simple undirected graph, degree oriented on its own ids, prepared on
    the GPU in one launch (:func:`~nx_tricount.preprocess.hashed_csr.prepare_hashed`),
    with ``sum d (d - 1)`` and, with ``count_triangles``, the triangles merge counts
    on it (the plan's ``merge_total="fused"``).

    Returns
    -------
    HashedCSR
    """

    def build():
        return preprocess.prepare_hashed(*G.edges_on(device), G.n, count_triangles=count_triangles)

    return G.cached(("hashed", device, count_triangles), build)


def partitioned_graph(G, orientation, ordering, parts, scheme, memory_limit, device="gpu"):
    """``G``'s simple undirected graph, oriented and split into ``parts`` per side
    (vertex classes by ``scheme``) in host memory, prepared on ``device`` in
    chunks that fit ``memory_limit`` bytes
    (:func:`~nx_tricount.preprocess.streamed.prepare_streamed`).

    Returns
    -------
    PartitionedGraph
    """

    def build():
        src, dst = G.edges_on("cpu")
        limit = memory_limit or 1 << 34
        chunk_rows = int(min(1 << 27, max(1 << 20, limit // CHUNK_BYTES_PER_ROW)))
        # The keys and parts (8 bytes a row, at most) stay on the GPU when they
        # take at most a quarter of the limit, leaving the rest to a chunk or a task.
        keep = 8 * int(src.size) <= limit // 4
        return preprocess.prepare_streamed(
            src,
            dst,
            G.n,
            orientation=orientation,
            ordering=ordering,
            parts=parts,
            scheme=scheme,
            chunk_rows=chunk_rows,
            device=device,
            keep=keep,
        )

    return G.cached(("partitioned", orientation, ordering, parts, scheme, device), build)


def successor_csr(G, device):
    """The successor CSR of ``G``'s simple directed graph (the arcs as given)."""

    def build():
        src, dst = G.edges_on(device)
        return preprocess.prepare_arcs(src, dst, G.n)

    return G.cached(("arcs", device), build)


def directed_pairs_csr(G, orientation, ordering, device, weight=None):
    """The arcs of the directed ``G`` merged into undirected pairs with values
    ``b`` (see the module docstring), oriented and ordered.

    Returns
    -------
    DirectedPairs
    """

    def build():
        src, dst = G.edges_on(device)
        if weight is None:
            values, max_weight = None, 1.0
        else:
            values, max_weight = normalised_weights(G, weight, device)
        pairs = preprocess.directed_pairs(src, dst, G.n, values)
        simple = preprocess.simple_graph(pairs.lo, pairs.hi, G.n, values=pairs.b, unique=True)
        prepared = preprocess.prepare_simple(simple, orientation=orientation, ordering=ordering)
        if weight is None:
            from ..algorithms.wedge import SMALL_VALUES  # numba loads with the first count

            prepared.derived[SMALL_VALUES] = True  # each pair's arcs: 1 or 2
        return DirectedPairs(prepared, pairs.total_degree, pairs.reciprocal_degree, max_weight)

    return G.cached(("pairs", orientation, ordering, device, weight), build)


def directions_csr(G, orientation, ordering, device):
    """The arcs of the directed ``G`` merged into undirected pairs, oriented and
    ordered, each arc's value the directions its pair has in ``G``: bit 0 along
    the oriented arc, bit 1 against it (directed transitivity's transitive
    triples, :mod:`~nx_tricount.algorithms.transitive`).

    Returns
    -------
    Prepared
    """

    def build():
        src, dst = G.edges_on(device)
        pairs = preprocess.pair_directions(src, dst, G.n)
        simple = preprocess.simple_graph(pairs.lo, pairs.hi, G.n, values=pairs.b, unique=True)
        prepared = preprocess.prepare_simple(simple, orientation=orientation, ordering=ordering)
        arc_src, arc_dst = prepared.arcs_original()
        return replace(prepared, values=preprocess.oriented_directions(prepared.values, arc_src, arc_dst))

    return G.cached(("directions", orientation, ordering, device), build)
