"""What the play so far has shown everyone: the cards played and the suits each seat is out of."""

from __future__ import annotations

from ..hand import HandState
from ..ruleset import NO_SUIT
from .knowledge import BIT, card_mask


class Track:
    """Public knowledge of the play so far: cards played and suits each seat showed out of.

    Updated trick by trick; rebuilt when it is asked about a different hand (or a
    different line of play of the same deal, as in the sampler's playouts).
    """

    __slots__ = ("dealt", "table", "done", "last", "played", "void", "own", "seen", "masks")

    def __init__(self):
        self.dealt = None
        self.table = None
        self.done = -1
        self.last = None

    def mask_of(self, what: str, cards: list[int]) -> int:
        """The mask of the cards out of play or the discards: fixed once play begins."""
        got = self.masks.get(what)
        if got is None:
            got = self.masks[what] = card_mask(cards)
        return got

    def sync(self, state: HandState, players: int) -> "Track":
        """Bring the record up to ``state``'s tricks (rebuilt for another deal or line); returns self."""
        tricks = state.tricks
        done = len(tricks)
        if done == self.done and self.dealt is state.dealt and self.table is state.table and (
                not done or tricks[-1] is self.last):
            return self  # nothing new since the last look
        if (self.dealt is not state.dealt or self.table is not state.table or done < self.done
                or (self.done and tricks[self.done - 1] is not self.last)):
            self.dealt = state.dealt
            self.table = state.table
            self.done = 0
            self.played = 0
            self.void = [0] * players
            # Per seat (lists by seat: read at every card played), None until it first plays:
            # the mask of the cards it held when it first played; (mask of the cards it knows
            # are out of play, per holder the cards it was shown (shown.shown_mask: the same
            # while the cards are played)).
            self.own: list[int | None] = [None] * players
            self.seen: list[tuple[int, dict[int, int]] | None] = [None] * players
            self.masks = {}
        if done > self.done:
            table = self.table
            suit_of = table.suit_of
            free = table.free_no_suit
            played = self.played
            void = self.void
            for leader, cards, _ in tricks[self.done:]:
                led = NO_SUIT
                for i, c in enumerate(cards):
                    played |= BIT[c]
                    s = suit_of[c]
                    if led == NO_SUIT:
                        if s >= 0:  # tricks.sets_led: cards of no suit and top cards set none
                            led = s
                    elif s != led and not (free and s < 0):  # a free card of no suit (or top) says nothing
                        void[(leader + i) % players] |= 1 << led
            self.played = played
            self.done = done
            self.last = tricks[-1]
        return self
