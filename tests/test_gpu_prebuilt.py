"""The kernels compiled ahead give what NVRTC's give: every algorithm and the
triangle family, run once with NVRTC's kernels and once with fatbins nvcc built
for the GPU here (nx_tricount/gpu/kernel_build.py), which every kernel must come
from; with them, a new process's first counts compile nothing. Run on a GPU
machine (``pytest -m gpu``); needs nvcc."""

import logging
import re
import shutil
from importlib.resources import files

import networkx as nx
import numpy as np
import pytest

from nx_tricount.algorithms import count
from nx_tricount.gpu import kernel_build, runtime
from nx_tricount.io.generators import rmat_edges
from nx_tricount.metadata.config import CHOICES
from nx_tricount.preprocess import prepare_undirected
from subprocesses import run_python

pytestmark = [pytest.mark.gpu, pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not on PATH")]

GPU_ALGORITHMS = tuple(a for a in CHOICES["algorithm"] if a != "auto")


@pytest.fixture(scope="module")
def fatbins(tmp_path_factory):
    """Fatbins of every variant for this GPU's architecture."""
    import cupy

    capability = int(cupy.cuda.Device().compute_capability)
    nvcc = kernel_build.find_nvcc()
    if capability not in kernel_build.buildable_archs(nvcc):
        pytest.skip(f"nvcc builds no binary for sm_{capability}")
    built = tmp_path_factory.mktemp("built")
    kernel_build.build(files("nx_tricount.kernels"), built, nvcc=nvcc, archs=(capability,))
    return built


def _workload():
    """Every algorithm's counts in every mode, and the NetworkX functions, on a
    small R-MAT graph, on the GPU."""
    import cupy

    src, dst = rmat_edges(10, 8, seed=3, device="gpu")
    n = 1 << 10
    rng = np.random.default_rng(1)
    values = [cupy.asarray(rng.integers(1, 4, src.size)), cupy.asarray(rng.random(src.size))]
    results = {}
    for algorithm in GPU_ALGORITHMS:
        for ordering in ("none", "degree"):
            p = prepare_undirected(src, dst, n, orientation="degree", ordering=ordering)
            for mode in ("total", "per_node", "per_edge"):
                results[algorithm, ordering, mode] = getattr(count(p, algorithm, mode, "gpu"), mode)
            for i, value in enumerate(values):
                weighted = prepare_undirected(
                    src, dst, n, orientation="degree", ordering=ordering, values=value
                )
                sums = count(weighted, algorithm, "per_node", "gpu").per_node
                results[algorithm, ordering, "weighted", i] = sums
    edges = list(zip(cupy.asnumpy(src).tolist(), cupy.asnumpy(dst).tolist()))
    G, D = nx.Graph(edges), nx.DiGraph(edges)
    G.remove_edges_from(nx.selfloop_edges(G))
    nx.set_edge_attributes(G, {e: float(i % 5 + 1) for i, e in enumerate(G.edges)}, "weight")
    with nx.config(cache_converted_graphs=False):
        for algorithm in GPU_ALGORITHMS:
            call = dict(backend="tricount", device="gpu", algorithm=algorithm)
            results["transitivity", algorithm] = nx.transitivity(G, **call)
            results["clustering", algorithm] = nx.clustering(G, **call)
            results["weighted clustering", algorithm] = nx.clustering(G, weight="weight", **call)
            results["directed clustering", algorithm] = nx.clustering(D, **call)
        call = dict(backend="tricount", device="gpu")
        results["square_clustering"] = nx.square_clustering(G, **call)
        results["generalized_degree"] = nx.generalized_degree(G, **call)
        results["all_triangles"] = sorted(tuple(sorted(t)) for t in nx.all_triangles(G, **call))
        results["k_truss"] = sorted(tuple(sorted(e)) for e in nx.k_truss(G, 4, **call).edges)
    return {key: cupy.asnumpy(v) if isinstance(v, cupy.ndarray) else v for key, v in results.items()}


def _run(monkeypatch, caplog, built):
    """:func:`_workload` with the kernels of ``built`` (None: NVRTC), from new
    modules, and how each module was made."""
    monkeypatch.setattr(runtime, "prebuilt_kernels", built)
    runtime._function.cache_clear()
    runtime._module.cache_clear()
    caplog.clear()
    results = _workload()
    messages = [r.getMessage() for r in caplog.records if r.name == "nx_tricount"]
    return results, [message for message in messages if message.startswith("kernels/")]


def _assert_same(a, b):
    if isinstance(a, dict):
        assert list(a) == list(b)
        for key in a:
            _assert_same(a[key], b[key])
    elif isinstance(a, (float, np.ndarray)) and np.asarray(a).dtype.kind == "f":
        np.testing.assert_allclose(a, b, rtol=1e-12)  # float sums in another order
    elif isinstance(a, np.ndarray):
        np.testing.assert_array_equal(a, b)
    else:
        assert a == b


def test_fatbins_give_nvrtc_results(monkeypatch, caplog, fatbins):
    caplog.set_level(logging.DEBUG, logger="nx_tricount")
    reference, compiled = _run(monkeypatch, caplog, None)
    assert compiled and all("compiled by NVRTC" in line for line in compiled)
    results, loaded = _run(monkeypatch, caplog, fatbins)
    # Every variant the workload uses was compiled ahead (kernel_build.VARIANTS).
    assert len(loaded) == len(compiled)
    assert all("loaded from" in line and "binary" in line for line in loaded), loaded
    assert list(results) == list(reference)
    for key in reference:
        _assert_same(results[key], reference[key])


def test_first_counts_compile_no_kernel(fatbins, tmp_path):
    """A new process with the fatbins and an empty CuPy cache: triangles,
    clustering (unweighted, weighted and directed), average clustering,
    transitivity and square clustering of a small graph on the GPU give
    NetworkX's results and compile nothing (CuPy writes each kernel it compiles,
    its own elementwise ones too, to that cache, which stays empty)."""
    cache = tmp_path / "cupy_cache"
    cache.mkdir()
    code = f"""
        import math
        from pathlib import Path
        import networkx as nx
        from nx_tricount.gpu import runtime
        from nx_tricount.io.generators import rmat_edges

        runtime.prebuilt_kernels = Path({str(fatbins)!r})
        src, dst = rmat_edges(9, 8, seed=5)
        G = nx.Graph(zip(src.tolist(), dst.tolist()))
        G.remove_edges_from(nx.selfloop_edges(G))
        gpu = dict(backend="tricount", device="gpu")
        for function in (nx.triangles, nx.clustering, nx.average_clustering, nx.transitivity,
                         nx.square_clustering):
            assert function(G, **gpu) == function(G), function.__name__
        D = nx.DiGraph(zip(src.tolist(), dst.tolist()))  # self-loops and reciprocal pairs
        assert nx.clustering(D, **gpu) == nx.clustering(D)
        weights = {{e: float(i % 5 + 1) for i, e in enumerate(G.edges)}}
        nx.set_edge_attributes(G, weights, "weight")
        ours, theirs = nx.clustering(G, weight="weight", **gpu), nx.clustering(G, weight="weight")
        assert list(ours) == list(theirs)
        assert all(math.isclose(ours[v], theirs[v], rel_tol=1e-12) for v in ours)
    """
    returncode, _, stderr = run_python(
        code, CUPY_CACHE_DIR=str(cache), CUPY_CACHE_IN_MEMORY="0", CUPY_CACHE_SAVE_CUDA_SOURCE="1"
    )
    assert returncode == 0, stderr
    entry = r"__global__\s+void\s+(?:__launch_bounds__\([^)]*\)\s+)?(\w+)"
    compiled = sorted(name for source in cache.glob("*.cu") for name in re.findall(entry, source.read_text()))
    assert not any(cache.iterdir()), f"compiled at run time: {compiled}"
