"""Human-readable output of the CLI, drawn with rich (stdout) and progress bars (stderr)."""

from __future__ import annotations

import re
import textwrap
from contextlib import contextmanager
from typing import TYPE_CHECKING, Iterator, Sequence

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType
from rich.markup import escape
from rich.measure import Measurement
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.segment import Segment
from rich.table import Column, Table
from rich.text import Text

from runtime.stats import Interval

from ..formula_text import formula_shown
from .common import PROGRESS_FROM
from . import console as consoles
from .report import FIRST_DEALER, is_symmetric

if TYPE_CHECKING:  # the IR's module loads the schema: a run from the rule cache needs none of it
    from .. import ir


def stdout() -> Console:
    """A console for results; plain text when stdout is not a terminal."""
    return consoles.Console(highlight=False, soft_wrap=True)


def stderr() -> Console:
    """A console for progress and notes."""
    return consoles.Console(stderr=True, highlight=False)


class PlainTable:
    """A table of one-line string cells, drawn exactly as rich draws
    ``Table(box=None, pad_edge=False, show_header=True, header_style="dim")``, without its layout.

    rich measures and lays out every cell of a table through its general machinery,
    some 15 ms for a hand's dozen tricks: ten times the hand's replay, so it made
    ``replay --each`` ten times slower than ``--json``.  Here the columns are as wide
    as their widest cell, two spaces apart, the header dim, as rich draws them (the
    same bytes, colour or not).  Where rich would draw anything differently (a cell
    it would read as markup or an emoji code, tabs or control codes, space around a
    cell, or a table wider than the console that rich would wrap), rich's own Table
    draws it.
    """

    def __init__(self, columns: Sequence[tuple[str, str]]) -> None:
        """``columns``: each column's header and justification (``"left"`` or ``"right"``)."""
        self.columns = list(columns)
        self.rows: list[tuple[str, ...]] = []

    def add_row(self, *cells: str) -> None:
        """Add a row of one string per column."""
        self.rows.append(cells)

    def rich_table(self) -> Table:
        """The same table as a rich Table."""
        table = Table(box=None, pad_edge=False, show_header=True, header_style="dim")
        for header, justify in self.columns:
            table.add_column(header, justify=justify)  # type: ignore[arg-type]
        for row in self.rows:
            table.add_row(*row)
        return table

    def _as_is(self) -> bool:
        """True when every cell is drawn as it is: printable, no markup (``[``) or emoji code
        (``:name:``), no space after a header or around a row's cell (rich strips or wraps it),
        and no column whose text all has zero width (rich drops such characters)."""
        if not all(_verbatim(header) and header == header.rstrip() for header, _ in self.columns):
            return False
        if not all(_verbatim(cell) and cell == cell.strip() for row in self.rows for cell in row):
            return False
        return all(max(map(cell_len, column)) > 0 or not any(column)
                   for column in zip((header for header, _ in self.columns), *self.rows))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment | RenderableType]:
        if not self._as_is():
            yield Fitted(self.rich_table())
            return
        headers = [header for header, _ in self.columns]
        widths = [max(cell_len(cell) for cell in column) for column in zip(headers, *self.rows)]
        if sum(widths) + 2 * (len(widths) - 1) > options.max_width:
            yield Fitted(self.rich_table())  # rich wraps or shrinks the columns to fit
            return
        right = [justify == "right" for _, justify in self.columns]
        dim = console.get_style("dim")
        # rich styles the header's cells and the padding between them apart (one escape each).
        pad = Segment(" ", dim)
        for i, header in enumerate(headers):
            if i:
                yield pad
                yield pad
            yield Segment(_aligned(header, widths[i], right[i]), dim)
        yield Segment.line()
        for row in self.rows:
            yield Segment("  ".join(_aligned(cell, width, r) for cell, width, r in zip(row, widths, right)))
            yield Segment.line()


