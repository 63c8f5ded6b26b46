"""One oriented CSR prepared by several GPUs at once, each ending with its own
copy: the preparation of the replicated regime (TRUST §5.1 keeps the whole
oriented graph on every GPU; here the GPUs also share the work of making it,
``docs/algorithms.md``, "Several GPUs: the replicated regime").

Each step runs on every worker at once (a thread per GPU), and a worker reads
what the others made in the step before straight from their memory (peer
copies, :mod:`nx_tricount.gpu.peers`):

1. **Distinct edges.** Worker ``g`` takes the ``g``-th slice of the edge rows
   (:func:`row_bounds`: a larger one where they lie on its GPU), from host memory
   or the GPU that holds them, and makes their edge keys; each
   key goes to the worker that owns its range of keys (splitters drawn from a
   sample of the rows), which sorts the keys it owns, marks the distinct ones
   and counts their degrees.
2. **Degrees.** Each worker adds up every worker's degree counts: the ordering
   and orientation of every edge are then known everywhere.
3. **Arcs by source.** Each worker orients its edges, and each arc goes to the
   worker that owns its source's range of ids (splitters at the start of a row,
   drawn from a sample again), which sorts its arcs into its rows of the CSR.
4. **The copies.** Each worker gathers every worker's rows, in order, adds up
   their row pointers, and makes each arc's row from them.

Every copy is the CSR :func:`~.prepare.prepare_simple` makes of the same graph,
array for array: the same ordering and orientation rules on the same degrees,
the arcs sorted. The orientations and orderings prepared so are those that need
only the degrees (:data:`~.streamed.STREAMED`). Workers given as ``"cpu"`` run
the same steps one after another on NumPy arrays (the tests' reference).
"""

import copy
import threading

import numpy as np

from ..gpu.device import module_of, to_host, to_module
from . import host_ops
from .dedup import SENTINEL, index_dtype
from .ops import ops_for
from .ordering import relabel, vertex_order
from .prepare import Prepared, ascending_arcs
from .streamed import STREAMED

__all__ = ["REPLICAS", "prepare_together", "range_splitters", "row_bounds"]

#: Key of the first worker's ``Prepared.derived`` that holds the other GPUs'
#: copies, by GPU id.
REPLICAS = "replicas"

#: Keys a worker adds, on average, to the sample the splitters are drawn from.
SAMPLES_PER_WORKER = 4096

#: What pulling a key from another GPU costs, against sorting and deduplicating
#: it: R-MAT 25's keys crossed NVLink in 17.7 ms, and were sorted and
#: deduplicated in 48 (two H200s).
PULLED_KEY_COST = 0.37

#: Edge rows a worker keys at a time when they come from host memory: the
#: keys of one slice are made while the next crosses the bus.
KEYED_ROWS = 1 << 27

#: How many times as many edge rows a worker on the GPU that holds them takes as a
#: worker that pulls its rows from there, so that the two finish their keys
#: together: R-MAT 25 on two H200s was prepared in 87 ms so, 91 at 2.0.
PULLED_ROW_COST = 3.0


