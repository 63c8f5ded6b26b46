"""``python -m nx_tricount``: count triangles of a graph and compare with NetworkX.

With no arguments it uses a graph embedded in NetworkX (Les Misérables
co-appearances), so it runs anywhere, with or without a GPU.
"""

import argparse
import time

import networkx as nx
import numpy as np

import nx_tricount
from nx_tricount.config import CHOICES


def _load(args):
    if args.edges:
        edges = np.loadtxt(args.edges, comments=("#", "%"), dtype=np.int64, ndmin=2, usecols=(0, 1))
        G = nx.Graph()
        G.add_edges_from(zip(edges[:, 0].tolist(), edges[:, 1].tolist()))
        return args.edges, G
    if args.rmat:
        src, dst = nx_tricount.generators.rmat_edges(args.rmat, seed=0)
        G = nx.Graph()
        G.add_edges_from(zip(src.tolist(), dst.tolist()))
        return f"R-MAT scale {args.rmat}", G
    return "Les Misérables (embedded in NetworkX)", nx.les_miserables_graph()


def _timed(func, *args, **kwargs):
    start = time.perf_counter()
    result = func(*args, **kwargs)
    return result, time.perf_counter() - start


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m nx_tricount", description=__doc__)
    parser.add_argument("--edges", help="text edge list 'u v' per line (default: embedded graph)")
    parser.add_argument("--rmat", type=int, metavar="SCALE", help="a seeded Graph500 R-MAT graph instead")
    for key, values in CHOICES.items():
        parser.add_argument(f"--{key}", choices=values, default=None)
    args = parser.parse_args(argv)
    settings = {key: getattr(args, key) for key in CHOICES if getattr(args, key)}

    name, G = _load(args)
    print(f"graph: {name}: {G.number_of_nodes()} nodes, {G.number_of_edges()} edges")
    print(f"plan: {nx_tricount.make_plan(G, **settings)}")
    nx.config.cache_converted_graphs = False
    # The first call compiles (or loads from numba's cache) the kernels.
    _, warmup_s = _timed(nx.triangles, nx.complete_graph(4), backend="tricount", **settings)
    print(f"warm-up (kernel compilation or cache load): {warmup_s:.2f} s")
    rows = []
    for label, func in [
        ("triangles", nx.triangles),
        ("clustering", nx.clustering),
        ("transitivity", nx.transitivity),
        ("average_clustering", nx.average_clustering),
    ]:
        ours, ours_s = _timed(func, G, backend="tricount", **settings)
        theirs, theirs_s = _timed(func, G)
        same = ours == theirs
        rows.append((label, ours_s, theirs_s, same))
        if label == "triangles":
            print(f"triangles: {sum(ours.values()) // 3}")
        elif not isinstance(ours, dict):
            print(f"{label}: {ours}")
    print("\ntimes include the conversion from the nx.Graph")
    print(f"{'function':<20}{'tricount s':>12}{'networkx s':>12}  same result")
    for label, ours_s, theirs_s, same in rows:
        print(f"{label:<20}{ours_s:>12.4f}{theirs_s:>12.4f}  {same}")
    if not all(row[3] for row in rows):
        raise SystemExit("tricount and NetworkX disagree")


if __name__ == "__main__":
    main()
