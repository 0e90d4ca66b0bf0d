"""The declarer's discards planned as a whole: the cards whose loss costs the hand least.

The hand estimate (:mod:`.knowledge`) values each suit holding on its own (top cards
with the small cards that guard them, long cards in notrump and in trumps) and adds
ruffs for short side suits where trumps are to spare.  So the best set of cards to lay
away is found suit by suit: per suit, the best holding left after laying away each
number of its cards; then the numbers per suit are combined (a small dynamic program
over the cards laid away and the shortness made) to the total that leaves the most
tricks.  What that keeps, by the estimate's own terms: trumps (a trump is worth more
than any side card), winners, guards of honours (a king with a small card, a queen
with two), the long suit and its stoppers in notrump; what it lays away: cards that
cannot win, the small cards of short side suits — the whole suit when a void gives
ruffs.  Among equal plans the higher cards are kept.
"""

from __future__ import annotations

import math
from itertools import combinations

from ..ruleset import NO_SUIT, NO_TRUMP
from .knowledge import _EXACT_TOP, _RUFF, _RUFF_KEEP, RulesInfo, TableInfo, _canonical, _suit_value

# Among plans the estimate values alike, keep the higher cards: a tie-break this small
# a rank point never outweighs a real difference in the estimate.
_TIE = 1e-5


def _holding_value(info: RulesInfo, ti: TableInfo, i: int, slot: int, mask: int) -> float:
    """The estimate's tricks for the holding ``mask`` (bits by rank) of suit index ``i``."""
    values = info.slot_values
    if values is not None:
        return values[slot][mask]
    return _suit_value(ti.size[i], _canonical(mask), ti.kinds[i], info.inplay)


def _suit_options(info: RulesInfo, ti: TableInfo, i: int, slot: int, cards: list[int], allowed, most: int):
    """Per number ``k`` of the suit's cards laid away (0..most): (value left, cards laid away).

    The estimate tells small cards (ranked ``_EXACT_TOP`` or lower) apart only by their
    number, so those go lowest first; each subset of the top cards is tried.
    """
    rank = ti.rank
    bit = ti.bit
    size = ti.size[i]
    full = 0
    height = 0  # the tie-break: the kept cards' height (a card ranked r adds size - r)
    tops = []
    smalls = []
    # (Loops, not comprehensions or a lambda: any of those would make the names they read
    # cells of this function, read more slowly in the loops below.)
    for c in cards:
        full |= bit[c]
        height += size - rank[c]
        if c in allowed:
            if rank[c] < _EXACT_TOP:
                tops.append(c)
            else:
                smalls.append(c)
    smalls.sort(key=rank.__getitem__, reverse=True)  # ranks of a suit differ: as a key of -rank
    # Each holding's value from the process-wide table where there is one (the same
    # number _holding_value gives); the masks and heights are built up card by card.
    values = info.slot_values[slot] if info.slot_values is not None else _Holdings(info, ti, i, slot)
    n_small = len(smalls)
    # The smallest ns cards laid away, per ns: the bits kept (all but theirs) and their height.
    keep_masks, small_heights = [-1], [0]
    away_mask = 0
    for c in smalls:
        away_mask |= bit[c]
        keep_masks.append(~away_mask)
        small_heights.append(small_heights[-1] + size - rank[c])
    # Per count laid away: the best value so far and the top cards it lays away (a list
    # indexed by count, not a dict: no value is -inf, so the first one tried is kept as before).
    best_v = [-math.inf] * (most + 1)
    best_top: list[tuple[int, ...]] = [()] * (most + 1)
    for nt in range(min(len(tops), most) + 1):
        steps = list(zip(range(nt, nt + min(n_small, most - nt) + 1), keep_masks, small_heights))
        for away_top in combinations(tops, nt):
            top_mask = full
            top_height = height
            for c in away_top:
                top_mask &= ~bit[c]
                top_height -= size - rank[c]
            for k, keep, away_height in steps:
                v = values[top_mask & keep] + _TIE * (top_height - away_height)
                if v > best_v[k]:
                    best_v[k] = v
                    best_top[k] = away_top
    # The counts reached are 0..the last one (each nt reaches nt..nt + its smalls), in order.
    out = {}
    for k in range(most + 1):
        v = best_v[k]
        if v != -math.inf:
            top = best_top[k]
            out[k] = (v, top + tuple(smalls[:k - len(top)]))
    return out


