"""Seeded synthetic edge lists for tests and benchmarks, generated with the
array module asked for (NumPy on the CPU, CuPy directly on the GPU)."""

import numpy as np
from numba import njit

from ..gpu.device import array_module

__all__ = ["rmat_edges", "grid_edges", "barabasi_albert_edges"]


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
