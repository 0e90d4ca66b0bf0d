"""Sentences of README.md that show a command in prose (not in a console block) are true.

The README's console blocks are run by tests/test_readme.py; these are the commands its
prose quotes, run as quoted.
"""

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from bidcompiler.cli import cli

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_removing_notrump_with_set_compiles_as_the_readme_says():
    # "(`--set auction.strains.notrump=~` removes it; on `standard` that also takes `--set ...`"
    match = re.search(r"\(`(--set auction\.strains\.notrump=~)` removes it; on `standard` that also takes\s+`([^`]+)`",
                      README)
    assert match, "the README says how to remove a strain with --set"
    argv = ["compile", "standard", *shlex.split(match[1]), *shlex.split(match[2])]
    result = CliRunner().invoke(cli, argv)
    assert result.exit_code == 0, result.stderr
    assert "notrump" not in result.stdout.split("bids", 1)[1].split("\n", 1)[0]  # the ladder has no notrump
    alone = CliRunner().invoke(cli, ["compile", "standard", *shlex.split(match[1])])
    assert alone.exit_code == 1 and "auction.ranking" in alone.stderr  # why the README names the others
