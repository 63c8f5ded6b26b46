"""The seeded generators of the benchmarks' graph shapes: sizes, seeds, the
properties their docstrings promise, and clear errors for bad parameters."""

import numpy as np
import pytest

from nx_tricount.io.generators import chung_lu_edges, copying_edges


def test_chung_lu_sizes_seeds_and_ids():
    src, dst = chung_lu_edges(1000, 12, 2.5, seed=1)
    assert src.size == dst.size == 6000 and src.dtype == np.int64
    assert min(src.min(), dst.min()) >= 0 and max(src.max(), dst.max()) < 1000
    again = chung_lu_edges(1000, 12, 2.5, seed=1)
    assert np.array_equal(src, again[0]) and np.array_equal(dst, again[1])
    assert not np.array_equal(src, chung_lu_edges(1000, 12, 2.5, seed=2)[0])


def test_chung_lu_exponent_sets_the_tail():
    """A smaller exponent gives larger hubs; the hubs are not the smallest ids."""
    n = 20_000
    largest = {}
    for exponent in (2.1, 3.0):
        src, dst = chung_lu_edges(n, 16, exponent, seed=5)
        degree = np.bincount(np.concatenate([src, dst]), minlength=n)
        largest[exponent] = degree.max()
        assert degree.argmax() != 0
    assert largest[2.1] > 3 * largest[3.0]


def test_copying_links_copy_an_earlier_prototype():
    n, k = 500, 5
    src, dst = copying_edges(n, k, 0.0, seed=2)
    assert np.array_equal(src, np.repeat(np.arange(n), k))
    links = dst.reshape(n, k)
    assert (links[1:] < np.arange(1, n)[:, None]).all()  # every link goes to an earlier vertex
    prototype = links[1:, 0]
    # beta 0: every other link is the prototype's link of the same rank
    assert np.array_equal(links[1:, 1:], links[prototype, 1:])
    mixed = copying_edges(n, k, 0.5, seed=2)[1].reshape(n, k)
    assert not np.array_equal(mixed[1:, 1:], mixed[mixed[1:, 0], 1:])
    assert np.array_equal(copying_edges(n, k, 0.5, seed=2)[1], mixed.ravel())


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: chung_lu_edges(10, 4, 1.0), "exponent must be above 1"),
        (lambda: copying_edges(10, 3, 1.5), r"beta must lie in \[0, 1\]"),
        (lambda: copying_edges(10, 3, -0.1), r"beta must lie in \[0, 1\]"),
    ],
)
def test_bad_parameters_are_refused(call, match):
    with pytest.raises(ValueError, match=match):
        call()
