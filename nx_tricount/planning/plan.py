"""The plan of a count: every choice made in one place, from the graph's
statistics and the settings. Deciding converts nothing and launches nothing of
its own: a NetworkX graph is converted before (:func:`make_plan` converts one
given to it, then decides), and the one statistic that costs a launch, a large
graph's mean endpoint degree on the GPU, is sampled by
:mod:`nx_tricount.classes.preparation` when the GPU rule asks for it.

Settings come from the per-call keywords, else ``nx.config.backends.tricount``;
``"auto"`` values are resolved here. :func:`make_plan` returns an immutable
:class:`Plan` that says what will run and why: the device, the algorithm (on the
GPU by the graph's size and, for large graphs, its mean endpoint degree), the
preprocessing the algorithm is designed for
(:data:`nx_tricount.metadata.catalog.ALGORITHMS`), the preparation pipeline,
how the count is spread (:mod:`.spread`: whole, in parts, streamed from host
memory, and on which executor), merge's total layout and the kernel parameters.
:mod:`nx_tricount.classes.preparation` builds what the plan names and
:mod:`nx_tricount.execution.execute` runs it. The rules and the measurements
behind them: :func:`make_plan`'s notes, docs/algorithms.md, "Choosing by itself",
and docs/benchmarks.md, "auto: the GPU rule" and "auto: the CPU rule".
"""

import logging
from dataclasses import dataclass

from ..classes.graph import TriGraph
from ..classes.preparation import statistics as graph_statistics
from ..gpu.runtime import free_memory
from ..io.convert import from_networkx
from ..metadata.catalog import SCALE_OUT
from ..metadata.config import (
    KERNEL_PARAMETERS,
    check_choice,
    check_environment,
    check_scale_out,
    config_from_environment,
)
from ..preprocess.prepare import ascending_arcs
from .preparing import in_passes, streaming, together
from .rules import (
    after_preparation_applies,
    choose_algorithm,
    choose_device,
    choose_merge_total,
    choose_pipeline,
    choose_preprocessing,
)
from .spread import Spread, decide
from .tasks import CountTask

__all__ = ["Plan", "make_plan", "plan_for", "current_config"]

logger = logging.getLogger("nx_tricount")

#: The values of :attr:`Plan.pipeline` and :attr:`Plan.merge_total`.
PIPELINES = ("sorted", "hashed")
MERGE_TOTALS = (None, "csr", "inline", "fused")


