"""Seeded synthetic edge lists for tests and benchmarks, generated with the
array module asked for (NumPy on the CPU, CuPy directly on the GPU)."""

import numpy as np
from numba import njit

from ..gpu.device import array_module

__all__ = [
    "rmat_edges",
    "grid_edges",
    "barabasi_albert_edges",
    "chung_lu_edges",
    "copying_edges",
]


def rmat_edges(scale, edge_factor=16, a=0.57, b=0.19, c=0.19, *, seed=0, device="cpu"):
    """Graph500-style R-MAT edge list (duplicates and self-loops included).

    As in the Graph500 generator, vertex ids are randomly permuted afterwards,
    so that the hubs are not the smallest ids.

    Parameters
    ----------
    scale : int
        ``n = 2**scale`` vertices.
    edge_factor : int
        ``m = edge_factor * n`` generated edges.
    a, b, c : float
        Quadrant probabilities (``d = 1 - a - b - c``).
    seed : int
    device : {"cpu", "gpu"}

    Returns
    -------
    src, dst : int64 arrays
    """
    xp = array_module(device)
    rng = xp.random.default_rng(seed)
    m = edge_factor << scale
    src = xp.zeros(m, dtype=xp.int64)
    dst = xp.zeros(m, dtype=xp.int64)
    for bit in range(scale):
        r = rng.random(m)
        lower = r >= a + b  # quadrants c and d set the row bit
        right = ((r >= a) & (r < a + b)) | (r >= a + b + c)  # b and d set the column bit
        src |= lower.astype(xp.int64) << bit
        dst |= right.astype(xp.int64) << bit
    label = xp.argsort(rng.random(1 << scale)).astype(xp.int64)  # a random permutation
    return label[src], label[dst]


def rmat_edges_in_chunks(scale, edge_factor=16, a=0.57, b=0.19, c=0.19, *, seed=0, chunk_rows=1 << 26):
    """:func:`rmat_edges` drawn on the GPU chunk by chunk into host memory, for
    edge lists larger than the GPU (scale 27: 2**31 rows, 17 GB as int32).

    Chunk ``i`` draws from a seed of ``SeedSequence([seed, i])``, so the edges depend on
    ``chunk_rows`` and differ from :func:`rmat_edges`'s for the same seed; the
    vertex permutation is drawn once, from ``default_rng(seed)``.

    Returns
    -------
    src, dst : numpy arrays
        int32 ids below ``2**31`` vertices, else int64.
    """
    import cupy

    n, m = 1 << scale, edge_factor << scale
    dtype = np.int32 if n <= 2**31 else np.int64
    label = cupy.argsort(cupy.random.default_rng(seed).random(n, dtype=np.float32)).astype(dtype)
    src, dst = np.empty(m, dtype=dtype), np.empty(m, dtype=dtype)
    for index, start in enumerate(range(0, m, chunk_rows)):
        rows = min(chunk_rows, m - start)
        rng = cupy.random.default_rng(int(np.random.SeedSequence([seed, index]).generate_state(1)[0]))
        chunk_src = cupy.zeros(rows, dtype=dtype)
        chunk_dst = cupy.zeros(rows, dtype=dtype)
        for bit in range(scale):
            r = rng.random(rows, dtype=np.float32)
            chunk_src |= (r >= a + b).astype(dtype) << bit  # quadrants c and d
            chunk_dst |= (((r >= a) & (r < a + b)) | (r >= a + b + c)).astype(dtype) << bit
        label[chunk_src].get(out=src[start : start + rows])
        label[chunk_dst].get(out=dst[start : start + rows])
    return src, dst


def grid_edges(rows, cols, diagonal_fraction=0.0, *, seed=0, device="cpu"):
    """A ``rows x cols`` grid, plus one diagonal in a random fraction of its cells."""
    xp = array_module(device)
    ids = xp.arange(rows * cols, dtype=xp.int64).reshape(rows, cols)
    parts = [
        (ids[:, :-1].ravel(), ids[:, 1:].ravel()),
        (ids[:-1, :].ravel(), ids[1:, :].ravel()),
    ]
    if diagonal_fraction > 0:
        rng = xp.random.default_rng(seed)
        corner = ids[:-1, :-1].ravel()
        chosen = corner[rng.random(corner.size) < diagonal_fraction]
        parts.append((chosen, chosen + cols + 1))
    return xp.concatenate([p[0] for p in parts]), xp.concatenate([p[1] for p in parts])


@njit(cache=True)
def _attach(src, dst, k, seed):
    """Draw each target uniformly from the endpoints of all earlier edges."""
    np.random.seed(seed)
    for e in range(k):
        dst[e] = e  # the first vertex attaches to the k seed vertices
    for e in range(k, src.size):
        pick = np.random.randint(0, 2 * e)
        dst[e] = src[pick >> 1] if pick & 1 == 0 else dst[pick >> 1]


