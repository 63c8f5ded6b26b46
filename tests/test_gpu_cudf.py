"""cuDF edge frames on the GPU, checked against the same frame in pandas.

Every label dtype cuDF holds is numbered on the GPU, in NetworkX's node order,
and gives NetworkX's graph of the frame's pandas twin (``to_pandas()``). Nothing
of the edge columns is copied to the host on the way to a count or to a result
frame: a guard makes every host copy of cuDF objects, and every host copy the
package makes of an array of more than one element, raise. Results come back as
cuDF frames. ``cudf.pandas`` scripts run in a fresh interpreter. Skipped where
cuDF is not installed (CI); run on the GPU machine with cuDF staged.
"""

import sys

import networkx as nx
import numpy as np
import pandas as pd
import pytest

import nx_tricount
from nx_tricount.io.generators import rmat_edges
from subprocesses import run_python
from test_frame_inputs import LETTERS, _series, assert_same_graph, frame_of

cudf = pytest.importorskip("cudf")
cupy = pytest.importorskip("cupy")

pytestmark = pytest.mark.gpu

#: The label dtypes cuDF holds (pandas' nullable, period and interval dtypes have
#: no cuDF column type, and cuDF reads a nullable column without nulls as numpy's).
CUDF_DTYPES = [
    *[f"{sign}int{bits}" for sign in ("", "u") for bits in (8, 16, 32, 64)],
    "float32",
    "float64",
    "bool",
    "str",
    "category",
    "datetime64[ns]",
    "datetime64[s]",
    "timedelta64[ns]",
]


def gpu_frame(df):
    return cudf.from_pandas(df)


def rmat_frame(scale, seed, dtype):
    """An R-MAT edge list with labels of ``dtype`` (int64 ids, their strings, or
    timestamps that many seconds after 2024), as a pandas frame."""
    src, dst = (np.asarray(a) for a in rmat_edges(scale, seed=seed))
    columns = []
    for ids in (src, dst):
        if dtype == "str":
            columns.append(pd.Series(ids.astype(str)))
        elif dtype == "datetime64[ns]":
            columns.append(pd.Series(pd.Timestamp("2024-01-01") + pd.to_timedelta(ids, unit="s")))
        else:
            columns.append(pd.Series(ids, dtype=dtype))
    weights = np.random.default_rng(seed).integers(1, 8, src.size).astype(float)
    return frame_of(*columns, weight=weights)


@pytest.mark.parametrize("dtype", CUDF_DTYPES)
def test_every_cudf_label_dtype_gives_networkxs_graph(dtype):
    df = frame_of(*_series(dtype))
    expected = nx.from_pandas_edgelist(df)
    T = nx_tricount.from_frame(gpu_frame(df))
    assert isinstance(T.src, cupy.ndarray)
    with nx.config.backends.tricount(device="gpu"):  # small graphs count on the CPU by default
        assert_same_graph(T, expected)
        assert_same_graph(nx.from_pandas_edgelist(gpu_frame(df), backend="tricount"), expected)


@pytest.mark.parametrize("dtype", ["int32", "uint64", "str", "datetime64[ns]"])
def test_larger_frames_keep_networkxs_node_order_and_counts(dtype):
    df = rmat_frame(9, 3, dtype)
    expected = nx.from_pandas_edgelist(df)
    T = nx_tricount.from_frame(gpu_frame(df))
    assert list(T) == list(expected)
    assert nx_tricount.triangles(T, device="gpu") == nx.triangles(expected)
    assert nx_tricount.transitivity(T, device="gpu") == nx.transitivity(expected)


def test_categories_are_numbered_by_first_appearance_not_category_order():
    categories = pd.CategoricalDtype(list("zyxedcba"), ordered=True)
    df = frame_of(*(s.astype(categories) for s in _series("str")))
    with nx.config.backends.tricount(device="gpu"):
        assert_same_graph(nx_tricount.from_frame(gpu_frame(df)), nx.from_pandas_edgelist(df))


