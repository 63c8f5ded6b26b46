"""Where a partitioned plan's tasks run: one after another on the count's device,
on several GPUs of this host (a thread per GPU), or on the workers of a Dask
client. Each yields every task's result as it finishes, largest tasks first: the
last ones to finish are short (load balance by task size), and CuPy's pool, grown
by the largest task first, serves the smaller ones without growing further. One
GPU reading parts from host memory gets them through
:mod:`nx_tricount.execution.gpu_parts`.
"""

import queue
import threading

import numpy as np

from ..algorithms import count
from ..gpu.device import array_module, module_of, to_host
from .gpu_parts import GpuParts
from ..preprocess.partition import task_arcs, task_graph
from ..planning.spread import largest_task_bytes

__all__ = ["results", "count_task"]


def count_task(partition, task, algorithm, mode, device, parameters):
    """Count task ``(i, j, k)`` of ``partition`` on ``device`` (the current GPU).

    Returns
    -------
    (TaskGraph, Counts)
        The task's graph (its arrays on ``device``) and its counts in task ids.
    """
    xp = array_module(device)
    graph = task_graph(partition, task.i, task.j, task.k, xp, with_arcs=mode == "per_edge")
    return graph, count(graph.prepared, algorithm, mode, device, parameters)


def results(plan, partition, tasks, mode):
    """``(TaskGraph, Counts)`` of each of ``tasks`` (of ``plan``), in the order they finish."""
    tasks = sorted(tasks, key=lambda t: task_arcs(partition, t.i, t.j, t.k), reverse=True)
    arguments = (plan.algorithm, mode, plan.device, dict(plan.parameters))
    spread = plan.spread
    if spread.distributed == "dask":
        finished = _on_dask(partition, tasks, arguments)
    elif len(spread.devices) > 1:
        finished = _on_gpus(partition, tasks, arguments, spread.devices)
    else:
        finished = _one_after_another(plan, partition, tasks, arguments)
    if not spread.progress:
        yield from finished
        return
    from tqdm.auto import tqdm

    with tqdm(total=len(tasks), desc="tricount tasks", unit="task") as bar:
        for result in finished:
            bar.update()
            yield result


def _one_after_another(plan, partition, tasks, arguments):
    """The tasks in turn on the count's device; parts in host memory come to
    the GPU through :class:`~nx_tricount.execution.gpu_parts.GpuParts`."""
    if not tasks or plan.device != "gpu" or module_of(next(iter(partition.parts.values()))[0]) is not np:
        yield from (count_task(partition, task, *arguments) for task in tasks)
        return
    # The parts kept take what the limit leaves beside the largest task.
    limit = plan.spread.memory_limit or 0
    parts = GpuParts(partition, limit - largest_task_bytes(partition, tasks), limit)
    try:
        for task, following in zip(tasks, [*tasks[1:], None]):
            yield count_task(parts.for_task(task, following), task, *arguments)
    finally:
        parts.close()


def _on_gpus(partition, tasks, arguments, devices):
    """Run the tasks on a thread per entry of ``devices`` (a GPU id may repeat:
    two workers on one GPU); the results come back in host memory."""
    import cupy

    pending = queue.Queue()
    for task in tasks:
        pending.put(task)
    finished = queue.Queue()

    def work(device_id):
        with cupy.cuda.Device(device_id):
            while True:
                try:
                    task = pending.get_nowait()
                except queue.Empty:
                    return
                try:
                    graph, counts = count_task(partition, task, *arguments)
                    finished.put((_to_host_graph(graph), _to_host_counts(counts)))
                except BaseException as exc:  # raised again in the caller's thread
                    finished.put(exc)
                    return

    threads = [threading.Thread(target=work, args=(d,), daemon=True) for d in devices]
    for thread in threads:
        thread.start()
    for _ in tasks:
        item = finished.get()
        if isinstance(item, BaseException):
            _drain(pending)
            raise item
        yield item
    for thread in threads:
        thread.join()


def _drain(pending):
    """Leave no task for the other threads, so that they stop."""
    while True:
        try:
            pending.get_nowait()
        except queue.Empty:
            return


def _to_host_graph(graph):
    """The parts of a task graph its result is combined with, in host memory."""
    graph.arcs = None if graph.arcs is None else to_host(graph.arcs)
    graph.prepared = None  # the task's CSR is not needed any more
    return graph


def _to_host_counts(counts):
    for name in ("per_node", "per_node_error", "per_edge"):
        value = getattr(counts, name)
        if value is not None:
            setattr(counts, name, to_host(value))
    return counts


def _on_dask(partition, tasks, arguments):
    """Run the tasks on the current Dask client's workers. The parts (in host
    memory) go to every worker once (a worker lost mid-run leaves copies behind, and Dask runs its
    tasks again elsewhere); the results come back in host memory."""
    from distributed import as_completed, get_client

    client = get_client()
    [shared] = client.scatter([partition], broadcast=True, hash=False)
    futures = [
        client.submit(_dask_task, shared, task, *arguments, pure=False, retries=2) for task in tasks
    ]
    try:
        for future in as_completed(futures):
            yield future.result()
    finally:
        for future in futures:
            future.cancel()


def _dask_task(partition, task, algorithm, mode, device, parameters):
    """One task on a Dask worker: on its GPU (dask-cuda gives each worker one),
    or on the CPU engine when the count's device is the CPU."""
    graph, counts = count_task(partition, task, algorithm, mode, device, parameters)
    return _to_host_graph(graph), _to_host_counts(counts)
