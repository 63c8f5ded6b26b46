"""Where a partitioned plan's tasks run, one module per executor: one after
another on the count's device (:mod:`.serial`), a thread per GPU of this host
(:mod:`.gpus`), or the workers of a Dask client (:mod:`.dask`). Each yields every
task's result as it finishes. The tasks go largest first: the last ones to
finish are short (load balance by task size), and CuPy's pool, grown by the
largest task first, serves the smaller ones without growing further.
"""

from ..preprocess.partition import task_arcs
from . import dask as dask_workers
from . import gpus, serial

__all__ = ["results"]

#: The module of each executor that runs tasks (``Spread.executor``; ``"whole"``,
#: one count of the whole graph, has none).
_EXECUTORS = {"serial": serial, "gpus": gpus, "dask": dask_workers}


def results(plan, partition, tasks, mode):
    """``(TaskGraph, Counts)`` of each of ``tasks`` (of ``plan``), in the order
    they finish, on the executor the plan's spread names (``Spread.executor``)."""
    tasks = sorted(tasks, key=lambda t: task_arcs(partition, t.i, t.j, t.k), reverse=True)
    finished = _EXECUTORS[plan.spread.executor].results(plan, partition, tasks, mode)
    if not plan.spread.progress:
        yield from finished
        return
    from tqdm.auto import tqdm

    with tqdm(total=len(tasks), desc="tricount tasks", unit="task") as bar:
        for result in finished:
            bar.update()
            yield result
