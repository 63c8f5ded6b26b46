"""Beside nx-cugraph: with both backends installed and
``NETWORKX_BACKEND_PRIORITY=tricount,cugraph``, the triangle family runs in
tricount and every other function in nx-cugraph, and tricount builds its graph
from nx-cugraph's cached conversion instead of reading the NetworkX graph again.
Skipped where nx-cugraph is not installed (CI); run on the GPU machine with it
staged."""

import pytest

from subprocesses import run_python

pytest.importorskip("nx_cugraph")

pytestmark = pytest.mark.gpu

SCRIPT = """
import logging

import networkx as nx

import nx_tricount.nxapi.dispatch

# These graphs are small: dispatch regardless of should_run's cost model, which
# leaves them to NetworkX in a fresh process.
for function in nx_tricount.nxapi.dispatch.REGISTERED.values():
    function.should_run = lambda args, kwargs: True
logging.basicConfig(level=logging.DEBUG, format="%(name)s %(message)s")
# k_truss returns a graph: NetworkX dispatches it by the priority of functions that
# return graphs, or by its own (which NetworkX 3.6 takes in code, not from the
# environment: it reads NETWORKX_BACKEND_PRIORITY_<NAME> before it knows the names).
nx.config.backend_priority.k_truss = ["tricount", "cugraph"]
for G in (nx.les_miserables_graph(), nx.DiGraph(nx.gnp_random_graph(300, 0.05, seed=3))):
    nx.pagerank(G)
    print(G.is_directed(), "clustering", nx.clustering(G) == nx.clustering(G, backend="networkx"))
    print(G.is_directed(), "transitivity", nx.transitivity(G) == nx.transitivity(G, backend="networkx"))
G = nx.les_miserables_graph()
truss = nx.k_truss(G, 4)
print("k_truss", type(truss).__module__, nx.utils.graphs_equal(truss, nx.k_truss(G, 4, backend="networkx")))
"""


def test_the_triangle_family_goes_to_tricount_and_the_rest_to_nx_cugraph():
    code, out, err = run_python(SCRIPT, NETWORKX_BACKEND_PRIORITY="tricount,cugraph")
    assert code == 0, err
    assert out.split("\n")[:4] == [
        "False clustering True",
        "False transitivity True",
        "True clustering True",
        "True transitivity True",
    ]
    assert out.split("\n")[4].endswith("True")
    assert err.count("Using backend 'cugraph' for call to 'pagerank'") == 2
    for name in ("clustering", "transitivity", "k_truss"):
        assert f"Using backend 'tricount' for call to '{name}'" in err
    # Both graphs were converted by nx-cugraph for pagerank; tricount reused that.
    assert err.count("tricount reuses nx-cugraph's conversion") >= 2
