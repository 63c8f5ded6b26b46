"""Where the GPU wedge count (``kernels/wedge.cu``) finds its wedges and its
bitmap: the wedge prefix sums (of a task graph, its cross wedges alone) and the
bitmap rows of the densest vertices (WeTriC §5.4), a triangle over the last ids of
a whole graph, a rectangle of the last middles by the last sinks of a task graph.
"""

from dataclasses import dataclass

import numpy as np

from ..metadata.catalog import BITMAP_ROWS
from ..preprocess.gpu_rows import queue_prefix_sums
from .shares import share_scratch
from .wedge_hub import gpu_hub_prefix

__all__ = [
    "wedge_prefix",
    "cross_splits",
    "BITMAP_MIN_OUT_DEGREE",
    "BitmapLayout",
    "gpu_layout",
    "gpu_prefix_ahead",
    "uses_bitmap",
    "keep_layout",
    "keep_layout_ahead",
    "kept_layout",
    "layout_rows",
    "plain_kernel_types",
    "cross_sides",
    "rectangle_bytes",
    "triangle_words",
    "build_bitmap",
    "gpu_vertex_costs",
    "BASE_COSTS",
    "gpu_share_wedges",
    "share_prefix",
    "count_bitmap",
    "count_ranks",
    "share_arcs",
]

#: The bitmap takes as many of the last ids as there are vertices of at least this
#: out-degree: below it a binary search of N+(w) takes few steps in cached lines, and
#: a larger bitmap only spills the cache (docs/algorithms.md, 'wedge: bitmap rows').
BITMAP_MIN_OUT_DEGREE = 32


def wedge_prefix(indptr, splits=None):
    """Return the int64 prefix sums of the wedges of each vertex, length ``n + 1``:
    ``C(d+(v), 2)``, or with ``splits`` (a task graph's, :func:`cross_splits`) its
    cross wedges ``split * (d+(v) - split)``."""
    out_degree = np.diff(indptr)
    pairs = out_degree * (out_degree - 1) // 2 if splits is None else splits * (out_degree - splits)
    prefix = np.zeros(out_degree.size + 1, dtype=np.int64)
    np.cumsum(pairs, out=prefix[1:])
    return prefix


def cross_splits(prepared):
    """Each vertex's arcs to middles (int64, length ``n``) in a task graph
    (``prepared.task_blocks``): they lead a source's row, and a wedge closes only
    between one of them and an arc to a sink; 0 for the middles and sinks."""
    sources, middles, _ = prepared.task_blocks
    to_middles = (prepared.rows < sources) & (prepared.indices < sources + middles)
    return np.bincount(prepared.rows[to_middles], minlength=prepared.n).astype(np.int64)


@dataclass(frozen=True)
class BitmapLayout:
    """Where a GPU count's bitmap lies: ``rows`` rows from vertex ``first_row``
    (none when 0), holding the closing arcs at CSR positions ``first_arc`` to
    ``end_arc`` to the vertices from ``first_col``; ``words`` words a row (the
    widest row of the triangle), ``size`` in all; ``cross``: a task graph's
    rectangle (kernels/wedge.cu)."""

    rows: int = 0
    first_row: int = 0
    first_col: int = 0
    words: int = 0
    size: int = 1
    first_arc: int = 0
    end_arc: int = 0
    cross: bool = False


def gpu_layout(prepared, largest, kernel_types):
    """``(prefix, wedges, bitmap)`` on the GPU: the wedge prefix sums and the
    number of wedges (derived once per Prepared), and the :class:`BitmapLayout` (once
    per Prepared and ``largest``). The bitmap takes the last ids, as many as there
    are vertices of out-degree at least :data:`BITMAP_MIN_OUT_DEGREE` and at most
    ``largest``, none unless the ids ascend by degree and arcs point to higher ids
    (:func:`uses_bitmap`). The prefix sums are a chunked scan, queued; the
    numbers the host needs, two small kernels and one transfer, unless they were
    read before with the graph's work (:func:`keep_layout`): each CuPy call costs
    more host time than a small graph's GPU work, and each synchronisation drains
    the queue the host ran ahead of."""
    import cupy

    from ..gpu import runtime

    p, derived = prepared, prepared.derived
    if p.task_blocks is not None:
        return _gpu_cross_layout(p, largest, kernel_types)
    use_bitmap = uses_bitmap(p, largest)
    key = ("wedge_bitmap", largest)
    _settle_ahead(p, largest)
    gpu_prefix_ahead(p, kernel_types)
    if "wedge_count" not in derived or (use_bitmap and key not in derived):
        layout = cupy.zeros(3, dtype=np.int64)
        if use_bitmap:  # the heavy vertices' count, in the slot of the rows
            heavy_kernel = runtime.function("wedge.cu", "wedge_heavy_rows", **kernel_types)
            args = (p.indptr, np.int64(p.n), np.int64(BITMAP_MIN_OUT_DEGREE), layout[1:2])
            runtime.launch(heavy_kernel, max(p.n, 1), args)
        layout_kernel = runtime.function("wedge.cu", "wedge_layout", **kernel_types)
        rows = np.int64(largest if use_bitmap else 0)
        args = (derived["wedge_prefix"], p.indptr, np.int64(p.n), rows, layout)
        runtime.launch(layout_kernel, 1, args, threads=32)
        keep_layout(p, largest, *(int(x) for x in layout.get()))
    bitmap = derived.get(key) if use_bitmap else None
    return derived["wedge_prefix"], derived["wedge_count"], bitmap or _no_bitmap(p.n)


