"""The default plan's kernel against the published GPU codes, on the very same edge lists.

Every graph is made on the GPU (seeded): the GPU benchmark's suite (R-MAT 18-23,
the 1000x1000 grid with 5% diagonals, Barabási–Albert 2M x 10; see
``examples/benchmark_gpu.py``) and graphs of other shapes:

- ``rmat21-flat``: R-MAT 21 with a=0.45, b=c=0.22 (a flatter degree spread,
  few hubs); ``rmat21-steep``: a=0.65, b=c=0.15 (heavier hubs);
- ``powerlaw-2.1``, ``powerlaw-2.5``, ``powerlaw-3``: Chung–Lu graphs of 2M
  vertices and average degree 16 whose degrees follow those exponents;
- ``road``: a 2000x2000 grid with 3% diagonals and 10% of its edges removed
  (planar, degree at most 5);
- ``web``: the copying model, 2M vertices x 10 links, 30% uniform links
  (long-tailed in-degrees, many triangles).

For each graph the script times ``auto``'s plan for a total count (the
plan NetworkX calls make: its algorithm, preprocessing and parameters), and the
published codes whose binaries are given, each on the graph's distinct
undirected edges written in its own input format:

- WeTriC (``--wetric``, ``jeffreyspaan/wedge-parallel-triangle-counting``): a
  text edge list; its spread ``-s`` and dense-bitmap side ``-a`` are swept and
  its best setting reported; kernel time: its "GPU exec" column (CUDA events
  around its counting kernel), ``-l`` timed runs after its own warm-up. Its
  events time the GPU alone when its ``tc.cu`` launches a spin kernel before
  its start event, as ours do (``benchmark_gpu.kernel_only_ms``): a
  ``__global__`` kernel looping on ``clock64()`` for 4,000,000 cycles, launched
  ``<<<1, 1>>>`` right before ``cudaEventRecord(GPU_exec_start)``; on an idle
  GPU its events also time its launch (docs/benchmarks.md).
- ToT (``--tot``, ``yuang-chen/ToT-TPDS25``): tensor-core counting in fp16;
  a binary ``.csr``; kernel time: its ``[Kernel]`` line (CUDA events), one run per
  invocation. It does not reorder vertices, so it runs on the graph's own ids and
  on ascending-degree ids, and the faster exact one is reported.
- GroupTC (``--grouptc``, ``Jangbao/TC-Compare``): binary CSR files of the
  ascending-degree oriented graph, the layout its converter writes; kernel
  time: CUDA events around its kernel after a warm-up launch (its own timer
  is wall clock with a reduction inside, so the binary is expected to print
  ``event kernel ms``, see docs/benchmarks.md).

Every time is the median of ``--repeats`` runs; every count is checked against
ours (a wrong count is reported as such, not timed). Beside each kernel: the
wedges of the degree-oriented graph per second of kernel time, and the oriented
CSR's bytes (int32 ids) over the kernel time against the GPU's peak bandwidth
(the bandwidth of reading the CSR once, a lower bound of what a kernel draws).

Usage::

    python examples/benchmark_peers.py --wetric bin/wetric --tot bin/tot --grouptc bin/grouptc_evt
    python examples/benchmark_peers.py --graphs g18 web --json peers.json   # ours only
    python examples/benchmark_peers.py --smoke   # the input files' check, on the CPU
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile
import time

import numpy as np
from benchmark_gpu import GRAPHS, kernel_only_ms, wedges_of

from nx_tricount.classes.graph import TriGraph
from nx_tricount.classes.preparation import oriented_csr
from nx_tricount.execution.execute import run
from nx_tricount.gpu.device import array_module, gpu_available
from nx_tricount.io.generators import chung_lu_edges, copying_edges, grid_edges, rmat_edges
from nx_tricount.planning.plan import make_plan
from nx_tricount.planning.rules import choose_after_preparation

if gpu_available():
    import cupy as xp
else:
    xp = np


def road(side=2000, device="gpu"):
    """A ``side x side`` grid with 3% diagonals, 10% of its edges removed (seeded)."""
    src, dst = grid_edges(side, side, 0.03, seed=3, device=device)
    keep = array_module(device).random.default_rng(3).random(src.size) >= 0.1
    return src[keep], dst[keep], side * side


SHAPES = {
    "rmat21-flat": lambda: (*rmat_edges(21, a=0.45, b=0.22, c=0.22, seed=21, device="gpu"), 1 << 21),
    "rmat21-steep": lambda: (*rmat_edges(21, a=0.65, b=0.15, c=0.15, seed=21, device="gpu"), 1 << 21),
    "powerlaw-2.1": lambda: (*chung_lu_edges(1 << 21, 16, 2.1, seed=1, device="gpu"), 1 << 21),
    "powerlaw-2.5": lambda: (*chung_lu_edges(1 << 21, 16, 2.5, seed=2, device="gpu"), 1 << 21),
    "powerlaw-3": lambda: (*chung_lu_edges(1 << 21, 16, 3.0, seed=3, device="gpu"), 1 << 21),
    "road": road,
    "web": lambda: (*copying_edges(2_000_000, 10, 0.3, seed=4, device="gpu"), 2_000_000),
}
ALL_GRAPHS = {**GRAPHS, **SHAPES}
#: --smoke: every shape, small, on the CPU.
SMOKE_SHAPES = {
    "rmat": lambda: (*rmat_edges(10, a=0.45, b=0.22, c=0.22, seed=21), 1 << 10),
    "powerlaw-2.1": lambda: (*chung_lu_edges(2000, 16, 2.1, seed=1), 2000),
    "road": lambda: road(40, "cpu"),
    "web": lambda: (*copying_edges(2000, 10, 0.3, seed=4), 2000),
}

#: Peak HBM bandwidth, GB/s, by the device name's model.
PEAK_GB_S = {"H100": 3350, "H200": 4800}
#: WeTriC's sweep: spread (wedges per thread, at most 47) x dense-bitmap side.
WETRIC_SPREADS = (1, 5, 10, 20)
WETRIC_BITMAP_SIDES = (8192, 32768)


def distinct_edges(src, dst, n):
    """The distinct undirected edges ``lo < hi`` (self-loops dropped), sorted, on the host."""
    lo, hi = xp.minimum(src, dst).astype(xp.int64), xp.maximum(src, dst).astype(xp.int64)
    keys = xp.unique((lo * n + hi)[lo != hi])
    return to_host(keys // n), to_host(keys % n)


def to_host(array):
    return array.get() if xp is not np else array


def degree_ranks(lo, hi, n):
    """Each vertex's place in ascending degree order (ties by id)."""
    degree = np.bincount(lo, minlength=n) + np.bincount(hi, minlength=n)
    rank = np.empty(n, dtype=np.int64)
    rank[np.argsort(degree, kind="stable")] = np.arange(n)
    return rank


