"""The NetworkX-facing triangle functions, with NetworkX 3.6's exact semantics.

Each function resolves a :class:`~nx_tricount.plan.Plan`, takes (or builds and
caches) the ``Prepared`` CSR it needs from the ``TriGraph``, counts, and shapes
the result as NetworkX does: a dict in G's node order, or a scalar for a single
node; Python ``int``/``float`` only; zero coefficients as the int ``0``.

Weighted and directed clustering reduce to one primitive: the per-vertex sum,
over the vertex's triangles of the undirected simple graph, of the product of
the triangle's three edge values ``b``. NetworkX's ``t`` is twice that sum with
- ``b = 1`` (unweighted): ``t = 2T``;
- ``b = cbrt(w / max_w)`` (weighted, Onnela's geometric mean);
- ``b = [u->v] + [v->u]`` (directed, Fagiolo: ``t = diag((A + A^T)^3)``);
- ``b = cbrt(w_uv / max_w) + cbrt(w_vu / max_w)`` (directed weighted).
"""

import networkx as nx
import numpy as np

from .convert import from_networkx
from .device import array_module, module_of, to_host
from .graph import TriGraph
from .plan import make_plan
from .preprocess import (
    prepare_arcs,
    prepare_simple,
    prepare_undirected,
    simplify_directed,
)
from .preprocess.csr import endpoint_counts
from .preprocess.simplify import packed_keys, unpack_keys

__all__ = ["triangles", "clustering", "average_clustering", "transitivity"]

_MULTIGRAPH = "not implemented for multigraph type"
_DIRECTED = "not implemented for directed type"


# --- inputs ---------------------------------------------------------------
def _as_trigraph(G, weight=None):
    """Accept a TriGraph as it is; convert a NetworkX graph (for direct calls)."""
    if isinstance(G, TriGraph):
        return G
    if isinstance(G, nx.Graph):
        return from_networkx(G, edge_attrs=None if weight is None else {weight: 1})
    raise TypeError(f"expected a TriGraph or a NetworkX graph, got {type(G).__name__}")


def _nbunch(G, nodes):
    """Keys and ids of ``G.nbunch_iter(nodes)``, with NetworkX's rules and errors.

    ``nodes`` is not a single node of G. Members not in G are skipped; the keys
    are the container's own objects, in its order.
    """
    keys, ids = [], []
    member = None
    try:
        for member in nodes:
            hash(member)  # NetworkX's dict lookup rejects unhashable members
            if member in G:
                keys.append(member)
                ids.append(G.node_id(member))
    except TypeError as err:
        message = err.args[0] if err.args else ""
        exc = err
        if "iter" in message:
            exc = nx.NetworkXError("nbunch is not a node or a sequence of nodes.")
        if "object is not iterable" in message:
            exc = nx.NetworkXError(f"Node {nodes} is not in the graph.")
        if "hashable" in message:
            exc = nx.NetworkXError(f"Node {member} in sequence nbunch is not a valid node.")
        raise exc from None
    return keys, ids


def _select(G, nodes):
    """The vertices a NetworkX computation visits for ``nodes``.

    Returns None for every node, else ``(keys, ids, single)``: the result keys,
    their ids, and whether ``nodes`` is a single node (a scalar result). An
    iterator ``nodes`` is consumed here, once.
    """
    if nodes is None:
        return None
    if nodes in G:
        return [nodes], [G.node_id(nodes)], True
    keys, ids = _nbunch(G, nodes)
    return keys, ids, False


def _per_node_result(G, selection, values):
    """Shape per-vertex Python values as NetworkX does for the selection."""
    if selection is None:
        return dict(zip(G.label_list(), values))
    keys, ids, single = selection
    if single:
        return values[ids[0]]
    return {key: values[i] for key, i in zip(keys, ids)}


# --- preprocessing, cached on the TriGraph --------------------------------
def _undirected(G, plan):
    """The oriented CSR of G's simple undirected graph."""

    def build():
        simple = G.simple_graph(plan.device)
        return prepare_simple(simple, orientation=plan.orientation, ordering=plan.ordering)

    return G.cached(("undirected", plan.orientation, plan.ordering, plan.device), build)


def _arcs(G, plan):
    """The successor CSR of G's simple directed graph."""

    def build():
        src, dst = G.edges_on(plan.device)
        return prepare_arcs(src, dst, G.n)

    return G.cached(("arcs", plan.device), build)


