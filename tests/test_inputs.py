"""Inputs a new user hands the backend, with NetworkX itself as
the oracle: ``nodes=`` forms, NaN/inf and non-numeric weights, bad environment
settings, misspelt settings, ``from_pandas_edgelist``'s inputs and ``from_edges``'
limits. Every expected value or exception is NetworkX's own, computed here."""

import math
from decimal import Decimal
from fractions import Fraction

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nx_tricount
from nx_tricount.metadata.config import CHOICES
from nx_tricount.preprocess import host_ops, simple_graph
from nx_tricount.preprocess.edge_values import largest_kept_value, max_edge_value
from subprocesses import run_python


@pytest.fixture(autouse=True)
def _no_conversion_cache():
    with nx.config(cache_converted_graphs=False):
        yield


def outcome(call):
    """``("ok", result)`` or ``("raised", type, message)``."""
    try:
        return ("ok", call())
    except Exception as exc:  # noqa: BLE001  (the outcome is what is compared)
        return ("raised", type(exc), str(exc))


def _close(a, b, rel):
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    return type(a) is type(b) and (a == b or a == pytest.approx(b, rel=rel, abs=0))


def assert_same_outcome(ours, theirs, *, rel=1e-12, message=True):
    """Same result (keys in order, value types, values) or same exception."""
    assert ours[0] == theirs[0], (ours, theirs)
    if ours[0] == "raised":
        assert ours[1] is theirs[1], (ours, theirs)
        if message:
            assert ours[2] == theirs[2], (ours, theirs)
        return
    a, b = ours[1], theirs[1]
    if isinstance(b, dict):
        assert isinstance(a, dict) and list(a) == list(b), (a, b)
        assert all(_close(a[k], b[k], rel) for k in b), (a, b)
    else:
        assert _close(a, b, rel), (a, b)


# --- nodes= ------------------------------------------------------------------


def _int_graph():
    G = nx.complete_graph(4)
    G.add_edges_from([(3, 4), (4, 5)])
    return G


def NODES_FORMS(n):
    """``nodes`` forms over the node labels ``n(0), n(1), ...``."""
    return {
        "none": lambda: None,
        "one": lambda: n(1),
        "one-float": lambda: 1.0,
        "one-numpy-int": lambda: np.int64(1),
        "one-true": lambda: True,
        "list": lambda: [n(2), n(0), n(9)],
        "set": lambda: {n(0), n(4)},
        "dict": lambda: {n(4): "x", n(0): "y"},
        "generator": lambda: (v for v in [n(5), n(0), n(9)]),
        "range": lambda: range(1, 4),
        "tuple": lambda: (n(0), n(3)),
        "string": lambda: "ab",
        "numpy-0d": lambda: np.array(n(0)),
        "numpy-0d-float": lambda: np.array(1.0),
        "numpy-1d": lambda: np.array([n(0), n(1)]),
        "numpy-one": lambda: np.array([n(0)]),
        "numpy-empty": lambda: np.array([], dtype=np.int64),
        "numpy-2d": lambda: np.array([[n(0), n(1)]]),
        "series": lambda: pd.Series([n(3), n(1)]),
        "index": lambda: pd.Index([n(1), n(3)]),
        "absent": lambda: n(9),
        "absent-float": lambda: 0.5,
        "absent-nan": lambda: float("nan"),
        "absent-list": lambda: [n(9)],
        "empty-list": lambda: [],
        "unhashable-member": lambda: [n(0), [n(1)]],
        "unhashable-array-member": lambda: [np.array(n(0))],
    }


FUNCTIONS = ["triangles", "clustering", "average_clustering"]
LABELS = {"ints": lambda i: i, "labels": lambda i: "abcdefghij"[i]}


@pytest.mark.parametrize("labels", list(LABELS))
@pytest.mark.parametrize("form", list(NODES_FORMS(LABELS["ints"])))
@pytest.mark.parametrize("name", FUNCTIONS)
def test_nodes_forms_match_networkx(name, form, labels):
    G = nx.relabel_nodes(_int_graph(), LABELS[labels])
    nodes = NODES_FORMS(LABELS[labels])[form]
    function = getattr(nx, name)
    theirs = outcome(lambda: function(G, nodes()))
    ours = outcome(lambda: function(G, nodes(), backend="tricount"))
    assert_same_outcome(ours, theirs)
    direct = getattr(nx_tricount, name)
    trigraph = nx_tricount.from_networkx(G)
    assert_same_outcome(outcome(lambda: direct(trigraph, nodes())), theirs)


