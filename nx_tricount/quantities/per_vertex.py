"""The per-vertex quantities NetworkX's triangle functions are made of, counted
on a ``TriGraph`` as a plan says: triangles per node, the numerator ``t`` and
denominator of each vertex's clustering coefficient, and the two sums of
transitivity. Arrays stay on the plan's device; the NetworkX layer
(:mod:`nx_tricount.nxapi.cluster`) shapes them into NetworkX's results.
"""

import numpy as np

from ..algorithms import coefficients
from ..classes import preparation
from ..execution.execute import run
from ..gpu.device import module_of
from ..metadata.catalog import PAIR_TRANSITIVITY
from ..preprocess.ops import ops_for
from .oriented import whole_oriented

__all__ = [
    "triangles_per_node",
    "clustering_terms",
    "clustering_coefficients",
    "mean_terms",
    "transitivity_sums",
]


def _oriented(G, plan, weight=None):
    """The oriented graph of ``G`` that ``plan`` counts: its partition prepared in
    chunks on the count's device when the plan streams it, else its whole CSR
    (:func:`~nx_tricount.quantities.oriented.whole_oriented`).

    Raises
    ------
    ValueError
        A ``weight`` with a plan made for unweighted counts, whose graph is
        streamed (``make_plan(weighted=True)`` plans weighted ones).
    """
    spread = plan.spread
    if spread.streamed and weight is not None:
        raise ValueError(
            "this plan prepares the unweighted graph in chunks; a weighted count needs "
            "make_plan(G, weighted=True)"
        )
    if spread.streamed:
        return preparation.partitioned_graph(
            G, plan.orientation, plan.ordering, spread.parts, spread.scheme, spread.memory_limit, plan.device
        )
    return whole_oriented(G, plan, weight)


def triangles_per_node(G, plan):
    """Triangles at each vertex of ``G``'s simple undirected graph (int64 array)."""
    return run(plan, _oriented(G, plan), "per_node").per_node


def clustering_terms(G, plan, weight, considered):
    """``(sums, degree, reciprocal)`` per vertex, the terms of each vertex's
    clustering (:func:`~nx_tricount.algorithms.coefficients.from_sums` divides them).

    Undirected: ``sums`` are the triangles (or the weighted sums) at the vertex,
    ``degree`` its degree and ``reciprocal`` None; the clustering is
    ``2 sums / (deg (deg - 1))``. Directed (Fagiolo): ``sums`` over the directed
    pairs' values, ``degree`` the total degree ``d_tot`` and ``reciprocal`` the
    reciprocal pairs ``d_recip``; the clustering is
    ``2 sums / (2 (d_tot (d_tot - 1) - 2 d_recip))``.

    Parameters
    ----------
    G : TriGraph
    plan : Plan
    weight : str or None
    considered : slice or list of int
        The vertices NetworkX visits: where it would divide by a zero
        ``max_weight``, ZeroDivisionError is raised as NetworkX raises it.

    Raises
    ------
    ZeroDivisionError
        Every weight is 0 and NetworkX would divide by the largest one.
    """
    settings = (plan.orientation, plan.ordering, plan.preparation_device)
    if G.directed:
        pairs = preparation.directed_pairs_csr(G, *settings, weight)
        # NetworkX divides by max_weight only inside its sums over triangles.
        if pairs.max_weight == 0:
            unweighted, _, _ = clustering_terms(G, plan, None, considered)
            if bool((unweighted[considered] != 0).any()):
                raise ZeroDivisionError("division by zero")
        sums = run(plan, pairs.prepared, "per_node").per_node
        return sums, pairs.total_degree, pairs.reciprocal_degree
    prepared = _oriented(G, plan, weight)
    degree = prepared.to_original_vertices(prepared.degree)
    if weight is not None:
        max_weight = preparation.max_weight(G, weight, plan.preparation_device)
        # NetworkX divides by max_weight for every neighbour of a visited node.
        if max_weight == 0 and bool((degree[considered] > 0).any()):
            raise ZeroDivisionError("division by zero")
    return run(plan, prepared, "per_node").per_node, degree, None


