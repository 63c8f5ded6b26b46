"""Property-based differential tests: the backend against NetworkX itself.

Hypothesis generates graphs of the four classes (0 to 300 nodes, sparse and
dense, self-loops, isolated nodes, labels of every kind), ``nodes=`` arguments
in every form NetworkX takes, edge weights of every kind, and every
configuration (algorithm x orientation x ordering); each function's result
through ``backend="tricount"`` must equal NetworkX's own: the value, the type
(dict or scalar, int or float, Python types only), the key order and key types,
or the exception type. ``docs/testing.md`` states what is exact and the bound
weighted results are held to.

Profiles (``NX_TRICOUNT_HYPOTHESIS``): ``ci`` (the default: derandomized, 5,750
cases, about 2 minutes on 2 cores with a cold numba cache), ``long`` (11,500
cases over the CPU properties), ``gpu`` (the GPU variants, marked ``gpu`` and
skipped without a GPU: 1,065 graphs; ``long`` applies to them too when chosen).
"""

import decimal
import math
import os
import traceback
from collections import Counter
from functools import partial

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import nx_tricount
import strategies as S
from nx_tricount.nxapi.interface import BackendInterface

# ------------------------------------------------------------------ profiles

_COMMON = dict(
    deadline=None,
    print_blob=True,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
        HealthCheck.large_base_example,
    ],
)
#: max_examples of a property of share 1.0; the CPU properties' shares sum to
#: 5.75, the GPU variants' to 3.55.
settings.register_profile("ci", derandomize=True, database=None, max_examples=1000, **_COMMON)
settings.register_profile("long", max_examples=2000, **_COMMON)  # 5.75 x 2000 = 11,500
settings.register_profile("gpu", max_examples=300, **_COMMON)  # 3.55 x 300 = 1,065 on the GPU
PROFILE = os.environ.get("NX_TRICOUNT_HYPOTHESIS", "ci")
settings.load_profile(PROFILE)


def budget(share, profile=None):
    """Settings of a property: ``share`` of the profile's max_examples."""
    base = settings.get_profile(profile) if profile else settings.default
    return settings(base, max_examples=max(1, round(base.max_examples * share)))


def gpu_budget(share):
    """The GPU variant's settings (the ``gpu`` profile, or ``long`` when chosen)."""
    return budget(share, "long" if PROFILE == "long" else "gpu")


@pytest.fixture(autouse=True)
def _no_conversion_cache():
    """Graphs are fresh per call anyway; no cache may carry one call's conversion."""
    with nx.config(cache_converted_graphs=False):
        yield


# ---------------------------------------------------------------- comparison


def outcome(call):
    """``(True, result)`` or ``(False, exception)``."""
    try:
        return True, call()
    except Exception as exc:  # noqa: BLE001 - the exception type is compared
        return False, exc


def _describe(result):
    ok, value = result
    if ok:
        return f"returned {value!r}"
    tail = "".join(traceback.format_exception(value)[-3:])
    return f"raised {type(value).__name__}: {value}\n{tail}"


def assert_same_outcome(name, ours, expected, compare):
    """Both returned (then ``compare``), or both raised the same exception type."""
    if not (ours[0] and expected[0]):
        assert (ours[0], type(ours[1])) == (expected[0], type(expected[1])), (
            f"{name}: NetworkX {_describe(expected)}\n  tricount {_describe(ours)}"
        )
        return
    compare(ours[1], expected[1], name)


def same_key(a, b):
    """The same node label: equal (or the same object, for NaN) and the same type."""
    return type(a) is type(b) and (a is b or a == b)


def _keys_match(ours, expected, where):
    assert type(ours) is dict, f"{where}: {type(ours).__name__} instead of dict"
    a, b = list(ours), list(expected)
    assert len(a) == len(b) and all(map(same_key, a, b)), (
        f"{where}: keys {a!r} ({[type(k).__name__ for k in a]}) != NetworkX's "
        f"{b!r} ({[type(k).__name__ for k in b]})"
    )


