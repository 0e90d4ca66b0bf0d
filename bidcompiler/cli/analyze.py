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

import click
from rich.table import Table

from runtime.hand import AUCTION, DECLARE_DIRECTION, DECLARE_TRUMP, DISCARD, PLAY, HandState
from runtime.records import replay_file, replay_game, replay_hand
from runtime.ruleset import NO_TRUMP
from runtime.solver import DoubleDummy

from .. import render
from .replay import load_record_file, resolve_for_records


def play_start(final: HandState) -> HandState:
    """The hand of ``final`` again, at its first card: deal, calls, declaration and discards replayed."""
    rules = final.rules
    state = HandState(rules, final.dealer, [list(h) for h in final.dealt], list(final.kitty))
    calls = iter([action for _, action in final.calls])
    discards = iter(final.discards)
    while state.phase != PLAY:
        if state.phase == AUCTION:
            state.apply_action(next(calls))
        elif state.phase == DECLARE_TRUMP:
            state.apply_action(rules.no_trump_action if final.trump == NO_TRUMP
                               else rules.first_trump_action + final.trump)
        elif state.phase == DECLARE_DIRECTION:
            state.apply_action(rules.first_direction_action + final.direction)
        elif state.phase == DISCARD:
            state.apply_action(next(discards))
        else:  # pragma: no cover - a replayed hand with a contract always reaches the play
            raise AssertionError(f"unexpected phase {state.phase_name}")
    if state.table is None and final.trump == NO_TRUMP:  # notrump declared where a lead could name trump
        state.apply_action(rules.no_trump_action)
    return state


def _total_books(state: HandState) -> int:
    """All the books of the hand: those won so far plus every book still to be won."""
    rules = state.rules
    pending = rules.discards_book == "first-trick" and state.discards and not state.tricks
    return sum(state.books_so_far()) + len(state.hands[state.seat]) + (1 if pending else 0)


def analyze_hand(final: HandState, every_card: bool, solver: DoubleDummy, claimed: bool = False) -> dict:
    """The analysis of one replayed hand as plain data (the JSON of one hand)."""
    rules = final.rules
    cards = rules.cards
    if final.declarer < 0:
        return {"contract": None, "note": "no contract: the hand was thrown in", "declaring_side": None,
                "positions": [], "books": list(final.books), "score": list(final.score), "claim": None}
    side = rules.side_of[final.declarer]
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

    record(None)
    for card in played:
        seat = state.current_player()
        tricks_before = len(state.tricks)
        state.apply_action(card)
        if every_card or len(state.tricks) > tricks_before:
            if len(state.tricks) > tricks_before:
                leader, trick, winner = state.tricks[-1]
                last = {"seat": seat, "card": cards[card], "leader": leader,
                        "trick": [cards[c] for c in trick], "winner": winner}
            else:
                last = {"seat": seat, "card": cards[card]}
            record(last)
    return {
        "contract": final.contract,
        "declaring_side": side,
        "positions": positions,
        "books": list(final.books),
        "score": list(final.score),
        "claim": (final.books[side] - state.books_so_far()[side]) if claimed else None,
    }


# --------------------------------------------------------------------------- text
def _pair(side: int, books: list[int]) -> str:
    mine = books[side]
    return f"{mine}-{sum(books) - mine}"


def _change_text(change: int, last: dict | None) -> str:
    if not change:
        return ""
    who = "declarers" if change < 0 else "defenders"
    if last is not None:  # one card: name the seat that played it
        who = f"seat {last['seat']}"
    return f"{who} lost {abs(change)}"


def print_hand(console, hand: dict, every_card: bool, title: str | None = None) -> None:
    """One analysed hand as a table: position, what was played, books, what perfect play reaches."""
    if title:
        console.print(f"[bold]{title}[/bold]")
    c = hand["contract"]
    if c is None:
        console.print(f"  {hand['note']}")
        return
    side = hand["declaring_side"]
    trump = c["trump"] or "no trump"
    console.print(f"  contract  {c['bid']} {c['strain']} by seat {c['declarer']} (side {side}), "
                  f"trump {trump}, {c['direction']}")
    table = Table(box=None, pad_edge=False, show_header=True, header_style="dim")
    table.add_column("trick", justify="right")
    table.add_column("played")
    table.add_column("books", justify="right")
    table.add_column("can reach", justify="right")
    table.add_column("lost")
    for p in hand["positions"]:
        last = p["last"]
        if last is None:
            played = "(start of play)"
        elif "trick" in last and every_card:
            played = f"seat {last['seat']} {last['card']} (trick won by seat {last['winner']})"
        elif "trick" in last:
            played = f"seat {last['leader']}: {' '.join(last['trick'])}, won by seat {last['winner']}"
        else:
            played = f"seat {last['seat']} {last['card']}"
        where = f"{p['trick']}" if p["cards"] == 0 else f"{p['trick'] + 1}.{p['cards']}"
        books = _pair(side, p["books"])
        reach = f"{p['dd_declaring_books']}-{p['dd_defending_books']}"
        table.add_row(where, played, books, reach, _change_text(p["change"], last if every_card else None))
    console.print(table)
    console.print(f"  books     {_pair(side, hand['books'])} (declarers-defenders)"
                  + (f", {hand['claim']} claimed" if hand["claim"] is not None else ""))
    console.print(f"  score     {' / '.join(f'{s:+d}' for s in hand['score'])}")


# --------------------------------------------------------------------------- the command
@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
@click.option("--every-card", is_flag=True, help="Analyse the position before every card, not only every trick.")
def analyze(file, as_json, every_card):
    """Double-dummy analysis of a hand record or a game record (.jsonl).

    At every trick boundary (or before every card), the books the declaring side
    can still reach with perfect play by everyone, all hands known, next to the
    books actually taken: a drop marks a book the declarers gave away, a rise one
    the defenders gave away.  Exit status 0 for a legal record, 1 for an illegal
    one (reported as `bidwhist replay` reports it), 2 for a file that is not a record.
    """
    rf = load_record_file(file)
    checked = replay_file(rf, resolve_for_records)  # the very checks and messages of `replay`
    if checked["error"] is not None:
        err = checked["error"]
        if as_json:
            empty = {"hands": None} if rf.is_game else {"contract": None, "positions": None}
            click.echo(json.dumps({**empty, "error": err}))
        else:
            click.echo(f"{file}: {err['at']}: {err['message']}", err=True)
        sys.exit(1)
    solver = DoubleDummy()
    if rf.is_game:
        replays, _ = replay_game(rf.records, resolve_for_records)
    else:
        record = rf.records[0]
        rules = resolve_for_records(record["variant"], record.get("with", []))
        replays = [replay_hand(rules, record)]
    hands = [analyze_hand(r.state, every_card, solver, r.claimed) for r in replays]
    if as_json:
        result = {"hands": hands, "error": None} if rf.is_game else {**hands[0], "error": None}
        click.echo(json.dumps(result))
        return
    console = render.stdout()
    for i, hand in enumerate(hands):
        print_hand(console, hand, every_card, f"hand {i}" if rf.is_game else None)
