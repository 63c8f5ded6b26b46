"""pandas edge frames into ``from_frame`` and ``nx.from_pandas_edgelist(...,
backend="tricount")``, one case per dtype pandas holds labels in, with NetworkX
as the oracle wherever it accepts the input: the nodes in order and their
Python types, the edges, and the counts of the graph. Missing values, which
NetworkX takes as nodes, are refused with an error naming the column. (The
property tests in test_properties.py draw frames of a few dtypes at random;
these are the dtypes one by one.)"""

import networkx as nx
import numpy as np
import pandas as pd
import pytest

import nx_tricount

SOURCE, TARGET = [0, 1, 2, 3, 0, 4], [1, 2, 0, 0, 3, 4]  # a triangle, a pendant, a self-loop
TIMES = pd.to_datetime(["2024-01-01", "2024-02-01", "2024-03-01", "2024-04-01", "2024-05-01"])
PERIODS = pd.period_range("2024-01", periods=5, freq="M")
INTERVALS = pd.interval_range(0, 5)
LETTERS = list("abcde")


def _series(dtype):
    """The source and target columns as Series of ``dtype``."""
    if dtype in ("str", "string", "object", "category"):
        values = ([LETTERS[i] for i in SOURCE], [LETTERS[i] for i in TARGET])
    elif dtype in ("datetime64[ns]", "datetime64[s]"):
        values = (TIMES[SOURCE], TIMES[TARGET])
    elif dtype == "datetime64[ns, UTC]":
        values = (TIMES.tz_localize("UTC")[SOURCE], TIMES.tz_localize("UTC")[TARGET])
    elif dtype == "timedelta64[ns]":
        values = (pd.to_timedelta(SOURCE, unit="s"), pd.to_timedelta(TARGET, unit="s"))
    elif dtype == "period[M]":
        values = (PERIODS[SOURCE], PERIODS[TARGET])
    elif dtype == "interval":
        values = (INTERVALS[SOURCE], INTERVALS[TARGET])
    elif dtype in ("bool", "boolean"):
        values = ([v % 2 == 0 for v in SOURCE], [v % 2 == 1 for v in TARGET])
    else:
        values = (SOURCE, TARGET)
    if dtype in ("interval", "period[M]"):
        return pd.Series(values[0]), pd.Series(values[1])
    return pd.Series(values[0], dtype=dtype), pd.Series(values[1], dtype=dtype)


LABEL_DTYPES = [
    *[f"{sign}int{bits}" for sign in ("", "u") for bits in (8, 16, 32, 64)],
    "float32",
    "float64",
    *[f"{sign}Int{bits}" for sign in ("", "U") for bits in (8, 16, 32, 64)],
    "Float32",
    "Float64",
    "bool",
    "boolean",
    "str",
    "string",
    "object",
    "category",
    "datetime64[ns]",
    "datetime64[s]",
    "datetime64[ns, UTC]",
    "timedelta64[ns]",
    "period[M]",
    "interval",
]


def frame_of(source, target, **extra):
    return pd.DataFrame({"source": source, "target": target, **extra})


def assert_same_graph(T, G):
    """A TriGraph against NetworkX's graph of the same frame: nodes in order
    with their types, edges, and the counts."""
    assert isinstance(T, nx_tricount.TriGraph)
    assert list(T) == list(G)
    assert [type(v) for v in T] == [type(v) for v in G]
    H = nx_tricount.to_networkx(T)
    assert nx.utils.edges_equal(H.edges, G.edges)
    assert nx.triangles(T) == nx.triangles(G)
    assert nx.clustering(T) == nx.clustering(G)


@pytest.mark.parametrize("dtype", LABEL_DTYPES)
def test_every_label_dtype_gives_networkxs_graph(dtype):
    df = frame_of(*_series(dtype))
    assert str(df["source"].dtype).startswith(dtype.split("[")[0])  # the case is what it says
    expected = nx.from_pandas_edgelist(df)
    assert_same_graph(nx.from_pandas_edgelist(df, backend="tricount"), expected)
    assert_same_graph(nx_tricount.from_frame(df), expected)


@pytest.mark.parametrize(
    "dtypes",
    [
        ("int8", "uint64"),
        ("int16", "float32"),
        ("uint8", "Int64"),
        ("int64", "str"),
        ("int64", "category"),
        ("category", "object"),
        ("datetime64[ns]", "datetime64[s]"),
    ],
    ids=lambda d: "-".join(d),
)
def test_source_and_target_of_different_dtypes(dtypes):
    df = frame_of(_series(dtypes[0])[0], _series(dtypes[1])[1])
    assert_same_graph(nx.from_pandas_edgelist(df, backend="tricount"), nx.from_pandas_edgelist(df))


