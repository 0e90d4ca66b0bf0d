"""Human-readable output of the CLI, drawn with rich (stdout) and progress bars (stderr)."""

from __future__ import annotations

from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from . import ir


def stdout() -> Console:
    """A console for results; plain text when stdout is not a terminal."""
    return Console(highlight=False, soft_wrap=True)


def stderr() -> Console:
    """A console for progress and notes."""
    return Console(stderr=True, highlight=False)


def variants_table(rows: list[dict]) -> None:
    """One line per shipped variant."""
    console = stdout()
    width = max((len(r["name"]) for r in rows), default=0)
    for kind, heading in (("variant", "Variants"), ("house-rule", "House rules (--with RULE or NAME+RULE)")):
        chosen = [r for r in rows if r.get("kind", "variant") == kind]
        if not chosen:
            continue
        console.print(f"[bold underline]{heading}[/bold underline]")
        for r in chosen:
            source = f"  [dim]({r['source']})[/dim]" if r["source"] and kind == "variant" else ""
            console.print(f"[bold]{r['name']:<{width}}[/bold]  {r['title']}{source}")


def variant_summary(v: ir.Variant) -> None:
    """A short readable summary of a compiled variant (the IR in words)."""
    console = stdout()
    size = len(v.deck.suits) * len(v.deck.ranks) + len(v.deck.extra)
    a = v.auction
    ladder = " < ".join(" = ".join(group) for group in a.ranking)
    lines = [
        f"[bold]{v.name}[/bold] — {v.title}",
        f"  players   {v.players} ({v.sides})",
        f"  deck      {size} cards: {''.join(v.deck.suits)} x {''.join(v.deck.ranks)}"
        + (f" + {' '.join(v.deck.extra)}" if v.deck.extra else ""),
        f"  deal      {v.deal.hand} each, kitty {v.deal.kitty}",
        f"  bids      {a.min_level}-{a.max_level}, at one number: {ladder}"
        + f"; if all pass: {a.if_all_pass}",
        f"  orders    " + ", ".join(f"{o.name} ({' '.join(o.ranks)})" for o in v.orders),
        f"  scoring   made when {v.scoring.made.text}; declarers {v.scoring.declarer.text}; "
        f"defenders {v.scoring.defender.text}; times {v.scoring.multiplier.text}",
        f"  game      won when {v.game.win.text}; lost when {v.game.lose.text}",
        "  (use --json for the full intermediate form)",
    ]
    for line in lines:
        console.print(line)


def _hand_lines(console: Console, hand: dict, title: str | None = None) -> None:
    if title:
        console.print(f"[bold]{title}[/bold]")
    c = hand["contract"]
    if c is None:
        console.print("  no contract: the hand was thrown in")
        return
    trump = c["trump"] or "no trump"
    console.print(f"  contract  {c['bid']} {c['strain']} by seat {c['declarer']} (side {c['side']}), "
                  f"trump {trump}, {c['direction']}")
    table = Table(box=None, pad_edge=False, show_header=True, header_style="dim")
    table.add_column("#", justify="right")
    table.add_column("leader", justify="right")
    table.add_column("cards")
    table.add_column("winner", justify="right")
    for i, t in enumerate(hand["tricks"], 1):
        table.add_row(str(i), str(t["leader"]), " ".join(t["cards"]), str(t["winner"]))
    console.print(table)
    console.print(f"  books     {' - '.join(map(str, hand['books']))}")
    console.print(f"  score     {' / '.join(f'{s:+d}' for s in hand['score'])}")


def replay_result(result: dict, is_game: bool) -> None:
    """A replayed hand or game, trick by trick, with books and scores."""
    console = stdout()
    if result["error"] is not None:
        return  # the error itself goes to stderr
    if not is_game:
        _hand_lines(console, result)
        return
    for i, hand in enumerate(result["hands"]):
        _hand_lines(console, hand, f"hand {i}")
    console.print(f"[bold]totals[/bold]  {' / '.join(map(str, result['totals']))}")
    winner = result["winner"]
    console.print("game in progress" if winner is None else f"[bold]side {winner} wins[/bold]")


def simulation_report(data: dict) -> None:
    """The contract distribution, make rates and mean scores of a simulation."""
    console = stdout()
    console.print(f"[bold]{data['variant']}[/bold]: {data['hands']} hands, seed {data['seed']}")
    table = Table(show_header=True, header_style="bold")
    table.add_column("contract")
    table.add_column("hands", justify="right")
    table.add_column("share", justify="right")
    table.add_column("made", justify="right")
    for row in data["contracts"]:
        table.add_row(row["contract"], str(row["count"]), f"{row['share']:.1%}", f"{row['make_rate']:.1%}")
    if data["no_contract"]:
        table.add_row("(no contract)", str(data["no_contract"]), f"{data['no_contract'] / data['hands']:.1%}", "")
    console.print(table)
    if data["make_rate"] is not None:
        console.print(f"make rate        {data['make_rate']:.1%}")
        console.print(f"declarers score  {data['mean_declarer_score']:+.2f} per hand")
    console.print("mean score       " + ", ".join(
        f"side {i} {s:+.2f}" for i, s in enumerate(data["mean_score"])) + " per hand")


@contextmanager
def progress(total: int, label: str):
    """A progress bar on stderr for long runs; yields a function to advance it."""
    console = stderr()
    if total < 200 or not console.is_terminal:
        yield lambda: None
        return
    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda: bar.advance(task)
