"""TRUST's collective ordering (trust-hashing.md §4.1): number the out-neighbours
of the vertices with the largest collective degree first.

The collective degree of ``u`` is the sum of the out-degrees of its
out-neighbours: the work of ``u``'s hash lookups (TRUST's Equation 2). Consecutive
ids hash to different buckets, so giving the out-neighbours of the heaviest
vertices consecutive ids lowers the maximum collision where it costs most.

The rule is a walk: take the vertices by descending collective degree (ties by
id); give each out-neighbour of the current vertex, in ascending id order, the
next id unless it has one already; vertices never reached (in-degree 0) take the
remaining ids in id order. The walk is sequential, but its result is not: a
vertex is numbered at its first appearance in the walk, i.e. by the earliest
walk position among its in-neighbours, ties by its own id (the order within
that in-neighbour's sorted list). That needs one sort of the arcs, so the code
runs on NumPy and CuPy arrays alike with nothing edge-sized leaving the device;
the cost is that of building a CSR (O(m log m) on the CPU, a radix sort on the
GPU) rather than the walk's O(m). See docs/algorithms.md, 'Preprocessing'.
"""

from ..gpu.device import module_of
from .ops import ops_for

__all__ = ["collective_order"]


def collective_order(src, dst, n):
    """Return ``perm`` (``perm[new_id] = old_id``) of TRUST's collective ordering.

    Parameters
    ----------
    src, dst : integer arrays
        The oriented arcs ``src -> dst``, each once.
    n : int
        Number of vertices.

    Returns
    -------
    int64 array
    """
    xp = module_of(src)
    ops = ops_for(src)
    out_degree = ops.vertex_counts(src, n)
    # Sums of at most m integers: exact in float64, whatever the order of the adds.
    collective = ops.vertex_counts(src, n, weights=out_degree[dst].astype(xp.float64))
    walk = xp.argsort(-collective, kind="stable")
    position = xp.empty(n, dtype=xp.int64)
    position[walk] = xp.arange(n, dtype=xp.int64)
    # Arcs grouped by head, each group by ascending walk position of the tail:
    # the first of a group is the head's first appearance in the walk.
    heads, when = ops.unpack_keys(xp.sort(ops.packed_keys(dst, position[src], n)), n, xp.int64)
    first = xp.empty(heads.size, dtype=bool)
    if heads.size:
        first[0] = True
        xp.not_equal(heads[1:], heads[:-1], out=first[1:])
    reached, when = heads[first], when[first]
    # reached ascends by id, so a stable sort by walk position breaks ties by id.
    numbered = reached[xp.argsort(when, kind="stable")]
    unreached = xp.ones(n, dtype=bool)
    unreached[reached] = False
    return xp.concatenate([numbered, xp.nonzero(unreached)[0].astype(xp.int64)])
