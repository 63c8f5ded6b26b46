"""Running a plan: the whole graph as one count, its shares on workers that
each hold the whole graph (:mod:`.replicas`), or the tasks of its 2D partition
(:mod:`nx_tricount.preprocess.partition`), run by an executor
(:mod:`nx_tricount.execution.executors`) and their results combined, as the
plan's spread says (``Plan.spread.regime``, ``executor``, ``parts_on_host``):
nothing is chosen here but what the plan leaves to the prepared graph
(``Plan.after_preparation``), by its rule.

Each task counts its own triangles once, so combining is a sum: totals as
Python ints, per-node counts block by block (a task's sources, middles and sinks
are the vertices of the classes ``i``, ``j``, ``k``), per-edge counts by each
task arc's position in the whole CSR, and weighted sums compensated, as within
one count (``algorithms/accumulate.py``).
"""

import logging
from dataclasses import replace

import numpy as np

from ..algorithms import Counts, count
from ..algorithms.counts import round_pairs, two_sum
from ..gpu.device import module_of, to_host
from ..metadata.catalog import MAX_PARTITIONS
from ..planning.memory import largest_task_bytes
from ..planning.rules import choose_after_preparation
from ..planning.tasks import CountTask
from ..preprocess.ops import ops_for
from ..preprocess.partition import counted_tasks, split
from ..preprocess.streamed import PartitionedGraph
from . import phases, replicas
from .executors import results

__all__ = ["run"]

logger = logging.getLogger("nx_tricount")


def run(plan, prepared, mode):
    """Count ``prepared`` as ``plan`` says, in ``mode``.

    Parameters
    ----------
    plan : Plan
        Made by :func:`~nx_tricount.planning.plan.make_plan`; ``prepared`` must have been
        made with its orientation and ordering, on its preparation device.
    prepared : Prepared or PartitionedGraph
        A whole CSR, or a graph prepared straight into its partition (a plan
        whose spread is ``streamed``); a whole CSR is counted whole, in shares
        (a replicated spread), or split into the plan's parts.
    mode : {"total", "per_node", "per_edge"}

    Returns
    -------
    Counts
        Per node in original vertex ids, per edge aligned with ``prepared``'s arcs.
    """
    # A plan that leaves wedge or merge to the prepared graph settles here.
    plan = choose_after_preparation(plan, prepared)
    spread = plan.spread
    if spread.executor == "whole":
        return count(prepared, plan.algorithm, mode, plan.device, dict(plan.parameters))
    phases.record(
        worker="plan",
        algorithm=plan.algorithm,
        regime=spread.regime,
        executor=spread.executor,
        parts=spread.parts,
        shares=spread.shares,
        devices=list(spread.devices),
        prepared_on=spread.preparation_device,
        in_parts=spread.prepared_in_parts,
        together=spread.prepared_together,
    )
    if spread.regime == "replicated":
        return replicas.run(plan, prepared, mode)
    if isinstance(prepared, PartitionedGraph):
        partition = prepared.partition
    else:
        partition = _fitting_split(prepared, spread)
    if spread.parts_on_host:
        partition = _on_host(partition)
    every_task = CountTask.all_of(partition.p)
    tasks = counted_tasks(partition, every_task)
    logger.info(
        "tricount: %d tasks of %d parts per side (%s partition, %d without triangles skipped; %s), %d arcs",
        len(tasks),
        partition.p,
        partition.classes.scheme,
        len(every_task) - len(tasks),
        plan.algorithm,
        prepared.m,
    )
    limit, largest = spread.memory_limit, largest_task_bytes(partition, tasks)
    if limit is not None and largest > limit:  # configured parts, or unequal ranges
        logger.warning(
            "tricount: the largest of the %d tasks needs about %s bytes, over the memory limit "
            "of %s: more partitions make smaller tasks",
            len(tasks),
            f"{largest:,}",
            f"{limit:,}",
        )
    # Results of a graph prepared in host memory are combined there.
    xp = np if partition.offsets is not None else module_of(prepared.indices)
    total = _Sum(xp, prepared, mode, partition.classes)
    for graph, counts in results(plan, partition, tasks, mode):
        total.add(graph, counts)
    return total.counts(plan, prepared)


def _fitting_split(prepared, spread):
    """``prepared`` split into the spread's parts; where the plan chose them from
    its estimate (about ``3 / p²`` of the arcs a task) and the real largest task
    is over the memory limit (hashed classes of unequal arcs), into more parts,
    until its tasks fit."""
    partition = split(prepared, spread.parts, spread.scheme)
    if spread.parts_configured or spread.memory_limit is None or spread.scheme != "hashed":
        return partition

    def over_limit(partition):
        return largest_task_bytes(partition, CountTask.all_of(partition.p)) > spread.memory_limit

    most = min(MAX_PARTITIONS, max(prepared.n, 2))
    while partition.p < most and over_limit(partition):
        logger.info(
            "tricount: a task of %d parts per side needs more than the memory limit of %s bytes: "
            "%d parts per side",
            partition.p,
            f"{spread.memory_limit:,}",
            partition.p + 1,
        )
        partition = split(prepared, partition.p + 1, spread.scheme)
    return partition


def _on_host(partition):
    """The partition with its parts in host memory (several GPUs and Dask workers read them there)."""
    parts = {
        key: tuple(None if a is None else to_host(a) for a in part) for key, part in partition.parts.items()
    }
    return replace(partition, parts=parts)


class _Sum:
    """The running sum of the tasks' counts, in the whole graph's CSR ids and on
    its device (the tasks' arrays are moved there)."""

    def __init__(self, xp, prepared, mode, classes):
        self.mode = mode
        self.xp = xp
        self.classes = classes
        self.total = 0
        self.sums = self.errors = None
        self.length = prepared.n if mode == "per_node" else prepared.m

    def add(self, graph, counts):
        if self.mode == "total":
            self.total += counts.total
            return
        values = counts.per_node if self.mode == "per_node" else counts.per_edge
        values = self._here(values)
        if self.sums is None:
            self.sums = self.xp.zeros(self.length, dtype=values.dtype)
            self.errors = self.xp.zeros(self.length, dtype=values.dtype)
        if self.mode == "per_edge":
            ops_for(self.sums).scatter_add(self.sums, self._here(graph.arcs), values)
            return
        residual = None if counts.per_node_error is None else self._here(counts.per_node_error)
        # The task's sources, middles and sinks: classes i, j, k, block after block.
        start = 0
        for c, size in zip(graph.classes, graph.sizes):
            block = self.classes.members(c)
            part = slice(start, start + size)
            if values.dtype.kind != "f":
                self.sums[block] += values[part]
            else:  # compensated, as within a count
                self.sums[block], rounding = two_sum(self.sums[block], values[part])
                self.errors[block] += rounding + (0 if residual is None else residual[part])
            start += size

    def _here(self, array):
        if self.xp is np:
            return to_host(array)
        return self.xp.asarray(to_host(array)) if module_of(array) is np else array

    def counts(self, plan, prepared):
        result = Counts(mode=self.mode, algorithm=plan.algorithm, device=plan.device)
        if self.mode == "total":
            result.total = self.total
            return result
        sums = self.sums if self.sums is not None else self.xp.zeros(self.length, dtype=np.int64)
        if self.mode == "per_node" and sums.dtype.kind == "f":
            sums, error = round_pairs(sums, self.errors)
            result.per_node_error = prepared.to_original_vertices(error)
        if self.mode == "per_node":
            result.per_node = prepared.to_original_vertices(sums)
        else:
            result.edge_src, result.edge_dst = prepared.arcs_original()
            result.per_edge = sums
        return result
