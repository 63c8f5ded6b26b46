"""Preparing one oriented CSR on several workers together
(``preprocess/together.py``), on the CPU's NumPy workers: every worker's copy
is the CSR one worker prepares, array for array, for any edge list and any
number of workers; and the plan asks for it only where it applies.
tests/test_gpu_replicated.py runs it on GPUs."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nx_tricount.io.generators import rmat_edges
from nx_tricount.planning.preparing import together
from nx_tricount.planning.spread import Spread
from nx_tricount.preprocess import host_ops
from nx_tricount.preprocess.dedup import SENTINEL
from nx_tricount.preprocess.prepare import prepare_undirected
from nx_tricount.preprocess.streamed import STREAMED
from nx_tricount.preprocess.together import key_shares, prepare_together, range_splitters, row_bounds

ARRAYS = ("indptr", "indices", "rows", "degree")

#: Edge lists on EDGE_LIST_VERTICES ids: duplicates, both directions, self-loops,
#: isolated vertices, no edge at all.
EDGE_LIST_VERTICES = 13
EDGE_LISTS = st.lists(
    st.tuples(st.integers(0, EDGE_LIST_VERTICES - 1), st.integers(0, EDGE_LIST_VERTICES - 1)), max_size=60
)


def edge_arrays(edges):
    """``(src, dst)`` int32 arrays of an edge list of pairs."""
    return (np.array([u for u, _ in edges], dtype=np.int32), np.array([v for _, v in edges], dtype=np.int32))


def assert_same_csr(copies, whole):
    """Each copy equal to ``whole`` (values and dtypes); the first alone with its vertex map."""
    for g, copy in enumerate(copies):
        for name in ARRAYS:
            ours, theirs = getattr(copy, name), getattr(whole, name)
            assert ours.dtype == theirs.dtype, name
            np.testing.assert_array_equal(ours, theirs, err_msg=name)
        assert (copy.n, copy.orientation, copy.ordering) == (whole.n, whole.orientation, whole.ordering)
        assert copy.ascending == whole.ascending
        if g == 0 and whole.perm is not None:
            np.testing.assert_array_equal(copy.perm, whole.perm)
        else:
            assert copy.perm is None


@pytest.mark.parametrize("orientation, ordering", sorted(STREAMED))
@pytest.mark.parametrize("workers", [1, 2, 3, 5])
def test_every_worker_holds_the_csr_one_worker_prepares(orientation, ordering, workers):
    src, dst = rmat_edges(10, 8, seed=6)
    n = int(max(src.max(), dst.max())) + 1
    whole = prepare_undirected(src, dst, n, orientation=orientation, ordering=ordering)
    copies = prepare_together(
        src, dst, n, orientation=orientation, ordering=ordering, devices=["cpu"] * workers
    )
    assert len(copies) == workers and whole.m > 0
    assert_same_csr(copies, whole)


@settings(max_examples=60, deadline=None)
@given(
    edges=EDGE_LISTS,
    workers=st.integers(1, 4),
    preprocessing=st.sampled_from(sorted(STREAMED)),
)
def test_any_edge_list_on_any_number_of_workers(edges, workers, preprocessing):
    """Duplicates, both directions, self-loops, isolated vertices, no edge at all,
    and more workers than edges."""
    src, dst = edge_arrays(edges)
    orientation, ordering = preprocessing
    n = EDGE_LIST_VERTICES
    whole = prepare_undirected(src, dst, n, orientation=orientation, ordering=ordering)
    copies = prepare_together(
        src, dst, n, orientation=orientation, ordering=ordering, devices=["cpu"] * workers
    )
    assert_same_csr(copies, whole)


def test_rows_in_host_memory_are_cut_into_equal_slices():
    src, dst = rmat_edges(8, 4, seed=3)
    m = src.size
    assert row_bounds(src, dst, ("cpu",) * 3) == [0, m // 3, 2 * m // 3, m]
    assert row_bounds(src, dst, (0, 1)) == [0, m // 2, m]


def test_a_worker_keying_fewer_rows_sorts_a_smaller_range_of_keys():
    # It pulls more of its keys from the others; equal slices make equal ranges.
    shares = key_shares([0, 750, 1000])
    assert shares[0] > shares[1] and np.allclose(key_shares([0, 5, 10, 15]), key_shares([0, 5, 10, 15])[0])
    keys = np.arange(10_000, dtype=np.int64)
    (cut,) = range_splitters([keys], 2, shares)
    assert cut == int(keys.size * shares[0] / shares.sum())
    assert range_splitters([keys], 4, np.ones(4)) == range_splitters([keys], 4) == [2500, 5000, 7500]
    assert range_splitters([np.full(3, SENTINEL)], 3, shares[:1].repeat(3)) == [SENTINEL] * 2


def test_distinct_keys_graph_is_the_deduplication():
    src, dst = rmat_edges(8, 8, seed=2)
    n = int(max(src.max(), dst.max())) + 1
    keys = host_ops.edge_keys(src, dst, n)
    ours = host_ops.distinct_keys_graph(keys[::-1].copy(), n)
    theirs = host_ops.deduplicate(src, dst, n)
    for name in ("lo", "hi", "degree"):
        np.testing.assert_array_equal(getattr(ours, name), getattr(theirs, name))


def test_preprocessing_beyond_the_degrees_and_mixed_workers_are_refused():
    src = dst = np.zeros(1, dtype=np.int32)
    with pytest.raises(ValueError, match="cannot be prepared by several GPUs together"):
        prepare_together(src, dst, 1, orientation="a-direction", ordering="none", devices=["cpu"])
    with pytest.raises(ValueError, match="not a mix or none"):
        prepare_together(src, dst, 1, orientation="id", ordering="none", devices=["cpu", 0])
    with pytest.raises(ValueError, match="not a mix or none"):
        prepare_together(src, dst, 1, orientation="id", ordering="none", devices=[])


REPLICATED_ON_GPUS = Spread(executor="gpus", regime="replicated", shares=16, devices=(0, 1))


@pytest.mark.parametrize(
    "spread, orientation, ordering, simple_unweighted, pipeline",
    [
        (REPLICATED_ON_GPUS, "id", "degree", False, "sorted"),  # weighted or directed
        (REPLICATED_ON_GPUS, "id", "degree", True, "hashed"),  # one launch on one GPU
        (REPLICATED_ON_GPUS, "a-direction", "none", True, "sorted"),  # more than the degrees
        (REPLICATED_ON_GPUS, "id", "a-order", True, "sorted"),
        (Spread(executor="serial", regime="replicated", shares=8), "id", "degree", True, "sorted"),
        (Spread(executor="gpus", devices=(0, 1), parts=2), "id", "degree", True, "sorted"),
    ],
)
def test_the_plan_prepares_together_only_where_it_applies(
    spread, orientation, ordering, simple_unweighted, pipeline
):
    assert together(spread, orientation, ordering, simple_unweighted, pipeline) is spread
