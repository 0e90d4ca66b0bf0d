"""Dealing anew the cards a seat cannot see, consistently with everything it has seen.

:func:`sample_deal` is the sampler's "possible world": the seat's own hand and every
public fact stay, the unseen cards are shuffled among the places (other hands, the
kitty or the discards, and the cards a variant sets aside undealt) that may hold them.

The deal is a small transportation problem: every unseen card has the set of places it
may be in (what the seat knows narrows it), every place holds a known number of cards.
Such a deal exists iff Hall's condition holds (for every set of places, the cards that
may only go there fit in their room), which :func:`_hall` checks.  Cards with the same
places are alike, so the deals can be counted class by class (:class:`_Counter`), and
one is drawn with every deal consistent with what the seat knows equally likely.
"""

from __future__ import annotations

import math
import random
from itertools import product

from ..hand import DISCARD, OVER, PLAY, HandState
from ..ruleset import NO_SUIT
from .track import Track

# The place of unseen cards in no hand: the kitty before it is taken, or the discards.
HIDDEN = -1
# The place of the cards set aside unseen at the deal (a variant's ``deal.undealt``):
# nobody ever sees them, so any unseen card may be one, except those the seat knows
# were dealt (a kitty it saw, its own discards).
UNDEALT = -2


def _drawn_part(seat: int) -> int:
    """The place standing for the part of ``seat``'s hand drawn from shown cards (see ``_View.cases``)."""
    return -3 - seat


def _owner(place: int) -> int:
    """The seat (or HIDDEN, UNDEALT) a place's cards belong to: a drawer's split part goes back to its hand."""
    return place if place >= UNDEALT else -3 - place


def _public_voids(state: HandState) -> list[int]:
    """Suits (as bit masks, under the contract) each seat has shown out of, this trick included."""
    n = state.rules.players
    if state.table is None:
        return [0] * n
    track = Track().sync(state, n)
    void = list(track.void)
    suit_of = state.table.suit_of
    free = state.table.free_no_suit
    led = NO_SUIT
    for i, c in enumerate(state.trick):
        s = suit_of[c]
        if led == NO_SUIT:
            if s >= 0:  # tricks.sets_led: cards of no suit and top cards set none
                led = s
        elif s != led and not (free and s < 0):  # a free card of no suit (or top) says nothing
            void[(state.leader + i) % n] |= 1 << led
    return void


# ---------------------------------------------------------------------------- dealing problems
def _hall(counts: dict[int, int], left: list[int]) -> bool:
    """Whether cards, counted by the mask of places they may go to, fit places with ``left`` room."""
    if counts.get(0):
        return False  # a card with nowhere to go
    size = 1 << len(left)
    room = [0] * size
    items = list(counts.items())
    for t in range(1, size):
        low = t & -t
        room[t] = room[t ^ low] + left[low.bit_length() - 1]
        need = 0
        for m, k in items:
            if m | t == t:
                need += k
        if need > room[t]:
            return False
    return True


class _Problem:
    """Cards to place: ``slots`` (place ids) with ``cap`` room each; ``masks[c]``: the slots
    card c may take, as bits over ``slots``."""

    __slots__ = ("slots", "cap", "masks", "_counter", "_classes")

    def __init__(self, slots: list[int], cap: list[int], masks: dict[int, int]):
        self.slots = slots
        self.cap = cap
        self.masks = masks
        self._counter = None
        self._classes = None

    def counts(self) -> dict[int, int]:
        counts: dict[int, int] = {}
        for m in self.masks.values():
            counts[m] = counts.get(m, 0) + 1
        return counts

    def feasible(self) -> bool:
        return _hall(self.counts(), self.cap)

    def prepared(self) -> tuple["_Counter", list[list[int]]]:
        """The counter of its deals (card classes by mask, fewest places first) and each class's cards."""
        if self._counter is None:
            by_mask: dict[int, list[int]] = {}
            for c, m in self.masks.items():
                by_mask.setdefault(m, []).append(c)
            order = sorted(by_mask, key=lambda m: (bin(m).count("1"), m))
            self._counter = _Counter(tuple((m, len(by_mask[m])) for m in order), len(self.cap))
            self._classes = [sorted(by_mask[m]) for m in order]
        return self._counter, self._classes

    def count(self) -> int:
        """How many deals solve it."""
        return self.prepared()[0].options(0, tuple(self.cap))[0]


