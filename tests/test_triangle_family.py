"""square_clustering, generalized_degree, all_triangles and k_truss through the
backend equal NetworkX's own: values and their types, node order, Counters,
each triangle once with its nodes in NetworkX's order, the k-truss's nodes,
edges and attributes, and NetworkX's errors. On generated graphs of the four
classes, the real graphs of tests/data, partitioned plans, and hypothesis's
graphs and ``nodes=`` forms; on the CPU (tests/test_gpu_triangle_family.py
runs the GPU)."""

from collections import Counter

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import nx_tricount
import strategies as S
from conftest import SMALL_DATASETS, load_graph
from graphs import directed_graphs, undirected_graphs
from nx_tricount.algorithms import squares
from nx_tricount.metadata.catalog import ALGORITHMS, FUNCTIONS
from nx_tricount.nxapi.interface import BackendInterface
from nx_tricount.quantities import family

#: Every algorithm with its own preprocessing (ids kept, reordered before and
#: after orienting), and the orderings that relabel after orienting.
SETTINGS = [dict(algorithm=a, device="cpu") for a in ALGORITHMS] + [
    dict(algorithm="hash", ordering=o, device="cpu") for o in ("a-order", "collective")
]
IDS = [f"{s['algorithm']}-{s.get('ordering', 'auto')}" for s in SETTINGS]

UNDIRECTED = undirected_graphs()
DIRECTED = directed_graphs()
MULTI = {
    "multi_karate": nx.MultiGraph(nx.karate_club_graph()),
    "multi_parallel_loops": nx.MultiGraph([(0, 1), (0, 1), (1, 2), (2, 0), (2, 2), (2, 3), (3, 0)]),
    "multidi": nx.MultiDiGraph([(0, 1), (0, 1), (1, 2), (2, 0), (0, 2), (2, 3), (3, 3)]),
}
ALL_CLASSES = {**UNDIRECTED, **{f"di_{k}": G for k, G in DIRECTED.items()}, **MULTI}


@pytest.fixture(autouse=True)
def _no_conversion_cache():
    with nx.config(cache_converted_graphs=False):
        yield


def assert_same(ours, expected):
    """Equal values of the same types; dicts with their keys in the same order
    (not Counters: NetworkX's follow its adjacency dicts, which a conversion
    does not keep)."""
    assert type(ours) is type(expected), (ours, expected)
    if isinstance(expected, dict) and not isinstance(expected, Counter):
        assert list(ours) == list(expected)
        for key in expected:
            assert_same(ours[key], expected[key])
    else:
        assert ours == expected


def triangle_sets(triangles):
    return Counter(frozenset(t) for t in triangles)


def triangle_tuples(triangles):
    """The triples as NetworkX yields them: each triangle's nodes in its order
    (the order of the triangles is free)."""
    return Counter(map(tuple, triangles))


def shuffled_insertions(G, seed):
    """G rebuilt with its nodes, its edges and each edge's ends in a shuffled
    order: each node's neighbour dict is in another order than G's nodes."""
    rng = np.random.default_rng(seed)
    nodes, edges = list(G), list(G.edges())
    H = G.__class__()
    H.add_nodes_from(nodes[i] for i in rng.permutation(len(nodes)))
    flips = rng.random(len(edges)) < 0.5
    H.add_edges_from((v, u) if flip else (u, v) for (u, v), flip in zip(edges[::-1], flips))
    return H


def assert_same_graph(H, expected):
    """Nodes in order, edges and every attribute, as NetworkX's comparison of a
    backend's graph does (NETWORKX_TEST_BACKEND)."""
    assert list(H) == list(expected)
    assert H.graph == expected.graph
    assert dict(H.nodes(data=True)) == dict(expected.nodes(data=True))
    assert H._adj == expected._adj


# ------------------------------------------------------------ generated graphs


