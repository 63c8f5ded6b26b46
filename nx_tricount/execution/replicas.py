"""The replicated regime (TRUST §5.1, workload partitioning): the whole prepared
graph on every worker, its base vertices cut into shares of about equal cost
(:mod:`nx_tricount.algorithms.shares`), each worker taking the next share until
none is left, and the shares' raw counts added where the graph was prepared.

The workers, as the plan's spread names them (``Spread.executor``): ``serial``,
the shares one after another on the count's device; ``gpus``, a thread per entry
of ``devices``, each GPU given its copy of the graph straight from the GPU that
prepared it, or making it with the others (``Spread.prepared_together``);
``dask``, the current client's workers, each given the graph once: a graph on
the client's GPU lent to the workers' GPUs, each copying it peer to peer
(:mod:`nx_tricount.gpu.ipc`), a host graph through host memory.
The kernels are the whole count's: a share only narrows the base vertices
they start from, so every algorithm and mode splits exactly.
"""

import collections
import os
import queue
import socket
import threading
import time
import uuid
from concurrent.futures import CancelledError
from dataclasses import dataclass, replace

import numpy as np

from ..algorithms import as_counts, base_costs, count_raw
from ..algorithms.shares import add_raw, release_scratch, work_shares
from ..gpu.device import module_of, to_host, to_module
from ..preprocess.prepare import Prepared
from ..preprocess.together import REPLICAS
from . import phases

__all__ = ["run"]

#: Arrays of a Prepared a count reads (``perm`` only maps the combined result).
_GRAPH_ARRAYS = ("indptr", "indices", "rows", "values", "degree")

#: Those a GPU copies from another: ``rows`` it makes from the row pointers.
_PULLED = tuple(name for name in _GRAPH_ARRAYS if name != "rows")

#: Key of a worker's host copy's ``derived`` under which its GPU copy is kept.
_ON_GPU = "replica_on_gpu"


def run(plan, prepared, mode):
    """Count ``prepared`` (a whole CSR on the plan's device) in the plan's shares
    on its workers; :class:`~nx_tricount.algorithms.Counts` as a whole count's."""
    waited = time.perf_counter()
    if plan.device == "gpu":  # the rest of the preparation queued before: its own phase
        import cupy

        cupy.cuda.get_current_stream().synchronize()
    start = time.perf_counter()
    arguments = (plan.algorithm, mode, plan.device, dict(plan.parameters))

    def cut():
        return work_shares(prepared, plan.algorithm, plan.spread.shares, base_costs(prepared, *arguments))

    executor = plan.spread.executor
    try:
        if executor == "gpus":
            raw, shares = _on_gpus(prepared, cut, arguments, plan.spread.devices)
        elif executor == "dask":
            shares = cut()
            raw = _on_dask(prepared, shares, arguments)
        else:
            raw, shares = None, cut()
            for share in shares:
                raw = add_raw(raw, count_raw(prepared, *arguments, share))
    finally:  # what the shares kept (the copies this count made go with it)
        for graph in (prepared, *prepared.derived.get(REPLICAS, {}).values()):
            release_scratch(graph)
    result = as_counts(prepared, plan.algorithm, mode, plan.device, raw)
    seconds = round(time.perf_counter() - start, 6)
    phases.record(worker="all", shares=len(shares), preparation_s=round(start - waited, 6), total_s=seconds)
    return result


