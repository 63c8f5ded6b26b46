"""The plan: the ``auto`` rule, the statistics it reads, every other decision
it records (pipeline, spread, executor, merge's total), and its explanations."""

import logging
from dataclasses import replace

import networkx as nx
import numpy as np
import pytest

import nx_tricount
from nx_tricount.classes import preparation
from nx_tricount.classes.preparation import (
    Statistics,
    id_span,
    mean_endpoint_degree,
    simple_graph,
    statistics,
)
from nx_tricount.gpu.device import gpu_available
from nx_tricount.io.edge_arrays import from_edges
from nx_tricount.io.generators import barabasi_albert_edges, grid_edges, rmat_edges
from nx_tricount.planning.plan import Plan, plan_for
from nx_tricount.planning.rules import (
    CPU_ORDERED_ROWS,
    CPU_ORDERED_SPAN,
    GPU_INLINE_ARCS,
    GPU_LOOK_ROWS,
    GPU_MIN_RESIDENT_ROWS,
    GPU_MIN_ROWS,
    GPU_WEDGE_SKEW,
    gpu_auto_algorithm,
)
from nx_tricount.planning.spread import Spread
from nx_tricount.preprocess import host_ops
from nx_tricount.preprocess.hashed_csr import HASHED_MAX_ROWS
from nx_tricount.quantities import per_vertex


def _statistics(skew):
    return lambda: skew


def _never():
    raise AssertionError("the statistics of a small graph were computed")


def _gpu_machine(requested):
    """``resolve_device`` on a GPU machine."""
    return "gpu" if requested != "cpu" else "cpu"


@pytest.fixture
def gpu_machine(monkeypatch):
    """A GPU machine for the plan (simulated: plans are made, nothing runs), with
    one GPU of a terabyte free."""
    monkeypatch.setattr("nx_tricount.planning.rules.resolve_device", _gpu_machine)
    monkeypatch.setattr("nx_tricount.planning.plan.free_memory", lambda: 1 << 40)
    monkeypatch.setattr("nx_tricount.planning.spread._gpu_ids", lambda devices: (0,))
    return monkeypatch


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


@pytest.mark.parametrize("skew,expected", [(GPU_WEDGE_SKEW, "wedge"), (GPU_WEDGE_SKEW - 1, "merge")])
def test_weighted_sums_on_skewed_graphs_choose_wedge(skew, expected):
    algorithm, reason = gpu_auto_algorithm(GPU_LOOK_ROWS, _statistics(skew), weighted=True)
    assert algorithm == expected and f"algorithm auto -> {expected}" in reason
    assert gpu_auto_algorithm(GPU_LOOK_ROWS - 1, _never, weighted=True)[0] == "merge"


def test_mean_endpoint_degree_by_hand():
    # Every endpoint of a cycle's rows occurs twice, whichever are drawn.
    cycle = from_edges(np.arange(7), (np.arange(7) + 1) % 7)
    calls = []
    assert mean_endpoint_degree(cycle, "cpu", lambda src, dst: calls.append(src.size + dst.size)) == 2.0
    assert calls == [14]  # meanwhile gets the rows the estimate read
    # A star 0-1, 0-2, 0-3 and an edge 2-3 given twice and once reversed, and a
    # self-loop: the rows' endpoints occur 3, 1, 4, 4 and 2 times, so every drawn
    # endpoint's count is one of these and the estimate lies between them.
    src, dst = np.array([0, 0, 0, 2, 3, 2, 4]), np.array([1, 2, 3, 3, 2, 3, 4])
    assert 1 <= mean_endpoint_degree(from_edges(src, dst, n=5), "cpu") <= 4
    assert mean_endpoint_degree(from_edges(src[:0], dst[:0], n=0), "cpu") == 0.0
    assert mean_endpoint_degree(from_edges(src[:0], dst[:0], n=3), "cpu") == 0.0


