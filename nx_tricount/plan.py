"""The plan of a count: which algorithm, preprocessing and device, and why.

Settings come from the per-call keywords, else ``nx.config.backends.tricount``;
``"auto"`` values are resolved here, per device and, on the GPU, per graph (the
rule and the measurements behind it: docs/algorithms.md, "Choosing by itself").
:func:`make_plan` returns the plan without counting, and logs it at DEBUG on the
``nx_tricount`` logger.
"""

import logging
from dataclasses import dataclass

from .algorithms import PREPROCESSING, count, has_gpu
from .config import KERNEL_PARAMETERS, check_choice, config_from_environment
from .convert import from_networkx
from .device import resolve_device
from .graph import TriGraph

__all__ = ["Plan", "make_plan", "current_config", "gpu_auto_algorithm", "mean_endpoint_degree"]

logger = logging.getLogger("nx_tricount")

#: On the GPU, graphs of fewer edge rows count with merge without a look at their
#: degrees: there every configuration takes a few milliseconds at most, mostly
#: preprocessing and launches, and merge on degree orientation has the cheapest;
#: wedge overtakes it only on R-MAT graphs of more rows (docs/benchmarks.md).
GPU_LOOK_ROWS = 3_000_000
#: On the GPU, larger graphs whose mean endpoint degree (:func:`mean_endpoint_degree`)
#: reaches this count with wedge (R-MAT scales 16-20: 684-2,233, rising with the
#: scale; Barabási–Albert 69-83; grids 4; every ../shared/data graph at most 421).
GPU_WEDGE_SKEW = 1000


@dataclass(frozen=True)
class Plan:
    """What a count will run, with the reasons for each choice made by ``auto``."""

    algorithm: str
    orientation: str
    ordering: str
    device: str
    reasons: tuple = ()
    parameters: tuple = ()  # (keyword, value) pairs for the GPU kernel's count_gpu

    def __str__(self):
        text = (
            f"algorithm={self.algorithm} orientation={self.orientation} "
            f"ordering={self.ordering} device={self.device}"
        )
        text += "".join(f" {key}={value}" for key, value in self.parameters)
        return text + "".join(f"\n  - {reason}" for reason in self.reasons)

    def count(self, prepared, mode):
        """Count ``prepared`` (made with this plan's preprocessing) in ``mode``.

        Returns
        -------
        Counts
        """
        return count(prepared, self.algorithm, mode, self.device, dict(self.parameters))


def current_config():
    """``nx.config.backends.tricount``, or the defaults when the backend is not
    registered with NetworkX (e.g. running from a source tree without install)."""
    import networkx as nx

    config = getattr(nx.config.backends, "tricount", None)
    return config if config is not None else config_from_environment()