@pytest.mark.parametrize("settings", SETTINGS, ids=IDS)
@pytest.mark.parametrize("name", list(ALL_CLASSES))
def test_square_clustering_matches_networkx(name, settings):
    G = ALL_CLASSES[name]
    assert_same(nx.square_clustering(G, backend="tricount", **settings), nx.square_clustering(G))
    some = list(G)[::3] + ["absent"]
    assert_same(nx.square_clustering(G, some, backend="tricount", **settings), nx.square_clustering(G, some))
    if len(G):
        node = list(G)[-1]
        assert_same(nx.square_clustering(G, node, backend="tricount"), nx.square_clustering(G, node))


@pytest.mark.parametrize("settings", SETTINGS, ids=IDS)
@pytest.mark.parametrize("name", list(UNDIRECTED))
def test_generalized_degree_matches_networkx(name, settings):
    G = UNDIRECTED[name]
    ours, expected = nx.generalized_degree(G, backend="tricount", **settings), nx.generalized_degree(G)
    assert_same(ours, expected)
    assert all(type(c) is Counter for c in ours.values())
    some = iter(list(G)[1::2] + [object()])
    assert_same(nx.generalized_degree(G, some, backend="tricount"), nx.generalized_degree(G, list(G)[1::2]))
    for node in list(G)[:3]:
        assert_same(nx.generalized_degree(G, node, backend="tricount"), nx.generalized_degree(G, node))


@pytest.mark.parametrize("settings", SETTINGS, ids=IDS)
@pytest.mark.parametrize("name", [*UNDIRECTED, *(k for k in MULTI if k != "multidi")])
def test_all_triangles_matches_networkx(name, settings):
    G = ALL_CLASSES[name]
    ours = list(nx.all_triangles(G, backend="tricount", **settings))
    assert triangle_tuples(ours) == triangle_tuples(nx.all_triangles(G))
    assert max(triangle_sets(ours).values(), default=1) == 1
    members = list(G)[::4]
    ours = list(nx.all_triangles(G, members + members[:1], backend="tricount", **settings))
    assert triangle_tuples(ours) == triangle_tuples(nx.all_triangles(G, members))


