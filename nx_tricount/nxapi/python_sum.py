"""Python's built-in ``sum`` over float64 values, to the bit, in compiled code.

NetworkX averages coefficients with ``sum(c) / len(c)``. CPython adds floats
left to right before 3.12 and with Neumaier's compensated summation from 3.12 on
(``builtin_sum_impl`` in ``Python/bltinmodule.c``): the running sum ``t`` and a
compensation ``c`` that collects each addition's rounding error, added to the sum
at the end unless it is zero or not finite. Its start value, the int ``0``, adds
as ``0.0`` does. :func:`python_float_sum` runs the loop of the running
interpreter's rule in numba, so that a mean over millions of nodes needs no
Python float objects; without ``fastmath`` numba keeps IEEE order, operation
for operation. Values on the GPU are added slice by slice as they reach host
memory (:func:`~nx_tricount.gpu.transfers.host_slices`), the loop's state
carried from one slice to the next: the copy runs while the host adds.
"""

import math
import sys

import numpy as np
from numba import njit

__all__ = ["python_float_sum", "COMPENSATED", "BUILTIN_BELOW"]

#: Whether the running Python's ``sum`` of floats is compensated (3.12 and later).
COMPENSATED = sys.version_info >= (3, 12)

#: Fewer values are added by the built-in ``sum`` itself: its Python floats cost
#: less than numba's start-up in a process that has run no compiled function yet.
BUILTIN_BELOW = 1 << 17


@njit(cache=True)
def _left_to_right(values, total):
    for x in values:
        total += x
    return total


@njit(cache=True)
def _neumaier(values, total, compensation):
    """The running sum and compensation after ``values``; the compensation is
    added once, after the last value (:func:`_neumaier_end`)."""
    for x in values:
        t = total + x
        if abs(total) >= abs(x):
            compensation += (total - t) + x
        else:
            compensation += (x - t) + total
        total = t
    return total, compensation


def _neumaier_end(total, compensation):
    # CPython: keeps the sign of a negative zero and an infinite sum infinite.
    if compensation != 0.0 and math.isfinite(compensation):
        total += compensation
    return total


def python_float_sum(values, compensated=COMPENSATED):
    """``sum(values.tolist())`` as the running Python computes it.

    Parameters
    ----------
    values : numpy.ndarray or cupy.ndarray
        One-dimensional, float64.
    compensated : bool, optional
        CPython's rule from 3.12 on (Neumaier) or before it (left to right);
        the running interpreter's by default.

    Returns
    -------
    float or int
        The int ``0`` for no values, as ``sum([])``.
    """
    if type(values).__module__.startswith("cupy"):
        if values.size >= BUILTIN_BELOW:
            from ..gpu.transfers import host_slices

            return _sum_of_slices(host_slices(values.astype(np.float64, copy=False)), compensated)
        values = values.get()
    values = np.ascontiguousarray(values, dtype=np.float64)
    if values.size == 0:
        return 0
    if values.size < BUILTIN_BELOW and compensated == COMPENSATED:
        return sum(values.tolist())
    return _sum_of_slices([values], compensated)


def _sum_of_slices(slices, compensated):
    """The sum of the values of ``slices`` (NumPy float64 arrays) one after
    another, as one array's; the int ``0`` if there are none."""
    total, compensation, any_values = 0.0, 0.0, False
    for values in slices:
        any_values = any_values or values.size > 0
        if compensated:
            total, compensation = _neumaier(values, total, compensation)
        else:
            total = _left_to_right(values, total)
    if not any_values:
        return 0
    return float(_neumaier_end(total, compensation) if compensated else total)
