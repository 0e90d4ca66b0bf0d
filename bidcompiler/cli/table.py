"""The table as one seat sees it, drawn with rich: a pure function of an observation.

``render_table(obs, rules, ...)`` turns what ``runtime.session.Session.observation``
gives one seat (its hand, the calls, the contract, the kitty if it was shown, the
trick on the table, the books, the score) into a rich renderable.  It shows nothing
the observation does not hold, so the screen never shows another seat's cards; with
``--open`` the session puts every hand into the observation (``all_hands``) and they
are drawn too.

Cards keep their canonical spelling (``AS``, ``TH``, ``BJ``) — what the player types
— coloured by suit, and a hand is sorted the way a player holds it for the contract:
trumps first, then the other suits, each from its best card down in the direction in
force (the powers of the contract's play table).  Before trump is settled the natural
suits are used, with the cards that belong to no suit (jokers) in front.
"""

from __future__ import annotations

from rich.columns import Columns
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from runtime.contract import declarations
from runtime.records import side_by_seats
from runtime.ruleset import NO_SUIT, NO_TRUMP, Ruleset

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = {"H", "D"}


# --------------------------------------------------------------------------- seats and sides
def relation(rules: Ruleset, seat: int, you: int | None) -> str:
    """Where ``seat`` sits for the viewer: you, partner, left, right, across."""
    if you is None:
        return ""
    n = rules.players
    if seat == you:
        return "you"
    if rules.side_of[seat] == rules.side_of[you]:
        return "partner"
    if seat == (you + 1) % n:
        return "left"
    if seat == (you - 1) % n:
        return "right"
    return "across"


def seat_label(rules: Ruleset, seat: int, you: int | None) -> str:
    """``seat 1 (left)``: the number the records use, and where it sits for the viewer."""
    where = relation(rules, seat, you)
    return f"seat {seat} ({where})" if where else f"seat {seat}"


def short_label(rules: Ruleset, seat: int, you: int | None) -> str:
    """``left``, ``partner``, ``you``: enough in the auction and the tricks, where space is short."""
    return relation(rules, seat, you) or f"seat {seat}"


def seats_line(rules: Ruleset, you: int | None) -> Text:
    """Who sits where, once: ``you 0 · left 1 · partner 2 · right 3``."""
    line = Text()
    for seat in range(rules.players):
        if seat:
            line.append(" · ", style="dim")
        line.append(f"{short_label(rules, seat, you)} ")
        line.append(str(seat), style="bold")
    return line


def side_label(rules: Ruleset, side: int, you: int | None) -> str:
    """``us (0+2)`` / ``them (1+3)``; in a game of single players ``seat 2`` or ``you (2)``."""
    seats = [s for s in range(rules.players) if rules.side_of[s] == side]
    numbers = "+".join(str(s) for s in seats)
    if you is not None and you in seats:
        return f"us ({numbers})" if len(seats) > 1 else f"you ({numbers})"
    if rules.sides == 2 and you is not None:
        return f"them ({numbers})"
    return side_by_seats(rules, side)


def side_label_is_plural(rules: Ruleset, side: int, you: int | None) -> bool:
    """Whether :func:`side_label` names ``side`` with a word that takes a plural verb (``us``, ``them``, ``you``)."""
    seats = [s for s in range(rules.players) if rules.side_of[s] == side]
    return you is not None and (you in seats or rules.sides == 2)


# --------------------------------------------------------------------------- cards
def card_text(name: str, trump: str | None = None, dim: bool = False) -> Text:
    """A card in its canonical spelling, coloured by suit (trumps bold)."""
    suit = name[-1:] if len(name) == 2 and name[-1] in SUIT_SYMBOLS else None
    style = "red" if suit in RED_SUITS else ("magenta" if suit is None else "")
    if trump is not None and suit == trump:
        style = (style + " bold").strip()
    if dim:
        style = (style + " dim").strip()
    return Text(name, style=style or None)


def contract_table(rules: Ruleset, obs: dict):
    """The play table of the observed contract once it is settled, else None."""
    contract = obs.get("contract")
    if not contract or not obs.get("declared"):
        return None
    trump = NO_TRUMP if contract["trump"] is None else rules.suits.index(contract["trump"])
    direction = rules.orders.index(contract["direction"]) if contract.get("direction") else 0
    return rules.tables.get((trump, direction))


def _direction_index(rules: Ruleset, obs: dict) -> int:
    contract = obs.get("contract") or {}
    name = contract.get("direction")
    return rules.orders.index(name) if name in rules.orders else 0


