"""Benchmark the GPU engine: every algorithm and preprocessing on the standard graphs.

The graphs are made on the GPU with fixed seeds: Graph500 R-MAT (a=0.57,
b=0.19, c=0.19, edge factor 16) at scales 18, 20, 22, 23; a 1000x1000 grid with
5% random diagonals; a Barabási–Albert graph with 2M vertices and 10 edges per
vertex (drawn on the host by numba, then moved to the GPU). For each graph and
algorithm (with its preprocessing) it reports, in milliseconds (CUDA events,
median of --repeats runs after a warm-up):

- ``preprocess``: edge list in GPU memory -> oriented CSR (``prepare_undirected``);
- ``kernel``: GPU time of the counting kernels of a total count (the wedge
  algorithm's bitmap build included), on the prepared CSR;
- ``count``: the whole ``count_gpu`` call for the total (allocations and the
  copy of the result to the host included);
- ``end_to_end``: edge list in GPU memory -> exact total as a Python int;
- ``per_node``: the whole ``count_gpu`` call in mode per_node;

with the triangles, the wedges of the oriented CSR, wedges per second of kernel
time, the oriented CSR's bytes over the kernel time (the bandwidth of reading it
once: a lower bound of what the kernel draws, against the H100's peak), and the
peak GPU memory of the run. The summary sets each graph's fastest kernel beside
WeTriC's (reference times of an earlier run; ``benchmark_peers.py`` times WeTriC
beside us) and the target of 2x WeTriC. A plain CuPy SpGEMM count (``L @ L``
masked by ``L``, cupyx.scipy.sparse) runs as a baseline where its product fits.

``--weighted`` instead reports the GPU time of the kernels of a weighted per-node
count (random arc values, seeded): the compensated sums clustering's ``weight=``
rests on.

``--family`` instead reports the wall-clock seconds (median of --repeats after a
warm-up) of the rest of the triangle family through NetworkX on the GPU, on each
graph without its self-loops, a fresh ``TriGraph`` per call (preprocessing
included): ``triangles`` (for scale), ``square_clustering``,
``generalized_degree``, ``all_triangles`` as a frame, ``k_truss(G, 5)`` (or the
calls named by ``--functions``); where nx-cugraph imports, its ``k_truss(G, 5)``
on the same edges too, whose edges must be the same.

``--matrix`` instead runs every algorithm under every orientation x ordering and
reports preprocessing, kernel and total (preprocessing + count) ms of the total
count, as the A-direction/A-order paper reports them; every run prints the paper's
Equation 1 (out-degree imbalance) of the id, degree and A-direction orientations.

Usage::

    python examples/benchmark_gpu.py --graphs g18 g20 grid ba --json results.json
    python examples/benchmark_gpu.py --graphs g22 --sweep   # wedge spread x bitmap
    python examples/benchmark_gpu.py --graphs g18 g20 --matrix
    python examples/benchmark_gpu.py --graphs g18 g22 --weighted
    python examples/benchmark_gpu.py --graphs g18 g20 --family --repeats 3
    python examples/benchmark_gpu.py --family --functions triangles k_truss_5
    python examples/benchmark_gpu.py --graphs g18 g20 --calibrate-lambda
    python examples/benchmark_gpu.py --smoke   # seconds; runs without a GPU too

``--smoke`` times every configuration once on R-MAT 10. Without a GPU (or
without CuPy) it says so and runs what the benchmark checks on the CPU engine
instead: every configuration's preprocessing and counts (which must agree) and
the orientations' Equation 1; the GPU timings are skipped.
"""

import argparse
import functools
import importlib
import itertools
import json
import statistics
import time

import numpy as np

from nx_tricount.algorithms import bitmap, edge, hash, merge, vertex, wedge
from nx_tricount.gpu import runtime as gpu
from nx_tricount.gpu.device import gpu_available
from nx_tricount.io.generators import barabasi_albert_edges, grid_edges, rmat_edges
from nx_tricount.metadata.catalog import ALGORITHMS
from nx_tricount.metadata.config import CHOICES
from nx_tricount.planning.rules import GPU_INLINE_ARCS
from nx_tricount.preprocess import a_order, orientation_cost, prepare_undirected

if gpu_available():
    import cupy

