"""Running a plan: each of its count tasks, and their results combined.

Every task's :class:`~nx_tricount.algorithms.Counts` is in the terms of the
whole prepared graph (per node by original vertex id, per edge by the arc's CSR
position), so combining them is a sum. A one-part plan has one task, the whole
graph; the tasks of partitioned plans will run one after another here, and
other executors (several GPUs, Dask) will take the same tasks.
"""

from .algorithms import Counts, count

__all__ = ["run"]


def run(plan, prepared, mode):
    """Count ``prepared`` as ``plan`` says, in ``mode``.

    Parameters
    ----------
    plan : Plan
        Made by :func:`~nx_tricount.plan.make_plan`; ``prepared`` must have been
        made with its orientation, ordering and device.
    prepared : Prepared
    mode : {"total", "per_node", "per_edge"}

    Returns
    -------
    Counts
    """
    results = [_count_task(plan, prepared, mode, task) for task in plan.tasks]
    return _combine(results)


def _count_task(plan, prepared, mode, task):
    """The counts of one task."""
    if task.parts != 1:
        raise NotImplementedError(
            f"a plan of {task.parts} parts per side: only one-part plans are counted"
        )
    return count(prepared, plan.algorithm, mode, plan.device, dict(plan.parameters))


def _combine(results):
    """The sum of the tasks' counts (the first one's arrays, added to in place)."""
    first = results[0]
    combined = Counts(
        mode=first.mode,
        algorithm=first.algorithm,
        device=first.device,
        total=first.total,
        per_node=first.per_node,
        edge_src=first.edge_src,
        edge_dst=first.edge_dst,
        per_edge=first.per_edge,
    )
    for result in results[1:]:
        if combined.mode == "total":
            combined.total += result.total
        elif combined.mode == "per_node":
            combined.per_node += result.per_node
        else:
            combined.per_edge += result.per_edge
    return combined