@pytest.mark.parametrize("counted_rows", [10**6, 999])
def test_sampled_degree_sum_counts_the_drawn_ids_in_the_counted_chunks(monkeypatch, counted_rows):
    # The drawn ids are looked up in a hash table: the counts are a sorted search's,
    # over every row or (a list above COUNTED_ROWS) every k-th chunk of them.
    monkeypatch.setattr(host_ops, "COUNTED_ROWS", counted_rows)
    rng = np.random.default_rng(5)
    src = (rng.zipf(1.6, 100_003) % 2**40).astype(np.int64)
    dst = rng.integers(0, 300, src.size)
    rows = host_ops._sample_rows(64, src.size)
    ids, multiplicity = np.unique(np.where(np.arange(64) & 1, dst[rows], src[rows]), return_counts=True)
    skip = host_ops.counted_chunk_skip(src.size)
    chunks = np.arange(src.size) // host_ops.SAMPLE_CHUNK
    counted = np.concatenate([src, dst])[np.tile(chunks % skip == 0, 2)]
    counts = np.array([(counted == i).sum() for i in ids])
    assert host_ops.sampled_degree_sum(src, dst, 64)() == skip * int(multiplicity @ counts) > 0
    assert (skip > 1) == (counted_rows < src.size)


def test_mean_endpoint_degree_reads_its_estimate_when_meanwhile_fails(monkeypatch):
    """Regression: the estimate was left unread when the work queued meanwhile
    raised; on the GPU its launch writes to pinned memory the reader keeps alive."""
    reads = []

    def sampled(src, dst, samples):
        return lambda: reads.append(samples) or 2 * samples

    def failing(src, dst):
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


def test_id_span_tells_ids_that_follow_the_graph_from_drawn_ones():
    assert id_span(from_edges(np.array([], dtype=np.int64), np.array([], dtype=np.int64), n=5)) == 0.0
    # Every row spans 3 of 10 ids, however many rows the draw repeats.
    assert id_span(from_edges(np.array([0, 2, 5]), np.array([3, 5, 8]), n=10)) == pytest.approx(0.3)
    grid = from_edges(*grid_edges(300, 300, 0.05, seed=1), n=300 * 300)
    assert id_span(grid) < CPU_ORDERED_SPAN  # 1/300: a row's neighbour below
    rmat = from_edges(*rmat_edges(16, seed=16), n=1 << 16)
    assert 0.2 < id_span(rmat) < 0.4


def test_large_cpu_graphs_with_drawn_ids_count_on_ascending_degree_ids():
    rng = np.random.default_rng(5)
    n, rows = 1 << 18, CPU_ORDERED_ROWS
    drawn = from_edges(rng.integers(0, n, rows), rng.integers(0, n, rows), n=n)
    plan = nx_tricount.make_plan(drawn, device="cpu")
    assert (plan.algorithm, plan.orientation, plan.ordering) == ("hash", "id", "degree")
    assert "ordering auto -> degree" in str(plan) and "ids span" in str(plan)
    # Only with both auto: a setting given keeps the other's designed value.
    assert (nx_tricount.make_plan(drawn, device="cpu", ordering="none").orientation) == "degree"
    assert (nx_tricount.make_plan(drawn, device="cpu", orientation="degree").ordering) == "none"
    merge = nx_tricount.make_plan(drawn, device="cpu", algorithm="merge")
    assert (merge.orientation, merge.ordering) == ("degree", "none")  # merge's own
    # Ids that follow the graph (a path numbered along it), and fewer rows, keep hash's own.
    path = np.arange(rows, dtype=np.int64) % (n - 1)
    local = nx_tricount.make_plan(from_edges(path, path + 1, n=n), device="cpu")
    assert (local.orientation, local.ordering) == ("degree", "none")
    fewer = from_edges(rng.integers(0, n, rows - 1), rng.integers(0, n, rows - 1), n=n)
    assert nx_tricount.make_plan(fewer, device="cpu").ordering == "none"


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