@dataclass(frozen=True)
class Plan:
    """What a count will run, with the reasons for each choice made by ``auto``.

    Attributes
    ----------
    algorithm, orientation, ordering, device : str
        The resolved settings.
    reasons : tuple of str
        Why each ``"auto"`` resolved as it did, and why the pipeline and merge's
        total are what they are when not the default.
    parameters : tuple of (str, int or str)
        Keywords of the algorithm's ``count_gpu``: the kernel parameters the
        configuration sets, and merge's ``total_layout="inline"``.
    spread : Spread
        Parts per side, devices, executor, where the graph is prepared and
        whether in chunks (:mod:`nx_tricount.planning.spread`).
    pipeline : {"sorted", "hashed"}
        How the undirected oriented CSR is prepared: the sorting pipeline from
        the simple graph, or one launch on the GPU without sorts
        (:func:`~nx_tricount.preprocess.hashed_csr.prepare_hashed`).
    merge_total : {None, "csr", "inline", "fused"}
        How merge counts a total on the GPU: on the CSR (``kernels/merge.cu``),
        on its inline layout (``kernels/merge_inline.cu``), or in the hashed
        pipeline's launch, read with the CSR (an undirected total counted
        whole). None when the count is not merge on the GPU.
    after_preparation : Plan or None
        Where ``auto`` chose wedge for a total on the GPU that the prepared graph
        decides (:func:`~nx_tricount.planning.rules.choose_after_preparation`):
        the plan of merge on the same CSR, which
        :func:`~nx_tricount.execution.execute.run` takes instead when that graph
        says so. None once the algorithm is settled.
    """

    algorithm: str
    orientation: str
    ordering: str
    device: str
    reasons: tuple = ()
    parameters: tuple = ()
    spread: Spread = Spread()
    pipeline: str = "sorted"
    merge_total: str | None = None
    after_preparation: "Plan | None" = None

    def __post_init__(self):
        if self.pipeline not in PIPELINES:
            raise ValueError(f"pipeline {self.pipeline!r}: accepted are {', '.join(PIPELINES)}")
        if self.merge_total not in MERGE_TOTALS:
            raise ValueError(f"merge_total {self.merge_total!r}: accepted are None, 'csr', 'inline', 'fused'")
        if self.pipeline == "hashed" and self.spread.preparation_device != "gpu":
            raise ValueError(
                "the hashed pipeline prepares on the GPU: spread.preparation_device must be 'gpu'"
            )

    @property
    def tasks(self):
        """The counts whose results are combined: ``p³`` of them for ``p`` parts per side."""
        return CountTask.all_of(self.spread.parts)

    @property
    def preparation_device(self):
        """Where the graph is prepared: the count's device, or the host when it does not fit."""
        return self.spread.preparation_device

    def __str__(self):
        algorithm = self.algorithm
        if self.after_preparation is not None:
            algorithm += f" or {self.after_preparation.algorithm} (chosen after preparation)"
        text = (
            f"algorithm={algorithm} orientation={self.orientation} "
            f"ordering={self.ordering} device={self.device}"
        )
        if self.pipeline != "sorted":
            text += f" pipeline={self.pipeline}"
        if self.merge_total == "fused":  # "inline" shows as its count_gpu keyword
            text += " merge_total=fused"
        text += "".join(f" {key}={value}" for key, value in self.parameters)
        spread = self.spread
        if spread.parts > 1:
            text += f" partitions={spread.parts} partitioning={spread.scheme} tasks={spread.parts**3}"
        if spread.regime == "replicated":
            text += f" regime=replicated shares={spread.shares}"
        if len(spread.devices) > 1:
            text += f" devices={list(spread.devices)}"
        if spread.distributed:
            text += f" distributed={spread.distributed}"
        if spread.streamed:
            text += " streamed"
        if spread.prepared_together:
            text += " prepared_together"
        if spread.prepared_in_passes:
            text += " prepared_in_passes"
        return text + "".join(f"\n  - {reason}" for reason in self.reasons + spread.reasons)


def current_config():
    """``nx.config.backends.tricount``, or the defaults when the backend is not
    registered with NetworkX (e.g. running from a source tree without install)."""
    import networkx as nx

    config = getattr(nx.config.backends, "tricount", None)
    return config if config is not None else config_from_environment()


#: Marks a scale-out setting not given to :func:`make_plan` (None is a value of some).
_CONFIGURED = object()

#: The per-call choices of :func:`make_plan`; None takes the configured one.
_CHOICE_KEYS = ("algorithm", "orientation", "ordering", "device")


