"""The replicated regime on the CPU engine (TRUST §5.1): shares of the base
vertices, cut by cost, whose counts add up to the whole count for every
algorithm, mode and preprocessing; and the plan's choice between the regimes.
Every public function under it is in the matrix (tests/matrix.py, "replicated"
and "dask"); tests/test_gpu_replicated.py runs the shares on GPUs."""

import networkx as nx
import numpy as np
import pytest

import nx_tricount
from nx_tricount.algorithms import base_costs, count_raw
from nx_tricount.algorithms.shares import add_raw, vertex_costs, work_shares
from nx_tricount.classes import preparation
from nx_tricount.execution import phases
from nx_tricount.io.generators import rmat_edges
from nx_tricount.metadata.catalog import ALGORITHMS
from nx_tricount.planning.memory import together_bytes, whole_bytes
from nx_tricount.planning.plan import plan_for
from nx_tricount.planning.spread import REPLICA_MIN_ROWS, SHARES_PER_WORKER, TOTAL_SHARES_PER_WORKER, decide
from nx_tricount.preprocess.prepare import prepare_undirected
from test_partitions import _settings

#: (orientation, ordering) of each algorithm's own preprocessing and one other.
PREPROCESSINGS = [("id", "degree"), ("degree", "none")]


@pytest.fixture(scope="module")
def edges():
    src, dst = rmat_edges(10, 8, seed=10)
    return src, dst, int(max(src.max(), dst.max())) + 1


def shares_sum(prepared, algorithm, mode, shares, device="cpu", parameters=None):
    """The raw counts of ``shares`` shares of ``prepared``, added up."""
    total = None
    costs = base_costs(prepared, algorithm, mode, device, parameters)  # as a replicated count cuts them
    for share in work_shares(prepared, algorithm, shares, costs):
        total = add_raw(total, count_raw(prepared, algorithm, mode, device, parameters, share))
    return total


def assert_same_raw(ours, whole):
    if isinstance(whole, int):
        assert ours == whole
    elif whole.ndim == 2:  # weighted (sums, errors): the rounded sums within an ulp
        np.testing.assert_allclose(ours[0] + ours[1], whole[0] + whole[1], rtol=1e-12, atol=0)
    else:
        np.testing.assert_array_equal(ours, whole)


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
@pytest.mark.parametrize("orientation, ordering", PREPROCESSINGS)
@pytest.mark.parametrize("mode", ["total", "per_node", "per_edge"])
def test_shares_add_up_to_the_whole_count(edges, algorithm, orientation, ordering, mode):
    src, dst, n = edges
    prepared = prepare_undirected(src, dst, n, orientation=orientation, ordering=ordering)
    whole = count_raw(prepared, algorithm, mode)
    assert (whole if mode == "total" else whole.sum()) > 0
    for shares in (2, 3, 8):
        assert_same_raw(shares_sum(prepared, algorithm, mode, shares), whole)


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_weighted_shares_add_up(edges, algorithm):
    src, dst, n = edges
    values = np.random.default_rng(3).uniform(0.1, 2.0, src.size)
    prepared = prepare_undirected(src, dst, n, orientation="degree", ordering="none", values=values)
    whole = count_raw(prepared, algorithm, "per_node")
    assert whole.ndim == 2 and whole[0].sum() > 0
    assert_same_raw(shares_sum(prepared, algorithm, "per_node", 4), whole)


def test_directed_arcs_shares_add_up():
    # The arcs of a directed graph as given (cycles, reciprocal pairs): a
    # transitive triple is found from its base vertex too.
    G = nx.gnp_random_graph(120, 0.08, seed=5, directed=True)
    prepared = preparation.successor_csr(nx_tricount.from_networkx(G), "cpu")
    for algorithm in ALGORITHMS:
        whole = count_raw(prepared, algorithm, "total")
        assert whole > 0
        assert shares_sum(prepared, algorithm, "total", 5) == whole, algorithm


