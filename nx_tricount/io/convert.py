"""Conversion between NetworkX graphs and ``TriGraph``.

The NetworkX side is Python dicts, so one pass over ``G._adj`` is needed;
it is done with ``np.fromiter`` over chained iterators (no per-edge Python
statements), and ids follow G's node order. One pass is saved: when nx-cugraph
has already converted G (cached on G by NetworkX's dispatcher) and the call
needs no attributes, its edge arrays on the GPU, whose ids are also positions
in G's node order, are used instead.
"""

import logging
from itertools import chain

import networkx as nx
import numpy as np

from ..classes.graph import TriGraph
from ..gpu.device import to_host

__all__ = ["from_networkx", "to_networkx", "NUMBER_TYPES"]

logger = logging.getLogger("nx_tricount")


def _integer_labels(nodes):
    """The labels as an int64 array when they are all Python ints, else None."""
    if set(map(type, nodes)) != {int}:  # C-level pass; bool and numpy ints excluded
        return None
    try:
        return np.array(nodes, dtype=np.int64)
    except OverflowError:
        return None


def _are_ids(keys):
    """Whether integer labels (:func:`_integer_labels`, or None) are 0..n-1 in order."""
    return keys is not None and np.array_equal(keys, np.arange(keys.size))


def _label_mapper(nodes):
    """Return ``(to_ids, identity)``: ``to_ids(labels, count)`` maps node labels
    to ids as an int64 array; ``identity`` says the nodes are the ints 0..n-1.

    Integer labels are read as integers: used as they are when they are the ids,
    else mapped by a table (dense labels) or a vectorized search over the sorted
    labels, all several times faster than a dict lookup per label; other labels
    go through a dict.
    """
    keys = _integer_labels(nodes)
    if _are_ids(keys):
        return (lambda labels, count: np.fromiter(labels, dtype=np.int64, count=count)), True
    if keys is not None:
        if keys.size and keys.min() >= 0 and keys.max() < 8 * keys.size:
            # Dense labels: a direct-address table, one gather per label.
            table = np.empty(int(keys.max()) + 1, dtype=np.int64)
            table[keys] = np.arange(keys.size, dtype=np.int64)
            return (lambda labels, count: table[np.fromiter(labels, dtype=np.int64, count=count)]), False
        order = np.argsort(keys)
        sorted_keys = keys[order]

        def search(labels, count):
            raw = np.fromiter(labels, dtype=np.int64, count=count)
            return order[np.searchsorted(sorted_keys, raw)]

        return search, False
    index = {v: i for i, v in enumerate(nodes)}

    def lookup(labels, count):
        return np.fromiter(map(index.__getitem__, labels), dtype=np.int64, count=count)

    return lookup, False


#: Values kept as a float64 column: what NetworkX's weighted clustering computes
#: with as numbers (Python's int, float and bool; NumPy's integers, floats and
#: bools). Anything else (str, None, Decimal, Fraction, complex, ...) is kept as
#: the objects themselves, and clustering leaves them to NetworkX's arithmetic.
NUMBER_TYPES = (int, float, np.integer, np.floating, np.bool_)


def _numeric_column(values, name, count):
    """An edge attribute as a float64 array when every value is a number, else
    the list of the values (see :data:`NUMBER_TYPES`)."""
    values = list(values)
    if all(issubclass(t, NUMBER_TYPES) for t in set(map(type, values))):
        try:
            return np.fromiter(values, dtype=np.float64, count=count)
        except OverflowError:  # an int beyond float64: NetworkX divides it exactly
            pass
    return values


def _compress(values, keep):
    """``values[keep]`` for an array or a list."""
    if isinstance(values, list):
        return [value for value, kept in zip(values, keep.tolist()) if kept]
    return values[keep]


