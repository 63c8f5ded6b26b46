"""nx-tricount: a NetworkX backend for triangle counting on the GPU and CPU.

Use it through NetworkX (``nx.triangles(G, backend="tricount")``), or directly::

    import nx_tricount
    G = nx_tricount.from_edges(src, dst)      # NumPy or CuPy arrays
    G = nx_tricount.from_frame(df)            # pandas or cuDF frame
    nx_tricount.triangles(G)

Attributes are imported lazily, so that ``import networkx`` (which loads this
package's ``_info`` module) pulls in neither numba, CuPy nor cuDF; the NetworkX
functions are light objects (:mod:`nx_tricount.dispatch`) that import their
implementation at their first call.
"""

import importlib

# NetworkX first: importing it registers this backend (it imports ``_info`` and
# ``config``). Were ``config`` imported first, its own ``import networkx`` would
# reach back into the half-imported ``config`` and the backend would lose its
# configuration.
importlib.import_module("networkx")

from .catalog import FUNCTIONS  # noqa: E402  (imports nothing)

__version__ = "0.1.0"

#: Public name -> submodule that defines it (None: the name is a submodule; the
#: NetworkX functions are those of ``interface.BackendInterface``).
_LAZY = {
    "TriGraph": "graph",
    "from_edges": "edge_arrays",
    "from_frame": "frames",
    "from_networkx": "convert",
    "to_networkx": "convert",
    **{name: "interface" for name in FUNCTIONS},
    "edge_triangles": "edge_functions",
    "dask_triangles": "dask_frames",
    "dask_transitivity": "dask_frames",
    "make_plan": "plan",
    "Plan": "plan",
    "count": "algorithms",
    "generators": None,
}

__all__ = ["__version__", *_LAZY]


def __getattr__(name):
    if name in _LAZY:
        module = importlib.import_module(f"{__name__}.{_LAZY[name] or name}")
        if name in FUNCTIONS:
            value = getattr(module.BackendInterface, name)
        else:
            value = module if _LAZY[name] is None else getattr(module, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(__all__)
