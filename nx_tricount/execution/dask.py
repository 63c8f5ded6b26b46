"""Counting on the workers of Dask: the executor of ``distributed="dask"`` (a
partition's tasks on the current client's workers), and a Dask DataFrame of
edges counted without gathering its edges on one worker (``docs/algorithms.md``,
"Partitioned counting").

Both run their tasks one way. The parts lie on the workers: a partition in
host memory is scattered to every worker, a frame's parts are prepared there.
One Dask task per count task reads its three parts and counts them
(:func:`_task_counts`); :func:`finished` computes the tasks in one graph on the
client's workers, each tried again up to :data:`RETRIES` times, and takes their
results as they finish (the executor's tasks, and a frame's transitivity with
its triads). A frame's per-node counts stay a lazy Dask DataFrame made of the
same tasks, computed where the frame is. A worker lost mid-run loses nothing
for good: Dask runs its tasks again elsewhere, on the copies of scattered parts
that the other workers hold, or on a frame's parts computed again from the
frame.

A frame is prepared as the chunked preparation (``preprocess/streamed.py``)
prepares a graph in host memory, with the frame's partitions as the chunks and
Dask moving the data:

1. each partition's distinct edges ``lo < hi`` get their bucket ``(lo mod p, hi
   mod p)``, and a shuffle puts every bucket in one partition;
2. each shuffled partition drops its duplicates and counts its degrees, which
   add up on the workers (one counter per vertex);
3. each deduplicated partition orients its edges on the degrees and splits them
   into the ``p²`` parts, which are joined part by part;
4. the ``p³`` tasks count on the workers (the CPU engine), and the per-node
   counts come back as a Dask DataFrame, one partition per vertex class, the
   total as an int.

The client reads the frame once first, for the largest id and to check the
ids; then one graph of tasks runs the steps, with one shuffle. Vertex ids are
the frame's integers (``0 .. n - 1``, ``n`` the largest plus one).
"""

import numbers
import operator
from concurrent.futures import CancelledError
from dataclasses import replace

import numpy as np

from ..gpu.errors import gpu_errors
from ..metadata.catalog import ALGORITHMS
from ..planning.tasks import CountTask
from ..preprocess.ops import ops_for
from ..preprocess.partition import Partition, VertexClasses, task_part_keys
from ..preprocess.streamed import bucket_of, distinct_edge_keys, key_degrees, oriented_parts
from .tasks import count_task, on_host, task_arguments

__all__ = ["results", "finished", "dask_triangles", "dask_transitivity"]

#: Times a task that raised is tried again (on any worker) before its error is
#: the call's: a worker's GPU may lack memory for a moment beside other work.
RETRIES = 2


def results(plan, partition, tasks, mode):
    """``(TaskGraph, Counts)`` of each of ``tasks``, in host memory, in the order
    they finish on the current Dask client's workers: on each worker's GPU
    (dask-cuda gives each worker one), or its CPU engine when the count's device
    is the CPU. The parts (in host memory) go to every worker once."""
    from distributed import get_client

    client = get_client()
    arguments = task_arguments(plan, mode)
    remaining = list(tasks)
    for _ in range(1 + RETRIES):
        keys = sorted({key for task in remaining for key in task_part_keys(task.i, task.j, task.k)})
        scattered = client.scatter([partition.parts[key] for key in keys], broadcast=True, hash=False)
        counts = _task_counts(partition, dict(zip(keys, scattered)), remaining, arguments)
        done = set()
        try:
            for position, result in finished(counts, client):
                done.add(position)
                yield result
            return
        except CancelledError:
            # Dask's memory manager keeps one copy of scattered data that no task
            # holds yet: a lost worker may take a part with it. Scatter again.
            remaining = [task for position, task in enumerate(remaining) if position not in done]
    raise RuntimeError(f"tricount: {len(remaining)} task(s) lost their parts {1 + RETRIES} times")


