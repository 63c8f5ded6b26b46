"""The plan of a count: every choice made in one place, nothing run.

Settings come from the per-call keywords, else ``nx.config.backends.tricount``;
``"auto"`` values are resolved here: the device, the algorithm (on the GPU by
the graph's size and, for large graphs, its mean endpoint degree), the
preprocessing the algorithm is designed for (:data:`nx_tricount.metadata.catalog.ALGORITHMS`)
and the kernel parameters. :func:`make_plan` returns an immutable :class:`Plan`
that says what will run and why; :mod:`nx_tricount.execution.execute` runs it. The rule
and the measurements behind it: docs/algorithms.md, "Choosing by itself", and
docs/benchmarks.md, "auto: the GPU rule" and "auto: the CPU rule".
"""

import logging
from dataclasses import dataclass

import numpy as np

from ..metadata.catalog import ALGORITHMS
from ..metadata.config import (
    KERNEL_PARAMETERS,
    check_choice,
    check_environment,
    check_scale_out,
    config_from_environment,
)
from ..io.convert import from_networkx
from ..gpu.device import module_of, resolve_device
from ..classes.graph import TriGraph
from ..classes.preparation import mean_endpoint_degree, simple_graph
from ..gpu.runtime import cuda_errors, free_memory
from .spread import Spread, decide

__all__ = ["CountTask", "Plan", "make_plan", "current_config", "gpu_auto_algorithm"]

logger = logging.getLogger("nx_tricount")

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


@dataclass(frozen=True)
class CountTask:
    """One independent count over parts of a prepared graph.

    The seam for partitioned counting (2D partitions, trust-hashing.md §5):
    with ``parts = p``, part ``P_ab`` holds the arcs ``u -> v`` with ``u`` in
    vertex class ``a`` and ``v`` in class ``b`` (hashed, ``u mod p = a``, or
    ranges of ids), and task ``(i, j, k)`` counts the
    triangles ``u -> v, u -> w, v -> w`` with ``u, v, w`` in the classes ``i, j,
    k``, from ``P_ij``, ``P_ik`` and ``P_jk``. The ``p³`` tasks split the
    triangles among themselves, so their totals, per-node and per-edge counts
    add up (:func:`nx_tricount.execution.execute.run`). One part (``p = 1``) is the whole
    graph.
    """

    i: int = 0
    j: int = 0
    k: int = 0
    parts: int = 1


@dataclass(frozen=True)
class Plan:
    """What a count will run, with the reasons for each choice made by ``auto``.

    Attributes
    ----------
    algorithm, orientation, ordering, device : str
        The resolved settings.
    reasons : tuple of str
        Why each ``"auto"`` resolved as it did.
    parameters : tuple of (str, int)
        Keywords of the algorithm's ``count_gpu`` set by the configuration.
    spread : Spread
        Parts per side, devices, executor and where the graph is prepared
        (:mod:`nx_tricount.planning.spread`).
    """

    algorithm: str
    orientation: str
    ordering: str
    device: str
    reasons: tuple = ()
    parameters: tuple = ()
    spread: Spread = Spread()

    @property
    def tasks(self):
        """The counts whose results are combined: ``p³`` of them for ``p`` parts per side."""
        p = self.spread.parts
        return tuple(CountTask(i, j, k, p) for i in range(p) for j in range(p) for k in range(p))

    @property
    def preparation_device(self):
        """Where the graph is prepared: the count's device, or the host when it does not fit."""
        return self.spread.preparation_device

    def __str__(self):
        text = (
            f"algorithm={self.algorithm} orientation={self.orientation} "
            f"ordering={self.ordering} device={self.device}"
        )
        text += "".join(f" {key}={value}" for key, value in self.parameters)
        spread = self.spread
        if spread.parts > 1:
            text += f" partitions={spread.parts} partitioning={spread.scheme} tasks={spread.parts ** 3}"
        if len(spread.devices) > 1:
            text += f" devices={list(spread.devices)}"
        if spread.distributed:
            text += f" distributed={spread.distributed}"
        return text + "".join(f"\n  - {reason}" for reason in self.reasons + spread.reasons)