def oriented_by_rank(lo, hi, rank):
    """Edges relabelled by ``rank``, stored once from the lower rank, sorted by (src, dst)."""
    a, b = rank[lo], rank[hi]
    src, dst = np.minimum(a, b), np.maximum(a, b)
    order = np.lexsort((dst, src))
    return src[order], dst[order]


def row_offsets(src, n):
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=n), out=offsets[1:])
    return offsets


def write_text_edges(path, lo, hi):
    """``u v`` lines, ids from 0, formatted by digit arithmetic (np.savetxt takes minutes)."""
    lo, hi = xp.asarray(lo), xp.asarray(hi)
    widths = [xp.maximum(1, xp.floor(xp.log10(c + 0.5)).astype(xp.int64) + 1) for c in (lo, hi)]
    line = widths[0] + widths[1] + 2
    start = xp.cumsum(line) - line
    text = xp.full(int(line.sum()), ord(" "), dtype=xp.uint8)
    text[start + line - 1] = ord("\n")
    for column, width, first in ((lo, widths[0], start), (hi, widths[1], start + widths[0] + 1)):
        for digit in range(int(width.max())):
            has = width > digit
            text[(first + width - 1 - digit)[has]] = (48 + column[has] // 10**digit % 10).astype(xp.uint8)
    with open(path, "wb") as f:
        f.write(to_host(text).tobytes())


def write_csr(path, src, dst, n):
    """ToT's ``.csr``: int32 ``n``, ``m``, row offsets, column ids (little-endian), of
    pairs sorted by (src, dst), as :func:`distinct_edges` and :func:`oriented_by_rank` give them."""
    with open(path, "wb") as f:
        np.array([n, src.size], dtype="<i4").tofile(f)
        row_offsets(src, n).astype("<i4").tofile(f)
        dst.astype("<i4").tofile(f)


def write_grouptc_folder(folder, src, dst, n):
    """GroupTC's input: ``begin.bin`` (int64 row offsets), ``source.bin`` and
    ``adjacent.bin`` (int32 ends of each edge, sorted), headerless little-endian."""
    row_offsets(src, n).astype("<i8").tofile(os.path.join(folder, "begin.bin"))
    src.astype("<i4").tofile(os.path.join(folder, "source.bin"))
    dst.astype("<i4").tofile(os.path.join(folder, "adjacent.bin"))


def run_binary(command, env=None):
    result = subprocess.run(
        command,
        capture_output=True,
        text=True,
        env={**os.environ, "CUDA_MODULE_LOADING": "EAGER", **(env or {})},
    )
    if result.returncode != 0:
        raise RuntimeError(
            f"{command[0]} failed ({result.returncode}): {result.stderr[-400:]}{result.stdout[-400:]}"
        )
    return result.stdout


WETRIC_ROW = re.compile(
    r"^\S+\s+\d+\s+\d+\s+(\d+)\s+(\d+)\s+(?P<triangles>\d+)\s+[-\d.]+\s+[-\d.]+\s+(?P<exec_s>[-\d.]+)\s+"
    r"[-\d.]+\s+[-\d.]+\s*$",
    re.M,
)


def wetric(binary, folder, lo, hi, triangles, repeats, sweep):
    """WeTriC's best median kernel ms over the sweep, its flags, and whether every count was right."""
    path = os.path.join(folder, "edges.txt")
    write_text_edges(path, lo, hi)
    results = {}
    for spread, side in sweep:
        out = run_binary(
            [binary, "-e", path, "-z", "-s", str(spread), "-a", str(side), "-l", str(repeats), "-p", "2"]
        )
        rows = [m.groupdict() for m in WETRIC_ROW.finditer(out)]
        if not rows:
            raise RuntimeError(f"WeTriC printed no timing row: {out[-400:]}")
        if any(int(r["triangles"]) != triangles for r in rows):
            results[(spread, side)] = None
            continue
        results[(spread, side)] = statistics.median(float(r["exec_s"]) * 1e3 for r in rows)
    exact = {key: ms for key, ms in results.items() if ms is not None}
    if not exact:
        return dict(wrong_count=True)
    best = min(exact, key=exact.get)
    return dict(
        kernel_ms=exact[best], flags=f"-s {best[0]} -a {best[1]}", wrong_settings=len(results) - len(exact)
    )


def tot(binary, folder, lo, hi, n, ranked, triangles, repeats):
    """ToT's median kernel ms on the graph's own ids and on ascending-degree ids: the faster exact one."""
    found = {}
    for ids, (src, dst) in (("own", (lo, hi)), ("degree", ranked)):
        path = os.path.join(folder, f"{ids}.csr")
        write_csr(path, src, dst, n)
        times, counts = [], set()
        for _ in range(repeats):
            out = run_binary([binary, "-i", path])
            kernel = re.search(r"^\[Kernel\] time: ([0-9.eE+-]+) ms$", out, re.M)
            count = re.search(r"^Triangles \(GPU\): (-?\d+)$", out, re.M)
            if kernel is None or count is None:
                raise RuntimeError(f"ToT printed no kernel time or count: {out[-400:]}")
            times.append(float(kernel.group(1)))
            counts.add(int(count.group(1)))
        found[ids] = statistics.median(times) if counts == {triangles} else None
    exact = {ids: ms for ids, ms in found.items() if ms is not None}
    if not exact:
        return dict(wrong_count=True)
    ids = min(exact, key=exact.get)
    return dict(kernel_ms=exact[ids], flags=f"{ids} ids", wrong_ids=sorted(set(found) - set(exact)))


def grouptc(binary, folder, n, ranked, triangles, repeats):
    """GroupTC's median of ``repeats`` invocations, each timing one kernel after a warm-up."""
    write_grouptc_folder(folder, *ranked, n)
    times = []
    for _ in range(repeats):
        out = run_binary([binary, folder + "/", "0", "1"])
        event = re.search(r"^event kernel ms: avg ([0-9.eE+-]+)", out, re.M)
        count = re.search(r"^triangle count (-?\d+) *$", out, re.M)
        if event is None or count is None:
            raise RuntimeError(f"GroupTC printed no event time or count: {out[-400:]}")
        if int(count.group(1)) != triangles:
            return dict(wrong_count=True)
        times.append(float(event.group(1)))
    return dict(kernel_ms=statistics.median(times), flags="")


def ours(src, dst, n, repeats):
    """The plan of a total count with every setting ``auto`` (as the prepared graph
    settles it), its prepared graph and kernel ms."""
    graph = TriGraph(src, dst, n)
    plan = make_plan(graph, device="gpu", total=True)
    prepared = oriented_csr(graph, plan.orientation, plan.ordering, "gpu", pipeline=plan.pipeline)
    plan = choose_after_preparation(plan, prepared)
    total = run(plan, prepared, "total").total
    kernel = kernel_only_ms(lambda: run(plan, prepared, "total"), repeats)
    return plan, prepared, total, kernel


def bench_graph(name, args, peak):
    src, dst, n = ALL_GRAPHS[name]()
    plan, prepared, triangles, kernel = ours(src, dst, n, args.repeats)
    wedges = wedges_of(prepared)
    csr_bytes = 4 * (n + 1 + prepared.m)
    row = dict(graph=name, n=n, m=int(prepared.m), triangles=triangles, wedges=wedges)
    row["tricount"] = dict(kernel_ms=kernel, flags=f"{plan.algorithm} ({plan.orientation}, {plan.ordering})")
    del prepared
    if args.wetric or args.tot or args.grouptc:
        lo, hi = distinct_edges(src, dst, n)
        del src, dst
        xp.get_default_memory_pool().free_all_blocks()
        ranked = oriented_by_rank(lo, hi, degree_ranks(lo, hi, n))  # ToT's and GroupTC's
        with tempfile.TemporaryDirectory(dir=args.workdir) as folder:
            sweep = args.wetric_sweep or [(s, a) for s in WETRIC_SPREADS for a in WETRIC_BITMAP_SIDES]
            peers = {
                "WeTriC": args.wetric
                and (lambda: wetric(args.wetric, folder, lo, hi, triangles, args.repeats, sweep)),
                "ToT": args.tot
                and (lambda: tot(args.tot, folder, lo, hi, n, ranked, triangles, args.repeats)),
                "GroupTC": args.grouptc
                and (lambda: grouptc(args.grouptc, folder, n, ranked, triangles, args.repeats)),
            }
            for code, call in peers.items():
                if call:
                    try:
                        row[code] = call()
                    except RuntimeError as error:  # a code that fails on a graph is reported, not fatal
                        row[code] = dict(failed=str(error)[:300])
    for code in ("tricount", "WeTriC", "ToT", "GroupTC"):
        result = row.get(code)
        if result is None or "kernel_ms" not in result:
            continue
        seconds = result["kernel_ms"] / 1e3
        result["wedges_per_s"] = wedges / seconds
        result["csr_gb_per_s"] = csr_bytes / seconds / 1e9
        result["of_peak"] = result["csr_gb_per_s"] / peak
    print_row(row)
    return row


def print_row(row):
    cells = []
    for code in ("tricount", "WeTriC", "ToT", "GroupTC"):
        result = row.get(code)
        if result is None:
            continue
        if "kernel_ms" not in result:
            cells.append(f"{code} " + ("wrong count" if result.get("wrong_count") else result["failed"]))
            continue
        lead = row["tricount"]["kernel_ms"]
        cells.append(
            f"{code} {result['kernel_ms']:.3f} ms [{result['flags']}] {result['wedges_per_s']:.2e} w/s "
            f"{result['csr_gb_per_s']:.0f} GB/s ({100 * result['of_peak']:.1f}%)"
            + (f" x{result['kernel_ms'] / lead:.2f}" if code != "tricount" else "")
        )
    print(f"{row['graph']:13s} m={row['m']} triangles={row['triangles']} | " + " | ".join(cells), flush=True)


def summary(rows):
    ratios = [
        r["WeTriC"]["kernel_ms"] / r["tricount"]["kernel_ms"]
        for r in rows
        if "kernel_ms" in r.get("WeTriC", {})
    ]
    if ratios:
        geomean = float(np.exp(np.mean(np.log(ratios))))
        print(f"over WeTriC: geometric mean {geomean:.2f}x, least {min(ratios):.2f}x ({len(ratios)} graphs)")


def read_back(folder, n):
    """The edges the three input files hold, as the codes read them: ``(text, csr, grouptc)``."""
    text = np.loadtxt(os.path.join(folder, "edges.txt"), dtype=np.int64, ndmin=2)
    header = np.fromfile(os.path.join(folder, "own.csr"), dtype="<i4")
    offsets, columns = header[2 : n + 3], header[n + 3 :]
    assert header[0] == n and header[1] == columns.size and offsets[-1] == columns.size
    csr = np.stack([np.repeat(np.arange(n), np.diff(offsets)), columns], axis=1)
    begin = np.fromfile(os.path.join(folder, "begin.bin"), dtype="<i8")
    source = np.fromfile(os.path.join(folder, "source.bin"), dtype="<i4")
    adjacent = np.fromfile(os.path.join(folder, "adjacent.bin"), dtype="<i4")
    assert np.array_equal(np.repeat(np.arange(n), np.diff(begin)), source), "GroupTC's offsets"
    return text, csr, np.stack([source, adjacent], axis=1)


def smoke():
    """Every shape, small, through every input writer on the CPU: the files read back
    hold the graph's distinct edges (GroupTC's: relabelled by degree, each from its
    lower end, sorted), and our count of each equals the graph's."""
    import nx_tricount

    def triangles(edges, n):
        return sum(nx_tricount.triangles(nx_tricount.from_edges(edges[:, 0], edges[:, 1], n=n)).values()) // 3

    for name, make in SMOKE_SHAPES.items():
        src, dst, n = make()
        expected = triangles(np.stack([src, dst], axis=1), n)
        lo, hi = distinct_edges(xp.asarray(src), xp.asarray(dst), n)
        ranked = oriented_by_rank(lo, hi, degree_ranks(lo, hi, n))
        with tempfile.TemporaryDirectory() as folder:
            write_text_edges(os.path.join(folder, "edges.txt"), lo, hi)
            write_csr(os.path.join(folder, "own.csr"), lo, hi, n)
            write_grouptc_folder(folder, *ranked, n)
            text, csr, grouped = read_back(folder, n)
        distinct = np.stack([lo, hi], axis=1)
        assert np.array_equal(text, distinct) and np.array_equal(csr, distinct), name
        assert (grouped[:, 0] < grouped[:, 1]).all() and np.array_equal(grouped, np.stack(ranked, axis=1)), (
            name
        )
        assert all(triangles(edges, n) == expected for edges in (text, csr, grouped)), name
        print(
            f"{name}: {lo.size} edges, {expected} triangles; WeTriC, ToT and GroupTC inputs read back exact"
        )
    print("no GPU timings in a smoke run")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--graphs", nargs="+", default=list(ALL_GRAPHS), choices=list(ALL_GRAPHS))
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--wetric", help="WeTriC's binary")
    parser.add_argument(
        "--wetric-sweep",
        nargs="+",
        type=lambda text: tuple(int(x) for x in text.split(",")),
        metavar="SPREAD,SIDE",
        help="WeTriC's settings to try (default: spreads x bitmap sides)",
    )
    parser.add_argument("--tot", help="ToT's binary")
    parser.add_argument("--grouptc", help="GroupTC's binary, printing 'event kernel ms'")
    parser.add_argument("--workdir", help="where the input files are written (default: the system's temp)")
    parser.add_argument("--json", help="write the rows here")
    parser.add_argument("--smoke", action="store_true", help="the input writers on small graphs, on the CPU")
    args = parser.parse_args()
    if args.smoke:
        return smoke()
    if not gpu_available():
        raise SystemExit("benchmark_peers.py times GPU kernels: no GPU is visible")
    name = xp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    peak = next((gb for model, gb in PEAK_GB_S.items() if model in name), PEAK_GB_S["H100"])
    print(f"{name} (peak {peak} GB/s); {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}", flush=True)
    rows = [bench_graph(graph, args, peak) for graph in args.graphs]
    summary(rows)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": name, "date": time.strftime("%Y-%m-%d"), "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