def _on_gpus(prepared, cut, arguments, devices):
    """``(raw, shares)``: the raw count of the shares ``cut()`` makes, on a thread
    per entry of ``devices``, added on the GPU of ``prepared``; the first error
    of a thread is raised here.

    The first worker cuts the shares on the graph's own GPU; meanwhile each other
    GPU holding a copy prepared together derives on it what its count reads
    first, by the same ``base_costs`` (wedge: its layout and hub prefix sums),
    which its first share would otherwise derive after the cut (R-MAT 25, two
    H200s: 1.6 ms). Each worker records its phases: the cut, its copy (with that
    derivation and the wait for the cut), its count."""
    import cupy

    from ..gpu.peers import to_current_gpu

    home = prepared.indptr.device.id
    pending = collections.deque()  # popleft and clear are atomic
    shares = []
    cut_made = threading.Event()
    finished = queue.Queue()
    # Prepared by the GPUs together, each has its copy already.
    copies = {home: prepared, **prepared.derived.get(REPLICAS, {})}
    locks = {d: threading.Lock() for d in devices}
    warm = set()

    def work(worker, device_id):
        try:
            with cupy.cuda.Device(device_id):
                started = time.perf_counter()
                if worker == 0:
                    try:
                        with cupy.cuda.Device(home):
                            shares.extend(cut())
                        pending.extend(shares)
                    finally:  # the others wait for the cut, made or failed
                        cut_made.set()
                copying = time.perf_counter()
                with locks[device_id]:  # two workers of one GPU share its copy
                    copied = device_id not in copies
                    if copied:
                        copies[device_id] = _copied_here(prepared)
                    graph = copies[device_id]
                    # Prepared together, the GPU would wait for the cut idle (a copy
                    # takes longer than the cut: its first share derives them).
                    if not copied and graph is not prepared and device_id not in warm:
                        warm.add(device_id)
                        base_costs(graph, *arguments)
                cut_made.wait()
                counting = time.perf_counter()
                raw, taken = _count_shares(graph, pending, arguments, len(devices))
                if raw is not None and not isinstance(raw, int):
                    raw = cupy.ascontiguousarray(raw)
                cupy.cuda.get_current_stream().synchronize()
                phases.record(
                    worker=worker,
                    device=device_id,
                    shares=taken,
                    cut_s=round(copying - started, 6),
                    copy_s=round(counting - copying, 6),
                    count_s=round(time.perf_counter() - counting, 6),
                    bytes=_pulled_bytes(prepared) if copied else 0,
                )
                finished.put(raw)
        except BaseException as exc:  # raised again in the caller's thread
            pending.clear()  # the other workers stop after their share
            finished.put(exc)

    threads = [threading.Thread(target=work, args=(w, d), daemon=True) for w, d in enumerate(devices)]
    for thread in threads:
        thread.start()
    raws = [finished.get() for _ in threads]
    for thread in threads:
        thread.join()
    errors = [raw for raw in raws if isinstance(raw, BaseException)]
    if errors:
        raise errors[0]
    with cupy.cuda.Device(home):
        started = time.perf_counter()
        total = None
        for raw in raws:
            if raw is not None:
                total = add_raw(total, raw if isinstance(raw, int) else to_current_gpu(raw))
        cupy.cuda.get_current_stream().synchronize()
        phases.record(worker="combine", device=home, combine_s=round(time.perf_counter() - started, 6))
    return total, shares


def _count_shares(graph, pending, arguments, workers):
    """``(raw, taken)``: the sum of the shares this GPU took from ``pending`` until
    none was left, and how many. Each share is queued behind the one the GPU is
    counting (:func:`~nx_tricount.algorithms.gpu_count.queued`), and taken once
    the one before that has run: the GPU never waits for the host, and no GPU
    holds more than two shares the others might have taken. Of the last shares,
    fewer than the ``workers``, each is taken only by a GPU that has counted
    its own: queued early, the last ones had left one of two H200s 9 ms behind
    the other on R-MAT 25 (``nx.transitivity`` 0.304 s), taken so 5 ms (0.301 s)."""
    import cupy

    from ..algorithms.gpu_count import queued, settled

    raw, taken, before = None, 0, None
    with queued():
        while True:
            if before is not None and len(pending) < workers:
                before.synchronize()
            try:
                share = pending.popleft()
            except IndexError:  # none left
                break
            raw = count_raw(graph, *arguments, share)  # added into the shares' one output
            taken += 1
            counted = cupy.cuda.Event(block=True, disable_timing=True)
            counted.record()
            if before is not None:
                before.synchronize()
            before = counted
    return (None if raw is None else settled(raw, arguments[1])), taken


