"""When NetworkX itself answers faster than the backend: the ``should_run``
rules of the registered functions. NetworkX's automatic dispatch (a backend
priority, or ``NX_TRICOUNT_AUTOCONFIG``) asks them before converting a graph;
a string is the reason NetworkX runs the call instead, shown by dispatch
logging. An explicit ``backend="tricount"`` does not ask them.
"""

import networkx as nx

from .config import check_environment

__all__ = [
    "single_node_is_cheaper",
    "tiny_graph_is_cheaper",
    "tiny_listing_is_cheaper",
    "tiny_truss_is_cheaper",
    "TINY_EDGES",
    "TINY_LISTING_EDGES",
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


def _fewer_edges(args, kwargs, limit):
    """The reason to decline a NetworkX graph of fewer than ``limit`` edges, or None.
    A rejected ``NX_TRICOUNT_<KEY>`` variable is raised first, as the backend's
    first call would."""
    check_environment(nx.config.backends.tricount)
    G = args[0] if args else kwargs.get("G")
    if isinstance(G, nx.Graph) and G.number_of_edges() < limit:
        return f"{G.number_of_edges()} edges (< {limit}): NetworkX answers faster than a conversion"
    return None


def tiny_graph_is_cheaper(args, kwargs):
    """:func:`single_node_is_cheaper`, and decline a NetworkX graph of fewer than
    :data:`TINY_EDGES` edges."""
    return _fewer_edges(args, kwargs, TINY_EDGES) or single_node_is_cheaper(args, kwargs)


def tiny_listing_is_cheaper(args, kwargs):
    """:func:`single_node_is_cheaper`, and decline a NetworkX graph of fewer than
    :data:`TINY_LISTING_EDGES` edges (``all_triangles``)."""
    return _fewer_edges(args, kwargs, TINY_LISTING_EDGES) or single_node_is_cheaper(args, kwargs)


def tiny_truss_is_cheaper(args, kwargs):
    """Decline a NetworkX graph of fewer than :data:`TINY_EDGES` edges (``k_truss``,
    whose second argument is ``k``, not nodes)."""
    return _fewer_edges(args, kwargs, TINY_EDGES) or True
