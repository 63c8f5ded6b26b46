"""Backend metadata for NetworkX's ``networkx.backend_info`` entry point.

``get_info`` runs inside ``import networkx``: it must stay cheap and import
neither CuPy, cuDF, numba nor the rest of this package.
"""

import os

from .catalog import FUNCTIONS
from .config import CHOICES, autoconfig_requested, config_from_environment


def _additional_parameters():
    """The per-call settings NetworkX's docs list for each counting function."""
    return {
        f"{key} : str, optional": (
            f"One of {', '.join(repr(v) for v in values)}; overrides "
            f"nx.config.backends.tricount.{key} for this call."
        )
        for key, values in CHOICES.items()
    }


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
        "short_summary": "Triangle counting on the GPU (CuPy) and CPU (numba).",
        "functions": {
            name: {"additional_parameters": _additional_parameters()} if kind == "counts" else {}
            for name, kind in FUNCTIONS.items()
        },
        "default_config": config_from_environment(),
    }