def assert_exact(ours, expected, where="result"):
    """Equal values of the same types; dicts with the same keys in the same order."""
    if isinstance(expected, dict):
        _keys_match(ours, expected, where)
        for a, b in zip(ours, expected):
            assert_exact(ours[a], expected[b], f"{where}[{b!r}]")
        return
    assert type(ours) is type(expected), (
        f"{where}: {ours!r} ({type(ours).__name__}) != NetworkX's {expected!r} ({type(expected).__name__})"
    )
    if isinstance(expected, float) and math.isnan(expected):
        assert math.isnan(ours), f"{where}: {ours!r} != NetworkX's nan"
    else:
        assert ours == expected, f"{where}: {ours!r} != NetworkX's {expected!r}"


def assert_within(ours, expected, tolerance, where="result"):
    """Weighted results: within ``tolerance`` (a number, or a dict of them like
    the results); NaN and infinities exactly; the int 0 against a float accepted
    only within the tolerance."""
    if isinstance(expected, dict):
        _keys_match(ours, expected, where)
        for a, b in zip(ours, expected):
            tol = tolerance[b] if isinstance(tolerance, dict) else tolerance
            assert_within(ours[a], expected[b], tol, f"{where}[{b!r}]")
        return
    message = (
        f"{where}: {ours!r} ({type(ours).__name__}) != NetworkX's {expected!r} "
        f"({type(expected).__name__}), bound {tolerance!r}"
    )
    assert type(ours) in (int, float) and type(expected) in (int, float), message
    if tolerance == math.inf:  # NetworkX's product of three weights may overflow
        return
    if math.isnan(expected) or math.isnan(ours):
        assert type(ours) is type(expected) is float and math.isnan(ours) and math.isnan(expected), message
        return
    if math.isinf(expected) or math.isinf(ours):
        assert type(ours) is type(expected) and ours == expected, message
        return
    assert abs(ours - expected) <= tolerance, message
    if type(ours) is not type(expected):  # int 0 against a float within the bound
        assert 0 in (ours, expected) and int in (type(ours), type(expected)), message


# ------------------------------------------------------ the weighted bound

U64 = 2.0**-53
U32 = 2.0**-24
#: NetworkX multiplies two normalised weights before the third: below 2**-1074
#: that partial product is 0, and the term with it, at most the cube root of
#: 2**-1074 times the largest normalised weight (``underflow(scale)``).
SUBNORMAL = 2.0**-1074
SUBNORMAL32 = 2.0**-149  # the same where NetworkX computes in float32
#: Normalised weights |w / max w| above this may overflow NetworkX's product of
#: three of them (2**1020 < 2**1024) before its cube root; tricount's cube roots
#: come first and stay finite (docs/testing.md, "NetworkX's own limits").
OVERFLOW_SCALE = 2.0**340


def _real(x):
    """A real number NetworkX's arithmetic takes as such (NaN and infinities too)."""
    return isinstance(x, (int, float, np.integer, np.floating, np.bool_)) and not isinstance(
        x, decimal.Decimal
    )


