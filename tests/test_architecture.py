"""The layering of the package, read from its imports, and the registries.

Layers, lowest first (docs/architecture.md): a module may import modules of its
own layer and of the layers below, never above; no module reaches itself through
its imports (those inside functions included). The NetworkX layer reaches the
engine through the plan and the quantities only: no preprocessing, preparation,
algorithm, kernel-runtime or execution internals.
"""

import ast
import importlib
from pathlib import Path

import pytest

import nx_tricount
from nx_tricount.metadata.catalog import ALGORITHMS, FUNCTIONS

PACKAGE = Path(nx_tricount.__file__).parent

#: The subpackages (and top-level modules) of each layer, lowest first.
LAYERS = [
    {"metadata", "kernels"},
    {"gpu"},
    {"preprocess"},
    {"algorithms"},
    {"classes"},
    {"io"},
    {"planning"},
    {"execution"},
    {"quantities"},
    {"nxapi", "__init__", "__main__", "command_line"},
]
NETWORKX_LAYER = LAYERS[-1]
ENGINE_INTERNALS = ("preprocess", "algorithms", "execution", "classes.preparation", "gpu.runtime")
#: What NetworkX imports while ``import networkx`` runs, and what that may pull in.
LIGHT = ("metadata", "nxapi.interface", "nxapi.dispatch", "nxapi.should_run")


def _module(path):
    """Dotted name of a file of the package, relative to the package."""
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" and len(parts) > 1 else parts)


MODULES = sorted(PACKAGE.rglob("*.py"))
NAMES = {_module(p) for p in MODULES}


def _imports(path, module_level_only=False):
    """The package's modules ``path`` imports (module level and inside functions,
    or module level only), dotted relative to the package; a name imported from a
    package counts as its submodule when it is one."""
    tree = ast.parse(path.read_text())
    nodes = tree.body if module_level_only else ast.walk(tree)
    parts = path.relative_to(PACKAGE).parts
    package = list(parts[:-1])
    found = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = [*base, *(node.module.split(".") if node.module else ())]
            elif node.module and node.module.startswith("nx_tricount"):
                target = node.module.split(".")[1:]
            else:
                continue
            module = ".".join(target)
            for alias in node.names:
                sub = f"{module}.{alias.name}" if module else alias.name
                found.add(sub if sub in NAMES or alias.name == "kernels" else module)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("nx_tricount."):
                    found.add(alias.name.split(".", 1)[1])
    found.discard("")
    return found


GRAPH = {_module(p): _imports(p) for p in MODULES}


def _layer(module):
    component = module.split(".")[0]
    for index, layer in enumerate(LAYERS):
        if component in layer:
            return index
    raise AssertionError(f"{component!r} is in no layer of tests/test_architecture.py")


def _inside(module, prefixes):
    return any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes)


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_no_module_imports_a_layer_above_its_own(module):
    for imported in GRAPH[module]:
        assert _layer(imported) <= _layer(module), f"{module} imports {imported}, a layer above"


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if _layer(m) == len(LAYERS) - 1))
def test_networkx_layer_imports_no_engine_internals(module):
    reached = {m for m in GRAPH[module] if _inside(m, ENGINE_INTERNALS)}
    assert not reached, f"{module} imports {sorted(reached)}"


def _cycle_through(start):
    """A chain of imports from ``start`` back to itself, or None."""
    stack, seen = [(start, [start])], set()
    while stack:
        module, chain = stack.pop()
        for imported in GRAPH.get(module, ()):
            if imported == start:
                return [*chain, start]
            if imported not in seen and imported in GRAPH:
                seen.add(imported)
                stack.append((imported, [*chain, imported]))
    return None


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_no_import_circles(module):
    # A package's __init__ importing its own submodules is no circle.
    cycle = _cycle_through(module)
    if cycle and all(m == module or not m.startswith(module + ".") for m in cycle):
        pytest.fail(" -> ".join(cycle))


def test_what_networkx_loads_is_light():
    loaded = {_module(p): _imports(p, module_level_only=True) for p in MODULES if _inside(_module(p), LIGHT)}
    reached = {m for imports in loaded.values() for m in imports if not _inside(m, LIGHT)}
    assert not reached, f"loading the backend imports {sorted(reached)}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_modules_stay_short(path):
    lines = len(path.read_text().splitlines())
    assert lines <= 450, f"{path.name} has {lines} lines (limit 450)"


def test_registered_functions_are_the_declared_ones():
    from nx_tricount.nxapi.dispatch import REGISTERED
    from nx_tricount.nxapi.interface import BackendInterface

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
