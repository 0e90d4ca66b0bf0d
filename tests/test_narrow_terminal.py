"""Text output on a narrow terminal: every word of a table is printed whole.

Below the width where a table's columns hold their longest words, rich cut them short
(``contra…``, ``(15.0–2…``) or dropped a column (compare's figure names at 40 columns);
render.Fitted prints such a table as a list instead.  Wide enough, the table is drawn
exactly as rich draws it.
"""

from __future__ import annotations

import io

import pytest
from clirun import run
from rich.console import Console
from rich.table import Table

from bidcompiler.cli.render import Fitted
from runtime.solver import DoubleDummy

BOX = set("│┃┏┓┗┛┡┩┠┨━─┬┴┼╇╈┳┻└┘┌┐├┤╭╮╯╰ ")


def words(text: str) -> set[str]:
    """The words of ``text``, without the table's rules or a list's `header:` colon."""
    found = {token.strip("│┃:") for token in text.split()}
    return {w for w in found if w and not set(w) <= BOX}


def printed(renderable, width: int) -> str:
    out = io.StringIO()
    Console(file=out, width=width, soft_wrap=True, highlight=False).print(renderable)
    return out.getvalue()


def test_a_table_whose_words_fit_is_drawn_as_rich_draws_it():
    table = Table(show_header=True, header_style="bold")
    for header in ("contract", "hands", "share of hands"):
        table.add_column(header)
    table.add_row("3 uptown", "40", "20.0% (15.0–26.1%)")
    assert printed(Fitted(table), 80) == printed(table, 80)
    assert printed(Fitted(table), 40) == printed(table, 40)  # wrapped at spaces, no word cut


def test_a_column_narrowed_below_its_longest_word_is_printed_as_a_list():
    # Was `(34.2–100.0…` at 40 columns: the table as a whole fits its least width, but rich
    # narrows its widest column first, below that column's longest word.
    table = Table(show_header=True, header_style="bold")
    for header in ("figure", "value", "95% interval"):
        table.add_column(header)
    table.add_row("the side on the first dealer's left wins", "100.0%", "(34.2–100.0%)")
    assert "…" in printed(table, 40)
    assert printed(Fitted(table), 40) == ("figure: the side on the first dealer's left wins\n"
                                          "  value: 100.0%\n  95% interval: (34.2–100.0%)\n")


@pytest.mark.parametrize("args", [
    ("simulate", "standard", "--hands", "40", "--seed", "1"),
    ("simulate", "two-handed", "--games", "1", "--seed", "2"),
    ("compare", "standard", "standard+defenders-score", "--hands", "40", "--seed", "1"),
])
@pytest.mark.parametrize("width", ["40", "30"])
def test_no_word_of_a_report_is_cut_on_a_narrow_terminal(args, width):
    wide = run(*args, env={"COLUMNS": "200"})
    narrow = run(*args, env={"COLUMNS": width})
    assert wide.exit_code == narrow.exit_code == 0, narrow.stderr
    assert "…" not in narrow.stdout
    assert words(wide.stdout) <= words(narrow.stdout)


def test_no_word_of_an_analysis_is_cut_on_a_narrow_terminal(tmp_path, monkeypatch):
    # The layout is under test, not the search: a stand-in for the double-dummy solver
    # (seconds a hand) whose answer falls a book a trick, so rows say "declarers lost 1".
    monkeypatch.setattr(DoubleDummy, "solve", lambda self, state: max(0, 9 - len(state.tricks)))
    records = tmp_path / "hands.jsonl"
    assert run("simulate", "standard", "--hands", "1", "--seed", "1", "--records", str(records)).exit_code == 0
    for command in ("analyze", "replay"):
        wide = run(command, str(records), env={"COLUMNS": "200"})
        for width in ("40", "30"):
            narrow = run(command, str(records), env={"COLUMNS": width})
            assert narrow.exit_code == 0 and "…" not in narrow.stdout
            assert words(wide.stdout) <= words(narrow.stdout)


def test_a_column_that_does_not_wrap_is_listed_once_narrowed_below_its_widest_cell():
    # A no_wrap column's cell is cut at its end (`(15.…`), not wrapped at its spaces, so
    # what it needs is its widest cell, not its longest word (14 here, under 28 columns).
    table = Table(show_header=False)
    table.add_column(no_wrap=True)
    table.add_row("+2.5 (-4.8 to +10.8) pts, the interval")
    assert "…" in printed(table, 30)
    assert printed(Fitted(table), 30) == "+2.5 (-4.8 to +10.8) pts, the interval\n"
    assert printed(Fitted(table), 42) == printed(table, 42)  # it fits: drawn as rich draws it
