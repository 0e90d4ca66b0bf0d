"""The runtime's view of a variant: plain tables and compiled callables, no source text.

A :class:`Ruleset` is what ``bidcompiler`` lowers a variant to and the only thing the
engine reads.  Everything the hot loop needs is precomputed here — card ids, the bid
ladder with its precedence ranks, and for every (trump, direction) pair a table of
each card's effective suit and power — so playing a card is a few list look-ups.

The runtime never imports the compiler: a Ruleset can be built by hand (the tests do)
or unpickled in a worker process.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Mapping

from .formula import Formula
from .seats import SeatRef

# The effective suit of a card that belongs to no suit (jokers in no trump).
NO_SUIT = -2
# The "trump suit" of a contract without trumps; never equal to a card's suit.
NO_TRUMP = -1
# The effective suit of a card with the role ``top`` under a contract: the highest card
# of every trick it is played to.  Like NO_SUIT it follows nothing and sets no suit to
# follow (only cards of a suit, effective suit >= 0, do); unlike NO_SUIT it wins.
TOP_SUIT = -3


@dataclass(frozen=True, slots=True)
class Strain:
    """One strain of the bid ladder (``uptown``, ``notrump``, or the bare number).

    ``trump`` says what the declarer names: ``"suit"`` (one of the deck's suits),
    ``"none"`` (no trump), ``"suit-or-none"``, or ``"none-or-first-lead"`` (declare
    no trump, or else the suit of the first card led is trump).  A ``bare`` strain
    is said as the number alone (``4``).  ``directions`` are the indices of the
    rank orders the declarer may choose from; a single one is fixed by the bid.
    """

    name: str
    aliases: tuple[str, ...]
    trump: str
    directions: tuple[int, ...]
    bare: bool = False


@dataclass(frozen=True, slots=True)
class Bid:
    """One rung of the ladder.  A bid overcalls another only with a higher ``rank``."""

    level: int
    strain: int
    rank: int
    text: str


@dataclass(frozen=True, slots=True)
class PlayTable:
    """How cards behave under one contract: effective suit and power of each card id.

    Among cards of the suit led, the highest ``power`` wins; a trump (effective suit
    equal to ``trump``) beats every non-trump.  A card whose suit is ``NO_SUIT``
    never wins and follows nothing; one whose suit is ``TOP_SUIT`` follows nothing
    and beats every other card (the highest power among such cards).  Only a card of
    a suit (effective suit >= 0) sets the suit to follow.
    """

    trump: int
    direction: int
    suit_of: tuple[int, ...]
    power: tuple[int, ...]
    # Cards of NO_SUIT (and TOP_SUIT) may be played at any time, even when able to follow.
    free_no_suit: bool = False
    # Cards of NO_SUIT leave play under this contract (and are swapped away).
    no_suit_out: bool = False


@dataclass(frozen=True, slots=True)
class Scoring:
    """Hand-scoring formulas (runtime.formula); each takes a dict of hand variables."""

    made: Formula
    declarer: Formula
    defender: Formula
    multiplier: Formula
    multiply_declarer: bool = True
    multiply_defenders: bool = True


@dataclass(frozen=True, slots=True)
class GameEnd:
    """Compiled game-end conditions, evaluated for each side after every hand."""

    win: Formula
    lose: Formula
    target: int = 7  # the formulas' ``target``
    floor: int | None = None  # no side's total goes below this
    rubber: int = 1  # games in a rubber: best of this many


@dataclass(frozen=True)
class Ruleset:
    """Everything the engine needs to run hands and games of one variant."""

    name: str
    players: int
    side_of: tuple[int, ...]
    sides: int
    # Cards: id -> canonical name, and id -> natural suit index (NO_SUIT for jokers).
    cards: tuple[str, ...]
    card_suit: tuple[int, ...]
    suits: tuple[str, ...]
    suit_names: tuple[str, ...]
    hand_size: int
    kitty_size: int
    # Auction.
    first_caller: int  # offset from the dealer: 1 = the player on the dealer's left
    rounds: str  # "once" or "until-passed"
    passes_end: int  # until-passed: this many passes end the auction
    if_all_pass: str  # dealer-must-bid | dealer-bids-lowest | dealer-bids-or-redeal | redeal
    dealer_may_take: bool
    redeal_cards: frozenset  # a hand holding none of these may call redeal (empty: no such call)
    redeal_dealer: str  # "same" or "next": who deals after a call of redeal
    all_pass_dealer: str  # "same" or "next": who deals after all passed and the hand was thrown in
    strains: tuple[Strain, ...]
    bids: tuple[Bid, ...]
    # Declaration, kitty and play.
    orders: tuple[str, ...]
    order_aliases: Mapping[str, int]
    declare_before_kitty: bool
    discards_book: str  # "declarer" (a book of the declaring side), "defenders", "first-trick" or "none"
    # When the kitty is shown to all: "never", "deal" (face up from the deal on),
    # "auction-end" (once the auction is won) or "declaration" (once declared), and
    # in which contracts ("suit", "notrump"; empty: all).
    kitty_show: str
    first_leader: SeatRef  # who leads the first trick
    renege: str  # "refuse" or "penalty"
    renege_books: int
    tables: Mapping[tuple[int, int], PlayTable]
    # Scoring and game end.
    scoring: Scoring
    game_end: GameEnd
    # Who wins when several sides meet the winning condition on one hand, tie-breaks in
    # order: "declarer", "higher", "first-from-dealers-left" (always last, it decides).
    tie_break: tuple[str, ...]
    first_dealer: str | int  # "random", or the seat that deals the first hand of a game
    rotation: int  # +1: the deal passes to the left
    source: str = ""
    # Action ids: cards first, then pass, bids, trump choices and direction choices.
    action_names: tuple[str, ...] = field(default=(), compare=False)
    # Cards set aside unseen after the hands and the kitty are dealt (out of play).
    undealt: int = 0
    # The contracts in which the kitty is shown (kitty_show): "suit", "notrump"; empty: all.
    kitty_show_contracts: tuple[str, ...] = ()
    # Who takes the kitty and lays away as many cards (the declarer, or e.g. its partner).
    kitty_taken_by: SeatRef = SeatRef("declarer")
    # Seats (named from the dealer) whose first call may not be a pass.
    must_bid: tuple[SeatRef, ...] = ()
    # How many rank steps an overcall must outrank the high bid by (1: any higher bid).
    overcall_by: int = 1
    # Whether a player may bid over a high bid their partner holds.
    overcall_partner: bool = True
    # The lowest number a dealer left to bid (everyone else passed) may bid; 0: the ladder's lowest.
    dealer_bids_from: int = 0

    # --- derived action-id layout ------------------------------------------------
    # Cached on first read (the engine reads them on every call; each was a chain of up to
    # six properties): a cached_property writes the instance's __dict__, which a frozen
    # dataclass allows, and they are not fields, so equality and hashing ignore them.
    @cached_property
    def n_cards(self) -> int:
        """How many distinct cards the deck has."""
        return len(self.cards)

    @cached_property
    def pass_action(self) -> int:
        """The action id of ``pass``."""
        return len(self.cards)

    @cached_property
    def first_bid_action(self) -> int:
        """The action id of the lowest bid; bid ``i`` of the ladder is this + i."""
        return len(self.cards) + 1

    @cached_property
    def first_trump_action(self) -> int:
        """Action ids naming trump: one per suit, then one for no trump."""
        return self.first_bid_action + len(self.bids)

    @cached_property
    def no_trump_action(self) -> int:
        """The action id of declaring no trump where a strain lets the declarer choose."""
        return self.first_trump_action + len(self.suits)

    @cached_property
    def first_direction_action(self) -> int:
        """Action ids naming a rank order (direction), one per order."""
        return self.no_trump_action + 1

    @cached_property
    def take_action(self) -> int:
        """The action id of ``take``: the dealer takes the high bid by matching it."""
        return self.first_direction_action + len(self.orders)

    @cached_property
    def redeal_action(self) -> int:
        """The action id of ``redeal``: the hand is thrown in."""
        return self.take_action + 1

    @cached_property
    def n_actions(self) -> int:
        """Size of the whole action space."""
        return self.redeal_action + 1

    @cached_property
    def deck_ids(self) -> tuple[int, ...]:
        """The card ids of a full deck, in a fixed order (kept: every deal copies it)."""
        return tuple(range(len(self.cards)))

    def deck(self) -> list[int]:
        """The card ids of a full deck, in a fixed order: a new list (a deal shuffles it in place)."""
        return list(self.deck_ids)

    def bid_text(self, level: int, strain: str) -> str:
        """A contract's bid as the auction says it: ``4 notrump``, or ``4`` for a bare-number strain."""
        return next((bid.text for bid in self.bids
                     if bid.level == level and self.strains[bid.strain].name == strain), f"{level} {strain}")

    def card_id(self, name: str) -> int:
        """The id of a card by canonical name; KeyError if the deck has no such card."""
        return self._card_index()[name]

    def _card_index(self) -> dict[str, int]:
        return self.derived("card_index", lambda rules: {name: i for i, name in enumerate(rules.cards)})

    def derived(self, key: str, build):
        """A value computed from the rules once and kept with them (the rule modules' objects).

        The Ruleset stays frozen for its fields; derived values live beside them under
        ``_derived`` and are left out of pickles (rebuilt on first use on the other side).
        """
        try:  # a plain attribute read once the store is made: ~0.1 µs cheaper than __dict__.get,
            # and the engine asks several of these a hand
            store = self._derived  # type: ignore[attr-defined]  # not a field: see above
        except AttributeError:
            store = {}
            object.__setattr__(self, "_derived", store)
        value = store.get(key)
        if value is None:
            value = store[key] = build(self)
        return value

    def __getstate__(self):
        state = dict(self.__dict__)
        state.pop("_derived", None)
        for name in _CACHED:  # recomputed on first use on the other side
            state.pop(name, None)
        return state


# The cached action ids, left out of pickles with the derived values.
_CACHED = tuple(name for name, value in vars(Ruleset).items() if isinstance(value, cached_property))


def build_action_names(rules: Ruleset) -> tuple[str, ...]:
    """Names of every action id, used by ``action_to_string`` and records."""
    names = list(rules.cards)
    names.append("pass")
    names.extend(b.text for b in rules.bids)
    names.extend(f"trump {s}" for s in rules.suits)
    names.append("notrump")
    names.extend(f"direction {o}" for o in rules.orders)
    names.extend(("take", "redeal"))
    return tuple(names)
