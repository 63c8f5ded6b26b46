"""A-order (a-direction-a-order-preprocessing.md §3.2, §5.2 Algorithm 2, §5.3):
renumber vertices so that each block of ``k`` consecutive ids (a bucket) of a
vertex-parallel kernel mixes memory-bound and compute-bound vertices.

A vertex of out-degree ``d`` has the memory superiority ``F_m(d) - λ F_c(d)``
(:func:`memory_superiority`; our ``BW(d)`` counts the 32-byte sectors a binary
search over ``d`` int32 ids touches). Memory-dominated vertices go to the bucket
with the least summed superiority, then compute-dominated ones to the bucket
with the most (two heaps, numba, on the host: ``O(n log B)`` over the
out-degrees); vertices of out-degree 0 come last. The model, its constants and
the choices the paper leaves open: docs/algorithms.md, 'Preprocessing'.
"""

import numpy as np
from numba import njit

__all__ = [
    "BUCKET_SIZE",
    "LAMBDA",
    "SECTOR_BYTES",
    "ID_BYTES",
    "compute_intensity",
    "memory_sectors",
    "memory_intensity",
    "memory_superiority",
    "a_order",
]

#: k: vertices per bucket, the threads per block of our vertex-parallel kernel.
BUCKET_SIZE = 256
#: λ: weight of compute against memory intensity (docs/algorithms.md, 'A-order's
#: lambda'; the paper's value for its kernel and GPU is 9.682).
LAMBDA = 32.0
#: Bytes of one memory sector, the unit of a global-memory transaction.
SECTOR_BYTES = 32
#: Bytes of one neighbour id in the CSR (int32).
ID_BYTES = 4


def compute_intensity(d):
    """``F_c(d) = sqrt(1 / d)`` (Equation 22), for out-degrees ``d > 0``."""
    return np.sqrt(1.0 / np.asarray(d, dtype=np.float64))


def memory_sectors(d):
    """``BW(d)``, our model: 32-byte sectors a binary search over ``d`` int32 touches."""
    ids_per_sector = np.asarray(d, dtype=np.float64) * ID_BYTES / SECTOR_BYTES
    return np.ceil(np.log2(np.maximum(ids_per_sector, 1.0))) + 1.0


def memory_intensity(d):
    """``F_m(d) = sqrt(BW(d))`` (Equation 22)."""
    return np.sqrt(memory_sectors(d))


def memory_superiority(d, lam):
    """``F_m(d) - λ F_c(d)``: positive for memory-dominated vertices."""
    return memory_intensity(d) - lam * compute_intensity(d)


@njit(cache=True)
def _before(a, b, load, sign):
    """Whether bucket ``a`` sits above bucket ``b`` in the heap: the smaller
    ``sign * load`` (a min-heap for sign 1, a max-heap for -1), then the lower index."""
    la, lb = sign * load[a], sign * load[b]
    return la < lb or (la == lb and a < b)


@njit(cache=True)
def _sift_down(heap, size, i, load, sign):
    """Move ``heap[i]`` down until both children sit below it."""
    while True:
        top = i
        left = 2 * i + 1
        if left < size and _before(heap[left], heap[top], load, sign):
            top = left
        if left + 1 < size and _before(heap[left + 1], heap[top], load, sign):
            top = left + 1
        if top == i:
            return
        heap[i], heap[top] = heap[top], heap[i]
        i = top


@njit(cache=True)
def _place(vertices, superiority, heap, size, load, filled, capacity, bucket_size, sign, perm):
    """Give each of ``vertices`` in turn to the bucket on top of the heap.

    The top bucket's load changes in the direction that moves it down (up for
    the min-heap of phase 1, down for the max-heap of phase 2), so one sift-down
    restores the heap. Returns the heap's new size (full buckets leave it).
    """
    for v in vertices:
        b = heap[0]
        perm[b * bucket_size + filled[b]] = v
        filled[b] += 1
        load[b] += superiority[v]
        if filled[b] == capacity[b]:
            size -= 1
            heap[0] = heap[size]
        _sift_down(heap, size, 0, load, sign)
    return size


@njit(cache=True)
def _balance(memory_bound, compute_bound, superiority, n_buckets, bucket_size, perm):
    """Algorithm 2: fill ``perm[0 : n_active]`` bucket by bucket."""
    n_active = memory_bound.size + compute_bound.size
    capacity = np.full(n_buckets, bucket_size, dtype=np.int64)
    capacity[-1] = n_active - (n_buckets - 1) * bucket_size
    filled = np.zeros(n_buckets, dtype=np.int64)
    load = np.zeros(n_buckets, dtype=np.float64)
    # All loads are 0: buckets in index order already form a min-heap.
    heap = np.arange(n_buckets)
    size = _place(memory_bound, superiority, heap, n_buckets, load, filled, capacity, bucket_size, 1.0, perm)
    for i in range(size // 2 - 1, -1, -1):  # re-heapify as a max-heap
        _sift_down(heap, size, i, load, -1.0)
    _place(compute_bound, superiority, heap, size, load, filled, capacity, bucket_size, -1.0, perm)


def a_order(out_degree, bucket_size=BUCKET_SIZE, lam=None):
    """Return ``perm`` (``perm[new_id] = old_id``) of A-order.

    Parameters
    ----------
    out_degree : integer array (host)
        Out-degree of every vertex after orientation.
    bucket_size : int
        ``k``, vertices per bucket (default :data:`BUCKET_SIZE`).
    lam : float, optional
        ``λ`` (default :data:`LAMBDA`, read at each call).

    Returns
    -------
    int64 NumPy array
        Buckets of ``bucket_size`` consecutive new ids (the last one shorter),
        then the vertices of out-degree 0 in id order.
    """
    lam = LAMBDA if lam is None else lam
    out_degree = np.asarray(out_degree)
    n = out_degree.size
    active = np.flatnonzero(out_degree > 0)
    superiority = np.zeros(n, dtype=np.float64)
    superiority[active] = memory_superiority(out_degree[active], lam)
    memory_bound = active[superiority[active] > 0]
    compute_bound = active[superiority[active] <= 0]
    # Largest |superiority| first; stable sorts keep ties in id order.
    memory_bound = memory_bound[np.argsort(-superiority[memory_bound], kind="stable")]
    compute_bound = compute_bound[np.argsort(superiority[compute_bound], kind="stable")]
    perm = np.empty(n, dtype=np.int64)
    if active.size:
        n_buckets = -(-active.size // bucket_size)
        _balance(memory_bound, compute_bound, superiority, n_buckets, bucket_size, perm)
    perm[active.size :] = np.flatnonzero(out_degree == 0)
    return perm
