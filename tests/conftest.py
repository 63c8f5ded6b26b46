"""Shared fixtures: the real graphs of ``../shared/data`` and generated graphs.

The data directory is ``$NX_TRICOUNT_DATA`` when set (the GPU machine gets a
copy), else ``../shared/data`` next to the repository.
"""

import csv
import functools
import gzip
import os
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

from nx_tricount.device import gpu_available

ROOT = Path(__file__).resolve().parents[1]
DATA_DIR = Path(os.environ.get("NX_TRICOUNT_DATA", ROOT.parent / "shared" / "data"))


def pytest_collection_modifyitems(config, items):
    """Skip GPU tests on machines without a GPU (CI); they run on the device machine."""
    if gpu_available():
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU with CuPy")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@functools.cache
def manifest():
    """Rows of MANIFEST.tsv keyed by file name."""
    with open(DATA_DIR / "MANIFEST.tsv", newline="") as f:
        return {row["file"]: row for row in csv.DictReader(f, delimiter="\t")}


@functools.cache
def load_edges(name):
    """``(src, dst)`` int64 arrays of a data file ('u v' lines, '#' comments)."""
    with gzip.open(DATA_DIR / name, "rt") as f:
        edges = np.loadtxt(f, comments="#", dtype=np.int64, ndmin=2)
    return np.ascontiguousarray(edges[:, 0]), np.ascontiguousarray(edges[:, 1])


@functools.cache
def load_graph(name):
    """The data file as an undirected ``nx.Graph`` (treat as read-only)."""
    src, dst = load_edges(name)
    G = nx.Graph()
    G.add_edges_from(zip(src.tolist(), dst.tolist()))
    return G


@functools.cache
def networkx_triangles(name):
    """NetworkX's per-node triangle counts of a data file, computed once."""
    return nx.triangles(load_graph(name))


DATASETS = sorted(manifest()) if (DATA_DIR / "MANIFEST.tsv").exists() else []
