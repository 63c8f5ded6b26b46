"""Conversion: NetworkX graphs, pandas frames and arrays to TriGraph and back."""

import networkx as nx
import numpy as np
import pandas as pd
import pytest

import nx_tricount
from nx_tricount.nxapi.interface import BackendInterface

CLASSES = [nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph]


def _attributed(cls):
    G = cls(name="g", kind="test")
    G.add_node("a", color="red")
    G.add_node(("t", 1))
    G.add_node(3, size=2.5)
    G.add_edge("a", ("t", 1), weight=2.0, label="x")
    G.add_edge(("t", 1), 3)
    G.add_edge(3, 3, weight=-1)
    G.add_edge(3, "a", weight=0)
    if G.is_multigraph():
        G.add_edge("a", ("t", 1), key="second", weight=5)
    return G


@pytest.mark.parametrize("cls", CLASSES)
def test_round_trip_keeps_everything(cls):
    G = _attributed(cls)
    tg = BackendInterface.convert_from_nx(
        G,
        edge_attrs=None,
        node_attrs=None,
        preserve_edge_attrs=True,
        preserve_node_attrs=True,
        preserve_graph_attrs=True,
    )
    assert tg.is_directed() == G.is_directed()
    assert tg.is_multigraph() == G.is_multigraph()
    assert len(tg) == len(G) and list(tg) == list(G)
    back = BackendInterface.convert_to_nx(tg)
    assert type(back) is cls
    assert nx.utils.graphs_equal(back, G)


@pytest.mark.parametrize("cls", CLASSES)
def test_round_trip_of_a_weight_column_adds_no_attribute(cls):
    G = _attributed(cls)
    tg = BackendInterface.convert_from_nx(G, edge_attrs={"weight": 1})
    assert tg.edge_data["weight"].dtype == np.float64
    back = BackendInterface.convert_to_nx(tg)
    # Edges without a weight stay without one (the default 1 is not written back).
    assert nx.utils.edges_equal(
        back.edges(data="weight", default="absent"), G.edges(data="weight", default="absent")
    )


def test_results_pass_through_convert_to_nx():
    for value in ({1: 2}, 3, 0.5, None):
        assert BackendInterface.convert_to_nx(value) is value


def test_non_numeric_weight_is_networkxs_type_error():
    G = nx.Graph([(0, 1, {"weight": "heavy"})])
    with pytest.raises(TypeError) as expected:
        nx.clustering(G, weight="weight")
    with pytest.raises(TypeError) as raised:
        nx.clustering(G, weight="weight", backend="tricount")
    assert str(raised.value) == str(expected.value)  # "unsupported operand type(s) for /"
    tg = nx_tricount.from_networkx(G, edge_attrs={"weight": 1})
    assert tg.edge_data["weight"] == ["heavy"]  # kept as the objects, on the host


def test_membership_follows_networkx():
    tg = nx_tricount.from_networkx(nx.path_graph(3))
    assert 1 in tg and 1.0 in tg and True in tg
    assert 3 not in tg and "1" not in tg and [1] not in tg
    named = nx_tricount.from_networkx(nx.Graph([("a", "b")]))
    assert "a" in named and "c" not in named and [1] not in named
    assert "TriGraph Graph with 2 nodes" in repr(named)


def test_from_pandas_edgelist_matches_networkx():
    df = pd.DataFrame(
        {
            "source": ["c", "a", "b", "a", "d", "c", "b"],
            "target": ["a", "b", "c", "d", "c", "a", "a"],
            "weight": [1.0, 2.0, 3.0, 4.0, 5.0, 7.0, 0.5],  # (c,a) and (b,a) repeat: last wins
        }
    )
    expected = nx.from_pandas_edgelist(df, edge_attr="weight")
    tg = nx.from_pandas_edgelist(df, edge_attr="weight", backend="tricount")
    assert isinstance(tg, nx_tricount.TriGraph)
    assert list(tg) == list(expected)
    assert nx.triangles(tg) == nx.triangles(expected)
    ours = nx.clustering(tg, weight="weight")
    theirs = nx.clustering(expected, weight="weight")
    assert list(ours) == list(theirs)
    assert ours == pytest.approx(theirs, rel=1e-12)
    assert nx.utils.graphs_equal(BackendInterface.convert_to_nx(tg), expected)


def test_from_pandas_edgelist_directed_and_multigraph():
    df = pd.DataFrame({"u": [0, 1, 2, 2, 1], "v": [1, 2, 0, 1, 2], "k": ["x", "y", "z", "w", "q"]})
    D = nx.from_pandas_edgelist(df, "u", "v", create_using=nx.DiGraph)
    tgd = nx.from_pandas_edgelist(df, "u", "v", create_using=nx.DiGraph, backend="tricount")
    assert tgd.is_directed() and nx.clustering(tgd) == nx.clustering(D)
    M = nx.from_pandas_edgelist(df, "u", "v", create_using=nx.MultiGraph, edge_key="k")
    tgm = nx.from_pandas_edgelist(df, "u", "v", create_using=nx.MultiGraph, edge_key="k", backend="tricount")
    assert tgm.is_multigraph() and nx.triangles(tgm) == nx.triangles(M)
    assert nx.utils.graphs_equal(BackendInterface.convert_to_nx(tgm), M)


