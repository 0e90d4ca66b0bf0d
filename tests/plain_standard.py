"""A plain, hand-coded implementation of one hand of `standard` Bid Whist.

This module is deliberately independent of the project: it imports nothing from
``bidcompiler`` or ``runtime``, only the standard library.  It implements the
rules of the project spec (``rules.md`` section 1: 54 cards, jokers kept in
no trump) directly, so that

* a differential test can play the same hands through it and through the
  generic compiled engine and compare contracts, tricks, books and scores, and
* a benchmark can compare the generic engine's speed with a direct,
  single-purpose implementation.

Cards are strings as in ``records.md``: rank then suit (``"AS"``, ``"TH"``,
``"2C"``) and ``"BJ"`` / ``"LJ"`` for the big and little jokers.

Actions are strings, in this phase order:

* auction (four calls, from the dealer's left): ``"pass"`` or
  ``"<n> uptown"`` / ``"<n> downtown"`` / ``"<n> notrump"`` with n in 3..7;
* declaration (one action by the declarer): ``"trump S"`` (H, D, C) after an
  uptown/downtown bid, ``"direction uptown"`` / ``"direction downtown"`` after
  a notrump bid;
* discards (six actions by the declarer, after taking the kitty):
  ``"discard 7C"``;
* play (48 actions): the card, e.g. ``"AH"`` or ``"BJ"``.
"""

from __future__ import annotations

import random

SUITS = "SHDC"
RANKS = "23456789TJQKA"
JOKERS = ("BJ", "LJ")
STRAINS = ("uptown", "downtown", "notrump")
DIRECTIONS = ("uptown", "downtown")

NUM_SEATS = 4
HAND_SIZE = 12
KITTY_SIZE = 6
NUM_TRICKS = 12
MIN_BID = 3
MAX_BID = 7
BOOKS_BASE = 6

# Strength of each rank in each direction: a bigger number wins.
#   uptown:   A K Q J T 9 8 7 6 5 4 3 2   (high first)
#   downtown: A 2 3 4 5 6 7 8 9 T J Q K   (ace stays top)
_RANK_STRENGTH = {
    "uptown": {r: i for i, r in enumerate("23456789TJQKA")},
    "downtown": {r: i for i, r in enumerate("KQJT98765432A")},
}
# In a suit contract the jokers are the two highest trumps, in either direction.
_JOKER_TRUMP_STRENGTH = {"LJ": 13, "BJ": 14}

_PHASE_AUCTION = "auction"
_PHASE_DECLARE = "declare"
_PHASE_DISCARD = "discard"
_PHASE_PLAY = "play"
_PHASE_OVER = "over"


def full_deck() -> list[str]:
    """Return the 54-card deck: ``2S..AS, 2H..AH, 2D..AD, 2C..AC, BJ, LJ``."""
    return [rank + suit for suit in SUITS for rank in RANKS] + list(JOKERS)


def _bid_value(number: int, strain: str) -> int:
    """Rank a bid on the ladder 3u = 3d < 3nt < 4u = 4d < 4nt < ...."""
    return 2 * number + (1 if strain == "notrump" else 0)


def _all_bids() -> list[tuple[int, str, str]]:
    """Every bid as (value, number, call string), lowest first."""
    bids = []
    for number in range(MIN_BID, MAX_BID + 1):
        for strain in STRAINS:
            bids.append((_bid_value(number, strain), number, f"{number} {strain}"))
    return bids


_BIDS = _all_bids()


