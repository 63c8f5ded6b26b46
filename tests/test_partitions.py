"""Partitioned counting (2D partitions, hashed and by ranges, p³ tasks) equals
the whole count: every algorithm and mode against the unpartitioned engine, every
NetworkX function through the backend with ``partitions`` set, the vertex
classes, the settings' checks, and the memory limit's choice of parts."""

import dataclasses

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import nx_tricount
from conftest import SMALL_DATASETS, load_edges
from graphs import directed_graphs, weighted_graphs
from nx_tricount.algorithms import count
from nx_tricount.execution.execute import _on_host, run
from nx_tricount.io.generators import rmat_edges
from nx_tricount.metadata.config import CHOICES, memory_bytes
from nx_tricount.planning.memory import (
    WHOLE_BYTES_PER_ROW,
    largest_task_bytes,
    split_bytes,
    task_bytes,
    whole_bytes,
)
from nx_tricount.planning.plan import Plan
from nx_tricount.planning.spread import UNREAD_LIMIT_BYTES, Spread, decide
from nx_tricount.preprocess import STREAMED, prepare_arcs, prepare_streamed, prepare_undirected
from nx_tricount.preprocess.partition import VertexClasses, counted_tasks, split, task_graph

ALGORITHMS = [a for a in CHOICES["algorithm"] if a != "auto"]
PREPROCESSING = [("degree", "none"), ("id", "degree"), ("a-direction", "a-order"), ("degree", "collective")]


@pytest.fixture(autouse=True)
def _no_conversion_cache():
    with nx.config(cache_converted_graphs=False):
        yield


def _plan(algorithm, orientation, ordering, parts, scheme="hashed"):
    """A plan that counts in the tasks of ``parts`` per side (one task for one part)."""
    spread = Spread(parts=parts, scheme=scheme, executor="serial")
    return Plan(algorithm, orientation, ordering, "cpu", spread=spread)


@pytest.fixture(scope="module")
def rmat():
    src, dst = rmat_edges(10, 8, seed=1)
    values = np.random.default_rng(0).random(src.size)
    return src, dst, 1 << 10, values


@pytest.mark.parametrize("scheme", ["hashed", "range"])
@pytest.mark.parametrize("orientation,ordering", PREPROCESSING)
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_mode_equals_the_whole_count(rmat, algorithm, orientation, ordering, scheme):
    src, dst, n, values = rmat
    prepared = prepare_undirected(src, dst, n, orientation=orientation, ordering=ordering)
    weighted = prepare_undirected(src, dst, n, orientation=orientation, ordering=ordering, values=values)
    whole = {mode: count(prepared, algorithm, mode) for mode in ("total", "per_node", "per_edge")}
    whole_weighted = count(weighted, algorithm, "per_node").per_node
    for parts in (1, 2, 3, 4, 5):
        plan = _plan(algorithm, orientation, ordering, parts, scheme)
        assert run(plan, prepared, "total").total == whole["total"].total
        np.testing.assert_array_equal(run(plan, prepared, "per_node").per_node, whole["per_node"].per_node)
        per_edge = run(plan, prepared, "per_edge")
        np.testing.assert_array_equal(per_edge.per_edge, whole["per_edge"].per_edge)
        np.testing.assert_array_equal(per_edge.edge_src, whole["per_edge"].edge_src)
        # Compensated on both sides: equal to the last bit but for the final roundings.
        np.testing.assert_allclose(run(plan, weighted, "per_node").per_node, whole_weighted, rtol=4e-16)


@pytest.mark.parametrize("scheme", ["hashed", "range"])
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_directed_arcs_as_given(algorithm, scheme):
    # Arcs with 2-cycles and 3-cycles: every transitive triple has one task.
    rng = np.random.default_rng(4)
    src, dst = rng.integers(0, 60, 700), rng.integers(0, 60, 700)
    prepared = prepare_arcs(src, dst, 60)
    whole = count(prepared, algorithm, "total").total
    for parts in (2, 3, 5):
        assert run(_plan(algorithm, "arcs", "none", parts, scheme), prepared, "total").total == whole


