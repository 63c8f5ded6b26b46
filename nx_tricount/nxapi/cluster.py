"""The NetworkX functions of the backend, with NetworkX 3.6's exact semantics:
argument rules, errors, and result shapes (a dict in G's node order, or a scalar
for a single node; Python ``int``/``float`` only; zero coefficients as the int
``0``). The quantities they are made of are counted by :mod:`nx_tricount.quantities.per_vertex`.
"""

import logging

import networkx as nx

from ..quantities import per_vertex
from ..io.convert import from_networkx, to_networkx
from ..gpu.device import to_host
from .dispatch import networkx_function
from ..io.frames import from_frame
from ..classes.graph import TriGraph
from .node_selection import coefficient_values, node_mean, per_node_result, select
from ..planning.plan import make_plan
from ..io.results import node_frame

__all__ = ["triangles", "clustering", "average_clustering", "transitivity", "from_pandas_edgelist"]

logger = logging.getLogger("nx_tricount")

_MULTIGRAPH = "not implemented for multigraph type"
_DIRECTED = "not implemented for directed type"


def _as_trigraph(G, weight=None):
    """Accept a TriGraph as it is; convert a NetworkX graph (for direct calls)."""
    if isinstance(G, TriGraph):
        return G
    if isinstance(G, nx.Graph):
        return from_networkx(G, edge_attrs=None if weight is None else {weight: 1})
    raise TypeError(f"expected a TriGraph or a NetworkX graph, got {type(G).__name__}")


def _clustering_plan(G, weight, settings):
    """The plan of a clustering count: weighted and directed ones sum arc values
    (directed: its arc pairs')."""
    return make_plan(G, weighted=weight is not None or G.directed, **settings)


@networkx_function
def triangles(
    G, nodes=None, *, algorithm=None, orientation=None, ordering=None, device=None, as_frame=False
):
    """Count the triangles at each node (NetworkX's ``triangles``).

    Parameters
    ----------
    G : TriGraph or networkx.Graph
        Undirected. A multigraph is allowed when ``nodes`` is None (parallel
        edges collapse), as in NetworkX.
    nodes : node, container of nodes, or None
        A single node gives an int; a container gives a dict over its members
        that are in G; None gives every node.
    algorithm, orientation, ordering, device : str, optional
        Override ``nx.config.backends.tricount`` for this call.
    as_frame : bool
        Direct calls only: a frame of columns ``node`` and ``triangles`` instead.

    Returns
    -------
    dict or int
        Number of triangles keyed by node, in G's (or the container's) order.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.triangles(nx.complete_graph(4), backend="tricount")
    {0: 3, 1: 3, 2: 3, 3: 3}
    """
    G = _as_trigraph(G)
    if G.directed:
        raise nx.NetworkXNotImplemented(_DIRECTED)
    if nodes is not None and G.multigraph:
        raise nx.NetworkXNotImplemented(_MULTIGRAPH)
    selection = select(G, nodes)
    if selection is not None and selection.error is not None:
        raise selection.error
    plan = make_plan(
        G, algorithm=algorithm, orientation=orientation, ordering=ordering, device=device
    )
    per_node = per_vertex.triangles_per_node(G, plan)
    if as_frame:
        return node_frame(G, selection, per_node, "triangles")
    return per_node_result(G, selection, to_host(per_node).tolist())


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
    """Clustering coefficient of each node (NetworkX's ``clustering``).

    Unweighted, weighted (geometric mean of normalised weights), directed
    (Fagiolo) and directed weighted, exactly as NetworkX defines them.

    Parameters
    ----------
    G : TriGraph or networkx.Graph
        Not a multigraph.
    nodes : node, container of nodes, or None
    weight : str or None
        Edge attribute holding the weight; edges without it weigh 1. Numbers
        (Python's or NumPy's ints, floats, bools) are counted here in float64
        (NetworkX computes NumPy float32 weights in float32: the results differ
        in the last digits). Any other weight objects are left to NetworkX's own
        ``clustering``, so that they give NetworkX's result or its TypeError.
    algorithm, orientation, ordering, device : str, optional
        Override ``nx.config.backends.tricount`` for this call.
    as_frame : bool
        Direct calls only: a frame of columns ``node`` and ``clustering`` (float64).

    Returns
    -------
    dict or float
        Coefficients keyed by node (a float, or the int 0 where a node has no
        triangle); a single value for a single node.

    Raises
    ------
    NetworkXNotImplemented
        G is a multigraph.
    ZeroDivisionError
        Every weight is 0, as in NetworkX.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.clustering(nx.path_graph(3), backend="tricount")
    {0: 0, 1: 0, 2: 0}
    """
    G = _as_trigraph(G, weight)
    if G.multigraph:
        raise nx.NetworkXNotImplemented(_MULTIGRAPH)
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
    return per_node_result(G, selection, coefficient_values(to_host(ratio), to_host(nonzero)))


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
    """Average clustering coefficient (NetworkX's ``average_clustering``).

    Parameters
    ----------
    G : TriGraph or networkx.Graph
    nodes : container of nodes, optional
    weight : str or None
    count_zeros : bool
        If False, average only over nodes with a nonzero coefficient.
    algorithm, orientation, ordering, device : str, optional
        Override ``nx.config.backends.tricount`` for this call.

    Returns
    -------
    float

    Raises
    ------
    ZeroDivisionError
        No node to average over (empty graph, ``nodes=[]``, or all zeros with
        ``count_zeros=False``), as in NetworkX.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.average_clustering(nx.complete_graph(5), backend="tricount")
    1.0
    """
    settings = dict(algorithm=algorithm, orientation=orientation, ordering=ordering, device=device)
    G = _as_trigraph(G, weight)
    # Every node, numeric weights: the coefficients' array, no dict (else clustering's rules).
    if nodes is None and not G.multigraph and not isinstance(G.edge_data.get(weight), list):
        plan = _clustering_plan(G, weight, settings)
        ratio, _ = per_vertex.clustering_coefficients(G, plan, weight, slice(None))
        return node_mean(to_host(ratio), count_zeros)
    c = clustering(G, nodes, weight, **settings).values()
    c = c if count_zeros else [v for v in c if abs(v) > 0]
    return sum(c) / len(c)  # Python's sum in NetworkX's order, as NetworkX