def test_nodes_forms_through_autoconfig():
    """An unchanged script with NX_TRICOUNT_AUTOCONFIG: should_run's ``nodes in
    G`` and the backend's selection take every form NetworkX takes."""
    script = """
        import networkx as nx, numpy as np, pandas as pd
        G = nx.complete_graph(5)
        G.add_edge(4, 5)
        forms = [np.array([0, 1]), np.array([0]), np.array([], dtype=int), pd.Series([1, 5]),
                 pd.Index([2, 0]), [0, 9], 2, np.int64(3)]
        for nodes in forms:
            for f in (nx.triangles, nx.clustering):
                with nx.config(backend_priority=[]):
                    expected = f(G, nodes)
                assert f(G, nodes) == expected, (f, nodes)
        for f in (nx.triangles, nx.clustering, nx.average_clustering):
            try:
                f(G, np.array(0))
            except nx.NetworkXError as exc:
                assert str(exc) == "nbunch is not a node or a sequence of nodes.", exc
            else:
                raise AssertionError("no error for a 0-d array")
        print("ok")
    """
    rc, out, err = run_python(script, NX_TRICOUNT_AUTOCONFIG="True")
    assert rc == 0, err
    assert out.strip() == "ok"


# --- weights: NaN, inf and what NetworkX computes with -------------------------


def _weighted(edges):
    G = nx.Graph()
    G.add_weighted_edges_from(edges, weight="w")
    return G


NAN, INF = float("nan"), float("inf")
SPECIAL_WEIGHTS = {
    # A NaN on an edge in no triangle, later in G.edges order: max skips it.
    "nan-later": [(0, 1, 2.0), (1, 2, 3.0), (0, 2, 1.0), (2, 3, NAN)],
    # The same NaN first in G.edges order: max is NaN.
    "nan-first": [(3, 2, NAN), (0, 1, 2.0), (1, 2, 3.0), (0, 2, 1.0)],
    "nan-in-triangle": [(0, 1, 2.0), (1, 2, NAN), (0, 2, 1.0), (2, 3, 4.0)],
    "inf-later": [(0, 1, 2.0), (1, 2, 3.0), (0, 2, 1.0), (2, 3, INF)],
    "inf-in-triangle": [(0, 1, 2.0), (1, 2, INF), (0, 2, 1.0)],
    "minus-inf": [(0, 1, 2.0), (1, 2, -INF), (0, 2, 1.0)],
    "all-nan": [(0, 1, NAN), (1, 2, NAN), (0, 2, NAN)],
}


@pytest.mark.parametrize("directed", [False, True], ids=["graph", "digraph"])
@pytest.mark.parametrize("case", list(SPECIAL_WEIGHTS))
@pytest.mark.parametrize("name", ["clustering", "average_clustering"])
def test_nan_and_inf_weights_match_networkx(name, case, directed):
    G = _weighted(SPECIAL_WEIGHTS[case])
    if directed:
        G = G.to_directed()
        # Arcs one way only, in insertion order; the NaN/inf arcs keep their place.
        G.remove_edges_from([(v, u) for u, v, _ in SPECIAL_WEIGHTS[case]])
    function = getattr(nx, name)
    theirs = outcome(lambda: function(G, weight="w"))
    ours = outcome(lambda: function(G, weight="w", backend="tricount"))
    assert_same_outcome(ours, theirs, rel=1e-12)


@pytest.mark.parametrize("directed", [False, True], ids=["graph", "digraph"])
def test_nan_weights_from_a_frame_follow_networkx_edge_order(directed):
    """A frame's rows repeat edges (the last value stays) and list them from either
    end: the NaN that decides is on the edge NetworkX's ``G.edges`` lists first."""
    rows = [
        ("b", "a", 1.0),
        ("c", "b", 2.0),
        ("a", "b", NAN),  # repeats the first edge: its value becomes NaN
        ("a", "c", 3.0),
        ("c", "d", 5.0),
    ]
    for drop in (None, 2):
        used = [r for i, r in enumerate(rows) if i != drop]
        df = pd.DataFrame(used, columns=["source", "target", "w"])
        create = nx.DiGraph if directed else nx.Graph
        G = nx.from_pandas_edgelist(df, edge_attr="w", create_using=create)
        T = nx_tricount.from_frame(df, edge_attr="w", directed=directed)
        theirs = outcome(lambda: nx.clustering(G, weight="w"))
        assert_same_outcome(outcome(lambda: nx_tricount.clustering(T, weight="w")), theirs)


