"""Every CPU algorithm x orientation x ordering x mode against brute force."""

import functools
import itertools

import networkx as nx
import numpy as np
import pytest

from graphs import cancelling_terms
from nx_tricount.algorithms import count
from nx_tricount.algorithms.wedge import wedge_pair
from nx_tricount.algorithms.wedge_layout import wedge_prefix
from nx_tricount.io.generators import chung_lu_edges, copying_edges, grid_edges, rmat_edges
from nx_tricount.metadata.config import CHOICES
from nx_tricount.preprocess import prepare_arcs, prepare_undirected

ALGORITHMS = [a for a in CHOICES["algorithm"] if a != "auto"]
PREPROCESSING = list(itertools.product(CHOICES["orientation"][1:], CHOICES["ordering"][1:]))


def _edge_lists():
    rng = np.random.default_rng(0)
    star_src = np.zeros(300, dtype=np.int64)
    star_dst = np.arange(1, 301, dtype=np.int64)
    extra = rng.integers(1, 301, size=(400, 2))
    return {
        "rmat": (*rmat_edges(10, 8, seed=1), 1 << 10),
        "grid_diagonals": (*grid_edges(15, 12, 0.3, seed=2), 180),
        "power_law": (*chung_lu_edges(400, 8, 2.2, seed=3), 400),
        "copying": (*copying_edges(400, 6, 0.3, seed=4), 400),
        "star_plus_chords": (
            np.concatenate([star_src, extra[:, 0]]),
            np.concatenate([star_dst, extra[:, 1]]),
            301,
        ),
        "dense": (*np.nonzero(rng.random((40, 40)) < 0.5), 40),
        "no_edges": (np.zeros(0, np.int64), np.zeros(0, np.int64), 5),
    }


EDGE_LISTS = _edge_lists()


def _networkx(src, dst, n):
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(zip(np.asarray(src).tolist(), np.asarray(dst).tolist()))
    G.remove_edges_from(nx.selfloop_edges(G))
    return G


@pytest.mark.parametrize("orientation,ordering", PREPROCESSING)
@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("name", list(EDGE_LISTS))
def test_modes_match_networkx(name, algorithm, orientation, ordering):
    src, dst, n = EDGE_LISTS[name]
    G = _networkx(src, dst, n)
    expected = nx.triangles(G)
    p = prepare_undirected(src, dst, n, orientation=orientation, ordering=ordering)
    total = count(p, algorithm, "total")
    assert total.total == sum(expected.values()) // 3
    assert type(total.total) is int
    per_node = count(p, algorithm, "per_node").per_node
    assert per_node.dtype == np.int64
    assert per_node.tolist() == [expected[v] for v in range(n)]
    per_edge = count(p, algorithm, "per_edge")
    assert per_edge.per_edge.size == G.number_of_edges()
    for u, v, support in zip(
        per_edge.edge_src.tolist(), per_edge.edge_dst.tolist(), per_edge.per_edge.tolist()
    ):
        assert support == len(set(G[u]) & set(G[v]))


@pytest.mark.parametrize("short_rows", [True, False])
@pytest.mark.parametrize("name", ["rmat", "power_law", "star_plus_chords", "dense"])
def test_hash_per_node_credits_with_and_without_a_buffer(monkeypatch, name, short_rows):
    # Rows of at most STORE_ROW_VERTICES take every lookup's 0 or 1, longer ones
    # buffer the hits first: both give NetworkX's counts.
    from nx_tricount.algorithms import hash as hashing

    src, dst, n = EDGE_LISTS[name]
    monkeypatch.setattr(hashing, "STORE_ROW_VERTICES", n if short_rows else n - 1)
    expected = nx.triangles(_networkx(src, dst, n))
    p = prepare_undirected(src, dst, n, orientation="degree", ordering="none")
    assert hashing.count_cpu(p, "per_node").tolist() == [expected[v] for v in range(n)]


@functools.cache
def _weighted_case():
    """An R-MAT edge list with random values, and the brute-force per-vertex
    sums of triangle value products over its deduplicated edges (last wins)."""
    src, dst, n = EDGE_LISTS["rmat"]
    values = np.random.default_rng(3).uniform(0.5, 2.0, size=src.size)
    weight = {}
    for u, v, w in zip(src.tolist(), dst.tolist(), values.tolist()):
        if u != v:
            weight[(min(u, v), max(u, v))] = w
    G = nx.Graph(list(weight))
    expected = np.zeros(n)
    for (a, b), w_ab in weight.items():
        for c in set(G[a]) & set(G[b]):
            if c > b:
                x = w_ab * weight[(b, c)] * weight[(a, c)]
                expected[[a, b, c]] += x
    return src, dst, n, values, expected


@pytest.mark.parametrize("orientation,ordering", PREPROCESSING)
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_weighted_per_node_sums_products(algorithm, orientation, ordering):
    src, dst, n, values, expected = _weighted_case()
    p = prepare_undirected(src, dst, n, orientation=orientation, ordering=ordering, values=values)
    got = count(p, algorithm, "per_node").per_node
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, expected, rtol=1e-12)


