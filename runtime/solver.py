"""A double-dummy solver for the play phase of any variant.

Double dummy: every hand is known and everyone plays perfectly.  The solver answers
how many of the remaining books the declaring side takes from a position of the play
(:func:`solve`), and what each legal card of the player to move is worth
(:func:`solve_actions`).  With more than two sides (players alone), the declarer
plays against all the others as one team.

It reads nothing but the :class:`~runtime.ruleset.Ruleset` and the contract's
:class:`~runtime.ruleset.PlayTable`, so whatever a variant's tables say comes for
free: jokers of no suit that never win (a trick of nothing else goes to its leader;
where the table says so, they may be thrown at any time), promoted trumps, three
players, a trump named by the first card led.

What it counts
    The books still to be won by play.  Where the variant gives the discards to the
    winner of the first trick, that trick is worth two books while it is still to be
    won, so ``books_so_far() + solve()`` is always the declaring side's final books.

Renege penalties
    Where a variant lets a renege stand (and scores a penalty), the solver still
    assumes that everyone follows suit when able: a deliberate renege is never part
    of perfect play in its search.  A renege already in the position is simply part
    of the position.

How it searches
    The position is turned into one integer bitmask per seat.  Each effective suit
    of the contract is a block of bits ordered by power, the trump block highest, so
    "card a beats card b" is ``a > b`` plus a suit test.  The value is found by
    boolean alpha-beta searches ("can the declaring side take at least t books?"),
    stepping one book at a time from a guess: the mean of two quick greedy plays of
    the rest of the hand (one of them leading as the search would), usually within
    a book or two.  Tests far from the value are cheap, and the transposition table
    keeps what every test proved (a lower and an upper bound per position), so the
    next test starts from it.

    Each search also returns the cards whose rank decided it (a card that won a
    trick over another card of its suit, a top card cashed), and the table, consulted
    and filled at every trick boundary, stores its bounds for every position with
    the same leader, the same suit lengths and the same owners of the cards from the
    top of each suit down to the lowest such card (partition search: low cards and
    the cards already played are left out of the key, so ranks are relative).  It
    also keeps the card that decided a success, tried first when the position comes
    back.  Cards of one hand adjacent in power among the cards still in play are
    searched once; once a low card of a suit has failed, the hand's other cards of
    that suit below every rank that mattered are skipped.  Both stay sound for the
    whole class of positions a result is stored for: a skipped card that later
    moves made relevant is searched after all, and where every move failed, a run
    searched once that reaches below the lowest relevant card of its suit makes its
    lowest card relevant (else a position of the class could split the run).

    Before searching a trick boundary: the sure tricks of the top trumps (whoever
    leads), and the quick tricks of the side on lead end the search when they reach
    the target (or, for the other side, make it unreachable).  Quick tricks are the
    leader's top cards in each suit no opponent can ruff (all its cards of a suit
    once its top cards outlast every other hand's holding), and those its partner
    can cash after a low card led to its top card (added to the leader's own when
    the partner has enough other cards to keep its winners meanwhile).  Moves are
    ordered so the likely best comes first: the best card stored for the position,
    the last card that caused a cutoff at that point of the trick, winners and leads
    to partner's winners in suits where the opponents have few choices, cheap wins,
    low discards.  The garbage collector is paused during a solve (the search makes
    no reference cycles; the collector would only walk the table again and again).
"""

from __future__ import annotations

import gc

from .hand import OVER, PLAY, HandState
from .ruleset import NO_SUIT, NO_TRUMP, TOP_SUIT, PlayTable, Ruleset

__all__ = ["solve", "solve_actions", "DoubleDummy", "UnsupportedContract", "BACKENDS", "can_use_dds"]

#: The searches a :class:`DoubleDummy` can use.  ``own``: this module's search, for every
#: position (the default).  ``dds``: the DDS library (through the optional ``endplay``
#: package) for the positions it plays exactly as the variant's rules say, this module's
#: search for all others.  DDS answers a position when endplay is installed, the position
#: is in the play with its contract known (not the first card naming trump), four players
#: play as the partnerships of seats 0+2 and 1+3, no card of no suit is in play (in a
#: hand or the current trick) and no card of the role top is in the deck, no trick is
#: still worth the discards' book, the hands are of equal length (one card fewer for
#: those who played to the current trick), and every effective suit has at most 13 cards
#: in play.  Effective suits come from the contract's table (promoted trumps belong to
#: the trump suit, power gives the order, downtown included), so DDS sees the same suits
#: and order as our search; :func:`can_use_dds` tells whether it applies.  ``fast``:
#: this module's search compiled by numba (runtime/solver_fast.py, the optional extra
#: ``bidwhist[fast]``): the same search move for move, so the same answers and nodes,
#: each node far cheaper; used for every contract whose cards number at most 62, this
#: module's Python search for others and wherever numba is not installed.  Its first
#: use on a machine compiles it (cached on disk after that).
BACKENDS = ("own", "fast", "dds")


