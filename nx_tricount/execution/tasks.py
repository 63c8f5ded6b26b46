"""One count task of a 2D partition, as every executor runs it: its graph built
from its three parts on the count's device and counted there, and its result
brought to host memory where it goes back to another thread or process."""

from ..algorithms import count
from ..gpu.device import array_module, to_host
from ..preprocess.partition import task_graph

__all__ = ["task_arguments", "count_task", "on_host"]


def task_arguments(plan, mode):
    """``(algorithm, mode, device, parameters)``: what :func:`count_task` takes
    after the partition and the task."""
    return plan.algorithm, mode, plan.device, dict(plan.parameters)


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


def on_host(graph, counts):
    """A task's result in host memory: what its sum needs of the graph (the
    arcs' positions, no CSR any more) and its counts."""
    graph.arcs = None if graph.arcs is None else to_host(graph.arcs)
    graph.prepared = None
    for name in ("per_node", "per_node_error", "per_edge"):
        value = getattr(counts, name)
        if value is not None:
            setattr(counts, name, to_host(value))
    return graph, counts