def clustering_bound(G, nodes, weight, with_abs=False):
    """Per-node bound on |tricount - NetworkX| for ``nx.clustering(G, nodes, weight)``
    (a dict, or a number for a single node), as docs/testing.md states it:

        (k + 16 + k**2 u) u c_abs(v) + k (2**-1074 s)**(1/3)

    ``k`` bounds the terms summed at v (undirected: d(d-1)/2, the most triangles;
    directed: 4 d_tot**2), ``u`` is 2**-53 (2**-24 where some weight is a float32:
    NetworkX then computes those terms in float32), ``c_abs`` the coefficient of
    the absolute terms |w_ij w_jk w_ki|**(1/3) / |max w| (NaN and infinite weights
    taken as 0: those terms are compared exactly), and the last term covers
    NetworkX's partial products of two normalised weights underflowing (``s`` the
    largest normalised finite weight, at least 1). Zero (exact comparison) when a
    weight is not a real number or the largest is NaN, infinite or zero; infinite
    (only the types compared) when NetworkX's product of three may overflow.
    ``with_abs``: return ``(bound, c_abs)``.
    """
    values = [d.get(weight, 1) for *_, d in G.edges(data=True)]
    if not values or not all(map(_real, values)):
        return (0, 0) if with_abs else 0
    largest = float(max(values))  # Python's max, as NetworkX's: NaN only if first
    if largest == 0 or not math.isfinite(largest):
        return (0, 0) if with_abs else 0
    finite = [abs(float(x)) for x in values if math.isfinite(float(x))]
    scale = max(finite) / abs(largest)
    if scale > OVERFLOW_SCALE:
        return (math.inf, math.inf) if with_abs else math.inf
    float32 = any(isinstance(x, np.float32) for x in values)
    u, subnormal = (U32, SUBNORMAL32) if float32 else (U64, SUBNORMAL)
    A = G.copy()
    for *_, d in A.edges(data=True):
        x = float(d.get(weight, 1))
        # Terms with a NaN or an infinite weight are NaN or infinite on both
        # sides, compared exactly; they add nothing to the others' bound.
        d[weight] = abs(x) if math.isfinite(x) else 0.0
    c_abs = nx.clustering(A, nodes.make(), weight)

    def terms(v):
        if G.is_directed():
            total = len(set(G._pred[v]) - {v}) + len(set(G._succ[v]) - {v})
            return 4 * total * total
        d = len(set(G[v]) - {v})
        return d * (d - 1) // 2

    def bound(v, c):
        k = terms(v)
        return (k + 16 + k * k * u) * u * c * scale + k * (subnormal * max(scale, 1.0)) ** (1 / 3)

    if isinstance(c_abs, dict):
        result = {v: bound(v, c) for v, c in c_abs.items()}
        c_abs = {v: c * scale for v, c in c_abs.items()}
    else:
        result, c_abs = bound(nodes.make(), c_abs), c_abs * scale
    return (result, c_abs) if with_abs else result


def average_bound(G, nodes, weight, count):
    """Bound on average_clustering over ``count`` nodes: the sum of the nodes'
    bounds plus both Python sums' own rounding (2 n u sum c_abs), over count."""
    per_node, c_abs = clustering_bound(G, nodes, weight, with_abs=True)
    if per_node == math.inf:
        return math.inf
    if not isinstance(per_node, dict) or count == 0:
        return 0
    n = len(per_node)
    return (sum(per_node.values()) + 2 * n * U64 * sum(c_abs.values())) / count


# --------------------------------------------------------------- the checks


def _call(f, spec, args, config, device, **kwargs):
    """(NetworkX's outcome, tricount's outcome), each on a freshly built graph
    with freshly built arguments (``args`` is a function making them)."""
    expected = outcome(lambda: f(spec.build(), *args(), **kwargs))
    ours = outcome(lambda: f(spec.build(), *args(), backend="tricount", device=device, **config, **kwargs))
    return ours, expected


def check_unweighted(spec, nodes, config, device):
    note(f"{spec}\n{nodes}\nconfig = {config}")
    for f, args in (
        (nx.triangles, lambda: (nodes.make(),)),
        (nx.clustering, lambda: (nodes.make(),)),
        (nx.average_clustering, lambda: (nodes.make(), None, True)),
        (nx.average_clustering, lambda: (nodes.make(), None, False)),
        (nx.transitivity, lambda: ()),
    ):
        ours, expected = _call(f, spec, args, config, device)
        assert_same_outcome(f.__name__, ours, expected, assert_exact)


def listed_triangles(G, nbunch, *, direct=False, **kwargs):
    """``all_triangles``' triples as it yields them: each triangle's nodes in
    their order (the order of the triangles is free). ``direct``: a call with
    ``backend="tricount"`` goes to ``nx_tricount.all_triangles`` on the NetworkX
    graph instead of through NetworkX's dispatch."""
    f = nx.all_triangles
    if direct and kwargs.pop("backend", None):
        f = nx_tricount.all_triangles
    return Counter(map(tuple, f(G, nbunch, **kwargs)))


def assert_same_triangles(ours, expected, where):
    assert ours == expected, (
        f"{where}: triples not NetworkX's {sorted(map(repr, expected - ours))}, "
        f"not NetworkX's triples {sorted(map(repr, ours - expected))}"
    )


