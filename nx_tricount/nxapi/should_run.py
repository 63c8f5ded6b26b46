"""Whether a call NetworkX dispatches automatically (a backend priority, or
``NX_TRICOUNT_AUTOCONFIG``) should run here: the backend's ``should_run``.

It weighs what the call would cost in NetworkX against what it costs here, in
this process: the conversion, the count, and what this process has not loaded
yet (the engine's import, the first count's start, the function's own kernels,
CuPy). True sends the call here; a string says why NetworkX answers instead
(NetworkX's dispatch log shows it). An explicit ``backend="tricount"`` does not
ask. A decision reads the degrees of at most :data:`SAMPLE_NODES` nodes (and
the neighbourhoods of the nodes asked for, at most :data:`WORK_VISITS` entries);
the costs are the figures ``examples/calibrate_should_run.py`` measures. This
module imports NetworkX and the configuration only, so that a call NetworkX
answers loads no engine.
"""

import functools
import importlib.util
import sys
from collections.abc import Collection
from typing import NamedTuple

import networkx as nx

from ..metadata.config import check_environment

__all__ = ["Costs", "COSTS", "Work", "decide", "graph_work", "networkx_work", "SAMPLE_NODES", "WORK_VISITS"]


class Costs(NamedTuple):
    """A function's costs, in seconds, in units of NetworkX's work (:class:`Work`)."""

    networkx_per_neighbour: float  # NetworkX, per neighbour it visits
    networkx_per_step: float  # NetworkX, per step of its set operations
    call: float  # tricount, per call with the engine loaded and the graph converted
    per_step: float  # tricount, per step of NetworkX's work on every node
    first_call: float  # tricount, loading this function's own kernels, once per process


#: Measured on a 2-core CPU by ``NUMBA_NUM_THREADS=1 python examples/calibrate_should_run.py``
#: with the cores otherwise idle (one thread: an upper bound of two threads' figures,
#: and steadier), NetworkX 3.6, numba's kernels cached on disk.
COSTS = {
    "triangles": Costs(
        networkx_per_neighbour=1.0e-6,
        networkx_per_step=0.0,
        call=4.4e-4,
        per_step=4.7e-10,
        first_call=0.0,
    ),
    "clustering": Costs(
        networkx_per_neighbour=2.0e-6,
        networkx_per_step=1.2e-7,
        call=3.0e-4,
        per_step=1.1e-9,
        first_call=6.3e-4,
    ),
    "average_clustering": Costs(
        networkx_per_neighbour=9.6e-7,
        networkx_per_step=1.8e-7,
        call=3.2e-4,
        per_step=6.8e-10,
        first_call=5.7e-3,
    ),
    "transitivity": Costs(
        networkx_per_neighbour=1.1e-6,
        networkx_per_step=2.0e-7,
        call=3.3e-4,
        per_step=1.1e-9,
        first_call=6.8e-4,
    ),
    "square_clustering": Costs(
        networkx_per_neighbour=2.2e-6,
        networkx_per_step=2.1e-8,
        call=5.7e-4,
        per_step=6.1e-10,
        first_call=0.010,
    ),
    "generalized_degree": Costs(
        networkx_per_neighbour=1.2e-6,
        networkx_per_step=1.7e-7,
        call=4.6e-4,
        per_step=1.2e-8,
        first_call=7.4e-4,
    ),
    "all_triangles": Costs(
        networkx_per_neighbour=1.7e-7,
        networkx_per_step=3.5e-8,
        call=4.8e-4,
        per_step=4.1e-9,
        first_call=9.8e-3,
    ),
    "k_truss": Costs(
        networkx_per_neighbour=2.1e-6,
        networkx_per_step=1.0e-7,
        call=9.7e-4,
        per_step=4.9e-8,
        first_call=9.9e-3,
    ),
}
#: Converting a NetworkX graph, per edge (reading its adjacency in Python); NetworkX
#: keeps the conversion for later calls (``nx.config.cache_converted_graphs``).
CONVERSION_PER_EDGE = 2.0e-7
#: Importing the engine (NumPy, numba, the package's kernels' modules), once per process.
ENGINE_IMPORT = 0.53
#: numba's start at the first count of a process (its typing and target registries,
#: the first cached kernels' load), once per process.
ENGINE_START = 0.34
#: numba's start checks for BLAS by importing scipy.linalg, where SciPy is installed.
SCIPY_LINALG_IMPORT = 0.16
#: Importing CuPy, which a call with ``device`` "auto" or "gpu" does on a machine
#: that has it: an upper estimate until the same script measures it there.
CUPY_IMPORT = 1.0
#: The GPU's start at a process's first count there: the CUDA context and the
#: kernels' binaries from CuPy's cache (docs/benchmarks.md, "cuDF pipelines").
GPU_START = 0.26

