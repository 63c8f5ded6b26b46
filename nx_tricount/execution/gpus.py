"""The executor of several GPUs of this host: a thread per entry of the plan's
``devices`` (a GPU id may repeat: two workers on one GPU), each taking the next
task from a shared queue, its parts read from host memory."""

import queue
import threading

from .tasks import count_task, on_host, task_arguments

__all__ = ["results"]


def results(plan, partition, tasks, mode):
    """``(TaskGraph, Counts)`` of each of ``tasks``, in host memory, in the order
    they finish; the first error of a thread is raised here once the others stop
    taking tasks."""
    import cupy

    arguments = task_arguments(plan, mode)
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
                    finished.put(on_host(*count_task(partition, task, *arguments)))
                except BaseException as exc:  # raised again in the caller's thread
                    finished.put(exc)
                    return

    threads = [threading.Thread(target=work, args=(d,), daemon=True) for d in plan.spread.devices]
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
