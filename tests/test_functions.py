"""The four NetworkX functions through the backend equal NetworkX itself:
values, types (int vs float, no numpy scalars), node order and errors, on the
CPU: for every algorithm with its own preprocessing and with ids kept, and for
every orientation x ordering with the CPU's default algorithm. (Every algorithm
x orientation x ordering x mode is checked against brute force in
test_algorithms.py and test_datasets.py; here the subject is the shaping of
the counts into NetworkX's results.)"""

import itertools
import math

import networkx as nx
import pytest

import nx_tricount
from graphs import directed_graphs, undirected_graphs, weighted_graphs
from nx_tricount.metadata.catalog import ALGORITHMS as DECLARED
from nx_tricount.metadata.config import CHOICES

ALGORITHMS = [a for a in CHOICES["algorithm"] if a != "auto"]
_COMBINATIONS = sorted(
    {(a, DECLARED[a].orientation, DECLARED[a].ordering) for a in ALGORITHMS}
    | {(a, "id", "none") for a in ALGORITHMS}
    | set(itertools.product(["hash"], CHOICES["orientation"][1:], CHOICES["ordering"][1:]))
)
SETTINGS = [dict(algorithm=a, orientation=o, ordering=r, device="cpu") for a, o, r in _COMBINATIONS]
SETTING_IDS = ["-".join(s[k] for k in ("algorithm", "orientation", "ordering")) for s in SETTINGS]

UNDIRECTED = undirected_graphs()
WEIGHTED = weighted_graphs()
DIRECTED = directed_graphs()


@pytest.fixture(autouse=True)
def _no_conversion_cache():
    with nx.config(cache_converted_graphs=False):
        yield


def assert_same(ours, expected, *, rel=0.0):
    """Equal values of the same Python types, dicts in the same key order."""
    if isinstance(expected, dict):
        assert type(ours) is dict
        assert list(ours) == list(expected)
        for key in expected:
            assert_same(ours[key], expected[key], rel=rel)
        return
    assert type(ours) is type(expected), (ours, expected)
    if rel and isinstance(expected, float):
        assert math.isclose(ours, expected, rel_tol=rel, abs_tol=1e-15), (ours, expected)
    else:
        assert ours == expected


@pytest.mark.parametrize("settings", SETTINGS, ids=SETTING_IDS)
@pytest.mark.parametrize("name", list(UNDIRECTED))
def test_undirected(name, settings):
    G = UNDIRECTED[name]
    call = dict(backend="tricount", **settings)
    assert_same(nx.triangles(G, **call), nx.triangles(G))
    assert_same(nx.clustering(G, **call), nx.clustering(G))
    assert_same(nx.transitivity(G, **call), nx.transitivity(G))
    if len(G):
        assert_same(nx.average_clustering(G, **call), nx.average_clustering(G))
    if any(nx.clustering(G).values()):
        assert_same(
            nx.average_clustering(G, count_zeros=False, **call),
            nx.average_clustering(G, count_zeros=False),
        )


@pytest.mark.parametrize("settings", SETTINGS, ids=SETTING_IDS)
@pytest.mark.parametrize("name", list(WEIGHTED))
def test_weighted_clustering(name, settings):
    G = WEIGHTED[name]
    call = dict(backend="tricount", **settings)
    assert_same(nx.clustering(G, weight="weight", **call), nx.clustering(G, weight="weight"), rel=1e-12)
    assert_same(
        nx.average_clustering(G, weight="weight", **call),
        nx.average_clustering(G, weight="weight"),
        rel=1e-12,
    )
    nodes = list(G)[::3]
    assert_same(
        nx.clustering(G, nodes, weight="weight", **call),
        nx.clustering(G, nodes, weight="weight"),
        rel=1e-12,
    )


@pytest.mark.parametrize("settings", SETTINGS, ids=SETTING_IDS)
@pytest.mark.parametrize("name", list(DIRECTED))
def test_directed(name, settings):
    G = DIRECTED[name]
    call = dict(backend="tricount", **settings)
    assert_same(nx.clustering(G, **call), nx.clustering(G))
    assert_same(nx.clustering(G, weight="weight", **call), nx.clustering(G, weight="weight"), rel=1e-12)
    assert_same(nx.transitivity(G, **call), nx.transitivity(G))
    if len(G):
        assert_same(nx.average_clustering(G, **call), nx.average_clustering(G))


def test_nodes_argument():
    G = UNDIRECTED["string_labels"]
    call = dict(backend="tricount")
    some = ["v3", "missing", "v1", "v3", "v0"]
    for func in (nx.triangles, nx.clustering):
        assert_same(func(G, "v5", **call), func(G, "v5"))
        assert_same(func(G, some, **call), func(G, some))
        assert_same(func(G, [], **call), func(G, []))
        assert_same(func(G, iter(some), **call), func(G, iter(some)))
    assert_same(nx.average_clustering(G, some, **call), nx.average_clustering(G, some))
    # Containers that are also nodes are single nodes.
    grid = UNDIRECTED["grid_tuple_labels"]
    assert_same(nx.triangles(grid, (1, 2), **call), nx.triangles(grid, (1, 2)))


def test_float_keys_match_integer_nodes():
    G = nx.complete_graph(4)
    assert_same(nx.triangles(G, [1.0, 2], backend="tricount"), nx.triangles(G, [1.0, 2]))


def test_node_errors_match_networkx():
    G = nx.complete_graph(4)
    with pytest.raises(nx.NetworkXError, match="Node 99 is not in the graph"):
        nx.triangles(G, 99, backend="tricount")
    with pytest.raises(nx.NetworkXError, match="not a valid node"):
        nx.clustering(G, [[0]], backend="tricount")


