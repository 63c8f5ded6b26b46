"""How close ``auto`` comes to the best configuration, per graph.

For every graph, every algorithm runs end to end as ``nx.transitivity`` runs it
with the algorithm and preprocessing forced (edge arrays on the device -> a
fresh graph, its plan, the preprocessing the plan asks for -> total count as a
Python int), with its own preprocessing and with the two common ones
(ascending-degree ids; degree orientation with ids kept). The script prints each
configuration's time against the best one, and ``auto`` timed the same way with
nothing forced: the plan with the statistics it reads, the preprocessing it asks
for, and the count of the plan the prepared graph settles.
Milliseconds, medians of ``--repeats`` rounds after a warm-up, each round timing
every configuration and ``auto`` once (interleaved, so that drift weighs on all
alike); CUDA events on the GPU, ``time.perf_counter`` on the CPU. The best of
many configurations whose times are close is biased low (the least of several
noisy medians), so the best one and ``auto`` are then timed again, head to head,
in ``--confirm`` rounds of their own: ``auto / best`` is reported both ways.

Graphs: every ``../shared/data`` graph (``$NX_TRICOUNT_DATA`` overrides the
folder); with ``--generated`` the suite's R-MAT 16, grid and Barabási–Albert
graphs at CPU-sized scales (and R-MAT 17); with ``--suite`` (GPU) the GPU benchmark's own
(examples/benchmark_gpu.py: R-MAT 18-23, the 1000x1000 grid, BA 2M x 10); with ``--shapes``
(GPU) the other shapes of examples/benchmark_peers.py (flat and steep R-MAT, power laws,
road-like, web-like); with ``--cpu-shapes`` CPU-sized graphs of those shapes and more, of 1M
to 8M edge rows (the CPU rule's ascending-degree ids: ``rules.CPU_ORDERED_ROWS``).

``--smoke`` runs two small graphs of the repository's own ``tests/data`` once
each on the CPU (a run of seconds, for CI). Without ``--device`` the script runs
on the GPU where CuPy sees one, else on the CPU.

Usage::

    python examples/benchmark_auto.py --device cpu --json auto_cpu.json
    python examples/benchmark_auto.py --device gpu --generated --suite --json auto_gpu.json
    python examples/benchmark_auto.py --device gpu --shapes --json auto_shapes.json
    python examples/benchmark_auto.py --device gpu --suite --shapes --algorithms merge wedge hash
    python examples/benchmark_auto.py --suite --shapes --kernels --repeats 7   # the GPU rule's measurement
    python examples/benchmark_auto.py --device cpu --cpu-shapes --algorithms hash   # the CPU rule's
    python examples/benchmark_auto.py --smoke
"""

import argparse
import csv
import gzip
import json
import os
import statistics
import time
from pathlib import Path

import numpy as np

from nx_tricount.classes.graph import TriGraph
from nx_tricount.classes.preparation import hashed_csr, oriented_csr
from nx_tricount.execution.execute import run
from nx_tricount.gpu.device import gpu_available
from nx_tricount.io.generators import (
    barabasi_albert_edges,
    chung_lu_edges,
    copying_edges,
    grid_edges,
    rmat_edges,
)
from nx_tricount.metadata.catalog import ALGORITHMS
from nx_tricount.planning.plan import make_plan
from nx_tricount.planning.rules import choose_after_preparation
from nx_tricount.preprocess import prepare_undirected

REPO = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("NX_TRICOUNT_DATA", REPO / ".." / "shared" / "data"))
#: --smoke: two graphs of the repository's small set of real graphs.
SMOKE_DATA, SMOKE_GRAPHS = REPO / "tests" / "data", ("jazz.txt.gz", "gemsec_fb_food.txt.gz")

GENERATED = {
    "rmat16": lambda: (*rmat_edges(16, seed=16), 1 << 16),
    "rmat17": lambda: (*rmat_edges(17, seed=17), 1 << 17),
    "grid300": lambda: (*grid_edges(300, 300, 0.05, seed=1), 300 * 300),
    "ba200k": lambda: (*barabasi_albert_edges(200_000, 10, seed=2), 200_000),
}