class UnsupportedContract(ValueError):
    """A contract whose tables the solver cannot search (its message says why)."""

# The transposition table is cleared when it holds this many groups of positions
# (one per leader and suit lengths), so memory stays bounded in long runs.
TT_LIMIT = 200_000


class _Engine:
    """The search for one contract (a PlayTable) and one choice of declaring seats.

    The engine keeps its transposition table between calls: solving the positions
    of one hand one after another (a replay, a sampler's many calls) reuses it.
    """

    def __init__(self, n_players: int, n_cards: int, table: PlayTable, max_seat: tuple[bool, ...]):
        self.n = n = n_players
        self.table = table
        self.max_seat = max_seat
        suit_of, power, trump = table.suit_of, table.power, table.trump
        present = sorted({s for s in suit_of})
        # Cards of the role top (TOP_SUIT) win every trick they are played to.  Without
        # trumps they are searched as the trump block: a card of that block played by a
        # player who cannot follow wins, the highest of them on top; what differs (a
        # top card led sets no suit to follow, so the next card with a suit does; its
        # holder is never made to follow with it) is handled where a card sets the suit
        # led (LEDM below) and in the quick tricks.
        self.top_as_trump = TOP_SUIT in present
        if self.top_as_trump:
            if trump != NO_TRUMP:
                raise UnsupportedContract(
                    "the double-dummy solver cannot solve a contract with both a trump suit and cards of the "
                    "role top (play.roles.suit): it searches the top cards as the trump block, which is taken")
            if table.free_no_suit:
                raise UnsupportedContract(
                    "the double-dummy solver cannot solve a contract whose top cards may be played at any time "
                    "(play.roles with notrump_extras: free): its search makes every card follow suit when able")
            trump = TOP_SUIT
        plain = [s for s in present if s not in (NO_SUIT, trump)]
        # Blocks from low to high bits: cards of no suit, the plain suits, trumps on top.
        groups = ([NO_SUIT] if NO_SUIT in present else []) + plain + ([trump] if trump in present else [])
        members = {g: sorted((c for c in range(n_cards) if suit_of[c] == g), key=lambda c: power[c])
                   for g in groups}
        # One empty bit above every block keeps sequences from running across suits.
        stride = max(len(m) for m in members.values()) + 1
        self.bit_of: list[int] = [0] * n_cards
        self.card_of: dict[int, int] = {}
        self.group_masks: list[int] = []
        suit_mask: dict[int, int] = {}
        for gi, g in enumerate(groups):
            cards = members[g]
            if g != NO_SUIT:
                powers = [power[c] for c in cards]
                if len(set(powers)) != len(powers):
                    raise ValueError("the solver needs distinct powers within an effective suit")
            gmask = ((1 << len(cards)) - 1) << (gi * stride)
            self.group_masks.append(gmask)
            for r, c in enumerate(cards):
                bit = 1 << (gi * stride + r)
                self.bit_of[c] = bit
                self.card_of[bit] = c
                suit_mask[bit] = gmask
        self.suit_mask = suit_mask
        # The suit led a card sets when it is the first card of a trick with a suit:
        # its block, but none for a card of no suit or a top card.
        self.led_mask = {bit: (0 if g in (NO_SUIT, TOP_SUIT) else suit_mask[bit])
                         for g in groups for bit in (self.bit_of[c] for c in members[g])}
        self.groups = groups
        self.ns_mask = self.group_masks[0] if groups and groups[0] == NO_SUIT else 0
        self.trump_mask = self.group_masks[-1] if trump in present and trump != NO_SUIT else 0
        self.all_mask = sum(self.group_masks)
        self.width = len(groups) * stride
        self.free_ns = table.free_no_suit
        self.tt: dict = {}
        self.hands: list[int] = [0] * n
        # The number of tricks left when the trick worth two books (it takes the
        # discards) is played, or -1; read by the search at every trick's end.
        self.bonus = [-1]
        self.kernel = None  # the compiled search (backend "fast"), see use_kernel
        self._build()

    def use_kernel(self) -> bool:
        """Run this engine's searches compiled (runtime/solver_fast.py) where numba is
        installed and the contract fits it; True if it now does."""
        if self.kernel is not None:
            return True
        try:
            from . import solver_fast  # noqa: PLC0415 - numba's import is slow: only for backend "fast"
        except Exception:  # noqa: BLE001 - an accelerator that cannot load is no error
            # Not only ImportError (the fast extra not installed): numba raises RuntimeError where
            # no cache folder is writable, llvmlite OSError where its library will not load.  The
            # Python search gives the same answers, so the analysis goes on in Python.
            return False
        if not solver_fast.available() or not solver_fast.fits(self):
            return False
        kernel = self.kernel = solver_fast.Kernel(self)
        n = self.n
        call = kernel.call
        # The same entry points as the Python search's (test, _test_lead and _child use
        # only the result); the root's values are translated to the kernel's layout.
        self._bsearch = lambda leader, target, ntricks: (call(0, leader, 0, 0, 0, 0, target, ntricks, 0, 0), 0)
        self._lead = lambda leader, target, ntricks, gone, hint: (
            call(1, leader, 0, 0, hint, 0, target, ntricks, gone, 0), 0, 0)
        self._follow = lambda seat, pos, led, win, wseat, target, ntricks, gone, tm: (
            call(3 if pos == n - 1 else 2, seat, pos, led, win, wseat, target, ntricks, gone, tm), 0)
        return True

    # ----------------------------------------------------------------- the search
    def _build(self) -> None:
        """Make the search functions as closures over the engine's constants (fast look-ups).

        Every search function returns ``(result, rel)``: whether the declaring side
        reaches the target, and the cards whose rank the result depends on (a card
        that won a trick over another card of its suit, a top card cashed).  Only the
        lowest such card of each suit matters: the result then holds for every
        position with the same lengths and the same owners of the cards from the top
        of each suit down to that one, and the transposition table stores it so.
        """
        n = self.n
        MAX = self.max_seat
        SM = self.suit_mask
        LEDM = self.led_mask
        TOPTR = self.top_as_trump
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
        G = len(GROUPS)
        GIS = range(G)
        PLAIN = [m for m in GROUPS if m != TR and m != NS]
        SUITS = [m for m in GROUPS if m != NS]
        TOP2 = {m: 1 << m.bit_length() for m in GROUPS}
        # Each card's rank within its block (1 for the lowest).
        RANK = {b: (b // (SM[b] & -SM[b])).bit_length() for b in SM}
        W = self.width
        # In a key, seat s's hand is shifted by SHIFTS[s] (seat 0 highest).
        SHIFTS = [W * (n - 1 - s) for s in SEATS]
        # For the keys: each block's bits in every seat's copy of a hand.
        COPY_MASKS = [sum(m << sh for sh in SHIFTS) for m in GROUPS]
        GROUP_IS_NS = [m == NS for m in GROUPS]
        GROUP_LOW = [(m & -m).bit_length() - 1 for m in GROUPS]
        # Key fields: owner sequences (OB bits per card), lengths (five bits per seat).
        OB = max(1, (n - 1).bit_length())
        FIELD = OB * max(m.bit_count() for m in GROUPS) + 2
        LEN_FIELD = 5 * n
        infos: list[dict] = [dict() for _ in GROUPS]
        SEQ_BITS = FIELD * G
        GT = list(zip(COPY_MASKS, infos, GIS))
        DESC: dict = {}  # the cards left of a block, highest first
        opps_of = [[t for t in SEATS if MAX[t] != MAX[s]] for s in SEATS]
        partners_of = [[t for t in SEATS if t != s and MAX[t] == MAX[s]] for s in SEATS]
        # Four players in two pairs of partners sitting opposite: leads are weighed by
        # who holds a suit's top cards (left and right opponent, partner).
        QUAD = n == 4 and all(partners_of[s] == [(s + 2) % 4] for s in SEATS)
        # The opponents still to play after ``seat`` when it plays ``pos``-th.
        later_opps = [[[(seat + k) % n for k in range(1, n - pos) if MAX[(seat + k) % n] != MAX[seat]]
                       for pos in SEATS] for seat in SEATS]
        # Killer moves: the last card that caused a cutoff, per trick and position in it.
        KILL = [0] * (n * (sum(m.bit_count() for m in GROUPS) // n + 2))

        def group_info(gi: int, part: int) -> tuple[int, int]:
            """The owner sequence (high to low) and the lengths of one block, as key fields."""
            low = GROUP_LOW[gi]
            bit = GROUPS[gi].bit_length() - 1
            owners = []
            lens = [0] * n
            while bit >= low:
                for s in SEATS:
                    if part >> (bit + SHIFTS[s]) & 1:
                        owners.append(s)
                        lens[s] += 1
                        break
                bit -= 1
            seq = 0
            if not GROUP_IS_NS[gi]:  # cards of no suit never win: only how many each holds matters
                for s in owners:
                    seq = (seq << OB) | s
            length = 0
            for s in SEATS:
                length |= lens[s] << (5 * s)
            # Owner sequences in the low bits, lengths above them (and the leader above all).
            info = (seq << (FIELD * gi)) | (length << (LEN_FIELD * gi + SEQ_BITS))
            infos[gi][part] = info
            return info

        def top_cards(kvec: tuple, union: int) -> int:
            """The k-th highest card left in each block, for the k of ``kvec``."""
            rel = 0
            for gi in GIS:
                k = kvec[gi]
                if k:
                    p = union & GROUPS[gi]
                    tops = DESC.get(p)
                    if tops is None:
                        tops = DESC[p] = _bits(p)[::-1]
                    rel |= tops[k - 1]
            return rel

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

        def store(key: int, seq: int, union: int, rel: int, lb: int, ub: int, best: int) -> None:
            """Record bounds for every position like this one down to the relevant cards."""
            mask = 0
            kvec = [0] * G
            for gi in GIS:
                r = rel & GROUPS[gi]
                if r:
                    p = union & GROUPS[gi]
                    k = (p & ~((r & -r) - 1)).bit_count()  # from the top down to the lowest relevant
                    kvec[gi] = k
                    mask |= (((1 << (OB * k)) - 1) << (OB * (p.bit_count() - k))) << (FIELD * gi)
            bucket = TT.get(key)
            if bucket is None:
                if len(TT) >= TT_LIMIT:
                    TT.clear()
                bucket = TT[key] = {}
            slot = bucket.get(mask)
            if slot is None:
                slot = bucket[mask] = (tuple(kvec), {})
            sub = slot[1]
            e = sub.get(seq & mask)
            if e is None:
                sub[seq & mask] = [lb, ub, best]
            else:
                if lb > e[0]:
                    e[0] = lb
                if ub < e[1]:
                    e[1] = ub
                if best:
                    e[2] = best

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

        def follow_any(seat: int, pos: int, led: int, win: int, wseat: int, target: int, ntricks: int,
                       gone: int, tm: int):
            """A follower's turn at any position (the root's entry point)."""
            f = follow_last if pos == n - 1 else follow
            return f(seat, pos, led, win, wseat, target, ntricks, gone, tm)

        self._bsearch = bsearch
        self._follow = follow_any
        self._lead = lead
        self._order_leads = order_leads

    def _gen(self, c: int, gone: int) -> list[int]:
        """One card of each run of equivalent cards of ``c``, highest first."""
        F = c | gone | self.ns_mask
        out = []
        while c:
            top = 1 << (c.bit_length() - 1)
            out.append(top)
            below = ~F & (top - 1)
            if not below:
                break
            c &= (1 << below.bit_length()) - 1
        return out

    # ----------------------------------------------------------------- positions
    def load(self, hands: list[list[int]], trick: list[int], leader: int) -> dict:
        """Set the engine's hands from card ids; return the root's trick status."""
        bit_of = self.bit_of
        for s, h in enumerate(hands):
            self.hands[s] = sum(bit_of[c] for c in h)
        n = self.n
        led = 0
        win = 0
        wseat = leader  # until a card that can win is played
        lt = 0
        played = 0
        for i, c in enumerate(trick):
            mv = bit_of[c]
            played |= mv
            seat = (leader + i) % n
            if win:
                if mv > win and mv & lt:
                    win, wseat = mv, seat
                if not led and self.led_mask[mv]:  # the first card of a suit after a top card led
                    led = self.led_mask[mv]
                    lt = led | self.trump_mask
            elif not mv & self.ns_mask:
                win, wseat, led = mv, seat, self.led_mask[mv]
                lt = led | self.trump_mask
        union = played
        for h in self.hands:
            union |= h
        seat = (leader + len(trick)) % n
        return {"seat": seat, "pos": len(trick), "led": led, "win": win, "wseat": wseat, "tm": played,
                "gone": self.all_mask & ~union, "leader": leader, "ntricks": self.hands[seat].bit_count()}

    def root_moves(self, root: dict) -> list[int]:
        """The legal moves at the root (every card, not only one per run)."""
        h = self.hands[root["seat"]]
        led = root["led"]
        if root["pos"] and led:
            c = h & led
            if c:
                return _bits(c | (h & self.ns_mask if self.free_ns else 0))
        return _bits(h)

    def test(self, root: dict, target: int, moves: list[int] | None = None) -> bool:
        """Can the declaring side take ``target`` books from the root (with only ``moves`` at the root)?"""
        ntricks = root["ntricks"]
        seat, pos = root["seat"], root["pos"]
        if moves is None:
            if pos == 0:
                return self._test_lead(root, target)
            return self._follow(seat, pos, root["led"], root["win"], root["wseat"], target, ntricks,
                              root["gone"], root["tm"])[0]
        ismax = self.max_seat[seat]
        for mv in moves:
            if self._child(root, mv, target) == ismax:
                return ismax
        return not ismax

    def _test_lead(self, root: dict, target: int) -> bool:
        leader, ntricks = root["seat"], root["ntricks"]
        if target <= 0:
            return True
        if target > ntricks + (1 if self.bonus[0] == ntricks else 0):
            return False
        if self.bonus[0] == ntricks:  # the trick worth two books: no table entries for it
            return self._lead(leader, target, ntricks, root["gone"], 0)[0]
        return self._bsearch(leader, target, ntricks)[0]

    def _child(self, root: dict, mv: int, target: int) -> bool:
        """The test after ``mv`` is played at the root."""
        n = self.n
        seat, pos, led, win, wseat = root["seat"], root["pos"], root["led"], root["win"], root["wseat"]
        ntricks = root["ntricks"]
        lt = led | self.trump_mask
        if win:
            if mv > win and mv & lt:
                win, wseat = mv, seat
            led = led or self.led_mask[mv]
        elif not mv & self.ns_mask:
            win, wseat, led = mv, seat, self.led_mask[mv]
        h = self.hands[seat]
        self.hands[seat] = h ^ mv
        try:
            if pos < n - 1:
                return self._follow((seat + 1) % n, pos + 1, led, win, wseat, target, ntricks,
                                  root["gone"], root["tm"] | mv)[0]
            if self.max_seat[wseat]:
                target -= 2 if ntricks == self.bonus[0] else 1
            if target <= 0:
                return True
            if target >= ntricks:
                return False
            return self._bsearch(wseat, target, ntricks - 1)[0]
        finally:
            self.hands[seat] = h

    def value(self, root: dict, moves: list[int] | None = None, guess: int | None = None) -> int:
        """The books the declaring side takes from the root, by boolean tests stepping
        from a guess (``guess``, else a quick greedy play of the rest of the hand).

        Tests far from the value are cheap and the table keeps what each test proved,
        so stepping one book at a time from a close guess costs less than bisection.
        """
        ntricks = root["ntricks"]
        lo, hi = 0, ntricks + (1 if self.bonus[0] == ntricks else 0)
        t = self.estimate(root, moves) if guess is None else guess
        # The search makes no reference cycles: the collector would only walk the table.
        collecting = gc.isenabled()
        gc.disable()
        try:
            while lo < hi:
                t = lo + 1 if t <= lo else hi if t > hi else t
                if self.test(root, t, moves):
                    lo = t
                    t += 1
                else:
                    hi = t - 1
                    t -= 1
        finally:
            if collecting:
                gc.enable()
        return lo

    def estimate(self, root: dict, moves: list[int] | None = None) -> int:
        """A guess of the declaring side's books for :meth:`value`: the mean (rounded
        up) of two greedy plays of the rest of the hand, usually within a book or two.

        In both, a follower wins as cheaply as it can over an opponent, else plays its
        lowest card (discarding a side suit before a trump).  In one the leader cashes
        a top card where no opponent can ruff, else leads low towards partner's top
        card, else low from its longest side suit; in the other it leads the card the
        search would try first.
        """
        saved = list(self.hands)
        try:
            simple = self._playout(root, moves, False)
            self.hands[:] = saved
            ordered = self._playout(root, moves, True)
        finally:
            self.hands[:] = saved
        return (simple + ordered + 1) // 2

    def _playout(self, root: dict, moves: list[int] | None, ordered: bool) -> int:
        """One greedy play to the end on the engine's hands (which it changes)."""
        n, MAX, TR, NS = self.n, self.max_seat, self.trump_mask, self.ns_mask
        hands = self.hands
        seat, pos, led, win, wseat = root["seat"], root["pos"], root["led"], root["win"], root["wseat"]
        bonus = self.bonus[0]
        books = 0
        first = True
        while hands[seat]:
            h = hands[seat]
            if first and moves:
                mv = moves[0]
            elif pos == 0 and ordered:
                others = 0
                for s in range(n):
                    if s != seat:
                        others |= hands[s]
                lm = self._gen(h, self.all_mask & ~(others | h))
                mv = self._order_leads(seat, lm, h.bit_count(), others)[0] if len(lm) > 1 else lm[0]
            elif pos == 0:
                others = partner = ruffers = 0
                for s in range(n):
                    if s != seat:
                        others |= hands[s]
                        if MAX[s] == MAX[seat]:
                            partner |= hands[s]
                        elif hands[s] & TR:
                            ruffers |= 1 << s
                best, mv = None, h & -h
                for gm in self.group_masks:
                    mine = h & gm
                    if not mine or gm == NS:
                        continue
                    top = 1 << (mine.bit_length() - 1)
                    ruffed = gm != TR and any(ruffers >> s & 1 and not hands[s] & gm for s in range(n))
                    if top > others & gm and not ruffed:
                        score, card = (3, 0), top
                    elif (partner & gm) > (others & ~partner & gm):
                        score, card = (2, 0), mine & -mine
                    else:
                        score, card = (0 if gm == TR else 1, mine.bit_count()), mine & -mine
                    if best is None or score > best:
                        best, mv = score, card
            else:
                c = h & led
                cands = c or h
                mv = 0
                if win and MAX[wseat] != MAX[seat]:
                    beat = cands & ~((win << 1) - 1) & (led | TR)
                    if beat:
                        mv = beat & -beat
                if not mv:
                    if not c and cands & ~TR:
                        cands &= ~TR
                    mv = cands & -cands
            first = False
            hands[seat] ^= mv
            if win:
                if mv > win and mv & (led | TR):
                    win, wseat = mv, seat
                led = led or self.led_mask[mv]
            elif not mv & NS:
                win, wseat, led = mv, seat, self.led_mask[mv]
            pos += 1
            if pos == n:
                if MAX[wseat]:
                    books += 2 if hands[wseat].bit_count() + 1 == bonus else 1
                seat, pos, win, led = wseat, 0, 0, 0
                wseat = seat
            else:
                seat = (seat + 1) % n
        return books

    def runs(self, root: dict, moves: list[int]) -> list[list[int]]:
        """The root's moves grouped into runs of equivalent cards."""
        gone = root["gone"]
        reps = self._gen(sum(moves), gone)
        out = []
        F = sum(moves) | gone | self.ns_mask
        for top in reps:
            run = [top]
            below = ~F & (top - 1)
            floor = 1 << below.bit_length() if below else 1
            run.extend(m for m in moves if floor <= m < top and m not in run)
            out.append(run)
        return out


def _bits(x: int) -> list[int]:
    out = []
    while x:
        low = x & -x
        out.append(low)
        x ^= low
    return out


# --------------------------------------------------------------------------- public API
class DoubleDummy:
    """Double-dummy analysis of the positions of hands of one variant.

    Keeps one search engine per contract and declaring side, with its transposition
    table, so solving many positions of the same deal (a replay, a sampler) is much
    cheaper than the first.  ``solve`` and ``solve_actions`` of this module use a
    shared instance.

    ``backend`` (see :data:`BACKENDS`): ``"own"`` (default) the pure-Python search;
    ``"fast"`` the same search compiled by numba where the ``fast`` extra is installed
    (the same answers; its first use on a machine compiles it, minutes of CPU, cached
    on disk after that), the pure-Python search where it is not; ``"dds"`` DDS where it
    plays a position exactly.
    """

    def __init__(self, max_engines: int = 8, backend: str = "own"):
        if backend not in BACKENDS:
            raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
        self._engines: dict = {}
        self._max_engines = max_engines
        self.backend = backend
        # How many answers came from DDS and how many from our own search (backend "dds").
        self.dds_calls = 0
        self.own_calls = 0

    def _engine(self, rules: Ruleset, table: PlayTable, declarer: int) -> _Engine:
        side = rules.side_of[declarer]
        max_seat = tuple(rules.side_of[s] == side for s in range(rules.players))
        key = (rules.players, rules.n_cards, table, max_seat)
        engine = self._engines.get(key)
        if engine is None:
            if len(self._engines) >= self._max_engines:
                self._engines.pop(next(iter(self._engines)))
            engine = self._engines[key] = _Engine(rules.players, rules.n_cards, table, max_seat)
            if self.backend == "fast":
                engine.use_kernel()
        return engine

    @staticmethod
    def _bonus(state: HandState) -> int:
        """1 while the trick that also wins the discards' book is still to be won."""
        return 1 if state.discards_book_pending() else 0

    def _root(self, state: HandState, table: PlayTable, trick: list[int], leader: int):
        engine = self._engine(state.rules, table, state.declarer)
        root = engine.load(state.hands, trick, leader)
        engine.bonus[0] = root["ntricks"] if self._bonus(state) else -1
        return engine, root

    def solve(self, state: HandState) -> int:
        """Books the declaring side takes from here with perfect play by all (see module doc)."""
        if state.phase == OVER:
            return 0
        _check(state)
        if state.table is None:
            values = self.solve_actions(state)
            mine = state.rules.side_of[state.seat] == state.rules.side_of[state.declarer]
            return max(values.values()) if mine else min(values.values())
        engine, root = self._root(state, state.table, state.trick, state.leader)
        if self.backend == "dds":
            deal = _dds_deal(engine, state)
            if deal is not None:
                self.dds_calls += 1
                return _dds_value(deal, engine, state)
            self.own_calls += 1
        return engine.value(root)

    def solve_actions(self, state: HandState) -> dict[int, int]:
        """Each legal action of the player to move -> the declaring side's books after it."""
        if state.phase == OVER:
            return {}
        _check(state)
        if state.table is None:
            return self._declare_by_lead(state)
        engine, root = self._root(state, state.table, state.trick, state.leader)
        legal = state.legal_actions()
        if self.backend == "dds":
            deal = _dds_deal(engine, state)
            if deal is not None:
                found = _dds_actions(deal, engine, state)
                if all(a in found for a in legal):  # else a renege the rules let stand: our search
                    self.dds_calls += 1
                    return {a: found[a] for a in legal}
            self.own_calls += 1
        bit_of = engine.bit_of
        moves = [bit_of[c] for c in legal]
        values: dict[int, int] = {}
        if set(moves) <= set(engine.root_moves(root)):
            groups = engine.runs(root, moves)
        else:  # a renege the rules let stand: value each card on its own
            groups = [[m] for m in moves]
        guess = None
        for run in groups:
            v = engine.value(root, [run[0]], guess)
            guess = v
            for m in run:
                values[engine.card_of[m]] = v
        return {a: values[a] for a in legal}

    def _declare_by_lead(self, state: HandState) -> dict[int, int]:
        """The first card led names trump: value notrump and every lead, each under its own table."""
        rules = state.rules
        values: dict[int, int] = {}
        by_suit: dict[int, list[int]] = {}
        for action in state.legal_actions():
            if action == rules.no_trump_action:
                table = rules.tables[(NO_TRUMP, state.direction)]
                engine, root = self._root(state, table, [], state.seat)
                values[action] = engine.value(root)
            else:
                by_suit.setdefault(rules.card_suit[action], []).append(action)
        for suit, cards in by_suit.items():
            table = rules.tables[(suit, state.direction)]
            engine, root = self._root(state, table, [], state.seat)
            guess = None
            for run in engine.runs(root, [engine.bit_of[c] for c in cards]):
                v = engine.value(root, [run[0]], guess)
                guess = v
                for m in run:
                    values[engine.card_of[m]] = v
        return {a: values[a] for a in state.legal_actions()}


def can_use_dds(state: HandState) -> bool:
    """Whether the ``dds`` backend answers this position with DDS (see :data:`BACKENDS`)."""
    if state.phase != PLAY or state.table is None:
        return False
    engine, _ = DoubleDummy()._root(state, state.table, state.trick, state.leader)
    return _dds_deal(engine, state) is not None


def _dds_deal(engine: _Engine, state: HandState):
    """The position as DDS's ``deal`` struct, or None where DDS cannot play it exactly as
    the variant's rules say (the conditions are listed at :data:`BACKENDS`).

    ``engine`` holds the position's hands (as :meth:`DoubleDummy._root` loaded them).
    Only the order of the cards still in play matters to a double-dummy result, so each
    effective suit's cards in play (hands and current trick) are renamed from the ace
    down: a suit of 15 cards (two jokers as top trumps) fits once two are out of play.
    """
    if engine.n != 4 or engine.top_as_trump or state.discards_book_pending():
        return None
    ms = engine.max_seat
    if not (ms[0] == ms[2] and ms[1] == ms[3] and ms[0] != ms[1]):
        return None  # DDS's sides are the partnerships of seats 0+2 and 1+3
    try:
        from endplay import _dds  # noqa: PLC0415 - an optional dependency, only for this backend
    except ImportError:
        return None
    hands = engine.hands
    bit_of = engine.bit_of
    trick = [bit_of[c] for c in state.trick]
    in_play = sum(trick)
    for h in hands:
        in_play |= h
    if in_play & engine.ns_mask:
        return None  # a card of no suit in play: DDS has no such card
    leader = state.leader
    to_move = hands[(leader + len(trick)) % 4].bit_count()
    for i in range(4):
        if hands[(leader + i) % 4].bit_count() != to_move - (1 if i < len(trick) else 0):
            return None  # DDS wants hands of equal length
    if not to_move:
        return None
    blocks = [m for m in engine.group_masks if m & in_play and not m & engine.ns_mask]
    if len(blocks) > 4:
        return None
    rank: dict[int, tuple[int, int]] = {}  # card bit -> (DDS suit, DDS rank 2..14)
    for j, block in enumerate(blocks):
        cards = _bits(in_play & block)
        if len(cards) > 13:
            return None
        for i, bit in enumerate(reversed(cards)):
            rank[bit] = (j, 14 - i)
    d = _dds.deal()
    trump = engine.trump_mask
    d.trump = blocks.index(trump) if trump and trump in blocks else 4  # 4: notrump
    d.first = leader
    for i, bit in enumerate(trick):
        d.currentTrickSuit[i], d.currentTrickRank[i] = rank[bit]
    for seat, h in enumerate(hands):
        for bit in _bits(h):
            j, r = rank[bit]
            d.remainCards[seat][j] |= 1 << r
    return d, rank, to_move


def _dds_solve(deal, solutions: int):
    from endplay import _dds  # noqa: PLC0415 - see _dds_deal

    result = _dds.futureTricks()
    # target -1 (the most tricks), mode 1 (search even a forced card), thread 0
    _dds.SolveBoard(deal, -1, solutions, 1, result, 0)
    return result


def _dds_value(found, engine: _Engine, state: HandState) -> int:
    """The declaring side's books from DDS's count for the side to move."""
    deal, _, tricks = found
    score = _dds_solve(deal, 1).score[0]
    return score if engine.max_seat[state.seat] else tricks - score


def _dds_actions(found, engine: _Engine, state: HandState) -> dict[int, int]:
    """Each card DDS lets the player to move play -> the declaring side's books after it."""
    deal, rank, tricks = found
    result = _dds_solve(deal, 3)
    card_of = {key: engine.card_of[bit] for bit, key in rank.items()}
    mine = engine.max_seat[state.seat]
    out: dict[int, int] = {}
    for i in range(result.cards):
        score = result.score[i]
        value = score if mine else tricks - score
        suit = result.suit[i]
        ranks = [result.rank[i]] + [r for r in range(2, 15) if result.equals[i] >> r & 1]
        for r in ranks:
            out[card_of[(suit, r)]] = value
    return out


def _check(state: HandState) -> None:
    if state.phase != PLAY:
        raise ValueError("the solver works on positions of the play (phase 'play')")


_SHARED = DoubleDummy()


def solve(state: HandState) -> int:
    """The books the declaring side takes from the remaining play, double dummy.

    ``state`` is a position of the play, possibly in the middle of a trick, or the
    moment the declarer names trump by leading (it then picks the best of notrump
    and every lead).  Everyone plays perfectly with all hands known; with more than
    two sides the declarer's opponents play as one team.  The state is not changed.
    The count is of tricks still to be won, plus the discards' book while the trick
    it goes with is still to be won (where the variant says so); 0 when the hand is over.
    """
    return _SHARED.solve(state)


def solve_actions(state: HandState) -> dict[int, int]:
    """For each legal action of the player to move, the books the declaring side takes
    if that action is played and everyone then plays perfectly (counted as in :func:`solve`)."""
    return _SHARED.solve_actions(state)
