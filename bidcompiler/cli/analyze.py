"""``bidwhist analyze``: double-dummy analysis of hand and game records.

For each hand, the record is replayed and at every trick boundary (and, with
``--every-card``, before every card) the double-dummy solver says how many books
the declaring side can still reach with perfect play by everyone, all hands known.
Next to what actually happened, a drop shows where the declaring side gave a book
away and a rise where the defenders did.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import click

from .common import record_file

if TYPE_CHECKING:
    from runtime.hand import HandState
    from runtime.ruleset import Ruleset
    from runtime.solver import DoubleDummy

# rich, the engine, the solver and the record reader are imported inside the functions
# that use them, so that `bidwhist analyze --help` starts at once (tests/test_startup.py).


def play_start(final: HandState) -> HandState:
    """The hand of ``final`` again, at its first card: deal, calls, declaration and discards replayed."""
    from runtime.hand import HandState

    # The hand's history up to its first card (a declared notrump included), replayed by the engine.
    return HandState.from_actions(final.rules, final.dealer, [list(h) for h in final.dealt], list(final.kitty),
                                  final.history_before_play())


def _total_books(state: HandState) -> int:
    """All the books of the hand: those won so far plus every book still to be won."""
    return sum(state.books_so_far()) + len(state.hands[state.seat]) + (1 if state.discards_book_pending() else 0)


def analyze_hand(final: HandState, every_card: bool, solver: DoubleDummy, claimed: bool = False,
                 in_progress: bool = False, raw_books: list[int] | None = None) -> dict:
    """The analysis of one replayed hand as plain data (the JSON of one hand).

    ``claim`` is what the record claims: with two sides the declaring side's share of the
    tricks left (the record's number), with more a list by side; counted from ``raw_books``
    (the books before any renege penalty, :attr:`HandReplay.raw_books`), as a penalty moves
    books but claims none.
    A hand in progress (records.md ``in_progress``) is analysed up to where it stops,
    the last position being the one it stops at (mid-trick too: the solver starts
    from any position of the play); ``score`` is null and ``in_progress`` true.
    """
    from runtime.hand import PLAY

    rules = final.rules
    cards = rules.cards
    if final.declarer < 0:
        if in_progress:
            return {"contract": None, "note": "in progress: the auction is still open", "declaring_side": None,
                    "positions": [], "books": final.books_so_far(), "score": None, "claim": None,
                    "in_progress": True}
        return {"contract": None, "note": "no contract: the hand was thrown in", "declaring_side": None,
                "positions": [], "books": list(final.books), "score": list(final.score), "claim": None}
    side = rules.side_of[final.declarer]
    if in_progress and final.phase != PLAY:
        return {"contract": final.decided_contract, "note": "in progress: the play has not begun",
                "declaring_side": side, "positions": [], "books": final.books_so_far(), "score": None,
                "claim": None, "in_progress": True}
    state = play_start(final)
    total = _total_books(state)
    played = [c for _, trick, _ in final.tricks for c in trick] + list(final.trick)
    positions: list[dict] = []
    previous = None

    def record(last: dict | None) -> None:
        nonlocal previous
        books = state.books_so_far()
        dd = solver.solve(state) if state.phase == PLAY else 0
        reach = books[side] + dd
        entry = {
            "trick": len(state.tricks),
            "cards": len(state.trick),
            "to_play": state.current_player() if state.phase == PLAY else None,
            "last": last,
            "books": books,
            "dd": dd,
            "dd_declaring_books": reach,
            "dd_defending_books": total - reach,
            "change": 0 if previous is None else reach - previous,
        }
        previous = reach
        positions.append(entry)

    def replayed():
        # The cards replayed by the engine, a position recorded after each (or each trick).
        for card in played:
            seat = state.current_player()
            tricks_before = len(state.tricks)
            yield card
            if every_card or len(state.tricks) > tricks_before:
                if len(state.tricks) > tricks_before:
                    leader, trick, winner = state.tricks[-1]
                    last = {"seat": seat, "card": cards[card], "leader": leader,
                            "trick": [cards[c] for c in trick], "winner": winner}
                else:
                    last = {"seat": seat, "card": cards[card]}
                record(last)

    record(None)
    state.replay(replayed())
    if in_progress and state.trick and not every_card:  # the position the hand stops at, mid-trick
        seat = (state.leader + len(state.trick) - 1) % rules.players
        record({"seat": seat, "card": cards[state.trick[-1]]})
    if in_progress:
        return {"contract": final.decided_contract, "declaring_side": side, "positions": positions,
                "books": final.books_so_far(), "score": None, "claim": None, "in_progress": True}
    return {
        "contract": final.contract,
        "declaring_side": side,
        "positions": positions,
        "books": list(final.books),
        "score": list(final.score),
        "claim": (_claim(rules, side, final.books if raw_books is None else raw_books, state.books_so_far())
                  if claimed else None),
    }


def _claim(rules: Ruleset, side: int, books: list[int], played: list[int]) -> int | list[int]:
    """The claim by the side: with two sides the declaring side's share (a number, as a record spells
    it); with more, each side's share as a list, also where the record wrote a number (the declaring
    side's taking every remaining trick, records.md) so a program reads one shape per game."""
    shares = [b - p for b, p in zip(books, played)]
    return shares[side] if rules.sides == 2 else shares


