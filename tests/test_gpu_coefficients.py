"""The clustering coefficients on the GPU (kernels/coefficients.cu) are NumPy's to
the bit: the float64 division of the numerator ``2 sums`` by the undirected or
directed denominator, 0.0 where the numerator is 0, for integer and float sums
(run on a GPU machine)."""

import numpy as np
import pytest

from nx_tricount.algorithms.coefficients import from_sums

pytestmark = pytest.mark.gpu


def _terms(dtype, directed, seed, n=5000):
    """Sums, degrees and reciprocal pairs (None undirected) as the counts give
    them: zeros, degrees up to 2^30 (denominators above 2^53), sums up to the
    vertex's pairs of neighbours and, for float sums, signed zeros, negative
    sums (negative weights), a subnormal, NaN and infinities (a zero largest
    weight)."""
    rng = np.random.default_rng(seed)
    degree = rng.integers(0, 50, n)
    degree[::97] = rng.integers(1 << 27, 1 << 30, degree[::97].size)
    degree[:6] = 10
    reciprocal = rng.integers(0, degree // 2 + 1) if directed else None
    # At most one triangle per pair of neighbours (less the reciprocal pairs'):
    # a nonzero numerator has a positive denominator.
    pairs = degree * (degree - 1) // 2 - (reciprocal if directed else 0)
    if dtype == np.int64:
        sums = rng.integers(0, pairs + 1)
    else:
        sums = rng.random(n) * pairs * rng.choice([1.0, -1.0, 1e-300], n)
    sums[rng.random(n) < 0.3] = 0
    if dtype == np.float64:
        sums[:6] = [-0.0, 0.0, np.nan, np.inf, -np.inf, 5e-324]
    return sums.astype(dtype), degree, reciprocal


@pytest.mark.parametrize("dtype", [np.int64, np.float64])
@pytest.mark.parametrize("directed", [False, True])
def test_gpu_coefficients_are_numpys(dtype, directed):
    import cupy

    sums, degree, reciprocal = _terms(dtype, directed, seed=int(directed))
    expected_ratio, expected_nonzero = from_sums(sums, degree, reciprocal)
    on_gpu = [None if a is None else cupy.asarray(a) for a in (sums, degree, reciprocal)]
    ratio, nonzero = (cupy.asnumpy(a) for a in from_sums(*on_gpu))
    assert ratio.dtype == np.float64 and nonzero.dtype == bool
    np.testing.assert_array_equal(nonzero, expected_nonzero)
    np.testing.assert_array_equal(ratio, expected_ratio)  # NaN where NumPy has NaN
    numbers = ~np.isnan(expected_ratio)
    assert np.array_equal(ratio[numbers].view(np.int64), expected_ratio[numbers].view(np.int64))


def test_gpu_coefficients_of_no_vertex():
    import cupy

    empty = cupy.zeros(0, dtype=np.int64)
    ratio, nonzero = from_sums(empty, empty)
    assert ratio.shape == nonzero.shape == (0,)


def test_gpu_coefficients_reject_other_dtypes():
    import cupy

    degree = cupy.ones(3, dtype=np.int64)
    with pytest.raises(TypeError, match="sums must be int64 or float64 on the GPU, got int32"):
        from_sums(cupy.ones(3, dtype=np.int32), degree)
    with pytest.raises(TypeError, match="degree must be int64 on the GPU, got int32"):
        from_sums(cupy.ones(3, dtype=np.int64), degree.astype(np.int32))


def test_the_mean_of_gpu_coefficients_is_the_hosts():
    # Only the coefficients the mask marks come to host memory: the mean is the same.
    import cupy

    from nx_tricount.nxapi.node_selection import node_mean
    from nx_tricount.quantities.per_vertex import mean_terms

    sums, degree, _ = _terms(np.float64, False, 5, n=400_000)
    ratio = np.nan_to_num(sums / np.maximum(degree, 1), nan=0.0, posinf=0.0, neginf=0.0)
    nonzero = (sums != 0) | (np.arange(ratio.size) % 3 == 0)  # and some zeros: added as no-ops
    terms = mean_terms(cupy.asarray(ratio), cupy.asarray(nonzero))
    assert terms.tolist() == ratio[nonzero].tolist()
    on_gpu = node_mean(terms, True, size=ratio.size)
    assert np.float64(on_gpu).tobytes() == np.float64(node_mean(ratio, True)).tobytes()