#: --cpu-shapes: graphs of the CPU rule's sizes, their ids drawn (R-MAT's permuted, the
#: others' in random order) but for the grid, numbered row by row, and that grid again
#: with its ids permuted.
CPU_SHAPES = {
    "rmat18": lambda: (*rmat_edges(18, seed=18), 1 << 18),
    "rmat18-flat": lambda: (*rmat_edges(18, a=0.45, b=0.22, c=0.22, seed=5), 1 << 18),
    "uniform19x4": lambda: (*rmat_edges(19, 4, 0.25, 0.25, 0.25, seed=3), 1 << 19),
    "powerlaw-2.5": lambda: (*chung_lu_edges(500_000, 16, 2.5, seed=1), 500_000),
    "powerlaw-3": lambda: (*chung_lu_edges(500_000, 16, 3.0, seed=1), 500_000),
    "ba1m": lambda: (*barabasi_albert_edges(1_000_000, 8, seed=2), 1_000_000),
    "web500k": lambda: (*copying_edges(500_000, 10, 0.3, seed=1), 500_000),
    "grid1000": lambda: (*grid_edges(1000, 1000, 0.05, seed=1), 1000 * 1000),
    "grid1000-drawn": lambda: _permuted(*grid_edges(1000, 1000, 0.05, seed=1), 1000 * 1000),
}


def _permuted(src, dst, n, seed=7):
    ids = np.random.default_rng(seed).permutation(n)
    return ids[src], ids[dst], n


def data_graphs(folder=DATA):
    """Name -> loader of every graph listed in the folder's MANIFEST.tsv."""
    with open(folder / "MANIFEST.tsv") as f:
        names = [row["file"] for row in csv.DictReader(f, delimiter="\t")]

    def load(name):
        with gzip.open(folder / name, "rt") as f:
            pairs = np.loadtxt(f, comments="#", dtype=np.int64, ndmin=2)
        src, dst = pairs[:, 0], pairs[:, 1]
        return src, dst, int(max(src.max(), dst.max())) + 1

    return {name: (lambda name=name: load(name)) for name in names}


def configurations(algorithms=None):
    """(algorithm, orientation, ordering) for every algorithm (or those named): its
    own preprocessing and the two common ones."""
    found = []
    for algorithm in algorithms or ALGORITHMS:
        own = (ALGORITHMS[algorithm].orientation, ALGORITHMS[algorithm].ordering)
        for preprocessing in (own, ("id", "degree"), ("degree", "none")):
            if (algorithm, *preprocessing) not in found:
                found.append((algorithm, *preprocessing))
    return found


def once_timer(device):
    """A function that times one call of ``function()``: ``(ms, result)``."""
    if device == "gpu":
        from benchmark_gpu import event_once  # CUDA events; imports CuPy

        return event_once

    def once(function):
        start = time.perf_counter()
        result = function()
        return 1e3 * (time.perf_counter() - start), result

    return once


def interleaved_ms(functions, once, repeats):
    """Median ms of every function of the dict ``functions`` and its last result.

    After a warm-up call of each, the functions are timed in ``repeats`` rounds of
    one call each, so that a drift of the clocks or of the host's load over the
    run weighs on all of them alike; each round starts one function further on, so
    that none always follows the same one.
    """
    results = {key: function() for key, function in functions.items()}
    times = {key: [] for key in functions}
    keys = list(functions)
    for round_ in range(repeats):
        shift = round_ % len(keys)
        for key in keys[shift:] + keys[:shift]:
            ms, results[key] = once(functions[key])
            times[key].append(ms)
    return {key: statistics.median(values) for key, values in times.items()}, results


