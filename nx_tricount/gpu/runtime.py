"""Running the CUDA kernels of ``kernels/*.cu`` through CuPy.

Each kernel file is loaded by ``cupy.RawModule`` at first use, once per process
and per set of compile-time types (vertex id, arc value, position), and cached:
from its fatbin compiled at install time where that fits the GPU and the sources
(:mod:`.kernel_build`), else compiled by NVRTC. This module also holds what every
GPU algorithm needs around a launch: the output array of a mode, the free-memory
check made before any kernel runs, and turning CUDA failures into Python
exceptions that say what failed.

CuPy is imported here only, on first use, so the CPU engine never needs it.
"""

import contextlib
import functools
import logging
from importlib.resources import files

import numpy as np

from . import kernel_build

__all__ = [
    "GPUMemoryError", "GPUKernelError", "THREADS", "count", "function", "entry", "launch",
    "resident_blocks", "output", "output_bytes", "kernel_values", "finish", "check_memory",
    "free_memory", "cuda_errors", "gpu_failures", "kernel_timer", "kernel_ms", "PendingCount",
    "is_weighted", "prebuilt_kernels"]

logger = logging.getLogger("nx_tricount")

#: Folder of the kernels' fatbins compiled at install time (:mod:`.kernel_build`);
#: None compiles every kernel with NVRTC.
prebuilt_kernels = files("nx_tricount.kernels") / kernel_build.BUILT

#: Threads per block of every kernel: 8 warps keeps the per-block reduction short
#: and leaves room for several blocks per multiprocessor.
THREADS = 256

_C_TYPES = {
    np.dtype(np.int32): "int",
    np.dtype(np.int64): "long long",
    np.dtype(np.uint32): "unsigned int",
    np.dtype(np.float64): "double",
}


class GPUMemoryError(MemoryError):
    """The working set of a count does not fit in the free GPU memory."""


class GPUKernelError(RuntimeError):
    """A kernel failed to compile, launch or run."""


@contextlib.contextmanager
def cuda_errors(what):
    """Re-raise GPU failures inside the block as the backend's errors.

    - CuPy running out of device memory (in any step: preprocessing, counting,
      shaping the result) becomes :class:`GPUMemoryError`, after CuPy's cached
      blocks are released, so the memory pool serves the next call.
    - CUDA and compiler failures become :class:`GPUKernelError`. Errors that
      leave the CUDA context usable (a bad launch) let the next call run; a fault
      inside a kernel (an illegal address) leaves it unusable until the process
      restarts, and the message says so.

    Kernels run asynchronously: a fault shows up at the next synchronisation, so
    the block should end with one (reading the result does).
    """
    import cupy

    try:
        yield
    except GPUMemoryError:
        raise
    except MemoryError as exc:  # CuPy's OutOfMemoryError, or a Thrust sort's bad_alloc
        cupy.get_default_memory_pool().free_all_blocks()
        raise GPUMemoryError(
            f"the GPU ran out of memory while {what} ({exc}); its cached memory was "
            "released. Count on the CPU with device='cpu' (or "
            "nx.config.backends.tricount.device = 'cpu'), or free GPU memory first"
        ) from exc
    except cupy.cuda.compiler.CompileException as exc:
        raise GPUKernelError(f"compiling the kernels for {what} failed:\n{exc}") from exc
    except (cupy.cuda.driver.CUDADriverError, cupy.cuda.runtime.CUDARuntimeError) as exc:
        raise GPUKernelError(
            f"CUDA error while {what}: {exc}. If it was a fault inside a kernel, the "
            "GPU context is unusable until the process restarts; device='cpu' counts "
            "on the CPU instead."
        ) from exc


@functools.cache
def _module(source, device_id, defines):
    """The RawModule of ``kernels/<source>`` with ``-D`` ``defines``: its fatbin
    compiled at install time where one fits, else compiled by NVRTC; a debug
    line of the ``nx_tricount`` logger says which, and why."""
    import cupy

    directory = files("nx_tricount.kernels")
    code = (directory / source).read_text()
    cooperative = "<cooperative_groups.h>" in code  # grid-wide barriers: every block resident
    with cupy.cuda.Device(device_id) as device:
        capability = int(device.compute_capability)
        path, why = kernel_build.prebuilt(directory, prebuilt_kernels, source, defines, capability)
        if path is not None:
            module = cupy.RawModule(path=str(path), enable_cooperative_groups=cooperative)
            try:
                module.compile()  # loads it: a driver that refuses it leaves NVRTC
                logger.debug("kernels/%s %s: loaded from %s, %s", source, dict(defines), path.name, why)
                return module
            except cupy.cuda.driver.CUDADriverError as exc:
                why = f"its fatbin {path} did not load ({exc})"
                logger.warning("kernels/%s: %s; NVRTC compiles it", source, why)
        logger.debug("kernels/%s %s: compiled by NVRTC: %s", source, dict(defines), why)
        options = kernel_build.compile_options(directory, defines)
        return cupy.RawModule(code=code, options=options, enable_cooperative_groups=cooperative)