def with_reneges(hand: dict, replay) -> dict:
    """``hand`` with the ``reneges`` of ``bidwhist replay --json`` where a house rule lets a renege stand.

    A renege that stood moves books when the hand is scored, so the hand's ``books`` differ
    from the last position's; the list (and the text's renege lines) says why, as replay does.
    """
    reneges = replay.as_json().get("reneges")
    return hand if reneges is None else {**hand, "reneges": reneges}


# The keys of a hand's analysis with nothing in them: what an illegal hand gets in
# the JSON, so a program reads the same keys whether or not the hand was legal (as
# `replay --json` gives an illegal hand its keys, each null).
NOT_ANALYSED = {"contract": None, "declaring_side": None, "positions": None, "books": None, "score": None,
                "claim": None}


# --------------------------------------------------------------------------- text
def _change_text(change: int, last: dict | None, names: tuple[str, str]) -> str:
    """The lost column: who lost ``change`` books of what perfect play reaches (below 0 the
    declaring side, above it the defenders, ``names`` naming each as many as they are), or
    with ``last`` the seat that played the card."""
    if not change:
        return ""
    who = names[0] if change < 0 else names[1]
    if last is not None:  # one card: name the seat that played it
        who = f"seat {last['seat']}"
    return f"{who} lost {abs(change)}"


