"""Partitioned counting on the GPU (run on a GPU machine): every algorithm
and mode equals the whole count, hashed and by ranges; a memory limit that forces parts gives the
exact count of R-MAT 22 from host memory; two workers on one GPU (the
multi-device path) equal one."""

import networkx as nx
import numpy as np
import pytest

import nx_tricount
from nx_tricount.algorithms import count
from nx_tricount.execution.execute import run
from nx_tricount.execution.gpu_parts import GpuParts
from nx_tricount.io.generators import rmat_edges
from nx_tricount.metadata.config import CHOICES
from nx_tricount.planning.memory import task_bytes
from nx_tricount.planning.plan import Plan
from nx_tricount.planning.spread import SHARES_PER_WORKER, Spread
from nx_tricount.planning.tasks import CountTask
from nx_tricount.preprocess import STREAMED, prepare_streamed, prepare_undirected
from nx_tricount.preprocess.partition import task_part_keys

pytestmark = pytest.mark.gpu

GPU_ALGORITHMS = [a for a in CHOICES["algorithm"] if a != "auto"]


@pytest.fixture(scope="module")
def rmat14():
    import cupy

    src, dst = rmat_edges(14, 8, seed=14, device="gpu")
    values = cupy.random.default_rng(2).random(src.size)
    return src, dst, 1 << 14, values


@pytest.mark.parametrize("scheme", ["hashed", "range"])
@pytest.mark.parametrize("orientation,ordering", [("degree", "none"), ("id", "degree")])
@pytest.mark.parametrize("algorithm", GPU_ALGORITHMS)
def test_every_mode_equals_the_whole_count(rmat14, algorithm, orientation, ordering, scheme):
    import cupy

    src, dst, n, values = rmat14
    prepared = prepare_undirected(src, dst, n, orientation=orientation, ordering=ordering)
    weighted = prepare_undirected(src, dst, n, orientation=orientation, ordering=ordering, values=values)
    whole = {mode: count(prepared, algorithm, mode, "gpu") for mode in ("total", "per_node", "per_edge")}
    whole_weighted = cupy.asnumpy(count(weighted, algorithm, "per_node", "gpu").per_node)
    for parts in (2, 3):
        spread = Spread(parts=parts, scheme=scheme, preparation_device="gpu", executor="serial")
        plan = Plan(algorithm, orientation, ordering, "gpu", spread=spread)
        assert run(plan, prepared, "total").total == whole["total"].total
        np.testing.assert_array_equal(
            cupy.asnumpy(run(plan, prepared, "per_node").per_node), cupy.asnumpy(whole["per_node"].per_node)
        )
        np.testing.assert_array_equal(
            cupy.asnumpy(run(plan, prepared, "per_edge").per_edge), cupy.asnumpy(whole["per_edge"].per_edge)
        )
        np.testing.assert_allclose(
            cupy.asnumpy(run(plan, weighted, "per_node").per_node), whole_weighted, rtol=4e-16
        )


@pytest.mark.parametrize("scheme", ["hashed", "range"])
@pytest.mark.parametrize("bitmap_rows", [0, 2048, None])
def test_wedge_task_bitmap_equals_the_whole_count(rmat14, bitmap_rows, scheme):
    # A task graph's rectangle of its last middles by its last sinks covers none,
    # part (1,024 of each block's 5,461-8,192) or all of the closing arcs.
    import cupy

    src, dst, n, values = rmat14
    prepared = prepare_undirected(src, dst, n, orientation="id", ordering="degree")
    weighted = prepare_undirected(src, dst, n, orientation="id", ordering="degree", values=values)
    parameters = () if bitmap_rows is None else (("bitmap_rows", bitmap_rows),)
    whole = {mode: count(prepared, "wedge", mode, "gpu") for mode in ("total", "per_node", "per_edge")}
    whole_weighted = cupy.asnumpy(count(weighted, "wedge", "per_node", "gpu").per_node)
    for parts in (2, 3):
        spread = Spread(parts=parts, scheme=scheme, preparation_device="gpu", executor="serial")
        plan = Plan("wedge", "id", "degree", "gpu", parameters=parameters, spread=spread)
        assert run(plan, prepared, "total").total == whole["total"].total
        for mode in ("per_node", "per_edge"):
            got, expected = (getattr(c, mode) for c in (run(plan, prepared, mode), whole[mode]))
            np.testing.assert_array_equal(cupy.asnumpy(got), cupy.asnumpy(expected))
        np.testing.assert_allclose(
            cupy.asnumpy(run(plan, weighted, "per_node").per_node), whole_weighted, rtol=4e-16
        )


