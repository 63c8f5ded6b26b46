"""``should_run``: NetworkX's cost against tricount's in this process (the
conversion, the count, and what the process has not loaded yet), from cheap
statistics; and the light registration that lets NetworkX load the backend and
ask it without the engine."""

import contextlib
import functools
import importlib
import inspect
import logging
import pickle
import pydoc
import sys

import networkx as nx
import numpy as np
import pytest

import nx_tricount
from nx_tricount.gpu import errors
from nx_tricount.metadata import functions
from nx_tricount.metadata.catalog import FUNCTIONS
from nx_tricount.nxapi import dispatch, edges, should_run
from nx_tricount.nxapi.should_run import COSTS, SAMPLE_NODES, decide, graph_work, networkx_work
from nx_tricount.quantities import family
from subprocesses import run_python

#: A process that has imported the engine and run every function / one that has done neither.
WARM = dict(imported=True, started=set(COSTS))
COLD = dict(imported=False, started=set())
HEAVY = (
    "numpy",
    "numba",
    "cupy",
    "cudf",
    "nx_tricount.nxapi.cluster",
    "nx_tricount.nxapi.core",
    "nx_tricount.planning.plan",
)


def _args(name, G, nodes=None):
    return (G, 3) if name == "k_truss" else (G,) if nodes is None else (G, nodes)


def test_a_call_networkx_answers_loads_no_engine():
    """An unchanged script under the drop-in switch: on a small graph every
    function stays in NetworkX, says why, and neither numba nor the engine is imported."""
    script = f"""
        import logging, sys
        import networkx as nx
        records = []
        handler = logging.Handler()
        handler.emit = lambda record: records.append(record.getMessage())
        logging.getLogger("networkx").addHandler(handler)
        logging.getLogger("networkx").setLevel(logging.DEBUG)
        G = nx.karate_club_graph()
        nx.triangles(G), nx.clustering(G), nx.average_clustering(G), nx.transitivity(G)
        nx.square_clustering(G), nx.generalized_degree(G), list(nx.all_triangles(G)), nx.k_truss(G, 3)
        print([m for m in {HEAVY!r} if m in sys.modules], "nx_tricount.nxapi.interface" in sys.modules)
        print(sum("shouldn't run" in r and "NetworkX's estimate" in r for r in records))
        print(sum("Using backend 'tricount'" in r for r in records))
    """
    rc, out, err = run_python(script, NX_TRICOUNT_AUTOCONFIG="1")
    assert rc == 0, err
    assert out.split("\n")[:3] == ["[] True", "8", "0"]


def test_loading_the_interface_and_asking_imports_no_engine():
    script = f"""
        import sys
        import networkx as nx
        from nx_tricount.nxapi.interface import BackendInterface as B
        G = nx.barabasi_albert_graph(3000, 3, seed=1)
        for name in {sorted(COSTS)!r}:
            assert hasattr(B, name) and B.can_run(name, (G,), {{}})
            for args in ((G,), (G, 5), (G, [1, 2, 3]), (G, iter([1])), (nx.DiGraph(G),)):
                B.should_run(name, args, {{}})
        print([m for m in {HEAVY!r} if m in sys.modules])
    """
    rc, out, err = run_python(script)
    assert rc == 0, err
    assert out.strip() == "[]"


def test_a_process_pays_its_first_loads_once():
    """The same call stays in NetworkX while the engine would have to load, and
    comes here once an explicit call has loaded it."""
    script = """
        import logging, sys
        import networkx as nx
        records = []
        handler = logging.Handler()
        handler.emit = lambda record: records.append(record.getMessage())
        logging.getLogger("networkx").addHandler(handler)
        logging.getLogger("networkx").setLevel(logging.DEBUG)
        G = nx.barabasi_albert_graph(3000, 3, seed=1)
        expected = nx.clustering(G)
        print(sum("the engine's import" in r for r in records), "numba" in sys.modules)
        assert nx.clustering(G, backend="tricount") == expected
        records.clear()
        assert nx.clustering(G) == expected
        print(sum("Using backend 'tricount' for call to 'clustering'" in r for r in records))
    """
    rc, out, err = run_python(script, NX_TRICOUNT_AUTOCONFIG="1")
    assert rc == 0, err
    assert out.split("\n")[:2] == ["1 False", "1"]


