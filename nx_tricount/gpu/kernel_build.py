"""The kernels of ``kernels/*.cu`` compiled ahead: fatbins built with nvcc when
the package is installed, and the check that one fits the running GPU and the
sources of today.

NVRTC compiles a kernel file at its first use in a process (:mod:`.runtime`),
and a fresh install, whose CuPy cache is empty, waits for it on its first GPU
call. ``setup.py`` calls :func:`build_at_install`, which with nvcc and a GPU
present (or ``NX_TRICOUNT_BUILD_KERNELS=1``) compiles every variant of
:data:`VARIANTS` for the common architectures, with the PTX of the newest for
later GPUs, into ``kernels/_built``, beside a manifest holding the digest of the
sources. :func:`prebuilt` gives the runtime a fatbin only where that digest is
the sources' own and the fatbin runs on the GPU; otherwise NVRTC compiles, as
without a build.

Standard library only: ``setup.py`` loads this file alone, before the package's
requirements are installed.
"""

import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

__all__ = [
    "BUILT",
    "ARCHS",
    "NVCC_OPTIONS",
    "VARIANTS",
    "KernelBuildError",
    "sources_digest",
    "compile_options",
    "defines",
    "variants",
    "fatbin_name",
    "find_nvcc",
    "buildable_archs",
    "build",
    "build_at_install",
    "prebuilt",
]

#: Folder of the fatbins and their manifest inside the kernels' directory.
BUILT = "_built"

#: Architectures built, where the installed nvcc has them: Ampere (the kernels'
#: warp reductions, ``__reduce_add_sync``, need sm_80) to Blackwell. A binary runs
#: on later GPUs of its major version (sm_86 on sm_87), and the newest one's PTX
#: is compiled by the driver for GPUs newer than all of them.
ARCHS = (80, 86, 89, 90, 100, 120)

#: nvcc's options besides the includes and macros: those of the NVRTC path
#: (C++17 from :func:`compile_options`, flush-to-zero from CuPy).
NVCC_OPTIONS = ("-std=c++17", "-ftz=true")

_INT, _LONG, _UNSIGNED, _DOUBLE = "int", "long long", "unsigned int", "double"

#: The variants built ahead, per kernel file: each ``-D`` macro's values, as the
#: GPU engine asks for them on graphs under 2^31 vertices and arcs (int vertex
#: ids in the CSR, unsigned positions). Files that read the input's ids take
#: int and long long ids; the counting kernels' weighted sums take float64 and
#: int64 arc values, as the clustering coefficients and the rounding of the
#: compensated sums take their sums, and the directed pairs their values. A larger
#: graph's 64-bit variants compile with NVRTC at first use, a small part of that
#: graph's count.
VARIANTS = {
    **{
        name: {}
        for name in (
            "csr.cu",
            "distinct.cu",
            "listing.cu",
            "pairs.cu",
            "peers.cu",
            "squares.cu",
            "transitive.cu",
            "truss.cu",
            "work.cu",
        )
    },
    **{
        name: {"vid": (_INT, _LONG)} for name in ("edge_rows.cu", "hashed_csr.cu", "id_range.cu", "sample.cu")
    },
    **{
        name: {"weight": (_DOUBLE, _LONG)}
        for name in (
            "bitmap.cu",
            "coefficients.cu",
            "compensated.cu",
            "edge.cu",
            "merge.cu",
            "merge_inline.cu",
            "vertex.cu",
        )
    },
    "edge_values.cu": {"vid": (_INT, _LONG), "weight": (_DOUBLE, _LONG)},
    "wedge.cu": {"weight": (_DOUBLE, _LONG), "eid": (_UNSIGNED,)},
    "hash.cu": {"weight": (_DOUBLE, _LONG), "eid": (_UNSIGNED,), "extra": {"HASH_MIN_BLOCKS": (4, 8)}},
}

_MANIFEST = "manifest.json"


