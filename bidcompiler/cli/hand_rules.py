"""The rules of the hand in play, in a screenful: what ``rules`` shows at the ``play`` prompt.

The whole rulebook (``bidwhist rules``) runs to some 60 lines; a player in the middle
of a hand wants the few that bear on it: the contract, the trumps, what wins a trick,
how many books make it and what it scores made or set, and how the game ends.  The
figures are worked out from the compiled rules themselves (the scoring formulas are
evaluated for each number of books), so they are the engine's, not a paraphrase.
The game-end part is the rulebook's own section, so the wording matches ``rules all``.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from runtime.contract import declaration
from runtime.hand import AUCTION, HandState
from runtime.kitty import kitty_rules
from runtime.ruleset import NO_SUIT, NO_TRUMP, TOP_SUIT, Ruleset
from runtime.tricks import trick_rules

from ..seatwords import declarer_words
from . import table as tableview

# How much of the rulebook the summary quotes while there is no contract yet, and always.
AUCTION_SECTION = "the auction"
GAME_SECTION = "game end"


def rulebook_sections(markdown: str) -> dict[str, str]:
    """The rulebook's ``## `` sections by lower-case title, each its Markdown body."""
    sections: dict[str, str] = {}
    title = None
    body: list[str] = []
    for line in markdown.splitlines():
        if line.startswith("## "):
            if title is not None:
                sections[title] = "\n".join(body).strip()
            title, body = line[3:].strip().lower(), []
        elif title is not None:
            body.append(line)
    if title is not None:
        sections[title] = "\n".join(body).strip()
    return sections


def total_books(rules: Ruleset) -> int:
    """Books in a hand: one a trick, and the discards' book where the discards count."""
    return rules.hand_size + (1 if kitty_rules(rules).has_discards_book else 0)


def score_table(hand: HandState, notrump: bool) -> list[tuple[int, bool, int, int | None]]:
    """For each number of books the declarers could take: (books, made, their points, the defenders').

    Worked out by the engine's own scoring on a copy of the hand, as if the declarers
    took that many books and the other side the rest (reneges aside).  The defenders'
    points are given where there are two sides; with more, they depend on how the
    others split the books.
    """
    rules = hand.rules
    total = total_books(rules)
    side = rules.side_of[hand.declarer]
    rows = []
    for books in range(total + 1 - kitty_rules(rules).defenders_own_book):  # up to all the declarers can take
        trial = hand.clone()
        trial.reneges = []
        trial.trump = NO_TRUMP if notrump else (hand.trump if hand.trump != NO_TRUMP else 0)
        split = [0] * rules.sides
        split[side] = books
        if rules.sides > 1:
            split[(side + 1) % rules.sides] = total - books
        score = trial.score_books(split)
        defenders = score[(side + 1) % rules.sides] if rules.sides == 2 else None
        rows.append((books, bool(trial.made), score[side], defenders))
    return rows


def books_to_make(hand: HandState) -> int | None:
    """The fewest books that make the contract in play, as the engine scores it; None before
    the trump (or notrump) is settled, without a contract, or where no result makes it."""
    if hand.declarer < 0 or hand.table is None:
        return None
    made = [books for books, is_made, _, _ in score_table(hand, hand.table.trump == NO_TRUMP) if is_made]
    return min(made) if made else None


def _formula_words(rules: Ruleset, text: str, *, points: bool = False, condition: bool = False) -> str:
    """A formula's text read in plain English as the rulebook reads it ("" for the constant 1).

    ``points``: its numbers are scores; ``condition``: it is a test (a game end), read as a clause.
    """
    # The formula parser is the compiler's: loaded when a hand ends, not when play starts.
    from ..expressions import parse_expression
    from ..formula_text import Wording, formula_code, reading, simplified

    tree = simplified(parse_expression(text))
    if formula_code(tree) == "1":
        return ""
    wording = Wording(declarers=_declarer_words(rules)[0], points=points, target=rules.game_end.target)
    return reading(tree, wording, condition=condition)


def _declarer_words(rules: Ruleset) -> tuple[str, str, str]:
    """:func:`bidcompiler.seatwords.declarer_words` for ``rules``' game (partners: more players than sides)."""
    return declarer_words(rules.players > rules.sides)