def barabasi_albert_edges(n, edges_per_vertex, *, seed=0, device="cpu"):
    """Preferential attachment by the repeated-endpoints method (Batagelj–Brandes).

    Vertex ``v >= k`` attaches ``k`` edges to endpoints drawn uniformly from all
    edge endpoints created before it, i.e. proportionally to degree. The draws
    depend on each other, so they run sequentially (numba) on the host; the
    result is then moved to ``device``. Repeated targets are kept (they are
    dropped as duplicates when counting).
    """
    k = edges_per_vertex
    src = np.repeat(np.arange(k, n, dtype=np.int64), k)
    dst = np.empty(src.size, dtype=np.int64)
    _attach(src, dst, k, seed)
    xp = array_module(device)
    return xp.asarray(src), xp.asarray(dst)


def chung_lu_edges(n, average_degree, exponent, *, seed=0, device="cpu"):
    """Power-law random graph (Chung–Lu): degrees follow ``P(d) ~ d**-exponent``.

    Vertex ``i`` gets the weight ``(i + 1) ** (-1 / (exponent - 1))``; each of the
    ``n * average_degree / 2`` edges draws both endpoints independently,
    proportionally to weight, so a vertex's expected degree is proportional to its
    weight. There is no degree cutoff: an exponent near 2 makes hubs of a sizeable
    share of all edges. Ids are randomly permuted afterwards, as in
    :func:`rmat_edges`. Duplicates and self-loops are kept (dropped when counting).

    Parameters
    ----------
    n : int
    average_degree : float
    exponent : float
        Above 1; real networks mostly lie between 2 and 3.
    seed : int
    device : {"cpu", "gpu"}

    Returns
    -------
    src, dst : int64 arrays
    """
    if exponent <= 1:
        raise ValueError(f"chung_lu_edges: exponent must be above 1, got {exponent}")
    xp = array_module(device)
    rng = xp.random.default_rng(seed)
    m = int(n * average_degree) // 2
    cumulative = xp.cumsum(xp.arange(1, n + 1, dtype=xp.float64) ** (-1.0 / (exponent - 1)))
    cumulative /= cumulative[-1]
    src = xp.minimum(xp.searchsorted(cumulative, rng.random(m)), n - 1)
    dst = xp.minimum(xp.searchsorted(cumulative, rng.random(m)), n - 1)
    label = xp.argsort(rng.random(n)).astype(xp.int64)
    return label[src], label[dst]


@njit(cache=True)
def _copy_links(dst, k, beta, seed):
    """Link 0 of each vertex goes to a uniform earlier prototype; link ``i > 0``
    copies the prototype's link ``i`` with probability ``1 - beta``, else goes to a
    uniform earlier vertex."""
    np.random.seed(seed)
    dst[:k] = 0  # vertex 0 has no earlier vertex: self-loops, dropped when counting
    for v in range(1, dst.size // k):
        prototype = np.random.randint(0, v)
        dst[v * k] = prototype
        for i in range(1, k):
            if np.random.random() < beta:
                dst[v * k + i] = np.random.randint(0, v)
            else:
                dst[v * k + i] = dst[prototype * k + i]


def copying_edges(n, links_per_vertex, beta, *, seed=0, device="cpu"):
    """Web-like graph of the copying model (Kleinberg et al.): long-tailed in-degrees
    and many triangles.

    Each vertex picks an earlier vertex as its prototype and links to it; each of
    its other ``links_per_vertex - 1`` links copies the prototype's link of the
    same rank with probability ``1 - beta``, else goes to a uniform earlier
    vertex. In-degrees follow a power law of exponent ``(2 - beta) / (1 - beta)``;
    a vertex and its prototype share most neighbours, which closes many
    triangles. Sequential like :func:`barabasi_albert_edges` (numba on the host,
    then moved to ``device``); duplicates and self-loops are kept.

    Parameters
    ----------
    n : int
    links_per_vertex : int
    beta : float
        The share of uniform links, in ``[0, 1]``.
    seed : int
    device : {"cpu", "gpu"}

    Returns
    -------
    src, dst : int64 arrays
    """
    if not 0 <= beta <= 1:
        raise ValueError(f"copying_edges: beta must lie in [0, 1], got {beta}")
    k = links_per_vertex
    src = np.repeat(np.arange(n, dtype=np.int64), k)
    dst = np.empty(src.size, dtype=np.int64)
    _copy_links(dst, k, beta, seed)
    xp = array_module(device)
    return xp.asarray(src), xp.asarray(dst)
