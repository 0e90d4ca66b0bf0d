"""The heuristic's card play: which card to lead, and which to play to a trick already led.

:func:`lead` and :func:`follow` choose a card (with a reason in words when asked) from
the play table's view of the hand, the cards the seat cannot place and the voids
shown; :func:`suit_word` names a suit in those reasons.  Whether a card will hold a
trick is the chance, from those alone, that an opponent still to play beats it
(:func:`_risk`, each opponent's share of a suit's unseen cards from
:func:`.infer.placement`: hand sizes and shown voids): a card is played to win when that
chance is small, and a partner's winning card is overtaken only when it is likely to be
beaten.  A defender plays a side-suit winner that only a ruff threatens.

The plan of a lead: the declaring side draws trumps (from the top of a sequence, else
a small one, unless it holds the best trump left) while the opponents may hold one
(not once they are placed out of them, :func:`.infer.placement`); in
notrump the declarer's partner returns the declarer's suit and the side sets up a
long suit before cashing the others; then sure winners; then a ruff for a partner out
of a suit (the declaring side only when partner probably still holds a trump); a
defender then makes the declarer ruff a suit it is out of (not one the declarer's
partner could ruff too); the declaring side then leads
back a suit its partner led; defenders return partner's
suit and, against trumps, lead the top of a sequence or a suit with nothing to lose
before leading away from an honour.  Discards keep an honour guarded.  A defender
second hand to a trump lead plays low and keeps a sure trump winner, where the
declarer took a kitty and the trick is not a first one worth more (the discards'
book) or whose lead named trumps.  Each rule was
kept only when bench/cardplay.py (books against the baseline declaring the same
hands) or bench/strength.py measured it a gain.
"""

from __future__ import annotations

from ..contract import declaration
from ..ruleset import NO_SUIT, NO_TRUMP, Ruleset
from .infer import placement, shown_held
from .knowledge import BIT, TableInfo
from .plan import books_to_spare


def suit_word(rules: Ruleset, suit: int) -> str:
    """The suit (or notrump) as a word of a reason: ``hearts``, ``notrump``."""
    return "notrump" if suit == NO_TRUMP else rules.suit_names[suit].lower()


def _out_trumps(ti: TableInfo, unseen: int) -> int:
    """Trumps the seat cannot place (0 in notrump)."""
    if ti.trump == NO_TRUMP:
        return 0
    return (ti.suit_mask[ti.trump] & unseen).bit_count()


# A card is played to win when the chance that an opponent still to play beats it is
# at most this; partner's winning card is overtaken only when its chance of being
# beaten is at least _LIKELY (and the overtaking card's is at most _GOOD).
_GOOD = 0.25
_LIKELY = 0.4  # 0.5 before: +0.01 books a hand for the declaring side (see _MAJORITY)
# The declaring side overtakes from a smaller chance: it needs the tricks, and the
# winner of a trick it keeps leads for the declaring side either way (0.4 before:
# +0.007..+0.010 books a hand in the base game, bench/declaring.py seeds 11 and 12).
_LIKELY_DECLARING = 0.3


