"""Staged copies between host memory and the GPU (``nx_tricount/gpu/transfers.py``):
every byte arrives, whatever the size, dtype and layout."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nx_tricount.gpu import transfers
from subprocesses import run_python


@settings(max_examples=30, deadline=None)
@given(size=st.integers(0, 3 << 20), offset=st.integers(0, 7))
def test_parallel_copy_copies_every_byte(size, offset):
    source = np.random.default_rng(size).integers(0, 256, size + offset, dtype=np.uint8)[offset:]
    target = np.zeros(size, dtype=np.uint8)
    transfers.parallel_copy(source, target)
    assert np.array_equal(source, target)


COPIES_FROM_THREADS = """
        import threading
        import numpy as np
        from nx_tricount.gpu import transfers
        sources = [np.random.default_rng(seed).integers(0, 1 << 40, 1 << 20) for seed in range(4)]
        for _ in range(10):
            targets = [np.zeros_like(source) for source in sources]
            pairs = zip(sources, targets)
            threads = [threading.Thread(target=transfers.parallel_copy, args=pair) for pair in pairs]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert all(np.array_equal(source, target) for source, target in zip(sources, targets))
        import numba
        print("copied with", numba.threading_layer(), "together", transfers._copies_together)
    """


@pytest.mark.parametrize("layer, together", [("workqueue", False), ("omp", True)])
def test_copies_from_several_threads_at_once(layer, together):
    """The threads of several GPUs copy at the same time. numba's workqueue
    threading layer aborts the process on parallel code run from two threads at
    once (checked: without the copies' lock this run aborts), so there they take
    turns; under OpenMP they copy together."""
    returncode, stdout, stderr = run_python(COPIES_FROM_THREADS, NUMBA_THREADING_LAYER=layer)
    assert returncode == 0, stderr
    assert f"copied with {layer} together {together}" in stdout


@pytest.fixture
def small_stages(monkeypatch):
    """Staging buffers of 1 MiB (new ones, for this test only), staged from 64 KiB:
    arrays of a few MiB cross in several slices."""
    monkeypatch.setattr(transfers, "STAGE_BYTES", 1 << 20)
    monkeypatch.setattr(transfers, "STAGED_MIN_BYTES", 1 << 16)
    monkeypatch.setattr(transfers, "_staging", {})


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float64, np.uint8])
@pytest.mark.parametrize("nbytes", [0, 1000, 1 << 16, 1 << 20, (3 << 20) + 8, 5 << 20])
def test_round_trip_through_the_stages(small_stages, dtype, nbytes):
    import cupy

    host = np.random.default_rng(nbytes).integers(0, 100, nbytes // np.dtype(dtype).itemsize).astype(dtype)
    device = transfers.to_gpu(host)
    assert isinstance(device, cupy.ndarray) and device.dtype == host.dtype
    assert np.array_equal(device.get(), host)
    back = transfers.to_cpu(device)
    assert isinstance(back, np.ndarray) and np.array_equal(back, host)


@pytest.mark.gpu
def test_strided_and_two_dimensional_arrays(small_stages):
    import cupy

    host = np.arange(3 << 18, dtype=np.int64).reshape(-1, 4)
    assert np.array_equal(transfers.to_gpu(host[:, 1]).get(), host[:, 1])
    assert np.array_equal(transfers.to_cpu(cupy.asarray(host)[::2]), host[::2])
    assert transfers.to_cpu(cupy.asarray(host)).shape == host.shape


@pytest.mark.gpu
def test_zero_dimensional_arrays_stay_zero_dimensional():
    import cupy

    assert transfers.to_gpu(np.int64(7)).shape == () and transfers.to_cpu(cupy.asarray(7)).shape == ()
    assert transfers.to_cpu(cupy.asarray(7)) == 7


@pytest.mark.gpu
def test_an_upload_is_read_on_the_current_stream_after_its_host_array_changed(small_stages):
    """``to_gpu`` returns once it has read the host array, before its last slices
    have crossed: the work queued next on the current stream (here a stream of
    its own) reads the values the array had, though the host overwrote them."""
    import cupy

    for step in range(5):
        host = np.arange(5 << 17, dtype=np.int64) * (step + 3)
        expected = host.copy()
        with cupy.cuda.Stream(non_blocking=True) as stream:
            device = transfers.to_gpu(host)
            host[:] = -1
            doubled = device * 2
            assert np.array_equal(doubled.get(stream=stream), expected * 2)


@pytest.mark.gpu
def test_a_download_waits_for_the_work_that_writes_it(small_stages):
    """The copy stream waits for the current stream: the download of an array
    still being computed reads its final values."""
    import cupy

    for _ in range(5):
        values = cupy.arange(1 << 20, dtype=np.int64)
        values = cupy.cumsum(values * 3 + 1)
        assert np.array_equal(transfers.to_cpu(values), np.cumsum(np.arange(1 << 20) * 3 + 1))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.int32, np.float64])
@pytest.mark.parametrize("size", [0, 1, 1000, (1 << 18) + 5])
def test_host_slices_hand_over_every_value_in_order(small_stages, dtype, size):
    """Read slice by slice (each a view, copied before the next is asked for),
    the values are the array's; the slices are the size asked for, the last one
    the rest, and the copy waits for the work that writes the array."""
    import cupy

    values = cupy.cumsum(cupy.arange(size, dtype=np.int64) * 3 + 1).astype(dtype)
    slices = [piece.copy() for piece in transfers.host_slices(values, slice_bytes=4096)]
    step = 4096 // np.dtype(dtype).itemsize
    assert [piece.size for piece in slices] == [min(step, size - s) for s in range(0, size, step)]
    assert all(piece.dtype == dtype for piece in slices)
    joined = np.concatenate(slices) if slices else np.zeros(0, dtype=dtype)
    assert np.array_equal(joined, np.cumsum(np.arange(size, dtype=np.int64) * 3 + 1).astype(dtype))