def _degree(prepared):
    """Undirected degree (original ids) of an undirected ``Prepared``."""
    return prepared.to_original_vertices(prepared.degree)


def _exact_sum(values):
    """Sum of a non-negative int64 array as a Python int, without overflow."""
    high = int((values >> 32).sum())
    low = int((values & 0xFFFFFFFF).sum())
    return (high << 32) + low


def _weights(G, weight, device):
    """The weight column on ``device`` as float64 (all ones when G has none,
    as NetworkX's ``.get(weight, 1)`` gives for edges without the attribute)."""
    column = G.edge_data.get(weight)
    if column is None:
        return array_module(device).ones(G.src.size, dtype=np.float64)
    if isinstance(column, list):
        raise TypeError(f"edge attribute {weight!r} must be numeric for weighted clustering")
    return G.column_on(column, device).astype(np.float64)


def _max_weight(G, weights, device):
    """NetworkX's ``max_weight``: the largest weight over G's edges (the last
    value of a repeated edge, self-loops included), 1 for an edgeless graph."""
    src, dst = G.edges_on(device)
    if src.size == 0:
        return 1.0
    if G.unique_edges:
        return float(weights.max())
    xp = module_of(src)
    if G.directed:
        keys = packed_keys(src, dst, G.n)
    else:
        keys = packed_keys(xp.minimum(src, dst), xp.maximum(src, dst), G.n)
    order = xp.argsort(keys, kind="stable")
    keys, weights = keys[order], weights[order]
    last = xp.ones(keys.size, dtype=bool)
    last[:-1] = keys[1:] != keys[:-1]
    return float(weights[last].max())


def _cube_roots(G, weight, device):
    """``(cbrt(w / max_w) per edge row, max_w)``; the values are meaningless
    when ``max_w == 0``, where the caller raises NetworkX's ZeroDivisionError."""
    weights = _weights(G, weight, device)
    max_weight = _max_weight(G, weights, device)
    with np.errstate(divide="ignore", invalid="ignore"):
        return module_of(weights).cbrt(weights / max_weight), max_weight


# --- the per-vertex terms of clustering -----------------------------------
def _undirected_terms(G, plan, weight, considered):
    """``(t, denominator)`` per vertex for undirected clustering."""
    if weight is None:
        prepared = _undirected(G, plan)
        triangles_at = plan.count(prepared, "per_node").per_node
        degree = _degree(prepared)
        return 2 * triangles_at, degree * (degree - 1)

    def build():
        values, max_weight = _cube_roots(G, weight, plan.device)
        src, dst = G.edges_on(plan.device)
        prepared = prepare_undirected(
            src,
            dst,
            G.n,
            orientation=plan.orientation,
            ordering=plan.ordering,
            values=values,
            unique=G.unique_edges and not G.directed,
        )
        return prepared, max_weight

    key = ("weighted", weight, plan.orientation, plan.ordering, plan.device)
    prepared, max_weight = G.cached(key, build)
    degree = _degree(prepared)
    # NetworkX divides by max_weight for every neighbour of a visited node.
    if max_weight == 0 and bool((degree[considered] > 0).any()):
        raise ZeroDivisionError("division by zero")
    sums = plan.count(prepared, "per_node").per_node
    return 2 * sums, degree * (degree - 1)


def _directed_pairs(G, plan, values):
    """Merge the arcs of G into undirected pairs with ``b`` values (see module doc).

    ``values`` holds one value per edge row (None: unweighted, b counts arcs).
    Returns ``(lo, hi, b, reciprocal, total_degree)``.
    """
    src, dst = G.edges_on(plan.device)
    xp = module_of(src)
    n = G.n
    if values is None:
        values = xp.ones(src.size, dtype=np.int64)
    arc_src, arc_dst, values = simplify_directed(src, dst, n, values)
    total_degree = endpoint_counts(arc_src, arc_dst, n, a_sorted=True)  # arcs come sorted
    keys = packed_keys(xp.minimum(arc_src, arc_dst), xp.maximum(arc_src, arc_dst), n)
    order = xp.argsort(keys)
    keys, values = keys[order], values[order]
    # Each pair has one or two arcs: add the second arc's value to the first's.
    first = xp.ones(keys.size, dtype=bool)
    first[1:] = keys[1:] != keys[:-1]
    starts = xp.flatnonzero(first)
    second = xp.zeros(keys.size, dtype=bool)
    second[:-1] = keys[1:] == keys[:-1]
    reciprocal = second[starts]
    b = values[starts] + xp.where(reciprocal, values[xp.minimum(starts + 1, keys.size - 1)], 0)
    lo, hi = unpack_keys(keys[starts], n, arc_src.dtype)
    return lo, hi, b, reciprocal, total_degree