class KernelBuildError(RuntimeError):
    """nvcc is missing or failed to compile a kernel file."""


def sources_digest(directory):
    """A digest of the text of every ``*.cu`` file in ``directory``.

    CuPy's disk cache keys a binary by the compiled file's own text and the
    options, not by the files it includes; with this digest among the options, a
    changed ``common.cu`` (a new version of the package) never reuses a binary
    built from the old one. A fatbin's manifest holds it for the same reason.
    """
    digest = hashlib.sha256()
    for entry in sorted(Path(directory).iterdir(), key=lambda entry: entry.name):
        if entry.name.endswith(".cu"):
            digest.update(entry.name.encode() + b"\0" + entry.read_bytes())
    return digest.hexdigest()[:20]


def compile_options(directory, defines):
    """NVRTC options of a kernel file of ``directory``: C++17, its includes,
    the ``-D`` ``defines`` and the sources' digest (a macro nothing reads)."""
    digest = f"-DNX_TRICOUNT_SOURCES_{sources_digest(directory)}"
    return ("-std=c++17", f"-I{directory}", digest) + tuple(f"-D{k}={v}" for k, v in defines)


def defines(vid, weight, eid=None, extra=()):
    """The ``-D`` macros of a kernel variant, in the one order the runtime and the
    build share: ``VID``, ``WEIGHT`` (C type names), ``EID`` where the kernel takes
    it, then the file's own integer constants (``extra``: name-value pairs) by name."""
    macros = [("VID", vid), ("WEIGHT", weight)] + [("EID", eid)] * (eid is not None)
    return tuple(macros + [(name, str(int(value))) for name, value in sorted(extra)])


def variants(source):
    """The ``-D`` macros of every variant of ``kernels/<source>`` built ahead."""
    values = VARIANTS[source]
    extra = values.get("extra", {})
    found = [()]
    for name, choices in extra.items():
        found = [chosen + ((name, choice),) for chosen in found for choice in choices]
    return [
        defines(vid, weight, eid, chosen)
        for vid in values.get("vid", (_INT,))
        for weight in values.get("weight", (_DOUBLE,))
        for eid in values.get("eid", (None,))
        for chosen in found
    ]


def fatbin_name(source, macros):
    """File name of the fatbin of ``kernels/<source>`` compiled with ``macros``."""
    key = hashlib.sha256(repr(tuple(macros)).encode()).hexdigest()[:12]
    return f"{source.removesuffix('.cu')}-{key}.fatbin"


def find_nvcc():
    """Path of nvcc: ``$CUDA_HOME/bin`` or ``$CUDA_PATH/bin``, else the ``PATH``;
    None when there is none."""
    for variable in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(variable):
            candidate = Path(os.environ[variable]) / "bin" / "nvcc"
            if candidate.is_file():
                return str(candidate)
    return shutil.which("nvcc")


def buildable_archs(nvcc):
    """The architectures of :data:`ARCHS` that ``nvcc`` compiles for."""
    listed = subprocess.run([nvcc, "--list-gpu-code"], capture_output=True, text=True)
    if listed.returncode != 0:
        raise KernelBuildError(f"{nvcc} --list-gpu-code failed: {listed.stderr.strip()}")
    known = {int(code) for code in re.findall(r"^sm_(\d+)$", listed.stdout, re.MULTILINE)}
    return tuple(arch for arch in ARCHS if arch in known)


def _compile(nvcc, directory, source, macros, archs, target):
    """Compile one variant to ``target``: a binary per arch, the newest's PTX."""
    command = [nvcc, *NVCC_OPTIONS, f"-I{directory}", *(f"-D{k}={v}" for k, v in macros), "-fatbin"]
    command += [f"-gencode=arch=compute_{arch},code=sm_{arch}" for arch in archs]
    command += [f"-gencode=arch=compute_{archs[-1]},code=compute_{archs[-1]}"]
    done = subprocess.run(
        [*command, "-o", str(target), str(Path(directory) / source)], capture_output=True, text=True
    )
    return None if done.returncode == 0 else f"{source} {dict(macros)}:\n{done.stdout}{done.stderr}"