def check_listing(spec, nodes, config, device):
    note(f"{spec}\n{nodes}\nconfig = {config}")
    for direct in (False, True):
        f = partial(listed_triangles, direct=direct)
        ours, expected = _call(f, spec, lambda: (nodes.make(),), config, device)
        assert_same_outcome(f"all_triangles(direct={direct})", ours, expected, assert_same_triangles)
    # A TriGraph of its own: its neighbour dicts are those its rows build (to_networkx).
    T = nx_tricount.from_networkx(spec.build())
    ours = outcome(lambda: listed_triangles(T, nodes.make(), backend="tricount", device=device, **config))
    expected = outcome(lambda: listed_triangles(nx_tricount.to_networkx(T), nodes.make()))
    assert_same_outcome("all_triangles of a TriGraph", ours, expected, assert_same_triangles)


def _numpy_zero_division(G, weight, ours, expected):
    """tricount raised ZeroDivisionError where NetworkX, dividing NumPy scalars by a
    largest weight of 0, got NaN instead (docs/testing.md, "NetworkX's own limits")."""
    if ours[0] or not isinstance(ours[1], ZeroDivisionError) or not expected[0]:
        return False
    values = [d.get(weight, 1) for *_, d in G.edges(data=True)]
    return bool(values) and max(values) == 0 and any(isinstance(x, np.generic) for x in values)


def check_weighted(spec, nodes, weight, config, device):
    note(f"{spec}\n{nodes}\nweight = {weight!r}\nconfig = {config}")
    G = spec.build()

    ours, expected = _call(nx.clustering, spec, lambda: (nodes.make(), weight), config, device)
    if _numpy_zero_division(G, weight, ours, expected):
        return
    assert_same_outcome(
        "clustering",
        ours,
        expected,
        lambda o, e, name: assert_within(o, e, clustering_bound(G, nodes, weight), name),
    )
    clustering_ours = ours
    if ours[0] and expected[0] and clustering_bound(G, nodes, weight) == math.inf:
        return  # NetworkX's products may overflow: its averages drop or keep NaNs
    for count_zeros in (True, False):
        ours, expected = _call(
            nx.average_clustering, spec, lambda: (nodes.make(), weight, count_zeros), config, device
        )

        name = f"average_clustering(count_zeros={count_zeros})"
        c_nx = outcome(lambda: nx.clustering(G, nodes.make(), weight))
        c_ours = clustering_ours
        if (
            not count_zeros
            and c_ours[0]
            and c_nx[0]
            and isinstance(c_nx[1], dict)
            and [v != 0 for v in c_ours[1].values()] != [v != 0 for v in c_nx[1].values()]
        ):
            # A coefficient within the bound of 0 that NetworkX gives as the int 0
            # and tricount as a float (or the reverse) changes the nodes averaged
            # over (or leaves none: ZeroDivisionError); then tricount must agree
            # with its own clustering, which was checked against NetworkX above.
            def own():
                mine = [v for v in c_ours[1].values() if abs(v) > 0]
                return sum(mine) / len(mine)

            assert_same_outcome(name, ours, outcome(own), assert_exact)
            continue

        def compare(o, e, name):
            values = list(c_nx[1].values())
            count = len(values) if count_zeros else sum(v != 0 for v in values)
            assert_within(o, e, average_bound(G, nodes, weight, count), name)

        assert_same_outcome(name, ours, expected, compare)


def _round_trip(T):
    """The NetworkX graph of a result: a TriGraph converted back, or the
    ``create_using`` instance, which is filled and returned as NetworkX does."""
    if isinstance(T, nx.Graph):
        return T
    assert type(T).__name__ == "TriGraph", f"from_pandas_edgelist returned {type(T).__name__}"
    return BackendInterface.convert_to_nx(T)


def _same_attrs(a, b, where):
    assert list(a) == list(b), f"{where}: attribute names {list(a)} != NetworkX's {list(b)}"
    for name in b:
        assert_exact(a[name], b[name], f"{where}[{name!r}]")


