"""Counting algorithms: one module each, the same call for every one.

``count(prepared, algorithm, mode, device)`` runs an algorithm on a
``Prepared`` CSR and returns ``Counts`` in original vertex ids.
"""

import importlib

from .counts import MODES, Counts

__all__ = ["ALGORITHMS", "PREPROCESSING", "count", "Counts", "MODES"]

#: Module of each algorithm, loaded on first use (numba compiles lazily).
ALGORITHMS = {
    "merge": "merge",
    "wedge": "wedge",
    "edge": "edge",
    "vertex": "vertex",
    "hash": "hash",
    "bitmap": "bitmap",
}

#: The preprocessing each algorithm is designed for, used when the configuration
#: says ``"auto"``: (orientation, ordering).
PREPROCESSING = {
    "merge": ("degree", "none"),  # Polak: degree orientation, ids kept
    "wedge": ("id", "degree"),  # WeTriC: ascending-degree ids, arcs to higher ids
    "edge": ("id", "degree"),  # WeTriC's baselines: the same preprocessing (§6.2)
    "vertex": ("id", "degree"),
    "hash": ("degree", "none"),  # TRUST: degree orientation
    "bitmap": ("a-direction", "none"),  # bit-wise paper §3.1: non-center -> center
}


def _module(algorithm):
    try:
        name = ALGORITHMS[algorithm]
    except KeyError:
        raise ValueError(
            f"unknown algorithm {algorithm!r}; accepted: {', '.join(ALGORITHMS)}"
        ) from None
    return importlib.import_module(f"{__name__}.{name}")


def has_gpu(algorithm):
    """Whether ``algorithm`` has a GPU implementation."""
    return hasattr(_module(algorithm), "count_gpu")


def count(prepared, algorithm, mode, device="cpu", parameters=None):
    """Count triangles of ``prepared`` with ``algorithm`` in ``mode``.

    Parameters
    ----------
    prepared : Prepared
    algorithm : str
        A key of :data:`ALGORITHMS`.
    mode : {"total", "per_node", "per_edge"}
    device : {"cpu", "gpu"}
        Resolved device; ``prepared`` must live there.
    parameters : dict, optional
        Keywords of the algorithm's ``count_gpu`` (kernel parameters); GPU only.

    Returns
    -------
    Counts
    """
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; accepted: {', '.join(MODES)}")
    module = _module(algorithm)
    if device == "gpu":
        raw = module.count_gpu(prepared, mode, **(parameters or {}))
    else:
        raw = module.count_cpu(prepared, mode)
    result = Counts(mode=mode, algorithm=algorithm, device=device)
    if mode == "total":
        result.total = int(raw)
    elif mode == "per_node":
        result.per_node = prepared.to_original_vertices(raw)
    else:
        result.edge_src, result.edge_dst = prepared.arcs_original()
        result.per_edge = raw
    return result