def test_multigraph():
    M = nx.MultiGraph(nx.complete_graph(4))
    M.add_edges_from([(0, 1), (1, 2), (3, 3)])  # parallel edges and a self-loop
    assert_same(nx.triangles(M, backend="tricount"), nx.triangles(M))
    message = "not implemented for multigraph type"
    for call in (
        lambda: nx.triangles(M, [0], backend="tricount"),
        lambda: nx.triangles(M, 0, backend="tricount"),
        lambda: nx.clustering(M, backend="tricount"),
        lambda: nx.average_clustering(M, backend="tricount"),
        lambda: nx.transitivity(M, backend="tricount"),
        lambda: nx.clustering(nx.MultiDiGraph(M), backend="tricount"),
    ):
        with pytest.raises(nx.NetworkXNotImplemented, match=message):
            call()


def test_directed_triangles_rejected():
    with pytest.raises(nx.NetworkXNotImplemented, match="directed"):
        nx.triangles(nx.DiGraph([(0, 1)]), backend="tricount")


def test_zero_division_cases():
    for G, kwargs in [
        (nx.Graph(), {}),
        (nx.complete_graph(3), {"nodes": []}),
        (nx.path_graph(4), {"count_zeros": False}),
    ]:
        with pytest.raises(ZeroDivisionError):
            nx.average_clustering(G, backend="tricount", **kwargs)
        with pytest.raises(ZeroDivisionError):
            nx.average_clustering(G, **kwargs)
    zero = nx.complete_graph(3)
    nx.set_edge_attributes(zero, 0, "weight")
    with pytest.raises(ZeroDivisionError):
        nx.clustering(zero, weight="weight")
    with pytest.raises(ZeroDivisionError):
        nx.clustering(zero, weight="weight", backend="tricount")


def test_single_node_average_is_an_error_as_in_networkx():
    G = nx.complete_graph(3)
    with pytest.raises(AttributeError):
        nx.average_clustering(G, 0)
    with pytest.raises(AttributeError):
        nx.average_clustering(G, 0, backend="tricount")


def test_signed_edge_triangle():
    # NetworkX's test_triangle_and_signed_edge expects exactly -1/3.
    G = nx.cycle_graph(3)
    G.add_edge(0, 1, weight=-1)
    G.add_edge(3, 0, weight=0)
    assert nx.clustering(G, 0, weight="weight", backend="tricount") == pytest.approx(-1 / 3)


def test_direct_calls_on_trigraph_and_networkx_graph():
    G = UNDIRECTED["erdos_renyi"]
    tg = nx_tricount.from_networkx(G)
    assert_same(nx_tricount.triangles(tg), nx.triangles(G))
    assert_same(nx_tricount.triangles(G), nx.triangles(G))
    assert_same(nx_tricount.transitivity(tg), nx.transitivity(G))
    # A TriGraph input dispatches to tricount without backend=.
    assert_same(nx.clustering(tg), nx.clustering(G))


def test_repeated_calls_reuse_preprocessing():
    tg = nx_tricount.from_networkx(UNDIRECTED["rmat"])
    first = nx_tricount.triangles(tg, algorithm="merge", orientation="degree", ordering="none")
    cached = dict(tg._prepared)
    second = nx_tricount.triangles(tg, algorithm="merge", orientation="degree", ordering="none")
    assert first == second
    assert tg._prepared == cached


def test_first_dicts_with_few_some_and_many_nonzero_values():
    # A graph's first per-node dict: below SPARSE_DICT nonzero values a dict of zeros
    # updated at them; else the coefficients below SPARSE_COEFFICIENTS set into a list
    # of int 0s, above it through an object array (node_selection). NetworkX's dict,
    # in its order, each way, with the graph's ids or with labels.
    from nx_tricount.nxapi.node_selection import SPARSE_COEFFICIENTS, SPARSE_DICT

    few = nx.path_graph(100)
    few.add_edge(0, 2)  # 3 of 100 nodes on a triangle
    some = nx.path_graph(33)
    some.add_edge(0, 2)  # 3 of 33
    many = nx.complete_graph(6)
    many.add_edge(5, 6)
    for G, below in ((few, (True, True)), (some, (False, True)), (many, (False, False))):
        share = sum(1 for t in nx.triangles(G).values() if t) / len(G)
        assert (share < SPARSE_DICT, share < SPARSE_COEFFICIENTS) == below
        labelled = nx.relabel_nodes(G, {v: f"n{v}" for v in G})
        for H in (G, labelled):
            for function in (nx.triangles, nx.clustering):
                assert_same(function(H, backend="tricount", device="cpu"), function(H))


def test_a_graphs_later_dicts_are_networkxs_and_their_callers_own():
    # Each per-node dict is a copy of the graph's kept dict of zeros, updated at
    # the nonzero nodes: the second call's too, whatever the caller did to the first.
    G = nx.Graph([("a", "b"), ("b", "c"), ("c", "a"), ("c", (1, 2)), ((1, 2), 3.5)])
    G.add_nodes_from(["lonely", (7,)])
    T = nx_tricount.from_networkx(G)
    for function in (nx.triangles, nx.clustering, nx.square_clustering):
        first = function(T, backend="tricount")
        assert_same(first, function(G))
        first["a"], first["lonely"] = -1, -1
        first.pop("b")
        assert_same(function(T, backend="tricount"), function(G))
        assert_same(function(T, ["c", "lonely"], backend="tricount"), function(G, ["c", "lonely"]))
