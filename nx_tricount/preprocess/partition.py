"""2D partitions of an oriented CSR, and the graph of one count task
(``docs/algorithms.md``, "Partitioned counting").

With ``p`` parts per side, the vertices fall into ``p`` classes
(:class:`VertexClasses`): hashed, ``v mod p`` (TRUST §5.1, the default), or
ranges of consecutive ids with about equal degree sums (bitwise-2d-partition.md
§3.2). Part ``P_ab`` holds the arcs ``u -> v`` with ``u`` in class ``a`` and ``v``
in class ``b``, as local ids (a vertex's place in its class). A triangle is found
as the arcs ``u -> v``, ``u -> w``, ``v -> w`` of its source, middle and sink (one
way in an acyclic orientation; in a directed graph's arcs every transitive
triple has its own), so the task ``(i, j, k)`` that takes the triangles with
``u, v, w`` in the classes ``i, j, k`` needs only ``P_ij``, ``P_ik`` and ``P_jk``,
and the ``p³`` tasks share the triangles out exactly. A task with an empty part
has no triangle: where every arc goes to a higher id, ranges leave ``P_ab``
empty for ``a > b``, and only the tasks ``i <= j <= k`` run.

A task's graph keeps three copies of the vertices apart: sources (class ``i``),
middles (class ``j``) and sinks (class ``k``), numbered block after block, with
``P_ij`` as arcs from sources to middles, ``P_ik`` from sources to sinks and
``P_jk`` from middles to sinks. Its triangles are exactly the task's, equal
classes included (the copies are distinct vertices), and every arc goes to a
higher id, so every algorithm counts it as it is. Parts split from a CSR keep
its order, and their task's CSR is merged from them without a sort; parts
gathered in another order (prepared in chunks) are sorted per task.
"""

from dataclasses import dataclass

from ..gpu.device import module_of, to_host, to_module
from ..metadata.catalog import PARTITIONINGS
from .dedup import index_dtype
from .ops import ops_for
from .prepare import Prepared

__all__ = [
    "VertexClasses",
    "Partition",
    "TaskGraph",
    "split",
    "task_graph",
    "task_arcs",
    "task_part_keys",
    "counted_tasks",
]


