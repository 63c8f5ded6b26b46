"""Benchmark the NetworkX layer: whole calls through NetworkX against their targets.

Each call gets a fresh ``TriGraph`` made from the edge arrays in GPU memory
(``nx_tricount.from_edges``), so its preprocessing is timed with it, and runs
through NetworkX's dispatcher (``nx.transitivity(G)``, ...); wall clock after a
synchronisation, median of --repeats runs after a warm-up, milliseconds. The
graphs are the GPU suite of ``benchmark_gpu.py``; directed graphs take the same
edge lists as arcs, weighted ones random weights in [0, 1) (seeded).

Besides the calls, it reports what ``auto`` costs: a transitivity under
``auto`` against the same call with the configuration ``auto`` chose named
explicitly (so that no statistics are read), as a percentage of the call; the
two alternate, 41 of each (``AUTO_PAIRS``).

With --small it times instead a whole count of small graphs from edge arrays in
GPU memory, ``nx_tricount.transitivity(nx_tricount.from_edges(src, dst))``, under
``device`` auto, gpu and cpu (the target: 0.25 ms under 100,000 edge rows). A
count of a fraction of a millisecond is host time, and the H100 host measured runs
a whole process at one pace (``SMALL_PROCESSES``): each of --processes fresh
processes takes the median of ``SMALL_REPEATS`` calls and the host's pace (a
pure-Python loop), and the table gives the median over the processes beside the
lowest and the highest. Without a GPU it times the CPU engine from NumPy arrays.

With --floor it times each dict call (``nx.triangles``, ``nx.clustering``), what
it does once its counts are on the host (the values made Python objects and the
dict built), and the CPython floor, ``dict(zip(nodes, values))`` from Python
lists made beforehand, alternating: the second at most ``FLOOR_TARGET`` times
the third.

It prints one table, each figure beside its target (the project's GPU targets,
from WeTriC and nx-cugraph measured on the same H100; none on the CPU), and
writes the rows as JSON with --json.

Usage::

    python examples/benchmark_networkx.py --graphs g22 g23 --json layer.json
    python examples/benchmark_networkx.py --graphs g22 --calls directed_transitivity \
        --algorithms auto merge hash wedge      # the calls under each algorithm
    python examples/benchmark_networkx.py --graphs g22 --calls directed_transitivity \
        --orderings auto none degree            # and under each ordering
    python examples/benchmark_networkx.py --small --json small.json   # five processes
    python examples/benchmark_networkx.py --floor --cpu-scales 16 18   # dicts beside the floor
    python examples/benchmark_networkx.py --smoke    # R-MAT 8 on the CPU engine
"""

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import networkx as nx
import numpy as np
from benchmark_auto import planned_total
from benchmark_cudf import median_ms, synchronise  # wall clock after a synchronisation

import nx_tricount
from nx_tricount.gpu.device import array_module, gpu_available
from nx_tricount.io.generators import barabasi_albert_edges, grid_edges, rmat_edges

#: The calls, each given (src, dst, weights) and the device.
CALLS = {
    "transitivity": lambda e, d: nx.transitivity(_graph(e, d)),
    "triangles_dict": lambda e, d: nx.triangles(_graph(e, d)),
    "clustering_dict": lambda e, d: nx.clustering(_graph(e, d)),
    "average_clustering": lambda e, d: nx.average_clustering(_graph(e, d)),
    "average_clustering_weighted": lambda e, d: nx.average_clustering(
        _graph(e, d, weighted=True), weight="weight"
    ),
    "directed_transitivity": lambda e, d: nx.transitivity(_graph(e, d, directed=True)),
    "directed_average_clustering": lambda e, d: nx.average_clustering(_graph(e, d, directed=True)),
    "directed_average_clustering_weighted": lambda e, d: nx.average_clustering(
        _graph(e, d, directed=True, weighted=True), weight="weight"
    ),
}

#: Targets in milliseconds on the GPU, by graph and call.
TARGETS = {
    "g22": {
        "transitivity": 60,
        "average_clustering": 150,
        "average_clustering_weighted": 250,
        "directed_average_clustering": 250,
        "directed_average_clustering_weighted": 300,
        "directed_transitivity": 250,
        "clustering_dict": 700,
    },
    "g23": {"transitivity": 150, "triangles_dict": 1000},
}

#: The share of a GPU call ``auto``'s statistics and plan may take. On the CPU
#: there is none: ``auto`` reads no statistics there, and the share of calls of
#: a fraction of a millisecond is the spread of their timings.
AUTO_TARGET_PCT = 2.0

#: Alternating pairs of calls that measure ``auto``'s share: a few percent of a
#: call of a few milliseconds is within the spread of a handful of runs.
AUTO_PAIRS = 41


#: A whole count of a graph under 100,000 edge rows from edges in GPU memory, ms.
SMALL_TARGET_MS = 0.25

