"""Running the CUDA kernels of ``kernels/*.cu`` through CuPy.

Each kernel file is loaded by ``cupy.RawModule`` at first use, once per process
and per set of compile-time types (vertex id, arc value, position), and cached:
from its fatbin compiled at install time where that fits the GPU and the sources
(:mod:`.kernel_build`), else compiled by NVRTC. This module also launches and
times the kernels, says how many blocks of one the GPU runs at once, and checks
the free memory before a count allocates. What a count does around its kernel
(its output, its finish) is the algorithms' (``algorithms/gpu_count.py``); the
errors it raises are :mod:`.errors`'.

CuPy is imported on first use, so the CPU engine never needs it.
"""

import contextlib
import functools
import logging
from importlib.resources import files

import numpy as np

from . import kernel_build
from .errors import GPUMemoryError, gpu_errors

__all__ = [
    "THREADS",
    "function",
    "entry",
    "launch",
    "resident_blocks",
    "check_memory",
    "free_memory",
    "side_stream",
    "device_properties",
    "kernel_timer",
    "kernel_ms",
    "prebuilt_kernels",
]

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
    with gpu_errors(f"kernels/{source}"):
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


@functools.cache
def _properties(device_id):
    """The CUDA device properties of ``device_id`` (a dict), read once."""
    import cupy

    return cupy.cuda.runtime.getDeviceProperties(device_id)


def device_properties():
    """The CUDA device properties of the current GPU (a dict), read once per GPU."""
    import cupy

    return _properties(cupy.cuda.Device().id)


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


@functools.cache
def side_stream(device_id):
    """A stream of its own per GPU, for work that runs beside the current stream's."""
    import cupy

    with cupy.cuda.Device(device_id):
        return cupy.cuda.Stream(non_blocking=True)


def free_memory():
    """Bytes a new allocation can get: free device memory plus CuPy's pooled blocks."""
    import cupy

    free, _ = cupy.cuda.runtime.memGetInfo()
    return int(free) + _pooled_bytes()


def _pooled_bytes():
    """Bytes of the blocks CuPy's pool holds free on the current GPU."""
    import cupy

    pool = cupy.get_default_memory_pool()
    return int(pool.total_bytes() - pool.used_bytes())


def check_memory(needed, what):
    """Raise :class:`GPUMemoryError` unless ``needed`` bytes can be allocated.

    Parameters
    ----------
    needed : int
        Bytes the count will allocate on the GPU.
    what : str
        What they are for, named in the message.
    """
    # Within the pool's free blocks the driver is not asked (memGetInfo: 20 us of
    # host time, a percent of a count of a few milliseconds).
    if needed <= _pooled_bytes():
        return
    available = free_memory()
    if needed > available:
        raise GPUMemoryError(
            f"counting triangles on the GPU needs about {needed:,} bytes of GPU memory "
            f"({what}) but only {available:,} bytes are free; count on the CPU with "
            "device='cpu' (or nx.config.backends.tricount.device = 'cpu')"
        )
