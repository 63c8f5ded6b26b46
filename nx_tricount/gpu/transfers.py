"""Copies between host memory and the GPU through pinned host memory: large
arrays in slices through staging buffers, and one count read without waiting for
the work queued after it (:class:`PendingCount`).

A copy from or to pageable host memory runs far below the bus's speed: the
driver stages it through a small buffer of its own, and a copy into a new NumPy
array also touches every page for the first time in one thread (measured:
``docs/benchmarks.md``, "Beyond one GPU"). Here a copy goes in slices through
two pinned buffers of each GPU: while one slice crosses the bus, on a stream of
its own, the host's threads (numba, in parallel) fill or empty the other.
"""

import threading

import numba
import numpy as np
from numba import njit, prange

__all__ = [
    "STAGED_MIN_BYTES",
    "STAGE_BYTES",
    "SLICE_BYTES",
    "to_gpu",
    "to_cpu",
    "host_slices",
    "parallel_copy",
    "PendingValues",
    "PendingCount",
    "PendingPairSum",
]

#: Arrays smaller than this are copied directly (staging costs more than it saves).
STAGED_MIN_BYTES = 1 << 20
#: Bytes of each of the two pinned staging buffers of a GPU.
STAGE_BYTES = 1 << 27
#: Bytes of each slice :func:`host_slices` hands over: small enough that the
#: first one's wait is short, large enough that its reader's loop dominates.
SLICE_BYTES = 1 << 23
#: Bytes each host thread copies at a time.
_COPY_BLOCK = 1 << 20

_staging = {}
_staging_lock = threading.Lock()


# nogil: a copy in one thread leaves the others (launching kernels) running.
@njit(parallel=True, nogil=True, cache=True)
def _copy_bytes(source, target):
    blocks = (source.size + _COPY_BLOCK - 1) // _COPY_BLOCK
    for block in prange(blocks):
        start = block * _COPY_BLOCK
        stop = min(source.size, start + _COPY_BLOCK)
        target[start:stop] = source[start:stop]


# numba's workqueue threading layer aborts when two threads run parallel code at
# once: there the threads of several GPUs take turns. The OpenMP and TBB layers run
# them together, which keeps every GPU's copies coming (8.6 GB from host memory
# reached two H200s at 47 GB/s so, 42 in turns; four at 46 and 38: docs/algorithms.md).
_copy_lock = threading.Lock()
_copies_together = None  # known after the first copy, once numba has chosen its layer


def _copy(source, target):
    global _copies_together
    if _copies_together:
        _copy_bytes(source, target)
        return
    with _copy_lock:
        _copy_bytes(source, target)
        if _copies_together is None:
            _copies_together = numba.threading_layer() != "workqueue"


def parallel_copy(source, target):
    """Copy the bytes of the contiguous array ``source`` into ``target`` (as
    many bytes, contiguous) with every host thread; copies from several threads
    run together, or one at a time under numba's workqueue threading layer."""
    _copy(_as_bytes(source), _as_bytes(target))


def _as_bytes(array):
    return array.reshape(-1).view(np.uint8)


class _Staging:
    """A GPU's two pinned buffers, the stream their copies run on, and the
    events that say when each buffer's last copy ended. One copy at a time
    (``lock``): GPU worker threads of one GPU take turns."""

    def __init__(self):
        import cupy
        import cupyx

        self.buffers = [cupyx.empty_pinned(STAGE_BYTES, dtype=np.uint8) for _ in range(2)]
        self.stream = cupy.cuda.Stream(non_blocking=True)
        self.done = [None, None]
        self.lock = threading.Lock()

    def wait(self, b):
        if self.done[b] is not None:
            self.done[b].synchronize()
            self.done[b] = None

    def record(self, b):
        self.done[b] = self.stream.record()


def _staging_of_current_gpu():
    import cupy

    device = cupy.cuda.Device().id
    with _staging_lock:
        if device not in _staging:
            _staging[device] = _Staging()
        return _staging[device]


def _slices(nbytes, staging):
    step = staging.buffers[0].size
    return [(start, min(nbytes, start + step)) for start in range(0, nbytes, step)]


def to_gpu(array):
    """A CuPy copy of the host array ``array`` on the current GPU, staged when large.

    Returns once ``array`` has been read into the staging buffers, so it may
    change afterwards; the last slices may still be crossing the bus, and the
    current stream waits for them before its next work (the host does not: it
    goes on, to fill the buffers with the next array's first slices).
    """
    import cupy

    array = np.asarray(array)
    if array.nbytes < STAGED_MIN_BYTES:  # (0-d arrays stay 0-d)
        return cupy.asarray(array, blocking=True)
    array = np.ascontiguousarray(array)
    out = cupy.empty(array.shape, dtype=array.dtype)
    source, target = _as_bytes(array), out.reshape(-1).view(cupy.uint8)
    staging = _staging_of_current_gpu()
    with staging.lock:
        # ``out`` may be memory that work queued on the current stream still reads.
        staging.stream.wait_event(cupy.cuda.get_current_stream().record())
        for index, (start, stop) in enumerate(_slices(array.nbytes, staging)):
            b = index % 2
            staging.wait(b)  # the buffer's previous slice has left
            buffer = staging.buffers[b][: stop - start]
            _copy(source[start:stop], buffer)
            target[start:stop].set(buffer, stream=staging.stream)
            staging.record(b)
        cupy.cuda.get_current_stream().wait_event(staging.stream.record())
    return out