def test_integer_columns_of_two_widths_share_one_dtype():
    df = frame_of(pd.Series([1, 2, 3, 1], dtype="int8"), pd.Series([2, 3, 1, 4], dtype="uint64"))
    with nx.config.backends.tricount(device="gpu"):
        assert_same_graph(nx_tricount.from_frame(gpu_frame(df)), nx.from_pandas_edgelist(df))


@pytest.mark.parametrize(
    "dtypes", [("int64", "str"), ("int64", "float64"), ("str", "datetime64[ns]")], ids="-".join
)
def test_label_columns_of_two_kinds_are_refused_with_the_dtypes(dtypes):
    df = gpu_frame(frame_of(_series(dtypes[0])[0], _series(dtypes[1])[1]))
    with pytest.raises(TypeError, match="source column holds .* target column"):
        nx_tricount.from_frame(df)


def test_labels_of_2_63_and_more_beside_signed_labels_are_refused():
    df = gpu_frame(frame_of(pd.Series([1, 2], dtype="int64"), pd.Series([2**63, 1], dtype="uint64")))
    with pytest.raises(TypeError, match="2\\*\\*63"):
        nx_tricount.from_frame(df)


@pytest.mark.parametrize("column", ["source", "target"])
@pytest.mark.parametrize("dtype", ["int64", "str", "datetime64[ns]"])
def test_null_labels_are_refused_naming_the_column(column, dtype):
    df = gpu_frame(frame_of(*_series(dtype)))
    df.loc[1, column] = None
    with pytest.raises(ValueError, match=f"column '{column}'.*missing values"):
        nx_tricount.from_frame(df)


def test_null_weights_are_refused_naming_the_column():
    df = gpu_frame(frame_of(*_series("int64"), weight=[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]))
    df.loc[2, "weight"] = None
    with pytest.raises(ValueError, match="'weight' has nulls"):
        nx_tricount.from_frame(df, edge_attr="weight")


def test_weights_on_the_gpu_give_the_host_frames_clustering():
    df = rmat_frame(9, 5, "str")
    on_gpu = nx_tricount.from_frame(gpu_frame(df), edge_attr="weight")
    on_host = nx_tricount.from_frame(df, edge_attr="weight")
    assert isinstance(on_gpu.src, cupy.ndarray)
    gpu = nx.clustering(on_gpu, weight="weight", backend="tricount", device="gpu")
    cpu = nx.clustering(on_host, weight="weight", backend="tricount", device="cpu")
    assert list(gpu) == list(cpu)
    assert list(gpu.values()) == pytest.approx(list(cpu.values()), rel=1e-12, abs=1e-15)
    expected = nx.clustering(nx.from_pandas_edgelist(df, edge_attr="weight"), weight="weight")
    assert list(gpu.values()) == pytest.approx(list(expected.values()), rel=1e-9, abs=1e-12)


@pytest.fixture
def no_host_copies(monkeypatch):
    """Every host copy of a cuDF object, and every host copy of an array of more
    than one element made through the package's ``to_host``, raises."""

    def refuse(*args, **kwargs):
        raise AssertionError("a cuDF object was copied to the host")

    for cls in (cudf.Series, cudf.DataFrame, cudf.Index):
        for name in ("to_pandas", "to_numpy", "to_arrow", "values_host", "tolist", "to_dict"):
            if hasattr(cls, name):
                monkeypatch.setattr(cls, name, property(refuse) if name == "values_host" else refuse)
    for name, module in list(sys.modules.items()):
        original = getattr(module, "to_host", None)
        if name.startswith("nx_tricount") and callable(original):

            def guarded(array, original=original):
                if getattr(array, "size", 1) > 1:
                    raise AssertionError(f"an array of {array.size} elements was copied to the host")
                return original(array)

            monkeypatch.setattr(module, "to_host", guarded)
    return monkeypatch


