"""The graph argument of the backend's functions: NetworkX's refusals of the
graph kinds a function does not take, and the conversion of a NetworkX graph
given to a direct call (NetworkX's dispatcher hands over a ``TriGraph``)."""

import networkx as nx

from ..classes.graph import TriGraph
from ..io.convert import from_networkx

__all__ = ["refuse", "as_trigraph"]


def refuse(G, *kinds):
    """Raise NetworkX's error for the first of ``kinds`` that ``G`` is.

    Parameters
    ----------
    G : TriGraph or networkx.Graph
    kinds : "directed" or "multigraph"
        What the function does not take, in the order NetworkX checks them
        (its ``not_implemented_for`` decorators).

    Raises
    ------
    NetworkXNotImplemented
        With NetworkX's message, ``"not implemented for <kind> type"``.
    """
    for kind in kinds:
        is_kind = {"directed": G.is_directed, "multigraph": G.is_multigraph}[kind]
        if is_kind():
            raise nx.NetworkXNotImplemented(f"not implemented for {kind} type")


def as_trigraph(G, refused=(), **conversion):
    """``G`` as a TriGraph: as it is, or a NetworkX graph converted, once the
    kinds a function does not take are refused.

    Parameters
    ----------
    G : TriGraph or networkx.Graph
    refused : tuple of str
        The kinds to :func:`refuse`, in NetworkX's order.
    **conversion
        Keywords of :func:`~nx_tricount.io.convert.from_networkx` for a NetworkX graph.

    Raises
    ------
    TypeError
        ``G`` is neither a TriGraph nor a NetworkX graph.
    NetworkXNotImplemented
        ``G`` is of a refused kind.
    """
    if not isinstance(G, (TriGraph, nx.Graph)):
        raise TypeError(f"expected a TriGraph or a NetworkX graph, got {type(G).__name__}")
    refuse(G, *refused)
    return G if isinstance(G, TriGraph) else from_networkx(G, **conversion)