def make_plan(
    G=None,
    *,
    algorithm=None,
    orientation=None,
    ordering=None,
    device=None,
    weighted=False,
    small_values=False,
    total=False,
    partitions=_CONFIGURED,
    partitioning=_CONFIGURED,
    memory_limit=_CONFIGURED,
    regime=_CONFIGURED,
    devices=_CONFIGURED,
    distributed=_CONFIGURED,
    progress=_CONFIGURED,
):
    """Decide every choice of one count on ``G``.

    Parameters
    ----------
    G : TriGraph or NetworkX graph, optional
        The graph to count (a NetworkX graph is converted first, as the
        NetworkX layer converts it before it plans). The plan reads its
        statistics (:func:`~nx_tricount.classes.preparation.statistics`); without
        ``G`` it plans for a small graph.
    algorithm, orientation, ordering, device : str, optional
        Per-call overrides of ``nx.config.backends.tricount``.
    weighted : bool, optional
        The count sums a product of arc values per triangle at each vertex
        (clustering with ``weight``, and every clustering of a directed graph,
        whose arc pairs carry values).
    small_values : bool, optional
        With ``weighted``: the arc values are a directed graph's pair counts (1 or
        2, unweighted directed clustering), which wedge adds in its plain per-node
        counters.
    total : bool, optional
        The count is one total (transitivity).
    partitions, partitioning, memory_limit, regime, devices, distributed, progress : optional
        Per-call overrides of the scale-out settings (:mod:`nx_tricount.planning.spread`).

    Returns
    -------
    Plan
        Immutable; ``str(plan)`` lists the choices and the reason for each.

    Raises
    ------
    ValueError
        A setting has a value that is not accepted, or an ``NX_TRICOUNT_<KEY>``
        variable had one (the setting fell back to its default at import).
    GPUNotAvailableError
        ``device="gpu"`` on a machine without a usable GPU.

    Notes
    -----
    Each choice is made here, in this order, and only here (the rules and their
    thresholds: :mod:`nx_tricount.planning.rules` and
    :mod:`nx_tricount.planning.spread`); preparation builds what the plan names
    and execution runs it.

    1. **Device.** ``"auto"`` is the GPU when one is usable, except for small
       graphs, which count on the CPU engine: fewer than ``GPU_MIN_ROWS`` edge
       rows in host memory, or ``GPU_MIN_RESIDENT_ROWS`` in GPU memory; an
       undirected total in GPU memory stays there at any size (one launch
       prepares and counts it).
    2. **Spread** (:func:`~nx_tricount.planning.spread.decide`): the graph is
       counted whole when it fits the memory limit (on the GPU, the free memory
       unless set; not read for a count of at most 16 MiB), or on one GPU when
       only its prepared CSR and count do, prepared there in passes
       (``Spread.prepared_in_passes``: the unweighted undirected graph, under the
       ``auto`` regime with ``partitions`` unset; a preprocessing that needs more
       than the degrees is planned again without), else in ``p³`` tasks of ``p``
       parts per side, ``p`` the smallest whose task fits, prepared in host
       memory; several GPUs or Dask workers get at least two tasks each.
       Several GPUs replicate a graph that fits each (``regime``), also one
       whose whole count does not fit but whose edges in host memory they can
       prepare together within their memory (``Spread.needs_together``).
       The executor follows: ``"whole"``, ``"serial"`` (the tasks one after
       another on the count's device), ``"gpus"`` or ``"dask"``, the last two
       reading their parts from host memory.
    3. **Algorithm.** ``"auto"`` is ``hash`` on the CPU engine. On the GPU: a
       graph counted in parts from host memory takes ``wedge``; a directed
       unweighted count other than a whole transitivity takes ``merge``; a
       directed transitivity counted whole, on its arc pairs (merge and wedge
       count it per triangle of the pairs), follows the undirected rule. Below
       ``GPU_LOOK_ROWS`` edge
       rows, ``merge`` without a look at the degrees; from there the mean
       endpoint degree ``sum(d²) / sum(d)`` (estimated from 1,024 endpoints, the
       one statistic that costs a launch, read only then) decides: at least
       ``GPU_HUB_SKEW`` for an unweighted undirected count, else
       ``GPU_WEDGE_SKEW``, takes ``wedge`` (``hash`` for sums of arc values
       other than ``small_values``), below it ``merge``. An unweighted
       undirected total of ``auto`` settings, prepared whole on the GPU, takes
       ``wedge`` from ``GPU_TOTAL_SKEW`` and leaves wedge or merge on the same
       CSR to the prepared graph (``Plan.after_preparation``,
       :func:`~nx_tricount.planning.rules.choose_after_preparation`).
    4. **Orientation and ordering.** ``"auto"`` is what the algorithm is
       designed for (:data:`~nx_tricount.metadata.catalog.ALGORITHMS`), but a
       directed total (transitivity) of ``merge`` on the GPU is ordered by
       degree: it credits no vertex, so each arc's merge starts after it; and
       with both ``"auto"``, ``hash`` on the CPU counts a graph of at least
       ``CPU_ORDERED_ROWS`` edge rows on ascending-degree ids (orientation
       ``id``, ordering ``degree``), unless its ids follow the graph: the median
       ``|src - dst|`` of 4,096 rows below ``CPU_ORDERED_SPAN`` of the ids.
    5. **Streaming.** A graph prepared in parts whose count starts from the
       unweighted undirected simple graph, with a preprocessing that needs only
       the degrees, is prepared in chunks straight into its parts on the
       count's device (:func:`~nx_tricount.planning.preparing.streaming`).
    6. **Pipeline.** ``"hashed"`` (one launch, no sorts) for an unweighted
       undirected graph prepared on the GPU with degree orientation on its own
       ids, of at most ``HASHED_MAX_ROWS`` edge rows and ``HASHED_MAX_VERTICES``
       vertices; ``"sorted"`` otherwise.
    7. **Prepared together.** A replicated count on several GPUs, in host or
       GPU memory, whose graph step 5 names, on the sorting pipeline, is prepared
       by its GPUs together, each ending with its copy
       (:func:`~nx_tricount.planning.preparing.together`). A graph replicated only
       if so, whose preprocessing cannot be prepared together, is planned again
       on the 2D partition, the plan saying why (refused under
       ``regime="replicated"``).
    8. **Merge's total** (merge on the GPU): ``"fused"`` for a total counted
       whole on the hashed pipeline (its launch counts the triangles too);
       ``"inline"`` when a count reads at least ``GPU_INLINE_ARCS`` arcs (the
       edge rows, or about ``3 rows / p²`` per task), all to higher ids;
       ``"csr"`` otherwise.
    9. **Kernel parameters** set in the configuration for the chosen
       algorithm, on the GPU.

    The thresholds and their measurements: docs/algorithms.md, "Choosing by
    itself", and docs/benchmarks.md, "auto: the GPU rule", "auto: the CPU
    rule" and "Small graphs". Nothing else is read from the graph before it is
    prepared, so the plan of a small graph costs no launch and no
    synchronisation.

    Examples
    --------
    >>> import networkx as nx
    >>> import nx_tricount
    >>> plan = nx_tricount.make_plan(nx.karate_club_graph(), device="cpu")
    >>> plan.algorithm, plan.orientation, plan.ordering, plan.spread.executor
    ('hash', 'degree', 'none', 'whole')
    """
    if G is not None and not isinstance(G, TriGraph):
        G = from_networkx(G)
    return plan_for(
        graph_statistics(G),
        algorithm=algorithm,
        orientation=orientation,
        ordering=ordering,
        device=device,
        weighted=weighted,
        small_values=small_values,
        total=total,
        partitions=partitions,
        partitioning=partitioning,
        memory_limit=memory_limit,
        regime=regime,
        devices=devices,
        distributed=distributed,
        progress=progress,
    )


