"""Running ``bidwhist`` from tests: in this process through click's CliRunner, or as the installed script.

Both check what every command promises (see ``bidcompiler.cli``): no exception
escapes a command and no traceback reaches the user.  conftest.py has pytest
rewrite the asserts here, so a failing check shows its values.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from bidcompiler.cli import cli


def _installed_script() -> str | None:
    """The ``bidwhist`` script installed beside this Python (its venv's ``bin``), else the one on PATH.

    PATH alone could find another install's script (an old global one), and the tests
    would then check that program instead of this checkout."""
    beside = Path(sys.executable).parent / "bidwhist"
    return str(beside) if beside.is_file() else shutil.which("bidwhist")


BIDWHIST = _installed_script()

# A guard against a hung command, not a time limit: the suite runs on shared, loaded
# machines, so it is far above any command's normal time (a time limit would flake).
HANG_GUARD_S = 1800


def run(*args: str, env=None):
    """Run ``bidwhist ARGS`` through CliRunner (stdout and stderr kept apart); click's Result.

    ``env`` sets environment variables for the run only.
    """
    result = CliRunner(env=env).invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{args} raised {result.exception!r}")
    assert "Traceback" not in result.stdout + result.stderr
    return result


def script(*args: str, cwd=None) -> subprocess.CompletedProcess:
    """Run the installed ``bidwhist`` console script, as a user would: exit statuses and streams as they are."""
    assert BIDWHIST, "the bidwhist console script is not installed"
    proc = subprocess.run([BIDWHIST, *args], capture_output=True, text=True, timeout=HANG_GUARD_S, cwd=cwd)
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "internal error" not in proc.stderr
    return proc


def write(tmp_path, name: str, text: str) -> str:
    """``text`` written to ``tmp_path/name``; its path as a string."""
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def stderr_lines(result) -> list[str]:
    """The message lines of a failed command (its `to fix:` lines and click's usage lines left out)."""
    return [line for line in result.stderr.splitlines()
            if line and not line.startswith((" ", "Usage:", "Try "))]


def heard_as_from_a_terminal() -> None:
    """In the child before it runs: SIGINT and SIGHUP back to their defaults.  A test suite run as a
    background job (`.ci/run &`) or under nohup starts with them ignored, and a program that starts
    with a signal ignored rightly keeps ignoring it: the signal would never reach the simulation."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
