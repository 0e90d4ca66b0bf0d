"""One contract's position as the search sees it, and the tests stepped to its value.

Part of the double-dummy solver (runtime/solver/), between the public entry points
(double_dummy.py) and the search (search.py): :class:`_Engine` turns a contract's
PlayTable into bit blocks (one per effective suit, ordered by power, trumps on top),
loads a position's hands into one mask per seat, and finds the declaring side's
books by boolean tests ("at least t?") stepped one book at a time from a greedy
guess.  It keeps the transposition table between calls.
"""

from __future__ import annotations

import gc

from ..ruleset import NO_SUIT, NO_TRUMP, TOP_SUIT, PlayTable
from .bits import _bits
from .search import build


class UnsupportedContract(ValueError):
    """A contract whose tables the solver cannot search (its message says why)."""


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
        self._bsearch, self._lead, self._follow, self._order_leads = build(self)

    def use_kernel(self) -> bool:
        """Run this engine's searches compiled (runtime/solver_fast.py) where numba is
        installed and the contract fits it; True if it now does."""
        if self.kernel is not None:
            return True
        try:
            from .. import solver_fast  # noqa: PLC0415 - numba's import is slow: only for backend "fast"
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