def test_tasks_share_out_the_triangles(rmat):
    # Each task's own count, and the sizes of its blocks.
    src, dst, n, _ = rmat
    prepared = prepare_undirected(src, dst, n, orientation="degree", ordering="none")
    partition = split(prepared, 3)
    assert sum(part[2].size for part in partition.parts.values()) == prepared.m
    totals = []
    for i in range(3):
        for j in range(3):
            for k in range(3):
                graph = task_graph(partition, i, j, k)
                assert graph.sizes == tuple(partition.classes.size(c) for c in (i, j, k))
                assert graph.prepared.ascending
                assert bool((graph.prepared.rows < graph.prepared.indices).all())
                totals.append(count(graph.prepared, "merge", "total").total)
    assert sum(totals) == count(prepared, "merge", "total").total
    assert min(totals) > 0  # R-MAT's triangles spread over every class pattern


@pytest.mark.parametrize("scheme", ["hashed", "range"])
@pytest.mark.parametrize("orientation,ordering", [*PREPROCESSING, ("arcs", "none")])
def test_task_graphs_merged_from_ordered_parts_equal_sorted_ones(rmat, orientation, ordering, scheme):
    # Parts split from a CSR are in its order, and their task graph is merged
    # without a sort: the same CSR, values and arc positions as sorting gives.
    src, dst, n, values = rmat
    if orientation == "arcs":
        prepared = prepare_arcs(src, dst, n)
    else:
        prepared = prepare_undirected(src, dst, n, orientation=orientation, ordering=ordering, values=values)
    partition = split(prepared, 3, scheme)
    assert partition.in_csr_order and _on_host(partition).in_csr_order  # as several GPUs and Dask get it
    unordered = dataclasses.replace(partition, in_csr_order=False)
    for i, j, k in [(0, 1, 2), (2, 1, 0), (1, 1, 1), (0, 0, 2), (2, 2, 0)]:
        for with_arcs in (False, True):
            merged = task_graph(partition, i, j, k, with_arcs=with_arcs)
            ordered = task_graph(unordered, i, j, k, with_arcs=with_arcs)
            for name in ("indptr", "indices", "rows", "values"):
                ours, theirs = getattr(merged.prepared, name), getattr(ordered.prepared, name)
                assert (ours is None) == (theirs is None)
                if ours is not None:
                    np.testing.assert_array_equal(ours, theirs)
                    assert ours.dtype == theirs.dtype
            if with_arcs:
                np.testing.assert_array_equal(merged.arcs, ordered.arcs)


def test_ranges_leave_only_the_ascending_tasks(rmat):
    # Where every arc goes to a higher id, ranges of ids leave P_ab empty for
    # a > b: only the tasks i <= j <= k are counted, and they hold every triangle.
    src, dst, n, _ = rmat
    prepared = prepare_undirected(src, dst, n, orientation="id", ordering="degree")
    partition = split(prepared, 4, "range")
    assert all(part[0].size == 0 for (a, b), part in partition.parts.items() if a > b)
    tasks = counted_tasks(partition, _plan("merge", "id", "degree", 4, "range").tasks)
    assert {(t.i, t.j, t.k) for t in tasks} <= {
        (i, j, k) for i in range(4) for j in range(i, 4) for k in range(j, 4)
    }
    assert len(tasks) > 1
    totals = [count(task_graph(partition, t.i, t.j, t.k).prepared, "merge", "total").total for t in tasks]
    assert sum(totals) == count(prepared, "merge", "total").total
    # The ranges hold about equal degree sums.
    classes, degree = partition.classes, prepared.degree
    sums = [int(degree[classes.members(c)].sum()) for c in range(4)]
    assert max(sums) - min(sums) <= 2 * int(degree.max())


