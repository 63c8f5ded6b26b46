"""The registry of the NetworkX functions the backend implements.

Each public function registers once with :func:`networkx_function`, with its
``should_run`` beside it; :class:`~nx_tricount.interface.BackendInterface` and
the package's ``__all__`` derive from :data:`REGISTERED`. The names are also
declared in :data:`nx_tricount.catalog.FUNCTIONS`, which ``import networkx``
reads before these modules may be imported (tests/test_architecture.py checks
that the two agree).
"""

__all__ = ["REGISTERED", "networkx_function"]

#: Function name -> the registered function (with ``should_run`` set on it).
REGISTERED = {}


def _always(args, kwargs):
    return True


def networkx_function(func=None, *, should_run=None):
    """Register ``func`` as the backend's version of NetworkX's function of the
    same name.

    Parameters
    ----------
    func : callable
        Takes NetworkX's parameters in NetworkX's order; the backend's settings
        are keyword-only.
    should_run : callable, optional
        ``should_run(args, kwargs)`` for NetworkX's automatic dispatch: True, or
        a string saying why NetworkX itself should run the call (default: always
        run here).
    """
    if func is None:
        return lambda f: networkx_function(f, should_run=should_run)
    func.should_run = should_run or _always
    REGISTERED[func.__name__] = func
    return func