@pytest.mark.parametrize("dtype", ["int64", "uint32", "str", "datetime64[ns]", "category"])
def test_counts_and_result_frames_copy_no_edge_column_to_the_host(dtype, no_host_copies):
    df = rmat_frame(10, 7, "str" if dtype == "category" else dtype)
    expected = nx.from_pandas_edgelist(df)
    frame = gpu_frame(df)
    if dtype == "category":
        frame["source"] = frame["source"].astype("category")
        frame["target"] = frame["target"].astype("category")
    T = nx_tricount.from_frame(frame)
    transitivity = nx_tricount.transitivity(T, device="gpu")
    triangles = nx_tricount.triangles(T, as_frame=True, device="gpu")
    clustering = nx_tricount.clustering(T, as_frame=True, device="gpu")
    support = nx_tricount.edge_triangles(T, as_frame=True, device="gpu")
    assert all(isinstance(f, cudf.DataFrame) for f in (triangles, clustering, support))
    assert isinstance(T.src, cupy.ndarray)
    no_host_copies.undo()  # the checks read the results on the host
    assert transitivity == nx.transitivity(expected)
    _assert_node_frame(triangles, nx.triangles(expected), "triangles")
    _assert_node_frame(clustering, nx.clustering(expected), "clustering")


def _assert_node_frame(frame, expected, column):
    host = frame.to_pandas()
    assert host["node"].tolist() == list(expected)
    assert host[column].tolist() == pytest.approx(list(expected.values()))


def test_frames_out_hold_the_labels_and_values():
    df = frame_of(*_series("str"))
    expected = nx.from_pandas_edgelist(df)
    T = nx_tricount.from_frame(gpu_frame(df))
    triangles = nx_tricount.triangles(T, as_frame=True, device="gpu")
    assert isinstance(triangles, cudf.DataFrame)
    _assert_node_frame(triangles, nx.triangles(expected), "triangles")
    support = nx_tricount.edge_triangles(T, as_frame=True, device="gpu").to_pandas()
    for u, v, t in support.itertuples(index=False):
        assert t == len(set(expected[u]) & set(expected[v]) - {u, v})
    triples = nx_tricount.all_triangles(T, as_frame=True, device="gpu")
    assert isinstance(triples, cudf.DataFrame)
    found = {frozenset(row) for row in triples.to_pandas().itertuples(index=False)}
    assert found == {frozenset(t) for t in nx.all_triangles(expected)}
    assert set(LETTERS[:3]) in [set(t) for t in found]


def test_k_truss_of_a_cudf_graph_keeps_its_labels():
    df = rmat_frame(9, 11, "str")
    df = df[df["source"] != df["target"]]
    expected = nx.k_truss(nx.from_pandas_edgelist(df), 4)
    truss = nx_tricount.k_truss(nx_tricount.from_frame(gpu_frame(df)), 4, device="gpu")
    assert list(truss) == list(expected)
    assert nx.utils.edges_equal(nx_tricount.to_networkx(truss).edges, expected.edges)


CUDF_PANDAS_SCRIPT = """
import cudf.pandas

cudf.pandas.install()

import networkx as nx
import pandas as pd
from cudf.pandas import is_proxy_object

import nx_tricount

df = pd.DataFrame({"a": ["x", "y", "z", "x", "w"], "b": ["y", "z", "x", "w", "y"]})
assert is_proxy_object(df)
G = nx.from_pandas_edgelist(df, "a", "b", backend="tricount")
assert type(G.src).__module__.startswith("cupy"), type(G.src)
print(list(G), nx.triangles(G), nx_tricount.transitivity(G))
"""


def test_cudf_pandas_scripts_count_the_proxied_frame_on_the_gpu():
    code, out, err = run_python(CUDF_PANDAS_SCRIPT)
    assert code == 0, err
    df = pd.DataFrame({"a": ["x", "y", "z", "x", "w"], "b": ["y", "z", "x", "w", "y"]})
    G = nx.from_pandas_edgelist(df, "a", "b")
    assert out.strip() == f"{list(G)} {nx.triangles(G)} {nx.transitivity(G)}"