def gpu_prefix_ahead(prepared, kernel_types=None):
    """Queue the wedge prefix sums of ``prepared`` (a whole graph on the GPU), once
    per Prepared: a chunked scan's two launches, no read. :func:`.work.work_of`
    queues them before it reads the graph's work, so that the host queues them
    while the GPU still prepares (the host runs ahead of it), not after that read,
    when the GPU would wait for them."""
    import cupy

    p = prepared
    if "wedge_prefix" not in p.derived:
        prefix = cupy.empty(p.n + 1, dtype=np.int64)
        kernel_types = plain_kernel_types(p) if kernel_types is None else kernel_types
        queue_prefix_sums("wedge_prefix", p.n, (p.indptr,), prefix, source="wedge.cu", **kernel_types)
        p.derived["wedge_prefix"] = prefix


def uses_bitmap(prepared, largest):
    """Whether a wedge count of ``prepared`` (a whole graph) with at most
    ``largest`` bitmap rows has a bitmap: its ids ascend by degree and its arcs
    point to higher ids."""
    return prepared.ascending and prepared.ordering == "degree" and largest > 0


def keep_layout(prepared, largest, wedges, rows, first_arc):
    """Keep what :func:`gpu_layout` reads of ``prepared`` (a whole graph on the
    GPU) for ``largest``: its ``wedges``, and the bitmap of ``rows`` rows whose
    closing arcs start at ``first_arc`` where :func:`uses_bitmap`. Read by
    :func:`gpu_layout`, or with the graph's work (:func:`.work.work_of`). Returns
    the bitmap's :class:`BitmapLayout`, None without one."""
    p, derived = prepared, prepared.derived
    derived["wedge_count"] = wedges
    if not uses_bitmap(p, largest):
        return None
    first, words, size = p.n - rows, (rows + 31) // 32, max(triangle_words(rows), 1)
    derived["wedge_bitmap", largest] = layout = BitmapLayout(rows, first, first, words, size, first_arc, p.m)
    return layout


def keep_layout_ahead(prepared, largest, settle):
    """Keep ``settle``, which reads what a layout for ``largest`` queued ahead of
    the count computes and keeps it (:func:`keep_layout`) on the graph it is given:
    called with ``prepared`` by the first :func:`kept_layout` or :func:`gpu_layout`
    for ``largest``, so that the host waits for it only where a wedge count needs
    it (:func:`.work.work_of`)."""
    prepared.derived["wedge_ahead", largest] = settle


def _settle_ahead(prepared, largest):
    settle = prepared.derived.pop(("wedge_ahead", largest), None)
    if settle is not None:
        settle(prepared)


def kept_layout(prepared, largest):
    """The :class:`BitmapLayout` of ``prepared`` for ``largest`` where it was read
    before (:func:`keep_layout`, or queued ahead: :func:`keep_layout_ahead`), else
    None."""
    _settle_ahead(prepared, largest)
    return prepared.derived.get(("wedge_bitmap", largest))


def layout_rows(bitmap_rows=None, **_):
    """The most bitmap rows (``gpu_layout``'s ``largest``) of a wedge count with
    these keyword parameters (``Plan.parameters``), or None where the count would
    refuse them (it says what is wrong)."""
    largest = BITMAP_ROWS if bitmap_rows is None else int(bitmap_rows)
    return largest if 0 <= largest <= 2**17 else None


def plain_kernel_types(p):
    """The wedge kernels' types for a count of ``p`` without arc values."""
    return dict(vid=p.indices.dtype, weight=np.float64, eid=np.uint32 if p.m < 2**32 else np.int64)


