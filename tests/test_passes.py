"""Preparing one oriented CSR in passes within a memory limit
(``preprocess/passes.py``), on the CPU's NumPy arrays: the CSR the whole
preparation makes, array for array, for any edge list and any number of passes;
the plan asks for it only where it applies, and every count of a graph so
prepared is the whole count. tests/test_gpu_passes.py runs it on the GPU."""

from dataclasses import replace

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nx_tricount
from nx_tricount.execution import phases
from nx_tricount.io.edge_arrays import from_edges
from nx_tricount.io.generators import rmat_edges
from nx_tricount.planning.memory import passes_bytes, whole_bytes
from nx_tricount.preprocess.passes import PASS_BYTES_PER_ROW, VERTEX_BYTES, _schedule, prepare_in_passes
from nx_tricount.preprocess.prepare import prepare_undirected
from nx_tricount.preprocess.streamed import STREAMED
from nx_tricount.quantities import per_vertex
from test_together import EDGE_LIST_VERTICES, EDGE_LISTS, edge_arrays

ARRAYS = ("indptr", "indices", "rows", "degree", "perm")


def assert_same_csr(ours, whole):
    """``ours`` equal to ``whole``, values and dtypes."""
    for name in ARRAYS:
        mine, theirs = getattr(ours, name), getattr(whole, name)
        if theirs is None:
            assert mine is None, name
            continue
        assert mine.dtype == theirs.dtype, name
        np.testing.assert_array_equal(mine, theirs, err_msg=name)
    assert (ours.n, ours.orientation, ours.ordering) == (whole.n, whole.orientation, whole.ordering)
    assert ours.ascending == whole.ascending


@pytest.mark.parametrize("orientation, ordering", sorted(STREAMED))
@pytest.mark.parametrize("passes", [1, 2, 3, 7])
def test_the_passes_make_the_whole_preparations_csr(orientation, ordering, passes):
    src, dst = rmat_edges(10, 8, seed=6)
    n = int(max(src.max(), dst.max())) + 1
    whole = prepare_undirected(src, dst, n, orientation=orientation, ordering=ordering)
    ours = prepare_in_passes(
        src, dst, n, orientation=orientation, ordering=ordering, passes=passes, device="cpu"
    )
    assert whole.m > 0
    assert_same_csr(ours, whole)


@settings(max_examples=60, deadline=None)
@given(
    edges=EDGE_LISTS,
    passes=st.integers(1, 5),
    preprocessing=st.sampled_from(sorted(STREAMED)),
)
def test_any_edge_list_in_any_number_of_passes(edges, passes, preprocessing):
    """Duplicates, both directions, self-loops, isolated vertices, no edge at all,
    and more passes than edges."""
    src, dst = edge_arrays(edges)
    orientation, ordering = preprocessing
    n = EDGE_LIST_VERTICES
    whole = prepare_undirected(src, dst, n, orientation=orientation, ordering=ordering)
    ours = prepare_in_passes(
        src, dst, n, orientation=orientation, ordering=ordering, passes=passes, device="cpu"
    )
    assert_same_csr(ours, whole)


@pytest.mark.parametrize("share", [1, 4, 16])
def test_any_memory_limit_gives_the_same_csr(share):
    # Whatever waits between the passes stays or goes to host memory, and the
    # passes follow the room the limit leaves beside the vertices.
    src, dst = rmat_edges(9, 8, seed=3)
    n = int(max(src.max(), dst.max())) + 1
    whole = prepare_undirected(src, dst, n, orientation="degree", ordering="degree")
    limit = VERTEX_BYTES * n + 32 * int(src.size) // share
    ours = prepare_in_passes(
        src, dst, n, orientation="degree", ordering="degree", memory_limit=limit, device="cpu"
    )
    assert_same_csr(ours, whole)
    with pytest.raises(ValueError, match="leaves no room for passes"):
        prepare_in_passes(src, dst, n, orientation="degree", ordering="degree", memory_limit=n, device="cpu")


