"""How a count is spread: the parts per side of its 2D partition and how vertices
fall into classes, the GPUs its tasks run on, the executor, and where the graph
is prepared (``docs/algorithms.md``, "Partitioned counting").

A graph is counted whole when it fits the memory limit; on one GPU also when
only its prepared CSR and count do, prepared in passes
(:func:`~.preparing.in_passes`); else it is prepared in host memory, straight
into its parts where its preprocessing allows (:func:`~.preparing.streaming`),
and its ``p³`` tasks, each about ``3 / p²`` of the arcs, go through the device
one after another, ``p`` the smallest whose task fits. Several
devices or Dask workers (even one) get at least two tasks each, their parts in
host memory. ``devices`` names GPUs: the CPU engine has none to spread over (the
plan says so when they are set).
"""

import math
import sys
from dataclasses import dataclass

from ..metadata.config import memory_bytes
from .memory import passes_bytes, split_bytes, task_bytes, together_bytes, whole_bytes

__all__ = [
    "EXECUTORS",
    "Spread",
    "UNREAD_LIMIT_BYTES",
    "WORK_SPLITS",
    "REPLICA_MIN_ROWS",
    "SHARES_PER_WORKER",
    "TOTAL_SHARES_PER_WORKER",
    "decide",
]

#: How a count runs (``Spread.executor``): ``whole``, one count of the whole graph
#: on the count's device; ``serial``, its tasks or shares one after another
#: there; ``gpus``, a thread per GPU of ``devices``; ``dask``, the Dask client's
#: workers.
EXECUTORS = ("whole", "serial", "gpus", "dask")

#: How the work is split (``Spread.regime``): ``whole``, not at all; ``replicated``
#: (TRUST §5.1), the whole prepared graph on every worker and its base vertices cut
#: into shares of about equal cost (:mod:`nx_tricount.algorithms.shares`);
#: ``partitioned`` (§5.2), the ``p³`` tasks of a 2D partition.
WORK_SPLITS = ("whole", "replicated", "partitioned")

#: With ``regime="auto"``, several GPUs count a graph that fits one only from this
#: many edge rows (R-MAT 24): two H200s took 1.45x less time there, the same as
#: one on R-MAT 22, where the shares' launches and the copy cost what the second
#: GPU saves (docs/benchmarks.md, "Several GPUs").
REPLICA_MIN_ROWS = 1 << 28

#: Shares per worker of a replicated count: workers take them in turn, costliest
#: first, so that a share whose cost was misjudged leaves little imbalance. A
#: count with a value per vertex or arc zeroes and adds one output per share (R-MAT
#: 25 per node, two H200s: 0.378 s with 8 shares a GPU, 0.380 with 12, 0.383 with 16).
SHARES_PER_WORKER = 8

#: Shares per worker of a total, whose shares cost little beyond their kernels
#: (0.06 ms): R-MAT 25, two H200s, the GPUs ended their counts 7 ms apart with 8
#: shares a GPU, 0.3 with 16 (``nx.transitivity`` 0.297 s, 0.294).
TOTAL_SHARES_PER_WORKER = 16


