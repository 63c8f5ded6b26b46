"""Preprocessing: edge list -> simple graph (``SimpleGraph``) -> ordered, oriented
CSR (``Prepared``).

Every step runs with the array module of its input (NumPy on the CPU, CuPy on
the GPU), so edge-sized arrays never leave the device they start on; only
A-order balances its buckets on the host, from the out-degrees (vertex-sized).
"""

from dataclasses import dataclass, field

import numpy as np

from ..device import module_of
from . import elementwise
from .a_direction import orientation_cost
from .csr import csr_from_keys, endpoint_counts, row_pointers
from .ordering import BEFORE_ORIENTATION, ORDERINGS, arc_order, relabel, vertex_order
from .orientation import ORIENTATIONS, orient, oriented_keys
from .simplify import (
    distinct_edge_keys,
    packed_keys,
    simplify_directed,
    simplify_undirected,
    unpack_keys,
)

__all__ = [
    "SimpleGraph",
    "Prepared",
    "simple_graph",
    "prepare_simple",
    "prepare_undirected",
    "prepare_arcs",
    "index_dtype",
    "undirected_degree",
    "ORDERINGS",
    "ORIENTATIONS",
    "orientation_cost",
    "simplify_directed",
    "simplify_undirected",
]


def index_dtype(n):
    """Narrowest vertex-id dtype for ``n`` vertices (int32 halves memory traffic)."""
    return np.int32 if n < 2**31 else np.int64


def undirected_degree(lo, hi, n, *, lo_sorted=False):
    """Degree of every vertex of the simple undirected graph ``lo - hi``
    (``lo_sorted``: ``lo`` is sorted, as the deduplication leaves it)."""
    return endpoint_counts(lo, hi, n, a_sorted=lo_sorted)


class SimpleGraph:
    """A simple undirected graph: what every preprocessing of an edge list starts from.

    Attributes
    ----------
    n : int
        Number of vertices.
    lo, hi : arrays
        Each undirected edge once, ``lo < hi`` (ids of the narrowest dtype for ``n``).
    degree : array
        Degree of every vertex (int64).
    values : array or None
        One value per edge, aligned with ``lo, hi``.
    squares : float or None
        ``sum(degree**2)``, once known (:meth:`square_sum`).
    kept_keys : tuple or None
        On the GPU, the deduplication before its compaction: ``(keys, kept)``,
        the sorted edge keys of the edge list and which of them are the distinct
        edges. Preprocessings that can take the edges in that form
        (:func:`prepare_simple` with orderings ``none`` and ``degree``) skip the
        compaction; ``lo`` and ``hi`` are compacted from it when first read.
    edge_count : int or PendingCount
        The number of edges; on the GPU, while the deduplication may still be
        running, a :class:`~nx_tricount.runtime.PendingCount` that
        ``int()`` (and :attr:`m`) waits for.
    """

    def __init__(self, n, lo, hi, degree, values=None, *, squares=None):
        self.n = n
        self._lo, self._hi = lo, hi
        self.degree = degree
        self.values = values
        self.squares = squares
        self.kept_keys = None
        self.edge_count = None if lo is None else int(lo.size)

    @classmethod
    def from_kept_keys(cls, n, keys, kept, degree, edge_count, *, squares=None):
        """The graph of the ``edge_count`` distinct edges among sorted edge keys (GPU)."""
        simple = cls(n, None, None, degree, squares=squares)
        simple.kept_keys = (keys, kept)
        simple.edge_count = edge_count
        return simple

    def _compact(self):
        if self._lo is None:
            keys, kept = self.kept_keys
            distinct = elementwise.compact_keys(keys, kept, self.m)
            self._lo, self._hi = unpack_keys(distinct, self.n, index_dtype(self.n))

    @property
    def lo(self):
        self._compact()
        return self._lo

    @property
    def hi(self):
        self._compact()
        return self._hi

    @property
    def m(self):
        """Number of edges."""
        return int(self.edge_count)

    def square_sum(self):
        """``sum(degree**2)`` as a float, computed once."""
        if self.squares is None:
            if module_of(self.degree) is np:
                self.squares = float(np.dot(self.degree.astype(np.float64), self.degree))
            else:
                self.squares = elementwise.square_sum(self.degree)
        return self.squares


def simple_graph(src, dst, n, *, values=None, unique=False, square_sum=False):
    """The simple undirected graph of an edge list: duplicates and self-loops
    dropped, degrees counted.

    Parameters
    ----------
    src, dst : integer arrays
        Edges in either or both directions, duplicates and self-loops allowed.
    n : int
    values : array, optional
        One value per edge (last occurrence of a repeated edge wins).
    unique : bool
        Each undirected edge appears at most once (skips the dedup sort).
    square_sum : bool
        Also compute :meth:`SimpleGraph.square_sum` (on the GPU, for unweighted
        edge lists that need deduplicating, read with the number of edges in
        one transfer).

    Returns
    -------
    SimpleGraph
        On the GPU, unweighted and deduplicated, it keeps the sorted keys
        (:attr:`SimpleGraph.kept_keys`) and has not synchronised, unless
        ``square_sum``.
    """
    if module_of(src) is not np and values is None and not unique:
        keys, kept, degree, count, squares = distinct_edge_keys(src, dst, n, square_sum=square_sum)
        return SimpleGraph.from_kept_keys(n, keys, kept, degree, count, squares=squares)
    lo, hi, values = simplify_undirected(
        src, dst, n, values, index_dtype=index_dtype(n), unique=unique
    )
    simple = SimpleGraph(n, lo, hi, undirected_degree(lo, hi, n, lo_sorted=not unique), values)
    if square_sum:
        simple.square_sum()
    return simple


