"""Fresh per-node calls of the CPU engine against the CPU libraries a Python user
would pick, graph by graph: every graph of the data folder and R-MAT 16 to 20.

tricount's call starts from edge arrays (``nx_tricount.from_edges``) and ends
with NetworkX's dict, its preparation inside; each peer's call runs on the graph
it built beforehand (building not timed) and ends with its own result:

- networkit: ``LocalClusteringCoefficient(turbo=True)`` (a list), and per-node
  triangles from ``TriangleEdgeScore`` (triangles on each edge, each node half
  the sum over its edges: a NumPy array);
- igraph: ``transitivity_local_undirected(mode="zero")`` (a list);
- python-graphblas (SuiteSparse:GraphBLAS): per-node triangles as the row sums
  of ``A (+.pair) A`` masked by ``A``, clustering from them (NumPy arrays).

The calls alternate, one of each per round, after one untimed round, each after
a pause of :data:`SETTLE_S` that lets the threads of the call before go to
sleep. The table gives medians in milliseconds and the fastest peer's time over
tricount's; the last lines, how many graphs reach :data:`TARGET`. Every library
runs on every core (2 on the machine of ``docs/benchmarks.md``). Every result is
checked: triangles equal (their sum to the MANIFEST's count), clustering to
1e-12 relative; a mismatch stops the run. A peer that is not installed is left
out, saying so.

Usage::

    python examples/compare_cpu.py --json results/compare_cpu.json
    python examples/compare_cpu.py --graphs ca-CondMat email-Enron --rmat   # a subset
    python examples/compare_cpu.py --data tests/data --graphs jazz --rmat 8 --rounds 1
"""

import argparse
import csv
import json
import os
import statistics
import time
from pathlib import Path

import numba
import numpy as np
from benchmark_cpu import DATA, data_graph, igraph, nk, simple_edges  # the script beside this one

import nx_tricount
from nx_tricount.io.generators import rmat_edges

try:
    import graphblas as gb
except ImportError:
    gb = None

RMAT_SCALES = (16, 17, 18, 19, 20)
#: The goal: each fresh call this many times faster than the fastest peer's.
TARGET = 1.2
#: Seconds of rest before each timed call: the OpenMP threads of the call before,
#: another library's, spin a while after their work and would slow this one down
#: (on two cores, tricount's jazz call took 5.1 ms right after a peer's, 0.66 alone).
SETTLE_S = 0.05


def data_graphs(folder, names):
    """``(name, (lo, hi, n))`` of each graph of the folder's MANIFEST.tsv, renumbered
    and checked against it (``benchmark_cpu.data_graph``)."""
    with open(folder / "MANIFEST.tsv", newline="") as f:
        rows = sorted(csv.DictReader(f, delimiter="\t"), key=lambda row: row["file"])
    for row in rows:
        name = row["file"].removesuffix(".txt.gz")
        if not names or name in names:
            yield name, data_graph(folder / row["file"], int(row["nodes"]), int(row["triangles"]))


def rmat_graphs(scales):
    """R-MAT of each scale (seeded by it), its isolated ids left out."""
    for scale in scales:
        lo, hi = simple_edges(*rmat_edges(scale, seed=scale))
        ids, renumbered = np.unique(np.concatenate([lo, hi]), return_inverse=True)
        yield f"R-MAT {scale}", (renumbered[: lo.size], renumbered[lo.size :], ids.size)