def plan_for(statistics, *, weighted=False, small_values=False, total=False, **given):
    """:func:`make_plan` of a graph of ``statistics``
    (:class:`~nx_tricount.classes.preparation.Statistics`), with its keywords:
    ``weighted``, ``small_values``, ``total`` and the settings (``algorithm``, ``orientation``,
    ``ordering``, ``device`` and the scale-out ones), each unset or
    :data:`_CONFIGURED` taken from the configuration.

    The decisions alone: no conversion, and no launch but the mean endpoint
    degree's, which the statistics sample when the GPU rule asks for it.
    """
    unknown = sorted(set(given) - {*_CHOICE_KEYS, *SCALE_OUT})
    if unknown:
        raise TypeError(f"plan_for() got an unexpected keyword argument {unknown[0]!r}")
    config = current_config()
    requested = {key: given.get(key) for key in _CHOICE_KEYS}
    check_environment(config, requested)
    settings = {
        key: check_choice(key, config[key] if value is None else value) for key, value in requested.items()
    }
    scale = {
        key: config[key] if given.get(key, _CONFIGURED) is _CONFIGURED else check_scale_out(key, given[key])
        for key in SCALE_OUT
    }
    chosen_device, reason = choose_device(settings["device"], statistics, total)
    simple_unweighted = not weighted and not statistics.directed
    passable = chosen_device == "gpu" and simple_unweighted
    shareable = passable and not statistics.resident
    free = free_memory if chosen_device == "gpu" else None
    spread = decide(statistics.rows, statistics.n, chosen_device, scale, free, shareable, passable, total)
    plan = _plan_of(
        statistics, config, settings, chosen_device, [reason], spread, weighted, small_values, total
    )
    if not in_passes(plan.spread, plan.orientation, plan.ordering):
        why = (
            f"the whole graph does not fit the GPU, and {plan.orientation} orientation with "
            f"{plan.ordering} ordering cannot be prepared in passes (id or degree orientation, "
            "none or degree ordering can)"
        )
        spread = decide(statistics.rows, statistics.n, chosen_device, scale, free, shareable, total=total)
        reasons = [reason, f"not prepared in passes: {why}"]
        plan = _plan_of(
            statistics, config, settings, chosen_device, reasons, spread, weighted, small_values, total
        )
    if plan.spread.needs_together and not plan.spread.prepared_together:
        # Replicated only if prepared together, which the plan's preprocessing
        # does not allow: the 2D partition, or the configured regime's error.
        why = (
            f"the whole graph does not fit one GPU, and its GPUs cannot prepare it together with "
            f"{plan.orientation} orientation, {plan.ordering} ordering and the {plan.pipeline} pipeline "
            "(they can for id or degree orientation, none or degree ordering, the sorted pipeline, "
            "with the current GPU among them)"
        )
        if scale["regime"] == "replicated":
            raise ValueError(f"tricount regime='replicated': {why}; set regime='partitioned' or 'auto'")
        spread = decide(statistics.rows, statistics.n, chosen_device, scale, free, total=total)
        reasons = [reason, f"regime partitioned: {why}"]
        plan = _plan_of(
            statistics, config, settings, chosen_device, reasons, spread, weighted, small_values, total
        )
    logger.debug("tricount plan: %s", plan)
    return plan