def _python_max_in_networkx_order(src, dst, values, directed):
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(range(int(max(src.max(), dst.max())) + 1))
    for u, v, w in zip(src.tolist(), dst.tolist(), values.tolist()):
        G.add_edge(u, v, w=w)
    return max(d for _, _, d in G.edges(data="w"))


@pytest.mark.parametrize("directed", [False, True], ids=["graph", "digraph"])
def test_max_edge_value_is_pythons_max_in_networkx_edge_order(directed):
    rng = np.random.default_rng(14)
    for trial in range(300):
        m = int(rng.integers(1, 12))
        src = rng.integers(0, 5, m)
        dst = rng.integers(0, 5, m)
        values = rng.choice([NAN, 1.0, 2.0, 3.0, INF, -INF, 0.5], m)
        expected = _python_max_in_networkx_order(src, dst, values, directed)
        got = max_edge_value(src, dst, 5, values, directed=directed, unique=False)
        assert got == expected or (math.isnan(got) and math.isnan(expected)), (
            trial,
            src,
            dst,
            values,
            got,
            expected,
        )


def test_the_largest_kept_value_is_pythons_max_in_networkx_edge_order():
    # From the values the deduplicated edges keep, as a weighted count reads it: the
    # same as the rows' rule, NaN first, self-loops holding the largest, or only
    # self-loops included.
    rng = np.random.default_rng(15)
    for trial in range(300):
        m = int(rng.integers(1, 12))
        src = rng.integers(0, 5, m)
        dst = rng.integers(0, 5, m)
        values = rng.choice([NAN, 1.0, 2.0, 3.0, INF, -INF, 0.5, 0.0, -0.0], m, p=[0.05] + [0.95 / 8] * 8)
        kept = simple_graph(src, dst, 5, values=values).values
        expected = _python_max_in_networkx_order(src, dst, values, False)
        got = largest_kept_value(src, dst, 5, values, kept)
        assert got == expected or (math.isnan(got) and math.isnan(expected)), (trial, src, dst, values)


WEIGHT_OBJECTS = {
    "str": "7",
    "none": None,
    "decimal": Decimal("2"),
    "fraction": Fraction(1, 3),
    "complex": 2 + 0j,
    "bool": True,
    "numpy-int": np.int64(3),
    "numpy-float32": np.float32(0.5),
    "numpy-bool": np.bool_(True),
    "huge-int": 10**400,
    "object": object(),
}


def _object_weight_graphs(w):
    """The object on an edge in a triangle, on a pendant edge, and on every edge."""
    in_triangle = _weighted([(0, 1, 1.5), (1, 2, 2.5), (0, 2, 0.5), (2, 3, 4.0)])
    in_triangle.edges[0, 1]["w"] = w
    pendant = _weighted([(0, 1, 1.5), (1, 2, 2.5), (0, 2, 0.5), (2, 3, 4.0)])
    pendant.edges[2, 3]["w"] = w
    everywhere = nx.complete_graph(3)
    nx.set_edge_attributes(everywhere, w, "w")
    single = nx.Graph([(0, 1, {"w": w})])
    single.add_node(2)
    return {"in-triangle": in_triangle, "pendant": pendant, "everywhere": everywhere, "single-edge": single}


@pytest.mark.parametrize("kind", list(WEIGHT_OBJECTS))
@pytest.mark.parametrize("name", ["clustering", "average_clustering"])
def test_weight_objects_are_accepted_exactly_as_networkx_accepts_them(name, kind):
    w = WEIGHT_OBJECTS[kind]
    function = getattr(nx, name)
    for label, G in _object_weight_graphs(w).items():
        for nodes in (None, [2], [3], 0):
            theirs = outcome(lambda: function(G, nodes, weight="w"))
            ours = outcome(lambda: function(G, nodes, weight="w", backend="tricount"))
            # float32 arithmetic in NetworkX vs float64 here (see functions.clustering).
            rel = 1e-6 if kind == "numpy-float32" else 1e-12
            assert_same_outcome(ours, theirs, rel=rel, message=False), (label, nodes)


def test_weight_objects_in_a_frame_match_networkx():
    df = pd.DataFrame({"source": [0, 1, 2, 2], "target": [1, 2, 0, 3], "w": ["1", "2", "3", "4"]})
    G = nx.from_pandas_edgelist(df, edge_attr="w")
    T = nx_tricount.from_frame(df, edge_attr="w")
    theirs = outcome(lambda: nx.clustering(G, weight="w"))
    assert theirs[0] == "raised" and theirs[1] is TypeError
    assert_same_outcome(outcome(lambda: nx_tricount.clustering(T, weight="w")), theirs)