def test_work_shares_cover_every_vertex_once_costliest_first(edges):
    src, dst, n = edges
    prepared = prepare_undirected(src, dst, n, orientation="id", ordering="degree")
    for algorithm in ("wedge", "merge"):
        costs = vertex_costs(prepared, algorithm)
        for count in (1, 2, 5, 64):
            ranges = work_shares(prepared, algorithm, count)
            assert 1 <= len(ranges) <= count
            assert sorted(ranges)[0][0] == 0 and sorted(ranges)[-1][1] == n
            assert all(a < b for a, b in ranges)
            assert all(x[1] == y[0] for x, y in zip(sorted(ranges), sorted(ranges)[1:]))
            share_costs = [costs[a:b].sum() for a, b in ranges]
            assert share_costs == sorted(share_costs, reverse=True)
        # Cut by cost, falling: three shares of 3, 2 and 1 sixths, each within one
        # vertex's cost of its part.
        parts = [costs[a:b].sum() for a, b in work_shares(prepared, algorithm, 3)]
        for part, sixths in zip(parts, (3, 2, 1)):
            assert abs(part - costs.sum() * sixths / 6) <= 2 * costs.max()
    with pytest.raises(ValueError, match="shares must be at least 1"):
        work_shares(prepared, "wedge", 0)


def test_a_cut_before_the_first_vertex_leaves_the_shares_costliest_first():
    # Vertex 0 costs more than the first share's part: a cut falls at 0, and the
    # share it starts costs 130 (not 30), the costlier of the two.
    prepared = prepare_undirected(
        np.array([0, 1, 2]), np.array([1, 2, 3]), 4, orientation="id", ordering="none"
    )
    costs = np.array([100.0, 30.0, 30.0, 30.0])
    assert work_shares(prepared, "wedge", 3, costs) == [(0, 2), (2, 4)]


def test_a_graph_without_vertices_has_one_share():
    prepared = prepare_undirected(
        np.zeros(0, np.int64), np.zeros(0, np.int64), 0, orientation="id", ordering="none"
    )
    assert work_shares(prepared, "hash", 4) == [(0, 0)]
    assert shares_sum(prepared, "hash", "total", 4) == 0


def test_the_cpu_engine_records_its_shares():
    G = nx.karate_club_graph()
    with nx.config.backends.tricount(regime="replicated"), phases.collect() as records:
        assert nx.triangles(G, backend="tricount", device="cpu") == nx.triangles(G)
    assert [r["worker"] for r in records] == ["plan", "all"]
    assert records[0]["regime"] == "replicated" and records[0]["executor"] == "serial"
    assert 2 <= records[1]["shares"] <= SHARES_PER_WORKER


# -------------------------------------------------------------- the plan


def test_replicated_on_one_cpu_runs_its_shares_one_after_another():
    spread = decide(10**6, 10**5, "cpu", _settings(regime="replicated"))
    assert (spread.regime, spread.executor, spread.parts, spread.shares) == (
        "replicated",
        "serial",
        1,
        SHARES_PER_WORKER,
    )
    assert "regime replicated" in " ".join(spread.reasons)


def test_auto_counts_whole_on_one_worker():
    spread = decide(REPLICA_MIN_ROWS * 4, 10**6, "cpu", _settings())
    assert (spread.regime, spread.executor) == ("whole", "whole")


def test_replicated_refuses_partitions_and_a_graph_over_the_limit():
    with pytest.raises(ValueError, match="regime='replicated'.*partitions=3"):
        decide(1000, 100, "cpu", _settings(regime="replicated", partitions=3))
    with pytest.raises(ValueError, match="needs the whole graph on each worker"):
        decide(10**6, 10**5, "cpu", _settings(regime="replicated", memory_limit=whole_bytes(10**6) - 1))


def test_partitioned_regime_and_a_graph_over_the_limit_are_partitioned():
    spread = decide(10**6, 10**5, "cpu", _settings(memory_limit=whole_bytes(10**6) - 1))
    assert spread.regime == "partitioned" and spread.parts > 1


