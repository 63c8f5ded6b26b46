"""Counting modes and the ``Counts`` every algorithm returns."""

from dataclasses import dataclass

__all__ = ["MODES", "TOTAL", "PER_NODE", "PER_EDGE", "Counts"]

#: ``total``: the number of triangles. ``per_node``: triangles at each vertex
#: (or, when the Prepared carries arc values, the sum over each vertex's
#: triangles of the product of their three arc values). ``per_edge``: triangles
#: on each arc (edge support, for k-truss).
MODES = ("total", "per_node", "per_edge")

# Integer codes passed to the compiled kernels.
TOTAL, PER_NODE, PER_EDGE = 0, 1, 2


@dataclass
class Counts:
    """Result of one count, in original vertex ids.

    Attributes
    ----------
    mode : str
        One of :data:`MODES`.
    total : int or None
        Number of triangles (mode ``total``).
    per_node : array or None
        Per-vertex counts or weighted sums, indexed by original id (mode ``per_node``).
    edge_src, edge_dst, per_edge : arrays or None
        Each arc of the oriented graph (original ids) and its triangle count
        (mode ``per_edge``).
    algorithm, device : str
        What produced the result.
    """

    mode: str
    algorithm: str
    device: str
    total: int | None = None
    per_node: object = None
    edge_src: object = None
    edge_dst: object = None
    per_edge: object = None