def function(source, name, *, vid=np.int32, weight=np.float64, eid=None, defines=None):
    """The kernel ``name`` of ``kernels/<source>`` compiled for the given dtypes.

    Parameters
    ----------
    source : str
        File name in ``kernels/``, e.g. ``"wedge.cu"``.
    name : str
        ``extern "C"`` entry point.
    vid, weight : dtypes
        Vertex-id dtype of the CSR (int32 or int64) and arc-value dtype (float64
        or int64), compiled in as ``VID`` and ``WEIGHT``.
    eid : dtype, optional
        Arc-position dtype, compiled in as ``EID`` (kernels that use it).
    defines : dict, optional
        Other compile-time constants of the kernel file (name -> int).
    """
    import cupy

    defined = () if defines is None else tuple(sorted(defines.items()))
    return _function(source, name, cupy.cuda.runtime.getDevice(), vid, weight, eid, defined)


@functools.cache
def _function(source, name, device_id, vid, weight, eid, defined):
    """:func:`function`, looked up once per argument set (CuPy's lookup costs host
    time, and a small count makes a dozen)."""
    c_eid = None if eid is None else _C_TYPES[np.dtype(eid)]
    macros = kernel_build.defines(_C_TYPES[np.dtype(vid)], _C_TYPES[np.dtype(weight)], c_eid, defined)
    with cuda_errors(f"kernels/{source}"):
        return _module(source, device_id, macros).get_function(name)


def entry(algorithm, mode, weighted):
    """Entry-point name of ``algorithm``'s kernel for ``mode``: ``<algorithm>_<mode>``,
    or ``<algorithm>_weighted`` for the per-node sums of arc-value products."""
    return f"{algorithm}_{'weighted' if weighted else mode}"


#: While :func:`kernel_timer` is active, the list that receives each launch's events.
_timed_launches = None


@contextlib.contextmanager
def kernel_timer():
    """Time the kernels launched inside the block (for benchmarks).

    Yields a list of ``(start, end)`` CUDA event pairs, one per launch; after a
    synchronisation, :func:`kernel_ms` sums them. Only the kernels' own GPU time
    counts, not the host work and allocations around them.
    """
    global _timed_launches
    _timed_launches = []
    try:
        yield _timed_launches
    finally:
        _timed_launches = None


def kernel_ms(launches):
    """Milliseconds of GPU time of the launches :func:`kernel_timer` recorded."""
    import cupy

    return sum(cupy.cuda.get_elapsed_time(start, end) for start, end in launches)