def assert_same_graph(T, expected, where):
    R = _round_trip(T)
    assert (R.is_directed(), R.is_multigraph()) == (expected.is_directed(), expected.is_multigraph()), (
        f"{where}: {type(R).__name__} != NetworkX's {type(expected).__name__}"
    )
    a, b = list(R), list(expected)
    assert len(a) == len(b) and all(map(same_key, a, b)), f"{where}: nodes {a!r} != NetworkX's {b!r}"
    assert R.number_of_edges() == expected.number_of_edges(), (
        f"{where}: {R.number_of_edges()} edges != NetworkX's {expected.number_of_edges()}"
    )
    for u, nbrs in expected.adj.items():
        mine = R.adj[u]
        assert set(mine) == set(nbrs), f"{where}: neighbours of {u!r}: {set(mine)} != {set(nbrs)}"
        for v, data in nbrs.items():
            if expected.is_multigraph():
                assert set(mine[v]) == set(data), (
                    f"{where}: keys of ({u!r}, {v!r}): {set(mine[v])} != {set(data)}"
                )
                for key in data:
                    _same_attrs(mine[v][key], data[key], f"{where}: edge ({u!r}, {v!r}, {key!r})")
            else:
                _same_attrs(mine[v], data, f"{where}: edge ({u!r}, {v!r})")


def check_frame(frame):
    note(repr(frame))
    expected = outcome(lambda: nx.from_pandas_edgelist(frame.make(), **frame.call_kwargs()))
    ours = outcome(lambda: nx.from_pandas_edgelist(frame.make(), **frame.call_kwargs(), backend="tricount"))
    assert_same_outcome("from_pandas_edgelist", ours, expected, assert_same_graph)
    if not (ours[0] and expected[0]):
        return
    T, G = ours[1], expected[1]
    for f in (nx.triangles, nx.clustering, nx.transitivity):  # the frame's graph counts as G does
        mine = outcome(lambda: f(T, backend="tricount", device="cpu"))
        theirs = outcome(lambda: f(G))
        assert_same_outcome(f"{f.__name__} of the frame's graph", mine, theirs, assert_exact)


# ------------------------------------------------------------- properties

NUMERIC = S.weighted(S.NUMERIC_FINITE)
NONFINITE = S.weighted(("nan", "inf"), S.NUMERIC_FINITE + ("nan", "inf"))
NON_NUMERIC = S.weighted(("str", "none"), S.NUMERIC_FINITE + ("str", "none"))
DECIMAL = S.weighted(("decimal",), S.NUMERIC_FINITE + ("decimal",))
HUGE_INT = S.weighted(("huge_int",), S.NUMERIC_FINITE + ("huge_int",))


@st.composite
def graph_and_nodes(draw, nodes=S.nodes_arguments, weights=None):
    spec = draw(S.graphs(weights=weights))
    return spec, draw(nodes(spec.build())), draw(S.configurations())


def _weight_name(spec):
    for edge in spec.edges:
        if len(edge) == 3 and edge[2]:
            return next(iter(edge[2]))
    return "weight"


# CPU (CI) ---------------------------------------------------------------------


@budget(1.0)
@given(graph_and_nodes())
def test_unweighted_matches_networkx(case):
    """triangles, clustering, average_clustering (both count_zeros) and
    transitivity: exactly NetworkX's, for every graph class, label and nodes= form."""
    check_unweighted(*case, device="cpu")


@budget(0.3)
@given(graph_and_nodes())
def test_all_triangles_match_networkx(case):
    """all_triangles: NetworkX's triangles, each once with its nodes in NetworkX's
    order (which follows its neighbour dicts when nbunch is given), or its
    exception; through NetworkX and the direct call, every nbunch form."""
    check_listing(*case, device="cpu")


@budget(0.5)
@given(graph_and_nodes(nodes=S.array_nodes_arguments))
def test_array_nodes_match_networkx(case):
    """nodes= as NumPy arrays (1-D, 0-d, object) and pandas Series / Index."""
    check_unweighted(*case, device="cpu")


def _weighted_property(weights, share):
    @budget(share)
    @given(graph_and_nodes(weights=weights))
    def test(case):
        spec, nodes, config = case
        check_weighted(spec, nodes, _weight_name(spec), config, device="cpu")

    return test