class Fitted:
    """A rich Table drawn as it is where every word of it fits its column, else as a list.

    Narrower than the table's least width (its longest word in each column, a column
    that does not wrap whole, and its rules and padding), rich would cut words short
    (``contra…``, ``(15.0–2…``) or drop a column.  There each row is printed instead as
    its cells, one a line, each named by its column's header (``hands: 40``); the lines
    are printed whole, as every other line is, for the terminal to wrap.  Wide enough,
    the table is drawn exactly as before.
    """

    def __init__(self, table: Table) -> None:
        """``table``: any rich Table whose cells are text."""
        self.table = table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[RenderableType]:
        if _cuts(console, options, self.table):
            yield from _as_list(console, self.table)
        else:
            yield self.table


def _cuts(console: Console, options: ConsoleOptions, table: Table) -> bool:
    """Whether rich would draw some column of ``table`` narrower than its least width (:func:`_least`).

    The table as a whole may fit where a column does not: rich narrows the widest
    columns first, below their longest word (``(34.2–100.0…`` at 40 columns).  So each
    column's width is asked of rich's own layout and set against its least width, both
    through rich's private methods; where those are not there (another rich), the table's
    least width against the console's, which misses those cases only.
    """
    # Measured as if unbounded: rich's measure of a cell stops at the width it is given.
    unbounded = options.update_width(_UNBOUNDED)
    try:
        inside = options.update_width(max(1, options.max_width - table._extra_width))
        widths = table._calculate_column_widths(console, inside)
        least = [_least(table._measure_column(console, unbounded, column), column) for column in table.columns]
    except (AttributeError, TypeError):
        return table.__rich_measure__(console, unbounded).minimum > options.max_width
    return any(width < need for width, need in zip(widths, least))


def _least(measured: Measurement, column: Column) -> int:
    """The width below which rich cuts a cell of ``column`` (``measured`` unbounded): its
    longest word, or its widest cell where it does not wrap (rich then cuts the cell's end)."""
    return measured.maximum if column.no_wrap else measured.minimum


# Wider than any table: a width to measure a table's least width at, unbounded.
_UNBOUNDED = 1 << 20


def _as_list(console: Console, table: Table) -> Iterator[Text]:
    """The rows of ``table`` as lines: a row's first cell, then the others indented, each after
    its header (a cell under no header, compare's ``*``, ends the line before it); a row with
    only its first cell (a heading, ``of the 200 contracts``) alone."""
    headers = [_cell_text(console, column.header).plain.strip() for column in table.columns]
    cells = [[_cell_text(console, cell) for cell in column.cells] for column in table.columns]
    for index, row in enumerate(table.rows):
        texts = [column[index] for column in cells]
        if not any(t.plain.strip() for t in texts[1:]):
            yield texts[0]
        else:
            lines: list[Text] = []
            for i, (header, text) in enumerate(zip(headers, texts)):
                if not text.plain.strip():
                    continue
                if header or not lines:
                    lines.append(_labelled("  " * (i > 0), header, text, table.header_style))
                else:
                    lines[-1].append(" ").append_text(text)
            yield from lines
        if row.end_section:
            yield Text("")


def _cell_text(console: Console, cell: RenderableType) -> Text:
    """A cell (or header) as text: a string read as markup, as the table reads it."""
    if isinstance(cell, Text):
        return cell
    return console.render_str(cell) if isinstance(cell, str) else Text(str(cell))


def _labelled(indent: str, header: str, text: Text, style) -> Text:
    """``header: text`` (the text alone under an empty header), the header in the table's
    header ``style``, the text's later lines indented as its first."""
    out = Text(indent)
    if header:
        out.append(header, style=style or "")
        out.append(": ")
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if i:
            out.append("\n" + indent + "  ")
        out.append_text(line)
    return out


def _verbatim(text: str) -> bool:
    """True where rich draws the string ``text`` as it is (no markup, emoji code, tab or control code)."""
    return text.isprintable() and "[" not in text and text.count(":") < 2


