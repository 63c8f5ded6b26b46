"""NetworkX's ``networkx/algorithms/cluster.py`` functions, with NetworkX 3.6's
exact semantics (argument rules, errors, result shapes: a dict in G's node
order, or a value for a single node; Python ``int``/``float`` only; zero
coefficients as the int ``0``): ``triangles``, ``clustering``,
``average_clustering``, ``transitivity``, ``square_clustering``,
``generalized_degree`` and ``all_triangles``.

Their documentation is NetworkX's docstring followed by the backend's note
(:mod:`nx_tricount.metadata.functions`), attached by :func:`networkx_function`;
the docstrings here say how each is computed. The quantities come from
:mod:`nx_tricount.quantities.per_vertex` and :mod:`nx_tricount.quantities.family`.
"""

import logging
from collections import Counter

import networkx as nx
import numpy as np

from ..gpu.device import module_of, to_host
from ..io.convert import to_networkx
from ..io.results import build_frame, frame_module, labels_of, node_frame
from ..planning.plan import make_plan
from ..quantities import family, per_vertex
from .arguments import as_trigraph, refuse
from .dispatch import networkx_function
from .node_selection import node_mean, per_node_values, select

__all__ = [
    "triangles",
    "clustering",
    "average_clustering",
    "transitivity",
    "square_clustering",
    "generalized_degree",
    "all_triangles",
]

logger = logging.getLogger("nx_tricount")


def _weights(weight):
    """The conversion keywords that keep the edge attribute ``weight`` (default 1)."""
    return {"edge_attrs": None if weight is None else {weight: 1}}


def _plan(G, algorithm, orientation, ordering, device):
    return make_plan(G, algorithm=algorithm, orientation=orientation, ordering=ordering, device=device)


def _clustering_plan(G, weight, settings):
    """The plan of a clustering count: weighted and directed ones sum arc values
    (directed: its arc pairs', without weights the pair counts 1 or 2)."""
    small_values = G.directed and weight is None  # each pair's arcs, 1 or 2
    return make_plan(G, weighted=weight is not None or G.directed, small_values=small_values, **settings)


def _selected(G, nodes):
    """:func:`~nx_tricount.nxapi.node_selection.select`, raising its error at once
    (for functions that compute nothing before NetworkX would raise it)."""
    selection = select(G, nodes)
    if selection is not None and selection.error is not None:
        raise selection.error
    return selection


def _compare_neighbours(G):
    """Raise what NetworkX's ``triangles`` of the whole graph raises comparing
    neighbours. It compares each edge's later end with its earlier one
    (``n != node``), and NumPy refuses some such pairs (2.x: ``np.True_ != 2**63``
    raises OverflowError): a NumPy scalar beside a Python int beyond int64. Only
    labels that mix the two kinds (``G.label_types()``; arrays of labels hold no
    Python ints) make the comparisons, each edge between the kinds once, in the
    rows' order."""
    kinds = G.label_types()
    if int not in kinds or not any(issubclass(kind, np.generic) for kind in kinds):
        return
    labels = G.labels
    scalar = np.fromiter((isinstance(x, np.generic) for x in labels), dtype=bool, count=len(labels))
    huge = np.fromiter((type(x) is int and not -(2**63) <= x < 2**63 for x in labels), bool, len(labels))
    src, dst = to_host(G.src), to_host(G.dst)
    mixed = (scalar[src] & huge[dst]) | (huge[src] & scalar[dst])
    for a, b in zip(src[mixed].tolist(), dst[mixed].tolist()):
        _ = labels[max(a, b)] != labels[min(a, b)]  # ids follow G's node order


@networkx_function
def triangles(G, nodes=None, *, algorithm=None, orientation=None, ordering=None, device=None, as_frame=False):
    """Every node's count (:func:`~nx_tricount.quantities.per_vertex.triangles_per_node`),
    shaped for ``nodes``."""
    G = as_trigraph(G, ("directed",))
    if nodes is not None:
        refuse(G, "multigraph")
    else:
        _compare_neighbours(G)
    selection = _selected(G, nodes)
    per_node = per_vertex.triangles_per_node(G, _plan(G, algorithm, orientation, ordering, device))
    if as_frame:
        return node_frame(G, selection, per_node, "triangles")
    counts = to_host(per_node)
    return per_node_values(G, selection, counts, counts != 0)


