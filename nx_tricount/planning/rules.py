"""The rules a plan decides by, one function each, and their thresholds:
the device, the algorithm and ordering of ``"auto"``, the preparation pipeline
and merge's total layout. :func:`~.plan.plan_for` applies them in order (the spread's rules
are :mod:`.spread`'s); :func:`~.plan.make_plan`'s notes state them, and the
measurements behind the thresholds are in docs/algorithms.md, "Choosing by
itself", and docs/benchmarks.md.
"""

import math
from dataclasses import replace

from ..algorithms.wedge_hub import hub_words_of
from ..algorithms.wedge_layout import layout_rows
from ..algorithms.work import work_of
from ..gpu.device import resolve_device
from ..metadata.catalog import ALGORITHMS
from ..preprocess.hashed_csr import HASHED_MAX_ROWS, hashed_applies
from .preparing import replicated_on_gpus

__all__ = [
    "GPU_MIN_ROWS",
    "GPU_MIN_RESIDENT_ROWS",
    "GPU_LOOK_ROWS",
    "GPU_WEDGE_SKEW",
    "GPU_HUB_SKEW",
    "GPU_TOTAL_SKEW",
    "GPU_BITMAP_SHARE",
    "MERGE_READS_PER_WEDGE",
    "MERGE_READS_PER_ARC",
    "GPU_INLINE_ARCS",
    "CPU_ORDERED_ROWS",
    "CPU_ORDERED_SPAN",
    "choose_device",
    "choose_algorithm",
    "gpu_auto_algorithm",
    "choose_preprocessing",
    "choose_ordering",
    "choose_pipeline",
    "choose_merge_total",
    "after_preparation_applies",
    "choose_after_preparation",
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
#: On the GPU, larger directed graphs and sums of arc values whose mean endpoint
#: degree reaches this count with wedge, below it with merge (docs/benchmarks.md,
#: "auto: the GPU rule").
GPU_WEDGE_SKEW = 1000
#: The same for the unweighted undirected counts, whose graphs may have hubs from
#: here: between Barabási–Albert 2M x 10 (estimated 92), where merge wins, and flat
#: R-MAT 21 (346), where wedge wins per node and merge on ascending-degree ids wins a
#: total by a little. A total is prepared on ascending-degree ids, and the prepared
#: graph chooses between wedge and merge (:func:`choose_after_preparation`;
#: docs/benchmarks.md, "auto: the GPU rule").
GPU_HUB_SKEW = 200
#: An unweighted undirected total prepared whole on the GPU from this mean endpoint
#: degree is prepared on ascending-degree ids, where the prepared graph chooses
#: (:func:`choose_after_preparation`): merge's kernel there took 20-35% less time
#: than on degree orientation (Barabási–Albert 2M x 10, estimated 92; power law 3,
#: 53), the preparation at most 1% more, and later counts of the graph reuse its CSR.
#: Grids and roads (about 4) stay on degree orientation, where relabelling the
#: vertices costs a quarter of the count.
GPU_TOTAL_SKEW = 20
#: A total on the prepared graph takes wedge when the bitmap's vertices hold at
#: least this share of its wedges: its hub block and bitmap count them at a fraction
#: of a searched wedge's cost (R-MAT: 77-97%; flat R-MAT 21, where merge wins, 30%).
GPU_BITMAP_SHARE = 0.5
#: Otherwise merge counts it where its merges read at most this many list entries per
#: wedge plus :data:`MERGE_READS_PER_ARC` per arc: the crossing of the kernels' times
#: fitted on one H200 (merge about 4.2 + 1.37 reads, wedge without its hub block 13.3
#: + 7.65 wedges, picoseconds per arc; docs/benchmarks.md, "auto: the GPU rule").
MERGE_READS_PER_WEDGE = 5.6
MERGE_READS_PER_ARC = 6.6
#: On the GPU, merge's total reads the CSR's inline layout (``kernels/merge_inline.cu``)
#: when a count reads this many arcs or more (the edge rows bound them). Making it
#: (a launch, a gather of ``indptr[v]`` per arc and a read) costs a fresh graph
#: about what the kernel saves on BA 2M×10, and more than it saves on smaller
#: graphs (measured: docs/algorithms.md, "merge: the inline layout"). Only where
#: every arc goes to a higher id: on degree orientation with the graph's own ids it
#: saved less than it cost (uniform random graphs of 8M rows, 0.05 ms of kernel for a
#: 0.09 ms layout) or lost outright (grids and roads, whose ids are local).
GPU_INLINE_ARCS = 1 << 22
#: On the CPU, hash counts a graph of at least this many edge rows on ascending-degree
#: ids (orientation id, ordering degree) where its ids do not follow the graph: totals of
#: R-MAT 18 1,155 -> 784 ms, a power law 2.5 of 4M rows 595 -> 407, BA 1M x 8 962 -> 838,
#: BA 200k x 10 2% slower; below it the relabelling cost more than it saved (R-MAT 15
#: even, soc-Slashdot0902 and smaller graphs of the data set 10-35% slower). Measured:
#: docs/algorithms.md, "Choosing by itself".
CPU_ORDERED_ROWS = 1_000_000
#: ... unless the median ``|src - dst|`` of sampled rows is below this share of the
#: ids (:meth:`~nx_tricount.classes.preparation.Statistics.id_span`): ids that follow
#: the graph (a grid numbered row by row: 0.001) keep a locality the relabelling
#: would lose (1000² grid 60 -> 76 ms); drawn ids span about 0.3 (the data set 0.01-0.35).
CPU_ORDERED_SPAN = 0.01


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


def choose_algorithm(statistics, device, spread, weighted, total=False, small_values=False, later=False):
    """``(algorithm, reason)`` of ``algorithm="auto"`` on ``device``, for a count
    spread as ``spread`` (:func:`~.spread.decide`); ``weighted``, ``total`` and
    ``small_values`` are :func:`~.plan.make_plan`'s; ``later``: the prepared graph
    will choose between wedge and merge where this says wedge
    (:func:`after_preparation_applies`). A directed transitivity
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
    if device == "gpu" and statistics.rows < GPU_LOOK_ROWS:
        return gpu_auto_algorithm(statistics.rows, None)  # merge, the degrees not looked at
    if device == "gpu":
        # An unweighted count on one GPU starts from the simple graph: its build is
        # queued while the estimate crosses, so the GPU has it to run meanwhile. The
        # GPUs of a replicated count may prepare the graph together
        # (preparing.together), none of them whole: edges in host memory give the
        # estimate its samples there, where moving every row to one GPU (17 GB of
        # R-MAT 27) for it would cost more.
        # A graph prepared in passes is not built whole: the estimate reads edges in
        # host memory there, and queues no simple graph.
        several = replicated_on_gpus(spread)
        on_host = (several or spread.prepared_in_passes) and not statistics.resident

        def endpoint_degree():
            if on_host:
                return statistics.mean_endpoint_degree("cpu")
            # A directed count starts from its arc pairs instead.
            whole = not (weighted or spread.prepared_in_passes or statistics.directed or several)
            return statistics.mean_endpoint_degree(device, then_simple_graph=whole)

        hubs = not weighted and not statistics.directed
        threshold = GPU_TOTAL_SKEW if later else GPU_HUB_SKEW if hubs else GPU_WEDGE_SKEW
        mean_degree = 2 * statistics.rows / statistics.n if statistics.n else 0.0
        return gpu_auto_algorithm(
            statistics.rows, endpoint_degree, weighted and not small_values, threshold, later, mean_degree
        )
    return "hash", (
        "algorithm auto -> hash: on the CPU engine one direct-address table per "
        "vertex was the fastest configuration, or close to it, on every graph "
        "measured (docs/benchmarks.md, 'auto: the CPU rule')"
    )


def choose_preprocessing(statistics, device, algorithm, settings, total):
    """``(orientation, ordering, reasons)`` of the ``settings``' orientation and
    ordering for ``algorithm`` on ``device``: those set, and for ``"auto"`` what
    the algorithm is designed for (:data:`~nx_tricount.metadata.catalog.ALGORITHMS`;
    the ordering by :func:`choose_ordering`); but with both ``"auto"``, hash on
    the CPU counts a graph of at least :data:`CPU_ORDERED_ROWS` edge rows whose
    ids do not follow it (an id span of at least :data:`CPU_ORDERED_SPAN`) on
    ascending-degree ids. ``total`` is :func:`~.plan.make_plan`'s."""
    orientation, ordering = settings["orientation"], settings["ordering"]
    both = orientation == ordering == "auto"
    if both and device == "cpu" and algorithm == "hash" and statistics.rows >= CPU_ORDERED_ROWS:
        span = statistics.id_span()
        if span >= CPU_ORDERED_SPAN:
            reason = (
                f"orientation auto -> id, ordering auto -> degree: {statistics.rows:,} edge rows "
                f"(>= {CPU_ORDERED_ROWS:,}) whose ids span {span:.2f} of the ids "
                f"(>= {CPU_ORDERED_SPAN}), where hash on ascending-degree ids was 1.15-1.5x "
                "faster (docs/benchmarks.md, 'auto: the CPU rule')"
            )
            return "id", "degree", [reason]
    designed, reasons = ALGORITHMS[algorithm], []
    if orientation == "auto":
        orientation = designed.orientation
        reasons.append(f"orientation auto -> {orientation}: what {algorithm} is designed for")
    if ordering == "auto":
        ordering, reason = choose_ordering(statistics, device, algorithm, designed.ordering, total)
        reasons.append(reason)
    return orientation, ordering, reasons


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


def choose_merge_total(rows, spread, pipeline, total, ascending):
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
    ascending : bool
        Every arc of the prepared graph goes to a higher id
        (:func:`~nx_tricount.preprocess.prepare.ascending_arcs`).
    """
    if total and pipeline == "hashed" and spread.executor == "whole":
        return "fused", (
            "merge total fused: the hashed pipeline's launch counts the triangles on the "
            "CSR it builds, read with it (docs/algorithms.md, 'Small graphs on the GPU')"
        )
    arcs = rows if spread.parts == 1 else math.ceil(3 * rows / spread.parts**2)
    # A graph prepared in passes has room for its CSR and the count, not for a second layout.
    if arcs >= GPU_INLINE_ARCS and ascending and not spread.prepared_in_passes:
        return "inline", (
            f"merge total inline: a count reads up to about {arcs:,} arcs (>= {GPU_INLINE_ARCS:,}) "
            "to higher ids, whose merges read each list beside its length (docs/algorithms.md, "
            "'merge: the inline layout')"
        )
    return "csr", None


def gpu_auto_algorithm(
    rows, endpoint_degree, weighted=False, threshold=GPU_WEDGE_SKEW, later=False, mean_degree=0.0
):
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
    threshold : float, optional
        The mean endpoint degree from which wedge (or hash) counts:
        :data:`GPU_WEDGE_SKEW`, :data:`GPU_HUB_SKEW` for an unweighted
        undirected count, :data:`GPU_TOTAL_SKEW` with ``later``.
    later : bool, optional
        The prepared graph chooses between wedge and merge where this says wedge
        (:func:`choose_after_preparation`); the reason says so.
    mean_degree : float, optional
        ``2 rows / n``, at most the mean endpoint degree (``sum(d^2) / sum(d) >=
        sum(d) / n``, Cauchy–Schwarz, ``sum(d) = 2 rows``): from ``threshold`` on,
        the estimate is not drawn (the rule's answer is known; an estimate could
        only fall below it by chance).
    """
    if rows < GPU_LOOK_ROWS:
        return "merge", (
            f"algorithm auto -> merge: {rows:,} edge rows (< {GPU_LOOK_ROWS:,}), where "
            "merge's single launch on degree orientation, the cheapest preprocessing, "
            "was the best configuration or close to it on every graph measured; the "
            "degrees are not looked at (docs/benchmarks.md, 'auto: the GPU rule')"
        )
    if mean_degree >= threshold:
        skew = mean_degree
        measure = (
            f"a mean degree 2 rows / n = {mean_degree:,.0f}, a lower bound of the mean endpoint "
            "degree sum(d^2)/sum(d), which is not drawn"
        )
    else:
        skew = endpoint_degree()
        measure = f"a mean endpoint degree sum(d^2)/sum(d) = {skew:,.0f}"
    if skew >= threshold and weighted:
        return "wedge", (
            f"algorithm auto -> wedge: {rows:,} edge rows, {measure} (>= {threshold:,}) "
            "and sums of arc values per vertex, whose hubs' triangles the hub block finds by "
            "ANDing bitmap rows, their arcs' values at the bits' ranks (docs/benchmarks.md, "
            "'auto: weighted sums on the GPU')"
        )
    if skew >= threshold and later:
        return "wedge", (
            f"algorithm auto -> wedge or merge, chosen on the prepared graph: {rows:,} edge rows "
            f"and {measure} (>= {threshold:,}), a total "
            "on ascending-degree ids, where merge reads short lists and wedge spreads a hub's "
            "wedges over the threads (rules.choose_after_preparation)"
        )
    if skew >= threshold:
        return "wedge", (
            f"algorithm auto -> wedge: {rows:,} edge rows and {measure} (>= {threshold:,}): "
            "hubs, whose wedges wedge-parallel counting spreads evenly over the threads"
        )
    return "merge", (
        f"algorithm auto -> merge: {rows:,} edge rows and {measure} (< {threshold:,}): few wedges per edge, "
        "where one merge per arc is the fastest"
    )


def after_preparation_applies(statistics, device, spread, weighted, total):
    """Whether ``auto``'s wedge (:func:`choose_algorithm`) is chosen again on the
    prepared graph, against merge on the same CSR (:func:`choose_after_preparation`):
    for an unweighted undirected total on the GPU, prepared there whole (not in
    the parts of a 2D partition); :func:`~.plan.make_plan` asks only when the
    orientation and ordering are ``auto`` too."""
    unweighted_undirected = not weighted and not statistics.directed
    whole_graph = spread.parts == 1 and spread.preparation_device == device
    return device == "gpu" and total and unweighted_undirected and whole_graph


def choose_after_preparation(plan, prepared):
    """The plan to count ``prepared`` with: ``plan`` itself, or, when ``plan``
    leaves wedge or merge to the prepared graph (``Plan.after_preparation``), the
    one its :class:`~nx_tricount.algorithms.work.Work` says, with the reason.

    Wedge where the bitmap's vertices hold at least :data:`GPU_BITMAP_SHARE` of
    the wedges; else merge where its merges read at most
    :data:`MERGE_READS_PER_WEDGE` list entries per wedge plus
    :data:`MERGE_READS_PER_ARC` per arc; else wedge.
    """
    merge_plan = plan.after_preparation
    if merge_plan is None:
        return plan
    # Wedge's layout and hub block are read with the work: a count of either reads nothing more.
    parameters = dict(plan.parameters)
    ahead = (layout_rows(**parameters), hub_words_of(**parameters)) if plan.device == "gpu" else ()
    work = work_of(prepared, *ahead)
    share = work.bitmap_share
    if share >= GPU_BITMAP_SHARE:
        chosen, why = (
            plan,
            (
                f"the bitmap's vertices hold {share:.0%} of the {work.wedges:,} wedges "
                f"(>= {GPU_BITMAP_SHARE:.0%}), which its hub block and bitmap count at a fraction of "
                "a searched wedge's cost"
            ),
        )
    else:
        bound = MERGE_READS_PER_WEDGE * work.wedges + MERGE_READS_PER_ARC * work.arcs
        chosen = merge_plan if work.merge_reads <= bound else plan
        sign = "<=" if chosen is merge_plan else ">"
        why = (
            f"the bitmap's vertices hold {share:.0%} of the wedges (< {GPU_BITMAP_SHARE:.0%}), and "
            f"merge reads {work.merge_reads:,} list entries {sign} {MERGE_READS_PER_WEDGE} per wedge "
            f"({work.wedges:,}) + {MERGE_READS_PER_ARC} per arc ({work.arcs:,})"
        )
    reason = f"after preparation -> {chosen.algorithm}: {why} (docs/benchmarks.md, 'auto: the GPU rule')"
    # One copy (a dataclass's replace costs the host microseconds): wedge's drops merge's plan.
    return replace(chosen, reasons=(*chosen.reasons, reason), after_preparation=None)