#: Degrees read to estimate a graph's work, of nodes evenly spaced in its order;
#: a graph of no more nodes is read whole.
SAMPLE_NODES = 1_024
#: Neighbourhood entries read to estimate NetworkX's work on the nodes a call
#: asks for; beyond it their share of the graph's work is taken.
WORK_VISITS = 2_000

#: The argument naming the nodes a function answers for, where it has one.
_NODES_ARGUMENT = {
    "triangles": "nodes",
    "clustering": "nodes",
    "average_clustering": "nodes",
    "square_clustering": "nodes",
    "generalized_degree": "nodes",
    "all_triangles": "nbunch",
}
#: Functions whose NetworkX work grows with each node's pairs of neighbours.
_SQUARES = {"square_clustering"}


def _degrees(G, sample):
    """Total degrees (successors and predecessors of a directed graph) of at
    most ``sample`` nodes evenly spaced in G's node order, and the node count.

    Evenly spaced, not the first nodes: the order of an edge list or a generator
    puts hubs first. Spacing them takes the node list (C's pace, a small share of
    what NetworkX spends on each node); the degrees read stay bounded.
    """
    adj = G._adj
    pred = G._pred if G.is_directed() else None
    n = len(adj)
    if n <= sample:
        nodes = adj
    else:
        step = -(-n // sample)
        nodes = list(adj)[step // 2 :: step]  # the middle of each stretch of ``step`` nodes
    if pred is None:
        return [len(adj[v]) for v in nodes], n
    return [len(adj[v]) + len(pred[v]) for v in nodes], n


class Work(NamedTuple):
    """NetworkX's work on some nodes ``v`` of a graph: the neighbours ``w`` it
    visits in Python, ``sum of deg v``, and the set operations each visit makes
    in C, ``sum of deg w``; square clustering's second part is each neighbour's
    pairs with the two-hop neighbours, ``deg v * min(n, sum of deg w)``."""

    neighbours: float
    steps: float

    def share(self, fraction):
        return Work(self.neighbours * fraction, self.steps * fraction)


def graph_work(G, squares=False, sample=SAMPLE_NODES):
    """Estimate NetworkX's work (:class:`Work`) on every node of ``G``, and its edges.

    From the degrees of ``sample`` nodes (all of a graph of no more nodes): the
    neighbours are ``sum deg`` and the steps ``sum deg**2``; square clustering's
    steps take each node's neighbours' degrees as if the degrees at the two ends
    of an edge were independent (``deg v * sum deg**2 / sum deg``).

    Returns
    -------
    (Work, float)
        The work, and the edges (half the degrees).
    """
    degrees, n = _degrees(G, sample)
    if not degrees or not any(degrees):
        return Work(0.0, 0.0), 0.0
    scale = n / len(degrees)
    total = sum(degrees)
    if squares:
        reach = sum(d * d for d in degrees) / total
        steps = sum(d * min(n, d * reach) for d in degrees)
    else:
        steps = sum(d * d for d in degrees)
    return Work(scale * total, scale * steps), scale * total / 2


def networkx_work(G, nodes, squares=False):
    """NetworkX's work (:class:`Work`) on the members of ``nodes`` that are nodes
    of ``G``, or None once reading it takes :data:`WORK_VISITS` neighbourhood entries."""
    succ = G._adj
    pred = G._pred if G.is_directed() else None
    n = len(G)
    neighbours = steps = visits = 0
    for v in nodes:
        if v not in G:  # NetworkX skips them; unhashable members are never nodes
            continue
        around = list(succ[v]) if pred is None else [*succ[v], *pred[v]]
        visits += 1 + len(around)
        if visits > WORK_VISITS:
            return None
        reach = sum(len(succ[w]) for w in around)
        if pred is not None:
            reach += sum(len(pred[w]) for w in around)
        neighbours += len(around)
        steps += len(around) * min(n, reach) if squares else reach
    return Work(neighbours, steps)


def _asked_work(G, nodes, whole, squares):
    """NetworkX's work on the nodes a call asks for: one node's, a container's
    (read, or its share of the ``whole`` graph's work), or every node's."""
    if nodes is None:
        return whole, "every node"
    try:
        if nodes in G:
            members, asked = [nodes], "one node"
        elif isinstance(nodes, Collection) and not isinstance(nodes, str):
            members, asked = nodes, f"{len(nodes):,} nodes"
        else:  # an iterator, left unread (reading would consume it)
            return whole, "the nodes of an iterator"
        work = networkx_work(G, members, squares)
    except TypeError:  # unsized or not iterable after all (a 0-d array): NetworkX's error follows
        return whole, "every node"
    if work is None:
        work = whole.share(min(1.0, len(members) / max(len(G), 1)))
    return work, asked


@functools.cache
def _installed(package):
    return importlib.util.find_spec(package) is not None


def _start(device, started):
    """Seconds of the first count's start in this process: numba's (with SciPy's
    linalg where it is installed and not imported), or the GPU's where the call
    may run there (then the larger of the two)."""
    if started:
        return 0.0
    cpu = ENGINE_START
    if _installed("scipy") and "scipy.linalg" not in sys.modules:
        cpu += SCIPY_LINALG_IMPORT
    return max(cpu, GPU_START) if device == "gpu" else cpu


def _conversion_cached(G):
    """Whether NetworkX keeps a conversion of ``G`` to this backend."""
    cache = getattr(G, "__networkx_cache__", None)
    return bool(nx.config.cache_converted_graphs and cache and cache.get("backends", {}).get("tricount"))


def _loads(name, device, imported, started):
    """What a call still has to load in this process -> its seconds."""
    gpu = device != "cpu" and _installed("cupy")
    loads = {
        "the engine's import": 0.0 if imported else ENGINE_IMPORT,
        "CuPy's import": CUPY_IMPORT if gpu and "cupy" not in sys.modules else 0.0,
        "the first count's start": _start("gpu" if gpu else "cpu", started),
        f"{name}'s kernels": 0.0 if name in started else COSTS[name].first_call,
    }
    return {what: seconds for what, seconds in loads.items() if seconds}


def decide(name, args, kwargs, *, imported, started):
    """The ``should_run`` of function ``name``: True, or why NetworkX answers.

    Parameters
    ----------
    name : str
        A function of :data:`COSTS`.
    args, kwargs
        The call's arguments, as NetworkX's dispatcher gives them.
    imported : bool
        Whether the engine is imported in this process (a module implementing
        the functions).
    started : set of str
        The functions that have been called in this process.

    Raises
    ------
    ValueError
        A rejected ``NX_TRICOUNT_<KEY>`` variable, as the backend's first call would.
    """
    config = nx.config.backends.tricount
    check_environment(config, kwargs)
    G = args[0] if args else kwargs.get("G")
    if not isinstance(G, nx.Graph):
        return True
    costs = COSTS[name]
    squares = name in _SQUARES
    whole, edges = graph_work(G, squares)
    argument = _NODES_ARGUMENT.get(name)
    nodes = None
    if argument is not None:
        nodes = args[1] if len(args) > 1 else kwargs.get(argument)
    work, asked = _asked_work(G, nodes, whole, squares)
    networkx = costs.networkx_per_neighbour * work.neighbours + costs.networkx_per_step * work.steps
    conversion = 0.0 if _conversion_cached(G) else CONVERSION_PER_EDGE * edges
    count = costs.call + costs.per_step * whole.steps
    loads = _loads(name, kwargs.get("device") or config.device, imported, started)
    ours = conversion + count + sum(loads.values())
    if ours < networkx:
        return True
    loaded = f", loading {' and '.join(loads)}" if loads else ""
    return (
        f"NetworkX's estimate for {asked} of about {edges:,.0f} edges ({networkx:.2g} s) is below "
        f"tricount's ({ours:.2g} s: conversion {conversion:.2g} s, count {count:.2g} s{loaded})"
    )
