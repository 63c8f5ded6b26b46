"""Counting a Dask DataFrame of edges on its workers, never gathering the edges
on one (``docs/algorithms.md``, "Partitioned counting").

The steps of the chunked preparation (``preprocess/streamed.py``), with the
frame's partitions as the chunks and Dask moving the data:

1. each partition's distinct edges ``lo < hi`` get their bucket ``(lo mod p, hi
   mod p)``, and a shuffle puts every bucket in one partition;
2. each shuffled partition drops its duplicates and counts its degrees, which
   add up on the client (one counter per vertex);
3. each deduplicated partition orients its edges on the degrees and splits them
   into the ``p²`` parts, which are joined part by part;
4. the ``p³`` tasks count on the workers (the CPU engine), and the per-node
   counts come back as a Dask DataFrame, the total as an int.

Vertex ids are the frame's integers (``0 .. n - 1``, ``n`` the largest plus one).
"""

import operator

import numpy as np

from .algorithms import count
from .preprocess.host_ops import pair_sum
from .preprocess.partition import Partition, VertexClasses, task_graph
from .preprocess.streamed import bucket_of, distinct_edge_keys, key_degrees, oriented_parts

__all__ = ["dask_triangles", "dask_transitivity"]


def dask_triangles(edges, source="source", target="target", *, partitions=2, algorithm="hash"):
    """Triangles at every node of the undirected graph of a Dask edge frame.

    Parameters
    ----------
    edges : dask.dataframe.DataFrame
        Integer vertex ids in ``source`` and ``target``; duplicates, both
        directions and self-loops allowed (NetworkX's simple graph is counted).
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
        Columns ``node`` and ``triangles`` (int64), one row per vertex ``0 .. n - 1``.

    Examples
    --------
    >>> import dask.dataframe as dd, pandas as pd
    >>> edges = dd.from_pandas(pd.DataFrame({"source": [0, 1, 2], "target": [1, 2, 0]}), npartitions=2)
    >>> dask_triangles(edges).compute().sort_values("node").triangles.tolist()
    [1, 1, 1]
    """
    parts, n, _ = _prepare(edges, source, target, partitions)
    return _per_node_frame(parts, n, partitions, algorithm)


def dask_transitivity(edges, source="source", target="target", *, partitions=2, algorithm="hash"):
    """NetworkX's ``transitivity`` of the undirected graph of a Dask edge frame
    (the arguments are :func:`dask_triangles`'s); 0 without triads, as NetworkX."""
    import dask

    parts, n, degree = _prepare(edges, source, target, partitions)
    tasks = [
        dask.delayed(_task_total)(parts[i, j], parts[i, k], parts[j, k], (i, j, k), n, partitions, algorithm)
        for i, j, k in _tasks(partitions)
    ]
    triangles = sum(dask.compute(*tasks))
    triads = pair_sum(degree)  # exact, past int64
    return 0 if triangles == 0 else 6 * triangles / triads


def _tasks(p):
    return [(i, j, k) for i in range(p) for j in range(p) for k in range(p)]


def _prepare(edges, source, target, p):
    """``(parts, n, degree)``: the delayed parts ``(a, b) -> (local u, local v)``,
    the vertex count and the degrees (NumPy, on the client)."""
    import dask

    if not isinstance(p, int) or isinstance(p, bool) or p < 1:
        raise ValueError(f"partitions must be an int >= 1, got {p!r}")
    missing = [c for c in (source, target) if c not in edges.columns]
    if missing:
        raise KeyError(f"the edge frame has no column {missing[0]!r}; its columns: {list(edges.columns)}")
    for column in (source, target):
        if edges[column].dtype.kind not in "iu":
            raise TypeError(f"column {column!r} must hold integer vertex ids, got {edges[column].dtype}")
    low, high = dask.compute(edges[[source, target]].min().min(), edges[[source, target]].max().max())
    if low < 0:
        raise ValueError(f"vertex ids must be non-negative, found {low}")
    n = int(high) + 1
    if n > 2**31:  # ids of 32 bits, as the parts' local ids
        raise ValueError(f"vertex ids must be below 2**31 here, found {high}")
    keyed = edges.map_partitions(_bucketed_keys, source, target, n, p, meta={"key": "i8", "bucket": "i8"})
    shuffled = keyed.shuffle("bucket", npartitions=max(1, min(p * p, keyed.npartitions * p)))
    distinct = [dask.delayed(_distinct_keys)(part) for part in shuffled.to_delayed()]
    degree = sum(dask.compute(*[dask.delayed(key_degrees)(keys, n) for keys in distinct]))
    routed = [dask.delayed(_route)(keys, degree, n, p) for keys in distinct]
    parts = {
        (a, b): dask.delayed(_join)([dask.delayed(operator.getitem)(r, (a, b)) for r in routed])
        for a in range(p)
        for b in range(p)
    }
    return parts, n, degree


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
    """The task's per-node counts as a frame of (node, triangles), nonzero rows only."""
    import pandas as pd

    graph, counts = _count_task(ij, ik, jk, classes, n, p, algorithm, "per_node")
    # The task's blocks are the classes i, j, k (hashed: vertices c, c + p, c + 2p, ...).
    hashed = VertexClasses(p, n)
    nodes = np.concatenate(
        [hashed.global_ids(np.arange(size, dtype=np.int64), c) for c, size in zip(classes, graph.sizes)]
    )
    nonzero = counts.per_node != 0
    return pd.DataFrame({"node": nodes[nonzero], "triangles": counts.per_node[nonzero].astype(np.int64)})


def _per_node_frame(parts, n, p, algorithm):
    import dask
    import dask.dataframe as dd
    import pandas as pd

    meta = pd.DataFrame({"node": np.zeros(0, np.int64), "triangles": np.zeros(0, np.int64)})
    found = [
        dask.delayed(_task_per_node)(parts[i, j], parts[i, k], parts[j, k], (i, j, k), n, p, algorithm)
        for i, j, k in _tasks(p)
    ]
    every_node = dd.from_pandas(
        pd.DataFrame({"node": np.arange(n, dtype=np.int64), "triangles": np.zeros(n, np.int64)}),
        npartitions=max(1, min(p * p, n)),
    )
    counts = dd.concat([every_node, dd.from_delayed(found, meta=meta)])
    return counts.groupby("node").triangles.sum().reset_index()
