"""What the backend offers, declared once: the counting algorithms with the
preprocessing and kernel parameters each is designed for, the orientations, the
orderings, the devices, and the NetworkX functions.

The configuration's choices and help text, the backend info NetworkX reads, the
plan's defaults and the algorithm dispatch all derive from these tables. They
are read while ``import networkx`` runs (through ``_info``), so this module
imports nothing: an algorithm's implementation lives in
``nx_tricount/algorithms/<name>.py`` and ``kernels/<name>.cu``, loaded on first use.
"""

from dataclasses import dataclass

__all__ = [
    "KernelParameter",
    "Algorithm",
    "ALGORITHMS",
    "BITMAP_ROWS",
    "ORIENTATIONS",
    "ORDERINGS",
    "DEVICES",
    "SCALE_OUT",
    "PARTITIONINGS",
    "REGIMES",
    "MAX_PARTITIONS",
    "FUNCTIONS",
    "kernel_parameters",
]


@dataclass(frozen=True)
class KernelParameter:
    """A GPU kernel parameter that the configuration can set.

    Attributes
    ----------
    keyword : str
        Keyword of the algorithm's ``count_gpu``.
    smallest : int
        Smallest accepted value.
    help : str
        What it does, with the paper section.
    largest : int
        Largest accepted value (the kernels take 32-bit arguments unless said).
    """

    keyword: str
    smallest: int
    help: str
    largest: int = 2**31 - 1


@dataclass(frozen=True)
class Algorithm:
    """A counting algorithm: ``algorithms/<name>.py`` exposes ``count_cpu(prepared,
    mode)`` and ``count_gpu(prepared, mode, **parameters)``.

    Attributes
    ----------
    name : str
        The value of the ``algorithm`` setting, and the module's name.
    help : str
        One line for users: the idea and its paper.
    orientation, ordering : str
        The preprocessing it is designed for (what ``"auto"`` resolves to).
    parameters : tuple of KernelParameter
        GPU kernel parameters the configuration exposes, as ``<name>_<keyword>``.
    """

    name: str
    help: str
    orientation: str
    ordering: str
    parameters: tuple = ()


#: Bitmap rows of the wedge count on the GPU (WeTriC §5.4), the default of its
#: ``bitmap_rows``: read by ``algorithms/wedge.py`` and by the plan, which sizes a
#: task's bitmap rectangle from it (``planning/spread.py``).
BITMAP_ROWS = 65536

#: Largest ``hub_words`` of the wedge count: compared with 64-bit word counts
#: (``kernels/wedge.cu``, ``hub_kept``).
MAX_HUB_WORDS = 2**62

ALGORITHMS = {
    algorithm.name: algorithm
    for algorithm in (
        Algorithm(
            "merge",
            "Polak's forward algorithm: one task per oriented edge, two-pointer merge",
            "degree",
            "none",
        ),
        Algorithm(
            "wedge",
            "WeTriC's wedge-parallel binary search",
            "id",
            "degree",
            (
                KernelParameter("spread", 1, "wedges per GPU thread (WeTriC §5.2)"),
                KernelParameter(
                    "bitmap_rows",
                    0,
                    "most bitmap rows on the GPU (WeTriC §5.4; 0 turns it off)",
                    2**17,  # the kernel indexes the bitmap in 32 bits
                ),
                KernelParameter(
                    "hub_words",
                    0,
                    "bitmap words a wedge is worth: totals and per-node counts AND the rows of "
                    "the bitmap's vertices below it instead of searching their wedges "
                    "(0 turns it off)",
                    MAX_HUB_WORDS,
                ),
            ),
        ),
        Algorithm("edge", "WeTriC's edge-parallel binary-search baseline (§6.2)", "id", "degree"),
        Algorithm("vertex", "WeTriC's vertex-parallel binary-search baseline (§6.2)", "id", "degree"),
        Algorithm(
            "hash",
            "TRUST's vertex-centric hashing",
            "degree",
            "none",
            (
                KernelParameter(
                    "block_degree",
                    2,
                    "out-degree above which a vertex gets a whole block instead of a warp (TRUST §4.3)",
                ),
                KernelParameter("chunk", 1, "vertices a warp takes at a time (TRUST §4.3)"),
            ),
        ),
        Algorithm(
            "bitmap",
            "bit-slice intersection of neighbour lists (bit-wise 2D paper, non-center to center arcs)",
            "a-direction",
            "none",
        ),
    )
}

#: The algorithms that count a directed graph's transitivity once per triangle of
#: its arc pairs (``algorithms/transitive.py``); the others count it per arc of its
#: successor lists.
PAIR_TRANSITIVITY = ("merge", "wedge")