def _copied_here(prepared):
    """``prepared``'s graph (:func:`_moved`) copied to the current GPU by its own
    threads (:func:`~nx_tricount.gpu.peers.pull_into`), while the home GPU counts:
    the driver's copy had waited for the home GPU's kernels (R-MAT 25 on two
    H200s: 0.21 s against 0.015, docs/benchmarks.md, "Several GPUs")."""
    import cupy

    from ..gpu.peers import pull_into
    from ..preprocess.gpu_ops import rows_of

    copy = _moved(prepared, lambda a: cupy.empty(a.shape, dtype=a.dtype), _PULLED)
    for name in _PULLED:
        if getattr(prepared, name) is not None:
            pull_into(getattr(copy, name), getattr(prepared, name))
    # Each arc's row follows from the row pointers: made here in a fraction of
    # the time its copy took (R-MAT 25: 2.1 GB of the 4.7 GB moved).
    copy.rows = rows_of(copy.indptr, prepared.rows.dtype)
    cupy.cuda.get_current_stream().synchronize()
    return copy


def _moved(prepared, move, names=_GRAPH_ARRAYS):
    """``prepared``'s graph with ``move`` applied to each array a count reads
    (those of ``names``; the others None), without its derived arrays (each copy
    derives its own) and vertex map."""
    arrays = {name: getattr(prepared, name) if name in names else None for name in _GRAPH_ARRAYS}
    moved = {name: None if a is None else move(a) for name, a in arrays.items()}
    return replace(prepared, perm=None, derived={}, **moved)


def _pulled_bytes(prepared):
    arrays = (getattr(prepared, name) for name in _PULLED)
    return sum(a.nbytes for a in arrays if a is not None)


def _on_dask(prepared, shares, arguments):
    """The raw count of ``shares`` on the current Dask client's workers, added on
    the device of ``prepared``. A graph on the client's GPU is lent to workers
    in other processes of this host (CUDA IPC: each copies it peer to peer,
    once); else it is sent to each worker once through host memory."""
    import dask
    from distributed import get_client

    from .dask import RETRIES, finished

    client = get_client()
    xp = module_of(prepared.indptr)
    keep = None
    if xp is not np and _lendable(client):
        import cupy

        graph, keep = _lent(prepared)
        # The pool keeps the blocks the preparation freed, which a worker on this GPU
        # needs: R-MAT 27 left 96 GiB cached and the worker there 7.7 GB free.
        cupy.get_default_memory_pool().free_all_blocks()
    count = dask.delayed(_count_on_worker, pure=False)
    total, remaining = None, list(shares)
    try:
        for attempt in range(1 + RETRIES):
            if keep is None:  # again on each attempt: a lost worker may have held its one copy
                [graph] = client.scatter([_moved(prepared, to_host)], broadcast=True, hash=False)
            lost, done, sums = [], set(), {}
            tasks = [count(graph, share, *arguments, attempt) for share in remaining]
            try:
                for position, raw in finished(tasks, client):
                    done.add(position)
                    if isinstance(raw, _LentSum):  # copied once, when every share is counted
                        sums.setdefault(raw.array.handle, (raw, []))[1].append(remaining[position])
                    else:
                        total = add_raw(total, raw if isinstance(raw, int) else to_module(raw, xp))
            except CancelledError:  # the scattered graph was lost with a worker
                lost += [share for position, share in enumerate(remaining) if position not in done]
            for lent_sum, counted in sums.values():
                raw = _fetched(lent_sum)
                if raw is None:  # its worker ended before the copy: count its shares again
                    lost += counted
                else:
                    total = add_raw(total, raw)
            if not lost:
                return total
            remaining = lost
        raise RuntimeError(
            f"tricount: {len(remaining)} share(s) lost their workers {1 + RETRIES} times before "
            "their counts could be copied back"
        )
    finally:
        if keep is not None:
            client.run(_forget, graph.token)  # the workers' copies and sums


def _lendable(client):
    """Whether every worker of ``client`` runs in another process of this host:
    where CUDA IPC reaches (a process cannot open its own handles)."""
    here = (socket.gethostname(), os.getpid())
    places = client.run(lambda: (socket.gethostname(), os.getpid())).values()
    return all(host == here[0] and pid != here[1] for host, pid in places)


@dataclass(frozen=True)
class _LentGraph:
    """A prepared graph on the client's GPU as the workers reach it: each array
    a :class:`~nx_tricount.gpu.ipc.Lent` (or None), with the graph's other fields."""

    token: str
    arrays: dict
    fields: dict


