"""The GPU engine against the CPU engine and NetworkX (run on a GPU machine).

Every GPU algorithm, in every mode, on every orientation and ordering, must give
exactly what the CPU engine gives on the same graph; the CuPy preprocessing must
give the same CSR as the NumPy one.
"""

import functools
import itertools

import networkx as nx
import numpy as np
import pytest

from conftest import DATASETS, load_edges, load_graph, manifest, networkx_triangles
from graphs import cancelling_terms
from nx_tricount.algorithms import count, merge, wedge, wedge_hub, wedge_layout
from nx_tricount.io.generators import barabasi_albert_edges, grid_edges, rmat_edges
from nx_tricount.metadata.catalog import PAIR_TRANSITIVITY
from nx_tricount.metadata.config import CHOICES
from nx_tricount.preprocess import prepare_arcs, prepare_undirected

pytestmark = pytest.mark.gpu

GPU_ALGORITHMS = tuple(a for a in CHOICES["algorithm"] if a != "auto")
PREPROCESSING = list(itertools.product(("id", "degree"), ("none", "degree")))
#: The papers' other preprocessings (A-direction, A-order, TRUST's orderings); their
#: CuPy CSR equals the NumPy one for every combination (test_gpu_preprocess.py).
NEW_PREPROCESSING = [
    ("a-direction", "none"),
    ("a-direction", "a-order"),
    ("degree", "a-order"),
    ("degree", "in-degree"),
    ("degree", "collective"),
]


def _cupy():
    import cupy

    return cupy


def _host(array):
    return _cupy().asnumpy(array)


@functools.cache
def _cpu_reference(name, orientation, ordering, seed):
    """The CPU engine's answers on graph ``name`` (see :func:`_graph`), computed once
    for all the GPU algorithms: the CSR, the counts in every mode, and the weighted
    per-node sums for integer and float values."""
    src, dst, n = _graph(name)
    cpu = prepare_undirected(src, dst, n, orientation=orientation, ordering=ordering)
    rng = np.random.default_rng(seed)
    # Integer values: exact; repeated edges keep their last value (stable sort).
    weighted = []
    for values in (rng.integers(1, 4, size=src.size, dtype=np.int64), rng.random(src.size)):
        cpu_w = prepare_undirected(src, dst, n, orientation=orientation, ordering=ordering, values=values)
        weighted.append((values, count(cpu_w, "merge", "per_node").per_node))
    return {
        "csr": {key: getattr(cpu, key) for key in ("indptr", "indices", "rows")},
        "total": count(cpu, "merge", "total").total,
        "per_node": count(cpu, "merge", "per_node").per_node,
        "per_edge": count(cpu, "merge", "per_edge").per_edge,
        "weighted": weighted,
    }


def _check_all_modes(name, algorithm, orientation, ordering, seed=0):
    """GPU == CPU for total, per_node, per_edge and weighted per_node (int64 and
    float64 values) on graph ``name``. Returns the CPU per-node counts (original ids)."""
    cp = _cupy()
    src, dst, n = _graph(name)
    expected = _cpu_reference(name, orientation, ordering, seed)

    def prepare(values=None):
        return prepare_undirected(
            cp.asarray(src),
            cp.asarray(dst),
            n,
            orientation=orientation,
            ordering=ordering,
            values=None if values is None else cp.asarray(values),
        )

    gpu = prepare()
    # The CuPy preprocessing builds the same CSR as the NumPy one, on the device.
    for key, array in expected["csr"].items():
        assert type(getattr(gpu, key)).__module__.startswith("cupy")
        np.testing.assert_array_equal(_host(getattr(gpu, key)), array)
    assert count(gpu, algorithm, "total", "gpu").total == expected["total"]
    np.testing.assert_array_equal(
        _host(count(gpu, algorithm, "per_node", "gpu").per_node), expected["per_node"]
    )
    np.testing.assert_array_equal(
        _host(count(gpu, algorithm, "per_edge", "gpu").per_edge), expected["per_edge"]
    )
    (int_values, int_sums), (float_values, float_sums) = expected["weighted"]
    np.testing.assert_array_equal(
        _host(count(prepare(int_values), algorithm, "per_node", "gpu").per_node), int_sums
    )
    np.testing.assert_allclose(
        _host(count(prepare(float_values), algorithm, "per_node", "gpu").per_node),
        float_sums,
        rtol=1e-12,  # float sums in another order
    )
    return expected["per_node"]