# --- configuration from the environment, and misspelt settings ----------------

BAD_ENVIRONMENT = {
    "NX_TRICOUNT_ALGORITHM": ("bogus", ", ".join(repr(v) for v in CHOICES["algorithm"])),
    "NX_TRICOUNT_WEDGE_SPREAD": ("x", "an int >= "),
    "NX_TRICOUNT_HASH_CHUNK": ("0", "an int >= "),
    "NX_TRICOUNT_PARTITIONS": ("-2", "an int >= 1"),
    "NX_TRICOUNT_MEMORY_LIMIT": ("lots", "'20GB'"),
}


@pytest.mark.parametrize("variable", list(BAD_ENVIRONMENT))
def test_bad_environment_value_fails_the_first_call_clearly(variable):
    value, accepted = BAD_ENVIRONMENT[variable]
    script = f"""
        import networkx as nx
        from nx_tricount.metadata.catalog import SCALE_OUT
        from nx_tricount.metadata.config import CHOICES, KERNEL_PARAMETERS
        config = nx.config.backends.tricount
        assert set(config) == set(CHOICES) | set(KERNEL_PARAMETERS) | set(SCALE_OUT), dict(config)
        for call in (lambda: nx.triangles(nx.complete_graph(3), backend="tricount"),
                     lambda: __import__("nx_tricount").make_plan()):
            try:
                call()
            except ValueError as exc:
                print(exc)
            else:
                raise AssertionError("no error")
        key = {variable!r}[len("NX_TRICOUNT_"):].lower()
        good = {{"partitions": 2, "memory_limit": "8GB"}}.get(key, 64)
        config[key] = CHOICES[key][1] if key in CHOICES else good
        print(nx.triangles(nx.complete_graph(3), backend="tricount"))
    """
    rc, out, err = run_python(script, **{variable: value})
    assert rc == 0, err
    lines = out.strip().split("\n")
    for line in lines[:2]:
        assert variable in line and repr(value) in line and accepted in line, line
    assert lines[2] == "{0: 1, 1: 1, 2: 1}"
    assert "Warning" not in err, err


def test_bad_environment_value_with_autoconfig_fails_an_unchanged_script_clearly():
    script = """
        import networkx as nx
        nx.triangles(nx.complete_graph(3))
    """
    rc, out, err = run_python(script, NX_TRICOUNT_AUTOCONFIG="1", NX_TRICOUNT_ALGORITHM="bogus")
    assert rc != 0
    last = err.strip().split("\n")[-1]
    assert last.startswith("ValueError") and "NX_TRICOUNT_ALGORITHM" in last, err
    assert "'merge'" in last, err


def test_misspelt_setting_in_a_block_is_networkxs_invalid_config_error():
    expected = outcome(lambda: nx.config(algorithms="merge"))
    assert expected[1] is AttributeError
    ours = outcome(lambda: nx.config.backends.tricount(algorithms="merge"))
    assert ours[1] is expected[1] and ours[2].startswith("Invalid config name: 'algorithms'")
    assert "'algorithm'" in ours[2]  # the accepted names
    ours = outcome(lambda: setattr(nx.config.backends.tricount, "algorithms", "merge"))
    assert ours[1] is AttributeError and ours[2].startswith("Invalid config name: 'algorithms'")
    assert nx.config.backends.tricount.algorithm == "auto"


# --- from_pandas_edgelist -------------------------------------------------------


def _frame_pair(df, **kwargs):
    ours = outcome(lambda: nx.from_pandas_edgelist(df, backend="tricount", **kwargs))
    theirs = outcome(lambda: nx.from_pandas_edgelist(df, **kwargs))
    return ours, theirs


def _mixed_scalar_graph(edges, nodes=()):
    G = nx.Graph()
    G.add_nodes_from(nodes)
    G.add_edges_from(edges)
    return G


# NetworkX's triangles of a whole graph compares each edge's later end with its earlier one
# (``n != node``), which NumPy refuses for some pairs (2.x: ``np.True_ != 2**63``).
MIXED_SCALAR_GRAPHS = {
    "bool to huge int": _mixed_scalar_graph([(np.True_, 2**63)]),
    "huge int to bool": _mixed_scalar_graph([(2**63, np.True_)]),
    "bool to negative huge int, in a triangle": _mixed_scalar_graph(
        [(np.False_, -(2**63) - 1), (-(2**63) - 1, 5), (5, np.False_)]
    ),
    "bool and huge int not adjacent": _mixed_scalar_graph([(np.True_, 3), (3, 2**63)]),
    "int64 to huge int": _mixed_scalar_graph([(np.int64(1), 2**63), (2**63, 7), (7, np.int64(1))]),
    "bool self-loop beside a huge int": _mixed_scalar_graph([(np.True_, np.True_), (2**63, 4)]),
}