def from_networkx(
    G,
    edge_attrs=None,
    node_attrs=None,
    preserve_edge_attrs=False,
    preserve_node_attrs=False,
    preserve_graph_attrs=False,
):
    """Convert a NetworkX graph (any of the four classes) to a ``TriGraph``.

    Parameters
    ----------
    G : networkx.Graph, DiGraph, MultiGraph or MultiDiGraph
    edge_attrs : dict, optional
        ``{name: default}`` of edge attributes to keep as columns; a missing
        value takes the default (NetworkX's ``.get(name, default)``). Numbers
        become a float64 array; a column holding anything else stays a list of
        the objects, on which NetworkX itself computes (``functions.clustering``).
    node_attrs : dict, optional
        ``{name: default}`` of node attributes to keep.
    preserve_edge_attrs, preserve_node_attrs, preserve_graph_attrs : bool
        Keep every attribute (edge attribute dicts are kept on the host).

    Returns
    -------
    TriGraph
    """
    if not isinstance(G, nx.Graph):
        raise TypeError(f"expected a NetworkX graph, got {type(G).__name__}")
    attributes = edge_attrs or node_attrs or preserve_edge_attrs or preserve_node_attrs
    shared = None if attributes else _cugraph_conversion(G)
    if shared is not None:
        return _from_cugraph_arrays(G, shared, preserve_graph_attrs)
    adj = G._adj  # successors for directed graphs
    nodes = list(adj)
    n = len(nodes)
    to_ids, identity = _label_mapper(nodes)
    labels = None if identity else nodes
    multigraph = G.is_multigraph()

    if multigraph:
        # One row per parallel edge: (u, v, key, data).
        rows = [
            (u, v, key, data)
            for u, nbrs in adj.items()
            for v, keydict in nbrs.items()
            for key, data in keydict.items()
        ]
        src_labels = (r[0] for r in rows)
        dst_labels = (r[1] for r in rows)
        edge_keys = [r[2] for r in rows]
        datas = [r[3] for r in rows]
        m = len(rows)
    else:
        degree = np.fromiter(map(len, adj.values()), dtype=np.int64, count=n)
        m = int(degree.sum())
        src_ids = np.repeat(np.arange(n, dtype=np.int64), degree)
        dst_labels = chain.from_iterable(adj.values())
        edge_keys = None
        datas = None

    dst = to_ids(dst_labels, m)
    src = to_ids(src_labels, m) if multigraph else src_ids

    def edge_dicts():
        if datas is not None:
            return iter(datas)
        return chain.from_iterable(nbrs.values() for nbrs in adj.values())

    edge_data = {}
    edge_masks = {}
    for name, default in (edge_attrs or {}).items():
        edge_data[name] = _numeric_column((d.get(name, default) for d in edge_dicts()), name, m)
        present = np.fromiter((name in d for d in edge_dicts()), dtype=bool, count=m)
        if not present.all():
            edge_masks[name] = present
    if preserve_edge_attrs:
        edge_data["__dicts__"] = [dict(d) for d in edge_dicts()]

    if not G.is_directed():
        # The adjacency lists every undirected edge from both ends; keep one row.
        once = src <= dst
        src, dst = src[once], dst[once]
        edge_data = {name: _compress(values, once) for name, values in edge_data.items()}
        edge_masks = {name: mask[once] for name, mask in edge_masks.items()}
        if edge_keys is not None:
            edge_keys = _compress(edge_keys, once)

    node_data = None
    if preserve_node_attrs:
        node_data = [dict(d) for d in G._node.values()]
    elif node_attrs:
        node_data = [
            {k: d.get(k, default) for k, default in node_attrs.items() if k in d or default is not None}
            for d in G._node.values()
        ]
    return TriGraph(
        src,
        dst,
        n,
        labels=labels,
        directed=G.is_directed(),
        multigraph=multigraph,
        edge_data=edge_data,
        edge_masks=edge_masks,
        graph=dict(G.graph) if preserve_graph_attrs else None,
        node_data=node_data,
        edge_keys=edge_keys,
        unique_edges=not multigraph,
    )


def _cached_conversions(graph):
    """The conversions to nx-cugraph cached on ``graph`` by NetworkX's dispatcher."""
    cache = getattr(graph, "__networkx_cache__", None) or {}
    return list(cache.get("backends", {}).get("cugraph", {}).values())


def _cugraph_conversion(G):
    """nx-cugraph's conversion of ``G`` (a ``CudaGraph`` of G's class) cached on
    G by NetworkX's dispatcher, or None. NetworkX clears that cache when G
    changes through its methods, so a cached conversion lists G's edges.

    nx-cugraph caches either the ``CudaGraph`` itself or, by default, a
    NetworkX-compatible graph that keeps the ``CudaGraph`` in its own cache.
    """
    if G.is_multigraph():
        return None
    for converted in _cached_conversions(G):
        for graph in [converted, *_cached_conversions(converted)]:
            if (
                hasattr(graph, "src_indices")
                and graph.is_directed() == G.is_directed()
                and not graph.is_multigraph()
                and graph.number_of_nodes() == len(G)
            ):
                return graph
    return None


def _from_cugraph_arrays(G, converted, preserve_graph_attrs):
    """A ``TriGraph`` of G from nx-cugraph's edge arrays (int32 ids on the GPU,
    positions in G's node order; undirected edges listed from both ends)."""
    src, dst = converted.src_indices, converted.dst_indices
    if not G.is_directed():
        once = src <= dst  # keep one row per edge, as from the adjacency
        src, dst = src[once], dst[once]
    nodes = list(G._adj)
    logger.debug("tricount reuses nx-cugraph's conversion of the graph (%d edge rows)", src.size)
    return TriGraph(
        src,
        dst,
        len(nodes),
        labels=None if _are_ids(_integer_labels(nodes)) else nodes,
        directed=G.is_directed(),
        graph=dict(G.graph) if preserve_graph_attrs else None,
        unique_edges=True,
    )


def to_networkx(graph, into=None):
    """Build the NetworkX graph a ``TriGraph`` stands for (class, nodes in id
    order, edges with their kept attributes, graph attributes).

    ``into``: an empty NetworkX graph to fill (``create_using``) instead of a new one.
    """
    cls = {
        (False, False): nx.Graph,
        (True, False): nx.DiGraph,
        (False, True): nx.MultiGraph,
        (True, True): nx.MultiDiGraph,
    }[(graph.directed, graph.multigraph)]
    G = cls() if into is None else into
    G.graph.update(graph.graph)
    labels = graph.label_list()
    if graph.node_data is None:
        G.add_nodes_from(labels)
    else:
        G.add_nodes_from(zip(labels, graph.node_data))
    src = to_host(graph.src).tolist()
    dst = to_host(graph.dst).tolist()
    if graph.labels is not None:
        src = [labels[i] for i in src]
        dst = [labels[i] for i in dst]
    columns = {
        name: (values if isinstance(values, list) else to_host(values).tolist())
        for name, values in graph.edge_data.items()
    }
    dicts = columns.pop("__dicts__", None)
    keys = graph.edge_keys if graph.multigraph else None
    ends = (src, dst) if keys is None else (src, dst, keys)
    if dicts is None and not columns:
        G.add_edges_from(zip(*ends))  # no attributes: no dict per edge to build
        return G
    masks = {name: to_host(mask).tolist() for name, mask in graph.edge_masks.items()}
    data = []
    for row in range(len(src)):
        attrs = dict(dicts[row]) if dicts is not None else {}
        for name, values in columns.items():
            if name not in masks or masks[name][row]:
                attrs[name] = values[row]
        data.append(attrs)
    G.add_edges_from(zip(*ends, data))
    return G
