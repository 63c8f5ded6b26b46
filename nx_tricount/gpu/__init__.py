"""The bottom layer: where a count runs (:mod:`.device`: CuPy on the GPU or
NumPy on the CPU), the CUDA kernels of ``kernels/*.cu`` loaded and launched
(:mod:`.runtime`) or compiled ahead at install time (:mod:`.kernel_build`), and
large copies between host memory and the GPU (:mod:`.transfers`)."""