def test_auto_device_counts_small_graphs_on_the_cpu(gpu_machine):
    # On a GPU machine, device "auto" sends graphs under GPU_MIN_ROWS edge rows
    # to the CPU engine, and says why.
    small = nx_tricount.make_plan(nx.karate_club_graph())
    assert small.device == "cpu" and "device auto -> cpu: 78 edge rows" in str(small)
    src, dst = rmat_edges(11, seed=1)
    assert src.size >= GPU_MIN_ROWS
    large = nx_tricount.make_plan(from_edges(src, dst), algorithm="merge")
    assert large.device == "gpu" and "device auto -> gpu" in str(large)
    # An explicit device is kept.
    assert nx_tricount.make_plan(nx.karate_club_graph(), device="gpu", algorithm="merge").device == "gpu"


def _resident(G):
    """``G``'s statistics as if its edge rows were in GPU memory."""
    return replace(statistics(G), resident=True)


def test_auto_device_counts_small_graphs_in_gpu_memory_on_the_gpu(gpu_machine):
    # Edge rows already in GPU memory stay on the GPU from GPU_MIN_RESIDENT_ROWS,
    # which prepares them without sorts; below it the CPU engine counts them, and
    # the plan says where the rows were.
    src, dst = rmat_edges(7, seed=1)
    assert GPU_MIN_RESIDENT_ROWS <= src.size < GPU_MIN_ROWS
    assert plan_for(_resident(from_edges(src, dst)), algorithm="merge").device == "gpu"
    few = GPU_MIN_RESIDENT_ROWS - 1
    tiny = plan_for(_resident(from_edges(src[:few], dst[:few])), algorithm="merge")
    assert tiny.device == "cpu" and f"rows in GPU memory (< {GPU_MIN_RESIDENT_ROWS:,})" in str(tiny)
    # An undirected total (transitivity) stays on the GPU at any size; a directed one does not.
    undirected = _resident(from_edges(src[:few], dst[:few]))
    assert plan_for(undirected, algorithm="merge", total=True).device == "gpu"
    directed = _resident(from_edges(src[:few], dst[:few], directed=True))
    assert plan_for(directed, algorithm="merge", total=True).device == "cpu"


def test_auto_counts_directed_graphs_with_merge_on_the_gpu(gpu_machine):
    # Merge counts directed transitivity on the arc pairs (docs/benchmarks.md),
    # whatever the degrees.
    gpu_machine.setattr("nx_tricount.planning.rules.GPU_LOOK_ROWS", 1)  # the skew rule would say wedge
    gpu_machine.setattr(preparation, "mean_endpoint_degree", lambda G, device, meanwhile: 10 * GPU_WEDGE_SKEW)
    src, dst = rmat_edges(11, seed=1)
    directed = nx_tricount.make_plan(from_edges(src, dst, directed=True))
    assert directed.algorithm == "merge" and "transitive triples" in str(directed)
    # Directed clustering sums the values of the graph's arc pairs, oriented by degree.
    pairs = nx_tricount.make_plan(from_edges(src, dst, directed=True), weighted=True)
    assert pairs.algorithm == "wedge" and "sums of arc values" in str(pairs)


def test_a_directed_total_of_merge_on_the_gpu_is_ordered_by_degree(gpu_machine):
    # Transitivity credits no vertex: ascending-degree ids let each arc's merge
    # start after it. A count per node keeps merge's designed ordering, and so
    # does the CPU engine.
    src, dst = rmat_edges(11, seed=1)
    G = from_edges(src, dst, directed=True)
    total = nx_tricount.make_plan(G, algorithm="merge", total=True)
    assert (total.orientation, total.ordering) == ("degree", "degree")
    assert "ordering auto -> degree: a directed transitivity's merge" in str(total)
    assert nx_tricount.make_plan(G, algorithm="merge").ordering == "none"
    assert nx_tricount.make_plan(G, algorithm="merge", device="cpu", total=True).ordering == "none"
    assert nx_tricount.make_plan(G, algorithm="merge", ordering="none", total=True).ordering == "none"