class _Holdings(dict):
    """Holding mask -> the estimate's tricks for one suit too long for the value tables
    (:func:`_holding_value`), worked out on first use."""

    def __init__(self, info: RulesInfo, ti: TableInfo, i: int, slot: int):
        super().__init__()
        self.args = (info, ti, i, slot)

    def __missing__(self, mask: int) -> float:
        v = self[mask] = _holding_value(*self.args, mask)
        return v


def plan_discards(info: RulesInfo, ti: TableInfo, hand, lay: int, legal,
                  options: dict | None = None) -> tuple[list[int], float] | None:
    """The ``lay`` cards of ``hand`` (among ``legal``) to lay away under the table ``ti``,
    and the estimate of the hand left; None when the legal cards do not allow it.

    ``options``: a memo of the per-suit options (:func:`_suit_options`) shared by the
    plans of one hand and one ``legal`` under several tables (the contracts a bid may
    become): a suit is the same slot of the estimate under every table where it plays
    the same part (a side suit of the same direction, say), and its options then depend
    only on the slot, its cards and the count to lay away, the memo's key.
    """
    allowed = set(legal)
    slots = info.table_slots[info.table_index[ti.key]][0] if ti.key in info.table_index else None
    if slots is None or lay <= 0:
        return None
    sidx = ti.sidx
    by_suit: dict[int, list[int]] = {}
    loose = []  # cards of no suit: worthless, or top cards that win every trick
    for c in hand:
        s = sidx[c]
        if s < 0:
            loose.append(c)
        else:
            by_suit.setdefault(s, []).append(c)
    trump_i = ti.trump_idx if ti.trump != NO_TRUMP else -1
    # Cards of no suit: those that cannot win go first, winners count a trick each.
    loose_opts: dict[int, tuple[float, tuple[int, ...]]] = {}
    loose_sorted = sorted((c for c in loose if c in allowed), key=ti.win_key.__getitem__)
    loose_value = sum(1.0 for c in loose if ti.suit_of[c] == NO_SUIT and ti.win_key[c] >= 0)
    for k in range(min(lay, len(loose_sorted)) + 1):
        away = tuple(loose_sorted[:k])
        loose_opts[k] = (loose_value - sum(1.0 for c in away if ti.win_key[c] >= 0), away)
    # DP over the side suits: (cards laid away, short count) -> (value, cards laid away).
    # A state's key is (cards laid away) * 256 + (shortness made: at most two a side suit).
    states: dict[int, tuple[float, tuple[int, ...]]] = {k << 8: opt for k, opt in loose_opts.items()}
    for i, slot in enumerate(slots):
        if i == trump_i:
            continue
        cards = by_suit.get(i, [])
        if options is None:
            opts = _suit_options(info, ti, i, slot, cards, allowed, lay)
        else:
            key = (slot, tuple(cards), lay)
            opts = options.get(key)
            if opts is None:
                opts = options[key] = _suit_options(info, ti, i, slot, cards, allowed, lay)
        nxt: dict[int, tuple[float, tuple[int, ...]]] = {}
        get = nxt.get
        n = len(cards)
        # (cards laid away, what it adds to a key, value, cards); _suit_options makes the
        # counts in increasing order, so a count past the room left ends the list.
        opt_list = [(k, (k << 8) + (2 - (n - k) if n - k < 2 else 0), v, away) for k, (v, away) in opts.items()]
        for key0, (v0, away0) in states.items():
            room = lay - (key0 >> 8)
            for k, step, v, away in opt_list:
                if k > room:
                    break
                key = key0 + step
                total = v0 + v
                old = get(key)
                if old is None or total > old[0]:
                    nxt[key] = (total, away0 + away)
        states = nxt
    if trump_i >= 0:
        cards = by_suit.get(trump_i, [])
        trump_opts = _suit_options(info, ti, trump_i, slots[trump_i], cards, allowed, lay)
    else:
        cards = []
        trump_opts = {0: (0.0, ())}
    best = None
    for key0, (v0, away0) in states.items():
        need = lay - (key0 >> 8)
        short = key0 & 255
        opt = trump_opts.get(need)
        if opt is None:
            continue
        v = v0 + opt[0]
        if trump_i >= 0:
            spare = len(cards) - need - _RUFF_KEEP
            if spare > 0:
                v += _RUFF * min(short, spare)
        if best is None or v > best[1]:
            best = (list(away0 + opt[1]), v)
    return best
