"""Weighted, directed and square clustering on the GPU run on kernels compiled
ahead (kernels/edge_rows.cu, edge_values.cu, compensated.cu, squares.cu) and
CuPy's in-place sorts: each step gives what the CPU's NumPy gives, or the CuPy
arithmetic it replaces, to the bit (``pytest -m gpu``; that a fresh process
compiles nothing is tests/test_gpu_prebuilt.py's test)."""

import networkx as nx
import numpy as np
import pytest

import nx_tricount
from nx_tricount.algorithms import squares
from nx_tricount.algorithms.counts import round_pairs, two_sum
from nx_tricount.classes import preparation
from nx_tricount.io.generators import rmat_edges
from nx_tricount.preprocess import (
    directed_pairs,
    gpu_ops,
    host_ops,
    max_edge_value,
    pair_directions,
    prepare_undirected,
    simple_graph,
)
from nx_tricount.preprocess.edge_values import normalised_values

pytestmark = pytest.mark.gpu


def _cupy():
    import cupy

    return cupy


def _assert_same(gpu_array, cpu_array):
    """Same dtype and values (NaNs where NumPy has them), and the same sign of
    every zero."""
    got = _cupy().asnumpy(gpu_array)
    assert got.dtype == cpu_array.dtype
    np.testing.assert_array_equal(got, cpu_array)
    if got.dtype.kind == "f":
        numbers = ~np.isnan(cpu_array)
        np.testing.assert_array_equal(np.signbit(got[numbers]), np.signbit(cpu_array[numbers]))


def _rows(seed, n=300, rows=2000):
    """Edge rows with repeats (both ways), self-loops and isolated vertices."""
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n - 10, rows), rng.integers(0, n - 10, rows)
    src[::50] = dst[::50]
    again = rng.integers(0, rows, rows // 4)
    return np.concatenate([src, dst[again]]), np.concatenate([dst, src[again]]), n


def _distinct(src, dst, directed=False):
    """The rows' first occurrence of each edge (self-loops kept)."""
    keys = src * (1 << 32) + dst if directed else np.minimum(src, dst) * (1 << 32) + np.maximum(src, dst)
    _, first = np.unique(keys, return_index=True)
    first.sort()
    return src[first], dst[first]


def test_round_pairs_are_two_sums_to_the_bit():
    # A count's output interleaves each vertex's sum and error: strided views.
    cp = _cupy()
    rng = np.random.default_rng(3)
    sums = rng.standard_normal(4000) * 10.0 ** rng.integers(-300, 300, 4000)
    errors = sums * rng.standard_normal(4000) * 1e-16
    sums[:8] = [np.inf, -np.inf, np.nan, 1e308, -0.0, 0.0, -0.0, 5e-324]
    errors[:8] = [1.0, 0.0, 1.0, 1e308, -0.0, -0.0, 0.0, -5e-324]
    integers = rng.integers(-(2**63), 2**63 - 1, (2, 4000))
    integers[:, 0] = [2**63 - 1, 1]  # wraps around, as NumPy's
    for a, b in ((sums, errors), (integers[0], integers[1])):
        out = cp.asarray(np.stack([a, b], axis=1).reshape(-1)).reshape(-1, 2).T
        with np.errstate(over="ignore"):
            expected = two_sum(a, b) if a.dtype.kind == "f" else (a + b, b * 0)
        for got, want in zip(round_pairs(out[0], out[1]), expected):
            _assert_same(got, want)
        for got, want in zip(round_pairs(cp.asarray(a), cp.asarray(b)), expected):
            _assert_same(got, want)


def test_normalised_values_are_cupys_division_and_cube_root():
    cp = _cupy()
    rng = np.random.default_rng(5)
    weights = rng.random(3000) * 10.0 ** rng.integers(-300, 300, 3000) * rng.choice([1, -1], 3000)
    weights[:6] = [0.0, -0.0, np.nan, np.inf, -np.inf, 5e-324]
    on_gpu = cp.asarray(weights)
    for largest in (7.25, weights[7], 0.0, -2.0, np.nan):
        expected = cp.cbrt(on_gpu / largest)  # the arithmetic the kernel replaces
        _assert_same(normalised_values(on_gpu, largest), cp.asnumpy(expected))


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_max_edge_value_of_distinct_edges_is_the_hosts(directed, dtype):
    cp = _cupy()
    src, dst, n = _rows(11)
    src, dst = (a.astype(dtype) for a in _distinct(src, dst, directed))
    rng = np.random.default_rng(2)
    values = -rng.random(src.size) * 10
    first = np.argmin(src if directed else np.minimum(src, dst))
    cases = {"negative": values}
    cases["a NaN later"] = values.copy()
    cases["a NaN later"][first + 1 :: 7] = np.nan
    cases["a NaN first"] = values.copy()
    cases["a NaN first"][first] = np.nan
    cases["zeros"] = np.where(np.arange(src.size) % 2, 0.0, -0.0)
    for name, case in cases.items():
        expected = max_edge_value(src, dst, n, case, directed=directed, unique=True)
        got = max_edge_value(
            cp.asarray(src), cp.asarray(dst), n, cp.asarray(case), directed=directed, unique=True
        )
        assert got == expected or (got != got and expected != expected), name


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint16])
def test_directed_pairs_are_the_hosts(dtype):
    # Repeated arcs keep their last row's value; reciprocal pairs add both arcs';
    # the ends come in the rows' id type (uint16: CuPy's own arithmetic).
    cp = _cupy()
    src, dst, n = _rows(7)
    src, dst = src.astype(dtype), dst.astype(dtype)
    g_src, g_dst = cp.asarray(src), cp.asarray(dst)
    values = np.random.default_rng(1).random(src.size)
    for weights in (None, values, (values * 100).astype(np.int64)):
        cpu = directed_pairs(src, dst, n, weights)
        gpu = directed_pairs(g_src, g_dst, n, None if weights is None else cp.asarray(weights))
        for g, c in zip(gpu, cpu):
            _assert_same(g, c)
    for g, c in zip(pair_directions(g_src, g_dst, n), pair_directions(src, dst, n)):
        _assert_same(g, c)