#: Runs per small graph and device: a count of a fraction of a millisecond varies
#: by tens of microseconds from run to run.
SMALL_REPEATS = 201

#: Processes the small counts are timed in. The H100 host measured runs a whole
#: process at one of two paces, its pure-Python loop (``host_pace_us``) taking
#: about 0.6 or 1.2 ms and a small count 1.5 times as long at the slower
#: (docs/benchmarks.md, "A whole count from edges in GPU memory"): one process
#: measures only the pace it drew.
SMALL_PROCESSES = 5


def _karate(device):
    edges = np.array(list(nx.karate_club_graph().edges()), dtype=np.int64)
    xp = array_module(device)
    return xp.asarray(edges[:, 0]), xp.asarray(edges[:, 1])


#: The small graphs, given the device of their edge arrays (seeded).
SMALL_GRAPHS = {
    "karate club": _karate,
    "R-MAT 6": lambda d: rmat_edges(6, seed=6, device=d),
    "grid 30² + 5%": lambda d: grid_edges(30, 30, 0.05, seed=30, device=d),
    "BA 2000×4": lambda d: barabasi_albert_edges(2000, 4, seed=2, device=d),
    "R-MAT 10": lambda d: rmat_edges(10, seed=10, device=d),
    "grid 100² + 5%": lambda d: grid_edges(100, 100, 0.05, seed=100, device=d),
    "BA 10000×5": lambda d: barabasi_albert_edges(10_000, 5, seed=10, device=d),
    "R-MAT 12": lambda d: rmat_edges(12, seed=12, device=d),
    "BA 20000×5": lambda d: barabasi_albert_edges(20_000, 5, seed=20, device=d),
}


def host_pace_us():
    """The host's pace: microseconds of a pure-Python loop of 20,000 additions, median of 101."""
    times = []
    for _ in range(101):
        start = time.perf_counter()
        total = 0
        for i in range(20_000):
            total += i
        times.append(time.perf_counter() - start)
    return round(1e6 * statistics.median(times), 1)


def _small_met(row):
    """Whether a small row meets its target (None where it has none)."""
    return None if row["target_ms"] is None else row["ms"] <= row["target_ms"]


def small_rows(repeats):
    """This process's whole transitivity counts of the small graphs, per device
    setting: from GPU edge arrays, or on the CPU engine from NumPy arrays without a GPU."""
    on_gpu = gpu_available()
    pace = host_pace_us()
    rows = []
    for name, make in SMALL_GRAPHS.items():
        src, dst = make("gpu" if on_gpu else "cpu")
        for device in ("auto", "gpu", "cpu") if on_gpu else ("cpu",):

            def call():
                return nx_tricount.transitivity(nx_tricount.from_edges(src, dst), device=device)

            ms = median_ms(call, "gpu" if on_gpu else "cpu", repeats)
            target = SMALL_TARGET_MS if on_gpu and src.size < 100_000 else None
            rows.append(
                dict(
                    graph=name,
                    edge_rows=int(src.size),
                    call="small_transitivity",
                    algorithm=f"device={device}",
                    ms=round(ms, 3),
                    target_ms=target,
                    pace_us=pace,
                )
            )
            rows[-1]["met"] = _small_met(rows[-1])
            print(json.dumps(rows[-1]), flush=True)
    return rows


def small_processes(processes, repeats):
    """:func:`small_rows` in ``processes`` fresh processes of this script, each row
    the median over them (``ms``) with the lowest, the highest and each one's pace."""
    runs = []
    for _ in range(processes):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "rows.json")
            command = [
                sys.executable,
                os.path.abspath(__file__),
                "--small",
                "--processes",
                "1",
                "--repeats",
                str(repeats),
                "--json",
                path,
            ]
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
            with open(path) as f:
                runs.append(json.load(f))
    rows = []
    for measured in zip(*runs):
        times = [row["ms"] for row in measured]
        row = {key: value for key, value in measured[0].items() if key != "pace_us"}
        row.update(
            ms=round(statistics.median(times), 3),
            lowest_ms=min(times),
            highest_ms=max(times),
            process_ms=times,
            paces_us=[r["pace_us"] for r in measured],
        )
        row["met"] = _small_met(row)
        print(json.dumps(row), flush=True)
        rows.append(row)
    return rows


def _graph(edges, device, directed=False, weighted=False):
    src, dst, weights = edges
    return nx_tricount.from_edges(src, dst, directed=directed, weight=weights if weighted else None)


def _suite():
    from benchmark_gpu import GRAPHS  # the GPU suite, drawn on the GPU

    return GRAPHS


