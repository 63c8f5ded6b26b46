"""The replicated regime on GPUs (run on a GPU machine): each algorithm's shares
on the GPU add up to its whole count in every mode; the GPUs prepare the graph
together into the CSR one GPU prepares; two workers of one GPU and, where the
host has them, two GPUs, count every mode as one GPU does, with each worker's
phases recorded; and the plan uses one GPU where a second does not pay."""

import networkx as nx
import numpy as np
import pytest

import nx_tricount
from nx_tricount.algorithms import base_costs, count_raw
from nx_tricount.execution import phases
from nx_tricount.gpu.peers import to_current_gpu
from nx_tricount.io.convert import from_networkx
from nx_tricount.io.generators import rmat_edges
from nx_tricount.metadata.catalog import ALGORITHMS
from nx_tricount.planning.memory import together_bytes
from nx_tricount.planning.spread import REPLICA_MIN_ROWS
from nx_tricount.preprocess import together
from nx_tricount.preprocess.prepare import prepare_undirected
from nx_tricount.preprocess.streamed import STREAMED
from nx_tricount.preprocess.together import prepare_together
from test_replicated import shares_sum
from test_together import ARRAYS

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


@pytest.mark.parametrize("mode", ["total", "per_node", "per_edge", "weighted"])
def test_queued_shares_add_into_one_output_that_settles_to_the_whole_count(edges, mode):
    from nx_tricount.algorithms.gpu_count import queued, settled
    from nx_tricount.algorithms.shares import work_shares

    src, dst, n = edges
    values = None
    if mode == "weighted":
        mode, values = "per_node", cupy.asarray(np.random.default_rng(2).uniform(0.1, 2.0, src.size))
    prepared = prepare_undirected(src, dst, n, orientation="id", ordering="degree", values=values)
    for algorithm in ALGORITHMS:
        parameters = {"total_layout": "inline"} if algorithm == "merge" and mode == "total" else {}
        whole = count_raw(prepared, algorithm, mode, "gpu", parameters)
        outputs = set()
        with queued():
            for share in work_shares(prepared, algorithm, 4):
                raw = count_raw(prepared, algorithm, mode, "gpu", parameters, share)
                assert isinstance(raw, cupy.ndarray)  # not read back
                outputs.add(raw.data.ptr)
        assert len(outputs) == 1, algorithm  # every share added into the first one's output
        if mode == "total":
            assert settled(raw, mode) == whole > 0
        elif values is not None:
            raw = settled(raw, mode)
            cupy.testing.assert_allclose(raw[0] + raw[1], whole[0] + whole[1], rtol=1e-12, atol=0)
        else:
            assert cupy.array_equal(settled(raw, mode), whole) and int(whole.sum()) > 0
    assert isinstance(count_raw(prepared, "wedge", "total", "gpu"), int)  # outside, read back