def prepare_together(src, dst, n, *, orientation, ordering, devices):
    """The oriented CSR of an undirected edge list, prepared on ``devices`` together.

    Parameters
    ----------
    src, dst : integer arrays
        Edges in either or both directions, duplicates and self-loops allowed:
        NumPy arrays, or CuPy arrays on any of the GPUs.
    n : int
    orientation : {"id", "degree"}
    ordering : {"none", "degree"}
    devices : sequence of int, or of "cpu"
        The workers: GPU ids (one may repeat), or ``"cpu"`` for each of several
        workers on NumPy arrays.

    Returns
    -------
    list of Prepared
        Each worker's copy, on its device; the first holds the vertex map
        (``perm``), the others none.
    """
    if (orientation, ordering) not in STREAMED:
        raise ValueError(
            f"orientation {orientation!r} with ordering {ordering!r} cannot be prepared by "
            f"several GPUs together; accepted: {sorted(STREAMED)}"
        )
    devices = tuple(devices)
    on_cpu = [d == "cpu" for d in devices]
    if not devices or (any(on_cpu) and not all(on_cpu)):
        raise ValueError(f"devices must be GPU ids or 'cpu' workers, not a mix or none; got {devices!r}")
    workers = len(devices)
    bounds = row_bounds(src, dst, devices)
    stride = max(1, int(src.size) // (SAMPLES_PER_WORKER * workers))
    # Splitters from a sample of the rows, drawn before any key is made: each
    # worker then keys and cuts its rows in one step, at its own pace.
    sample = _row_sample(src, dst, n, stride)
    splitters = range_splitters([sample], workers, key_shares(bounds))

    def edge_keys(g):
        rows = slice(bounds[g], bounds[g + 1])
        keys = _row_keys(src[rows], dst[rows], n, devices[g])
        return ops_for(keys).keys_by_range(keys, splitters)

    buckets = _each(devices, edge_keys)

    def distinct(g):
        owned = _gathered([bucket[g] for bucket in buckets], devices[g])
        return ops_for(owned).distinct_keys_graph(owned, n)

    simple = _each(devices, distinct)
    buckets = None
    degree = _each(devices, lambda g: _sum_of([graph.degree for graph in simple], devices[g]))
    dtype = index_dtype(n)

    def arcs(g):
        perm = vertex_order(ordering, degree[g])
        perm = None if perm is None else perm.astype(dtype)
        rank = None if perm is None else relabel(perm, n)
        graph = copy.copy(simple[g])
        graph.degree = degree[g]  # the whole graph's: its own edges' degrees were a share
        keys, _ = ops_for(degree[g]).oriented_keys(orientation, graph, rank)
        return keys, _sample(keys, stride), perm

    oriented = _each(devices, arcs)
    simple = None
    row_starts = _row_starts(range_splitters([sample for _, sample, _ in oriented], workers), n)
    arc_buckets = _each(devices, lambda g: ops_for(oriented[g][0]).keys_by_range(oriented[g][0], row_starts))
    perms = [perm for _, _, perm in oriented]
    oriented = None

    def rows(g):
        owned = _gathered([bucket[g] for bucket in arc_buckets], devices[g])
        owned.sort()
        return ops_for(owned).csr_of_sorted_keys(owned, n, dtype, owned.size)

    pieces = _each(devices, rows)
    arc_buckets = None
    ascending = ascending_arcs(orientation, ordering)

    def whole(g):
        # Each arc's row follows from the row pointers, made here faster than
        # pulled from the other workers, and beside the pulls of their arcs.
        arcs = [piece[1] for piece in pieces]
        pointers = [piece[0] for piece in pieces]
        indices, indptr, arc_rows = _rows_beside(
            lambda: _gathered(arcs, devices[g]), pointers, sum(int(a.size) for a in arcs), devices[g], dtype
        )
        perm = perms[g]
        new_degree = degree[g] if perm is None else degree[g][perm]
        return Prepared(
            n,
            indptr,
            indices,
            arc_rows,
            None,
            perm if g == 0 else None,
            new_degree,
            orientation,
            ordering,
            ascending,
        )

    return _each(devices, whole)


def _each(devices, work):
    """``[work(g) for each worker g]``: on GPUs, a thread per worker on its
    device, each waiting for its GPU's work to finish, so that the next step's
    peers read finished arrays; the first error is raised here."""
    if devices[0] == "cpu":
        return [work(g) for g in range(len(devices))]
    import cupy

    results = [None] * len(devices)
    errors = []

    def run(g):
        try:
            with cupy.cuda.Device(devices[g]):
                results[g] = work(g)
                cupy.cuda.get_current_stream().synchronize()
        except BaseException as exc:  # raised again in the caller's thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(g,), daemon=True) for g in range(len(devices))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return results


def _here(array, device):
    """``array`` on the worker's device: host memory, or the current GPU (a peer
    copy from another GPU, or through pinned staging from host memory)."""
    if device == "cpu":
        return to_host(array)
    import cupy

    from ..gpu.peers import to_current_gpu

    return to_module(array, cupy) if module_of(array) is np else to_current_gpu(array)


def _row_keys(src, dst, n, device):
    """The edge keys of the rows ``src``, ``dst`` on the worker's device. Rows in
    host memory cross to a GPU :data:`KEYED_ROWS` at a time, and the GPU keys each
    slice while the host copies the next into the staging buffers."""
    if device == "cpu" or module_of(src) is not np:
        here_src, here_dst = _here(src, device), _here(dst, device)
        return ops_for(here_src).edge_keys(here_src, here_dst, n)
    import cupy

    from . import gpu_ops

    keys = cupy.empty(src.size, dtype=np.int64)
    for start in range(0, src.size, KEYED_ROWS):
        rows = slice(start, start + KEYED_ROWS)
        keys[rows] = gpu_ops.edge_keys(_here(src[rows], device), _here(dst[rows], device), n)
    return keys


def _gathered(arrays, device):
    """The arrays one after another on the worker's device, each copied once
    into its place."""
    if device == "cpu":
        return np.concatenate([to_host(a) for a in arrays])
    import cupy

    from ..gpu.peers import pull_into

    out = cupy.empty(sum(int(a.size) for a in arrays), dtype=arrays[0].dtype)
    start = 0
    for array in arrays:
        pull_into(out[start : start + array.size], array)
        start += array.size
    return out


def _rows_beside(gather, pointers, arc_count, device, dtype):
    """``(arcs, indptr, rows)``: the ``arc_count`` arcs ``gather()`` pulls from the
    workers, the row pointers (the sum of every worker's ``pointers``) and each
    arc's row made from them. On a GPU, ``gather``'s pulls are queued first and
    hold a block per multiprocessor (:func:`~nx_tricount.gpu.peers.pull_into`);
    the sum and the rows are made on a stream of their own beside them, into
    arrays allocated before on the current stream, which then waits for them
    (R-MAT 25's half, two H200s: 3.5 ms, where one after the other took 6.0)."""
    if device == "cpu":
        indptr = _sum_of(pointers, device)
        return gather(), indptr, host_ops.rows_of(indptr, dtype)
    import cupy

    from ..gpu import runtime
    from ..gpu.peers import pull_into
    from . import gpu_ops

    current = cupy.cuda.get_current_stream()
    here = [a if a.device.id == device else cupy.empty(a.shape, dtype=a.dtype) for a in pointers]
    indptr = cupy.empty(pointers[0].shape, dtype=pointers[0].dtype)
    rows = cupy.empty(arc_count, dtype=dtype)
    ready = current.record()  # the memory of these arrays free for another stream
    arcs = gather()
    side = runtime.side_stream(device)
    side.wait_event(ready)
    with side:
        for target, array in zip(here, pointers):
            if target is not array:
                pull_into(target, array)
        cupy.copyto(indptr, here[0])
        for array in here[1:]:
            indptr += array
        gpu_ops.rows_of(indptr, dtype, out=rows)
    current.wait_event(side.record())
    return arcs, indptr, rows


def _sum_of(arrays, device):
    """The element-wise sum of the arrays, on the worker's device."""
    total = _here(arrays[0], device).copy()
    for array in arrays[1:]:
        total += _here(array, device)
    return total


def _sample(keys, stride):
    """Every ``stride``-th key, in host memory: the same stride on every worker,
    so that each worker's keys weigh in the pooled sample as many as they are."""
    return to_host(module_of(keys).ascontiguousarray(keys[::stride]))


def _row_sample(src, dst, n, stride):
    """The edge keys of every ``stride``-th row, in host memory."""
    rows = slice(None, None, stride)
    sample_src, sample_dst = (to_host(module_of(a).ascontiguousarray(a[rows])) for a in (src, dst))
    return host_ops.edge_keys(sample_src.astype(np.int64), sample_dst.astype(np.int64), n)


def row_bounds(src, dst, devices):
    """Where each worker's slice of the edge rows starts, and the last ends: a
    worker on the GPU that holds the rows takes :data:`PULLED_ROW_COST` times as
    many as one that pulls its rows from there, so that the two finish their
    keys together; equal slices otherwise (rows in host memory, ``"cpu"``
    workers)."""
    holder = _gpu_of(src) if _gpu_of(src) == _gpu_of(dst) else None
    weights = np.array([PULLED_ROW_COST if holder is not None and d == holder else 1.0 for d in devices])
    ends = np.cumsum(weights) / weights.sum()
    return [0, *(int(src.size * end) for end in ends[:-1]), int(src.size)]


def _gpu_of(array):
    """The id of the GPU that holds ``array``, or None (host memory)."""
    return None if module_of(array) is np else array.device.id


def range_splitters(samples, workers, shares=None):
    """``workers - 1`` keys cutting the pooled samples into about equal ranges, or
    into ranges in proportion to ``shares`` (:data:`SENTINEL` where there is no
    key: the ranges after it stay empty)."""
    pooled = np.sort(np.concatenate(samples))
    pooled = pooled[pooled != SENTINEL]
    if pooled.size == 0:
        return [SENTINEL] * (workers - 1)
    if shares is None:
        return [int(pooled[pooled.size * h // workers]) for h in range(1, workers)]
    ends = np.cumsum(shares)[:-1] / np.sum(shares)
    return [int(pooled[min(pooled.size - 1, int(pooled.size * end))]) for end in ends]


def key_shares(bounds):
    """Each worker's share of the edge keys to sort, from where its slice of the
    rows (``bounds``, :func:`row_bounds`) starts and ends: a worker pulls the keys
    of its range that the others made, so the fewer of the rows it keys itself,
    the smaller its range, and the workers finish sorting together
    (:data:`PULLED_KEY_COST`). Equal slices make equal shares."""
    rows = np.diff(np.asarray(bounds, dtype=np.float64)) / max(1, bounds[-1])
    return 1 / (1 + PULLED_KEY_COST * (1 - rows))


def _row_starts(splitters, n):
    """Each arc key of ``splitters`` moved back to the start of its source's row,
    so that every row falls in one range."""
    real = [key for key in splitters if key != SENTINEL]
    sources, _ = host_ops.unpack_keys(np.asarray(real, dtype=np.int64), n, np.int64)
    starts = host_ops.packed_keys(sources, np.zeros_like(sources), n).tolist()
    return starts + [SENTINEL] * (len(splitters) - len(real))
