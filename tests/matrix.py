"""Every public function of the triangle family under every spread of a count:
the matrix that tests/test_matrix.py runs on the CPU engine and
tests/test_gpu_matrix.py on the GPU.

A *case* is one function as a user calls it (through NetworkX's dispatch, or the
direct API, with frames out), on a small seeded graph, with NetworkX's own
result and the comparison it is held to. A *spread* is a setting of
``nx.config.backends.tricount`` that changes where and in how many parts the
count runs: whole, ``partitions`` 2 and 3, a ``memory_limit`` that forces the
graph into parts (in the partitioned regime), the replicated regime (shares of
the whole graph: one after another on the CPU, two workers of one GPU on the
GPU), ``devices`` with a repeated id in the partitioned regime, and
``distributed="dask"`` in either regime; on the GPU also the same memory limit
in the ``auto`` regime, where one GPU prepares the graph in passes and counts it
whole (:data:`GPU_SPREADS`).
:func:`assert_spread` reads the plan, so that a setting that stops producing its
spread fails the test instead of testing the whole count again.
"""

import functools
from collections.abc import Callable
from contextlib import contextmanager
from typing import NamedTuple

import networkx as nx
import numpy as np
import pytest

import nx_tricount
import strategies as S
from nx_tricount.io.generators import rmat_edges
from nx_tricount.planning.memory import whole_bytes
from test_properties import assert_exact, assert_within, clustering_bound
from test_result_frames import as_dict, edge_support
from test_triangle_family import assert_same, assert_same_graph, triangle_tuples

__all__ = [
    "SPREADS",
    "GPU_SPREADS",
    "CASES",
    "graph",
    "spread_settings",
    "assert_spread",
    "check",
    "local_cluster",
    "node_values",
    "edge_values",
    "triangle_rows",
]

#: Settings of ``nx.config.backends.tricount`` by spread (see :func:`spread_settings`).
SPREADS = (
    "whole",
    "partitions=2",
    "partitions=3",
    "memory_limit",
    "replicated",
    "devices",
    "dask",
    "dask partitioned",
)
#: And on the GPU: the memory limit in the ``auto`` regime.
GPU_SPREADS = (*SPREADS, "passes")

WEIGHT = "weight"


def _rmat(scale, directed, seed):
    """A seeded R-MAT graph of NetworkX (its node order is the edges' first
    appearance), with float weights on about 70% of its edges (the rest weigh 1)."""
    src, dst = rmat_edges(scale, 8, seed=seed)
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_edges_from(zip(src.tolist(), dst.tolist()))
    if not directed:
        G.remove_edges_from(list(nx.selfloop_edges(G)))  # k_truss refuses them
    else:
        G.add_edges_from([(v, u) for u, v in list(G.edges())[::3]])  # reciprocal pairs
    rng = np.random.default_rng(seed)
    for u, v in G.edges():
        if rng.random() < 0.7:
            G[u][v][WEIGHT] = float(rng.uniform(0.1, 5.0))
    return G


@functools.cache
def graph(kind):
    """The matrix's ``"undirected"`` or ``"directed"`` graph (treat as read-only)."""
    return _rmat(9, False, seed=9) if kind == "undirected" else _rmat(8, True, seed=8)


def spread_settings(spread, G, device):
    """The settings of ``spread`` for counting ``G`` (a NetworkX graph or a
    TriGraph) on ``device``."""
    if spread == "whole":
        return {}
    if spread.startswith("partitions="):
        return {"partitions": int(spread.split("=")[1])}
    if spread in ("memory_limit", "passes"):
        # One byte below the whole count's estimate: the smallest push into parts,
        # or into passes on one GPU where the regime is left to the plan.
        T = G if isinstance(G, nx_tricount.TriGraph) else nx_tricount.from_networkx(G)
        limit = {"memory_limit": whole_bytes(int(T.src.size)) - 1}
        return limit if spread == "passes" else {**limit, "regime": "partitioned"}
    if spread == "replicated":
        return {"regime": "replicated", "devices": [_current_gpu(device)] * 2 if device == "gpu" else "auto"}
    if spread == "devices":
        return {"devices": [_current_gpu(device)] * 2, "regime": "partitioned"}
    if spread == "dask":
        return {"distributed": "dask"}  # a graph that fits: replicated on the workers
    if spread == "dask partitioned":
        return {"distributed": "dask", "regime": "partitioned"}
    raise AssertionError(spread)


