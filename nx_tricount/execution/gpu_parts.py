"""The parts of a partition in host memory, brought to the GPU for its tasks one
after another: the parts that fit a byte budget stay there for later tasks, and
the next task's missing parts cross the bus in a thread while the current task
counts (``docs/algorithms.md``, "Partitioned counting").

A task reads three of the ``p²`` parts, so each part serves up to ``3p`` of the
``p³`` tasks, and the parts kept serve later ones. (Taken in the order
``(i, j, k)``, consecutive tasks would share ``P_ij``; largest first, as
:mod:`.executors` orders them, CuPy's pool grows once, for the largest task: R-MAT 26
under 24 GB with range parts peaked at 23.5 GiB against 30.7 in that order.)
The budget is what the memory limit leaves beside the largest task
(``planning.memory.task_graph_bytes``), so a kept part never pushes a count past the
limit.
"""

from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from ..gpu.device import to_module
from ..preprocess.partition import task_part_keys

__all__ = ["GpuParts"]


class GpuParts:
    """Parts of ``partition`` (in host memory) on the current GPU, for tasks in turn.

    Parameters
    ----------
    partition : Partition
        Its parts in host memory.
    budget : int
        Bytes the parts of other tasks may take on the GPU beside the current task's.
    limit : int, optional
        Bytes CuPy's memory pool may hold: parts are kept and uploaded ahead
        only while the pool stays within it (a task may take more than its estimate).
    """

    def __init__(self, partition, budget, limit=None):
        import cupy

        self.partition = partition
        self.budget = max(0, budget)
        self.limit = limit
        self.pool = cupy.get_default_memory_pool()
        self.kept = OrderedDict()  # key -> part on the GPU, least recently used first
        self.device = cupy.cuda.Device()
        # Uploads in the thread allocate on a stream of their own: CuPy's pool
        # never hands them memory that kernels queued on the counting stream still read.
        self.stream = cupy.cuda.Stream(non_blocking=True)
        self.uploader = ThreadPoolExecutor(1, thread_name_prefix="tricount-parts")
        self.coming = None  # the next task's uploads: a future of {key: part}
        self.uploaded = 0  # bytes brought to the GPU, for the phase records

    def for_task(self, task, following=None):
        """The partition of ``task``'s three parts on the GPU, and the upload of
        ``following``'s missing parts started."""
        keys = task_part_keys(task.i, task.j, task.k)
        if self.coming is not None:
            self.kept.update(self.coming.result())
            self.coming = None
        self._make_room(0, current=keys)  # the last task's parts now count against the budget
        for key in keys:
            if key not in self.kept:
                self.kept[key] = self._upload(key)
            self.kept.move_to_end(key)
        if following is not None:
            self._start(following, current=keys)
        return replace(self.partition, parts={key: self.kept[key] for key in keys})

    def close(self):
        """Wait for any upload (its error, if any, is the task's to raise) and free the parts."""
        self.uploader.shutdown(wait=True)
        self.kept.clear()

    def _start(self, task, current):
        following = task_part_keys(task.i, task.j, task.k)
        missing = [key for key in dict.fromkeys(following) if key not in self.kept]
        need = sum(self._bytes(key) for key in missing)
        within_limit = self.limit is None or self.pool.total_bytes() + need <= self.limit
        if not missing or not within_limit or not self._make_room(need, current, following):
            return  # nothing to bring, or no room: the task uploads them itself
        self.coming = self.uploader.submit(self._upload_in_thread, missing)

    def _make_room(self, need, current, protected=()):
        """Free kept parts, least recently used first and none of ``current`` or
        ``protected``, until ``need`` more bytes fit the budget beside the
        parts of ``current`` (the task counting); False when they cannot."""

        # Over the limit (a task took more than its estimate), nothing more is kept.
        budget = self.budget if self.limit is None or self.pool.total_bytes() <= self.limit else 0

        def spare():
            return budget - sum(self._bytes(k) for k in self.kept if k not in current)

        for key in [k for k in self.kept if k not in current and k not in protected]:
            if spare() >= need:
                break
            del self.kept[key]
        return spare() >= need

    def _bytes(self, key):
        return sum(a.nbytes for a in self.partition.parts[key] if a is not None)

    def _upload(self, key):
        import cupy

        self.uploaded += self._bytes(key)
        return tuple(None if a is None else to_module(a, cupy) for a in self.partition.parts[key])

    def _upload_in_thread(self, keys):
        with self.device, self.stream:
            parts = {key: self._upload(key) for key in keys}
            self.stream.synchronize()
        return parts
