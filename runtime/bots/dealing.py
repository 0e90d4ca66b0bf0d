"""Dealing anew the cards a seat cannot see, consistently with everything it has seen.

:func:`sample_deal` is the sampler's "possible world": the seat's own hand and every
public fact stay, the unseen cards are shuffled among the hands (and the kitty or the
discards) that may hold them.
"""

from __future__ import annotations

import random

from ..hand import DISCARD, PLAY, HandState
from ..ruleset import NO_SUIT
from .track import Track


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
            led = s
        elif s != led and not (free and s == NO_SUIT):
            void[(state.leader + i) % n] |= 1 << led
    return void


def _deal_greedy(pool, opts, cap, slots, rng):
    """Place the cards, the most constrained first, each in a random slot with room."""
    order = list(pool)
    rng.shuffle(order)
    order.sort(key=lambda c: len(opts[c]))
    left = dict(cap)
    dealt = {o: [] for o in slots}
    free = len(slots)
    for k, c in enumerate(order):
        if len(opts[c]) == free:
            # The rest may go anywhere: deal them out (already shuffled) to the room left.
            rest = order[k:]
            for o in slots:
                dealt[o] += rest[:left[o]]
                rest = rest[left[o]:]
            return dealt
        choices = [o for o in opts[c] if left[o] > 0]
        if not choices:
            return None
        pick = rng.choices(choices, [left[o] for o in choices])[0] if len(choices) > 1 else choices[0]
        dealt[pick].append(c)
        left[pick] -= 1
    return dealt


def _deal_checked(pool, opts, cap, slots, rng):
    """Place the cards one by one, keeping the rest placeable (Hall's condition).

    Cards fall into classes by the slots they may go to; the rest can be placed iff
    for every set of slots, the cards that may only go there fit in their room.
    """
    index = {o: i for i, o in enumerate(slots)}
    mask_of = {c: sum(1 << index[o] for o in opts[c]) for c in pool}
    counts: dict[int, int] = {}
    for c in pool:
        counts[mask_of[c]] = counts.get(mask_of[c], 0) + 1
    left = [cap[o] for o in slots]
    subsets = range(1, 1 << len(slots))

    def feasible() -> bool:
        for t in subsets:
            need = sum(n for m, n in counts.items() if m & ~t == 0)
            room = sum(left[i] for i in range(len(slots)) if t >> i & 1)
            if need > room:
                return False
        return True

    if not feasible():
        return None
    order = list(pool)
    rng.shuffle(order)
    dealt = {o: [] for o in slots}
    for c in order:
        m = mask_of[c]
        counts[m] -= 1
        choices = [i for i in range(len(slots)) if m >> i & 1 and left[i] > 0]
        rng.shuffle(choices)
        for i in choices:
            left[i] -= 1
            if feasible():
                dealt[slots[i]].append(c)
                break
            left[i] += 1
        else:
            return None
    return dealt


def sample_deal(state: HandState, seat: int, rng: random.Random, tries: int = 4) -> HandState:
    """A copy of ``state`` with every card ``seat`` cannot see dealt anew at random.

    The deal keeps what ``seat`` knows: its own hand, the cards played, the cards out
    of play, each seat's number of cards, the suits each seat showed out of, the
    kitty when it was shown (its cards stay with the declarer or among its discards,
    or in the kitty while it is not taken), and its own discards when it declared.
    Only the information of ``state.observation(seat)`` is read (other hands only for
    their sizes, which everyone sees).  If the voids cannot all be honoured (a renege
    that stood), they are dropped.
    """
    rules = state.rules
    n = rules.players
    declarer = state.declarer
    known = bytearray(rules.n_cards)
    for c in state.hands[seat]:
        known[c] = 1
    for _, cards, _ in state.tricks:
        for c in cards:
            known[c] = 1
    for c in state.trick:
        known[c] = 1
    for c in state.out:
        known[c] = 1
    kitty = list(state.kitty)
    kitty_taken = bool(kitty) and declarer >= 0 and (state.phase in (DISCARD, PLAY) or bool(state.discards))
    kitty_known = bool(kitty) and (state.kitty_seen or (seat == declarer and kitty_taken))
    others = [o for o in range(n) if o != seat]
    sizes = {o: len(state.hands[o]) for o in others}
    capacity = sum(sizes.values())
    pool = [c for c in range(rules.n_cards) if not known[c]]
    if seat == declarer:
        # Its own discards are known to be out of play, except those drawn by players
        # who swapped extras away: as many as the others' hands are short of.
        mine = {c for c in state.discards if not known[c]}
        pool = [c for c in pool if c not in mine]
        if kitty and not kitty_taken and kitty_known:
            pool = [c for c in pool if c not in kitty]  # a shown kitty not yet taken stays put
        short = capacity - len(pool)
        if short > 0 and mine:
            pool += rng.sample(sorted(mine), min(short, len(mine)))
    # Slots: the other seats, and -1 for unseen cards in no hand (another declarer's
    # discards, or the kitty before it is taken).
    hidden = len(pool) - capacity
    slots = others + ([-1] if hidden > 0 else [])
    cap = dict(sizes)
    if hidden > 0:
        cap[-1] = hidden
    only = {}  # card -> the slots it may go to, where the seat knows more
    if kitty_known and seat != declarer:
        for c in kitty:
            if not known[c]:
                if kitty_taken:
                    only[c] = [o for o in (declarer, -1) if o in cap]
                elif -1 in cap:
                    only[c] = [-1]
    void = _public_voids(state)
    suit_of = state.table.suit_of if state.table is not None else None
    opts = {}
    for c in pool:
        allowed = only.get(c, slots)
        if suit_of is not None and suit_of[c] != NO_SUIT:
            bit = 1 << suit_of[c]
            allowed = [o for o in allowed if o == -1 or not void[o] & bit]
        opts[c] = allowed
    dealt = None
    for _ in range(tries):
        dealt = _deal_greedy(pool, opts, cap, slots, rng)
        if dealt is not None:
            break
    else:
        # The quick deal keeps failing in a tight spot: deal card by card, checking
        # that the rest can still be placed.  Should even that fail (a renege that
        # stood shows a false void), forget the voids.
        dealt = _deal_checked(pool, opts, cap, slots, rng)
        if dealt is None:
            dealt = _deal_checked(pool, {c: only.get(c, slots) for c in pool}, cap, slots, rng)
    world = state.clone()
    for o in others:
        world.hands[o] = sorted(dealt.get(o, []))
    unseen = dealt.get(-1, [])
    if seat != declarer:
        if kitty_taken or not kitty:
            if state.discards:
                # Another seat's discards are the unseen cards in no hand.  (Should
                # swaps have drawn them all, only the pile's existence matters: keep it.)
                world.discards = unseen or list(state.discards)
            world.kitty = kitty if kitty_known else []
        else:
            world.kitty = kitty if kitty_known else unseen
    world.reneges = [s for s in state.reneges if s == seat]
    # The deal as this seat imagines it (the engine seeds its own chance events from it).
    world.dealt = tuple(tuple(h) for h in world.hands)
    world._legal = None
    return world
