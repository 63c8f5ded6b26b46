"""square_clustering, generalized_degree, all_triangles and k_truss on the GPU:
against NetworkX on generated graphs of the four classes, and against the CPU
engine on every real graph (tests/data and its extension), where NetworkX would
take minutes. Run on a GPU machine (``pytest -m gpu``)."""

import networkx as nx
import numpy as np
import pytest

import nx_tricount
from conftest import DATASETS, load_edges
from nx_tricount.algorithms import neighbourhoods, squares
from nx_tricount.classes import preparation
from nx_tricount.gpu.device import to_host
from test_triangle_family import (
    ALL_CLASSES,
    MULTI,
    UNDIRECTED,
    assert_same,
    assert_same_graph,
    shuffled_insertions,
    triangle_sets,
    triangle_tuples,
)

pytestmark = pytest.mark.gpu

ALGORITHMS = ["merge", "wedge", "edge", "vertex", "hash", "bitmap"]


@pytest.fixture(autouse=True)
def _no_conversion_cache():
    with nx.config(cache_converted_graphs=False):
        yield


def _cupy():
    import cupy

    return cupy


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("name", list(ALL_CLASSES))
def test_gpu_matches_networkx(name, algorithm):
    G = ALL_CLASSES[name]
    call = dict(backend="tricount", device="gpu", algorithm=algorithm)
    assert_same(nx.square_clustering(G, **call), nx.square_clustering(G))
    some = list(G)[::3]
    assert_same(nx.square_clustering(G, some, **call), nx.square_clustering(G, some))
    if G.is_directed():
        return
    triangles = list(nx.all_triangles(G, **call))
    assert triangle_tuples(triangles) == triangle_tuples(nx.all_triangles(G))
    assert max(triangle_sets(triangles).values(), default=1) == 1
    S = shuffled_insertions(G, seed=7)  # neighbour dicts in another order than the nodes
    assert triangle_tuples(nx.all_triangles(S, some, **call)) == triangle_tuples(nx.all_triangles(S, some))
    if G.is_multigraph():
        return
    assert_same(nx.generalized_degree(G, **call), nx.generalized_degree(G))
    H = G.copy()
    H.remove_edges_from(list(nx.selfloop_edges(H)))
    for k in (2, 3, 4, 5, 7):
        ours = nx.k_truss(H, k, **call)  # a graph of H's class, as NetworkX's
        assert type(ours) is type(H)
        assert_same_graph(ours, nx.k_truss(H, k))


def test_gpu_k_truss_peels_in_many_rounds():
    """A strip of triangles peels from its ends one triangle per round."""
    G = nx.triangular_lattice_graph(1, 300)
    G.add_edges_from(nx.complete_graph(range(1000, 1006)).edges)
    for k in (3, 4, 5, 6, 7):
        ours = nx.k_truss(G, k, backend="tricount", device="gpu")
        assert_same_graph(ours, nx.k_truss(G, k))


def test_gpu_square_clustering_one_row_of_counters():
    """One block with one row of counters (a budget below a row) still counts
    every vertex exactly, hubs included."""
    G = nx.star_graph(200)
    G.add_edges_from((i, j) for i in range(1, 201, 3) for j in range(i + 1, 201, 7))
    T = nx_tricount.from_networkx(G)
    counts = {}
    for device, xp in (("cpu", np), ("gpu", _cupy())):
        prepared = preparation.oriented_csr(T, "degree", "none", device)
        lists = neighbourhoods.symmetric(prepared)[:2]
        targets = xp.arange(prepared.n, dtype=prepared.indices.dtype)
        found = squares.count_squares(lists, lists, targets, prepared.n, device, memory=1)
        counts[device] = [to_host(a) for a in found]
    for cpu, gpu in zip(counts["cpu"], counts["gpu"]):
        np.testing.assert_array_equal(cpu, gpu)
    assert_same(nx.square_clustering(G, backend="tricount", device="gpu"), nx.square_clustering(G))


@pytest.mark.parametrize("name", ["karate", "rmat", "grid_tuple_labels"])
def test_gpu_partitioned_plans(name):
    G = UNDIRECTED[name]
    H = G.copy()
    H.remove_edges_from(list(nx.selfloop_edges(H)))  # k_truss rejects self-loops, as NetworkX
    with nx.config.backends.tricount(partitions=2, device="gpu"):
        assert_same(nx.generalized_degree(G, backend="tricount"), nx.generalized_degree(G))
        assert triangle_sets(nx.all_triangles(G, backend="tricount")) == triangle_sets(nx.all_triangles(G))
        for k in (3, 4, 5):
            assert_same_graph(nx.k_truss(H, k, backend="tricount"), nx.k_truss(H, k))


def test_gpu_frame_of_a_graph_on_the_gpu():
    cp = _cupy()
    G = nx.gnp_random_graph(300, 0.1, seed=9)
    src, dst = (np.array(x) for x in zip(*G.edges()))
    T = nx_tricount.from_edges(cp.asarray(src), cp.asarray(dst), n=300)
    frame = nx_tricount.all_triangles(T, as_frame=True)
    frame = frame if type(frame).__module__.startswith("pandas") else frame.to_pandas()
    assert list(frame.columns) == ["u", "v", "w"]
    assert triangle_tuples(frame.itertuples(index=False, name=None)) == triangle_tuples(nx.all_triangles(G))
    # nbunch's neighbours rank by the neighbour dicts the rows build, read on the GPU.
    rows = nx_tricount.to_networkx(T)
    for nbunch in ([5, 3, 5, 999], 7, list(range(299, 0, -3))):
        ours = nx_tricount.all_triangles(T, nbunch, device="gpu")
        assert triangle_tuples(ours) == triangle_tuples(nx.all_triangles(rows, nbunch))


def _sorted_triangles(frame):
    values = frame.to_numpy() if hasattr(frame, "to_numpy") else frame.to_pandas().to_numpy()
    values = np.sort(values.astype(np.int64), axis=1)
    return values[np.lexsort(values.T[::-1])]


@pytest.mark.parametrize("name", DATASETS)
def test_gpu_real_graphs_match_the_cpu(name):
    src, dst = load_edges(name)
    T = nx_tricount.from_edges(src, dst)
    cpu, gpu = dict(device="cpu"), dict(device="gpu")
    assert nx_tricount.square_clustering(T, **gpu) == nx_tricount.square_clustering(T, **cpu)
    assert nx_tricount.generalized_degree(T, **gpu) == nx_tricount.generalized_degree(T, **cpu)
    np.testing.assert_array_equal(
        _sorted_triangles(nx_tricount.all_triangles(T, as_frame=True, **gpu)),
        _sorted_triangles(nx_tricount.all_triangles(T, as_frame=True, **cpu)),
    )
    for k in (4, 8):
        ours, theirs = nx_tricount.k_truss(T, k, **gpu), nx_tricount.k_truss(T, k, **cpu)
        assert ours.label_list() == theirs.label_list()
        np.testing.assert_array_equal(ours.src, theirs.src)
        np.testing.assert_array_equal(ours.dst, theirs.dst)


def test_gpu_multigraph_and_directed_square_clustering():
    for G in (*MULTI.values(), nx.gnp_random_graph(80, 0.15, seed=2, directed=True)):
        assert_same(nx.square_clustering(G, backend="tricount", device="gpu"), nx.square_clustering(G))
