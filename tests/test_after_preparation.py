"""``auto``'s choice between wedge and merge on the prepared graph: the work it
reads (``algorithms/work.py``), the rule (``rules.choose_after_preparation``),
which plans leave the choice to it, and the count that settles it."""

import gc
import weakref
from dataclasses import replace

import networkx as nx
import numpy as np
import pytest

import nx_tricount
from nx_tricount.algorithms import merge, shares, work
from nx_tricount.algorithms.wedge_hub import HUB_WORDS, gpu_hub_prefix
from nx_tricount.algorithms.wedge_layout import gpu_layout, kept_layout, plain_kernel_types
from nx_tricount.algorithms.work import Work, work_of
from nx_tricount.classes import preparation
from nx_tricount.classes.preparation import statistics
from nx_tricount.execution import phases, replicas
from nx_tricount.execution.execute import run
from nx_tricount.gpu.device import gpu_available
from nx_tricount.io.edge_arrays import from_edges
from nx_tricount.io.generators import copying_edges, rmat_edges
from nx_tricount.metadata.catalog import BITMAP_ROWS
from nx_tricount.planning import rules
from nx_tricount.planning.plan import Plan, plan_for
from nx_tricount.planning.rules import (
    GPU_BITMAP_SHARE,
    GPU_HUB_SKEW,
    GPU_LOOK_ROWS,
    GPU_TOTAL_SKEW,
    GPU_WEDGE_SKEW,
    MERGE_READS_PER_ARC,
    MERGE_READS_PER_WEDGE,
    choose_after_preparation,
    gpu_auto_algorithm,
)
from nx_tricount.preprocess import prepare_undirected

_GRAPHS = [lambda: rmat_edges(12, seed=3), lambda: copying_edges(3000, 10, 0.3, seed=1)]


