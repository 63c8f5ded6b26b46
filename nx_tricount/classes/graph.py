"""``TriGraph``: the backend's graph — an edge frame plus node labels.

The edge frame is two integer arrays ``src``, ``dst`` (ids ``0..n-1``) of one
array module (NumPy or CuPy), with optional value columns (``edge_data``). The
node labels map ids back to the caller's nodes in the caller's order. The
structures a count needs (:mod:`nx_tricount.classes.preparation`) are cached on the
graph, so repeated calls on one graph skip preprocessing. A user reads the
graph through NetworkX's spelling, read-only: ``len(G)``, ``node in G``,
``G.nodes``, ``G.edges``, ``G.number_of_edges()``.
"""

import numpy as np

from ..gpu.device import array_module, module_of, to_host, to_module
from ..preprocess.ops import ops_for
from .labels import host_labels

__all__ = ["TriGraph", "NodeView", "EdgeView"]

#: Edges turned into label pairs at a time while iterating over ``G.edges``.
_EDGE_CHUNK = 1 << 16
#: Items a view's repr shows before "...".
_SHOWN = 10


class TriGraph:
    """A graph held as an edge frame, ready for triangle counting.

    Parameters
    ----------
    src, dst : integer arrays (NumPy or CuPy)
        Edge endpoints as ids ``0..n-1``. For undirected graphs each edge may be
        listed in one or both directions; duplicates and self-loops are allowed
        (they are dropped when counting, as NetworkX ignores them).
    n : int
        Number of nodes.
    labels : list or array, optional
        ``labels[i]`` is the node with id ``i``; ids are the labels when omitted.
    directed, multigraph : bool
        The NetworkX graph class this stands for.
    edge_data : dict, optional
        Edge attribute name -> array aligned with ``src``.
    edge_masks : dict, optional
        Edge attribute name -> boolean array, False where the edge had no value
        and the column holds the default (kept for the round trip).
    graph : dict, optional
        Graph attributes (``G.graph``).
    node_data : list of dict, optional
        Node attribute dicts in id order, kept for the round trip to NetworkX.
    edge_keys : list, optional
        Multigraph edge keys aligned with ``src``.
    unique_edges : bool
        Each edge (each unordered pair, if undirected) has at most one row, as
        in a NetworkX Graph or DiGraph; preprocessing then skips deduplication.

    Attributes
    ----------
    networkx_class : type or None
        The class of the NetworkX graph NetworkX's dispatcher converted this
        graph from: functions that return a graph (``k_truss``) return one of
        that class, as NetworkX would.
    networkx_adjacency : dict or None
        That NetworkX graph's neighbour dicts (its ``_adj``): ``all_triangles``
        orders each triangle's nodes by them, as NetworkX does. Other graphs
        have their neighbours in the order of their rows (as ``to_networkx``
        adds them).
    """

    __networkx_backend__ = "tricount"

    def __init__(
        self,
        src,
        dst,
        n,
        *,
        labels=None,
        directed=False,
        multigraph=False,
        edge_data=None,
        edge_masks=None,
        graph=None,
        node_data=None,
        edge_keys=None,
        unique_edges=False,
    ):
        if src.shape != dst.shape or src.ndim != 1:
            raise ValueError(
                f"src and dst must be 1-D arrays of equal length, got shapes {src.shape} and {dst.shape}"
            )
        if labels is not None and len(labels) != n:
            raise ValueError(f"labels has {len(labels)} entries for {n} nodes")
        self.src = src
        self.dst = dst
        self.n = int(n)
        self.labels = labels
        self.directed = bool(directed)
        self.multigraph = bool(multigraph)
        self.edge_data = dict(edge_data or {})
        self.edge_masks = dict(edge_masks or {})
        self.graph = dict(graph or {})
        self.node_data = node_data
        self.edge_keys = edge_keys
        self.unique_edges = bool(unique_edges)
        self.networkx_class = None
        self.networkx_adjacency = None
        self.__networkx_cache__ = {}
        self._prepared = {}
        self._index = None
        self._label_list = None
        self._node_key_array = None
        self._label_types = None
        self._zero_dict = None
        self._made_a_dict = False

    def __repr__(self):
        kind = ("Multi" if self.multigraph else "") + ("DiGraph" if self.directed else "Graph")
        where = "GPU" if module_of(self.src) is not np else "CPU"
        values = [name for name in self.edge_data if name != "__dicts__"]
        extra = f"; edge values {', '.join(map(repr, values))}" if values else ""
        return f"<TriGraph {kind} with {self.n} nodes and {self.src.size} edge rows on the {where}{extra}>"

    # --- the parts of the NetworkX graph protocol the dispatcher uses -------
    def is_directed(self):
        return self.directed

    def is_multigraph(self):
        return self.multigraph

    def number_of_nodes(self):
        return self.n

    def number_of_edges(self):
        """The number of edges of the NetworkX graph this graph stands for
        (``to_networkx(G).number_of_edges()``): a pair of nodes listed in several
        rows (in either direction, if undirected) is one edge, a self-loop is
        an edge; in a multigraph every row is one, unless it repeats a key."""
        rows = self._edge_rows()
        return int(self.src.size if rows is None else rows.size)

    @property
    def nodes(self):
        """The nodes in id order, read-only: iterate, ``len``, ``in``."""
        return NodeView(self)

    @property
    def edges(self):
        """The edges as pairs of nodes, read-only: iterate, ``len``, ``(u, v) in``."""
        return EdgeView(self)

    def __len__(self):
        return self.n

    def __iter__(self):
        return iter(self.label_list())

    def __contains__(self, node):
        """NetworkX's ``node in G``: a dict lookup, so False for an unhashable
        object, else whether ``node`` equals a node that has its hash."""
        try:
            key = hash(node)
        except TypeError:
            return False
        if self.labels is None:
            # An int 0 <= k < 2**61 - 1 hashes to itself, so ``key`` is the one id
            # a dict lookup of ``node`` would compare it with.
            return 0 <= key < self.n and node in {key: None}
        return node in self._label_index()

    # --- labels -------------------------------------------------------------
    def label_list(self):
        """Node labels in id order: a list of Python objects, or ``range(n)``
        for an unlabeled graph."""
        if self._label_list is None:
            if self.labels is None:
                self._label_list = range(self.n)
            elif isinstance(self.labels, list):
                self._label_list = self.labels
            else:
                self._label_list = host_labels(self.labels).tolist()
        return self._label_list

    def label_types(self):
        """The types of the labels held as Python objects (a list), found once; none
        for ids or labels in an array."""
        if self._label_types is None:
            listed = isinstance(self.labels, list)
            self._label_types = frozenset(map(type, self.labels)) if listed else frozenset()
        return self._label_types

    def node_key_array(self):
        """:meth:`label_list` as a NumPy object array (its own objects), made once."""
        if self._node_key_array is None:
            self._node_key_array = np.fromiter(self.label_list(), dtype=object, count=self.n)
        return self._node_key_array

    def zero_dict(self):
        """``{node: 0}`` over the nodes in id order, made at the second request and
        kept (about the size of one per-node dict): a graph's later per-node dicts
        are its copies, updated at the nodes whose value is not 0
        (``nxapi/node_selection.py``, ``per_node_values``). None at the first
        request: a graph asked for one dict makes it directly, which costs less
        than making this dict and its copy."""
        if self._zero_dict is None:
            if not self._made_a_dict:
                self._made_a_dict = True
                return None
            self._zero_dict = dict.fromkeys(self.label_list(), 0)
        return self._zero_dict

    def _label_index(self):
        if self._index is None:
            self._index = {label: i for i, label in enumerate(self.label_list())}
        return self._index

    def node_id(self, node):
        """The id of ``node`` (which must be in the graph): for the ids of an
        unlabelled graph the int it hashes to (``1.0``, ``True`` and
        ``np.int64(1)`` are all the node 1, as in a dict)."""
        if self.labels is None:
            return hash(node)
        return self._label_index()[node]

    def _edge_rows(self):
        """The first row of each edge of the NetworkX graph this stands for, in
        row order, in the edge frame's array module; None when every row is one."""
        if self.unique_edges or (self.multigraph and self.edge_keys is None):
            return None
        xp = module_of(self.src)
        lo, hi = self.src, self.dst
        if not self.directed:
            lo, hi = xp.minimum(self.src, self.dst), xp.maximum(self.src, self.dst)
        if self.multigraph:  # one edge per pair and key, as NetworkX adds them
            first = {}
            for row, edge in enumerate(zip(to_host(lo).tolist(), to_host(hi).tolist(), self.edge_keys)):
                first.setdefault(edge, row)
            return xp.asarray(np.fromiter(first.values(), dtype=np.int64, count=len(first)))
        _, first = xp.unique(ops_for(lo).packed_keys(lo, hi, self.n), return_index=True)
        return xp.sort(first)

    # --- data on a device ---------------------------------------------------
    def edges_on(self, device):
        """``(src, dst)`` on ``device`` ("cpu" or "gpu"), moved there if needed."""
        return self.column_on(self.src, device), self.column_on(self.dst, device)

    def column_on(self, array, device):
        """``array`` on ``device``; a no-op when it is already there."""
        xp = array_module(device)
        return to_module(array, xp)

    def cached(self, key, build):
        """Return the prepared structure cached under ``key``, building it once.

        The keys and the builders are :mod:`nx_tricount.classes.preparation`'s.
        """
        if key not in self._prepared:
            self._prepared[key] = build()
        return self._prepared[key]