@pytest.mark.parametrize("name", list(MIXED_SCALAR_GRAPHS))
@pytest.mark.parametrize("function", ["triangles", "clustering", "transitivity"])
def test_numpy_scalars_beside_huge_ints_compare_as_in_networkx(name, function):
    """Where NumPy refuses a comparison NetworkX makes, the same error is raised;
    functions that make none (and ``triangles`` given ``nodes``) return."""
    G = MIXED_SCALAR_GRAPHS[name]
    call = getattr(nx, function)
    assert_same_outcome(outcome(lambda: call(G, backend="tricount")), outcome(lambda: call(G)))
    if function == "triangles":
        nodes = list(G)
        ours = outcome(lambda: nx.triangles(G, nodes, backend="tricount"))
        assert_same_outcome(ours, outcome(lambda: nx.triangles(G, nodes)))


def test_datetime_nodes_are_networkxs_timestamps():
    times = pd.to_datetime(["2024-01-01", "2024-01-02", "2024-01-03"])
    df = pd.DataFrame({"source": times, "target": times[[1, 2, 0]]})
    ours, theirs = _frame_pair(df)
    assert list(ours[1]) == list(theirs[1])
    assert all(type(a) is type(b) for a, b in zip(ours[1], theirs[1]))
    assert nx_tricount.triangles(ours[1]) == nx.triangles(theirs[1])


def test_dict_of_lists_is_a_frame_as_for_networkx():
    df = {"source": [0, 1, 2, (1, 2)], "target": [1, 2, 0, 0], "w": [1.0, 2.0, 3.0, 4.0]}
    for kwargs in ({}, {"edge_attr": "w"}, {"edge_attr": ["w"]}):
        ours, theirs = _frame_pair(df, **kwargs)
        assert ours[0] == theirs[0] == "ok"
        assert list(ours[1]) == list(theirs[1])
        assert nx.clustering(ours[1]) == nx.clustering(theirs[1])
    ours, theirs = _frame_pair(df, edge_attr=True)  # a dict has no .columns
    assert ours[1] is theirs[1]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"source": "s"},
        {"target": "t"},
        {"edge_attr": "nope"},
        {"edge_attr": ["w", "nope"]},
        {"edge_attr": []},
    ],
)
def test_missing_columns_raise_networkxs_exceptions(kwargs):
    df = pd.DataFrame({"source": [0, 1], "target": [1, 2], "w": [1, 2]})
    ours, theirs = _frame_pair(df, **kwargs)
    assert theirs[0] == ours[0] == "raised" and ours[1] is theirs[1], (ours, theirs)
    assert "nope" in ours[2] or "s" in ours[2] or "t" in ours[2]


def test_create_using_an_instance_is_filled_as_networkx_fills_it():
    df = pd.DataFrame({"source": [0, 1, 2, 1], "target": [1, 2, 0, 0], "w": [1, 2, 3, 4]})
    for cls in (nx.Graph, nx.DiGraph, nx.MultiGraph):
        for kwargs in ({}, {"edge_attr": "w"}):
            H, K = cls([(7, 8)], name="old"), cls([(7, 8)], name="old")
            ours = nx.from_pandas_edgelist(df, create_using=H, backend="tricount", **kwargs)
            theirs = nx.from_pandas_edgelist(df, create_using=K, **kwargs)
            assert ours is H and theirs is K and H.graph == K.graph == {}
            assert list(H.nodes) == list(K.nodes)
            assert list(H.edges(data=True)) == list(K.edges(data=True))
    T = nx.from_pandas_edgelist(df, create_using=nx.DiGraph, backend="tricount")
    assert isinstance(T, nx_tricount.TriGraph) and T.is_directed()
    assert (
        outcome(lambda: nx_tricount.from_pandas_edgelist(df, create_using=3))[1]
        is (outcome(lambda: nx.from_pandas_edgelist(df, create_using=3))[1])
    )


# --- from_edges -----------------------------------------------------------------