def test_the_plan_reads_the_endpoint_degree_only_for_large_gpu_graphs(gpu_machine):
    # The one statistic that costs a launch is read by the GPU rule alone, once per
    # graph and device, and an unweighted count queues its simple graph meanwhile.
    asked = []

    def sampled(G, device, meanwhile):
        asked.append((device, meanwhile is not None))
        return 1.0

    gpu_machine.setattr(preparation, "mean_endpoint_degree", sampled)
    src, dst = rmat_edges(11, seed=1)
    G = from_edges(src, dst)
    for device in ("cpu", "gpu", "auto"):
        nx_tricount.make_plan(G, device=device)
    nx_tricount.make_plan(G, device="gpu", algorithm="wedge")
    assert asked == []  # below GPU_LOOK_ROWS, or no auto algorithm
    gpu_machine.setattr("nx_tricount.planning.rules.GPU_LOOK_ROWS", 1)
    assert nx_tricount.make_plan(G, device="gpu").algorithm == "merge"
    assert nx_tricount.make_plan(G, device="gpu").algorithm == "merge"
    assert asked == [("gpu", True)]
    nx_tricount.make_plan(from_edges(src, dst), device="gpu", weighted=True)
    assert asked[1:] == [("gpu", False)]


def test_make_plan_converts_a_networkx_graph_before_it_decides():
    G = nx.karate_club_graph()
    assert nx_tricount.make_plan(G) == nx_tricount.make_plan(nx_tricount.from_networkx(G))
    assert plan_for(statistics(None)) == nx_tricount.make_plan()


def test_the_plan_chooses_the_preparation_pipeline(gpu_machine):
    # One launch without sorts for a small unweighted undirected graph prepared on
    # the GPU, degree oriented on its own ids; the sorting pipeline for the rest.
    src, dst = rmat_edges(11, seed=1)
    G = from_edges(src, dst)
    assert GPU_MIN_ROWS <= src.size <= HASHED_MAX_ROWS
    plan = nx_tricount.make_plan(G)
    assert (plan.device, plan.algorithm, plan.pipeline) == ("gpu", "merge", "hashed")
    assert "pipeline hashed" in str(plan) and "pipeline=hashed" in str(plan).splitlines()[0]
    for sorted_plan in (
        nx_tricount.make_plan(G, weighted=True),
        nx_tricount.make_plan(G, orientation="id"),
        nx_tricount.make_plan(G, device="cpu"),
        nx_tricount.make_plan(from_edges(src, dst, directed=True)),
        nx_tricount.make_plan(from_edges(*rmat_edges(14, seed=1)), algorithm="merge"),
    ):
        assert sorted_plan.pipeline == "sorted", sorted_plan
    with pytest.raises(ValueError, match="hashed pipeline prepares on the GPU"):
        Plan("merge", "degree", "none", "gpu", pipeline="hashed")


def test_the_plan_chooses_merges_total(gpu_machine):
    # Fused into the hashed launch for a whole undirected total; the inline layout
    # from GPU_INLINE_ARCS arcs a count (edge rows, or about 3 rows / p² a task) whose
    # arcs go to higher ids; the CSR otherwise; nothing for other algorithms or the CPU.
    src, dst = rmat_edges(11, seed=1)
    G = from_edges(src, dst)
    fused = nx_tricount.make_plan(G, total=True)
    assert fused.merge_total == "fused" and "merge_total=fused" in str(fused)
    assert nx_tricount.make_plan(G).merge_total == "csr"
    assert nx_tricount.make_plan(G, total=True, partitions=2).merge_total == "csr"
    assert nx_tricount.make_plan(G, total=True, algorithm="hash").merge_total is None
    assert nx_tricount.make_plan(G, total=True, device="cpu").merge_total is None
    large = Statistics(rows=GPU_INLINE_ARCS, n=1 << 20)
    ascending = dict(device="gpu", algorithm="merge", orientation="id", ordering="degree")
    inline = plan_for(large, total=True, **ascending)
    assert inline.merge_total == "inline" and ("total_layout", "inline") in inline.parameters
    assert plan_for(large, device="gpu", algorithm="merge", total=True).merge_total == "csr"  # degree, none
    smaller = replace(large, rows=GPU_INLINE_ARCS - 1)
    assert plan_for(smaller, **ascending).merge_total == "csr"
    parted = plan_for(large, partitions=2, **ascending)
    assert parted.merge_total == "csr" and parted.parameters == ()
    with pytest.raises(ValueError, match="merge_total 'rows'"):
        Plan("merge", "degree", "none", "gpu", merge_total="rows")


