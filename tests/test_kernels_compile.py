"""Every ``kernels/*.cu`` compiles with nvcc for Hopper (sm_90), as NVRTC compiles
it at run time. A CPU test: it needs nvcc, not a GPU."""

import shutil
import subprocess
from pathlib import Path

import pytest

KERNELS = Path(__file__).resolve().parents[1] / "kernels"
SOURCES = sorted(KERNELS.glob("*.cu"))

#: The ``-D`` sets each file is compiled with: the default types, and for some the
#: other types the GPU engine builds (nx_tricount/runtime.py). The variants
#: compiled ahead at install time are nx_tricount/kernel_build.py's VARIANTS
#: (tests/test_kernel_build.py).
VARIANTS = {
    "wedge.cu": [[], ["-DVID=long long", "-DWEIGHT=long long", "-DEID=unsigned int"]],
    "merge.cu": [[], ["-DVID=long long", "-DWEIGHT=long long"]],
    "merge_inline.cu": [[], ["-DVID=long long", "-DWEIGHT=long long"]],
    "bitmap.cu": [[], ["-DVID=long long", "-DWEIGHT=long long"]],
    "hash.cu": [[], ["-DEID=unsigned int"], ["-DVID=long long", "-DWEIGHT=long long"]],
    "csr.cu": [[], ["-DVID=long long"]],
    "sample.cu": [[], ["-DVID=long long"]],
    "hashed_csr.cu": [[], ["-DVID=long long"]],
    "id_range.cu": [[], ["-DVID=long long"]],
    "transitive.cu": [[], ["-DVID=long long"]],
    "coefficients.cu": [[], ["-DWEIGHT=long long"]],
}

#: keys.cu as the preprocessing's ElementwiseKernels use it (their preamble):
#: arc_key instantiated over CuPy-like raw arrays of both id and degree dtypes.
PREAMBLE_USE = """
#include "keys.cu"
template <class T> struct Raw {
    T* data;
    __device__ T& operator[](long long i) const { return data[i]; }
};
template <class R, class D>
__device__ void keys_of(long long i, const long long* edge, R rank, D degree, long long* out) {
    long long u, v;
    unpack_key(edge[i], 10, u, v);
    out[i] = edge[i] == KEY_SENTINEL ? KEY_SENTINEL : arc_key(u, v, rank, degree, 1, 1, 10);
}
extern "C" __global__ void use(const long long* edge, int* r32, long long* r64, long long* d64,
                               unsigned long long* du, long long* out) {
    long long i = threadIdx.x;
    keys_of(i, edge, Raw<int>{r32}, Raw<long long>{d64}, out);
    keys_of(i, edge, Raw<long long>{r64}, Raw<unsigned long long>{du}, out);
    out[i] += pack_key(i, i, 3000000000LL);
}
"""


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not on PATH")
def test_kernels_compile_for_sm90(tmp_path):
    assert {p.name for p in SOURCES} >= {
        "wedge.cu", "merge.cu", "edge.cu", "vertex.cu", "hash.cu", "bitmap.cu"
    }
    preamble_use = tmp_path / "preamble_use.cu"
    preamble_use.write_text(PREAMBLE_USE)
    jobs = []
    for source in [*SOURCES, preamble_use]:
        for defines in VARIANTS.get(source.name, [[]]):
            cubin = tmp_path / f"{source.stem}-{len(jobs)}.cubin"
            command = ["nvcc", "-arch=sm_90", "-std=c++17", "-cubin", f"-I{KERNELS}", *defines]
            command += ["-o", str(cubin)]
            # All compilations at once: the test takes as long as the slowest one.
            process = subprocess.Popen(
                [*command, str(source)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
            )
            jobs.append((source.name, defines, process))
    failures = []
    for name, defines, process in jobs:
        output, _ = process.communicate(timeout=300)
        if process.returncode != 0 or "warning" in output:
            failures.append(f"{name} {defines}:\n{output}")
    assert not failures, "\n".join(failures)


def test_compile_options_change_when_an_included_file_changes(tmp_path):
    """Regression: CuPy's disk cache keys a kernel binary by the compiled file's
    text and the options only. A changed ``common.cu`` beside an unchanged
    ``wedge.cu`` must change the options, or a new version of the package would
    load a binary built from the old ``common.cu``."""
    from nx_tricount import kernel_build

    for name in ("common.cu", "wedge.cu"):
        (tmp_path / name).write_text((KERNELS / name).read_text())
    defines = (("VID", "int"), ("WEIGHT", "double"))
    before = kernel_build.compile_options(tmp_path, defines)
    assert before == kernel_build.compile_options(tmp_path, defines)
    (tmp_path / "common.cu").write_text((KERNELS / "common.cu").read_text() + "\n// changed\n")
    after = kernel_build.compile_options(tmp_path, defines)
    assert after != before
    assert "-DVID=int" in after and f"-I{tmp_path}" in after
    digest_macro = after[2].removeprefix("-D")
    assert digest_macro.isidentifier()