def dask_triangles(edges, source="source", target="target", *, partitions=2, algorithm="hash"):
    """Triangles at every node of the undirected graph of a Dask edge frame.

    Parameters
    ----------
    edges : dask.dataframe.DataFrame
        Integer vertex ids (any integer dtype, nullable ones without missing
        values) in ``source`` and ``target``; duplicates, both directions and
        self-loops allowed (NetworkX's simple graph is counted).
    source, target : str
        Column names.
    partitions : int
        Parts per side ``p`` of the hashed 2D partition: ``p³`` tasks.
    algorithm : str
        The counting algorithm each task runs on the workers' CPU engine (on
        degree orientation).

    Returns
    -------
    dask.dataframe.DataFrame
        Columns ``node`` and ``triangles`` (int64), one row per vertex ``0 .. n - 1``
        (none for a frame without rows), in ``p`` partitions: the vertices ``v``
        with ``v mod p == c`` in partition ``c``. Lazy: the count runs when it
        is computed.

    Raises
    ------
    TypeError
        ``edges`` is not a Dask DataFrame (a pandas or cuDF frame is counted by
        :func:`~nx_tricount.from_frame` and the NetworkX functions), or a column
        does not hold integers.
    KeyError
        ``source`` or ``target`` is not a column.
    ValueError
        Missing, negative or too large ids, or a bad ``partitions`` or
        ``algorithm``.

    Examples
    --------
    >>> import dask.dataframe as dd, pandas as pd
    >>> edges = dd.from_pandas(pd.DataFrame({"source": [0, 1, 2], "target": [1, 2, 0]}), npartitions=2)
    >>> dask_triangles(edges).compute().sort_values("node").triangles.tolist()
    [1, 1, 1]
    """
    with gpu_errors("counting the triangles of a Dask frame"):
        p = _checked_settings(partitions, algorithm)
        n = _vertex_count(edges, source, target)
        if n == 0:
            import dask.dataframe as dd

            return dd.from_pandas(_counts_frame([], []), npartitions=1)
        parts, _ = _prepare(edges, source, target, n, p)
        return _per_node_frame(parts, n, p, algorithm)


def dask_transitivity(edges, source="source", target="target", *, partitions=2, algorithm="hash"):
    """NetworkX's ``transitivity`` of the undirected graph of a Dask edge frame
    (the arguments and errors are :func:`dask_triangles`'s); 0 without triads
    (an empty frame too), as NetworkX."""
    import dask

    with gpu_errors("counting the transitivity of a Dask frame"):
        p = _checked_settings(partitions, algorithm)
        n = _vertex_count(edges, source, target)
        if n == 0:
            return 0
        parts, degree = _prepare(edges, source, target, n, p)
        tasks = CountTask.all_of(p)
        counts = _task_counts(_frame_partition(n, p), parts, tasks, (algorithm, "total", "cpu", {}))
        # The triads in the same graph as the tasks: the frame is shuffled once.
        found = dict(finished([dask.delayed(_pair_sum)(degree), *counts], _current_client()))
        triads = found.pop(0)
        triangles = sum(task_counts.total for _, task_counts in found.values())
        return 0 if triangles == 0 else 6 * triangles / triads


# ------------------------------------------------- the tasks on the workers


def _task_counts(partition, parts, tasks, arguments):
    """One delayed Dask task per count task of ``tasks``: its result
    ``(TaskGraph, Counts)`` in host memory, from its three parts of ``parts``
    (Dask futures or delayed objects, ``(a, b) -> part``, on the workers) and
    ``partition``'s classes and settings (its own parts left out)."""
    import dask

    shared = dask.delayed(replace(partition, parts={}), traverse=False)
    count_on_worker = dask.delayed(_count_on_worker, pure=False)
    return [
        count_on_worker(
            shared, task, *(parts[key] for key in task_part_keys(task.i, task.j, task.k)), *arguments
        )
        for task in tasks
    ]


def _count_on_worker(partition, task, ij, ik, jk, algorithm, mode, device, parameters):
    """Count ``task`` of ``partition`` on a worker, from its parts ``P_ij``,
    ``P_ik`` and ``P_jk``; the result in host memory."""
    parts = dict(zip(task_part_keys(task.i, task.j, task.k), (ij, ik, jk)))
    return on_host(*count_task(replace(partition, parts=parts), task, algorithm, mode, device, parameters))


