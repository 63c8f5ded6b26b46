"""Copies between the GPUs of one host: straight from one GPU's memory to the
other's (peer access, over NVLink or PCIe), never through host memory."""

import threading

__all__ = ["to_current_gpu", "copy_into"]

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
    copy_into(copy, array)
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