def _risk(ti: TableInfo, void, unseen: int, card: int, led: int, later, miss) -> float:
    """The chance that an opponent still to play beats ``card`` in a trick of suit ``led``.

    From what the seat knows: an opponent that may still hold the suit led can beat a
    card of that suit only with a higher one of it, and cannot ruff; one that is out of
    the suit led (shown, or every card of it is placed) can ruff (or overruff a trump)
    unless it has shown out of trumps too.  ``miss[o][s]``: the chance that a given
    unseen card of suit ``s`` is not in opponent ``o``'s hand (:func:`.infer.placement`);
    the chances that ``o`` holds one of ``k`` unseen cards of it, or none, are
    ``1 - miss**k`` and ``miss**k``.
    """
    higher = (ti.above[card] & unseen).bit_count()
    trump = ti.trump
    lbit = 1 << led
    keep = 1.0
    if trump == NO_TRUMP or led == trump:  # no ruffs: only a higher card of the suit led
        if higher:
            for o in later:
                if not void[o] & lbit:
                    keep *= miss[o][led] ** higher
        return 1.0 - keep
    tbit = 1 << trump
    n_led = (ti.suit_mask[led] & unseen).bit_count()
    if ti.suit_of[card] == trump:  # a ruff: beaten only by an overruff
        if higher:
            for o in later:
                vo = void[o]
                if not vo & tbit:
                    p = 1.0 - miss[o][trump] ** higher
                    keep *= 1.0 - (p if vo & lbit else miss[o][led] ** n_led * p)
        return 1.0 - keep
    n_trump = (ti.suit_mask[trump] & unseen).bit_count()
    for o in later:
        vo = void[o]
        ruff = 0.0 if vo & tbit else 1.0 - miss[o][trump] ** n_trump
        if vo & lbit:
            keep *= 1.0 - ruff
        else:
            beat = 1.0 - miss[o][led] ** higher + miss[o][led] ** n_led * ruff
            keep *= 1.0 - beat if beat < 1.0 else 0.0
    return 1.0 - keep


def _sure(ti: TableInfo, unseen: int, card: int, led: int) -> bool:
    """Whether :func:`_risk` of ``card`` is 0 whatever the placement: no higher card of its
    suit unseen, and no ruff to fear (notrump, trumps led, or the card a trump itself)."""
    trump = ti.trump
    return not ti.above[card] & unseen and (trump == NO_TRUMP or led == trump or ti.suit_of[card] == trump)


def _high_risk(ti: TableInfo, void, unseen: int, card: int, led: int, later, miss) -> float:
    """The chance that an opponent still to play holds a higher card of the suit led than
    ``card`` (a card of that suit), ruffs aside (``miss`` as in :func:`_risk`)."""
    higher = (ti.above[card] & unseen).bit_count()
    if not higher:
        return 0.0
    keep = 1.0
    lbit = 1 << led
    for o in later:
        if not void[o] & lbit:
            keep *= miss[o][led] ** higher
    return 1.0 - keep


def _unguards(ti: TableInfo, unseen: int, held: int, s: int) -> bool:
    """Whether giving up the lowest card of suit ``s`` bares an honour: a card of ours
    with one or two higher cards unseen needs as many smaller cards to wait with."""
    mine = ti.suit_mask[s] & held
    n = mine.bit_count()
    if n > 3:  # an honour is bared only with at most k + 1 <= 3 cards of the suit (below)
        return False
    above = ti.above
    for c in ti.desc[s]:
        if mine >> c & 1:
            k = (above[c] & unseen).bit_count()
            if 0 < k <= 2 and n <= k + 1:
                return True
            if k > 2:
                break
    return False


def _throw(ti: TableInfo, unseen: int, held: int, cand) -> int:
    """A card to give up: no-suit cards, then the small cards of weak side suits.

    Per suit only its lowest card is a candidate; side suits whose lowest card is not
    a winner go first, those whose honours stay guarded first, shortest first (a void
    can ruff later); trumps go last.
    """
    suit_of = ti.suit_of
    rank = ti.rank
    trump = ti.trump
    lowest = {}
    win_key = ti.win_key
    for c in cand:
        s = suit_of[c]
        if s == NO_SUIT:
            if win_key[c] < 0:
                return c
            continue  # a top card (it wins whenever played): the last card to give up
        low = lowest.get(s)
        if low is None or rank[c] > rank[low]:
            lowest[s] = c
    if not lowest:  # only top cards
        return cand[0]
    if len(lowest) == 1:
        return next(iter(lowest.values()))
    above = ti.above
    best, best_key = cand[0], None
    for s, c in lowest.items():
        if s == trump:
            key = (3, 0, 0, -rank[c])
        elif not above[c] & unseen:
            key = (2, 0, 0, -rank[c])
        else:
            key = (1, _unguards(ti, unseen, held, s), (ti.suit_mask[s] & held).bit_count(), -rank[c])
        if best_key is None or key < best_key:
            best, best_key = c, key
    return best


