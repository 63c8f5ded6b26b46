"""``BackendInterface``: what NetworkX's dispatcher loads for ``backend="tricount"``.

Its functions are the light :class:`~nx_tricount.nxapi.dispatch.NetworkXFunction`
objects of :data:`~nx_tricount.nxapi.dispatch.REGISTERED`: loading this class and
asking ``should_run`` import neither NumPy, numba, CuPy nor the engine (a call
NetworkX answers itself loads none of them); a function imports its
implementation at its first call, the conversions theirs at theirs. NetworkX
passes positional-or-keyword parameters positionally with defaults filled, so
the functions keep NetworkX's parameter order and the backend's own settings
are keyword-only.
"""

from .dispatch import REGISTERED

__all__ = ["BackendInterface"]


class BackendInterface:
    """NetworkX backend interface of ``tricount``."""

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
        """Convert a NetworkX graph into a ``TriGraph`` that remembers its class
        and its neighbour dicts (NetworkX drops a cached conversion when the
        graph changes)."""
        from ..io.convert import from_networkx

        converted = from_networkx(
            graph,
            edge_attrs=edge_attrs,
            node_attrs=node_attrs,
            preserve_edge_attrs=preserve_edge_attrs,
            preserve_node_attrs=preserve_node_attrs,
            preserve_graph_attrs=preserve_graph_attrs,
        )
        converted.networkx_class = type(graph)
        converted.networkx_adjacency = graph._adj
        return converted

    @staticmethod
    def convert_to_nx(obj, *, name=None):
        """Turn a ``TriGraph`` into a NetworkX graph; pass every other result through."""
        from ..classes.graph import TriGraph
        from ..io.convert import to_networkx

        if isinstance(obj, TriGraph):
            return to_networkx(obj)
        return obj

    @staticmethod
    def can_run(name, args, kwargs):
        """Every registered function handles every input NetworkX accepts.

        Raises
        ------
        TypeError
            ``as_frame`` was given: NetworkX's functions return NetworkX's
            results; frames come from the direct calls (``nx_tricount.<name>``).
        """
        if kwargs.get("as_frame"):
            raise TypeError(
                f"{name}() through NetworkX takes no as_frame: NetworkX's functions return "
                f"dicts; call nx_tricount.{name}(G, as_frame=True) for a frame"
            )
        return name in REGISTERED

    @staticmethod
    def should_run(name, args, kwargs):
        """The registered function's own ``should_run``."""
        return REGISTERED[name].should_run(args, kwargs)

    @staticmethod
    def on_start_tests(items):
        """NetworkX's own tests need no xfail markers for tricount."""


for _name, _function in REGISTERED.items():
    setattr(BackendInterface, _name, _function)
