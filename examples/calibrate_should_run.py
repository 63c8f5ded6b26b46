"""Measure the costs that ``nx_tricount/nxapi/should_run.py`` weighs, on this machine.

Warm, on a few graphs (the best of several runs): NetworkX's seconds per
neighbour and per step of its work (``should_run.graph_work``, read exactly
here) for each function of the triangle family, tricount's seconds per call and
per step through NetworkX's dispatcher (each call converting the graph), and the
conversion's seconds per edge. In fresh interpreters (the median of --processes): what a process's first
call loads, the engine's import, its first count's start and each function's
kernels (and apart, the scipy.linalg that numba's start imports where SciPy is
installed), and where CuPy sees a GPU, CuPy's import and the GPU's start. It prints
them as should_run.py's constants, beside the ones it holds, and each graph's
measured seconds beside the model's.

    python examples/calibrate_should_run.py
    python examples/calibrate_should_run.py --smoke      # two small graphs, one process
"""

import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import networkx as nx
import numpy as np

from nx_tricount.nxapi import should_run
from nx_tricount.nxapi.interface import BackendInterface

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"

#: Each function of the family as a whole-graph call, NetworkX's generator consumed.
CALLS = {
    "triangles": lambda G, **kw: nx.triangles(G, **kw),
    "clustering": lambda G, **kw: nx.clustering(G, **kw),
    "average_clustering": lambda G, **kw: nx.average_clustering(G, **kw),
    "transitivity": lambda G, **kw: nx.transitivity(G, **kw),
    "square_clustering": lambda G, **kw: nx.square_clustering(G, **kw),
    "generalized_degree": lambda G, **kw: nx.generalized_degree(G, **kw),
    "all_triangles": lambda G, **kw: list(nx.all_triangles(G, **kw)),
    "k_truss": lambda G, **kw: nx.k_truss(G, 3, **kw),
}

#: A fresh interpreter's first calls: the imports, then each function's first
#: call and its best warm call (triangles first: its first call starts the engine).
FIRST_CALLS = """
import json, sys, time
start = time.perf_counter()
import networkx as nx
begun = time.perf_counter()
cupy_import = None
if sys.argv[1] == "gpu":
    import cupy
    cupy_import = time.perf_counter() - begun
    begun = time.perf_counter()
import nx_tricount.nxapi.cluster, nx_tricount.nxapi.core
imported = time.perf_counter()
try:  # what numba's start imports where SciPy is installed, timed on its own
    import scipy.linalg
    scipy_linalg = time.perf_counter() - imported
except ImportError:
    scipy_linalg = None
sys.path.insert(0, sys.argv[2])
from calibrate_should_run import CALLS
nx.config.cache_converted_graphs = False
G = nx.karate_club_graph() if sys.argv[1] == "cpu" else nx.gnm_random_graph(2_000, 20_000, seed=1)
device = dict(device=sys.argv[1])
first = {}
for name, call in CALLS.items():
    seconds = []
    for _ in range(4):
        t = time.perf_counter()
        call(G, backend="tricount", **device)
        seconds.append(time.perf_counter() - t)
    first[name] = (seconds[0], min(seconds[1:]))
loads = dict(engine_import=imported - begun, scipy_linalg=scipy_linalg, cupy_import=cupy_import)
print(json.dumps(dict(loads, first=first)))
"""


def read_edges(path):
    """An undirected NetworkX graph from a gzipped ``u v`` edge list, without self-loops."""
    with gzip.open(path, "rt") as f:
        G = nx.parse_edgelist((line for line in f if line[0] not in "#%"), nodetype=int)
    G.remove_edges_from(nx.selfloop_edges(G))
    return G


def graphs(smoke):
    chosen = {"karate club": nx.karate_club_graph(), "jazz": read_edges(DATA / "jazz.txt.gz")}
    if not smoke:
        chosen.update(
            {
                "Les Misérables": nx.les_miserables_graph(),
                "G(300, 0.03)": nx.gnp_random_graph(300, 0.03, seed=1),
                "gemsec_fb_food": read_edges(DATA / "gemsec_fb_food.txt.gz"),
                "BA(3000, 3)": nx.barabasi_albert_graph(3_000, 3, seed=1),
                "G(2000, 20000)": nx.gnm_random_graph(2_000, 20_000, seed=1),
                "powerlaw cluster(5000, 5)": nx.powerlaw_cluster_graph(5_000, 5, 0.5, seed=1),
                "ca-GrQc": read_edges(DATA / "ca-GrQc.txt.gz"),
            }
        )
    return chosen


def best(call, budget=0.3):
    """The least seconds of ``call()`` over at least 3 runs and at most 20, until ``budget``."""
    seconds = []
    while len(seconds) < 3 or (sum(seconds) < budget and len(seconds) < 20):
        start = time.perf_counter()
        call()
        seconds.append(time.perf_counter() - start)
    return min(seconds)


def warm(chosen):
    """Per graph: edges, work per function, NetworkX's and tricount's seconds, the conversion's."""
    rows = []
    nx.config.cache_converted_graphs = False
    for label, G in chosen.items():
        for call in CALLS.values():  # the kernels' first loads, outside the clock
            call(G, backend="tricount")
        row = dict(graph=label, edges=G.number_of_edges(), networkx={}, tricount={}, work={})
        row["conversion"] = best(lambda: BackendInterface.convert_from_nx(G))
        for name, call in CALLS.items():
            row["work"][name] = tuple(should_run.graph_work(G, name == "square_clustering", sample=len(G))[0])
            row["networkx"][name] = best(lambda: call(G, backend="networkx"))
            row["tricount"][name] = best(lambda: call(G, backend="tricount"))
        rows.append(row)
        print(f"  measured {label}: {row['edges']:,} edges", file=sys.stderr)
    return rows