@pytest.mark.parametrize("scheme", ["hashed", "range"])
@pytest.mark.parametrize("keep", [False, True])
@pytest.mark.parametrize("orientation,ordering", sorted(STREAMED))
@pytest.mark.parametrize("parts", [1, 2, 3])
def test_prepared_in_chunks_equals_prepared_whole(rmat, orientation, ordering, parts, keep, scheme):
    # The chunked preparation (on the CPU here, on the GPU for graphs beyond its
    # memory) gives the same graph: the same counts in every mode, the same degrees.
    src, dst, n, _ = rmat
    whole = prepare_undirected(src, dst, n, orientation=orientation, ordering=ordering)
    chunked = prepare_streamed(
        src,
        dst,
        n,
        orientation=orientation,
        ordering=ordering,
        parts=parts,
        scheme=scheme,
        chunk_rows=1000,
        device="cpu",
        keep=keep,
    )
    assert chunked.partition.classes.scheme == scheme and chunked.partition.in_csr_order
    for local_u, local_v, _, _ in chunked.partition.parts.values():
        keys = local_u.astype(np.int64) * n + local_v
        assert (np.diff(keys) > 0).all()  # sorted, so task graphs are merged, not sorted
    assert chunked.m == whole.m
    np.testing.assert_array_equal(
        chunked.to_original_vertices(chunked.degree), whole.to_original_vertices(whole.degree)
    )
    plan = _plan("merge", orientation, ordering, parts, scheme)
    assert run(plan, chunked, "total").total == count(whole, "merge", "total").total
    np.testing.assert_array_equal(
        run(plan, chunked, "per_node").per_node, count(whole, "merge", "per_node").per_node
    )
    # Per edge: the same support on the same arcs, in another order.
    ours, theirs = run(plan, chunked, "per_edge"), count(whole, "merge", "per_edge")
    assert sorted(zip(ours.edge_src.tolist(), ours.edge_dst.tolist(), ours.per_edge.tolist())) == sorted(
        zip(theirs.edge_src.tolist(), theirs.edge_dst.tolist(), theirs.per_edge.tolist())
    )


@pytest.mark.parametrize("orientation,ordering", [("degree", "none"), ("id", "degree")])
def test_a_memory_limit_prepares_the_graph_straight_into_its_parts(rmat, orientation, ordering):
    # nx.transitivity of a graph prepared in parts from host memory raised
    # AttributeError ('PartitionedGraph' object has no attribute 'derived'):
    # its pair sum was read as a whole CSR's. The CPU engine prepares it so too.
    src, dst, n, _ = rmat
    G = nx_tricount.from_edges(src, dst, n=n)
    H = nx.Graph()
    H.add_nodes_from(range(n))
    H.add_edges_from(zip(src.tolist(), dst.tolist()))
    H.remove_edges_from(nx.selfloop_edges(H))
    limit = whole_bytes(src.size) - 1  # the whole count just over it
    settings = dict(memory_limit=limit, orientation=orientation, ordering=ordering)
    spread = nx_tricount.make_plan(G, device="cpu", total=True, **settings).spread
    assert spread.parts > 1 and spread.prepared_in_parts
    with nx.config.backends.tricount(**settings):
        assert nx.transitivity(G, backend="tricount", device="cpu") == nx.transitivity(H)
        assert nx.triangles(G, backend="tricount", device="cpu") == nx.triangles(H)
        assert nx.average_clustering(G, backend="tricount", device="cpu") == nx.average_clustering(H)

    def prepared_again():
        raise AssertionError("the graph was not prepared into its parts")

    key = ("partitioned", orientation, ordering, spread.parts, spread.scheme, "cpu")
    assert G.cached(key, prepared_again).partition.p == spread.parts


def test_hashed_classes():
    assert [VertexClasses(3, 10).size(c) for c in range(3)] == [4, 3, 3]
    assert [VertexClasses(4, 2).size(c) for c in range(4)] == [1, 1, 0, 0]
    assert sum(VertexClasses(7, 1001).size(c) for c in range(7)) == 1001


@pytest.mark.parametrize(
    "degree,p",
    [
        ([3, 1, 4, 1, 5, 9, 2, 6, 5, 3], 3),
        ([0] * 5, 2),  # no edges: every vertex in the first class
        ([1, 1], 4),  # more classes than vertices: some empty
        ([100, 1, 1, 1, 1], 3),  # a hub heavier than a class's share
        ([7], 1),
        ([], 3),  # no vertices
    ],
)
def test_range_classes(degree, p):
    _check_range_classes(np.array(degree, dtype=np.int64), p)


@settings(deadline=None, max_examples=300)
@given(arrays(np.int64, st.integers(0, 40), elements=st.integers(0, 30)), st.integers(1, 8))
def test_range_classes_of_any_degrees(degree, p):
    _check_range_classes(degree, p)


