"""Counting on Dask workers (``distributed="dask"``): a LocalCluster of two
worker processes gives the local results, also when a worker is killed in the
middle of a run (Dask runs its tasks again on the other)."""

import logging
import os
import signal
import sys
import threading
import time

import networkx as nx
import numpy as np
import pytest

import nx_tricount
from nx_tricount.execution import replicas
from nx_tricount.execution.dask import _bucketed_keys, _count_on_worker
from nx_tricount.io.generators import rmat_edges
from nx_tricount.planning.spread import SHARES_PER_WORKER

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


def test_dask_replicates_a_graph_that_fits(client, graph):
    plan = nx_tricount.make_plan(graph, device="cpu", distributed="dask")
    assert plan.spread.regime == "replicated" and plan.spread.shares == 2 * SHARES_PER_WORKER
    assert "distributed=dask" in str(plan)
    expected = nx.triangles(graph, backend="tricount", device="cpu")
    with distributed.get_task_stream(client) as stream, nx.config.backends.tricount(distributed="dask"):
        assert nx.triangles(graph, backend="tricount", device="cpu") == expected
    assert 2 <= _runs_of(replicas._count_on_worker, stream) <= 2 * SHARES_PER_WORKER


def test_dask_chooses_parts_for_its_workers(client, graph):
    plan = nx_tricount.make_plan(graph, device="cpu", distributed="dask", regime="partitioned")
    assert plan.spread.parts**3 >= 4  # at least two tasks for each of two workers
    assert "distributed=dask" in str(plan)


def test_one_part_still_counts_on_the_workers(client, graph):
    """``partitions=1`` with Dask is one task on a worker, not a local count."""
    expected = nx.transitivity(graph, backend="tricount", device="cpu")
    with (
        distributed.get_task_stream(client) as stream,
        nx.config.backends.tricount(distributed="dask", partitions=1, regime="partitioned"),
    ):
        assert nx.transitivity(graph, backend="tricount", device="cpu") == expected
    assert _runs_of(_count_on_worker, stream) == 1


@pytest.mark.parametrize(
    "scale, settings",
    [(15, {"partitions": 6}), (17, {"regime": "replicated"})],
    ids=["partitioned", "replicated"],
)
def test_a_worker_killed_mid_run_still_gives_the_exact_count(client, scale, settings):
    src, dst = rmat_edges(scale, 8, seed=scale)
    G = nx_tricount.from_edges(src, dst)
    expected = nx.triangles(G, backend="tricount", device="cpu")
    pids = client.run(os.getpid)
    outcome = {}

    def count():
        with nx.config.backends.tricount(distributed="dask", **settings):
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


@pytest.mark.parametrize(
    "settings", [{"partitions": 3}, {"regime": "replicated"}], ids=["partitioned", "replicated"]
)
def test_scattered_data_lost_midway_is_scattered_again(client, monkeypatch, settings):
    """Regression: Dask's memory manager keeps one copy of scattered data no task
    holds yet, so a killed worker could take a part with it, and the count failed
    with the futures cancelled. Here the first attempt loses its data after two
    results; the count scatters again and counts the rest, exactly."""
    from concurrent.futures import CancelledError

    import nx_tricount.execution.dask as executor

    src, dst = rmat_edges(11, 8, seed=11)
    G = nx_tricount.from_edges(src, dst)
    expected = nx.triangles(G, backend="tricount", device="cpu")
    real, attempts = executor.finished, []

    def losing(collections, client):
        attempts.append(len(collections))
        for taken, item in enumerate(real(collections, client)):
            if len(attempts) == 1 and taken == 2:
                raise CancelledError("lost with a worker")
            yield item

    monkeypatch.setattr(executor, "finished", losing)
    with nx.config.backends.tricount(distributed="dask", **settings):
        assert nx.triangles(G, backend="tricount", device="cpu") == expected
    assert len(attempts) == 2 and attempts[1] == attempts[0] - 2