def _gpu_cross_layout(p, largest, kernel_types):
    """:func:`gpu_layout` of a task graph: its cross wedges alone (each source's
    split kept as ``derived["wedge_splits"]``), and a rectangle of the last
    ``largest // 2`` middles by the last ``largest // 2`` sinks (a quarter of the
    whole graph's triangle at most), where the ids ascend by degree in each block."""
    import cupy

    from ..gpu import runtime

    sources, middles, sinks = p.task_blocks
    pairs = cupy.empty(p.n + 1, dtype=np.int64)
    splits = cupy.empty(max(sources, 1), dtype=p.indices.dtype)
    pair_kernel = runtime.function("wedge.cu", "wedge_cross_pairs", **kernel_types)
    args = (p.indptr, p.indices, np.int64(p.n), np.int64(sources), np.int64(sources + middles), splits, pairs)
    runtime.launch(pair_kernel, max(p.n, 1), args)
    prefix = cupy.cumsum(pairs)
    rows, cols = cross_sides(p, largest)
    first_row = sources + middles - rows
    # The wedges and the CSR span of the rectangle's rows, in one transfer.
    ends = cupy.stack([prefix[-1], p.indptr[first_row], p.indptr[sources + middles]])
    wedges, first_arc, end_arc = (int(x) for x in ends.get())
    p.derived["wedge_splits"] = splits
    if not (rows and cols):
        return prefix, wedges, _no_bitmap(p.n)
    words = (cols + 31) // 32
    bitmap = BitmapLayout(rows, first_row, p.n - cols, words, rows * words, first_arc, end_arc, True)
    return prefix, wedges, bitmap


def _no_bitmap(n):
    """No bitmap: its first row and column past every vertex."""
    return BitmapLayout(first_row=n, first_col=n)