def alternating_ms(timed, rounds, device):
    """Median wall clock in ms of each of ``timed`` (label -> call) over ``rounds``
    rounds after a warm-up round, the calls alternating in an order that turns
    each round, so that none always follows another (on R-MAT 18 that changed
    ``auto``'s share by a few percent); each result is freed outside the clock."""
    labels = list(timed)
    times = {label: [] for label in labels}
    for round_ in range(rounds + 1):
        turn = round_ % len(labels)
        for label in labels[turn:] + labels[:turn]:
            synchronise(device)
            start = time.perf_counter()
            kept = timed[label]()
            synchronise(device)
            if round_:
                times[label].append(1e3 * (time.perf_counter() - start))
            del kept
    return {label: statistics.median(times[label]) for label in labels}


def auto_cost_pct(edges, device, pairs=AUTO_PAIRS):
    """``auto``'s share of a transitivity: auto against its own choice named, the two
    calls alternating (each pair in turn order), medians of ``pairs`` each after a
    warm-up pair."""
    # The plan of a total, as the prepared graph settles it.
    _, plan = planned_total(edges[0], edges[1], _graph(edges, device).n, device)
    chosen = dict(algorithm=plan.algorithm, orientation=plan.orientation, ordering=plan.ordering)
    settings = {"named": dict(device=device, **chosen), "auto": dict(device=device)}

    def transitivity(label):
        def call():
            with nx.config.backends.tricount(**settings[label]):
                return nx.transitivity(_graph(edges, device))

        return call

    medians = alternating_ms({label: transitivity(label) for label in settings}, pairs, device)
    auto, named = medians["auto"], medians["named"]
    return 100 * (auto - named) / named, auto, named


def bench(name, edges, device, calls, repeats, algorithms=("auto",), orderings=("auto",)):
    rows = []
    pace = host_pace_us()
    for algorithm, ordering in itertools.product(algorithms, orderings):
        with nx.config.backends.tricount(device=device, algorithm=algorithm, ordering=ordering):
            for call in calls:
                ms = median_ms(lambda: CALLS[call](edges, device), device, repeats)
                target = TARGETS.get(name, {}).get(call)
                rows.append(
                    dict(
                        graph=name,
                        call=call,
                        algorithm=algorithm,
                        ordering=ordering,
                        ms=round(ms, 2),
                        target_ms=target,
                        met=None if target is None else ms <= target,
                        pace_us=pace,
                    )
                )
                print(json.dumps(rows[-1]), flush=True)
    pct, auto, named = auto_cost_pct(edges, device)
    target = AUTO_TARGET_PCT if device == "gpu" else None
    rows.append(
        dict(
            graph=name,
            call="auto_cost_pct",
            ms=round(auto, 2),
            named_ms=round(named, 2),
            pct=round(pct, 1),
            target_pct=target,
            met=None if target is None else pct <= target,
            pace_us=pace,
        )
    )
    print(json.dumps(rows[-1]), flush=True)
    return rows


#: What returning a dict costs may take at most this many times the CPython
#: floor, ``dict(zip(nodes, values))`` from Python lists (--floor).
FLOOR_TARGET = 1.15


def _dict_parts(G, device):
    """For ``nx.triangles`` and ``nx.clustering`` of ``G``: ``(call, shaping)``,
    the whole call and what it does once the count is on the host: the values
    made Python objects and the dict built (``nxapi/node_selection.py``)."""
    from nx_tricount.nxapi.node_selection import per_node_values

    counts = nx_tricount.triangles(G, device=device, as_frame=True)["triangles"].to_numpy()
    ratio = nx_tricount.clustering(G, device=device, as_frame=True)["clustering"].to_numpy()
    nonzero = ratio != 0  # a coefficient is 0 exactly where its triangles are
    return {
        "triangles": (nx.triangles, lambda: per_node_values(G, None, counts, counts != 0)),
        "clustering": (nx.clustering, lambda: per_node_values(G, None, ratio, nonzero)),
    }


def floor_rows(name, edges, device, repeats):
    """Each dict call beside the CPython floor, alternating (the order turning
    each round): the whole call on a fresh graph, its shaping of the counts into
    the dict on a graph that made its dict before (its node keys made), and
    ``dict(zip(nodes, values))`` from Python lists of the same nodes and values
    made beforehand; medians of ``repeats`` rounds after a warm-up round."""
    rows = []
    for call, (function, shaping) in _dict_parts(_graph(edges, device), device).items():
        result = function(_graph(edges, device), backend="tricount")
        nodes, values = list(result), list(result.values())
        timed = {
            "call": lambda: function(_graph(edges, device), backend="tricount"),
            "shaping": shaping,
            "floor": lambda: dict(zip(nodes, values)),
        }
        assert timed["shaping"]() == result
        call_ms, shaping_ms, floor_ms = alternating_ms(timed, repeats, device).values()
        ratio = round(shaping_ms / floor_ms, 3)
        rows.append(
            dict(
                graph=name,
                call=f"{call}_dict",
                algorithm="auto",
                nodes=len(nodes),
                ms=round(call_ms, 3),
                shaping_ms=round(shaping_ms, 3),
                floor_ms=round(floor_ms, 3),
                ratio=ratio,
                target_ms=None,
                met=ratio <= FLOOR_TARGET,
            )
        )
        print(json.dumps(rows[-1]), flush=True)
    return rows


