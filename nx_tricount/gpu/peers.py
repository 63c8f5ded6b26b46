"""Copies between the GPUs of one host: straight from one GPU's memory to the
other's (peer access, over NVLink or PCIe), never through host memory."""

import threading

import numpy as np

__all__ = ["to_current_gpu", "copy_into", "pull_into"]

#: Alignment of both ends of a copy :func:`pull_into` makes with its own threads.
PULL_ALIGNMENT = 16

_enabled = set()
_lock = threading.Lock()


def to_current_gpu(array):
    """``array`` (CuPy) on the current GPU: itself when it is there, else a peer
    copy queued on the current stream (the source must be ready: its GPU's work
    on it finished)."""
    import cupy

    if array.device.id == cupy.cuda.Device().id:
        return array
    copy = cupy.empty(array.shape, dtype=array.dtype)
    pull_into(copy, array)
    return copy


def copy_into(target, array):
    """Copy ``array`` (CuPy, on any GPU, ready) into ``target``, a contiguous
    array of its size and dtype on the current GPU: a copy queued on the current
    stream, peer to peer where the two GPUs differ."""
    import cupy

    if target.size != array.size or target.dtype != array.dtype:
        raise ValueError(
            f"copy_into: {array.size} items of {array.dtype} into {target.size} of {target.dtype}"
        )
    source = array.device.id
    if source != target.device.id:
        _enable_peer_access(target.device.id, source)
    if not array.flags.c_contiguous:
        with cupy.cuda.Device(source):
            array = cupy.ascontiguousarray(array)
            cupy.cuda.get_current_stream().synchronize()
    if array.nbytes:
        target.data.copy_from_device_async(array.data, array.nbytes, cupy.cuda.get_current_stream())


def pull_into(target, array):
    """:func:`copy_into` made by the current GPU's own threads (``kernels/peers.cu``),
    which read ``array`` straight from its GPU's memory: unlike the driver's copy,
    it does not wait for that GPU's kernels to leave it room (a peer's share of
    the keys gathered while that GPU sorts its own: R-MAT 25 on two H200s, 18.6
    ms against 3.3). Where the two GPUs have no peer access, :func:`copy_into`;
    where ``target`` is not 16-byte aligned (a piece of a gathered array), the
    pull goes through an aligned copy on this GPU."""
    import cupy

    from . import runtime

    source = array.device.id
    here = target.device.id
    if source != here:
        _enable_peer_access(here, source)
    peer = source == here or cupy.cuda.runtime.deviceCanAccessPeer(here, source)
    aligned = array.data.ptr % PULL_ALIGNMENT == 0
    if not (aligned and peer and array.flags.c_contiguous and target.size == array.size):
        copy_into(target, array)
        return
    if target.dtype != array.dtype:
        raise ValueError(f"pull_into: {array.dtype} into {target.dtype}")
    if target.data.ptr % PULL_ALIGNMENT:
        pulled = cupy.empty(array.shape, dtype=array.dtype)
        pull_into(pulled, array)
        copy_into(target, pulled)
        return
    kernel = runtime.function("peers.cu", "pull_bytes")
    args = (np.uint64(array.data.ptr), target, np.int64(array.nbytes))
    # A block per multiprocessor moves as much as a full grid (R-MAT 25's 1 GB of
    # arcs between two H200s in 2.83 ms either way) and leaves the rest of each
    # multiprocessor to kernels on other streams.
    grid = runtime.device_properties()["multiProcessorCount"]
    runtime.launch(kernel, -(-array.nbytes // PULL_ALIGNMENT), args, grid=grid)


def _enable_peer_access(here, source):
    """Let GPU ``here`` read GPU ``source``'s memory, once per pair (where the two
    cannot, the driver copies through the host)."""
    import cupy

    with _lock:
        if (here, source) in _enabled:
            return
        _enabled.add((here, source))
        if not cupy.cuda.runtime.deviceCanAccessPeer(here, source):
            return
        try:
            cupy.cuda.runtime.deviceEnablePeerAccess(source)
        except cupy.cuda.runtime.CUDARuntimeError as exc:  # enabled by another library
            if "PeerAccessAlreadyEnabled" not in str(exc):
                raise