def _lowest(ti: TableInfo, win_key, unseen: int, held: int, same: list[int], cand: list[int]) -> int:
    """The card :func:`follow` gives up: the lowest of the suit led (``same``: the legal
    cards that follow, ``cand`` those and the free cards of no suit), else :func:`_throw`'s."""
    if same:
        if len(same) != len(cand):  # a free card of no suit is cheaper still (not a top card)
            suit_of = ti.suit_of
            free = [c for c in cand if suit_of[c] == NO_SUIT and ti.win_key[c] < 0]
            if free:
                return free[0]
        return min(same, key=win_key.__getitem__)
    return _throw(ti, unseen, held, cand)


def cards_of_suit(cards: list[int], suit_of, suit: int) -> list[int]:
    """The cards of ``cards`` whose suit is ``suit``, in order.  (A function of its own: a
    comprehension in :func:`follow` would make the names it reads cells there.)"""
    return [c for c in cards if suit_of[c] == suit]


def follow(state, rules, info, ti, void, unseen, played, held, seat, legal, why):
    """Play to a trick already led."""
    suit_of = ti.suit_of
    trump = ti.trump
    cards = rules.cards
    trick = state.trick
    led = state.led
    partners = info.partners[seat]
    win_key = ti.wk_led[led]
    best_i, best_key = -1, -1
    for i, c in enumerate(trick):
        k = win_key[c]
        if k > best_key:
            best_key, best_i = k, i
    # Follow suit when able, even where a renege would stand.  (Where reneges are refused
    # and no card is free of suit, the legal cards are all of the suit led or none of them.)
    if info.refuse and not ti.free:
        same = legal if suit_of[legal[0]] == led else []
    else:
        same = cards_of_suit(legal, suit_of, led)
    following = bool(same)
    if following:
        cand = same
        if ti.free and len(same) != len(legal):
            cand = same + cards_of_suit(legal, suit_of, NO_SUIT)
    else:
        cand = legal
    winners = []  # (a loop: a comprehension would make win_key and best_key cells)
    for c in cand:
        if win_key[c] > best_key:
            winners.append(c)
    n = rules.players
    partner_winning = (state.leader + best_i) % n in partners
    later = info.later[seat][len(trick)]
    # The suits whose placement _risk and _high_risk read: the suit led and trumps (each
    # suit's chances are worked out on their own, so the others are not needed).
    risk_suits = (led,) if trump == NO_TRUMP or trump == led else (led, trump)

    if partner_winning:
        pcard = trick[best_i]
        if not later:
            card = _lowest(ti, win_key, unseen, held, same, cand)
            return card, (f"play {cards[card]}: partner's {cards[pcard]} wins the trick already"
                          if why else "")
        # A sure card: 0.0, what _risk gives, without the placement it does not read.
        miss = None if _sure(ti, unseen, pcard, led) else placement(state, seat, void, unseen, played, risk_suits)
        prisk = 0.0 if miss is None else _risk(ti, void, unseen, pcard, led, later, miss)
        declaring = state.declarer == seat or state.declarer in partners
        if prisk < (_LIKELY_DECLARING if declaring else _LIKELY):
            card = _lowest(ti, win_key, unseen, held, same, cand)
            return card, (f"play {cards[card]}: partner's {cards[pcard]} is winning; no need to overtake"
                          if why else "")
        for c in sorted(winners, key=win_key.__getitem__):
            r = _risk(ti, void, unseen, c, led, later, miss)
            if r <= _GOOD:
                return c, (f"play {cards[c]}: partner's {cards[pcard]} is likely to be beaten; this "
                           f"{'cannot' if not r else 'probably will not'}" if why else "")
        card = _lowest(ti, win_key, unseen, held, same, cand)
        return card, (f"play {cards[card]}: leave the trick to partner's {cards[pcard]}" if why else "")
    if winners:
        beaten = cards[trick[best_i]]
        winners.sort(key=win_key.__getitem__)
        if not later:
            card = winners[0]
            return card, (f"play {cards[card]}: cheapest card that beats the {beaten} on the table"
                          if why else "")
        miss = None  # worked out at the first card whose risk reads it (a sure first card returns below)
        for c in winners:
            if miss is None and not _sure(ti, unseen, c, led):
                miss = placement(state, seat, void, unseen, played, risk_suits)
            r = 0.0 if miss is None else _risk(ti, void, unseen, c, led, later, miss)
            # A defender second hand to a trump lead keeps a sure trump winner: it wins
            # whenever it is played, may yet beat a higher trump than this one, and
            # partner plays later (the declaring side's books -0.025/-0.032 a hand,
            # bench/declaring.py seeds 11 and 12; docs/measurements.md, card play row (10)).  Not at a
            # first trick that carries the discards' book or whose lead named trumps:
            # ducking there gave the declaring side +0.054 and +0.042 books a hand.
            # Only where the declarer took a kitty (its trump leads come from length):
            # without one (a game dealing no kitty) the duck gave the declaring side +0.006..+0.015.
            if (not r and led == trump and len(trick) == 1 and partners and len(same) > 1
                    and state.declarer != seat and state.declarer not in partners
                    and (state.tricks or not _first_trick_special(state))
                    and rules.kitty_size > 0):
                card = _lowest(ti, win_key, unseen, held, same, cand)
                return card, (f"play {cards[card]}: the {cards[c]} wins any time later; second hand low "
                              "in trumps" if why else "")
            # A defender's side-suit card threatened only by a ruff is no safer kept:
            # the declarer's side, long in trumps, can ruff it later too, and a small
            # card would let it win this trick cheaply (the declaring side's books
            # -0.005 .. -0.013 a hand on seeds 11-14; docs/measurements.md, card play (13)).
            if (r > _GOOD and following and suit_of[c] != trump and state.declarer != seat
                    and state.declarer not in partners and _high_risk(ti, void, unseen, c, led, later, miss) <= _GOOD):
                return c, (f"play {cards[c]}: only a ruff is likely to beat it, and keeping it "
                           "would not make it safer" if why else "")
            if r <= _GOOD:
                if not why:
                    return c, ""
                if suit_of[c] == trump and led != trump:
                    return c, (f"play {cards[c]}: ruff the {beaten} with the cheapest trump that "
                               f"{'cannot' if not r else 'probably will not'} be overruffed")
                if not r:
                    return c, f"play {cards[c]}: cheapest sure winner over the {beaten}"
                return c, f"play {cards[c]}: cheapest card likely to win over the {beaten}"
        if not following and trump != NO_TRUMP:
            card = winners[0]
            return card, (f"play {cards[card]}: ruff the {beaten} with the cheapest trump that wins"
                          if why else "")
        if len(trick) >= 2 or not partners:
            card = winners[-1]
            return card, (f"play {cards[card]}: highest card, to beat the {beaten} before the last "
                          "player" if why else "")
        card = _lowest(ti, win_key, unseen, held, same, cand)
        return card, (f"play {cards[card]}: second hand low; partner plays later" if why else "")
    card = _lowest(ti, win_key, unseen, held, same, cand)
    if not why:
        return card, ""
    if following and suit_of[card] == led:
        return card, f"play {cards[card]}: cannot win the trick; lowest card of the suit"
    return card, f"play {cards[card]}: cannot win the trick; throw the least useful card"


