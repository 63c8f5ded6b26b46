"""Benchmark the CPU engine against NetworkX, networkit and igraph.

Two graphs: Graph500 R-MAT at scale 16 (a=0.57, b=0.19, c=0.19, edge factor 16,
seed 16, from ``nx_tricount.io.generators.rmat_edges``) and soc-Slashdot0902 (SNAP,
symmetrised, from ``../shared/data`` or ``$NX_TRICOUNT_DATA``). Every library
gets the same simple undirected graph: self-loops and duplicates removed, nodes
``0..n-1`` in order. Times are seconds of ``time.perf_counter``, the median of
``--repeat`` runs after one untimed warm-up:

- tricount: conversion (``from_networkx`` from an nx.Graph, ``from_edges`` from
  arrays); compute (``nx_tricount.triangles`` / ``clustering`` on a fresh
  TriGraph made by ``from_edges``: preprocessing, kernel and the Python result);
  preprocessing alone (``prepare_undirected``) and the per-node kernel alone
  (``count``) for every algorithm x orientation x ordering; end to end through
  NetworkX (``nx.triangles(G, backend="tricount")``, conversion included: the
  conversion cache is off).
- NetworkX: ``nx.triangles`` and ``nx.clustering``, ``--slow-repeat`` runs and
  no warm-up (pure Python has nothing to warm up; ``nx.clustering`` takes about
  two minutes on R-MAT 16).
- networkit: graph building, ``LocalClusteringCoefficient`` (plain and turbo) and
  per-node triangles from ``TriangleEdgeScore`` (triangles on each edge; a node
  has half the sum over its edges), on as many threads as the machine has cores.
- igraph: graph building, ``transitivity_local_undirected``, and per-node
  triangles from ``list_triangles`` (``--slow-repeat`` runs: it builds a Python
  tuple per triangle).

Every per-node triangle count is checked against NetworkX's, every clustering
coefficient too (exactly for tricount, to 1e-12 relative for the others), and
the Slashdot graph against the data MANIFEST; a mismatch stops the run.

networkit and igraph come with the ``bench`` extra (``pip install -e '.[bench]'``);
``--smoke`` skips a library that is not installed, saying so.

Usage::

    python examples/benchmark_cpu.py --json results/benchmark_cpu.json
    python examples/benchmark_cpu.py --smoke    # seconds: R-MAT 10 and tests/data's jazz
"""

import argparse
import csv
import itertools
import json
import os
import platform
import statistics
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import numba
import numpy as np

import nx_tricount
from nx_tricount.algorithms import count
from nx_tricount.io.generators import rmat_edges
from nx_tricount.metadata.config import CHOICES
from nx_tricount.preprocess import prepare_undirected

try:  # the peers, from the bench extra
    import networkit as nk
except ImportError:
    nk = None
try:
    import igraph
except ImportError:
    igraph = None

REPO = Path(__file__).resolve().parents[1]
# The data folder the tests read (tests/conftest.py).
DATA = Path(os.environ.get("NX_TRICOUNT_DATA", REPO.parent / "shared" / "data"))

RMAT_SCALE = 16
RMAT_SEED = 16  # as the GPU benchmark, which seeds scale s with s
SLASHDOT = "soc-Slashdot0902.txt.gz"
SLASHDOT_NODES = 82168  # ../shared/data/MANIFEST.tsv
SLASHDOT_TRIANGLES = 602592

#: --smoke: R-MAT at this scale, and this graph of the repository's small set
#: (tests/data, checked against its MANIFEST) instead of Slashdot.
SMOKE_SCALE = 10
SMOKE_GRAPH = "jazz.txt.gz"

ORIENTATIONS = ("id", "degree")
ORDERINGS = ("none", "degree")


class VerificationError(RuntimeError):
    """A library's result differs from NetworkX's, or the data from its MANIFEST."""


def check(ok, message):
    if not ok:
        raise VerificationError(message)