@dataclass(frozen=True)
class VertexClasses:
    """The ``p`` classes of the vertices ``0 .. n - 1``.

    Attributes
    ----------
    p, n : int
        Classes and vertices.
    starts : tuple of int or None
        None: hashed, vertex ``v`` in class ``v mod p`` at local id ``v // p``.
        Else ``p + 1`` ascending ids from 0 to ``n``: class ``c`` is the ids
        ``starts[c] .. starts[c + 1] - 1``, vertex ``v`` at local id ``v - starts[c]``.
    """

    p: int
    n: int
    starts: tuple | None = None

    @classmethod
    def ranges(cls, degree, p):
        """Ranges of consecutive ids, each with about ``1 / p`` of the degree sum
        (bitwise-2d-partition.md §3.2: parts of about equal size); ``degree`` is
        an int array (host or device) of one entry per vertex."""
        n = int(degree.size)
        if p == 1 or n == 0:
            return cls(p, n, (0, *[n] * p))
        xp = module_of(degree)
        cumulative = xp.cumsum(degree, dtype=xp.int64)
        total = int(cumulative[-1])
        cuts = xp.asarray([c * total // p for c in range(1, p)], dtype=xp.int64)
        inner = to_host(xp.searchsorted(cumulative, cuts, side="right")).tolist()
        return cls(p, n, (0, *inner, n))

    @classmethod
    def of_scheme(cls, scheme, p, n, degree):
        """The classes of ``scheme`` (``"hashed"`` or ``"range"``); ``degree`` is read for ranges only."""
        if scheme not in PARTITIONINGS:
            raise ValueError(
                f"unknown partitioning {scheme!r}; accepted: {', '.join(map(repr, PARTITIONINGS))}"
            )
        return cls(p, n) if scheme == "hashed" else cls.ranges(degree, p)

    @property
    def scheme(self):
        return "hashed" if self.starts is None else "range"

    def of(self, v):
        """The class of each vertex of the int array ``v``."""
        if self.starts is None:
            return v % self.p
        xp = module_of(v)
        if self.p == 1:
            return xp.zeros_like(v)
        # The inner starts are at most n, so they fit the ids' dtype.
        return xp.searchsorted(xp.asarray(self.starts[1:-1], dtype=v.dtype), v, side="right")

    def local(self, v, c):
        """The local ids of the vertices ``v`` of class ``c`` (an int, or their
        classes as an int array)."""
        if self.starts is None:
            return v // self.p
        if isinstance(c, int):
            return v - self.starts[c]
        return v - module_of(v).asarray(self.starts, dtype=v.dtype)[c]

    def size(self, c):
        """How many vertices class ``c`` holds."""
        if self.starts is None:
            return max(0, (self.n - c + self.p - 1) // self.p)
        return self.starts[c + 1] - self.starts[c]

    def members(self, c):
        """The vertices of class ``c``, by local id, as a slice of ``0 .. n - 1``."""
        if self.starts is None:
            return slice(c, c + self.size(c) * self.p, self.p)
        return slice(self.starts[c], self.starts[c + 1])

    def global_ids(self, local, c):
        """The vertices of class ``c`` at the int64 local ids ``local``."""
        if self.starts is None:
            return local * self.p + c
        return local + self.starts[c]


@dataclass
class Partition:
    """The ``p²`` parts of an oriented CSR.

    Attributes
    ----------
    classes : VertexClasses
        Which class each vertex is in, and its local id there.
    parts : dict
        ``(a, b)`` -> ``(sources, targets, arcs, values)``: the local ids of the
        part's arcs in CSR order, their positions in the whole CSR (int64) and
        their values (or None).
    orientation : str
        The whole CSR's orientation (``"arcs"``: a directed graph's arcs as given).
    offsets : dict or None
        Where the parts' ``arcs`` are None (a graph prepared straight into parts,
        ``streamed.py``): arc ``t`` of part ``(a, b)`` is arc ``offsets[(a, b)] + t``.
    in_csr_order : bool
        Each part's arcs are sorted by local source, then local target (as
        :func:`split` leaves them), so task graphs are merged, not sorted.
    ordering : str
        The whole graph's ordering; local ids keep the order of the ids, so with
        ``"degree"`` they ascend by degree within each class.
    """

    classes: VertexClasses
    parts: dict
    orientation: str
    offsets: dict | None = None
    in_csr_order: bool = False
    ordering: str = "none"

    @property
    def p(self):
        """Parts per side (vertex classes)."""
        return self.classes.p

    @property
    def n(self):
        """Vertices of the whole graph."""
        return self.classes.n


@dataclass
class TaskGraph:
    """The graph of task ``(i, j, k)`` and how its results map back.

    Attributes
    ----------
    prepared : Prepared
        Sources, then middles, then sinks; arcs in CSR order.
    classes : tuple of int
        ``(i, j, k)``.
    sizes : tuple of int
        Vertices in each block (the sizes of classes ``i``, ``j``, ``k``).
    arcs : int64 array or None
        Each arc's position in the whole CSR (an arc of ``P_ab`` appears twice
        when two of ``i, j, k`` are equal); None unless asked for.
    """

    prepared: Prepared
    classes: tuple
    sizes: tuple
    arcs: object


def split(prepared, p, scheme="hashed"):
    """The 2D partition of ``prepared`` into ``p²`` parts, on its device.

    Parameters
    ----------
    prepared : Prepared
        Oriented CSR (any orientation, arcs as given included).
    p : int
        Parts per side, at least 1.
    scheme : {"hashed", "range"}
        How vertices fall into classes (:class:`VertexClasses`); ranges balance
        the degrees of the CSR's arcs.

    Returns
    -------
    Partition
    """
    if p < 1:
        raise ValueError(f"parts per side must be at least 1, got {p}")
    xp = module_of(prepared.indices)
    rows, indices = prepared.rows, prepared.indices
    degree = None
    if scheme == "range":
        degree = ops_for(rows).endpoint_counts(rows, indices, prepared.n, a_sorted=True)
    classes = VertexClasses.of_scheme(scheme, p, prepared.n, degree)
    source_class, target_class = classes.of(rows), classes.of(indices)
    part_of = source_class.astype(xp.int64) * p + target_class
    # A stable sort keeps each part's arcs in CSR order.
    order = xp.argsort(part_of, kind="stable")
    bounds = xp.searchsorted(part_of[order], xp.arange(p * p + 1)).tolist()
    parts = {}
    for a in range(p):
        for b in range(p):
            arcs = order[bounds[a * p + b] : bounds[a * p + b + 1]]
            values = None if prepared.values is None else prepared.values[arcs]
            parts[(a, b)] = (classes.local(rows[arcs], a), classes.local(indices[arcs], b), arcs, values)
    # Local ids keep the order of the ids of a class, so each part is in CSR order.
    return Partition(classes, parts, prepared.orientation, in_csr_order=True, ordering=prepared.ordering)


def task_part_keys(i, j, k):
    """The parts task ``(i, j, k)`` reads: ``P_ij``, ``P_ik``, ``P_jk``."""
    return ((i, j), (i, k), (j, k))


def task_arcs(partition, i, j, k):
    """The arcs of task ``(i, j, k)``: ``P_ij``, ``P_ik``, ``P_jk`` (how many rows)."""
    parts = partition.parts
    return sum(int(parts[key][0].size) for key in task_part_keys(i, j, k))


def counted_tasks(partition, tasks):
    """The ``tasks`` (each with ``i``, ``j``, ``k``) that can hold a triangle:
    those whose three parts all hold arcs."""
    parts = partition.parts
    return [t for t in tasks if all(parts[key][0].size for key in task_part_keys(t.i, t.j, t.k))]


def task_graph(partition, i, j, k, xp=None, *, with_arcs=True):
    """The graph of task ``(i, j, k)``, built with array module ``xp`` (default:
    the partition's), the parts copied there.

    ``with_arcs``: find each task arc's position in the whole graph (per-edge
    counts need it; ``TaskGraph.arcs`` is None without).

    Returns
    -------
    TaskGraph
    """
    sizes = tuple(partition.classes.size(c) for c in (i, j, k))
    starts = (0, sizes[0], sizes[0] + sizes[1])
    total = sum(sizes)
    blocks = tuple(zip(task_part_keys(i, j, k), (0, 0, 1), (1, 2, 2)))
    pieces = [partition.parts[key] for key, _, _ in blocks]
    xp = xp or module_of(pieces[0][2])
    dtype = index_dtype(total)
    sources = xp.concatenate(
        [to_module(piece[0], xp).astype(dtype) + starts[s] for piece, (_, s, _) in zip(pieces, blocks)]
    )
    targets = xp.concatenate(
        [to_module(piece[1], xp).astype(dtype) + starts[t] for piece, (_, _, t) in zip(pieces, blocks)]
    )
    values = arcs = None
    if pieces[0][3] is not None:
        values = xp.concatenate([to_module(piece[3], xp) for piece in pieces])
    if with_arcs:
        arcs = xp.concatenate(
            [
                to_module(piece[2], xp)
                if piece[2] is not None
                else xp.arange(partition.offsets[key], partition.offsets[key] + piece[0].size)
                for (key, _, _), piece in zip(blocks, pieces)
            ]
        )
    ops = ops_for(sources)
    if partition.in_csr_order:
        counts = [int(piece[0].size) for piece in pieces]
        indptr, position = _merged_csr(ops, sources, counts, sizes)
        rows, indices, values, arcs = (_placed(a, position) for a in (sources, targets, values, arcs))
    else:
        keys = ops.packed_keys(sources, targets, total)
        if values is None and arcs is None:  # nothing rides with the keys: sort them alone
            indptr, indices, rows = ops.csr_of_sorted_keys(xp.sort(keys), total, dtype, keys.size)
        else:
            order = xp.argsort(keys)
            indptr, indices, rows = ops.csr_of_sorted_keys(keys[order], total, dtype, keys.size)
            values, arcs = (None if a is None else a[order] for a in (values, arcs))
    prepared = _task_prepared(partition, sizes, indptr, indices, rows, values)
    return TaskGraph(prepared, (i, j, k), sizes, arcs)


def _merged_csr(ops, sources, counts, sizes):
    """The ``indptr`` of a task's CSR and each arc's position in it, from its
    parts in CSR order, without a sort.

    ``sources`` holds the task ids of the sources of ``P_ij``, ``P_ik`` and
    ``P_jk``, part after part (``counts`` arcs each). A source's row holds its
    arcs of ``P_ij`` (to middles) before those of ``P_ik`` (to sinks, higher
    ids): an arc of ``P_ij`` comes after the earlier arcs of ``P_ij`` and the
    ``P_ik`` arcs of earlier rows, one of ``P_ik`` after the ``P_ij`` arcs of
    its row and earlier ones and the earlier arcs of ``P_ik``. The middles'
    rows follow, holding ``P_jk`` in its own order.
    """
    xp = module_of(sources)
    ij, ik = counts[0], counts[0] + counts[1]
    to_middles = ops.vertex_counts(sources[:ij], sizes[0])
    to_sinks = ops.vertex_counts(sources[ij:ik], sizes[0])
    from_middles = ops.vertex_counts(sources[ik:] - sizes[0], sizes[1])
    position = xp.arange(sources.size, dtype=xp.int64)
    position[:ij] += (xp.cumsum(to_sinks) - to_sinks)[sources[:ij]]
    position[ij:ik] += xp.cumsum(to_middles)[sources[ij:ik]] - ij
    lengths = xp.concatenate([to_middles + to_sinks, from_middles, xp.zeros(sizes[2], dtype=xp.int64)])
    indptr = xp.zeros(sum(sizes) + 1, dtype=xp.int64)
    indptr[1:] = xp.cumsum(lengths)
    return indptr, position


def _placed(array, position):
    """``array`` with element ``t`` moved to ``position[t]`` (None stays None)."""
    if array is None:
        return None
    out = module_of(array).empty_like(array)
    out[position] = array
    return out


def _task_prepared(partition, sizes, indptr, indices, rows, values):
    # The whole graph's ordering holds within each block (task_blocks says so), so
    # the wedge kernel's bitmap takes the last middles and sinks.
    return Prepared(
        sum(sizes),
        indptr,
        indices,
        rows,
        values,
        orientation=partition.orientation,
        ordering=partition.ordering,
        ascending=True,
        task_blocks=sizes,
    )
