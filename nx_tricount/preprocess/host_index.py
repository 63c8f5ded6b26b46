"""The array index of the CPU's numba kernels, preprocessing and counts alike.

numba checks every signed index for a negative value, which counts from the
end; in the kernels' loops those checks took a fifth to a half of the time
(docs/algorithms.md, "CPU engine (numba)"). :func:`at` casts an index that is
never negative to an unsigned integer, which numba does not check.
"""

import numpy as np
from numba import njit

__all__ = ["at"]


@njit(cache=True, inline="always")
def at(i):
    """The array index ``i``, never negative, as an unsigned integer. Only
    finished indexes are cast: numba adds an unsigned and a signed integer in
    float64."""
    return np.uint64(i)