def test_each_load_is_charged_until_the_process_has_it():
    G = nx.karate_club_graph()
    cold = decide("clustering", (G,), {}, **COLD)
    assert "the engine's import" in cold and "the first count's start" in cold
    one = decide("clustering", (G,), {}, imported=True, started={"triangles"})
    assert isinstance(one, str) and "clustering's kernels" in one
    assert "import" not in one and "start" not in one
    # The engine's start is the first count of a process: triangles' kernels come with it.
    assert "loading" not in decide("triangles", (G,), {}, imported=True, started={"clustering"})


def test_tiny_graphs_stay_in_networkx_and_larger_ones_come_here_once_loaded():
    G = nx.karate_club_graph()
    for name in COSTS:
        assert isinstance(decide(name, _args(name, G), {}, **COLD), str), name
    # Warm, NetworkX still answers the smallest triangle counts and listings sooner.
    assert isinstance(decide("triangles", (G,), {}, **WARM), str)
    assert isinstance(decide("all_triangles", (G,), {}, **WARM), str)
    H = nx.barabasi_albert_graph(3_000, 3, seed=1)
    for name in COSTS:
        assert isinstance(decide(name, _args(name, H), {}, **COLD), str), name
        assert decide(name, _args(name, H), {}, **WARM) is True, name


def test_networkx_answers_a_few_nodes_of_a_large_graph(monkeypatch, caplog):
    # NetworkX reads only the few nodes' neighbourhoods, the backend converts the
    # whole graph. Many nodes, an iterator (which should_run must not consume) and an
    # explicit backend run tricount.
    G = nx.barabasi_albert_graph(5_000, 4, seed=1)
    few = [4990, 4995, 4999, "not a node", (1, 2)]
    assert "5 nodes" in decide("clustering", (G, few), {}, **WARM)
    assert "one node" in decide("clustering", (G, 4990), {}, **WARM)
    assert isinstance(decide("square_clustering", (G, few[:2]), {}, **WARM), str)
    assert decide("clustering", (G, list(G)), {}, **WARM) is True
    assert decide("clustering", (G, iter(few)), {}, **WARM) is True
    assert decide("clustering", (G, None), {}, **WARM) is True
    # A 0-d array is sized but not iterable: the backend raises NetworkX's error.
    assert decide("clustering", (G, np.array(0)), {}, **WARM) is True
    # This process as if every function had run: the engine imported, each started.
    for function in dispatch.REGISTERED.values():
        assert function.implementation is not None
    monkeypatch.setattr(dispatch, "STARTED", set(COSTS))
    with nx.config(backend_priority=["tricount"], cache_converted_graphs=False):
        for f in (nx.triangles, nx.clustering, nx.square_clustering, nx.generalized_degree):
            caplog.clear()
            with caplog.at_level(logging.DEBUG):
                assert f(G, few) == f(G, few, backend="networkx")
            assert "5 nodes" in caplog.text and "tricount plan" not in caplog.text
        caplog.clear()
        with caplog.at_level(logging.DEBUG):
            assert nx.clustering(G, iter(few)) == nx.clustering(G, few, backend="networkx")
        assert "tricount plan" in caplog.text


def test_networkx_says_why_it_answers(caplog):
    G = nx.karate_club_graph()
    with nx.config(backend_priority=["tricount"]), caplog.at_level(logging.DEBUG, logger="networkx"):
        assert nx.triangles(G) == nx.triangles(G, backend="networkx")
    assert "NetworkX's estimate for every node of about 78 edges" in caplog.text


def test_a_kept_conversion_is_not_charged_again():
    G = nx.barabasi_albert_graph(2_000, 3, seed=1)
    assert "conversion 0 s" not in decide("triangles", (G,), {}, **COLD)
    with nx.config(cache_converted_graphs=True):
        nx.triangles(G, backend="tricount")
        assert "conversion 0 s" in decide("triangles", (G,), {}, **COLD)
    with nx.config(cache_converted_graphs=False):
        assert "conversion 0 s" not in decide("triangles", (G,), {}, **COLD)


