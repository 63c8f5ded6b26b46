"""Backend metadata for NetworkX's ``networkx.backend_info`` entry point.

``get_info`` runs inside ``import networkx``: it must stay cheap and import
neither CuPy, cuDF, numba nor the rest of this package.
"""

import os

from .catalog import FUNCTIONS
from .config import autoconfig_requested, config_from_environment
from .functions import NOTES, SUMMARY, additional_parameters


def _autoconfigure(environ):
    """Put ``tricount`` first in NetworkX's backend priority (zero-code-change use).

    Runs before NetworkX reads its own environment variables, so editing them
    here takes effect for this process.

    The priority of the functions that return a graph is left alone: with
    ``tricount`` in ``NETWORKX_BACKEND_PRIORITY_GENERATORS``,
    ``nx.from_pandas_edgelist`` would hand an unchanged script a ``TriGraph``
    instead of the ``nx.Graph`` it expects. ``k_truss`` needs its own priority,
    which NetworkX 3.6 takes only in code (it reads ``..._K_TRUSS`` before it
    knows the function, and fails at import).
    """
    if environ.get("NETWORKX_BACKEND_PRIORITY_ALGOS"):
        name = "NETWORKX_BACKEND_PRIORITY_ALGOS"
    else:
        name = "NETWORKX_BACKEND_PRIORITY"
    current = environ.get(name) or environ.get("NETWORKX_AUTOMATIC_BACKENDS", "")
    listed = [b.strip() for b in current.split(",") if b.strip()]
    if "tricount" not in listed:
        environ[name] = ",".join(["tricount", *listed])


def get_info():
    """Return the backend description that NetworkX stores in ``backend_info``."""
    if autoconfig_requested(os.environ):
        _autoconfigure(os.environ)
    return {
        "backend_name": "tricount",
        "project": "nx-tricount",
        "package": "nx_tricount",
        "short_summary": SUMMARY,
        # NetworkX appends each function's note and parameters to its docstring.
        "functions": {
            name: {"additional_docs": NOTES[name], "additional_parameters": additional_parameters(name)}
            for name in FUNCTIONS
        },
        "default_config": config_from_environment(),
    }
