"""The CuPy preprocessing against the NumPy one (run on the device machine).

For every orientation x ordering, preparing CuPy arrays must give exactly the
CSR that preparing the same NumPy arrays gives, with every edge-sized array
still on the GPU.
"""

import itertools

import numpy as np
import pytest

from nx_tricount.config import CHOICES
from nx_tricount.generators import barabasi_albert_edges, grid_edges, rmat_edges
from nx_tricount.preprocess import (
    orientation_cost,
    prepare_undirected,
    simple_graph,
    simplify_undirected,
    undirected_degree,
)
from nx_tricount.preprocess.a_direction import peel

pytestmark = pytest.mark.gpu

PREPROCESSING = list(itertools.product(CHOICES["orientation"][1:], CHOICES["ordering"][1:]))


def _cupy():
    import cupy

    return cupy


def _graphs():
    rng = np.random.default_rng(0)
    star = np.zeros(500, dtype=np.int64), np.arange(1, 501, dtype=np.int64)
    chords = rng.integers(1, 501, size=(800, 2))
    return {
        "rmat": (*rmat_edges(12, 8, seed=1), 1 << 12),
        "grid": (*grid_edges(30, 20, 0.3, seed=2), 600),
        "barabasi_albert": (*barabasi_albert_edges(2000, 4, seed=3), 2000),
        "star_plus_chords": (
            np.concatenate([star[0], chords[:, 0]]),
            np.concatenate([star[1], chords[:, 1]]),
            501,
        ),
        "no_edges": (np.zeros(0, np.int64), np.zeros(0, np.int64), 5),
    }


GRAPHS = _graphs()


def _assert_same(gpu_array, cpu_array):
    """Same values and dtype, and the GPU one lives on the GPU."""
    assert type(gpu_array).__module__.startswith("cupy")
    assert gpu_array.dtype == cpu_array.dtype
    np.testing.assert_array_equal(_cupy().asnumpy(gpu_array), cpu_array)


@pytest.mark.parametrize("weighted", [True, False])
@pytest.mark.parametrize("orientation,ordering", PREPROCESSING)
@pytest.mark.parametrize("name", list(GRAPHS))
def test_cupy_preprocessing_equals_numpy(name, orientation, ordering, weighted):
    # Unweighted, orderings none and degree orient the deduplication's sorted
    # keys without compacting them first (duplicates and self-loops become keys
    # that sort last and are cut off the CSR).
    cp = _cupy()
    src, dst, n = GRAPHS[name]
    values = np.random.default_rng(4).random(src.size) if weighted else None
    cpu = prepare_undirected(src, dst, n, orientation=orientation, ordering=ordering, values=values)
    gpu = prepare_undirected(
        cp.asarray(src), cp.asarray(dst), n, orientation=orientation, ordering=ordering,
        values=None if values is None else cp.asarray(values),
    )
    for attribute in ("indptr", "indices", "rows", "degree"):
        _assert_same(getattr(gpu, attribute), getattr(cpu, attribute))
    if weighted:
        _assert_same(gpu.values, cpu.values)
    else:
        assert gpu.values is None and cpu.values is None
    if cpu.perm is None:
        assert gpu.perm is None
    else:
        _assert_same(gpu.perm, cpu.perm)
    for attribute in ("orientation", "ordering", "ascending"):
        assert getattr(gpu, attribute) == getattr(cpu, attribute)


@pytest.mark.parametrize("unique", [False, True])
@pytest.mark.parametrize("name", list(GRAPHS))
def test_cupy_simple_graph_equals_numpy(name, unique):
    # Deduplicated, the low ends come sorted and their degrees are counted by runs
    # (the star's hub is one run of 500 rows); with unique=True they are not sorted.
    cp = _cupy()
    src, dst, n = GRAPHS[name]
    cpu = simple_graph(src, dst, n, unique=unique)
    gpu = simple_graph(cp.asarray(src), cp.asarray(dst), n, unique=unique)
    for attribute in ("lo", "hi", "degree"):
        _assert_same(getattr(gpu, attribute), getattr(cpu, attribute))
    assert gpu.m == cpu.m
    # The sum of squared degrees, read with the deduplication's synchronisation
    # when the graph needs deduplicating.
    with_squares = simple_graph(cp.asarray(src), cp.asarray(dst), n, unique=unique, square_sum=True)
    _assert_same(with_squares.degree, cpu.degree)
    assert with_squares.squares == float(np.sum(cpu.degree.astype(np.float64) ** 2))


@pytest.mark.parametrize("name", list(GRAPHS))
def test_cupy_peeling_equals_numpy(name):
    cp = _cupy()
    src, dst, n = GRAPHS[name]
    lo, hi, _ = simplify_undirected(src, dst, n, index_dtype=np.int32)
    degree = undirected_degree(lo, hi, n)
    cpu = peel(lo, hi, degree)
    gpu = peel(cp.asarray(lo), cp.asarray(hi), cp.asarray(degree))
    _assert_same(gpu.wave, cpu.wave)
    _assert_same(gpu.remaining, cpu.remaining)
    assert gpu.threshold == cpu.threshold
    out_degree = np.bincount(lo, minlength=n)
    # A float sum in another order: equal to rounding.
    expected = orientation_cost(out_degree, lo.size, n)
    got = orientation_cost(cp.asarray(out_degree), lo.size, n)
    assert got == pytest.approx(expected, rel=1e-12)