# ------------------------------------------------- edges in a Dask DataFrame


@pytest.fixture
def in_process():
    """Dask's synchronous scheduler, also while the module's cluster is up: counts
    without a client (the checks of the inputs and small counts need no workers)."""
    import dask

    with dask.config.set(scheduler="synchronous"):
        yield


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


def _assert_networkxs_counts(edges, G, parts):
    result = nx_tricount.dask_triangles(edges, partitions=parts).compute().sort_values("node")
    expected = nx.triangles(G)
    assert result.node.tolist() == list(expected)
    assert result.triangles.tolist() == list(expected.values())
    assert nx_tricount.dask_transitivity(edges, partitions=parts) == nx.transitivity(G)


@pytest.mark.parametrize("parts", [1, 2, 3])
def test_dask_edge_frame_without_a_client(in_process, parts):
    edges, src, dst = _edge_frame()
    _assert_networkxs_counts(edges, _networkx_graph(src, dst), parts)


def test_dask_edge_frame_on_the_cluster(client):
    edges, src, dst = _edge_frame(npartitions=6)
    G = _networkx_graph(src, dst)
    result = nx_tricount.dask_triangles(edges, partitions=2).compute().sort_values("node")
    assert result.triangles.tolist() == list(nx.triangles(G).values())
    assert nx_tricount.dask_transitivity(edges, partitions=3) == nx.transitivity(G)


@pytest.mark.parametrize("function", ["dask_triangles", "dask_transitivity"])
def test_a_dask_frame_counts_its_tasks_as_the_executor_does_with_one_shuffle(client, function):
    """A frame's ``p³`` tasks are the executor's Dask tasks (one way of running
    tasks on the workers), and each of the frame's partitions is bucketed once:
    one shuffle, the degrees and the tasks in one graph."""
    edges, src, dst = _edge_frame(npartitions=5)
    p = 3
    with distributed.get_task_stream(client) as stream:
        result = getattr(nx_tricount, function)(edges, partitions=p)
        if function == "dask_triangles":
            result = result.compute().sort_values("node").triangles.tolist()
    G = _networkx_graph(src, dst)
    expected = list(nx.triangles(G).values()) if function == "dask_triangles" else nx.transitivity(G)
    assert result == expected
    assert _runs_of(_count_on_worker, stream) == p**3
    assert _runs_of(_bucketed_keys, stream) == edges.npartitions


def _runs_of(function, stream):
    """The tasks of ``function`` in a task stream (a frame's task keys are tuples)."""
    keys = [task["key"][0] if isinstance(task["key"], tuple) else task["key"] for task in stream.data]
    return sum(str(key).startswith(f"{function.__name__}-") for key in keys)


def test_dask_edge_frame_errors():
    import pandas as pd

    dd = pytest.importorskip("dask.dataframe")
    frame = dd.from_pandas(pd.DataFrame({"a": [0, 1], "b": [1, 2]}), npartitions=1)
    with pytest.raises(KeyError, match="no source column 'source'"):
        nx_tricount.dask_triangles(frame)
    floats = dd.from_pandas(pd.DataFrame({"source": [0.5], "target": [1.0]}), npartitions=1)
    with pytest.raises(TypeError, match="integer vertex ids"):
        nx_tricount.dask_triangles(floats)
    negative = dd.from_pandas(pd.DataFrame({"source": [-1], "target": [1]}), npartitions=1)
    with pytest.raises(ValueError, match="non-negative"):
        nx_tricount.dask_triangles(negative)
    with pytest.raises(ValueError, match="partitions must be an int"):
        nx_tricount.dask_triangles(frame, "a", "b", partitions=0)


# ------------------------------------ inputs of dask_triangles and dask_transitivity


def _dask_frame(frame, npartitions=1):
    dd = pytest.importorskip("dask.dataframe")
    return dd.from_pandas(frame, npartitions=npartitions)