def test_cupy_is_charged_where_a_call_may_import_it(monkeypatch):
    G = nx.karate_club_graph()
    monkeypatch.setattr(should_run, "_installed", lambda package: True)
    monkeypatch.delitem(sys.modules, "cupy", raising=False)
    assert "CuPy's import" in decide("triangles", (G,), {}, **WARM)
    assert "CuPy's import" not in decide("triangles", (G,), {"device": "cpu"}, **WARM)
    with nx.config.backends.tricount(device="cpu"):
        assert "CuPy's import" not in decide("triangles", (G,), {}, **WARM)


def test_decisions_read_a_bounded_sample(monkeypatch):
    # Regression: a rule called G.number_of_edges(), which sums every node's degree
    # in Python (a pass over every node), on every dispatched call.
    G = nx.path_graph(100_000)

    class CountingDict(dict):
        reads = 0

        def __getitem__(self, key):
            CountingDict.reads += 1
            return super().__getitem__(key)

    G._adj = G._succ = CountingDict(G._adj)
    monkeypatch.setattr(G, "number_of_edges", lambda: pytest.fail("number_of_edges() walked the graph"))
    assert isinstance(decide("clustering", (G,), {}, **COLD), str)
    assert CountingDict.reads <= SAMPLE_NODES
    CountingDict.reads = 0
    decide("clustering", (G, list(G)), {}, **WARM)
    # The sample's degrees, then the nodes' neighbourhoods up to the limit (and the
    # neighbour list of the node that passes it).
    assert CountingDict.reads <= SAMPLE_NODES + should_run.WORK_VISITS + 1


def test_graph_work_is_exact_on_small_graphs_and_close_on_large(monkeypatch):
    monkeypatch.setattr(should_run, "WORK_VISITS", 10**9)
    for G in (nx.karate_club_graph(), nx.DiGraph(nx.gnp_random_graph(100, 0.1, seed=1))):
        work, edges = graph_work(G)
        assert work == networkx_work(G, G) and edges == G.number_of_edges()
    # A graph whose first nodes are its hubs: the sample spans its order.
    G = nx.barabasi_albert_graph(20_000, 5, seed=1)
    exact, edges = graph_work(G, sample=len(G))
    assert exact == networkx_work(G, G) and edges == G.number_of_edges()
    for squares in (False, True):
        sampled, exact = graph_work(G, squares)[0], graph_work(G, squares, sample=len(G))[0]
        assert abs(sampled.neighbours / exact.neighbours - 1) < 0.1
        assert abs(sampled.steps / exact.steps - 1) < 0.5


@pytest.mark.parametrize("name", sorted(dispatch.REGISTERED))
def test_registered_functions_keep_their_signature_and_names(name):
    function = dispatch.REGISTERED[name]
    implementation = function.implementation
    assert inspect.signature(function) == inspect.signature(implementation)
    assert function.__name__ == name
    assert getattr(importlib.import_module(function.__module__), name) is function
    assert getattr(nx_tricount, name) is function
    assert pickle.loads(pickle.dumps(function)) is function
    rendered = pydoc.render_doc(function, renderer=pydoc.plaintext)
    assert f"{name}{inspect.signature(implementation)}" in rendered


def _lines(text):
    return [line.rstrip() for line in text.split("\n")]


@pytest.mark.parametrize("name", sorted(dispatch.REGISTERED))
def test_a_function_is_documented_by_networkxs_docstring_and_the_note(name):
    """``help(nx_tricount.<name>)`` shows NetworkX's docstring and then the
    backend's note, the same text ``help(nx.<name>)`` ends its tricount part with."""
    original = getattr(nx, name).orig_func.__doc__
    ours = dispatch.REGISTERED[name].__doc__
    assert ours.startswith(original.rstrip())
    section = _lines(functions.backend_section(name))
    assert _lines(ours)[-len(section) - 1 : -1] == section
    note = functions.NOTES[name].split("\n")
    assert section[3 : 3 + len(note)] == [f"      {line}" for line in note]
    rendered = pydoc.render_doc(dispatch.REGISTERED[name], renderer=pydoc.plaintext)
    assert inspect.cleandoc(original).split("\n")[0] in rendered and note[-1].strip() in rendered
    # NetworkX's own docstring, built from get_info: the same tricount part.
    theirs = _lines(getattr(nx, name).__doc__)
    start = theirs.index(section[2])
    assert theirs[start : start + len(section) - 2] == section[2:]


