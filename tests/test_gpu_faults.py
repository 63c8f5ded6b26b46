"""Failures on the GPU and interruptions: the backend's errors, and the process
usable afterwards (out of memory in any step, a failed launch, repeated calls,
Ctrl-C). The Ctrl-C test also runs on the CPU, in CI."""

import gc
import os
import signal
import subprocess
import sys
import textwrap
import types

import numpy as np
import pytest

import nx_tricount
from nx_tricount.gpu import runtime
from nx_tricount.gpu.errors import GPUKernelError, GPUMemoryError, gpu_errors
from nx_tricount.io.generators import rmat_edges


def _cupy():
    import cupy

    return cupy


def _rmat_on_gpu(scale, seed=1):
    cp = _cupy()
    src, dst = rmat_edges(scale, seed=seed)
    return nx_tricount.from_edges(cp.asarray(src), cp.asarray(dst), n=1 << scale), (src, dst)


_CALLS = {
    "triangles": lambda G, device: nx_tricount.triangles(G, device=device),
    "clustering": lambda G, device: nx_tricount.clustering(G, device=device),
    "transitivity": lambda G, device: nx_tricount.transitivity(G, device=device),
    "weighted": lambda G, device: nx_tricount.clustering(G, weight="weight", device=device),
}


class _FailingAllocator:
    """CuPy's allocator that counts its calls and fails the ``fail_at``-th (0: none)."""

    def __init__(self, fail_at=0):
        self.calls, self.fail_at = 0, fail_at
        self.pool = _cupy().get_default_memory_pool()

    def __call__(self, size):
        self.calls += 1
        if self.calls == self.fail_at:
            raise _cupy().cuda.memory.OutOfMemoryError(size, 0, 0)
        return self.pool.malloc(size)