def launch(kernel, items, args, *, threads=THREADS, shared_mem=0, grid=None):
    """Launch ``kernel`` with one thread per item (at least one block), or with at
    most ``grid`` blocks for kernels that loop over their items."""
    import cupy

    blocks = max(1, -(-items // threads))
    if grid is not None:
        blocks = min(blocks, grid)
    if _timed_launches is None:
        kernel((blocks,), (threads,), args, shared_mem=shared_mem)
        return
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    start.record()
    kernel((blocks,), (threads,), args, shared_mem=shared_mem)
    end.record()
    _timed_launches.append((start, end))


class PendingCount:
    """A count computed on the GPU, copied to pinned host memory behind the work
    queued so far: reading it (``int()``) waits for that work only, not for what
    is queued after it, so the host can go on queuing while the GPU catches up.

    Parameters
    ----------
    counter : cupy array
        One 64-bit integer, computed by the work queued before this call.
    """

    def __init__(self, counter):
        import cupy

        self._host = cupy.cuda.alloc_pinned_memory(8)
        self._counter = counter  # alive until the copy has run
        stream = cupy.cuda.get_current_stream()
        cupy.cuda.runtime.memcpyAsync(
            self._host.ptr, counter.data.ptr, 8, cupy.cuda.runtime.memcpyDeviceToHost, stream.ptr
        )
        self._copied = stream.record()
        self._value = None

    def __int__(self):
        if self._value is None:
            self._copied.synchronize()
            self._value = int(np.frombuffer(self._host, dtype=self._counter.dtype, count=1)[0])
            self._host = self._counter = None
        return self._value


@functools.cache
def _properties(device_id):
    """The CUDA device properties of ``device_id`` (a dict), read once."""
    import cupy

    return cupy.cuda.runtime.getDeviceProperties(device_id)


@functools.cache
def resident_blocks(kernel, shared_mem, threads=THREADS):
    """How many blocks of ``kernel`` (a handle of one device) the GPU runs at once,
    from its registers, shared memory and the multiprocessors' limits."""
    import cupy

    props = _properties(cupy.cuda.Device().id)
    warps = -(-threads // 32)
    # Registers are allocated per warp in units of 256.
    registers = -(-kernel.num_regs * 32 // 256) * 256
    shared = shared_mem + kernel.shared_size_bytes + props["reservedSharedMemPerBlock"]
    per_multiprocessor = min(
        props["maxThreadsPerMultiProcessor"] // threads,
        props["regsPerMultiprocessor"] // registers // warps,
        props["sharedMemPerMultiprocessor"] // shared,
        props["maxBlocksPerMultiProcessor"],
    )
    return max(1, per_multiprocessor) * props["multiProcessorCount"]


def gpu_failures(device, what="counting triangles on the GPU"):
    """:func:`cuda_errors` for a step on ``device`` (``"gpu"``); nothing on the CPU."""
    if device == "gpu":
        return cuda_errors(what)
    return contextlib.nullcontext()


def free_memory():
    """Bytes a new allocation can get: free device memory plus CuPy's pooled blocks."""
    import cupy

    free, _ = cupy.cuda.runtime.memGetInfo()
    pool = cupy.get_default_memory_pool()
    return int(free) + int(pool.total_bytes() - pool.used_bytes())


def check_memory(needed, what):
    """Raise :class:`GPUMemoryError` unless ``needed`` bytes can be allocated.

    Parameters
    ----------
    needed : int
        Bytes the count will allocate on the GPU.
    what : str
        What they are for, named in the message.
    """
    available = free_memory()
    if needed > available:
        raise GPUMemoryError(
            f"counting triangles on the GPU needs about {needed:,} bytes of GPU memory "
            f"({what}) but only {available:,} bytes are free; count on the CPU with "
            "device='cpu' (or nx.config.backends.tricount.device = 'cpu')"
        )


def output(prepared, mode):
    """The zeroed output array of ``mode`` and whether the count is weighted.

    Returns
    -------
    out : cupy array
        One uint64 counter (total), int64 per vertex or per arc, or for weighted
        sums a (sum, compensation) pair of the values' dtype per vertex
        (``add_value`` in ``kernels/common.cu``; :func:`finish` adds each pair).
    weighted : bool
    """
    import cupy

    weighted = is_weighted(prepared, mode)
    if mode == "total":
        return cupy.zeros(1, dtype=np.uint64), False
    if weighted:
        if prepared.values.dtype not in (np.float64, np.int64):
            raise TypeError(
                f"arc values must be float64 or int64 on the GPU, got {prepared.values.dtype}"
            )
        return cupy.zeros(2 * prepared.n, dtype=prepared.values.dtype), True
    length = prepared.n if mode == "per_node" else prepared.m
    return cupy.zeros(length, dtype=np.int64), False


def is_weighted(prepared, mode):
    """Whether ``mode`` on ``prepared`` sums arc-value products (weighted per node)."""
    return prepared.values is not None and mode == "per_node"


def output_bytes(prepared, mode):
    """Bytes of :func:`output` for ``mode`` (for :func:`check_memory`)."""
    if mode == "total":
        return 8
    if is_weighted(prepared, mode):
        return 16 * prepared.n
    return 8 * (prepared.m if mode == "per_edge" else prepared.n)


def kernel_values(prepared, weighted):
    """The values argument of a kernel: the arc values, or a one-element stand-in."""
    import cupy

    if weighted:
        return prepared.values
    return _values_stand_in(cupy.cuda.runtime.getDevice())


@functools.cache
def _values_stand_in(device_id):
    """One zero, never read, made once per GPU (a new one per call slows a small count)."""
    import cupy

    with cupy.cuda.Device(device_id):
        return cupy.zeros(1, dtype=np.float64)


def finish(out, mode, weighted=False):
    """The count as an int (total) or the output array, after checking for CUDA
    errors; weighted, the ``(2, n)`` view of each vertex's sum and compensation."""
    import cupy

    with cuda_errors("counting triangles"):
        if mode == "total":
            return int(out.get()[0])  # the copy waits for the kernels: one round trip
        cupy.cuda.get_current_stream().synchronize()
    return out.reshape(-1, 2).T if weighted else out


def count(prepared, mode, algorithm, items, args, *, waves=None):
    """Count with ``kernels/<algorithm>.cu``, one thread per item.

    The kernel takes ``(*args, values, out)``; this checks the memory of a per-vertex
    or per-arc output (not of one counter: CuPy's error, in :func:`cuda_errors`, says
    it), allocates it, launches, and returns what :func:`finish` returns.

    Parameters
    ----------
    prepared : Prepared
        Oriented CSR on the GPU.
    mode : {"total", "per_node", "per_edge"}
    algorithm : str
        Kernel file stem and entry-point prefix (``"merge"``, ``"edge"``, ...).
    items : int
        Threads to launch (arcs or vertices).
    args : tuple
        The kernel's leading arguments (CSR arrays and numpy scalars).
    waves : int, optional
        For a kernel that loops over its items: at most this many times the
        blocks the GPU holds at once.
    """
    if mode != "total":
        check_memory(output_bytes(prepared, mode), f"the {mode} output")
    out, weighted = output(prepared, mode)
    weight = prepared.values.dtype if weighted else np.float64
    kernel = function(
        f"{algorithm}.cu", entry(algorithm, mode, weighted), vid=prepared.indices.dtype, weight=weight
    )
    grid = None if waves is None else waves * resident_blocks(kernel, 0)
    with cuda_errors(f"running the {algorithm} kernel"):
        launch(kernel, items, (*args, kernel_values(prepared, weighted), out), grid=grid)
    return finish(out, mode, weighted)
