"""Simple graph -> ordered, oriented CSR (:class:`Prepared`), and a directed
graph's arcs -> their successor CSR. See docs/algorithms.md, 'Preprocessing'.
"""

from dataclasses import dataclass, field

from ..gpu.device import module_of
from .csr import csr_from_keys, row_pointers
from .dedup import index_dtype
from .ops import ops_for
from .ordering import BEFORE_ORIENTATION, arc_order, relabel, vertex_order
from .orientation import arc_keys, orient
from .simplify import simple_graph, simplify_directed

__all__ = ["Prepared", "prepare_simple", "prepare_undirected", "prepare_arcs", "ascending_arcs"]


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
    task_blocks : tuple of int or None
        Set on the graph of a task of a 2D partition (``partition.py``): the
        sizes of its blocks of sources, middles and sinks. Arcs go only from a
        block to a later one, so a triangle has one vertex in each, and a
        source's arcs to middles come before its arcs to sinks.
    derived : dict
        Arrays an algorithm derives once from the CSR and reuses (e.g. wedge
        prefix sums, merge's inline layout); never a count.
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
    task_blocks: tuple | None = None
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
    :func:`prepare_simple` of :func:`~.simplify.simple_graph`.

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
    ops = ops_for(degree)
    dtype = index_dtype(n)
    if ordering in BEFORE_ORIENTATION:
        perm = vertex_order(ordering, degree)
        if perm is not None:
            perm = perm.astype(dtype)
        if orientation in ("id", "degree") and simple.values is None:
            rank = None if perm is None else relabel(perm, n)
            indptr, indices, rows = ops.oriented_csr(orientation, simple, rank, dtype)
            values = None
        else:
            keys, arcs = arc_keys(orientation, simple, perm)
            indptr, indices, rows, values = csr_from_keys(keys, n, dtype, simple.values, arcs=arcs)
    else:
        arc_src, arc_dst = orient(orientation, simple.lo, simple.hi, degree)
        perm = arc_order(ordering, arc_src, arc_dst, n).astype(dtype)
        rank = relabel(perm, n)
        keys = ops.packed_keys(rank[arc_src], rank[arc_dst], n)
        indptr, indices, rows, values = csr_from_keys(keys, n, dtype, simple.values, arcs=keys.size)
    degree = degree if perm is None else degree[perm]
    ascending = ascending_arcs(orientation, ordering)
    return Prepared(n, indptr, indices, rows, values, perm, degree, orientation, ordering, ascending)


def ascending_arcs(orientation, ordering):
    """Whether every arc of a CSR so prepared goes to a higher id
    (:attr:`Prepared.ascending`)."""
    # Arcs go to higher ids under id orientation while the ids follow the
    # original order or the degrees; degree orientation on ascending-degree
    # ids is the same orientation.
    return ordering in BEFORE_ORIENTATION and (
        orientation == "id" or (orientation == "degree" and ordering == "degree")
    )


def prepare_arcs(src, dst, n):
    """The successor CSR of a directed edge list (duplicates and self-loops dropped)."""
    dtype = index_dtype(n)
    # The simple arcs come sorted by (source, target): already the CSR order.
    arc_src, arc_dst, _ = simplify_directed(src, dst, n, index_dtype=dtype)
    indptr = row_pointers(arc_src, n)
    return Prepared(n, indptr, arc_dst, arc_src, orientation="arcs", ordering="none")
