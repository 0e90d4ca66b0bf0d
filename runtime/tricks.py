"""Tricks' one interpreter: who leads first, what a card may follow, who wins, reneges.

The rank of cards under a contract is data (a :class:`runtime.ruleset.PlayTable`:
each card's effective suit and power); this module says what that data means in
a trick.  :func:`winning_index` is the one definition of a trick's winner (the
hand calls it, the bots' :func:`strength_keys` use the same order), and
:class:`TrickRules` is the only code that reads ``first_leader``, ``renege``.
"""

from __future__ import annotations

from typing import NamedTuple

from .ruleset import NO_SUIT, TOP_SUIT, PlayTable, Ruleset
from .seats import resolve

# A trump outranks every card of the suit led: its power is lifted above any power a table gives.
TRUMP_BONUS = 10000
# A card of the role ``top`` (effective suit TOP_SUIT) outranks every trump.
TOP_BONUS = 2 * TRUMP_BONUS


class Trick(NamedTuple):
    """A finished trick: who led it, the cards in the order played, and the seat that won it.

    A tuple, so ``for leader, cards, winner in state.tricks`` reads it as before.
    """

    leader: int
    cards: tuple[int, ...]
    winner: int


def winning_index(table: PlayTable, led: int, trick) -> int:
    """The position in ``trick`` of the card that takes it, played under ``table`` with ``led`` the suit led.

    A card of the role ``top`` (TOP_SUIT) above all, else the highest trump, else
    the highest card of the suit led.  ``led`` is the suit of the first card that
    has one; while only cards of no suit (or top cards) are played it is NO_SUIT,
    and cards of no suit then compare by power among themselves.
    """
    suit_of = table.suit_of
    power = table.power
    trump = table.trump
    best = 0
    best_key = -1
    for i, card in enumerate(trick):
        suit = suit_of[card]
        if suit == trump:
            key = power[card] + TRUMP_BONUS
        elif suit == led:
            key = power[card]
        elif suit == TOP_SUIT:
            key = power[card] + TOP_BONUS
        else:
            continue
        if key > best_key:
            best_key = key
            best = i
    return best


def led_keys(table: PlayTable, suits: int) -> dict[int, tuple[int, ...]]:
    """For each suit that can be led (``0 .. suits - 1``, and NO_SUIT), every card's key in a trick.

    The key :func:`winning_index` gives the card when that suit is led, -1 for a
    card it skips (neither trump, nor of the suit led, nor top): the trick goes to
    the first card whose key exceeds every earlier one and -1.  Precomputed for
    the engine's random playout, which finds each trick's winner by looking keys up.
    """
    suit_of = table.suit_of
    power = table.power
    trump = table.trump
    out = {}
    for led in [*range(suits), NO_SUIT]:
        keys = []
        for card, suit in enumerate(suit_of):
            if suit == trump:
                keys.append(power[card] + TRUMP_BONUS)
            elif suit == led:
                keys.append(power[card])
            elif suit == TOP_SUIT:
                keys.append(power[card] + TOP_BONUS)
            else:
                keys.append(-1)
        out[led] = tuple(keys)
    return out


def rules_led_keys(rules: Ruleset) -> dict[tuple[int, int], dict[int, tuple[int, ...]]]:
    """:func:`led_keys` of every play table of ``rules``, by the table's (trump, direction); built once."""
    return rules.derived("led_keys", lambda r: {key: led_keys(table, len(r.suits))
                                                for key, table in r.tables.items()})


def strength_keys(table: PlayTable) -> list[int]:
    """Each card's strength in a trick once a suit is led: top cards above all, then trumps, -1 for a card of no suit.

    The order :func:`winning_index` uses (a card that neither follows nor trumps
    cannot win, whatever its key), precomputed for the bots' search.
    """
    trump = table.trump
    return [(p + TRUMP_BONUS if s == trump else p + TOP_BONUS if s == TOP_SUIT else p) if s != NO_SUIT else -1
            for s, p in zip(table.suit_of, table.power)]


def sets_led(suit: int) -> bool:
    """Whether a card of effective suit ``suit``, played first in a trick, sets the suit to follow.

    Only a card of a suit does (trumps included); cards of no suit and top cards leave
    the suit to the next card that has one.
    """
    return suit >= 0


def follow_cards(table: PlayTable, led: int, hand: list[int]) -> list[int] | None:
    """The cards of ``hand`` that follow ``led``, or None when the player may play any card.

    Where cards of no suit are free (``free_no_suit``) they, and top cards, may be played instead of following.
    """
    if led == NO_SUIT:
        return None  # nothing led yet but cards of no suit: anything goes
    suit_of = table.suit_of
    follow = [c for c in hand if suit_of[c] == led]
    if not follow:
        return None
    if table.free_no_suit:
        follow.extend(c for c in hand if suit_of[c] < 0)  # NO_SUIT or TOP_SUIT
        follow.sort()
    return follow


class TrickRules:
    """The play settings of one ruleset: the first leader and what failing to follow does."""

    __slots__ = ("players", "leader", "refuse", "renege_books")

    def __init__(self, rules: Ruleset):
        self.players = rules.players
        self.leader = rules.first_leader  # a seat named by role (runtime.seats)
        # "refuse": a card that does not follow when it could is illegal; else it is
        # played and the side pays renege_books at the end.
        self.refuse = rules.renege == "refuse"
        self.renege_books = rules.renege_books

    def first_leader(self, dealer: int, declarer: int) -> int:
        """The seat that leads the first trick."""
        return resolve(self.leader, dealer, declarer, self.players)

    @property
    def refuses_renege(self) -> bool:
        """Whether a card that fails to follow suit is refused (else it is a renege, penalised at the end)."""
        return self.refuse


def trick_rules(rules: Ruleset) -> TrickRules:
    """The :class:`TrickRules` of ``rules``, built once per ruleset."""
    return rules.derived("tricks", TrickRules)