def _first_trick_special(state) -> bool:
    """Whether the first trick is more than a trump lead: it carries the discards' book,
    or its card named the trump suit (the declarer's choice of suit, not a draw)."""
    return state.discards_book_pending() or declaration(state.rules, state.bid).by_first_lead


def lead(state, rules, info, ti, void, unseen, played, seat, legal, why):
    """Lead to a new trick (or play the first suited card after cards of no suit)."""
    suit_of = ti.suit_of
    rank = ti.rank
    trump = ti.trump
    cards = rules.cards
    above = ti.above
    # One pass over the hand: each suit's top card, bottom card and length.
    top, low, count = {}, {}, {}
    for c in legal:
        s = suit_of[c]
        if s == NO_SUIT:
            continue
        t = top.get(s)
        if t is None:
            top[s] = low[s] = c
            count[s] = 1
        else:
            count[s] += 1
            if rank[c] < rank[t]:
                top[s] = c
            elif rank[c] > rank[low[s]]:
                low[s] = c
    if not top:
        c = legal[0]
        return c, (f"lead {cards[c]}: nothing else left" if why else "")
    opponents = info.opponents[seat]
    partners = info.partners[seat]
    defending = state.declarer != seat and state.declarer not in partners
    out_trumps = _out_trumps(ti, unseen)
    tbit = 1 << trump if trump != NO_TRUMP else 0
    opp_trumps = False
    if out_trumps:
        for o in opponents:
            if not void[o] & tbit:
                opp_trumps = True
                break
    # Not where the opponents are placed out of trumps (shown voids, hand sizes): the
    # trumps out are probably partner's (or laid away), and drawing them spends the
    # side's trumps for nothing (card play change (14)).
    if (trump in top and opp_trumps and not defending
            and not _none_left(state, seat, void, unseen, played, trump, opponents, out_trumps)):
        # Draw trumps: with the best one left, with more of them than are still out, or
        # when the side holds most of them and high enough ones to get the lead back.
        t = top[trump]
        if not above[t] & unseen:
            return t, (f"lead {cards[t]}: the best trump left, drawing the opponents' trumps"
                       if why else "")
        m = count[trump]
        if m < _SPARE_DRAW_MIN and books_to_spare(state) > 0:
            # Extra books are worth nothing (the engine's score table, plan.py): with
            # few trumps the side keeps them to ruff and to keep control rather than
            # giving up the lead with a small one (card play change (11)).
            m = 0
        if m > out_trumps:
            # The top of a sequence forces out the higher ones; a small card could lose
            # to a trump the leader's top would have beaten.
            c = t if _heads_sequence(ti, unseen, t) else low[trump]
            return c, (f"lead {cards[c]}: long in trumps ({m} against {out_trumps} out), "
                       "drawing them" if why else "")
        higher = (above[t] & unseen).bit_count()
        # The opponents' share of the trumps out: each other hand holds a card per
        # trick left; hands shown out of trumps hold none (unseen discards may).
        left = info.tricks - len(state.tricks)
        theirs = ours = 0
        holders = unseen.bit_count()
        for o in range(rules.players):
            if o != seat:
                if void[o] & tbit:
                    holders -= left
                elif o in opponents:
                    theirs += left
                else:
                    ours += left
        expected = out_trumps * theirs / holders if holders > 0 else 0.0
        if 2 * higher < m and m > expected:
            # With a partner, a small one unless the top heads a sequence: the top would
            # only fall to a higher trump that a small card forces out as well, and a
            # partner plays after the opponent to it (+0.02 books, _MAJORITY).  Alone
            # the top: a small one lets the opponent win cheaply and keep its higher
            # trumps (a game of two: +1.00 against +1.37 points a hand with a small one;
            # docs/measurements.md, card play change (9)).
            c = t if not partners or _heads_sequence(ti, unseen, t) else low[trump]
            return c, (f"lead {cards[c]}: strong in trumps ({m} to about {expected:.1f} with "
                       "the opponents), drawing them before cashing side winners" if why else "")
        if m >= _LONG and _heads_sequence(ti, unseen, t):
            # Four or more trumps headed by a sequence: force out the higher ones
            # while the side still has trumps to spare.
            return t, (f"lead {cards[t]}: top of a sequence in {m} trumps, forcing out the higher "
                       "ones" if why else "")
        if m >= _MAJORITY_MIN and m + out_trumps * ours / max(holders, 1) > _MAJORITY * expected:
            # The side holds most of the trumps: each round draws one from every
            # opponent still holding them, while the side keeps trumps to spare.
            c = t if _heads_sequence(ti, unseen, t) else low[trump]
            return c, (f"lead {cards[c]}: the side holds most of the trumps ({m} here, about "
                       f"{expected:.1f} with the opponents), drawing them" if why else "")
    if not defending and trump == NO_TRUMP and partners:
        s = _partner_suit(state, info, ti, partners, top)
        if s != NO_SUIT:
            c = top[s] if count[s] <= 2 else low[s]
            return c, (f"lead {cards[c]}: back to partner's {suit_word(rules, s)}" if why else "")
    # Notrump, declaring side: set up a long suit while the other suits are still
    # stopped (cashing their winners first would set up the opponents' cards instead).
    if trump == NO_TRUMP and not defending:
        s = max(count, key=count.__getitem__)
        t = top[s]
        if count[s] >= _LONG and above[t] & unseen:
            c = t if _heads_sequence(ti, unseen, t) else low[s]
            return c, (f"lead {cards[c]}: setting up the long {suit_word(rules, s)}" if why else "")
    # Cash a sure winner no opponent can ruff, from the longest such suit.
    cash = None
    for s, c in top.items():
        if s != trump and not above[c] & unseen:
            if opp_trumps:
                bit = 1 << s
                if any(void[o] & bit and not void[o] & tbit for o in opponents):
                    continue
            if cash is None or count[s] > count[suit_of[cash]]:
                cash = c
    if cash is not None:
        return cash, (f"lead {cards[cash]}: a sure winner" if why else "")
    # Give partner a ruff: a suit partner is out of while it may still hold trumps (a
    # partner's cards shown face up are not among the unseen: _may_ruff counts them).
    if tbit and (out_trumps or not defending):
        for p in partners:
            vp = void[p]
            if vp and not vp & tbit:
                if not defending and not _may_ruff(state, ti, seat, void, unseen, played, p, out_trumps):
                    continue
                for s, c in low.items():
                    if s != trump and vp & (1 << s):
                        return c, (f"lead {cards[c]}: partner is out of {suit_word(rules, s)} "
                                   "and can ruff" if why else "")
    # (A kitty shown face up in the declarer's hand is among the unseen cards here: the
    # declarer plays after this seat, heuristic.py keeps its shown cards in ``unseen``.)
    if defending and out_trumps:
        got = _force_declarer(state, rules, ti, void, opponents, low, tbit, why)
        if got is not None:
            return got
    if defending:
        got = _defence_lead(state, rules, info, ti, unseen, partners, top, low, count, why)
        if got is not None:
            return got
    # The declaring side leads back a suit its partner led (in notrump this was done
    # above): partner's strength, not the opponents' (+0.004 books, _MAJORITY).
    if not defending and partners:
        s = _partner_suit(state, info, ti, partners, top)
        if s != NO_SUIT:
            c = top[s] if count[s] <= 2 else low[s]
            return c, (f"lead {cards[c]}: back to partner's {suit_word(rules, s)}" if why else "")
    # Otherwise the longest side suit: the top of a sequence of honours, else a small card.
    best = None
    for s in top:
        if s != trump and (best is None or count[s] > count[best]
                           or (count[s] == count[best] and rank[top[s]] < rank[top[best]])):
            best = s
    if best is not None:
        t = top[best]
        r = rank[t]
        desc = ti.desc[best]
        if count[best] >= 2 and r <= 2 and r + 1 < len(desc) and not unseen & BIT[desc[r + 1]]:
            return t, (f"lead {cards[t]}: top of a sequence in the longest suit" if why else "")
        c = low[best]
        return c, (f"lead {cards[c]}: a small card from the longest suit" if why else "")
    t = top[trump]
    c = t if not above[t] & unseen else low[trump]
    return c, (f"lead {cards[c]}: only trumps left" if why else "")