def test_categories_keep_first_appearance_not_category_order():
    categories = pd.CategoricalDtype(list("zyxedcba"), ordered=True)
    source, target = (s.astype(categories) for s in _series("str"))
    df = frame_of(source, target)
    assert_same_graph(nx.from_pandas_edgelist(df, backend="tricount"), nx.from_pandas_edgelist(df))


def test_extreme_integers_are_labels_not_ids():
    for dtype, big in (("int64", [-(2**63), 2**63 - 1]), ("uint64", [0, 2**64 - 1])):
        df = frame_of(
            pd.Series([big[0], big[1], 7], dtype=dtype), pd.Series([big[1], 7, big[0]], dtype=dtype)
        )
        assert_same_graph(nx.from_pandas_edgelist(df, backend="tricount"), nx.from_pandas_edgelist(df))


def test_a_filtered_frame_reads_its_rows_not_its_index():
    df = frame_of([5, 6, 7, 8], [6, 7, 5, 5]).set_axis([10, 3, 7, 1]).iloc[[2, 0, 1]]
    assert_same_graph(nx.from_pandas_edgelist(df, backend="tricount"), nx.from_pandas_edgelist(df))


@pytest.mark.parametrize(
    "dtype", ["int64", "uint8", "float64", "str", "object", "category", "datetime64[ns]"]
)
def test_empty_frames_give_empty_graphs(dtype):
    df = frame_of(pd.Series([], dtype=dtype), pd.Series([], dtype=dtype), weight=pd.Series([], dtype=float))
    for kwargs in ({}, {"edge_attr": "weight"}, {"create_using": nx.DiGraph}):
        T = nx.from_pandas_edgelist(df, backend="tricount", **kwargs)
        G = nx.from_pandas_edgelist(df, **kwargs)
        assert len(T) == len(G) == 0 and T.is_directed() == G.is_directed()
        counts = nx.clustering if T.is_directed() else nx.triangles
        assert counts(T) == counts(G) == {}
        assert nx.transitivity(T) == nx.transitivity(G) == 0
    assert nx_tricount.triangles(nx_tricount.from_frame(df), as_frame=True).empty


@pytest.mark.parametrize(
    "frame",
    [pd.DataFrame(), pd.DataFrame({"source": [0, 1]}), pd.DataFrame(index=[0, 1])],
    ids=["no-columns", "no-target", "index-only"],
)
def test_frames_without_the_columns_raise_networkxs_key_error(frame):
    with pytest.raises(KeyError) as theirs:
        nx.from_pandas_edgelist(frame)
    with pytest.raises(KeyError, match="column") as ours:
        nx.from_pandas_edgelist(frame, backend="tricount")
    assert theirs.value.args[0] in ours.value.args[0]


@pytest.mark.parametrize("edge_attr", [None, True])
def test_missing_edge_key_column_raises_networkxs_error(edge_attr):
    df = frame_of([0, 1, 2], [1, 2, 0])
    kwargs = dict(create_using=nx.MultiGraph, edge_key="key", edge_attr=edge_attr)
    with pytest.raises((KeyError, nx.NetworkXError)) as theirs:
        nx.from_pandas_edgelist(df, **kwargs)
    with pytest.raises(theirs.type) as ours:
        nx.from_pandas_edgelist(df, backend="tricount", **kwargs)
    assert ours.value.args == theirs.value.args


@pytest.mark.parametrize("frame", [[[0, 1]], None, 5], ids=["list", "none", "int"])
def test_what_is_not_a_frame_raises_networkxs_type_error(frame):
    with pytest.raises(TypeError) as theirs:
        nx.from_pandas_edgelist(frame)
    with pytest.raises(TypeError) as ours:
        nx.from_pandas_edgelist(frame, backend="tricount")
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("label", [[0], {"a": 1}, {0}], ids=["list", "dict", "set"])
def test_unhashable_labels_raise_networkxs_type_error(label):
    df = frame_of(pd.Series([label, 1], dtype=object), pd.Series([1, 2], dtype=object))
    with pytest.raises(TypeError, match="unhashable") as theirs:
        nx.from_pandas_edgelist(df)
    with pytest.raises(TypeError) as ours:
        nx.from_pandas_edgelist(df, backend="tricount")
    assert str(ours.value) == str(theirs.value)


