"""Preparing one oriented CSR on the GPU in passes (run on a GPU machine): the
CSR the whole preparation makes, from edges in host or GPU memory, with what
waits between the passes kept on the GPU or in host memory; and every NetworkX
function of a graph the plan prepares in passes is the whole count's."""

import networkx as nx
import numpy as np
import pytest

import nx_tricount
from nx_tricount.io.generators import rmat_edges
from nx_tricount.planning.memory import passes_bytes, whole_bytes
from nx_tricount.preprocess.passes import prepare_in_passes
from nx_tricount.preprocess.prepare import prepare_undirected
from nx_tricount.preprocess.streamed import STREAMED
from test_gpu_replicated import rmat12_graph
from test_passes import ARRAYS

pytestmark = pytest.mark.gpu

cupy = pytest.importorskip("cupy")


@pytest.fixture(scope="module")
def edges():
    src, dst = rmat_edges(13, 16, seed=13)
    return cupy.asarray(src), cupy.asarray(dst), int(max(src.max(), dst.max())) + 1


@pytest.mark.parametrize("orientation, ordering", sorted(STREAMED))
@pytest.mark.parametrize("edges_on", ["gpu", "host"])
@pytest.mark.parametrize("waiting", ["on the gpu", "in host memory"])
def test_the_gpu_passes_make_the_whole_preparations_csr(edges, orientation, ordering, edges_on, waiting):
    src, dst, n = edges
    whole = prepare_undirected(src, dst, n, orientation=orientation, ordering=ordering)
    if edges_on == "host":
        src, dst = cupy.asnumpy(src), cupy.asnumpy(dst)
    # Without a limit everything waits on the GPU; 8 bytes a row leave no room for
    # the keys or the arcs beside a pass (twelve passes).
    limit, passes = (None, 3) if waiting == "on the gpu" else (8 * int(src.size), None)
    ours = prepare_in_passes(
        src, dst, n, orientation=orientation, ordering=ordering, memory_limit=limit, passes=passes
    )
    assert whole.m > 0
    for name in ARRAYS:
        mine, theirs = getattr(ours, name), getattr(whole, name)
        if theirs is None:
            assert mine is None, name
            continue
        assert isinstance(mine, cupy.ndarray) and mine.dtype == theirs.dtype, name
        assert cupy.array_equal(mine, theirs), name
    assert ours.ascending == whole.ascending


def _calls(G):
    return (
        nx.triangles(G, backend="tricount", device="gpu"),
        nx.clustering(G, backend="tricount", device="gpu"),
        nx.transitivity(G, backend="tricount", device="gpu"),
        nx.average_clustering(G, backend="tricount", device="gpu"),
        nx_tricount.edge_triangles(G, device="gpu"),
    )


@pytest.mark.parametrize("edges_on", ["gpu", "host"])
@pytest.mark.parametrize("algorithm", ["auto", "merge", "hash", "wedge"])
def test_networkx_functions_of_a_graph_prepared_in_passes_are_the_whole_counts(edges_on, algorithm):
    G = rmat12_graph()
    src = np.array([u for u, _ in G.edges()], dtype=np.int32)
    dst = np.array([v for _, v in G.edges()], dtype=np.int32)
    T = nx_tricount.from_edges(*((cupy.asarray(src), cupy.asarray(dst)) if edges_on == "gpu" else (src, dst)))
    expected = _calls(nx_tricount.from_edges(src, dst))
    limit = passes_bytes(T.src.size, T.n)
    assert limit < whole_bytes(T.src.size)
    with nx.config.backends.tricount(memory_limit=limit, algorithm=algorithm):
        plan = nx_tricount.make_plan(T, device="gpu")
        assert plan.spread.prepared_in_passes and plan.spread.executor == "whole", str(plan)
        assert _calls(T) == expected
    assert {v: expected[0][v] for v in G} == nx.triangles(G)
    assert expected[2] == nx.transitivity(G)