@pytest.mark.parametrize("algorithm", GPU_ALGORITHMS)
@pytest.mark.parametrize("name", DATASETS)
def test_data_graphs(name, algorithm):
    expected = int(manifest()[name]["triangles"])
    small = load_edges(name)[0].size < 200_000  # NetworkX's per-node counts take seconds beyond
    reference = networkx_triangles(name) if small else None
    for orientation, ordering in PREPROCESSING + NEW_PREPROCESSING[:1]:
        per_node = _check_all_modes(name, algorithm, orientation, ordering)
        assert int(per_node.sum()) == 3 * expected
        if reference is not None:
            assert {v: int(per_node[v]) for v in reference} == reference


@functools.cache
def _graph(name):
    """(src, dst, n) host arrays of a ../shared/data graph or of a generated one (made
    on the GPU with fixed seeds)."""
    if name in DATASETS:
        src, dst = load_edges(name)
        return src, dst, int(max(src.max(), dst.max())) + 1
    if name == "rmat14":
        src, dst = rmat_edges(14, seed=7, device="gpu")
        n = 1 << 14
    elif name == "grid":
        src, dst = grid_edges(60, 70, 0.05, seed=3, device="gpu")
        n = 60 * 70
    elif name == "barabasi_albert":
        src, dst = barabasi_albert_edges(20_000, 6, seed=5, device="gpu")
        n = 20_000
    elif name == "hub":
        # A hub joined to 150,000 leaves, a path and random edges among the leaves.
        rng = np.random.default_rng(2)
        leaves = 150_000
        hub = leaves  # the last id: with orientation "id" its arcs all come in
        path = np.arange(leaves - 1)
        extra = rng.integers(0, leaves, size=(2, 300_000))
        src = np.concatenate([np.full(leaves, hub), path, extra[0]])
        dst = np.concatenate([np.arange(leaves), path + 1, extra[1]])
        return src, dst, leaves + 1
    return _host(src), _host(dst), n


@pytest.mark.parametrize("orientation,ordering", PREPROCESSING + NEW_PREPROCESSING)
@pytest.mark.parametrize("algorithm", GPU_ALGORITHMS)
@pytest.mark.parametrize("name", ["rmat14", "grid", "barabasi_albert"])
def test_generated_graphs(name, algorithm, orientation, ordering):
    src, dst, n = _graph(name)
    per_node = _check_all_modes(name, algorithm, orientation, ordering, seed=1)
    G = nx.Graph(zip(src.tolist(), dst.tolist()))
    G.remove_edges_from(nx.selfloop_edges(G))
    assert sum(nx.triangles(G).values()) == int(per_node.sum())


@pytest.mark.parametrize("orientation,ordering", PREPROCESSING + NEW_PREPROCESSING[:1])
@pytest.mark.parametrize("algorithm", GPU_ALGORITHMS)
def test_weighted_sums_are_compensated(algorithm, orientation, ordering):
    # Exact terms that cancel: only a compensated sum gets the hub's 1000 * 2**-60,
    # whatever order the atomics meet them in.
    cp = _cupy()
    src, dst, n, values, expected = cancelling_terms()
    p = prepare_undirected(
        cp.asarray(src),
        cp.asarray(dst),
        n,
        orientation=orientation,
        ordering=ordering,
        values=cp.asarray(values),
    )
    np.testing.assert_array_equal(_host(count(p, algorithm, "per_node", "gpu").per_node), expected)


@pytest.mark.parametrize("algorithm", GPU_ALGORITHMS)
def test_arcs_totals(algorithm):
    """Transitive triples of a directed graph (orientation "arcs", cycles kept)."""
    cp = _cupy()
    src, dst = rmat_edges(12, 8, seed=11)
    n = 1 << 12
    cpu = prepare_arcs(src, dst, n)
    gpu = prepare_arcs(cp.asarray(src), cp.asarray(dst), n)
    expected = count(cpu, "merge", "total").total
    assert count(gpu, algorithm, "total", "gpu").total == expected
    D = nx.DiGraph(zip(src.tolist(), dst.tolist()))
    D.remove_edges_from(nx.selfloop_edges(D))
    triads = sum(len(D[v]) * (len(D[v]) - 1) for v in D)
    assert nx.transitivity(D) == pytest.approx(expected / triads)