def _plan_of(statistics, config, settings, chosen_device, reasons, spread, weighted, small_values, total):
    """The :class:`Plan` on ``spread``: the rules after the spread, in order
    (:func:`make_plan`, steps 3 to 9)."""
    simple_unweighted = not weighted and not statistics.directed
    chosen = settings["algorithm"]
    later = False
    if chosen == "auto":
        later = settings["orientation"] == settings["ordering"] == "auto"
        later = later and after_preparation_applies(statistics, chosen_device, spread, weighted, total)
        chosen, reason = choose_algorithm(
            statistics, chosen_device, spread, weighted, total, small_values, later
        )
        later = later and chosen == "wedge"
        reasons.append(reason)
    orientation, ordering, why = choose_preprocessing(statistics, chosen_device, chosen, settings, total)
    reasons.extend(why)
    spread = streaming(spread, orientation, ordering, simple_unweighted)
    pipeline, reason = choose_pipeline(statistics, spread, orientation, ordering, simple_unweighted)
    reasons.append(reason)
    spread = together(spread, orientation, ordering, simple_unweighted, pipeline)
    merge_total, ascending = None, ascending_arcs(orientation, ordering)
    if chosen == "merge" and chosen_device == "gpu":
        merge_total, reason = choose_merge_total(statistics.rows, spread, pipeline, total, ascending)
        reasons.append(reason)
    parameters = _kernel_parameters(config, chosen, chosen_device, merge_total)
    decided = tuple(reason for reason in reasons if reason is not None)
    merge_plan, same_csr = None, (orientation, ordering, chosen_device)
    if later:
        # Merge on the very CSR wedge's preprocessing makes (the same spread and pipeline), with
        # the reasons so far: built here, as it costs the host less than the rules again.
        inline, reason = choose_merge_total(statistics.rows, spread, pipeline, total, ascending)
        why = decided if reason is None else (*decided, reason)
        keywords = _kernel_parameters(config, "merge", chosen_device, inline)
        merge_plan = Plan("merge", *same_csr, why, keywords, spread, pipeline, inline)
    return Plan(chosen, *same_csr, decided, parameters, spread, pipeline, merge_total, merge_plan)


def _kernel_parameters(config, algorithm, device, merge_total):
    """The keywords of ``algorithm``'s ``count_gpu`` (``Plan.parameters``): the
    kernel parameters the configuration sets, and merge's inline total."""
    if device != "gpu":
        return ()
    parameters = tuple(
        (parameter.keyword, config[key])
        for key, (owner, parameter) in KERNEL_PARAMETERS.items()
        if owner == algorithm and config[key] is not None
    )
    return parameters + (("total_layout", "inline"),) if merge_total == "inline" else parameters