def _splits(count: int, room: list[int]):
    """Every way to share ``count`` cards among slots with ``room`` each (as tuples of shares)."""
    if len(room) == 1:
        if count <= room[0]:
            yield (count,)
        return
    after = sum(room[1:])
    for a in range(max(0, count - after), min(count, room[0]) + 1):
        for rest in _splits(count - a, room[1:]):
            yield (a,) + rest


class _Counter:
    """How many deals place cards of ``classes`` ((mask, count), in order) into room ``caps``.

    The deals of classes ``j..`` into room ``caps``: for each way of sharing class j
    among its slots, the multinomial ways of choosing which of its cards go where,
    times the deals of the rest (cards are distinct, a slot's cards unordered).  The
    states are few (the room left after each class): ``options`` keeps each one's
    shares and their counts, so dealing the same problem again costs little.
    """

    __slots__ = ("classes", "idx", "memo")

    def __init__(self, classes: tuple, slots: int):
        self.classes = classes
        self.idx = [[i for i in range(slots) if m >> i & 1] for m, _ in classes]
        self.memo: dict = {}

    def options(self, j: int, caps: tuple) -> tuple[int, list]:
        """(deals in all, [(share per slot of class j, room left, deals)]) from state (j, caps)."""
        key = (j, caps)
        got = self.memo.get(key)
        if got is not None:
            return got
        m, count = self.classes[j]
        idx = self.idx[j]
        last = j == len(self.classes) - 1
        if last:
            # The last class takes exactly the room left, which must all be open to it.
            fits = sum(caps) == count and not any(caps[i] for i in range(len(caps)) if not m >> i & 1)
            shares = [tuple(caps[i] for i in idx)] if fits else []
        else:
            shares = _splits(count, [caps[i] for i in idx]) if idx else ()
        fact = math.factorial(count)
        options = []
        total = 0
        for share in shares:
            left = list(caps)
            ways = fact
            for i, a in zip(idx, share):
                left[i] -= a
                ways //= math.factorial(a)
            left = tuple(left)
            rest = 1 if last else self.options(j + 1, left)[0]
            if rest:
                options.append((share, left, ways * rest))
                total += ways * rest
        got = self.memo[key] = (total, options)
        return got


def _deal(problem: "_Problem", rng: random.Random) -> list[list[int]]:
    """A deal solving ``problem``, each of them equally likely (the problem must be feasible).

    Class by class, a share among its slots is drawn in proportion to the deals that
    follow from it; then which of the class's cards go where, at random.
    """
    counter, classes = problem.prepared()
    caps = tuple(problem.cap)
    dealt = [[] for _ in caps]
    for j, cards in enumerate(classes):
        total, options = counter.options(j, caps)
        x = rng.randrange(total)
        for share, left, w in options:  # noqa: B007 -- the chosen share and caps are used after the break
            x -= w
            if x < 0:
                break
        cards = list(cards)
        rng.shuffle(cards)
        k = 0
        for i, a in zip(counter.idx[j], share):
            dealt[i] += cards[k:k + a]
            k += a
        caps = left
    return dealt


