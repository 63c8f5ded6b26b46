"""The CPU preprocessing's counting sorts (preprocess/host_rows.py): the simple
graph and the oriented CSR they make equal, array for array and dtype for dtype,
those of the 64-bit key sorts they replace (dedup.deduplicated, csr_from_keys).
"""

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nx_tricount.io.generators import rmat_edges
from nx_tricount.preprocess import host_ops, host_rows, prepare_undirected
from nx_tricount.preprocess.csr import csr_from_keys
from nx_tricount.preprocess.dedup import deduplicated, index_dtype
from nx_tricount.preprocess.ordering import vertex_order
from nx_tricount.preprocess.orientation import arc_keys


def by_key_sorts(src, dst, n, orientation, ordering):
    """The simple graph and the CSR of the key sorts: ``(simple, indptr, indices, rows, perm)``."""
    simple = deduplicated(host_ops, src, dst, n)
    dtype = index_dtype(n)
    perm = vertex_order(ordering, simple.degree)
    perm = None if perm is None else perm.astype(dtype)
    keys, arcs = arc_keys(orientation, simple, perm)
    indptr, indices, rows, _ = csr_from_keys(keys, n, dtype, arcs=arcs)
    return simple, indptr, indices, rows, perm


def assert_same(expected, actual):
    assert actual.dtype == expected.dtype
    np.testing.assert_array_equal(actual, expected)


def assert_as_key_sorts(src, dst, n):
    simple = host_ops.deduplicate(src, dst, n)
    for orientation in ("id", "degree"):
        for ordering in ("none", "degree"):
            reference, indptr, indices, rows, perm = by_key_sorts(src, dst, n, orientation, ordering)
            for name in ("lo", "hi", "degree"):
                assert_same(getattr(reference, name), getattr(simple, name))
            prepared = prepare_undirected(src, dst, n, orientation=orientation, ordering=ordering)
            assert_same(indptr, prepared.indptr)
            assert_same(indices, prepared.indices)
            assert_same(rows, prepared.rows)
            if perm is None:
                assert prepared.perm is None
            else:
                assert_same(perm, prepared.perm)


#: Edge rows of up to 40 vertices, any order, repeats and self-loops allowed, ids of three dtypes.
EDGE_ROWS = dict(
    n=st.integers(1, 40),
    rows=st.lists(st.tuples(st.integers(0, 39), st.integers(0, 39)), max_size=200),
    dtype=st.sampled_from([np.int32, np.int64, np.uint32]),
)


@settings(max_examples=150, deadline=None)
@given(**EDGE_ROWS)
def test_the_counting_sorts_make_what_the_key_sorts_make(n, rows, dtype):
    pairs = np.array([(a % n, b % n) for a, b in rows], dtype=dtype).reshape(-1, 2)
    assert_as_key_sorts(np.ascontiguousarray(pairs[:, 0]), np.ascontiguousarray(pairs[:, 1]), n)


@pytest.mark.parametrize("threads", [1, 2])
def test_a_skewed_graph_over_several_blocks_and_spans(threads):
    # R-MAT's hubs make long rows beside short ones; its rows outnumber its
    # vertices, so the row count runs in several blocks.
    src, dst = rmat_edges(11, 16, seed=3)
    before = numba.get_num_threads()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        assert_as_key_sorts(src, dst, 1 << 11)
    finally:
        numba.set_num_threads(before)


def test_no_rows_and_only_self_loops():
    empty = np.zeros(0, dtype=np.int64)
    assert_as_key_sorts(empty, empty, 3)
    loops = np.array([0, 1, 1, 2])
    assert_as_key_sorts(loops, loops, 3)
    assert host_ops.deduplicate(loops, loops, 3).m == 0


@pytest.mark.parametrize("bad", [-1, 5])
def test_ids_outside_the_vertices_are_refused(bad):
    with pytest.raises(ValueError, match=r"vertex ids must be in 0\.\.4; 1 edge rows have others"):
        host_rows.distinct_pairs(np.array([0, bad, 1]), np.array([1, 2, 2]), 5, np.int32)


def test_rows_sorted_without_repeats_past_the_insertion_sort():
    # One row longer than the insertion sort takes, with repeats, and short ones.
    longest = host_rows.INSERTION_ROWS * 3
    first = np.concatenate([np.zeros(longest, dtype=np.int64), [2, 2, 2]])
    second = np.concatenate([np.arange(longest, dtype=np.int32)[::-1] % 30, np.array([7, 1, 7], np.int32)])
    indptr, values = host_rows.grouped_rows(first, second, 3, distinct=True)
    assert_same(np.array([0, 30, 30, 32], dtype=np.int64), indptr)
    assert_same(np.concatenate([np.arange(30, dtype=np.int32), np.array([1, 7], np.int32)]), values)
    indptr, values = host_rows.grouped_rows(first, second, 3, distinct=False)
    assert_same(np.array([0, longest, longest, longest + 3], dtype=np.int64), indptr)
    assert_same(np.sort(second[:longest]), values[:longest])


@settings(max_examples=100, deadline=None)
@given(**EDGE_ROWS)
def test_rows_already_in_row_order_are_the_simple_graph(n, rows, dtype):
    # Distinct edges lo < hi sorted by (lo, hi): the simple graph is the rows
    # themselves, copied, with the degrees of one pass; the key sorts agree.
    pairs = sorted({(min(a % n, b % n), max(a % n, b % n)) for a, b in rows if a % n != b % n})
    src = np.array([a for a, _ in pairs], dtype=dtype)
    dst = np.array([b for _, b in pairs], dtype=dtype)
    degree = host_rows.in_row_order(src, dst, n)
    assert_same(np.bincount(np.concatenate([src, dst]).astype(np.int64), minlength=n), degree)
    assert_as_key_sorts(src, dst, n)
    simple = host_ops.deduplicate(src, dst, n)
    assert not np.shares_memory(simple.lo, src) and not np.shares_memory(simple.hi, dst)


@pytest.mark.parametrize(
    "src, dst",
    [
        ([0, 1], [1, 1]),  # a self-loop
        ([0, 0], [1, 1]),  # a repeat
        ([0, 2], [1, 1]),  # a row from the higher id
        ([1, 0], [2, 1]),  # rows out of order
        ([0, 0], [2, 1]),  # a row's second ids out of order
        ([0, 1], [1, 3]),  # an id outside 0..2
        ([-1, 0], [1, 1]),  # a negative id
    ],
)
def test_rows_out_of_row_order_go_through_the_counting_sorts(src, dst):
    src, dst = np.array(src), np.array(dst)
    assert host_rows.in_row_order(src, dst, 3) is None
    if src.min() >= 0 and dst.max() < 3:
        assert_as_key_sorts(src, dst, 3)
