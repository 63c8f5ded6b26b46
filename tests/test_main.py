"""The main job, ``python -m nx_tricount``, on small arguments (seconds in all)."""

import subprocess
import sys
import time
from types import SimpleNamespace

import networkx as nx
import pytest

from conftest import SMALL_DATA_DIR, manifest
from nx_tricount import __main__ as job
from nx_tricount.command_line import DEFAULT_BUDGET
from nx_tricount.metadata.config import TricountConfig


def test_rmat_run_agrees_with_networkx(capsys):
    results = job.main(["--rmat", "9"])
    out = capsys.readouterr().out
    [(name, rows)] = results.items()
    assert name.startswith("R-MAT scale 9")
    assert [row[0] for row in rows] == list(job.FUNCTIONS)
    assert all(row[2] is not None and row[4] is True for row in rows)
    assert "warm-up:" in out and "not in the times below" in out
    assert "speed-up" in out and "not run" not in out


def test_budget_skips_networkx_with_a_notice(capsys):
    rows = job.main(["--rmat", "9", "--networkx-budget", "0"])["R-MAT scale 9 (seed 0)"]
    out = capsys.readouterr().out
    assert all(row[2] is None and row[4] is None for row in rows)
    assert "NetworkX not run for triangles, clustering, transitivity, average_clustering" in out
    assert "--networkx-budget" in out and "est." in out


def test_edge_list_file(capsys):
    job.main(["--edges", str(SMALL_DATA_DIR / "jazz.txt.gz"), "--algorithm", "merge", "--device", "cpu"])
    out = capsys.readouterr().out
    assert f"triangles: {int(manifest()['jazz.txt.gz']['triangles']):,}" in out
    assert "algorithm=merge" in out and "device=cpu" in out


def test_help_renders_without_backticks():
    result = subprocess.run(
        [sys.executable, "-m", "nx_tricount", "--help"], capture_output=True, text=True, check=True
    )
    assert "--networkx-budget" in result.stdout and "--rmat" in result.stdout
    assert "`" not in result.stdout


def test_help_offers_every_setting_of_the_configuration():
    text = job.PARSER.format_help()
    for key in TricountConfig.__annotations__:
        assert f"--{key.replace('_', '-')} " in text, key


def test_settings_hold_for_the_run_and_are_restored(capsys):
    before = dict(nx.config.backends.tricount)
    argv = [
        "--rmat",
        "6",
        "--networkx-budget",
        "inf",
        "--algorithm",
        "merge",
        "--device",
        "cpu",
        "--partitions",
        "2",
        "--partitioning",
        "range",
        "--wedge-spread",
        "4",
        "--memory-limit",
        "1GB",
        "--progress",
        "false",
    ]
    rows = job.main(argv)["R-MAT scale 6 (seed 0)"]
    out = capsys.readouterr().out
    assert "algorithm=merge" in out and "partitions=2 partitioning=range" in out
    assert all(row[4] is True for row in rows)
    assert dict(nx.config.backends.tricount) == before


def test_string_labels_are_counted_as_networkx_counts(tmp_path, capsys):
    G = nx.les_miserables_graph()  # nodes named by strings
    path = tmp_path / "miserables.txt"
    path.write_text(
        "# Les Misérables\n" + "".join(f"{u.replace(' ', '_')} {v.replace(' ', '_')}\n" for u, v in G.edges())
    )
    [rows] = job.main(["--edges", str(path), "--networkx-budget", "inf"]).values()
    assert all(row[4] is True for row in rows)
    assert f"triangles: {sum(nx.triangles(G).values()) // 3:,}" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, says",
    [
        (["--edges", "no/such/file.txt"], "argument --edges: cannot read no/such/file.txt"),
        (["--edges", str(SMALL_DATA_DIR)], "argument --edges: cannot read"),
        (["--rmat", "40"], "argument --rmat: R-MAT scale 40 needs about"),
        (["--rmat", "0"], "argument --rmat: SCALE must be an int from 1 to"),
        (["--rmat", "x"], "argument --rmat: SCALE must be an int from 1 to"),
        (["--networkx-budget", "-1"], "argument --networkx-budget: SECONDS must be a number >= 0"),
        (["--wedge-spread", "0"], "argument --wedge-spread: Invalid tricount wedge_spread 0"),
        (["--partitions", "two"], "argument --partitions: Invalid tricount partitions 'two'"),
        (["--memory-limit", "2XB"], "argument --memory-limit: Invalid tricount memory_limit '2XB'"),
        (["--devices", "0,a"], "argument --devices: Invalid tricount devices '0,a'"),
        (["--progress", "maybe"], "argument --progress: Invalid tricount progress 'maybe'"),
        (["--distributed", "dask"], "tricount distributed='dask'"),
    ],
)
def test_a_bad_input_is_one_line_of_error(argv, says, capsys):
    with pytest.raises(SystemExit) as error:
        job.main(argv)
    assert error.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.startswith("python -m nx_tricount: error: ") and says in last


@pytest.mark.parametrize("text, says", [("", "has no edges"), ("1\n2\n", "invalid column index 1")])
def test_an_edge_list_without_edges_is_one_line_of_error(tmp_path, text, says, capsys):
    path = tmp_path / "edges.txt"
    path.write_text(text)
    with pytest.raises(SystemExit) as error:
        job.main(["--edges", str(path)])
    assert error.value.code == 2 and says in capsys.readouterr().err


def test_a_bad_input_prints_no_traceback():
    result = subprocess.run(
        [sys.executable, "-m", "nx_tricount", "--edges", "no/such/file.txt"], capture_output=True, text=True
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()[-1]) > 0


def test_default_run_is_les_miserables_and_a_graph_where_the_speed_up_shows():
    args = SimpleNamespace(edges=None, rmat=None)
    graphs = dict(job._graphs(args))
    names = list(graphs)
    assert names[0].startswith("Les Mis")
    assert names[1].startswith(f"R-MAT scale {job.DEFAULT_RMAT_SCALE}")
    G = graphs[names[1]]
    estimates = [job.estimate_networkx_seconds(f, G, job.wedges(G)) for f in job.FUNCTIONS]
    # NetworkX takes seconds there, and every reference run fits the default budget.
    assert max(estimates) > 1 and max(estimates) <= DEFAULT_BUDGET


def test_wedges_leave_self_loops_out():
    G = nx.complete_graph(4)
    assert job.wedges(G) == 4 * 3
    G.add_edge(0, 0)
    assert job.wedges(G) == 4 * 3


def test_a_long_call_shows_a_progress_bar(capsys):
    with job._progress("NetworkX clustering", estimate=2.0):
        time.sleep(1.3)
    assert "NetworkX clustering" in capsys.readouterr().err


def test_a_short_call_shows_none(capsys):
    with job._progress("NetworkX clustering", estimate=2.0):
        pass
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("argv", [["--rmat", "9", "--edges", "x"], ["--algorithm", "nope"]])
def test_bad_arguments_exit_with_usage(argv):
    with pytest.raises(SystemExit) as error:
        job.main(argv)
    assert error.value.code == 2


def test_gpu_asked_for_without_one_is_a_clear_error(capsys):
    from nx_tricount.gpu.device import gpu_available

    if gpu_available():
        pytest.skip("this machine has a GPU")
    with pytest.raises(SystemExit) as error:
        job.main(["--rmat", "9", "--device", "gpu"])
    assert error.value.code == 1
    assert "device='gpu'" in capsys.readouterr().err
