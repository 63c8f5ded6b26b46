"""NetworkX's other triangle functions, with NetworkX 3.6's semantics:
``square_clustering``, ``generalized_degree``, ``all_triangles`` and ``k_truss``
(argument rules, errors, result shapes; the triangles also as a frame for
direct calls). The quantities are counted by :mod:`nx_tricount.quantities.family`.
"""

from collections import Counter

import networkx as nx
import numpy as np

from ..quantities import family
from ..io.convert import from_networkx, to_networkx
from ..gpu.device import module_of, to_host
from .dispatch import networkx_function
from ..classes.graph import TriGraph
from .node_selection import coefficient_values, per_node_result, select
from ..planning.plan import make_plan
from ..io.results import build_frame, frame_module, labels_of

__all__ = ["square_clustering", "generalized_degree", "all_triangles", "k_truss"]

_MULTIGRAPH = "not implemented for multigraph type"
_DIRECTED = "not implemented for directed type"
_SELF_LOOPS = (
    "Input graph has self loops which is not permitted; "
    "Consider using G.remove_edges_from(nx.selfloop_edges(G))."
)


def _trigraph(G, preserve=False):
    """A TriGraph as it is; a NetworkX graph converted (with every attribute
    when ``preserve``)."""
    if isinstance(G, TriGraph):
        return G
    if isinstance(G, nx.Graph):
        return from_networkx(
            G, preserve_edge_attrs=preserve, preserve_node_attrs=preserve, preserve_graph_attrs=preserve
        )
    raise TypeError(f"expected a TriGraph or a NetworkX graph, got {type(G).__name__}")


def _plan(G, algorithm, orientation, ordering, device):
    return make_plan(G, algorithm=algorithm, orientation=orientation, ordering=ordering, device=device)


@networkx_function
def square_clustering(G, nodes=None, *, algorithm=None, orientation=None, ordering=None, device=None):
    """Squares clustering coefficient of each node (NetworkX's ``square_clustering``).

    ``squares / potential`` with NetworkX's 2-hop terms: on neighbour lists, or
    on successor lists for a directed graph (as NetworkX reads ``G._adj``);
    self-loops and parallel edges do not count. Exact: the counts are 64-bit
    integers and the division is rounded as Python's. Memory is one row of
    counters per vertex counted at once, whatever the degrees.

    Parameters
    ----------
    G : TriGraph or networkx.Graph
        Any of the four classes.
    nodes : node, container of nodes, or None
        A single node gives a number; a container a dict over its members in G.
    algorithm, orientation, ordering, device : str, optional
        Override ``nx.config.backends.tricount`` for this call (only the device
        and ordering matter: every neighbourhood is walked whole).

    Returns
    -------
    dict or float
        Coefficients keyed by node; the int 0 where a node has fewer than two
        neighbours or no potential square.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.square_clustering(nx.complete_graph(4), backend="tricount")
    {0: 1.0, 1: 1.0, 2: 1.0, 3: 1.0}
    """
    G = _trigraph(G)
    selection = select(G, nodes)
    if selection is not None and selection.error is not None:
        raise selection.error
    plan = _plan(G, algorithm, orientation, ordering, device)
    ids = None if selection is None else selection.ids
    ratio, defined = family.square_coefficients(G, plan, ids)
    return per_node_result(G, selection, coefficient_values(ratio, defined))