def finished(collections, client):
    """``(position, result)`` of each of ``collections`` (Dask delayed objects)
    as it finishes, all computed as one graph (the steps they share run once):
    on ``client``'s workers, each task tried up to ``1 + RETRIES`` times; with no
    client, by Dask's configured scheduler, all at once."""
    if client is None:
        import dask

        yield from enumerate(dask.compute(*collections))
        return
    from distributed import as_completed

    futures = client.compute(collections, retries=RETRIES)
    positions = {future.key: position for position, future in enumerate(futures)}
    try:
        for future in as_completed(futures):
            yield positions[future.key], future.result()
    finally:
        client.cancel(futures)


def _current_client():
    """The dask.distributed client that Dask computes a frame on now, or None:
    none started, or Dask's configuration names another scheduler."""
    import dask

    if dask.config.get("scheduler", None) not in (None, "distributed", "dask.distributed"):
        return None
    try:
        from distributed import get_client

        return get_client()
    except (ImportError, ValueError):
        return None


# ------------------------------------------------- edges in a Dask DataFrame


def _frame_partition(n, p):
    """The hashed partition of a frame's ids, on degree orientation (its parts on the workers)."""
    return Partition(VertexClasses(p, n), {}, "degree")


def _checked_settings(partitions, algorithm):
    """``partitions`` as an int, both checked before the frame is read."""
    if not isinstance(partitions, numbers.Integral) or isinstance(partitions, bool) or partitions < 1:
        raise ValueError(f"partitions must be an int >= 1, got {partitions!r}")
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; accepted: {', '.join(ALGORITHMS)}")
    return int(partitions)


def _vertex_count(edges, source, target):
    """``n``, the largest id plus one (0 for a frame without rows), after checking
    the frame, its columns and its ids: one pass over the frame."""
    try:
        import dask
        import dask.dataframe as dd
    except ImportError as err:
        raise ImportError("counting a Dask frame needs dask: pip install 'nx-tricount[dask]'") from err
    if not isinstance(edges, dd.DataFrame):
        package = type(edges).__module__.split(".")[0]
        given = type(edges).__name__ if package == "builtins" else f"{package}.{type(edges).__name__}"
        raise TypeError(
            f"expected a dask.dataframe.DataFrame of edges, got {given}; for a pandas or cuDF "
            "frame use nx_tricount.from_frame(frame, source, target), then "
            "nx_tricount.triangles or nx_tricount.transitivity"
        )
    columns = list(dict.fromkeys((source, target)))
    for role, column in (("source", source), ("target", target)):
        if column not in edges.columns:
            raise KeyError(
                f"no {role} column {column!r} in the frame; its columns are {list(edges.columns)!r}"
            )
        dtype = edges[column].dtype
        if dtype.kind not in "iu":
            raise TypeError(
                f"column {column!r} ({role}) must hold integer vertex ids 0 .. n - 1, got {dtype}; "
                "for labels of other types use nx_tricount.from_frame on a pandas or cuDF frame, "
                "which numbers them"
            )
    ids = edges[columns]
    low, high, absent = dask.compute(ids.min(), ids.max(), ids.isna().sum())
    for column in columns:
        missing = int(absent[column])
        if missing:
            raise ValueError(
                f"column {column!r} has {missing} missing value{'s' * (missing != 1)} "
                "(NA); drop or fill them first: every vertex id must be a value"
            )
    if low.isna().all():  # no rows
        return 0
    if low.min() < 0:
        raise ValueError(f"vertex ids must be non-negative, found {low.min()}")
    n = int(high.max()) + 1
    if n > 2**31:  # ids of 32 bits, as the parts' local ids
        raise ValueError(f"vertex ids must be below 2**31 here, found {high.max()}")
    return n