# A suit this long is set up first in notrump by the declaring side.
_LONG = 4
# The declaring side draws trumps with a small one (the top of a sequence) when this
# seat holds at least _MAJORITY_MIN of them and, with its partners' expected share of
# the trumps out, more than _MAJORITY times the opponents' expected share.  With
# _LIKELY 0.4, measured a gain of about 0.03 books a hand for the declaring side,
# paired on the same auctions (bench/declaring.py; docs/measurements.md, card play table, (8)).
_MAJORITY = 1.0
_MAJORITY_MIN = 3
# Where further books are worth nothing to the declaring side (plan.books_to_spare),
# it draws trumps with a small one only from this many: from fewer it keeps them.
# Measured where a made contract scores alike at any level (bench/declaring.py,
# seeds 11 and 12): made +1.3 and +1.1 points of a hundred, the side's points
# +0.041 and +0.034 a hand; 3 or 5 gained less, 6 lost (docs/measurements.md, card play change
# (11)); where every book scores nothing changes.
_SPARE_DRAW_MIN = 4


# The declaring side stops drawing trumps when the chance that no opponent holds one
# is at least this (card play change (14): one trump out, an opponent shown out of
# trumps and partner not, is an even chance).  From 0.5: the declaring side's books
# +0.015 a hand pooled over four seeds in the base game; 0.3, 0.4, 0.55, 0.6 gained
# less (docs/measurements.md).
_NONE_LEFT = 0.5


