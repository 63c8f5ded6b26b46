"""The executor of several GPUs of this host: a thread per entry of the plan's
``devices`` (a GPU id may repeat: two workers on one GPU), each taking the next
task from a shared queue, its parts read from host memory through its own
:class:`~nx_tricount.execution.gpu_parts.GpuParts`: the parts that fit its share
of the GPU's memory stay there for its later tasks, and the next task's are
uploaded while one counts. Each thread records its phases
(:mod:`~nx_tricount.execution.phases`)."""

import collections
import queue
import threading
import time

from ..planning.memory import largest_task_bytes
from . import phases
from .gpu_parts import GpuParts
from .tasks import count_task, on_host, task_arguments

__all__ = ["results"]


def results(plan, partition, tasks, mode):
    """``(TaskGraph, Counts)`` of each of ``tasks``, in host memory, in the order
    they finish; the first error of a thread is raised here once the others stop
    taking tasks."""
    import cupy

    arguments = task_arguments(plan, mode)
    devices = plan.spread.devices
    pending = collections.deque(tasks)
    lock = threading.Lock()
    finished = queue.Queue()
    limit = plan.spread.memory_limit or 0
    # Workers of one GPU share what the limit leaves beside the largest task.
    spare = limit - largest_task_bytes(partition, tasks) if tasks else 0
    workers_of = collections.Counter(devices)

    def take():
        """The next task and the one after it (to upload ahead), or None."""
        with lock:
            if not pending:
                return None, None
            return pending.popleft(), pending[0] if pending else None

    def work(worker, device_id):
        with cupy.cuda.Device(device_id):
            parts = GpuParts(partition, spare // workers_of[device_id], limit)
            started, taken = time.perf_counter(), 0
            try:
                while True:
                    task, following = take()
                    if task is None:
                        break
                    finished.put(on_host(*count_task(parts.for_task(task, following), task, *arguments)))
                    taken += 1
            except BaseException as exc:  # raised again in the caller's thread
                with lock:
                    pending.clear()
                finished.put(exc)
            finally:
                parts.close()
                phases.record(
                    worker=worker,
                    device=device_id,
                    tasks=taken,
                    count_s=round(time.perf_counter() - started, 6),
                    bytes=parts.uploaded,
                )

    threads = [threading.Thread(target=work, args=(w, d), daemon=True) for w, d in enumerate(devices)]
    for thread in threads:
        thread.start()
    for _ in tasks:
        item = finished.get()
        if isinstance(item, BaseException):
            raise item
        yield item
    for thread in threads:
        thread.join()
