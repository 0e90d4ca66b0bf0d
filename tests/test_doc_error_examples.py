"""The error messages docs/whist-syntax.md shows are ones `bidwhist check` prints, at the positions shown.

Its "Errors" block shows the messages of a file ``rule.whist``: a block left open
(the auction's, line 2, its line 3 being ``  levels { from 3; to 7 }``), and a strain's
trump that is no suit (line 3 being ``  strains { uptown { trump X } }``).
"""

import re
from pathlib import Path

from click.testing import CliRunner

from bidcompiler.cli import cli
from docexamples import blocks

ROOT = Path(__file__).resolve().parents[1]
SOURCES = {  # the line 3 each message is about, in a house rule whose auction block opens on line 2
    "missing `}`": "house-rule rule\nauction {\n  levels { from 3; to 7 }\n",
    "is not one of": "house-rule rule\nauction {\n  strains { uptown { trump X } }\n}\n",
}


def test_every_error_line_shown_is_printed(tmp_path, monkeypatch):
    syntax = (ROOT / "docs" / "whist-syntax.md").read_text(encoding="utf-8")
    [shown] = [b for b in blocks(syntax, "text") if "rule.whist:" in b]
    messages = [line for line in shown.splitlines() if re.match(r"rule\.whist:\d+:\d+: ", line)]
    assert len(messages) == len(SOURCES)
    monkeypatch.chdir(tmp_path)
    for message in messages:
        [source] = [text for key, text in SOURCES.items() if key in message]
        (tmp_path / "rule.whist").write_text(source, encoding="utf-8")
        result = CliRunner().invoke(cli, ["check", "rule.whist"])
        assert result.exit_code == 1
        assert message in result.stderr.splitlines(), result.stderr