def sort_hand(rules: Ruleset, cards: list[str], obs: dict) -> list[tuple[int, list[str]]]:
    """The cards grouped by suit as the player holds them: ``[(suit, [card, ...]), ...]``.

    With the contract settled: trumps first, the other suits in the deck's order and
    cards of no suit last, each group from its most powerful card down.  Before: the
    natural suits, jokers (no natural suit) first, ranked in the direction already
    known (or the first order).
    """
    table = contract_table(rules, obs)
    ids = [rules.card_id(c) for c in cards]
    if table is not None:
        suit_of, power, trump = table.suit_of, table.power, table.trump
    else:
        plain = rules.tables[(NO_TRUMP, _direction_index(rules, obs))]
        suit_of, power, trump = rules.card_suit, plain.power, NO_TRUMP

    def group_key(suit: int) -> int:
        if suit == trump and trump != NO_TRUMP:
            return -2
        if suit == NO_SUIT:
            return -1 if table is None else len(rules.suits)
        return suit

    groups: dict[int, list[int]] = {}
    for c in ids:
        groups.setdefault(suit_of[c], []).append(c)
    return [(suit, [rules.cards[c] for c in sorted(groups[suit], key=lambda c: (-power[c], c))])
            for suit in sorted(groups, key=group_key)]


def hand_text(rules: Ruleset, cards: list[str], obs: dict, legal: set[str] | None = None) -> Text:
    """A hand sorted for the contract, suits apart; cards not playable now are dimmed."""
    table = contract_table(rules, obs)
    trump_letter = None
    if table is not None and table.trump != NO_TRUMP:
        trump_letter = rules.suits[table.trump]
    text = Text()
    for i, (suit, group) in enumerate(sort_hand(rules, cards, obs)):
        if i:
            text.append("  │  ", style="dim")
        if suit == NO_SUIT or suit < 0:
            label = "★"
        else:
            label = SUIT_SYMBOLS.get(rules.suits[suit], rules.suits[suit])
            if trump_letter is not None and rules.suits[suit] == trump_letter:
                label = "trump " + label
        text.append(label + " ", style="bold")
        for j, card in enumerate(group):
            if j:
                text.append(" ")
            text.append_text(card_text(card, trump_letter, dim=legal is not None and card not in legal))
    if not cards:
        text.append("(no cards)", style="dim")
    return text


# --------------------------------------------------------------------------- the table
def _contract_line(rules: Ruleset, obs: dict, you: int | None) -> Text:
    contract = obs.get("contract")
    if not contract:
        return Text("none yet", style="dim")
    line = Text()
    line.append(rules.bid_text(contract["bid"], contract["strain"]), style="bold")
    line.append(f" by {seat_label(rules, contract['declarer'], you)}")
    if obs.get("declared"):
        if contract["trump"] is None:
            line.append(" · no trump", style="bold")
        else:
            letter = contract["trump"]
            name = rules.suit_names[rules.suits.index(letter)]
            line.append(" · trump ")
            line.append(f"{SUIT_SYMBOLS.get(letter, letter)} {name}",
                        style="bold red" if letter in RED_SUITS else "bold")
    else:
        line.append(_undeclared_words(rules, contract["strain"]), style="dim")
    if contract.get("direction"):
        line.append(f" · {contract['direction']}")
    return line


def _undeclared_words(rules: Ruleset, strain_name: str) -> str:
    """What the declarer has still to settle, as the bid's strain says (runtime.contract reads it):
    a notrump bid names no trump, only perhaps its direction; a fixed suit is trump already."""
    strain = next(i for i, s in enumerate(rules.strains) if s.name == strain_name)
    terms = declarations(rules)[strain]
    direction = " · direction not yet chosen" if terms.chooses_direction else ""
    if terms.notrump_only:
        return " · no trump" + direction
    if terms.fixed_suit is not None:
        return f" · trump {rules.suit_names[terms.fixed_suit].lower()}" + direction
    if terms.by_first_lead:
        return " · trump: the suit of the first lead, or no trump" + direction
    return (" · trump (or no trump) not yet named" if terms.may_notrump else " · trump not yet named") + direction


def _auction_line(rules: Ruleset, obs: dict, you: int | None) -> Text:
    calls = obs.get("calls")
    if calls is None:  # a bare hand observation: the calls without their seats
        calls = [[None, c] for c in obs.get("auction", [])]
    if not calls:
        return Text("no calls yet", style="dim")
    line = Text()
    for i, (seat, call) in enumerate(calls):
        if i:
            line.append(" · ", style="dim")
        if seat is not None:
            line.append(short_label(rules, seat, you) + " ", style="dim")
        line.append(call, style="dim" if call == "pass" else "bold")
    return line


def _trick_line(rules: Ruleset, leader: int, cards: list[str], you: int | None, trump: str | None,
                winner: int | None = None) -> Text:
    n = rules.players
    line = Text()
    for i, card in enumerate(cards):
        if i:
            line.append("   ")
        line.append(short_label(rules, (leader + i) % n, you) + " ")
        line.append_text(card_text(card, trump))
    if winner is not None:
        line.append(f"   → {short_label(rules, winner, you)}", style="bold")
    return line