def table(rows):
    print(f"\n{'graph':14s} {'call':38s} {'algorithm':9s} {'ms':>10s} {'target':>8s}  met")
    for r in rows:
        if "floor_ms" in r:
            met = "yes" if r["met"] else "NO"
            print(
                f"{r['graph']:14s} {r['call']:38s} {'':9s} {r['ms']:10.3f}  the dict {r['shaping_ms']:.3f}, "
                f"floor {r['floor_ms']:.3f}: {r['ratio']:.2f}x (<= {FLOOR_TARGET})  {met}"
            )
        elif r["call"] == "auto_cost_pct":
            if r["target_pct"] is None:
                target, met = "n/a", "(no target on the CPU)"
            else:
                target, met = f"{r['target_pct']:.1f}%", "yes" if r["met"] else "NO"
            print(
                f"{r['graph']:14s} {'auto (% of a transitivity)':38s} {'':9s} {r['pct']:9.1f}% "
                f"{target:>8s}  {met}"
            )
        else:
            target = "" if r["target_ms"] is None else f"{r['target_ms']:8g}"
            met = "" if r["met"] is None else "yes" if r["met"] else "NO"
            spread = f"  ({r['lowest_ms']:.3f}-{r['highest_ms']:.3f})" if "lowest_ms" in r else ""
            setting = (
                r["algorithm"] if r.get("ordering", "auto") == "auto" else f"{r['algorithm']}/{r['ordering']}"
            )
            print(
                f"{r['graph']:14s} {r['call']:38s} {setting:9s} {r['ms']:10.3f} {target:>8s}  {met}{spread}"
            )
    paces = sorted({pace for r in rows for pace in r.get("paces_us", [r.get("pace_us")]) if pace})
    if paces:
        print(f"host pace (us of a pure-Python loop, per process): {paces}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--graphs", nargs="+", default=["g18", "g20", "g22", "g23", "grid", "ba"])
    parser.add_argument("--calls", nargs="+", default=list(CALLS), choices=list(CALLS))
    parser.add_argument("--repeats", type=int, help=f"runs per call (default 5; --small {SMALL_REPEATS})")
    parser.add_argument(
        "--processes",
        type=int,
        default=SMALL_PROCESSES,
        help="--small: fresh processes to time in, each the median of --repeats",
    )
    parser.add_argument(
        "--algorithms",
        nargs="+",
        default=["auto"],
        help="run the calls under each of these algorithm settings",
    )
    parser.add_argument(
        "--orderings",
        nargs="+",
        default=["auto"],
        help="and under each of these ordering settings",
    )
    parser.add_argument("--json", help="write the rows here")
    parser.add_argument("--smoke", action="store_true", help="R-MAT 8 on the CPU engine")
    parser.add_argument(
        "--floor",
        action="store_true",
        help="the dict calls beside dict(zip(nodes, values)) instead (--cpu-scales: R-MAT on the CPU engine)",
    )
    parser.add_argument("--cpu-scales", type=int, nargs="+", help="--floor: R-MAT scales on the CPU engine")
    parser.add_argument(
        "--small", action="store_true", help="whole counts of small graphs from GPU edge arrays instead"
    )
    args = parser.parse_args()
    rows = []
    if args.small:
        repeats = args.repeats or SMALL_REPEATS
        rows += small_rows(repeats) if args.processes == 1 else small_processes(args.processes, repeats)
    elif args.floor and (args.cpu_scales or args.smoke):
        for scale in args.cpu_scales or [8]:
            src, dst = rmat_edges(scale, seed=scale)
            rows += floor_rows(f"rmat{scale}", (src, dst, None), "cpu", args.repeats or 7)
    elif args.floor:
        for name in args.graphs:
            src, dst, _ = _suite()[name]()
            rows += floor_rows(name, (src, dst, None), "gpu", args.repeats or 7)
            del src, dst
    elif args.smoke or not gpu_available():
        src, dst = rmat_edges(8, seed=8)
        weights = np.random.default_rng(1).random(src.size)
        rows += bench("rmat8", (src, dst, weights), "cpu", args.calls, 1, args.algorithms, args.orderings)
    else:
        import cupy

        for name in args.graphs:
            src, dst, _ = _suite()[name]()
            weights = cupy.random.default_rng(1).random(src.size)
            repeats = args.repeats or 5
            rows += bench(
                name, (src, dst, weights), "gpu", args.calls, repeats, args.algorithms, args.orderings
            )
            del src, dst, weights
    table(rows)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
