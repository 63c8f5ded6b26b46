"""What ``auto`` looks at on the GPU: how skewed a graph's degrees are.

The statistic is the mean degree of an edge's endpoint, ``sum(d**2) / sum(d)``:
on a graph of hubs most edges touch one, and the wedges through the hubs (the
work of an intersection-based count) grow with it. It is computed from the edge
rows as given (duplicates counted), on the device that will count. Counting the
degrees of every row costs atomics per row (7 ms on R-MAT 23's 134M rows, an
H100), so above :data:`SAMPLE_ROWS` rows it reads an even sample of the rows and
corrects for the sampling (:func:`degree_statistics`).
"""

from dataclasses import dataclass

import numpy as np

from .device import module_of
from .preprocess import elementwise
from .preprocess.csr import endpoint_counts

__all__ = ["SAMPLE_ROWS", "DegreeStatistics", "degree_statistics"]

#: Rows read at most: every ``k``-th row of a longer edge list. The atomic adds on
#: the hubs' counters serialise, so fewer rows cost less: on R-MAT 18 (H100) the
#: statistics added 0.21 ms to a 3.4 ms count with 2**20 rows (and 0.2-0.3 ms with
#: 2**18: the launches and the synchronisation dominate at these sizes).
SAMPLE_ROWS = 1 << 18


@dataclass(frozen=True)
class DegreeStatistics:
    """Degree statistics of an edge list.

    Attributes
    ----------
    rows : int
        Edge rows (duplicates and self-loops included).
    endpoint_degree : float
        ``sum(d**2) / sum(d)`` over the vertices' degrees ``d`` in the rows: the
        mean degree of an edge's endpoint (0 without edges); an estimate when the
        rows were sampled.
    sampled_rows : int
        The rows read.
    """

    rows: int
    endpoint_degree: float
    sampled_rows: int


def degree_statistics(src, dst, n):
    """Degree statistics of the edge rows ``src - dst`` over ``n`` vertices.

    With more than :data:`SAMPLE_ROWS` rows, every ``k``-th row is read. Keeping
    each row with probability ``p`` makes a degree ``d`` binomial, so the sample's
    ``sum(d_s**2) / sum(d_s)`` is ``p * S + (1 - p)`` in expectation, where ``S``
    is the statistic of all rows; the estimate inverts that.

    Returns
    -------
    DegreeStatistics
    """
    rows = int(src.size)
    stride = max(1, -(-rows // SAMPLE_ROWS))
    src, dst = src[::stride], dst[::stride]
    sampled = int(src.size)
    if sampled == 0:
        return DegreeStatistics(rows=rows, endpoint_degree=0.0, sampled_rows=0)
    degree = endpoint_counts(src, dst, n)
    # Every row adds 2 to the degree sum; the squares take one reduction.
    if module_of(degree) is np:
        squares = float(np.dot(degree, degree))
    else:
        squares = elementwise.square_sum(degree)
    p = sampled / rows
    return DegreeStatistics(
        rows=rows, endpoint_degree=(squares / (2 * sampled) - (1 - p)) / p, sampled_rows=sampled
    )
