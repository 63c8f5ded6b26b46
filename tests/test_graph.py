"""What a user reads off a ``TriGraph`` (``len``, ``in``, ``nodes``, ``edges``,
``number_of_edges``, its repr), against the NetworkX graph it stands for
(``to_networkx``) and against NetworkX's own graph of the same input."""

from collections import Counter

import networkx as nx
import numpy as np
import pandas as pd
import pytest

import nx_tricount
from nx_tricount.io.convert import to_networkx


def _pairs(edges, directed):
    """The edges as a multiset, an undirected edge as the frozenset of its ends."""
    return Counter(tuple(e) if directed else frozenset(e) for e in edges)


def _labelled():
    G = nx.Graph([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "d")])
    G.add_node("lonely")
    return G


def _graphs():
    """TriGraphs of every kind of input, with rows that repeat an edge."""
    src = np.array([0, 1, 2, 1, 0, 2, 3, 3, 4])
    dst = np.array([1, 0, 0, 2, 1, 3, 3, 2, 2])
    frame = pd.DataFrame(
        {"s": ["x", "y", "y", "x", "z"], "t": ["y", "x", "z", "y", "z"], "k": [0, 0, 0, 1, 0]}
    )
    multi = nx.MultiDiGraph([(1, 2), (1, 2), (2, 1), (2, 3), (3, 3)])
    return {
        "labelled Graph": nx_tricount.from_networkx(_labelled()),
        "DiGraph": nx_tricount.from_networkx(nx.DiGraph([(1, 2), (2, 1), (2, 3)])),
        "rows in both directions": nx_tricount.from_edges(src, dst),
        "arcs with repeats": nx_tricount.from_edges(src, dst, directed=True),
        "frame": nx_tricount.from_frame(frame, "s", "t"),
        "multigraph frame": nx_tricount.from_frame(frame, "s", "t", multigraph=True),
        "multigraph frame with keys": nx_tricount.from_frame(frame, "s", "t", multigraph=True, edge_key="k"),
        "MultiDiGraph": nx_tricount.from_networkx(multi),
    }


@pytest.mark.parametrize("name", list(_graphs()))
def test_views_agree_with_the_networkx_graph(name):
    T = _graphs()[name]
    H = to_networkx(T)
    assert len(T) == T.number_of_nodes() == len(T.nodes) == len(H)
    assert list(T.nodes) == list(T.nodes()) == list(H.nodes)
    assert T.number_of_edges() == len(T.edges) == H.number_of_edges()
    assert _pairs(T.edges, T.directed) == _pairs(H.edges(), H.is_directed())
    assert list(T.edges()) == list(T.edges)
    for u, v in H.edges():
        assert (u, v) in T.edges and u in T.nodes
        assert ((v, u) in T.edges) == H.has_edge(v, u)
    assert ("a", "no such node") not in T.edges and "no such node" not in T.nodes


def test_rows_that_repeat_an_edge_count_once_as_in_networkx():
    src, dst = np.array([0, 1, 1, 2, 2, 2]), np.array([1, 0, 1, 0, 0, 1])
    for directed in (False, True):
        T = nx_tricount.from_edges(src, dst, directed=directed)
        G = (nx.DiGraph if directed else nx.Graph)(zip(src.tolist(), dst.tolist()))
        assert T.number_of_edges() == G.number_of_edges()
        assert _pairs(T.edges, directed) == _pairs(G.edges(), directed)
        # Each edge as its first row lists it, in row order.
        first = {}
        for u, v in zip(src.tolist(), dst.tolist()):
            first.setdefault((u, v) if directed else frozenset((u, v)), (u, v))
        assert list(T.edges) == list(first.values())


def test_k_truss_of_a_trigraph_shows_its_edges():
    G = nx.karate_club_graph()
    T = nx_tricount.from_networkx(G)
    truss = nx_tricount.k_truss(T, 4)
    expected = nx.k_truss(G, 4)
    assert set(truss.nodes) == set(expected.nodes)
    assert _pairs(truss.edges, False) == _pairs(expected.edges(), False)
    assert truss.number_of_edges() == expected.number_of_edges()


def test_empty_graph():
    T = nx_tricount.from_edges(np.array([], dtype=np.int64), np.array([], dtype=np.int64), n=3)
    assert list(T.nodes) == [0, 1, 2] and list(T.edges) == [] and T.number_of_edges() == 0


def test_repr_says_what_the_graph_holds():
    T = nx_tricount.from_edges(np.array([0, 1, 1]), np.array([1, 2, 0]), weight=np.ones(3))
    assert repr(T) == "<TriGraph Graph with 3 nodes and 3 edge rows on the CPU; edge values 'weight'>"
    assert repr(T.nodes) == "NodeView([0, 1, 2])"
    assert repr(T.edges) == "EdgeView([(0, 1), (1, 2)])"
    big = nx_tricount.from_edges(np.arange(20), np.arange(1, 21), directed=True)
    assert repr(big) == "<TriGraph DiGraph with 21 nodes and 20 edge rows on the CPU>"
    assert repr(big.nodes).endswith("9, ...])") and repr(big.edges).endswith("(9, 10), ...])")


def test_the_views_are_read_only():
    T = nx_tricount.from_networkx(_labelled())
    with pytest.raises(TypeError):
        T.nodes[0] = "changed"
    with pytest.raises(AttributeError):
        T.nodes = ["changed"]
    assert list(T.nodes) == list(_labelled().nodes)


@pytest.mark.gpu
def test_views_of_edges_on_the_gpu():
    import cupy

    src, dst = np.array([0, 1, 2, 1, 0, 2, 3, 3]), np.array([1, 0, 0, 2, 1, 3, 3, 2])
    for directed in (False, True):
        on_gpu = nx_tricount.from_edges(cupy.asarray(src), cupy.asarray(dst), directed=directed)
        on_cpu = nx_tricount.from_edges(src, dst, directed=directed)
        assert on_gpu.number_of_edges() == on_cpu.number_of_edges()
        assert list(on_gpu.edges) == list(on_cpu.edges)
        assert ((3, 2) in on_gpu.edges) == ((3, 2) in on_cpu.edges)
        assert "on the GPU" in repr(on_gpu)