def _current_gpu(device):
    if device == "cpu":
        return 0
    import cupy

    return cupy.cuda.Device().id


def assert_spread(spread, G, device):
    """The plan of a count of ``G`` on ``device`` under the current settings is ``spread``'s."""
    plan = nx_tricount.make_plan(G, device=device)
    s = plan.spread
    if spread == "whole":
        assert s.parts == 1 and not s.prepared_in_parts and not s.distributed, plan
    elif spread.startswith("partitions="):
        assert s.parts == int(spread.split("=")[1]), plan
    elif spread == "passes" and not G.is_directed():
        assert s.prepared_in_passes and (s.parts, s.executor) == (1, "whole"), plan
    elif spread in ("memory_limit", "passes"):
        assert s.parts > 1 and s.prepared_in_parts, plan
        assert s.preparation_device == "cpu", plan  # host memory, on either device
    elif spread == "replicated":
        assert s.regime == "replicated" and s.parts == 1 and s.shares >= 2, plan
        if device == "gpu":
            assert s.devices == (_current_gpu(device),) * 2 and s.executor == "gpus", plan
        else:
            assert s.executor == "serial", plan
    elif spread == "devices" and device == "gpu":
        assert s.devices == (_current_gpu(device),) * 2 and s.parts > 1, plan
    elif spread == "devices":
        # The CPU engine has no devices to spread over: it counts whole and says so.
        assert s.devices == () and s.parts == 1, plan
        assert "GPU ids, not used by the CPU engine" in str(plan), plan
    elif spread == "dask":
        assert s.distributed == "dask" and s.regime == "replicated", plan
    elif spread == "dask partitioned":
        assert s.distributed == "dask" and s.parts > 1, plan
    else:
        raise AssertionError(spread)


class Case(NamedTuple):
    """A function as called, on the matrix's ``graph`` kind, against NetworkX."""

    graph: str
    call: Callable  # (G, device) -> result
    networkx: Callable  # G -> NetworkX's result
    compare: Callable  # (ours, NetworkX's, G) -> None, raising AssertionError


def _through_networkx(function, *args, **kwargs):
    return lambda G, device: function(G, *args, backend="tricount", device=device, **kwargs)


def _exact(ours, expected, G):
    assert_exact(ours, expected)


def _same(ours, expected, G):
    assert_same(ours, expected)


def _same_graph(ours, expected, G):
    assert_same_graph(ours, expected)


def _equal(ours, expected, G):
    assert ours == expected


def _weighted(ours, expected, G):
    assert_within(ours, expected, _weighted_bound(G))


@functools.cache
def _weighted_bound(G):
    """The bound of weighted clustering against NetworkX, per node (docs/testing.md)."""
    return clustering_bound(G, S.NodesSpec("none", None), WEIGHT)


def node_values(frame, column):
    """A node frame's values in row order, keyed by node."""
    assert list(frame.columns) == ["node", column]
    return as_dict(frame, "node", column)


def edge_values(frame):
    assert list(frame.columns) == ["source", "target", "triangles"]
    rows = zip(frame["source"].tolist(), frame["target"].tolist(), frame["triangles"].tolist())
    return {(u, v): t for u, v, t in rows}


def triangle_rows(frame):
    assert list(frame.columns) == ["u", "v", "w"]
    return triangle_tuples(zip(frame["u"].tolist(), frame["v"].tolist(), frame["w"].tolist()))