#: nbunch in NetworkX's forms: None, a node, containers with repeats and nodes not in G.
NBUNCHES = {
    "none": lambda G: None,
    "node": lambda G: list(G)[len(G) // 2],
    "list": lambda G: list(G)[::3],
    "repeats_and_absent": lambda G: list(G)[1::4] + ["absent"] + list(G)[1::8] + [-1],
    "generator": lambda G: (v for v in reversed(list(G)[::5])),
    "set": lambda G: set(list(G)[2::3]),
    "every_node": lambda G: list(G)[::-1],
    "empty": lambda G: [],
}


@pytest.mark.parametrize("nbunch", list(NBUNCHES))
@pytest.mark.parametrize(
    "name", ["erdos_renyi", "karate", "string_labels", "grid_tuple_labels", "multi_karate"]
)
def test_all_triangles_nodes_in_networkxs_order(name, nbunch):
    """Each triple as NetworkX yields it, on graphs whose neighbour dicts are in
    another order than their nodes (NetworkX ranks nbunch's neighbours by its
    neighbour dicts): through NetworkX, the direct call, and the frame."""
    G = shuffled_insertions(ALL_CLASSES[name], seed=len(name))
    make = NBUNCHES[nbunch]
    expected = triangle_tuples(nx.all_triangles(G, make(G)))
    assert triangle_tuples(nx.all_triangles(G, make(G), backend="tricount")) == expected
    assert triangle_tuples(nx_tricount.all_triangles(G, make(G), device="cpu")) == expected
    frame = nx_tricount.all_triangles(G, make(G), as_frame=True, device="cpu")
    assert triangle_tuples(frame.itertuples(index=False, name=None)) == expected


def test_all_triangles_order_of_a_neighbour_dict():
    """NetworkX yields (0, 12, 3) here: 12 comes before 3 in 0's neighbour dict."""
    G = nx.Graph()
    G.add_nodes_from([0, 3, 12])
    G.add_edges_from([(0, 12), (0, 3), (3, 12)])
    for make in (lambda: 0, lambda: [0], lambda: [0, 0, 99], lambda: iter([0])):
        expected = list(nx.all_triangles(G, make()))
        assert expected == [(0, 12, 3)]
        assert list(nx.all_triangles(G, make(), backend="tricount")) == expected
        assert list(nx_tricount.all_triangles(G, make())) == expected


def test_all_triangles_of_a_cached_conversion():
    """The dispatcher's cached conversion keeps G's neighbour order, and is
    dropped when G changes."""
    G = shuffled_insertions(nx.gnp_random_graph(30, 0.3, seed=3), seed=4)
    with nx.config(cache_converted_graphs=True, warnings_to_ignore={"cache"}):
        for _ in range(2):
            ours = nx.all_triangles(G, list(G)[:4], backend="tricount")
            assert triangle_tuples(ours) == triangle_tuples(nx.all_triangles(G, list(G)[:4]))
        first = list(G)[0]
        G.remove_edges_from(list(G.edges(first))[:3])
        G.add_edges_from((first, v) for v in list(G)[-3:])
        ours = nx.all_triangles(G, list(G)[:4], backend="tricount")
        assert triangle_tuples(ours) == triangle_tuples(nx.all_triangles(G, list(G)[:4]))


def test_all_triangles_of_a_trigraph_are_those_of_its_networkx_graph():
    """A TriGraph stands for the NetworkX graph its rows build (``to_networkx``,
    ``nx.from_pandas_edgelist``): its neighbour dicts follow the rows."""
    import pandas as pd

    rng = np.random.default_rng(5)
    ends = rng.integers(0, 25, (2, 150)).astype(str)
    df = pd.DataFrame({"source": ends[0], "target": ends[1]})
    M = nx_tricount.from_networkx(nx.MultiGraph(shuffled_insertions(nx.karate_club_graph(), seed=6)))
    cases = [(nx_tricount.from_frame(df), nx.from_pandas_edgelist(df)), (M, nx_tricount.to_networkx(M))]
    for ours, graph in cases:
        for make in NBUNCHES.values():
            expected = triangle_tuples(nx.all_triangles(graph, make(graph)))
            assert triangle_tuples(nx_tricount.all_triangles(ours, make(graph))) == expected
            assert triangle_tuples(nx.all_triangles(ours, make(graph))) == expected


@pytest.mark.parametrize("settings", SETTINGS, ids=IDS)
@pytest.mark.parametrize("name", list(UNDIRECTED))
def test_k_truss_matches_networkx(name, settings):
    G = UNDIRECTED[name].copy()
    G.remove_edges_from(list(nx.selfloop_edges(G)))
    for k in (-1, 2, 3, 4, 5, 7, 2.5, float("inf"), float("nan")):
        H = nx.k_truss(G, k, backend="tricount", **settings)
        assert type(H) is type(G)  # NetworkX's dispatcher gives a TriGraph: G's class back
        assert_same_graph(H, nx.k_truss(G, k))
        T = nx_tricount.from_networkx(G)
        assert isinstance(nx.k_truss(T, k, **settings), nx_tricount.TriGraph)


def test_k_truss_under_automatic_dispatch_returns_networkx_graphs(caplog, monkeypatch):
    """A drop-in script gets NetworkX's graph back, not the backend's."""
    # Dispatch regardless of should_run's cost model, which may leave a small graph to NetworkX.
    monkeypatch.setattr(nx_tricount.k_truss, "should_run", lambda args, kwargs: True)
    # Not NetworkX 3.6's context manager: it leaves the k_truss key behind, and a later
    # ``nx.config(backend_priority=[...])`` then raises TypeError.
    monkeypatch.setattr(nx.config.backend_priority, "k_truss", ["tricount"], raising=False)
    G = nx.les_miserables_graph()
    with caplog.at_level("DEBUG", logger="networkx"):
        H = nx.k_truss(G, 5)
    assert "Using backend 'tricount' for call to 'k_truss'" in caplog.text
    assert type(H) is nx.Graph
    assert_same_graph(H, nx.k_truss(G, 5, backend="networkx"))


def test_k_truss_keeps_every_attribute_and_the_class():
    class Labelled(nx.Graph):
        pass

    G = Labelled(nx.karate_club_graph())  # node attribute 'club', edge 'weight', graph 'name'
    G.graph["note"] = [1, 2]
    G.add_node("alone", colour="red")
    G.add_edge(0, "x", kind="pendant")
    for k in (2, 4, 5):
        H = nx_tricount.k_truss(G, k, device="cpu")
        assert type(H) is Labelled
        assert_same_graph(H, nx.k_truss(G, k))
    H.graph["note"].append(3)
    assert G.graph["note"] == [1, 2, 3]  # shallow copies of the attributes, as NetworkX's G.copy()


def test_k_truss_of_an_edge_frame_with_repeated_rows():
    src = np.array([0, 1, 1, 2, 2, 0, 3, 3, 1, 0, 4])
    dst = np.array([1, 0, 2, 1, 0, 2, 0, 1, 3, 3, 0])
    T = nx_tricount.from_edges(src, dst)
    G = nx.Graph(zip(src.tolist(), dst.tolist()))
    for k in (3, 4, 5):
        H = nx_tricount.k_truss(T, k, device="cpu")
        assert sorted(H.label_list()) == sorted(nx.k_truss(G, k))
        assert set(map(frozenset, nx_tricount.to_networkx(H).edges)) == set(
            map(frozenset, nx.k_truss(G, k).edges)
        )


@pytest.mark.parametrize("name", ["grid_tuple_labels", "string_labels", "shuffled_int_labels"])
def test_all_triangles_as_frame(name):
    G = UNDIRECTED[name]
    frame = nx_tricount.all_triangles(G, as_frame=True, device="cpu")
    assert list(frame.columns) == ["u", "v", "w"]
    rows = list(frame.itertuples(index=False, name=None))
    assert triangle_tuples(rows) == triangle_tuples(nx.all_triangles(G))
    assert rows == list(nx_tricount.all_triangles(G, device="cpu"))
    empty = nx_tricount.all_triangles(nx.path_graph(3), as_frame=True)
    assert list(empty.columns) == ["u", "v", "w"] and len(empty) == 0
    with pytest.raises(TypeError, match="as_frame"):
        nx.all_triangles(G, backend="tricount", as_frame=True)


def test_all_triangles_come_in_bounded_batches(monkeypatch):
    G = nx.complete_graph(40)  # 9,880 triangles
    monkeypatch.setattr(family, "FIRST_BATCH", 64)
    monkeypatch.setattr(family, "LARGEST_BATCH", 1024)
    T = nx_tricount.from_networkx(G)
    plan = nx_tricount.make_plan(T, device="cpu")
    sizes = []
    found = []
    for batch in family.triangle_batches(T, plan, np.arange(T.n)):
        sizes.append(batch.shape[1])
        found += map(tuple, batch.T.tolist())
    assert sizes[0] <= 64 and max(sizes) <= 1024 and len(sizes) > 10
    assert triangle_sets(found) == triangle_sets(nx.all_triangles(G))
    first = next(nx_tricount.all_triangles(G, device="cpu"))
    assert len(first) == 3 and all(type(x) is int for x in first)


def test_all_triangles_nbunch_objects_and_errors():
    G = nx.complete_graph(4)
    for nbunch in ([1.0], 1.0, [True, 2], [2, 1.0, 1, True], np.int64(3)):
        ours = list(nx.all_triangles(G, nbunch, backend="tricount"))
        expected = list(nx.all_triangles(G, nbunch))
        # The first node is nbunch's own object (its first occurrence), as NetworkX yields it.
        assert triangle_tuples(tuple(map(repr, t)) for t in ours) == triangle_tuples(
            tuple(map(repr, t)) for t in expected
        )
    bad_nbunches = (
        lambda: 99,
        lambda: 5.5,
        lambda: [[1]],
        lambda: [1, 99, [1]],
        lambda: (v for v in [0, {}]),
    )
    for bad in bad_nbunches:
        with pytest.raises(nx.NetworkXError) as raised:
            next(nx.all_triangles(G, bad()))
        triangles = nx.all_triangles(G, bad(), backend="tricount")  # NetworkX checks at the first triple
        with pytest.raises(nx.NetworkXError) as ours:
            next(triangles)
        assert str(ours.value) == str(raised.value)


def test_errors_match_networkx():
    D, M = nx.DiGraph([(0, 1), (1, 2), (2, 0)]), nx.MultiGraph([(0, 1), (1, 2), (2, 0)])
    L = nx.cycle_graph(3)
    L.add_edge(0, 0)
    cases = [
        (nx.generalized_degree, D, ()),
        (nx.generalized_degree, M, ()),
        (nx.k_truss, D, (3,)),
        (nx.k_truss, M, (3,)),
        (nx.k_truss, L, (3,)),
    ]
    for f, G, args in cases:
        with pytest.raises(nx.NetworkXNotImplemented) as expected:
            f(G, *args)
        direct = getattr(nx_tricount, f.__name__)
        for call in (lambda: f(G, *args, backend="tricount"), lambda: direct(G, *args)):
            with pytest.raises(nx.NetworkXNotImplemented) as ours:
                call()
            assert str(ours.value) == str(expected.value)
    with pytest.raises(nx.NetworkXNotImplemented, match="directed"):
        nx_tricount.all_triangles(D)
    G = nx.path_graph(4)
    for f in (nx.square_clustering, nx.generalized_degree):
        for bad in (99, [[1]]):
            with pytest.raises(nx.NetworkXError) as expected:
                f(G, bad)
            with pytest.raises(nx.NetworkXError) as ours:
                f(G, bad, backend="tricount")
            assert str(ours.value) == str(expected.value)
    with pytest.raises(TypeError):
        nx_tricount.square_clustering([(0, 1)])


def _error_of(call):
    """What a call gives: "ok", or its exception's class and message."""
    try:
        result = call()
        if hasattr(result, "__next__"):
            list(result)
    except Exception as exc:  # noqa: BLE001  (compared with NetworkX's below)
        return type(exc), str(exc)
    return "ok"


@pytest.mark.parametrize("name", sorted(FUNCTIONS.keys() - {"from_pandas_edgelist"}))
def test_every_graph_kind_gets_networkxs_answer(name):
    """Each function on each of the four classes (and a self-loop, and a
    ``nodes`` argument): NetworkX's error, the same class and message, or a
    result, called through NetworkX, directly, and directly on a TriGraph. A
    MultiDiGraph is both: NetworkX says which it checks first."""
    extra = (3,) if name == "k_truss" else ()
    nodes = [(), ([0],)] if name not in ("transitivity", "k_truss") else [()]
    base = nx.cycle_graph(3)
    base.add_edge(0, 0)
    for kind in (nx.Graph, nx.MultiGraph, nx.DiGraph, nx.MultiDiGraph):
        G = kind(base)
        for more in nodes:
            args = (*extra, *more)
            expected = _error_of(lambda: getattr(nx, name)(G, *args, backend="networkx"))
            direct = getattr(nx_tricount, name)
            T = nx_tricount.from_networkx(G)
            for call in (
                lambda: getattr(nx, name)(G, *args, backend="tricount"),
                lambda: direct(G, *args),
                lambda: direct(T, *args),
            ):
                assert _error_of(call) == expected, (kind.__name__, args)


# ------------------------------------------------------- memory and partitions


def test_square_clustering_one_row_of_counters(monkeypatch):
    """A budget below one row still counts, one vertex at a time; a hub with
    hubs around it takes no more memory than any vertex."""
    G = nx.star_graph(60)
    G.add_edges_from((i, j) for i in range(1, 61, 3) for j in range(i + 1, 61, 7))
    monkeypatch.setattr(family, "SQUARE_MEMORY", 1)
    assert_same(nx.square_clustering(G, backend="tricount", device="cpu"), nx.square_clustering(G))
    assert squares.row_bytes(100) == 800


@pytest.mark.parametrize("name", ["karate", "rmat", "self_loops"])
def test_partitioned_plans(name):
    G = UNDIRECTED[name]
    H = G.copy()
    H.remove_edges_from(list(nx.selfloop_edges(H)))
    with nx.config.backends.tricount(partitions=2, device="cpu"):
        assert_same(nx.generalized_degree(G, backend="tricount"), nx.generalized_degree(G))
        ours = triangle_tuples(nx.all_triangles(G, backend="tricount"))
        assert ours == triangle_tuples(nx.all_triangles(G))
        for k in (3, 4, 5):
            assert_same_graph(nx.k_truss(H, k, backend="tricount"), nx.k_truss(H, k))


# ------------------------------------------------------------------ real graphs


@pytest.mark.parametrize("name", SMALL_DATASETS)
def test_real_graphs_match_networkx(name):
    G = load_graph(name)
    assert_same(nx.square_clustering(G, backend="tricount", device="cpu"), nx.square_clustering(G))
    assert_same(nx.generalized_degree(G, backend="tricount", device="cpu"), nx.generalized_degree(G))
    assert triangle_tuples(nx.all_triangles(G, backend="tricount")) == triangle_tuples(nx.all_triangles(G))
    for k in (4, 7):
        assert_same_graph(nx.k_truss(G, k, backend="tricount"), nx.k_truss(G, k))


# ------------------------------------------------------------------- hypothesis


def _outcome(call):
    try:
        return True, call()
    except Exception as exc:  # noqa: BLE001 - the exception type is compared
        return False, type(exc)


@settings(
    max_examples=400,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_properties_match_networkx(data):
    spec = data.draw(S.graphs())
    nodes = data.draw(S.nodes_arguments(spec.build()))
    config = dict(data.draw(S.configurations()), device="cpu")
    k = data.draw(st.integers(-1, 6))
    note(f"{spec}\n{nodes}\nconfig = {config}\nk = {k}")

    def both(f, *args, shape=lambda r: r):
        ours = _outcome(lambda: shape(f(spec.build(), *args(), backend="tricount", **config)))
        return ours, _outcome(lambda: shape(f(spec.build(), *args())))

    for f in (nx.square_clustering, nx.generalized_degree):
        ours, expected = both(f, lambda: (nodes.make(),))
        assert ours[0] == expected[0] and (ours[0] or ours[1] is expected[1]), (ours, expected)
        if ours[0]:
            assert_same(ours[1], expected[1])
    ours, expected = both(nx.all_triangles, lambda: (nodes.make(),), shape=triangle_tuples)
    assert ours == expected
    ours, expected = both(nx.k_truss, lambda: (k,), shape=BackendInterface.convert_to_nx)
    assert ours[0] == expected[0], (ours, expected)
    if ours[0]:
        assert_same_graph(ours[1], expected[1])
    else:
        assert ours[1] is expected[1]


def test_settings_reach_every_function():
    """An invalid setting is a ValueError at the call, for each function."""
    G = nx.karate_club_graph()
    for f, args in (
        (nx.square_clustering, ()),
        (nx.generalized_degree, ()),
        (nx.all_triangles, ()),
        (nx.k_truss, (3,)),
    ):
        with pytest.raises(ValueError, match="algorithm"):
            f(G, *args, backend="tricount", algorithm="nope")