@networkx_function
def clustering(
    G,
    nodes=None,
    weight=None,
    *,
    algorithm=None,
    orientation=None,
    ordering=None,
    device=None,
    as_frame=False,
):
    """The coefficients of the selected nodes
    (:func:`~nx_tricount.quantities.per_vertex.clustering_coefficients`): unweighted,
    weighted, directed (Fagiolo) and directed weighted; weights that are not all
    numbers go to NetworkX's own ``clustering``."""
    G = as_trigraph(G, ("multigraph",), **_weights(weight))
    if weight is not None and isinstance(G.edge_data.get(weight), list):
        # Weights that are not numbers (str, None, Decimal, Fraction, complex...):
        # whether they work, and what comes out, is NetworkX's Python arithmetic.
        if as_frame:
            raise TypeError(f"as_frame=True needs numeric weights; {weight!r} holds other objects")
        logger.info("tricount: weights %r are not all numbers; NetworkX's clustering runs", weight)
        return nx.clustering(to_networkx(G), nodes, weight, backend="networkx")
    selection = select(G, nodes)
    plan = _clustering_plan(
        G, weight, dict(algorithm=algorithm, orientation=orientation, ordering=ordering, device=device)
    )
    considered = slice(None) if selection is None else selection.ids
    ratio, nonzero = per_vertex.clustering_coefficients(G, plan, weight, considered)
    if selection is not None and selection.error is not None:
        raise selection.error  # after the nodes before it, as NetworkX goes node by node
    if as_frame:
        return node_frame(G, selection, ratio, "clustering")
    return per_node_values(G, selection, to_host(ratio), to_host(nonzero))


@networkx_function
def average_clustering(
    G,
    nodes=None,
    weight=None,
    count_zeros=True,
    *,
    algorithm=None,
    orientation=None,
    ordering=None,
    device=None,
):
    """The mean of the coefficients: of the array of every node's
    (:func:`~nx_tricount.nxapi.node_selection.node_mean`), else of ``clustering``'s
    dict, as NetworkX."""
    settings = dict(algorithm=algorithm, orientation=orientation, ordering=ordering, device=device)
    G = as_trigraph(G, ("multigraph",), **_weights(weight))
    if nodes is None and not isinstance(G.edge_data.get(weight), list):
        plan = _clustering_plan(G, weight, settings)
        ratio, nonzero = per_vertex.clustering_coefficients(G, plan, weight, slice(None))
        if count_zeros:
            return node_mean(per_vertex.mean_terms(ratio, nonzero), True, size=ratio.size)
        return node_mean(to_host(ratio), False)
    c = clustering.implementation(G, nodes, weight, **settings).values()
    c = c if count_zeros else [v for v in c if abs(v) > 0]
    return sum(c) / len(c)  # Python's sum in NetworkX's order, as NetworkX


@networkx_function
def transitivity(G, *, algorithm=None, orientation=None, ordering=None, device=None):
    """``3 * triangles / triads`` from the plan's totals
    (:func:`~nx_tricount.quantities.per_vertex.transitivity_sums`); a directed
    graph's transitive triples ``v->w, v->u, w->u`` over ordered successor pairs
    (with merge and wedge once per triangle of the arc pairs, with the other
    algorithms per arc of the successor lists)."""
    G = as_trigraph(G, ("multigraph",))
    if G.n == 0:
        return 0
    plan = make_plan(
        G, algorithm=algorithm, orientation=orientation, ordering=ordering, device=device, total=True
    )
    closed, triads = per_vertex.transitivity_sums(G, plan)
    return 0 if closed == 0 else closed / triads


@networkx_function
def square_clustering(G, nodes=None, *, algorithm=None, orientation=None, ordering=None, device=None):
    """``squares / potential`` (:func:`~nx_tricount.quantities.family.square_coefficients`)
    with NetworkX's 2-hop terms: on neighbour lists, or on successor lists for a
    directed graph (as NetworkX reads ``G._adj``); self-loops and parallel edges
    do not count."""
    G = as_trigraph(G)
    selection = _selected(G, nodes)
    ids = None if selection is None else selection.ids
    ratio, defined = family.square_coefficients(G, _plan(G, algorithm, orientation, ordering, device), ids)
    return per_node_values(G, selection, ratio, defined)