def _aligned(text: str, width: int, right: bool) -> str:
    """``text`` padded with spaces to ``width`` cells, on the left when ``right``."""
    padding = " " * (width - cell_len(text))
    return padding + text if right else text + padding


class Lines:
    """Several lines printed with one ``Console.print``: the same bytes as printing each
    line as its own :class:`rich.text.Text` (colour or not), without rich's cost per print.

    A line is a string and an optional style name, or any renderable (a table).  The
    promise holds on a console with soft wrap on, as render.stdout() makes it: there a
    long line is printed whole, as a Text is; elsewhere rich would wrap the Text.
    """

    def __init__(self) -> None:
        """No lines yet."""
        self.parts: list[tuple[str, str] | RenderableType] = []

    def add(self, text: str, style: str = "") -> None:
        """A line ``text``, in ``style``, as ``Text(text, style=style)`` prints it."""
        self.parts.append((text, style))

    def add_renderable(self, renderable: RenderableType) -> None:
        """Anything rich draws (a :class:`PlainTable`), drawn in its place."""
        self.parts.append(renderable)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment | RenderableType]:
        for part in self.parts:
            if not isinstance(part, tuple):
                yield part
            elif part[0].isprintable():  # a Text draws such a line as it is
                text, style = part
                yield Segment(text, console.get_style(style) if style else None)
                yield Segment.line()
            else:  # tabs, control codes, line breaks: rich's Text expands or strips them
                yield Text(part[0], style=part[1])


def shown(f: ir.Formula) -> str:
    """A formula as the summary prints it: as ``rules`` and ``diff`` do, and safe from rich's markup."""
    return escape(formula_shown(f.text))


def variant_summary(v: ir.Variant, sets: tuple[str, ...] = ()) -> None:
    """A short readable summary of a compiled variant (the IR in words); ``sets``, the
    command line's ``--set`` settings, are named in the heading, since the lines show them."""
    console = stdout()
    size = len(v.deck.cards())
    a = v.auction
    ladder = " < ".join(" = ".join(group) for group in a.ranking)
    uses_target = any(re.search(r"\btarget\b", f.text) for f in (v.game.win, v.game.lose))
    target = f"target {v.game.target}; " if uses_target else ""
    # A strain bid at levels of its own (notrump from 4) is part of the ladder a house rule changed.
    own = [f"{s.name} {s.levels[0]}-{s.levels[1]}" for s in a.strains if s.levels is not None]
    own_levels = f" ({', '.join(own)})" if own else ""
    with_rules = "".join(f" + {escape(r)}" for r in v.house_rules)
    lines = [
        f"[bold]{v.name}[/bold]{with_rules}{''.join(f' --set {escape(s)}' for s in sets)} — {v.title}",
        f"  players   {v.players} ({v.sides})",
        f"  deck      {size} cards: {''.join(v.deck.suits)} x {''.join(v.deck.ranks)}"
        + (f" + {' '.join(v.deck.extra)}" if v.deck.extra else "")
        + (f" without {' '.join(v.deck.without)}" if v.deck.without else ""),
        f"  deal      {v.deal.hand} each, kitty {v.deal.kitty}",
        f"  bids      {a.min_level}-{a.max_level}{own_levels}, at one number: {ladder}"
        + f"; if all pass: {a.if_all_pass}",
        "  orders    " + ", ".join(f"{o.name} ({' '.join(o.ranks)})" for o in v.orders),
        f"  scoring   made when {shown(v.scoring.made)}; declarers {shown(v.scoring.declarer)}; "
        f"defenders {shown(v.scoring.defender)}; times {shown(v.scoring.multiplier)}",
        f"  game      {target}won when {shown(v.game.win)}; lost when {shown(v.game.lose)}",
        "  (use --json for the full intermediate form)",
    ]
    for line in lines:
        console.print(line)


def _note(console: Console, markup: str) -> None:
    """A line of prose, wrapped at the console's width (80 columns when piped) between words:
    the console prints long lines whole (soft wrap) for tables' sake, and a terminal would
    break prose mid-word."""
    for line in Text.from_markup(markup).wrap(console, max(console.width, 40)):
        line.rstrip()  # rich leaves the space it broke at
        console.print(line)