def relative_fit(features, seconds):
    """Non-negative coefficients of ``features`` (rows) giving ``seconds`` with the
    least squared relative error (a coefficient that comes out negative is dropped)."""
    scaled = np.array(features, dtype=float) / np.array(seconds)[:, None]
    target = np.ones(len(seconds))
    coefficients, *_ = np.linalg.lstsq(scaled, target, rcond=None)
    if (coefficients < 0).any():
        keep = coefficients > 0
        coefficients = np.zeros(len(keep))
        coefficients[keep], *_ = np.linalg.lstsq(scaled[:, keep], target, rcond=None)
    return [float(c) for c in coefficients]


def fit(rows):
    """The constants: the conversion per edge, the median over the graphs;
    NetworkX per neighbour and per step, and tricount per call and per step (each
    call less its conversion), by :func:`relative_fit`."""
    per_edge = statistics.median(r["conversion"] / r["edges"] for r in rows)
    costs = {}
    for name in CALLS:
        networkx = relative_fit([r["work"][name] for r in rows], [r["networkx"][name] for r in rows])
        counts = [max(r["tricount"][name] - per_edge * r["edges"], 1e-6) for r in rows]
        ours = relative_fit([(1.0, r["work"][name][1]) for r in rows], counts)
        costs[name] = dict(
            networkx_per_neighbour=networkx[0], networkx_per_step=networkx[1], call=ours[0], per_step=ours[1]
        )
    return costs, per_edge


def first_calls(processes, device):
    """The median over fresh interpreters of the imports and each function's first call less its warm one."""
    runs = []
    for _ in range(processes):
        out = subprocess.run(
            [sys.executable, "-c", FIRST_CALLS, device, str(Path(__file__).parent)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        runs.append(json.loads(out.strip().splitlines()[-1]))
    loads = {"engine_import": statistics.median(r["engine_import"] for r in runs)}
    if runs[0]["scipy_linalg"] is not None:
        loads["scipy_linalg"] = statistics.median(r["scipy_linalg"] for r in runs)
    if device == "gpu":
        loads["cupy_import"] = statistics.median(r["cupy_import"] for r in runs)
    for name in CALLS:
        loads[name] = statistics.median(max(r["first"][name][0] - r["first"][name][1], 0.0) for r in runs)
    return loads


def gpu_present():
    from nx_tricount.gpu.device import gpu_available

    return gpu_available()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true", help="two small graphs, one fresh process")
    parser.add_argument("--processes", type=int, default=5, help="fresh interpreters for first calls")
    args = parser.parse_args()
    rows = warm(graphs(args.smoke))
    costs, per_edge = fit(rows)
    loads = first_calls(1 if args.smoke else args.processes, "cpu")
    # triangles' first call starts the engine; the others' load their own kernels after it.
    engine_start, costs["triangles"]["first_call"] = loads["triangles"], 0.0
    for name in CALLS:
        if name != "triangles":
            costs[name]["first_call"] = loads[name]

    print(f"Measured with {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} (other processes")
    print(
        "slow every figure, tricount's parallel kernels most). Seconds, this machine's, then should_run.py's:"
    )
    print("COSTS = {")
    for name, cost in costs.items():
        held = should_run.COSTS[name]._asdict()
        fields = ", ".join(f"{k}={v:.2g}" for k, v in cost.items())
        print(f'    "{name}": Costs({fields}),  # now: {", ".join(f"{v:.2g}" for v in held.values())}')
    print("}")
    constants = dict(
        CONVERSION_PER_EDGE=per_edge, ENGINE_IMPORT=loads["engine_import"], ENGINE_START=engine_start
    )
    if "scipy_linalg" in loads:
        constants["SCIPY_LINALG_IMPORT"] = loads["scipy_linalg"]
    if gpu_present():
        gpu = first_calls(1 if args.smoke else args.processes, "gpu")
        constants.update(CUPY_IMPORT=gpu["cupy_import"], GPU_START=gpu["triangles"])
    else:
        print("# no GPU here: CUPY_IMPORT and GPU_START are measured where CuPy sees one")
    for key, value in constants.items():
        print(f"{key} = {value:.2g}  # now: {getattr(should_run, key):.2g}")

    print("\nWarm seconds, measured / modelled (tricount: conversion and count):")
    for r in rows:
        cells = []
        for name, cost in costs.items():
            neighbours, steps = r["work"][name]
            modelled = cost["call"] + cost["per_step"] * steps + per_edge * r["edges"]
            nxm = cost["networkx_per_neighbour"] * neighbours + cost["networkx_per_step"] * steps
            measured_nx, measured_tc = r["networkx"][name], r["tricount"][name]
            cells.append(f"{name} nx {measured_nx:.2g}/{nxm:.2g} tc {measured_tc:.2g}/{modelled:.2g}")
        print(f"{r['graph']} ({r['edges']:,} edges): " + "; ".join(cells))


if __name__ == "__main__":
    main()
