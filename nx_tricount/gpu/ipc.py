"""GPU arrays lent to other processes of the host (CUDA IPC): a Dask worker on
any GPU copies a graph straight from the client's GPU memory, peer to peer,
where pickling it would take it through host memory and a socket.

A lent array is copied into an allocation of its own (an IPC handle names a
whole allocation, and a memory pool's blocks share theirs); the lender keeps
that copy alive until every borrower has copied it. Handles are small and
picklable: only they travel to the other process.
"""

from dataclasses import dataclass

import numpy as np

__all__ = ["Lent", "lend", "lent_array", "borrowed_copy"]


@dataclass(frozen=True)
class Lent:
    """What another process needs to copy one lent array.

    Attributes
    ----------
    handle : bytes
        The CUDA IPC handle of the array's own allocation.
    dtype : str
    shape : tuple of int
    """

    handle: bytes
    dtype: str
    shape: tuple


def lend(array):
    """``(Lent, keep)`` of a CuPy array: ``keep`` must stay referenced by the
    lender until the borrowers have copied it (the copy lent is freed with it)."""
    import cupy

    own = cupy.cuda.memory.Memory(max(array.nbytes, 1))  # its own allocation, not the pool's
    if array.nbytes:
        own_pointer = cupy.cuda.MemoryPointer(own, 0)
        own_pointer.copy_from_device(cupy.ascontiguousarray(array).data, array.nbytes)
    handle = bytes(cupy.cuda.runtime.ipcGetMemHandle(own.ptr))
    return Lent(handle, array.dtype.str, tuple(array.shape)), own


def lent_array(lent, own):
    """The lender's own copy of what it lends (``lend``'s pair), as a CuPy array:
    what it writes there, borrowers copying later see."""
    import cupy

    pointer = cupy.cuda.MemoryPointer(own, 0)
    return cupy.ndarray(lent.shape, dtype=np.dtype(lent.dtype), memptr=pointer)


def borrowed_copy(lent):
    """A copy, on the current GPU, of the array ``lent`` by another process
    (peer to peer when it is on another GPU; the lender's GPU must be visible).

    Raises
    ------
    cupy.cuda.runtime.CUDARuntimeError
        The lender is gone (its process ended, its memory with it)."""
    import cupy

    dtype = np.dtype(lent.dtype)
    copy = cupy.empty(lent.shape, dtype=dtype)
    nbytes = copy.nbytes
    if nbytes == 0:
        return copy
    pointer = cupy.cuda.runtime.ipcOpenMemHandle(lent.handle)
    try:
        source = cupy.cuda.UnownedMemory(pointer, nbytes, None, cupy.cuda.Device().id)
        copy.data.copy_from_device(cupy.cuda.MemoryPointer(source, 0), nbytes)
    finally:
        cupy.cuda.runtime.ipcCloseMemHandle(pointer)
    return copy