# ---------------------------------------------------------------------------- what the seat knows
class _View:
    """What ``seat`` knows of the unseen cards' places, from its observation only.

    ``pool``: the unseen cards; ``slots``: their places (the other seats, HIDDEN for the
    kitty or the discards, UNDEALT for the cards set aside at the deal) with ``cap`` cards
    each; ``base[c]``: the places (bits over ``slots``) card c may be in, where the seat
    knows better than "anywhere";
    ``shown``: for a seat other than the kitty's taker, ``(cards, drawers, budget)`` when
    kitty cards it saw may have been drawn by other players swapping their cards of no
    suit for the taker's discards — at most ``budget`` of them are in the drawers' hands.
    (The taker is the declarer unless the rules name another seat: what is said here of
    the one who took the kitty holds for whoever did.)
    """

    def __init__(self, state: HandState, seat: int):
        rules = state.rules
        n = rules.players
        taker = state.kitty_taker()  # who took the kitty and laid cards away (-1 before a contract)
        table = state.table
        kitty = list(state.kitty)
        self.seat = seat
        played_by = [[] for _ in range(n)]
        for leader, cards, _ in state.tricks:
            for i, c in enumerate(cards):
                played_by[(leader + i) % n].append(c)
        for i, c in enumerate(state.trick):
            played_by[(state.leader + i) % n].append(c)
        self.played_by = played_by
        known = bytearray(rules.n_cards)
        for c in state.hands[seat]:
            known[c] = 1
        for cards in played_by:
            for c in cards:
                known[c] = 1
        for c in state.out:
            known[c] = 1
        taken = bool(kitty) and taker >= 0 and (
            state.phase in (DISCARD, PLAY, OVER) or bool(state.discards))
        kitty_known = bool(kitty) and (state.kitty_seen or (seat == taker and taken))
        if kitty_known and not taken:
            for c in kitty:
                known[c] = 1  # it lies face up, in no hand
        self.taken = taken
        self.kitty_known = kitty_known
        pool = [c for c in range(rules.n_cards) if not known[c]]
        others = [o for o in range(n) if o != seat]
        room = [len(state.hands[o]) for o in others]
        undealt = rules.undealt  # never seen by anyone: all of them are unseen cards
        hidden = len(pool) - sum(room) - undealt
        if hidden < 0:
            raise ValueError(f"the other hands hold {-hidden} more cards than seat {seat} has not seen")
        slots = others + ([HIDDEN] if hidden else []) + ([UNDEALT] if undealt else [])
        cap = room + ([hidden] if hidden else []) + ([undealt] if undealt else [])
        index = {o: i for i, o in enumerate(slots)}
        full = (1 << len(slots)) - 1
        self.pool, self.others, self.slots, self.cap, self.index = pool, others, slots, cap, index
        aside = 1 << index[UNDEALT] if undealt else 0  # the undealt cards' place, as a bit
        hands = full & ~(1 << index[HIDDEN]) & ~aside if hidden else full & ~aside
        base: dict[int, int] = {}
        if seat == taker and taken:
            # Its own discards not played are in the discards or were drawn by players who
            # swapped cards of no suit for them (they were dealt: never among the undealt);
            # every other unseen card is in a hand or undealt.
            mine = set(state.discards)
            for c in pool:
                if c not in mine:
                    base[c] = hands | aside
                elif aside:
                    base[c] = full & ~aside
        if taken and state.out and table is not None and table.no_suit_out:
            # Cards of no suit left play: the taker set its own aside on taking the kitty
            # (so discarded none); one still unseen is with a player who could not swap it.
            suit_of = table.suit_of
            not_taker = (hands & ~(1 << index[taker]) if taker in index else hands) | aside
            for c in pool:
                if suit_of[c] == NO_SUIT:
                    base[c] = base.get(c, full) & not_taker
        # The cards it drew itself, swapping cards of no suit for some of the discards.
        self.own_drawn = sorted(set(state.hands[seat]).union(played_by[seat]) - set(state.dealt[seat])) \
            if taken and seat != taker else []
        self.shown = None
        if kitty_known and taken and seat != taker:
            # The kitty it saw went to the taker: each card is there, in the discards,
            # or drawn from them by a player swapping a card of no suit (never undealt).
            # The discards not in the pile were drawn; less its own draws and the shown
            # cards other drawers played, that is how many shown cards other drawers may hold.
            in_kitty = set(kitty)
            shown = [c for c in kitty if not known[c]]
            keep = full & ~hands & ~aside | 1 << index[taker]
            for c in shown:
                base[c] = keep
            drawers = [o for o in others if o != taker]
            drawn_by_others = len(state.discards) - hidden - len(self.own_drawn)
            budget = drawn_by_others - sum(1 for o in drawers for c in played_by[o] if c in in_kitty)
            if shown and drawers and budget > 0:
                self.shown = (shown, drawers, budget)
        self.base = base
        self.full = full
        self.suit_of = table.suit_of if table is not None else None
        void = _public_voids(state)
        self.facts = [(o, s) for o in others for s in range(len(rules.suits)) if void[o] >> s & 1]

    def key(self) -> tuple:
        """All that ``cases`` depends on."""
        shown = self.shown
        if shown is not None:
            shown = (tuple(shown[0]), tuple(shown[1]), shown[2])
        return (tuple(self.pool), tuple(self.slots), tuple(self.cap), tuple(self.base.items()), shown,
                tuple(self.facts), self.suit_of)

    def masks(self, facts) -> tuple[dict[int, int], dict[int, int]]:
        """The places (bits over ``slots``) each unseen card may be in, with the voids ``facts``
        ((seat, suit) pairs); and for each suit shown out of, the places not barred."""
        full = self.full
        index = self.index
        ok: dict[int, int] = {}
        for o, s in facts:
            ok[s] = ok.get(s, full) & ~(1 << index[o])
        base = self.base
        masks = {}
        if ok:
            suit_of = self.suit_of
            for c in self.pool:
                masks[c] = base.get(c, full) & ok.get(suit_of[c], full)
        else:
            for c in self.pool:
                masks[c] = base.get(c, full)
        return masks, ok

    def cases(self, facts) -> list[_Problem]:
        """The feasible dealing problems under ``facts``.

        Without shown cards that may have been drawn, one problem.  With them, one per
        way of giving each drawer ``x`` of those cards (at most the budget in all): the
        drawer's hand is split into a part of exactly ``x`` such cards and the rest.
        Every deal the seat thinks possible solves exactly one of them.
        """
        masks, ok = self.masks(facts)
        if self.shown is None:
            problem = _Problem(self.slots, self.cap, masks)
            return [problem] if problem.feasible() else []
        shown, drawers, budget = self.shown
        index = self.index
        suit_of = self.suit_of
        full = self.full
        reach = {}  # shown card -> the drawers it may be with (its suit not shown out of)
        for c in shown:
            allowed = ok.get(suit_of[c], full) if suit_of is not None else full
            reach[c] = [o for o in drawers if allowed >> index[o] & 1]
        k = len(shown)
        rest_room = sum(cap for o, cap in zip(self.slots, self.cap) if o not in drawers)
        cases = []
        ranges = [range(min(self.cap[index[o]], sum(o in r for r in reach.values())) + 1) for o in drawers]
        for x in product(*ranges):
            total = sum(x)
            if total > min(budget, k) or k - total > rest_room:
                continue
            slots = list(self.slots)
            cap = list(self.cap)
            part = {}
            for o, xo in zip(drawers, x):
                if xo:
                    cap[index[o]] -= xo
                    part[o] = 1 << len(slots)
                    slots.append(_drawn_part(o))
                    cap.append(xo)
            split = dict(masks)
            for c in shown:
                for o in reach[c]:
                    split[c] |= part.get(o, 0)
            problem = _Problem(slots, cap, split)
            if problem.feasible():
                cases.append(problem)
        return cases