@pytest.mark.parametrize("algorithm", GPU_ALGORITHMS)
def test_total_beyond_32_bits(algorithm):
    """A 3000-clique has C(3000, 3) = 4.49e9 > 2^32 triangles."""
    cp = _cupy()
    k = 3000
    lo, hi = cp.triu_indices(k, 1)
    prepared = prepare_undirected(lo, hi, k, orientation="id", ordering="degree")
    total = count(prepared, algorithm, "total", "gpu").total
    assert total == k * (k - 1) * (k - 2) // 6 > 2**32
    per_node = count(prepared, algorithm, "per_node", "gpu").per_node
    assert bool((per_node == (k - 1) * (k - 2) // 2).all())


@pytest.mark.parametrize("orientation,ordering", PREPROCESSING)
def test_merge_inline_layout(orientation, ordering):
    # Merge's total reads each vertex's out-degree at its head h(v) = indptr[v] + v,
    # followed by the heads of its out-neighbours; made once per Prepared.
    cp = _cupy()
    src, dst, n = _graph("grid")
    p = prepare_undirected(cp.asarray(src), cp.asarray(dst), n, orientation=orientation, ordering=ordering)
    indptr, indices = _host(p.indptr), _host(p.indices)
    head = indptr[:-1] + np.arange(n)
    expected = np.empty(n + p.m, dtype=np.int64)
    expected[head] = np.diff(indptr)
    expected[np.arange(p.m) + np.repeat(np.arange(n), np.diff(indptr)) + 1] = head[indices]
    layout, widest = merge.inline_layout(p)
    np.testing.assert_array_equal(_host(layout), expected)
    assert widest == int(np.diff(indptr).max())
    assert merge.inline_layout(p)[0] is layout


#: The count_gpu keyword of a plan whose merge total reads the inline layout.
INLINE = {"total_layout": "inline"}


@pytest.fixture(params=["arc per thread", "grid-stride"])
def inline_merge(request, monkeypatch):
    """Merge's total on the inline layout (:data:`INLINE`), in either launch."""
    monkeypatch.setattr(merge, "INLINE_EVEN_DEGREE", 0 if request.param == "arc per thread" else 2**31)
    return monkeypatch


@pytest.mark.parametrize("orientation,ordering", PREPROCESSING)
@pytest.mark.parametrize("edges", ["grid", "isolated", "none", "arcs"])
def test_merge_total_on_the_inline_layout_equals_the_csr_one(edges, orientation, ordering, inline_merge):
    # The inline total against merge.cu's (the one beyond 2**31 positions) and the
    # CPU: isolated vertices and empty rows between full ones, no arcs, and a
    # directed graph's arcs (cycles kept, lists not after v).
    cp = _cupy()
    if edges == "arcs":
        src, dst = rmat_edges(10, 8, seed=4)
        cpu, gpu = prepare_arcs(src, dst, 1 << 10), prepare_arcs(cp.asarray(src), cp.asarray(dst), 1 << 10)
    else:
        src, dst, n = _graph("grid")
        if edges == "isolated":  # ids 3v + 1: isolated vertices between all others
            src, dst, n = 3 * src + 1, 3 * dst + 1, 3 * n + 5
        elif edges == "none":
            src, dst = src[:0], dst[:0]
        settings = dict(orientation=orientation, ordering=ordering)
        cpu = prepare_undirected(src, dst, n, **settings)
        gpu = prepare_undirected(cp.asarray(src), cp.asarray(dst), n, **settings)
    inline = count(gpu, "merge", "total", "gpu", INLINE).total
    assert (inline > 0) == (edges != "none")
    assert merge.INLINE_LAYOUT in gpu.derived
    assert inline == count(gpu, "merge", "total", "gpu").total == count(cpu, "merge", "total").total
    inline_merge.setattr(merge, "INLINE_MAX_POSITIONS", 0)  # beyond its positions: the CSR
    assert count(gpu, "merge", "total", "gpu", INLINE).total == inline


@pytest.mark.parametrize("name", DATASETS)
def test_merge_total_on_the_inline_layout_of_data_graphs(name, inline_merge):
    cp = _cupy()
    src, dst, n = _graph(name)
    expected = int(manifest()[name]["triangles"])
    for orientation, ordering in PREPROCESSING:
        settings = dict(orientation=orientation, ordering=ordering)
        p = prepare_undirected(cp.asarray(src), cp.asarray(dst), n, **settings)
        assert count(p, "merge", "total", "gpu", INLINE).total == expected


def test_merge_total_takes_the_inline_layout_when_the_plan_says():
    # The plan's total_layout="inline" reads the layout; the default, merge.cu alone;
    # other modes read the CSR either way.
    src, dst = rmat_edges(12, seed=3, device="gpu")
    inline = prepare_undirected(src, dst, 1 << 12, orientation="degree", ordering="none")
    csr = prepare_undirected(src, dst, 1 << 12, orientation="degree", ordering="none")
    for p, parameters in ((inline, INLINE), (csr, None)):
        per_edge = count(p, "merge", "per_edge", "gpu", parameters).per_edge
        assert count(p, "merge", "total", "gpu", parameters).total == int(per_edge.sum()) // 3
    assert merge.INLINE_LAYOUT in inline.derived and merge.INLINE_LAYOUT not in csr.derived
    with pytest.raises(ValueError, match="total_layout 'rows'"):
        count(csr, "merge", "total", "gpu", {"total_layout": "rows"})


@pytest.mark.parametrize("orientation,ordering", PREPROCESSING + NEW_PREPROCESSING[:1])
@pytest.mark.parametrize("algorithm", GPU_ALGORITHMS)
def test_vertex_of_degree_beyond_100000(algorithm, orientation, ordering):
    """The "hub" graph: one vertex of degree 150,000."""
    per_node = _check_all_modes("hub", algorithm, orientation, ordering)
    assert per_node[-1] >= 150_000 - 1


@pytest.mark.parametrize("parameters", [{"block_degree": 2}, {"block_degree": 40, "chunk": 3}, {}])
def test_hash_tables_that_overflow(parameters):
    """A clique on the ids 0, 32, 64, ...: every id falls in one bucket of a warp's
    table and in few of a block's, so buckets fill and pass entries on (linear
    probing); block_degree 2 sends every vertex to the block tables."""
    cp = _cupy()
    k = 300
    ids = 32 * np.arange(k)
    lo, hi = np.triu_indices(k, 1)
    src, dst = ids[lo], ids[hi]
    n = int(ids[-1]) + 1
    cpu = prepare_undirected(src, dst, n, orientation="id", ordering="none")
    gpu = prepare_undirected(cp.asarray(src), cp.asarray(dst), n, orientation="id", ordering="none")
    assert count(gpu, "hash", "total", "gpu", parameters).total == k * (k - 1) * (k - 2) // 6
    for mode in ("per_node", "per_edge"):
        got = getattr(count(gpu, "hash", mode, "gpu", parameters), mode)
        np.testing.assert_array_equal(_host(got), getattr(count(cpu, "merge", mode), mode))


def test_hash_parameters_are_checked():
    cp = _cupy()
    src, dst = rmat_edges(8, seed=3, device="gpu")
    prepared = prepare_undirected(src, dst, 1 << 8, orientation="degree", ordering="none")
    with pytest.raises(ValueError, match="block_degree must be at least 2"):
        count(prepared, "hash", "total", "gpu", {"block_degree": 1})
    with pytest.raises(ValueError, match="chunk must be at least 1"):
        count(prepared, "hash", "total", "gpu", {"chunk": 0})
    cp.cuda.get_current_stream().synchronize()


def _wedges_left_by_hubs(prepared, kind="total"):
    """The wedges each hub block of ``prepared`` of ``kind`` (``"total"``,
    ``"per_node"`` or ``"weighted"``) left to the wedge count."""
    derived = prepared.derived
    return [
        derived[key][1]
        for key in derived
        if isinstance(key, tuple) and key[0] == "wedge_hub" and key[3] == kind
    ]


def test_a_wedge_count_checks_memory_for_the_bitmap_it_has_read(monkeypatch):
    # Once the layout is known, the memory check asks for the bitmap's own rows, not
    # the most it may take: a block the pool holds then passes without the driver.
    from nx_tricount.algorithms.wedge_layout import triangle_words
    from nx_tricount.gpu import runtime

    cupy = _cupy()
    src, dst = rmat_edges(12, seed=3)
    n = 1 << 12
    p = prepare_undirected(cupy.asarray(src), cupy.asarray(dst), n, orientation="id", ordering="degree")
    asked, check = [], runtime.check_memory

    def recording(needed, what):
        if "the bitmap" in what:
            asked.append(needed)
        return check(needed, what)

    monkeypatch.setattr(runtime, "check_memory", recording)
    first, second = (count(p, "wedge", "total", "gpu").total for _ in range(2))
    rows = p.derived["wedge_bitmap", wedge.BITMAP_ROWS].rows
    expected = count(prepare_undirected(src, dst, n, orientation="id", ordering="degree"), "merge", "total")
    assert first == second == expected.total and 0 < rows < n
    assert len(asked) == 2 and asked[1] <= asked[0] - 4 * (triangle_words(n) - triangle_words(rows))


@pytest.mark.parametrize("bitmap_rows", [None, 100])
@pytest.mark.parametrize("hub_words", [0, 1, 4, 2**40])
@pytest.mark.parametrize("name", ["rmat14", "barabasi_albert", "hub"])
def test_wedge_hub_block(name, hub_words, bitmap_rows, monkeypatch):
    """The hub block (totals, per-node counts and weighted sums AND bitmap rows for
    the vertices it takes off the wedges) gives the exact total and per-node counts,
    and the weighted sums (integer values exact, float ones to rounding), for every
    split: none (0), the default (4), every vertex of the bitmap that has a wedge
    (2**40), with bitmap rows that end inside a word (100). It runs whenever it
    takes a wedge off. The bitmap takes a row for each vertex of out-degree 4 or more
    here, so that Barabási–Albert (out-degrees below the default 32) builds one too."""
    monkeypatch.setattr(wedge, "HUB_MIN_SHARE", 0.0)
    monkeypatch.setattr(wedge_layout, "BITMAP_MIN_OUT_DEGREE", 4)
    cp = _cupy()
    src, dst, n = _graph(name)
    expected = _cpu_reference(name, "id", "degree", 0)
    gpu = prepare_undirected(cp.asarray(src), cp.asarray(dst), n, orientation="id", ordering="degree")
    parameters = {"hub_words": hub_words}
    if bitmap_rows is not None:
        parameters["bitmap_rows"] = bitmap_rows
    assert count(gpu, "wedge", "total", "gpu", parameters).total == expected["total"]
    per_node = count(gpu, "wedge", "per_node", "gpu", parameters).per_node
    np.testing.assert_array_equal(_host(per_node), expected["per_node"])
    (int_values, int_sums), (float_values, float_sums) = expected["weighted"]
    for values, sums in ((int_values, int_sums), (float_values, float_sums)):
        weighted = prepare_undirected(
            cp.asarray(src),
            cp.asarray(dst),
            n,
            orientation="id",
            ordering="degree",
            values=cp.asarray(values),
        )
        result = _host(count(weighted, "wedge", "per_node", "gpu", parameters).per_node)
        np.testing.assert_allclose(result, sums, rtol=1e-12, atol=0)
        if values is int_values:
            np.testing.assert_array_equal(result, sums)
    if hub_words == 2**40 and name != "hub":  # "hub": its one vertex of high degree has no out-arcs
        assert _wedges_left_by_hubs(gpu)[0] < gpu.derived["wedge_count"]
        assert _wedges_left_by_hubs(gpu, "per_node")[0] < gpu.derived["wedge_count"]
        assert _wedges_left_by_hubs(weighted, "weighted")[0] < weighted.derived["wedge_count"]


@pytest.mark.parametrize("hub_words", [1, 4, 64, 2**40])
@pytest.mark.parametrize("name", ["rmat14", "barabasi_albert"])
def test_the_hub_block_takes_the_vertices_its_rule_names(name, hub_words, monkeypatch):
    """A vertex of the bitmap with a wedge (per node: of out-degree at most
    HUB_NODE_DEGREE) is a hub vertex exactly when the words of its out-neighbours'
    rows, ``words - (w - first_row) // 32`` each, are fewer than ``hub_words`` per
    wedge: what the GPU decides (a warp's sum, or a bound that spares it) is that
    rule, for every vertex."""
    monkeypatch.setattr(wedge_layout, "BITMAP_MIN_OUT_DEGREE", 4)
    cp = _cupy()
    src, dst, n = _graph(name)
    p = prepare_undirected(cp.asarray(src), cp.asarray(dst), n, orientation="id", ordering="degree")
    kernel_types = wedge_layout.plain_kernel_types(p)
    _, _, layout = wedge_layout.gpu_layout(p, wedge.BITMAP_ROWS, kernel_types)
    indptr, indices, rows = _host(p.indptr), _host(p.indices).astype(np.int64), _host(p.rows)
    d = np.diff(indptr)
    wedges = d * (d - 1) // 2
    first, words = layout.first_row, (layout.rows + 31) // 32
    in_bitmap = rows >= first
    terms = words - (indices[in_bitmap] - first) // 32
    row_words = np.bincount(rows[in_bitmap], weights=terms, minlength=n).astype(np.int64)
    candidate = (np.arange(n) >= first) & (wedges > 0)
    for kind, most in (("total", n), ("per_node", wedge_hub.HUB_NODE_DEGREE)):
        hub = candidate & (d <= most) & (row_words // hub_words < wedges)
        hub_prefix, left = wedge_hub.gpu_hub_prefix(p, layout, hub_words, kind, kernel_types)
        np.testing.assert_array_equal(np.diff(_host(hub_prefix)), np.where(hub, 0, wedges))
        assert left == int(wedges[~hub].sum())
        if hub_words == 4 and name == "rmat14":  # both answers among the bitmap's vertices
            assert hub.any() and (candidate & ~hub).any()


@pytest.mark.parametrize("name", ["rmat14", "barabasi_albert", "hub"])
@pytest.mark.parametrize("largest", [None, 100])
def test_wedge_bitmap_rows_are_the_heavy_vertices(name, largest):
    """The bitmap takes the last ids, as many as there are vertices of out-degree 32
    or more, at most ``bitmap_rows``: none on Barabási–Albert (out-degrees below 32),
    whose closing arcs are searched in short cached lists; the count stays exact."""
    cp = _cupy()
    src, dst, n = _graph(name)
    gpu = prepare_undirected(cp.asarray(src), cp.asarray(dst), n, orientation="id", ordering="degree")
    parameters = {} if largest is None else {"bitmap_rows": largest}
    assert (
        count(gpu, "wedge", "total", "gpu", parameters).total
        == _cpu_reference(name, "id", "degree", 0)["total"]
    )
    out_degree = _host(cp.diff(gpu.indptr))
    limit = wedge.BITMAP_ROWS if largest is None else largest
    heavy = int((out_degree >= wedge_layout.BITMAP_MIN_OUT_DEGREE).sum())
    layout = gpu.derived[("wedge_bitmap", limit)]
    assert layout.rows == min(limit, heavy) and layout.first_row == n - layout.rows
    if name == "barabasi_albert":
        assert layout.rows == 0 and out_degree.max() < wedge_layout.BITMAP_MIN_OUT_DEGREE
    if name == "rmat14":
        assert layout.rows > 0


def test_wedge_hub_block_on_a_clique(monkeypatch):
    """K_200 with every vertex in the bitmap and every one a hub vertex: the counts
    come from the hub block alone (every vertex counts as a heavy one, so the bitmap
    spans all of them). Per node, vertices of out-degree above HUB_NODE_DEGREE keep
    their wedges; weighted sums take every vertex too."""
    monkeypatch.setattr(wedge_layout, "BITMAP_MIN_OUT_DEGREE", 0)
    cp = _cupy()
    k = 200
    lo, hi = np.triu_indices(k, 1)
    gpu = prepare_undirected(cp.asarray(lo), cp.asarray(hi), k, orientation="id", ordering="degree")
    parameters = {"hub_words": 2**40}
    total = count(gpu, "wedge", "total", "gpu", parameters).total
    assert total == k * (k - 1) * (k - 2) // 6
    assert _wedges_left_by_hubs(gpu) == [0]
    per_node = count(gpu, "wedge", "per_node", "gpu", parameters).per_node
    np.testing.assert_array_equal(_host(per_node), np.full(k, (k - 1) * (k - 2) // 2))
    assert _wedges_left_by_hubs(gpu, "per_node") == [0]
    values = np.random.default_rng(5).random(lo.size)
    cpu = prepare_undirected(lo, hi, k, orientation="id", ordering="degree", values=values)
    expected = count(cpu, "merge", "per_node").per_node
    weighted = prepare_undirected(
        cp.asarray(lo), cp.asarray(hi), k, orientation="id", ordering="degree", values=cp.asarray(values)
    )
    sums = _host(count(weighted, "wedge", "per_node", "gpu", parameters).per_node)
    np.testing.assert_allclose(sums, expected, rtol=1e-12, atol=0)
    assert _wedges_left_by_hubs(weighted, "weighted") == [0]
    monkeypatch.setattr(wedge_hub, "HUB_NODE_DEGREE", 150)  # vertices 0..48 keep theirs
    fresh = prepare_undirected(cp.asarray(lo), cp.asarray(hi), k, orientation="id", ordering="degree")
    per_node = count(fresh, "wedge", "per_node", "gpu", parameters).per_node
    np.testing.assert_array_equal(_host(per_node), np.full(k, (k - 1) * (k - 2) // 2))
    assert _wedges_left_by_hubs(fresh, "per_node")[0] == sum(d * (d - 1) // 2 for d in range(151, k))
    with pytest.raises(ValueError, match="hub_words must be between 0 and"):
        count(gpu, "wedge", "total", "gpu", {"hub_words": -1})


def _graphs_for_functions():
    """A weighted undirected and a weighted directed NetworkX graph."""
    G = load_graph("wikipedia_chameleon.txt.gz").copy()
    rng = np.random.default_rng(4)
    for u, v in G.edges:
        G.edges[u, v]["weight"] = float(rng.integers(1, 9))
    D = nx.gnp_random_graph(300, 0.05, seed=8, directed=True)
    for u, v in D.edges:
        D.edges[u, v]["weight"] = float(rng.integers(1, 9))
    return G, D


def _on_both_devices(function, graph, algorithm, **kwargs):
    run = functools.partial(function, graph, backend="tricount", algorithm=algorithm, **kwargs)
    return run(device="gpu"), run(device="cpu")


@pytest.mark.parametrize("algorithm", GPU_ALGORITHMS)
def test_networkx_counts_gpu_equal_cpu(algorithm):
    G, D = _graphs_for_functions()
    gpu, cpu = _on_both_devices(nx.triangles, G, algorithm)
    assert gpu == cpu
    for graph in (G, D):
        gpu, cpu = _on_both_devices(nx.transitivity, graph, algorithm)
        assert gpu == cpu


@pytest.mark.parametrize("algorithm", PAIR_TRANSITIVITY)
@pytest.mark.parametrize("orientation,ordering", PREPROCESSING + NEW_PREPROCESSING)
def test_directed_transitivity_on_arc_pairs_equals_successor_lists(algorithm, orientation, ordering):
    # Merge and wedge count transitive triples per triangle of the arc pairs
    # (kernels/transitive.cu, kernels/wedge.cu: wedge_transitive, its bitmap rows
    # under ascending-degree ids); the CPU engine's hash counts per arc of the
    # successor lists. R-MAT arcs, a third of them also reversed.
    import nx_tricount

    src, dst = rmat_edges(13, seed=13)
    back = np.random.default_rng(13).random(src.size) < 1 / 3
    src, dst = np.concatenate([src, dst[back]]), np.concatenate([dst, src[back]])
    expected = nx.transitivity(
        nx_tricount.from_edges(src, dst, directed=True), algorithm="hash", device="cpu"
    )
    cupy = _cupy()
    D = nx_tricount.from_edges(cupy.asarray(src), cupy.asarray(dst), directed=True)
    settings = dict(algorithm=algorithm, orientation=orientation, ordering=ordering, device="gpu")
    assert nx.transitivity(D, **settings) == expected
    small = nx.gnp_random_graph(120, 0.08, seed=5, directed=True)
    assert nx.transitivity(small, backend="tricount", **settings) == nx.transitivity(small)


@pytest.mark.parametrize(
    "parameters",
    [{}, {"hub_words": 0}, {"hub_words": 64}, {"bitmap_rows": 0}, {"bitmap_rows": 512}, {"spread": 1}],
)
def test_wedge_transitive_triples_equal_merge(parameters):
    # The bitmap's two planes, the hub block's four ANDs and the searched wedges
    # each count some of the triangles: every mix gives merge's count on the host.
    import nx_tricount
    from nx_tricount.algorithms import transitive
    from nx_tricount.classes import preparation

    cupy = _cupy()
    src, dst = rmat_edges(13, seed=7)
    back = np.random.default_rng(7).random(src.size) < 1 / 2
    src, dst = np.concatenate([src, dst[back]]), np.concatenate([dst, src[back]])
    host = nx_tricount.from_edges(src, dst, directed=True)
    expected = transitive.count_cpu(preparation.directions_csr(host, "id", "degree", "cpu"), "merge")
    G = nx_tricount.from_edges(cupy.asarray(src), cupy.asarray(dst), directed=True)
    prepared = preparation.directions_csr(G, "id", "degree", "gpu")
    assert transitive.count_gpu(prepared, "wedge", **parameters) == expected
    if not parameters:  # the default counts the hubs by their rows
        derived = prepared.derived
        (hub_wedges,) = [
            value[1] for key, value in derived.items() if isinstance(key, tuple) and key[0] == "wedge_hub"
        ]
        assert hub_wedges <= (1 - wedge.HUB_MIN_SHARE) * derived["wedge_count"]


@pytest.mark.parametrize("parameters", [{}, {"bitmap_rows": 0}, {"bitmap_rows": 512}, {"spread": 1}])
def test_wedge_small_values_equal_host(parameters):
    # A directed graph's pair counts (1 or 2) go to the per-node arc counters, the
    # closing pairs' from the bitmap's two planes or by search: the host's sums.
    import nx_tricount
    from nx_tricount.classes import preparation

    cupy = _cupy()
    src, dst = rmat_edges(13, seed=9)
    back = np.random.default_rng(9).random(src.size) < 1 / 2
    src, dst = np.concatenate([src, dst[back]]), np.concatenate([dst, src[back]])
    host = preparation.directed_pairs_csr(
        nx_tricount.from_edges(src, dst, directed=True), "id", "degree", "cpu"
    )
    expected = count(host.prepared, "merge", "per_node").per_node
    G = nx_tricount.from_edges(cupy.asarray(src), cupy.asarray(dst), directed=True)
    prepared = preparation.directed_pairs_csr(G, "id", "degree", "gpu").prepared
    assert prepared.derived[wedge.SMALL_VALUES]
    got = count(prepared, "wedge", "per_node", "gpu", parameters).per_node
    assert got.dtype == np.int64
    np.testing.assert_array_equal(_host(got), expected)


@pytest.mark.parametrize("algorithm", GPU_ALGORITHMS)
def test_networkx_clustering_gpu_equals_cpu(algorithm):
    G, D = _graphs_for_functions()
    for graph in (G, D):
        gpu, cpu = _on_both_devices(nx.clustering, graph, algorithm)
        assert gpu == cpu
        gpu, cpu = _on_both_devices(nx.average_clustering, graph, algorithm)
        assert gpu == cpu
        # Weighted sums add floats in another order: equal up to rounding.
        gpu, cpu = _on_both_devices(nx.clustering, graph, algorithm, weight="weight")
        assert gpu.keys() == cpu.keys()
        assert all(gpu[v] == pytest.approx(cpu[v], rel=1e-12) for v in gpu)


def test_memory_does_not_grow_across_calls():
    cp = _cupy()
    src, dst = rmat_edges(14, seed=3, device="gpu")
    prepared = prepare_undirected(src, dst, 1 << 14, orientation="id", ordering="degree")
    pool = cp.get_default_memory_pool()
    for algorithm in GPU_ALGORITHMS:
        for mode in ("total", "per_node", "per_edge"):
            count(prepared, algorithm, mode, "gpu")
    used = pool.used_bytes()
    for _ in range(3):
        for algorithm in GPU_ALGORITHMS:
            for mode in ("total", "per_node", "per_edge"):
                count(prepared, algorithm, mode, "gpu")
    assert pool.used_bytes() == used


@pytest.mark.parametrize("algorithm", GPU_ALGORITHMS)
def test_memory_check_fires_before_counting(algorithm, monkeypatch):
    from nx_tricount.gpu import runtime as gpu
    from nx_tricount.gpu.errors import GPUMemoryError

    cp = _cupy()
    src, dst = rmat_edges(10, seed=3, device="gpu")
    prepared = prepare_undirected(src, dst, 1 << 10, orientation="id", ordering="degree")
    monkeypatch.setattr(gpu, "free_memory", lambda: 1000)
    monkeypatch.setattr(gpu, "_pooled_bytes", lambda: 0)  # else the pool's free blocks suffice
    with pytest.raises(GPUMemoryError, match=r"needs about [\d,]+ bytes.*device='cpu'"):
        count(prepared, algorithm, "per_node", "gpu")
    assert isinstance(GPUMemoryError("x"), MemoryError)
    cp.cuda.get_current_stream().synchronize()


def test_a_memory_check_within_the_pools_free_blocks_does_not_ask_the_driver(monkeypatch):
    from nx_tricount.gpu import runtime as gpu
    from nx_tricount.gpu.errors import GPUMemoryError

    cp = _cupy()
    block = cp.empty(1 << 20, dtype=np.uint8)
    del block  # back to the pool, free
    pooled = gpu._pooled_bytes()
    assert pooled >= 1 << 20

    def asked():
        raise AssertionError("the driver was asked")

    monkeypatch.setattr(gpu, "free_memory", asked)
    gpu.check_memory(pooled, "the test's blocks")
    monkeypatch.setattr(gpu, "free_memory", lambda: pooled)
    with pytest.raises(GPUMemoryError, match="the test's blocks"):
        gpu.check_memory(pooled + 1, "the test's blocks")


def test_gpu_errors_become_python_exceptions():
    from nx_tricount.gpu.errors import GPUKernelError, gpu_errors

    cp = _cupy()
    with pytest.raises(GPUKernelError, match="CUDA error while testing"), gpu_errors("testing"):
        raise cp.cuda.runtime.CUDARuntimeError(700)


def test_cupy_stable_argsort_keeps_ties_in_order():
    """The degree ordering relies on it (preprocess.ordering)."""
    cp = _cupy()
    degree = cp.asarray(np.random.default_rng(0).integers(0, 5, size=100_000))
    order = _host(cp.argsort(degree, kind="stable"))
    np.testing.assert_array_equal(order, np.argsort(_host(degree), kind="stable"))
