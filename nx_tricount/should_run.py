"""When NetworkX itself answers faster than the backend: the ``should_run``
rules of the registered functions. NetworkX's automatic dispatch (a backend
priority, or ``NX_TRICOUNT_AUTOCONFIG``) asks them before converting a graph;
a string is the reason NetworkX runs the call instead, shown by dispatch
logging. An explicit ``backend="tricount"`` does not ask them.
"""

from collections.abc import Collection

import networkx as nx

from .config import check_environment

__all__ = [
    "single_node_is_cheaper",
    "few_nodes_are_cheaper",
    "few_nodes_squares_are_cheaper",
    "tiny_graph_is_cheaper",
    "tiny_graph_squares_are_cheaper",
    "tiny_listing_is_cheaper",
    "tiny_truss_is_cheaper",
    "TINY_EDGES",
    "TINY_LISTING_EDGES",
    "WORK_VISITS",
]

#: NetworkX graphs of fewer edges count their triangles, square clustering,
#: generalized degrees and k-truss faster in NetworkX than through a conversion and
#: the CPU engine (karate club, 78 edges, triangles: 0.067 against 0.145 ms;
#: Les Misérables, 254 edges: 0.222 against 0.132 ms; docs/benchmarks.md, "Small graphs").
TINY_EDGES = 150
#: ``all_triangles``: NetworkX's generator lists graphs of fewer edges faster
#: (G(100, 0.06), 296 edges: 0.115 against 0.181 ms; G(150, 0.05), 484 edges: 0.229
#: against 0.212 ms; docs/benchmarks.md, "Small graphs").
TINY_LISTING_EDGES = 400


def single_node_is_cheaper(args, kwargs):
    """Decline automatic conversion for one node of a NetworkX graph: NetworkX
    answers one node faster than the backend converts the whole graph."""
    if len(args) > 1:
        G, nodes = args[0], args[1]
        if nodes is not None and isinstance(G, nx.Graph) and nodes in G:
            return "a single node: NetworkX answers faster than a conversion"
    return True


#: Neighbour visits a ``should_run`` rule spends estimating NetworkX's work on a
#: container of nodes before it leaves the call to the backend (a few milliseconds).
WORK_VISITS = 20_000


def _edges_exceed(G, bound):
    """Whether ``G`` has more than ``bound`` edges, reading adjacency sizes only
    until it knows (``G.number_of_edges()`` walks every node)."""
    # An undirected edge is in two adjacency dicts (a self-loop in one); an arc in one.
    per_edge = 1 if G.is_directed() else 2
    seen = 0
    for neighbours in G._adj.values():
        seen += len(neighbours)
        if seen > per_edge * bound:
            return True
    return G.number_of_edges() > bound


def _networkx_work(G, nodes, squares):
    """NetworkX's work on the members of ``nodes`` that are nodes of ``G``: for
    each node ``v``, the neighbour sets it builds (its own and each neighbour's,
    ``deg v + sum deg w``); for square clustering, that sum once per neighbour
    (its pairs of neighbours). None once the estimate takes :data:`WORK_VISITS`."""
    succ = G._adj
    pred = G._pred if G.is_directed() else None
    work = visits = 0
    for v in nodes:
        if v not in G:  # NetworkX skips them; unhashable members are never nodes
            continue
        around = list(succ[v]) if pred is None else [*succ[v], *pred[v]]
        visits += 1 + len(around)
        if visits > WORK_VISITS:
            return None
        reach = sum(len(succ[w]) for w in around)
        if pred is not None:
            reach += sum(len(pred[w]) for w in around)
        work += len(around) * (1 + reach) if squares else len(around) + reach
    return work


def _few_nodes(args, kwargs, squares):
    """The reason to decline NetworkX's answer for a container of nodes whose
    work (:func:`_networkx_work`) is below the graph's edge count, or None."""
    G = args[0] if args else kwargs.get("G")
    nodes = args[1] if len(args) > 1 else kwargs.get("nodes")
    # Iterators are left alone: reading them here would consume them.
    if not isinstance(G, nx.Graph) or not isinstance(nodes, Collection) or isinstance(nodes, str):
        return None
    try:
        work = _networkx_work(G, nodes, squares)
    except TypeError:  # not iterable after all (a 0-d array): the backend raises NetworkX's error
        return None
    if work is not None and _edges_exceed(G, work):
        return (
            f"{len(nodes)} nodes whose neighbourhoods NetworkX reads in about {work:,} steps, "
            "fewer than the graph's edges, which a conversion reads"
        )
    return None


def _single_or_few_nodes(args, kwargs, squares):
    single = single_node_is_cheaper(args, kwargs)
    return single if single is not True else _few_nodes(args, kwargs, squares) or True


def few_nodes_are_cheaper(args, kwargs):
    """:func:`single_node_is_cheaper`, and decline a container of nodes of a
    NetworkX graph on which NetworkX's work is below the graph's edge count (a
    conversion's work): triangles and clustering of a few nodes."""
    return _single_or_few_nodes(args, kwargs, squares=False)


def few_nodes_squares_are_cheaper(args, kwargs):
    """:func:`few_nodes_are_cheaper` for square clustering, whose work per node
    grows with its pairs of neighbours."""
    return _single_or_few_nodes(args, kwargs, squares=True)


def _fewer_edges(args, kwargs, limit):
    """The reason to decline a NetworkX graph of fewer than ``limit`` edges, or None.
    A rejected ``NX_TRICOUNT_<KEY>`` variable is raised first, as the backend's
    first call would."""
    check_environment(nx.config.backends.tricount)
    G = args[0] if args else kwargs.get("G")
    if isinstance(G, nx.Graph) and not _edges_exceed(G, limit - 1):
        return f"{G.number_of_edges()} edges (< {limit}): NetworkX answers faster than a conversion"
    return None


def tiny_graph_is_cheaper(args, kwargs):
    """:func:`few_nodes_are_cheaper`, and decline a NetworkX graph of fewer than
    :data:`TINY_EDGES` edges."""
    return _fewer_edges(args, kwargs, TINY_EDGES) or few_nodes_are_cheaper(args, kwargs)


def tiny_graph_squares_are_cheaper(args, kwargs):
    """:func:`few_nodes_squares_are_cheaper`, and decline a NetworkX graph of
    fewer than :data:`TINY_EDGES` edges (square clustering)."""
    return _fewer_edges(args, kwargs, TINY_EDGES) or few_nodes_squares_are_cheaper(args, kwargs)


def tiny_listing_is_cheaper(args, kwargs):
    """:func:`single_node_is_cheaper`, and decline a NetworkX graph of fewer than
    :data:`TINY_LISTING_EDGES` edges (``all_triangles``)."""
    return _fewer_edges(args, kwargs, TINY_LISTING_EDGES) or single_node_is_cheaper(args, kwargs)


def tiny_truss_is_cheaper(args, kwargs):
    """Decline a NetworkX graph of fewer than :data:`TINY_EDGES` edges (``k_truss``,
    whose second argument is ``k``, not nodes)."""
    return _fewer_edges(args, kwargs, TINY_EDGES) or True
