"""Every ``kernels/*.cu`` compiles with nvcc for Hopper (sm_90), as NVRTC compiles
it at run time. A CPU test: it needs nvcc, not a GPU."""

import shutil
import subprocess
from pathlib import Path

import pytest

KERNELS = Path(__file__).resolve().parents[1] / "kernels"
SOURCES = sorted(KERNELS.glob("*.cu"))

#: The ``-D`` sets each file is compiled with: the default types, and for some the
#: other types the GPU engine builds (nx_tricount/runtime.py).
VARIANTS = {
    "wedge.cu": [[], ["-DVID=long long", "-DWEIGHT=long long", "-DEID=unsigned int"]],
    "merge.cu": [[], ["-DVID=long long", "-DWEIGHT=long long"]],
    "bitmap.cu": [[], ["-DVID=long long", "-DWEIGHT=long long"]],
    "hash.cu": [[], ["-DVID=long long", "-DWEIGHT=long long"]],
}


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not on PATH")
def test_kernels_compile_for_sm90(tmp_path):
    assert {p.name for p in SOURCES} >= {
        "wedge.cu", "merge.cu", "edge.cu", "vertex.cu", "hash.cu", "bitmap.cu"
    }
    jobs = []
    for source in SOURCES:
        for defines in VARIANTS.get(source.name, [[]]):
            cubin = tmp_path / f"{source.stem}-{len(jobs)}.cubin"
            command = ["nvcc", "-arch=sm_90", "-std=c++17", "-cubin", *defines, "-o", str(cubin)]
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