def _score_line(rules: Ruleset, values: list[int], you: int | None) -> Text:
    line = Text()
    for side, value in enumerate(values):
        if side:
            line.append("   ")
        line.append(side_label(rules, side, you) + " ")
        line.append(str(value), style="bold")
    return line


def render_table(obs: dict, rules: Ruleset, *, you: int | None = None, title: str = "",
                 legal: list[str] | None = None, human_seats: tuple[int, ...] = (), need: int | None = None):
    """The table as ``obs`` shows it to seat ``you`` (defaults to the observation's seat).

    ``legal`` (card names) dims the held cards that cannot be played now;
    ``human_seats`` only changes how the seat to move is named; ``need``, the books
    that make the contract, is said beside the books taken.
    """
    if you is None:
        you = obs.get("seat")
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold cyan", no_wrap=True)
    grid.add_column()
    table = contract_table(rules, obs)
    trump = rules.suits[table.trump] if table is not None and table.trump != NO_TRUMP else None

    if you is not None:
        grid.add_row("Seats", seats_line(rules, you))
    if "totals" in obs:
        grid.add_row("Score", _score_line(rules, obs["totals"], you))
    grid.add_row("Dealer", Text(seat_label(rules, obs["dealer"], you)))
    grid.add_row("Auction", _auction_line(rules, obs, you))
    grid.add_row("Contract", _contract_line(rules, obs, you))
    if obs.get("kitty") is not None:
        kitty = Text()
        for i, c in enumerate(obs["kitty"]):
            if i:
                kitty.append(" ")
            kitty.append_text(card_text(c, trump))
        grid.add_row("Kitty", kitty if obs["kitty"] else Text("empty", style="dim"))
    if obs.get("kitty_taken"):
        taken = Text()
        for i, c in enumerate(obs["kitty_taken"]):
            if i:
                taken.append(" ")
            taken.append_text(card_text(c, trump))
        grid.add_row("Kitty taken", taken)
    if obs.get("discards"):
        grid.add_row("Your discards", Text(" ".join(obs["discards"])))
    if obs.get("out"):
        grid.add_row("Out of play", Text(" ".join(obs["out"])))
    if obs.get("books") is not None and obs.get("contract") and obs.get("phase") in ("play", "over"):
        books = _score_line(rules, obs["books"], you)
        if need is not None:
            books.append(f"   · the contract needs {need}", style="dim")
        grid.add_row("Books", books)
    tricks = obs.get("tricks") or []
    if tricks:
        last = tricks[-1]
        grid.add_row(f"Trick {len(tricks)}", _trick_line(rules, last["leader"], last["cards"], you, trump,
                                                          last["winner"]))
    if obs.get("trick"):
        grid.add_row(f"Trick {len(tricks) + 1}",
                     _trick_line(rules, obs["trick_leader"], obs["trick"], you, trump))
    if obs.get("phase") == "over" and obs.get("score") is not None:
        grid.add_row("Hand score", _score_line(rules, obs["score"], you))
    grid.add_row("", "")
    all_hands = obs.get("all_hands")
    if all_hands:
        for seat, cards in enumerate(all_hands):
            name = "Your hand" if seat == you else seat_label(rules, seat, you)
            grid.add_row(name, hand_text(rules, cards, obs, set(legal) if legal is not None and seat == you
                                          else None))
    else:
        grid.add_row("Your hand", hand_text(rules, obs["hand"], obs, set(legal) if legal is not None else None))
    grid.add_row("To move", _to_move(rules, obs, you, human_seats))
    return Panel(grid, title=title or None, title_align="left", border_style="blue", expand=True)


def _to_move(rules: Ruleset, obs: dict, you: int | None, human_seats: tuple[int, ...]) -> Text:
    if obs.get("game_over"):
        return Text("nobody: the game is over", style="bold")
    seat = obs.get("to_move", -1)
    if seat is None or seat < 0:
        return Text("nobody: the hand is over", style="dim")
    what = {"auction": "call", "declare": "declare", "discard": "discard", "play": "play"}.get(obs["phase"], "act")
    if seat == you:
        return Text(f"you (seat {seat}) to {what}", style="bold green")
    who = seat_label(rules, seat, you)
    tag = " (a person)" if seat in human_seats else ""
    return Text(f"{who}{tag} to {what}")


def render_choices(labels: list[str]) -> Columns:
    """The numbered list of legal choices shown above a prompt (``1 pass  2 4 uptown …``), in
    columns so that no choice is broken across lines."""
    items = []
    for i, label in enumerate(labels, 1):
        item = Text()
        item.append(f"{i:>2}", style="bold cyan")
        item.append(f" {label}")
        items.append(item)
    return Columns(items, padding=(0, 2))


def render_screen(obs: dict, rules: Ruleset, *, choices: list[str] | None = None, **options):
    """The table, then the numbered choices if the viewer is to act."""
    parts = [render_table(obs, rules, **options)]
    if choices:
        parts.append(render_choices(choices))
    return Group(*parts)
