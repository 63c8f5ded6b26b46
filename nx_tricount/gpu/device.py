"""Where a count runs: the GPU (CuPy) or the CPU (NumPy + numba).

CuPy is imported only here and only when asked, so the package works on
machines without it.
"""

import contextlib
import functools

import numpy as np

__all__ = [
    "gpu_available",
    "resolve_device",
    "array_module",
    "module_of",
    "to_host",
    "to_module",
    "HOST_SERIAL_ROWS",
    "host_threads",
    "GPUNotAvailableError",
]


class GPUNotAvailableError(RuntimeError):
    """``device="gpu"`` was asked for on a machine where CuPy sees no GPU."""


@functools.cache
def _gpu_problem():
    """Return why the GPU cannot be used, or None when it can."""
    try:
        import cupy
    except ImportError:
        return "CuPy is not installed (pip install 'nx-tricount[cuda12]' or '[cuda13]')"
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # CUDA driver missing or broken
        return f"CuPy cannot reach a CUDA device ({exc})"
    if count == 0:
        return "CuPy sees no CUDA device"
    return None


def gpu_available():
    """Return True when CuPy is installed and sees at least one CUDA device."""
    return _gpu_problem() is None


def resolve_device(requested):
    """Turn a ``device`` setting into ``"gpu"`` or ``"cpu"``.

    Parameters
    ----------
    requested : {"auto", "gpu", "cpu"}

    Raises
    ------
    GPUNotAvailableError
        ``requested == "gpu"`` and no GPU can be used.
    """
    if requested == "cpu":
        return "cpu"
    if requested == "gpu":
        problem = _gpu_problem()
        if problem is not None:
            raise GPUNotAvailableError(
                f"device='gpu' was requested but {problem}; use device='cpu' "
                "(nx.config.backends.tricount.device = 'cpu') to count on the CPU"
            )
        return "gpu"
    return "gpu" if gpu_available() else "cpu"


def array_module(device):
    """Return the array module (numpy or cupy) for a resolved device."""
    if device == "gpu":
        import cupy

        return cupy
    return np


def module_of(array):
    """Return the array module (numpy or cupy) that owns ``array``."""
    if type(array).__module__.startswith("cupy"):
        import cupy

        return cupy
    return np


def to_host(array):
    """Return ``array`` as a NumPy array (a copy from the GPU for CuPy arrays,
    large ones through pinned staging buffers: :mod:`nx_tricount.gpu.transfers`)."""
    if type(array).__module__.startswith("cupy"):
        from .transfers import to_cpu

        return to_cpu(array)
    return np.asarray(array)


def to_module(array, xp):
    """Return ``array`` as an array of ``xp`` (numpy or cupy): a copy when it is
    on the other side, large host arrays reaching the GPU through pinned staging
    buffers (:mod:`nx_tricount.gpu.transfers`)."""
    if xp is np:
        return to_host(array)
    if type(array).__module__.startswith("cupy"):
        return array
    from .transfers import to_gpu

    return to_gpu(np.asarray(array))


#: Graphs of fewer edge rows run numba's parallel code on one thread: on a 2-core
#: VM the first parallel region after an idle pause waited 2-8 ms for the other
#: thread to wake, more than that thread saves below this size (measured:
#: docs/algorithms.md, "CPU engine: one thread for small graphs").
HOST_SERIAL_ROWS = 50_000


@contextlib.contextmanager
def host_threads(rows):
    """Run numba's parallel code inside on one thread for a graph of fewer than
    :data:`HOST_SERIAL_ROWS` edge rows (``rows``), else on all of numba's
    threads; the threads before are restored on the way out."""
    if rows >= HOST_SERIAL_ROWS:
        yield
        return
    import numba

    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        yield
    finally:
        numba.set_num_threads(before)