def _none_left(state, seat: int, void, unseen: int, played: int, trump: int, opponents, out: int) -> bool:
    """Whether the opponents probably hold none of the ``out`` trumps ``seat`` cannot
    place: the chance of it, from :func:`.infer.placement` (each unseen trump away from
    each opponent), at least ``_NONE_LEFT``."""
    miss = placement(state, seat, void, unseen, played, (trump,))
    none = 1.0
    for o in opponents:
        none *= miss[o][trump] ** out
    return none >= _NONE_LEFT


# The declaring side leads for partner to ruff only when the chance that partner
# still holds a trump (infer.placement) is at least this: a partner probably out of
# trumps only discards, and the suit led sets up the opponents' cards instead (card
# play change (15): the declaring side's books +0.002 and +0.008 a hand in the base
# game and without jokers, pooled over four seeds; 0.3, 0.6 and 0.7 gained less in
# the base game, and the same rule for the defenders lost).
_RUFF_HOLDS = 0.5


def _may_ruff(state, ti: TableInfo, seat: int, void, unseen: int, played: int, partner: int, out: int) -> bool:
    """Whether ``partner`` probably holds a trump: one of the ``out`` trumps ``seat``
    cannot place (their chance from :func:`.infer.placement`) or one shown to ``seat``
    in partner's hand (a kitty turned face up), the chance at least ``_RUFF_HOLDS``."""
    trump = ti.trump
    shown = shown_held(state, seat, unseen, played)  # read once: both chances below count it
    none = _none_shown(ti, shown, partner)
    if out:
        miss = placement(state, seat, void, unseen, played, (trump,), shown)
        none *= miss[partner][trump] ** out
    return 1.0 - none >= _RUFF_HOLDS


