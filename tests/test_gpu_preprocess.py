"""The CuPy preprocessing against the NumPy one (run on a GPU machine).

Every primitive of ``gpu_ops`` must give what the same function of ``host_ops``
(the reference) gives; for every orientation x ordering, preparing CuPy arrays
must give exactly the CSR that preparing the same NumPy arrays gives, with every
edge-sized array still on the GPU.
"""

import itertools

import numpy as np
import pytest

from nx_tricount.algorithms import count
from nx_tricount.io.generators import barabasi_albert_edges, grid_edges, rmat_edges
from nx_tricount.metadata.config import CHOICES
from nx_tricount.preprocess import (
    SimpleGraph,
    directed_pairs,
    gpu_ops,
    host_ops,
    largest_kept_value,
    max_edge_value,
    orientation_cost,
    prepare_hashed,
    prepare_undirected,
    simple_graph,
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


@pytest.mark.parametrize("name", list(GRAPHS))
def test_gpu_ops_equal_host_ops(name):
    cp = _cupy()
    src, dst, n = GRAPHS[name]
    src = src.astype(np.int64)
    dst = dst.astype(np.int32)  # mixed id dtypes, which the kernels take as int64
    g_src, g_dst = cp.asarray(src), cp.asarray(dst)

    def same(function, *args, **kwargs):
        """gpu_ops.function on the args moved to the GPU equals host_ops.function."""
        on_gpu = [cp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
        got = getattr(gpu_ops, function)(*on_gpu, **kwargs)
        expected = getattr(host_ops, function)(*args, **kwargs)
        for g, c in zip(got, expected) if isinstance(expected, tuple) else [(got, expected)]:
            _assert_same(g, c)
        return expected

    keys = same("edge_keys", src, dst, n)
    if src.size:
        assert gpu_ops.id_range(g_src, g_dst) == host_ops.id_range(src, dst)
    same("packed_keys", src, dst, n)
    lo, hi = same("unpack_keys", np.unique(keys[keys != host_ops.SENTINEL]), n, np.int32)
    same("endpoint_counts", lo, hi, n)
    same("endpoint_counts", lo, hi, n, a_sorted=True)
    same("vertex_counts", hi, n)
    # Float sums by atomics: equal to rounding.
    weights = np.random.default_rng(7).random(hi.size)
    np.testing.assert_allclose(
        cp.asnumpy(gpu_ops.vertex_counts(cp.asarray(hi), n, cp.asarray(weights))),
        host_ops.vertex_counts(hi, n, weights),
        rtol=1e-12,
    )
    degree = host_ops.endpoint_counts(lo, hi, n)
    # Terms near 2**64, no degrees, and more degrees than the launch has threads.
    many = np.random.default_rng(9).integers(0, 2**31, 600_000)
    for pairs_of in (degree, np.array([2**32 - 1] * 5 + [0, 1, 2], dtype=np.int64), many, many[:0]):
        assert int(gpu_ops.pair_sum(cp.asarray(pairs_of))) == host_ops.pair_sum(pairs_of)
    arc_keys = np.sort(host_ops.packed_keys(lo, hi, n))
    padded = np.concatenate([arc_keys, np.full(3, host_ops.SENTINEL)])
    for dtype in (np.int32, np.int64):
        same("csr_of_sorted_keys", padded, n, dtype, arc_keys.size)

    # Keys cut into ranges (SENTINEL in none), empty ranges and no cut included, and
    # more ranges than one pair of launches fills.
    real = keys[keys != host_ops.SENTINEL]
    many_cuts = [int(q) for q in np.quantile(real, np.linspace(0, 1, 12)[1:-1])] if real.size else [0] * 10
    for splitters in ([], [int(np.median(real))] if real.size else [0], [0, 0, host_ops.SENTINEL], many_cuts):
        expected = host_ops.keys_by_range(keys, splitters)
        got = gpu_ops.keys_by_range(cp.asarray(keys), splitters)
        assert len(got) == len(expected) == len(splitters) + 1
        for g, c in zip(got, expected):
            _assert_same(g, c)
    # Distinct edges of keys in any order, as the deduplication finds them.
    shuffled = np.random.default_rng(3).permutation(keys)
    host_graph = host_ops.distinct_keys_graph(shuffled.copy(), n)
    gpu_graph = gpu_ops.distinct_keys_graph(cp.asarray(shuffled), n)
    _assert_same(gpu_graph.lo, host_graph.lo)
    _assert_same(gpu_graph.hi, host_graph.hi)
    _assert_same(gpu_graph.degree, host_graph.degree)

    # The deduplication: the GPU's keeps its sorted keys, compacted when read.
    simple = host_ops.deduplicate(src, dst, n)
    kept = gpu_ops.deduplicate(g_src, g_dst, n)
    assert isinstance(kept, gpu_ops.KeptKeysGraph)
    _assert_same(kept.degree, simple.degree)
    assert kept.m == simple.m
    # auto's estimate: the same draw and the same integer sum on both devices, read
    # from the GPU without a synchronisation of the work queued after it.
    if src.size:
        for a, b in ((src, dst), (src.astype(np.int32), dst), (src.astype(np.int32), dst.astype(np.int32))):
            read = gpu_ops.sampled_degree_sum(cp.asarray(a), cp.asarray(b), 1024)
            assert read() == host_ops.sampled_degree_sum(a, b, 1024)()
    rng = np.random.default_rng(8)
    for how, relabelled in itertools.product(["id", "degree"], [False, True]):
        rank = rng.permutation(n).astype(np.int32) if relabelled else None
        expected, arcs = host_ops.oriented_keys(how, simple, rank)
        g_rank = None if rank is None else cp.asarray(rank)
        # From the sorted keys (rows that are not edges: SENTINEL, sorting last) ...
        got, pending = gpu_ops.oriented_keys(how, kept, g_rank)
        assert int(pending) == arcs
        _assert_same(cp.sort(got)[:arcs], np.sort(expected))
        assert bool((cp.sort(got)[arcs:] == host_ops.SENTINEL).all())
        # ... and from lo, hi (compacted now), aligned with them.
        _assert_same(kept.lo, simple.lo)
        _assert_same(kept.hi, simple.hi)
        plain = SimpleGraph(n, kept.lo, kept.hi, kept.degree)
        got, plain_arcs = gpu_ops.oriented_keys(how, plain, g_rank)
        assert plain_arcs == arcs
        _assert_same(got, expected)


#: Two ids at the ends of each type: above 2**63 for uint64, negative for signed types.
EXTREME_IDS = {
    np.uint64: [2**64 - 1, 2**63 + 1],
    np.int8: [-3, 7],
    np.int32: [9, -(2**31)],
    np.int64: [2**63 - 1, -(2**63)],
    np.uint16: [0, 2**16 - 1],
}


@pytest.mark.parametrize("narrow", [True, False])
def test_gpu_degrees_counted_in_many_passes_equal_host(monkeypatch, narrow):
    # The high ends counted in passes over small ranges of counters, as on a graph
    # many times the L2 cache, in 32-bit counters or (as past 2**32 vertices) 64-bit.
    from nx_tricount.gpu import runtime

    src, dst, n = GRAPHS["rmat"]
    expected = simple_graph(src, dst, n)
    monkeypatch.setattr(runtime, "device_properties", lambda: {"l2CacheSize": 1000})
    if not narrow:
        monkeypatch.setattr(gpu_ops, "NARROW_COUNTS_UP_TO", 0)
    got = simple_graph(_cupy().asarray(src), _cupy().asarray(dst), n)
    _assert_same(got.degree, expected.degree)
    assert got.m == expected.m


@pytest.mark.parametrize("size", [1, 2047, 3_000_001])
def test_gpu_keys_by_range_over_many_tiles_equals_host(size):
    # Blocks of several tiles of RANGE_ITEMS keys a thread, the last tile partial.
    import cupy as cp

    rng = np.random.default_rng(size)
    keys = rng.integers(0, 1 << 40, size)
    keys[rng.random(size) < 0.1] = host_ops.SENTINEL
    for splitters in ([1 << 39], [int(q) for q in np.quantile(keys, [0.1, 0.3, 0.31, 0.6])], [0] * 9):
        expected = host_ops.keys_by_range(keys, splitters)
        got = gpu_ops.keys_by_range(cp.asarray(keys), splitters)
        assert len(got) == len(expected) == len(splitters) + 1
        for g, c in zip(got, expected):
            np.testing.assert_array_equal(cp.asnumpy(g), c)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_gpu_rows_of_equals_host(dtype):
    # Empty rows first, between and last; rows shorter and longer than one
    # thread's span of arcs; a number of arcs no multiple of it; no arcs.
    rng = np.random.default_rng(5)
    for degrees in (
        [0, 0, 3, 0, gpu_ops.ROWS_SPAN * 3 + 1, 1, 0, 0, 9, 0],
        rng.integers(0, 4, size=1000) * rng.integers(0, 2, size=1000),
        [0, 0, 0],
    ):
        indptr = np.concatenate([[0], np.cumsum(degrees)]).astype(np.int64)
        expected = host_ops.rows_of(indptr, dtype)
        _assert_same(gpu_ops.rows_of(_cupy().asarray(indptr), dtype), expected)


@pytest.mark.parametrize(
    "src_dtype,dst_dtype",
    [
        (np.uint64, np.uint64),
        (np.int8, np.int8),
        (np.uint64, np.int32),
        (np.int8, np.uint64),
        (np.uint64, np.uint16),
        (np.int32, np.int32),
        (np.int64, np.int64),
    ],
)
def test_gpu_id_range_is_exact_across_dtypes(src_dtype, dst_dtype):
    """Ids near 2**64 and negative ones keep their values, whether the four
    reductions cross in one copy (one type) or one by one (mixed types)."""
    import cupy as cp

    src = np.array(EXTREME_IDS[src_dtype], dtype=src_dtype)
    dst = np.array(EXTREME_IDS[dst_dtype], dtype=dst_dtype)
    every = [int(x) for x in [*src, *dst]]
    assert gpu_ops.id_range(cp.asarray(src), cp.asarray(dst)) == (min(every), max(every))
    assert host_ops.id_range(src, dst) == (min(every), max(every))


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_gpu_id_range_over_many_blocks(dtype):
    # int32 and int64 ids go through one launch of at most RANGE_BLOCKS blocks, each
    # striding over the rows: the extremes sit in the last rows and in dst alone.
    import cupy as cp

    rows = gpu_ops.RANGE_BLOCKS * 256 * 3 + 17
    src = np.arange(rows, dtype=dtype) % 1000 + 5
    dst = src.copy()
    dst[-1], src[-2] = 2, 7_000_000
    assert gpu_ops.id_range(cp.asarray(src), cp.asarray(dst)) == (2, 7_000_000)


@pytest.mark.parametrize("name", list(GRAPHS))
def test_cupy_edge_values_equal_numpy(name):
    cp = _cupy()
    src, dst, n = GRAPHS[name]
    values = np.random.default_rng(9).random(src.size)
    g_src, g_dst, g_values = cp.asarray(src), cp.asarray(dst), cp.asarray(values)
    for directed, unique in itertools.product([False, True], [False, True]):
        expected = max_edge_value(src, dst, n, values, directed=directed, unique=unique)
        assert max_edge_value(g_src, g_dst, n, g_values, directed=directed, unique=unique) == expected
    # From the weights the deduplicated edges keep (a weighted count's), with a
    # self-loop holding the largest (the rows' rule then) and without.
    looped_src, looped_dst = np.append(src, 0), np.append(dst, 0)
    for rows in ((src, dst, values), (looped_src, looped_dst, np.append(values, 2.0))):
        on_gpu = [cp.asarray(a) for a in rows]
        kept = simple_graph(*on_gpu[:2], n, values=on_gpu[2]).values
        assert largest_kept_value(*on_gpu[:2], n, on_gpu[2], kept) == max_edge_value(
            *rows[:2], n, rows[2], directed=False, unique=False
        )
    for weights in (None, values):
        cpu = directed_pairs(src, dst, n, weights)
        gpu = directed_pairs(g_src, g_dst, n, None if weights is None else g_values)
        for g, c in zip(gpu, cpu):
            _assert_same(g, c)


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
        cp.asarray(src),
        cp.asarray(dst),
        n,
        orientation=orientation,
        ordering=ordering,
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


def _messy(src, dst, n, seed):
    """The rows again reversed, some repeated, self-loops among them, and ten
    isolated vertices after the last id, shuffled."""
    rng = np.random.default_rng(seed)
    loops = rng.integers(0, n, size=max(1, src.size // 20))
    repeat = rng.integers(0, src.size, size=src.size // 3)
    a = np.concatenate([src, dst[repeat], loops])
    b = np.concatenate([dst, src[repeat], loops])
    order = rng.permutation(a.size)
    return a[order], b[order], n + 10


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint16])
@pytest.mark.parametrize("messy", [False, True])
@pytest.mark.parametrize("name", [name for name in GRAPHS if GRAPHS[name][0].size])
def test_hashed_csr_equals_the_sorting_pipeline(name, messy, dtype):
    # The small graphs' CSR without sorts: a hash table of the edges, an atomic
    # cursor per row and each row ordered by rank give the sorted CSR exactly.
    cp = _cupy()
    src, dst, n = GRAPHS[name]
    if messy:
        src, dst, n = _messy(src, dst, n, seed=len(name))
    src, dst = src.astype(dtype), dst.astype(dtype)
    cpu = prepare_undirected(src, dst, n, orientation="degree", ordering="none")
    built = prepare_hashed(cp.asarray(src), cp.asarray(dst), n)
    gpu = built.prepared
    for attribute in ("indptr", "indices", "rows", "degree"):
        _assert_same(getattr(gpu, attribute), getattr(cpu, attribute))
    assert gpu.values is None and gpu.perm is None and not gpu.derived
    for attribute in ("n", "orientation", "ordering", "ascending"):
        assert getattr(gpu, attribute) == getattr(cpu, attribute)
    assert built.pair_sum == int((cpu.degree * (cpu.degree - 1)).sum())
    # Counted with the CSR, before its one read: merge's total on the same arrays,
    # returned beside the CSR, never kept in it.
    assert built.triangles is None
    counted = prepare_hashed(cp.asarray(src), cp.asarray(dst), n, count_triangles=True)
    expected = count(cpu, "merge", "total").total
    assert counted.triangles == expected == count(gpu, "merge", "total", "gpu").total
    assert not counted.prepared.derived and counted.pair_sum == built.pair_sum
    assert count(counted.prepared, "merge", "total", "gpu").total == expected
    _assert_same(counted.prepared.indices, cpu.indices)


def test_hashed_csr_on_a_clique_and_a_single_row():
    # A clique: every row's arcs tie on degree and are ordered by id alone; one
    # row: the smallest table.
    cp = _cupy()
    u, v = np.triu_indices(300, 1)
    for src, dst, n in ((u, v, 300), (np.array([4]), np.array([1]), 5), (np.array([2]), np.array([2]), 3)):
        cpu = prepare_undirected(src, dst, n, orientation="degree", ordering="none")
        built = prepare_hashed(cp.asarray(src), cp.asarray(dst), n, count_triangles=True)
        for attribute in ("indptr", "indices", "rows", "degree"):
            _assert_same(getattr(built.prepared, attribute), getattr(cpu, attribute))
        assert built.triangles == count(cpu, "merge", "total").total


def test_hashed_csr_refuses_what_it_does_not_take():
    cp = _cupy()
    with pytest.raises(ValueError, match="edge rows"):
        prepare_hashed(cp.zeros(0, dtype=np.int64), cp.zeros(0, dtype=np.int64), 3)
    with pytest.raises(ValueError, match="vertices"):
        prepare_hashed(cp.zeros(2, dtype=np.int64), cp.ones(2, dtype=np.int64), (1 << 20) + 1)


def test_small_graphs_are_prepared_without_sorts(monkeypatch):
    # The plan names the hashed pipeline for a small graph on the GPU, degree
    # oriented on its own ids, unweighted; oriented_csr builds what it names, and
    # the sorting pipeline for anything else. A fused total comes from the launch.
    import networkx as nx

    import nx_tricount
    from nx_tricount import preprocess
    from nx_tricount.classes import preparation

    cp = _cupy()
    taken = []
    hashed = preprocess.prepare_hashed
    monkeypatch.setattr(preprocess, "prepare_hashed", lambda *a, **k: taken.append(k) or hashed(*a, **k))
    src, dst, n = GRAPHS["barabasi_albert"]
    G = nx_tricount.from_edges(cp.asarray(src), cp.asarray(dst), n=n)
    plan = nx_tricount.make_plan(G, device="gpu")
    assert plan.pipeline == "hashed"
    gpu = preparation.oriented_csr(G, "degree", "none", "gpu", pipeline=plan.pipeline)
    assert len(taken) == 1
    cpu = prepare_undirected(src, dst, n, orientation="degree", ordering="none")
    _assert_same(gpu.indices, cpu.indices)
    preparation.oriented_csr(G, "degree", "degree", "gpu")
    preparation.oriented_csr(G, "id", "none", "gpu")
    preparation.oriented_csr(G, "degree", "none", "cpu")
    assert len(taken) == 1
    assert nx_tricount.make_plan(G, device="gpu", total=True).merge_total == "fused"
    H = nx.Graph(zip(src.tolist(), dst.tolist()))
    assert nx.transitivity(G, backend="tricount", device="gpu") == nx.transitivity(H)
    assert taken[1:] == [{"count_triangles": True}]


@pytest.mark.parametrize("values", [None, np.float64, np.int64])
@pytest.mark.parametrize("unique", [False, True])
@pytest.mark.parametrize("name", list(GRAPHS))
def test_cupy_simple_graph_equals_numpy(name, unique, values):
    # Deduplicated, the low ends come sorted and their degrees are counted by runs
    # (the star's hub is one run of 500 rows); with unique=True they are not sorted.
    # With values, a repeated edge keeps its last row's, whichever its direction: the
    # rows come twice more, reversed and then as they are, with other values.
    cp = _cupy()
    src, dst, n = GRAPHS[name]
    if values is not None:
        if not unique:
            src, dst = np.concatenate([src, dst, src]), np.concatenate([dst, src, dst])
        values = np.random.default_rng(5).integers(-(2**40), 2**40, size=src.size).astype(values)
    cpu = simple_graph(src, dst, n, values=values, unique=unique)
    gpu_values = None if values is None else cp.asarray(values)
    gpu = simple_graph(cp.asarray(src), cp.asarray(dst), n, values=gpu_values, unique=unique)
    for attribute in ("lo", "hi", "degree") + (() if values is None else ("values",)):
        _assert_same(getattr(gpu, attribute), getattr(cpu, attribute))
    assert gpu.m == cpu.m


@pytest.mark.parametrize("name", list(GRAPHS))
def test_cupy_peeling_equals_numpy(name):
    cp = _cupy()
    src, dst, n = GRAPHS[name]
    simple = simple_graph(src, dst, n)
    lo, hi, degree = simple.lo, simple.hi, simple.degree
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