def test_from_edges_uint64_ids():
    small = np.array([0, 1, 2], dtype=np.uint64)
    G = nx_tricount.from_edges(small, small[[1, 2, 0]])
    assert nx_tricount.triangles(G) == {0: 1, 1: 1, 2: 1}
    big = np.array([0, 2**63], dtype=np.uint64)
    with pytest.raises(ValueError, match=r"2\*\*63"):
        nx_tricount.from_edges(big, np.array([1, 2], dtype=np.uint64))


@pytest.mark.parametrize(
    "src, dst, match",
    [
        ([0, 1, 2], [1, 2], r"src has 3 ids and dst 2"),
        ([0], [1, 2], r"src has 1 id and dst 2"),
        ([], [0], r"src has 0 ids and dst 1"),
        ([[0, 1]], [[1, 2]], r"1-D arrays, got src of shape \(1, 2\)"),
        ([0, 1], [[1, 2]], r"1-D arrays, got dst of shape \(1, 2\)"),
    ],
    ids=["src-longer", "dst-longer", "empty-src", "both-2d", "dst-2d"],
)
def test_from_edges_arrays_of_unequal_lengths_are_refused_naming_them(src, dst, match):
    with pytest.raises(ValueError, match=match):
        nx_tricount.from_edges(np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64))


def test_from_edges_weights_of_another_length_are_refused_naming_it():
    with pytest.raises(ValueError, match=r"weight has 2 values for 3 edges"):
        nx_tricount.from_edges(np.array([0, 1, 2]), np.array([1, 2, 0]), weight=np.array([1.0, 2.0]))


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([np.int8, np.int32, np.int64, np.uint16, np.uint64]),
    st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=700),
    st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=700),
    st.integers(1, 3),
)
def test_host_id_range_is_numpys(dtype, xs, ys, step):
    # from_edges reads n and the bad ids from it: one parallel pass, not four reductions.
    info = np.iinfo(dtype)
    src, dst = (
        np.array([info.min + x % (int(info.max) - info.min + 1) for x in v], dtype=dtype)[::step]
        for v in (xs, ys)
    )
    expected = min(int(src.min()), int(dst.min())), max(int(src.max()), int(dst.max()))
    assert host_ops.id_range(src, dst) == expected


def test_from_edges_huge_sparse_ids_fail_before_allocating():
    src = np.array([0, 1, 3_000_000_000 * 1000])
    with pytest.raises(MemoryError, match="from_frame"):
        nx_tricount.from_edges(src, np.array([1, 2, 0]))
    with pytest.raises(MemoryError, match="bytes"):
        nx_tricount.from_edges(np.array([0]), np.array([1]), n=10**15)


def test_from_edges_of_few_ids_skips_the_free_memory_check(monkeypatch):
    # Reading the host's free memory costs a small graph a sixth of its count.
    def unread():
        raise AssertionError("the free memory was read")

    monkeypatch.setattr("nx_tricount.io.edge_arrays._available_memory", unread)
    assert nx_tricount.from_edges(np.array([0, 1]), np.array([1, 2])).n == 3
    with pytest.raises(AssertionError, match="free memory"):
        nx_tricount.from_edges(np.array([0]), np.array([1]), n=10**7)


@pytest.mark.parametrize(
    "n, error",
    [
        (3.5, TypeError),
        (3.0, TypeError),
        (True, TypeError),
        ("3", TypeError),
        (2, ValueError),
        (-1, ValueError),
    ],
)
def test_from_edges_n_must_be_an_integer_covering_the_ids(n, error):
    with pytest.raises(error, match="n"):
        nx_tricount.from_edges(np.array([0, 1, 2]), np.array([1, 2, 0]), n=n)


@pytest.mark.parametrize("n", [3, np.int64(4), np.uint8(5)])
def test_from_edges_n_accepts_integers(n):
    G = nx_tricount.from_edges(np.array([0, 1, 2]), np.array([1, 2, 0]), n=n)
    assert G.n == int(n) and type(G.n) is int


def test_zero_weights_raise_before_a_later_unhashable_member():
    """NetworkX computes node by node: with every weight 0, the first node with a
    neighbour raises ZeroDivisionError before nbunch reaches an unhashable member."""
    G = nx.Graph()
    G.add_edge(37, 24, weight=0.0)
    for nodes in ([37, [1]], [[1], 37]):
        with pytest.raises(Exception) as expected:
            nx.clustering(G, list(nodes), "weight")
        with pytest.raises(expected.type):
            nx.clustering(G, list(nodes), "weight", backend="tricount", device="cpu")