def _none_shown(ti: TableInfo, shown: list[tuple[int, int, float]], holder: int) -> float:
    """The chance that ``holder`` no longer holds any of the trumps shown in its hand
    (a kitty turned face up; ``shown`` is :func:`.infer.shown_held`): 1.0 where none were shown."""
    none = 1.0
    trumps = ti.suit_mask[ti.trump]
    for h, cards, kept in shown:
        if h == holder:
            none *= (1.0 - kept) ** (cards & trumps).bit_count()
    return none


def _force_declarer(state, rules, ti, void, opponents, low, tbit: int, why):
    """A defender's lead that makes the declarer ruff: (card, reason) or None.

    The small card of a side suit the declarer has shown out of while it may still
    hold trumps: each ruff spends one of the trumps that would draw the defenders'
    (card play change (15): the declaring side's books -0.008 and -0.019 a hand in the
    base game and without jokers, pooled over four seeds).  Not a suit another
    opponent may ruff too: that would let the declarer throw a loser while its
    partner ruffs (a ruff and discard).
    """
    declarer = state.declarer
    vd = void[declarer]
    if vd & tbit:
        return None
    for s, c in low.items():
        bit = 1 << s
        if s == ti.trump or not vd & bit:
            continue
        if any(void[o] & bit and not void[o] & tbit for o in opponents if o != declarer):
            continue
        return c, (f"lead {rules.cards[c]}: the declarer is out of {suit_word(rules, s)}; "
                   "make it ruff" if why else "")
    return None