def _directed_terms(G, plan, weight, considered):
    """``(t, denominator)`` per vertex for directed (Fagiolo) clustering."""

    def build():
        values, max_weight = (None, 1.0) if weight is None else _cube_roots(G, weight, plan.device)
        lo, hi, b, reciprocal, total_degree = _directed_pairs(G, plan, values)
        prepared = prepare_undirected(
            lo, hi, G.n, orientation=plan.orientation, ordering=plan.ordering, values=b
        )
        both = endpoint_counts(lo[reciprocal], hi[reciprocal], G.n, a_sorted=True)
        denominator = 2 * (total_degree * (total_degree - 1) - 2 * both)
        return prepared, denominator, max_weight

    key = ("directed", weight, plan.orientation, plan.ordering, plan.device)
    prepared, denominator, max_weight = G.cached(key, build)
    # NetworkX divides by max_weight only inside its sums over triangles.
    if max_weight == 0:
        t, _ = _directed_terms(G, plan, None, considered)
        if bool((t[considered] != 0).any()):
            raise ZeroDivisionError("division by zero")
    sums = plan.count(prepared, "per_node").per_node
    return 2 * sums, denominator


def _coefficients(t, denominator):
    """``t / denominator`` as Python floats, with the int 0 where ``t == 0``."""
    xp = module_of(t)
    nonzero = t != 0
    ratio = xp.zeros(t.shape, dtype=np.float64)
    ratio[nonzero] = t[nonzero] / denominator[nonzero]  # CuPy's divide has no where=.
    values = to_host(ratio).tolist()
    for i in np.flatnonzero(~to_host(nonzero)).tolist():
        values[i] = 0
    return values


# --- the functions ----------------------------------------------------------
def triangles(G, nodes=None, *, algorithm=None, orientation=None, ordering=None, device=None):
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
    selection = _select(G, nodes)
    plan = make_plan(
        G, algorithm=algorithm, orientation=orientation, ordering=ordering, device=device
    )
    prepared = _undirected(G, plan)
    per_node = plan.count(prepared, "per_node").per_node
    return _per_node_result(G, selection, to_host(per_node).tolist())


def clustering(
    G, nodes=None, weight=None, *, algorithm=None, orientation=None, ordering=None, device=None
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
        Edge attribute holding the weight; edges without it weigh 1.
    algorithm, orientation, ordering, device : str, optional
        Override ``nx.config.backends.tricount`` for this call.

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
    selection = _select(G, nodes)
    plan = make_plan(
        G, algorithm=algorithm, orientation=orientation, ordering=ordering, device=device
    )
    considered = slice(None) if selection is None else selection[1]
    terms = _directed_terms if G.directed else _undirected_terms
    t, denominator = terms(G, plan, weight, considered)
    return _per_node_result(G, selection, _coefficients(t, denominator))


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
    c = clustering(G, nodes, weight, **settings).values()
    if not count_zeros:
        c = [v for v in c if abs(v) > 0]
    # Summed in node order with Python's sum, as NetworkX does (exact equality).
    return sum(c) / len(c)


def transitivity(G, *, algorithm=None, orientation=None, ordering=None, device=None):
    """Transitivity ``3 * triangles / triads`` (NetworkX's ``transitivity``).

    On a directed graph, NetworkX counts on successor sets: transitive triples
    ``v->w, v->u, w->u`` over ordered successor pairs; so does this function,
    on the arcs as given (``orientation`` and ``ordering`` do not apply).

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
        G, algorithm=algorithm, orientation=orientation, ordering=ordering, device=device
    )
    if G.directed:
        prepared = _arcs(G, plan)
        triples = plan.count(prepared, "total").total
        out_degree = to_host(prepared.indptr[1:] - prepared.indptr[:-1])
        return 0 if triples == 0 else triples / _exact_sum(out_degree * (out_degree - 1))
    prepared = _undirected(G, plan)
    total = plan.count(prepared, "total").total
    degree = to_host(_degree(prepared))
    return 0 if total == 0 else 6 * total / _exact_sum(degree * (degree - 1))
