"""Vertex orderings: relabel the vertices, before or after orientation.

Before orientation (:func:`vertex_order`, from the undirected degrees):

- ``none`` keeps the ids.
- ``degree`` numbers vertices by ascending undirected degree, ties by id (WeTriC
  §5.1): it flattens the out-degree distribution after orientation and puts the
  densest vertices last, where WeTriC's bitmap rows live.

After orientation (:func:`arc_order`, from the oriented arcs; the arcs keep
their directions, so the orientation stays acyclic):

- ``in-degree`` (trust-hashing.md §4.1) gives consecutive ids by descending
  in-degree, ties by id: the vertices that appear in most neighbour lists get
  consecutive ids, which hash to different buckets.
- ``collective`` (trust-hashing.md §4.1): :mod:`.collective`.
- ``a-order`` (a-direction-a-order-preprocessing.md §5): :mod:`.a_order`.

See docs/algorithms.md, 'Preprocessing'.
"""

from ..gpu.device import module_of, to_host
from ..metadata import catalog
from .a_order import a_order
from .collective import collective_order
from .ops import ops_for

__all__ = [
    "ORDERINGS",
    "BEFORE_ORIENTATION",
    "AFTER_ORIENTATION",
    "vertex_order",
    "arc_order",
    "relabel",
]

ORDERINGS = tuple(catalog.ORDERINGS)
BEFORE_ORIENTATION = ("none", "degree")
AFTER_ORIENTATION = tuple(how for how in ORDERINGS if how not in BEFORE_ORIENTATION)


def _unknown(how):
    return ValueError(f"unknown ordering {how!r}; accepted: {', '.join(ORDERINGS)}")


def vertex_order(how, degree):
    """Return ``perm`` with ``perm[new_id] = old_id``, or None for the identity.

    Parameters
    ----------
    how : {"none", "degree"}
    degree : integer array
        Undirected degree of every vertex (old ids).
    """
    if how == "none":
        return None
    if how == "degree":
        xp = module_of(degree)
        # A degree is below n: 32-bit sort keys (docs/algorithms.md, 'Orderings').
        keys = degree.astype(xp.int32) if degree.size < 2**31 else degree
        return ops_for(keys).ascending_order(keys)
    raise _unknown(how)


def arc_order(how, src, dst, n):
    """Return ``perm`` with ``perm[new_id] = old_id``, computed from oriented arcs.

    Parameters
    ----------
    how : {"a-order", "in-degree", "collective"}
    src, dst : integer arrays
        The oriented arcs ``src -> dst``, each once (old ids).
    n : int
        Number of vertices.

    Returns
    -------
    int64 array of the module of ``src``
        A-order computes on the host and copies only the out-degrees there and
        the permutation back (vertex-sized arrays).
    """
    xp = module_of(src)
    ops = ops_for(src)
    if how == "in-degree":
        return xp.argsort(-ops.vertex_counts(dst, n), kind="stable")
    if how == "collective":
        return collective_order(src, dst, n)
    if how == "a-order":
        return xp.asarray(a_order(to_host(ops.vertex_counts(src, n))))
    raise _unknown(how)


def relabel(perm, n):
    """Return ``rank`` with ``rank[old_id] = new_id`` for a permutation ``perm``."""
    xp = module_of(perm)
    rank = xp.empty(n, dtype=perm.dtype)
    rank[perm] = xp.arange(n, dtype=perm.dtype)
    return rank
