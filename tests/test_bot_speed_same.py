"""The heuristic's speed-ups give what the plain computations they replace give.

Each fast path of the heuristic bots (runtime/bots) is checked against the computation
it stands for, on many positions of dealt hands: the memoised ``worth_bidding`` set of
the ladder, the standing values worked out from the high bid up only, the memoised
later opponents of a call, the discard planner's per-suit options built from
running masks (kept per count in lists), the defence of an outbid call read from the
callers' line, ``play_to_end`` (a whole hand without the driver's calls), the hand
estimate's ruffs memoised per hand shape, the card play's placement of the suits it reads only,
the per-suit discard options shared by the plans of one hand under several contracts,
the cards shown to a seat read once per seat and hand, and the declarer's estimate with
a face-up kitty read from the auction's memo.  ``bench/same_decisions.sh`` checks the whole: ``simulate --json`` and
``--records`` byte-identical over every shipped variant.
"""

from __future__ import annotations

import math
import random
from itertools import combinations

import pytest

from bidcompiler.pipeline import load_ruleset
from runtime.bots import HeuristicBot
from runtime.bots import outbid
from runtime.bots.discards import _TIE, _holding_value, _suit_options, plan_discards
from runtime.bots.knowledge import _EXACT_TOP, rules_info
from runtime.bots.shown import placed_away, shown_mask, threats
from runtime.game import deal
from runtime.hand import AUCTION, DECLARE_DIRECTION, DECLARE_TRUMP, PLAY, HandState
from runtime.ruleset import NO_TRUMP

VARIANTS = ["standard", "northeast52", "cutthroat", "two-handed", "rhode-island", "standard+min-bid-4"]


def dealt_hands(rules, hands: int, seed: int):
    """``hands`` new hands of ``rules``, dealt from one generator seeded ``seed``, the deal
    passing round the table (hand ``i`` dealt by seat ``i`` modulo the players)."""
    rng = random.Random(seed)
    for i in range(hands):
        dealt, kitty = deal(rules, rng)
        yield HandState(rules, i % rules.players, dealt, kitty)


def auction_states(rules, hands: int, seed: int):
    """Every auction position of ``hands`` hands the heuristic bids, one bot a seat."""
    for state in dealt_hands(rules, hands, seed):
        bots = [HeuristicBot(None) for _ in range(rules.players)]
        while state.phase == AUCTION:
            yield state
            state.apply_action(bots[state.current_player()].choose(state))


def follow_positions(info, seed: int, hands: int = 20):
    """Every position of ``hands`` heuristic hands where a seat follows a suit led,
    with the hand's trick table: the card play's placement is read there."""
    rules = info.rules
    rng = random.Random(seed)
    for _ in range(hands):
        dealt, kitty = deal(rules, rng)
        state = HandState(rules, 0, dealt, kitty)
        bot = HeuristicBot(None)
        while not state.is_terminal():
            ti = info.tables.get((state.trump, state.direction))
            if state.phase == PLAY and state.trick and ti is not None and state.led in ti.suits:
                yield state, ti
            state.apply_action(bot.choose(state))


@pytest.mark.parametrize("variant", VARIANTS)
def test_worth_set_is_worth_bidding_of_the_whole_ladder(variant):
    rules = load_ruleset(variant)
    info = rules_info(rules)
    info.ensure_util(next(auction_states(rules, 1, 1)))
    rng = random.Random(3)
    for tenths in range(0, 10 * info.total_books + 11):
        books = tenths / 10 + rng.random() / 20
        for nt in (0, 1):
            bids = frozenset(b for b in range(info.n_bids) if rng.random() < 0.7)
            plain = outbid.worth_bidding(info.eu_row(0, nt, books), info.made_row(nt, books), bids)
            assert bids & info.worth_set(nt, books) == plain


