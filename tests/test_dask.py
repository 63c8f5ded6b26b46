"""Counting on Dask workers (``distributed="dask"``): a LocalCluster of two
worker processes gives the local results, also when a worker is killed in the
middle of a run (Dask runs its tasks again on the other)."""

import os
import signal
import threading
import time

import networkx as nx
import numpy as np
import pytest

import nx_tricount
from nx_tricount.generators import rmat_edges

distributed = pytest.importorskip("distributed")


def test_without_a_client_the_error_says_what_to_do():
    # First in the file: the module's cluster does not exist yet.
    G = nx.complete_graph(4)
    with pytest.raises(ValueError, match="no dask.distributed client|there is none"):
        nx_tricount.make_plan(G, device="cpu", distributed="dask")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    with distributed.Client(cluster) as client:
        yield client
    cluster.close()


@pytest.fixture(scope="module")
def graph():
    src, dst = rmat_edges(12, 8, seed=12)
    return nx_tricount.from_edges(src, dst)


@pytest.mark.parametrize("partitioning", ["hashed", "range"])
def test_dask_equals_local(client, graph, partitioning):
    expected = (
        nx.triangles(graph, backend="tricount", device="cpu"),
        nx.transitivity(graph, backend="tricount", device="cpu"),
        nx.average_clustering(graph, backend="tricount", device="cpu"),
    )
    with nx.config.backends.tricount(distributed="dask", partitions=3, partitioning=partitioning):
        ours = (
            nx.triangles(graph, backend="tricount", device="cpu"),
            nx.transitivity(graph, backend="tricount", device="cpu"),
            nx.average_clustering(graph, backend="tricount", device="cpu"),
        )
    assert ours == expected


def test_dask_chooses_parts_for_its_workers(client, graph):
    plan = nx_tricount.make_plan(graph, device="cpu", distributed="dask")
    assert plan.spread.parts ** 3 >= 4  # at least two tasks for each of two workers
    assert "distributed=dask" in str(plan)


def test_one_part_still_counts_on_the_workers(client, graph):
    """``partitions=1`` with Dask is one task on a worker, not a local count."""
    expected = nx.transitivity(graph, backend="tricount", device="cpu")
    with distributed.get_task_stream(client) as stream:
        with nx.config.backends.tricount(distributed="dask", partitions=1):
            assert nx.transitivity(graph, backend="tricount", device="cpu") == expected
    assert [task for task in stream.data if str(task["key"]).startswith("_dask_task")]


def test_a_worker_killed_mid_run_still_gives_the_exact_count(client):
    src, dst = rmat_edges(15, 8, seed=15)
    G = nx_tricount.from_edges(src, dst)
    expected = nx.triangles(G, backend="tricount", device="cpu")
    pids = client.run(os.getpid)
    outcome = {}

    def count():
        with nx.config.backends.tricount(distributed="dask", partitions=6):
            outcome["triangles"] = nx.triangles(G, backend="tricount", device="cpu")

    thread = threading.Thread(target=count)
    thread.start()
    deadline = time.monotonic() + 60
    busy = []
    while not busy and time.monotonic() < deadline:
        busy = [address for address, tasks in client.processing().items() if tasks]
        time.sleep(0.005)
    os.kill(pids[busy[0]], signal.SIGKILL)
    killed_mid_run = thread.is_alive()
    thread.join(timeout=300)
    assert killed_mid_run, "the count ended before the worker was killed"
    assert outcome["triangles"] == expected
    assert set(np.unique(list(client.run(os.getpid).values()))) != set(pids.values())


# ------------------------------------------------- edges in a Dask DataFrame


def _edge_frame(npartitions=4):
    import pandas as pd

    dd = pytest.importorskip("dask.dataframe")
    src, dst = rmat_edges(10, 8, seed=3)
    return dd.from_pandas(pd.DataFrame({"source": src, "target": dst}), npartitions=npartitions), src, dst


def _networkx_graph(src, dst):
    G = nx.Graph()
    G.add_nodes_from(range(int(max(src.max(), dst.max())) + 1))
    G.add_edges_from(zip(src.tolist(), dst.tolist()))
    G.remove_edges_from(nx.selfloop_edges(G))
    return G


@pytest.mark.parametrize("parts", [1, 2, 3])
def test_dask_edge_frame_without_a_client(parts):
    edges, src, dst = _edge_frame()
    G = _networkx_graph(src, dst)
    expected = nx.triangles(G)
    frame = nx_tricount.dask_triangles(edges, partitions=parts)
    result = frame.compute().sort_values("node")
    assert result.node.tolist() == list(expected)
    assert result.triangles.tolist() == list(expected.values())
    assert nx_tricount.dask_transitivity(edges, partitions=parts) == nx.transitivity(G)


def test_dask_edge_frame_on_the_cluster(client):
    edges, src, dst = _edge_frame(npartitions=6)
    G = _networkx_graph(src, dst)
    result = nx_tricount.dask_triangles(edges, partitions=2).compute().sort_values("node")
    assert result.triangles.tolist() == list(nx.triangles(G).values())
    assert nx_tricount.dask_transitivity(edges, partitions=3) == nx.transitivity(G)


def test_dask_edge_frame_errors():
    import pandas as pd

    dd = pytest.importorskip("dask.dataframe")
    frame = dd.from_pandas(pd.DataFrame({"a": [0, 1], "b": [1, 2]}), npartitions=1)
    with pytest.raises(KeyError, match="no column 'source'"):
        nx_tricount.dask_triangles(frame)
    floats = dd.from_pandas(pd.DataFrame({"source": [0.5], "target": [1.0]}), npartitions=1)
    with pytest.raises(TypeError, match="integer vertex ids"):
        nx_tricount.dask_triangles(floats)
    negative = dd.from_pandas(pd.DataFrame({"source": [-1], "target": [1]}), npartitions=1)
    with pytest.raises(ValueError, match="non-negative"):
        nx_tricount.dask_triangles(negative)
    with pytest.raises(ValueError, match="partitions must be an int"):
        nx_tricount.dask_triangles(frame, "a", "b", partitions=0)
