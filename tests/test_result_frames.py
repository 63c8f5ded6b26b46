"""Results as frames: ``as_frame=True`` of the direct functions and
``edge_triangles``, against NetworkX's dicts (same nodes, same order, same
values) and a per-edge count from NetworkX's neighbour sets."""

import sys

import networkx as nx
import numpy as np
import pandas as pd
import pytest

import nx_tricount
from graphs import directed_graphs, undirected_graphs, weighted_graphs

UNDIRECTED = undirected_graphs()


@pytest.fixture(autouse=True)
def _no_conversion_cache():
    with nx.config(cache_converted_graphs=False):
        yield


def as_dict(frame, key, value):
    """A frame's two columns as a dict in row order (for comparison only)."""
    return dict(zip(frame[key].tolist(), frame[value].tolist()))


def edge_support(G):
    """``{(u, v): triangles on the edge}`` from NetworkX's neighbour sets."""
    position = {v: i for i, v in enumerate(G)}
    found = {}
    for u, v in G.edges():
        if u == v:
            continue
        if position[u] > position[v]:
            u, v = v, u
        found[u, v] = len((set(G[u]) & set(G[v])) - {u, v})
    return dict(sorted(found.items(), key=lambda item: (position[item[0][0]], position[item[0][1]])))


@pytest.mark.parametrize("name", list(UNDIRECTED))
def test_node_frames_hold_networkxs_values_in_node_order(name):
    G = UNDIRECTED[name]
    frame = nx_tricount.triangles(G, as_frame=True, device="cpu")
    assert isinstance(frame, pd.DataFrame) and list(frame.columns) == ["node", "triangles"]
    assert frame["triangles"].dtype == np.int64
    assert as_dict(frame, "node", "triangles") == nx.triangles(G)
    assert frame["node"].tolist() == list(G)
    frame = nx_tricount.clustering(G, as_frame=True, device="cpu")
    assert list(frame.columns) == ["node", "clustering"] and frame["clustering"].dtype == np.float64
    assert as_dict(frame, "node", "clustering") == nx.clustering(G)


@pytest.mark.parametrize("name", list(weighted_graphs()))
def test_weighted_clustering_frame_is_the_dicts_values(name):
    G = weighted_graphs()[name]
    frame = nx_tricount.clustering(G, weight="weight", as_frame=True, device="cpu")
    expected = nx_tricount.clustering(G, weight="weight", device="cpu")
    assert frame["node"].tolist() == list(expected)
    assert frame["clustering"].tolist() == [float(v) for v in expected.values()]


@pytest.mark.parametrize("name", list(directed_graphs()))
def test_directed_clustering_frame(name):
    G = directed_graphs()[name]
    assert as_dict(nx_tricount.clustering(G, as_frame=True), "node", "clustering") == nx.clustering(G)


def test_node_column_types_follow_the_labels():
    G = nx.relabel_nodes(nx.complete_graph(3), {0: "a", 1: "b", 2: "c"})
    assert nx_tricount.triangles(G, as_frame=True)["node"].tolist() == ["a", "b", "c"]
    assert pd.api.types.is_string_dtype(nx_tricount.triangles(G, as_frame=True)["node"])
    grid = nx.grid_2d_graph(2, 2)
    assert nx_tricount.triangles(grid, as_frame=True)["node"].tolist() == list(grid)
    # A frame's labels stay an array of their dtype, gathered by id.
    df = pd.DataFrame({"source": np.array([7, 8, 9], np.uint8), "target": np.array([8, 9, 7], np.uint8)})
    frame = nx_tricount.triangles(nx_tricount.from_frame(df), as_frame=True)
    assert frame["node"].dtype == np.uint8 and frame["node"].tolist() == [7, 8, 9]
    times = pd.to_datetime(["2024-01-01", "2024-01-02", "2024-01-03"])
    df = pd.DataFrame({"source": times, "target": times[[1, 2, 0]]})
    frame = nx_tricount.triangles(nx_tricount.from_frame(df), as_frame=True)
    assert pd.api.types.is_datetime64_dtype(frame["node"]) and frame["node"].tolist() == list(times)
    arrays = nx_tricount.from_edges(np.array([0, 1, 2]), np.array([1, 2, 0]), n=4)
    assert nx_tricount.triangles(arrays, as_frame=True)["triangles"].tolist() == [1, 1, 1, 0]