def _shown(items, total):
    """The first items of a view for its repr, with "..." when there are more."""
    text = ", ".join(map(repr, items[:_SHOWN]))
    return text + (", ..." if total > _SHOWN else "")


class NodeView:
    """The nodes of a :class:`TriGraph` in id order, read-only (``G.nodes``).

    Iterating gives the nodes; ``len`` counts them; ``node in G.nodes`` is
    ``node in G``. Calling it (``G.nodes()``) gives the view itself.
    """

    def __init__(self, graph):
        self._graph = graph

    def __iter__(self):
        return iter(self._graph.label_list())

    def __len__(self):
        return self._graph.n

    def __contains__(self, node):
        return node in self._graph

    def __call__(self):
        return self

    def __repr__(self):
        labels = self._graph.label_list()
        return f"NodeView([{_shown(labels, len(labels))}])"


class EdgeView:
    """The edges of a :class:`TriGraph`, read-only (``G.edges``): those of the
    NetworkX graph it stands for, each once (a multigraph's parallel edges each),
    in the order of their first rows, as ``(u, v)`` pairs of nodes.

    ``len`` is ``G.number_of_edges()``; ``(u, v) in G.edges`` says whether the
    graph has an edge between ``u`` and ``v`` (from ``u`` to ``v`` if
    directed). Iterating turns the edge arrays into pairs a chunk at a time; on
    a large graph the arrays themselves (``G.src``, ``G.dst``: ids, with
    ``G.nodes`` for the labels) are the cheaper read. Calling it (``G.edges()``)
    gives the view itself.
    """

    def __init__(self, graph):
        self._graph = graph

    def __iter__(self):
        G = self._graph
        rows = G._edge_rows()
        src, dst = (G.src, G.dst) if rows is None else (G.src[rows], G.dst[rows])
        src, dst = to_host(src), to_host(dst)
        labels = G.label_list()
        for start in range(0, src.size, _EDGE_CHUNK):
            stop = start + _EDGE_CHUNK
            for u, v in zip(src[start:stop].tolist(), dst[start:stop].tolist()):
                yield labels[u], labels[v]

    def __len__(self):
        return self._graph.number_of_edges()

    def __contains__(self, edge):
        G = self._graph
        u, v = edge  # NetworkX's error for anything but a pair
        if u not in G or v not in G:
            return False
        i, j = G.node_id(u), G.node_id(v)
        found = (G.src == i) & (G.dst == j)
        if not G.directed:
            found |= (G.src == j) & (G.dst == i)
        return bool(found.any())

    def __call__(self):
        return self

    def __repr__(self):
        first = []
        for edge in self:
            if len(first) == _SHOWN:
                break
            first.append(edge)
        return f"EdgeView([{_shown(first, len(self))}])"