def _relaxed(view: _View, rng: random.Random) -> list[_Problem]:
    """The cases once as few shown voids as need be are set aside.

    Reached only when a player has shown out of a suit it still holds: where a renege
    is not refused but penalised, a player may fail to follow suit (and nobody knows
    until later).  Every other fact the seat knows is certain and kept.  One void dropped
    if that is enough (which one at random); else a maximal set of voids that can hold,
    built in random order.
    """
    facts = view.facts
    order = list(facts)
    rng.shuffle(order)
    for f in order:
        cases = view.cases([g for g in facts if g != f])
        if cases:
            return cases
    kept: list = []
    cases = view.cases(kept)
    for f in order:
        more = view.cases(kept + [f])
        if more:
            kept.append(f)
            cases = more
    if cases:
        return cases
    # Not reachable from a state the engine made (what stays is certain there); a state
    # built by hand may still contradict itself: deal by the hand sizes alone.
    return [_Problem(view.slots, view.cap, {c: view.full for c in view.pool})]


def _world_discards(state: HandState, view: _View, hands: list[list[int]], pile: list[int],
                    rng: random.Random) -> list[int]:
    """Another seat's discards in the world: the pile, and as many cards drawn from it.

    Drawn cards are the seat's own draws, shown kitty cards other players hold or
    played, and then cards of the other players who are not the kitty's taker, at random.
    """
    need = len(state.discards) - len(pile)
    if need <= 0:
        return pile
    suit_of = view.suit_of
    drawers = [o for o in view.others if o != state.kitty_taker()]
    in_kitty = set(state.kitty) if view.kitty_known else set()
    theirs = [c for o in drawers for c in hands[o] + view.played_by[o]
              if suit_of is None or suit_of[c] != NO_SUIT]
    sure = view.own_drawn + [c for c in theirs if c in in_kitty]
    rest = [c for c in theirs if c not in in_kitty]
    rng.shuffle(rest)
    return pile + (sure + rest)[:need]


