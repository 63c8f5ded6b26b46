"""Every public function of the triangle family under every spread of a count,
on the CPU engine: whole, ``partitions`` 2 and 3, a ``memory_limit`` that puts
the graph into parts from host memory, the replicated regime's shares,
``devices`` (GPU ids: the CPU engine counts whole and its plan says so) and
``distributed="dask"`` in either regime; each result
NetworkX's (tests/matrix.py defines the matrix; tests/test_gpu_matrix.py runs it
on the GPU)."""

import networkx as nx
import pytest

import nx_tricount
from matrix import (  # noqa: F401  (fixtures)
    CASES,
    SPREADS,
    check,
    dask_client,
    graph,
    local_cluster,
    no_conversion_cache,
    spread_settings,
)


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("spread", SPREADS)
def test_every_function_under_every_spread(spread, name, request):
    if spread.startswith("dask"):
        request.getfixturevalue("dask_client")
    check(name, spread, "cpu")


@pytest.mark.parametrize("spread", ["partitions=2", "memory_limit", "dask"])
def test_square_clustering_says_it_counts_whole(spread, request, caplog):
    # Squares have no partition of their own: under a spread they are counted
    # whole, on the device the graph is prepared on, and the log says so.
    if spread == "dask":
        request.getfixturevalue("dask_client")
    G = graph("undirected")
    with caplog.at_level("INFO", logger="nx_tricount"):
        check("square_clustering", spread, "cpu")
    assert "square clustering counts whole on the cpu" in caplog.text
    caplog.clear()
    with caplog.at_level("INFO", logger="nx_tricount"):
        nx.square_clustering(G, backend="tricount", device="cpu")
    assert "square clustering counts whole" not in caplog.text


@pytest.mark.parametrize("name", ["triangles", "clustering weighted", "clustering directed", "transitivity"])
@pytest.mark.parametrize("spread", SPREADS)
def test_the_cpu_rules_ascending_degree_ids_under_every_spread(spread, name, request, monkeypatch):
    # The CPU rule's preparation of large graphs with drawn ids, brought down to the
    # matrix's graphs: every spread prepares and counts on ascending-degree ids.
    if spread.startswith("dask"):
        request.getfixturevalue("dask_client")
    monkeypatch.setattr("nx_tricount.planning.rules.CPU_ORDERED_ROWS", 1)
    monkeypatch.setattr("nx_tricount.planning.rules.CPU_ORDERED_SPAN", 0.0)
    G = graph(CASES[name].graph)
    with nx.config.backends.tricount(**spread_settings(spread, G, "cpu")):
        plan = nx_tricount.make_plan(G, device="cpu")
    assert (plan.algorithm, plan.orientation, plan.ordering) == ("hash", "id", "degree"), plan
    check(name, spread, "cpu")
