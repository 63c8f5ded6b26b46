"""Shared fixtures: the real graphs and generated graphs.

The real graphs are the small set of ``tests/data`` (always there, so a fresh
clone tests real graphs alone), extended with the data directory beside the
repository: ``$NX_TRICOUNT_DATA`` when set (the GPU machine gets a copy), else
``../shared/data``. An absent extension is no error: the small set still runs.
A graph in both is read from ``tests/data``.
"""

import csv
import functools
import gzip
import os
from collections import Counter
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

from nx_tricount.gpu.device import _gpu_problem

ROOT = Path(__file__).resolve().parents[1]
SMALL_DATA_DIR = ROOT / "tests" / "data"
EXTENSION_DIR = Path(os.environ.get("NX_TRICOUNT_DATA", ROOT.parent / "shared" / "data"))
#: The data directories read, the small set first.
DATA_DIRS = [SMALL_DATA_DIR] + [EXTENSION_DIR] * (EXTENSION_DIR / "MANIFEST.tsv").is_file()


def _read_manifest(directory):
    """Rows of a directory's MANIFEST.tsv keyed by file name, each with its ``path``."""
    with open(directory / "MANIFEST.tsv", newline="") as f:
        rows = {row["file"]: row for row in csv.DictReader(f, delimiter="\t")}
    for name, row in rows.items():
        row["path"] = directory / name
    return rows


def _real_graphs():
    """Which real graphs the run found, in one line."""
    small = len(_read_manifest(SMALL_DATA_DIR))
    if len(DATA_DIRS) == 1:
        return f"real graphs: the {small} of tests/data; no extension ({EXTENSION_DIR} has no MANIFEST.tsv)"
    return f"real graphs: the {small} of tests/data and {len(DATASETS) - small} more of {EXTENSION_DIR}"


#: Why the GPU tests skip here, None where CuPy sees a GPU.
NO_GPU = _gpu_problem()
GPU_SKIP = f"needs a CUDA GPU: {NO_GPU}"


def pytest_report_header(config):
    return _real_graphs()


def pytest_collection_modifyitems(config, items):
    """Skip the GPU tests (marker ``gpu``), and only them, where CuPy sees no GPU (CI)."""
    if NO_GPU is None:
        return
    skip = pytest.mark.skip(reason=GPU_SKIP)
    for item in items:
        if item.get_closest_marker("gpu"):  # the marker, not a parameter named gpu
            item.add_marker(skip)


def _skip_reason(report):
    """The reason a skipped test gave."""
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    return reason.removeprefix("Skipped: ")


def _tests(count):
    return f"{count} test{'' if count == 1 else 's'}"


def pytest_terminal_summary(terminalreporter):
    """Also under ``-q``, which hides the header: the real graphs found, and why
    tests skipped, the GPU tests (those marked ``gpu`` that skipped for want of a
    GPU) counted apart from every other reason."""
    reasons = Counter()
    gpu = 0
    for report in terminalreporter.stats.get("skipped", []):
        reason = _skip_reason(report)
        # A module skipped whole (pytest.importorskip) reports its collection, without keywords.
        if "gpu" in getattr(report, "keywords", ()) and reason == GPU_SKIP:
            gpu += 1
        else:
            reasons[reason] += 1
    terminalreporter.section("nx-tricount", sep="-")
    terminalreporter.write_line(_real_graphs())
    if gpu:
        terminalreporter.write_line(f"{_tests(gpu)} marked gpu skipped, no CUDA GPU here: {NO_GPU}")
    for reason, count in reasons.most_common():
        terminalreporter.write_line(f"{_tests(count)} skipped: {reason}")


@functools.cache
def small_manifest():
    """Rows of tests/data/MANIFEST.tsv keyed by file name: the small set."""
    return _read_manifest(SMALL_DATA_DIR)


@functools.cache
def manifest():
    """Rows of every MANIFEST.tsv read, keyed by file name (``row["path"]``: the file)."""
    rows = {}
    for directory in reversed(DATA_DIRS):  # the small set's rows last, so they win
        rows.update(_read_manifest(directory))
    return rows


@functools.cache
def load_edges(name):
    """``(src, dst)`` int64 arrays of a data file ('u v' lines, '#' comments)."""
    with gzip.open(manifest()[name]["path"], "rt") as f:
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


#: Every real graph: the small set of tests/data and its extension where present.
DATASETS = sorted(manifest())
#: The graphs of tests/data alone.
SMALL_DATASETS = sorted(small_manifest())