def test_directed_pairs_of_long_runs_are_the_hosts():
    # Arcs repeated many times (runs longer than a thread walks, found by a
    # binary search), each run read from its last row: 3 -> 5 and 5 -> 3 (a
    # reciprocal pair), 7 -> 2 alone against its pair's order, 1 -> 4 alone along
    # it, and self-loops between them.
    cp = _cupy()
    arcs = [(3, 5)] * 900 + [(5, 3)] * 700 + [(7, 2)] * 500 + [(1, 4)] * 300 + [(6, 6)] * 200
    order = np.random.default_rng(4).permutation(len(arcs))
    src = np.array([arcs[i][0] for i in order], dtype=np.int32)
    dst = np.array([arcs[i][1] for i in order], dtype=np.int32)
    values = np.random.default_rng(5).random(src.size)
    zeros = np.where(np.arange(src.size) % 2, 0.0, -0.0)  # a pair's sum is 0.0, never -0.0
    g_src, g_dst = cp.asarray(src), cp.asarray(dst)
    for weights in (None, values, zeros):
        cpu = directed_pairs(src, dst, 8, weights)
        gpu = directed_pairs(g_src, g_dst, 8, None if weights is None else cp.asarray(weights))
        for g, c in zip(gpu, cpu):
            _assert_same(g, c)
    for g, c in zip(pair_directions(g_src, g_dst, 8), pair_directions(src, dst, 8)):
        _assert_same(g, c)
    np.testing.assert_array_equal(cp.asnumpy(pair_directions(g_src, g_dst, 8).b), [1, 2, 3])


