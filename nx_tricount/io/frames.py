"""Graphs from edge frames: pandas, cuDF, and dicts of columns (arrays of ids:
:mod:`nx_tricount.io.edge_arrays`).

A cuDF frame stays on the GPU: numeric columns become CuPy arrays without a
copy, and columns of other dtypes (strings, datetimes, categories) are numbered
there by cuDF's factorize; ``cudf.pandas`` proxies count as the cuDF frames they
wrap. Node labels are numbered in order of first appearance (``src[0], dst[0],
src[1], …``), which is the node order NetworkX's ``from_pandas_edgelist``
produces (:mod:`nx_tricount.classes.labels`). On the host, numbers are numbered by a
sort and objects by pandas' factorize; only columns of other dtypes (datetimes,
categories) are read row by row, to give the Python objects NetworkX sees.
"""

import sys

import networkx as nx
import numpy as np

from ..classes.graph import TriGraph
from ..classes.labels import cudf_first_appearance_ids, first_appearance_ids, is_cudf
from ..gpu.device import module_of
from ..gpu.errors import gpu_errors
from .convert import NUMBER_TYPES
from .edge_arrays import LARGEST_ID

__all__ = ["from_frame"]


def _unproxied(frame):
    """The cuDF frame a ``cudf.pandas`` proxy wraps, else ``frame`` itself.

    A proxy's own columns would reach us through pandas, on the host.
    """
    accelerator = sys.modules.get("cudf.pandas")
    if accelerator is None or not accelerator.is_proxy_object(frame):
        return frame
    to_gpu = getattr(frame, "as_gpu_object", None)  # cuDF 25.04 on
    return to_gpu() if to_gpu is not None else frame._fsproxy_fast


def _is_series(obj):
    return hasattr(obj, "to_numpy") and hasattr(obj, "dtype")


def _objects(values):
    """A 1-D object array of what iterating ``values`` yields (tuples stay whole)."""
    return np.fromiter(values, dtype=object)


def _column(frame, name, role):
    """A frame column as a NumPy or CuPy array (no copy where possible).

    ``frame`` is a pandas or cuDF frame, or anything NetworkX indexes the same
    way (a dict of lists). The labels are what iterating the column yields, as
    NetworkX reads them: plain NumPy numbers stay an array (their ``tolist`` is
    the same Python numbers); other dtypes (datetimes, categories, extension
    types, objects) become the objects iteration gives (``pd.Timestamp`` ...).
    """
    try:
        series = frame[name]
    except KeyError:
        columns = list(getattr(frame, "columns", frame))
        raise KeyError(f"no {role} column {name!r} in the frame; its columns are {columns!r}") from None
    if is_cudf(series):
        series = _no_missing(series, bool(series.isna().any()), name, role)
        if series.dtype.name == "category":  # the values, as NetworkX sees them
            series = series.astype(series.dtype.categories.dtype)
        # Numbers as a CuPy view; other dtypes stay a cuDF Series, numbered on the GPU.
        return series.to_cupy() if series.dtype.kind in "iufb" else series.reset_index(drop=True)
    if _is_series(series) and isinstance(series.dtype, np.dtype) and series.dtype.kind in "iufbO":
        values = series.to_numpy()  # numbers, or the objects themselves: no Python loop
    else:
        values = _objects(series)
    return _no_missing(values, _has_missing(values), name, role)


def _has_missing(values):
    """Whether a host array holds NaN, None or NaT (pandas' ``isna``)."""
    if values.dtype.kind in "iub":
        return False
    if values.dtype.kind == "f":
        return bool(np.isnan(values).any())
    try:
        import pandas as pd
    except ImportError:  # a dict of lists needs no pandas
        return any(v is None or v != v for v in values.tolist())
    return bool(pd.isna(values).any())


def _no_missing(values, missing, name, role):
    if missing:
        raise ValueError(
            f"column {name!r} ({role}) has missing values (NaN, None or NaT); "
            "drop or fill them first: every node label must be a value"
        )
    return values


def _attribute(values):
    """An edge attribute column: an array for NumPy numbers, else the Python objects."""
    if is_cudf(values) and values.dtype.kind in "iufb":
        if values.isna().any():
            raise ValueError(
                f"edge attribute column {values.name!r} has nulls; fill them first "
                "(.fillna(...)): a null has no NetworkX value"
            )
        return values.to_cupy()
    if is_cudf(values):
        values = values.to_pandas()
    if _is_series(values) and isinstance(values.dtype, np.dtype) and values.dtype.kind in "iufb":
        return values.to_numpy()
    values = list(values)
    types = set(map(type, values))
    # One type only: a list of ints and floats keeps each object's type, as NetworkX does.
    if len(types) == 1 and issubclass(types.pop(), NUMBER_TYPES):
        array = np.array(values)
        if array.dtype.kind in "iufb":
            return array
    return values