@dataclass(frozen=True)
class Spread:
    """Where and in how many parts a count runs.

    Attributes
    ----------
    parts : int
        Parts per side ``p``: ``p²`` parts and ``p³`` tasks (1: the whole graph).
    scheme : {"hashed", "range"}
        How the partition puts vertices in classes
        (:class:`~nx_tricount.preprocess.partition.VertexClasses`).
    devices : tuple of int
        GPU ids the tasks run on (empty on the CPU or with Dask).
    distributed : str or None
        ``"dask"``: the tasks run on the current Dask client's workers.
    progress : bool
        Show a progress bar of the tasks.
    preparation_device : {"cpu", "gpu"}
        Where the graph is prepared and partitioned: host memory when it does
        not fit the count's device.
    memory_limit : int or None
        Bytes a count may take on its device.
    reasons : tuple of str
    prepared_in_parts : bool
        The graph does not fit the limit whole (on the GPU: or not beside its
        parts): it is prepared in host memory, in chunks straight into its
        partition where :attr:`streamed`, else whole and then split.
    executor : str
        How the count runs, one of :data:`EXECUTORS`: ``"whole"`` only for
        one part prepared on the count's device, on that device alone.
    parts_on_host : bool
        The parts go to the tasks from host memory (several GPUs, Dask workers).
    streamed : bool
        The undirected simple graph is prepared in chunks straight into its
        partition on the count's device (:mod:`~nx_tricount.preprocess.streamed`):
        an unweighted count whose preprocessing needs only the degrees, of a
        graph prepared in parts (:func:`~.preparing.streaming`). What reads the whole CSR
        (per-edge counts, listing, peeling) prepares it whole in host memory.
    regime : str
        How the work is split, one of :data:`WORK_SPLITS` (unset: ``whole``
        for the executor ``whole``, else ``partitioned``).
    shares : int
        Shares of a replicated count (1 otherwise).
    parts_configured : bool
        ``parts`` is the ``partitions`` setting, not the plan's estimate (which
        execution may raise where a real task is over the limit).
    prepared_together : bool
        A replicated count on several GPUs whose GPUs prepare the graph together,
        each ending with its copy (:mod:`~nx_tricount.preprocess.together`):
        set by :func:`~.preparing.together`.
    needs_together : bool
        The replicated count fits the memory limit only when its GPUs prepare
        the graph together: its whole count on one GPU would not.
    prepared_in_passes : bool
        The whole count does not fit the memory limit of its one GPU, but its
        prepared CSR and count do: the graph is prepared there in passes
        (:mod:`~nx_tricount.preprocess.passes`) and counted whole. Set by
        :func:`decide` for the undirected unweighted simple graph; a plan whose
        preprocessing cannot be prepared so is planned again without
        (:func:`~.preparing.in_passes`).
    """

    parts: int = 1
    scheme: str = "hashed"
    devices: tuple = ()
    distributed: str | None = None
    progress: bool = False
    preparation_device: str = "cpu"
    memory_limit: int | None = None
    reasons: tuple = ()
    prepared_in_parts: bool = False
    executor: str = "whole"
    parts_on_host: bool = False
    streamed: bool = False
    regime: str | None = None
    shares: int = 1
    parts_configured: bool = False
    prepared_together: bool = False
    needs_together: bool = False
    prepared_in_passes: bool = False

    def __post_init__(self):
        if self.regime is None:
            object.__setattr__(self, "regime", "whole" if self.executor == "whole" else "partitioned")
        if self.executor not in EXECUTORS:
            raise ValueError(f"executor {self.executor!r}: accepted are {', '.join(EXECUTORS)}")
        if self.regime not in WORK_SPLITS:
            raise ValueError(f"regime {self.regime!r}: accepted are {', '.join(WORK_SPLITS)}")
        if (self.executor == "whole") != (self.regime == "whole"):
            raise ValueError(
                f"executor {self.executor!r} with regime {self.regime!r}: only 'whole' runs whole"
            )
        if self.regime == "replicated" and (self.parts > 1 or self.shares < 1):
            raise ValueError("a replicated count has one part and at least one share")
        if self.executor == "whole" and self.parts > 1:
            raise ValueError(
                f"a spread of {self.parts} parts per side runs its tasks: executor 'serial', "
                "'gpus' or 'dask', not 'whole'"
            )


#: GPU bytes of a whole count small enough that the plan does not read the free
#: memory for it (a call that costs a visible share of a small graph's count):
#: where even that little is not free, CuPy's out-of-memory error, which
#: gpu.errors.gpu_errors turns into GPUMemoryError, says so.
UNREAD_LIMIT_BYTES = 1 << 24


