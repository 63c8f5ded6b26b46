"""A dataframe pipeline: edges in a cuDF (or pandas) frame, counted without
ever building a NetworkX graph.

On a machine with a GPU and cuDF, the frame's columns become CuPy arrays
without a copy and stay on the GPU; elsewhere the same code runs on pandas and
the CPU engine.

    python examples/cudf_pipeline.py
"""

import numpy as np

import nx_tricount
from nx_tricount.generators import rmat_edges

try:
    import cudf as frames

    where = "cuDF (GPU)"
except ImportError:
    import pandas as frames

    where = "pandas (CPU)"

src, dst = rmat_edges(14, seed=7)
edges = frames.DataFrame({"user": np.asarray(src), "friend": np.asarray(dst)})
print(f"{len(edges)} edge rows in a {where} frame")

graph = nx_tricount.from_frame(edges, source="user", target="friend")
print("plan:", nx_tricount.make_plan())
triangles = nx_tricount.triangles(graph)
print("triangles:", sum(triangles.values()) // 3)
print("transitivity:", nx_tricount.transitivity(graph))

# Per-node results as a frame again, keyed by the frame's own node labels.
result = frames.DataFrame({"node": list(triangles), "triangles": list(triangles.values())})
print(result.sort_values("triangles", ascending=False).head())