def test_the_plan_chooses_streaming_from_the_count_it_plans():
    # A graph that does not fit whole is prepared in chunks straight into its parts
    # when the count starts from the unweighted undirected simple graph and its
    # preprocessing needs only the degrees; the plan says so.
    src, dst = rmat_edges(10, 8, seed=1)
    G = from_edges(src, dst)
    limit = dict(memory_limit=64 * src.size - 1)
    streamed = nx_tricount.make_plan(G, device="cpu", **limit)
    assert streamed.spread.streamed and streamed.spread.executor == "serial"
    assert "prepared in chunks straight into its parts" in str(streamed)
    assert not nx_tricount.make_plan(G, device="cpu", weighted=True, **limit).spread.streamed
    assert not nx_tricount.make_plan(G, device="cpu", ordering="a-order", **limit).spread.streamed
    directed = from_edges(src, dst, directed=True)
    assert not nx_tricount.make_plan(directed, device="cpu", **limit).spread.streamed
    assert not nx_tricount.make_plan(G, device="cpu").spread.streamed


def test_a_spread_of_parts_cannot_run_whole():
    with pytest.raises(ValueError, match="runs its tasks"):
        Spread(parts=2)
    with pytest.raises(ValueError, match="executor 'threads'"):
        Spread(executor="threads")
    assert Spread(parts=2, executor="serial").parts == 2


def test_preparation_builds_the_plans_pipeline_only_where_it_can():
    G = from_edges(np.array([0, 1]), np.array([1, 2]))
    with pytest.raises(ValueError, match="unweighted graphs on the GPU"):
        preparation.oriented_csr(G, "degree", "none", "cpu", pipeline="hashed")
    with pytest.raises(ValueError, match="unweighted graphs on the GPU"):
        preparation.oriented_csr(G, "degree", "none", "gpu", "weight", pipeline="hashed")
    # A plan that streams the unweighted graph is no plan for a weighted count.
    streamed = Plan("hash", "degree", "none", "cpu", spread=Spread(parts=2, executor="serial", streamed=True))
    with pytest.raises(ValueError, match="make_plan\\(G, weighted=True\\)"):
        per_vertex.clustering_terms(G, streamed, "weight", slice(None))


def test_transitivity_reads_what_the_hashed_launch_returns(monkeypatch):
    # The hashed pipeline's launch returns the CSR with sum d (d - 1) and, when the
    # plan fuses merge's total, the triangles: transitivity takes them from that
    # result (simulated here on the host, as the GPU test of the launch checks it).
    from nx_tricount.algorithms import count
    from nx_tricount.preprocess import HashedCSR, prepare_undirected

    built = []

    def hashed_csr(G, device, *, count_triangles=False):
        prepared = prepare_undirected(G.src, G.dst, G.n, orientation="degree", ordering="none")
        triangles = count(prepared, "merge", "total").total if count_triangles else None
        pair_sum = int((prepared.degree * (prepared.degree - 1)).sum())
        built.append(count_triangles)
        return HashedCSR(prepared, pair_sum, triangles)

    def no_count(*args):
        raise AssertionError("the fused total was counted again")

    monkeypatch.setattr(preparation, "hashed_csr", hashed_csr)
    H = nx.karate_club_graph()
    G = nx_tricount.from_networkx(H)
    spread = Spread(preparation_device="gpu")  # on the host here: only the fields are read
    fused = Plan("merge", "degree", "none", "cpu", spread=spread, pipeline="hashed", merge_total="fused")
    with monkeypatch.context() as patched:
        patched.setattr(per_vertex, "run", no_count)
        closed, triads = per_vertex.transitivity_sums(G, fused)
    assert closed / triads == nx.transitivity(H) and built == [True]
    counted = Plan("hash", "degree", "none", "cpu", spread=spread, pipeline="hashed")
    assert per_vertex.transitivity_sums(G, counted) == (closed, triads) and built == [True, False]