def planned_total(src, dst, n, device, **forced):
    """``(total, plan)`` as ``nx.transitivity`` makes them with the settings
    ``forced`` (algorithm, orientation, ordering) and every other ``auto``: the
    plan of a total (with the statistics it reads, on a fresh graph), the
    preprocessing it asks for, and the count, of the plan the prepared graph
    settles (the plan returned)."""
    G = TriGraph(src, dst, n)
    plan = make_plan(G, device=device, total=True, **forced)
    if plan.pipeline == "hashed":  # one launch prepares the CSR and, fused, counts it
        fused = plan.merge_total == "fused"
        built = hashed_csr(G, plan.device, count_triangles=fused)
        return (built.triangles if fused else run(plan, built.prepared, "total").total), plan
    # From the simple graph the plan made where it read the degrees.
    prepared = oriented_csr(G, plan.orientation, plan.ordering, plan.device)
    plan = choose_after_preparation(plan, prepared)
    return run(plan, prepared, "total").total, plan


def bench_graph(name, load, device, once, repeats, confirm, algorithms=None):
    src, dst, n = load()
    if device == "gpu":
        import cupy

        src, dst = cupy.asarray(src), cupy.asarray(dst)
    functions = {}
    for algorithm, orientation, ordering in configurations(algorithms):

        def configured(algorithm=algorithm, orientation=orientation, ordering=ordering):
            forced = dict(algorithm=algorithm, orientation=orientation, ordering=ordering)
            return planned_total(src, dst, n, device, **forced)[0]

        functions[(algorithm, orientation, ordering)] = configured
    functions["auto"] = lambda: planned_total(src, dst, n, device)
    times, results = interleaved_ms(functions, once, repeats)
    auto_ms = times.pop("auto")
    total, plan = results.pop("auto")
    totals = {total, *results.values()}
    assert len(totals) == 1, f"{name}: configurations disagree: {totals}"
    chosen = (plan.algorithm, plan.orientation, plan.ordering)
    best = min(times, key=times.get)
    head_to_head, _ = interleaved_ms({"best": functions[best], "auto": functions["auto"]}, once, confirm)
    row = dict(
        graph=name,
        device=device,
        n=n,
        edge_rows=int(src.size),
        best=list(best),
        best_ms=times[best],
        auto=list(chosen),
        auto_ms=auto_ms,
        auto_over_best=auto_ms / times[best],
        triangles=totals.pop(),
        times={"/".join(key): value for key, value in times.items()},
        confirm_best_ms=head_to_head["best"],
        confirm_auto_ms=head_to_head["auto"],
        confirm_auto_over_best=head_to_head["auto"] / head_to_head["best"],
    )
    print(
        f"{name:30s} rows={src.size:9d} best={'/'.join(best):28s} {times[best]:9.3f} ms  "
        f"auto={'/'.join(chosen):28s} {auto_ms:9.3f} ms ({auto_ms / times[best]:.2f}x); "
        f"head to head {head_to_head['best']:.3f} / {head_to_head['auto']:.3f} ms "
        f"({row['confirm_auto_over_best']:.2f}x)",
        flush=True,
    )
    return row


