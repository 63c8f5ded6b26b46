"""The ``auto`` plan: the rule, the statistics it reads, and its explanations."""

import contextlib
import logging

import networkx as nx
import numpy as np
import pytest

import nx_tricount
from nx_tricount.gpu.device import gpu_available
from nx_tricount.io.edge_arrays import from_edges
from nx_tricount.io.generators import barabasi_albert_edges, grid_edges, rmat_edges
from nx_tricount.planning.plan import (
    GPU_LOOK_ROWS,
    GPU_MIN_RESIDENT_ROWS,
    GPU_MIN_ROWS,
    GPU_WEDGE_SKEW,
    gpu_auto_algorithm,
)
from nx_tricount.classes.preparation import mean_endpoint_degree, simple_graph


def _statistics(skew):
    return lambda: skew


def _never():
    raise AssertionError("the statistics of a small graph were computed")


def _gpu_machine(requested):
    """``resolve_device`` on a GPU machine."""
    return "gpu" if requested != "cpu" else "cpu"


def test_small_graphs_get_merge_without_statistics():
    algorithm, reason = gpu_auto_algorithm(GPU_LOOK_ROWS - 1, _never)
    assert algorithm == "merge"
    assert f"{GPU_LOOK_ROWS - 1:,} edge rows" in reason and "not looked at" in reason


@pytest.mark.parametrize(
    "skew,expected",
    [(GPU_WEDGE_SKEW, "wedge"), (3833.4, "wedge"), (GPU_WEDGE_SKEW - 1, "merge"), (4.1, "merge")],
)
def test_large_graphs_choose_by_endpoint_degree(skew, expected):
    algorithm, reason = gpu_auto_algorithm(GPU_LOOK_ROWS, _statistics(skew))
    assert algorithm == expected
    assert f"algorithm auto -> {expected}" in reason
    assert f"sum(d^2)/sum(d) = {skew:,.0f}" in reason


@pytest.mark.parametrize("skew,expected", [(GPU_WEDGE_SKEW, "hash"), (GPU_WEDGE_SKEW - 1, "merge")])
def test_weighted_sums_on_skewed_graphs_choose_hash_not_wedge(skew, expected):
    algorithm, reason = gpu_auto_algorithm(GPU_LOOK_ROWS, _statistics(skew), weighted=True)
    assert algorithm == expected and f"algorithm auto -> {expected}" in reason
    assert gpu_auto_algorithm(GPU_LOOK_ROWS - 1, _never, weighted=True)[0] == "merge"


def test_mean_endpoint_degree_by_hand():
    # Every endpoint of a cycle's rows occurs twice, whichever are drawn.
    cycle = from_edges(np.arange(7), (np.arange(7) + 1) % 7)
    calls = []
    assert mean_endpoint_degree(cycle, "cpu", lambda: calls.append("queued")) == 2.0
    assert calls == ["queued"]
    # A star 0-1, 0-2, 0-3 and an edge 2-3 given twice and once reversed, and a
    # self-loop: the rows' endpoints occur 3, 1, 4, 4 and 2 times, so every drawn
    # endpoint's count is one of these and the estimate lies between them.
    src, dst = np.array([0, 0, 0, 2, 3, 2, 4]), np.array([1, 2, 3, 3, 2, 3, 4])
    assert 1 <= mean_endpoint_degree(from_edges(src, dst, n=5), "cpu") <= 4
    assert mean_endpoint_degree(from_edges(src[:0], dst[:0], n=0), "cpu") == 0.0
    assert mean_endpoint_degree(from_edges(src[:0], dst[:0], n=3), "cpu") == 0.0


def test_mean_endpoint_degree_reads_its_estimate_when_meanwhile_fails(monkeypatch):
    """Regression: the estimate was left unread when the work queued meanwhile
    raised; on the GPU its launch writes to pinned memory the reader keeps alive."""
    from nx_tricount.preprocess import host_ops

    reads = []

    def sampled(src, dst, samples):
        return lambda: reads.append(samples) or 2 * samples

    def failing():
        raise MemoryError("the deduplication did not fit")

    monkeypatch.setattr(host_ops, "sampled_degree_sum", sampled)
    cycle = from_edges(np.arange(7), (np.arange(7) + 1) % 7)
    with pytest.raises(MemoryError, match="did not fit"):
        mean_endpoint_degree(cycle, "cpu", failing)
    assert len(reads) == 1


