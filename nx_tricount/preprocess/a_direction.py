"""A-direction (a-direction-a-order-preprocessing.md §4.2, Algorithm 1;
bitwise-2d-partition.md §3.1): orient the edges so that out-degrees stay close
to the average, by peeling.

Waves peel every vertex whose remaining degree is within a threshold that starts
at ``|E| / |V|`` and doubles when a wave would peel nobody; every edge goes from
the lower vertex rank ``(wave, remaining degree at the wave, id)`` to the higher,
so the orientation is acyclic. Deviation: the waves are synchronous, so the
result is deterministic, the same on the CPU and the GPU. :func:`orientation_cost`
is the paper's Equation 1. See docs/algorithms.md, 'Preprocessing'.
"""

from typing import NamedTuple

from ..gpu.device import module_of
from .csr import build_csr, row_positions

__all__ = ["Peeling", "peel", "a_direction", "orientation_cost"]


class Peeling(NamedTuple):
    """The waves of A-direction's peeling.

    Attributes
    ----------
    wave : int32 array
        Wave in which each vertex was peeled (0 first).
    remaining : int64 array
        Each vertex's remaining degree when it was peeled: a bound on its out-degree.
    threshold : float
        The threshold of the last wave: a bound on every out-degree.
    """

    wave: object
    remaining: object
    threshold: float


def peel(lo, hi, degree):
    """Peel the graph ``lo - hi`` in waves with a doubling degree threshold.

    Parameters
    ----------
    lo, hi : integer arrays
        Undirected simple edges, each once.
    degree : integer array
        Undirected degree of every vertex (its length is the number of vertices).

    Returns
    -------
    Peeling
    """
    xp = module_of(lo)
    n = int(degree.size)
    threshold = lo.size / n if n else 0.0
    # Both directions of every edge: a frontier vertex reaches all its neighbours.
    indptr, neighbours, _, _ = build_csr(xp.concatenate([lo, hi]), xp.concatenate([hi, lo]), n)
    remaining = degree.astype(xp.int64)
    wave = xp.full(n, -1, dtype=xp.int32)
    frontier = xp.nonzero(remaining <= threshold)[0]
    peeled = 0
    waves = 0
    while peeled < n:
        if frontier.size == 0:
            threshold *= 2
            frontier = xp.nonzero((wave < 0) & (remaining <= threshold))[0]
            continue
        wave[frontier] = waves
        peeled += frontier.size
        waves += 1
        # Neighbours still unpeeled lose one remaining degree per frontier neighbour.
        reached = neighbours[row_positions(indptr, frontier)]
        reached = xp.sort(reached[wave[reached] < 0])
        if reached.size == 0:
            frontier = reached
            continue
        first = xp.empty(reached.size, dtype=bool)
        first[0] = True
        xp.not_equal(reached[1:], reached[:-1], out=first[1:])
        starts = xp.nonzero(first)[0]
        vertices = reached[starts]
        ends = xp.concatenate([starts[1:], xp.full(1, reached.size, dtype=starts.dtype)])
        remaining[vertices] -= ends - starts
        # Every unpeeled vertex within the threshold was in this wave, so the
        # next wave's vertices are among those whose degree just dropped.
        frontier = vertices[remaining[vertices] <= threshold]
    return Peeling(wave, remaining, threshold)


def a_direction(lo, hi, degree):
    """Return ``(src, dst)``: the edges ``lo < hi`` directed by A-direction.

    Parameters
    ----------
    lo, hi : integer arrays
        Undirected simple edges with ``lo < hi``.
    degree : integer array
        Undirected degree of every vertex.

    Returns
    -------
    src, dst : arrays
        Each edge once, from the lower rank ``(wave, remaining degree, id)`` to
        the higher; aligned with ``lo, hi`` (so edge values stay aligned too).
    """
    xp = module_of(lo)
    n = int(degree.size)
    peeling = peel(lo, hi, degree)
    # (wave, remaining degree) in one int64: remaining degrees are below n, and
    # waves * n stays below 2**63 wherever n**2 does. lo < hi breaks ties by id.
    rank = peeling.wave.astype(xp.int64) * n + peeling.remaining
    forward = rank[lo] <= rank[hi]
    return xp.where(forward, lo, hi), xp.where(forward, hi, lo)


def orientation_cost(out_degree, m, n):
    """The imbalance of an orientation: the paper's Equation 1.

    Parameters
    ----------
    out_degree : integer array
        Out-degree of every vertex after orientation.
    m, n : int
        Number of undirected edges and of vertices.

    Returns
    -------
    float
        ``sum over v of |out_degree(v) - m / n|`` (0.0 for an empty graph).
    """
    if n == 0:
        return 0.0
    xp = module_of(out_degree)
    return float(xp.abs(out_degree - m / n).sum())
