"""Every real graph (tests/data, and ../shared/data where present): counts equal
MANIFEST.tsv and NetworkX's per-node triangles, for every CPU algorithm x
orientation x ordering."""

import itertools
import os
import re
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

import nx_tricount
from conftest import (
    DATA_DIRS,
    DATASETS,
    EXTENSION_DIR,
    SMALL_DATA_DIR,
    SMALL_DATASETS,
    load_edges,
    load_graph,
    manifest,
    networkx_triangles,
    small_manifest,
)
from nx_tricount.algorithms import count
from nx_tricount.metadata.config import CHOICES
from nx_tricount.preprocess import prepare_undirected

ALGORITHMS = [a for a in CHOICES["algorithm"] if a != "auto"]
PREPROCESSING = list(itertools.product(CHOICES["orientation"][1:], CHOICES["ordering"][1:]))
SMALL_SET_BYTES = 3 << 20


def test_small_data_set_is_present():
    """The small set of real graphs is part of the repository: every test run has it."""
    assert len(SMALL_DATASETS) >= 5, f"too few graphs in {SMALL_DATA_DIR / 'MANIFEST.tsv'}"
    files = [SMALL_DATA_DIR / name for name in SMALL_DATASETS]
    assert all(path.is_file() for path in files), [p.name for p in files if not p.is_file()]
    assert set(SMALL_DATASETS) <= set(DATASETS)
    size = sum(path.stat().st_size for path in SMALL_DATA_DIR.iterdir())
    assert size <= SMALL_SET_BYTES, f"tests/data holds {size:,} bytes (limit {SMALL_SET_BYTES:,})"


def test_graphs_named_by_tests_are_in_the_small_set():
    """A test that loads a real graph by name loads one of tests/data: a fresh clone
    has no other, and a graph of ../shared/data alone fails with a KeyError on a
    machine without that folder."""
    named = set()
    for path in Path(__file__).parent.glob("*.py"):
        named.update(re.findall(r"load_(?:graph|edges)\(\s*[\"']([^\"']+)[\"']", path.read_text()))
    assert named, "no test loads a real graph by name: the pattern needs updating"
    assert named <= set(SMALL_DATASETS), sorted(named - set(SMALL_DATASETS))


def test_data_folder_named_in_the_environment_is_present():
    """``$NX_TRICOUNT_DATA`` asks for the extension: there it must be (without the
    variable, an absent ../shared/data only leaves the small set)."""
    if "NX_TRICOUNT_DATA" in os.environ:
        assert EXTENSION_DIR in DATA_DIRS, f"NX_TRICOUNT_DATA={EXTENSION_DIR} has no MANIFEST.tsv"


def test_small_set_is_a_copy_of_the_extension():
    """A graph in both folders has the same bytes and the same MANIFEST row."""
    if EXTENSION_DIR not in DATA_DIRS:
        pytest.skip(f"no extension of the small set: {EXTENSION_DIR} has no MANIFEST.tsv")
    from conftest import _read_manifest

    extension = _read_manifest(EXTENSION_DIR)
    for name, row in small_manifest().items():
        if name in extension:
            other = extension[name]
            assert {**row, "path": None} == {**other, "path": None}, name
            assert row["path"].read_bytes() == other["path"].read_bytes(), name


def _ids_and_n(name):
    """Edge arrays renumbered 0..n-1 in NetworkX's node order, and n."""
    G = load_graph(name)
    index = {v: i for i, v in enumerate(G)}
    src, dst = load_edges(name)
    remap = np.vectorize(index.__getitem__, otypes=[np.int64])
    return remap(src), remap(dst), len(index)


@pytest.mark.parametrize("name", DATASETS)
def test_counts_match_manifest(name):
    row = manifest()[name]
    src, dst = load_edges(name)
    tg = nx_tricount.from_edges(src, dst)
    triangles = nx_tricount.triangles(tg)
    nonisolated = [v for v, d in enumerate(np.bincount(np.concatenate([src, dst]))) if d]
    assert len(nonisolated) == int(row["nodes"])
    assert sum(triangles.values()) == 3 * int(row["triangles"])
    assert round(nx_tricount.transitivity(tg), 10) == pytest.approx(float(row["transitivity"]), abs=1e-10)
    average = nx_tricount.average_clustering(tg, nonisolated)
    assert round(average, 10) == pytest.approx(float(row["average_clustering"]), abs=1e-10)


@pytest.mark.parametrize("name", DATASETS)
def test_every_algorithm_matches_networkx_per_node(name):
    expected = list(networkx_triangles(name).values())
    src, dst, n = _ids_and_n(name)
    for orientation, ordering in PREPROCESSING:
        p = prepare_undirected(src, dst, n, orientation=orientation, ordering=ordering)
        for algorithm in ALGORITHMS:
            got = count(p, algorithm, "per_node").per_node.tolist()
            assert got == expected, (algorithm, orientation, ordering)
            assert count(p, algorithm, "total").total == sum(expected) // 3


@pytest.mark.parametrize(
    "name", ["jazz.txt.gz", "power_grid.txt.gz", "gemsec_fb_food.txt.gz", "ca-GrQc.txt.gz"]
)
def test_networkx_functions_exactly(name):
    G = load_graph(name)
    with nx.config(cache_converted_graphs=False):
        assert nx.clustering(G, backend="tricount") == nx.clustering(G)
        assert nx.average_clustering(G, backend="tricount") == nx.average_clustering(G)
        assert nx.transitivity(G, backend="tricount") == nx.transitivity(G)