class PlainHand:
    """One hand of standard Bid Whist, from the auction to the last trick.

    ``hands[s]`` is the 12-card hand dealt to seat ``s`` (seats 0..3, sides
    0 = {0, 2} and 1 = {1, 3}), ``kitty`` the 6 cards dealt apart and
    ``dealer`` the dealing seat.  Drive it with :meth:`legal` and :meth:`play`
    until :meth:`is_over`; then read :attr:`contract`, :attr:`tricks`,
    :attr:`books` and :attr:`score`.
    """

    def __init__(self, hands: list[list[str]], kitty: list[str], dealer: int):
        if len(hands) != NUM_SEATS or any(len(h) != HAND_SIZE for h in hands):
            raise ValueError("need four hands of 12 cards")
        if len(kitty) != KITTY_SIZE:
            raise ValueError("need a kitty of 6 cards")
        dealt = [card for hand in hands for card in hand] + list(kitty)
        if sorted(dealt) != sorted(full_deck()):
            raise ValueError("hands and kitty are not the 54-card deck")
        if dealer not in range(NUM_SEATS):
            raise ValueError(f"bad dealer {dealer!r}")

        self._dealt = [list(h) for h in hands]
        self._hands = [list(h) for h in hands]
        self._kitty = list(kitty)
        self.dealer = dealer

        self._phase = _PHASE_AUCTION
        self._turn: int | None = (dealer + 1) % NUM_SEATS

        # Auction.
        self._calls: list[str] = []
        self._high_value = 0  # value of the highest bid so far (0 = none)
        self._high_seat: int | None = None
        self._high_number = 0
        self._high_strain: str | None = None

        # Contract.
        self._declarer: int | None = None
        self._trump: str | None = None
        self._direction: str | None = None
        self._discards: list[str] = []

        # Play.
        self._leader: int | None = None
        self._trick: list[str] = []
        self._tricks: list[tuple[int, list[str], int]] = []
        self._plays: list[str] = []
        self._books = [0, 0]

        self._legal_cache: list[str] | None = None

    # ------------------------------------------------------------------ state

    def to_move(self) -> int | None:
        """The seat to act next, or ``None`` once the hand is over."""
        return self._turn

    def is_over(self) -> bool:
        """True once all twelve tricks have been played."""
        return self._phase == _PHASE_OVER

    @property
    def phase(self) -> str:
        """Current phase: ``auction``, ``declare``, ``discard``, ``play`` or ``over``."""
        return self._phase

    def hand(self, seat: int) -> list[str]:
        """The cards seat ``seat`` holds now (a copy)."""
        return list(self._hands[seat])

    @property
    def current_trick(self) -> list[str]:
        """Cards played so far to the trick in progress, in play order."""
        return list(self._trick)

    # ---------------------------------------------------------------- actions

    def legal(self) -> list[str]:
        """The legal actions for the seat to move (empty when the hand is over)."""
        if self._legal_cache is None:
            self._legal_cache = self._compute_legal()
        return list(self._legal_cache)

    def play(self, action: str) -> None:
        """Apply ``action``; raise ``ValueError`` if it is not legal now."""
        if self._legal_cache is None:
            self._legal_cache = self._compute_legal()
        if action not in self._legal_cache:
            raise ValueError(
                f"illegal action {action!r} for seat {self._turn} in phase {self._phase}"
            )
        self._legal_cache = None
        if self._phase == _PHASE_AUCTION:
            self._apply_call(action)
        elif self._phase == _PHASE_DECLARE:
            self._apply_declaration(action)
        elif self._phase == _PHASE_DISCARD:
            self._apply_discard(action[len("discard "):])
        else:
            self._apply_card(action)

    def _compute_legal(self) -> list[str]:
        if self._phase == _PHASE_AUCTION:
            return self._legal_calls()
        if self._phase == _PHASE_DECLARE:
            if self._high_strain == "notrump":
                return [f"direction {d}" for d in DIRECTIONS]
            return [f"trump {s}" for s in SUITS]
        if self._phase == _PHASE_DISCARD:
            return ["discard " + card for card in self._hands[self._declarer]]
        if self._phase == _PHASE_PLAY:
            return self._legal_cards()
        return []

    # ---------------------------------------------------------------- auction

    def _legal_calls(self) -> list[str]:
        calls = [call for value, _, call in _BIDS if value > self._high_value]
        dealer_forced = self._turn == self.dealer and self._high_seat is None
        if not dealer_forced:
            calls.insert(0, "pass")
        return calls

    def _apply_call(self, call: str) -> None:
        seat = self._turn
        self._calls.append(call)
        if call != "pass":
            number_text, strain = call.split()
            number = int(number_text)
            self._high_value = _bid_value(number, strain)
            self._high_seat = seat
            self._high_number = number
            self._high_strain = strain
        if len(self._calls) == NUM_SEATS:
            # Once around: the dealer has called last.  The dealer cannot pass
            # after three passes, so there is always a winning bid.
            self._declarer = self._high_seat
            self._phase = _PHASE_DECLARE
            self._turn = self._declarer
        else:
            self._turn = (seat + 1) % NUM_SEATS

    # ------------------------------------------------------------ declaration

    def _apply_declaration(self, action: str) -> None:
        word, value = action.split()
        if word == "trump":
            self._trump = value
            self._direction = self._high_strain  # uptown or downtown
        else:
            self._trump = None
            self._direction = value
        # The declarer takes the kitty, then lays away six cards.
        self._hands[self._declarer].extend(self._kitty)
        self._phase = _PHASE_DISCARD

    def _apply_discard(self, card: str) -> None:
        self._hands[self._declarer].remove(card)
        self._discards.append(card)
        if len(self._discards) == KITTY_SIZE:
            # The discards are the declaring side's first book.
            self._books[self._declarer % 2] += 1
            self._phase = _PHASE_PLAY
            self._leader = self._declarer
            self._turn = self._declarer

    # ------------------------------------------------------------------- play

    def _suit_of(self, card: str) -> str | None:
        """The suit a card belongs to for following: jokers are trumps in a
        suit contract and belong to no suit in no trump."""
        if card in JOKERS:
            return self._trump
        return card[1]

    def _suit_to_follow(self) -> str | None:
        """The suit of the trick in progress, or None while it is unset.

        In a suit contract that is the led card's suit (trump for a joker).
        In no trump it is the suit of the first non-joker card played."""
        for card in self._trick:
            suit = self._suit_of(card)
            if suit is not None:
                return suit
        return None

    def _legal_cards(self) -> list[str]:
        hand = self._hands[self._turn]
        suit = self._suit_to_follow()
        if suit is None:
            # Leading, or following a joker lead in no trump: anything goes.
            return list(hand)
        # Jokers follow a trump lead in a suit contract (_suit_of gives the
        # trump suit); in no trump they have no suit, so they are playable
        # only when the player cannot follow.
        following = [card for card in hand if self._suit_of(card) == suit]
        return following if following else list(hand)

    def _apply_card(self, card: str) -> None:
        seat = self._turn
        self._hands[seat].remove(card)
        self._trick.append(card)
        self._plays.append(card)
        if len(self._trick) < NUM_SEATS:
            self._turn = (seat + 1) % NUM_SEATS
            return
        winner = self._trick_winner()
        self._tricks.append((self._leader, self._trick, winner))
        self._books[winner % 2] += 1
        self._trick = []
        if len(self._tricks) == NUM_TRICKS:
            self._phase = _PHASE_OVER
            self._turn = None
            self._leader = None
        else:
            self._leader = winner
            self._turn = winner

    def _trick_winner(self) -> int:
        """Seat that wins the complete trick in ``self._trick``."""
        strength = _RANK_STRENGTH[self._direction]
        led = self._suit_to_follow()
        trump = self._trump
        best_index = -1
        best_key: tuple[int, int] | None = None
        for index, card in enumerate(self._trick):
            suit = self._suit_of(card)
            if trump is not None and suit == trump:
                rank_strength = _JOKER_TRUMP_STRENGTH.get(card)
                if rank_strength is None:
                    rank_strength = strength[card[0]]
                key = (1, rank_strength)
            elif suit == led and suit is not None:
                key = (0, strength[card[0]])
            else:
                continue  # off-suit card, or a joker in no trump: cannot win
            if best_key is None or key > best_key:
                best_key = key
                best_index = index
        return (self._leader + best_index) % NUM_SEATS

    # ---------------------------------------------------------------- results

    @property
    def contract(self) -> dict | None:
        """The contract once declared (``None`` before the declaration)::

            {"declarer": seat, "side": side, "bid": n,
             "strain": "uptown" | "downtown" | "notrump",
             "trump": "S" | "H" | "D" | "C" | None,
             "direction": "uptown" | "downtown"}
        """
        if self._direction is None:
            return None
        return {
            "declarer": self._declarer,
            "side": self._declarer % 2,
            "bid": self._high_number,
            "strain": self._high_strain,
            "trump": self._trump,
            "direction": self._direction,
        }

    @property
    def tricks(self) -> list[tuple[int, list[str], int]]:
        """Completed tricks as ``(leader, cards in play order, winner)``."""
        return [(leader, list(cards), winner) for leader, cards, winner in self._tricks]

    @property
    def books(self) -> list[int]:
        """Books taken by side 0 and side 1 so far (13 in all when over,
        the declarer's discards counting as one)."""
        return list(self._books)

    @property
    def score(self) -> list[int]:
        """The change of each side's score for this hand ([0, 0] until over).

        The declaring side scores its books over six if that reaches the bid,
        else minus the bid; notrump doubles either; the other side scores 0."""
        result = [0, 0]
        if not self.is_over():
            return result
        side = self._declarer % 2
        over_six = self._books[side] - BOOKS_BASE
        points = over_six if over_six >= self._high_number else -self._high_number
        if self._high_strain == "notrump":
            points *= 2
        result[side] = points
        return result

    def record(self) -> dict:
        """The hand as a ``bidwhist-hand/1`` record (see ``records.md``)."""
        record = {
            "format": "bidwhist-hand/1",
            "variant": "standard",
            "with": [],
            "dealer": self.dealer,
            "hands": [list(h) for h in self._dealt],
            "kitty": list(self._kitty),
            "auction": list(self._calls),
        }
        if self._direction is not None:
            if self._trump is None:
                record["declare"] = {"trump": None, "direction": self._direction}
            else:
                record["declare"] = {"trump": self._trump}
            record["discard"] = list(self._discards)
            record["play"] = list(self._plays)
        return record


