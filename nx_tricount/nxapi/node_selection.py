"""NetworkX's rules for the ``nodes`` argument and for per-node results.

``nodes`` is one node of G (a scalar result), a container or iterator of nodes
(a dict over its members that are in G, in its order), or None (every node, in
G's order); members not in G are skipped, unhashable ones are errors, exactly as
``G.nbunch_iter`` does.

Membership is NetworkX's ``nodes in G``: a dict lookup, so an unhashable object
(a NumPy array, a pandas Series or Index, a list) is never a node, whatever its
elements compare equal to, and a hashable one is a node when it hashes and
compares equal to one (``1.0`` and ``True`` are the node ``1``).
"""

import collections
from typing import NamedTuple

import networkx as nx
import numpy as np

from .python_sum import python_float_sum

__all__ = ["Selection", "select", "per_node_result", "per_node_values", "coefficient_values"]


class Selection(NamedTuple):
    """The nodes a NetworkX computation visits for a ``nodes`` argument.

    Attributes
    ----------
    keys, ids : lists
        The result's keys (the container's own objects, in its order) and their ids.
    single : bool
        ``nodes`` is one node of G: the result is a scalar.
    error : Exception or None
        What NetworkX raises on reaching a member after ``keys`` (an unhashable
        one, say). NetworkX computes node by node, so an error of its computation
        at one of ``keys`` (a ZeroDivisionError) comes first; the caller raises
        ``error`` after computing for ``ids``.
    """

    keys: list
    ids: list
    single: bool
    error: Exception | None = None

    def distinct(self):
        """``(keys, ids)`` with each node once, as a dict over ``keys`` holds
        them: at the node's first occurrence, under its first object."""
        first = {}
        for key, i in zip(self.keys, self.ids):
            first.setdefault(i, key)
        return list(first.values()), list(first)


def _nbunch(G, nodes):
    """Keys and ids of ``G.nbunch_iter(nodes)`` up to its first error, and that
    error (NetworkX's exception, or None).

    ``nodes`` is not a single node of G. The keys are the container's own
    objects, in its order.
    """
    keys, ids = [], []
    member = None
    try:
        for member in nodes:
            hash(member)  # NetworkX's dict lookup rejects unhashable members
            if member in G:
                keys.append(member)
                ids.append(G.node_id(member))
    except TypeError as err:
        message = err.args[0] if err.args else ""
        exc = err
        if "iter" in message:
            exc = nx.NetworkXError("nbunch is not a node or a sequence of nodes.")
        if "object is not iterable" in message:
            exc = nx.NetworkXError(f"Node {nodes} is not in the graph.")
        if "hashable" in message:
            exc = nx.NetworkXError(f"Node {member} in sequence nbunch is not a valid node.")
        return keys, ids, exc
    return keys, ids, None


def select(G, nodes):
    """The vertices a NetworkX computation visits for ``nodes``.

    Returns None for every node, else a :class:`Selection`. An iterator ``nodes``
    is consumed here, once.
    """
    if nodes is None:
        return None
    if nodes in G:
        return Selection([nodes], [G.node_id(nodes)], True)
    keys, ids, error = _nbunch(G, nodes)
    return Selection(keys, ids, False, error)


def per_node_result(G, selection, values):
    """Shape per-vertex Python values (a list in id order) as NetworkX does for
    the selection: a dict in G's or the container's order, or one value."""
    if selection is None:
        # An unlabeled graph's labels are a range, whose ints are made as the dict takes
        # them: a list of them made first had cost 6% more (62,586 nodes, 4.84 -> 4.57 ms).
        return dict(zip(G.label_list(), values))
    keys, ids, single, _ = selection
    if single:
        return values[ids[0]]
    return {key: values[i] for key, i in zip(keys, ids)}