# A figure with its interval, "8.4% ± 0.6%" or "100% (21% to 100%)" (report._plusminus): one
# word to the wrapping, since "8.4%" at a line's end and "± 0.6%" below read as two figures.
_FIGURE = re.compile(r"[0-9.]+%? (?:± [0-9.]+%?|\([0-9.]+%? to [0-9.]+%?\))")
_KEPT_TOGETHER = "\xa0"  # textwrap breaks at ASCII whitespace only


def _bullet(console: Console, text: str) -> None:
    """``text`` as a bullet point, its lines after the first indented under its first word;
    a figure and its interval are never split over two lines."""
    text = _FIGURE.sub(lambda m: m[0].replace(" ", _KEPT_TOGETHER), text.replace(_KEPT_TOGETHER, " "))
    for line in textwrap.wrap(text, max(console.width, 40), initial_indent="  • ", subsequent_indent="    ",
                              break_long_words=False, break_on_hyphens=False):
        console.print(Text(line.replace(_KEPT_TOGETHER, " ")))


def _pct(x, digits: int = 1) -> str:
    return "—" if x is None else f"{x * 100:.{digits}f}%"


def _num(x, signed: bool) -> str:
    if x is None:
        return "—"
    return f"{x:+.2f}" if signed else f"{x:.2f}"


def _ci(stat: dict, signed: bool = False) -> str:
    """A statistic's 95% interval, ``(34.0–41.6%)`` or ``(+2.41 to +3.02)``."""
    low, high = stat.get("low"), stat.get("high")
    if low is None or high is None:
        return ""
    if stat["kind"] == "proportion":
        return f"({low * 100:.1f}–{high * 100:.1f}%)"
    return f"({_num(low, signed)} to {_num(high, signed)})"


def _value(stat: dict, signed: bool = False) -> str:
    return _pct(stat["value"]) if stat["kind"] == "proportion" else _num(stat["value"], signed)


# Figures of the second table of a simulation report, in order; contracts have the first.
_SIGNED = ("points", "declarer-points")


def _figure_rows(statistics: dict) -> list[tuple[str, str, dict]]:
    rows = []
    for key, stat in statistics.items():
        family = key.split(":", 1)[0]
        if family in ("contract", "strain", "strain-made") or (family == "made" and ":" in key):
            continue  # the contract and strain tables show them
        label = stat["label"]
        if family == "points":
            label = f"mean score, side {key.split(':', 1)[1]} (points per hand)"
        rows.append((key, label, stat))
    return rows


def _by_base(rows: list, base) -> dict[str, list]:
    """``rows`` grouped by what their figures are counted over (``base(row)``: hands,
    contracts, games...), the groups in order of their first row, each row's order kept."""
    groups: dict[str, list] = {}
    for row in rows:
        groups.setdefault(base(row), []).append(row)
    return groups


def _heading_row(table: Table, text: str, first: bool) -> None:
    """A row naming what the rows below it are counted over, set off from the rows above by a rule."""
    if not first:
        table.rows[-1].end_section = True
    table.add_row(Text(text, style="italic"), *([""] * (len(table.columns) - 1)))


# Under a report of games: what the rows of wins by dealer position count, for two sides or more.
# Who that is comes from report.py, as the JSON's definition says it.
_FIRST_DEALER = (f"The first dealer is {FIRST_DEALER}; the rows naming it count "
                 "the games won by its own side and by each side to its left.")


# What the heading of a comparison's group of figures says, by what they are counted over;
# a contract's or strain's make rate is counted over its own contracts ("3 uptown made").
_COMPARE_HEADINGS = {"hands": "of the hands dealt", "contracts": "of the contracts",
                     "own": "of its own contracts", "games": "of the games"}