# --- timing -------------------------------------------------------------------
@dataclass
class Timing:
    """Wall times of the measured runs and the last run's result."""

    times: list
    result: object
    warmup: bool

    @property
    def median(self):
        return statistics.median(self.times)

    @property
    def runs(self):
        return f"{len(self.times)}" + (" +1 warm-up" if self.warmup else "")


@dataclass
class Row:
    """One measured call of one library."""

    library: str
    call: str
    phase: str
    timing: Timing


def measure(run, repeat, *, setup=None, warmup=True):
    """Time ``run()``, or ``run(setup())`` with ``setup`` outside the timed span.

    One untimed warm-up run first when ``warmup`` (numba compiles, caches fill).
    """

    def once():
        args = () if setup is None else (setup(),)
        start = time.perf_counter()
        result = run(*args)
        return time.perf_counter() - start, result

    if warmup:
        once()
    times = []
    for _ in range(repeat):
        elapsed, result = once()
        times.append(elapsed)
    return Timing(times, result, warmup)


# --- graphs -----------------------------------------------------------------
def simple_edges(src, dst):
    """Each undirected edge once as ``lo < hi``, sorted; self-loops dropped."""
    lo, hi = np.minimum(src, dst), np.maximum(src, dst)
    keep = lo != hi
    pairs = np.unique(np.stack([lo[keep], hi[keep]], axis=1), axis=0)
    return np.ascontiguousarray(pairs[:, 0]), np.ascontiguousarray(pairs[:, 1])


def rmat_graph(scale):
    """The R-MAT edge list as a simple graph on ``2**scale`` nodes."""
    lo, hi = simple_edges(*rmat_edges(scale, seed=RMAT_SEED))
    return lo, hi, 1 << scale


def data_graph(path, nodes, triangles):
    """A data file as a simple undirected graph on ``0..n-1`` (its ids renumbered
    in order), checked against its MANIFEST's node and triangle counts.

    The file is gzipped text with '#' comment lines; text mode reads LF and CRLF
    line ends alike.
    """
    edges = np.loadtxt(path, dtype=np.int64, comments="#", ndmin=2)
    ids, renumbered = np.unique(edges, return_inverse=True)
    renumbered = renumbered.reshape(edges.shape)
    lo, hi = simple_edges(renumbered[:, 0], renumbered[:, 1])
    check(ids.size == nodes, f"{path}: {ids.size} nodes, the MANIFEST says {nodes}")
    total = sum(nx_tricount.triangles(nx_tricount.from_edges(lo, hi, n=nodes)).values()) // 3
    check(total == triangles, f"{path}: {total} triangles, the MANIFEST says {triangles}")
    return lo, hi, nodes


def smoke_graph():
    """The --smoke graph, from the repository's tests/data and its MANIFEST row."""
    with open(REPO / "tests" / "data" / "MANIFEST.tsv", newline="") as f:
        row = next(r for r in csv.DictReader(f, delimiter="\t") if r["file"] == SMOKE_GRAPH)
    path = REPO / "tests" / "data" / SMOKE_GRAPH
    return data_graph(path, int(row["nodes"]), int(row["triangles"]))


def networkx_graph(lo, hi, n):
    """An nx.Graph with nodes ``0..n-1`` in order (isolated ones included)."""
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(zip(lo.tolist(), hi.tolist()))
    return G


