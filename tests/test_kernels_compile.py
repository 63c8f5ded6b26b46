"""Every ``kernels/*.cu`` compiles with nvcc for Hopper (sm_90), as NVRTC compiles
it at run time. A CPU test: it needs nvcc, not a GPU."""

import shutil
import subprocess
from pathlib import Path

import pytest

KERNELS = Path(__file__).resolve().parents[1] / "kernels"
SOURCES = sorted(KERNELS.glob("*.cu"))

#: The ``-D`` sets each file is compiled with: the default types, and for some the
#: other types the GPU engine builds (nx_tricount/gpu/runtime.py). The variants
#: compiled ahead at install time are nx_tricount/gpu/kernel_build.py's VARIANTS
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
    "compensated.cu": [[], ["-DWEIGHT=long long"]],
    "edge_rows.cu": [[], ["-DVID=long long"]],
    "edge_values.cu": [[], ["-DVID=long long", "-DWEIGHT=long long"]],
    "squares.cu": [[], ["-DVID=long long"]],
    "work.cu": [[], ["-DVID=long long"]],
}


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not on PATH")
def test_kernels_compile_for_sm90(tmp_path):
    assert {p.name for p in SOURCES} >= {
        "wedge.cu",
        "merge.cu",
        "edge.cu",
        "vertex.cu",
        "hash.cu",
        "bitmap.cu",
    }
    jobs = []
    for source in SOURCES:
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
    from nx_tricount.gpu import kernel_build

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


def test_the_range_cuts_fill_as_many_ranges_a_launch_as_their_kernels_count():
    # keys_by_range launches RANGES_PER_LAUNCH ranges at once; the kernels size
    # their per-thread counters by their own #define: the two must agree.
    import re

    from nx_tricount.preprocess.gpu_rows import RANGES_PER_LAUNCH

    source = (KERNELS / "edge_rows.cu").read_text()
    assert re.search(r"^#define RANGES_PER_LAUNCH (\d+)$", source, re.M).group(1) == str(RANGES_PER_LAUNCH)
