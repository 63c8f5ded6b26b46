"""The layering of the package, read from its imports, and the registries.

Layers, lowest first (docs/architecture.md): a module may import modules of its
own layer and of the layers below, never above. The NetworkX layer reaches the
engine through the plan and ``terms`` only: no preprocessing, preparation or
algorithm internals.
"""

import ast
import importlib
from pathlib import Path

import pytest

import nx_tricount
from nx_tricount.catalog import ALGORITHMS, FUNCTIONS

PACKAGE = Path(nx_tricount.__file__).parent

LAYERS = [
    {"catalog", "config", "_info", "device", "labels", "python_sum", "runtime", "kernel_build",
     "transfers", "kernels", "generators"},
    {"preprocess"},
    {"algorithms"},
    {"graph", "preparation"},
    {"plan", "scale_out", "execute", "executors", "gpu_parts", "dask_frames", "terms", "edge_terms",
     "family_terms", "convert", "frames", "edge_arrays", "result_frames"},
    {"functions", "should_run", "edge_functions", "triangle_family", "node_selection", "dispatch",
     "interface", "__init__", "__main__", "command_line"},
]
NETWORKX_LAYER = LAYERS[-1]
ENGINE_INTERNALS = {"preprocess", "preparation", "algorithms", "runtime", "execute"}


def _component(path):
    """The top-level component of the package a file belongs to."""
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return parts[0]


def _layer(component):
    for index, layer in enumerate(LAYERS):
        if component in layer:
            return index
    raise AssertionError(f"{component!r} is in no layer of tests/test_architecture.py")


def _imported_components(path):
    """The package components ``path`` imports (module level and inside functions)."""
    tree = ast.parse(path.read_text())
    package = path.relative_to(PACKAGE).parent.parts
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = (*base, *(node.module.split(".") if node.module else ()))
                names = [] if node.module else [alias.name for alias in node.names]
            elif node.module and node.module.startswith("nx_tricount"):
                target = tuple(node.module.split(".")[1:])
                names = [] if len(target) else [alias.name for alias in node.names]
            else:
                continue
            found.update([target[0]] if target else names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("nx_tricount."):
                    found.add(alias.name.split(".")[1])
    return found


MODULES = sorted(p for p in PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_imports_a_layer_above_its_own(path):
    own = _component(path)
    for component in _imported_components(path):
        assert _layer(component) <= _layer(own), f"{own} imports {component}, a layer above"


@pytest.mark.parametrize(
    "path", [p for p in MODULES if _component(p) in NETWORKX_LAYER], ids=lambda p: p.name
)
def test_networkx_layer_imports_no_engine_internals(path):
    assert not _imported_components(path) & ENGINE_INTERNALS


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_modules_stay_short(path):
    lines = len(path.read_text().splitlines())
    limit = 300 if _component(path) in NETWORKX_LAYER else 400
    assert lines <= limit, f"{path.name} has {lines} lines (limit {limit})"


def test_registered_functions_are_the_declared_ones():
    from nx_tricount.dispatch import REGISTERED
    from nx_tricount.interface import BackendInterface

    assert set(REGISTERED) == set(FUNCTIONS)
    for name in FUNCTIONS:
        assert getattr(BackendInterface, name) is REGISTERED[name]
        assert getattr(nx_tricount, name) is REGISTERED[name]
        assert name in nx_tricount.__all__


@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_every_declared_algorithm_has_both_entry_points(name):
    module = importlib.import_module(f"nx_tricount.algorithms.{name}")
    assert callable(module.count_cpu) and callable(module.count_gpu)
    assert (Path(nx_tricount.__file__).parents[1] / "kernels" / f"{name}.cu").exists()