def _check_range_classes(degree, p):
    # Ranges cover 0 .. n - 1 in order; of, local and global_ids agree; each
    # class passes its share of the degree sum by less than one vertex.
    n = degree.size
    classes = VertexClasses.ranges(degree, p)
    assert classes.scheme == "range" and classes.starts[0] == 0 and classes.starts[-1] == n
    assert list(classes.starts) == sorted(classes.starts) and len(classes.starts) == p + 1
    assert sum(classes.size(c) for c in range(p)) == n
    v = np.arange(n, dtype=np.int32)
    of = classes.of(v)
    for c in range(p):
        members = v[classes.members(c)]
        assert (of[members] == c).all()
        local = classes.local(members, c)
        np.testing.assert_array_equal(local, np.arange(members.size))
        np.testing.assert_array_equal(classes.local(members, of[members]), local)
        np.testing.assert_array_equal(classes.global_ids(local.astype(np.int64), c), members)
    share = degree.sum() / p
    for c in range(p):
        block = degree[classes.members(c)]
        assert block.sum() <= np.ceil(share) + (block[0] if block.size else 0)


def test_an_unknown_partitioning_is_refused():
    with pytest.raises(ValueError, match="unknown partitioning 'modulo'"):
        VertexClasses.of_scheme("modulo", 2, 10, None)


@pytest.mark.parametrize("name", SMALL_DATASETS)
def test_data_graphs_through_networkx(name):
    # Every counting function on every test graph, 1 to 5 parts per side, hashed
    # and by ranges, on the default preprocessing and on ascending ids (where
    # ranges skip tasks): the unpartitioned answer.
    src, dst = load_edges(name)
    G = nx_tricount.from_edges(src, dst)
    functions = (nx.triangles, nx.clustering, nx.average_clustering, nx.transitivity)
    expected = [f(G, backend="tricount", device="cpu") for f in functions]
    for parts in (1, 2, 3, 4, 5):
        for partitioning in ("hashed", "range"):
            for preprocessing in ({}, {"orientation": "id", "ordering": "degree"}):
                chosen = dict(partitions=parts, partitioning=partitioning, **preprocessing)
                with nx.config.backends.tricount(**chosen):
                    ours = [f(G, backend="tricount", device="cpu") for f in functions]
                assert ours == expected, (parts, partitioning, preprocessing)


@pytest.mark.parametrize("partitioning", ["hashed", "range"])
@pytest.mark.parametrize("parts", [2, 4])
@pytest.mark.parametrize("graph", sorted(weighted_graphs()))
def test_every_function_weighted(graph, parts, partitioning):
    G = weighted_graphs()[graph]
    expected = {
        "triangles": nx.triangles(G, backend="tricount", device="cpu"),
        "clustering": nx.clustering(G, weight="weight", backend="tricount", device="cpu"),
        "average": nx.average_clustering(G, weight="weight", backend="tricount", device="cpu"),
        "transitivity": nx.transitivity(G, backend="tricount", device="cpu"),
    }
    with nx.config.backends.tricount(partitions=parts, partitioning=partitioning):
        assert nx.triangles(G, backend="tricount", device="cpu") == expected["triangles"]
        ours = nx.clustering(G, weight="weight", backend="tricount", device="cpu")
        assert ours.keys() == expected["clustering"].keys()
        for v, c in ours.items():
            assert c == pytest.approx(expected["clustering"][v], rel=1e-15, abs=1e-300)
        assert nx.average_clustering(G, weight="weight", backend="tricount", device="cpu") == pytest.approx(
            expected["average"], rel=1e-15
        )
        assert nx.transitivity(G, backend="tricount", device="cpu") == expected["transitivity"]


@pytest.mark.parametrize("partitioning", ["hashed", "range"])
@pytest.mark.parametrize("parts", [2, 3])
@pytest.mark.parametrize("graph", sorted(directed_graphs()))
def test_every_function_directed(graph, parts, partitioning):
    G = directed_graphs()[graph]
    expected = (
        nx.clustering(G, backend="tricount", device="cpu"),
        nx.transitivity(G, backend="tricount", device="cpu"),
    )
    with nx.config.backends.tricount(partitions=parts, partitioning=partitioning):
        assert nx.clustering(G, backend="tricount", device="cpu") == expected[0]
        assert nx.transitivity(G, backend="tricount", device="cpu") == expected[1]


