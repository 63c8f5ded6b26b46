"""Configuration, device selection, the plan, and zero-code-change dispatch."""

import networkx as nx
import pytest

import nx_tricount
from nx_tricount.config import CHOICES, KERNEL_PARAMETERS
from nx_tricount.device import GPUNotAvailableError, gpu_available
from subprocesses import run_python as run_python_result


def run_python(code, **env):
    """Run ``code`` in a fresh interpreter; its stdout, after checking it succeeded."""
    returncode, out, err = run_python_result(code, **env)
    assert returncode == 0, err
    return out


def test_defaults_and_registration():
    config = nx.config.backends.tricount
    assert {key: config[key] for key in CHOICES} == {key: CHOICES[key][0] for key in CHOICES}
    assert "tricount" in nx.triangles.backends
    for name in ("triangles", "clustering", "average_clustering", "transitivity"):
        assert "tricount" in getattr(nx, name).backends


@pytest.mark.parametrize("key", list(CHOICES))
def test_invalid_values_name_the_accepted_ones(key):
    config = nx.config.backends.tricount
    accepted = ", ".join(repr(v) for v in CHOICES[key])
    with pytest.raises(ValueError, match=f"Invalid tricount {key} 'bogus'; accepted values are {accepted}"):
        setattr(config, key, "bogus")
    with pytest.raises(ValueError, match="accepted values"):
        config[key] = "bogus"
    with pytest.raises(ValueError, match="accepted values"):
        with config(**{key: "bogus"}):
            pass
    with pytest.raises(ValueError, match="accepted values"):
        nx.triangles(nx.complete_graph(3), backend="tricount", **{key: "bogus"})
    assert config[key] == CHOICES[key][0]


@pytest.mark.parametrize("key", list(KERNEL_PARAMETERS))
def test_kernel_parameters_take_none_or_an_int(key):
    config = nx.config.backends.tricount
    smallest = KERNEL_PARAMETERS[key][1].smallest
    assert config[key] is None
    for bad in (smallest - 1, 2.5, "8", True):
        with pytest.raises(ValueError, match=f"Invalid tricount {key} .*an int >= {smallest}"):
            setattr(config, key, bad)
    with config(**{key: smallest + 3}):
        assert config[key] == smallest + 3
    assert config[key] is None


def test_kernel_parameters_reach_the_gpu_plan_only():
    config = nx.config.backends.tricount
    with config(hash_block_degree=64, wedge_spread=8):
        assert nx_tricount.make_plan(algorithm="hash", device="cpu").parameters == ()
        if gpu_available():
            assert nx_tricount.make_plan(algorithm="hash", device="gpu").parameters == (
                ("block_degree", 64),
            )
            plan = nx_tricount.make_plan(algorithm="wedge", device="gpu")
            assert plan.parameters == (("spread", 8),) and "spread=8" in str(plan)


def test_unknown_setting_is_rejected():
    with pytest.raises(AttributeError, match="Invalid config name"):
        nx.config.backends.tricount.algorithmm = "merge"


def test_context_manager_and_per_call_override():
    config = nx.config.backends.tricount
    with config(algorithm="wedge", ordering="none", device="cpu"):
        plan = nx_tricount.make_plan()
        assert (plan.algorithm, plan.ordering, plan.device) == ("wedge", "none", "cpu")
        assert nx_tricount.make_plan(algorithm="merge").algorithm == "merge"
    assert config.algorithm == "auto"
    config.algorithm = "wedge"
    try:
        assert nx_tricount.make_plan().algorithm == "wedge"
    finally:
        config.algorithm = "auto"


def test_plan_is_deterministic_and_explains_auto():
    first = nx_tricount.make_plan()
    assert first == nx_tricount.make_plan()
    text = str(first)
    for key in ("algorithm", "orientation", "ordering", "device"):
        assert f"{key} auto ->" in text
    explicit = nx_tricount.make_plan(algorithm="merge", orientation="id", ordering="none", device="cpu")
    assert explicit.reasons == ()


@pytest.mark.skipif(gpu_available(), reason="this machine has a GPU")
def test_gpu_without_gpu_is_a_clear_error():
    with pytest.raises(GPUNotAvailableError, match="device='cpu'"):
        nx.triangles(nx.complete_graph(3), backend="tricount", device="gpu")
    with nx.config.backends.tricount(device="gpu"):
        with pytest.raises(GPUNotAvailableError, match="device='gpu' was requested"):
            nx.transitivity(nx.complete_graph(3), backend="tricount")
    assert nx_tricount.make_plan(device="auto").device == "cpu"


def test_get_info_imports_nothing_heavy():
    out = run_python(
        """
        import sys
        import networkx as nx
        assert "tricount" in nx.utils.backends.backend_info
        heavy = [m for m in ("numba", "cupy", "cudf", "nx_tricount.functions", "nx_tricount.interface") if m in sys.modules]
        print(heavy)
        """
    )
    assert out.strip() == "[]"


def test_importing_the_package_before_networkx_keeps_the_configuration():
    out = run_python(
        """
        import warnings
        warnings.simplefilter("error")
        import nx_tricount.plan
        import networkx as nx
        print(nx.config.backends.tricount.algorithm, nx_tricount.plan.make_plan().algorithm)
        """
    )
    assert out.split()[0] == "auto"


def test_environment_sets_defaults():
    out = run_python(
        "import networkx as nx; c = nx.config.backends.tricount; print(c.algorithm, c.device)",
        NX_TRICOUNT_ALGORITHM="wedge",
        NX_TRICOUNT_DEVICE="cpu",
    )
    assert out.split() == ["wedge", "cpu"]
    out = run_python(
        "import networkx as nx; print(nx.config.backends.tricount.hash_block_degree)",
        NX_TRICOUNT_HASH_BLOCK_DEGREE="64",
    )
    assert out.strip() == "64"


def test_autoconfig_dispatches_unchanged_scripts():
    script = """
        import logging, networkx as nx
        records = []
        handler = logging.Handler()
        handler.emit = lambda record: records.append(record.getMessage())
        logger = logging.getLogger("networkx")
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)
        G = nx.complete_graph(20)  # 190 edges: not left to NetworkX as a tiny graph
        assert nx.triangles(G) == {v: 171 for v in range(20)}
        assert nx.transitivity(G) == 1.0
        print(nx.config.backend_priority.algos)
        print(sum("Using backend 'tricount'" in r for r in records))
    """
    out = run_python(script, NX_TRICOUNT_AUTOCONFIG="True").split("\n")
    assert out[0] == "['tricount']"
    assert int(out[1]) == 2
    out = run_python(script, NX_TRICOUNT_AUTOCONFIG="True", NETWORKX_BACKEND_PRIORITY="networkx").split("\n")
    assert out[0] == "['tricount', 'networkx']"
    out = run_python(script).split("\n")
    assert out[0] == "[]" and int(out[1]) == 0