def _read_manifest(built):
    try:
        return json.loads((Path(built) / _MANIFEST).read_text())
    except (OSError, ValueError):
        return None


def build(directory, built, *, nvcc, archs, sources=None, jobs=None):
    """Compile the variants of the kernel files of ``directory`` into ``built``.

    Parameters
    ----------
    directory : path
        The kernels' directory (``kernels/``).
    built : path
        Where the fatbins and their manifest go; its earlier ones are replaced
        (none is left unless the whole build succeeds).
    nvcc : str
        The compiler (:func:`find_nvcc`).
    archs : sequence of int
        Architectures, e.g. ``(80, 90)``: a binary each, and the newest's PTX.
    sources : sequence of str, optional
        Kernel files to build; all of :data:`VARIANTS` by default.
    jobs : int, optional
        nvcc processes at once; one per CPU by default.

    Returns
    -------
    dict
        The manifest: ``digest`` of the sources, the nvcc ``options``, the
        binaries' archs (``sass``), the ``ptx`` arch and the ``fatbins`` built.

    Raises
    ------
    KernelBuildError
        When there is no arch, or a variant fails to compile (every failure's
        output in the message).
    """
    directory, built, archs = Path(directory), Path(built), sorted(archs)
    if not archs:
        raise KernelBuildError(f"nvcc ({nvcc}) compiles for none of sm_{', sm_'.join(map(str, ARCHS))}")
    built.mkdir(parents=True, exist_ok=True)
    for old in [*built.glob("*.fatbin"), built / _MANIFEST]:
        old.unlink(missing_ok=True)
    sources = sorted(VARIANTS) if sources is None else sorted(sources)
    # The largest files first: the build lasts as long as its slowest compilation.
    work = sorted(
        ((source, macros) for source in sources for macros in variants(source)),
        key=lambda item: -(directory / item[0]).stat().st_size,
    )
    with concurrent.futures.ThreadPoolExecutor(jobs or os.cpu_count() or 1) as pool:
        failures = [
            failure
            for failure in pool.map(
                lambda item: _compile(nvcc, directory, *item, archs, built / fatbin_name(*item)), work
            )
            if failure
        ]
    if failures:
        raise KernelBuildError("nvcc failed to compile the kernels:\n" + "\n".join(failures))
    manifest = {
        "digest": sources_digest(directory),
        "options": list(NVCC_OPTIONS),
        "sass": archs,
        "ptx": archs[-1],
        "fatbins": sorted(fatbin_name(*item) for item in work),
    }
    partial = built / (_MANIFEST + ".partial")
    partial.write_text(json.dumps(manifest, indent=1))
    partial.replace(built / _MANIFEST)
    return manifest


def _up_to_date(directory, built, archs):
    """Whether ``built`` holds every fatbin for ``archs`` of today's sources."""
    manifest = _read_manifest(built)
    return (
        manifest is not None
        and manifest.get("digest") == sources_digest(directory)
        and manifest.get("options") == list(NVCC_OPTIONS)
        and manifest.get("sass") == sorted(archs)
        and set(manifest.get("fatbins", ())) == {fatbin_name(s, m) for s in VARIANTS for m in variants(s)}
        and all((Path(built) / name).is_file() for name in manifest["fatbins"])
    )


def _gpu_present():
    """Whether this machine has an NVIDIA GPU (its driver lists one)."""
    gpus = Path("/proc/driver/nvidia/gpus")
    if gpus.is_dir() and any(gpus.iterdir()):
        return True
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return False
    try:
        listed = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return listed.returncode == 0 and "GPU" in listed.stdout


