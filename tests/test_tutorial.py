"""docs/tutorial.md is true: every command it shows prints what it shows, every file it shows exists.

Console blocks hold ``$ bidwhist ...`` lines followed by the expected output (stdout
then stderr). In expected output a line ``...`` stands for any number of lines,
and a line ending in ``...`` only has to start with the text before it.
"""

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from bidcompiler.cli import cli
from docexamples import console_steps as steps_of, matches

ROOT = Path(__file__).resolve().parents[1]
TUTORIAL = ROOT / "docs" / "tutorial.md"
FILE_MARK = re.compile(r"<!-- file: (\S+) -->\n```\w+\n(.*?)```", re.S)


def console_steps():
    """The tutorial's commands, each with the lines it shows after it."""
    return steps_of(TUTORIAL.read_text(encoding="utf-8"))


def test_the_tutorial_has_commands_and_files():
    assert len(console_steps()) >= 6
    assert len(FILE_MARK.findall(TUTORIAL.read_text(encoding="utf-8"))) >= 3


@pytest.mark.parametrize("path, content", FILE_MARK.findall(TUTORIAL.read_text(encoding="utf-8")))
def test_every_file_shown_is_the_file_in_the_repository(path, content):
    assert (ROOT / path).read_text(encoding="utf-8") == content


@pytest.mark.parametrize("command, expected", console_steps(), ids=[c for c, _ in console_steps()])
def test_every_command_prints_what_the_tutorial_shows(command, expected, monkeypatch):
    monkeypatch.chdir(ROOT)
    argv = shlex.split(command)
    assert argv[0] == "bidwhist"
    result = CliRunner().invoke(cli, argv[1:])
    actual = (result.stdout + result.stderr).rstrip("\n").split("\n")
    assert matches(expected, actual), "\n".join(actual)
    assert "Traceback" not in result.stdout + result.stderr