# --- the libraries ----------------------------------------------------------
def bench_tricount(lo, hi, n, G, args, expected_triangles):
    """Rows of the tricount engine, its kernel grid and its default plan."""
    repeat = args.repeat

    def fresh():
        # A new TriGraph each run: a TriGraph caches its Prepared CSRs.
        return nx_tricount.from_edges(lo, hi, n=n)

    rows = [
        Row(
            "tricount",
            "from_networkx(G)",
            "conversion",
            measure(lambda: nx_tricount.from_networkx(G), repeat),
        ),
        Row("tricount", "from_edges(src, dst)", "conversion", measure(fresh, repeat)),
    ]
    plan = nx_tricount.make_plan()
    key = (plan.algorithm, plan.orientation, plan.ordering)
    configurations = list(itertools.product(args.algorithms, ORIENTATIONS, ORDERINGS))
    grid = []
    for algorithm, orientation, ordering in configurations + [key] * (key not in configurations):

        def prepare():
            return prepare_undirected(lo, hi, n, orientation=orientation, ordering=ordering)

        preprocess = measure(prepare, repeat)
        kernel = measure(lambda p: count(p, algorithm, "per_node").per_node, repeat, setup=prepare)
        check(
            np.array_equal(kernel.result, expected_triangles),
            f"count {algorithm}/{orientation}/{ordering} differs from NetworkX",
        )
        grid.append((algorithm, orientation, ordering, preprocess, kernel))

    _, _, _, preprocess, kernel = next(g for g in grid if g[:3] == key)
    name = "/".join(key)
    rows += [
        Row("tricount", f"prepare_undirected ({name})", "preprocess", preprocess),
        Row("tricount", f"count per_node ({name})", "kernel", kernel),
        Row(
            "tricount", "triangles(TriGraph)", "compute", measure(nx_tricount.triangles, repeat, setup=fresh)
        ),
        Row(
            "tricount",
            "clustering(TriGraph)",
            "compute",
            measure(nx_tricount.clustering, repeat, setup=fresh),
        ),
        Row(
            "tricount",
            'nx.triangles(G, backend="tricount")',
            "end to end",
            measure(lambda: nx.triangles(G, backend="tricount"), repeat),
        ),
        Row(
            "tricount",
            'nx.clustering(G, backend="tricount")',
            "end to end",
            measure(lambda: nx.clustering(G, backend="tricount"), repeat),
        ),
    ]
    return rows, grid, str(plan).splitlines()[0]


def bench_networkx(G, args):
    slow = args.slow_repeat
    return [
        Row("networkx", "nx.triangles(G)", "compute", measure(lambda: nx.triangles(G), slow, warmup=False)),
        Row("networkx", "nx.clustering(G)", "compute", measure(lambda: nx.clustering(G), slow, warmup=False)),
    ]


