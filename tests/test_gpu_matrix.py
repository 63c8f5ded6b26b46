"""The matrix of tests/matrix.py on the GPU (run on a GPU machine): every
public function of the triangle family under every spread, NetworkX's result;
and R-MAT 18 from NumPy arrays under a memory limit that puts it into parts from
host memory (unweighted undirected counts prepared in chunks straight into
their parts), every function equal to its whole count on the GPU."""

from collections import Counter

import networkx as nx
import numpy as np
import pytest

import nx_tricount
from matrix import (  # noqa: F401  (fixtures)
    CASES,
    GPU_SPREADS,
    assert_spread,
    check,
    dask_client,
    local_cluster,
    no_conversion_cache,
    spread_settings,
    triangle_rows,
)
from nx_tricount.gpu.device import to_host
from nx_tricount.io.generators import rmat_edges
from test_triangle_family import triangle_tuples

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("spread", GPU_SPREADS)
def test_every_function_under_every_spread_on_the_gpu(spread, name, request):
    if spread.startswith("dask"):
        request.getfixturevalue("dask_client")
    check(name, spread, "gpu")


# ------------------------------------------ R-MAT 18 in parts from host memory

SCALE = 18
#: Nodes square clustering and the triangle listings are asked about: under the
#: limit the graph is prepared in host memory and both run on the host, where
#: every node's squares, or every triangle listed, would take most of a minute.
MEMBERS = list(range(0, 1 << SCALE, 1024))


def _networkx_call(function, *args):
    return lambda G, device: function(G, *args, backend="tricount", device=device)


#: Name -> (graph, call): the matrix's cases on R-MAT 18 (``"simple"``: without
#: self-loops, which k_truss refuses).
BIG = {name: (case.graph, case.call) for name, case in CASES.items()}
BIG.update(
    {
        "square_clustering": ("undirected", _networkx_call(nx.square_clustering, MEMBERS)),
        "square_clustering directed": ("directed", _networkx_call(nx.square_clustering, MEMBERS)),
        "all_triangles": (
            "undirected",
            lambda G, device: triangle_tuples(_networkx_call(nx.all_triangles, MEMBERS)(G, device)),
        ),
        "all_triangles frame": (
            "undirected",
            lambda G, device: triangle_rows(
                nx_tricount.all_triangles(G, MEMBERS, as_frame=True, device=device)
            ),
        ),
        "k_truss": ("simple", _networkx_call(nx.k_truss, 5)),
    }
)


@pytest.fixture(scope="module")
def rmat18():
    """R-MAT 18's edge rows in host memory (NumPy), and a weight per row."""
    src, dst = rmat_edges(SCALE, 8, seed=SCALE)
    weights = np.random.default_rng(SCALE).uniform(0.1, 5.0, src.size)
    return src, dst, weights


def _graphs(src, dst, weights):
    loops = src == dst
    return {
        "undirected": nx_tricount.from_edges(src, dst, weight=weights),
        "directed": nx_tricount.from_edges(src, dst, directed=True, weight=weights),
        "simple": nx_tricount.from_edges(src[~loops], dst[~loops]),
    }


@pytest.fixture(scope="module")
def whole(rmat18):
    """Each case's result on the GPU, the graph counted whole (computed once)."""
    graphs, results = _graphs(*rmat18), {}

    def result(name):
        if name not in results:
            kind, call = BIG[name]
            plan = nx_tricount.make_plan(graphs[kind], device="gpu")
            assert plan.spread.parts == 1 and plan.preparation_device == "gpu", plan
            results[name] = call(graphs[kind], "gpu")
        return results[name]

    return result


@pytest.fixture(scope="module")
def limited(rmat18):
    """The graphs counted under the limit (their prepared parts shared by the cases)."""
    return _graphs(*rmat18)


@pytest.mark.parametrize("name", list(BIG))
def test_rmat18_in_parts_from_host_memory_equals_its_whole_count(limited, whole, name):
    kind, call = BIG[name]
    G = limited[kind]
    with nx.config.backends.tricount(**spread_settings("memory_limit", G, "gpu")):
        assert_spread("memory_limit", G, "gpu")
        ours = call(G, "gpu")
    _assert_same_result(name, ours, whole(name))


def _assert_same_result(name, ours, expected):
    """The same result as the whole count: exactly, but weighted sums, which
    combine compensated and agree to their final roundings."""
    if isinstance(expected, nx_tricount.TriGraph):
        assert (ours.n, ours.label_list()) == (expected.n, expected.label_list())
        np.testing.assert_array_equal(to_host(ours.src), to_host(expected.src))
        np.testing.assert_array_equal(to_host(ours.dst), to_host(expected.dst))
    elif "weighted" in name:
        assert list(ours) == list(expected)
        np.testing.assert_allclose(list(ours.values()), list(expected.values()), rtol=1e-15, atol=1e-300)
    else:
        assert ours == expected
        assert type(ours) is type(expected)
        # A per-node dict keeps the node order; listed triangles (a Counter of node
        # tuples) come in the engine's order, which the parts change.
        if isinstance(expected, dict) and not isinstance(expected, Counter):
            assert list(ours) == list(expected)
