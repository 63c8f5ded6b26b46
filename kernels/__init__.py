"""CUDA C sources of the counting kernels, compiled at first use by
``nx_tricount.algorithms.gpu`` (``cupy.RawModule``)."""
