"""Graphs from arrays of vertex ids ``0 .. n - 1``: NumPy and CuPy (frames of
labels: :mod:`nx_tricount.io.frames`)."""

import os

import numpy as np

from ..classes.graph import TriGraph
from ..gpu.device import host_threads, module_of
from ..gpu.errors import gpu_errors
from ..preprocess.ops import ops_for

__all__ = ["from_edges"]

#: The largest vertex id: ids are int64.
LARGEST_ID = 2**63 - 1
#: Bytes the preprocessing and the counts hold per vertex id: degrees, CSR
#: offsets, ordering and inverse, per-node counts and terms (int64 or float64).
BYTES_PER_VERTEX = 64
#: Ids needing fewer bytes than this (a million ids) are never refused for memory.
UNCHECKED_BYTES = 64 * 2**20


def _vertex_count(n, largest):
    """``n`` checked (an int covering every id), or ``largest + 1``."""
    if n is None:
        return largest + 1
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"n must be an int (the number of vertices), got {n!r} of type {type(n).__name__}")
    n = int(n)
    if n < 0:
        raise ValueError(f"n must be a non-negative number of vertices, got {n}")
    if largest >= n:
        raise ValueError(f"vertex id {largest} is out of range for n={n} nodes (n > max id)")
    return n


def _available_memory():
    """Bytes of host memory available to a new allocation (MemAvailable)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


def _check_memory(n):
    """Raise MemoryError, before anything is allocated, when ``n`` vertex ids
    need more memory than is available (sparse ids: a few edges, huge ids).
    Ids that need less than :data:`UNCHECKED_BYTES` are not checked: reading
    the host's free memory costs a visible share of a small graph's count."""
    needed = BYTES_PER_VERTEX * n
    if needed < UNCHECKED_BYTES:
        return
    available = _available_memory()
    if needed > available:
        raise MemoryError(
            f"{n:,} vertex ids (0..{n - 1:,}) need about {needed:,} bytes "
            f"({needed / 2**30:,.1f} GiB; {BYTES_PER_VERTEX} per id) but {available:,} bytes "
            "are available: from_edges takes dense ids 0..n-1; for sparse ids use "
            "from_frame, which numbers the labels 0..n-1 by first appearance"
        )


def from_edges(src, dst, *, n=None, directed=False, weight=None, weight_name="weight"):
    """Build a ``TriGraph`` from arrays of vertex ids.

    Parameters
    ----------
    src, dst : 1-D integer arrays (NumPy or CuPy)
        Edge endpoints as ids ``0..n-1``; duplicates and self-loops are allowed.
    n : int, optional
        Number of vertices (default ``max id + 1``); nodes are ``0..n-1``. An
        int (or NumPy integer) greater than every id.
    directed : bool
        Whether the edges are arcs.
    weight : 1-D numeric array, optional
        One value per edge, stored as the edge attribute ``weight_name``.

    Returns
    -------
    TriGraph

    Raises
    ------
    TypeError
        Ids that are not integers, or ``n`` that is not an int.
    ValueError
        ``src``, ``dst`` (or ``weight``) not 1-D or of unequal lengths, a
        negative id, an id of 2**63 or more, or ``n`` not above every id.
    MemoryError
        The ids need more memory than is available (``BYTES_PER_VERTEX`` per
        id up to the largest): renumber sparse ids with :func:`from_frame`.

    Examples
    --------
    >>> import numpy as np
    >>> import nx_tricount
    >>> G = nx_tricount.from_edges(np.array([0, 1, 2]), np.array([1, 2, 0]))
    >>> nx_tricount.transitivity(G)
    1.0
    """
    with gpu_errors("building a graph from edge arrays"):
        xp = module_of(src)
        if module_of(dst) is not xp:
            raise TypeError("src and dst must be arrays of the same module (NumPy or CuPy)")
        src, dst = xp.asarray(src), xp.asarray(dst)
        for name, array in (("src", src), ("dst", dst)):
            if array.ndim != 1:
                raise ValueError(f"src and dst must be 1-D arrays, got {name} of shape {array.shape}")
        if src.size != dst.size:
            raise ValueError(
                f"src and dst must be of equal length (one edge per position): src has {src.size} "
                f"id{'s' * (src.size != 1)} and dst {dst.size}"
            )
        for name, array in (("src", src), ("dst", dst)):
            if array.dtype.kind not in "iu":
                raise TypeError(f"{name} must hold integer vertex ids, got dtype {array.dtype}")
        with host_threads(src.size):  # a small graph's check wakes no other thread
            smallest, largest = ops_for(src).id_range(src, dst) if src.size else (0, -1)
        if smallest < 0:
            raise ValueError(f"vertex ids must be non-negative, found {smallest}")
        if largest > LARGEST_ID:
            raise ValueError(
                f"vertex id {largest} is too large: ids are int64, below 2**63; use "
                "from_frame, which numbers any labels 0..n-1 by first appearance"
            )
        if src.dtype == np.uint64:  # ids below 2**63 fit int64 (uint64 with int64 is float64)
            src, dst = src.astype(np.int64), dst.astype(np.int64)
        n = _vertex_count(n, largest)
        _check_memory(n)
        edge_data = {}
        if weight is not None:
            weight = xp.asarray(weight)
            if weight.ndim != 1:
                raise ValueError(f"weight must be a 1-D array, one value per edge, got shape {weight.shape}")
            if weight.size != src.size:
                raise ValueError(
                    f"weight must hold one value per edge: weight has {weight.size} values for "
                    f"{src.size} edges"
                )
            if weight.dtype.kind not in "iufb":
                raise ValueError(f"weight must be a numeric array, got dtype {weight.dtype}")
            edge_data[weight_name] = weight
        return TriGraph(src, dst, n, directed=directed, edge_data=edge_data)
