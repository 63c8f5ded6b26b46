"""Benchmark graphs beyond one GPU: the R-MAT scale ladder from host memory.

For each scale, the edges are drawn on the GPU chunk by chunk into host memory
(``rmat_edges_in_chunks``; int32 ids; with ``--device cpu``, ``rmat_edges`` on
the host), then ``nx.transitivity`` counts them through the backend under each
setting given (``memory_limit=8GB``, ``partitions=3,partitioning=range``,
``algorithm=merge``, ...; the empty setting is the default plan), on a fresh
``TriGraph`` each run (``--function average_clustering`` times that instead;
``--dask-cuda`` starts a dask-cuda cluster of one worker per GPU for settings
with ``distributed=dask``). It prints, as JSON lines: what ran (the
plan's regime, parts and GPUs, where it prepared the graph and whether straight
into its parts or in passes, as the count recorded it), ``from_edges`` and
count seconds (wall clock), the peak of CuPy's memory pool on each GPU, each
worker's phases (preparation, the shares' cut, copy of the graph, count,
combine: seconds, and the bytes it moved; ``nx_tricount.execution.phases``), and the
result, which must be the same under every setting. ``--resident`` moves
the edges to the GPU first (a graph that fits one GPU, counted from there).

Usage::

    python examples/benchmark_scale.py --scales 24 26 27 --settings "" "memory_limit=24GB"
    python examples/benchmark_scale.py --resident --scales 22 24 26 --settings "" "devices=all"
    python examples/benchmark_scale.py --device cpu --scales 16 --settings "partitions=4,partitioning=range"
    python examples/benchmark_scale.py --scales 27 --gpus 1 2 4 8 --json strong.json   # strong scaling
    python examples/benchmark_scale.py --scales 26 27 28 29 --gpus 1 2 4 8 --weak --json weak.json
    python examples/benchmark_scale.py --smoke      # CPU, R-MAT 10, 1 to 3 parts, one under a memory limit
"""

import argparse
import contextlib
import json
import statistics
import time

import networkx as nx

import nx_tricount
from nx_tricount.execution import phases
from nx_tricount.io.generators import rmat_edges, rmat_edges_in_chunks


def parse(setting):
    """``"k=v,k=v"`` -> settings dict (ints where they are)."""
    result = {}
    for item in filter(None, setting.split(",")):
        key, value = item.split("=")
        if key == "devices" and value != "all":
            result[key] = [int(d) for d in value.split(";")]  # devices=0;1
        else:
            result[key] = int(value) if value.isdigit() and key != "memory_limit" else value
    return result


#: The functions ``--function`` times: each a NetworkX call on the graph.
FUNCTIONS = {
    "transitivity": nx.transitivity,
    "average_clustering": nx.average_clustering,
}


def run(src, dst, scale, setting, device, repeats, function="transitivity"):
    """One JSON row per run of ``setting``."""
    rows = []
    for _ in range(repeats):
        pools_gib(device, free=True)
        start = time.perf_counter()
        G = nx_tricount.from_edges(src, dst)
        built = time.perf_counter()
        settings = parse(setting)
        algorithm = settings.pop("algorithm", None)
        with nx.config.backends.tricount(**settings), phases.collect() as records:
            result = FUNCTIONS[function](G, backend="tricount", device=device, algorithm=algorithm)
            done = time.perf_counter()
            # What ran: a spread count records its plan; a whole count records nothing.
            ran = next((r for r in records if r["worker"] == "plan"), None)
            if ran is None:
                ran = dict(
                    regime="whole", parts=1, devices=[], prepared_on=device, in_parts=False, together=False
                )
                plan = nx_tricount.make_plan(G, device=device, algorithm=algorithm, total=True)
                ran["algorithm"] = plan.algorithm
            # A graph prepared in passes records the preparation.
            ran["in_passes"] = any(r.get("passes") for r in records if r["worker"] == "prepare")
        row = dict(
            scale=scale,
            rows=int(src.size),
            setting=setting,
            algorithm=ran["algorithm"],
            parts=ran["parts"],
            prepared_on=ran["prepared_on"],
            in_parts=ran["in_parts"],
            together=ran["together"],
            in_passes=ran["in_passes"],
            regime=ran["regime"],
            gpus=max(1, len(ran["devices"])),
            from_edges_s=round(built - start, 3),
            count_s=round(done - built, 3),
            phases=[r for r in records if r["worker"] != "plan"],
            peak_pool_gib=pools_gib(device),
            function=function,
            result=result,
        )
        print(json.dumps(row), flush=True)
        rows.append(row)
    return rows