@pytest.mark.parametrize("variant", VARIANTS)
def test_standing_values_from_the_high_bid_up_are_the_full_lists(variant):
    rules = load_ruleset(variant)
    info = rules_info(rules)
    bot = HeuristicBot(None)
    seen = 0
    for state in auction_states(rules, 12, 5):
        info.ensure_util(state)
        seat = state.seat
        npart = len(info.partners[seat])
        plain = info.estimate_all(state.hands[seat])
        full = bot._standing(state, info, plain, npart)
        for lo in {0, max(state.high_bid, 0), info.n_bids // 2, info.n_bids}:
            part = bot._standing(state, info, plain, npart, lo)
            assert part[lo:] == full[lo:]
            assert len(part) == len(full)
            # Below lo: unread (NaN), or the list of a call no later opponent answers.
            assert all(e == (1.0, 0.0) or (math.isnan(e[0]) and math.isnan(e[1])) for e in part[:lo])
        seen += 1
    assert seen > 12


def test_later_opponents_memo_gives_the_fresh_answer():
    names = ("standard", "cutthroat", "two-handed", "northeast52")
    positions = [auction_states(load_ruleset(name), 8, 9) for name in names]
    asked = 0
    while positions:  # the rulesets interleaved, the memo kept from position to position
        for gen in list(positions):
            state = next(gen, None)
            if state is None:
                positions.remove(gen)
                continue
            info = rules_info(state.rules)
            kept = dict(outbid._LATER)
            outbid._LATER.clear()
            fresh = outbid.later_opponents(state, info)
            outbid._LATER.clear()
            outbid._LATER.update(kept)
            assert outbid.later_opponents(state, info) == fresh
            assert outbid.later_opponents(state, info) == fresh  # now from the memo
            asked += 1
    assert asked > 40


def _suit_options_reference(info, ti, i, slot, cards, allowed, most):
    """The per-suit options as first written: masks and heights taken away card by card."""
    rank, bit, size = ti.rank, ti.bit, ti.size[i]
    full = height = 0
    for c in cards:
        full |= bit[c]
        height += size - rank[c]
    tops = [c for c in cards if rank[c] < _EXACT_TOP and c in allowed]
    smalls = sorted((c for c in cards if rank[c] >= _EXACT_TOP and c in allowed), key=lambda c: -rank[c])
    best = {}
    for nt in range(min(len(tops), most) + 1):
        for away_top in combinations(tops, nt):
            mask, kept = full, height
            for c in away_top:
                mask &= ~bit[c]
                kept -= size - rank[c]
            for ns in range(min(len(smalls), most - nt) + 1):
                if ns:
                    mask &= ~bit[smalls[ns - 1]]
                    kept -= size - rank[smalls[ns - 1]]
                v = _holding_value(info, ti, i, slot, mask) + _TIE * kept
                old = best.get(nt + ns)
                if old is None or v > old[0]:
                    best[nt + ns] = (v, away_top + tuple(smalls[:ns]))
    return best


@pytest.mark.parametrize("variant", ["standard", "northeast52", "standard+jokers-and-deuce", "cutthroat"])
def test_discard_suit_options_equal_the_reference(variant):
    rules = load_ruleset(variant)
    info = rules_info(rules)
    rng = random.Random(6)
    for _ in range(40):
        hands, kitty = deal(rules, rng)
        hand = hands[0] + list(kitty)
        for ti in info.table_list:
            slots = info.table_slots[info.table_index[ti.key]][0]
            for i, slot in enumerate(slots):
                cards = [c for c in hand if ti.sidx[c] == i]
                allowed = set(hand) if rng.random() < 0.7 else set(rng.sample(hand, len(hand) // 2))
                most = rng.randint(1, 7)
                assert (_suit_options(info, ti, i, slot, cards, allowed, most)
                        == _suit_options_reference(info, ti, i, slot, cards, allowed, most))


@pytest.mark.parametrize("variant", ["standard", "cutthroat", "two-handed"])
def test_standing_values_read_the_callers_books(variant):
    """_standing's defence of an outbid call (the callers' line, our part per strain worked
    out once) is Outlook.callers_books of our own tricks in the strain, valued by expected."""
    rules = load_ruleset(variant)
    info = rules_info(rules)
    bot = HeuristicBot(None)
    seen = 0
    for state in auction_states(rules, 8, 11):
        info.ensure_util(state)
        npart = len(info.partners[state.seat])
        plain = info.estimate_all(state.hands[state.seat])
        look = bot._outlook(info, npart)

        def defend_at(high, plain=plain, look=look, npart=npart):
            strain = info.bid_strain[high]
            nt = 0 if info.strain_tables[strain][0] else 1
            own = outbid.own_in_strain(info, strain, plain)
            return info.expected(1, high, nt, look.callers_books(high, own, strain, npart))
        assert bot._standing(state, info, plain, npart) == outbid.standing_values(state, info, look, defend_at)
        seen += 1
    assert seen > 8


@pytest.mark.parametrize("variant", ["standard", "northeast52", "cutthroat", "two-handed"])
def test_play_to_end_plays_as_a_loop_of_choose(variant):
    rules = load_ruleset(variant)
    for looped in dealt_hands(rules, 6, 12):
        whole = looped.clone()
        bot = HeuristicBot(None)
        while not looped.is_terminal():
            looped.apply_action(bot.choose(looped))
        HeuristicBot(None).play_to_end(whole)
        assert whole.is_terminal()
        assert (whole.calls, whole.discards, whole.tricks, whole.score, whole.books) == (
            looped.calls, looped.discards, looped.tricks, looped.score, looped.books)


class _LastCard(HeuristicBot):
    """The heuristic, but playing its last legal card wherever it has a choice of cards."""

    def choose(self, state):
        legal = state.legal_actions()
        if state.phase == PLAY and state.table is not None and len(legal) > 1:
            return legal[-1]
        return super().choose(state)


def test_play_to_end_of_a_subclass_asks_its_own_choose():
    rules = load_ruleset("standard")
    dealt, kitty = deal(rules, random.Random(13))
    looped = HandState(rules, 0, dealt, kitty)
    whole = looped.clone()
    bot = _LastCard(None)
    while not looped.is_terminal():
        looped.apply_action(bot.choose(looped))
    _LastCard(None).play_to_end(whole)
    assert (whole.tricks, whole.score) == (looped.tricks, looped.score)



@pytest.mark.parametrize("variant", ["standard", "northeast52", "cutthroat", "two-handed", "standard+jokers-and-deuce"])
def test_estimate_ruffs_memoised_by_shape_are_the_plain_sum(variant):
    """estimate_all's ruffs, memoised per tuple of slot lengths, are what the per-table
    sum over the side suits' shortness adds, and a memo hit gives the same floats as a miss."""
    from runtime.bots.knowledge import _RUFF, _RUFF_KEEP, _SHORTNESS

    info = rules_info(load_ruleset(variant))
    rng = random.Random(4)
    for _ in range(60):
        hand = deal(info.rules, rng)[0][0]
        info.ruffs.clear()
        first = info.estimate_all(hand)  # the ruffs worked out
        assert info.estimate_all(hand) == first  # and read from the memo
        lens = [0] * info.n_slots
        for c in hand:
            for j, _ in info.per_card[c]:
                lens[j] += 1
        expected = []
        for i, t, sides in info.table_ruff:
            spare = lens[t] - _RUFF_KEEP
            if spare > 0:
                n = sum(_SHORTNESS[lens[j]] for j in sides)
                expected.append((i, _RUFF * min(n, spare)))
        assert info.ruffs == {tuple(lens): tuple(expected)}


def test_follow_reads_placement_of_the_suit_led_and_trumps_only():
    """placement gives each suit's chances on their own: asked for fewer suits, the
    suits asked carry the same numbers (follow asks only for the suit led and trumps)."""
    from runtime.bots.infer import placement

    rules = load_ruleset("standard")
    info = rules_info(rules)
    checked = 0
    for state, ti in follow_positions(info, 5):
        void = [0] * rules.players
        void[(state.seat + 1) % rules.players] = 1 << state.led  # one seat shown out of the suit led
        unseen = info.full_mask & ~sum(1 << c for c in state.hands[state.seat])
        full = placement(state, state.seat, void, unseen, 0, ti.suits)
        for suits in ([state.led], [state.led, ti.suits[-1]]):
            part = placement(state, state.seat, void, unseen, 0, suits)
            assert part == [{s: m[s] for s in suits} for m in full]
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("variant", ["standard", "cutthroat", "two-handed"])
def test_expected_keys_read_the_memo_expected_fills(variant):
    """RulesInfo.expected_keys gives the keys under which expected files a value: read
    from the memo they give what expected gives, for the strain's kind of every bid."""
    info = rules_info(load_ruleset(variant))
    info.ensure_util(HandState(info.rules, 0, *deal(info.rules, random.Random(1))))
    rng = random.Random(6)
    memo, keys = info.expected_keys(1)
    kinds = [0 if suits else 1 for suits, _ in info.strain_tables]
    for _ in range(300):
        bid = rng.randrange(info.n_bids)
        books = rng.uniform(0, info.total_books)
        v = info.expected(1, bid, kinds[info.bid_strain[bid]], books)
        assert memo[keys[bid] | int(books * 10 + 0.5)] == v


@pytest.mark.parametrize("variant", ["standard", "standard+kitty-face-up", "cutthroat"])
def test_a_sure_card_risks_nothing_whatever_the_placement(variant):
    """follow skips the placement where cardplay._sure says the card's risk is 0: _risk
    of such a card is exactly 0.0 with the placement it would have read."""
    from runtime.bots.cardplay import _risk, _sure
    from runtime.bots.infer import placement

    rules = load_ruleset(variant)
    info = rules_info(rules)
    sure = 0
    for state, ti in follow_positions(info, 7):
        seat = state.seat
        unseen = info.full_mask & ~sum(1 << c for c in state.hands[seat])
        for c in list(state.trick) + state.legal_actions():
            if ti.suit_of[c] in ti.suits and _sure(ti, unseen, c, state.led):
                later = [o for o in range(rules.players) if o != seat]
                for out_of_led in (None, later[0]):  # no void; an opponent out of the suit led
                    void = [1 << state.led if o == out_of_led else 0 for o in range(rules.players)]
                    miss = placement(state, seat, void, unseen, 0, ti.suits)
                    assert _risk(ti, void, unseen, c, state.led, later, miss) == 0.0
                sure += 1
    assert sure > 20


@pytest.mark.parametrize("variant", ["standard", "rhode-island", "northeast52", "standard+jokers-and-deuce"])
def test_discard_plans_sharing_suit_options_equal_plans_alone(variant):
    """plan_discards' ``options`` memo, shared by one hand's plans under every table (as
    HeuristicBot._discard_plan shares it between the contracts a bid may become), gives
    each table the plan it makes alone; and the memo is keyed on all its options read: each
    entry is the options of its slot, cards and count under every table holding that slot."""
    rules = load_ruleset(variant)
    info = rules_info(rules)
    rng = random.Random(18)
    shared_hits = 0
    for _ in range(25):
        hands, kitty = deal(rules, rng)
        hand = hands[0] + list(kitty)
        legal = hand if rng.random() < 0.7 else rng.sample(hand, len(hand) // 2 + 3)
        allowed = set(legal)
        for lay in (len(kitty) or 2, 1):
            options: dict = {}
            for ti in info.table_list:
                before = len(options)
                assert plan_discards(info, ti, hand, lay, legal, options) == plan_discards(info, ti, hand, lay, legal)
                slots = info.table_slots[info.table_index[ti.key]][0]
                side = sum(1 for i in range(len(slots)) if i != (ti.trump_idx if ti.trump != NO_TRUMP else -1))
                shared_hits += side - (len(options) - before)
            for ti in info.table_list:
                for i, slot in enumerate(info.table_slots[info.table_index[ti.key]][0]):
                    cards = [c for c in hand if ti.sidx[c] == i]
                    got = options.get((slot, tuple(cards), lay))
                    if got is not None:  # the same key under another table: the same options
                        assert got == _suit_options(info, ti, i, slot, cards, allowed, lay)
    assert shared_hits > 0  # the tables share slots: the memo is read, not only filled


def test_shown_cards_read_once_a_seat_stay_the_shown_cards():
    """The cards shown to a seat (a kitty turned face up), read at its first card and kept
    for the hand (Track.seen), are what shown_mask says at each of its later cards; and
    placed_away and threats given them answer as when they read them themselves."""
    rules = load_ruleset("standard+kitty-face-up")
    info = rules_info(rules)
    checked = 0
    for state in dealt_hands(rules, 30, 5):
        bot = HeuristicBot(None)
        while not state.is_terminal():
            seat = state.seat
            action = bot.choose(state)
            if state.phase == PLAY and state.table is not None and bot._track.seen[seat] is not None:
                masks = shown_mask(state, seat)
                assert bot._track.seen[seat][1] == masks
                later = info.later[seat][len(state.trick)]
                partners = info.partners[seat]
                assert placed_away(state, seat, partners, later, masks) == placed_away(state, seat, partners, later)
                if state.trick:
                    ti = info.tables[(state.trump, state.direction)]
                    void = bot._track.void
                    assert (threats(state, seat, later, ti, void, bot._track.played, masks)
                            == threats(state, seat, later, ti, void, bot._track.played))
                checked += bool(masks)
            state.apply_action(action)
    assert checked > 100


# rhode-island with a dealer's take (whose estimate the eighteenth session credits): the same
# declarations, though there the memo is not read: its declarer names trump after taking the kitty.
@pytest.mark.parametrize("spec, memo_read", [("standard+kitty-face-up", True), ("rhode-island+kitty-face-up", False)])
def test_declaring_with_a_kitty_seen_reads_the_auction_estimate(spec, memo_read):
    """_contract_choice reads the declarer's estimate with the face-up kitty from the
    auction's memo (the same hand, kitty and deal): each declaration is the one a fresh
    bot, which works the estimate out again, makes."""
    rules = load_ruleset(spec)
    reads = 0
    for state in dealt_hands(rules, 40, 9):
        bot = HeuristicBot(None)
        while not state.is_terminal():
            if state.phase in (DECLARE_TRUMP, DECLARE_DIRECTION):
                seat = state.declarer if state.declarer >= 0 else state.seat
                reads += (seat, tuple(state.hands[seat]), True) in bot._est and bot._est_dealt is state.dealt
                assert bot.choose(state) == HeuristicBot(None).choose(state)
            state.apply_action(bot.choose(state))
    assert (reads > 10) == memo_read
