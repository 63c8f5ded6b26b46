"""Every script of examples/ runs, in its short mode, in a fresh interpreter on
the CPU (as CI runs it): each finishes, prints what shows it did its work, and
writes its JSON where it has one. A GPU-only benchmark without a GPU says so
and runs its checks on the CPU engine."""

import importlib.util
import json
import re
from pathlib import Path

from nx_tricount.gpu.device import gpu_available
from subprocesses import run_python

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
#: The scripts with a test here.
COVERED = (
    "dropin.py",
    "cudf_pipeline.py",
    "benchmark_cpu.py",
    "compare_cpu.py",
    "benchmark_auto.py",
    "benchmark_gpu.py",
    "benchmark_peers.py",
    "benchmark_scale.py",
    "benchmark_cudf.py",
    "benchmark_networkx.py",
    "calibrate_should_run.py",
    "dropin_script_timing.py",
)


def run_example(name, *args, **env):
    """Run ``examples/<name>`` with ``args`` as ``python examples/<name>`` would
    (its folder first on sys.path); returns ``(returncode, stdout, stderr)``."""
    path = EXAMPLES / name
    return run_python(
        f"""
        import runpy, sys
        sys.argv = {[str(path), *args]!r}
        sys.path.insert(0, {str(EXAMPLES)!r})
        runpy.run_path({str(path)!r}, run_name="__main__")
        """,
        **env,
    )


def test_every_example_has_a_case_here():
    assert {p.name for p in EXAMPLES.glob("*.py")} == set(COVERED)


def test_dropin():
    rc, out, err = run_example("dropin.py", "--smoke")
    assert rc == 0, err
    assert "(NetworkX only)" in out and "average_clustering" in out
    rc, out, err = run_example("dropin.py", "--smoke", NX_TRICOUNT_AUTOCONFIG="True", NX_TRICOUNT_LOG="1")
    assert rc == 0, err
    assert "['tricount']" in out
    # The smoke graph is small: in a fresh process, NetworkX answers each call sooner
    # than tricount would load its engine, and should_run says so.
    for name in ("triangles", "clustering", "transitivity", "average_clustering"):
        assert f"Backend 'tricount' shouldn't run `{name}`" in err
    assert "NetworkX's estimate" in err and "Warning" not in err


def test_calibrate_should_run():
    rc, out, err = run_example("calibrate_should_run.py", "--smoke")
    assert rc == 0, err
    assert "COSTS = {" in out and "ENGINE_START = " in out and "karate club (78 edges)" in out


def test_dropin_script_timing():
    rc, out, err = run_example("dropin_script_timing.py", "--smoke")
    assert rc == 0, err
    assert "same results" in out and "tricount ran: nothing | numba imported: False" in out


def test_cudf_pipeline():
    rc, out, err = run_example("cudf_pipeline.py", "--smoke")
    assert rc == 0, err
    assert "edge rows in a" in out and "transitivity: 0." in out
    assert "node  triangles  clustering" in out and "source  target  triangles" in out


def test_benchmark_cpu(tmp_path):
    rc, out, err = run_example("benchmark_cpu.py", "--smoke", "--json", str(tmp_path / "cpu.json"))
    assert rc == 0, err
    assert "every library agrees with NetworkX" in out and "targets:" in out
    assert "n/a on a smoke graph" in out and "NOT met" not in out  # targets of the real graph
    report = json.loads((tmp_path / "cpu.json").read_text())
    assert [g["graph"] for g in report["graphs"]] == ["R-MAT 10", "jazz"]
    assert all(g["triangles"] > 0 and g["kernel_grid"] for g in report["graphs"])


def test_compare_cpu(tmp_path):
    data = Path(__file__).resolve().parent / "data"
    args = ("--data", str(data), "--graphs", "jazz", "--rmat", "8", "--rounds", "1")
    rc, out, err = run_example("compare_cpu.py", *args, "--json", str(tmp_path / "compare.json"))
    assert rc == 0, err
    assert re.search(r"^\| jazz \| 198 \| 2,742 \| ", out, re.M), out
    # The summary counts the graphs a peer was timed on: none where no peer is installed.
    peers = any(importlib.util.find_spec(name) for name in ("networkit", "igraph", "graphblas"))
    assert ("clustering: " in out) == peers and ("of 2 graphs at 1.2x the fastest peer" in out) == peers
    report = json.loads((tmp_path / "compare.json").read_text())
    assert [g["graph"] for g in report] == ["jazz", "R-MAT 8"]
    assert all(g["medians_s"]["triangles tricount"] > 0 for g in report)


def test_benchmark_auto(tmp_path):
    rc, out, err = run_example("benchmark_auto.py", "--smoke", "--json", str(tmp_path / "auto.json"))
    assert rc == 0, err
    assert "device: cpu" in out and "smoke run" in out
    rows = json.loads((tmp_path / "auto.json").read_text())["rows"]
    assert len(rows) == 2 and all(row["triangles"] > 0 and row["device"] == "cpu" for row in rows)


def test_benchmark_gpu():
    rc, out, err = run_example("benchmark_gpu.py", "--smoke")
    assert rc == 0, err
    if gpu_available():
        assert "device:" in out and "smoke" in out
    else:
        assert "GPU timings skipped" in out
        totals = re.findall(r"triangles=(\d+)", out)
        assert len(totals) == 9 and len(set(totals)) == 1 and int(totals[0]) > 0
        assert "Equation 1 (a-direction)" in out