def _strain_table(rows: list[dict], stats: dict) -> Table:
    """Each strain's contracts, share of the contracts and make rate (simulate --json's ``strains``)."""
    table = Table(show_header=True, header_style="bold")
    table.add_column("strain")
    table.add_column("contracts", justify="right")
    table.add_column("share of contracts", justify="right")
    table.add_column("made", justify="right")
    for row in rows:
        share = stats[f"strain:{row['strain']}"]
        made = stats.get(f"strain-made:{row['strain']}")
        table.add_row(row["strain"], str(row["count"]), f"{_value(share)} {_ci(share)}",
                      f"{_value(made)} {_ci(made)}" if made else "—")
    return table


def bots_header(data: dict) -> str:
    """``bots: heuristic`` (or ``bots: side 0 heuristic, side 1 random``): the bots of a report, in words."""
    return f"bots: {data['bots_description']}"


def simulation_report(data: dict) -> None:
    """A simulation's figures, each with its 95% confidence interval, as two tables.

    First the contracts (share of hands, make rate), then where the ladder has several
    strains each strain's share of the contracts and make rate, then every other figure:
    make and set rates, sweeps, thrown-in hands, points, and with games the game
    length and the wins by side and by dealer position (defined under the table),
    grouped under rows that say what they are counted over (``of the 96 contracts``).
    Prose is wrapped at the console's width; the first line, naming the run, is not.
    """
    console = stdout()
    stats = data["statistics"]
    amount = (f"{data['games']} games ({data['hands']} hands)" if data["mode"] == "games"
              else f"{data['hands']} hands")
    # The first line is not wrapped: it names the run as typed, to be copied whole.
    console.print(f"[bold]{escape(data['variant'])}[/bold]: {amount}, seed {data['seed']}, {bots_header(data)}; "
                  "95% confidence intervals in brackets")
    table = Table(show_header=True, header_style="bold")
    table.add_column("contract")
    table.add_column("hands", justify="right")
    table.add_column("share of hands", justify="right")
    table.add_column("made", justify="right")
    for row in data["contracts"]:
        share = stats[f"contract:{row['contract']}"]
        made = stats[f"made:{row['contract']}"]
        table.add_row(row["contract"], str(row["count"]), f"{_value(share)} {_ci(share)}",
                      f"{_value(made)} {_ci(made)}")
    if data["no_contract"]:
        redeal = stats["redeal"]
        table.add_row("(no contract)", str(data["no_contract"]), f"{_value(redeal)} {_ci(redeal)}", "")
    console.print(Fitted(table))
    if data["strains"]:
        console.print(Fitted(_strain_table(data["strains"], stats)))
    figures = Table(show_header=True, header_style="bold")
    figures.add_column("figure")
    figures.add_column("value", justify="right")
    figures.add_column("95% interval", justify="right")
    # Each group of figures under a row saying what they are counted over: "of the 135 contracts".
    groups = _by_base(_figure_rows(stats), lambda row: row[2]["out_of"])
    for i, (base, rows) in enumerate(groups.items()):
        _heading_row(figures, f"of the {rows[0][2]['n']} {base}" + (" dealt" if base == "hands" else ""), i == 0)
        for key, label, stat in rows:
            signed = key.split(":", 1)[0] in _SIGNED
            figures.add_row(label, _value(stat, signed), _ci(stat, signed))
    console.print(Fitted(figures))
    if data["mode"] == "games":
        _note(console, f"[dim]Hands per game count thrown-in hands.  {_FIRST_DEALER}[/dim]")
        unfinished = stats.get("unfinished", {}).get("value")
        if unfinished:
            _note(console, f"[yellow]{_pct(unfinished)} of the games were still undecided after "
                          f"{data['max_hands']} hands (--max-hands) and stopped there.[/yellow]")


