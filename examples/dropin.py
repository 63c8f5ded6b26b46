"""Drop-in acceleration: an unchanged NetworkX script, dispatched to tricount.

Run it as it is (NetworkX computes), then with the backend first in NetworkX's
priority, without editing a line:

    python examples/dropin.py
    NX_TRICOUNT_AUTOCONFIG=True python examples/dropin.py

``NX_TRICOUNT_LOG=1`` also prints NetworkX's dispatch log, which names the
backend that ran each call. ``--smoke`` counts on a graph ten times smaller (a
run of seconds, for CI).
"""

import argparse
import logging
import os
import time

import networkx as nx

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--smoke", action="store_true", help="2,000 nodes and 20,000 edges")
scale = 1 if parser.parse_args().smoke else 10

if os.environ.get("NX_TRICOUNT_LOG"):
    logging.basicConfig(format="%(name)s: %(message)s")
    logging.getLogger("networkx").setLevel(logging.DEBUG)

# NetworkX warns each time a call reuses the conversion it cached on G for a backend.
nx.config.warnings_to_ignore.add("cache")

G = nx.gnm_random_graph(2_000 * scale, 20_000 * scale, seed=42)
print("backend priority:", nx.config.backend_priority.algos or "(NetworkX only)")
for func in (nx.triangles, nx.clustering, nx.transitivity, nx.average_clustering):
    start = time.perf_counter()
    result = func(G)
    seconds = time.perf_counter() - start
    summary = sum(result.values()) if isinstance(result, dict) else result
    print(f"{func.__name__:<20} {seconds:8.3f} s   {summary}")