def current_config():
    """``nx.config.backends.tricount``, or the defaults when the backend is not
    registered with NetworkX (e.g. running from a source tree without install)."""
    import networkx as nx

    config = getattr(nx.config.backends, "tricount", None)
    return config if config is not None else config_from_environment()


#: Marks a scale-out setting not given to :func:`make_plan` (None is a value of some).
_CONFIGURED = object()


def make_plan(
    G=None,
    *,
    algorithm=None,
    orientation=None,
    ordering=None,
    device=None,
    weighted=False,
    total=False,
    partitions=_CONFIGURED,
    partitioning=_CONFIGURED,
    memory_limit=_CONFIGURED,
    devices=_CONFIGURED,
    distributed=_CONFIGURED,
    progress=_CONFIGURED,
):
    """Resolve the settings of one count on ``G``.

    Parameters
    ----------
    G : TriGraph or NetworkX graph, optional
        The graph to count. On the GPU ``algorithm="auto"`` reads its size and,
        for large graphs, the mean endpoint degree of its edge rows, estimated
        from a sample while the GPU deduplicates the rows into the simple graph
        the count starts from (cached on a TriGraph); without ``G`` it plans for
        a small graph.
    algorithm, orientation, ordering, device : str, optional
        Per-call overrides of ``nx.config.backends.tricount``.
    weighted : bool, optional
        The count sums a product of arc values per triangle at each vertex
        (clustering with ``weight``, and every clustering of a directed graph,
        whose arc pairs carry values). On the GPU ``auto`` then avoids wedge,
        whose per-vertex additions on the hubs cost most there.
    total : bool, optional
        The count is one total (transitivity), which on an undirected graph's
        edge rows in GPU memory one launch prepares and counts: ``device="auto"``
        keeps it on the GPU at any size.
    partitions, partitioning, memory_limit, devices, distributed, progress : optional
        Per-call overrides of the scale-out settings (:mod:`nx_tricount.planning.spread`).

    Returns
    -------
    Plan

    Raises
    ------
    ValueError
        A setting has a value that is not accepted, or an ``NX_TRICOUNT_<KEY>``
        variable had one (the setting fell back to its default at import).
    GPUNotAvailableError
        ``device="gpu"`` on a machine without a usable GPU.

    Examples
    --------
    >>> import networkx as nx
    >>> import nx_tricount
    >>> plan = nx_tricount.make_plan(nx.karate_club_graph(), device="cpu")
    >>> plan.algorithm, plan.orientation, plan.ordering
    ('hash', 'degree', 'none')
    """
    config = current_config()
    requested = {
        "algorithm": algorithm,
        "orientation": orientation,
        "ordering": ordering,
        "device": device,
    }
    check_environment(config, requested)
    settings = {
        key: check_choice(key, config[key] if value is None else value)
        for key, value in requested.items()
    }
    given = dict(
        partitions=partitions,
        partitioning=partitioning,
        memory_limit=memory_limit,
        devices=devices,
        distributed=distributed,
        progress=progress,
    )
    scale = {
        key: config[key] if value is _CONFIGURED else check_scale_out(key, value)
        for key, value in given.items()
    }
    reasons = []
    resolved_device = resolve_device(settings["device"])
    G = _as_graph(G)
    rows = 0 if G is None else int(G.src.size)
    resident = G is not None and module_of(G.src) is not np
    smallest = GPU_MIN_RESIDENT_ROWS if resident else GPU_MIN_ROWS
    if resident and total and not G.directed:
        smallest = 1  # one launch prepares and counts it (GPU_MIN_RESIDENT_ROWS)
    if settings["device"] == "auto" and resolved_device == "gpu" and G is not None and rows < smallest:
        resolved_device = "cpu"
        where = "GPU" if resident else "host"
        reasons.append(
            f"device auto -> cpu: {rows:,} edge rows in {where} memory (< {smallest:,}), where "
            "the CPU engine's whole count is faster than the GPU's launches "
            "(docs/benchmarks.md, 'Small graphs')"
        )
    elif settings["device"] == "auto":
        reasons.append(f"device auto -> {resolved_device}")
    spread = decide(
        rows,
        0 if G is None else G.n,
        resolved_device,
        scale,
        free_memory if resolved_device == "gpu" else None,
    )
    chosen = settings["algorithm"]
    if chosen == "auto":
        if spread.preparation_device != resolved_device:
            chosen, reason = "wedge", (
                "algorithm auto -> wedge: the graph is counted in parts from host memory, "
                "where the wedge kernel takes only the wedges a task can close and looks "
                "its densest up in a bitmap; merge took a third longer on R-MAT 27 "
                "(docs/benchmarks.md, 'Beyond one GPU')"
            )
        elif resolved_device == "gpu" and getattr(G, "directed", False) and not weighted:
            chosen, reason = "merge", (
                "algorithm auto -> merge: merge counts a directed graph's transitive "
                "triples once per triangle of its arc pairs, oriented as an undirected "
                "graph; the other algorithms intersect whole successor lists "
                "(docs/benchmarks.md, 'auto: directed graphs on the GPU')"
            )
        elif resolved_device == "gpu":
            where = spread.preparation_device
            # An unweighted count starts from the simple graph: its deduplication is
            # queued while the estimate crosses, so the GPU has it to run meanwhile.
            meanwhile = None if weighted else lambda: simple_graph(G, where)
            with cuda_errors("reading the graph's degrees on the GPU"):
                chosen, reason = gpu_auto_algorithm(
                    rows, lambda: mean_endpoint_degree(G, where, meanwhile), weighted
                )
        else:
            chosen, reason = "hash", (
                "algorithm auto -> hash: on the CPU engine one direct-address table per "
                "vertex was the fastest configuration, or close to it, on every graph "
                "measured (docs/benchmarks.md, 'auto: the CPU rule')"
            )
        reasons.append(reason)
    designed = ALGORITHMS[chosen]
    orientation = settings["orientation"]
    if orientation == "auto":
        orientation = designed.orientation
        reasons.append(f"orientation auto -> {orientation}: what {chosen} is designed for")
    ordering = settings["ordering"]
    if ordering == "auto":
        ordering = designed.ordering
        reasons.append(f"ordering auto -> {ordering}: what {chosen} is designed for")
    parameters = ()
    if resolved_device == "gpu":
        parameters = tuple(
            (parameter.keyword, config[key])
            for key, (owner, parameter) in KERNEL_PARAMETERS.items()
            if owner == chosen and config[key] is not None
        )
    plan = Plan(chosen, orientation, ordering, resolved_device, tuple(reasons), parameters, spread)
    logger.debug("tricount plan: %s", plan)
    return plan


def _as_graph(G):
    """A TriGraph for ``G`` (converted from NetworkX), or None."""
    if G is None or isinstance(G, TriGraph):
        return G
    return from_networkx(G)


def gpu_auto_algorithm(rows, statistics, weighted=False):
    """``(algorithm, reason)`` of ``algorithm="auto"`` on the GPU.

    Parameters
    ----------
    rows : int
        Edge rows of the graph.
    statistics : callable
        Returns the graph's mean endpoint degree
        (:func:`~nx_tricount.classes.preparation.mean_endpoint_degree`); called only for
        graphs of at least :data:`GPU_LOOK_ROWS` rows.
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
    skew = statistics()
    if skew >= GPU_WEDGE_SKEW and weighted:
        return "hash", (
            f"algorithm auto -> hash: {rows:,} edge rows, a mean endpoint degree "
            f"sum(d^2)/sum(d) = {skew:,.0f} (>= {GPU_WEDGE_SKEW:,}) and sums of arc values "
            "per vertex, which wedge adds three per triangle on the hubs' counters and "
            "hash adds per heavy task (docs/benchmarks.md, 'auto: weighted sums on the GPU')"
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