def cross_sides(p, largest):
    """Rows and columns of a task graph's rectangle (0, 0: none)."""
    if not (p.ordering == "degree" and largest > 0):
        return 0, 0
    _, middles, sinks = p.task_blocks
    return min(largest // 2, middles), min(largest // 2, sinks)


def rectangle_bytes(rows, cols):
    """Bytes of a task graph's bitmap of ``rows`` middles by ``cols`` sinks."""
    return 4 * rows * ((cols + 31) // 32)


def triangle_words(rows):
    """32-bit words of the upper-triangular bitmap of ``rows`` rows (as ``row_start``
    in kernels/wedge.cu): rows 32q .. 32q + 31 keep ``words - q`` words each."""
    words = (rows + 31) // 32
    q, s = rows >> 5, rows & 31
    return 32 * (q * words - q * (q - 1) // 2) + s * (words - q)


def build_bitmap(p, layout, bitmap, kernel_types):
    """Set the bits of the closing arcs ``layout`` holds (a thread per arc)."""
    from ..gpu import runtime

    arcs = layout.end_arc - layout.first_arc
    if layout.cross:
        build = runtime.function("wedge.cu", "wedge_cross_bitmap", **kernel_types)
        args = (
            p.indices,
            p.rows,
            np.int64(layout.first_arc),
            np.int64(layout.end_arc),
            np.int64(layout.first_row),
            np.int64(layout.first_col),
            np.int64(layout.words),
            bitmap,
        )
    else:
        build = runtime.function("wedge.cu", "wedge_bitmap", **kernel_types)
        args = (
            p.indices,
            p.rows,
            np.int64(layout.first_arc),
            np.int64(p.m),
            np.int64(layout.first_row),
            np.int64(layout.words),
            bitmap,
        )
    runtime.launch(build, arcs, args)


#: What a count's parts cost in wedges searched, by mode (``kernels/wedge.cu``,
#: ``wedge_base_costs``): a wedge whose middle is a bitmap row, an arc, and a word
#: of the hub block's rows. Fitted to the times of 48 shares of R-MAT 22 and of
#: R-MAT 25 (H200), the geometric means of the two: an arc cost 6.7 wedges on
#: R-MAT 22 and 17.8 on R-MAT 25 (docs/algorithms.md, "Shares by cost").
BASE_COSTS = {"total": (0.39, 10.9, 0.011), "per_node": (0.45, 14.9, 0.040)}


def gpu_vertex_costs(prepared, mode, largest, hub_words, kernel_types):
    """Each base vertex's cost in a GPU count of ``mode`` (``"total"`` or
    ``"per_node"``; float64, length ``n``), in wedges searched
    (:data:`BASE_COSTS`), for :func:`.shares.work_shares`: wedges whose middle
    is a bitmap row cost a third of a search, and an arc ten wedges or more. By
    wedges alone the last third of R-MAT 25's cost took 2.4% of its count.
    ``hub_words`` 0: no hub block."""
    import cupy

    from ..gpu import runtime

    p = prepared
    _, _, layout = gpu_layout(p, largest, kernel_types)
    hub_prefix = None
    if hub_words and layout.rows:
        hub_prefix, _ = gpu_hub_prefix(p, layout, hub_words, mode, kernel_types)
    bitmap_wedge, arc, hub_word = BASE_COSTS[mode]
    costs = cupy.empty(p.n, dtype=np.float64)
    kernel = runtime.function("wedge.cu", "wedge_base_costs", **kernel_types)
    args = (p.indptr, p.indices, hub_prefix, np.int64(p.n), np.int64(layout.first_row))
    args += (np.int64(layout.words), np.float64(bitmap_wedge), np.float64(arc), np.float64(hub_word), costs)
    runtime.launch(kernel, max(p.n, 1), args)
    return costs


def share_prefix(prefix, vertices):
    """The wedge prefix sums of the base vertices ``vertices`` alone (a share
    ``(first, end)``, :mod:`.shares`): ``prefix`` held flat before ``first`` and
    from ``end`` on, from 0. The wedge kernels, unchanged, then number only the
    share's wedges; NumPy or CuPy (no transfer)."""
    first, end = vertices
    return prefix.clip(prefix[first], prefix[end]) - prefix[first]


def gpu_share_wedges(prefix, vertices):
    """``(first_wedge, wedges)`` of a share ``(first, end)`` of base vertices
    (:mod:`.shares`) on the GPU: the graph's wedges numbered from ``first_wedge`` on,
    ``wedges`` of them, are the share's, which the wedge kernels take from there
    (``kernels/wedge.cu``). Read by :func:`read_beside`: ``prefix`` is complete,
    made by a call that read a result of it back. Holding ``prefix`` flat outside
    the share instead (one pass over it, twice a share with the hub block) cost
    R-MAT 25's 16 shares 4.5 ms on an H200."""
    low, high = read_beside(prefix, vertices)
    return low, high - low


def count_bitmap(p, layout, kernel_types, vertices, planes=False):
    """The bitmap of ``layout`` on the GPU, built once per count: a share's is
    kept in the graph's share scratch (:func:`.shares.share_scratch`) for the
    count's other shares. With ``planes``, two planes holding bit 0 and bit 1 of
    each arc's value: a state (uint8, ``wedge_state_bitmap``) or a small value
    (``wedge_value_bitmap``)."""
    import cupy

    from ..gpu import runtime

    scratch = {} if vertices is None else share_scratch(p)
    bitmap = scratch.get((layout, planes))
    if bitmap is None:
        bitmap = cupy.zeros(layout.size * (2 if planes else 1), dtype=np.uint32)
        if layout.rows and planes:
            name = "wedge_state_bitmap" if p.values.dtype == np.uint8 else "wedge_value_bitmap"
            build = runtime.function("wedge.cu", name, **kernel_types)
            args = (p.indices, p.rows, p.values, np.int64(layout.first_arc), np.int64(p.m))
            args += (np.int64(layout.first_row), np.int64(layout.words), bitmap)
            runtime.launch(build, p.m - layout.first_arc, args)
        elif layout.rows:
            build_bitmap(p, layout, bitmap, kernel_types)
        scratch[(layout, planes)] = bitmap
    return bitmap


def count_ranks(p, layout, bitmap, kernel_types, vertices):
    """Each word's rank in its row of the bitmap ``bitmap`` of ``layout`` (the set
    bits of the row's words before it; ``wedge_bitmap_ranks``), built once per count
    as :func:`count_bitmap` is."""
    import cupy

    from ..gpu import runtime

    scratch = {} if vertices is None else share_scratch(p)
    ranks = scratch.get((layout, "ranks"))
    if ranks is None:
        ranks = cupy.empty(layout.size, dtype=np.uint32)
        build = runtime.function("wedge.cu", "wedge_bitmap_ranks", **kernel_types)
        args = (bitmap, np.int64(layout.rows), np.uint32(layout.words), ranks)
        runtime.launch(build, 32 * layout.rows, args)
        scratch[(layout, "ranks")] = ranks
    return ranks


def share_arcs(p, vertices):
    """CSR positions ``(first, end)`` of the arcs of the base vertices ``vertices``,
    by :func:`read_beside`: called after :func:`gpu_layout`, which read back a
    result made from the CSR, so the CSR is complete."""
    return read_beside(p.indptr, vertices)


def read_beside(array, positions):
    """The items of a complete GPU ``array`` at ``positions``, as Python ints, read
    on a stream of their own (one read each, where a gather would compile a kernel).
    A read on the current stream would wait for the kernels queued there (a share
    waited for the previous share's count), and the GPU would idle while the host
    queued the next launches."""
    from ..gpu import runtime

    side = runtime.side_stream(array.device.id)
    return tuple(int(array[i].get(stream=side)) for i in positions)