def test_mean_endpoint_degree_separates_hubs_from_grids():
    # The values the threshold sits between (docs/algorithms.md, "Choosing by itself").
    rmat = from_edges(*rmat_edges(18, seed=18), n=1 << 18)
    assert mean_endpoint_degree(rmat, "cpu") >= GPU_WEDGE_SKEW
    ba = from_edges(*barabasi_albert_edges(200_000, 10, seed=1), n=200_000)
    assert mean_endpoint_degree(ba, "cpu") < GPU_WEDGE_SKEW / 10
    grid = from_edges(*grid_edges(300, 300, 0.05, seed=1), n=300 * 300)
    assert mean_endpoint_degree(grid, "cpu") < 10


def test_plan_of_a_graph_is_deterministic_and_explains_itself(caplog):
    G = nx.karate_club_graph()
    with caplog.at_level(logging.DEBUG, logger="nx_tricount"):
        first = nx_tricount.make_plan(G)
    assert first == nx_tricount.make_plan(G)
    assert "tricount plan: algorithm=" in caplog.text
    text = str(first)
    for key in ("algorithm", "orientation", "ordering", "device"):
        assert f"{key} auto ->" in text
    if first.device == "gpu":
        # 78 edge rows: below the rows at which the GPU plan looks at degrees.
        assert first.algorithm == "merge" and "not looked at" in text
    else:
        assert first.algorithm == "hash"


@pytest.mark.gpu
@pytest.mark.skipif(not gpu_available(), reason="needs a GPU")
def test_gpu_plan_reads_the_graph():
    import cupy

    src, dst = rmat_edges(18, seed=18)
    rmat = from_edges(cupy.asarray(src), cupy.asarray(dst), n=1 << 18)
    assert rmat.src.size >= GPU_LOOK_ROWS
    plan = nx_tricount.make_plan(rmat, device="gpu")
    assert (plan.algorithm, plan.orientation, plan.ordering) == ("wedge", "id", "degree")
    # While the estimate crossed, the plan queued the simple graph that the count
    # then starts from; the estimate is the host's, draw for draw.
    assert ("simple", "gpu") in rmat._prepared
    simple = simple_graph(rmat, "gpu")
    assert mean_endpoint_degree(rmat, "gpu") == mean_endpoint_degree(from_edges(src, dst, n=1 << 18), "cpu")
    assert nx_tricount.transitivity(rmat) == nx_tricount.transitivity(rmat, device="cpu")
    assert simple_graph(rmat, "gpu") is simple
    src, dst = barabasi_albert_edges(400_000, 10, seed=2)
    ba = from_edges(src, dst, n=400_000)
    assert ba.src.size >= GPU_LOOK_ROWS
    plan = nx_tricount.make_plan(ba, device="gpu")
    assert (plan.algorithm, plan.orientation, plan.ordering) == ("merge", "degree", "none")
    assert "sum(d^2)/sum(d) = 7" in str(plan)
    assert nx_tricount.transitivity(ba, device="gpu") == nx_tricount.transitivity(ba, device="cpu")
    grid = from_edges(*grid_edges(1000, 1000, 0.05, seed=1), n=1000 * 1000)
    plan = nx_tricount.make_plan(grid, device="gpu")
    assert plan.algorithm == "merge" and "not looked at" in str(plan)