def test_complex_labels_are_labels():
    df = frame_of(np.array([1 + 1j, 2, 3]), np.array([2, 3 + 0j, 1 + 1j]))
    assert_same_graph(nx.from_pandas_edgelist(df, backend="tricount"), nx.from_pandas_edgelist(df))


MISSING = {
    "float64-nan": ([0.0, np.nan, 2.0], "float64"),
    "Int64-NA": ([0, None, 2], "Int64"),
    "UInt8-NA": ([0, None, 2], "UInt8"),
    "Float64-NA": ([0.0, None, 2.0], "Float64"),
    "boolean-NA": ([True, None, False], "boolean"),
    "str-None": (["a", None, "c"], "str"),
    "string-NA": (["a", pd.NA, "c"], "string"),
    "object-None": (["a", None, "c"], "object"),
    "object-nan": (["a", np.nan, "c"], "object"),
    "category-NaN": (["a", None, "c"], "category"),
    "datetime-NaT": ([TIMES[0], pd.NaT, TIMES[1]], "datetime64[ns]"),
    "timedelta-NaT": ([pd.Timedelta(0), pd.NaT, pd.Timedelta(1)], "timedelta64[ns]"),
}


@pytest.mark.parametrize("end", ["source", "target"])
@pytest.mark.parametrize("case", list(MISSING))
def test_missing_labels_are_a_clear_error(case, end):
    """NetworkX makes NaN, NA and NaT nodes (None alone it refuses); a missing
    label is almost always a data error, so the backend names the column instead."""
    values, dtype = MISSING[case]
    column = pd.Series(values, dtype=dtype)
    full = column.iloc[[0, 2, 0]].reset_index(drop=True)
    df = frame_of(column, full) if end == "source" else frame_of(full, column)
    message = rf"column '{end}' \({end}\) has missing values"
    with pytest.raises(ValueError, match=message):
        nx.from_pandas_edgelist(df, backend="tricount")
    with pytest.raises(ValueError, match=message):
        nx_tricount.from_frame(df)


UNEQUAL = {
    "source-longer": ({"source": [0, 1, 2], "target": [1, 2]}, {}, "'source' has 3 rows, 'target' 2"),
    "target-longer": (
        {"source": np.array([0]), "target": np.array([1, 2])},
        {},
        "'source' has 1 row, 'target' 2",
    ),
    "strings": ({"source": ["a", "b"], "target": ["b", "c", "a"]}, {}, "'source' has 2 rows, 'target' 3"),
    "empty-source": ({"source": [], "target": [1]}, {}, "'source' has 0 rows, 'target' 1"),
    "series": (
        {"source": pd.Series([0, 1, 2]), "target": pd.Series([1, 2])},
        {},
        "'source' has 3 rows, 'target' 2",
    ),
    "edge-attr": (
        {"source": [0, 1], "target": [1, 2], "w": [1.0]},
        {"edge_attr": "w"},
        "'source' has 2 rows, 'target' 2, 'w' 1",
    ),
    "edge-attrs": (
        {"source": [0, 1], "target": [1, 2], "w": [1, 2], "c": ["x", "y", "z"]},
        {"edge_attr": ["w", "c"]},
        "'source' has 2 rows, 'target' 2, 'w' 2, 'c' 3",
    ),
    "edge-key": (
        {"source": [0, 1], "target": [1, 2], "k": [7]},
        {"edge_key": "k", "create_using": nx.MultiGraph},
        "'source' has 2 rows, 'target' 2, 'k' 1",
    ),
}


@pytest.mark.parametrize("case", list(UNEQUAL))
def test_columns_of_unequal_lengths_are_refused_naming_them(case):
    """NetworkX zips the columns of a dict, dropping a longer column's last
    values without a word; the backend names the columns and their lengths."""
    columns, kwargs, lengths = UNEQUAL[case]
    message = rf"columns of unequal lengths: {lengths}\b"
    with pytest.raises(ValueError, match=message):
        nx.from_pandas_edgelist(columns, backend="tricount", **kwargs)
    frame_kwargs = {"multigraph": True, "edge_key": "k"} if "edge_key" in kwargs else kwargs
    with pytest.raises(ValueError, match=message):
        nx_tricount.from_frame(columns, **frame_kwargs)