def bench_networkit(lo, hi, n, args):
    repeat = args.repeat

    def build():
        coo = (np.ones(lo.size), (lo.astype(np.uint64), hi.astype(np.uint64)))
        graph = nk.GraphFromCoo(coo, n, directed=False, weighted=False)
        graph.indexEdges()  # TriangleEdgeScore needs edge ids
        return graph

    graph = build()
    # Edge ids follow networkit's adjacency layout, not the input order: map them
    # back to endpoints once (a Python callback per edge, so not part of compute).
    ends = np.empty((graph.upperEdgeIdBound(), 2), dtype=np.int64)

    def note(u, v, weight, edge_id):
        ends[edge_id] = u, v

    def edge_map():
        graph.forEdges(note)

    def lcc(turbo):
        algorithm = nk.centrality.LocalClusteringCoefficient(graph, turbo=turbo)
        algorithm.run()
        return algorithm.scores()

    def triangles():
        score = nk.sparsification.TriangleEdgeScore(graph)
        score.run()
        on_edge = np.asarray(score.scores(), dtype=np.float64)
        twice = np.bincount(ends[:, 0], on_edge, minlength=n)
        twice += np.bincount(ends[:, 1], on_edge, minlength=n)
        return (twice // 2).astype(np.int64)

    return [
        Row("networkit", "GraphFromCoo + indexEdges", "build", measure(build, repeat)),
        Row("networkit", "edge id -> endpoints (forEdges)", "build", measure(edge_map, repeat)),
        Row("networkit", "LocalClusteringCoefficient", "compute", measure(lambda: lcc(False), repeat)),
        Row(
            "networkit",
            "LocalClusteringCoefficient(turbo=True)",
            "compute",
            measure(lambda: lcc(True), repeat),
        ),
        Row("networkit", "TriangleEdgeScore -> per node", "compute", measure(triangles, repeat)),
    ]


def bench_igraph(lo, hi, n, args):
    def build():
        return igraph.Graph(n=n, edges=list(zip(lo.tolist(), hi.tolist())))

    graph = build()

    def triangles():
        listed = np.asarray(graph.list_triangles(), dtype=np.int64).reshape(-1)
        return np.bincount(listed, minlength=n)

    return [
        Row("igraph", "Graph(n, edges)", "build", measure(build, args.repeat)),
        Row(
            "igraph",
            'transitivity_local_undirected(mode="zero")',
            "compute",
            measure(lambda: graph.transitivity_local_undirected(mode="zero"), args.repeat),
        ),
        Row(
            "igraph",
            "list_triangles -> per node",
            "compute",
            measure(triangles, args.slow_repeat, warmup=False),
        ),
    ]


# --- one graph ----------------------------------------------------------------
def verify(rows, expected_triangles, expected_clustering):
    """Check every row whose result is per-node triangles or coefficients."""
    result = {(row.library, row.call): row.timing.result for row in rows}
    nx_triangles = result["networkx", "nx.triangles(G)"]
    # tricount promises NetworkX's results exactly: equal dicts, the same floats.
    for call, expected in [
        ("triangles(TriGraph)", nx_triangles),
        ('nx.triangles(G, backend="tricount")', nx_triangles),
        ("clustering(TriGraph)", expected_clustering),
        ('nx.clustering(G, backend="tricount")', expected_clustering),
    ]:
        check(result["tricount", call] == expected, f"tricount {call} differs from NetworkX")
    for key in [
        ("networkit", "TriangleEdgeScore -> per node"),
        ("igraph", "list_triangles -> per node"),
    ]:
        if key in result:  # the peer is installed
            check(np.array_equal(result[key], expected_triangles), f"{key} differs from NetworkX")
    coefficients = np.fromiter(expected_clustering.values(), dtype=np.float64)
    for key in [
        ("networkit", "LocalClusteringCoefficient"),
        ("networkit", "LocalClusteringCoefficient(turbo=True)"),
        ("igraph", 'transitivity_local_undirected(mode="zero")'),
    ]:
        if key not in result:
            continue
        values = np.asarray(result[key], dtype=np.float64)
        check(np.allclose(values, coefficients, rtol=1e-12, atol=0), f"{key} differs from NetworkX")


def bench_graph(name, lo, hi, n, args):
    print(f"\n== {name}: {n} nodes, {lo.size} edges", flush=True)
    start = time.perf_counter()
    build = measure(lambda: networkx_graph(lo, hi, n), 1, warmup=False)
    G = build.result
    networkx_rows = bench_networkx(G, args)
    nx_triangles, nx_clustering = (row.timing.result for row in networkx_rows)
    expected_triangles = np.fromiter(nx_triangles.values(), dtype=np.int64, count=n)
    tricount_rows, grid, plan = bench_tricount(lo, hi, n, G, args, expected_triangles)
    rows = tricount_rows + networkx_rows
    if nk is not None:
        rows += bench_networkit(lo, hi, n, args)
    if igraph is not None:
        rows += bench_igraph(lo, hi, n, args)
    verify(rows, expected_triangles, nx_clustering)
    result = dict(
        graph=name,
        nodes=n,
        edges=int(lo.size),
        triangles=int(expected_triangles.sum() // 3),
        default_plan=plan,
        networkx_graph_build_s=build.median,
        rows=[
            dict(
                library=r.library,
                call=r.call,
                phase=r.phase,
                median_s=r.timing.median,
                runs=r.timing.runs,
                times_s=r.timing.times,
            )
            for r in rows
        ],
        kernel_grid=[
            dict(
                algorithm=a,
                orientation=o,
                ordering=d,
                preprocess_s=p.median,
                kernel_s=k.median,
                runs=k.runs,
                preprocess_times_s=p.times,
                kernel_times_s=k.times,
            )
            for a, o, d, p, k in grid
        ],
        wall_s=time.perf_counter() - start,
    )
    print_graph(result)
    return result


# --- report -------------------------------------------------------------------
def markdown(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def seconds(value):
    return f"{value:.4f}" if value < 1 else f"{value:.2f}"


def print_graph(result):
    print(
        f"{result['triangles']} triangles, every library agrees with NetworkX; "
        f"default plan: {result['default_plan']}; "
        f"nx.Graph built in {result['networkx_graph_build_s']:.2f} s\n"
    )
    print(
        markdown(
            ["library", "call", "phase", "median s", "runs"],
            [
                (r["library"], f"`{r['call']}`", r["phase"], seconds(r["median_s"]), r["runs"])
                for r in result["rows"]
            ],
        )
    )
    print("\nkernel grid (per node; preprocess = prepare_undirected, kernel = count):\n")
    print(
        markdown(
            ["algorithm", "orientation", "ordering", "preprocess s", "kernel s", "sum s", "runs"],
            [
                (
                    g["algorithm"],
                    g["orientation"],
                    g["ordering"],
                    seconds(g["preprocess_s"]),
                    seconds(g["kernel_s"]),
                    seconds(g["preprocess_s"] + g["kernel_s"]),
                    g["runs"],
                )
                for g in result["kernel_grid"]
            ],
        ),
        flush=True,
    )


def verdict(met, smoke):
    """Whether a target is met: information only on a smoke graph, which is too
    small to be held to the targets set for soc-Slashdot0902."""
    return "n/a on a smoke graph" if smoke else "met" if met else "NOT met"


def targets(results, smoke=False):
    """The CPU engine's targets, one line per comparison."""
    lines = []
    for result in results:
        median = {(r["library"], r["call"]): r["median_s"] for r in result["rows"]}
        if nk is None:
            lines.append(f"{result['graph']}: networkit not installed, no comparison with it")
        else:
            lines += networkit_targets(result["graph"], median, smoke)
        speedup = (
            median["networkx", "nx.clustering(G)"]
            / median["tricount", 'nx.clustering(G, backend="tricount")']
        )
        lines.append(
            f"{result['graph']}: nx.clustering through tricount (conversion included) is "
            f"{speedup:.0f}x faster than NetworkX's own (target 100x): " + verdict(speedup >= 100, smoke)
        )
    return lines


def networkit_targets(graph, median, smoke):
    """The comparisons with networkit of one graph, one line each."""
    networkit_clustering = min(
        median["networkit", "LocalClusteringCoefficient"],
        median["networkit", "LocalClusteringCoefficient(turbo=True)"],
    )
    lines = []
    for what, mine, theirs in [
        (
            "triangles",
            median["tricount", "triangles(TriGraph)"],
            median["networkit", "TriangleEdgeScore -> per node"],
        ),
        ("clustering", median["tricount", "clustering(TriGraph)"], networkit_clustering),
    ]:
        lines.append(
            f"{graph}: {what} compute, tricount {seconds(mine)} s, networkit "
            f"(fastest) {seconds(theirs)} s, networkit/tricount {theirs / mine:.2f}: "
            + verdict(mine <= theirs, smoke)
        )
    return lines


def environment():
    def git(*args):
        try:
            done = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=True)
        except (OSError, subprocess.CalledProcessError):
            return "unknown"
        return done.stdout.strip()

    with open("/proc/cpuinfo") as f:
        models = [line.split(":", 1)[1].strip() for line in f if line.startswith("model name")]
    return dict(
        date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        commit=git("rev-parse", "--short", "HEAD"),
        # The package on disk may be ahead of the commit; the numbers describe it.
        package_changes=git("status", "--porcelain", "--", "nx_tricount", "kernels").splitlines(),
        cpu=models[0] if models else platform.processor(),
        cores=os.cpu_count(),
        load_average_at_start=os.getloadavg(),
        python=platform.python_version(),
        versions={
            "nx_tricount": nx_tricount.__version__,
            "networkx": nx.__version__,
            "numpy": np.__version__,
            "numba": numba.__version__,
            "networkit": nk.__version__ if nk else "not installed",
            "igraph": igraph.__version__ if igraph else "not installed",
        },
        numba_threads=numba.get_num_threads(),
        networkit_threads=nk.getMaxNumberOfThreads() if nk else 0,
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--smoke",
        action="store_true",
        help=f"a run of seconds: R-MAT scale {SMOKE_SCALE} and tests/data's {SMOKE_GRAPH} "
        "instead of Slashdot, one run each, skipping peers that are not installed",
    )
    parser.add_argument("--repeat", type=int, default=5, help="timed runs of each measurement (default 5)")
    parser.add_argument(
        "--slow-repeat",
        type=int,
        default=1,
        help="timed runs of NetworkX and igraph's list_triangles (default 1)",
    )
    parser.add_argument(
        "--algorithms",
        nargs="+",
        default=["merge", "wedge"],
        choices=[a for a in CHOICES["algorithm"] if a != "auto"],
        help="algorithms of the kernel grid (default: merge wedge)",
    )
    parser.add_argument("--data", default=str(DATA), help=f"folder of {SLASHDOT} (default {DATA})")
    parser.add_argument("--json", help="write the results to this file")
    args = parser.parse_args()
    if min(args.repeat, args.slow_repeat) < 1:
        parser.error("--repeat and --slow-repeat must be at least 1")
    missing = [name for name, module in (("networkit", nk), ("igraph", igraph)) if module is None]
    if missing and not args.smoke:
        parser.error(f"{' and '.join(missing)} not installed: pip install -e '.[bench]'")
    if args.smoke:
        args.repeat = args.slow_repeat = 1
        if missing:
            print(f"{' and '.join(missing)} not installed (pip install -e '.[bench]'): skipped")

    nx.config.cache_converted_graphs = False  # every backend call converts anew
    if nk is not None:
        nk.setNumberOfThreads(os.cpu_count())
    env = environment()
    modified = " (package modified since)" if env["package_changes"] else ""
    print(f"date {env['date']}, commit {env['commit']}{modified}")
    print(f"cpu {env['cpu']}, {env['cores']} cores; load average {env['load_average_at_start']}")
    print(f"versions: python {env['python']}, " + ", ".join(f"{k} {v}" for k, v in env["versions"].items()))
    print(
        f"threads: numba {env['numba_threads']}, networkit {env['networkit_threads']}, NetworkX and igraph 1"
    )
    print(
        f"runs: median of {args.repeat} after a warm-up; NetworkX and igraph's list_triangles "
        f"{args.slow_repeat}, no warm-up"
    )

    scale = SMOKE_SCALE if args.smoke else RMAT_SCALE
    graphs = {f"R-MAT {scale}": rmat_graph(scale)}
    if args.smoke:
        graphs[SMOKE_GRAPH.split(".")[0]] = smoke_graph()
    else:
        path = Path(args.data) / SLASHDOT
        graphs["soc-Slashdot0902"] = data_graph(path, SLASHDOT_NODES, SLASHDOT_TRIANGLES)
    results = [bench_graph(name, *graph, args) for name, graph in graphs.items()]
    env["numba_threading_layer"] = numba.threading_layer()
    env["load_average_at_end"] = os.getloadavg()

    lines = targets(results, args.smoke)
    held = " (set for soc-Slashdot0902; information only on the smoke graphs)" if args.smoke else ""
    print(f"\ntargets:{held}\n" + "\n".join("  " + line for line in lines))
    print(
        f"load average at the end {env['load_average_at_end']}; "
        f"numba threading layer {env['numba_threading_layer']}"
    )
    if args.json:
        path = Path(args.json)
        path.parent.mkdir(parents=True, exist_ok=True)
        settings = dict(
            repeat=args.repeat,
            slow_repeat=args.slow_repeat,
            smoke=args.smoke,
            rmat_scale=scale,
            rmat_seed=RMAT_SEED,
            algorithms=args.algorithms,
        )
        with open(path, "w") as f:
            report = dict(environment=env, settings=settings, graphs=results, targets=lines)
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