# The sampler deals one position many times over: its problems (and their counts) are kept.
_CASES: dict = {}


def sample_deal(state: HandState, seat: int, rng: random.Random) -> HandState:
    """A copy of ``state`` with every card ``seat`` cannot see dealt anew at random.

    The deal keeps what ``seat`` knows: its own hand, the cards played, the cards out of
    play, each seat's number of cards, the suits each seat showed out of, the kitty when
    it was shown (in the kitty while it is not taken; then with its taker, among its
    discards, or — where players swapped cards of no suit for random discards — with
    as many of those players as could have drawn them), its own discards when it
    declared (in the pile, or drawn by those who swapped: exactly as many as the other
    hands are short of).  Only what ``state.observation(seat)`` shows is read (other
    hands only for their sizes, the deal only for the seat's own hand).

    Every constraint is kept whenever they can all hold together.  Only shown voids can
    be false (a renege that stood, where reneges are penalised rather than refused);
    then as few as need be are set aside (:func:`_relaxed`).  Deterministic for ``rng``.
    """
    return Dealer(state, seat, rng).deal(rng)


class Dealer:
    """Deals for one position: what the seat knows is worked out once, each :meth:`deal` is cheap.

    ``Dealer(state, seat, rng).deal(rng)`` is :func:`sample_deal`; the sampler draws
    many deals of one position from one dealer.  ``state`` must not change meanwhile.
    """

    __slots__ = ("state", "seat", "view", "cases", "counts")

    def __init__(self, state: HandState, seat: int, rng: random.Random):
        view = _View(state, seat)
        key = view.key()
        cases = _CASES.get(key)
        if cases is None:
            cases = view.cases(view.facts)
            if cases:
                if len(_CASES) >= 64:
                    _CASES.clear()
                _CASES[key] = cases
            else:
                cases = _relaxed(view, rng)
        self.state, self.seat, self.view, self.cases = state, seat, view, cases
        self.counts = [p.count() for p in cases] if len(cases) > 1 else None

    def deal(self, rng: random.Random) -> HandState:
        """One deal, every deal consistent with what the seat knows equally likely (see :func:`sample_deal`)."""
        state, seat, view, cases = self.state, self.seat, self.view, self.cases
        problem = cases[0]
        if self.counts is not None:  # each case in proportion to its deals
            x = rng.randrange(sum(self.counts))
            for problem, k in zip(cases, self.counts):  # noqa: B007 -- the chosen problem is used after the break
                x -= k
                if x < 0:
                    break
        placed = _deal(problem, rng)
        dealt: dict[int, list[int]] = {}
        for o, cards in zip(problem.slots, placed):
            dealt.setdefault(_owner(o), []).extend(cards)
        world = state.clone()
        for o in view.others:
            world.hands[o] = sorted(dealt.get(o, []))
        pile = dealt.get(HIDDEN, [])
        if not view.taken:
            world.kitty = list(state.kitty) if view.kitty_known else pile
        elif seat != state.kitty_taker():
            world.kitty = list(state.kitty) if view.kitty_known else []
            world.discards = _world_discards(state, view, world.hands, pile, rng)
        # (The taker after the take knows its kitty and discards: they stay.)
        # (The cards dealt to UNDEALT stay out of the world, as out of every hand.)
        world.reneges = [s for s in state.reneges if s == seat]
        # The deal as this seat imagines it (the engine seeds its own chance events from it).
        world.dealt = tuple(tuple(h) for h in world.hands)
        world._legal = None
        return world