def _lent(prepared):
    """``(_LentGraph, keep)`` of ``prepared`` (``keep``: what the client holds until the count is done)."""
    from ..gpu.ipc import lend

    arrays, keep = {}, []
    for name in _GRAPH_ARRAYS:
        array = getattr(prepared, name)
        if array is None:
            arrays[name] = None
            continue
        arrays[name], own = lend(array)
        keep.append(own)
    fields = {
        name: getattr(prepared, name) for name in ("n", "orientation", "ordering", "ascending", "task_blocks")
    }
    return _LentGraph(uuid.uuid4().hex, arrays, fields), keep


#: A worker's copies of the graphs lent to it, by token, until the client forgets them.
_BORROWED = {}
_BORROWED_LOCK = threading.Lock()
#: A worker's sums of its shares' raw counts of a lent graph, lent back to the
#: client: token -> attempt -> (Lent, its allocation), until the client forgets them.
_SUMS = collections.defaultdict(dict)


@dataclass(frozen=True)
class _LentSum:
    """The sum of a worker's shares' raw per-node or per-arc counts so far, lent
    by that worker (one allocation per worker and attempt: every share it
    counts adds to it)."""

    array: object  # Lent


def _fetched(lent_sum):
    """The client's copy of a worker's lent sum (None: its worker is gone)."""
    import cupy

    from ..gpu.ipc import borrowed_copy

    try:
        return borrowed_copy(lent_sum.array)
    except cupy.cuda.runtime.CUDARuntimeError:
        return None


def _borrowed(lent):
    """The worker's copy of a lent graph on its GPU, made once."""
    from ..gpu.ipc import borrowed_copy

    with _BORROWED_LOCK:
        if lent.token not in _BORROWED:
            arrays = {name: None if a is None else borrowed_copy(a) for name, a in lent.arrays.items()}
            _BORROWED[lent.token] = Prepared(**lent.fields, **arrays)
        return _BORROWED[lent.token]


def _forget(token):
    """Drop the worker's copy of a lent graph, and its sums (run on every worker
    when its count is done), their memory given back to the GPU: a client on this
    worker's GPU plans its next count from the free memory there (on four H200s,
    R-MAT 27's second count saw too little, and was partitioned)."""
    import cupy

    with _BORROWED_LOCK:
        _BORROWED.pop(token, None)
        _SUMS.pop(token, None)
    cupy.get_default_memory_pool().free_all_blocks()


def _count_on_worker(graph, share, algorithm, mode, device, parameters, attempt):
    """A share's raw count on a Dask worker, in host memory: on its GPU (a lent
    graph copied there once; a host graph copied there once, kept for the
    worker's later shares) or its CPU. A lent graph's per-node or per-arc counts
    are added to the worker's sum for the count's ``attempt``, lent back."""
    if isinstance(graph, _LentGraph):
        raw = count_raw(_borrowed(graph), algorithm, mode, device, parameters, share)
        return raw if isinstance(raw, int) else _added_to_sum(graph.token, attempt, raw)
    if device == "gpu":
        import cupy

        if _ON_GPU not in graph.derived:  # the host copy's own cache, never a count
            graph.derived[_ON_GPU] = _moved(graph, lambda a: to_module(a, cupy))
        graph = graph.derived[_ON_GPU]
    raw = count_raw(graph, algorithm, mode, device, parameters, share)
    return raw if isinstance(raw, int) else np.ascontiguousarray(to_host(raw))


def _added_to_sum(token, attempt, raw):
    """``raw`` added to this worker's lent sum of its shares (made by the first):
    the client copies each worker's sum once, GPU to GPU, where a result per share
    cost an allocation, an IPC handle opened and a round trip each (R-MAT 26's
    average clustering on two dask-cuda workers: 2.15 s against 1.66 on
    ``devices="all"``)."""
    import cupy

    from ..gpu.ipc import lend, lent_array

    with _BORROWED_LOCK:
        held = _SUMS[token].get(attempt)
        if held is None:
            held = _SUMS[token][attempt] = lend(raw)
        else:
            total = lent_array(*held)
            total[...] = add_raw(total, raw)
        cupy.cuda.get_current_stream().synchronize()  # complete before the client copies it
    return _LentSum(held[0])