@dataclass
class Prepared:
    """An oriented CSR ready for counting.

    Attributes
    ----------
    n : int
        Number of vertices.
    indptr, indices, rows : arrays
        CSR of the arcs (``rows`` is the source of each arc), neighbour lists sorted.
    values : array or None
        One value per arc (CSR order), for weighted triangle sums.
    perm : array or None
        ``perm[new_id] = original_id`` when the vertices were reordered.
    degree : array or None
        Undirected degree of every vertex (CSR ids), for undirected graphs.
    orientation, ordering : str
        How the CSR was made; ``orientation == "arcs"`` means the arcs of a
        directed graph as given, which may contain cycles.
    ascending : bool
        Every arc goes from a smaller CSR id to a larger one, so kernels may
        assume it (e.g. a triangle's closing arc has a known direction). False,
        the safe value, unless the preprocessing guarantees it.
    derived : dict
        Arrays an algorithm derives once and reuses (e.g. wedge prefix sums).
    """

    n: int
    indptr: object
    indices: object
    rows: object
    values: object = None
    perm: object = None
    degree: object = None
    orientation: str = "id"
    ordering: str = "none"
    ascending: bool = False
    derived: dict = field(default_factory=dict)

    @property
    def acyclic(self):
        """True when every triangle appears exactly once as a transitive triple."""
        return self.orientation != "arcs"

    @property
    def m(self):
        """Number of arcs."""
        return int(self.indices.size)

    def to_original_vertices(self, per_vertex):
        """Reindex a per-vertex array from CSR ids to original ids."""
        if self.perm is None:
            return per_vertex
        xp = module_of(per_vertex)
        out = xp.empty_like(per_vertex)
        out[self.perm] = per_vertex
        return out

    def arcs_original(self):
        """The arcs ``(src, dst)`` in CSR order, as original vertex ids."""
        if self.perm is None:
            return self.rows, self.indices
        return self.perm[self.rows], self.perm[self.indices]


def prepare_undirected(src, dst, n, *, orientation, ordering, values=None, unique=False):
    """Simplify, reorder and orient an undirected edge list into a ``Prepared``:
    :func:`prepare_simple` of :func:`simple_graph`.

    Parameters
    ----------
    src, dst : integer arrays
        Edges in either or both directions, duplicates and self-loops allowed.
    n : int
    orientation : {"id", "degree", "a-direction"}
    ordering : {"none", "degree", "a-order", "in-degree", "collective"}
    values : array, optional
        One value per edge (last occurrence of a repeated edge wins).
    unique : bool
        Each undirected edge appears at most once (skips the dedup sort).

    Returns
    -------
    Prepared
    """
    simple = simple_graph(src, dst, n, values=values, unique=unique)
    return prepare_simple(simple, orientation=orientation, ordering=ordering)


def prepare_simple(simple, *, orientation, ordering):
    """Reorder and orient a simple graph into a ``Prepared``.

    Orderings ``none`` and ``degree`` relabel the vertices and then orient the
    edges; ``a-order``, ``in-degree`` and ``collective`` are computed from the
    oriented arcs, which are then relabelled keeping their directions.

    Parameters
    ----------
    simple : SimpleGraph
    orientation : {"id", "degree", "a-direction"}
    ordering : {"none", "degree", "a-order", "in-degree", "collective"}

    Returns
    -------
    Prepared
        Its ``perm`` maps CSR ids to the original ids, ``degree`` is in CSR ids
        and ``values`` follow their arcs.
    """
    n, degree = simple.n, simple.degree
    dtype = index_dtype(n)
    if ordering in BEFORE_ORIENTATION:
        perm = vertex_order(ordering, degree)
        if perm is not None:
            perm = perm.astype(dtype)
        keys = oriented_keys(orientation, simple, perm)
    else:
        arc_src, arc_dst = orient(orientation, simple.lo, simple.hi, degree)
        perm = arc_order(ordering, arc_src, arc_dst, n).astype(dtype)
        rank = relabel(perm, n)
        keys = packed_keys(rank[arc_src], rank[arc_dst], n)
    degree = _relabelled(degree, perm)
    indptr, indices, rows, values = csr_from_keys(
        keys, n, dtype, simple.values, arcs=simple.edge_count
    )
    # Arcs go to higher ids under id orientation while the ids follow the
    # original order or the degrees; degree orientation on ascending-degree
    # ids is the same orientation.
    ascending = ordering in BEFORE_ORIENTATION and (
        orientation == "id" or (orientation == "degree" and ordering == "degree")
    )
    return Prepared(
        n, indptr, indices, rows, values, perm, degree, orientation, ordering, ascending
    )


def _relabelled(per_vertex, perm):
    """``per_vertex`` in the new ids of ``perm`` (unchanged for None)."""
    return per_vertex if perm is None else per_vertex[perm]


def prepare_arcs(src, dst, n):
    """The successor CSR of a directed edge list (duplicates and self-loops dropped)."""
    dtype = index_dtype(n)
    # The simple arcs come sorted by (source, target): already the CSR order.
    arc_src, arc_dst, _ = simplify_directed(src, dst, n, index_dtype=dtype)
    indptr = row_pointers(arc_src, n)
    return Prepared(n, indptr, arc_dst, arc_src, orientation="arcs", ordering="none")