def test_the_gpu_holding_the_rows_takes_more_of_them_to_prepare_together(edges):
    from nx_tricount.preprocess.together import PULLED_ROW_COST, row_bounds

    src, dst, _ = edges
    m = src.size
    first = row_bounds(src, dst, (0, 1))
    assert first[0] == 0 and first[-1] == m
    assert abs((first[1] - first[0]) - PULLED_ROW_COST * (first[2] - first[1])) <= 2
    assert row_bounds(src, dst, (0, 0)) == [0, m // 2, m]  # both hold them
    assert row_bounds(src.get(), dst.get(), (0, 1)) == [0, m // 2, m]  # host memory


def test_gpu_weighted_shares_add_up(edges):
    src, dst, n = edges
    values = cupy.asarray(np.random.default_rng(1).uniform(0.1, 2.0, src.size))
    prepared = prepare_undirected(src, dst, n, orientation="id", ordering="degree", values=values)
    for algorithm in ALGORITHMS:
        whole = count_raw(prepared, algorithm, "per_node", "gpu")
        total = shares_sum(prepared, algorithm, "per_node", 3, "gpu")
        cupy.testing.assert_allclose(total[0] + total[1], whole[0] + whole[1], rtol=1e-12, atol=0)


def test_wedge_shares_are_cut_by_what_each_part_of_its_count_costs(edges):
    from nx_tricount.algorithms import base_costs
    from nx_tricount.algorithms.shares import vertex_costs
    from nx_tricount.algorithms.wedge import BITMAP_ROWS, HUB_NODE_WORDS, HUB_WORDS
    from nx_tricount.algorithms.wedge_hub import gpu_hub_prefix
    from nx_tricount.algorithms.wedge_layout import BASE_COSTS, gpu_layout

    src, dst, n = edges
    p = prepare_undirected(src, dst, n, orientation="id", ordering="degree")
    kernel_types = dict(vid=p.indices.dtype, weight=np.float64, eid=np.uint32)
    _, _, layout = gpu_layout(p, BITMAP_ROWS, kernel_types)
    indptr, indices, rows = p.indptr.get(), p.indices.get(), p.rows.get()
    d = np.diff(indptr).astype(np.float64)
    wedges = d * (d - 1) / 2
    k = np.bincount(rows[indices >= layout.first_row], minlength=n).astype(np.float64)
    for mode, hub_words in (("total", HUB_WORDS), ("per_node", HUB_NODE_WORDS)):
        hub_prefix, _ = gpu_hub_prefix(p, layout, hub_words, mode, kernel_types)
        hub = np.diff(hub_prefix.get()) < wedges
        bitmap_wedge, arc, hub_word = BASE_COSTS[mode]
        searched = wedges - k * (k - 1) / 2 + bitmap_wedge * k * (k - 1) / 2
        expected = arc * d + np.where(hub, hub_word * d * layout.words, searched)
        assert hub.any() and (k[~hub] > 1).any()  # every part of the cost is there
        np.testing.assert_allclose(base_costs(p, "wedge", mode, "gpu").get(), expected, rtol=1e-12)
    # Per edge the wedges and arcs alone, as on the CPU.
    per_edge = base_costs(p, "wedge", "per_edge", "gpu")
    assert cupy.array_equal(per_edge, vertex_costs(p, "wedge"))


def test_the_shares_of_a_count_build_the_wedge_bitmap_once(edges, monkeypatch):
    from nx_tricount.algorithms import wedge_layout
    from nx_tricount.algorithms.shares import SCRATCH, release_scratch

    built, build = [], wedge_layout.build_bitmap
    monkeypatch.setattr(wedge_layout, "build_bitmap", lambda *args: (built.append(1), build(*args)))
    src, dst, n = edges
    prepared = prepare_undirected(src, dst, n, orientation="id", ordering="degree")
    whole = count_raw(prepared, "wedge", "per_node", "gpu")
    assert built == [1] and SCRATCH not in prepared.derived  # a whole count keeps none
    assert cupy.array_equal(shares_sum(prepared, "wedge", "per_node", 5, "gpu"), whole)
    assert built == [1, 1] and SCRATCH in prepared.derived
    release_scratch(prepared)
    assert SCRATCH not in prepared.derived


def test_a_replicated_count_drops_its_share_scratch():
    from nx_tricount.algorithms.shares import SCRATCH

    T = nx_tricount.from_networkx(rmat12_graph())
    here = cupy.cuda.Device().id
    with nx.config.backends.tricount(devices=[here, here], regime="replicated"):
        nx.average_clustering(T, backend="tricount", device="gpu")
    graphs = [graph for graph in T._prepared.values() if hasattr(graph, "derived")]
    assert graphs and all(SCRATCH not in graph.derived for graph in graphs)


def _workers():
    """GPU ids for two workers: two GPUs where the host has them, else the current one twice."""
    here = cupy.cuda.Device().id
    return [here, 1 - here] if _gpus() > 1 and here < 2 else [here, here]


@pytest.mark.parametrize("orientation, ordering", sorted(STREAMED))
@pytest.mark.parametrize("edges_on", ["gpu", "host", "host, keyed in slices"])
def test_gpus_prepare_together_the_csr_one_gpu_prepares(edges, orientation, ordering, edges_on, monkeypatch):
    src, dst, n = edges
    whole = prepare_undirected(src, dst, n, orientation=orientation, ordering=ordering)
    if edges_on != "gpu":
        src, dst = cupy.asnumpy(src), cupy.asnumpy(dst)
    if edges_on == "host, keyed in slices":  # rows cross and are keyed 777 at a time
        monkeypatch.setattr(together, "KEYED_ROWS", 777)
    devices = _workers()
    copies = prepare_together(src, dst, n, orientation=orientation, ordering=ordering, devices=devices)
    assert whole.m > 0
    for g, (copy, device) in enumerate(zip(copies, devices)):
        assert copy.indptr.device.id == copy.indices.device.id == device
        for name in ARRAYS:
            ours, theirs = getattr(copy, name), getattr(whole, name)
            assert ours.dtype == theirs.dtype and cupy.array_equal(cupy.asarray(ours.get()), theirs), name
        assert (copy.perm is None) == (g > 0 or whole.perm is None)
        if copy.perm is not None:
            assert cupy.array_equal(copy.perm, whole.perm)


def _every_mode(G, devices, regime):
    with nx.config.backends.tricount(devices=devices, regime=regime), phases.collect() as records:
        results = (
            nx.triangles(G, backend="tricount", device="gpu"),
            nx.clustering(G, backend="tricount", device="gpu"),
            nx.transitivity(G, backend="tricount", device="gpu"),
            nx_tricount.edge_triangles(G, device="gpu"),
        )
    return results, records


def rmat12_graph():
    """R-MAT 12 as a NetworkX graph without its self-loops."""
    src, dst = rmat_edges(12, 16, seed=4)
    G = nx.Graph()
    G.add_edges_from(zip(src.tolist(), dst.tolist()))
    G.remove_edges_from(list(nx.selfloop_edges(G)))
    return G


def test_two_workers_of_one_gpu_count_as_one_gpu():
    G = rmat12_graph()
    here = cupy.cuda.Device().id
    whole, _ = _every_mode(G, "auto", "auto")
    shared, records = _every_mode(G, [here, here], "replicated")
    assert shared == whole
    workers = [r for r in records if isinstance(r["worker"], int)]
    assert {r["device"] for r in workers} == {here} and all(r["bytes"] == 0 for r in workers)


@pytest.mark.usefixtures("two_gpus")
def test_a_copy_that_fails_raises_its_error_and_no_worker_waits(monkeypatch):
    # The home GPU counts while the other's copy is made: the copy's error
    # reaches the caller, and nothing hangs.
    from nx_tricount.execution import replicas

    def failing_copy(*arguments):
        raise MemoryError("the copy failed")

    monkeypatch.setattr(replicas, "_moved", failing_copy)
    G = rmat12_graph()  # weighted: prepared on one GPU and copied to the other
    nx.set_edge_attributes(G, 2.0, "weight")
    here = cupy.cuda.Device().id
    settings = nx.config.backends.tricount(devices=[here, 1 - here], regime="replicated")
    with settings, pytest.raises(MemoryError, match="the copy failed"):
        nx.clustering(G, weight="weight", backend="tricount", device="gpu")


@pytest.mark.usefixtures("two_gpus")
def test_two_gpus_count_as_one_gpu():
    G = rmat12_graph()
    whole, _ = _every_mode(G, "auto", "auto")
    spread, records = _every_mode(G, "all", "replicated")
    assert spread == whole
    workers = [r for r in records if isinstance(r["worker"], int)]
    # Four counts, every GPU in each (its copy prepared with the others, or sent).
    assert sorted({r["device"] for r in workers}) == list(range(_gpus()))
    assert any(r["worker"] == "combine" for r in records)


@pytest.mark.usefixtures("two_gpus")
def test_the_other_gpus_derive_what_their_count_reads_while_the_shares_are_cut(monkeypatch):
    from nx_tricount.execution import replicas

    costed = []

    def recorded(graph, *arguments):
        costed.append(graph.indptr.device.id)
        return base_costs(graph, *arguments)

    monkeypatch.setattr(replicas, "base_costs", recorded)
    G = rmat12_graph()
    here = cupy.cuda.Device().id
    with nx.config.backends.tricount(devices="all", regime="replicated"), phases.collect() as records:
        transitivity = nx.transitivity(G, backend="tricount", device="gpu", algorithm="wedge")
    assert transitivity == pytest.approx(nx.transitivity(G), rel=1e-15)
    # The home GPU's costs cut the shares; each other GPU's, on its own copy, once.
    assert costed[0] == here and sorted(costed) == list(range(_gpus()))
    workers = [r for r in records if isinstance(r["worker"], int)]
    assert sum(r["shares"] for r in workers) == next(r["shares"] for r in records if r["worker"] == "all")


def test_the_gpus_prepare_an_unweighted_count_together_and_copy_a_weighted_one():
    G = rmat12_graph()
    nx.set_edge_attributes(G, {e: 1.0 + (sum(e) % 3) for e in G.edges}, "weight")
    here = cupy.cuda.Device().id
    devices = _workers()
    expected = (nx.transitivity(G), nx.clustering(G, weight="weight"))
    with nx.config.backends.tricount(devices=devices, regime="replicated"):
        plan = nx_tricount.make_plan(G, device="gpu", algorithm="wedge")
        assert plan.spread.prepared_together and "prepared together" in str(plan), plan
        with phases.collect() as unweighted:
            transitivity = nx.transitivity(G, backend="tricount", device="gpu", algorithm="wedge")
        with phases.collect() as weighted:
            clustering = nx.clustering(
                G, weight="weight", backend="tricount", device="gpu", algorithm="wedge"
            )
    assert transitivity == pytest.approx(expected[0], rel=1e-15)
    assert clustering == pytest.approx(expected[1], rel=1e-12)
    assert [r["devices"] for r in unweighted if r["worker"] == "prepare"] == [devices]
    assert [r["together"] for r in unweighted + weighted if r["worker"] == "plan"] == [True, False]
    # Prepared together, no GPU is sent a copy; a weighted count's graph is copied.
    assert all(r["bytes"] == 0 for r in unweighted if isinstance(r["worker"], int))
    others = [r["bytes"] for r in weighted if isinstance(r["worker"], int) and r["device"] != here]
    assert all(size > 0 for size in others) and (others or devices == [here, here])


def test_edges_on_a_gpu_are_prepared_together_and_count_as_one_gpu(edges):
    # The edge rows in GPU memory: the other workers read their shares from that
    # GPU, and no worker is sent a copy of the prepared graph.
    src, dst, _ = edges
    G = nx_tricount.from_edges(src, dst)
    devices = _workers()
    with nx.config.backends.tricount(devices=devices, regime="replicated"):
        plan = nx_tricount.make_plan(G, device="gpu", algorithm="wedge", total=True)
        assert plan.spread.prepared_together and "prepared together" in str(plan), plan
        with phases.collect() as records:
            transitivity = nx.transitivity(G, backend="tricount", device="gpu", algorithm="wedge")
            clustering = nx.average_clustering(G, backend="tricount", device="gpu", algorithm="wedge")
    whole = nx_tricount.from_edges(src, dst)
    assert transitivity == nx.transitivity(whole, backend="tricount", device="gpu") > 0
    assert clustering == pytest.approx(
        nx.average_clustering(whole, backend="tricount", device="gpu"), rel=1e-14
    )
    assert [r["devices"] for r in records if r["worker"] == "prepare"] == [devices]
    assert all(r["bytes"] == 0 for r in records if isinstance(r["worker"], int))


@pytest.mark.usefixtures("two_gpus")
def test_a_graph_over_one_gpu_is_replicated_when_the_gpus_prepare_it_together():
    # Under a memory limit its whole count does not fit, but each GPU's share of
    # preparing it together and its copy do: replicated, every mode as one GPU
    # counts it; a preprocessing the GPUs cannot share partitions it. (Workers
    # sharing one GPU hold as much there as its whole count: distinct GPUs only.)
    G = rmat12_graph()
    devices = _workers()
    limit = together_bytes(int(from_networkx(G).src.size), devices)
    whole, _ = _every_mode(G, "auto", "auto")
    with nx.config.backends.tricount(memory_limit=limit):
        plan = nx_tricount.make_plan(G, device="gpu", devices=devices)
        assert plan.spread.needs_together and plan.spread.prepared_together, plan
        assert plan.pipeline == "sorted", plan
        bitmap = nx_tricount.make_plan(G, device="gpu", devices=devices, algorithm="bitmap")
        assert bitmap.spread.regime == "partitioned" and "cannot prepare it together" in str(bitmap)
        shared, records = _every_mode(G, devices, "auto")
    assert shared == whole
    plans = [r for r in records if r["worker"] == "plan"]
    assert len(plans) >= 4 and all(r["regime"] == "replicated" and r["together"] for r in plans)


@pytest.mark.usefixtures("two_gpus")
def test_a_small_graph_counts_on_one_gpu_and_the_plan_says_why():
    plan = nx_tricount.make_plan(rmat12_graph(), device="gpu", devices="all")
    assert plan.spread.executor == "whole" and len(plan.spread.devices) == 1, plan
    assert f"(< {REPLICA_MIN_ROWS:,})" in str(plan)


@pytest.mark.usefixtures("two_gpus")
def test_peer_copies_reach_the_current_gpu():
    with cupy.cuda.Device(1):
        array = cupy.arange(10, dtype=np.int64)[::2]  # strided: made contiguous first
    with cupy.cuda.Device(0):
        copy = to_current_gpu(array)
        assert copy.device.id == 0 and copy.tolist() == [0, 2, 4, 6, 8]


@pytest.mark.parametrize("size", [0, 1, 3, 4, 5, 1000, 4099])
def test_a_gpu_pulls_arrays_of_any_length_as_they_are(size):
    # 16 bytes a step, then the tail; an unaligned view goes to the driver's copy.
    from nx_tricount.gpu.peers import pull_into

    here = cupy.cuda.Device().id
    source_gpu = 1 - here if _gpus() > 1 and here < 2 else here
    with cupy.cuda.Device(source_gpu):
        values = cupy.arange(size + 1, dtype=np.int32) * 7 - 3
        cupy.cuda.get_current_stream().synchronize()
    for array in (values[:size], values[1:]):  # aligned, then 4 bytes off
        target = cupy.empty(array.size, dtype=array.dtype)
        pull_into(target, array)
        assert target.device.id == here and target.tolist() == array.get().tolist()
