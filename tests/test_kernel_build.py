"""The kernels compiled ahead (nx_tricount/gpu/kernel_build.py): nvcc's fatbins, the
choice of the code a GPU runs, and the rejection of fatbins of other sources.
CPU tests: they need nvcc, not a GPU (tests/test_gpu_prebuilt.py loads them)."""

import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from nx_tricount.gpu import kernel_build
from nx_tricount.gpu.kernel_build import KernelBuildError, build, build_at_install, prebuilt, variants

KERNELS = Path(__file__).resolve().parents[1] / "kernels"
#: Files only included by others (common.cu, keys.cu).
INCLUDED_ONLY = {"common.cu", "keys.cu"}
PTX, ELF = 1, 2

needs_nvcc = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not on PATH")


def _fatbin_entries(path):
    """``(kind, arch)`` of each image of a fatbin (kind :data:`PTX` or :data:`ELF`).

    The container: a header (magic 0xBA55ED50, version, header size, size of the
    images), then each image's header (kind, version, header size, payload size;
    the arch at byte 28) and payload.
    """
    data = path.read_bytes()
    magic, _, header_size, size = struct.unpack_from("<IHHQ", data)
    assert magic == 0xBA55ED50
    entries, offset = [], header_size
    while offset < header_size + size:
        kind, _, image_header, payload = struct.unpack_from("<HHIQ", data, offset)
        entries.append((kind, struct.unpack_from("<I", data, offset + 28)[0]))
        offset += image_header + payload
    assert offset == header_size + size == len(data)
    return entries


def _copy_kernels(target):
    target.mkdir()
    for source in KERNELS.glob("*.cu"):
        shutil.copy(source, target)
    return target


@pytest.fixture(scope="module")
def built_csr(tmp_path_factory):
    """A copy of kernels/ and the fatbin of csr.cu (a small file) for sm_80 and sm_90."""
    root = tmp_path_factory.mktemp("kernel_build")
    directory = _copy_kernels(root / "kernels")
    manifest = build(
        directory,
        directory / kernel_build.BUILT,
        nvcc=shutil.which("nvcc"),
        archs=(90, 80),
        sources=["csr.cu"],
    )
    return directory, manifest


def test_every_kernel_file_has_its_variants():
    assert set(kernel_build.VARIANTS) == {p.name for p in KERNELS.glob("*.cu")} - INCLUDED_ONLY
    # The runtime's order of the macros: VID, WEIGHT, EID, then the file's own by name.
    assert variants("hash.cu")[0] == (
        ("VID", "int"),
        ("WEIGHT", "double"),
        ("EID", "unsigned int"),
        ("HASH_MIN_BLOCKS", "4"),
    )
    assert len(set(variants("hash.cu"))) == 4
    assert {dict(v)["VID"] for v in variants("hashed_csr.cu")} == {"int", "long long"}


