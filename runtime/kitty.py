"""The kitty's one interpreter: who takes it, who sees it when, where its discards' book goes.

:class:`KittyRules` is the only code that reads ``declare_before_kitty``,
``discards_book``, ``kitty_show`` and ``kitty_taken_by``.  The hand asks it when the
kitty is shown, who takes it (the declarer, or another seat named by role), whether
the declarer declares before it is taken, and which side the laid-away cards' book
counts for; bots, the solver and ``analyze`` ask the hand
(:meth:`runtime.hand.HandState.discards_book_pending` and friends).
"""

from __future__ import annotations

import random

from .ruleset import NO_SUIT, NO_TRUMP, PlayTable, Ruleset
from .seats import resolve


class KittyRules:
    """The kitty settings of one ruleset, read once, with the questions asked of them."""

    __slots__ = ("rules", "size", "declare_first", "shown_at_deal", "shown_at_auction_end",
                 "shown_once_declared_in", "book_to_declarer", "book_to_first_trick", "taker")

    def __init__(self, rules: Ruleset):
        self.rules = rules
        self.size = rules.kitty_size
        # The declaration comes before the kitty is taken (except where the first lead names trump).
        self.declare_first = rules.declare_before_kitty
        # Face up for everyone from the deal on; or turned up once the auction is won, or
        # once the contract is declared, in the contracts kitty_show_contracts names
        # ("suit", "notrump"; none named: every contract).
        when = rules.kitty_show
        kinds = frozenset(rules.kitty_show_contracts or ("suit", "notrump"))
        self.shown_at_deal = when == "deal"
        self.shown_at_auction_end = kinds if when == "auction-end" else frozenset()
        self.shown_once_declared_in = kinds if when == "declaration" else frozenset()
        # The laid-away cards count as one book: of the declaring side, or of the first trick's winner.
        self.book_to_declarer = rules.discards_book == "declarer"
        self.book_to_first_trick = rules.discards_book == "first-trick"
        # Who picks the kitty up and lays cards away: a seat named by role (runtime.seats).
        self.taker = rules.kitty_taken_by

    def taker_seat(self, dealer: int, declarer: int) -> int:
        """The seat that takes the kitty and lays away as many cards, once ``declarer`` is known."""
        return resolve(self.taker, dealer, declarer, self.rules.players)

    @property
    def has_discards_book(self) -> bool:
        """Whether the cards laid away count as a book for some side at all."""
        return bool(self.size) and (self.book_to_declarer or self.book_to_first_trick)

    def declares_before_taking(self, by_first_lead: bool) -> bool:
        """Whether the declarer declares before taking the kitty (``by_first_lead``: the strain's lead names trump)."""
        return self.declare_first and not by_first_lead

    def shown_once_declared(self, table: PlayTable) -> bool:
        """Whether the kitty is turned face up once the contract is declared (played with ``table``).

        Also where it is shown at the auction's end in some contracts only and the
        declaration is what said which kind this is (see :meth:`shown_at_auction_won`).
        """
        kind = _kind(table.trump)
        return kind in self.shown_once_declared_in or kind in self.shown_at_auction_end

    def shown_at_auction_won(self, trump: int | None) -> bool:
        """Whether the kitty is turned face up as soon as the auction is won.

        ``trump`` is what the contract's strain fixes by then: a suit, NO_TRUMP for a
        strain played without trump, or None where the declarer has yet to choose.
        Where the kitty is shown in only some contracts and the kind is not known yet,
        it is shown once the declaration says it (:meth:`shown_once_declared`).
        """
        kinds = self.shown_at_auction_end
        if not kinds:
            return False
        if len(kinds) == 2:
            return True
        return trump is not None and _kind(trump) in kinds

    def book_side(self, side_of, declarer: int, discards: list[int], tricks: list) -> int | None:
        """The side the discards' book counts for now, or None (no discards, no such book, or still pending)."""
        if not discards:
            return None
        if self.book_to_declarer:
            return side_of[declarer]
        if self.book_to_first_trick and tricks:
            return side_of[tricks[0][2]]
        return None

    def book_pending(self, discards: list[int], tricks: list) -> bool:
        """True while the discards' book waits for the first trick's winner."""
        return self.book_to_first_trick and bool(discards) and not tricks

    # --------------------------------------------------------------- moving cards
    @staticmethod
    def pick_up(hand: list[int], kitty: list[int], table: PlayTable | None, out: list[int]) -> None:
        """The taker's ``hand`` takes ``kitty`` (sorted); where cards of no suit leave play, they go to ``out``."""
        if table is not None and table.no_suit_out:
            # Extra cards leave play: the kitty's stay out, the taker sets its own aside.
            suit_of = table.suit_of
            out.extend(c for c in kitty if suit_of[c] == NO_SUIT)
            hand.extend(c for c in kitty if suit_of[c] != NO_SUIT)
            own = [c for c in hand if suit_of[c] == NO_SUIT]
            for c in own:
                hand.remove(c)
            out.extend(own)
        else:
            hand.extend(kitty)
        hand.sort()

    @staticmethod
    def swap_out(players: int, taker: int, hands: list[list[int]], discards: list[int],
                 table: PlayTable, out: list[int], key: str) -> None:
        """Other players swap their cards of no suit for random face-down discards.

        ``discards`` keeps what the kitty's ``taker`` laid away (records list it); the cards
        drawn from it are moved into the drawers' hands and listed in ``out`` by the
        jokers they replaced.  ``key`` (the deal's text) seeds the draw, so a record
        replays it without saying more.
        """
        suit_of = table.suit_of
        rng = random.Random(key)
        pile = list(discards)
        for step in range(1, players):
            seat = (taker + step) % players
            hand = hands[seat]
            for card in [c for c in hand if suit_of[c] == NO_SUIT]:
                if not pile:
                    break
                drawn = pile.pop(rng.randrange(len(pile)))
                hand.remove(card)
                hand.append(drawn)
                out.append(card)
            hand.sort()


def _kind(trump: int) -> str:
    """The contract kind a trump names: ``notrump`` or ``suit`` (the words of kitty.show's contracts)."""
    return "notrump" if trump == NO_TRUMP else "suit"


def kitty_rules(rules: Ruleset) -> KittyRules:
    """The :class:`KittyRules` of ``rules``, built once per ruleset."""
    return rules.derived("kitty", KittyRules)