test_weighted_numeric_matches_networkx = _weighted_property(NUMERIC, 1.0)
test_weighted_numeric_matches_networkx.__doc__ = (
    "Finite real weights (int, float, float32, NumPy scalars, negative, zero, bool, "
    "tiny, missing): clustering and average_clustering within the stated bound."
)
test_weighted_nan_inf_matches_networkx = _weighted_property(NONFINITE, 0.5)
test_weighted_non_numeric_matches_networkx = _weighted_property(NON_NUMERIC, 0.25)
test_weighted_decimal_matches_networkx = _weighted_property(DECIMAL, 0.15)
test_weighted_huge_int_matches_networkx = _weighted_property(HUGE_INT, 0.15)


PARTITIONINGS = st.sampled_from(["hashed", "range"])


@budget(0.2)
@given(graph_and_nodes(), st.integers(2, 4), PARTITIONINGS)
def test_partitioned_matches_networkx(case, parts, partitioning):
    """The unweighted functions through a 2D partition (hashed or by ranges) of 2
    to 4 parts per side: exactly NetworkX's, every graph class, label, nodes= form
    and configuration."""
    with nx.config.backends.tricount(partitions=parts, partitioning=partitioning):
        check_unweighted(*case, device="cpu")


@budget(0.2)
@given(graph_and_nodes(weights=NUMERIC), st.integers(2, 4), PARTITIONINGS)
def test_partitioned_weighted_matches_networkx(case, parts, partitioning):
    """Weighted clustering through a 2D partition: within the stated bound."""
    spec, nodes, config = case
    with nx.config.backends.tricount(partitions=parts, partitioning=partitioning):
        check_weighted(spec, nodes, _weight_name(spec), config, device="cpu")


@budget(1.0)
@given(S.frames())
def test_from_pandas_edgelist_matches_networkx(frame):
    """The graph of a frame round-trips to NetworkX's: class, nodes in order with
    their types, edges, keys and attributes; and counts as NetworkX's does."""
    check_frame(frame)


@budget(0.3)
@given(S.frames(mixed_dtypes=True))
def test_from_pandas_edgelist_mixed_column_dtypes(frame):
    """Source and target columns of different dtypes (int64 and float64, ...)."""
    check_frame(frame)


@budget(0.15)
@given(S.frames(datetime_labels=True))
def test_from_pandas_edgelist_datetime_labels(frame):
    check_frame(frame)


@budget(0.15)
@given(S.frames(as_dict=True))
def test_from_pandas_edgelist_dict_input(frame):
    check_frame(frame)


@budget(0.15)
@given(S.frames(missing_column=True))
def test_from_pandas_edgelist_missing_column(frame):
    check_frame(frame)


@budget(0.15)
@given(S.frames(create_using_instance=True))
def test_from_pandas_edgelist_create_using_instance(frame):
    check_frame(frame)


# GPU (a GPU machine) ----------------------------------------------------------


@pytest.mark.gpu
@gpu_budget(1.0)
@given(graph_and_nodes())
def test_gpu_unweighted_matches_networkx(case):
    check_unweighted(*case, device="gpu")


@pytest.mark.gpu
@gpu_budget(0.5)
@given(graph_and_nodes(nodes=S.array_nodes_arguments))
def test_gpu_array_nodes_match_networkx(case):
    check_unweighted(*case, device="gpu")


def _gpu_weighted_property(weights, share):
    @pytest.mark.gpu
    @gpu_budget(share)
    @given(graph_and_nodes(weights=weights))
    def test(case):
        spec, nodes, config = case
        check_weighted(spec, nodes, _weight_name(spec), config, device="gpu")

    return test


test_gpu_weighted_numeric_matches_networkx = _gpu_weighted_property(NUMERIC, 1.0)
test_gpu_weighted_nan_inf_matches_networkx = _gpu_weighted_property(NONFINITE, 0.5)
test_gpu_weighted_non_numeric_matches_networkx = _gpu_weighted_property(NON_NUMERIC, 0.25)
test_gpu_weighted_decimal_matches_networkx = _gpu_weighted_property(DECIMAL, 0.15)
test_gpu_weighted_huge_int_matches_networkx = _gpu_weighted_property(HUGE_INT, 0.15)
