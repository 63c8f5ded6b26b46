"""NetworkX's ``networkx/convert_matrix.py`` function ``from_pandas_edgelist``,
returning a ``TriGraph`` read from a pandas or cuDF frame (or a dict of
columns) by :func:`nx_tricount.io.frames.from_frame`. Its documentation is
NetworkX's docstring followed by the backend's note
(:mod:`nx_tricount.metadata.functions`).
"""

import networkx as nx

from ..io.convert import to_networkx
from ..io.frames import from_frame
from .dispatch import networkx_function

__all__ = ["from_pandas_edgelist"]


@networkx_function
def from_pandas_edgelist(
    df, source="source", target="target", edge_attr=None, create_using=None, edge_key=None
):
    """The frame's edges as a TriGraph of ``create_using``'s kind (directed,
    multigraph). A graph instance as ``create_using`` is cleared, filled by its
    own methods and returned, as NetworkX does; anything else that is not a graph
    class is NetworkX's TypeError. A missing ``source`` or ``target`` column is a
    KeyError, a missing ``edge_attr`` or ``edge_key`` column a NetworkXError, as
    in NetworkX."""
    kind = nx.empty_graph(0, create_using)  # clears an instance, as NetworkX does
    T = from_frame(
        df,
        source,
        target,
        edge_attr,
        directed=kind.is_directed(),
        multigraph=kind.is_multigraph(),
        edge_key=edge_key,
    )
    if create_using is not None and not isinstance(create_using, type):
        return to_networkx(T, into=kind)
    return T