def _work_by_hand(prepared):
    out = np.diff(prepared.indptr)
    wedges = sum(d * (d - 1) // 2 for d in out.tolist())
    first = max(0, prepared.n - 65536)
    bitmap = sum(d * (d - 1) // 2 for d in out[first:].tolist() if d >= 32)
    reads = sum(int(out[u] + out[v]) for u, v in zip(prepared.rows.tolist(), prepared.indices.tolist()))
    return Work(prepared.m, wedges, bitmap, reads, max(out.tolist(), default=0))


def test_work_of_estimates_the_heads_from_arcs_spread_over_the_csr(monkeypatch):
    # With fewer samples than arcs, the heads' sum is scaled from arc i * m / k.
    src, dst = rmat_edges(10, seed=3)
    prepared = prepare_undirected(src, dst, 1 << 10, orientation="id", ordering="degree")
    k = 1000
    monkeypatch.setattr(work, "ARC_SAMPLES", k)
    out = np.diff(prepared.indptr)
    heads = sum(int(out[prepared.indices[i * prepared.m // k]]) for i in range(k))
    expected = int(out @ out) + round(heads * prepared.m / k)
    assert abs(work.work_of(prepared).merge_reads - expected) <= 1
    exact = _work_by_hand(prepared).merge_reads
    assert abs(work.work_of(prepared).merge_reads - exact) < 0.05 * exact


@pytest.mark.parametrize(
    "make", [lambda: rmat_edges(12, seed=3), lambda: copying_edges(3000, 10, 0.3, seed=1)]
)
def test_work_of_a_prepared_graph_by_hand(make):
    src, dst = make()
    n = int(max(src.max(), dst.max())) + 1
    prepared = prepare_undirected(src, dst, n, orientation="id", ordering="degree")
    assert work_of(prepared) == _work_by_hand(prepared)


def test_work_of_a_graph_of_a_hub_block_and_of_nothing():
    # A clique of 40 on ascending-degree ids: vertex k has 39 - k out-neighbours,
    # so those of at least 32 (k <= 7) make the bitmap's wedges.
    src, dst = zip(*nx.complete_graph(40).edges())
    prepared = prepare_undirected(np.array(src), np.array(dst), 40, orientation="id", ordering="degree")
    work = work_of(prepared)
    assert work.wedges == sum(d * (d - 1) // 2 for d in range(40))
    assert work.bitmap_wedges == sum(d * (d - 1) // 2 for d in range(32, 40))
    assert work.bitmap_share == work.bitmap_wedges / work.wedges
    empty = prepare_undirected(
        np.zeros(0, np.int64), np.zeros(0, np.int64), 3, orientation="id", ordering="degree"
    )
    assert work_of(empty) == Work(0, 0, 0, 0, 0) and work_of(empty).bitmap_share == 0.0
    assert work.widest == 39


def test_work_of_reads_a_graph_once():
    # A graph read before is not read again.
    src, dst = rmat_edges(10, seed=3)
    prepared = prepare_undirected(src, dst, 1 << 10, orientation="id", ordering="degree")
    first = work_of(prepared)
    assert work.WORK in prepared.derived and work_of(prepared, layout_rows=64) is first


def _deferred(device="gpu"):
    merge = Plan("merge", "id", "degree", device, reasons=("merge's own",))
    return Plan("wedge", "id", "degree", device, reasons=("wedge's own",), after_preparation=merge)


@pytest.mark.parametrize(
    "work,expected,phrase",
    [
        (Work(100, 1000, 500, 10**9, 50), "wedge", "hold 50% of the 1,000 wedges (>= 50%)"),
        (Work(100, 1000, 499, 5600 + 660, 50), "merge", "6,260 list entries <= 5.6 per wedge (1,000)"),
        (Work(100, 1000, 0, 5600 + 661, 50), "wedge", "6,261 list entries > 5.6 per wedge"),
    ],
)
def test_the_prepared_graph_settles_wedge_or_merge(monkeypatch, work, expected, phrase):
    monkeypatch.setattr(rules, "work_of", lambda prepared, *ahead: work)
    assert (GPU_BITMAP_SHARE, MERGE_READS_PER_WEDGE, MERGE_READS_PER_ARC) == (0.5, 5.6, 6.6)
    settled = choose_after_preparation(_deferred(), prepared=None)
    assert settled.algorithm == expected and settled.after_preparation is None
    assert settled.reasons[0] == f"{expected}'s own"
    assert (
        settled.reasons[-1].startswith(f"after preparation -> {expected}: ") and phrase in settled.reasons[-1]
    )
    plain = Plan("hash", "degree", "none", "gpu")
    assert choose_after_preparation(plain, prepared=None) is plain


@pytest.fixture
def gpu_machine(monkeypatch):
    """A GPU machine for the plan (simulated: plans are made, nothing runs on it),
    whose graphs' mean endpoint degree is read on the host."""
    monkeypatch.setattr("nx_tricount.planning.rules.resolve_device", lambda r: "cpu" if r == "cpu" else "gpu")
    monkeypatch.setattr("nx_tricount.planning.plan.free_memory", lambda: 1 << 40)
    monkeypatch.setattr("nx_tricount.planning.spread._gpu_ids", lambda devices: (0,))
    host = preparation.mean_endpoint_degree
    monkeypatch.setattr(preparation, "mean_endpoint_degree", lambda G, device, meanwhile=None: host(G, "cpu"))
    monkeypatch.setattr(rules, "GPU_LOOK_ROWS", 1)
    return monkeypatch


def test_only_an_unweighted_undirected_total_of_auto_is_left_to_the_prepared_graph(gpu_machine):
    src, dst = rmat_edges(11, seed=1)
    G = from_edges(src, dst)
    assert preparation.mean_endpoint_degree(G, "gpu") >= GPU_HUB_SKEW
    total = nx_tricount.make_plan(G, total=True)
    assert (total.algorithm, total.orientation, total.ordering) == ("wedge", "id", "degree")
    merge = total.after_preparation
    assert (merge.algorithm, merge.orientation, merge.ordering, merge.spread) == (
        "merge",
        "id",
        "degree",
        total.spread,
    )
    assert merge.after_preparation is None and merge.reasons[: len(total.reasons)] == total.reasons
    assert "algorithm=wedge or merge (chosen after preparation)" in str(total)
    # Per node, weighted, directed, on the CPU or with a setting given: decided now.
    for plan in (
        nx_tricount.make_plan(G),
        nx_tricount.make_plan(G, total=True, weighted=True),
        nx_tricount.make_plan(from_edges(src, dst, directed=True), total=True),
        nx_tricount.make_plan(G, total=True, device="cpu"),
        nx_tricount.make_plan(G, total=True, algorithm="wedge"),
        nx_tricount.make_plan(G, total=True, ordering="degree"),
        nx_tricount.make_plan(G, total=True, partitions=2),
    ):
        assert plan.after_preparation is None, plan


def test_the_hub_threshold_is_for_unweighted_undirected_counts(gpu_machine):
    # Between the two thresholds: wedge for an unweighted undirected count (per node
    # too), merge for sums of arc values and directed graphs.
    between = (GPU_HUB_SKEW + GPU_WEDGE_SKEW) / 2
    gpu_machine.setattr(preparation, "mean_endpoint_degree", lambda G, device, meanwhile=None: between)
    src, dst = rmat_edges(11, seed=1)
    assert nx_tricount.make_plan(from_edges(src, dst)).algorithm == "wedge"
    assert nx_tricount.make_plan(from_edges(src, dst), weighted=True).algorithm == "merge"
    assert nx_tricount.make_plan(from_edges(src, dst, directed=True), total=True).algorithm == "merge"
    assert gpu_auto_algorithm(GPU_LOOK_ROWS, lambda: between, threshold=GPU_HUB_SKEW)[0] == "wedge"
    # From GPU_TOTAL_SKEW an unweighted undirected total on auto's preprocessing is
    # prepared on ascending-degree ids and settled there; with a preprocessing given,
    # or per node, the hub threshold holds.
    low = (GPU_TOTAL_SKEW + GPU_HUB_SKEW) / 2
    gpu_machine.setattr(preparation, "mean_endpoint_degree", lambda G, device, meanwhile=None: low)
    total = nx_tricount.make_plan(from_edges(src, dst), total=True)
    assert total.algorithm == "wedge" and total.after_preparation.algorithm == "merge"
    assert f"(>= {GPU_TOTAL_SKEW})" in str(total) and "chosen on the prepared graph" in str(total)
    assert nx_tricount.make_plan(from_edges(src, dst)).algorithm == "merge"
    forced = nx_tricount.make_plan(from_edges(src, dst), total=True, orientation="degree")
    assert forced.algorithm == "merge" and forced.after_preparation is None
    # A path's mean degree (about 2) leaves room for an estimate below GPU_TOTAL_SKEW.
    gpu_machine.setattr(preparation, "mean_endpoint_degree", lambda G, device, meanwhile=None: 4.1)
    path = np.arange(20_000), np.arange(1, 20_001)  # rows enough for the GPU
    assert nx_tricount.make_plan(from_edges(*path), total=True).algorithm == "merge"
    assert gpu_auto_algorithm(GPU_LOOK_ROWS, lambda: GPU_HUB_SKEW - 1, threshold=GPU_HUB_SKEW)[0] == "merge"


def test_the_merge_left_to_the_prepared_graph_is_merge_named_on_the_same_preprocessing(gpu_machine):
    # Built beside wedge's plan rather than by the rules again: every field but the
    # reasons as merge named on ascending-degree ids, wedge's parameters not among them.
    src, dst = rmat_edges(11, seed=1)
    with nx.config.backends.tricount(wedge_spread=9):
        total = nx_tricount.make_plan(from_edges(src, dst), total=True)
        named = nx_tricount.make_plan(
            from_edges(src, dst), total=True, algorithm="merge", orientation="id", ordering="degree"
        )
    merge_plan = total.after_preparation
    assert ("spread", 9) in total.parameters and merge_plan is not None
    assert replace(merge_plan, reasons=named.reasons) == named
    assert merge_plan.reasons[: len(total.reasons)] == total.reasons


def test_a_mean_degree_at_the_threshold_draws_no_estimate(gpu_machine):
    # 2 rows / n bounds the mean endpoint degree from below (Cauchy-Schwarz): from
    # the threshold on the rule's answer is known and the estimate is not drawn.
    def never(G, device, meanwhile=None):
        raise AssertionError("the estimate was drawn")

    gpu_machine.setattr(preparation, "mean_endpoint_degree", never)
    src, dst = rmat_edges(11, seed=1)  # 32,768 rows on at most 2,048 ids: 2 rows / n >= 32
    total = nx_tricount.make_plan(from_edges(src, dst), total=True)
    assert total.algorithm == "wedge" and total.after_preparation.algorithm == "merge"
    assert "a mean degree 2 rows / n = " in str(total) and f"(>= {GPU_TOTAL_SKEW})" in str(total)
    assert gpu_auto_algorithm(GPU_LOOK_ROWS, never, threshold=20, mean_degree=20.0)[0] == "wedge"
    with pytest.raises(AssertionError, match="drawn"):  # below it the estimate decides
        gpu_auto_algorithm(GPU_LOOK_ROWS, lambda: never(None, "gpu"), threshold=20, mean_degree=19.9)


@pytest.mark.parametrize(
    "make,expected",
    [
        (lambda: copying_edges(3000, 10, 0.3, seed=1), "merge"),
        (lambda: tuple(np.array(side) for side in zip(*nx.complete_graph(60).edges())), "wedge"),
    ],
)
def test_a_count_settles_the_plan_it_runs(make, expected):
    # run() takes the prepared graph's choice; the count is the same either way.
    src, dst = make()
    n = int(max(src.max(), dst.max())) + 1
    prepared = prepare_undirected(src, dst, n, orientation="id", ordering="degree")
    counted = run(_deferred("cpu"), prepared, "total")
    assert counted.algorithm == expected
    H = nx.Graph(zip(src.tolist(), dst.tolist()))
    H.remove_edges_from(nx.selfloop_edges(H))
    assert counted.total == sum(nx.triangles(H).values()) // 3


def test_a_replicated_count_settles_before_its_shares(monkeypatch):
    # The shares are cut by the settled algorithm's costs and counted with it.
    src, dst = copying_edges(3000, 10, 0.3, seed=1)
    n = int(max(src.max(), dst.max())) + 1
    prepared = prepare_undirected(src, dst, n, orientation="id", ordering="degree")
    spread = nx_tricount.make_plan(nx.path_graph(3), device="cpu", regime="replicated").spread
    deferred = _deferred("cpu")
    plan = replace(
        deferred, spread=spread, after_preparation=replace(deferred.after_preparation, spread=spread)
    )
    cut = []
    real = shares.work_shares
    monkeypatch.setattr(
        shares, "work_shares", lambda p, algorithm, *a: cut.append(algorithm) or real(p, algorithm, *a)
    )
    monkeypatch.setattr(replicas, "work_shares", shares.work_shares)
    with phases.collect() as records:
        counted = run(plan, prepared, "total")
    assert cut == ["merge"] and counted.algorithm == "merge"
    assert [r["algorithm"] for r in records if r["worker"] == "plan"] == ["merge"]
    assert counted.total == run(replace(deferred, after_preparation=None), prepared, "total").total


@pytest.mark.gpu
@pytest.mark.skipif(not gpu_available(), reason="needs a GPU")
def test_transitivity_on_the_gpu_settles_on_the_prepared_graph():
    import cupy

    # Long-tailed in-degrees (S above the threshold), yet every out-degree small on
    # ascending-degree ids: merge; R-MAT's hubs: wedge.
    for src, dst, expected in (
        (*copying_edges(300_000, 10, 0.3, seed=4), "merge"),
        (*rmat_edges(18, seed=18), "wedge"),
    ):
        G = from_edges(cupy.asarray(src), cupy.asarray(dst))
        plan = plan_for(statistics(G), device="gpu", total=True)
        assert plan.after_preparation is not None
        prepared = preparation.oriented_csr(G, plan.orientation, plan.ordering, "gpu")
        assert choose_after_preparation(plan, prepared).algorithm == expected
        # Wedge's prefix sums and layout were queued with the work, whichever is chosen,
        # and the layout is read where a count asks for it: as its count would read it.
        assert "wedge_prefix" in prepared.derived and ("wedge_ahead", BITMAP_ROWS) in prepared.derived
        ahead_layout = kept_layout(prepared, BITMAP_ROWS)
        kept = {key: prepared.derived[key] for key in ("wedge_count", ("wedge_bitmap", BITMAP_ROWS))}
        fresh = replace(prepared, derived={})
        _, wedges, bitmap = gpu_layout(fresh, BITMAP_ROWS, plain_kernel_types(fresh))
        assert (
            kept == {"wedge_count": wedges, ("wedge_bitmap", BITMAP_ROWS): bitmap} and ahead_layout == bitmap
        )
        assert expected == "merge" or bitmap.rows > 0
        # The wedges its hub block leaves, read with the layout, and their prefix sums,
        # queued with the work: those a graph without the work makes, ending at them.
        ahead = prepared.derived.get(("wedge_hub", bitmap, HUB_WORDS, "total"), (None, None))[1]
        if bitmap.rows:
            kernel_types = plain_kernel_types(prepared)
            hub_prefix, left = gpu_hub_prefix(prepared, bitmap, HUB_WORDS, "total", kernel_types)
            assert ahead == left == int(hub_prefix[-1].get()) and left < wedges
            fresh_prefix, left_fresh = gpu_hub_prefix(fresh, bitmap, HUB_WORDS, "total", kernel_types)
            assert left_fresh == left
            np.testing.assert_array_equal(hub_prefix.get(), fresh_prefix.get())
            d = np.diff(prepared.indptr.get())
            expected_prefix = np.concatenate([[0], np.cumsum(d * (d - 1) // 2)])
            np.testing.assert_array_equal(prepared.derived["wedge_prefix"].get(), expected_prefix)
        widest = int(cupy.diff(prepared.indptr).max())
        assert work_of(prepared).widest == widest and merge.inline_layout(prepared)[1] == widest
        # One launch on the GPU, the same sums as the host's.
        on_host = replace(prepared, indptr=prepared.indptr.get(), indices=prepared.indices.get(), derived={})
        assert work_of(prepared) == work_of(on_host)
        assert nx_tricount.transitivity(G, device="gpu") == nx_tricount.transitivity(
            from_edges(src, dst), device="cpu"
        )
        # What the choice queues ahead does not hold the graph: unsettled, as where
        # merge counts, it goes with the graph's last reference, not at a collection.
        alone = replace(prepared, derived={})
        choose_after_preparation(plan, alone)
        assert ("wedge_ahead", BITMAP_ROWS) in alone.derived
        gone = weakref.ref(alone)
        gc.disable()
        try:
            del alone
            assert gone() is None
        finally:
            gc.enable()