GRAPHS = {
    "g18": lambda: (*rmat_edges(18, seed=18, device="gpu"), 1 << 18),
    "g20": lambda: (*rmat_edges(20, seed=20, device="gpu"), 1 << 20),
    "g22": lambda: (*rmat_edges(22, seed=22, device="gpu"), 1 << 22),
    "g23": lambda: (*rmat_edges(23, seed=23, device="gpu"), 1 << 23),
    "grid": lambda: (*grid_edges(1000, 1000, 0.05, seed=1, device="gpu"), 1000 * 1000),
    "ba": lambda: (*barabasi_albert_edges(2_000_000, 10, seed=2, device="gpu"), 2_000_000),
}

#: (name, module, orientation, ordering): each algorithm with the preprocessing
#: it is designed for, and merge also on WeTriC's ascending-degree ids.
CONFIGS = [
    ("wedge", wedge, "id", "degree"),
    ("merge", merge, "degree", "none"),
    ("merge-degree-ids", merge, "id", "degree"),
    ("edge", edge, "id", "degree"),
    ("vertex", vertex, "id", "degree"),
    ("hash", hash, "degree", "none"),
    ("hash-in-degree", hash, "degree", "in-degree"),
    ("hash-collective", hash, "degree", "collective"),
    ("bitmap", bitmap, "a-direction", "none"),
]

#: --smoke: R-MAT at this scale.
SMOKE_SCALE = 10

#: Published codes and nx-cugraph on an H100, kernel ms of the total.
PUBLISHED = {"g18": 0.83, "g20": 5.3, "g22": 39.0, "g23": 112.0, "grid": 0.046, "ba": 1.02}
#: TRUST on the same H100, kernel ms of the total.
TRUST = {"g18": 2.40, "g20": 16.8, "g22": 93.7, "g23": 233.0, "grid": 0.75, "ba": 1.91}
NX_CUGRAPH = {"g18": 25, "g20": 155, "g22": 903, "g23": 2348, "grid": 9.8, "ba": 52}
#: WeTriC, the fastest published kernel, on the same H100 and edge lists with the best
#: parameters of a sweep per graph (kernel ms of the total), and the performance
#: target: 2x faster.
WETRIC = {"g18": 0.839, "g20": 5.355, "g22": 39.31, "g23": 113.1, "grid": 0.057, "ba": 1.019}
TARGET_SPEEDUP = 2.0
#: The H100 SXM's peak HBM3 bandwidth, GB/s.
PEAK_GB_S = 3350


def event_once(function):
    """Milliseconds between CUDA events around one call of ``function()``, and its result."""
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    start.record()
    result = function()
    end.record()
    end.synchronize()
    return cupy.cuda.get_elapsed_time(start, end), result


def event_ms(function, repeats):
    """Median milliseconds between CUDA events around ``function()``, after a warm-up,
    and its last result."""
    result = function()
    cupy.cuda.get_current_stream().synchronize()
    times = []
    for _ in range(repeats):
        ms, result = event_once(function)
        times.append(ms)
    return statistics.median(times), result


#: Clock cycles of the kernel that keeps the GPU busy while a timed call's launches
#: are queued behind it (:func:`kernel_only_ms`): about 2 ms at the H100's and H200's
#: clocks, more than a plan's launches take the host.
GUARD_CYCLES = 4_000_000


@functools.cache
def _guard_kernel():
    return cupy.RawKernel(
        'extern "C" __global__ void guard(long long cycles) {'
        " long long start = clock64(); while (clock64() - start < cycles) {} }",
        "guard",
    )


def kernel_only_ms(function, repeats):
    """Median GPU time of the kernels ``function()`` launches, after a warm-up.

    Each timed call's launches queue behind a kernel that keeps the GPU busy
    (:data:`GUARD_CYCLES`), so that each launch's CUDA events time the kernel alone:
    on an idle GPU they would also time the host's launch (about 10 us a launch from
    Python: one H200, the grid's merge 0.029 ms against 0.020 behind the guard)."""
    function()
    times = []
    for _ in range(repeats):
        _guard_kernel()((1,), (1,), (np.int64(GUARD_CYCLES),))
        with gpu.kernel_timer() as launches:
            function()
        cupy.cuda.get_current_stream().synchronize()
        times.append(gpu.kernel_ms(launches))
    return statistics.median(times)


