"""When NetworkX itself answers faster than the backend: the ``should_run``
rules of the registered functions. NetworkX's automatic dispatch (a backend
priority, or ``NX_TRICOUNT_AUTOCONFIG``) asks them before converting a graph;
a string is the reason NetworkX runs the call instead, shown by dispatch
logging. An explicit ``backend="tricount"`` does not ask them.
"""

import networkx as nx

from .config import check_environment

__all__ = ["single_node_is_cheaper", "tiny_graph_is_cheaper", "TINY_EDGES"]

#: NetworkX graphs of fewer edges count their triangles faster in NetworkX than
#: through a conversion and the CPU engine (karate club, 78 edges: 0.067 against
#: 0.145 ms; Les Misérables, 254 edges: 0.222 against 0.132 ms;
#: docs/benchmarks.md, "Small graphs").
TINY_EDGES = 150


def single_node_is_cheaper(args, kwargs):
    """Decline automatic conversion for one node of a NetworkX graph: NetworkX
    answers one node faster than the backend converts the whole graph."""
    if len(args) > 1:
        G, nodes = args[0], args[1]
        if nodes is not None and isinstance(G, nx.Graph) and nodes in G:
            return "a single node: NetworkX answers faster than a conversion"
    return True


def tiny_graph_is_cheaper(args, kwargs):
    """:func:`single_node_is_cheaper`, and decline the triangles of a NetworkX
    graph of fewer than :data:`TINY_EDGES` edges. A rejected ``NX_TRICOUNT_<KEY>``
    variable is raised first, as the backend's first call would."""
    check_environment(nx.config.backends.tricount)
    G = args[0] if args else kwargs.get("G")
    if isinstance(G, nx.Graph) and G.number_of_edges() < TINY_EDGES:
        return f"{G.number_of_edges()} edges (< {TINY_EDGES}): NetworkX counts them faster than a conversion"
    return single_node_is_cheaper(args, kwargs)
