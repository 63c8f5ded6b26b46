"""Configuration, device selection, the plan, and zero-code-change dispatch."""

import networkx as nx
import numpy as np
import pytest

import nx_tricount
from nx_tricount.gpu.device import GPUNotAvailableError, gpu_available
from nx_tricount.metadata.catalog import SCALE_OUT
from nx_tricount.metadata.config import (
    CHOICES,
    ENVIRONMENT_ERRORS,
    KERNEL_PARAMETERS,
    TricountConfig,
    autoconfig_requested,
    check_environment,
    config_from_environment,
    memory_bytes,
)
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
    with pytest.raises(ValueError, match="accepted values"), config(**{key: "bogus"}):
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
            assert nx_tricount.make_plan(algorithm="hash", device="gpu").parameters == (("block_degree", 64),)
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
    with (
        nx.config.backends.tricount(device="gpu"),
        pytest.raises(GPUNotAvailableError, match="device='gpu' was requested"),
    ):
        nx.transitivity(nx.complete_graph(3), backend="tricount")
    assert nx_tricount.make_plan(device="auto").device == "cpu"


def test_get_info_imports_nothing_heavy():
    out = run_python(
        """
        import sys
        import networkx as nx
        assert "tricount" in nx.utils.backends.backend_info
        heavy = ("numba", "cupy", "cudf", "nx_tricount.nxapi.cluster", "nx_tricount.nxapi.interface")
        print([m for m in heavy if m in sys.modules])
        """
    )
    assert out.strip() == "[]"