def calls(lo, hi, n):
    """``{(quantity, library): call}``: each call returns per-node values in id order
    (tricount's NetworkX's dict, whose values are in id order), in its own form."""
    degree = np.bincount(lo, minlength=n) + np.bincount(hi, minlength=n)

    def tricount_triangles():
        return nx_tricount.triangles(nx_tricount.from_edges(lo, hi, n=n))

    def tricount_clustering():
        return nx_tricount.clustering(nx_tricount.from_edges(lo, hi, n=n))

    found = {("triangles", "tricount"): tricount_triangles, ("clustering", "tricount"): tricount_clustering}
    if nk is not None:
        graph = nk.GraphFromCoo((np.ones(lo.size), (lo.astype(np.uint64), hi.astype(np.uint64))), n)
        graph.indexEdges()
        ends = np.empty((graph.upperEdgeIdBound(), 2), dtype=np.int64)

        def note(u, v, weight, edge_id):
            ends[edge_id] = u, v

        graph.forEdges(note)

        def networkit_triangles():
            score = nk.sparsification.TriangleEdgeScore(graph)
            score.run()
            on_edge = np.asarray(score.scores())
            twice = np.bincount(ends[:, 0], on_edge, minlength=n)
            twice += np.bincount(ends[:, 1], on_edge, minlength=n)
            return (twice // 2).astype(np.int64)

        def networkit_clustering():
            algorithm = nk.centrality.LocalClusteringCoefficient(graph, turbo=True)
            algorithm.run()
            return algorithm.scores()

        found["triangles", "networkit"] = networkit_triangles
        found["clustering", "networkit"] = networkit_clustering
    if igraph is not None:
        ig = igraph.Graph(n=n, edges=np.column_stack([lo, hi]).tolist())
        found["clustering", "igraph"] = lambda: ig.transitivity_local_undirected(mode="zero")
    if gb is not None:
        rows, cols = np.concatenate([lo, hi]), np.concatenate([hi, lo])
        A = gb.Matrix.from_coo(rows, cols, True, nrows=n, ncols=n, dtype=bool)
        pairs = np.maximum(degree * (degree - 1), 1)

        def graphblas_triangles():
            paths = A.mxm(A, gb.semiring.plus_pair[np.int64]).new(mask=A.S)
            return paths.reduce_rowwise().new().to_dense(fill_value=0) // 2

        found["triangles", "graphblas"] = graphblas_triangles
        found["clustering", "graphblas"] = lambda: 2 * graphblas_triangles() / pairs
    return found


def check(name, results):
    results = {key: list(v.values()) if isinstance(v, dict) else v for key, v in results.items()}
    expected = np.asarray(results["triangles", "tricount"], dtype=np.int64)
    coefficients = np.asarray(results["clustering", "tricount"], dtype=np.float64)
    for (quantity, library), values in results.items():
        values = np.asarray(values, dtype=np.float64)
        reference = expected if quantity == "triangles" else coefficients
        if quantity == "triangles":
            same = np.array_equal(values, reference)
        else:
            same = np.allclose(values, reference, rtol=1e-12, atol=0)
        if not same:
            raise SystemExit(f"{name}: {library}'s {quantity} differ from tricount's")


def measure(name, found, rounds):
    results = {key: call() for key, call in found.items()}  # the untimed round
    check(name, results)
    times = {key: [] for key in found}
    for _ in range(rounds):
        for key, call in found.items():
            time.sleep(SETTLE_S)
            start = time.perf_counter()
            call()
            times[key].append(time.perf_counter() - start)
    return {key: statistics.median(values) for key, values in times.items()}


def row(name, n, edges, medians):
    cells = [name, f"{n:,}", f"{edges:,}"]
    ratios = {}
    for quantity in ("triangles", "clustering"):
        mine = medians[quantity, "tricount"]
        peers = {lib: t for (q, lib), t in medians.items() if q == quantity and lib != "tricount"}
        if not peers:
            cells += [f"{1e3 * mine:.1f}", "", ""]
            continue
        fastest = min(peers, key=peers.get)
        ratios[quantity] = peers[fastest] / mine
        cells += [f"{1e3 * mine:.1f}", f"{1e3 * peers[fastest]:.1f} {fastest}", f"{ratios[quantity]:.2f}"]
    return "| " + " | ".join(cells) + " |", ratios


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=str(DATA), help=f"the data folder (default {DATA})")
    parser.add_argument("--graphs", nargs="*", default=[], help="data graphs by name (default: all)")
    parser.add_argument("--rmat", nargs="*", type=int, default=list(RMAT_SCALES), help="R-MAT scales")
    parser.add_argument("--rounds", type=int, default=7, help="timed rounds (default 7)")
    parser.add_argument("--json", help="write the medians to this file")
    args = parser.parse_args()
    for library, module in (("networkit", nk), ("igraph", igraph), ("python-graphblas", gb)):
        if module is None:
            print(f"{library} is not installed: left out")
    if nk is not None:
        nk.setNumberOfThreads(os.cpu_count())
    print(f"numba threads {numba.get_num_threads()}, cores {os.cpu_count()}")
    print(
        "| graph | nodes | edges | triangles ms | fastest peer ms | peer / tricount "
        "| clustering ms | fastest peer ms | peer / tricount |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    report = []
    graphs = [*data_graphs(Path(args.data), set(args.graphs)), *rmat_graphs(args.rmat)]
    for name, (lo, hi, n) in graphs:
        medians = measure(name, calls(lo, hi, n), args.rounds)
        line, ratios = row(name, n, lo.size, medians)
        print(line, flush=True)
        report.append(
            dict(
                graph=name,
                nodes=n,
                edges=int(lo.size),
                ratios=ratios,
                medians_s={f"{q} {lib}": t for (q, lib), t in medians.items()},
            )
        )
    for quantity in ("triangles", "clustering"):
        ratios = [g["ratios"][quantity] for g in report if quantity in g["ratios"]]
        if ratios:
            met = sum(r >= TARGET for r in ratios)
            mean = statistics.geometric_mean(ratios)
            print(
                f"{quantity}: {met} of {len(ratios)} graphs at {TARGET}x the fastest peer or more "
                f"(geometric mean {mean:.2f}x)"
            )
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
