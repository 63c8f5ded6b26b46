"""The seam between the CPU and the GPU preprocessing: :func:`ops_for` picks,
once per call, the module of primitives for an array.

:mod:`.host_ops` (NumPy) is the reference; :mod:`.gpu_ops` (CuPy) has the same
functions with the same signatures and results, in fewer launches
(tests/test_gpu_preprocess.py compares them). The shared steps (deduplication,
orientation, orderings, CSR) call ``ops.<function>`` and never branch on the
device.
"""

import numpy as np

from ..device import module_of

__all__ = ["ops_for"]


def ops_for(array):
    """:mod:`.host_ops` for a NumPy array, :mod:`.gpu_ops` for a CuPy one."""
    if module_of(array) is np:
        from . import host_ops

        return host_ops
    from . import gpu_ops

    return gpu_ops