def per_node_values(G, selection, values, nonzero):
    """:func:`per_node_result` of a NumPy array in id order: ``values[i]`` as a
    Python object where ``nonzero[i]``, else the int 0 (NetworkX's rule for
    counts and coefficients). A graph's later dicts of every node are copies of
    ``G.zero_dict()`` updated at the nonzero nodes alone: R-MAT 18's dicts
    (262,144 nodes, 40% nonzero) in 0.8-0.9x the time of the CPython floor,
    ``dict(zip(nodes, values))`` from lists made beforehand
    (``examples/benchmark_networkx.py --floor``). A first dict of fewer than
    :data:`SPARSE_DICT` nonzero values is made so too, from a dict of zeros of its own."""
    if selection is None:
        template = G.zero_dict()  # None for the graph's first dict
        if template is not None:
            return _updated(G, template.copy(), nonzero, values)
        if np.count_nonzero(nonzero) < SPARSE_DICT * nonzero.size:
            return _updated(G, dict.fromkeys(G.label_list(), 0), nonzero, values)
    # A selection, or a first dict of many nonzero values. Integer counts are 0
    # exactly where they are not nonzero: their own list.
    listed = values.tolist() if values.dtype.kind in "iu" else coefficient_values(values, nonzero)
    return per_node_result(G, selection, listed)


def _updated(G, zeros, nonzero, values):
    """The dict ``zeros`` (``{node: 0}`` in id order) with the nodes where
    ``nonzero`` holds set to their ``values``."""
    ids = np.flatnonzero(nonzero)
    # An unlabeled graph's nodes are its ids.
    keys = ids.tolist() if G.labels is None else G.node_key_array()[ids].tolist()
    zeros.update(zip(keys, values[ids].tolist()))
    return zeros


#: Below this share of nonzero values, a graph's first dict of every node is a dict
#: of zeros updated at them, as its later ones are (2-core machine, 62,586 nodes'
#: coefficients: 2% nonzero 3.21 -> 2.68 ms, 7% 5.40 -> 4.80, 9% 5.71 -> 4.92, but 12%
#: 6.41 -> 8.08; fresh clustering of p2p-Gnutella31, 6.9% nonzero, 10.4 -> 9.7 ms).
SPARSE_DICT = 0.08

#: Below this share of nonzero coefficients, :func:`coefficient_values` sets the
#: floats into a list of zeros one by one (2-core machine, 62,586 vertices: 2% nonzero
#: 734 -> 181 us, 5% 487 -> 334, 10% 614 -> 549, 20% 813 -> 1078).
SPARSE_COEFFICIENTS = 0.1


def coefficient_values(ratio, nonzero):
    """Python floats, with the int 0 where the coefficient's numerator is 0 (NetworkX's rule)."""
    if np.count_nonzero(nonzero) < SPARSE_COEFFICIENTS * ratio.size:
        # Few nonzero: each float set into a list of zeros by a C loop (deque consumes map).
        ids = np.flatnonzero(nonzero)
        values = [0] * ratio.size
        collections.deque(map(values.__setitem__, ids.tolist(), ratio[ids].tolist()), maxlen=0)
        return values
    # An object array of int 0s takes a Python float where the numerator is not 0: one
    # C loop, and no float made for the zeros (faster than setting the zeros of
    # `ratio.tolist()` one by one).
    values = np.full(ratio.size, 0, dtype=object)
    np.copyto(values, ratio, where=nonzero)
    return values.tolist()


def node_mean(coefficients, count_zeros, size=None):
    """NetworkX's ``sum(c) / len(c)`` of coefficients in its order (the nonzero
    ones only without ``count_zeros``), added as the running Python's ``sum``
    adds floats (:mod:`nx_tricount.nxapi.python_sum`), so the result is NetworkX's to
    the bit; an empty ``c`` raises ZeroDivisionError, as in NetworkX.

    With ``count_zeros``, ``coefficients`` may leave zeros out (a zero changes
    neither rule's sum: :func:`~nx_tricount.quantities.per_vertex.mean_terms`);
    ``size`` is then the number of all of them, and ``coefficients`` may be a
    CuPy array, added as it reaches host memory. Without, a NumPy array."""
    if not count_zeros:
        coefficients = coefficients[np.abs(coefficients) > 0]
    return python_float_sum(coefficients) / (len(coefficients) if size is None else size)
