"""Edge weights as NetworkX's weighted clustering reads them, made from a
``TriGraph``'s weight column and cached on it (keys in
:mod:`nx_tricount.classes.preparation`'s table): the largest weight
``max_w``, the normalised values ``cbrt(w / max_w)`` of the rows, and the
simple graph with those values on its edges.
"""

import numpy as np

from .. import preprocess
from ..gpu.device import module_of
from ..preprocess.edge_values import normalised_values

__all__ = ["normalised_weights", "max_weight", "weighted_simple_graph"]


def normalised_weights(G, weight, device):
    """``(cbrt(w / max_w) per edge row, max_w)`` for the edge attribute ``weight``.

    Rows without a weight column weigh 1, as NetworkX's ``.get(weight, 1)``
    gives; ``max_w`` is NetworkX's ``max_weight`` (:func:`max_weight`). The
    values are meaningless when ``max_w == 0``, where NetworkX raises
    ZeroDivisionError (the caller does).
    """

    def build():
        weights = _weights_on(G, weight, device)  # moved to the device once for both
        largest = max_weight(G, weight, device, lambda: _rows_max(G, weights, device))
        return normalised_values(weights, largest), largest

    return G.cached(("values", weight, device), build)


def max_weight(G, weight, device, largest=None):
    """NetworkX's ``max_weight`` for the edge attribute ``weight``: the largest
    weight over the edges (the last row of a repeated edge, self-loops
    included), 1.0 with no edges; kept on ``G`` under ``("max weight", w)``.
    ``largest``, a function, finds it where the caller has its own way (the
    weights already on the device, or those the deduplicated edges keep);
    by default from the rows."""

    def from_rows():
        return _rows_max(G, _weights_on(G, weight, device), device)

    return G.cached(("max weight", weight), largest or from_rows)


def _rows_max(G, weights, device):
    """:func:`~nx_tricount.preprocess.edge_values.max_edge_value` of ``G``'s rows with ``weights``."""
    src, dst = G.edges_on(device)
    return preprocess.max_edge_value(src, dst, G.n, weights, directed=G.directed, unique=G.unique_edges)


def _weights_on(G, weight, device):
    """The float64 weights of the edge rows on ``device``: 1 where the column is missing."""
    column = G.edge_data.get(weight)
    if column is None:
        # Made on the host: CuPy's ones() compiles a kernel at its first use.
        column = np.ones(G.src.size, dtype=np.float64)
    elif isinstance(column, list):
        raise TypeError(f"edge attribute {weight!r} must be numeric for weighted clustering")
    elif module_of(column) is np:
        column = column.astype(np.float64, copy=False)  # a cast on the host, before the copy
    # Only read: the values are normalised into a new array.
    return G.column_on(column, device).astype(np.float64, copy=False)


def weighted_simple_graph(G, weight, device):
    """The simple undirected graph of ``G``'s rows with ``cbrt(w / max_w)`` as edge
    values. Rows that may repeat an edge are deduplicated with their weights, and
    ``max_w`` is read from the weights the edges keep (:func:`~nx_tricount.preprocess.
    edge_values.largest_kept_value`): fewer passes than over the rows, and the
    normalisation runs on the edges alone."""
    src, dst = G.edges_on(device)
    if G.unique_edges or G.directed:
        values, _ = normalised_weights(G, weight, device)
        unique = G.unique_edges and not G.directed
        return preprocess.simple_graph(src, dst, G.n, values=values, unique=unique)
    weights = _weights_on(G, weight, device)
    simple = preprocess.simple_graph(src, dst, G.n, values=weights)

    def largest():
        return preprocess.largest_kept_value(src, dst, G.n, weights, simple.values)

    simple.values = normalised_values(simple.values, max_weight(G, weight, device, largest))
    return simple
