"""``TriGraph``: the backend's graph — an edge frame plus node labels.

The edge frame is two integer arrays ``src``, ``dst`` (ids ``0..n-1``) of one
array module (NumPy or CuPy), with optional value columns (``edge_data``). The
node labels map ids back to the caller's nodes in the caller's order. The
structures a count needs (:mod:`nx_tricount.preparation`) are cached on the
graph, so repeated calls on one graph skip preprocessing.
"""

from .device import array_module, to_module
from .labels import host_labels

__all__ = ["TriGraph"]


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
                f"src and dst must be 1-D arrays of equal length, got shapes "
                f"{src.shape} and {dst.shape}"
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
        self.__networkx_cache__ = {}
        self._prepared = {}
        self._index = None
        self._label_list = None

    def __repr__(self):
        kind = ("Multi" if self.multigraph else "") + ("DiGraph" if self.directed else "Graph")
        return f"<TriGraph {kind} with {self.n} nodes and {self.src.size} edge rows>"

    # --- the parts of the NetworkX graph protocol the dispatcher uses -------
    def is_directed(self):
        return self.directed

    def is_multigraph(self):
        return self.multigraph

    def number_of_nodes(self):
        return self.n

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
        """Node labels in id order, as a list of Python objects."""
        if self._label_list is None:
            if self.labels is None:
                self._label_list = range(self.n)
            elif isinstance(self.labels, list):
                self._label_list = self.labels
            else:
                self._label_list = host_labels(self.labels).tolist()
        return self._label_list

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

        The keys and the builders are :mod:`nx_tricount.preparation`'s.
        """
        if key not in self._prepared:
            self._prepared[key] = build()
        return self._prepared[key]