@pytest.mark.gpu
@pytest.mark.parametrize("function", list(_CALLS))
def test_out_of_memory_in_any_step_is_the_backends_error(function):
    cp = _cupy()
    pool = cp.get_default_memory_pool()
    call = _CALLS[function]
    src, dst = rmat_edges(14, seed=2)
    weight = np.random.default_rng(0).random(src.size)
    expected = call(nx_tricount.from_edges(src, dst, n=1 << 14, weight=weight), "cpu")

    def fresh():
        return nx_tricount.from_edges(cp.asarray(src), cp.asarray(dst), n=1 << 14, weight=cp.asarray(weight))

    def run(allocator):
        G = fresh()
        cp.cuda.set_allocator(allocator)
        try:
            return call(G, "gpu")
        finally:
            cp.cuda.set_allocator(pool.malloc)

    run(pool.malloc)  # the first GPU call of the process: kernels loaded, one-time buffers made
    counting = _FailingAllocator()
    run(counting)  # a whole call, compiled and warm: how many allocations it makes
    assert counting.calls > 3
    # Fail the first allocation, the last, and every one in between in steps: each
    # step of the call (preprocessing, counting, the result) meets one.
    for fail_at in sorted({1, counting.calls, *range(1, counting.calls, max(1, counting.calls // 12))}):
        with pytest.raises(GPUMemoryError, match="device='cpu'"):
            run(_FailingAllocator(fail_at))
    # The pool serves the next call, which gives the CPU's answer.
    got = run(pool.malloc)
    if function == "weighted":
        assert got.keys() == expected.keys()
        np.testing.assert_allclose(list(got.values()), list(expected.values()), rtol=1e-12)
    else:
        assert got == expected


@pytest.mark.gpu
def test_a_failed_launch_is_the_backends_error_and_the_next_call_works(monkeypatch):
    G, (src, dst) = _rmat_on_gpu(12)
    launch = runtime.launch

    def oversized(kernel, items, args, **options):
        options["shared_mem"] = 1 << 30  # more shared memory than any GPU has
        return launch(kernel, items, args, **options)

    monkeypatch.setattr(runtime, "launch", oversized)
    with pytest.raises(GPUKernelError, match="CUDA error while"):
        nx_tricount.transitivity(G, device="gpu", algorithm="merge")
    monkeypatch.setattr(runtime, "launch", launch)
    expected = nx_tricount.transitivity(nx_tricount.from_edges(src, dst, n=1 << 12), device="cpu")
    assert nx_tricount.transitivity(G, device="gpu", algorithm="merge") == expected


def _resident_set_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.gpu
def test_repeated_calls_grow_neither_gpu_nor_host_memory():
    cp = _cupy()
    G, _ = _rmat_on_gpu(14)
    pool, pinned = cp.get_default_memory_pool(), cp.get_default_pinned_memory_pool()
    for _ in range(10):  # warm-up: compilation, the graph's cache, the pools
        nx_tricount.triangles(G, device="gpu")
        nx_tricount.clustering(G, device="gpu")
    # Cyclic garbage of the tests this process ran before (under pytest-xdist, many),
    # and the GPU arrays it holds, is collected before each measurement, never by
    # chance inside the loop.
    gc.collect()
    device_used, pinned_free = pool.used_bytes(), pinned.n_free_blocks()
    host = _resident_set_bytes()
    for _ in range(100):
        nx_tricount.triangles(G, device="gpu")
        nx_tricount.clustering(G, device="gpu")
    gc.collect()
    assert pool.used_bytes() == device_used, (pool.used_bytes(), device_used)
    assert pinned.n_free_blocks() <= pinned_free + 1, (pinned.n_free_blocks(), pinned_free)
    grown = _resident_set_bytes() - host
    assert grown < 32 << 20, grown  # allocator noise, not a leak


_INTERRUPTED = """
import signal, sys, threading
# Python's Ctrl-C handler, which it leaves out where SIGINT came ignored: a shell
# without job control starts background jobs so (the test hung when CI ran that way).
signal.signal(signal.SIGINT, signal.default_int_handler)
import numpy as np
import nx_tricount
from nx_tricount.io.generators import rmat_edges

device = sys.argv[1]
src, dst = rmat_edges(16, seed=1)
if device == "gpu":
    import cupy
    src, dst = cupy.asarray(src), cupy.asarray(dst)
expected = nx_tricount.transitivity(nx_tricount.from_edges(src, dst), device=device)
try:  # "ready" is printed inside: the signal may land as soon as it is read
    print("ready", flush=True)
    while True:  # a long count: counts of fresh graphs until interrupted
        nx_tricount.transitivity(nx_tricount.from_edges(src, dst), device=device)
except KeyboardInterrupt:
    pass
assert nx_tricount.transitivity(nx_tricount.from_edges(src, dst), device=device) == expected
print("usable", flush=True)
"""


@pytest.mark.parametrize("device", ["cpu", pytest.param("gpu", marks=pytest.mark.gpu)])
def test_ctrl_c_during_a_count_leaves_the_process_usable(device):
    process = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(_INTERRUPTED), device],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout.readline().strip() == "ready"
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert out.strip() == "usable"


def _fake_cupy():
    """The parts of CuPy that ``gpu_errors`` reads: its error types and memory pool."""

    class OutOfMemoryError(MemoryError):
        pass

    class CUDAError(Exception):
        pass

    class CompileException(Exception):
        pass

    cuda = types.SimpleNamespace(
        memory=types.SimpleNamespace(OutOfMemoryError=OutOfMemoryError),
        compiler=types.SimpleNamespace(CompileException=CompileException),
        driver=types.SimpleNamespace(CUDADriverError=CUDAError),
        runtime=types.SimpleNamespace(CUDARuntimeError=CUDAError),
    )
    pool = types.SimpleNamespace(free_all_blocks=lambda: None)
    return types.SimpleNamespace(cuda=cuda, get_default_memory_pool=lambda: pool)


def test_gpu_errors_translates_only_gpu_failures(monkeypatch):
    cupy = _fake_cupy()
    monkeypatch.setitem(sys.modules, "cupy", cupy)
    cases = [
        (cupy.cuda.memory.OutOfMemoryError("out of memory"), GPUMemoryError),
        (MemoryError("std::bad_alloc"), GPUMemoryError),  # a Thrust sort's
        (MemoryError("Unable to allocate 8.0 GiB for an array"), MemoryError),  # NumPy's
        (cupy.cuda.driver.CUDADriverError("illegal address"), GPUKernelError),
        (cupy.cuda.compiler.CompileException("syntax error"), GPUKernelError),
        (ValueError("not a GPU failure"), ValueError),
    ]
    for raised, expected in cases:
        with pytest.raises(expected) as caught, gpu_errors("testing"):
            raise raised
        assert caught.type is expected
        assert caught.value is raised or caught.value.__cause__ is raised
    with gpu_errors("testing"):
        pass  # no exception: nothing to translate


def test_gpu_errors_leaves_everything_alone_without_cupy(monkeypatch):
    monkeypatch.delitem(sys.modules, "cupy", raising=False)
    with pytest.raises(MemoryError) as caught, gpu_errors("testing"):
        raise MemoryError("std::bad_alloc")
    assert caught.type is MemoryError
