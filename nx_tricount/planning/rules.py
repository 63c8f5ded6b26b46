"""The rules a plan decides by, one function each, and their thresholds:
the device, the algorithm and ordering of ``"auto"``, the preparation pipeline
and merge's total layout. :func:`~.plan.plan_for` applies them in order (the spread's rules
are :mod:`.spread`'s); :func:`~.plan.make_plan`'s notes state them, and the
measurements behind the thresholds are in docs/algorithms.md, "Choosing by
itself", and docs/benchmarks.md.
"""

import math

from ..gpu.device import resolve_device
from ..preprocess.hashed_csr import HASHED_MAX_ROWS, hashed_applies

__all__ = [
    "GPU_MIN_ROWS",
    "GPU_MIN_RESIDENT_ROWS",
    "GPU_LOOK_ROWS",
    "GPU_WEDGE_SKEW",
    "GPU_INLINE_ARCS",
    "choose_device",
    "choose_algorithm",
    "gpu_auto_algorithm",
    "choose_ordering",
    "choose_pipeline",
    "choose_merge_total",
]

#: With ``device="auto"`` on a GPU machine, graphs of fewer edge rows in host memory
#: count on the CPU engine: below it, its whole count is faster than the GPU's
#: launches (measured: docs/benchmarks.md, "Small graphs").
GPU_MIN_ROWS = 10_000
#: The same for edge rows already in GPU memory, which the GPU prepares without
#: sorts, for counts per node (docs/benchmarks.md, "Small graphs"). An undirected
#: total (transitivity) stays on the GPU at any size: one launch prepares and
#: counts it, faster than the CPU engine even on the karate club (same section).
GPU_MIN_RESIDENT_ROWS = 1_500
#: On the GPU, graphs of fewer edge rows count with merge without a look at their
#: degrees (docs/benchmarks.md, "auto: the GPU rule").
GPU_LOOK_ROWS = 3_000_000
#: On the GPU, larger graphs whose mean endpoint degree reaches this count with
#: wedge, below it with merge (docs/benchmarks.md, "auto: the GPU rule").
GPU_WEDGE_SKEW = 1000
#: On the GPU, merge's total reads the CSR's inline layout (``kernels/merge_inline.cu``)
#: when a count reads this many arcs or more (the edge rows bound them). Making it
#: (a launch, a gather of ``indptr[v]`` per arc and a read) costs a fresh graph
#: about what the kernel saves on BA 2M×10, and more than it saves on smaller
#: graphs (measured: docs/algorithms.md, "merge: the inline layout").
GPU_INLINE_ARCS = 1 << 22


def choose_device(requested, statistics, total):
    """``(device, reason)``: the count's device, and why when ``requested`` is
    ``"auto"`` (else None).

    Parameters
    ----------
    requested : {"auto", "cpu", "gpu"}
    statistics : Statistics
    total : bool
        The count is one total (:func:`~.plan.make_plan`'s ``total``).
    """
    resolved = resolve_device(requested)
    if requested != "auto":
        return resolved, None
    rows, resident = statistics.rows, statistics.resident
    smallest = GPU_MIN_RESIDENT_ROWS if resident else GPU_MIN_ROWS
    if resident and total and not statistics.directed:
        smallest = 1  # one launch prepares and counts it (GPU_MIN_RESIDENT_ROWS)
    if resolved == "gpu" and statistics.graph is not None and rows < smallest:
        where = "GPU" if resident else "host"
        return "cpu", (
            f"device auto -> cpu: {rows:,} edge rows in {where} memory (< {smallest:,}), where "
            "the CPU engine's whole count is faster than the GPU's launches "
            "(docs/benchmarks.md, 'Small graphs')"
        )
    return resolved, f"device auto -> {resolved}"


