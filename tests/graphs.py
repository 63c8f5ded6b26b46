"""Small generated graphs covering NetworkX's corner cases (all seeded)."""

import networkx as nx
import numpy as np

from nx_tricount.io.generators import rmat_edges


def _rmat(scale, seed):
    src, dst = rmat_edges(scale, 8, seed=seed)
    G = nx.Graph()
    G.add_edges_from(zip(src.tolist(), dst.tolist()))
    return G


def _with_self_loops():
    G = nx.complete_graph(5)
    G.add_edges_from([(0, 0), (3, 3), (7, 7)])  # node 7 has only a self-loop
    G.add_edges_from([(1, 5), (5, 6), (6, 1)])
    return G


def _string_labels():
    G = nx.gnp_random_graph(40, 0.2, seed=3)
    return nx.relabel_nodes(G, {v: f"v{(v * 7) % 40}" for v in G})


def _shuffled_ints():
    """Integer labels that are not 0..n-1 in order (ids differ from labels)."""
    G = nx.Graph()
    rng = np.random.default_rng(5)
    nodes = rng.permutation(100).tolist()[:50]
    G.add_nodes_from(nodes)
    for _ in range(200):
        u, v = rng.choice(nodes, 2)
        G.add_edge(int(u), int(v))
    return G


def undirected_graphs():
    """Name -> undirected nx.Graph."""
    isolated = nx.empty_graph(6)
    isolated.add_edges_from([(1, 2), (2, 3), (3, 1)])
    return {
        "empty": nx.Graph(),
        "one_node": nx.empty_graph(1),
        "isolated_nodes": isolated,
        "complete": nx.complete_graph(7),
        "star": nx.star_graph(9),
        "path": nx.path_graph(6),
        "grid_tuple_labels": nx.grid_2d_graph(5, 4),
        "triangular_lattice": nx.triangular_lattice_graph(4, 5),
        "erdos_renyi": nx.gnp_random_graph(80, 0.12, seed=1),
        "rmat": _rmat(9, seed=2),
        "self_loops": _with_self_loops(),
        "string_labels": _string_labels(),
        "shuffled_int_labels": _shuffled_ints(),
        "karate": nx.karate_club_graph(),
    }


def weighted_graphs():
    """Name -> undirected graph with a 'weight' attribute on some edges."""
    rng = np.random.default_rng(11)
    graphs = {}
    G = nx.gnp_random_graph(50, 0.2, seed=4)
    for u, v in G.edges():
        if rng.random() < 0.7:  # the rest have no weight (counts as 1)
            G[u][v]["weight"] = float(rng.uniform(0.1, 5.0))
    graphs["missing_weights"] = G
    H = nx.gnp_random_graph(50, 0.2, seed=5)
    for u, v in H.edges():
        H[u][v]["weight"] = float(rng.uniform(0.5, 3.0))
    for u, v in list(H.edges())[::5]:
        H[u][v]["weight"] = -H[u][v]["weight"]
    graphs["negative_weights"] = H
    Z = nx.gnp_random_graph(40, 0.25, seed=6)
    for i, (u, v) in enumerate(Z.edges()):
        Z[u][v]["weight"] = 0 if i % 4 == 0 else i % 7 + 1  # ints, some zero
    graphs["zero_weights"] = Z
    L = nx.complete_graph(6)
    nx.set_edge_attributes(L, 2.5, "weight")
    L.add_edge(0, 0, weight=10.0)  # the self-loop sets max_weight
    graphs["self_loop_max_weight"] = L
    return graphs


def directed_graphs():
    """Name -> nx.DiGraph, with reciprocal edges and self-loops."""
    D = nx.gnp_random_graph(60, 0.1, seed=7, directed=True)
    D.add_edges_from([(v, u) for u, v in list(D.edges())[::3]])  # reciprocal pairs
    D.add_edges_from([(0, 0), (5, 5)])
    W = D.copy()
    rng = np.random.default_rng(8)
    for u, v in W.edges():
        if rng.random() < 0.8:
            W[u][v]["weight"] = float(rng.uniform(0.2, 4.0))
    dag = nx.DiGraph([(0, 1), (0, 2), (1, 2), (2, 3), (3, 0)])
    return {
        "random_reciprocal": D,
        "random_weighted": W,
        "small_cycle_dag": dag,
        "empty": nx.DiGraph(),
        "complete": nx.complete_graph(5, create_using=nx.DiGraph),
    }


def cancelling_terms():
    """An edge list whose per-vertex sums of triangle value products cancel: a hub
    (vertex 0) in triangles with terms +1 (twenty), then 1,000 of 2**-60, then -1
    (twenty), in vertex-id order. All are powers of two, so every product is exact
    and the exact sum is known. A plain float64 sum in id order gives 0 at the hub
    (the small terms meet a partial sum of 20 and vanish); a compensated one keeps
    them, in any order.

    Returns ``(src, dst, n, values, expected)``: ``expected[v]`` is the exact sum
    at ``v`` (hub: 1000 * 2**-60; each chord's ends: their one term).
    """
    terms = [1.0] * 20 + [2.0**-60] * 1000 + [-1.0] * 20
    src, dst, values = [], [], []
    expected = [1000 * 2.0**-60]
    for t in terms:
        a = len(expected)  # the chord a -- a + 1 closes the triangle 0, a, a + 1
        src += [0, 0, a]
        dst += [a, a + 1, a + 1]
        values += [1.0, 1.0, t]
        expected += [t, t]
    return (
        np.asarray(src, dtype=np.int64),
        np.asarray(dst, dtype=np.int64),
        len(expected),
        np.asarray(values),
        np.asarray(expected),
    )
