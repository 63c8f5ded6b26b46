"""The wedge count's hub block on the GPU (``kernels/wedge.cu``): the densest
vertices of the bitmap, whose wedges outnumber the words of their out-neighbours'
rows, are counted by ANDing bitmap rows instead of searching their wedges (the
bit-wise paper's dense block). Which vertices it takes, the prefix sums of the
wedges it leaves, and its launch. Measured: docs/algorithms.md, 'wedge: the hub
block'.
"""

import numpy as np

from ..metadata.catalog import MAX_HUB_WORDS
from ..preprocess.gpu_rows import queue_prefix_sums

__all__ = [
    "HUB_WORDS",
    "HUB_NODE_WORDS",
    "HUB_MIN_SHARE",
    "HUB_THREADS",
    "HUB_NODE_DEGREE",
    "hub_words_of",
    "gpu_hub_prefix",
    "queue_hub_taken",
    "keep_hub_wedges",
    "count_hub",
]

#: Bitmap words a wedge is worth, the default of ``wedge.count_gpu``: a total count
#: takes a vertex of the bitmap whose out-neighbours' rows hold fewer than
#: ``HUB_WORDS`` words per wedge off the wedges, and ANDs its row with theirs.
HUB_WORDS = 4

#: :data:`HUB_WORDS` of a per-node count, where each triangle of the hub block also
#: costs a counter's increment (weighted: its term's credits): fewer vertices pay
#: (measured: docs/algorithms.md, 'wedge: weighted sums by arcs').
HUB_NODE_WORDS = 2

#: Smallest share of the wedges the hub block must take off for a count to run it.
HUB_MIN_SHARE = 0.1

#: Threads of a hub row's block (``hub_count``): a warp per out-neighbour's long row.
HUB_THREADS = 128

#: Largest out-degree of a hub vertex per node: its block keeps a counter per arc in
#: shared memory (8 KiB), beside its row and the row's ranks (16 KiB at 65536 rows).
HUB_NODE_DEGREE = 2048


def hub_words_of(hub_words=None, **_):
    """The hub words of a total wedge count with these keyword parameters
    (``Plan.parameters``): :data:`HUB_WORDS` by default, None where the count would
    refuse them (it says what is wrong)."""
    words = HUB_WORDS if hub_words is None else int(hub_words)
    return words if 0 <= words <= MAX_HUB_WORDS else None


def _max_degree(p, kind):
    return HUB_NODE_DEGREE if kind == "per_node" else p.n


def gpu_hub_prefix(prepared, layout, hub_words, kind, kernel_types, complete=False):
    """``(hub_prefix, wedges)`` of a count with a hub block of ``kind``
    (``"total"``, ``"per_node"`` or ``"weighted"``): the wedge prefix sums without
    the vertices of the bitmap whose arcs' rows hold fewer than ``hub_words`` words
    per wedge (per node, whose out-degree is at most :data:`HUB_NODE_DEGREE`), and
    the wedges left. Derived once per Prepared, bitmap, ``hub_words`` and kind: a
    warp per bitmap vertex says whether it keeps its wedges, then a chunked scan,
    queued, and one read of its total, unless the graph's work read the total and
    queued the prefix sums before (:func:`keep_hub_wedges`). ``complete``: the
    prefix sums must be complete on return, as a share reads them on a stream of
    its own (``wedge_layout.gpu_share_wedges``)."""
    import cupy

    p = prepared
    key = ("wedge_hub", layout, hub_words, kind)
    hub_prefix, wedges, read = p.derived.get(key, (None, None, False))
    if hub_prefix is None:
        from ..gpu import runtime

        # Which of the bitmap's vertices keep their wedges, a warp each.
        kept = cupy.empty(max(layout.rows, 1), dtype=np.int64)
        kernel = runtime.function("wedge.cu", "wedge_hub_kept", **kernel_types)
        words, max_degree = np.int64(hub_words), np.int64(_max_degree(p, kind))
        args = (p.indptr, p.indices, np.int64(p.n), np.int64(layout.rows), words, max_degree, kept)
        runtime.launch(kernel, 32 * layout.rows, args)
        hub_prefix = _queue_hub_prefix(p, kept, layout.rows, kernel_types)
    if wedges is None or (complete and not read):
        wedges, read = int(hub_prefix[-1].get()), True
    p.derived[key] = hub_prefix, wedges, read
    return hub_prefix, wedges


