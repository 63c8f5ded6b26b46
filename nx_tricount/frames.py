"""Graphs from edge frames and arrays: pandas, cuDF, NumPy and CuPy.

cuDF numeric columns become CuPy arrays without a copy, so an edge list that is
already on the GPU stays there. Node labels are numbered in order of first
appearance (``src[0], dst[0], src[1], …``), which is the node order NetworkX's
``from_pandas_edgelist`` produces; the numbering is vectorized (a sort), never a
Python loop over edges.
"""

import networkx as nx

from .device import module_of
from .graph import TriGraph

__all__ = ["from_edges", "from_frame"]


def _is_cudf(obj):
    return type(obj).__module__.startswith("cudf")


def _column(frame, name, role):
    """A frame column as a NumPy or CuPy array (no copy where possible)."""
    try:
        series = frame[name]
    except (KeyError, TypeError) as err:
        raise nx.NetworkXError(f"Invalid {role} argument: no column {name!r}") from err
    if series.isna().any():
        raise ValueError(f"column {name!r} ({role}) has missing values")
    if _is_cudf(series):
        if series.dtype.kind in "iufb":
            return series.to_cupy()
        # Strings and other objects are labelled on the host.
        return series.to_pandas().to_numpy()
    return series.to_numpy()


def _first_appearance_ids(src, dst):
    """Number the labels of ``src``/``dst`` by first appearance.

    Returns ``(src_ids, dst_ids, labels)`` with ``labels[i]`` the label of id i.
    """
    xp = module_of(src)
    interleaved = xp.stack([src, dst], axis=1).ravel()
    if interleaved.dtype == object:
        import pandas as pd

        codes, uniques = pd.factorize(interleaved, sort=False)
        labels = list(uniques)
    else:
        uniques, first, inverse = xp.unique(
            interleaved, return_index=True, return_inverse=True
        )
        inverse = inverse.ravel()
        order = xp.argsort(first)
        rank = xp.empty_like(order)
        rank[order] = xp.arange(order.size, dtype=order.dtype)
        codes = rank[inverse]
        labels = uniques[order]
    codes = codes.reshape(-1, 2)
    return xp.ascontiguousarray(codes[:, 0]), xp.ascontiguousarray(codes[:, 1]), labels


def from_frame(
    df,
    source="source",
    target="target",
    edge_attr=None,
    *,
    directed=False,
    multigraph=False,
    edge_key=None,
):
    """Build a ``TriGraph`` from a pandas or cuDF edge frame.

    Parameters
    ----------
    df : pandas.DataFrame or cudf.DataFrame
        One row per edge.
    source, target : column names
        Endpoint columns; any hashable labels (numbers, strings, …).
    edge_attr : None, True, str or list of str
        Columns kept as edge attributes (True: every other column), as in
        :func:`networkx.from_pandas_edgelist`.
    directed, multigraph : bool
        The NetworkX graph class the frame stands for.
    edge_key : column name, optional
        Multigraph edge keys.

    Returns
    -------
    TriGraph
        Nodes in order of first appearance, as NetworkX would number them.

    Examples
    --------
    >>> import pandas as pd
    >>> import nx_tricount
    >>> df = pd.DataFrame({"source": ["a", "b", "c"], "target": ["b", "c", "a"]})
    >>> G = nx_tricount.from_frame(df)
    >>> nx_tricount.triangles(G)
    {'a': 1, 'b': 1, 'c': 1}
    """
    src = _column(df, source, "source")
    dst = _column(df, target, "target")
    if module_of(src) is not module_of(dst):
        raise TypeError("source and target columns must be on the same device")
    src_ids, dst_ids, labels = _first_appearance_ids(src, dst)
    reserved = [source, target] + ([edge_key] if multigraph and edge_key is not None else [])
    if edge_attr is None:
        names = []
    elif edge_attr is True:
        names = [c for c in df.columns if c not in reserved]
    elif isinstance(edge_attr, (list, tuple)):
        names = list(edge_attr)
    else:
        names = [edge_attr]
    if edge_attr is not None and not names:
        raise nx.NetworkXError(f"Invalid edge_attr argument: No columns found with name: {names}")
    edge_data = {}
    for name in names:
        series = df[name] if name in df.columns else None
        if series is None:
            raise nx.NetworkXError(f"Invalid edge_attr argument: {edge_attr}")
        if series.dtype.kind in "iufb":
            edge_data[name] = series.to_cupy() if _is_cudf(series) else series.to_numpy()
        else:
            host = series.to_pandas() if _is_cudf(series) else series
            edge_data[name] = host.tolist()
    edge_keys = None
    if multigraph and edge_key is not None:
        keys = df[edge_key]
        edge_keys = (keys.to_pandas() if _is_cudf(keys) else keys).tolist()
    n = len(labels)
    return TriGraph(
        src_ids,
        dst_ids,
        n,
        labels=labels,
        directed=directed,
        multigraph=multigraph,
        edge_data=edge_data,
        edge_keys=edge_keys,
    )


def from_edges(src, dst, *, n=None, directed=False, weight=None, weight_name="weight"):
    """Build a ``TriGraph`` from arrays of vertex ids.

    Parameters
    ----------
    src, dst : 1-D integer arrays (NumPy or CuPy)
        Edge endpoints as ids ``0..n-1``; duplicates and self-loops are allowed.
    n : int, optional
        Number of vertices (default ``max id + 1``); nodes are ``0..n-1``.
    directed : bool
        Whether the edges are arcs.
    weight : 1-D numeric array, optional
        One value per edge, stored as the edge attribute ``weight_name``.

    Returns
    -------
    TriGraph

    Examples
    --------
    >>> import numpy as np
    >>> import nx_tricount
    >>> G = nx_tricount.from_edges(np.array([0, 1, 2]), np.array([1, 2, 0]))
    >>> nx_tricount.transitivity(G)
    1.0
    """
    xp = module_of(src)
    if module_of(dst) is not xp:
        raise TypeError("src and dst must be arrays of the same module (NumPy or CuPy)")
    src, dst = xp.asarray(src), xp.asarray(dst)
    if src.ndim != 1 or src.shape != dst.shape:
        raise ValueError(f"src and dst must be 1-D and of equal length, got {src.shape} and {dst.shape}")
    for name, array in (("src", src), ("dst", dst)):
        if array.dtype.kind not in "iu":
            raise TypeError(f"{name} must hold integer vertex ids, got dtype {array.dtype}")
    largest = int(max(src.max(), dst.max())) if src.size else -1
    smallest = int(min(src.min(), dst.min())) if src.size else 0
    if smallest < 0:
        raise ValueError(f"vertex ids must be non-negative, found {smallest}")
    if n is None:
        n = largest + 1
    elif largest >= n:
        raise ValueError(f"vertex id {largest} is out of range for n={n} nodes")
    edge_data = {}
    if weight is not None:
        weight = xp.asarray(weight)
        if weight.shape != src.shape or weight.dtype.kind not in "iufb":
            raise ValueError("weight must be a numeric array with one value per edge")
        edge_data[weight_name] = weight
    return TriGraph(src, dst, n, directed=directed, edge_data=edge_data)