def test_sorted_keys_and_distinct_edges_are_the_hosts():
    cp = _cupy()
    src, dst, n = _rows(4)
    keys = np.unique(host_ops.edge_keys(src, dst, n))[:-1]  # distinct, no SENTINEL
    keys = np.random.default_rng(6).permutation(keys)
    for values in (None, np.arange(keys.size) * 0.5, np.arange(keys.size)):
        cpu = host_ops.sorted_keys(keys, values)
        gpu = gpu_ops.sorted_keys(cp.asarray(keys), None if values is None else cp.asarray(values))
        _assert_same(gpu[0], cpu[0])
        assert (gpu[1] is None) == (values is None)
        if values is not None:
            _assert_same(gpu[1], cpu[1])
    repeated = host_ops.edge_keys(src, dst, n)  # SENTINELs and repeats, without values
    _assert_same(gpu_ops.sorted_keys(cp.asarray(repeated))[0], np.sort(repeated))
    # A graph whose edges are distinct keeps its rows' order, without self-loops.
    src, dst = _distinct(src, dst)
    for values in (None, np.random.default_rng(8).random(src.size)):
        cpu = simple_graph(src, dst, n, values=values, unique=True)
        gpu = simple_graph(
            cp.asarray(src),
            cp.asarray(dst),
            n,
            values=None if values is None else cp.asarray(values),
            unique=True,
        )
        for attribute in ("lo", "hi", "degree") + (("values",) if values is not None else ()):
            _assert_same(getattr(gpu, attribute), getattr(cpu, attribute))


@pytest.mark.parametrize(
    "orientation,ordering", [("degree", "none"), ("id", "degree"), ("degree", "in-degree")]
)
def test_weighted_distinct_edges_prepare_as_on_the_host(orientation, ordering):
    cp = _cupy()
    src, dst = _distinct(*rmat_edges(11, 8, seed=9))
    n = 1 << 11
    values = np.random.default_rng(9).random(src.size)
    settings = dict(orientation=orientation, ordering=ordering, unique=True)
    cpu = prepare_undirected(src, dst, n, values=values, **settings)
    gpu = prepare_undirected(cp.asarray(src), cp.asarray(dst), n, values=cp.asarray(values), **settings)
    for attribute in ("indptr", "indices", "rows", "degree", "values"):
        _assert_same(getattr(gpu, attribute), getattr(cpu, attribute))


def test_square_lists_and_potentials_are_the_hosts():
    # The GPU's neighbour lists hold each row's neighbours in no order; the counts
    # and potentials on them are the CPU's on the sorted lists.
    cp = _cupy()
    G = nx.barabasi_albert_graph(400, 5, seed=2)
    G.add_edges_from((i, i + 1) for i in range(0, 400, 3))
    T = nx_tricount.from_networkx(G)
    found = {}
    for device in ("cpu", "gpu"):
        prepared = preparation.oriented_csr(T, "degree", "degree", device)  # with perm
        lists = squares.neighbour_lists(prepared)
        targets = squares.every_vertex(prepared.n, prepared.indices.dtype, device)
        counts = squares.count_squares(lists, lists, targets, prepared.n, device, 1 << 20)
        terms = squares.potentials(lists, targets, *counts, prepared.perm)
        found[device] = [a if device == "cpu" else cp.asnumpy(a) for a in (*lists, *counts, *terms)]
    cpu, gpu = found["cpu"], found["gpu"]
    np.testing.assert_array_equal(gpu[0], cpu[0])
    rows = np.repeat(np.arange(cpu[0].size - 1), np.diff(cpu[0]))
    np.testing.assert_array_equal(gpu[1][np.lexsort((gpu[1], rows))], cpu[1])
    for got, expected in zip(gpu[2:], cpu[2:]):
        np.testing.assert_array_equal(got, expected)
    assert cpu[-2].any() and not cpu[-2].all()  # some potentials defined, some not