def work_and_kernels(name, load, repeats):
    """``--kernels``: what the rule after preparation reads of the graph on
    ascending-degree ids (``algorithms/work.py``), and the kernel ms of wedge and
    merge there, and of merge on degree orientation, totals (merge's inline
    layout) and per node."""
    import cupy
    from benchmark_gpu import kernel_only_ms  # CUDA events

    from nx_tricount.algorithms import merge, wedge
    from nx_tricount.algorithms.work import work_of
    from nx_tricount.classes.preparation import mean_endpoint_degree

    src, dst, n = load()
    src, dst = cupy.asarray(src), cupy.asarray(dst)
    skew = mean_endpoint_degree(TriGraph(src, dst, n), "gpu")
    ascending = prepare_undirected(src, dst, n, orientation="id", ordering="degree")
    by_degree = prepare_undirected(src, dst, n, orientation="degree", ordering="none")
    work = work_of(ascending)
    times = {}
    for mode in ("total", "per_node"):
        inline = {"total_layout": "inline"} if mode == "total" else {}
        times[f"wedge {mode}"] = kernel_only_ms(lambda: wedge.count_gpu(ascending, mode), repeats)
        for label, prepared in (("merge (id, degree)", ascending), ("merge (degree, none)", by_degree)):
            times[f"{label} {mode}"] = kernel_only_ms(
                lambda: merge.count_gpu(prepared, mode, **inline), repeats
            )
    row = dict(
        graph=name,
        skew=skew,
        wedges_per_arc=work.wedges / work.arcs,
        reads_per_arc=work.merge_reads / work.arcs,
        bitmap_share=work.bitmap_share,
        kernel_ms=times,
    )
    print(
        f"{name:14s} S={skew:9.1f} wedges/arc={row['wedges_per_arc']:7.2f} "
        f"reads/arc={row['reads_per_arc']:8.2f} bitmap={work.bitmap_share:4.0%} | "
        + "  ".join(f"{k} {v:.3f}" for k, v in times.items()),
        flush=True,
    )
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--device",
        choices=["cpu", "gpu"],
        help="default: cpu with --smoke, else gpu where CuPy sees one, else cpu",
    )
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--confirm", type=int, default=11, help="rounds of the best configuration against auto"
    )
    parser.add_argument("--generated", action="store_true", help="also the generated graphs")
    parser.add_argument(
        "--suite", action="store_true", help="also the GPU benchmark's graphs (R-MAT 18-23, grid, BA)"
    )
    parser.add_argument(
        "--shapes", action="store_true", help="also benchmark_peers.py's other shapes (power laws, road, web)"
    )
    parser.add_argument(
        "--cpu-shapes", action="store_true", help="also CPU-sized graphs of 1M-8M rows, of several shapes"
    )
    parser.add_argument("--only", nargs="+", metavar="GRAPH", help="just these graphs")
    parser.add_argument(
        "--algorithms", nargs="+", choices=list(ALGORITHMS), help="just these algorithms' configurations"
    )
    parser.add_argument("--json", help="write the rows here")
    parser.add_argument(
        "--kernels",
        action="store_true",
        help="instead: each graph's work for the rule after preparation, and wedge's and merge's kernels",
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help=f"{' and '.join(SMOKE_GRAPHS)} of tests/data, one round each",
    )
    args = parser.parse_args()
    if args.device is None:
        args.device = "gpu" if gpu_available() and not args.smoke else "cpu"
    if args.smoke:
        args.repeats = args.confirm = 1
        graphs = {k: v for k, v in data_graphs(SMOKE_DATA).items() if k in SMOKE_GRAPHS}
    else:
        graphs = data_graphs()
    if args.generated:
        graphs.update(GENERATED)
    if args.cpu_shapes:
        graphs.update(CPU_SHAPES)
    if args.suite:
        from benchmark_gpu import GRAPHS  # generated on the GPU

        graphs.update(GRAPHS)
    if args.shapes:
        from benchmark_peers import SHAPES  # generated on the GPU

        graphs.update(SHAPES)
    if args.only:
        graphs = {name: graphs[name] for name in args.only}
    if args.kernels:  # the rule's measurement, on the GPU
        rows = [work_and_kernels(name, load, args.repeats) for name, load in graphs.items()]
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"device": "gpu", "date": time.strftime("%Y-%m-%d"), "rows": rows}, f, indent=1)
        return
    once = once_timer(args.device)
    print(f"device: {args.device}; date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}", flush=True)
    if args.smoke:
        print("smoke run: one round of each configuration, so the ratios below are noise, not measurements")
    rows = [
        bench_graph(name, load, args.device, once, args.repeats, args.confirm, args.algorithms)
        for name, load in graphs.items()
    ]
    for key in ("auto_over_best", "confirm_auto_over_best"):
        worst = max(rows, key=lambda r: r[key])
        print(f"worst {key}: {worst[key]:.2f}x on {worst['graph']}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": args.device, "date": time.strftime("%Y-%m-%d"), "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
