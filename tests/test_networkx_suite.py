"""NetworkX's own tests of the functions the backend implements, with every call
forced through tricount (``NETWORKX_TEST_BACKEND=tricount``).

``--runxfail`` turns NetworkX's "not implemented by the backend" xfails into
failures, so a function we claim must really run. The k-truss tests build their
graphs with generators the backend does not implement, so they run with
``NETWORKX_FALLBACK_TO_NX`` (NetworkX's own generators) and NetworkX's debug log
shows that every ``k_truss`` call reached tricount.
"""

import os
import re
import subprocess
import sys


def _networkx_tests(module, *options, fallback=False):
    env = dict(os.environ, NETWORKX_TEST_BACKEND="tricount")
    env.pop("NETWORKX_FALLBACK_TO_NX", None)
    if fallback:
        env["NETWORKX_FALLBACK_TO_NX"] = "True"
    command = [sys.executable, "-m", "pytest", "--pyargs", f"networkx.algorithms.tests.{module}"]
    command += [*options, "-p", "no:cacheprovider", "-q"]
    result = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    summary = [line for line in result.stdout.splitlines() if " in " in line][-1]
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "xfail" not in summary and "failed" not in summary, summary
    return result.stdout, int(re.search(r"(\d+) passed", summary).group(1))


def test_networkx_test_cluster_passes_through_tricount():
    _, passed = _networkx_tests("test_cluster", "--runxfail")
    assert passed >= 56


def test_networkx_k_truss_tests_pass_through_tricount():
    log, passed = _networkx_tests(
        "test_core", "-k", "k_truss", "-o", "log_cli=true", "--log-cli-level=DEBUG", fallback=True
    )
    assert passed == 4
    assert log.count("Using backend 'tricount' for call to 'k_truss'") >= 8
    assert "instead of 'tricount' backend for call to 'k_truss'" not in log