@pytest.mark.parametrize("orientation,ordering", PREPROCESSING)
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_weighted_sums_are_compensated(algorithm, orientation, ordering):
    # Exact terms that cancel: only a compensated sum gets the hub's 1000 * 2**-60.
    src, dst, n, values, expected = cancelling_terms()
    p = prepare_undirected(src, dst, n, orientation=orientation, ordering=ordering, values=values)
    got = count(p, algorithm, "per_node").per_node
    np.testing.assert_array_equal(got, expected)


def _random_arcs(seed, n, m):
    """A random directed edge list on ``n`` vertices (with 2-cycles, self-loops and
    duplicates) and its transitive triples ``(u, v, w)``: arcs u->v, u->w, v->w."""
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    D = nx.DiGraph(zip(src.tolist(), dst.tolist()))
    D.remove_edges_from(nx.selfloop_edges(D))
    triples = [(u, v, w) for u in D for v in D[u] for w in D[u] if w != v and D.has_edge(v, w)]
    return src, dst, D, triples


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_arcs_total_counts_transitive_triples(algorithm):
    src, dst, _, triples = _random_arcs(4, 60, 500)
    assert count(prepare_arcs(src, dst, 60), algorithm, "total").total == len(triples)


@pytest.mark.parametrize("algorithm", [a for a in ALGORITHMS if a != "wedge"])
def test_arcs_per_node_and_per_edge_credit_transitive_triples(algorithm):
    # Each transitive triple counts at its three vertices and on its three arcs.
    # (wedge credits a wedge closed both ways once per node and per edge, on the
    # CPU as in kernels/wedge.cu; its total counts both.)
    src, dst, D, triples = _random_arcs(5, 50, 400)
    per_node, per_arc = np.zeros(50, dtype=np.int64), dict.fromkeys(D.edges, 0)
    for u, v, w in triples:
        per_node[[u, v, w]] += 1
        for arc in ((u, v), (u, w), (v, w)):
            per_arc[arc] += 1
    p = prepare_arcs(src, dst, 50)
    assert count(p, algorithm, "per_node").per_node.tolist() == per_node.tolist()
    got = count(p, algorithm, "per_edge")
    arcs = zip(got.edge_src.tolist(), got.edge_dst.tolist())
    assert dict(zip(arcs, got.per_edge.tolist())) == per_arc


def test_wedge_pair_enumerates_row_major_upper_triangle():
    for d in range(2, 40):
        pairs = [wedge_pair(k, d) for k in range(d * (d - 1) // 2)]
        assert pairs == [(i, j) for i in range(d) for j in range(i + 1, d)]


def test_wedge_pair_is_exact_for_huge_degrees():
    d = 3_000_000_000  # C(d, 2) ~ 4.5e18, near the int64 limit
    last = d * (d - 1) // 2 - 1
    assert wedge_pair(0, d) == (0, 1)
    assert wedge_pair(d - 2, d) == (0, d - 1)
    assert wedge_pair(d - 1, d) == (1, 2)
    assert wedge_pair(last, d) == (d - 2, d - 1)


def test_wedge_prefix_is_64_bit():
    indptr = np.array([0, 100_000, 200_000, 200_001], dtype=np.int64)
    prefix = wedge_prefix(indptr)
    assert prefix.dtype == np.int64
    assert prefix.tolist() == [0, 4_999_950_000, 9_999_900_000, 9_999_900_000]


def test_unknown_algorithm_and_mode():
    p = prepare_undirected(np.array([0]), np.array([1]), 2, orientation="id", ordering="none")
    with pytest.raises(ValueError, match="unknown algorithm 'nope'"):
        count(p, "nope", "total")
    with pytest.raises(ValueError, match="unknown mode 'everything'"):
        count(p, "merge", "everything")


@pytest.mark.parametrize("uv", [1, 2, 3])
@pytest.mark.parametrize("ua", [1, 2, 3])
@pytest.mark.parametrize("va", [1, 2, 3])
def test_transitive_triples_of_one_triangle_by_brute_force(uv, ua, va):
    # The triangle's arcs as NetworkX's DiGraph has them: bit 0 along u->v, u->a,
    # v->a, bit 1 against it; its transitive triples x->y, x->z, y->z over the
    # ordered pairs of successors, as nx.transitivity counts them.
    from nx_tricount.algorithms.transitive import transitive_triples

    u, v, a = 0, 1, 2
    D = nx.DiGraph()
    for (x, y), state in (((u, v), uv), ((u, a), ua), ((v, a), va)):
        if state & 1:
            D.add_edge(x, y)
        if state & 2:
            D.add_edge(y, x)
    expected = sum(1 for x in D for y in D[x] for z in D[x] if y != z and D.has_edge(y, z))
    assert transitive_triples(uv, ua, va) == expected
