"""The bottom layer: where a count runs (:mod:`.device`: CuPy on the GPU or
NumPy on the CPU), the CUDA kernels of ``kernels/*.cu`` loaded and launched
(:mod:`.runtime`) or compiled ahead at install time (:mod:`.kernel_build`),
copies between host memory and the GPU (:mod:`.transfers`), and the GPU errors
and the one boundary of a call that raises them (:mod:`.errors`)."""