@pytest.fixture(scope="module")
def rmat22():
    src, dst = rmat_edges(22, 16, seed=22)  # host memory
    G = nx_tricount.from_edges(src, dst)
    whole = nx_tricount.from_edges(src, dst)
    functions = (nx.triangles, nx.transitivity)
    return G, [f(whole, backend="tricount", device="gpu") for f in functions]


def test_memory_limit_forces_parts_from_host_memory(rmat22):
    # Transitivity of a graph prepared straight into its parts raised AttributeError.
    # (Its CSR and count fit 1.5 GB: regime "auto" would prepare it in passes.)
    G, expected = rmat22
    limited = dict(memory_limit="1.5GB", regime="partitioned")
    plan = nx_tricount.make_plan(G, device="gpu", **limited)
    assert plan.spread.parts >= 4 and plan.preparation_device == "cpu" and plan.spread.streamed
    assert (plan.algorithm, plan.orientation, plan.ordering) == ("wedge", "id", "degree")
    with nx.config.backends.tricount(**limited):
        ours = [f(G, backend="tricount", device="gpu") for f in (nx.triangles, nx.transitivity)]
    assert ours == expected


def test_two_workers_on_one_gpu_equal_one(rmat14):
    import cupy

    src, dst, n, _ = rmat14
    G = nx_tricount.from_edges(cupy.asnumpy(src), cupy.asnumpy(dst))
    expected = nx.triangles(G, backend="tricount", device="gpu")
    device = cupy.cuda.Device().id
    with nx.config.backends.tricount(devices=[device, device], partitions=3):
        plan = nx_tricount.make_plan(G, device="gpu")
        assert plan.spread.devices == (device, device)
        assert nx.triangles(G, backend="tricount", device="gpu") == expected
        assert nx.transitivity(G, backend="tricount", device="gpu") == nx.transitivity(
            G, backend="tricount", device="cpu"
        )


@pytest.mark.parametrize("scheme", ["hashed", "range"])
@pytest.mark.parametrize("keep", [False, True])
@pytest.mark.parametrize("orientation,ordering", sorted(STREAMED))
def test_prepared_in_chunks_on_the_gpu_equals_prepared_whole(rmat14, orientation, ordering, keep, scheme):
    import cupy

    src, dst, n, _ = rmat14
    host_src, host_dst = cupy.asnumpy(src), cupy.asnumpy(dst)
    whole = prepare_undirected(host_src, host_dst, n, orientation=orientation, ordering=ordering)
    chunked = prepare_streamed(
        host_src,
        host_dst,
        n,
        orientation=orientation,
        ordering=ordering,
        parts=3,
        scheme=scheme,
        chunk_rows=10_000,
        keep=keep,
    )
    np.testing.assert_array_equal(
        chunked.to_original_vertices(chunked.degree), whole.to_original_vertices(whole.degree)
    )
    for algorithm in GPU_ALGORITHMS:
        spread = Spread(parts=3, scheme=scheme, preparation_device="cpu", executor="serial")
        plan = Plan(algorithm, orientation, ordering, "gpu", spread=spread)
        np.testing.assert_array_equal(
            run(plan, chunked, "per_node").per_node, count(whole, algorithm, "per_node").per_node
        )


