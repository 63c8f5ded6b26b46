"""The bitmap algorithm on the cases its 32-id slices make special: neighbours on
either side of a slice boundary, lists over many slices, full words, ids spread
over a wide range, and cyclic arcs. The vertex ids are kept (ordering "none") so
that the slices are the ones each test builds."""

import itertools

import networkx as nx
import numpy as np
import pytest

from nx_tricount.algorithms import count
from nx_tricount.preprocess import ORIENTATIONS, Prepared, prepare_arcs, prepare_undirected


def _check_against_networkx(edges, n, orientation):
    """Every mode of bitmap on the undirected ``edges`` equals NetworkX's counts."""
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(edges)
    src, dst = np.array(edges).T
    p = prepare_undirected(src, dst, n, orientation=orientation, ordering="none")
    expected = nx.triangles(G)
    assert count(p, "bitmap", "total").total == sum(expected.values()) // 3
    assert count(p, "bitmap", "per_node").per_node.tolist() == [expected[v] for v in range(n)]
    per_edge = count(p, "bitmap", "per_edge")
    arcs = zip(per_edge.edge_src.tolist(), per_edge.edge_dst.tolist())
    assert per_edge.per_edge.tolist() == [len(G[u].keys() & G[v].keys()) for u, v in arcs]


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_neighbours_on_slice_boundaries(orientation):
    # Ids at both ends of slices 0 to 4; the clique puts every pair of them in
    # one neighbour list, so words meet at bits 0 and 31 and across slices.
    ids = [0, 1, 30, 31, 32, 33, 62, 63, 64, 65, 95, 96, 127, 128, 159]
    edges = list(itertools.combinations(ids, 2))
    # Triangles whose third vertex is the only neighbour in its slice.
    edges += [(31, 200), (32, 200), (63, 200), (64, 200), (200, 224)]
    _check_against_networkx(edges, 225, orientation)


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_lists_over_many_slices(orientation):
    # Hubs with neighbours every 3, 5 and 7 ids up to 3000 (about 100 slices
    # each), which meet in some slices and not in others; rungs w - (w + 15)
    # close triangles with the hubs across slice boundaries.
    edges = [(0, w) for w in range(3, 3000, 3)]
    edges += [(1, w) for w in range(5, 3000, 5)]
    edges += [(2, w) for w in range(7, 3000, 7)]
    edges += [(w, w + 15) for w in range(3, 2985, 3)]
    edges += [(0, 1), (1, 2), (0, 2)]
    _check_against_networkx(edges, 3000, orientation)


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_dense_neighbourhoods_fill_words(orientation):
    # A 96-clique fills three whole words per list; a half-full word and an
    # isolated slice join it through a few extra vertices.
    edges = list(itertools.combinations(range(96), 2))
    edges += [(w, 130) for w in range(100, 130, 2)] + [(100, 102), (60, 130), (60, 100)]
    _check_against_networkx(edges, 131, orientation)


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_ids_spread_over_5000(orientation):
    # 300 vertices among 5000 ids: most slices hold one vertex or none.
    rng = np.random.default_rng(7)
    ids = np.sort(rng.choice(5000, size=300, replace=False))
    pairs = rng.integers(0, ids.size, size=(3000, 2))
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    edges = sorted({(min(a, b), max(a, b)) for a, b in ids[pairs].tolist()})
    _check_against_networkx(edges, 5000, orientation)


def test_arcs_with_cycles_match_merge():
    # A directed graph with 2-cycles and 3-cycles over slice boundaries: every
    # mode counts transitive triples, as merge does.
    rng = np.random.default_rng(8)
    ids = np.array([0, 31, 32, 33, 63, 64, 65, 96, 127, 128, 500, 511, 512, 1000])
    pairs = rng.integers(0, ids.size, size=(120, 2))
    src, dst = ids[pairs[:, 0]], ids[pairs[:, 1]]
    D = nx.DiGraph(zip(src.tolist(), dst.tolist()))
    D.remove_edges_from(nx.selfloop_edges(D))
    assert any(len(c) == 3 for c in nx.simple_cycles(D, length_bound=3))
    p = prepare_arcs(src, dst, 1001)
    expected = sum(1 for u in D for v in D[u] for w in D[u] if w != v and D.has_edge(v, w))
    assert count(p, "bitmap", "total").total == expected
    for mode in ("per_node", "per_edge"):
        got = getattr(count(p, "bitmap", mode), mode)
        assert got.tolist() == getattr(count(p, "merge", mode), mode).tolist()


def test_weighted_sums_at_slice_boundaries_match_merge():
    ids = [0, 31, 32, 63, 64, 95, 96, 300]
    src, dst = np.array(list(itertools.combinations(ids, 2))).T
    values = np.random.default_rng(9).uniform(0.5, 2.0, size=src.size)
    for orientation in ORIENTATIONS:
        p = prepare_undirected(src, dst, 301, orientation=orientation, ordering="none", values=values)
        got = count(p, "bitmap", "per_node").per_node
        np.testing.assert_allclose(got, count(p, "merge", "per_node").per_node, rtol=1e-12)


def test_64_bit_vertex_ids():
    # Graphs of 2^31 vertices or more get int64 ids (index_dtype); the same
    # small CSR with int64 arrays takes that path.
    edges = list(itertools.combinations([0, 31, 32, 63, 64, 200], 2))
    src, dst = np.array(edges).T
    p = prepare_undirected(src, dst, 201, orientation="id", ordering="none")
    wide = Prepared(p.n, p.indptr, p.indices.astype(np.int64), p.rows.astype(np.int64), ascending=p.ascending)
    for mode in ("total", "per_node", "per_edge"):
        narrow_counts, wide_counts = count(p, "bitmap", mode), count(wide, "bitmap", mode)
        assert np.array_equal(getattr(wide_counts, mode), getattr(narrow_counts, mode))
    assert count(wide, "bitmap", "total").total == 20
