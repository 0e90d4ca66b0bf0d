"""The alpha-beta search: leads, follows and trick boundaries, as fast closures.

Part of the double-dummy solver (runtime/solver/): :func:`build` makes the search
of one :class:`~runtime.solver.engine._Engine` (the engine calls it once and runs its
tests through the functions it returns).  At each trick boundary it consults the
transposition table (table.py) and the sure and quick tricks (bounds.py); at each
turn it tries one card of each run of equivalent cards, in the order of
ordering.py, and skips the small cards of a suit once one of them failed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import bounds, ordering, table

if TYPE_CHECKING:
    from .engine import _Engine


def build(self: _Engine):
    """Make the search functions as closures over the engine's constants (fast look-ups).

    Every search function returns ``(result, rel)``: whether the declaring side
    reaches the target, and the cards whose rank the result depends on (a card
    that won a trick over another card of its suit, a top card cashed).  Only the
    lowest such card of each suit matters: the result then holds for every
    position with the same lengths and the same owners of the cards from the top
    of each suit down to that one, and the transposition table stores it so.

    Returns ``(bsearch, lead, follow_any, order_leads)``: the search at a trick
    boundary, the leader's turn, a follower's turn at any position, and the lead
    order (for the engine's greedy guess).
    """
    n = self.n
    MAX = self.max_seat
    SM = self.suit_mask
    LEDM = self.led_mask
    TR = self.trump_mask
    NS = self.ns_mask
    FREE = self.free_ns
    ALL = self.all_mask
    TT = self.tt
    hands = self.hands
    BONUS = self.bonus
    SEATS = range(n)
    NEXT = [(s + 1) % n for s in SEATS]
    GROUPS = list(self.group_masks)
    SUITS = [m for m in GROUPS if m != NS]
    TOP2 = {m: 1 << m.bit_length() for m in GROUPS}
    W = self.width
    opps_of = [[t for t in SEATS if MAX[t] != MAX[s]] for s in SEATS]
    partners_of = [[t for t in SEATS if t != s and MAX[t] == MAX[s]] for s in SEATS]
    # The opponents still to play after ``seat`` when it plays ``pos``-th.
    later_opps = [[[(seat + k) % n for k in range(1, n - pos) if MAX[(seat + k) % n] != MAX[seat]]
                   for pos in SEATS] for seat in SEATS]
    # Killer moves: the last card that caused a cutoff, per trick and position in it.
    KILL = [0] * (n * (sum(m.bit_count() for m in GROUPS) // n + 2))
    GT, SEQ_BITS, group_info, top_cards, store = table.make(self)
    quick_tricks, last_trick = bounds.make(self, opps_of)
    order_leads, order_discards = ordering.make(self, opps_of, partners_of)

    def settle(rels: int, tried: list, c: int, gone: int) -> int:
        """The relevant cards of a failure (every move of the player failed), made
        to hold for every position the table gives the result to.

        Each move stood for its run of equivalent cards.  Where a run's top is at or
        above the lowest relevant card of its suit and the run reaches below it,
        another position with the same key could split the run and give the player
        a low card never tried (ducking under partner's card, say): the run's lowest
        card becomes relevant too.
        """
        if not rels:
            return rels
        F = c | gone | NS
        if len(tried) > 1:
            tried.sort(reverse=True)
        for mv in tried:
            rg = rels & SM[mv]
            if rg:
                low = rg & -rg
                if mv >= low:
                    below = ~F & (mv - 1)
                    run = c & ~((1 << below.bit_length()) - 1) & ((mv << 1) - 1)
                    bottom = run & -run
                    if bottom < low:
                        rels |= bottom
        return rels

    def unskip(skipped: list, rels: int, small: dict) -> list:
        """The skipped cards that are no longer below every relevant card of their
        suit; their suits' skipping is switched off (they are to be searched)."""
        out = []
        for mv in skipped:
            gm = SM[mv]
            rg = rels & gm
            if rg and mv >= (rg & -rg):
                out.append(mv)
                small[gm] = 0
        for mv in out:
            skipped.remove(mv)
        return out

    def bsearch(leader: int, target: int, ntricks: int):
        """At a trick boundary: can the declaring side take ``target`` of ``ntricks``?"""
        if ntricks == 1:
            w, rel = last_trick(leader)
            return (1 if MAX[w] else 0) >= target, rel
        x = 0
        union = 0
        for h in hands:
            x = (x << W) | h
            union |= h
        seq = 0
        for cm, inf, gi in GT:
            part = x & cm
            try:
                seq |= inf[part]
            except KeyError:
                seq |= group_info(gi, part)
        key = seq >> SEQ_BITS << 3 | leader  # ``seq & mask`` keeps only owner sequences
        bucket = TT.get(key)
        hint = 0
        if bucket is not None:
            for mask, slot in bucket.items():
                e = slot[1].get(seq & mask)
                if e is not None:
                    if e[0] >= target:
                        return True, top_cards(slot[0], union)
                    if e[1] < target:
                        return False, top_cards(slot[0], union)
                    if e[2]:
                        hint = e[2]
        ismax = MAX[leader]
        if TR:
            t = union & TR
            if t:
                # The hand holding the top trump wins a trick with each of its trumps
                # above every other hand's trumps, whoever leads.
                top = 1 << (t.bit_length() - 1)
                for s in SEATS:
                    if hands[s] & top:
                        break
                ht = hands[s] & TR
                sure = ht & ~((1 << ((t ^ ht).bit_length())) - 1)
                k = sure.bit_count()
                if MAX[s]:
                    if k >= target:
                        store(key, seq, union, sure, k, ntricks, 0)
                        return True, sure
                elif ntricks - k < target:
                    store(key, seq, union, sure, 0, ntricks - k, 0)
                    return False, sure
        h = hands[leader]
        qt, qrel = quick_tricks(leader, union ^ h)
        if qt < (target if ismax else ntricks - target + 1):
            # Lead low to a partner's top card, and let the partner cash its own.
            for p in partners_of[leader]:
                hp = hands[p]
                others = union ^ hp
                for gm in SUITS:
                    if h & gm and hp & gm and (hp & gm) > (others & gm):
                        if gm != TR and TR:
                            ruffed = False
                            for o in opps_of[leader]:
                                ho = hands[o]
                                if ho & TR and not ho & gm:
                                    ruffed = True
                                    break
                            if ruffed:
                                continue
                        pqt, prel = quick_tricks(p, others)
                        # The leader cashes its own first if the partner can keep its
                        # winners meanwhile: as many other cards as the leader's tricks.
                        spare = hp
                        for g in SUITS:
                            if prel & g:
                                spare &= ~g
                        if spare.bit_count() >= qt:
                            qt, qrel = qt + pqt, qrel | prel
                        elif pqt > qt:
                            qt, qrel = pqt, prel
                        break
        if ismax:
            if qt >= target:
                store(key, seq, union, qrel, qt, ntricks, 0)
                return True, qrel
        elif qt > ntricks - target:
            store(key, seq, union, qrel, 0, ntricks - qt, 0)
            return False, qrel
        result, rel, best = lead(leader, target, ntricks, ALL & ~union, hint)
        if result:
            store(key, seq, union, rel, target, ntricks, best if ismax else 0)
        else:
            store(key, seq, union, rel, 0, target - 1, best if not ismax else 0)
        return result, rel

    def lead(leader: int, target: int, ntricks: int, gone: int, hint: int):
        """The leader's turn: (result, rel, the card that decided it)."""
        h = hands[leader]
        # One card of each run of equivalent cards (see follow).
        F = h | gone | NS
        c = h
        moves = []
        while c:
            top = 1 << (c.bit_length() - 1)
            moves.append(top)
            below = ~F & (top - 1)
            if not below:
                break
            c &= (1 << below.bit_length()) - 1
        if len(moves) > 1:
            moves = order_leads(leader, moves, ntricks, (ALL ^ gone) ^ h)
            k = KILL[ntricks * n]
            if k and moves[0] != k and k in moves:
                moves.remove(k)
                moves.insert(0, k)
            if hint and moves[0] != hint and hint in moves:
                moves.remove(hint)
                moves.insert(0, hint)
        ismax = MAX[leader]
        nxt = NEXT[leader]
        second = follow_last if n == 2 else follow
        rels = 0
        small = None
        skipped = None
        tried = []
        while True:
            for mv in moves:
                if small is not None:
                    th = small.get(SM[mv])
                    if th is not None and mv < th:
                        if skipped is None:
                            skipped = []
                        skipped.append(mv)
                        continue
                hands[leader] = h ^ mv
                if mv & NS:
                    r, rel = second(nxt, 1, 0, 0, leader, target, ntricks, gone, mv)
                else:
                    r, rel = second(nxt, 1, LEDM[mv], mv, leader, target, ntricks, gone, mv)
                hands[leader] = h
                if r == ismax:
                    KILL[ntricks * n] = mv
                    return r, rel, mv
                rels |= rel
                tried.append(mv)
                # A small card (below every card whose rank mattered) failed: the other
                # small cards of its suit would fail the same way, skip them.
                gm = SM[mv]
                if small is None:
                    small = {}
                if gm not in small:
                    rg = rels & gm
                    low = rg & -rg if rg else TOP2[gm]
                    if mv < low:
                        small[gm] = low
            if skipped is None:
                break
            # A card skipped as small must still be below every rank that mattered
            # in the end (later moves may have made lower cards relevant): else search it.
            moves = unskip(skipped, rels, small)
            if not moves:
                break
        return (not ismax), settle(rels, tried, h, gone), 0

    def follow(seat: int, pos: int, led: int, win: int, wseat: int, target: int, ntricks: int,
               gone: int, tm: int):
        """A follower's turn before the last.  ``led`` is the suit led (0 while only
        cards of no suit were played), ``win`` the card winning so far, held by
        ``wseat``; ``tm`` the cards on the table; ``gone`` the cards out of play."""
        h = hands[seat]
        c = h & led
        if c:
            following = True
            single = not (FREE and h & NS)  # every choice in the suit led
            if not single:
                c |= h & NS
        else:
            following = single = False
            c = h
        # One card of each run of equivalent cards: cards adjacent in power once the
        # cards out of play are left out (cards on the table still separate runs).
        F = c | gone | NS
        top = 1 << (c.bit_length() - 1)
        below = ~F & (top - 1)
        nxt = NEXT[seat]
        pos1 = pos + 1
        after = follow_last if pos1 == n - 1 else follow
        if not below or not c & ((1 << below.bit_length()) - 1):
            # One choice only (a singleton, or cards all equivalent): no branching.
            mv = top
            if win:
                if mv > win and mv & (led | TR):
                    nw, nws = mv, seat
                else:
                    nw, nws = win, wseat
                nled = led or LEDM[mv]  # after a top card led, the first card of a suit sets it
            elif mv & NS:
                nw, nws, nled = 0, wseat, 0
            else:
                nw, nws, nled = mv, seat, LEDM[mv]
            hands[seat] = h ^ mv
            r, rel = after(nxt, pos1, nled, nw, nws, target, ntricks, gone, tm | mv)
            hands[seat] = h
            if c != mv and r != MAX[seat]:  # a run of several cards failed
                rel = settle(rel, [mv], c, gone)
            return r, rel
        cc = c
        moves = [top]
        c &= (1 << below.bit_length()) - 1
        while c:
            top = 1 << (c.bit_length() - 1)
            moves.append(top)
            below = ~F & (top - 1)
            if not below:
                break
            c &= (1 << below.bit_length()) - 1
        ismax = MAX[seat]
        lt = led | TR
        kslot = ntricks * n + pos
        if following:
            moves.reverse()  # low cards first
            bar = 0
            for s in later_opps[seat][pos]:
                bar |= hands[s]
            bar &= led
            if win > bar:
                bar = win
            if MAX[wseat] != ismax or bar != win:
                # Win the trick for sure as cheaply as possible, else play low.
                for m in moves:
                    if m > bar and m & lt:
                        if m != moves[0]:
                            moves.remove(m)
                            moves.insert(0, m)
                        break
        else:
            moves = order_discards(h, ALL ^ gone ^ tm ^ h, moves)
            if win and MAX[wseat] != ismax:
                for m in moves:  # ruff (or overruff) as cheaply as possible
                    if m > win and m & lt:
                        moves.remove(m)
                        moves.insert(0, m)
                        break
        k = KILL[kslot]
        if k and moves[0] != k and k in moves:
            moves.remove(k)
            moves.insert(1, k)
        rels = 0
        tried = []
        if single:
            # Following suit: every card is of the suit led, and ``win`` is set.
            th = 0
            skipped = None
            while True:
                for mv in moves:
                    if mv < th:
                        if skipped is None:
                            skipped = []
                        skipped.append(mv)
                        continue
                    hands[seat] = h ^ mv
                    if mv > win:
                        r, rel = after(nxt, pos1, led, mv, seat, target, ntricks, gone, tm | mv)
                    else:
                        r, rel = after(nxt, pos1, led, win, wseat, target, ntricks, gone, tm | mv)
                    hands[seat] = h
                    if r == ismax:
                        KILL[kslot] = mv
                        return r, rel
                    rels |= rel
                    tried.append(mv)
                    # A small card (below every card whose rank mattered) failed: the other
                    # small cards of its suit would fail the same way, skip them.
                    if not th:
                        rg = rels & led
                        low = rg & -rg if rg else TOP2[led]
                        if mv < low:
                            th = low
                if skipped is None:
                    break
                # Skipped cards must stay below every rank that mattered (see lead).
                rg = rels & led
                low = rg & -rg if rg else TOP2[led]
                moves = [mv for mv in skipped if mv >= low]
                if not moves:
                    break
                skipped = [mv for mv in skipped if mv < low]
                th = -1
            return (not ismax), settle(rels, tried, cc, gone)
        small = None
        skipped = None
        while True:
            for mv in moves:
                if small is not None:
                    th = small.get(SM[mv])
                    if th is not None and mv < th:
                        if skipped is None:
                            skipped = []
                        skipped.append(mv)
                        continue
                if win:
                    if mv > win and mv & lt:
                        nw, nws = mv, seat
                    else:
                        nw, nws = win, wseat
                    nled = led or LEDM[mv]  # after a top card led, the first card of a suit sets it
                elif mv & NS:
                    nw, nws, nled = 0, wseat, 0
                else:
                    nw, nws, nled = mv, seat, LEDM[mv]
                hands[seat] = h ^ mv
                r, rel = after(nxt, pos1, nled, nw, nws, target, ntricks, gone, tm | mv)
                hands[seat] = h
                if r == ismax:
                    KILL[kslot] = mv
                    return r, rel
                rels |= rel
                tried.append(mv)
                gm = SM[mv]
                if small is None:
                    small = {}
                if gm not in small:
                    rg = rels & gm
                    low = rg & -rg if rg else TOP2[gm]
                    if mv < low:
                        small[gm] = low
            if skipped is None:
                break
            moves = unskip(skipped, rels, small)
            if not moves:
                break
        return (not ismax), settle(rels, tried, cc, gone)

    def follow_last(seat: int, pos: int, led: int, win: int, wseat: int, target: int, ntricks: int,
                    gone: int, tm: int):
        """The last card of a trick: then the trick is scored and the next one searched."""
        h = hands[seat]
        c = h & led
        if c:
            following = True
            single = not (FREE and h & NS)
            if not single:
                c |= h & NS
        else:
            following = single = False
            c = h
        F = c | gone | NS
        top = 1 << (c.bit_length() - 1)
        below = ~F & (top - 1)
        left = ntricks - 1
        won = 2 if ntricks == BONUS[0] else 1
        if not below or not c & ((1 << below.bit_length()) - 1):
            # One choice only.
            mv = top
            if win:
                if mv > win and mv & (led | TR):
                    nw, nws = mv, seat
                else:
                    nw, nws = win, wseat
            elif mv & NS:
                nw, nws = 0, wseat
            else:
                nw, nws = mv, seat
            t2 = target - won if MAX[nws] else target
            if t2 <= 0:
                r, rel = True, 0
            elif t2 > left:
                r, rel = False, 0
            else:
                hands[seat] = h ^ mv
                r, rel = bsearch(nws, t2, left)
                hands[seat] = h
            if nw and ((tm | mv) & SM[nw]) != nw:
                rel |= nw  # it won over another card of its suit: its rank counts
            if c != mv and r != MAX[seat]:  # a run of several cards failed
                rel = settle(rel, [mv], c, gone)
            return r, rel
        cc = c
        moves = [top]
        c &= (1 << below.bit_length()) - 1
        while c:
            top = 1 << (c.bit_length() - 1)
            moves.append(top)
            below = ~F & (top - 1)
            if not below:
                break
            c &= (1 << below.bit_length()) - 1
        ismax = MAX[seat]
        lt = led | TR
        if following:
            moves.reverse()
        else:
            moves = order_discards(h, ALL ^ gone ^ tm ^ h, moves)
        if win and MAX[wseat] != ismax:
            for m in moves:  # the cheapest card that wins
                if m > win and m & lt:
                    if m != moves[0]:
                        moves.remove(m)
                        moves.insert(0, m)
                    break
        kslot = ntricks * n + pos
        k = KILL[kslot]
        if k and moves[0] != k and k in moves:
            moves.remove(k)
            moves.insert(1, k)
        rels = 0
        tried = []
        small = None
        skipped = None
        while True:
            for mv in moves:
                if small is not None:
                    th = small.get(SM[mv])
                    if th is not None and mv < th:
                        if skipped is None:
                            skipped = []
                        skipped.append(mv)
                        continue
                if win:
                    if mv > win and mv & lt:
                        nw, nws = mv, seat
                    else:
                        nw, nws = win, wseat
                elif mv & NS:
                    nw, nws = 0, wseat
                else:
                    nw, nws = mv, seat
                t2 = target - won if MAX[nws] else target
                if t2 <= 0:
                    r, rel = True, 0
                elif t2 > left:
                    r, rel = False, 0
                else:
                    hands[seat] = h ^ mv
                    r, rel = bsearch(nws, t2, left)
                    hands[seat] = h
                if nw and ((tm | mv) & SM[nw]) != nw:
                    rel |= nw  # it won over another card of its suit: its rank counts
                if r == ismax:
                    KILL[kslot] = mv
                    return r, rel
                rels |= rel
                tried.append(mv)
                # A small card (below every card whose rank mattered) failed: the other
                # small cards of its suit would fail the same way, skip them.
                gm = SM[mv]
                if small is None:
                    small = {}
                if gm not in small:
                    rg = rels & gm
                    low = rg & -rg if rg else TOP2[gm]
                    if mv < low:
                        small[gm] = low
            if skipped is None:
                break
            moves = unskip(skipped, rels, small)
            if not moves:
                break
        return (not ismax), settle(rels, tried, cc, gone)

    def follow_any(seat: int, pos: int, led: int, win: int, wseat: int, target: int, ntricks: int,
                   gone: int, tm: int):
        """A follower's turn at any position (the root's entry point)."""
        f = follow_last if pos == n - 1 else follow
        return f(seat, pos, led, win, wseat, target, ntricks, gone, tm)
    return bsearch, lead, follow_any, order_leads