def test_the_schedule_keeps_what_waits_only_beside_room_for_the_passes():
    assert _schedule(1000, 0, None, None) == (True, 1)
    assert _schedule(1000, 0, None, 3) == (True, 3)
    room = 8 * 1000 * 4 // 3  # the keys leave exactly a quarter of it
    stay, passes = _schedule(1000, 100, room + 100, None)
    assert stay and passes == -(-PASS_BYTES_PER_ROW * 1000 // (room - 8000))
    stay, passes = _schedule(1000, 100, room + 99, None)
    assert not stay and passes == -(-PASS_BYTES_PER_ROW * 1000 // (room - 1))
    assert _schedule(10, 0, PASS_BYTES_PER_ROW, None) == (False, 10)  # a key a pass at most


def test_preprocessing_beyond_the_degrees_is_refused():
    src = dst = np.zeros(1, dtype=np.int32)
    with pytest.raises(ValueError, match="cannot be prepared in passes"):
        prepare_in_passes(src, dst, 1, orientation="a-direction", ordering="none", device="cpu")
    with pytest.raises(ValueError, match="cannot be prepared in passes"):
        prepare_in_passes(src, dst, 1, orientation="id", ordering="a-order", device="cpu")


def _gpu_machine(requested):
    return "gpu" if requested != "cpu" else "cpu"


@pytest.fixture
def gpu_machine(monkeypatch):
    """A GPU machine for the plan (simulated: plans are made, nothing runs)."""
    monkeypatch.setattr("nx_tricount.planning.rules.resolve_device", _gpu_machine)
    monkeypatch.setattr("nx_tricount.planning.plan.free_memory", lambda: 1 << 40)
    monkeypatch.setattr(
        "nx_tricount.planning.spread._gpu_ids", lambda devices: (0,) if devices == "auto" else tuple(devices)
    )
    return monkeypatch


def test_the_plan_prepares_in_passes_only_where_it_applies(gpu_machine):
    # A graph whose whole count does not fit the GPU's limit, but whose CSR and
    # count do, is prepared in passes there and counted whole; the plan says so.
    src, dst = rmat_edges(12, 16, seed=1)
    G = from_edges(src, dst)
    rows, n = int(src.size), G.n
    assert passes_bytes(rows, n) < whole_bytes(rows) // 2
    limit = dict(memory_limit=whole_bytes(rows) // 2)
    plan = nx_tricount.make_plan(G, **limit)
    spread = plan.spread
    assert spread.prepared_in_passes and (spread.executor, spread.parts) == ("whole", 1)
    assert spread.preparation_device == "gpu" and not spread.streamed
    assert plan.pipeline == "sorted" and "prepared in passes" in str(plan)
    merge = nx_tricount.make_plan(G, algorithm="merge", **limit)
    assert merge.spread.prepared_in_passes and merge.merge_total == "csr"  # no room for a second layout
    # Not in passes: it fits whole, it does not fit even so, a configured partition
    # or regime, weights, arcs, several GPUs, the CPU engine.
    assert not nx_tricount.make_plan(G).spread.prepared_in_passes
    tight = nx_tricount.make_plan(G, memory_limit=passes_bytes(rows, n) - 1)
    assert not tight.spread.prepared_in_passes and tight.spread.parts > 1
    for others in (
        dict(partitions=2),
        dict(regime="partitioned"),
        dict(weighted=True),
        dict(devices=[0, 0]),
        dict(device="cpu"),
    ):
        assert not nx_tricount.make_plan(G, **limit, **others).spread.prepared_in_passes, others
    directed = from_edges(src, dst, directed=True)
    assert not nx_tricount.make_plan(directed, **limit).spread.prepared_in_passes
    # A preprocessing that needs more than the degrees is planned again, partitioned.
    replanned = nx_tricount.make_plan(G, ordering="a-order", **limit)
    assert not replanned.spread.prepared_in_passes and replanned.spread.parts > 1
    assert "not prepared in passes" in str(replanned)


def test_the_plan_in_passes_reads_no_whole_graph_for_its_estimate(gpu_machine):
    # The endpoint degree estimate of a graph prepared in passes reads edges in host
    # memory where they are, and queues no build of the whole simple graph.
    asked = []

    def sampled(G, device, meanwhile):
        asked.append((device, meanwhile is not None))
        return 1.0

    gpu_machine.setattr("nx_tricount.classes.preparation.mean_endpoint_degree", sampled)
    gpu_machine.setattr("nx_tricount.planning.rules.GPU_LOOK_ROWS", 1)
    src, dst = rmat_edges(12, 16, seed=1)
    G = from_edges(src, dst)
    plan = nx_tricount.make_plan(G, memory_limit=whole_bytes(int(src.size)) // 2)
    assert plan.spread.prepared_in_passes and asked == [("cpu", False)]


@pytest.mark.parametrize("algorithm", ["merge", "hash", "wedge"])
def test_every_count_of_a_graph_prepared_in_passes_is_the_whole_count(algorithm):
    # The plan takes passes on the GPU alone; the same plan on the CPU engine counts
    # the same CSR, prepared there in passes.
    src, dst = rmat_edges(9, 8, seed=4)
    G = from_edges(src, dst)
    H = nx.Graph(zip(src.tolist(), dst.tolist()))
    H.remove_edges_from(nx.selfloop_edges(H))
    whole = nx_tricount.make_plan(G, device="cpu", algorithm=algorithm)
    passes = replace(
        whole, spread=replace(whole.spread, prepared_in_passes=True, memory_limit=24 * int(src.size))
    )
    with phases.collect() as records:
        triangles = per_vertex.triangles_per_node(G, passes)
        per_vertex.triangles_per_node(G, passes)
    # The preparation is recorded once, when it runs: not again from the cache.
    assert [r["passes"] for r in records if r["worker"] == "prepare"] == [True]
    expected = nx.triangles(H)
    assert {v: int(triangles[v]) for v in H} == expected
    assert per_vertex.transitivity_sums(G, passes) == per_vertex.transitivity_sums(
        from_edges(src, dst), whole
    )
    with pytest.raises(ValueError, match="prepares the unweighted graph in passes"):
        per_vertex.clustering_terms(G, passes, "weight", None)