def make_plan(G=None, *, algorithm=None, orientation=None, ordering=None, device=None):
    """Resolve the settings of one count on ``G``.

    Parameters
    ----------
    G : TriGraph or NetworkX graph, optional
        The graph to count. On the GPU ``algorithm="auto"`` looks at its size and,
        for large graphs, the degrees of its simple graph (made once and cached
        on a TriGraph, where the preprocessing starts from it); without ``G`` it
        plans for a small graph.
    algorithm, orientation, ordering, device : str, optional
        Per-call overrides of ``nx.config.backends.tricount``.

    Returns
    -------
    Plan

    Raises
    ------
    ValueError
        A setting has a value that is not accepted.
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
    settings = {
        key: check_choice(key, config[key] if value is None else value)
        for key, value in requested.items()
    }
    reasons = []
    chosen = settings["algorithm"]
    if chosen == "auto":
        # Every candidate has a GPU implementation, so the device decides.
        if resolve_device(settings["device"], gpu_implemented=True) == "gpu":
            G = _as_graph(G)
            rows = 0 if G is None else int(G.src.size)
            chosen, reason = gpu_auto_algorithm(rows, lambda: _statistics_on_gpu(G))
        else:
            chosen, reason = "hash", (
                "algorithm auto -> hash: on the CPU engine one direct-address table per "
                "vertex is the fastest configuration, or within 1.20x of it, on every "
                "../shared/data and generated graph measured (docs/benchmarks.md)"
            )
        reasons.append(reason)
    resolved_device = resolve_device(settings["device"], gpu_implemented=has_gpu(chosen))
    if settings["device"] == "auto":
        reasons.append(f"device auto -> {resolved_device}")
    default_orientation, default_ordering = PREPROCESSING[chosen]
    orientation = settings["orientation"]
    if orientation == "auto":
        orientation = default_orientation
        reasons.append(f"orientation auto -> {orientation}: what {chosen} is designed for")
    ordering = settings["ordering"]
    if ordering == "auto":
        ordering = default_ordering
        reasons.append(f"ordering auto -> {ordering}: what {chosen} is designed for")
    # Kernel parameters set in the configuration, for the chosen algorithm's GPU kernel.
    parameters = ()
    if resolved_device == "gpu":
        parameters = tuple(
            (keyword, config[key])
            for key, (owner, keyword, _) in KERNEL_PARAMETERS.items()
            if owner == chosen and config[key] is not None
        )
    plan = Plan(chosen, orientation, ordering, resolved_device, tuple(reasons), parameters)
    logger.debug("tricount plan: %s", plan)
    return plan


def _as_graph(G):
    """A TriGraph for ``G`` (converted from NetworkX), or None."""
    if G is None or isinstance(G, TriGraph):
        return G
    return from_networkx(G)


def _statistics_on_gpu(G):
    """The mean endpoint degree of the TriGraph ``G``'s simple graph on the GPU
    (cached with the simple graph)."""
    return mean_endpoint_degree(G.simple_graph("gpu", square_sum=True))


def mean_endpoint_degree(simple):
    """``sum(d**2) / sum(d)`` over the degrees ``d`` of a simple graph.

    The degree of an edge's endpoint, averaged over the edges: on a graph of hubs
    most edges touch one, and the wedges through the hubs (the work of an
    intersection-based count) grow with it. ``sum(d)`` is twice the edges and
    ``sum(d**2)`` is computed once per simple graph (on the GPU along with it,
    read with the deduplication's synchronisation).

    Parameters
    ----------
    simple : SimpleGraph

    Returns
    -------
    float
        0.0 without edges.
    """
    if simple.m == 0:
        return 0.0
    return simple.square_sum() / (2 * simple.m)


def gpu_auto_algorithm(rows, statistics):
    """``(algorithm, reason)`` of ``algorithm="auto"`` on the GPU.

    Parameters
    ----------
    rows : int
        Edge rows of the graph.
    statistics : callable
        Returns the graph's :func:`mean_endpoint_degree`; called only for graphs of
        at least :data:`GPU_LOOK_ROWS` rows.
    """
    if rows < GPU_LOOK_ROWS:
        return "merge", (
            f"algorithm auto -> merge: {rows:,} edge rows (< {GPU_LOOK_ROWS:,}), where "
            "merge's single launch on degree orientation, the cheapest preprocessing, "
            "was the best of 13 configurations, or close to it, on every ../shared/data "
            "graph measured on an H100; the degrees are not looked at (docs/benchmarks.md)"
        )
    skew = statistics()
    if skew >= GPU_WEDGE_SKEW:
        return "wedge", (
            f"algorithm auto -> wedge: {rows:,} edge rows and a mean endpoint degree "
            f"sum(d^2)/sum(d) = {skew:,.0f} (>= {GPU_WEDGE_SKEW:,}): hubs, whose wedges "
            "wedge-parallel counting spreads evenly over the threads (docs/benchmarks.md)"
        )
    return "merge", (
        f"algorithm auto -> merge: {rows:,} edge rows and a mean endpoint degree "
        f"sum(d^2)/sum(d) = {skew:,.0f} (< {GPU_WEDGE_SKEW:,}): few wedges per edge, "
        "where one merge per arc is the fastest (docs/benchmarks.md)"
    )