def pools_gib(device, free=False):
    """GiB held by CuPy's memory pool on each GPU (after a count: its peak, the
    pool keeping its blocks), None on the CPU; with ``free``, the pools emptied first."""
    if device != "gpu":
        return None
    import cupy

    pool = cupy.get_default_memory_pool()
    held = []
    for gpu in range(cupy.cuda.runtime.getDeviceCount()):
        with cupy.cuda.Device(gpu):
            if free:
                pool.free_all_blocks()
            held.append(round(pool.total_bytes() / 2**30, 2))
    return held


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scales", type=int, nargs="+", default=[24, 26, 27])
    parser.add_argument("--settings", nargs="+", default=[""])
    parser.add_argument("--repeats", type=int, default=2, help="runs per setting (the first compiles)")
    parser.add_argument("--device", choices=["gpu", "cpu"], default="gpu")
    parser.add_argument("--resident", action="store_true", help="the edges in GPU memory (GPU 0)")
    parser.add_argument("--function", choices=sorted(FUNCTIONS), default="transitivity")
    parser.add_argument(
        "--dask-cuda",
        action="store_true",
        help="start a dask-cuda LocalCUDACluster (one worker per GPU) for settings with distributed=dask",
    )
    parser.add_argument(
        "--gpus",
        type=int,
        nargs="+",
        help="GPU counts, each a setting devices=0;...;N-1 (in place of --settings): strong scaling",
    )
    parser.add_argument(
        "--weak", action="store_true", help="with --gpus: the i-th scale on the i-th GPU count only"
    )
    parser.add_argument("--json", help="write every run and the scaling summary here")
    parser.add_argument(
        "--smoke", action="store_true", help="CPU, R-MAT 10, partitions 1 to 3, one under a memory limit"
    )
    args = parser.parse_args()
    if args.gpus:
        args.settings = [gpus_setting(count) for count in args.gpus]
    if args.weak and (not args.gpus or len(args.gpus) != len(args.scales)):
        parser.error("--weak pairs each scale with a GPU count: give --gpus and --scales of one length")
    if args.smoke:
        src, dst = rmat_edges(10, 16, seed=10)
        rows = []
        # 1 MB is below the whole count's estimate: the graph goes straight into its parts.
        for setting in ("", "memory_limit=1MB", "partitions=3", "partitions=3,partitioning=range"):
            rows += run(src, dst, 10, setting, "cpu", 1)
        assert rows[1]["parts"] > 1 and rows[1]["in_parts"], rows[1]
        assert len({row["result"] for row in rows}) == 1
        print("every partition gives the same transitivity")
        return
    with contextlib.ExitStack() as stack:
        if args.dask_cuda:
            import dask_cuda
            import distributed

            cluster = stack.enter_context(dask_cuda.LocalCUDACluster(dashboard_address=None))
            stack.enter_context(distributed.Client(cluster))
        rows = []
        for position, scale in enumerate(args.scales):
            settings = [args.settings[position]] if args.weak else args.settings
            rows += ladder(scale, settings, args)
    summary = scaling(rows, args.weak)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(runs=rows, scaling=summary), f, indent=1)


def gpus_setting(count):
    """The setting of a count on GPUs ``0 .. count - 1``."""
    return "devices=" + ";".join(str(d) for d in range(count))


def scaling(rows, weak):
    """Per scale (strong) or over the scales (``weak``), each setting's median
    count seconds (of the runs after the first, which compiles, when there are
    several) against the first setting's: the speed-up, or for weak scaling the
    time's growth. Printed as JSON lines and returned."""
    medians = {}
    for row in rows:
        medians.setdefault((row["scale"], row["setting"]), []).append(row["count_s"])
    summary = []
    groups = (
        [list(medians)]
        if weak
        else [[k for k in medians if k[0] == s] for s in dict.fromkeys(k[0] for k in medians)]
    )
    for group in groups:
        first = None
        for scale, setting in group:
            runs = medians[(scale, setting)]
            median = statistics.median(runs[1:] if len(runs) > 1 else runs)
            first = median if first is None else first
            entry = dict(scale=scale, setting=setting, median_count_s=round(median, 4))
            if weak:
                entry["growth"] = round(median / first, 3)
            else:
                entry["speedup"] = round(first / median, 3)
            print(json.dumps(entry), flush=True)
            summary.append(entry)
    return summary


def ladder(scale, settings, args):
    """Every setting on the R-MAT graph of ``scale``: the rows of its runs."""
    start = time.perf_counter()
    if args.device == "gpu":
        src, dst = rmat_edges_in_chunks(scale, 16, seed=scale)
    else:
        src, dst = rmat_edges(scale, 16, seed=scale)
    if args.resident:
        import cupy

        src, dst = cupy.asarray(src), cupy.asarray(dst)
    generate_s = round(time.perf_counter() - start, 2)
    print(json.dumps(dict(scale=scale, rows=int(src.size), generate_s=generate_s)))
    rows = []
    for setting in settings:
        rows += run(src, dst, scale, setting, args.device, args.repeats, args.function)
    assert len({row["result"] for row in rows}) == 1, "the settings disagree"
    return rows


if __name__ == "__main__":
    main()