def build_at_install(directory, environ=os.environ):
    """The install-time build (``setup.py``): the fatbins of every variant into
    ``<directory>/_built``, unless they are there already for these sources.

    ``NX_TRICOUNT_BUILD_KERNELS`` decides: ``1`` builds (nvcc must be found),
    ``0`` skips, unset or empty builds when nvcc is found and a GPU is present.
    Unasked, a failed build leaves NVRTC to compile at first use.

    Returns
    -------
    built : Path or None
        The folder of fatbins of today's sources, None when none was built.
    message : str
        What was done, one line for the installer's output.

    Raises
    ------
    KernelBuildError
        With ``NX_TRICOUNT_BUILD_KERNELS=1``, when nvcc is missing or fails.
    ValueError
        When ``NX_TRICOUNT_BUILD_KERNELS`` is neither ``0``, ``1`` nor empty.
    """
    asked = environ.get("NX_TRICOUNT_BUILD_KERNELS", "").strip()
    if asked not in ("", "0", "1"):
        raise ValueError(f"NX_TRICOUNT_BUILD_KERNELS must be 0, 1 or unset, got {asked!r}")
    later = "NVRTC compiles them at first use"
    if asked == "0":
        return None, f"kernels not compiled ahead (NX_TRICOUNT_BUILD_KERNELS=0): {later}"
    nvcc = find_nvcc()
    if asked == "" and (nvcc is None or not _gpu_present()):
        why = "no nvcc or no GPU; NX_TRICOUNT_BUILD_KERNELS=1 forces it"
        return None, f"kernels not compiled ahead ({why}): {later}"
    if nvcc is None:
        raise KernelBuildError(
            "NX_TRICOUNT_BUILD_KERNELS=1 but no nvcc was found (CUDA_HOME, CUDA_PATH, PATH)"
        )
    built, start = Path(directory) / BUILT, time.perf_counter()
    try:
        archs = buildable_archs(nvcc)
        if _up_to_date(directory, built, archs):
            return built, f"kernels compiled ahead already, in {built}"
        manifest = build(directory, built, nvcc=nvcc, archs=archs)
    except (KernelBuildError, OSError) as exc:
        if asked == "1":
            raise
        return None, f"kernels not compiled ahead ({exc}): {later}"
    return built, (
        f"kernels compiled ahead: {len(manifest['fatbins'])} fatbins for sm_{', sm_'.join(map(str, archs))} "
        f"and PTX of compute_{archs[-1]}, in {time.perf_counter() - start:.0f} s, into {built}"
    )


def prebuilt(directory, built, source, macros, capability):
    """The fatbin of ``kernels/<source>`` with ``macros`` for a GPU of compute
    ``capability`` (e.g. 90), if ``built`` holds one that fits.

    It fits when the manifest's digest and options are those of the sources in
    ``directory`` and of :data:`NVCC_OPTIONS`, and it holds a binary of the GPU's
    major version not above it, or a PTX not above it (which the driver compiles).

    Returns
    -------
    path : Path or None
        The fatbin; None when NVRTC must compile.
    why : str
        Which of its code the GPU runs, or why there is none.
    """
    if built is None:
        return None, "no folder of prebuilt kernels is set"
    built = Path(built)
    manifest = _read_manifest(built)
    if manifest is None:
        return None, f"no kernels were compiled ahead ({built / _MANIFEST} is absent)"
    if manifest.get("digest") != sources_digest(directory) or manifest.get("options") != list(NVCC_OPTIONS):
        return None, f"the kernels compiled ahead in {built} are stale (built from other sources or options)"
    path = built / fatbin_name(source, macros)
    if path.name not in manifest["fatbins"] or not path.is_file():
        return None, "this variant was not compiled ahead"
    binaries = [arch for arch in manifest["sass"] if arch // 10 == capability // 10 and arch <= capability]
    if binaries:
        return path, f"its sm_{max(binaries)} binary"
    if manifest["ptx"] <= capability:
        return path, f"its PTX of compute_{manifest['ptx']}, compiled by the driver"
    return None, f"the kernels compiled ahead have no code for sm_{capability}"
