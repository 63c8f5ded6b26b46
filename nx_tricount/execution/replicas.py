"""The replicated regime (TRUST §5.1, workload partitioning): the whole prepared
graph on every worker, its base vertices cut into shares of about equal cost
(:mod:`nx_tricount.algorithms.shares`), each worker taking the next share until
none is left, and the shares' raw counts added where the graph was prepared.

The workers, as the plan's spread names them (``Spread.executor``): ``serial``,
the shares one after another on the count's device; ``gpus``, a thread per entry
of ``devices``, each GPU given its copy of the graph straight from the GPU that
prepared it, or making it with the others (``Spread.prepared_together``);
``dask``, the current client's workers, each given the graph once (host memory;
on a worker's GPU it is copied once and kept for its shares).
The kernels are the whole count's: a share only narrows the base vertices
they start from, so every algorithm and mode splits exactly.
"""

import collections
import queue
import threading
import time
from dataclasses import replace

import numpy as np

from ..algorithms import as_counts, count_raw
from ..algorithms.shares import add_raw, work_shares
from ..gpu.device import module_of, to_host, to_module
from ..preprocess.together import REPLICAS
from . import phases

__all__ = ["run"]

#: Arrays of a Prepared a count reads (``perm`` only maps the combined result).
_GRAPH_ARRAYS = ("indptr", "indices", "rows", "values", "degree")

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
    shares = work_shares(prepared, plan.algorithm, plan.spread.shares)
    arguments = (plan.algorithm, mode, plan.device, dict(plan.parameters))
    executor = plan.spread.executor
    if executor == "gpus":
        raw = _on_gpus(prepared, shares, arguments, plan.spread.devices)
    elif executor == "dask":
        raw = _on_dask(prepared, shares, arguments)
    else:
        raw = None
        for share in shares:
            raw = add_raw(raw, count_raw(prepared, *arguments, share))
    result = as_counts(prepared, plan.algorithm, mode, plan.device, raw)
    seconds = round(time.perf_counter() - start, 6)
    phases.record(worker="all", shares=len(shares), preparation_s=round(start - waited, 6), total_s=seconds)
    return result


def _on_gpus(prepared, shares, arguments, devices):
    """The raw count of ``shares`` on a thread per entry of ``devices``, added
    on the GPU of ``prepared``; the first error of a thread is raised here."""
    import cupy

    from ..gpu.peers import to_current_gpu

    home = prepared.indptr.device.id
    pending = collections.deque(shares)  # popleft and clear are atomic
    finished = queue.Queue()
    # Prepared by the GPUs together, each has its copy already.
    copies = {home: prepared, **prepared.derived.get(REPLICAS, {})}
    locks = {d: threading.Lock() for d in devices}

    def work(worker, device_id):
        try:
            with cupy.cuda.Device(device_id):
                started = time.perf_counter()
                with locks[device_id]:  # two workers of one GPU share its copy
                    copied = device_id not in copies
                    if copied:
                        copies[device_id] = _moved(prepared, to_current_gpu)
                graph = copies[device_id]
                cupy.cuda.get_current_stream().synchronize()
                counting = time.perf_counter()
                raw, taken = None, 0
                while True:
                    try:
                        share = pending.popleft()
                    except IndexError:  # none left
                        break
                    raw = add_raw(raw, count_raw(graph, *arguments, share))
                    taken += 1
                if raw is not None and not isinstance(raw, int):
                    raw = cupy.ascontiguousarray(raw)
                cupy.cuda.get_current_stream().synchronize()
                phases.record(
                    worker=worker,
                    device=device_id,
                    shares=taken,
                    copy_s=round(counting - started, 6),
                    count_s=round(time.perf_counter() - counting, 6),
                    bytes=_graph_bytes(prepared) if copied else 0,
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
    for raw in raws:
        if isinstance(raw, BaseException):
            raise raw
    with cupy.cuda.Device(home):
        started = time.perf_counter()
        total = None
        for raw in raws:
            if raw is not None:
                total = add_raw(total, raw if isinstance(raw, int) else to_current_gpu(raw))
        cupy.cuda.get_current_stream().synchronize()
        phases.record(worker="combine", device=home, combine_s=round(time.perf_counter() - started, 6))
    return total


def _moved(prepared, move):
    """``prepared``'s graph with ``move`` applied to each array a count reads,
    without its derived arrays (each copy derives its own) and vertex map."""
    arrays = {name: getattr(prepared, name) for name in _GRAPH_ARRAYS}
    moved = {name: None if a is None else move(a) for name, a in arrays.items()}
    return replace(prepared, perm=None, derived={}, **moved)


def _graph_bytes(prepared):
    arrays = (getattr(prepared, name) for name in _GRAPH_ARRAYS)
    return sum(a.nbytes for a in arrays if a is not None)


def _on_dask(prepared, shares, arguments):
    """The raw count of ``shares`` on the current Dask client's workers (the
    graph sent to each once), added on the device of ``prepared``."""
    import dask
    from distributed import get_client

    from .dask import finished

    client = get_client()
    [scattered] = client.scatter([_moved(prepared, to_host)], broadcast=True, hash=False)
    count = dask.delayed(_count_on_worker, pure=False)
    tasks = [count(scattered, share, *arguments) for share in shares]
    xp = module_of(prepared.indptr)
    total = None
    for _, raw in finished(tasks, client):
        total = add_raw(total, raw if isinstance(raw, int) else to_module(raw, xp))
    return total


def _count_on_worker(graph, share, algorithm, mode, device, parameters):
    """A share's raw count on a Dask worker, in host memory: on its GPU (the
    graph copied there once, kept for the worker's later shares) or its CPU."""
    if device == "gpu":
        import cupy

        if _ON_GPU not in graph.derived:  # the host copy's own cache, never a count
            graph.derived[_ON_GPU] = _moved(graph, lambda a: to_module(a, cupy))
        graph = graph.derived[_ON_GPU]
    raw = count_raw(graph, algorithm, mode, device, parameters, share)
    return raw if isinstance(raw, int) else np.ascontiguousarray(to_host(raw))
