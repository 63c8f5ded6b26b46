"""A dataframe pipeline: edges in a cuDF (or pandas) frame, counted without
ever building a NetworkX graph, and the results as frames again.

On a machine with a GPU and cuDF, the frame's columns become CuPy arrays
without a copy and the results come back as cuDF frames; elsewhere the same
code runs on pandas and the CPU engine.

    python examples/cudf_pipeline.py
    python examples/cudf_pipeline.py --smoke    # R-MAT scale 8: a run of seconds
"""

import argparse

import numpy as np

import nx_tricount
from nx_tricount.io.generators import rmat_edges

try:
    import cudf as frames

    where = "cuDF (GPU)"
except ImportError:
    import pandas as frames

    where = "pandas (CPU)"

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--smoke", action="store_true", help="R-MAT scale 8 instead of 14")
scale = 8 if parser.parse_args().smoke else 14

src, dst = rmat_edges(scale, seed=7)
edges = frames.DataFrame({"user": np.asarray(src), "friend": np.asarray(dst)})
print(f"{len(edges)} edge rows in a {where} frame")

graph = nx_tricount.from_frame(edges, source="user", target="friend")
print("plan:", nx_tricount.make_plan(graph))
print("transitivity:", nx_tricount.transitivity(graph))

# Per-node results as a frame keyed by the frame's own node labels: no dict.
triangles = nx_tricount.triangles(graph, as_frame=True)
print("triangles:", int(triangles["triangles"].sum()) // 3)
clustering = nx_tricount.clustering(graph, as_frame=True)
table = triangles.merge(clustering, on="node")
print(table.sort_values("triangles", ascending=False).head())

# The triangles on each edge (its support), one row per edge.
support = nx_tricount.edge_triangles(graph, as_frame=True)
print(support.sort_values("triangles", ascending=False).head())