def clustering_coefficients(G, plan, weight, considered):
    """``(ratio, nonzero)`` on the device they were counted on: each vertex's
    clustering (0.0 where its numerator ``2 sums`` is 0) and where that numerator
    is nonzero (:func:`clustering_terms` says what the terms are; the arguments
    are its). On the GPU, one launch of a kernel compiled ahead."""
    return coefficients.from_sums(*clustering_terms(G, plan, weight, considered))


def mean_terms(ratio, nonzero):
    """The coefficients their mean adds (``ratio`` and ``nonzero`` of
    :func:`clustering_coefficients`), on ``ratio``'s device: on the GPU only those
    where ``nonzero`` holds (:func:`~nx_tricount.algorithms.coefficients.nonzero_terms`),
    as a zero changes neither of CPython's sums: the running sum starts at
    ``+0.0``, and a compensation a zero could spoil is one that is never added.
    R-MAT 25 on one H200: the mean of 33.5M coefficients had taken 0.08 s of a
    0.87 s call. On the CPU, all of them."""
    if module_of(ratio) is np:
        return ratio
    return coefficients.nonzero_terms(ratio, nonzero)


def transitivity_sums(G, plan):
    """``(closed, triads)`` as Python ints: transitivity is ``closed / triads``.

    Undirected: six times the triangles over ``sum deg (deg - 1)``. Directed, as
    NetworkX counts on successor sets: the transitive triples ``v->w, v->u,
    w->u`` over the ordered pairs of successors, ``sum d+ (d+ - 1)``. Merge and
    wedge count them once per triangle of the arc pairs
    (:mod:`~nx_tricount.algorithms.transitive`), the other algorithms once per arc
    of the successor lists.

    The plan's hashed pipeline prepares the CSR in one launch that also sums
    ``sum deg (deg - 1)`` and, with ``merge_total="fused"``, counts the
    triangles: both are read from that launch's result.
    """
    if plan.pipeline == "hashed" and not G.directed:
        fused = plan.merge_total == "fused"
        built = preparation.hashed_csr(G, plan.preparation_device, count_triangles=fused)
        triangles = built.triangles if fused else run(plan, built.prepared, "total").total
        return 6 * triangles, built.pair_sum
    # The pair sum is queued before the count and read after it: on the GPU it
    # then waits for nothing of its own (one H200, R-MAT 18: the call 13 us sooner).
    if G.directed and plan.algorithm in PAIR_TRANSITIVITY and plan.spread.executor == "whole":
        from ..algorithms import transitive  # numba and CuPy load with the first count

        prepared = preparation.directions_csr(G, plan.orientation, plan.ordering, plan.device)
        triads = _pair_sum(_out_degrees(prepared))
        if plan.device == "gpu":
            # Wedge's kernel parameters hold; merge's total layout is of the undirected count.
            parameters = dict(plan.parameters) if plan.algorithm == "wedge" else {}
            closed = transitive.count_gpu(prepared, plan.algorithm, **parameters)
        else:
            closed = transitive.count_cpu(prepared, plan.algorithm)
    elif G.directed:
        prepared = preparation.successor_csr(G, plan.preparation_device)
        triads = _pair_sum(prepared.indptr[1:] - prepared.indptr[:-1])
        closed = run(plan, prepared, "total").total
    else:
        prepared = _oriented(G, plan)
        triads = _pair_sum(prepared.degree)
        closed = 6 * run(plan, prepared, "total").total
    return closed, int(triads)


def _pair_sum(degree):
    """``sum d (d - 1)`` of ``degree``, queued on the GPU (``int()`` reads it)."""
    degree = degree.astype(np.int64, copy=False)
    return ops_for(degree).pair_sum(degree)


def _out_degrees(prepared):
    """Each vertex's successors, from the directions of its oriented arc pairs
    (bit 0: the arc's source has the other end as successor, bit 1: its target)."""
    ops, n = ops_for(prepared.indices), prepared.n
    along, against = prepared.values & 1, prepared.values >> 1
    degree = ops.vertex_counts(prepared.rows, n, along) + ops.vertex_counts(prepared.indices, n, against)
    return degree.astype(np.int64)