def print_hand(console, hand: dict, rules: Ruleset, every_card: bool, title: str | None = None,
               renege_lines: list[str] | None = None, penalised: bool = False) -> None:
    """One analysed hand as a table: position, what was played, books, what perfect play reaches.

    As in ``replay`` and ``play``, tricks count from 1 and books are shown by side, in
    side order (the line above the table names the sides); "can reach" is what the
    declaring side can still reach with perfect play.  ``renege_lines`` (replay's words for
    each renege that stood) come before the books, which they explain; ``penalised`` says
    the penalty moved books (``HandReplay.penalty_moved_books``), so they are "after" it.
    """
    from rich.table import Table
    from rich.text import Text

    from ..seatwords import declarer_words
    from . import render
    from .replay import by_side, contract_text
    from .table import side_label

    if title:
        console.print(Text(title, style="bold"))
    c = hand["contract"]
    if c is None or not hand["positions"]:
        if c is not None:
            console.print(Text(f"  contract  {contract_text(rules, c)}"))
        console.print(f"  {hand['note']}")
        return
    side = hand["declaring_side"]
    console.print(Text(f"  contract  {contract_text(rules, c)}"))
    sides = " / ".join(side_label(rules, s, None) for s in range(rules.sides))
    declaring = rules.side_of.count(side)
    declarers = declarer_words(declaring > 1)[0]  # "the declarer(s)", as the rulebook names them
    names = (declarers.removeprefix("the "), "defenders" if rules.players - declaring > 1 else "defender")
    # Two lines, not one of over 100 columns: the table below fits in 80.
    console.print(Text(f"  books by side ({sides})"))
    console.print(Text(f"  can reach: the most books {declarers} ({side_label(rules, side, None)}) can still take"))
    table = Table(box=None, pad_edge=False, show_header=True, header_style="dim")
    table.add_column("  trick", justify="right")
    table.add_column("played")
    table.add_column("books", justify="right")
    table.add_column("can reach", justify="right")
    table.add_column("lost")
    for p in hand["positions"]:
        last = p["last"]
        if last is None:
            played = "(start of play)"
        elif "trick" in last and every_card:
            # the trick's winner, as play shows it
            played = f"seat {last['seat']} {last['card']} → seat {last['winner']}"
        elif "trick" in last:
            played = f"seat {last['leader']}: {' '.join(last['trick'])} → seat {last['winner']}"
        else:
            played = f"seat {last['seat']} {last['card']}"
        # A row after a whole trick is that trick's number (from 1); within a trick,
        # trick.card (the 2nd card of trick 3 is 3.2); the first row is before any card.
        if last is None:
            where = ""
        elif p["cards"] == 0:
            where = str(p["trick"])
        else:
            where = f"{p['trick'] + 1}.{p['cards']}"
        books = " / ".join(map(str, p["books"]))
        table.add_row(where, played, books, str(p["dd_declaring_books"]),
                      _change_text(p["change"], last if every_card else None, names))
    console.print(render.Fitted(table))
    claim = hand["claim"]
    last = hand["positions"][-1]
    if last["trick"] >= rules.hand_size and last["cards"] == 0:
        claim = None  # a claim (of 0) on a hand played to its last trick claims nothing: replay's words
    if isinstance(claim, list):  # more than two sides: each side's share of the rest
        claim = f", the rest by claim ({by_side(rules, claim)})"
    else:
        claim = f", {claim} claimed" if claim is not None else ""
    for line in renege_lines or ():
        console.print(Text(f"  renege    {line}"))
    after = " (after the renege penalty)" if penalised else ""
    console.print(Text(f"  books     {by_side(rules, hand['books'], side)}{claim}{after}"))
    if hand.get("in_progress"):
        console.print(Text("  score     none yet: the hand is in progress"))
        return
    console.print(Text(f"  score     {by_side(rules, hand['score'], sign=True)}"))


def analyze_each(file: str, as_json: bool, every_card: bool, backend: str = "own") -> int:
    """Analyse every line of ``file`` as an independent hand record; the exit status."""
    from rich.text import Text

    from runtime.records import record_line_numbers, replay_or_refusal
    from runtime.solver import DoubleDummy

    from . import render
    from .replay import each_error_line, parse_record_text, read_record_text, records_resolver

    text = read_record_text(file)
    starts: dict[int, int] = {}
    rf = parse_record_text(text, file)
    lines = record_line_numbers(text)[:len(rf.records)]  # one record: the whole text, from its first line
    solver = DoubleDummy(backend=backend)
    console = None if as_json else render.stdout()
    hands, illegal = [], []
    for number, (line, record) in enumerate(zip(lines, rf.records), 1):
        # Each hand is replayed once: the replay analysed, or replay's refusal of it.
        replay, refused = replay_or_refusal(record, records_resolver(rf))
        title = f"hand {number}" + (f" (line {line})" if line != number else "")
        if replay is None:
            err = refused["error"]
            illegal.append(line)
            # replay's ``reneges: null`` where a renege may stand: the keys of a legal hand.
            reneges = {"reneges": None} if "reneges" in refused else {}
            hands.append({"line": line, **NOT_ANALYSED, "error": err, **reneges})
            if console is not None:
                click.echo(each_error_line(file, line, err, text, starts), err=True)
                console.print(Text(f"{title}: illegal at {err['at']}, not analysed", style="bold"))
            continue
        hand = with_reneges(analyze_hand(replay.state, every_card, solver, replay.claimed, replay.in_progress,
                                         replay.raw_books), replay)
        hands.append({"line": line, **hand, "error": None})
        if console is not None:
            print_hand(console, hand, replay.state.rules, every_card, title, replay.renege_lines(),
                       replay.penalty_moved_books)
    if as_json:
        click.echo(json.dumps({"hands": hands, "illegal": illegal}))
    return 1 if illegal else 0