def _equal_lengths(columns):
    """Raise ValueError naming the ``(name, values)`` columns and their lengths
    unless they are equally long: a dict of lists may hold columns of any
    lengths, which NetworkX zips, dropping a longer column's last values."""
    lengths = [(name, len(values)) for name, values in columns]
    if len({length for _, length in lengths}) > 1:
        (first, rows), *rest = lengths
        others = ", ".join(f"{name!r} {length}" for name, length in rest)
        raise ValueError(
            f"columns of unequal lengths: {first!r} has {rows} row{'s' * (rows != 1)}, "
            f"{others}; every column needs one value per edge"
        )


def _on_gpu(column):
    return is_cudf(column) or module_of(column) is not np


def _numbered(src, dst):
    """``(src_ids, dst_ids, labels)`` of two label columns (:mod:`.labels`)."""
    if _on_gpu(src) != _on_gpu(dst):
        raise TypeError("source and target columns must be on the same device")
    if not _on_gpu(src):
        if src.dtype != dst.dtype:
            # Mixed dtypes (int64 and float64, ...): label the Python objects, so that
            # 1 and 1.0 are one node labelled as it first appears, as in NetworkX.
            src, dst = src.astype(object), dst.astype(object)
        return first_appearance_ids(src, dst)
    src, dst = _common_gpu_dtype(src, dst)
    if is_cudf(src):
        return cudf_first_appearance_ids(src, dst)
    return first_appearance_ids(src, dst)


def _common_gpu_dtype(src, dst):
    """Two GPU label columns in one dtype that holds every label exactly.

    Integers of any widths share one integer dtype, floats float64. Other
    mixes (an int and a float, a string and an int) would need the Python
    objects on the host to tell ``1`` from ``1.0`` as NetworkX does; they are
    refused rather than copied.
    """
    if src.dtype == dst.dtype:
        return src, dst
    kinds = {src.dtype.kind, dst.dtype.kind}
    if is_cudf(src) or is_cudf(dst) or not (kinds <= set("iu") or kinds == {"f"}):
        raise TypeError(
            f"the source column holds {src.dtype} and the target column {dst.dtype}: on "
            "the GPU both label columns must have one dtype, or both hold integers, or "
            "both floats; cast one with .astype(...)"
        )
    common = np.promote_types(src.dtype, dst.dtype)
    if common.kind == "f":  # int64 with uint64: int64 when every label fits
        unsigned = src if src.dtype.kind == "u" else dst
        if unsigned.size and int(unsigned.max()) > LARGEST_ID:
            raise TypeError(
                f"the source column holds {src.dtype} and the target column {dst.dtype}, "
                f"with labels of 2**63 or more: no integer dtype holds both; cast one "
                "with .astype(...)"
            )
        common = np.dtype(np.int64)
    return src.astype(common), dst.astype(common)


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
    df : pandas.DataFrame, cudf.DataFrame, or a dict of columns
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
        Nodes in order of first appearance, as NetworkX would number them, with
        the labels NetworkX would see (``pd.Timestamp`` for datetimes).

    Raises
    ------
    KeyError
        ``source`` or ``target`` is not a column, as in NetworkX.
    NetworkXError
        An ``edge_attr`` or ``edge_key`` column is missing, as in NetworkX.
    ValueError
        A label column holds missing values, or the columns read (a dict's
        lists) are of unequal lengths, where NetworkX would drop the longer
        columns' last values.

    Examples
    --------
    >>> import pandas as pd
    >>> import nx_tricount
    >>> df = pd.DataFrame({"source": ["a", "b", "c"], "target": ["b", "c", "a"]})
    >>> G = nx_tricount.from_frame(df)
    >>> nx_tricount.triangles(G)
    {'a': 1, 'b': 1, 'c': 1}
    """
    with gpu_errors("building a graph from an edge frame"):
        df = _unproxied(df)
        src, dst = _column(df, source, "source"), _column(df, target, "target")
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
            try:
                values = df[name]
            except (KeyError, TypeError) as err:
                raise nx.NetworkXError(
                    f"Invalid edge_attr argument: {edge_attr}; no column {name!r} in the frame"
                ) from err
            edge_data[name] = _attribute(values)
        edge_keys = None
        if multigraph and edge_key is not None:
            try:
                keys = df[edge_key]
            except (KeyError, TypeError) as err:
                if edge_attr is None:  # NetworkX reads the column unguarded then
                    raise
                raise nx.NetworkXError(f"Invalid edge_key argument: {edge_key}") from err
            edge_keys = list(keys.to_pandas() if is_cudf(keys) else keys)
        _equal_lengths(
            [(source, src), (target, dst), *edge_data.items()]
            + ([(edge_key, edge_keys)] if edge_keys is not None else [])
        )
        src_ids, dst_ids, labels = _numbered(src, dst)
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
