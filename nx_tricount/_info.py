"""Backend metadata for NetworkX's ``networkx.backend_info`` entry point.

``get_info`` runs inside ``import networkx``: it must stay cheap and import
neither CuPy, cuDF, numba nor the rest of this package.
"""

import os

from .config import config_from_environment

FUNCTIONS = ("triangles", "clustering", "average_clustering", "transitivity")

_ADDITIONAL_PARAMETERS = {
    "algorithm : str, optional": (
        "Counting algorithm: 'auto' (default), 'merge', 'wedge', 'edge', 'vertex', "
        "'hash' or 'bitmap'. Overrides nx.config.backends.tricount.algorithm for this call."
    ),
    "orientation : str, optional": "Edge orientation: 'auto', 'id', 'degree' or 'a-direction'.",
    "ordering : str, optional": (
        "Vertex ordering: 'auto', 'none', 'degree', 'a-order', 'in-degree' or 'collective'."
    ),
    "device : str, optional": "Where to count: 'auto', 'gpu' or 'cpu'.",
}

_TRUE = {"1", "true", "yes", "on"}


def _autoconfigure(environ):
    """Put ``tricount`` first in NetworkX's backend priority (zero-code-change use).

    Runs before NetworkX reads its own environment variables, so editing them
    here takes effect for this process.
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
    if os.environ.get("NX_TRICOUNT_AUTOCONFIG", "").strip().lower() in _TRUE:
        _autoconfigure(os.environ)
    return {
        "backend_name": "tricount",
        "project": "nx-tricount",
        "package": "nx_tricount",
        "short_summary": "Triangle counting on the GPU (CuPy) and CPU (numba).",
        "functions": {
            name: {"additional_parameters": dict(_ADDITIONAL_PARAMETERS)}
            for name in FUNCTIONS
        },
        "default_config": config_from_environment(),
    }