#: Every function of the family and of the direct API, frames out included.
CASES = {
    "triangles": Case("undirected", _through_networkx(nx.triangles), nx.triangles, _exact),
    "clustering": Case("undirected", _through_networkx(nx.clustering), nx.clustering, _exact),
    "clustering weighted": Case(
        "undirected",
        _through_networkx(nx.clustering, weight=WEIGHT),
        lambda G: nx.clustering(G, weight=WEIGHT),
        _weighted,
    ),
    "clustering directed": Case("directed", _through_networkx(nx.clustering), nx.clustering, _exact),
    "clustering directed weighted": Case(
        "directed",
        _through_networkx(nx.clustering, weight=WEIGHT),
        lambda G: nx.clustering(G, weight=WEIGHT),
        _weighted,
    ),
    "average_clustering": Case(
        "undirected", _through_networkx(nx.average_clustering), nx.average_clustering, _exact
    ),
    "transitivity": Case("undirected", _through_networkx(nx.transitivity), nx.transitivity, _exact),
    "transitivity directed": Case("directed", _through_networkx(nx.transitivity), nx.transitivity, _exact),
    "square_clustering": Case(
        "undirected", _through_networkx(nx.square_clustering), nx.square_clustering, _same
    ),
    "square_clustering directed": Case(
        "directed", _through_networkx(nx.square_clustering), nx.square_clustering, _same
    ),
    "generalized_degree": Case(
        "undirected", _through_networkx(nx.generalized_degree), nx.generalized_degree, _same
    ),
    "all_triangles": Case(
        "undirected",
        lambda G, device: triangle_tuples(nx.all_triangles(G, backend="tricount", device=device)),
        lambda G: triangle_tuples(nx.all_triangles(G)),
        _equal,
    ),
    "k_truss": Case("undirected", _through_networkx(nx.k_truss, 5), lambda G: nx.k_truss(G, 5), _same_graph),
    "edge_triangles": Case(
        "undirected", lambda G, device: nx_tricount.edge_triangles(G, device=device), edge_support, _exact
    ),
    "triangles frame": Case(
        "undirected",
        lambda G, device: node_values(nx_tricount.triangles(G, as_frame=True, device=device), "triangles"),
        nx.triangles,
        _exact,
    ),
    "clustering frame": Case(
        "undirected",
        lambda G, device: node_values(nx_tricount.clustering(G, as_frame=True, device=device), "clustering"),
        lambda G: {v: float(c) for v, c in nx.clustering(G).items()},  # a float column
        _exact,
    ),
    "all_triangles frame": Case(
        "undirected",
        lambda G, device: triangle_rows(nx_tricount.all_triangles(G, as_frame=True, device=device)),
        lambda G: triangle_tuples(nx.all_triangles(G)),
        _equal,
    ),
    "edge_triangles frame": Case(
        "undirected",
        lambda G, device: edge_values(nx_tricount.edge_triangles(G, as_frame=True, device=device)),
        edge_support,
        _exact,
    ),
}


@functools.cache
def networkx_result(name):
    """NetworkX's result of case ``name``, computed once."""
    case = CASES[name]
    return case.networkx(graph(case.graph))


def check(name, spread, device):
    """Case ``name`` under ``spread`` on ``device`` gives NetworkX's result, and
    the plan is ``spread``'s."""
    case = CASES[name]
    G = graph(case.graph)
    with nx.config.backends.tricount(**spread_settings(spread, G, device)):
        assert_spread(spread, G, device)
        ours = case.call(G, device)
    case.compare(ours, networkx_result(name), G)


@contextmanager
def local_cluster():
    """A Dask client of a LocalCluster of two one-thread workers in this process."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
    )
    try:
        with distributed.Client(cluster) as client:
            yield client
    finally:
        cluster.close()


@pytest.fixture(autouse=True)
def no_conversion_cache():
    """The matrix's files count every call anew: no conversion kept on G."""
    with nx.config(cache_converted_graphs=False):
        yield


@pytest.fixture(scope="module")
def dask_client():
    """The Dask spread's client, one per test file."""
    with local_cluster() as client:
        yield client