def _heads_sequence(ti: TableInfo, unseen: int, card: int) -> bool:
    """Whether ``card`` and the next card of its suit are equals (the next one is not unseen)."""
    desc = ti.desc[ti.suit_of[card]]
    r = ti.rank[card] + 1
    return r < len(desc) and not unseen & BIT[desc[r]]


def _partner_suit(state, info, ti, partners, top) -> int:
    """The first side suit a partner led that this seat still holds, or NO_SUIT."""
    suit_of = ti.suit_of
    trump = ti.trump
    for leader, cards, _ in state.tricks:
        if leader in partners:
            for c in cards:
                s = suit_of[c]
                if s >= 0:
                    if s != trump and s in top:
                        return s
                    break
    return NO_SUIT


def _defence_lead(state, rules, info, ti, unseen, partners, top, low, count, why):
    """A defender's lead when there is nothing to cash and no ruff to give: (card, reason) or None.

    Return the suit partner led (the top card of a doubleton, else a small one); in a
    trump contract, the top of a sequence, else a suit with no honour to lose, shortest
    first; leading away from an unguarded honour (a card with one or two higher ones
    unseen) and leading trumps come last.  In notrump the longest suit (None: the
    general rule) unless partner has led one.
    """
    cards = rules.cards
    trump = ti.trump
    s = _partner_suit(state, info, ti, partners, top)
    if s != NO_SUIT:
        c = top[s] if count[s] <= 2 else low[s]
        return c, (f"lead {cards[c]}: return partner's {suit_word(rules, s)}" if why else "")
    if trump == NO_TRUMP:
        return None
    above = ti.above
    rank = ti.rank
    best, best_key = None, None
    for s, t in top.items():
        if s == trump:
            continue
        r = rank[t]
        desc = ti.desc[s]
        k = (above[t] & unseen).bit_count()
        if count[s] >= 2 and r + 1 < len(desc) and not unseen & BIT[desc[r + 1]] and k <= 2:
            key = (0, -count[s])  # top of a sequence
        elif k >= 3:
            key = (1, count[s])  # nothing to lose; a short suit may give a ruff later
        else:
            key = (2, -count[s])  # away from an honour
        if best_key is None or key < best_key:
            best, best_key = s, key
    if best is None:
        return None
    t = top[best]
    if best_key[0] == 0:
        return t, (f"lead {cards[t]}: top of a sequence" if why else "")
    if best_key[0] == 1:
        c = t if count[best] <= 2 else low[best]
        return c, (f"lead {cards[c]}: a suit with no honour to lose" if why else "")
    c = low[best]
    return c, (f"lead {cards[c]}: a small card from the longest suit" if why else "")
