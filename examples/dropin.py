"""Drop-in acceleration: an unchanged NetworkX script, dispatched to tricount.

Run it as it is (NetworkX computes), then with the backend first in NetworkX's
priority, without editing a line:

    python examples/dropin.py
    NX_TRICOUNT_AUTOCONFIG=True python examples/dropin.py

``NX_TRICOUNT_LOG=1`` also prints NetworkX's dispatch log, which names the
backend that ran each call.
"""

import logging
import os
import time

import networkx as nx

if os.environ.get("NX_TRICOUNT_LOG"):
    logging.basicConfig(format="%(name)s: %(message)s")
    logging.getLogger("networkx").setLevel(logging.DEBUG)

G = nx.gnm_random_graph(20_000, 200_000, seed=42)
print("backend priority:", nx.config.backend_priority.algos or "(NetworkX only)")
for func in (nx.triangles, nx.clustering, nx.transitivity, nx.average_clustering):
    start = time.perf_counter()
    result = func(G)
    seconds = time.perf_counter() - start
    summary = sum(result.values()) if isinstance(result, dict) else result
    print(f"{func.__name__:<20} {seconds:8.3f} s   {summary}")