def choose_algorithm(statistics, device, spread, weighted, total=False, small_values=False):
    """``(algorithm, reason)`` of ``algorithm="auto"`` on ``device``, for a count
    spread as ``spread`` (:func:`~.spread.decide`); ``weighted``, ``total`` and
    ``small_values`` are :func:`~.plan.make_plan`'s. A directed transitivity
    counted whole on the GPU follows the undirected rule: merge and wedge both
    count it on the arc pairs; so do sums of small values (a directed graph's pair
    counts), which wedge adds in its plain per-node counters."""
    if spread.preparation_device != device:
        return "wedge", (
            "algorithm auto -> wedge: the graph is counted in parts from host memory, "
            "where the wedge kernel takes only the wedges a task can close and looks "
            "its densest up in a bitmap; merge took a third longer on R-MAT 27 "
            "(docs/benchmarks.md, 'Beyond one GPU')"
        )
    pairs = total and spread.executor == "whole"
    if device == "gpu" and statistics.directed and not weighted and not pairs:
        return "merge", (
            "algorithm auto -> merge: a directed count other than a whole transitivity "
            "runs on the successor lists (their transitive triples per arc), where merge "
            "was as fast as any (R-MAT 20 as arcs, H100: merge 200 ms, wedge 871, hash "
            "55,621; docs/benchmarks.md, 'auto: directed graphs on the GPU')"
        )
    if device == "gpu":
        # An unweighted count on one GPU starts from the simple graph: its build is
        # queued while the estimate crosses, so the GPU has it to run meanwhile. The
        # GPUs of a replicated count may prepare edges in host memory together
        # (preparing.together), none of them whole: the estimate reads its samples in
        # host memory, where moving every row to one GPU (17 GB of R-MAT 27) for it
        # would cost more.
        # A graph prepared in passes is not built whole: the estimate reads edges in
        # host memory there, and queues no simple graph.
        several = spread.regime == "replicated" and spread.executor == "gpus" and not statistics.resident
        on_host = (several or spread.prepared_in_passes) and not statistics.resident

        def endpoint_degree():
            if on_host:
                return statistics.mean_endpoint_degree("cpu")
            # A directed count starts from its arc pairs instead.
            whole = not weighted and not spread.prepared_in_passes and not statistics.directed
            return statistics.mean_endpoint_degree(device, then_simple_graph=whole)

        return gpu_auto_algorithm(statistics.rows, endpoint_degree, weighted and not small_values)
    return "hash", (
        "algorithm auto -> hash: on the CPU engine one direct-address table per "
        "vertex was the fastest configuration, or close to it, on every graph "
        "measured (docs/benchmarks.md, 'auto: the CPU rule')"
    )


def choose_ordering(statistics, device, algorithm, designed, total):
    """``(ordering, reason)`` of ``ordering="auto"`` for ``algorithm``, whose
    designed ordering is ``designed``; ``total`` is :func:`~.plan.make_plan`'s."""
    if device == "gpu" and statistics.directed and algorithm == "merge" and total:
        return "degree", (
            "ordering auto -> degree: a directed transitivity's merge credits no vertex, so on "
            "ascending-degree ids each arc's merge starts after it (R-MAT 22 on one H200: "
            "132 ms against 156 with none; docs/benchmarks.md, 'auto: directed graphs on the GPU')"
        )
    return designed, f"ordering auto -> {designed}: what {algorithm} is designed for"


def choose_pipeline(statistics, spread, orientation, ordering, simple_unweighted):
    """``(pipeline, reason)`` (:attr:`~.plan.Plan.pipeline`; the reason None for
    the default): ``"hashed"`` for the unweighted undirected simple graph
    (``simple_unweighted``) prepared on one GPU, where
    :func:`~nx_tricount.preprocess.hashed_csr.hashed_applies`, else ``"sorted"``
    (also for a graph that fits each GPU only when they prepare it together, or
    that is prepared in passes)."""
    rows = statistics.rows
    takes = hashed_applies(rows, statistics.n, orientation, ordering)
    one_gpu = spread.preparation_device == "gpu" and not (spread.needs_together or spread.prepared_in_passes)
    if not one_gpu or not simple_unweighted or not takes:
        return "sorted", None
    return "hashed", (
        f"pipeline hashed: {rows:,} edge rows (<= {HASHED_MAX_ROWS:,}) degree oriented on "
        "their own ids, prepared in one launch without sorts (docs/algorithms.md, "
        "'Small graphs on the GPU')"
    )