SELECTIONS = {
    "list": lambda: [4, 0, 99],
    "one": lambda: 3,
    "iterator": lambda: (v for v in [2, 1]),
    "empty": lambda: [],
    "dict": lambda: {5: "x"},
}


@pytest.mark.parametrize("nodes", list(SELECTIONS))
def test_frames_of_a_node_selection_have_its_rows_in_its_order(nodes):
    G = nx.complete_graph(4)
    G.add_edges_from([(3, 4), (4, 5)])
    expected = nx.triangles(G, SELECTIONS[nodes]())
    if nodes == "one":  # one node: a frame of one row, not a scalar
        expected = {SELECTIONS[nodes](): expected}
    frame = nx_tricount.triangles(G, SELECTIONS[nodes](), as_frame=True)
    assert as_dict(frame, "node", "triangles") == expected and len(frame) == len(expected)


#: Containers with repeats (also as other objects equal to the node), nodes not in G, and one node.
REPEATS = {
    "repeats": lambda: [1, 1, 2],
    "equal_objects": lambda: [2, 1.0, 1, True, 2.0, np.int64(2)],
    "repeats_and_absent": lambda: [99, 3, "x", 3, 0, 99, 0],
    "generator": lambda: (v for v in [5, 4, 5, 4, 4]),
    "every_node_twice": lambda: list(range(6)) * 2,
    "only_absent": lambda: [99, 99],
    "one_node": lambda: 4,
}


@pytest.mark.parametrize("nodes", list(REPEATS))
@pytest.mark.parametrize("function", ["triangles", "clustering"])
def test_frame_rows_are_the_dicts_keys(function, nodes):
    """One row per key of the dict result, in its order (a dict keeps a node's
    first occurrence and its first object), with the dict's values; the column
    is typed as pandas types the keys."""
    G = nx.complete_graph(4)
    G.add_edges_from([(3, 4), (4, 5)])
    expected = getattr(nx_tricount, function)(G, REPEATS[nodes]())
    if nodes == "one_node":  # one node: a frame of one row, not a scalar
        expected = {REPEATS[nodes](): expected}
    frame = getattr(nx_tricount, function)(G, REPEATS[nodes](), as_frame=True)
    assert len(frame) == len(expected)
    assert frame["node"].tolist() == pd.Series(list(expected), dtype=object).infer_objects().tolist()
    assert frame["node"].tolist() == list(expected)
    assert frame[function].tolist() == list(expected.values())
    assert expected == getattr(nx, function)(G, REPEATS[nodes]()) or nodes == "one_node"


def test_selection_errors_are_raised_with_as_frame():
    G = nx.complete_graph(4)
    with pytest.raises(nx.NetworkXError):
        nx_tricount.triangles(G, [0, [1]], as_frame=True)
    with pytest.raises(nx.NetworkXError):
        nx_tricount.clustering(G, [0, [1]], as_frame=True)


@pytest.mark.parametrize("name", list(UNDIRECTED))
def test_edge_triangles_is_each_edges_support(name):
    G = UNDIRECTED[name]
    expected = edge_support(G)
    assert nx_tricount.edge_triangles(G, device="cpu") == expected
    frame = nx_tricount.edge_triangles(G, as_frame=True, device="cpu")
    assert list(frame.columns) == ["source", "target", "triangles"]
    assert frame["triangles"].dtype == np.int64
    rows = zip(frame["source"].tolist(), frame["target"].tolist(), frame["triangles"].tolist())
    assert {(u, v): t for u, v, t in rows} == expected and len(frame) == len(expected)
    assert list(zip(frame["source"], frame["target"])) == list(expected)