def hand_score_lines(hand: HandState, side_label) -> list[tuple[str, str]]:
    """Why a finished hand scored what it did: (label, text) lines for the end of a hand.

    ``needed``: the books the declarers needed (the engine's own scoring, as ``rules``
    shows it) against the books they took; ``scoring``: the scoring formulas of the
    variant in words (``made: the declarers' books over six; set: minus the bid``).
    ``side_label(side)`` names a side for the viewer.
    """
    rules = hand.rules
    need = books_to_make(hand)
    if need is None or hand.books is None or not hand.is_terminal():
        return []
    side = rules.side_of[hand.declarer]
    took = hand.books[side]
    if hand.made:
        margin = f"made, {took - need} more than needed" if took > need else "made, exactly"
    else:
        margin = f"set, {need - took} short" if took < need else "set"  # renege penalties moved the books
    bid = rules.bids[hand.bid].text
    lines = [("needed", f"{need} books to make {bid}; {side_label(side)} took {took}: {margin}")]
    scoring = rules.scoring
    declarers, declarers_own, verb = _declarer_words(rules)
    declared = _formula_words(rules, scoring.declarer.text, points=True)
    parts = [f"{declarers} {verb} — {declared}"]
    defenders = _formula_words(rules, scoring.defender.text, points=True)
    if defenders != "nothing":
        parts.append(f"the defenders — {defenders}")
    multiplier = _formula_words(rules, scoring.multiplier.text)
    if multiplier and (scoring.multiply_declarer or scoring.multiply_defenders):
        whose = "" if scoring.multiply_declarer and scoring.multiply_defenders else (
            f" ({declarers_own} score only)" if scoring.multiply_declarer else " (the defenders' score only)")
        parts.append(f"times {multiplier}{whose}")
    why = " · ".join(parts)
    lines.append(("scoring", why))
    return lines


def game_end_words(rules: Ruleset) -> str:
    """How a game ends, read from the variant's win and lose formulas: ``a side wins when
    the side's score is at least 7; it loses when the side's score is at most -7``."""
    end = rules.game_end
    parts: list[str] = []
    for verb, formula in (("wins", end.win), ("loses", end.lose)):
        words = _formula_words(rules, formula.text, condition=True)
        if words not in ("never", "false", ""):
            parts.append(f"{'a side' if not parts else 'it'} {verb} when {words}")
    return "; ".join(parts)


def _order_words(rules: Ruleset, bid: int, noun: str) -> str:
    """The rank order of a contract whose trump the bid settled, before play: ``played uptown``
    where the bid fixes it, else ``the direction still to be chosen`` (``noun``: what to call it)."""
    fixed = declaration(rules, bid).fixed_direction
    return f"the {noun} still to be chosen" if fixed is None else f"played {rules.orders[fixed]}"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _score_words(rows, made: bool, defenders: bool) -> str:
    """``10 books +4 · 11 +5 …`` for the rows made (or set); runs of one declarers' score are joined.

    ``defenders``: add the defenders' points (``-7 / +13…+1``: from the fewest books to the most).
    """
    rows = [r for r in rows if r[1] == made]
    if not rows:
        return "cannot happen" if made else "never: every result makes it"
    groups: list[list] = []
    for row in rows:
        if groups and groups[-1][-1][2] == row[2] and groups[-1][-1][0] + 1 == row[0]:
            groups[-1].append(row)
        else:
            groups.append([row])
    parts = []
    for i, group in enumerate(groups):
        first, last = group[0][0], group[-1][0]
        books = str(first) if first == last else f"{first}-{last}"
        if i == 0:
            books += " book" if (first, last) == (1, 1) else " books"
        points = _signed(group[0][2])
        if defenders and group[0][3] is not None:
            theirs = [_signed(r[3]) for r in group]
            points += f" / {theirs[0]}" if len(set(theirs)) == 1 else f" / {theirs[0]}…{theirs[-1]}"
        parts.append(f"{books} {points}")
    return " · ".join(parts)


def _ranks_line(rules: Ruleset, table) -> str:
    """The rank order in force, highest first, read from one suit's cards."""
    cards = [c for c in range(rules.n_cards) if rules.card_suit[c] == 0]
    cards.sort(key=lambda c: -table.power[c])
    return " ".join(rules.cards[c][:-1] for c in cards) + ", highest first"


def _trick_lines(rules: Ruleset, table) -> list[tuple[str, str]]:
    """What wins a trick and what must be followed, under this contract's play table."""
    rows = []
    follow = "follow the suit led if you can"
    tricks = trick_rules(rules)
    if not tricks.refuses_renege:
        owed = tricks.renege_books
        follow += f"; a renege costs {owed} book{'s' if owed != 1 else ''}"
    if table.trump != NO_TRUMP:
        trumps = [c for c in range(rules.n_cards) if table.suit_of[c] == table.trump]
        trumps.sort(key=lambda c: -table.power[c])
        rows.append(("trumps", " ".join(rules.cards[c] for c in trumps) + ", highest first"))
        rows.append(("tricks", f"{follow}; the highest trump wins, else the highest card of the suit led"))
    else:
        rows.append(("tricks", f"{follow}; the highest card of the suit led wins"))
    top = sorted((c for c in range(rules.n_cards) if table.suit_of[c] == TOP_SUIT), key=lambda c: -table.power[c])
    if top:
        when = "at any time" if table.free_no_suit else "when you cannot follow"
        names = " ".join(rules.cards[c] for c in top)
        which = "it is" if len(top) == 1 else "they are (highest first)"
        rows.append(("", f"{names} {'wins' if len(top) == 1 else 'win'} every trick {which} played to; "
                         f"no suit: lead it, or play it {when}"))
    loose = [rules.cards[c] for c in range(rules.n_cards) if table.suit_of[c] == NO_SUIT]
    if loose:
        names = " ".join(loose)
        if table.no_suit_out:
            rows.append(("", f"{names} are out of play in this contract"))
        else:
            when = "at any time" if table.free_no_suit else "only when you cannot follow"
            rows.append(("", f"{names} belong to no suit and never win; play one {when}"))
    return rows