def choose_merge_total(rows, spread, pipeline, total):
    """``(merge_total, reason)`` of merge on the GPU (:attr:`~.plan.Plan.merge_total`;
    the reason None for ``"csr"``).

    Parameters
    ----------
    rows : int
        Edge rows of the graph (they bound its arcs).
    spread : Spread
    pipeline : {"sorted", "hashed"}
    total : bool
        The count is one total (:func:`~.plan.make_plan`'s ``total``).
    """
    if total and pipeline == "hashed" and spread.executor == "whole":
        return "fused", (
            "merge total fused: the hashed pipeline's launch counts the triangles on the "
            "CSR it builds, read with it (docs/algorithms.md, 'Small graphs on the GPU')"
        )
    arcs = rows if spread.parts == 1 else math.ceil(3 * rows / spread.parts**2)
    # A graph prepared in passes has room for its CSR and the count, not for a second layout.
    if arcs >= GPU_INLINE_ARCS and not spread.prepared_in_passes:
        return "inline", (
            f"merge total inline: a count reads up to about {arcs:,} arcs (>= {GPU_INLINE_ARCS:,}), "
            "whose merges read each list beside its length (docs/algorithms.md, "
            "'merge: the inline layout')"
        )
    return "csr", None


def gpu_auto_algorithm(rows, endpoint_degree, weighted=False):
    """``(algorithm, reason)`` of ``algorithm="auto"`` on the GPU.

    Parameters
    ----------
    rows : int
        Edge rows of the graph.
    endpoint_degree : callable
        Returns the graph's mean endpoint degree
        (:meth:`~nx_tricount.classes.preparation.Statistics.mean_endpoint_degree`);
        called only for graphs of at least :data:`GPU_LOOK_ROWS` rows.
    weighted : bool, optional
        Per-vertex sums of arc products (:func:`make_plan`'s ``weighted``).
    """
    if rows < GPU_LOOK_ROWS:
        return "merge", (
            f"algorithm auto -> merge: {rows:,} edge rows (< {GPU_LOOK_ROWS:,}), where "
            "merge's single launch on degree orientation, the cheapest preprocessing, "
            "was the best configuration or close to it on every graph measured; the "
            "degrees are not looked at (docs/benchmarks.md, 'auto: the GPU rule')"
        )
    skew = endpoint_degree()
    if skew >= GPU_WEDGE_SKEW and weighted:
        return "hash", (
            f"algorithm auto -> hash: {rows:,} edge rows, a mean endpoint degree "
            f"sum(d^2)/sum(d) = {skew:,.0f} (>= {GPU_WEDGE_SKEW:,}) and sums of arc values "
            "per vertex, for which wedge searches every closing arc's value and hash reads "
            "it beside its table (docs/benchmarks.md, 'auto: weighted sums on the GPU')"
        )
    if skew >= GPU_WEDGE_SKEW:
        return "wedge", (
            f"algorithm auto -> wedge: {rows:,} edge rows and a mean endpoint degree "
            f"sum(d^2)/sum(d) = {skew:,.0f} (>= {GPU_WEDGE_SKEW:,}): hubs, whose wedges "
            "wedge-parallel counting spreads evenly over the threads"
        )
    return "merge", (
        f"algorithm auto -> merge: {rows:,} edge rows and a mean endpoint degree "
        f"sum(d^2)/sum(d) = {skew:,.0f} (< {GPU_WEDGE_SKEW:,}): few wedges per edge, "
        "where one merge per arc is the fastest"
    )