# --------------------------------------------------------------------------- the command
# runtime.solver.BACKENDS, written out so `--help` does not import the solver
# (tests/test_solver.py::test_analyze_solver_choices_are_the_solver_backends keeps the two equal).
SOLVERS = ("own", "fast", "dds")
# The optional package each backend other than our own needs.
_NEEDS = {"fast": ("numba", "fast"), "dds": ("endplay", "dds")}


def solver_available(backend: str) -> str:
    """``backend`` if what it needs is installed; a usage error (exit 2) naming the extra if not."""
    if backend in _NEEDS:
        import importlib.util

        module, extra = _NEEDS[backend]
        if importlib.util.find_spec(module) is None:
            raise click.BadParameter(f"{backend} needs the optional package {module}: "
                                     f"pip install 'bidwhist[{extra}]'", param_hint="'--solver'")
    return backend


@click.command()
@click.argument("file", type=click.Path(), callback=record_file)
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON (docs/records.md).")
@click.option("--every-card", is_flag=True, help="Analyse the position before every card, not only every trick.")
@click.option("--each", is_flag=True,
              help="Analyse each line as an independent hand record (a file written by "
                   "`simulate --hands … --records`), not as one game.")
@click.option("--solver", "backend", type=click.Choice(SOLVERS), default="own", show_default=True,
              callback=lambda ctx, param, value: solver_available(value),
              help="The double-dummy search: own (pure Python, always there); fast (the same "
                   "search compiled by numba, ~10x faster, needs `pip install 'bidwhist[fast]'`; "
                   "its first use on a machine compiles it, about a minute); dds (the DDS "
                   "library for the positions it plays exactly as the rules say, needs "
                   "`pip install 'bidwhist[dds]'`). Every choice gives the same answers.")
def analyze(file, as_json, every_card, each, backend):
    """Double-dummy analysis of a hand record or a game record (.jsonl).

    At every trick boundary (or before every card), the books the declaring side
    can still reach with perfect play by everyone, all hands known, next to the
    books actually taken: a drop marks a book the declarers gave away, a rise one
    the defenders gave away.  Hands and tricks are numbered from 1, books shown by
    side as `bidwhist replay` and `play` show them.  With --each, every line of FILE
    is a hand of its own (--json: {"hands": [...], "illegal": [...]}, each hand with
    its "line"), as `bidwhist replay --each` reads it.  Exit status 0 for a legal
    record, 1 for an illegal one (reported as `bidwhist replay` reports it; with
    --each, when any hand is illegal), 2 for a file that is not a record.  FILE -
    reads the record from stdin, as `bidwhist replay -` does.
    """
    from runtime.records import record_line_numbers
    from runtime.solver import DoubleDummy

    from . import render
    from .replay import checked, error_line, parse_record_text, read_record_text

    if each:
        sys.exit(analyze_each(file, as_json, every_card, backend))
    text = read_record_text(file)
    rf = parse_record_text(text, file)
    # The very checks and messages of `replay`, and the hands that check replayed (once).
    result, replays, _ = checked(rf, file, "analyze")
    if result["error"] is not None:
        err = result["error"]
        if as_json:
            empty = {"hands": None} if rf.is_game else NOT_ANALYSED
            reneges = {"reneges": None} if "reneges" in result else {}  # as replay's, where one may stand
            click.echo(json.dumps({**empty, "error": err, **reneges}))
        else:
            click.echo(error_line(file, err, record_line_numbers(text) if rf.is_game else None, text), err=True)
        sys.exit(1)
    solver = DoubleDummy(backend=backend)
    hands = [with_reneges(analyze_hand(r.state, every_card, solver, r.claimed, r.in_progress, r.raw_books), r)
             for r in replays]
    if as_json:
        out = {"hands": hands, "error": None} if rf.is_game else {**hands[0], "error": None}
        click.echo(json.dumps(out))
        return
    console = render.stdout()
    for i, (hand, r) in enumerate(zip(hands, replays), 1):
        print_hand(console, hand, r.state.rules, every_card, f"hand {i}" if rf.is_game else None,
                   r.renege_lines(), r.penalty_moved_books)
