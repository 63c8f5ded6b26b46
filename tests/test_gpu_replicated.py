"""The replicated regime on GPUs (run on a GPU machine): each algorithm's shares
on the GPU add up to its whole count in every mode; two workers of one GPU and,
where the host has them, two GPUs, count every mode as one GPU does, with each
worker's phases recorded; and the plan uses one GPU where a second does not pay."""

import networkx as nx
import numpy as np
import pytest

import nx_tricount
from nx_tricount.algorithms import count_raw
from nx_tricount.execution import phases
from nx_tricount.gpu.peers import to_current_gpu
from nx_tricount.io.generators import rmat_edges
from nx_tricount.metadata.catalog import ALGORITHMS
from nx_tricount.planning.spread import REPLICA_MIN_ROWS
from nx_tricount.preprocess.prepare import prepare_undirected
from test_replicated import shares_sum

pytestmark = pytest.mark.gpu

cupy = pytest.importorskip("cupy")


def _gpus():
    return cupy.cuda.runtime.getDeviceCount()


@pytest.fixture
def two_gpus():
    if _gpus() < 2:
        pytest.skip("needs two GPUs of one host: the two-workers-on-one-GPU test covers the path")


@pytest.fixture(scope="module")
def edges():
    src, dst = rmat_edges(13, 16, seed=13)
    return cupy.asarray(src), cupy.asarray(dst), int(max(src.max(), dst.max())) + 1


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
@pytest.mark.parametrize("orientation, ordering", [("id", "degree"), ("degree", "none")])
@pytest.mark.parametrize("mode", ["total", "per_node", "per_edge"])
def test_gpu_shares_add_up_to_the_whole_count(edges, algorithm, orientation, ordering, mode):
    src, dst, n = edges
    prepared = prepare_undirected(src, dst, n, orientation=orientation, ordering=ordering)
    parameters = {"total_layout": "inline"} if algorithm == "merge" and mode == "total" else {}
    whole = count_raw(prepared, algorithm, mode, "gpu", parameters)
    for shares in (2, 5):
        total = shares_sum(prepared, algorithm, mode, shares, "gpu", parameters)
        if mode == "total":
            assert total == whole > 0
        else:
            assert cupy.array_equal(total, whole) and int(whole.sum()) > 0


def test_gpu_weighted_shares_add_up(edges):
    src, dst, n = edges
    values = cupy.asarray(np.random.default_rng(1).uniform(0.1, 2.0, src.size))
    prepared = prepare_undirected(src, dst, n, orientation="id", ordering="degree", values=values)
    for algorithm in ALGORITHMS:
        whole = count_raw(prepared, algorithm, "per_node", "gpu")
        total = shares_sum(prepared, algorithm, "per_node", 3, "gpu")
        cupy.testing.assert_allclose(total[0] + total[1], whole[0] + whole[1], rtol=1e-12, atol=0)


def _every_mode(G, devices, regime):
    with nx.config.backends.tricount(devices=devices, regime=regime), phases.collect() as records:
        results = (
            nx.triangles(G, backend="tricount", device="gpu"),
            nx.clustering(G, backend="tricount", device="gpu"),
            nx.transitivity(G, backend="tricount", device="gpu"),
            nx_tricount.edge_triangles(G, device="gpu"),
        )
    return results, records


def _graph():
    src, dst = rmat_edges(12, 16, seed=4)
    G = nx.Graph()
    G.add_edges_from(zip(src.tolist(), dst.tolist()))
    G.remove_edges_from(list(nx.selfloop_edges(G)))
    return G


def test_two_workers_of_one_gpu_count_as_one_gpu():
    G = _graph()
    here = cupy.cuda.Device().id
    whole, _ = _every_mode(G, "auto", "auto")
    shared, records = _every_mode(G, [here, here], "replicated")
    assert shared == whole
    workers = [r for r in records if isinstance(r["worker"], int)]
    assert {r["device"] for r in workers} == {here} and all(r["bytes"] == 0 for r in workers)


@pytest.mark.usefixtures("two_gpus")
def test_two_gpus_count_as_one_gpu_and_copy_the_graph_once():
    G = _graph()
    whole, _ = _every_mode(G, "auto", "auto")
    spread, records = _every_mode(G, "all", "replicated")
    assert spread == whole
    workers = [r for r in records if isinstance(r["worker"], int)]
    # Four counts, two GPUs each: the second GPU gets its copy of each graph.
    assert sorted({r["device"] for r in workers}) == list(range(_gpus()))
    assert any(r["bytes"] > 0 for r in workers if r["device"] != cupy.cuda.Device().id)
    assert any(r["worker"] == "combine" for r in records)


@pytest.mark.usefixtures("two_gpus")
def test_a_small_graph_counts_on_one_gpu_and_the_plan_says_why():
    plan = nx_tricount.make_plan(_graph(), device="gpu", devices="all")
    assert plan.spread.executor == "whole" and len(plan.spread.devices) == 1, plan
    assert f"(< {REPLICA_MIN_ROWS:,})" in str(plan)


@pytest.mark.usefixtures("two_gpus")
def test_peer_copies_reach_the_current_gpu():
    with cupy.cuda.Device(1):
        array = cupy.arange(10, dtype=np.int64)[::2]  # strided: made contiguous first
    with cupy.cuda.Device(0):
        copy = to_current_gpu(array)
        assert copy.device.id == 0 and copy.tolist() == [0, 2, 4, 6, 8]
