"""A real script under the drop-in switch against NetworkX alone, first call included.

The script reads an edge list and runs the whole triangle family (triangles,
clustering, average_clustering, transitivity, square_clustering,
generalized_degree, all_triangles, k_truss). Each run is a fresh interpreter,
timed from outside (its start, ``import networkx``, the reading and every call),
alternately without and with ``NX_TRICOUNT_AUTOCONFIG=1``; it prints the median
of --runs wall times of each, the calls tricount answered under the switch, and
checks that both gave the same results.

    python examples/dropin_script_timing.py                 # ~1k, ~14k and ~100k edges
    python examples/dropin_script_timing.py --edgelists my_graph.txt.gz
    python examples/dropin_script_timing.py --smoke         # one small graph, one run each
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]
#: Real graphs: tests/data's, and the project's collection beside the repository where present.
REAL = [ROOT / "tests" / "data" / "ca-GrQc.txt.gz", ROOT.parent / "shared" / "data" / "ca-CondMat.txt.gz"]

#: The script: what it prints is compared between the two runs; the functions
#: tricount ran (NetworkX's dispatch log would slow the run it reports on) go to stderr.
SCRIPT = """
import sys
import networkx as nx

G = nx.read_edgelist(sys.argv[1], nodetype=int)
G.remove_edges_from(nx.selfloop_edges(G))
print(G.number_of_edges())
triangles = nx.triangles(G)
clustering = nx.clustering(G)
average = nx.average_clustering(G)
transitivity = nx.transitivity(G)
squares = nx.square_clustering(G)
generalized = nx.generalized_degree(G)
listed = sum(1 for _ in nx.all_triangles(G))
truss = nx.k_truss(G, 3)
print(sum(triangles.values()), round(sum(clustering.values()), 9),
      round(average, 12), round(transitivity, 12))
print(round(sum(squares.values()), 9), sum(sum(c.values()) for c in generalized.values()), listed)
print(truss.number_of_nodes(), truss.number_of_edges())
dispatch = sys.modules.get("nx_tricount.nxapi.dispatch")
ran = ", ".join(sorted(dispatch.STARTED)) if dispatch else ""
print("tricount ran:", ran or "nothing", "| numba imported:", "numba" in sys.modules, file=sys.stderr)
"""


def run(path, switched):
    """Wall seconds of one fresh run, its output and its report of tricount's calls."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NX_TRICOUNT", "NETWORKX_"))}
    if switched:
        env["NX_TRICOUNT_AUTOCONFIG"] = "1"
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(path)], env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode:
        sys.exit(f"the script failed on {path}:\n{done.stderr}")
    return seconds, done.stdout, done.stderr.strip().splitlines()[-1]


def generated(folder, label, G):
    """``G`` written as an edge list in ``folder``."""
    path = Path(folder) / f"{label}.txt"
    nx.write_edgelist(G, path, data=False)
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edgelists", nargs="+", type=Path, help="edge list files (default: see above)")
    parser.add_argument("--runs", type=int, default=5, help="fresh runs of each (median)")
    parser.add_argument("--smoke", action="store_true", help="one small graph, one run of each")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        small = generated(folder, "powerlaw_cluster_500_2", nx.powerlaw_cluster_graph(500, 2, 0.5, seed=1))
        if args.smoke:
            paths, runs = [small], 1
        elif args.edgelists:
            paths, runs = args.edgelists, args.runs
        else:
            large = nx.powerlaw_cluster_graph(20_000, 5, 0.5, seed=1)
            real = [p for p in REAL if p.exists()]
            paths = [small, *real, generated(folder, "powerlaw_cluster_20000_5", large)]
            runs = args.runs
        print(f"{'graph':<32} {'NetworkX':>9} {'switched':>9}  (median of {runs} fresh runs, s)")
        for path in paths:
            times = {False: [], True: []}
            outputs = {}
            for _ in range(runs):
                for switched in (False, True):
                    seconds, out, report = run(path, switched)
                    times[switched].append(seconds)
                    outputs[switched] = out
            same = "same results" if outputs[False] == outputs[True] else "DIFFERENT RESULTS"
            label = f"{path.name.split('.')[0]} ({int(outputs[False].split()[0]):,} edges)"
            print(
                f"{label:<32} {statistics.median(times[False]):9.3f} {statistics.median(times[True]):9.3f}"
                f"  {same}; switched: {report}"
            )
            if outputs[False] != outputs[True]:
                print(outputs[False], outputs[True], sep="\n")
                sys.exit(1)


if __name__ == "__main__":
    main()