def test_auto_device_counts_small_graphs_on_the_cpu(monkeypatch):
    # On a GPU machine (simulated: the plan is made, nothing runs), device "auto"
    # sends graphs under GPU_MIN_ROWS edge rows to the CPU engine, and says why.
    monkeypatch.setattr("nx_tricount.planning.plan.resolve_device", _gpu_machine)
    monkeypatch.setattr("nx_tricount.planning.plan.free_memory", lambda: 1 << 40)
    monkeypatch.setattr("nx_tricount.planning.spread._gpu_ids", lambda devices: (0,))
    small = nx_tricount.make_plan(nx.karate_club_graph())
    assert small.device == "cpu" and "device auto -> cpu: 78 edge rows" in str(small)
    src, dst = rmat_edges(11, seed=1)
    assert src.size >= GPU_MIN_ROWS
    large = nx_tricount.make_plan(from_edges(src, dst), algorithm="merge")
    assert large.device == "gpu" and "device auto -> gpu" in str(large)
    # An explicit device is kept.
    assert nx_tricount.make_plan(nx.karate_club_graph(), device="gpu", algorithm="merge").device == "gpu"


def test_auto_device_counts_small_graphs_in_gpu_memory_on_the_gpu(monkeypatch):
    # Edge rows already in GPU memory (simulated: the plan reads where the rows are)
    # stay on the GPU from GPU_MIN_RESIDENT_ROWS, which prepares them without sorts;
    # below it the CPU engine counts them, and the plan says where the rows were.
    monkeypatch.setattr("nx_tricount.planning.plan.resolve_device", _gpu_machine)
    monkeypatch.setattr("nx_tricount.planning.plan.free_memory", lambda: 1 << 40)
    monkeypatch.setattr("nx_tricount.planning.spread._gpu_ids", lambda devices: (0,))
    monkeypatch.setattr("nx_tricount.planning.plan.module_of", lambda array: "cupy")
    src, dst = rmat_edges(7, seed=1)
    assert GPU_MIN_RESIDENT_ROWS <= src.size < GPU_MIN_ROWS
    assert nx_tricount.make_plan(from_edges(src, dst), algorithm="merge").device == "gpu"
    few = GPU_MIN_RESIDENT_ROWS - 1
    tiny = nx_tricount.make_plan(from_edges(src[:few], dst[:few]), algorithm="merge")
    assert tiny.device == "cpu" and f"rows in GPU memory (< {GPU_MIN_RESIDENT_ROWS:,})" in str(tiny)
    # An undirected total (transitivity) stays on the GPU at any size; a directed one does not.
    undirected = from_edges(src[:few], dst[:few])
    assert nx_tricount.make_plan(undirected, algorithm="merge", total=True).device == "gpu"
    directed = from_edges(src[:few], dst[:few], directed=True)
    assert nx_tricount.make_plan(directed, algorithm="merge", total=True).device == "cpu"


def test_auto_counts_directed_graphs_with_merge_on_the_gpu(monkeypatch):
    # Simulated GPU machine: merge counts directed transitivity on the arc pairs
    # (docs/benchmarks.md), whatever the degrees.
    monkeypatch.setattr("nx_tricount.planning.plan.resolve_device", _gpu_machine)
    monkeypatch.setattr("nx_tricount.planning.plan.free_memory", lambda: 1 << 40)
    monkeypatch.setattr("nx_tricount.planning.spread._gpu_ids", lambda devices: (0,))
    monkeypatch.setattr("nx_tricount.planning.plan.GPU_LOOK_ROWS", 1)  # the skew rule would say wedge
    monkeypatch.setattr(
        "nx_tricount.planning.plan.mean_endpoint_degree", lambda G, device, meanwhile: 10 * GPU_WEDGE_SKEW
    )
    src, dst = rmat_edges(11, seed=1)
    directed = nx_tricount.make_plan(from_edges(src, dst, directed=True))
    assert directed.algorithm == "merge" and "transitive triples" in str(directed)
    # Directed clustering sums the values of the graph's arc pairs, oriented by degree.
    monkeypatch.setattr("nx_tricount.planning.plan.cuda_errors", lambda what: contextlib.nullcontext())
    pairs = nx_tricount.make_plan(from_edges(src, dst, directed=True), weighted=True)
    assert pairs.algorithm == "hash" and "sums of arc values" in str(pairs)
