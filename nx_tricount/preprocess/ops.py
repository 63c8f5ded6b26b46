"""The seam between the CPU and the GPU preprocessing: :func:`ops_for` picks,
once per call, the module of primitives for an array.

:mod:`.host_ops` (NumPy) is the reference; :mod:`.gpu_ops` (CuPy) has the same
functions with the same signatures and results, in fewer launches
(tests/test_gpu_preprocess.py compares them). The shared steps (simplify,
orientation, orderings, CSR) call ``ops.<function>`` and never branch on the
device. This seam stands above both modules: what they build on (the
deduplication, :mod:`.dedup`) takes the module from its caller instead.
"""

import functools

__all__ = ["ops_for"]


def ops_for(array):
    """:mod:`.host_ops` for a NumPy array, :mod:`.gpu_ops` for a CuPy one."""
    host_ops, gpu_ops = _modules()
    return gpu_ops if type(array).__module__.startswith("cupy") else host_ops


@functools.cache
def _modules():
    """The two modules, imported on first use (``host_ops`` imports numba); a
    call counting a small graph asks for them a dozen times, and each import
    statement costs host time."""
    from . import gpu_ops, host_ops

    return host_ops, gpu_ops
