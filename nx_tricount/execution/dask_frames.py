"""Counting a Dask DataFrame of edges on its workers, never gathering the edges
on one (``docs/algorithms.md``, "Partitioned counting").

The steps of the chunked preparation (``preprocess/streamed.py``), with the
frame's partitions as the chunks and Dask moving the data:

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
ids; then one graph of tasks runs the steps. Vertex ids are the frame's
integers (``0 .. n - 1``, ``n`` the largest plus one).
"""

import numbers
import operator

import numpy as np

from ..algorithms import count
from ..metadata.catalog import ALGORITHMS
from ..preprocess.host_ops import pair_sum
from ..preprocess.partition import Partition, VertexClasses, task_graph
from ..preprocess.streamed import bucket_of, distinct_edge_keys, key_degrees, oriented_parts

__all__ = ["dask_triangles", "dask_transitivity"]


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
        with ``v mod p == c`` in partition ``c``.

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

    p = _checked_settings(partitions, algorithm)
    n = _vertex_count(edges, source, target)
    if n == 0:
        return 0
    parts, degree = _prepare(edges, source, target, n, p)
    tasks = [
        dask.delayed(_task_total)(parts[i, j], parts[i, k], parts[j, k], (i, j, k), n, p, algorithm)
        for i, j, k in _tasks(p)
    ]
    triads, *totals = dask.compute(dask.delayed(pair_sum)(degree), *tasks)  # exact, past int64
    triangles = sum(totals)
    return 0 if triangles == 0 else 6 * triangles / triads


def _tasks(p):
    return [(i, j, k) for i in range(p) for j in range(p) for k in range(p)]


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
    """``(parts, degree)``: the delayed parts ``(a, b) -> (local u, local v)`` and
    the delayed degrees, all on the workers."""
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
    return tuple(np.concatenate([piece[i] for piece in pieces]) for i in (0, 1))


def _count_task(ij, ik, jk, classes, n, p, algorithm, mode):
    i, j, k = classes
    parts = {(i, j): (*ij, None, None), (i, k): (*ik, None, None), (j, k): (*jk, None, None)}
    graph = task_graph(Partition(VertexClasses(p, n), parts, "degree"), i, j, k, with_arcs=False)
    return graph, count(graph.prepared, algorithm, mode, "cpu")


def _task_total(ij, ik, jk, classes, n, p, algorithm):
    return _count_task(ij, ik, jk, classes, n, p, algorithm, "total")[1].total


def _task_per_node(ij, ik, jk, classes, n, p, algorithm):
    """The task's per-node counts of its three blocks, the classes i, j, k, by local id."""
    graph, counts = _count_task(ij, ik, jk, classes, n, p, algorithm, "per_node")
    ends = np.cumsum(graph.sizes)
    return tuple(np.split(counts.per_node.astype(np.int64, copy=False), ends[:2]))


def _counts_frame(nodes, triangles):
    import pandas as pd

    return pd.DataFrame(
        {"node": np.asarray(nodes, np.int64), "triangles": np.asarray(triangles, np.int64)}
    )


def _class_counts(c, n, p, blocks):
    """The frame of class ``c``'s vertices and the sum of their counts in ``blocks``."""
    classes = VertexClasses(p, n)
    return _counts_frame(classes.global_ids(np.arange(classes.size(c), dtype=np.int64), c), sum(blocks))


def _per_node_frame(parts, n, p, algorithm):
    import dask
    import dask.dataframe as dd

    count_task = dask.delayed(_task_per_node, nout=3)
    found = {
        (i, j, k): count_task(parts[i, j], parts[i, k], parts[j, k], (i, j, k), n, p, algorithm)
        for i, j, k in _tasks(p)
    }
    # Every vertex is in a block of some task (c, ., .): each class sums its blocks.
    by_class = []
    for c in range(p):
        blocks = [found[task][b] for task in found for b in range(3) if task[b] == c]
        by_class.append(dask.delayed(_class_counts)(c, n, p, blocks))
    return dd.from_delayed(by_class, meta=_counts_frame([], []), verify_meta=False)
