"""docs/json.md says what the ``--json`` of ``simulate`` and ``compare`` hold: every key
it lists is printed, every key printed is listed, and every figure's ``out_of`` is the
one the page gives (runs of three hands, random bots)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from bidcompiler.cli.report import out_of
from clirun import run
from runtime.metrics import METRIC_KINDS

PAGE = (Path(__file__).resolve().parents[1] / "docs" / "json.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    """The text of the page's section ``## `title` ``, up to the next section of that level."""
    start = PAGE.index(f"## `{title}`")
    end = PAGE.find("\n## ", start + 1)
    return PAGE[start:end if end != -1 else None]


def _first_cells(text: str) -> list[str]:
    """The first cell of every row of the tables in ``text`` (headers and rules left out)."""
    rows = [line.split("|")[1].strip() for line in text.splitlines() if line.startswith("| `")]
    return rows


def _keys(text: str) -> set[str]:
    """Every key the first column of the tables of ``text`` names (a cell may name several)."""
    return {key for cell in _first_cells(text) for key in re.findall(r"`([^`]+)`", cell)}


def _figures_table() -> dict[str, str]:
    """The statistics table: key pattern -> its ``out_of`` column."""
    text = _section("simulate --json").split("### The figures of `statistics`", 1)[1]
    rows = [line.split("|")[1:4] for line in text.splitlines() if line.startswith("| `")]
    return {key.strip().strip("`"): base.strip() for key, _, base in rows}


def test_simulate_json_keys_are_the_documented_ones():
    data = json.loads(run("simulate", "standard", "--hands", "3", "--seed", "1", "--bots", "random", "--json").stdout)
    documented = _keys(_section("simulate --json").split("### The figures", 1)[0])
    assert set(data) == documented


def test_compare_json_keys_are_the_documented_ones():
    data = json.loads(run("compare", "standard", "standard+to-5", "--hands", "3", "--seed", "1", "--bots", "random",
                          "--json").stdout)
    assert set(data) == _keys(_section("compare --json"))
    assert {"out_of"} < set(data["differences"][0])


def test_every_figure_family_is_documented_with_what_it_is_counted_over():
    table = _figures_table()
    assert {key.split(":", 1)[0] for key in table} == set(METRIC_KINDS)
    for key, base in table.items():
        assert out_of(key) == base, key  # made:BID -> "BID contracts", as the page writes it
