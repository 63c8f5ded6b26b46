"""The drop-in switch ``NX_TRICOUNT_AUTOCONFIG`` on an unchanged script, in a
fresh interpreter (NetworkX reads its priorities once, at import): functions
that return a graph keep NetworkX's types, and ``k_truss`` runs in tricount
once its own priority names the backend."""

from subprocesses import run_python

#: Records NetworkX's dispatch log, then runs the script's calls.
LOGGED = """
import logging
import networkx as nx

messages = []
handler = logging.Handler()
handler.emit = lambda record: messages.append(record.getMessage())
logging.getLogger("networkx").addHandler(handler)
logging.getLogger("networkx").setLevel(logging.DEBUG)
"""


def test_the_switch_leaves_graph_builders_to_networkx():
    script = (
        LOGGED
        + """
import pandas as pd
G = nx.from_pandas_edgelist(pd.DataFrame({"source": [0, 1, 2], "target": [1, 2, 0]}))
print(type(G) is nx.Graph, nx.config.backend_priority.algos, nx.config.backend_priority.generators)
"""
    )
    rc, out, err = run_python(script, NX_TRICOUNT_AUTOCONFIG="1")
    assert rc == 0, err
    assert out.split() == ["True", "['tricount']", "[]"]


def test_k_truss_runs_in_tricount_with_its_own_priority():
    script = (
        LOGGED
        + """
G = nx.gnm_random_graph(300, 3000, seed=1)
nx.set_edge_attributes(G, 2.5, "weight")
expected = nx.k_truss(G, 3, backend="networkx")
nx.k_truss(G, 3, backend="tricount")  # compiled first: automatic dispatch weighs warm calls
nx.config.backend_priority.k_truss = ["tricount"]
messages.clear()
H = nx.k_truss(G, 3)
print(type(H) is nx.Graph, nx.utils.graphs_equal(H, expected), H.number_of_edges() > 0)
print("Using backend 'tricount' for call to 'k_truss'" in " ".join(messages))
"""
    )
    rc, out, err = run_python(script, NX_TRICOUNT_AUTOCONFIG="1")
    assert rc == 0, err
    assert out.split() == ["True", "True", "True", "True"]