@pytest.mark.parametrize("name", sorted(dispatch.REGISTERED))
def test_get_info_declares_each_functions_note_and_keyword_settings(name):
    """The additional parameters NetworkX lists are the keyword-only settings of
    the implementation (``as_frame``, for direct calls only, is in the note)."""
    described = nx.utils.backends.backend_info["tricount"]["functions"][name]
    assert described["additional_docs"] == functions.NOTES[name]
    listed = {parameter.split(" : ")[0] for parameter in described["additional_parameters"]}
    signature = inspect.signature(dispatch.REGISTERED[name].implementation)
    keywords = {p.name for p in signature.parameters.values() if p.kind is p.KEYWORD_ONLY}
    assert listed == keywords - {"as_frame"}
    assert listed == (set(functions.SETTINGS) if FUNCTIONS[name] == "counts" else set())
    assert ("as_frame" in keywords) == ("as_frame=True" in functions.NOTES[name])


def _recorded_boundary(monkeypatch):
    """Replace the GPU-failure boundary by one that records each entry and turns a
    RuntimeError inside it into the backend's GPUKernelError."""
    entered = []

    @contextlib.contextmanager
    def recording(what):
        entered.append(what)
        try:
            yield
        except RuntimeError as exc:
            raise errors.GPUKernelError(f"failed while {what}") from exc

    monkeypatch.setattr(errors, "gpu_errors", recording)  # read at each call
    monkeypatch.setattr(edges, "gpu_errors", recording)  # imported with the module
    return entered


@pytest.mark.parametrize("name", sorted(set(dispatch.REGISTERED) - {"from_pandas_edgelist"}))
def test_each_call_passes_through_the_gpu_boundary_once(monkeypatch, name):
    entered = _recorded_boundary(monkeypatch)
    G = nx.karate_club_graph()
    args = (G, 3) if name == "k_truss" else (G, [0, 1]) if name != "transitivity" else (G,)
    for call in (getattr(nx_tricount, name), functools.partial(getattr(nx, name), backend="tricount")):
        entered.clear()
        result = call(*args)
        assert entered == [f"computing nx.{name}"]
        if name == "all_triangles":  # reading the triangles is inside the boundary too
            list(result)
            assert entered == [f"computing nx.{name}"] * 2
    entered.clear()
    nx_tricount.edge_triangles(G)
    assert entered == ["computing nx_tricount.edge_triangles"]


def test_a_failure_while_the_triangles_are_read_meets_the_boundary(monkeypatch):
    _recorded_boundary(monkeypatch)

    def failing(*args, **kwargs):
        raise RuntimeError("a kernel failed")
        yield

    monkeypatch.setattr(family, "triangle_batches", failing)
    triangles = nx_tricount.all_triangles(nx.complete_graph(4))
    with pytest.raises(errors.GPUKernelError, match="while computing nx.all_triangles"):
        next(triangles)


@pytest.mark.gpu
def test_a_cuda_error_of_any_function_names_it(monkeypatch):
    import cupy

    def failing(*args, **kwargs):
        raise cupy.cuda.runtime.CUDARuntimeError(700)

    def failing_batches(*args, **kwargs):
        yield from failing()

    monkeypatch.setattr(family, "triangle_batches", failing_batches)
    monkeypatch.setattr(family, "k_truss", failing)
    G = nx.complete_graph(5)
    with pytest.raises(errors.GPUKernelError, match="CUDA error while computing nx.all_triangles"):
        list(nx.all_triangles(G, backend="tricount", device="gpu"))
    with pytest.raises(errors.GPUKernelError, match="CUDA error while computing nx.k_truss"):
        nx_tricount.k_truss(G, 3, device="gpu")


def test_a_call_is_remembered_as_started():
    nx_tricount.transitivity(nx.complete_graph(4))
    assert "transitivity" in dispatch.STARTED
