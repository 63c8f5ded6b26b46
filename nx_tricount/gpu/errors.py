"""The backend's GPU errors, and the one boundary of a call that raises them.

A CUDA failure can surface anywhere a call touches the GPU: while preparing,
counting, or shaping the result, and, kernels being asynchronous, at the next
synchronisation rather than where it happened. So each call of the backend
passes through :func:`gpu_errors` once, at its outermost frame, and no step
inside wraps its own. It costs nothing on the CPU: CuPy's exception types are
looked up only when an exception passes and CuPy has been imported.
"""

import contextlib
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


@contextlib.contextmanager
def gpu_errors(what):
    """Re-raise GPU failures inside the block as the backend's errors.

    - CuPy running out of device memory becomes :class:`GPUMemoryError`, after
      CuPy's cached blocks are released, so the memory pool serves the next call.
    - CUDA and compiler failures become :class:`GPUKernelError`. Errors that
      leave the CUDA context usable (a bad launch) let the next call run; a fault
      inside a kernel (an illegal address) leaves it unusable until the process
      restarts, and the message says so.

    Parameters
    ----------
    what : str
        What the block does, for the message (``"computing nx.transitivity"``).
    """
    try:
        yield
    except (GPUMemoryError, GPUKernelError):
        raise
    except Exception as exc:
        cupy = sys.modules.get("cupy")
        if cupy is None:
            raise
        if isinstance(exc, MemoryError) and _is_gpu_memory_error(exc, cupy):
            cupy.get_default_memory_pool().free_all_blocks()
            raise GPUMemoryError(
                f"the GPU ran out of memory while {what} ({exc}); its cached memory was "
                "released. Count on the CPU with device='cpu' (or "
                "nx.config.backends.tricount.device = 'cpu'), or free GPU memory first"
            ) from exc
        if isinstance(exc, cupy.cuda.compiler.CompileException):
            raise GPUKernelError(f"compiling the kernels for {what} failed:\n{exc}") from exc
        if isinstance(exc, (cupy.cuda.driver.CUDADriverError, cupy.cuda.runtime.CUDARuntimeError)):
            raise GPUKernelError(
                f"CUDA error while {what}: {exc}. If it was a fault inside a kernel, the "
                "GPU context is unusable until the process restarts; device='cpu' counts "
                "on the CPU instead."
            ) from exc
        raise
