"""The GPU memory a count takes, by how it is spread: whole, prepared in passes,
split on the GPU, one task of a 2D partition, or replicated on GPUs that prepare
the graph together. Upper bounds per edge row, arc and vertex, from the pools measured
(``docs/benchmarks.md``, "GPU memory", "Beyond one GPU" and "Several GPUs"); the
plan compares them with the memory limit (:mod:`nx_tricount.planning.spread`)."""

import math

from ..algorithms.wedge_layout import rectangle_bytes, triangle_words
from ..metadata.catalog import BITMAP_ROWS
from ..preprocess.partition import task_arcs

__all__ = [
    "WHOLE_BYTES_PER_ROW",
    "whole_bytes",
    "passes_bytes",
    "together_bytes",
    "split_bytes",
    "task_bytes",
    "task_graph_bytes",
    "largest_task_bytes",
]

#: GPU bytes of a whole count per edge row, input included: R-MAT 26 counted
#: whole in a pool of 52 GiB (52 a row); R-MAT 22 and 23 left pools of 91–95 a
#: row, an upper bound (docs/benchmarks.md, "GPU memory" and "Beyond one GPU").
WHOLE_BYTES_PER_ROW = 64
#: GPU bytes of a count prepared in passes (:mod:`~nx_tricount.preprocess.passes`),
#: once prepared: per edge row, its CSR's targets and sources (int32 ids; twice
#: that for int64); per vertex, the row pointers, degrees, vertex map and the
#: count's own (wedge prefix sums, counts per node and their coefficients); and
#: the wedge count's bitmap. The passes keep within the limit by waiting in host
#: memory when what waits does not fit beside them.
PASSES_BYTES_PER_ROW = 8
PASSES_BYTES_PER_VERTEX = 48
#: GPU bytes per edge row of a graph prepared whole and split into its parts on
#: the GPU: R-MAT 24 under partitions=4 left a pool of 74 a row against 48 whole
#: (docs/benchmarks.md, "Beyond one GPU"), the whole estimate's margin kept.
SPLIT_BYTES_PER_ROW = 100
#: GPU bytes of a task's graph per arc: local ids, keys, their sort, the CSR and
#: the arcs' positions (``preprocess/partition.py``), and the count's own.
TASK_BYTES_PER_ARC = 96
#: And per vertex of the task graph: row pointers and per-node counters.
TASK_BYTES_PER_VERTEX = 48

#: GPU bytes of a replicated count whose GPUs prepare its graph together
#: (:mod:`~nx_tricount.preprocess.together`), on each GPU: its share of the
#: preparation, per edge row of its share, and its copy of the prepared graph with
#: the count's own, per edge row of the whole graph. Four H200s left pools of
#: 36-44 GiB each on R-MAT 27 and 71-79 on R-MAT 28, two 48-56 on R-MAT 27: 24 and
#: 16 bytes, here with margins (docs/benchmarks.md, "Several GPUs").
TOGETHER_SHARE_BYTES_PER_ROW = 28
REPLICA_BYTES_PER_ROW = 18


def whole_bytes(rows):
    """GPU bytes of counting a graph of ``rows`` edge rows whole."""
    return WHOLE_BYTES_PER_ROW * rows


def passes_bytes(rows, n):
    """GPU bytes of counting a graph of ``rows`` edge rows and ``n`` vertices
    whole, prepared in passes: its CSR and its count."""
    ids = 1 if n < 2**31 else 2  # int32 ids below 2**31 vertices (preprocess.index_dtype)
    bitmap = 4 * triangle_words(min(BITMAP_ROWS, n))
    return ids * PASSES_BYTES_PER_ROW * rows + PASSES_BYTES_PER_VERTEX * n + bitmap


def together_bytes(rows, devices):
    """GPU bytes of a replicated count of a graph of ``rows`` edge rows that the
    workers on ``devices`` (GPU ids, one per worker) prepare together, on the GPU
    holding the most of them: each worker's share of the preparation and its copy."""
    devices = list(devices)
    busiest = max(devices.count(device) for device in devices)
    return busiest * (TOGETHER_SHARE_BYTES_PER_ROW * -(-rows // len(devices)) + REPLICA_BYTES_PER_ROW * rows)


def split_bytes(rows):
    """GPU bytes of preparing a graph of ``rows`` edge rows whole and splitting it there."""
    return SPLIT_BYTES_PER_ROW * rows


def task_bytes(rows, n, p):
    """GPU bytes of one task of a ``p``-part partition (``rows`` bounds the arcs;
    hashed classes share them out about equally)."""
    return task_graph_bytes(math.ceil(3 * rows / (p * p)), math.ceil(n / p))


def largest_task_bytes(partition, tasks):
    """GPU bytes of the largest of ``tasks`` (each with ``i``, ``j``, ``k``) of
    ``partition``, from its parts' real arcs (range tasks are unequal)."""
    arcs = max((task_arcs(partition, t.i, t.j, t.k) for t in tasks), default=0)
    class_size = max(partition.classes.size(c) for c in range(partition.p))
    return task_graph_bytes(arcs, class_size)


def task_graph_bytes(arcs, class_size):
    """GPU bytes of a task graph of ``arcs`` arcs over three blocks of at most
    ``class_size`` vertices, the wedge count's bitmap rectangle included."""
    side = min(BITMAP_ROWS // 2, class_size)
    return TASK_BYTES_PER_ARC * arcs + TASK_BYTES_PER_VERTEX * 3 * class_size + rectangle_bytes(side, side)