def test_partitions_in_the_plan_and_at_info(caplog):
    G = nx.karate_club_graph()
    plan = nx_tricount.make_plan(G, device="cpu", partitions=3)
    assert plan.spread.parts == 3 and len(plan.tasks) == 27
    assert "partitions=3 partitioning=hashed tasks=27" in str(plan)
    with caplog.at_level("INFO", logger="nx_tricount"), nx.config.backends.tricount(partitions=3):
        nx.triangles(G, backend="tricount", device="cpu")
    assert any(
        "27 tasks of 3 parts per side (hashed partition, 0 without triangles skipped" in r.getMessage()
        for r in caplog.records
    )
    plan = nx_tricount.make_plan(G, device="cpu", partitions=3, partitioning="range", orientation="id")
    assert plan.spread.scheme == "range" and "partitioning range: configured" in str(plan)
    caplog.clear()
    with (
        caplog.at_level("INFO", logger="nx_tricount"),
        nx.config.backends.tricount(partitions=3, partitioning="range", orientation="id"),
    ):
        nx.triangles(G, backend="tricount", device="cpu")
    [message] = [r.getMessage() for r in caplog.records if "parts per side" in r.getMessage()]
    assert "of 3 parts per side (range partition, " in message
    assert int(message.split()[1]) <= 10  # the tasks i <= j <= k at most


def test_a_task_over_the_memory_limit_is_reported(caplog):
    # R-MAT 26 under 24 GB with partitions=4, range: its largest task took
    # CuPy's pool past the limit, and nothing said so.
    G = nx.karate_club_graph()
    with (
        caplog.at_level("WARNING", logger="nx_tricount"),
        nx.config.backends.tricount(partitions=2, partitioning="range", memory_limit="1KB"),
    ):
        assert nx.triangles(G, backend="tricount", device="cpu") == nx.triangles(G)
    [message] = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert "the largest of the" in message and "over the memory limit of 1,000" in message
    caplog.clear()
    with (
        caplog.at_level("WARNING", logger="nx_tricount"),
        nx.config.backends.tricount(partitions=2, memory_limit="1GB"),
    ):
        nx.triangles(G, backend="tricount", device="cpu")
    assert not [r for r in caplog.records if r.levelname == "WARNING"]


