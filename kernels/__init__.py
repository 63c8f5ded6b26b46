"""CUDA C sources of the counting kernels, compiled at first use by
``nx_tricount.runtime`` (``cupy.RawModule``)."""