def _queue_hub_prefix(p, kept, rows, kernel_types):
    """The hub prefix sums, queued: the wedges with those each of the last
    ``rows`` ids keeps (``kept``) in place of the bitmap's."""
    import cupy

    hub_prefix = cupy.empty(p.n + 1, dtype=np.int64)
    args = (p.indptr, kept, np.int64(rows))
    queue_prefix_sums("wedge_hub", p.n, args, hub_prefix, source="wedge.cu", **kernel_types)
    return hub_prefix


def queue_hub_taken(prepared, largest, layout_on_gpu, hub_words, kind, kernel_types, taken):
    """Queue the sum of the wedges the hub block of a count takes off, into
    ``taken`` (a uint64 slot on the GPU), before the host knows the bitmap:
    ``layout_on_gpu`` is ``wedge_layout``'s, of at most ``largest`` rows. The host
    reads it with the graph's work (:func:`.work.work_of`) and keeps the wedges
    left (:func:`keep_hub_wedges`). Returns the hub prefix sums, queued behind it
    from the wedges each of the last ``largest`` ids keeps (0 for a hub vertex),
    for :func:`keep_hub_wedges`."""
    import cupy

    from ..gpu import runtime

    p = prepared
    rows = min(largest, p.n)
    kept = cupy.empty(max(rows, 1), dtype=np.int64)
    kernel = runtime.function("wedge.cu", "wedge_hub_taken", **kernel_types)
    args = (p.indptr, p.indices, np.int64(p.n), np.int64(largest), layout_on_gpu, np.int64(hub_words))
    # A warp per vertex (kernels/wedge.cu, hub_kept).
    runtime.launch(kernel, 32 * max(rows, 1), (*args, np.int64(_max_degree(p, kind)), kept, taken))
    return _queue_hub_prefix(p, kept, rows, kernel_types)


def keep_hub_wedges(prepared, layout, hub_words, kind, wedges, hub_prefix):
    """Keep the ``wedges`` a hub block of ``kind`` leaves to the count of
    ``layout``, read with the graph's work, and their prefix sums
    (:func:`queue_hub_taken`'s): :func:`gpu_hub_prefix` then returns them."""
    prepared.derived["wedge_hub", layout, hub_words, kind] = hub_prefix, wedges, False


def count_hub(prepared, layout, prefix, hub_prefix, bitmap, kind, kernel_types, arcs, out, vertices, ranks):
    """Count the hub vertices (those ``hub_prefix`` leaves out): a block per bitmap
    row ANDs the vertex's row with its out-neighbours' rows (kernels/wedge.cu,
    ``hub_count``). ``kind`` ``"total"`` adds to the total ``out``; ``"per_node"``
    writes the counts of the vertex's arcs to ``arcs`` (the per-arc counts of
    ``wedge_arc_credit``); ``"weighted"`` adds the pairs of terms of the vertex's
    arcs to ``arcs`` (those of ``wedge_arc_terms``) and the vertex's own to ``out``,
    reading the bitmap's ``ranks`` (``wedge_layout.count_ranks``); a share
    ``vertices`` of a count credits each triangle's third vertex through the
    vertex's own arcs, as its ``arcs`` hold them alone."""
    from ..gpu import runtime

    p = prepared
    # A block per bitmap row, of the share's rows alone.
    first, end = (0, p.n) if vertices is None else vertices
    first, end = max(first, layout.first_row), min(end, p.n)
    if end <= first:
        return
    args = (p.indptr, p.indices, prefix, hub_prefix, bitmap)
    vid = p.indices.dtype.type
    rows = (vid(layout.first_row), vid(first))  # the bitmap's first row, the launch's
    if kind == "weighted":
        name = "wedge_hub_weighted" if vertices is None else "wedge_hub_weighted_share"
        kernel = runtime.function("wedge.cu", name, **kernel_types)
        args += (ranks, *rows, np.uint32(layout.words), p.values, arcs, out)
        shared = 8 * layout.words  # the row and its ranks
    else:
        kernel = runtime.function("wedge.cu", f"wedge_hub_{kind}", **kernel_types)
        args += (*rows, np.uint32(layout.words), arcs if kind == "per_node" else out)
        # The row; per node also its ranks and a counter per arc.
        shared = 4 * (2 * layout.words + HUB_NODE_DEGREE) if kind == "per_node" else 4 * layout.words
    runtime.launch(kernel, (end - first) * HUB_THREADS, args, threads=HUB_THREADS, shared_mem=shared)
