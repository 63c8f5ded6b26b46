"""The NetworkX functions of the backend, as NetworkX's dispatcher finds them.

Each is a :class:`NetworkXFunction`: a light object on
:class:`~nx_tricount.nxapi.interface.BackendInterface` (and the package) that
NetworkX asks ``should_run`` (:mod:`nx_tricount.nxapi.should_run`) without the
engine; the module that implements it, with NumPy and numba, is imported at its
first call (or the first look at its signature). Its docstring is NetworkX's,
followed by the backend's note (:mod:`nx_tricount.metadata.functions`, which
NetworkX's own docstring shows too), and each call passes through the backend's
one GPU-failure boundary (:func:`nx_tricount.gpu.errors.gpu_errors`). The
implementations attach themselves with :func:`networkx_function`.
:data:`REGISTERED` holds one per name of :data:`nx_tricount.metadata.catalog.FUNCTIONS`,
which ``import networkx`` reads (tests/test_should_run.py checks that each has
its implementation, with its signature and docstring).
"""

import contextlib
import importlib
import inspect
import sys

import networkx as nx

from ..metadata.catalog import FUNCTIONS
from ..metadata.functions import backend_section
from . import should_run

__all__ = ["REGISTERED", "IMPLEMENTED_IN", "STARTED", "NetworkXFunction", "networkx_function"]

#: Function name -> the module of the package that implements it, named after
#: NetworkX's module that defines the function.
IMPLEMENTED_IN = {
    "triangles": "cluster",
    "clustering": "cluster",
    "average_clustering": "cluster",
    "transitivity": "cluster",
    "square_clustering": "cluster",
    "generalized_degree": "cluster",
    "all_triangles": "cluster",
    "k_truss": "core",
    "from_pandas_edgelist": "convert_matrix",
}

#: The functions that have been called in this process (their kernels are loaded).
STARTED = set()


class NetworkXFunction:
    # No class docstring: ``__doc__`` is a property (as on NetworkX's own
    # dispatchable functions), so that help() shows the function's.

    def __init__(self, name, module):
        self.__name__ = self.__qualname__ = name
        self.__module__ = f"{__package__}.{module}"
        self._implementation = None
        self._doc = None

    @property
    def implementation(self):
        """The function itself, its module imported on first use."""
        if self._implementation is None:
            importlib.import_module(self.__module__)  # its @networkx_function attaches it
            if self._implementation is None:
                raise ImportError(f"{self.__module__} defines no @networkx_function {self.__name__}")
        return self._implementation

    @property
    def __doc__(self):
        """NetworkX's docstring of the function, then the backend's note."""
        if self._doc is None:
            networkx_doc = getattr(nx, self.__name__).orig_func.__doc__
            self._doc = f"{networkx_doc.rstrip()}\n\n{backend_section(self.__name__)}\n"
        return self._doc

    @property
    def __signature__(self):
        return inspect.signature(self.implementation)

    def should_run(self, args, kwargs):
        """NetworkX's automatic dispatch: True, or why NetworkX answers the call
        sooner (:func:`nx_tricount.nxapi.should_run.decide`)."""
        if self.__name__ not in should_run.COSTS:  # builds a graph from a frame: no NetworkX graph to weigh
            return True
        imported = any(f"{__package__}.{module}" in sys.modules for module in set(IMPLEMENTED_IN.values()))
        return should_run.decide(self.__name__, args, kwargs, imported=imported, started=STARTED)

    def __call__(self, *args, **kwargs):
        implementation = self.implementation
        with _gpu_boundary(self.__name__), _host_threads(args):
            result = implementation(*args, **kwargs)
        STARTED.add(self.__name__)
        if inspect.isgenerator(result):  # all_triangles: the work goes on as it is read
            return _read_within_boundary(self.__name__, result)
        return result

    def __get__(self, instance, owner=None):
        # On a class (BackendInterface) it stays itself, as a staticmethod would
        # (whose wrapping would read ``__doc__``); inspect and pydoc take it for a routine.
        return self

    def __reduce__(self):
        return self.__qualname__  # pickled by name, as a function is

    def __repr__(self):
        return f"<function {self.__module__}.{self.__qualname__}>"


#: ``nx_tricount.gpu.errors``, imported at the first call: loading the backend stays light.
_errors = None


def _host_threads(args):
    """numba's threads for a call whose graph is ``args[0]``: one for a small graph
    the backend holds (a ``TriGraph``, as NetworkX's dispatcher passes it;
    :func:`~nx_tricount.gpu.device.host_threads`), else all of them."""
    from ..classes.graph import TriGraph
    from ..gpu.device import host_threads

    if args and isinstance(args[0], TriGraph):
        return host_threads(int(args[0].src.size))
    return contextlib.nullcontext()


def _gpu_boundary(name):
    """The GPU-failure boundary of a call of function ``name``."""
    global _errors
    if _errors is None:
        from ..gpu import errors

        _errors = errors
    return _errors.gpu_errors(f"computing nx.{name}")


def _read_within_boundary(name, generator):
    """Yield the items of ``generator``, a call's result, inside its boundary."""
    with _gpu_boundary(name):
        yield from generator


#: Function name -> its :class:`NetworkXFunction`.
REGISTERED = {name: NetworkXFunction(name, IMPLEMENTED_IN[name]) for name in FUNCTIONS}


def networkx_function(func):
    """Attach ``func`` as the implementation of the backend's NetworkX function
    of the same name, and return that function (what the package exports).

    ``func`` takes NetworkX's parameters in NetworkX's order; the backend's
    settings are keyword-only (:data:`nx_tricount.metadata.functions.SETTINGS`).
    The function's docstring is NetworkX's with the note that
    :data:`nx_tricount.metadata.functions.NOTES` declares for its name (where
    ``get_info`` reads it too); ``func``'s own says how it is computed.
    """
    registered = REGISTERED[func.__name__]
    registered._implementation = func
    return registered
