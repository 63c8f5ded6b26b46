"""Running code in a fresh interpreter, so that import-time behaviour is real."""

import os
import subprocess
import sys
import textwrap


def run_python(code, **env):
    """Run ``code`` with the environment less NX_TRICOUNT_* and NETWORKX_* variables,
    plus ``env``; returns ``(returncode, stdout, stderr)``."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("NX_TRICOUNT", "NETWORKX_"))}
    environment.update(env)
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=environment,
        check=False,
    )
    return result.returncode, result.stdout, result.stderr
