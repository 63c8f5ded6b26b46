"""What every GPU algorithm does around its kernel: the output array of a mode,
the values argument, one launch of a kernel of ``kernels/<algorithm>.cu`` per
item, and the count read back from the output.

The kernels themselves are loaded and launched by :mod:`nx_tricount.gpu.runtime`;
CuPy is imported on first use, so the CPU engine never needs it.
"""

import contextlib
import functools
import threading

import numpy as np

from ..gpu import runtime

__all__ = [
    "count",
    "output",
    "is_weighted",
    "output_bytes",
    "kernel_values",
    "finish",
    "queued",
    "halve_once",
    "settled",
    "arc_range",
]

#: Whether the counts of this thread stay queued on the GPU (:func:`queued`).
_QUEUED = threading.local()


def arc_range(prepared, vertices):
    """``(first, end)``: the CSR positions of the arcs of the base vertices
    ``vertices`` (a share's range, :mod:`.shares`), or of every arc."""
    if vertices is None:
        return 0, prepared.m
    ends = prepared.indptr[[vertices[0], vertices[1]]]
    first, end = (int(x) for x in ends.get())
    return first, end


def output(prepared, mode):
    """The zeroed output array of ``mode`` and whether the count is weighted;
    inside :func:`queued`, the thread's one output of ``mode`` on ``prepared``,
    into which every count of it there adds.

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
    kept = getattr(_QUEUED, "outputs", None)
    if kept is not None and (id(prepared), mode) in kept:
        return kept[id(prepared), mode], weighted
    if mode == "total":
        out = cupy.zeros(1, dtype=np.uint64)
    elif weighted:
        if prepared.values.dtype not in (np.float64, np.int64):
            raise TypeError(f"arc values must be float64 or int64 on the GPU, got {prepared.values.dtype}")
        out = cupy.zeros(2 * prepared.n, dtype=prepared.values.dtype)
    else:
        out = cupy.zeros(prepared.n if mode == "per_node" else prepared.m, dtype=np.int64)
    if kept is not None:
        kept[id(prepared), mode] = out
    return out, weighted


def is_weighted(prepared, mode):
    """Whether ``mode`` on ``prepared`` sums arc-value products (weighted per node)."""
    return prepared.values is not None and mode == "per_node"


def output_bytes(prepared, mode):
    """Bytes of :func:`output` for ``mode`` (for ``runtime.check_memory``)."""
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
    """The count as an int (total) or the output array, once the kernels queued
    before it have run (a fault inside one surfaces here); weighted, the ``(2, n)``
    view of each vertex's sum and compensation. Inside :func:`queued`, the output
    as it is, without waiting (a total: its one counter)."""
    import cupy

    if getattr(_QUEUED, "on", False):
        return out.reshape(-1, 2).T if weighted else out
    if mode == "total":
        return int(out.get()[0])  # the copy waits for the kernels: one round trip
    cupy.cuda.get_current_stream().synchronize()
    return out.reshape(-1, 2).T if weighted else out


@contextlib.contextmanager
def queued():
    """Within it, this thread's counts return their outputs still on the GPU
    (:func:`finish`), each count of a graph in a mode adding into the one output
    its first made (:func:`output`; every kernel adds into its output, and doubled
    counts are halved once, as the block ends: :func:`halve_once`): the last
    share's output is the sum of the thread's shares. A worker queues its next
    share while the GPU counts the last, and waits once, for their sum
    (:func:`settled`). Waiting for each share left the GPU idle while the next
    one's launches were queued: on two H200s the count phases of R-MAT 25's
    shares summed 417 ms so, 409-412 queued. An output per share, zeroed and
    added to the sum, had cost about 0.3 ms a share per node on R-MAT 25."""
    _QUEUED.on, _QUEUED.outputs, _QUEUED.doubled = True, {}, {}
    try:
        yield
        for doubled in _QUEUED.doubled.values():  # halve_once's
            doubled >>= 1
    finally:
        _QUEUED.on, _QUEUED.outputs, _QUEUED.doubled = False, None, None


def halve_once(out):
    """Halve ``out``, which its count's kernels filled with twice the counts: now,
    or inside :func:`queued` once, as the thread's counts end (every count there
    adds its doubled counts into the same output)."""
    if getattr(_QUEUED, "on", False):
        _QUEUED.doubled[out.data.ptr] = out
    else:
        out >>= 1


def settled(raw, mode):
    """The sum of queued counts (:func:`queued`) once their kernels have run, as
    :func:`finish` returns a count: a total as an int."""
    import cupy

    if mode == "total":
        return int(raw.get()[0])
    cupy.cuda.get_current_stream().synchronize()
    return raw


def count(prepared, mode, algorithm, items, args, *, waves=None):
    """Count with ``kernels/<algorithm>.cu``, one thread per item.

    The kernel takes ``(*args, values, out)``; this checks the memory of a per-vertex
    or per-arc output (not of one counter: CuPy's own out-of-memory error says it),
    allocates it, launches, and returns what :func:`finish` returns.

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
        runtime.check_memory(output_bytes(prepared, mode), f"the {mode} output")
    out, weighted = output(prepared, mode)
    weight = prepared.values.dtype if weighted else np.float64
    kernel = runtime.function(
        f"{algorithm}.cu",
        runtime.entry(algorithm, mode, weighted),
        vid=prepared.indices.dtype,
        weight=weight,
    )
    grid = None if waves is None else waves * runtime.resident_blocks(kernel, 0)
    runtime.launch(kernel, items, (*args, kernel_values(prepared, weighted), out), grid=grid)
    return finish(out, mode, weighted)