def decide(rows, n, device, settings, free_memory=None, shareable=False, passable=False, total=False):
    """The :class:`Spread` of a count.

    Parameters
    ----------
    rows, n : int
        Edge rows and vertices of the graph.
    device : {"cpu", "gpu"}
        Resolved device of the count.
    settings : mapping
        ``partitions``, ``partitioning``, ``memory_limit``, ``regime``,
        ``devices``, ``distributed``, ``progress`` (validated by
        :mod:`nx_tricount.metadata.config`).
    free_memory : callable, optional
        Free bytes of the current GPU (read only on the GPU without a limit, for
        counts of more than :data:`UNREAD_LIMIT_BYTES`).
    shareable : bool, optional
        The GPUs may prepare the graph together (its edge rows in host memory,
        the count starting from the unweighted undirected simple graph): a graph
        whose whole count does not fit one GPU is replicated when
        :func:`~.memory.together_bytes` fits each (``needs_together``; :func:`~.preparing.together`
        decides whether its preprocessing allows it).
    passable : bool, optional
        The count starts from the unweighted undirected simple graph on the GPU:
        a graph whose whole count does not fit one GPU, but whose prepared CSR
        and count (:func:`~.memory.passes_bytes`) do, is prepared in passes there
        (``prepared_in_passes``; :func:`~.preparing.in_passes` checks its preprocessing).
    total : bool, optional
        The count is one total: replicated, in :data:`TOTAL_SHARES_PER_WORKER`
        shares per worker, else :data:`SHARES_PER_WORKER`.
    """
    reasons = []
    limit = memory_bytes(settings["memory_limit"])
    if limit is None and device == "gpu" and free_memory is not None:
        if whole_bytes(rows) <= UNREAD_LIMIT_BYTES:
            reasons.append(f"memory limit: not read, the whole count needs about {whole_bytes(rows):,} bytes")
        else:
            limit = free_memory()
            reasons.append(f"memory limit: {limit:,} bytes free on the GPU")
    devices = _gpu_ids(settings["devices"]) if device == "gpu" else ()
    if device == "cpu" and settings["devices"] != "auto":
        reasons.append(f"devices {settings['devices']!r}: GPU ids, not used by the CPU engine")
    distributed = settings["distributed"]
    fits = limit is None or whole_bytes(rows) <= limit
    shared = (
        not fits
        and shareable
        and distributed is None
        and len(devices) > 1
        and together_bytes(rows, devices) <= limit
    )
    passes = (
        not fits
        and not shared
        and passable
        and distributed is None
        and len(devices) == 1
        and settings["partitions"] is None
        and settings["regime"] == "auto"
        and passes_bytes(rows, n) <= limit
    )
    if passes:
        reasons.append(
            f"prepared in passes: {rows:,} edge rows need about {whole_bytes(rows):,} bytes prepared "
            f"whole, over the limit of {limit:,}; prepared in passes and counted whole, about "
            f"{passes_bytes(rows, n):,}"
        )
    whole = fits or passes  # counted whole on one GPU, unless several share it
    regime = _regime(rows, whole, shared, limit, settings, devices, reasons)
    if shared and regime == "replicated":
        reasons.append(_shared_reason(rows, devices, limit))
    if regime == "whole" and len(devices) > 1:
        devices = devices[:1]
    workers = max(len(devices), 1) if distributed is None else _dask_workers()
    if regime == "replicated":
        shares = (TOTAL_SHARES_PER_WORKER if total else SHARES_PER_WORKER) * workers
        reasons.append(
            f"regime replicated: the whole prepared graph on each of {workers} worker(s), its "
            f"base vertices cut into {shares} shares of about equal cost (TRUST §5.1)"
        )
        executor = "dask" if distributed is not None else "gpus" if len(devices) > 1 else "serial"
        return Spread(
            1,
            settings["partitioning"],
            devices if distributed is None else (),
            distributed,
            False if settings["progress"] is None else settings["progress"],
            device,
            limit,
            tuple(reasons),
            executor=executor,
            regime="replicated",
            shares=shares,
            needs_together=not fits,
        )
    parts = settings["partitions"]
    if parts is not None:
        reasons.append(f"partitions {parts}: configured")
    elif whole:
        parts = 1
    else:
        parts = _parts_for_limit(rows, n, limit, settings["partitioning"])
        reasons.append(
            f"partitions {parts}: {rows:,} edge rows need about {whole_bytes(rows):,} bytes whole, "
            f"over the limit of {limit:,}; a task of {parts} parts per side about "
            f"{task_bytes(rows, n, parts):,}"
        )
    spread_out = workers > 1 or distributed is not None  # one Dask worker counts remotely too
    if spread_out and parts**3 < 2 * workers and settings["partitions"] is None:
        parts = max(parts, math.ceil((2 * workers) ** (1 / 3) - 1e-9))
        # A task of few parts takes more than the whole count (3 / p² of the arcs
        # at more bytes an arc): as many parts as its task needs to fit.
        while limit is not None and task_bytes(rows, n, parts) > limit and parts <= max(n, 2):
            parts += 1
        reasons.append(f"partitions {parts}: at least two tasks for each of {workers} workers")
    preparation = device if whole else "cpu"
    if device == "gpu" and not whole:
        reasons.append("prepared in host memory: the whole graph does not fit the GPU's limit")
    elif not whole:
        reasons.append("prepared in parts: the whole graph does not fit the limit")
    elif device == "gpu" and parts > 1 and limit is not None and split_bytes(rows) > limit:
        preparation = "cpu"
        reasons.append(
            f"prepared in host memory: split on the GPU, its parts beside the whole graph would "
            f"need about {split_bytes(rows):,} bytes, over the limit of {limit:,}"
        )
    progress = settings["progress"]
    if progress is None:
        progress = parts > 1 and sys.stderr is not None and sys.stderr.isatty()
    scheme = settings["partitioning"]
    if parts > 1 and scheme != "hashed":
        reasons.append(f"partitioning {scheme}: configured")
    prepared_in_parts = not whole or preparation != device
    if distributed is not None:
        executor = "dask"
    elif len(devices) > 1:
        executor = "gpus"
    elif parts > 1 or prepared_in_parts:
        executor = "serial"
    else:
        executor = "whole"
    return Spread(
        parts,
        scheme,
        devices if distributed is None else (),
        distributed,
        progress,
        preparation,
        limit,
        tuple(reasons),
        prepared_in_parts=prepared_in_parts,
        executor=executor,
        parts_on_host=executor in ("gpus", "dask"),
        parts_configured=settings["partitions"] is not None,
        prepared_in_passes=passes,
    )


