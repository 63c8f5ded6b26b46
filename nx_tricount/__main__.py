"""python -m nx_tricount: count triangles with the tricount backend and with NetworkX.

With no graph given it runs on two graphs: Les Misérables (embedded in NetworkX,
77 nodes) and a seeded R-MAT graph of scale 13 (6,458 nodes, 102,143 edges),
where the speed-up shows. For each graph it prints the plan, the results, and the
time of each function in tricount and in NetworkX, with the speed-up and whether
the two results are equal. A first call of each function on each graph compiles
the kernels (numba on the CPU, CUDA on the GPU): it is timed apart, as warm-up.

NetworkX's reference run of a function is skipped, with a notice, when its time
estimated from the graph's wedges exceeds --networkx-budget seconds; runs that
take longer than a second show a progress bar.
"""

import threading
import time
from contextlib import contextmanager

import networkx as nx
import numpy as np
from tqdm import tqdm

import nx_tricount
from nx_tricount.command_line import configured, job_parser, read_edges
from nx_tricount.gpu.device import GPUNotAvailableError

#: The R-MAT scale of the default run: NetworkX takes seconds per clustering
#: function there on a small machine, tricount milliseconds.
DEFAULT_RMAT_SCALE = 13
FUNCTIONS = ("triangles", "clustering", "transitivity", "average_clustering")
#: NetworkX 3.6's seconds per wedge (a path u-v-w; sum of d(d-1)/2 over the
#: nodes) and per node or edge, measured on R-MAT scales 10 to 14 (2-core x86
#: machine). Its clustering, transitivity and average_clustering build a set of
#: every neighbour's neighbours; its triangles intersects forward neighbour sets.
SECONDS_PER_WEDGE = {
    "triangles": 1.3e-8,
    "clustering": 1.4e-7,
    "transitivity": 1.4e-7,
    "average_clustering": 1.4e-7,
}
SECONDS_PER_ELEMENT = 1e-6
BUILD_CHUNK = 1 << 18
#: Each function is timed as the fastest of up to REPEATS calls, repeated while
#: they add up to less than REPEAT_SECONDS (one call when it is slow), in
#: tricount and in NetworkX alike: a loaded machine's noise stays out.
REPEATS, REPEAT_SECONDS = 5, 0.25


PARSER = job_parser(__doc__.split("\n", 2)[2])


def _build(src, dst):
    """An undirected nx.Graph of the edge arrays (with a bar when it takes long)."""
    G = nx.Graph()
    starts = range(0, src.size, BUILD_CHUNK)
    for start in tqdm(starts, desc="building the nx.Graph", unit="chunk", delay=1, leave=False):
        stop = start + BUILD_CHUNK
        G.add_edges_from(zip(src[start:stop].tolist(), dst[start:stop].tolist()))
    return G


def _graphs(args):
    """``(name, nx.Graph)`` of each graph to run on, built when it is reached."""
    if args.edges:
        yield args.edges, _build(*read_edges(PARSER, args.edges))
        return
    if args.rmat is None:
        yield "Les Misérables (embedded in NetworkX)", nx.les_miserables_graph()
    scale = DEFAULT_RMAT_SCALE if args.rmat is None else args.rmat
    yield f"R-MAT scale {scale} (seed 0)", _build(*nx_tricount.generators.rmat_edges(scale, seed=0))


def _timed(func, *args, **kwargs):
    start = time.perf_counter()
    result = func(*args, **kwargs)
    return result, time.perf_counter() - start


def _fastest(func, make_graph, **kwargs):
    """``(result, seconds)``: the fastest of the calls ``func(make_graph(), **kwargs)``
    (``make_graph`` is not timed)."""
    best, spent = float("inf"), 0.0
    for _ in range(REPEATS):
        result, seconds = _timed(func, make_graph(), **kwargs)
        best, spent = min(best, seconds), spent + seconds
        if spent >= REPEAT_SECONDS:
            break
    return result, best


