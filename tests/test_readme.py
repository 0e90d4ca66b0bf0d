"""README.md is true: its Quickstart and its tour print what they show.

* The Quickstart is exactly two commands: the main job, then what CI runs
  (``.ci/run``).  The main job is rerun exactly as written (without its ``pip
  install``: the package under test is installed already) and its output must be
  what the text block after it shows.
* Every ``$ command`` of the README's console blocks (the tour and "Simulating a
  house-rule argument") is run by a shell in an empty folder, in order (a later
  command reads the files an earlier one wrote), and prints what the README shows.

Commands run through the installed ``bidwhist`` script, as a reader would run
them, at the 80 columns of a pipe (the width rich draws its tables at when
stdout is not a terminal).  Expected output follows ``tests/docexamples.py``: a
line ``...`` stands for any lines, a line ending in ``...`` is a prefix.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path


from clirun import BIDWHIST, HANG_GUARD_S
from docexamples import blocks, console_steps, matches

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
VENV = "python3 -m venv .venv && . .venv/bin/activate && "
INSTALL = VENV + "python3 -m pip install . && "


def section(title: str) -> str:
    """The README's text under the heading ``title``, up to the next heading of the same level or higher."""
    match = re.search(rf"^(#+) {re.escape(title)}\n", README, re.M)
    assert match, f"README has no section {title!r}"
    level = len(match[1])
    end = re.compile(rf"^#{{1,{level}}} ", re.M).search(README, match.end())
    return README[match.end():end.start() if end else len(README)]


def shell(command: str, cwd: Path) -> list[str]:
    """Run ``command`` as a reader's shell would, with the installed bidwhist first on PATH; its output lines."""
    assert BIDWHIST, "the bidwhist console script is not installed"
    env = {**os.environ, "COLUMNS": "80", "PATH": os.path.dirname(BIDWHIST) + os.pathsep + os.environ["PATH"]}
    env.pop("FORCE_COLOR", None)
    proc = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=HANG_GUARD_S)
    assert proc.returncode == 0, f"$ {command}\nexit {proc.returncode}\n{proc.stderr}"
    assert "Traceback" not in proc.stdout + proc.stderr
    return (proc.stdout + proc.stderr).rstrip("\n").split("\n")


def quickstart() -> tuple[list[str], list[str]]:
    """The Quickstart's commands and the output its text block shows for the first."""
    text = section("Quickstart")
    commands = blocks(text, "sh")
    assert len(commands) == 1, "the Quickstart has one block of commands"
    shown = blocks(text, "text")
    assert len(shown) == 1, "the Quickstart shows what its first command prints in one text block"
    return commands[0].rstrip("\n").split("\n"), shown[0].rstrip("\n").split("\n")


def test_the_quickstart_is_the_main_job_then_what_ci_runs():
    commands, _ = quickstart()
    assert len(commands) == 2, commands
    main, tests = commands
    assert main.startswith(INSTALL) and main[len(INSTALL):].startswith("bidwhist compare "), main
    # .ci/run runs the README's test command as it is (then the linters).
    ci = [line for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
          if line and not line.startswith(("#", "set ", "cd "))]
    assert tests == ci[0] == VENV + "python3 -m pip install '.[test]' && python3 -m pytest"


def test_the_quickstart_prints_what_it_shows(tmp_path):
    commands, shown = quickstart()
    command = commands[0][len(INSTALL):]  # exactly as written, the package being installed already
    actual = shell(command, tmp_path)
    assert matches(shown, actual), "\n".join(actual)
    assert "bots: heuristic" in actual[0]  # the default bots, and the header says so


def test_the_readme_says_which_bots_a_run_uses():
    assert "heuristic bots at every seat" in section("Quickstart")
    assert "`simulate` and `compare` play heuristic bots" in section("Bots")


def test_the_readme_links_only_to_files_in_the_repository():
    local = [t for t in re.findall(r"\]\(([^)#\s]+)", README) if "://" not in t]
    assert local, "the README links to files of the repository (docs/records.md)"
    for target in local:
        path = (ROOT / target).resolve()
        assert path.is_relative_to(ROOT) and path.exists(), f"README links to {target}, not a file of the repository"
    assert "../shared" not in README


STEPS = console_steps(README)


def test_the_tour_has_its_examples():
    commands = [c for c, _ in STEPS]
    assert any(c.startswith("bidwhist simulate ") for c in commands)
    assert any(c.startswith("bidwhist compare ") for c in commands)
    assert all(expected for _, expected in STEPS), "every example shows what it prints"


def test_every_console_example_prints_what_the_readme_shows(tmp_path):
    # One folder for all, in order: the tour's replay reads the records its simulate wrote.
    for command, expected in STEPS:
        assert "--bots" not in command, f"README examples use the default bots: {command}"
        actual = shell(command, tmp_path)
        assert matches(expected, actual), f"$ {command}\n" + "\n".join(actual)


def test_the_readme_names_the_commands_that_take_with_and_set():
    """The tour's sentence on --with and --set names exactly the commands that take them."""
    import click

    from bidcompiler.cli import cli

    match = re.search(r"^(.*?) also take `--with RULE`", section("A tour of the command line"), re.M)
    assert match, "the tour says which commands take --with and --set"
    named = set(re.findall(r"`(\w+)`", match.group(1)))
    ctx = click.Context(cli)
    options = {name: {o for p in cli.get_command(ctx, name).params for o in p.opts}
               for name in cli.list_commands(ctx)}
    assert named == {name for name, opts in options.items() if {"--with", "--set"} <= opts}
    only_with = re.search(r"`(\w+)` takes `--with`;", section("A tour of the command line"))
    assert only_with and options[only_with.group(1)] >= {"--with"} and "--set" not in options[only_with.group(1)]