def _regime(rows, fits, shared, limit, settings, devices, reasons):
    """``"replicated"``, ``"partitioned"`` or ``"whole"``: how a count of ``rows``
    edge rows shares its work (``regime``, ``partitions``, the workers), with the
    reason appended to ``reasons``; ``shared``: it fits each GPU only when they
    prepare it together (:func:`decide` says so)."""
    regime, parts = settings["regime"], settings["partitions"]
    several = len(devices) > 1 or settings["distributed"] is not None
    if regime == "replicated":
        if parts is not None and parts > 1:
            raise ValueError(
                f"tricount regime='replicated' counts the whole graph on every worker, and "
                f"partitions={parts} asks for a 2D partition: set regime='partitioned' (or "
                "'auto'), or partitions=None"
            )
        if not (fits or shared):
            raise ValueError(
                f"tricount regime='replicated' needs the whole graph on each worker: {rows:,} edge "
                f"rows need about {whole_bytes(rows):,} bytes, over the memory limit of {limit:,}; "
                "set regime='partitioned' or 'auto'"
            )
        return "replicated"
    if regime == "partitioned" or not (fits or shared) or (parts is not None and parts > 1) or not several:
        return "partitioned"
    if shared:
        return "replicated"
    if settings["distributed"] is None and rows < REPLICA_MIN_ROWS:
        reasons.append(
            f"devices {list(devices)}: one GPU counts {rows:,} edge rows (< {REPLICA_MIN_ROWS:,}), "
            "where copying the graph to the others costs about what they save "
            "(docs/benchmarks.md, 'Several GPUs')"
        )
        return "whole"
    return "replicated"


def _shared_reason(rows, devices, limit):
    return (
        f"{rows:,} edge rows need about {whole_bytes(rows):,} bytes counted whole on one GPU, over "
        f"the memory limit of {limit:,}; prepared together by the {len(devices)} GPU workers, each "
        f"GPU needs about {together_bytes(rows, devices):,} for its workers' shares of the "
        "preparation and their copies"
    )


def _parts_for_limit(rows, n, limit, partitioning):
    """The fewest parts per side whose hashed task fits ``limit``."""
    if partitioning == "range":
        # The size of a range task depends on the degrees, unknown before preparation.
        raise ValueError(
            f"tricount partitioning='range' needs partitions set when the memory limit "
            f"decides the parts ({rows:,} edge rows do not fit {limit:,} bytes): a range "
            "task's size depends on the graph's degrees, known only once it is prepared; "
            "set partitions=p, or partitioning='hashed' to let the limit choose p"
        )
    parts = 2
    while task_bytes(rows, n, parts) > limit:
        if parts > max(n, 2):  # one vertex per class: more parts take no less
            raise ValueError(
                f"tricount memory_limit of {limit:,} bytes is too small for this graph "
                f"({rows:,} edge rows, {n:,} vertices): a task needs at least about "
                f"{task_bytes(rows, n, parts):,}; raise memory_limit"
            )
        parts += 1
    return parts


def _gpu_ids(devices):
    """GPU ids of a ``devices`` setting: ``"auto"`` the current one, ``"all"`` every one."""
    import cupy

    if devices == "auto":
        return (cupy.cuda.Device().id,)
    count = cupy.cuda.runtime.getDeviceCount()
    if devices == "all":
        return tuple(range(count))
    missing = [d for d in devices if d >= count]
    if missing:
        raise ValueError(
            f"tricount devices {devices!r}: no GPU with id {missing[0]}; this machine has "
            f"{count} (ids 0 to {count - 1})"
        )
    return tuple(devices)


def _dask_workers():
    """Workers of the current Dask client; a clear error without one."""
    try:
        from distributed import get_client
    except ImportError as exc:
        raise ImportError(
            "tricount distributed='dask' needs dask.distributed: pip install 'nx-tricount[dask]'"
        ) from exc
    try:
        client = get_client()
    except ValueError as exc:
        raise ValueError(
            "tricount distributed='dask' counts on the current dask.distributed client, and "
            "there is none: start one first (e.g. distributed.Client(LocalCluster()))"
        ) from exc
    return max(1, len(client.scheduler_info()["workers"]))
