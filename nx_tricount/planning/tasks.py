"""The independent counts of a 2D partition (:class:`CountTask`), whose results
add up to the whole count's."""

from dataclasses import dataclass

__all__ = ["CountTask"]


@dataclass(frozen=True)
class CountTask:
    """One independent count over parts of a prepared graph.

    The seam for partitioned counting (2D partitions, trust-hashing.md §5):
    with ``parts = p``, part ``P_ab`` holds the arcs ``u -> v`` with ``u`` in
    vertex class ``a`` and ``v`` in class ``b`` (hashed, ``u mod p = a``, or
    ranges of ids), and task ``(i, j, k)`` counts the
    triangles ``u -> v, u -> w, v -> w`` with ``u, v, w`` in the classes ``i, j,
    k``, from ``P_ij``, ``P_ik`` and ``P_jk``. The ``p³`` tasks split the
    triangles among themselves, so their totals, per-node and per-edge counts
    add up (:func:`nx_tricount.execution.execute.run`). One part (``p = 1``) is the whole
    graph.
    """

    i: int = 0
    j: int = 0
    k: int = 0
    parts: int = 1

    @staticmethod
    def all_of(p):
        """The ``p³`` tasks of ``p`` parts per side, ``(i, j, k)`` in order."""
        return tuple(CountTask(i, j, k, p) for i in range(p) for j in range(p) for k in range(p))