def deal(rng: random.Random) -> tuple[list[list[str]], list[str], int]:
    """Shuffle a full deck with ``rng`` and pick a dealer with it.

    Returns ``(hands, kitty, dealer)``: 12 cards to each seat, 6 to the kitty."""
    deck = full_deck()
    rng.shuffle(deck)
    dealer = rng.randrange(NUM_SEATS)
    hands = [deck[HAND_SIZE * s: HAND_SIZE * (s + 1)] for s in range(NUM_SEATS)]
    kitty = deck[HAND_SIZE * NUM_SEATS:]
    return hands, kitty, dealer


def play_random_hand(rng: random.Random) -> PlainHand:
    """Deal a random hand with ``rng`` and play it out with uniformly random
    legal actions (``rng.choice(legal())``); return the finished hand."""
    hands, kitty, dealer = deal(rng)
    hand = PlainHand(hands, kitty, dealer)
    while not hand.is_over():
        hand.play(rng.choice(hand.legal()))
    return hand


if __name__ == "__main__":  # pragma: no cover - quick speed check
    import time

    rng = random.Random(1)
    count = 2000
    start = time.perf_counter()
    for _ in range(count):
        play_random_hand(rng)
    elapsed = time.perf_counter() - start
    print(f"{count / elapsed:.0f} hands/s")