def test_a_graph_over_one_gpu_is_replicated_when_its_gpus_prepare_it_together(monkeypatch):
    # R-MAT 28 does not fit one H200 whole (64 bytes a row), and was partitioned: 30 s
    # on two. Prepared together, each of four GPUs held a quarter of the preparation
    # and its copy of the prepared graph (72-79 GiB), and counted it in 6 s.
    def gpu_ids(devices):
        return (0, 1) if devices == "all" else tuple(devices)

    monkeypatch.setattr("nx_tricount.planning.spread._gpu_ids", gpu_ids)
    rows, n = 10**6, 10**5
    limit = together_bytes(rows, (0, 1))
    assert limit < whole_bytes(rows)

    def spread(limit, shareable, **settings):
        return decide(rows, n, "gpu", _settings(devices="all", **settings), lambda: limit, shareable)

    shared = spread(limit, True)
    assert (shared.regime, shared.executor, shared.needs_together) == ("replicated", "gpus", True)
    assert f"prepared together by the 2 GPU workers, each GPU needs about {limit:,}" in " ".join(
        shared.reasons
    )
    # Edges on a GPU, weighted or directed counts (not shareable), or a share over
    # the limit: the 2D partition.
    assert spread(limit, False).regime == "partitioned"
    assert spread(limit - 1, True).regime == "partitioned"
    # Two workers on one GPU hold two shares and two copies there.
    assert together_bytes(rows, (0, 0)) == 2 * limit
    assert decide(rows, n, "gpu", _settings(devices=[0, 0]), lambda: limit, True).regime == "partitioned"
    # Configured replicated: taken when the shares fit, else refused.
    assert spread(limit, True, regime="replicated").needs_together
    with pytest.raises(ValueError, match="needs the whole graph on each worker"):
        spread(limit, False, regime="replicated")


def test_a_preprocessing_the_gpus_cannot_share_partitions_a_graph_over_one_gpu(monkeypatch):
    # bitmap's a-direction orientation is not prepared together: the graph that
    # fits each GPU only so is partitioned, and the plan says why; configured
    # replicated, it is refused.
    rows, n = 10**6, 10**5
    monkeypatch.setattr("nx_tricount.planning.spread._gpu_ids", lambda devices: (0, 1))
    monkeypatch.setattr("nx_tricount.planning.plan.choose_device", lambda *args: ("gpu", "device gpu"))
    monkeypatch.setattr("nx_tricount.planning.plan.free_memory", lambda: together_bytes(rows, (0, 1)))
    graph = preparation.Statistics(rows, n)
    plan = plan_for(graph, algorithm="bitmap", devices="all")
    assert plan.spread.regime == "partitioned" and not plan.spread.needs_together, plan
    assert "regime partitioned: the whole graph does not fit one GPU, and its GPUs cannot" in str(plan)
    with pytest.raises(ValueError, match="regime='replicated': the whole graph does not fit one GPU"):
        plan_for(graph, algorithm="bitmap", devices="all", regime="replicated")


def test_the_regime_setting_is_checked():
    with pytest.raises(ValueError, match="Invalid tricount regime 'shared'; accepted values are 'auto'"):
        nx_tricount.make_plan(nx.path_graph(3), device="cpu", regime="shared")
    plan = nx_tricount.make_plan(nx.path_graph(3), device="cpu", regime="replicated")
    assert f"regime=replicated shares={SHARES_PER_WORKER}" in str(plan)


def test_a_replicated_total_is_cut_into_more_shares():
    # A share of a total adds one counter; one per vertex or arc zeroes and adds an array.
    plan = nx_tricount.make_plan(nx.path_graph(3), device="cpu", regime="replicated", total=True)
    assert f"regime=replicated shares={TOTAL_SHARES_PER_WORKER}" in str(plan)
    assert TOTAL_SHARES_PER_WORKER > SHARES_PER_WORKER
