"""NetworkX's ``networkx/algorithms/core.py`` function ``k_truss``, with
NetworkX 3.6's semantics (errors, the nodes and attributes kept, the graph's
class). Its documentation is NetworkX's docstring followed by the backend's
note (:mod:`nx_tricount.metadata.functions`); the peeling is
:func:`nx_tricount.quantities.family.k_truss`.
"""

import networkx as nx

from ..io.convert import to_networkx
from ..planning.plan import make_plan
from ..quantities import family
from .arguments import as_trigraph
from .dispatch import networkx_function

__all__ = ["k_truss"]

_SELF_LOOPS = (
    "Input graph has self loops which is not permitted; "
    "Consider using G.remove_edges_from(nx.selfloop_edges(G))."
)


@networkx_function
def k_truss(G, k, *, algorithm=None, orientation=None, ordering=None, device=None):
    """The largest subgraph whose every edge is on at least ``k - 2`` of its
    triangles, without the nodes left without edges: each edge's triangles
    counted once, then peeled. A NetworkX graph, given here or converted by
    NetworkX's dispatcher, gets a graph of its class back; a TriGraph a TriGraph."""
    # NetworkX's decorators check multigraph before directed.
    T = as_trigraph(
        G,
        ("multigraph", "directed"),
        preserve_edge_attrs=True,
        preserve_node_attrs=True,
        preserve_graph_attrs=True,
    )
    if bool((T.src == T.dst).any()):
        raise nx.NetworkXNotImplemented(_SELF_LOOPS)
    plan = make_plan(T, algorithm=algorithm, orientation=orientation, ordering=ordering, device=device)
    H = family.k_truss(T, plan, k)
    networkx_class = type(G) if isinstance(G, nx.Graph) else T.networkx_class
    return H if networkx_class is None else to_networkx(H, into=networkx_class())
