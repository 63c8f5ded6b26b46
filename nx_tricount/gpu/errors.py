"""The backend's GPU errors, and the one boundary of a call that raises them.

A CUDA failure can surface anywhere a call touches the GPU: while preparing,
counting, or shaping the result, and, kernels being asynchronous, at the next
synchronisation rather than where it happened. So each call of the backend
passes through :func:`gpu_errors` once, at its outermost frame, and no step
inside wraps its own. It costs nothing on the CPU: CuPy's exception types are
looked up only when an exception passes and CuPy has been imported.
"""

import sys

__all__ = ["GPUMemoryError", "GPUKernelError", "gpu_errors"]


class GPUMemoryError(MemoryError):
    """The working set of a count does not fit in the free GPU memory."""


class GPUKernelError(RuntimeError):
    """A kernel failed to compile, launch or run."""


def _is_gpu_memory_error(exc, cupy):
    # CuPy's OutOfMemoryError, or a Thrust sort's std::bad_alloc, which CuPy raises
    # as a plain MemoryError; NumPy's "Unable to allocate ..." stays what it is.
    message = str(exc)
    return (
        isinstance(exc, cupy.cuda.memory.OutOfMemoryError)
        or "bad_alloc" in message
        or "cuda" in message.lower()
    )


class gpu_errors:
    """Re-raise GPU failures inside the block as the backend's errors.

    - CuPy running out of device memory becomes :class:`GPUMemoryError`, after
      CuPy's cached blocks are released, so the memory pool serves the next call.
    - CUDA and compiler failures become :class:`GPUKernelError`. Errors that
      leave the CUDA context usable (a bad launch) let the next call run; a fault
      inside a kernel (an illegal address) leaves it unusable until the process
      restarts, and the message says so.

    A class rather than a generator: every call of the backend enters it, and a
    small graph's whole count takes tens of microseconds.

    Parameters
    ----------
    what : str
        What the block does, for the message (``"computing nx.transitivity"``).
    """

    __slots__ = ("what",)

    def __init__(self, what):
        self.what = what

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, traceback):
        if not isinstance(exc, Exception) or isinstance(exc, (GPUMemoryError, GPUKernelError)):
            return False
        cupy = sys.modules.get("cupy")
        error = None if cupy is None else _translated(exc, cupy, self.what)
        if error is None:
            return False
        raise error from exc


def _translated(exc, cupy, what):
    """The backend's error for ``exc``, a GPU failure, or None for any other."""
    if isinstance(exc, MemoryError) and _is_gpu_memory_error(exc, cupy):
        cupy.get_default_memory_pool().free_all_blocks()
        return GPUMemoryError(
            f"the GPU ran out of memory while {what} ({exc}); its cached memory was "
            "released. Count on the CPU with device='cpu' (or "
            "nx.config.backends.tricount.device = 'cpu'), or free GPU memory first"
        )
    if isinstance(exc, cupy.cuda.compiler.CompileException):
        return GPUKernelError(f"compiling the kernels for {what} failed:\n{exc}")
    if isinstance(exc, (cupy.cuda.driver.CUDADriverError, cupy.cuda.runtime.CUDARuntimeError)):
        return GPUKernelError(
            f"CUDA error while {what}: {exc}. If it was a fault inside a kernel, the "
            "GPU context is unusable until the process restarts; device='cpu' counts "
            "on the CPU instead."
        )
    return None
