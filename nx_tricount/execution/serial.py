"""The executor of one device: a partition's tasks one after another on the
count's device. Parts waiting in host memory for one GPU come to it through
:class:`~nx_tricount.execution.gpu_parts.GpuParts`, which keeps what fits for
later tasks and uploads the next task's while one counts, and the run's phases
are recorded (:mod:`~nx_tricount.execution.phases`)."""

import time

import numpy as np

from ..gpu.device import module_of
from ..planning.memory import largest_task_bytes
from . import phases
from .gpu_parts import GpuParts
from .tasks import count_task, task_arguments

__all__ = ["results"]


def results(plan, partition, tasks, mode):
    """``(TaskGraph, Counts)`` of each of ``tasks``, in their order, on the count's device."""
    arguments = task_arguments(plan, mode)
    if not tasks or plan.device != "gpu" or module_of(next(iter(partition.parts.values()))[0]) is not np:
        yield from (count_task(partition, task, *arguments) for task in tasks)
        return
    # The parts kept take what the limit leaves beside the largest task.
    limit = plan.spread.memory_limit or 0
    parts = GpuParts(partition, limit - largest_task_bytes(partition, tasks), limit)
    started = time.perf_counter()
    try:
        for task, following in zip(tasks, [*tasks[1:], None]):
            yield count_task(parts.for_task(task, following), task, *arguments)
    finally:
        parts.close()
        seconds = round(time.perf_counter() - started, 6)
        device = parts.device.id
        phases.record(worker=0, device=device, tasks=len(tasks), count_s=seconds, bytes=parts.uploaded)
