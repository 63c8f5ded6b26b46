"""The build step that compiles the kernels ahead (nx_tricount/gpu/kernel_build.py).

The project's metadata is in pyproject.toml; this adds to setuptools' ``build_py``
the fatbins of ``kernels/*.cu``, compiled into ``kernels/_built`` (ignored by
git): an editable install finds them there, a wheel gets a copy. Whether they are
compiled: ``NX_TRICOUNT_BUILD_KERNELS`` (1: yes, 0: no, unset: when nvcc is found
and a GPU is present).
"""

import importlib.util
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
KERNELS = ROOT / "kernels"


def _kernel_build():
    """nx_tricount/gpu/kernel_build.py, loaded alone: the package's requirements
    (NetworkX, NumPy) need not be installed while it builds."""
    path = ROOT / "nx_tricount" / "gpu" / "kernel_build.py"
    spec = importlib.util.spec_from_file_location("_nx_tricount_kernel_build", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPyWithKernels(build_py):
    """``build_py``, then the kernels' fatbins."""

    def run(self):
        super().run()
        kernel_build = _kernel_build()
        built, message = kernel_build.build_at_install(KERNELS)
        print(f"nx-tricount: {message}", flush=True)
        if built is not None and not self.editable_mode:
            target = Path(self.build_lib) / "nx_tricount" / "kernels" / kernel_build.BUILT
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(built, target)


setup(cmdclass={"build_py": BuildPyWithKernels})