def _difference_row(table: Table, d: dict) -> None:
    """One figure of a comparison: A, B, and B − A with its interval, starred where significant."""
    sa, sb = {**d["a"], "kind": d["kind"]}, {**d["b"], "kind": d["kind"]}
    signed = d["metric"].split(":", 1)[0] in _SIGNED
    diff = d["difference"]
    if diff["value"] is None:
        shown = "—"
    else:
        scale, unit = (100, " pts") if d["kind"] == "proportion" else (1, "")
        digits = 1 if scale == 100 else 2
        shown = f"{diff['value'] * scale:+.{digits}f}"
        if diff["low"] is not None:
            interval = Interval(diff["value"], diff["low"], diff["high"], diff["n"])
            if is_symmetric(interval):
                shown += f" ± {interval.half_width * scale:.{digits}f}"
            else:  # lopsided (a proportion near 0 or 1): the range itself
                shown += f" ({diff['low'] * scale:+.{digits}f} to {diff['high'] * scale:+.{digits}f})"
        shown += unit
    table.add_row(d["label"], _value(sa, signed), _value(sb, signed), shown, "*" if d["significant"] else "")


def comparison_report(data: dict) -> None:
    """A comparison: both variants' figures, the paired differences, and the verdict in words."""
    console = stdout()
    a, b = data["a"], data["b"]
    amount = f"{data['games']} games" if data["mode"] == "games" else f"{data['hands']} hands"
    deals = ("on the same deals" if data["same_deals"] else
             "dealt from the same seeds (the decks or hand sizes differ, so the cards do too)")
    console.print(f"[bold]{escape(a['variant'])}[/bold] (A) against [bold]{escape(b['variant'])}[/bold] (B): "
                  f"{amount} {deals}, seed {data['seed']}, {bots_header(data)}")
    if data["mode"] == "games":
        console.print(f"A played {a['hands']} hands, B {b['hands']}.")
    table = Table(show_header=True, header_style="bold")
    table.add_column("figure")
    # Where 80 columns are tight the labels wrap, never a number: "-20.0 (-62.4 to +31.7)" then "pts"
    # on a line of its own read as two figures.
    table.add_column("A", justify="right", no_wrap=True)
    table.add_column("B", justify="right", no_wrap=True)
    table.add_column("B − A, 95% interval", justify="right", no_wrap=True)
    table.add_column("", justify="left", no_wrap=True)  # * where the interval excludes zero
    # Figures that never happened under either variant (a contract nobody bid) are left out.
    shown_rows = [d for d in data["differences"] if not d["a"]["value"] == d["b"]["value"] == 0]
    groups = _by_base(shown_rows, lambda d: d["out_of"] if d["out_of"] in _COMPARE_HEADINGS else "own")
    for i, base in enumerate(b for b in _COMPARE_HEADINGS if b in groups):  # in the headings' order
        _heading_row(table, _COMPARE_HEADINGS[base], i == 0)
        for d in groups[base]:
            _difference_row(table, d)
    console.print(Fitted(table))
    _note(console, "[dim]* significant: the 95% interval of B − A excludes zero.  pts: percentage points.[/dim]")
    if data["summary"]:
        _note(console, "[bold]What changes under B[/bold] (95% intervals; differences of percentages in points):")
        for sentence in data["summary"]:
            _bullet(console, f"{sentence[0].upper()}{sentence[1:]}.")
    else:
        _note(console, "[bold]No significant difference[/bold] between A and B on these deals.")
    if data["no_clear_difference"]:
        _note(console, "[bold]No clear difference[/bold] in " + escape("; ".join(data["no_clear_difference"])) + ".")
    compared = sum(1 for d in data["differences"] if d["difference"]["value"] is not None)
    _note(console, f"[dim]{compared} figures compared, each at 95%: about one in twenty may look different "
                  "by chance alone, so read small differences on single figures with care.[/dim]")
    if data["mode"] == "games":
        _note(console, f"[dim]{_FIRST_DEALER}[/dim]")


@contextmanager
def progress(total: int, label: str):
    """A progress bar on stderr for long runs; yields a function to advance it."""
    console = stderr()
    if total < PROGRESS_FROM or not console.is_terminal:
        yield lambda: None
        return
    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda: bar.advance(task)