@pytest.mark.parametrize(
    "algorithm", [a for a in nx_tricount.metadata.config.CHOICES["algorithm"] if a != "auto"]
)
def test_edge_triangles_of_every_algorithm(algorithm):
    G = UNDIRECTED["rmat"]
    assert nx_tricount.edge_triangles(G, algorithm=algorithm, device="cpu") == edge_support(G)


def test_edge_triangles_of_a_partitioned_plan():
    G = UNDIRECTED["rmat"]
    with nx.config.backends.tricount(partitions=3):
        assert nx_tricount.edge_triangles(G, device="cpu") == edge_support(G)


def test_edge_triangles_of_multigraphs_frames_and_directed_graphs():
    M = nx.MultiGraph([(0, 1), (1, 0), (1, 2), (2, 0), (2, 2)])
    assert nx_tricount.edge_triangles(M) == {(0, 1): 1, (0, 2): 1, (1, 2): 1}
    df = pd.DataFrame({"source": ["x", "y", "z", "z"], "target": ["y", "z", "x", "w"]})
    frame = nx_tricount.edge_triangles(nx_tricount.from_frame(df), as_frame=True)
    assert frame.values.tolist() == [["x", "y", 1], ["x", "z", 1], ["y", "z", 1], ["z", "w", 0]]
    with pytest.raises(nx.NetworkXNotImplemented, match="directed"):
        nx_tricount.edge_triangles(nx.DiGraph([(0, 1)]))
    empty = nx_tricount.edge_triangles(nx.empty_graph(3), as_frame=True)
    assert empty.empty and list(empty.columns) == ["source", "target", "triangles"]


def test_networkx_functions_keep_returning_dicts():
    G = nx.complete_graph(4)
    T = nx_tricount.from_networkx(G)
    assert nx.triangles(G, backend="tricount") == nx.triangles(T) == nx.triangles(G)
    for call in (
        lambda: nx.triangles(G, backend="tricount", as_frame=True),
        lambda: nx.clustering(T, as_frame=True),
    ):
        with pytest.raises(TypeError, match=r"nx_tricount\.\w+\(G, as_frame=True\)"):
            call()


def test_as_frame_with_weights_that_are_not_numbers_is_a_type_error():
    G = nx.Graph()
    G.add_edge(0, 1, weight="heavy")
    with pytest.raises(TypeError, match="numeric weights"):
        nx_tricount.clustering(G, weight="weight", as_frame=True)


def test_as_frame_without_pandas_names_it(monkeypatch):
    G = nx.complete_graph(3)
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match="needs pandas"):
        nx_tricount.triangles(G, as_frame=True)


@pytest.mark.gpu
def test_gpu_graphs_give_cudf_frames_where_cudf_imports():
    import cupy

    try:
        import cudf
    except ImportError:
        cudf = None
    src, dst = np.array([0, 1, 2, 2]), np.array([1, 2, 0, 3])
    G = nx_tricount.from_edges(cupy.asarray(src), cupy.asarray(dst))
    expected = nx_tricount.triangles(nx_tricount.from_edges(src, dst), as_frame=True)
    for frame in (
        nx_tricount.triangles(G, as_frame=True, device="gpu"),
        nx_tricount.triangles(G, as_frame=True, device="cpu"),
    ):
        assert isinstance(frame, cudf.DataFrame if cudf else pd.DataFrame)
        host = frame.to_pandas() if cudf else frame
        pd.testing.assert_frame_equal(host, expected)
    edges = nx_tricount.edge_triangles(G, as_frame=True, device="gpu")
    host = edges.to_pandas() if cudf else edges
    pd.testing.assert_frame_equal(
        host, nx_tricount.edge_triangles(nx_tricount.from_edges(src, dst), as_frame=True)
    )
    if cudf is not None:
        df = cudf.DataFrame({"source": ["a", "b", "c"], "target": ["b", "c", "a"]})
        frame = nx_tricount.clustering(nx_tricount.from_frame(df), as_frame=True)
        assert isinstance(frame, cudf.DataFrame)
        assert frame.to_pandas()["node"].tolist() == ["a", "b", "c"]