@networkx_function
def generalized_degree(G, nodes=None, *, algorithm=None, orientation=None, ordering=None, device=None):
    """Generalized degree of each node (NetworkX's ``generalized_degree``): how
    many of its edges are on each number of triangles.

    Parameters
    ----------
    G : TriGraph or networkx.Graph
        Undirected, not a multigraph; self-loops are ignored.
    nodes : node, container of nodes, or None
    algorithm, orientation, ordering, device : str, optional
        Override ``nx.config.backends.tricount`` for this call.

    Returns
    -------
    dict of Counter, or Counter
        ``{triangles on the edge: edges}`` keyed by node (no zero entries; an
        empty Counter for a node without edges); a Counter for a single node.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.generalized_degree(nx.complete_graph(4), 0, backend="tricount")
    Counter({2: 3})
    """
    G = _trigraph(G)
    if G.directed:
        raise nx.NetworkXNotImplemented(_DIRECTED)
    if G.multigraph:
        raise nx.NetworkXNotImplemented(_MULTIGRAPH)
    selection = select(G, nodes)
    if selection is not None and selection.error is not None:
        raise selection.error
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
    """Every triangle once, as a generator of node triples (NetworkX's ``all_triangles``).

    The triangles are listed in batches (the first one small), so memory stays
    bounded and the first triple comes after one per-edge count. Each triple
    holds its nodes as NetworkX yields them, in its internal order: G's order;
    with ``nbunch``, its members first, in its order (the first node is the
    member as ``nbunch`` gives it), then their other neighbours, each at its
    last place in the members' neighbour dicts read one after another: those
    of the NetworkX graph (given, or converted by NetworkX's dispatcher), else
    those a TriGraph's rows build (``to_networkx``). The order of the triples
    is the engine's: NetworkX's own follows its set iteration.
    ``all_triangles(G, as_frame=True)`` gives them all at once as a frame.

    Parameters
    ----------
    G : TriGraph or networkx.Graph
        Undirected; multigraph edges count once and self-loops are ignored.
    nbunch : node, container of nodes, or None
        Only triangles with a node of ``nbunch`` (which is read, and checked as
        NetworkX does, at the first triple asked for).
    algorithm, orientation, ordering, device : str, optional
        Override ``nx.config.backends.tricount`` for this call.
    as_frame : bool
        Return a frame of columns ``u``, ``v``, ``w`` (G's node objects, one
        triangle per row) instead of a generator: pandas, or cuDF when G's edges
        are on the GPU and cuDF is installed. Direct calls only.

    Yields
    ------
    tuple
        Three nodes forming a triangle.

    Examples
    --------
    >>> import networkx as nx
    >>> sorted(nx.all_triangles(nx.complete_graph(4), backend="tricount"))
    [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]
    """
    T = _trigraph(G)
    if T.directed:
        raise nx.NetworkXNotImplemented(_DIRECTED)
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
    selection = select(G, nbunch)
    if selection.error is not None:
        raise selection.error
    keys, ids = selection.distinct()
    ids = np.asarray(ids, dtype=np.int64)
    rank, members = family.listing_rank(G, ids, adjacency)
    firsts = np.fromiter(G.label_list(), dtype=object, count=G.n)
    firsts[ids] = np.fromiter(keys, dtype=object, count=ids.size)
    return rank, members, lambda found: firsts[found].tolist()


def _triangle_frame(G, nbunch, adjacency, plan):
    """The triangles of :func:`all_triangles` as one frame (``result_frames``' rule)."""
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


@networkx_function
def k_truss(G, k, *, algorithm=None, orientation=None, ordering=None, device=None):
    """The k-truss of G (NetworkX's ``k_truss``): the largest subgraph whose
    every edge is on at least ``k - 2`` of its triangles, without the nodes left
    without edges.

    Each edge's triangles are counted once (the per-edge count); peeling an edge
    then lowers the counts of the edges that shared a triangle with it, rather
    than recounting.

    Parameters
    ----------
    G : TriGraph or networkx.Graph
        Undirected, not a multigraph, without self-loops.
    k : number
        The order of the truss (``k <= 2`` only drops the nodes without edges).
    algorithm, orientation, ordering, device : str, optional
        Override ``nx.config.backends.tricount`` for this call.

    Returns
    -------
    TriGraph, or a graph of G's class for a NetworkX graph
        A new graph with the node, edge and graph attributes of G. Through
        NetworkX (``nx.k_truss``, automatic dispatch or ``backend="tricount"``)
        a NetworkX graph gives a graph of its class too.

    Raises
    ------
    NetworkXNotImplemented
        G is directed, a multigraph, or has self-loops (as in NetworkX).

    Examples
    --------
    >>> import networkx as nx
    >>> import nx_tricount
    >>> G = nx.complete_graph(4)
    >>> G.add_edge(3, 4)
    >>> sorted(nx_tricount.k_truss(G, 4))
    [0, 1, 2, 3]
    """
    T = _trigraph(G, preserve=True)
    if T.directed:
        raise nx.NetworkXNotImplemented(_DIRECTED)
    if T.multigraph:
        raise nx.NetworkXNotImplemented(_MULTIGRAPH)
    if bool((T.src == T.dst).any()):
        raise nx.NetworkXNotImplemented(_SELF_LOOPS)
    H = family.k_truss(T, _plan(T, algorithm, orientation, ordering, device), k)
    # A NetworkX graph, given here or converted by NetworkX's dispatcher, gets its class back.
    networkx_class = type(G) if isinstance(G, nx.Graph) else T.networkx_class
    return H if networkx_class is None else to_networkx(H, into=networkx_class())