@pytest.mark.parametrize("spare_parts", [0, 3, 100])
def test_parts_from_host_memory_kept_within_the_budget_and_uploaded_ahead(rmat14, spare_parts):
    """GpuParts brings each task's parts from host memory, keeps others only
    within its budget, and uploads the next task's parts ahead when they fit;
    the counts through it equal the whole graph's."""
    import cupy

    src, dst, n, _ = rmat14
    host_src, host_dst = cupy.asnumpy(src), cupy.asnumpy(dst)
    chunked = prepare_streamed(
        host_src, host_dst, n, orientation="id", ordering="degree", parts=4, chunk_rows=10_000
    )
    partition = chunked.partition
    sizes = {key: sum(a.nbytes for a in part if a is not None) for key, part in partition.parts.items()}
    budget = spare_parts * max(sizes.values())
    parts = GpuParts(partition, budget)
    tasks = [CountTask(i, j, k) for i in range(4) for j in range(4) for k in range(4)]
    ahead = 0
    for task, following in zip(tasks, [*tasks[1:], None]):
        view = parts.for_task(task, following)
        ahead += parts.coming is not None
        current = set(task_part_keys(task.i, task.j, task.k))
        assert set(view.parts) == current
        for key in current:
            for on_gpu, on_host in zip(view.parts[key][:2], partition.parts[key][:2]):
                np.testing.assert_array_equal(cupy.asnumpy(on_gpu), on_host)
        assert sum(sizes[key] for key in parts.kept if key not in current) <= budget
    parts.close()
    assert (ahead > 0) == (spare_parts > 0)
    whole = prepare_undirected(host_src, host_dst, n, orientation="id", ordering="degree")
    limit = task_bytes(chunked.m, n, 4) + budget
    spread = Spread(parts=4, preparation_device="cpu", memory_limit=limit, executor="serial")
    plan = Plan("wedge", "id", "degree", "gpu", spread=spread)
    for mode in ("total", "per_node"):
        ours, expected = run(plan, chunked, mode), count(whole, "wedge", mode)
        assert ours.total == expected.total
        np.testing.assert_array_equal(ours.per_node, expected.per_node)


def test_every_gpu_of_the_host_equals_one(rmat14):
    import cupy

    if cupy.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("one GPU here: the two-workers-on-one-GPU test covers the path")
    src, dst, n, _ = rmat14
    G = nx_tricount.from_edges(cupy.asnumpy(src), cupy.asnumpy(dst))
    expected = nx.triangles(G, backend="tricount", device="gpu")
    # A small graph: the 2D partition only when asked for (auto counts it on one GPU).
    with nx.config.backends.tricount(devices="all", regime="partitioned"):
        plan = nx_tricount.make_plan(G, device="gpu")
        assert len(plan.spread.devices) == cupy.cuda.runtime.getDeviceCount() and plan.spread.parts > 1
        assert nx.triangles(G, backend="tricount", device="gpu") == expected


def _borrowed_copies():
    from nx_tricount.execution import replicas

    return len(replicas._BORROWED)


def test_dask_cuda_workers_equal_local(rmat14):
    """dask-cuda's GPU workers (one per GPU) count the tasks: hashed and range
    partitions, the parts the plan chooses for the workers (two tasks each at
    least, even for one worker), and the replicated regime's shares give the
    local GPU results."""
    import cupy

    dask_cuda = pytest.importorskip("dask_cuda")
    distributed = pytest.importorskip("distributed")
    src, dst, n, _ = rmat14
    G = nx_tricount.from_edges(cupy.asnumpy(src), cupy.asnumpy(dst))

    def calls():
        return (
            nx.triangles(G, backend="tricount", device="gpu"),
            nx.transitivity(G, backend="tricount", device="gpu"),
            nx.average_clustering(G, backend="tricount", device="gpu"),
        )

    def visible_gpus():
        import os

        import cupy

        return os.environ.get("CUDA_VISIBLE_DEVICES"), cupy.cuda.runtime.getDeviceCount()

    expected = calls()
    with dask_cuda.LocalCUDACluster(dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        assert all(ids is not None and count >= 1 for ids, count in client.run(visible_gpus).values())
        workers = len(client.scheduler_info()["workers"])
        partitioned = [{"partitions": 2}, {"partitions": 3, "partitioning": "range"}]
        for settings in [*partitioned, {"regime": "partitioned"}]:
            with nx.config.backends.tricount(distributed="dask", **settings):
                spread = nx_tricount.make_plan(G, device="gpu").spread
                assert spread.distributed == "dask" and spread.parts**3 >= 2 * workers
                assert calls() == expected
        # A graph that fits: the replicated regime, its shares on the workers' GPUs.
        with nx.config.backends.tricount(distributed="dask"):
            spread = nx_tricount.make_plan(G, device="gpu").spread
            assert (spread.regime, spread.executor) == ("replicated", "dask")
            assert spread.shares == SHARES_PER_WORKER * workers
            assert calls() == expected
        # The graph on this GPU was lent to the workers' GPUs, and their copies dropped after each count.
        assert all(copies == 0 for copies in client.run(_borrowed_copies).values())