def to_cpu(array):
    """A NumPy copy of the CuPy array ``array``, staged when large."""
    import cupy

    if array.nbytes < STAGED_MIN_BYTES:  # (0-d arrays stay 0-d)
        return array.get()
    array = cupy.ascontiguousarray(array)
    out = np.empty(array.shape, dtype=array.dtype)
    source, target = array.reshape(-1).view(cupy.uint8), _as_bytes(out)
    staging = _staging_of_current_gpu()
    with staging.lock:
        # The copies wait for the work that writes ``array`` on the current stream.
        staging.stream.wait_event(cupy.cuda.get_current_stream().record())
        arrived = None
        for index, (start, stop) in enumerate(_slices(array.nbytes, staging)):
            b = index % 2
            buffer = staging.buffers[b][: stop - start]
            cupy.asnumpy(source[start:stop], stream=staging.stream, out=buffer, blocking=False)
            staging.record(b)
            if arrived is not None:  # empty the other buffer while this slice crosses
                _drain(staging, target, *arrived)
            arrived = (b, start, stop)
        if arrived is not None:
            _drain(staging, target, *arrived)
    return out


def host_slices(array, slice_bytes=None):
    """Yield the CuPy array ``array`` in host memory, slice after slice in order:
    each a one-dimensional NumPy view of a pinned staging buffer, valid until the
    next is asked for. While the caller reads one slice, the next crosses the
    bus: a host loop over a GPU array (a sum in Python's order) waits only for
    the first slice, not for the whole copy. Slices of ``slice_bytes`` (by
    default :data:`SLICE_BYTES`), at most a staging buffer."""
    import cupy

    array = cupy.ascontiguousarray(array).reshape(-1)
    step = max(1, min(slice_bytes or SLICE_BYTES, STAGE_BYTES) // array.itemsize)
    starts = range(0, array.size, step)
    staging = _staging_of_current_gpu()

    def send(index):
        start = starts[index]
        stop = min(array.size, start + step)
        b = index % 2
        buffer = staging.buffers[b][: (stop - start) * array.itemsize].view(array.dtype)
        cupy.asnumpy(array[start:stop], stream=staging.stream, out=buffer, blocking=False)
        staging.record(b)
        return b, buffer

    with staging.lock:
        # The copies wait for the work that writes ``array`` on the current stream.
        staging.stream.wait_event(cupy.cuda.get_current_stream().record())
        arriving = send(0) if starts else None
        for index in range(len(starts)):
            b, buffer = arriving
            staging.wait(b)
            # The other buffer's slice was read: the caller asked for this one.
            arriving = send(index + 1) if index + 1 < len(starts) else None
            yield buffer
        staging.wait(0)
        staging.wait(1)


def _drain(staging, target, b, start, stop):
    staging.wait(b)
    _copy(staging.buffers[b][: stop - start], target[start:stop])


class PendingValues:
    """A few values computed on the GPU, copied to pinned host memory behind the
    work queued so far: reading them (:meth:`values`) waits for that work only, not
    for what is queued after it, so the host can go on queuing while the GPU
    catches up, and a read after a synchronisation costs no copy of its own.

    Parameters
    ----------
    array : cupy array
        Contiguous, computed by the work queued before this call.
    """

    def __init__(self, array):
        import cupy

        self._host = cupy.cuda.alloc_pinned_memory(max(array.nbytes, 1))
        self._array = array  # alive until the copy has run
        stream = cupy.cuda.get_current_stream()
        cupy.cuda.runtime.memcpyAsync(
            self._host.ptr, array.data.ptr, array.nbytes, cupy.cuda.runtime.memcpyDeviceToHost, stream.ptr
        )
        self._copied = stream.record()
        self._values = None

    def values(self):
        """The values, a NumPy array of the GPU array's type and size."""
        if self._values is None:
            self._copied.synchronize()
            array = self._array
            self._values = np.frombuffer(self._host, dtype=array.dtype, count=array.size).copy()
            self._host = self._array = None
        return self._values


class PendingCount(PendingValues):
    """A count computed on the GPU (one 64-bit integer), as :class:`PendingValues`;
    ``int()`` reads it."""

    def __int__(self):
        return int(self.values()[0])


class PendingPairSum(PendingValues):
    """A sum computed on the GPU in two unsigned 64-bit halves, the high 32 bits
    of its terms and the low (``kernels/pairs.cu``), as :class:`PendingValues`;
    ``int()`` reads and joins them, exactly."""

    def __int__(self):
        high, low = self.values().tolist()
        return (high << 32) + low