def hand_rules(rules: Ruleset, hand: HandState, you: int | None, totals, sections: dict[str, str],
               who=None) -> tuple[Table, list[tuple[str, str]]]:
    """The summary: a grid of labelled lines, and the (title, Markdown) sections of the rulebook to follow it.

    ``who(seat)`` names a seat for the viewer (``you``, ``seat 1 (left)``); ``totals``
    are the game's scores so far by side.
    """
    who = who or (lambda seat: tableview.seat_label(rules, seat, you))
    # A grid, so that a long line wraps under its own column, not under the labels.
    grid = Table.grid(padding=(0, 1))
    grid.add_column(width=11, style="bold")
    grid.add_column()

    def row(label: str, value: str) -> None:
        grid.add_row(Text("  " + label), Text(value))

    if hand.declarer < 0:
        if hand.phase == AUCTION:
            high = (f"the high bid is {rules.bids[hand.high_bid].text} by {who(hand.high_seat)}"
                    if hand.high_bid >= 0 else "no bid yet")
            row("contract", f"none yet: the auction is on, {high}")
        else:
            row("contract", "none: the hand was thrown in")
        quoted = [s for s in (AUCTION_SECTION, GAME_SECTION) if s in sections]
    else:
        bid = rules.bids[hand.bid]
        # Whether the contract ends in a suit, in notrump, or either (asked of the strain's declaration).
        notrump_ends = list(dict.fromkeys(t == NO_TRUMP for t in declaration(rules, hand.bid).trump_choices(
            len(rules.suits))))
        table = hand.table
        declarers = [s for s in range(rules.players) if rules.side_of[s] == rules.side_of[hand.declarer]]
        if table is not None:
            trump = ("no trump" if table.trump == NO_TRUMP
                     else f"{rules.suit_names[table.trump].lower()} trump")
            settled = f"{trump}, played {rules.orders[table.direction]}"
        elif declaration(rules, hand.bid).fixed_suit is not None:
            settled = f"{rules.suit_names[hand.trump].lower()} trump, {_order_words(rules, hand.bid, 'order')}"
        elif notrump_ends == [True]:  # a notrump bid: at most its direction is left to choose
            settled = f"no trump, {_order_words(rules, hand.bid, 'direction')}"
        elif hand.trump != NO_TRUMP or notrump_ends == [False]:
            settled = "the trump is still to be named"
        else:
            settled = "trump (or notrump) still to be declared"
        row("contract", f"{bid.text} by {who(hand.declarer)}: {settled}")
        # Seats the rules name by role, where they are not the declarer (the engine says which).
        taker = hand.kitty_taker()
        if hand.kitty and taker != hand.declarer:
            row("kitty", f"taken by {who(taker)}, who lays away as many cards")
        leader = hand.first_lead_seat()
        if leader != hand.declarer:
            row("lead", f"to the first trick: {who(leader)}")
        if table is not None:
            row("ranks", _ranks_line(rules, table))
            for label, text in _trick_lines(rules, table):
                row(label, text)
        notrump_cases = [table.trump == NO_TRUMP] if table is not None else notrump_ends
        side_words = " and ".join(who(s) for s in declarers)
        for notrump in notrump_cases:
            rows = score_table(hand, notrump)
            needed = [b for b, made, _, _ in rows if made]
            when = "" if len(notrump_cases) == 1 else (" in notrump" if notrump else " with a trump suit")
            if needed:
                row("to make", f"{side_words} {'need' if len(declarers) > 1 or side_words == 'you' else 'needs'} "
                               f"{min(needed)} of the {total_books(rules)} books{when}")
            both = any(r[3] for r in rows)
            whose = " (declarers / defenders)" if both else ""
            row("if made", _score_words(rows, True, both) + whose + when)
            row("if set", _score_words(rows, False, both) + whose + when)
        quoted = [GAME_SECTION] if GAME_SECTION in sections else []
    score = " · ".join(f"{tableview.side_label(rules, s, you)} {t}" for s, t in enumerate(totals))
    row("score", score)
    return grid, [(s[:1].upper() + s[1:], sections[s]) for s in quoted]