def wedges(G):
    """The number of paths u-v-w (sum of d(d-1)/2, self-loops left out)."""
    degree = np.fromiter((len(nbrs) - (v in nbrs) for v, nbrs in G.adj.items()), np.int64, len(G))
    return int((degree * (degree - 1) // 2).sum())


def estimate_networkx_seconds(name, G, wedge_count):
    """NetworkX's time for function ``name`` on G, estimated from its size."""
    elements = G.number_of_nodes() + G.number_of_edges()
    return SECONDS_PER_WEDGE[name] * wedge_count + SECONDS_PER_ELEMENT * elements


@contextmanager
def _progress(label, estimate):
    """A bar over the estimated seconds of one long call, shown after one second."""
    bar_format = "{desc}: {percentage:3.0f}%|{bar}| {elapsed} of about " + f"{estimate:.0f} s"
    bar = tqdm(total=estimate, desc=label, bar_format=bar_format, delay=1, leave=False)
    done = threading.Event()

    def tick():
        start = time.perf_counter()
        while not done.wait(0.2):
            bar.update(min(time.perf_counter() - start, 0.99 * estimate) - bar.n)

    ticker = threading.Thread(target=tick, daemon=True)
    ticker.start()
    try:
        yield
    finally:
        done.set()
        ticker.join()
        bar.close()


def _warm_up(G, plan):
    """Call every function once on G with the plan's settings, so that the kernels
    are compiled (or loaded from numba's cache) before any timing: some are made
    for the sizes and types of the graph at hand."""
    settings = dict(
        algorithm=plan.algorithm, orientation=plan.orientation, ordering=plan.ordering, device=plan.device
    )
    print("warm-up: a first call of each function (kernels compiled or loaded) ...", flush=True)
    tg = nx_tricount.from_networkx(G)
    _, seconds = _timed(lambda: [getattr(nx, name)(tg, **settings) for name in FUNCTIONS])
    print(
        f"warm-up: {seconds:.2f} s ({plan.algorithm} on the {plan.device}; not in the times below)",
        flush=True,
    )


def _ms(seconds):
    return f"{1000 * seconds:,.2f}"


def run_graph(name, G, budget, verbose_plan=True):
    """Count on G with tricount and NetworkX; print and return the table's rows
    ``(function, tricount s, networkx s or None, estimated s, same or None)``."""
    wedge_count = wedges(G)
    print(
        f"\n== {name}: {G.number_of_nodes():,} nodes, {G.number_of_edges():,} edges, {wedge_count:,} wedges",
        flush=True,
    )
    tg, convert_s = _timed(nx_tricount.from_networkx, G)
    try:
        plan = nx_tricount.make_plan(tg)
    except (ValueError, ImportError) as error:  # settings this graph cannot be counted with
        PARSER.error(str(error))
    print(f"plan: {plan}" if verbose_plan else f"plan: {str(plan).splitlines()[0]}", flush=True)
    _warm_up(G, plan)

    rows, skipped = [], []
    for function in FUNCTIONS:
        convert = lambda: nx_tricount.from_networkx(G)  # noqa: E731  (no cached preparation)
        ours, ours_s = _fastest(getattr(nx, function), convert)
        if function == "triangles":
            print(f"triangles: {sum(ours.values()) // 3:,}")
        elif function != "clustering":
            print(f"{function}: {ours}")
        estimate = estimate_networkx_seconds(function, G, wedge_count)
        if estimate > budget:
            skipped.append(function)
            rows.append((function, ours_s, None, estimate, None))
            continue
        with _progress(f"NetworkX {function}", estimate):
            theirs, theirs_s = _fastest(getattr(nx, function), lambda: G)
        rows.append((function, ours_s, theirs_s, estimate, ours == theirs))
    _print_table(rows, convert_s)
    if skipped:
        longest = max(row[3] for row in rows if row[2] is None)
        print(
            f"NetworkX not run for {', '.join(skipped)}: estimated from the wedges at up to "
            f"{longest:,.0f} s each, over the budget of {budget:g} s "
            f"(--networkx-budget {longest * 1.5:.0f} runs them)"
        )
    return rows


def _print_table(rows, convert_s):
    print(f"\n{'function':<20}{'tricount ms':>13}{'networkx ms':>17}{'speed-up':>11}  same result")
    for function, ours_s, theirs_s, estimate, same in rows:
        if theirs_s is None:
            theirs, verdict = f"~{1000 * estimate:,.0f} est.", "not run"
            speedup = f"~{estimate / ours_s:,.0f}x"
        else:
            theirs, speedup = _ms(theirs_s), f"{theirs_s / ours_s:,.1f}x"
            verdict = "yes" if same else "NO"
        print(f"{function:<20}{_ms(ours_s):>13}{theirs:>17}{speedup:>11}  {verdict}")
    print(
        f"tricount: each call on a new conversion of the nx.Graph (not timed: {_ms(convert_s)} ms,\n"
        "  once per graph, as NetworkX caches it), its preparation timed; each time the fastest\n"
        f"  of up to {REPEATS} calls within {REPEAT_SECONDS} s, NetworkX's too",
        flush=True,
    )


def main(argv=None):
    """Run the main job; returns ``{graph name: rows of run_graph}``."""
    args = PARSER.parse_args(argv)
    results = {}
    with configured(PARSER, args):
        try:
            nx_tricount.make_plan()  # before any graph is built
        except GPUNotAvailableError as error:
            PARSER.exit(1, f"{PARSER.prog}: {error}\n")
        except (ValueError, ImportError) as error:
            PARSER.error(str(error))
        for name, G in _graphs(args):
            results[name] = run_graph(name, G, args.networkx_budget, not results)
    if any(row[4] is False for rows in results.values() for row in rows):
        raise SystemExit("tricount and NetworkX disagree")
    return results


if __name__ == "__main__":
    main()
