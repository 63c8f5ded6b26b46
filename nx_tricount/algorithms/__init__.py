"""Counting algorithms: one module each (``algorithms/<name>.py``, declared in
:data:`nx_tricount.metadata.catalog.ALGORITHMS`), and the one call that runs any of them.

Each module exposes ``count_cpu(prepared, mode)`` (numba) and
``count_gpu(prepared, mode, **parameters)`` (its CUDA kernel in ``kernels/``),
both returning the total as an int or an array in CSR ids; :func:`count` turns
that into :class:`Counts` in original vertex ids. Modules load on first use, so
numba and CuPy are imported only when a count runs.
"""

import functools
import importlib

from ..metadata.catalog import ALGORITHMS
from .counts import MODES, Counts, round_pairs
from .shares import vertex_costs

__all__ = ["count", "count_raw", "as_counts", "base_costs", "Counts", "MODES"]


@functools.cache
def _implementation(algorithm):
    """The module of ``algorithm`` (looked up once: an import statement costs a
    visible share of a small graph's whole count)."""
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; accepted: {', '.join(ALGORITHMS)}")
    return importlib.import_module(f"{__name__}.{algorithm}")


def count(prepared, algorithm, mode, device="cpu", parameters=None, vertices=None):
    """Count triangles of ``prepared`` with ``algorithm`` in ``mode``.

    Parameters
    ----------
    prepared : Prepared
    algorithm : str
        A key of :data:`nx_tricount.metadata.catalog.ALGORITHMS`.
    mode : {"total", "per_node", "per_edge"}
    device : {"cpu", "gpu"}
        Resolved device; ``prepared`` must live there.
    parameters : dict, optional
        Keywords of the algorithm's ``count_gpu`` (kernel parameters); GPU only.
    vertices : (int, int), optional
        Count only the triangles of these base vertices, a share ``(first, end)``
        of CSR ids (:mod:`.shares`); all when None.

    Returns
    -------
    Counts
        Per node in original vertex ids; per edge aligned with the arcs of
        ``prepared`` in CSR order (``edge_src``, ``edge_dst`` in original ids).
    """
    raw = count_raw(prepared, algorithm, mode, device, parameters, vertices)
    return as_counts(prepared, algorithm, mode, device, raw)


def count_raw(prepared, algorithm, mode, device="cpu", parameters=None, vertices=None):
    """The count of :func:`count` as the algorithm returns it, in CSR ids: an
    int (total), an array per vertex or per arc, or a weighted count's ``(2, n)``
    compensated pairs. Shares of one count add up with :func:`.shares.add_raw`."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; accepted: {', '.join(MODES)}")
    module = _implementation(algorithm)
    if device == "gpu":
        return module.count_gpu(prepared, mode, vertices=vertices, **(parameters or {}))
    return module.count_cpu(prepared, mode, vertices=vertices)


def base_costs(prepared, algorithm, mode, device="cpu", parameters=None):
    """Each base vertex's work in a count (float64, length ``n``, on the device of
    ``prepared``), by which :func:`.shares.work_shares` cuts a count's shares:
    :func:`.shares.vertex_costs`, but an unweighted wedge total or per-node count
    on the GPU weighs its own parts, bitmap wedges, arcs and hub block
    (:func:`.wedge.gpu_base_costs`)."""
    if device == "gpu" and algorithm == "wedge":
        costs = _implementation(algorithm).gpu_base_costs(prepared, mode, **(parameters or {}))
        if costs is not None:
            return costs
    return vertex_costs(prepared, algorithm)


def as_counts(prepared, algorithm, mode, device, raw):
    """:class:`Counts` in original vertex ids of a raw count (:func:`count_raw`)."""
    result = Counts(mode=mode, algorithm=algorithm, device=device)
    if mode == "total":
        result.total = int(raw)
    elif mode == "per_node" and raw.ndim == 2:  # weighted: (sums, errors) pairs
        rounded, error = round_pairs(raw[0], raw[1])
        result.per_node = prepared.to_original_vertices(rounded)
        result.per_node_error = prepared.to_original_vertices(error)
    elif mode == "per_node":
        result.per_node = prepared.to_original_vertices(raw)
    else:
        result.edge_src, result.edge_dst = prepared.arcs_original()
        result.per_edge = raw
    return result