#: Orientation -> what it does (acyclic: every triangle is found once).
ORIENTATIONS = {
    "id": "from the smaller id to the larger",
    "degree": "from the lower degree to the higher, ties by id (Polak)",
    "a-direction": "A-direction's peeling with a doubling degree threshold, which evens out the out-degrees",
}

#: Ordering -> what it does. ``none`` and ``degree`` relabel before orienting; the
#: others after it, from the oriented arcs (which keep their directions).
ORDERINGS = {
    "none": "keep the ids",
    "degree": "ascending degree before orienting (WeTriC §5.1)",
    "a-order": "A-order's buckets balancing memory- and compute-bound vertices",
    "in-degree": "TRUST's consecutive ids by descending in-degree",
    "collective": "TRUST's numbering of out-neighbours by descending collective degree",
}

DEVICES = {
    "gpu": "CuPy kernels on the current CUDA device",
    "cpu": "numba kernels on the CPU",
}

#: How a 2D partition puts vertices in classes (``preprocess/partition.py``).
PARTITIONINGS = ("hashed", "range")

#: How several workers share one count (TRUST §5): ``auto`` as the plan decides,
#: ``replicated`` (§5.1, the whole graph on every worker, the work split) or
#: ``partitioned`` (§5.2, the 2D partition's tasks).
REGIMES = ("auto", "replicated", "partitioned")

#: Most parts per side a ``partitions`` setting may ask for. p parts per side make
#: p³ count tasks (256: 16.8 million); by ``planning.memory.task_bytes`` the tasks of a
#: graph of 10¹² edge rows fit 80 GB from p = 139.
MAX_PARTITIONS = 256

#: Settings for graphs beyond one part, one device or one process -> (default, help).
SCALE_OUT = {
    "partitions": (
        None,
        f"parts per side of the 2D partition (TRUST §5.2), an int from 1 to {MAX_PARTITIONS}: "
        "p² parts, p³ count tasks; None: as the memory limit requires (1 when the graph fits)",
    ),
    "partitioning": (
        "hashed",
        "how the 2D partition puts vertices in classes: 'hashed' (v mod p, TRUST §5.1) or "
        "'range' (consecutive ids of about equal degree sums, bitwise-2d-partition.md §3.2; "
        "where every arc goes to a higher id, only the tasks i <= j <= k hold triangles)",
    ),
    "memory_limit": (
        None,
        "bytes a count may take on its device: an int >= 1, or a string of whole bytes "
        "('4096') or of a number and a unit, kB, MB, GB, TB or KiB, MiB, GiB, TiB, such as "
        "'20GB' or '1.5GiB' (rounded down to whole bytes, at least 1); None: the free GPU "
        "memory (not read for a count of at most 16 MiB; no limit on the CPU)",
    ),
    "regime": (
        "auto",
        "how several GPUs or Dask workers share a count: 'replicated' (TRUST §5.1: the whole "
        "prepared graph on each, the work cut by cost), 'partitioned' (§5.2: the 2D "
        "partition's tasks), or 'auto' (replicated when the graph fits one GPU, or each GPU's "
        "share of preparing it together, and a second one pays; else partitioned)",
    ),
    "devices": (
        "auto",
        "GPUs the count tasks run on: 'auto' (the current one), 'all', or a list of ids "
        "(an id listed twice gets two workers); not used by the CPU engine, whose plan says so",
    ),
    "distributed": (
        None,
        "None, or 'dask': the count tasks run on the workers of the current dask.distributed client",
    ),
    "progress": (
        None,
        "a progress bar of the count tasks: True, False, or None (when stderr is a terminal)",
    ),
}

#: The NetworkX functions the backend implements -> whether they count (and so
#: take the counting settings as keywords) or build a graph.
#: The modules of ``nx_tricount.nxapi.dispatch.IMPLEMENTED_IN`` register each with
#: ``@networkx_function``; ``metadata.info`` reads this table inside ``import networkx``,
#: before those modules may be imported, and tests/test_architecture.py checks that
#: the two agree.
FUNCTIONS = {
    "triangles": "counts",
    "clustering": "counts",
    "average_clustering": "counts",
    "transitivity": "counts",
    "square_clustering": "counts",
    "generalized_degree": "counts",
    "all_triangles": "counts",
    "k_truss": "counts",
    "from_pandas_edgelist": "builds",
}


def kernel_parameters():
    """Configuration setting -> ``(algorithm, KernelParameter)``, e.g.
    ``"wedge_spread" -> ("wedge", KernelParameter("spread", ...))``."""
    return {
        f"{algorithm.name}_{parameter.keyword}": (algorithm.name, parameter)
        for algorithm in ALGORITHMS.values()
        for parameter in algorithm.parameters
    }
