"""Benchmark cuDF pipelines: an edge frame on the GPU to a transitivity and to a
per-node frame, and the first call of a fresh process.

For each R-MAT scale (Graph500 parameters, edge factor 16, seeded, drawn on the
GPU), the edges are put in a cuDF frame, of int64 ids and of their strings, and
timed, in milliseconds (wall clock after a synchronisation, median of --repeats
runs after a warm-up), each run converting the frame anew:

- ``from_frame``: ``nx_tricount.from_frame(df)``;
- ``transitivity``: ``nx.transitivity`` of that graph, conversion included;
- ``per_node_frame``: ``nx_tricount.triangles(G, as_frame=True)``, a cuDF frame of
  the labels and counts, conversion included;
- ``per_node_dict``: ``nx.triangles(G)``, NetworkX's dict, for comparison.

``--first-call`` instead times a fresh interpreter on R-MAT 18: its imports, the
first ``nx.transitivity`` and the first per-node frame of the process, and the
same calls warm. It runs twice: with an empty CuPy kernel cache (every kernel
compiled) and with the cache the first run left (kernels read from disk), which
is what every later process of a machine pays.

Usage::

    python examples/benchmark_cudf.py --scales 22 23 --json cudf.json
    python examples/benchmark_cudf.py --first-call --json first_call.json
    python examples/benchmark_cudf.py --smoke    # pandas on the CPU, R-MAT 8
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time

import networkx as nx
import numpy as np

import nx_tricount
from nx_tricount.io.generators import rmat_edges

FIRST_CALL = """
import json, time
start = time.perf_counter()
import cudf, cupy, networkx as nx, nx_tricount
from nx_tricount.io.generators import rmat_edges
imported = time.perf_counter()
src, dst = rmat_edges({scale}, seed=1, device="gpu")
df = cudf.DataFrame({{"source": src, "target": dst}})
cupy.cuda.Device().synchronize()
def timed(call):
    begin = time.perf_counter()
    call()
    cupy.cuda.Device().synchronize()
    return time.perf_counter() - begin
transitivity = lambda: nx.transitivity(nx_tricount.from_frame(df))
per_node = lambda: nx_tricount.triangles(nx_tricount.from_frame(df), as_frame=True)
row = dict(imports_s=imported - start, first_transitivity_s=timed(transitivity),
           first_per_node_frame_s=timed(per_node))
row["warm_transitivity_s"] = min(timed(transitivity) for _ in range(3))
row["warm_per_node_frame_s"] = min(timed(per_node) for _ in range(3))
print(json.dumps(row))
"""


def frames_module(device):
    if device == "gpu":
        import cudf

        return cudf
    import pandas

    return pandas


def synchronise(device):
    if device == "gpu":
        import cupy

        cupy.cuda.Device().synchronize()


def median_ms(call, device, repeats):
    """Median wall clock of ``call`` in ms, after a warm-up: from a synchronisation
    to the next, the result held until the clock has stopped (freeing a dict of
    millions of entries is the caller's time, not the call's)."""
    call()
    times = []
    for _ in range(repeats):
        synchronise(device)
        start = time.perf_counter()
        result = call()
        synchronise(device)
        times.append(1e3 * (time.perf_counter() - start))
        del result
    return statistics.median(times)


def bench(scale, labels, device, repeats):
    src, dst = rmat_edges(scale, seed=1, device=device)
    if labels == "str":
        module = frames_module(device)
        df = module.DataFrame({"source": src, "target": dst}).astype(str)
    else:
        df = frames_module(device).DataFrame({"source": src, "target": dst})
    calls = {
        "from_frame": lambda: nx_tricount.from_frame(df),
        "transitivity": lambda: nx.transitivity(nx_tricount.from_frame(df)),
        "per_node_frame": lambda: nx_tricount.triangles(nx_tricount.from_frame(df), as_frame=True),
        "per_node_dict": lambda: nx.triangles(nx_tricount.from_frame(df)),
    }
    row = dict(scale=scale, labels=labels, rows=int(src.size), device=device)
    for name, call in calls.items():
        row[f"{name}_ms"] = round(median_ms(call, device, repeats), 2)
    frame = calls["per_node_frame"]()
    row["triangles"] = int(frame["triangles"].sum()) // 3
    row["transitivity"] = calls["transitivity"]()
    print(json.dumps(row), flush=True)
    return row


def first_call(scale):
    """The fresh-interpreter timings, with an empty kernel cache then a warm one."""
    rows = []
    with tempfile.TemporaryDirectory() as cache:
        for state in ("empty kernel cache", "kernel cache on disk"):
            env = dict(os.environ, CUPY_CACHE_DIR=cache)
            code = textwrap.dedent(FIRST_CALL.format(scale=scale))
            out = subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            ).stdout
            row = dict(scale=scale, cache=state, **json.loads(out.strip().splitlines()[-1]))
            row = {k: round(v, 3) if isinstance(v, float) else v for k, v in row.items()}
            print(json.dumps(row), flush=True)
            rows.append(row)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scales", type=int, nargs="+", default=[22, 23])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--first-call", action="store_true", help="fresh-process timings only")
    parser.add_argument("--json", help="write the rows here")
    parser.add_argument("--smoke", action="store_true", help="pandas on the CPU, R-MAT 8")
    args = parser.parse_args()
    if args.smoke:
        rows = [bench(8, labels, "cpu", 1) for labels in ("int64", "str")]
        assert rows[0]["triangles"] == rows[1]["triangles"] > 0
    elif args.first_call:
        rows = first_call(18)
    else:
        rows = [
            bench(scale, labels, "gpu", args.repeats) for scale in args.scales for labels in ("int64", "str")
        ]
        assert len({(r["scale"], r["triangles"]) for r in rows}) == len(args.scales)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