@needs_nvcc
def test_build_makes_a_binary_per_arch_and_the_newest_ptx(built_csr):
    directory, manifest = built_csr
    built = directory / kernel_build.BUILT
    assert manifest["digest"] == kernel_build.sources_digest(directory)
    assert (manifest["sass"], manifest["ptx"]) == ([80, 90], 90)
    names = {kernel_build.fatbin_name("csr.cu", macros) for macros in variants("csr.cu")}
    assert set(manifest["fatbins"]) == names and len(names) == 1
    assert {p.name for p in built.glob("*.fatbin")} == names
    for name in names:
        assert sorted(_fatbin_entries(built / name)) == [(PTX, 90), (ELF, 80), (ELF, 90)]
    cuobjdump = shutil.which("cuobjdump")
    if cuobjdump is not None:  # the toolkit's own reading, where it is installed
        listed = subprocess.run(
            [cuobjdump, "--list-elf", str(built / sorted(names)[0])],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert "sm_80" in listed and "sm_90" in listed


@needs_nvcc
@pytest.mark.parametrize(
    "capability, code",
    [
        (90, "sm_90 binary"),
        (80, "sm_80 binary"),
        (86, "sm_80 binary"),
        (89, "sm_80 binary"),
        (100, "PTX of compute_90"),
        (120, "PTX of compute_90"),
        (75, None),
    ],
)
def test_prebuilt_picks_the_code_the_gpu_runs(built_csr, capability, code):
    directory, _ = built_csr
    macros = variants("csr.cu")[0]
    path, why = prebuilt(directory, directory / kernel_build.BUILT, "csr.cu", macros, capability)
    if code is None:
        assert path is None and f"no code for sm_{capability}" in why
    else:
        assert path == directory / kernel_build.BUILT / kernel_build.fatbin_name("csr.cu", macros)
        assert code in why


@needs_nvcc
def test_prebuilt_rejects_variants_and_files_not_built(built_csr):
    directory, _ = built_csr
    built = directory / kernel_build.BUILT
    wide = kernel_build.defines("long long", "double")
    assert prebuilt(directory, built, "csr.cu", wide, 90) == (None, "this variant was not compiled ahead")
    assert prebuilt(directory, built, "merge.cu", variants("merge.cu")[0], 90)[0] is None
    assert prebuilt(directory, None, "csr.cu", variants("csr.cu")[0], 90)[0] is None


@needs_nvcc
def test_fatbins_of_other_sources_are_stale(built_csr, tmp_path):
    """Any kernel file changed since the build, an included one too, rejects
    every fatbin: NVRTC compiles the sources of today."""
    directory = tmp_path / "kernels"
    shutil.copytree(built_csr[0], directory)
    built = directory / kernel_build.BUILT
    macros = variants("csr.cu")[0]
    assert prebuilt(directory, built, "csr.cu", macros, 90)[0] is not None
    common = directory / "common.cu"
    common.write_text(common.read_text() + "\n// changed\n")
    path, why = prebuilt(directory, built, "csr.cu", macros, 90)
    assert path is None and "stale" in why
    shutil.rmtree(built)
    path, why = prebuilt(directory, built, "csr.cu", macros, 90)
    assert path is None and "absent" in why


@needs_nvcc
def test_a_failed_compilation_names_the_variant_and_leaves_no_manifest(tmp_path):
    directory = _copy_kernels(tmp_path / "kernels")
    (directory / "pairs.cu").write_text("this is not CUDA\n")
    built = directory / kernel_build.BUILT
    with pytest.raises(KernelBuildError, match=r"pairs\.cu"):
        build(directory, built, nvcc=shutil.which("nvcc"), archs=(90,), sources=["pairs.cu"])
    assert prebuilt(directory, built, "pairs.cu", variants("pairs.cu")[0], 90)[0] is None


def test_the_install_builds_only_when_asked_or_with_nvcc_and_a_gpu(monkeypatch, tmp_path):
    def no_build(*args, **kwargs):
        raise AssertionError("nothing should be compiled")

    monkeypatch.setattr(kernel_build, "build", no_build)
    built, message = build_at_install(tmp_path, {"NX_TRICOUNT_BUILD_KERNELS": "0"})
    assert built is None and "NX_TRICOUNT_BUILD_KERNELS=0" in message
    monkeypatch.setattr(kernel_build, "_gpu_present", lambda: False)
    built, message = build_at_install(tmp_path, {})
    assert built is None and "no GPU" in message
    with pytest.raises(ValueError, match="must be 0, 1 or unset, got 'yes'"):
        build_at_install(tmp_path, {"NX_TRICOUNT_BUILD_KERNELS": "yes"})
    monkeypatch.setattr(kernel_build, "find_nvcc", lambda: None)
    with pytest.raises(KernelBuildError, match="no nvcc was found"):
        build_at_install(tmp_path, {"NX_TRICOUNT_BUILD_KERNELS": "1"})
