"""``BackendInterface``: what NetworkX's dispatcher loads for ``backend="tricount"``.

NetworkX passes positional-or-keyword parameters positionally with defaults
filled, so the functions keep NetworkX's parameter order and the backend's own
settings are keyword-only.
"""

import networkx as nx

from . import cluster, frames
from .convert import from_networkx, to_networkx
from .graph import TriGraph

__all__ = ["BackendInterface"]

#: Functions whose NetworkX version is cheap for one node: converting the whole
#: graph to answer for a single node is not worth it when dispatch is automatic.
_SINGLE_NODE_CHEAP = {"triangles", "clustering"}


class BackendInterface:
    """NetworkX backend interface of ``tricount``."""

    triangles = staticmethod(cluster.triangles)
    clustering = staticmethod(cluster.clustering)
    average_clustering = staticmethod(cluster.average_clustering)
    transitivity = staticmethod(cluster.transitivity)
    from_pandas_edgelist = staticmethod(frames.from_pandas_edgelist)

    @staticmethod
    def convert_from_nx(
        graph,
        edge_attrs=None,
        node_attrs=None,
        preserve_edge_attrs=False,
        preserve_node_attrs=False,
        preserve_graph_attrs=False,
        name=None,
        graph_name=None,
        **kwargs,
    ):
        """Convert a NetworkX graph into a ``TriGraph``."""
        return from_networkx(
            graph,
            edge_attrs=edge_attrs,
            node_attrs=node_attrs,
            preserve_edge_attrs=preserve_edge_attrs,
            preserve_node_attrs=preserve_node_attrs,
            preserve_graph_attrs=preserve_graph_attrs,
        )

    @staticmethod
    def convert_to_nx(obj, *, name=None):
        """Turn a ``TriGraph`` into a NetworkX graph; pass every other result through."""
        if isinstance(obj, TriGraph):
            return to_networkx(obj)
        return obj

    @staticmethod
    def can_run(name, args, kwargs):
        """Every registered function handles every input NetworkX accepts."""
        return hasattr(BackendInterface, name)

    @staticmethod
    def should_run(name, args, kwargs):
        """Decline automatic conversion for single-node queries (NetworkX is cheaper)."""
        if name in _SINGLE_NODE_CHEAP and len(args) > 1:
            G, nodes = args[0], args[1]
            if nodes is not None and isinstance(G, nx.Graph) and nodes in G:
                return "a single node: NetworkX answers faster than a conversion"
        return True

    @staticmethod
    def on_start_tests(items):
        """NetworkX's own tests need no xfail markers for tricount."""
