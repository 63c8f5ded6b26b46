"""python_float_sum is Python's own sum of floats, bit for bit, under both of
CPython's rules (left to right before 3.12, Neumaier's from it), with or without
the zeros; node_mean is NetworkX's ``sum(c) / len(c)``."""

import math
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from nx_tricount.nxapi import python_sum
from nx_tricount.nxapi.node_selection import node_mean
from nx_tricount.nxapi.python_sum import BUILTIN_BELOW, COMPENSATED, python_float_sum

FLOATS = st.floats(allow_nan=True, allow_infinity=True, width=64)
# Magnitudes far apart, where the two rules round differently.
SPREAD = st.sampled_from([1.0, 1e-16, 1e16, -1e16, 0.1, -0.0, 3.0, 1e308, -1e308, 5e-324])


def _bits(x):
    """The float's bits; any NaN as one: which of several NaN operands an addition
    passes on is left open by IEEE 754, and C compilers swap the operands of an
    addition (CPython's own sum gave NaNs of either payload on one input)."""
    if isinstance(x, float) and math.isnan(x):
        return b"nan"
    return struct.pack("<d", x) if isinstance(x, float) else x


def _neumaier_reference(values):
    """CPython 3.12's float loop of ``builtin_sum_impl``, started by ``0 + first``."""
    if not values:
        return 0
    total, compensation = 0 + values[0], 0.0
    for x in values[1:]:
        t = total + x
        if abs(total) >= abs(x):
            compensation += (total - t) + x
        else:
            compensation += (x - t) + total
        total = t
    if compensation and math.isfinite(compensation):
        total += compensation
    return total


def _left_to_right_reference(values):
    total = 0
    for x in values:
        total = total + x
    return total


@settings(deadline=None, max_examples=500)
@given(arrays(np.float64, st.integers(0, 60), elements=FLOATS | SPREAD))
def test_the_running_pythons_sum(values):
    assert _bits(python_float_sum(values)) == _bits(sum(values.tolist()))


@settings(deadline=None, max_examples=500)
@given(arrays(np.float64, st.integers(0, 60), elements=FLOATS | SPREAD))
def test_each_rule_of_cpython(values):
    listed = values.tolist()
    assert _bits(python_float_sum(values, compensated=True)) == _bits(_neumaier_reference(listed))
    assert _bits(python_float_sum(values, compensated=False)) == _bits(_left_to_right_reference(listed))


@settings(deadline=None, max_examples=300)
@given(arrays(np.float64, st.integers(1, 60), elements=FLOATS | SPREAD))
def test_the_compiled_loops_follow_each_rule(values):
    # Short arrays go to the built-in sum; the compiled loops take the long ones.
    listed = values.tolist()
    original, python_sum.BUILTIN_BELOW = python_sum.BUILTIN_BELOW, 0
    try:
        neumaier = python_float_sum(values, compensated=True)
        left_to_right = python_float_sum(values, compensated=False)
    finally:
        python_sum.BUILTIN_BELOW = original
    assert _bits(neumaier) == _bits(_neumaier_reference(listed))
    assert _bits(left_to_right) == _bits(_left_to_right_reference(listed))


@settings(deadline=None, max_examples=300)
@given(
    arrays(np.float64, st.integers(0, 60), elements=FLOATS | SPREAD),
    st.lists(st.integers(0, 60), max_size=4),
)
def test_a_sum_slice_by_slice_is_the_whole_arrays(values, cuts):
    # How a GPU array is added as it reaches host memory.
    pieces = np.split(values, sorted(min(c, values.size) for c in cuts))
    for compensated in (True, False):
        whole = python_sum._sum_of_slices([values], compensated)
        assert _bits(python_sum._sum_of_slices(pieces, compensated)) == _bits(whole)
        assert _bits(python_sum._sum_of_slices(pieces + [values[:0]], compensated)) == _bits(whole)


@pytest.mark.gpu
@pytest.mark.parametrize("size", [10, BUILTIN_BELOW + 3, 3 * BUILTIN_BELOW])
def test_a_gpu_arrays_sum_is_pythons(monkeypatch, size):
    # Large arrays are added slice by slice from the GPU: several slices here.
    import cupy

    from nx_tricount.gpu import transfers

    monkeypatch.setattr(transfers, "SLICE_BYTES", 1 << 16)
    rng = np.random.default_rng(size)
    values = rng.standard_normal(size) * rng.choice([1.0, 1e-16, 1e16], size)
    expected = sum(values.tolist())
    assert _bits(python_float_sum(cupy.asarray(values))) == _bits(expected)
    assert _bits(node_mean(cupy.asarray(values), True, size=size + 5)) == _bits(expected / (size + 5))


def test_long_arrays_take_the_compiled_loop():
    values = np.random.default_rng(7).standard_normal(BUILTIN_BELOW + 3) * 1e12
    assert _bits(python_float_sum(values)) == _bits(sum(values.tolist()))


def test_the_rules_differ_where_compensation_matters():
    values = np.array([1e16, 1.0, -1e16])
    assert python_float_sum(values, compensated=True) == 1.0
    assert python_float_sum(values, compensated=False) == 0.0
    assert python_float_sum(values) == (1.0 if COMPENSATED else 0.0)


def test_no_values_is_the_int_zero():
    result = python_float_sum(np.zeros(0))
    assert result == 0 and type(result) is int


def _networkx_mean(values, count_zeros):
    """NetworkX's average_clustering of coefficients ``values`` (a list)."""
    c = values if count_zeros else [v for v in values if abs(v) > 0]
    return sum(c) / len(c)


def _assert_mean_is_networkxs(values, count_zeros):
    listed = values.tolist()
    try:
        expected = _networkx_mean(listed, count_zeros)
    except ZeroDivisionError:
        with pytest.raises(ZeroDivisionError):
            node_mean(values, count_zeros)
        return
    assert _bits(node_mean(values, count_zeros)) == _bits(expected)


ZEROS = st.sampled_from([0.0, -0.0])


@settings(deadline=None, max_examples=300)
@given(arrays(np.float64, st.integers(0, 60), elements=FLOATS | SPREAD | ZEROS))
def test_zeros_change_neither_rules_sum(values):
    # What lets a GPU mean bring only the nonzero coefficients to host memory.
    listed, nonzero = values.tolist(), values[values != 0]
    for compensated, reference in ((True, _neumaier_reference), (False, _left_to_right_reference)):
        assert _bits(float(python_float_sum(nonzero, compensated))) == _bits(float(reference(listed)))


@settings(deadline=None, max_examples=300)
@given(arrays(np.float64, st.integers(0, 60), elements=FLOATS | SPREAD | ZEROS), st.booleans())
def test_the_mean_of_coefficients_is_networkxs(values, count_zeros):
    _assert_mean_is_networkxs(values, count_zeros)


@pytest.mark.parametrize("count_zeros", [True, False])
def test_the_mean_of_many_coefficients_with_zeros_is_networkxs(count_zeros):
    # Long enough for the compiled loop; zeros of both signs among large and tiny terms.
    rng = np.random.default_rng(11)
    values = rng.random(BUILTIN_BELOW * 2) * rng.choice([1.0, 1e-16, 1e16], BUILTIN_BELOW * 2)
    values[rng.random(values.size) < 0.6] = 0.0
    values[::7] = -0.0
    _assert_mean_is_networkxs(values, count_zeros)
    _assert_mean_is_networkxs(np.zeros(BUILTIN_BELOW * 2), count_zeros)
