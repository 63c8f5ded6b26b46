"""Shares of one count's work (TRUST §5.1, workload partitioning): the whole
oriented graph on every worker, each counting the triangles whose base vertex
(the source of their first arc) lies in its ranges of CSR ids.

Every algorithm finds a triangle once, from its base vertex: wedge from the
wedge ``(v; w, u)`` of its base ``v``, the per-arc algorithms from the arc
``u -> v`` of its base ``u``, hash and vertex from the task of ``u``. A range
``[first, end)`` of base vertices therefore splits any count exactly: the shares'
totals, per-vertex and per-arc counts add up to the whole count's.

The ranges are cut by cost, not by vertex count: wedge's work is the wedges of
each base vertex, the intersecting algorithms' the lists an arc ``u -> v`` reads,
about ``d+(u) + d+(v)`` (:func:`vertex_costs`). Their costs fall from the first
to the last (guided self-scheduling): workers that take them in turn end within
a small share of each other even where the cost model misjudges a range.
"""

import numpy as np

from ..gpu.device import module_of
from .counts import two_sum

__all__ = ["vertex_costs", "work_shares", "add_raw", "share_scratch", "release_scratch", "COST_CHUNK"]

#: Key of a graph's ``derived`` under which the shares of one count keep what
#: each would otherwise make again (wedge: its bitmap), until the count ends.
SCRATCH = "share_scratch"

#: Arcs whose heads' out-degrees are summed at a time (bounds the temporary
#: arrays of :func:`vertex_costs` on a large graph to a few hundred MB).
COST_CHUNK = 1 << 25


def vertex_costs(prepared, algorithm):
    """Each vertex's work as a base vertex (float64, length ``n``, on the
    prepared graph's device): its wedges ``C(d+, 2)`` for wedge, else
    ``d+(u)² + Σ d+(v)`` over its arcs ``u -> v`` (what the intersections read),
    both plus ``d+(u)`` for the arcs themselves."""
    p = prepared
    xp = module_of(p.indptr)
    out_degree = (p.indptr[1:] - p.indptr[:-1]).astype(np.float64)
    if algorithm == "wedge":
        return out_degree * (out_degree - 1) / 2 + out_degree
    costs = out_degree * out_degree + out_degree
    for first in range(0, p.m, COST_CHUNK):
        arcs = slice(first, min(first + COST_CHUNK, p.m))
        heads = out_degree[p.indices[arcs]]
        costs += xp.bincount(p.rows[arcs], weights=heads, minlength=p.n)[: p.n]
    return costs


def work_shares(prepared, algorithm, shares, costs=None):
    """Cut the base vertices into at most ``shares`` ranges of falling cost.

    Parameters
    ----------
    prepared : Prepared
        The whole oriented CSR (NumPy or CuPy).
    algorithm : str
        The count's algorithm (:func:`vertex_costs`).
    shares : int
        How many ranges to cut, at least 1.
    costs : array, optional
        Each vertex's cost (float64, length ``n``, on the graph's device); by
        default :func:`vertex_costs`.

    Returns
    -------
    list of (int, int)
        Ranges ``(first, end)`` of CSR ids that together cover ``0 .. n``, none
        empty, the costliest first (workers that take them in turn finish close
        together).
    """
    if shares < 1:
        raise ValueError(f"shares must be at least 1, got {shares}")
    n = prepared.n
    if shares == 1 or n < 2:
        return [(0, n)]
    xp = module_of(prepared.indptr)
    cumulative = xp.cumsum(vertex_costs(prepared, algorithm) if costs is None else costs)
    # Shares of falling cost, S, S - 1, ..., 1 parts of S (S + 1) / 2: taken
    # costliest first, the last ones are small, and so is the wait for them.
    weights = np.arange(shares, 0, -1, dtype=np.float64)
    fractions = xp.asarray(np.cumsum(weights)[:-1] / weights.sum())
    targets = cumulative[-1] * fractions
    cuts = xp.searchsorted(cumulative, targets, side="right")
    # The cuts with the cost before each, and the whole cost: one read from a GPU.
    read = xp.concatenate([cuts.astype(np.float64), cumulative[xp.maximum(cuts - 1, 0)], cumulative[-1:]])
    read = read if xp is np else read.get()
    cost_before = dict(zip(read[: cuts.size].astype(np.int64).tolist(), read[cuts.size : -1].tolist()))
    cost_before.update({0: 0.0, n: float(read[-1])})
    bounds = sorted(cost_before)
    ranges = list(zip(bounds[:-1], bounds[1:]))
    costs = np.diff([cost_before[b] for b in bounds])
    order = np.argsort(-costs, kind="stable")
    return [ranges[i] for i in order]


def add_raw(a, b):
    """The sum of two raw outputs of one count's shares (``count_cpu`` /
    ``count_gpu``): ints, per-vertex or per-arc arrays, or weighted ``(2, n)``
    compensated pairs, added with their rounding kept (``counts.two_sum``).
    ``b`` must be on ``a``'s device."""
    if a is None:
        return b
    if isinstance(a, int):
        return a + b
    if a.ndim == 2:  # weighted: (sums, errors)
        sums, rounding = two_sum(a[0], b[0])
        xp = module_of(sums)
        return xp.stack([sums, a[1] + b[1] + rounding])
    return a + b


def share_scratch(prepared):
    """The dict in which the shares of one count of ``prepared`` keep what they
    all read (made by the first share that needs it, read by the others);
    :func:`release_scratch` drops it when the count ends."""
    return prepared.derived.setdefault(SCRATCH, {})


def release_scratch(prepared):
    """Drop the share scratch of ``prepared`` (its memory back to the pool)."""
    prepared.derived.pop(SCRATCH, None)