@pytest.mark.parametrize("parts", [1, 3])
@pytest.mark.parametrize("dtype", ["int64", "uint8", "Int32"])
def test_an_empty_frame_gives_networkxs_empty_results(in_process, dtype, parts):
    import pandas as pd

    column = pd.Series([], dtype=dtype)
    edges = _dask_frame(pd.DataFrame({"source": column, "target": column}), npartitions=2)
    G = nx.Graph()
    transitivity = nx_tricount.dask_transitivity(edges, partitions=parts)
    assert transitivity == nx.transitivity(G) and type(transitivity) is type(nx.transitivity(G))
    frame = nx_tricount.dask_triangles(edges, partitions=parts)
    result = frame.compute()
    assert result.empty and len(result) == len(nx.triangles(G))
    assert list(result.columns) == ["node", "triangles"]
    assert [str(t) for t in result.dtypes] == ["int64", "int64"] == [str(t) for t in frame.dtypes]


def test_a_frame_with_empty_partitions_counts_as_networkx(in_process):
    import pandas as pd

    src, dst = rmat_edges(6, 4, seed=6)
    frame = pd.DataFrame({"source": src, "target": dst})
    half = len(frame) // 2
    edges = _dask_frame(frame, npartitions=4)
    edges = edges.map_partitions(lambda part: part[part.index >= half])  # the first half's empty
    assert 0 in edges.map_partitions(len).compute().tolist()
    kept = frame.iloc[half:]
    _assert_networkxs_counts(edges, _networkx_graph(kept.source.to_numpy(), kept.target.to_numpy()), 2)


def test_duplicates_both_directions_and_self_loops_are_networkxs_simple_graph(client):
    import pandas as pd

    # Every edge twice, once reversed, in other partitions; self-loops, one on a
    # vertex of no other edge (6); vertex 5 in no edge, below the largest id.
    src = [0, 1, 2, 3, 4, 6, 1, 2, 0, 4, 3, 2, 2, 6, 0]
    dst = [1, 2, 0, 4, 2, 6, 0, 1, 2, 3, 4, 4, 2, 6, 0]
    edges = _dask_frame(pd.DataFrame({"source": src, "target": dst}), npartitions=3)
    G = nx.Graph()
    G.add_nodes_from(range(7))
    G.add_edges_from((u, v) for u, v in zip(src, dst) if u != v)
    _assert_networkxs_counts(edges, G, 2)


@pytest.mark.parametrize("dtype", ["int8", "uint32", "Int64", "UInt16"])
def test_every_integer_dtype_counts_as_networkx(in_process, dtype):
    import pandas as pd

    src, dst = rmat_edges(6, 4, seed=2)
    frame = pd.DataFrame({"source": src, "target": dst}).astype(dtype)
    _assert_networkxs_counts(_dask_frame(frame, npartitions=2), _networkx_graph(src, dst), 2)


def test_a_pandas_frame_is_refused_naming_what_is_accepted(in_process):
    import pandas as pd

    frame = pd.DataFrame({"source": [0, 1, 2], "target": [1, 2, 0]})
    for count in (nx_tricount.dask_triangles, nx_tricount.dask_transitivity):
        with pytest.raises(TypeError, match=r"dask\.dataframe\.DataFrame.*pandas.*from_frame"):
            count(frame)


@pytest.mark.parametrize(
    "edges",
    [None, [[0, 1], [1, 2]], {"source": [0, 1], "target": [1, 2]}, np.array([[0, 1], [1, 2]]), "dask-series"],
    ids=["none", "list", "dict", "array", "dask-series"],
)
def test_what_is_not_a_dask_frame_is_refused(in_process, edges):
    import pandas as pd

    if isinstance(edges, str):
        edges = _dask_frame(pd.DataFrame({"source": [0, 1], "target": [1, 2]})).source
    for count in (nx_tricount.dask_triangles, nx_tricount.dask_transitivity):
        with pytest.raises(TypeError, match=r"a dask\.dataframe\.DataFrame of edges, got "):
            count(edges)