def test_benchmark_peers():
    """The published codes' input files, written for small graphs of every shape,
    read back as the graphs' distinct edges with the same triangles."""
    rc, out, err = run_example("benchmark_peers.py", "--smoke")
    assert rc == 0, err
    checked = re.findall(
        r"^(\S+): \d+ edges, (\d+) triangles; WeTriC, ToT and GroupTC inputs read back exact$", out, re.M
    )
    assert [name for name, _ in checked] == ["rmat", "powerlaw-2.1", "road", "web"]
    assert all(int(triangles) > 0 for _, triangles in checked)
    assert "no GPU timings in a smoke run" in out


def test_benchmark_scale():
    rc, out, err = run_example("benchmark_scale.py", "--smoke")
    assert rc == 0, err
    assert out.count('"parts": ') == 4 and "every partition gives the same transitivity" in out
    assert '"setting": "partitions=3,partitioning=range"' in out


def test_benchmark_scale_summaries(tmp_path):
    """Strong scaling: each setting's speed-up over the first, per scale; weak:
    the i-th scale on the i-th GPU count (their devices unused by the CPU engine),
    the time's growth over the first; both written with the runs."""
    strong = ("--device", "cpu", "--scales", "9", "--settings", "", "partitions=2", "--repeats", "2")
    rc, out, err = run_example("benchmark_scale.py", *strong, "--json", str(tmp_path / "strong.json"))
    assert rc == 0, err
    found = json.loads((tmp_path / "strong.json").read_text())
    assert len(found["runs"]) == 4 and [e["setting"] for e in found["scaling"]] == ["", "partitions=2"]
    assert found["scaling"][0]["speedup"] == 1.0 and found["scaling"][1]["speedup"] > 0
    weak = ("--device", "cpu", "--scales", "8", "9", "--gpus", "1", "2", "--weak", "--repeats", "1")
    rc, out, err = run_example("benchmark_scale.py", *weak, "--json", str(tmp_path / "weak.json"))
    assert rc == 0, err
    found = json.loads((tmp_path / "weak.json").read_text())
    assert [(e["scale"], e["setting"]) for e in found["scaling"]] == [(8, "devices=0"), (9, "devices=0;1")]
    assert found["scaling"][0]["growth"] == 1.0
    rc, out, err = run_example("benchmark_scale.py", "--scales", "8", "9", "--gpus", "1", "--weak")
    assert rc != 0 and "--weak pairs each scale with a GPU count" in err


def test_benchmark_cudf(tmp_path):
    rc, out, err = run_example("benchmark_cudf.py", "--smoke", "--json", str(tmp_path / "cudf.json"))
    assert rc == 0, err
    rows = json.loads((tmp_path / "cudf.json").read_text())
    assert [row["labels"] for row in rows] == ["int64", "str"]
    assert all(row["triangles"] > 0 and row["per_node_frame_ms"] > 0 for row in rows)


def test_benchmark_networkx(tmp_path):
    rc, out, err = run_example("benchmark_networkx.py", "--smoke", "--json", str(tmp_path / "layer.json"))
    assert rc == 0, err
    rows = json.loads((tmp_path / "layer.json").read_text())
    assert {row["call"] for row in rows} >= {"transitivity", "directed_transitivity", "auto_cost_pct"}
    assert all(row["ms"] > 0 for row in rows)
    assert "auto (% of a transitivity)" in out
    # The smoke run counts on the CPU, where no figure has a target to miss.
    [auto] = [row for row in rows if row["call"] == "auto_cost_pct"]
    assert auto["target_pct"] is None and auto["met"] is None
    assert "(no target on the CPU)" in out and "False" not in out and " NO" not in out


def test_benchmark_networkx_floor(tmp_path):
    """The dict calls beside the CPython floor: each row the call, what returning
    its dict costs, the floor, and their ratio."""
    args = ("--floor", "--smoke", "--repeats", "2", "--json", str(tmp_path / "floor.json"))
    rc, out, err = run_example("benchmark_networkx.py", *args)
    assert rc == 0, err
    rows = json.loads((tmp_path / "floor.json").read_text())
    assert [row["call"] for row in rows] == ["triangles_dict", "clustering_dict"]
    for row in rows:
        assert row["ms"] > row["shaping_ms"] > 0 and row["floor_ms"] > 0 and row["nodes"] > 0
        assert row["ratio"] > 0 and row["met"] == (row["ratio"] <= 1.15)
    assert "floor" in out


def test_benchmark_networkx_small(tmp_path):
    """The small counts in two processes: each row their median, beside the lowest,
    the highest and each process's pace."""
    args = ("--small", "--processes", "2", "--repeats", "3", "--json", str(tmp_path / "small.json"))
    rc, out, err = run_example("benchmark_networkx.py", *args)
    assert rc == 0, err
    rows = json.loads((tmp_path / "small.json").read_text())
    assert len({row["graph"] for row in rows}) == 9
    for row in rows:
        assert row["lowest_ms"] <= row["ms"] <= row["highest_ms"]
        assert len(row["paces_us"]) == 2 and min(row["paces_us"]) > 0
    assert "host pace" in out
