"""nx-tricount: a NetworkX backend for triangle counting on the GPU and CPU.

Use it through NetworkX (``nx.triangles(G, backend="tricount")``), or directly::

    import nx_tricount
    G = nx_tricount.from_edges(src, dst)      # NumPy or CuPy arrays
    G = nx_tricount.from_frame(df)            # pandas or cuDF frame
    nx_tricount.triangles(G)

Attributes are imported lazily, so that ``import networkx`` (which loads this
package's ``metadata.info`` module) pulls in neither numba, CuPy nor cuDF; the NetworkX
functions are light objects (:mod:`nx_tricount.nxapi.dispatch`) that import their
implementation at their first call.
"""

import importlib

# NetworkX first: importing it registers this backend (it imports ``_info`` and
# ``config``). Were ``config`` imported first, its own ``import networkx`` would
# reach back into the half-imported ``config`` and the backend would lose its
# configuration.
importlib.import_module("networkx")

from .metadata.catalog import FUNCTIONS  # noqa: E402  (imports nothing)

__version__ = "0.1.0"

#: Public name -> submodule that defines it (or that is it, for a submodule; the
#: NetworkX functions are those of ``interface.BackendInterface``).
_LAZY = {
    "TriGraph": "classes.graph",
    "from_edges": "io.edge_arrays",
    "from_frame": "io.frames",
    "from_networkx": "io.convert",
    "to_networkx": "io.convert",
    **{name: "nxapi.interface" for name in FUNCTIONS},
    "edge_triangles": "nxapi.edges",
    "dask_triangles": "execution.dask",
    "dask_transitivity": "execution.dask",
    "make_plan": "planning.plan",
    "Plan": "planning.plan",
    "count": "algorithms",
    "generators": "io.generators",
}

__all__ = ["__version__", *_LAZY]


def __getattr__(name):
    if name in _LAZY:
        module = importlib.import_module(f"{__name__}.{_LAZY[name]}")
        if name in FUNCTIONS:
            value = getattr(module.BackendInterface, name)
        else:
            value = module if _LAZY[name].endswith(f".{name}") else getattr(module, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(__all__)
