"""Where a count runs: the GPU (CuPy) or the CPU (NumPy + numba).

CuPy is imported only here and only when asked, so the package works on
machines without it.
"""

import _thread
import contextlib
import functools
import time

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
    "wake_a_core",
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


#: Graphs of fewer edge rows run numba's parallel code on one thread: below this
#: size the second thread saves less than its wake-up costs, even with an idle
#: core woken first (:func:`wake_a_core`; measured: docs/algorithms.md, "CPU
#: engine: one thread for small graphs").
HOST_SERIAL_ROWS = 10_000


#: Seconds after the last call on all of numba's threads from which the cores count
#: as at rest (:func:`wake_a_core`): after 10 ms of rest a parallel region of the
#: 2-core VM woke its threads in 0.05 ms, after 30 ms in 2 ms.
REST_S = 0.02

#: When the last call on all of numba's threads ended (``time.perf_counter``).
_last_parallel_end = -float("inf")


def wake_a_core():
    """After :data:`REST_S` without a parallel call, start a thread that ends at
    once: the system runs it on an idle core, which is then awake when numba's
    threads are woken for the call's first parallel region. On the 2-core VM of
    docs/benchmarks.md, after 50 ms of rest, that region waited 5.3-7.8 ms for a
    core at rest, 0.35 ms after the wake; back to back, the wake cost 1.4 ms of
    a 7.2 ms call (docs/algorithms.md, "CPU engine: one thread for small graphs").
    The call goes on while the thread starts (``_thread``'s, where
    ``threading.Thread.start`` waits for it): 0.1 ms of host time after the rest,
    where the wait took 0.35."""
    if time.perf_counter() - _last_parallel_end > REST_S:
        _thread.start_new_thread(int, ())


@contextlib.contextmanager
def host_threads(rows):
    """Run numba's parallel code inside on one thread for a graph of fewer than
    :data:`HOST_SERIAL_ROWS` edge rows (``rows``), else on all of numba's
    threads, an idle core woken first (:func:`wake_a_core`); the threads before
    are restored on the way out."""
    global _last_parallel_end
    if rows >= HOST_SERIAL_ROWS:
        wake_a_core()
        try:
            yield
        finally:
            _last_parallel_end = time.perf_counter()
        return
    import numba

    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        yield
    finally:
        numba.set_num_threads(before)