@networkx_function
def generalized_degree(G, nodes=None, *, algorithm=None, orientation=None, ordering=None, device=None):
    """Counters of ``{triangles on an edge: edges}`` from the per-edge counts
    (:func:`~nx_tricount.quantities.family.triangle_multiplicities`); no zero
    entries, an empty Counter for a node without edges."""
    G = as_trigraph(G, ("directed", "multigraph"))
    selection = _selected(G, nodes)
    plan = _plan(G, algorithm, orientation, ordering, device)
    vertex, multiplicity, edges = family.triangle_multiplicities(G, plan)
    bounds = np.searchsorted(vertex, np.arange(G.n + 1)).tolist()
    multiplicity, edges = multiplicity.tolist(), edges.tolist()

    def degree(i):
        lo, hi = bounds[i], bounds[i + 1]
        return Counter(dict(zip(multiplicity[lo:hi], edges[lo:hi])))

    if selection is None:
        return {label: degree(i) for i, label in enumerate(G.label_list())}
    if selection.single:
        return degree(selection.ids[0])
    return {key: degree(i) for key, i in zip(selection.keys, selection.ids)}


@networkx_function
def all_triangles(
    G, nbunch=None, *, algorithm=None, orientation=None, ordering=None, device=None, as_frame=False
):
    """A generator of the triangles, listed in batches
    (:func:`~nx_tricount.quantities.family.triangle_batches`), or one frame.

    Each triple holds its nodes as NetworkX yields them: G's order; with
    ``nbunch``, its members first, in its order (the first node is the member as
    ``nbunch`` gives it), then their other neighbours, each at its last place in
    the members' neighbour dicts read one after another: those of the NetworkX
    graph (given, or converted by NetworkX's dispatcher), else those a TriGraph's
    rows build (``to_networkx``). ``nbunch`` is read, and checked as NetworkX
    does, at the first triple asked for.
    """
    T = as_trigraph(G, ("directed",))
    adjacency = G._adj if isinstance(G, nx.Graph) else T.networkx_adjacency
    plan = _plan(T, algorithm, orientation, ordering, device)
    if as_frame:
        return _triangle_frame(T, nbunch, adjacency, plan)
    return _triangles(T, nbunch, adjacency, plan)


def _triangles(G, nbunch, adjacency, plan):
    rank, members, firsts = _node_order(G, nbunch, adjacency)
    names = _names(G)
    first_names = firsts or names
    for batch in family.triangle_batches(G, plan, rank, members):
        u, v, w = to_host(batch)
        yield from zip(first_names(u), names(v), names(w))


def _node_order(G, nbunch, adjacency):
    """``(rank, members, firsts)``: NetworkX's ``node_to_id`` (G's order, or
    :func:`~nx_tricount.quantities.family.listing_rank` of ``nbunch``'s distinct
    members), the members (None for all nodes), and for a ``nbunch`` the objects
    to name each triple's first node with (a member's object from ``nbunch``)."""
    if nbunch is None:
        return np.arange(G.n, dtype=np.int64), None, None
    keys, ids = _selected(G, nbunch).distinct()
    ids = np.asarray(ids, dtype=np.int64)
    rank, members = family.listing_rank(G, ids, adjacency)
    firsts = np.fromiter(G.label_list(), dtype=object, count=G.n)
    firsts[ids] = np.fromiter(keys, dtype=object, count=ids.size)
    return rank, members, lambda found: firsts[found].tolist()


def _triangle_frame(G, nbunch, adjacency, plan):
    """The triangles of :func:`all_triangles` as one frame (``io.results``' rule)."""
    rank, members, _ = _node_order(G, nbunch, adjacency)
    batches = list(family.triangle_batches(G, plan, rank, members))
    xp = module_of(batches[0]) if batches else np
    found = xp.concatenate(batches, axis=1) if batches else np.zeros((3, 0), dtype=np.int64)
    module = frame_module(G)
    return build_frame(module, dict(zip("uvw", labels_of(G, module, list(found)))))


def _names(G):
    """Ids (a NumPy array) -> a list of their nodes."""
    if G.labels is None:
        return np.ndarray.tolist
    table = np.fromiter(G.label_list(), dtype=object, count=G.n)
    return lambda found: table[found].tolist()