def test_from_frame_missing_values_and_columns():
    with pytest.raises(ValueError, match="column 'source' .* has missing values"):
        nx_tricount.from_frame(pd.DataFrame({"source": [0, None], "target": [1, 2]}))
    with pytest.raises(KeyError, match="no source column 'src'"):  # NetworkX's KeyError
        nx_tricount.from_frame(pd.DataFrame({"a": [0]}), source="src")


def test_from_edges_validates_input():
    ok = nx_tricount.from_edges(np.array([0, 1, 2]), np.array([1, 2, 0]), n=5)
    assert len(ok) == 5 and nx_tricount.triangles(ok) == {0: 1, 1: 1, 2: 1, 3: 0, 4: 0}
    with pytest.raises(TypeError, match="integer vertex ids"):
        nx_tricount.from_edges(np.array([0.0]), np.array([1.0]))
    with pytest.raises(ValueError, match="non-negative"):
        nx_tricount.from_edges(np.array([-1]), np.array([1]))
    with pytest.raises(ValueError, match="out of range for n=2"):
        nx_tricount.from_edges(np.array([0]), np.array([2]), n=2)
    with pytest.raises(ValueError, match="equal length"):
        nx_tricount.from_edges(np.array([0, 1]), np.array([1]))
    with pytest.raises(ValueError, match="one value per edge"):
        nx_tricount.from_edges(np.array([0]), np.array([1]), weight=np.array([1.0, 2.0]))
    weighted = nx_tricount.from_edges(
        np.array([0, 1, 2]), np.array([1, 2, 0]), weight=np.array([1.0, 8.0, 1.0])
    )
    # cbrt(1/8 * 8/8 * 1/8) = 1/4 per triangle; t = 2/4 over d(d-1) = 2.
    assert nx_tricount.clustering(weighted, weight="weight") == pytest.approx({0: 0.25, 1: 0.25, 2: 0.25})


class _CudaGraphLike:
    """What nx-cugraph caches on a NetworkX graph, as far as the conversion
    reads it: edge arrays of positions in G's node order, both ends listed."""

    def __init__(self, G):
        position = {node: i for i, node in enumerate(G)}
        rows = [(position[u], position[v]) for u, nbrs in G._adj.items() for v in nbrs]
        self.src_indices = np.array([u for u, _ in rows], dtype=np.int32)
        self.dst_indices = np.array([v for _, v in rows], dtype=np.int32)
        self._directed = G.is_directed()
        self._n = len(G)

    def is_directed(self):
        return self._directed

    def is_multigraph(self):
        return False

    def number_of_nodes(self):
        return self._n


class _CompatGraphLike:
    """nx-cugraph's default conversion: a graph keeping the CudaGraph in its cache."""

    def __init__(self, cuda_graph):
        self.__networkx_cache__ = {"backends": {"cugraph": {(True, True): cuda_graph}}}


@pytest.mark.parametrize("cls", [nx.Graph, nx.DiGraph])
@pytest.mark.parametrize("nodes", ["ints in order", "strings"])
@pytest.mark.parametrize("compat", [False, True], ids=["cuda-graph", "compat-graph"])
def test_nx_cugraphs_cached_conversion_is_reused(cls, nodes, compat, caplog):
    G = nx.les_miserables_graph()  # string nodes
    G = cls(G if nodes == "strings" else nx.convert_node_labels_to_integers(G))
    G.add_edge(next(iter(G)), next(iter(G)))  # a self-loop
    expected = (nx.clustering(G), nx.transitivity(G))
    cached = _CompatGraphLike(_CudaGraphLike(G)) if compat else _CudaGraphLike(G)
    G.__networkx_cache__.setdefault("backends", {})["cugraph"] = {(False, False): cached}
    with caplog.at_level("DEBUG", logger="nx_tricount"):
        T = BackendInterface.convert_from_nx(G)
    assert "reuses nx-cugraph's conversion" in caplog.text
    assert list(T) == list(G)
    assert (nx.clustering(T), nx.transitivity(T)) == expected


def test_a_conversion_that_needs_attributes_reads_the_graph_itself(caplog):
    G = nx.les_miserables_graph()
    G.__networkx_cache__.setdefault("backends", {})["cugraph"] = {(False, False): _CudaGraphLike(G)}
    with caplog.at_level("DEBUG", logger="nx_tricount"):
        T = BackendInterface.convert_from_nx(G, edge_attrs={"weight": 1})
    assert "reuses" not in caplog.text
    assert nx.clustering(T, weight="weight") == pytest.approx(nx.clustering(G, weight="weight"))
