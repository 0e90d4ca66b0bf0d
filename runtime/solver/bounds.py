"""Tricks a side is sure of before searching: the last trick, and quick tricks.

Part of the double-dummy solver (runtime/solver/): at a trick boundary the search
(search.py) ends at once where the tricks the side on lead can cash from its top
cards (and its partner's, after a low lead) reach the target, or make it
unreachable for the other side; with one card left in each hand the last trick is
simply played out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .engine import _Engine


def make(self: _Engine, opps_of: list[list[int]]):
    """``(quick_tricks, last_trick)`` for one engine; ``opps_of[s]`` are seat s's opponents."""
    n = self.n
    SM = self.suit_mask
    TOPTR = self.top_as_trump
    TR = self.trump_mask
    NS = self.ns_mask
    FREE = self.free_ns
    hands = self.hands
    SEATS = range(n)
    NEXT = [(s + 1) % n for s in SEATS]
    PLAIN = [m for m in self.group_masks if m != TR and m != NS]

    def quick_tricks(leader: int, others: int) -> tuple[int, int]:
        """Tricks the player on lead can cash at once from its own top cards, and those cards.

        ``others`` are the other hands' cards.  In a suit where its top cards are at
        least as many as any other hand's cards, all its cards win (the others run
        out), unless a card of no suit may be thrown instead of following.
        """
        h = hands[leader]
        qt = 0
        rel = 0
        ruffers = ()
        full = not (FREE and others & NS)
        if TR:
            t = h & TR
            if t:
                ot = others & TR
                above = t & ~((1 << ot.bit_length()) - 1)
                if above:
                    k = above.bit_count()
                    if full and ot and not TOPTR:  # top cards are never drawn by leading them
                        longest = 0
                        for s in SEATS:
                            if s != leader:
                                length = (hands[s] & TR).bit_count()
                                if length > longest:
                                    longest = length
                        if k >= longest:
                            k = t.bit_count()
                    elif not ot:
                        k = t.bit_count()
                    qt = k
                    rel = above
            ruffers = [hands[o] for o in opps_of[leader] if hands[o] & TR]
        for gm in PLAIN:
            mine = h & gm
            if not mine:
                continue
            og = others & gm
            above = mine & ~((1 << og.bit_length()) - 1)
            if above:
                k = above.bit_count()
                if not og:
                    k = mine.bit_count()
                elif full and k < mine.bit_count():
                    longest = 0
                    for s in SEATS:
                        if s != leader:
                            length = (hands[s] & gm).bit_count()
                            if length > longest:
                                longest = length
                    if k >= longest:
                        k = mine.bit_count()
                for o in ruffers:
                    length = (o & gm).bit_count()
                    if length < k:
                        k = length
                if k:
                    qt += k
                    rel |= above
        return qt, rel

    def last_trick(leader: int) -> tuple[int, int]:
        """The winner of the last trick (each seat holds one card) and the card if it won by rank."""
        win = 0
        wseat = leader  # a trick of cards that never win goes to its leader
        lt = 0
        s = leader
        played = 0
        for _ in SEATS:
            mv = hands[s]
            played |= mv
            if win:
                if mv > win and mv & lt:
                    win, wseat = mv, s
            elif not mv & NS:
                win, wseat, lt = mv, s, SM[mv] | TR
            s = NEXT[s]
        if win and (played & SM[win]) != win:
            return wseat, win
        return wseat, 0

    return quick_tricks, last_trick
