"""Preprocessing: edge list -> simple graph (:class:`SimpleGraph`) -> ordered,
oriented CSR (:class:`Prepared`); see docs/algorithms.md, 'Preprocessing'.

Every step runs on the array module of its input, so edge-sized arrays never
leave the device they start on. The primitives that differ between NumPy and
CuPy sit behind one seam (:func:`.ops.ops_for`): :mod:`.host_ops`, the
reference, and :mod:`.gpu_ops`, with the same functions and signatures.
"""

from .a_direction import orientation_cost
from .dedup import SimpleGraph, index_dtype
from .edge_values import (
    ArcPairs,
    directed_pairs,
    largest_kept_value,
    max_edge_value,
    oriented_directions,
    pair_directions,
)
from .hashed_csr import HashedCSR, hashed_applies, prepare_hashed
from .ordering import ORDERINGS
from .orientation import ORIENTATIONS
from .passes import prepare_in_passes
from .prepare import Prepared, prepare_arcs, prepare_simple, prepare_undirected
from .simplify import simple_graph, simplify_directed, simplify_undirected
from .streamed import STREAMED, PartitionedGraph, prepare_streamed
from .together import REPLICAS, prepare_together

__all__ = [
    "SimpleGraph",
    "Prepared",
    "simple_graph",
    "prepare_simple",
    "prepare_undirected",
    "prepare_arcs",
    "HashedCSR",
    "hashed_applies",
    "prepare_hashed",
    "index_dtype",
    "ORDERINGS",
    "ORIENTATIONS",
    "orientation_cost",
    "simplify_directed",
    "simplify_undirected",
    "max_edge_value",
    "largest_kept_value",
    "directed_pairs",
    "pair_directions",
    "oriented_directions",
    "ArcPairs",
    "STREAMED",
    "PartitionedGraph",
    "prepare_streamed",
    "prepare_in_passes",
    "REPLICAS",
    "prepare_together",
]