def test_memory_limit_chooses_the_parts(monkeypatch):
    monkeypatch.setattr("nx_tricount.planning.spread._gpu_ids", lambda devices: (0,))
    rows, n = 1_000_000, 60_000
    assert decide(rows, n, "cpu", _settings()).parts == 1
    spread = decide(rows, n, "cpu", _settings(memory_limit=whole_bytes(rows) // 10))
    assert spread.parts > 1
    assert task_bytes(rows, n, spread.parts) <= whole_bytes(rows) // 10
    assert task_bytes(rows, n, spread.parts - 1) > whole_bytes(rows) // 10 or spread.parts == 2
    # On the GPU without a limit, the free memory is the limit; a graph that does
    # not fit is prepared in host memory.
    spread = decide(rows, n, "gpu", _settings(), free_memory=lambda: whole_bytes(rows) // 5)
    assert spread.parts > 1 and spread.preparation_device == "cpu"


def test_a_small_whole_count_does_not_read_the_free_memory(monkeypatch):
    # Reading the free memory costs a visible share of a small count:
    # up to UNREAD_LIMIT_BYTES the plan counts whole without it, and says so.
    monkeypatch.setattr("nx_tricount.planning.spread._gpu_ids", lambda devices: (0,))

    def unread():
        raise AssertionError("the free memory was read")

    rows = UNREAD_LIMIT_BYTES // WHOLE_BYTES_PER_ROW  # the most that skip the read
    spread = decide(rows, 1000, "gpu", _settings(), free_memory=unread)
    assert spread.parts == 1 and spread.memory_limit is None and spread.preparation_device == "gpu"
    assert "memory limit: not read" in " ".join(spread.reasons)
    read = decide(rows + 1, 1000, "gpu", _settings(), free_memory=lambda: 1 << 40)
    assert read.memory_limit == 1 << 40 and "bytes free on the GPU" in " ".join(read.reasons)


def test_the_spread_names_its_executor_and_where_the_parts_live(monkeypatch):
    # execution/execute.py runs what the spread says: whole, the tasks in turn, or
    # the tasks on several GPUs or Dask workers, which read their parts from host memory.
    monkeypatch.setattr(
        "nx_tricount.planning.spread._gpu_ids", lambda devices: (0,) if devices == "auto" else tuple(devices)
    )
    monkeypatch.setattr("nx_tricount.planning.spread._dask_workers", lambda: 2)
    rows, n = 1000, 100
    whole = decide(rows, n, "cpu", _settings())
    assert (whole.executor, whole.parts_on_host) == ("whole", False)
    serial = decide(rows, n, "cpu", _settings(partitions=2))
    assert (serial.executor, serial.parts_on_host) == ("serial", False)
    from_host = decide(rows, n, "gpu", _settings(partitions=1, memory_limit=whole_bytes(rows) - 1))
    assert (from_host.parts, from_host.preparation_device, from_host.executor) == (1, "cpu", "serial")
    partitioned = _settings(devices=[0, 0], regime="partitioned")
    gpus = decide(rows, n, "gpu", partitioned, free_memory=lambda: 1 << 40)
    assert (gpus.executor, gpus.parts_on_host) == ("gpus", True)
    dask = decide(rows, n, "cpu", _settings(distributed="dask", regime="partitioned"))
    assert (dask.executor, dask.parts_on_host) == ("dask", True)
    # A small graph on several GPUs counts on one; a replicated one reads no parts.
    one = decide(rows, n, "gpu", _settings(devices=[0, 0]), free_memory=lambda: 1 << 40)
    assert (one.executor, one.devices, one.regime) == ("whole", (0,), "whole")
    replicated = decide(
        rows, n, "gpu", _settings(devices=[0, 0], regime="replicated"), free_memory=lambda: 1 << 40
    )
    assert (replicated.executor, replicated.parts_on_host, replicated.parts) == ("gpus", False, 1)


def test_the_tasks_of_several_workers_fit_the_limit(monkeypatch):
    # R-MAT 27 fit one H200 whole (64 bytes a row) but its partitioned regime on two
    # took two parts per side, whose tasks (72 a row) did not fit: the count warned.
    monkeypatch.setattr("nx_tricount.planning.spread._gpu_ids", lambda devices: (0, 1))
    rows, n = 2_000_000, 100_000
    limit = whole_bytes(rows) + 1000
    spread = decide(rows, n, "gpu", _settings(devices="all", regime="partitioned"), free_memory=lambda: limit)
    assert spread.parts >= 2 and spread.parts**3 >= 4
    assert task_bytes(rows, n, spread.parts) <= limit < task_bytes(rows, n, 2)


def test_one_dask_worker_gets_tasks_too(monkeypatch):
    # With one dask-cuda worker (one GPU), the plan kept the graph whole and
    # counted it on the client: distributed="dask" was ignored without a word.
    monkeypatch.setattr("nx_tricount.planning.spread._dask_workers", lambda: 1)
    spread = decide(1000, 100, "cpu", _settings(distributed="dask", regime="partitioned"))
    assert spread.distributed == "dask" and spread.parts**3 >= 2
    assert "at least two tasks for each of 1 workers" in " ".join(spread.reasons)


def test_configured_parts_of_a_graph_that_fits_only_whole_are_prepared_in_host_memory(monkeypatch):
    # R-MAT 26 with partitions=4 fit the H100 whole but not split there (its parts
    # beside its CSR): the GPU ran out of memory. Now the host prepares its parts.
    monkeypatch.setattr("nx_tricount.planning.spread._gpu_ids", lambda devices: (0,))
    rows, n = 1_000_000, 60_000
    limit = whole_bytes(rows) + whole_bytes(rows) // 4
    spread = decide(rows, n, "gpu", _settings(partitions=4), free_memory=lambda: limit)
    assert spread.parts == 4 and spread.preparation_device == "cpu"
    assert "split on the GPU" in " ".join(spread.reasons)
    spread = decide(rows, n, "gpu", _settings(partitions=4), free_memory=lambda: split_bytes(rows))
    assert spread.preparation_device == "gpu"
    assert decide(rows, n, "gpu", _settings(), free_memory=lambda: limit).preparation_device == "gpu"


def test_ranges_need_the_parts_set_when_the_memory_limit_decides():
    rows, n = 1_000_000, 60_000
    small = whole_bytes(rows) // 10
    with pytest.raises(ValueError, match="partitioning='range' needs partitions set"):
        decide(rows, n, "cpu", _settings(memory_limit=small, partitioning="range"))
    spread = decide(rows, n, "cpu", _settings(memory_limit=small, partitioning="range", partitions=5))
    assert (spread.parts, spread.scheme) == (5, "range")
    assert decide(rows, n, "cpu", _settings(partitioning="range")).parts == 1  # fits: whole


def test_a_memory_limit_too_small_is_refused():
    with pytest.raises(ValueError, match="memory_limit of 100 bytes is too small"):
        decide(1000, 100, "cpu", _settings(memory_limit=100))


def _settings(**overrides):
    settings = dict(
        partitions=None,
        partitioning="hashed",
        memory_limit=None,
        regime="auto",
        devices="auto",
        distributed=None,
        progress=None,
    )
    settings.update(overrides)
    return settings


@pytest.mark.parametrize(
    "text,expected",
    [("20GB", 20 * 10**9), ("1.5GiB", 3 * 2**29), ("512 MiB", 2**29), (4096, 4096), ("100", 100)],
)
def test_memory_limit_strings(text, expected):
    assert memory_bytes(text) == expected


@pytest.mark.parametrize(
    "key,value",
    [
        ("partitions", 0),
        ("partitions", 2.5),
        ("partitions", True),
        ("partitioning", "modulo"),
        ("partitioning", None),
        ("memory_limit", "lots"),
        ("memory_limit", -5),
        ("memory_limit", "20 parsecs"),
        ("devices", []),
        ("devices", [-1]),
        ("devices", "first"),
        ("distributed", "spark"),
        ("progress", "yes"),
    ],
)
def test_bad_settings_are_refused(key, value):
    config = nx.config.backends.tricount
    with pytest.raises(ValueError, match=f"Invalid tricount {key}"):
        setattr(config, key, value)
    with pytest.raises(ValueError, match=f"Invalid tricount {key}"):
        nx_tricount.make_plan(nx.path_graph(3), device="cpu", **{key: value})


def test_settings_from_the_environment():
    from nx_tricount.metadata.config import ENVIRONMENT_ERRORS, config_from_environment

    config = config_from_environment(
        {
            "NX_TRICOUNT_PARTITIONS": "4",
            "NX_TRICOUNT_PARTITIONING": "Range",
            "NX_TRICOUNT_MEMORY_LIMIT": "2GB",
            "NX_TRICOUNT_DEVICES": "0,1",
        }
    )
    read = (config.partitions, config.partitioning, config.memory_limit, config.devices)
    assert read == (4, "range", "2GB", [0, 1])
    config_from_environment({"NX_TRICOUNT_PARTITIONS": "many"})
    assert "NX_TRICOUNT_PARTITIONS" in ENVIRONMENT_ERRORS["partitions"]
    config_from_environment({})


def test_progress_bar_of_the_tasks(capsys):
    G = nx.karate_club_graph()
    expected = nx.triangles(G, backend="tricount", device="cpu")
    with nx.config.backends.tricount(partitions=2, progress=True):
        assert nx.triangles(G, backend="tricount", device="cpu") == expected
    assert "tricount tasks" in capsys.readouterr().err
    with nx.config.backends.tricount(partitions=2, progress=False):
        nx.triangles(G, backend="tricount", device="cpu")
    assert "tricount tasks" not in capsys.readouterr().err


def test_a_real_task_over_the_limit_takes_more_parts(rmat, caplog):
    # The plan's parts come from an estimate (3 / p² of the arcs a task); where the
    # real largest task is over the limit, the count splits into more parts
    # instead of running it. Configured parts are kept, with a warning.
    src, dst, n, _ = rmat
    prepared = prepare_undirected(src, dst, n, orientation="id", ordering="degree")
    whole = count(prepared, "hash", "total").total
    limit = largest_task_bytes(split(prepared, 3), _every_task(3)) + 1
    assert largest_task_bytes(split(prepared, 2), _every_task(2)) > limit
    for configured in (False, True):
        spread = Spread(parts=2, executor="serial", memory_limit=limit, parts_configured=configured)
        plan = Plan("hash", "id", "degree", "cpu", spread=spread)
        caplog.clear()
        with caplog.at_level("INFO", logger="nx_tricount"):
            assert run(plan, prepared, "total").total == whole
        if configured:
            assert "over the memory limit" in caplog.text and "tasks of 2 parts per side" in caplog.text
        else:
            assert "3 parts per side" in caplog.text and "over the memory limit" not in caplog.text


def _every_task(p):
    return _plan("hash", "id", "degree", p).tasks