def test_importing_the_package_before_networkx_keeps_the_configuration():
    out = run_python(
        """
        import warnings
        warnings.simplefilter("error")
        import nx_tricount.planning.plan
        import networkx as nx
        print(nx.config.backends.tricount.algorithm, nx_tricount.planning.plan.make_plan().algorithm)
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
        G = nx.complete_graph(60)
        # An explicit call loads the engine: NetworkX would answer this graph sooner than a
        # process's first call here, but not sooner than the calls after it.
        nx.transitivity(G, backend="tricount")
        records.clear()
        assert nx.triangles(G) == {v: 1711 for v in range(60)}
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


# --- bad values: refused at once, or at the first call for the environment ----


@pytest.fixture
def environment_errors():
    """Restore the errors of the environment this process started with."""
    saved = dict(ENVIRONMENT_ERRORS)
    yield ENVIRONMENT_ERRORS
    ENVIRONMENT_ERRORS.clear()
    ENVIRONMENT_ERRORS.update(saved)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("4096", 4096),
        ("4096B", 4096),
        ("1.0", 1),
        (" 20 gb ", 20 * 10**9),
        ("1.5GiB", 3 * 2**29),
        ("0.1GB", 10**8),
        ("4.35MB", 4_350_000),  # exact: not 4,349,999 from a float product
        ("1.0005kB", 1000),  # rounded down to whole bytes
        ("0.001kB", 1),
        (np.int64(7), 7),
        (10**30, 10**30),
    ],
)
def test_memory_limit_rule_accepts(text, expected):
    assert memory_bytes(text) == expected and type(memory_bytes(text)) is int
    config = nx.config.backends.tricount
    with config(memory_limit=text):
        assert memory_bytes(config.memory_limit) == expected


BAD_MEMORY_LIMITS = [
    "inf",
    "infGB",
    "1e400GB",
    "1e400",
    "nan",
    "nanGB",
    "0.1",
    "0.5B",
    "1.5B",
    "0",
    "0GB",
    "0.0001kB",
    "-1GB",
    "1e3",
    "1_000",
    "1 g b",
    "0x10",
    "１２",
    "GB",
    "",
    " ",
    "None",
    0,
    -1,
    True,
    1.5,
    1e9,
    float("inf"),
    float("nan"),
    [1],
]


@pytest.mark.parametrize("value", BAD_MEMORY_LIMITS, ids=repr)
def test_memory_limit_rule_refuses(value):
    rule = "a whole number of bytes .* rounded down to whole bytes and must come to at least 1 byte"
    with pytest.raises(ValueError, match=f"Invalid tricount memory_limit .*{rule}"):
        memory_bytes(value)


#: A bad value of each setting, and the words of its error naming what is accepted.
BAD_VALUES = [
    *[
        (key, value, "accepted values are 'auto'")
        for key in CHOICES
        for value in ("MERGE", " cpu", "", None, ["auto"], np.array(["auto"]))
    ],
    *[(key, value, "an int >= ") for key in KERNEL_PARAMETERS for value in (-1, 2**62 + 1, 4.0, "8", True)],
    ("wedge_spread", 2**31, "and <= 2147483647"),
    ("wedge_bitmap_rows", 2**17 + 1, "and <= 131072"),
    ("hash_chunk", 2**40, "and <= 2147483647"),
    *[
        ("partitions", value, "an int >= 1 and <= 256")
        for value in (0, 257, 10**30, 2.0, "3", float("nan"), True)
    ],
    *[("partitioning", value, "'hashed', 'range'") for value in ("HASHED", None, "", ["hashed"])],
    *[("memory_limit", value, "'20GB'") for value in ("inf", "0.1", "1e400GB", 1e9)],
    *[
        ("devices", value, "non-empty list of GPU ids")
        for value in ([], [True], [0.0], [-1], [0, None], "ALL", "0,1", None, {0}, range(2), np.array([0, 1]))
    ],
    *[("distributed", value, "None and 'dask'") for value in ("DASK", "", False, True)],
    *[("progress", value, "None, True and False") for value in (1, 0, 2, "true", "", np.True_)],
]


@pytest.mark.parametrize("key,value,accepted", BAD_VALUES, ids=repr)
def test_a_bad_value_is_refused_at_once_and_changes_nothing(key, value, accepted):
    config = nx.config.backends.tricount
    before = dict(config)

    def block():
        with config(**{"algorithm": "merge", key: value}):
            pass

    for how, assign in {
        "attribute": lambda: setattr(config, key, value),
        "item": lambda: config.__setitem__(key, value),
        "block": block,
    }.items():
        with pytest.raises(ValueError, match=f"Invalid tricount {key} .*{accepted}"):
            assign()
        assert dict(config) == before, how
    # Per call, None leaves a choice to the configuration.
    if key in SCALE_OUT or (key in CHOICES and value is not None):
        with pytest.raises(ValueError, match=f"Invalid tricount {key} .*{accepted}"):
            nx_tricount.make_plan(nx.path_graph(3), **{key: value})
    if key in CHOICES and value is not None:
        with pytest.raises(ValueError, match=f"Invalid tricount {key} .*{accepted}"):
            nx.triangles(nx.complete_graph(3), backend="tricount", **{key: value})


def test_a_block_with_a_misspelt_name_sets_nothing():
    config = nx.config.backends.tricount
    with (
        pytest.raises(AttributeError, match="Invalid config name: 'algorithmm'"),
        config(algorithm="merge", algorithmm="merge"),
    ):
        pass
    assert config.algorithm == "auto"


def test_numpy_integers_are_taken_as_ints():
    config = nx.config.backends.tricount
    settings = dict(
        partitions=np.int64(3), memory_limit=np.uint32(4096), devices=(np.int32(1), 1), hash_chunk=np.int16(4)
    )
    with config(**settings):
        values = {key: config[key] for key in settings}
    # A GPU id listed twice gets two workers (tests/test_gpu_partitions.py).
    assert values == {"partitions": 3, "memory_limit": 4096, "devices": [1, 1], "hash_chunk": 4}
    numbers = (values["partitions"], values["memory_limit"], values["hash_chunk"], *values["devices"])
    assert all(type(number) is int for number in numbers)


#: ``NX_TRICOUNT_<KEY>`` texts that are not accepted, by setting.
BAD_ENVIRONMENT = {
    "memory_limit": [
        "inf",
        "infGB",
        "1e400GB",
        "1e400",
        "nan",
        "0.1",
        "0",
        "-1",
        "1e3",
        "1_000",
        "1 g b",
        "１２",
        "GB",
    ],
    "partitions": ["0", "-1", "2.5", "inf", "nan", "abc", "1_0", "１２", "9" * 23, "257", "true"],
    "partitioning": ["bogus", "none"],
    "devices": ["0,,1", "-1", "a", "1.5", "[0,1]", ",", "none", "0 1", "１"],
    "distributed": ["ray", "0", "false"],
    "progress": ["2", "maybe", "y"],
    "algorithm": ["bogus", "None", "me rge"],
    "orientation": ["bogus"],
    "ordering": ["x"],
    "device": ["cuda"],
    "wedge_spread": ["0", "-1", "2.0", "abc", "inf", "1e3", "１", str(2**31)],
    "wedge_bitmap_rows": ["-1", str(2**17 + 1)],
    "wedge_hub_words": [str(2**62 + 1)],
    "hash_block_degree": ["1"],
    "hash_chunk": ["0", "true"],
}


@pytest.mark.parametrize(
    "key,text", [(key, text) for key, texts in BAD_ENVIRONMENT.items() for text in texts], ids=repr
)
def test_a_bad_environment_value_keeps_the_default_and_fails_the_first_call(key, text, environment_errors):
    variable = f"NX_TRICOUNT_{key.upper()}"
    config = config_from_environment({variable: text})
    assert dict(config) == dict(TricountConfig())
    assert list(environment_errors) == [key]
    with pytest.raises(ValueError) as caught:
        check_environment(config)
    message = str(caught.value)
    assert f"environment variable {variable}={text!r} is not accepted: Invalid tricount {key}" in message
    assert "accepted values are" in message and f"{variable} takes" in message
    if key in CHOICES:
        check_environment(config, {key: CHOICES[key][1]})  # overridden for the call


@pytest.mark.parametrize(
    "variable,text,expected",
    [
        ("NX_TRICOUNT_MEMORY_LIMIT", " 1.5 GB ", "1.5 GB"),
        ("NX_TRICOUNT_MEMORY_LIMIT", "4096", "4096"),
        ("NX_TRICOUNT_MEMORY_LIMIT", "None", None),
        ("NX_TRICOUNT_PARTITIONS", " 3 ", 3),
        ("NX_TRICOUNT_PARTITIONS", "+2", 2),
        ("NX_TRICOUNT_PARTITIONS", "none", None),
        ("NX_TRICOUNT_PARTITIONING", "Range", "range"),
        ("NX_TRICOUNT_DEVICES", "0, 1", [0, 1]),
        ("NX_TRICOUNT_DEVICES", "1,1", [1, 1]),  # two workers on GPU 1
        ("NX_TRICOUNT_DEVICES", "ALL", "all"),
        ("NX_TRICOUNT_DISTRIBUTED", "DASK", "dask"),
        ("NX_TRICOUNT_DISTRIBUTED", "none", None),
        ("NX_TRICOUNT_PROGRESS", "yes", True),
        ("NX_TRICOUNT_PROGRESS", "Off", False),
        ("NX_TRICOUNT_PROGRESS", "NONE", None),
        ("NX_TRICOUNT_ALGORITHM", " MERGE ", "merge"),
        ("NX_TRICOUNT_ORDERING", "none", "none"),
        ("NX_TRICOUNT_ALGORITHM", "  ", "auto"),  # empty: as if unset
        ("NX_TRICOUNT_WEDGE_SPREAD", "None", None),
        ("NX_TRICOUNT_HASH_BLOCK_DEGREE", "64", 64),
    ],
)
def test_environment_texts_that_are_accepted(variable, text, expected, environment_errors):
    config = config_from_environment({variable: text})
    assert config[variable[len("NX_TRICOUNT_") :].lower()] == expected
    assert not environment_errors
    check_environment(config)


def test_an_unexpected_error_reading_the_environment_keeps_the_configuration(monkeypatch, environment_errors):
    defaults = dict(TricountConfig())

    def overflow(value):
        if value is not None:
            raise OverflowError("cannot convert float infinity to integer")

    monkeypatch.setattr("nx_tricount.metadata.config.memory_bytes", overflow)
    config = config_from_environment({"NX_TRICOUNT_MEMORY_LIMIT": "1GB"})
    assert dict(config) == defaults
    with pytest.raises(ValueError, match="NX_TRICOUNT_MEMORY_LIMIT='1GB' is not accepted: cannot convert"):
        check_environment(config)


@pytest.mark.parametrize(
    "text,requested",
    [
        (None, False),
        ("", False),
        (" ", False),
        ("1", True),
        ("TRUE", True),
        ("on", True),
        ("off", False),
        ("0", False),
        ("maybe", True),
    ],
)
def test_autoconfig_flag(text, requested, environment_errors):
    environ = {} if text is None else {"NX_TRICOUNT_AUTOCONFIG": text}
    assert autoconfig_requested(environ) is requested
    config = config_from_environment(environ)
    if text == "maybe":  # tricount goes first, so that the first call raises this
        accepted = "NX_TRICOUNT_AUTOCONFIG='maybe' is not accepted: .*1, true, yes or on"
        with pytest.raises(ValueError, match=accepted):
            check_environment(config, {"algorithm": "merge"})
    else:
        check_environment(config)


def test_bad_environment_values_never_break_import_networkx():
    """NX_TRICOUNT_MEMORY_LIMIT=inf once emptied the configuration inside ``import networkx``."""
    script = """
        import networkx as nx
        from nx_tricount.metadata.config import TricountConfig
        config = nx.config.backends.tricount
        print(dict(config) == dict(TricountConfig()))
        G = nx.complete_graph(20)  # not left to NetworkX as a tiny graph
        fixes = {"wedge_spread": 4, "partitions": 1, "memory_limit": "1GB", "devices": [0], None: None}
        for key, good in fixes.items():
            for call in (lambda: nx.triangles(G, backend="tricount"), lambda: nx.triangles(G)):
                try:
                    call()
                except ValueError as exc:
                    print(exc)
            if key:
                config[key] = good
    """
    bad = {
        "NX_TRICOUNT_WEDGE_SPREAD": "1e3",
        "NX_TRICOUNT_PARTITIONS": "9" * 23,
        "NX_TRICOUNT_MEMORY_LIMIT": "inf",
        "NX_TRICOUNT_DEVICES": "0,-1",
        "NX_TRICOUNT_AUTOCONFIG": "maybe",  # puts tricount first: the unchanged call raises too
    }
    lines = run_python(script, **bad).strip().split("\n")
    assert lines[0] == "True"
    assert len(lines) == 11, lines
    for (variable, value), pair in zip(bad.items(), zip(lines[1::2], lines[2::2])):
        for line in pair:
            assert f"environment variable {variable}={value!r} is not accepted" in line, line


def test_bad_memory_limit_with_autoconfig_fails_an_unchanged_script_clearly():
    rc, out, err = run_python_result(
        "import networkx as nx; nx.triangles(nx.complete_graph(20))",
        NX_TRICOUNT_AUTOCONFIG="1",
        NX_TRICOUNT_MEMORY_LIMIT="inf",
    )
    last = err.strip().split("\n")[-1]
    assert rc != 0 and last.startswith("ValueError: environment variable NX_TRICOUNT_MEMORY_LIMIT='inf'"), err
    assert "'20GB'" in last and "KeyError" not in err
