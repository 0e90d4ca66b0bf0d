"""The order the search tries moves in: the likely best first.

Part of the double-dummy solver (runtime/solver/): the search (search.py) asks for
the order of a leader's cards (suits where the opponents have few choices, winners
and leads to partner's winners, with four players weighed by who holds each suit's
top cards) and of the cards of a player who cannot follow (low cards of long suits
first, trumps last).  Killer moves and the table's best card are put first by the
search itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .engine import _Engine


def make(self: _Engine, opps_of: list[list[int]], partners_of: list[list[int]]):
    """``(order_leads, order_discards)`` for one engine; ``opps_of[s]`` and
    ``partners_of[s]`` are seat s's opponents and partners."""
    n = self.n
    SM = self.suit_mask
    TR = self.trump_mask
    NS = self.ns_mask
    hands = self.hands
    SEATS = range(n)
    NEXT = [(s + 1) % n for s in SEATS]
    # Each card's rank within its block (1 for the lowest).
    RANK = {b: (b // (SM[b] & -SM[b])).bit_length() for b in SM}
    # Four players in two pairs of partners sitting opposite: leads are weighed by
    # who holds a suit's top cards (left and right opponent, partner).
    QUAD = n == 4 and all(partners_of[s] == [(s + 2) % 4] for s in SEATS)

    def order_leads(leader: int, moves: list[int], ntricks: int, others: int) -> list[int]:
        """Leads in a promising order.

        Suits where the opponents have few cards to choose from come first (their
        search is small); a card that wins the trick (the top card, or any card
        when partner holds the top card) before one that does not; opponents'
        ruffs are avoided and partner's ruffs sought.
        """
        partner = 0
        for p in partners_of[leader]:
            partner |= hands[p]
        opp = others & ~partner
        opps = [hands[o] for o in opps_of[leader]]
        ruffers = [o for o in opps if o & TR] if TR and others & TR else ()
        partner_ruffs = partner & TR
        void = -7 * (ntricks + 1)
        h = hands[leader]
        # (in notrump only, or once the trumps are out: with trumps it searched more nodes)
        quad = QUAD and not ((others | h) & TR)
        if quad:
            lho = NEXT[leader]
            pa = NEXT[lho]
            rho = NEXT[pa]
        scored = []
        gm = 0
        i = 127  # scores carry the move's index in their low 7 bits (ties: higher cards first)
        for mv in moves:
            if mv & NS:
                scored.append(-128000 | i)
                i -= 1
                continue
            if not mv & gm:  # the first (highest) card of the next suit: weigh the suit
                gm = SM[mv]
                weight = 0
                for o in opps:
                    o &= gm
                    weight += -7 * o.bit_count() if o else void
                ruffed = False
                if gm != TR:
                    for o in ruffers:
                        if not o & gm:
                            weight -= 40
                            ruffed = True
                            break
                    else:
                        if partner_ruffs and not (partner & gm):
                            weight += 25  # partner ruffs
                pg = partner & gm
                if not pg:
                    weight -= 9
                if ruffed:
                    oth = -1
                elif pg > (opp & gm):
                    oth = 0  # partner's top card: every lead wins the trick
                else:
                    oth = others & gm
                win_w = weight + 45
                low_w = weight + 12
                if quad and oth != -1:
                    # Four players in pairs: who holds the suit's three highest cards
                    # (as DDS weighs leads): lead towards a tenace, not into one.
                    rest = (others | h) & gm
                    b1 = 1 << (rest.bit_length() - 1)
                    rest ^= b1
                    b2 = 1 << (rest.bit_length() - 1) if rest else 0
                    rest ^= b2
                    b3 = 1 << (rest.bit_length() - 1) if rest else 0
                    o1 = o2 = o3 = -1
                    for t in SEATS:
                        ht = hands[t]
                        if ht & b1:
                            o1 = t
                        if ht & b2:
                            o2 = t
                        if ht & b3:
                            o3 = t
                    len_l = (hands[lho] & gm).bit_count()
                    len_r = (hands[rho] & gm).bit_count()
                    len_p = pg.bit_count()
                    if o2 == rho:
                        win_w -= 1 if len_r != 1 else 0
                    elif o2 == lho:
                        win_w += 22 if len_l != 1 else 16
                    if not ((o2 != lho or len_l == 1) and (o2 != rho or len_r == 1)):
                        win_w -= 27
                    if o1 == rho or o2 == rho:
                        if len_r != 1:
                            low_w -= 10
                    elif o1 == lho and o2 == pa and len_p != 1:
                        low_w += 31
                    if o2 == pa and o3 == pa:
                        low_w += 35
                    elif len_p > 1 and ((o2 == leader and o3 == pa) or (o2 == pa and o3 == leader)):
                        low_w += 25
                    if (len_l == 1 and o1 == lho) or (len_r == 1 and o1 == rho):
                        low_w += 16
                    elif o1 == leader:
                        low_w -= 29
            if mv > oth >= 0:
                scored.append((win_w + RANK[mv]) << 7 | i)  # wins the trick
            else:
                scored.append((low_w - RANK[mv]) << 7 | i)
            i -= 1
        scored.sort(reverse=True)
        return [moves[127 - (x & 127)] for x in scored]

    def order_discards(h: int, others: int, moves: list[int]) -> list[int]:
        """Cards of a player who cannot follow (holding ``h``; ``others`` are the
        other hands' cards): low cards of long suits first, top cards later, trumps last."""
        scored = []
        i = 127  # the move's index in the low 7 bits of its score (ties: lower cards first)
        for m in moves:
            gm = SM[m]
            if gm == TR:
                scored.append((1000 + m.bit_length()) << 7 | i)
            elif m > (others & gm):
                scored.append((500 - (h & gm).bit_count()) << 7 | i)
            else:
                scored.append((m.bit_length() - 32 * (h & gm).bit_count()) << 7 | i)
            i -= 1
        scored.sort()
        return [moves[127 - (x & 127)] for x in scored]

    return order_leads, order_discards