def _prepare(edges, source, target, n, p):
    """``(parts, degree)``: the delayed parts ``(a, b) -> (local u, local v, None,
    None)`` (a :class:`Partition`'s) and the delayed degrees, all on the workers."""
    import dask

    meta = {"key": "i8", "bucket": "i8"}
    keyed = edges.map_partitions(_bucketed_keys, source, target, n, p, meta=meta)
    # Dask's task-based shuffle: few output partitions (at most p²), so one stage of
    # splits. Distributed's default, P2P, is made for many and logs every shuffle's
    # start and end as warnings; without a client Dask's default shuffles on disk.
    shuffled = keyed.shuffle(
        "bucket", npartitions=max(1, min(p * p, keyed.npartitions * p)), shuffle_method="tasks"
    )
    distinct = [dask.delayed(_distinct_keys)(part) for part in shuffled.to_delayed()]
    degree = _pairwise_sum([dask.delayed(key_degrees)(keys, n) for keys in distinct])
    routed = [dask.delayed(_route)(keys, degree, n, p) for keys in distinct]
    parts = {
        (a, b): dask.delayed(_join)([dask.delayed(operator.getitem)(r, (a, b)) for r in routed])
        for a in range(p)
        for b in range(p)
    }
    return parts, degree


def _pairwise_sum(arrays):
    """The delayed sum of delayed ``arrays``, two at a time: no task holds more than three."""
    import dask

    while len(arrays) > 1:
        arrays = [
            dask.delayed(operator.add)(*arrays[i : i + 2]) if i + 1 < len(arrays) else arrays[i]
            for i in range(0, len(arrays), 2)
        ]
    return arrays[0]


def _bucketed_keys(frame, source, target, n, p):
    import pandas as pd

    src = frame[source].to_numpy(dtype=np.int64)
    keys = distinct_edge_keys(src, frame[target].to_numpy(dtype=np.int64), n)
    return pd.DataFrame({"key": keys, "bucket": bucket_of(keys, n, p)})


def _distinct_keys(frame):
    return np.unique(frame["key"].to_numpy(dtype=np.int64))


def _route(keys, degree, n, p):
    """The arcs of ``keys`` oriented on ``degree`` (lower degree first, ties by id),
    split into parts ``(a, b)`` as local ids."""
    local_u, local_v = oriented_parts(keys, n, VertexClasses(p, n), "degree", degree)
    return {(a, b): (local_u[a * p + b], local_v[a * p + b]) for a in range(p) for b in range(p)}


def _join(pieces):
    """A part from its pieces: its arcs, without positions or values."""
    return (*(np.concatenate([piece[i] for piece in pieces]) for i in (0, 1)), None, None)


def _pair_sum(degree):
    """Triads at the vertices, twice: ``sum(d (d - 1))``, exact, past int64."""
    return int(ops_for(degree).pair_sum(degree))


def _block(result, b):
    """Block ``b`` (0 sources, 1 middles, 2 sinks) of a task's per-node counts, int64."""
    graph, counts = result
    ends = np.cumsum(graph.sizes)
    return np.split(counts.per_node.astype(np.int64, copy=False), ends[:2])[b]


def _counts_frame(nodes, triangles):
    import pandas as pd

    return pd.DataFrame({"node": np.asarray(nodes, np.int64), "triangles": np.asarray(triangles, np.int64)})


def _class_counts(c, n, p, blocks):
    """The frame of class ``c``'s vertices and the sum of their counts in ``blocks``."""
    classes = VertexClasses(p, n)
    return _counts_frame(classes.global_ids(np.arange(classes.size(c), dtype=np.int64), c), sum(blocks))


def _per_node_frame(parts, n, p, algorithm):
    import dask
    import dask.dataframe as dd

    tasks = CountTask.all_of(p)
    counts = _task_counts(_frame_partition(n, p), parts, tasks, (algorithm, "per_node", "cpu", {}))
    # Every vertex is in a block of some task (c, ., .): each class sums its blocks.
    by_class = []
    for c in range(p):
        blocks = [
            dask.delayed(_block)(result, b)
            for task, result in zip(tasks, counts)
            for b, block_class in enumerate((task.i, task.j, task.k))
            if block_class == c
        ]
        by_class.append(dask.delayed(_class_counts)(c, n, p, blocks))
    return dd.from_delayed(by_class, meta=_counts_frame([], []), verify_meta=False)