def test_without_dask_dataframe_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "dask.dataframe", None)  # as if it were not installed
    with pytest.raises(ImportError, match=r"pip install 'nx-tricount\[dask\]'"):
        nx_tricount.dask_triangles(None)


@pytest.mark.parametrize("dtype", ["float64", "str", "object", "bool", "category", "datetime64[ns]"])
@pytest.mark.parametrize("end", ["source", "target"])
def test_columns_not_of_integers_are_refused_naming_the_column(in_process, dtype, end):
    import pandas as pd

    frame = pd.DataFrame({"source": [0, 1, 2], "target": [1, 2, 0]})
    frame[end] = frame[end].astype(dtype)
    for count in (nx_tricount.dask_triangles, nx_tricount.dask_transitivity):
        with pytest.raises(TypeError, match=rf"column '{end}' .*integer vertex ids.*from_frame"):
            count(_dask_frame(frame))


@pytest.mark.parametrize("end", ["source", "target"])
def test_missing_ids_are_refused_naming_the_column(in_process, end):
    import pandas as pd

    frame = pd.DataFrame({"source": [0, 1, 2], "target": [1, 2, 0]}, dtype="Int64")
    frame.loc[1, end] = pd.NA
    for count in (nx_tricount.dask_triangles, nx_tricount.dask_transitivity):
        with pytest.raises(ValueError, match=rf"column '{end}' has 1 missing value"):
            count(_dask_frame(frame, npartitions=2))


@pytest.mark.parametrize("names", [("s", "target"), ("source", "t")], ids=["source", "target"])
def test_a_missing_column_is_a_key_error_naming_the_columns(in_process, names):
    import pandas as pd

    edges = _dask_frame(pd.DataFrame({"source": [0, 1], "target": [1, 2]}))
    missing = names[0] if names[0] != "source" else names[1]
    for count in (nx_tricount.dask_triangles, nx_tricount.dask_transitivity):
        with pytest.raises(KeyError, match=rf"column '{missing}'.*\['source', 'target'\]"):
            count(edges, *names)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"partitions": 0}, "partitions must be an int"),
        ({"partitions": 2.0}, "partitions must be an int"),
        ({"partitions": True}, "partitions must be an int"),
        ({"algorithm": "nope"}, "unknown algorithm 'nope'"),
    ],
)
def test_bad_settings_are_refused_before_any_count(in_process, kwargs, match):
    import pandas as pd

    edges = _dask_frame(pd.DataFrame({"source": [0, 1, 2], "target": [1, 2, 0]}))
    for count in (nx_tricount.dask_triangles, nx_tricount.dask_transitivity):
        with pytest.raises(ValueError, match=match):
            count(edges, **kwargs)


#: What distributed logs when the machine is slow, whatever runs: not the count's doing.
LOAD_WARNINGS = ("Event loop was unresponsive", "full garbage collections took")


class _Records(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        if not record.getMessage().startswith(LOAD_WARNINGS):
            self.records.append(record)


def test_counting_a_dask_frame_logs_and_warns_nothing(client, recwarn):
    """Dask's P2P shuffle logs each shuffle's start and end as warnings on the
    scheduler (here in this process, through the ``distributed`` logger, which
    does not propagate to the root logger): no count of ours may use one."""
    edges, src, dst = _edge_frame(npartitions=6)
    records = _Records()
    logger = logging.getLogger("distributed")
    logger.addHandler(records)
    try:
        nx_tricount.dask_triangles(edges, partitions=3).compute()
        nx_tricount.dask_transitivity(edges, partitions=3)
    finally:
        logger.removeHandler(records)
    assert [r.getMessage() for r in records.records] == []
    assert [str(w.message) for w in recwarn] == []