def test_small_graphs_run_numba_on_one_thread():
    import numba

    from nx_tricount.gpu.device import HOST_SERIAL_ROWS, host_threads

    before = numba.get_num_threads()
    with host_threads(HOST_SERIAL_ROWS - 1):
        assert numba.get_num_threads() == 1
    assert numba.get_num_threads() == before
    with host_threads(HOST_SERIAL_ROWS):
        assert numba.get_num_threads() == before


def test_a_parallel_call_after_a_rest_wakes_an_idle_core_first(monkeypatch):
    import time
    from types import SimpleNamespace

    from nx_tricount.gpu import device

    started = []

    def start_new_thread(function, args):  # the call does not wait for the thread
        started.append((function, args))

    monkeypatch.setattr(device, "_thread", SimpleNamespace(start_new_thread=start_new_thread))
    monkeypatch.setattr(device, "_last_parallel_end", -float("inf"))
    with device.host_threads(device.HOST_SERIAL_ROWS - 1):  # one thread: none to wake
        pass
    assert started == []
    with device.host_threads(device.HOST_SERIAL_ROWS):
        pass
    with device.host_threads(device.HOST_SERIAL_ROWS):  # right after: the cores are awake
        pass
    assert len(started) == 1
    monkeypatch.setattr(device, "_last_parallel_end", time.perf_counter() - 2 * device.REST_S)
    with device.host_threads(device.HOST_SERIAL_ROWS):
        pass
    assert len(started) == 2


@pytest.mark.parametrize("rows", [100, 60_000])
def test_a_call_on_a_small_graph_counts_on_one_thread_and_restores_the_threads(monkeypatch, rows):
    # Below HOST_SERIAL_ROWS the call's parallel code sees one thread; after the
    # call (and after a failing call) numba has its threads back.
    import numba

    from nx_tricount.algorithms import hash as hashing
    from nx_tricount.gpu.device import HOST_SERIAL_ROWS

    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba has one thread on this machine: nothing to restrict")
    before = numba.get_num_threads()
    seen = []
    counted = hashing.count_cpu

    def spy(*args, **kwargs):
        seen.append(numba.get_num_threads())
        return counted(*args, **kwargs)

    monkeypatch.setattr(hashing, "count_cpu", spy)
    rng = np.random.default_rng(rows)
    src, dst = rng.integers(0, 2000, size=(2, rows))
    G = from_edges(src, dst)
    expected = nx.triangles(nx.Graph(zip(src.tolist(), dst.tolist())))
    got = nx_tricount.triangles(G, algorithm="hash", device="cpu")
    assert got == {v: expected.get(v, 0) for v in range(G.n)}
    assert seen == [1 if rows < HOST_SERIAL_ROWS else before]
    assert numba.get_num_threads() == before

    def failing(*args, **kwargs):
        raise RuntimeError("the count failed")

    monkeypatch.setattr(hashing, "count_cpu", failing)
    with pytest.raises(RuntimeError, match="the count failed"):
        nx_tricount.triangles(from_edges(src, dst), algorithm="hash", device="cpu")
    assert numba.get_num_threads() == before