def wedges_of(prepared):
    out_degree = cupy.diff(prepared.indptr)
    return int((out_degree * (out_degree - 1) // 2).sum())


def prepare(src, dst, n, orientation, ordering):
    return prepare_undirected(src, dst, n, orientation=orientation, ordering=ordering)


def weighted(name, args):
    """Kernel ms of the weighted per-node count, each algorithm on its preprocessing."""
    src, dst, n = GRAPHS[name]()
    values = cupy.random.default_rng(1).random(src.size)
    rows = []
    for label, module, orientation, ordering in CONFIGS:
        if args.algorithms and label not in args.algorithms:
            continue
        p = prepare_undirected(src, dst, n, orientation=orientation, ordering=ordering, values=values)
        ms = kernel_only_ms(functools.partial(module.count_gpu, p, "per_node"), args.repeats)
        row = dict(
            graph=name, algorithm=label, orientation=orientation, ordering=ordering, weighted_kernel_ms=ms
        )
        print(f"{name:5s} {label:17s} weighted per-node kernel {ms:10.3f} ms", flush=True)
        rows.append(row)
        del p
    return rows


#: The calls of ``--family``.
FAMILY = ("triangles", "square_clustering", "generalized_degree", "all_triangles_frame", "k_truss_5")


def family(name, args):
    """Wall-clock seconds of the triangle family's functions on the GPU."""
    import networkx as nx

    import nx_tricount

    src, dst, _ = GRAPHS[name]()
    keep = src != dst  # k_truss refuses self-loops, as NetworkX does
    src, dst = src[keep], dst[keep]

    def fresh():  # a new graph per call: its preprocessing is timed too
        return nx_tricount.from_edges(src, dst)

    calls = {
        "triangles": lambda: nx.triangles(fresh(), backend="tricount", device="gpu"),
        "square_clustering": lambda: nx.square_clustering(fresh(), backend="tricount", device="gpu"),
        "generalized_degree": lambda: nx.generalized_degree(fresh(), backend="tricount", device="gpu"),
        "all_triangles_frame": lambda: nx_tricount.all_triangles(fresh(), as_frame=True, device="gpu"),
        "k_truss_5": lambda: nx_tricount.k_truss(fresh(), 5, device="gpu"),
    }
    calls = {label: call for label, call in calls.items() if label in args.functions}
    peer = nx_cugraph_k_truss(src, dst) if "k_truss_5" in calls else None
    if peer is not None:
        calls["nx_cugraph_k_truss_5"] = peer
    row = dict(graph=name, rows=int(src.size))
    for label, call in calls.items():
        call()
        times = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            call()
            cupy.cuda.get_current_stream().synchronize()
            times.append(time.perf_counter() - start)
        row[f"{label}_s"] = statistics.median(times)
    if peer is not None:  # the same 5-truss: its edges, counted once
        ours = calls["k_truss_5"]()
        row["k_truss_5_edges"] = len(distinct_pairs(ours.src, ours.dst, ours.n))
        assert peer().number_of_edges() == row["k_truss_5_edges"]
    fields = (f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in row.items())
    print(" ".join(fields), flush=True)
    return [row]


def distinct_pairs(src, dst, n):
    """The distinct undirected edges of ``src``/``dst`` as keys ``lo * n + hi``."""
    lo, hi = cupy.minimum(src, dst).astype(cupy.int64), cupy.maximum(src, dst).astype(cupy.int64)
    return cupy.unique(lo * n + hi)


def nx_cugraph_k_truss(src, dst):
    """nx-cugraph's ``k_truss(G, 5)`` on the same edges as a call, when
    nx-cugraph imports: its graph (symmetric, without duplicates, int32 ids,
    as it requires) is built once on the GPU beforehand, so the call times
    nx-cugraph's k-truss alone, its own edge-list preparation included."""
    try:
        import networkx as nx
        import nx_cugraph
    except ImportError:
        return None
    n = int(max(src.max(), dst.max())) + 1
    keys = distinct_pairs(src, dst, n)
    lo, hi = (keys // n).astype(cupy.int32), (keys % n).astype(cupy.int32)
    graph = nx_cugraph.Graph.from_coo(
        n, cupy.concatenate([lo, hi]), cupy.concatenate([hi, lo]), use_compat_graph=False
    )
    return lambda: nx.k_truss(graph, 5)


def spgemm(prepared, repeats):
    """Triangles by the CuPy SpGEMM ``sum((L @ L) .* L)`` on the id-oriented CSR."""
    import cupyx.scipy.sparse as sparse

    p = prepared
    ones = cupy.ones(p.m, dtype=np.float64)  # path counts and the sum stay exact
    upper = sparse.csr_matrix((ones, p.indices, p.indptr), shape=(p.n, p.n))

    def run():
        return int(round(float((upper @ upper).multiply(upper).sum())))

    return event_ms(run, repeats)


def bench_graph(name, args):
    pool = cupy.get_default_memory_pool()
    src, dst, n = GRAPHS[name]()
    cupy.cuda.get_current_stream().synchronize()
    rows = [orientation_costs(name, src, dst, n)]
    for label, module, orientation, ordering in CONFIGS:
        if args.algorithms and label not in args.algorithms:
            continue
        # merge's total in the layout a plan gives a whole count of this many edge rows
        layout = {"total_layout": "inline"} if module is merge and src.size >= GPU_INLINE_ARCS else {}
        pool.free_all_blocks()
        t0 = time.perf_counter()
        prep_ms, prepared = event_ms(lambda: prepare(src, dst, n, orientation, ordering), args.repeats)
        total = module.count_gpu(prepared, "total", **layout)  # warm-up, compiles
        start, end = cupy.cuda.Event(), cupy.cuda.Event()
        start.record()
        module.count_gpu(prepared, "total", **layout)
        end.record()
        end.synchronize()
        # Slow baselines (seconds a call) get 3 runs of the whole-call measurements.
        slow = cupy.cuda.get_elapsed_time(start, end) > 1000
        repeats = 3 if slow else args.repeats
        kernel = kernel_only_ms(lambda: module.count_gpu(prepared, "total", **layout), args.repeats)
        count_ms, _ = event_ms(lambda: module.count_gpu(prepared, "total", **layout), repeats)
        per_node_ms, per_node = event_ms(lambda: module.count_gpu(prepared, "per_node"), repeats)
        assert int(per_node.sum()) == 3 * total
        e2e_ms, e2e_total = event_ms(
            lambda: module.count_gpu(prepare(src, dst, n, orientation, ordering), "total", **layout), repeats
        )
        assert e2e_total == total
        wedges = wedges_of(prepared)
        csr_bytes = prepared.indptr.nbytes + prepared.indices.nbytes
        row = dict(
            graph=name,
            algorithm=label,
            orientation=orientation,
            ordering=ordering,
            n=n,
            m=prepared.m,
            triangles=total,
            wedges=wedges,
            preprocess_ms=prep_ms,
            kernel_ms=kernel,
            count_ms=count_ms,
            end_to_end_ms=e2e_ms,
            per_node_ms=per_node_ms,
            wedges_per_s=wedges / (kernel / 1e3) if kernel else None,
            csr_gb_per_s=csr_bytes / kernel / 1e6 if kernel else None,
            peak_gpu_bytes=int(pool.total_bytes()),
            wall_s=time.perf_counter() - t0,
        )
        rows.append(row)
        print_row(row)
        del prepared, per_node
    if not args.no_spgemm:
        pool.free_all_blocks()
        prepared = prepare(src, dst, n, "id", "degree")
        out_degree = cupy.diff(prepared.indptr)
        in_degree = cupy.bincount(prepared.indices, minlength=n)
        paths = int((in_degree * out_degree).sum())  # bounds nnz(L @ L)
        row = dict(
            graph=name,
            algorithm="cupy-spgemm",
            orientation="id",
            ordering="degree",
            n=n,
            m=prepared.m,
            paths=paths,
        )
        if paths <= args.spgemm_max_paths:
            try:
                row["kernel_ms"], row["triangles"] = spgemm(prepared, min(args.repeats, 3))
                row["peak_gpu_bytes"] = int(pool.total_bytes())
            except cupy.cuda.memory.OutOfMemoryError:
                row["skipped"] = "out of GPU memory"
        else:
            row["skipped"] = f"L @ L has up to {paths:.2e} entries"
        rows.append(row)
        print_row(row)
    return rows


def orientation_costs(name, src, dst, n):
    """The paper's Equation 1 of the id, degree and A-direction orientations: over all
    vertices, and over the vertices of degree above 4 d_avg (its Figure 11, k = 4),
    with the largest out-degree."""
    row = dict(graph=name, algorithm="equation-1")
    for orientation in ("id", "degree", "a-direction"):
        prepared = prepare(src, dst, n, orientation, "none")
        out_degree = cupy.diff(prepared.indptr)
        dense = prepared.degree > 4 * prepared.m / n
        row[orientation] = orientation_cost(out_degree, prepared.m, n)
        row[f"{orientation}_dense"] = orientation_cost(out_degree[dense], prepared.m, n)
        row[f"{orientation}_max_out"] = int(out_degree.max())
    for scope in ("", "_dense"):
        degree, peeled = row[f"degree{scope}"], row[f"a-direction{scope}"]
        if degree == 0:  # no vertex of degree above 4 d_avg
            continue
        print(
            f"{name:5s} Equation 1{' (degree > 4 d_avg)' if scope else ''}: id "
            f"{row[f'id{scope}']:.6e}  degree {degree:.6e}  a-direction {peeled:.6e} "
            f"({degree - peeled:+.0f}, {100 * (1 - peeled / degree):.2f}% below degree)",
            flush=True,
        )
    print(
        f"{name:5s} largest out-degree: id {row['id_max_out']}  degree {row['degree_max_out']}  "
        f"a-direction {row['a-direction_max_out']}",
        flush=True,
    )
    return row


def matrix(name, args):
    """Preprocessing, kernel and total ms of the total count for every algorithm x
    orientation x ordering, except orientation ``id`` on ids not ordered by degree:
    its hubs keep out-degrees in the tens of thousands on R-MAT (21,226 at scale 18),
    where every algorithm is 5 to 4000 times slower."""
    src, dst, n = GRAPHS[name]()
    rows = [orientation_costs(name, src, dst, n)]
    pool = cupy.get_default_memory_pool()
    for orientation, ordering in itertools.product(CHOICES["orientation"][1:], CHOICES["ordering"][1:]):
        if orientation == "id" and ordering != "degree" and not args.all_preprocessing:
            continue
        pool.free_all_blocks()
        prep_ms, prepared = event_ms(lambda: prepare(src, dst, n, orientation, ordering), args.repeats)
        for algorithm in ALGORITHMS:
            if args.algorithms and algorithm not in args.algorithms:
                continue
            module = importlib.import_module(f"nx_tricount.algorithms.{algorithm}")
            kernel = kernel_only_ms(lambda: module.count_gpu(prepared, "total"), args.repeats)
            count_ms, total = event_ms(lambda: module.count_gpu(prepared, "total"), args.repeats)
            row = dict(
                graph=name,
                algorithm=algorithm,
                orientation=orientation,
                ordering=ordering,
                preprocess_ms=prep_ms,
                kernel_ms=kernel,
                total_ms=prep_ms + count_ms,
                triangles=total,
            )
            print(
                f"matrix {name:5s} {algorithm:7s} {orientation:11s} {ordering:10s} "
                f"prep {prep_ms:9.3f}  kernel {kernel:9.3f}  total {prep_ms + count_ms:9.3f} ms",
                flush=True,
            )
            rows.append(row)
    return rows


def calibrate_lambda(name, args):
    """A-order's λ (a-direction-a-order-preprocessing.md §5.3), fitted by kernel time:
    the binary-search kernels (vertex, edge) on degree orientation with the original
    order and with A-order at each λ of ``--lambdas``."""
    src, dst, n = GRAPHS[name]()
    rows = []
    settings = [("none", None)] + [("a-order", lam) for lam in args.lambdas]
    for ordering, lam in settings:
        if lam is not None:
            a_order.LAMBDA = lam
        prepared = prepare(src, dst, n, "degree", ordering)
        for module in (vertex, edge):
            ms = kernel_only_ms(lambda: module.count_gpu(prepared, "total"), args.repeats)
            label = module.__name__.rsplit(".", 1)[1]
            print(f"lambda {name:5s} {label:6s} {ordering:8s} lambda={lam} kernel={ms:9.3f} ms", flush=True)
            rows.append(dict(graph=name, algorithm=label, ordering=ordering, lam=lam, kernel_ms=ms))
    return rows


def sweep(name, args):
    """Kernel ms of the wedge total over bitmap rows x spread x threads on one graph."""
    src, dst, n = GRAPHS[name]()
    prepared = prepare(src, dst, n, "id", "degree")
    rows = []
    for bitmap_rows, spread, threads in itertools.product(args.bitmap_rows, args.spreads, args.threads):
        try:
            ms = kernel_only_ms(
                lambda: wedge.count_gpu(
                    prepared, "total", spread=spread, bitmap_rows=bitmap_rows, threads=threads
                ),
                args.repeats,
            )
        except ValueError as exc:  # spread too large for the block's shared memory
            print(f"sweep {name:5s} spread={spread} threads={threads}: {exc}")
            continue
        row = dict(
            graph=name,
            algorithm="wedge-sweep",
            spread=spread,
            bitmap_rows=bitmap_rows,
            threads=threads,
            kernel_ms=ms,
        )
        print(
            f"sweep {name:5s} spread={spread:3d} bitmap_rows={bitmap_rows:6d} threads={threads:4d} "
            f"kernel={ms:9.3f} ms",
            flush=True,
        )
        rows.append(row)
    return rows


def print_row(row):
    if "skipped" in row:
        print(f"{row['graph']:5s} {row['algorithm']:17s} skipped: {row['skipped']}", flush=True)
        return
    if row["algorithm"] == "cupy-spgemm":
        print(
            f"{row['graph']:5s} {row['algorithm']:17s} total {row['kernel_ms']:10.3f} ms "
            f"triangles={row['triangles']}",
            flush=True,
        )
        return
    print(
        f"{row['graph']:5s} {row['algorithm']:17s} prep {row['preprocess_ms']:9.3f}  "
        f"kernel {row['kernel_ms']:9.3f}  count {row['count_ms']:9.3f}  "
        f"e2e {row['end_to_end_ms']:9.3f}  per_node {row['per_node_ms']:9.3f} ms  "
        f"tri={row['triangles']} wedges={row['wedges']:.3e} "
        f"wedges/s={row['wedges_per_s'] or 0:.2e} csr={row['csr_gb_per_s'] or 0:.0f} GB/s "
        f"peak={row['peak_gpu_bytes'] / 2**30:.2f} GiB",
        flush=True,
    )


def summary(rows):
    """Best kernel per graph against the published kernels and the target (docs/benchmarks.md)."""
    print(
        "\ngraph  best              kernel_ms  WeTriC  x WeTriC  target  met  published  nx-cugraph"
        "  e2e/kernel  per_node/total  wedges/s  CSR GB/s (% of peak)  hash_ms  TRUST_ms"
    )
    speedups = []
    for name in GRAPHS:
        mine = [r for r in rows if r["graph"] == name and "count_ms" in r]
        if not mine:
            continue
        best = min(mine, key=lambda r: r["kernel_ms"])
        hashed = [r["kernel_ms"] for r in mine if r["algorithm"].startswith("hash")]
        target = WETRIC[name] / TARGET_SPEEDUP
        speedups.append(WETRIC[name] / best["kernel_ms"])
        bandwidth = best["csr_gb_per_s"] or 0
        print(
            f"{name:6s} {best['algorithm']:17s} {best['kernel_ms']:9.3f}  {WETRIC[name]:6.3f}  "
            f"{speedups[-1]:7.2f}x  {target:6.3f}  {'yes' if best['kernel_ms'] <= target else 'no ':3s}  "
            f"{PUBLISHED[name]:9.3f}  "
            f"{NX_CUGRAPH[name]:10.1f}  {best['end_to_end_ms'] / best['kernel_ms']:10.2f}  "
            f"{best['per_node_ms'] / best['count_ms']:14.2f}  {best['wedges_per_s'] or 0:8.2e}  "
            f"{bandwidth:8.0f} ({100 * bandwidth / PEAK_GB_S:4.1f}%)  "
            f"{min(hashed) if hashed else float('nan'):7.3f}  {TRUST[name]:8.2f}"
        )
    if speedups:
        geomean = float(np.exp(np.mean(np.log(speedups))))
        print(f"geometric mean over WeTriC {geomean:.2f}x (target {TARGET_SPEEDUP}x)")


def smoke_on_the_cpu():
    """Without a GPU: every configuration's preprocessing and total and per-node
    counts on the CPU engine (they must agree), and Equation 1 of the orientations,
    on R-MAT ``SMOKE_SCALE``."""
    print(
        "no GPU (CuPy missing or no device): GPU timings skipped; the configurations "
        f"run on the CPU engine instead, on R-MAT {SMOKE_SCALE}",
        flush=True,
    )
    src, dst = rmat_edges(SMOKE_SCALE, seed=SMOKE_SCALE)
    n = 1 << SMOKE_SCALE
    totals = {}
    for label, module, orientation, ordering in CONFIGS:
        start = time.perf_counter()
        prepared = prepare(src, dst, n, orientation, ordering)
        totals[label] = module.count_cpu(prepared, "total")
        per_node = module.count_cpu(prepared, "per_node")
        assert 3 * totals[label] == int(per_node.sum()), label
        print(
            f"cpu   {label:17s} triangles={totals[label]} "
            f"({1e3 * (time.perf_counter() - start):.1f} ms, compilation included)",
            flush=True,
        )
    assert len(set(totals.values())) == 1, f"configurations disagree: {totals}"
    for orientation in ("id", "degree", "a-direction"):
        prepared = prepare(src, dst, n, orientation, "none")
        cost = orientation_cost(np.diff(prepared.indptr), prepared.m, n)
        print(f"cpu   Equation 1 ({orientation}): {cost:.6e}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--graphs", nargs="+", default=list(GRAPHS), choices=list(GRAPHS))
    parser.add_argument(
        "--algorithms",
        nargs="+",
        choices=[c[0] for c in CONFIGS],
        help="labels of CONFIGS; with --matrix, algorithm names",
    )
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-spgemm", action="store_true")
    parser.add_argument("--spgemm-max-paths", type=float, default=2e9)
    parser.add_argument("--sweep", action="store_true", help="wedge bitmap rows x spread x threads only")
    parser.add_argument("--matrix", action="store_true", help="every algorithm x orientation x ordering")
    parser.add_argument("--weighted", action="store_true", help="weighted per-node kernels only")
    parser.add_argument("--family", action="store_true", help="the rest of the triangle family only")
    parser.add_argument(
        "--functions",
        nargs="+",
        default=list(FAMILY),
        choices=list(FAMILY),
        help="with --family: these calls only",
    )
    parser.add_argument(
        "--all-preprocessing",
        action="store_true",
        help="with --matrix, also orientation id on ids not ordered by degree",
    )
    parser.add_argument("--calibrate-lambda", action="store_true", help="A-order's lambda by kernel time")
    parser.add_argument("--lambdas", type=float, nargs="+", default=[0.5, 1, 2, 4, 9.682, 16, 32])
    parser.add_argument("--spreads", type=int, nargs="+", default=[4, 8, 12, 16, 24])
    parser.add_argument("--threads", type=int, nargs="+", default=[wedge.THREADS])
    parser.add_argument("--bitmap-rows", type=int, nargs="+", default=[0, 8192, 16384, 32768, 65536])
    parser.add_argument("--json", help="write the rows here")
    parser.add_argument(
        "--smoke", action="store_true", help=f"R-MAT {SMOKE_SCALE}, one run; on the CPU engine without a GPU"
    )
    args = parser.parse_args()
    if not gpu_available():
        if not args.smoke:
            parser.error("no GPU (CuPy missing or no device); --smoke runs on the CPU engine")
        smoke_on_the_cpu()
        return
    if args.smoke:
        scale = SMOKE_SCALE
        GRAPHS["smoke"] = lambda: (*rmat_edges(scale, seed=scale, device="gpu"), 1 << scale)
        args.graphs, args.repeats = ["smoke"], 1
    props = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)
    device = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    print(f"device: {device}; date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}", flush=True)
    rows = []
    for name in args.graphs:
        if args.sweep:
            rows += sweep(name, args)
        elif args.matrix:
            rows += matrix(name, args)
        elif args.calibrate_lambda:
            rows += calibrate_lambda(name, args)
        elif args.weighted:
            rows += weighted(name, args)
        elif args.family:
            rows += family(name, args)
        else:
            rows += bench_graph(name, args)
    if not (args.sweep or args.matrix or args.calibrate_lambda or args.weighted or args.family or args.smoke):
        summary(rows)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": device, "date": time.strftime("%Y-%m-%d"), "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