@networkx_function
def transitivity(G, *, algorithm=None, orientation=None, ordering=None, device=None):
    """Transitivity ``3 * triangles / triads`` (NetworkX's ``transitivity``).

    On a directed graph, NetworkX counts on successor sets: transitive triples
    ``v->w, v->u, w->u`` over ordered successor pairs; so does this function:
    with merge once per triangle of the arc pairs (oriented and ordered as
    configured), with the other algorithms per arc of the successor lists.

    Parameters
    ----------
    G : TriGraph or networkx.Graph
        Not a multigraph.
    algorithm, orientation, ordering, device : str, optional
        Override ``nx.config.backends.tricount`` for this call.

    Returns
    -------
    float, or the int 0 when G has no triangle

    Examples
    --------
    >>> import networkx as nx
    >>> nx.transitivity(nx.complete_graph(5), backend="tricount")
    1.0
    """
    G = _as_trigraph(G)
    if G.multigraph:
        raise nx.NetworkXNotImplemented(_MULTIGRAPH)
    if G.n == 0:
        return 0
    plan = make_plan(
        G, algorithm=algorithm, orientation=orientation, ordering=ordering, device=device, total=True
    )
    closed, triads = per_vertex.transitivity_sums(G, plan)
    return 0 if closed == 0 else closed / triads


@networkx_function
def from_pandas_edgelist(
    df, source="source", target="target", edge_attr=None, create_using=None, edge_key=None
):
    """NetworkX's ``from_pandas_edgelist``, returning a ``TriGraph`` (also for cuDF).

    Parameters
    ----------
    df : pandas.DataFrame, cudf.DataFrame, or a dict of columns
    source, target, edge_attr, edge_key
        As in :func:`networkx.from_pandas_edgelist`.
    create_using : graph class or instance, optional
        A class gives the TriGraph's kind (directed, multigraph). An instance is
        cleared, filled and returned as NetworkX does (then the result is that
        NetworkX graph, not a TriGraph: the frame is read by the backend, the
        graph built by the instance's own methods).

    Returns
    -------
    TriGraph, or ``create_using`` when it is a graph instance

    Raises
    ------
    TypeError
        ``create_using`` is neither a graph class nor a graph (NetworkX's error).
    KeyError
        ``source`` or ``target`` is not a column (as in NetworkX).
    NetworkXError
        An ``edge_attr`` or ``edge_key`` column is missing (as in NetworkX).
    """
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
