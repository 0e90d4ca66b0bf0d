"""The bots: they play every game legally, choose sensibly, respond to scoring, never peek.

* every bot plays every shipped variant, and ``standard`` with house rules, to the end
  of a few hands without an illegal action;
* the heuristic's choices on hand-made deals: a strong notrump hand bids high, a weak
  one passes, it does not overtake a partner who is winning, follows cheaply when it
  cannot win, wins as cheaply as it can, draws trumps when strong, lays away short
  suits, names trump by leading from its long suit, calls a redeal with a hopeless hand
  and takes the contract with a strong one;
* its bidding follows the variant's scoring (a harsher set penalty: fewer bids);
* no bot reads what its seat cannot see: permuting the cards the seat cannot see (in
  ways that keep everything it has seen true) never changes its choice — and a bot
  that does peek is caught by the same check;
* the sampler is deterministic for a seed; the heuristic beats the random bot.
"""

from __future__ import annotations

import math
import random
import re

import pytest

from bidcompiler.pipeline import load_ruleset, shipped_house_rules, shipped_variants
from runtime.bots import BOTS, BaselineBot, HeuristicBot, RandomBot, SamplerBot, make_bot, sample_deal
from runtime.bots import heuristic as heuristic_module
from runtime.bots.knowledge import rules_info as _info
from runtime.game import GameState, deal
from runtime.hand import AUCTION, DISCARD, PLAY, HandState
from runtime.ruleset import NO_SUIT

VARIANTS = sorted(shipped_variants())
HOUSE = ["standard+" + h for h in sorted(shipped_house_rules())]


# ---------------------------------------------------------------------------- helpers
def rules_of(name: str, sets=()):
    return load_ruleset(name, sets=tuple(sets))


def hand_state(rules, dealer: int, fixed: dict[int, str], kitty: str | None = None) -> HandState:
    """A deal with the given hands (card names, space-separated); the rest fill the others."""
    ids = {name: i for i, name in enumerate(rules.cards)}
    hands = {seat: [ids[c] for c in text.split()] for seat, text in fixed.items()}
    kitty_cards = [ids[c] for c in kitty.split()] if kitty else []
    used = {c for h in hands.values() for c in h} | set(kitty_cards)
    rest = [c for c in range(rules.n_cards) if c not in used]
    for seat in range(rules.players):
        if seat not in hands:
            hands[seat], rest = rest[:rules.hand_size], rest[rules.hand_size:]
    if rules.kitty_size and not kitty_cards:
        kitty_cards, rest = rest[:rules.kitty_size], rest[rules.kitty_size:]
    assert not rest, "the hands and kitty must use the whole deck"
    for seat in range(rules.players):
        assert len(hands[seat]) == rules.hand_size, (seat, len(hands[seat]))
    return HandState(rules, dealer, [hands[s] for s in range(rules.players)], kitty_cards)


def act(state: HandState, *names: str) -> HandState:
    """Apply actions by name (``pass``, ``4 notrump``, ``trump H``, ``AS``...)."""
    for name in names:
        state.apply_action(state.rules.action_names.index(name))
    return state


def name_of(state: HandState, action: int) -> str:
    return state.rules.action_names[action]


def heuristic_says(state: HandState) -> tuple[str, str]:
    action, reason = HeuristicBot(random.Random(0)).explain(state)
    assert action == HeuristicBot(random.Random(0)).choose(state)
    return name_of(state, action), reason


def play_hands(rules, bots, hands: int, seed: int) -> list[HandState]:
    """Play ``hands`` hands with ``bots[seat]``, checking every action is legal."""
    rng = random.Random(seed)
    done = []
    for i in range(hands):
        h, kitty = deal(rules, rng)
        state = HandState(rules, i % rules.players, h, kitty)
        steps = 0
        while not state.is_terminal():
            action = bots[state.current_player()].choose(state)
            assert action in state.legal_actions(), (rules.name, name_of(state, action))
            state.apply_action(action)
            steps += 1
            assert steps < 500
        done.append(state)
    return done


# ---------------------------------------------------------------------------- registry
def test_registry_copies_hold_classes_not_their_names():
    """A registry not yet read (a fresh one: BOTS itself keeps what earlier tests loaded) copied
    with dict(), ** or .copy() holds the classes. Was: the class names, as strings."""
    fresh = type(BOTS)(random="RandomBot")
    assert dict(fresh)["random"] is RandomBot and {**fresh}["random"] is RandomBot
    assert fresh.copy() == {"random": RandomBot}


def test_registry_and_interface():
    assert set(BOTS) == {"random", "heuristic", "baseline", "sampler"}
    for name in BOTS:
        bot = make_bot(name, random.Random(1))
        assert bot.name == name and callable(bot.choose)
    with pytest.raises(KeyError):
        make_bot("nobody", random.Random(1))


# ---------------------------------------------------------------------------- legality
@pytest.mark.parametrize("variant", VARIANTS + HOUSE)
def test_every_bot_plays_to_the_end(variant):
    rules = rules_of(variant)
    n = rules.players
    for name, hands in (("random", 3), ("heuristic", 6)):
        states = play_hands(rules, [make_bot(name, random.Random(s)) for s in range(n)], hands, seed=11)
        assert all(s.is_terminal() for s in states)
        if name == "heuristic" and rules.renege == "penalty":
            assert all(not s.reneges for s in states), "the heuristic reneged on purpose"
    # The sampler (cheaply) in half the seats against the heuristic.
    bots = [SamplerBot(random.Random(s), samples=2) if s % 2 == 0 else HeuristicBot(random.Random(s))
            for s in range(n)]
    play_hands(rules, bots, 1, seed=12)


def test_heuristic_never_reneges_where_a_renege_would_stand():
    rules = rules_of("standard+renege-penalty")
    bots = [HeuristicBot(random.Random(s)) for s in range(4)]
    for state in play_hands(rules, bots, 60, seed=3):
        assert state.reneges == []


# ---------------------------------------------------------------------------- estimates
@pytest.mark.parametrize("variant", ["standard", "northeast52", "standard+jokers-and-deuce", "cutthroat"])
def test_fast_estimate_equals_the_reference(variant):
    rules = rules_of(variant)
    info = _info(rules)
    rng = random.Random(2)
    for _ in range(50):
        hands, _ = deal(rules, rng)
        fast = info.estimate_all(hands[0])
        slow = [info.estimate(ti, hands[0]) for ti in info.table_list]
        assert fast == pytest.approx(slow)


# ---------------------------------------------------------------------------- bidding
def test_strong_notrump_hand_bids_high_notrump():
    rules = rules_of("standard")
    state = hand_state(rules, 0, {1: "AS KS QS AH KH QH AD KD QD AC KC QC"})
    call, reason = heuristic_says(state)
    assert call.endswith("notrump"), call
    assert int(call.split()[0]) >= 5, call
    assert "books expected in notrump" in reason and "worth +" in reason


def test_partners_suit_bid_does_not_carry_our_notrump():
    """Partner opened 3 uptown (its strength: trumps and jokers); with two aces and no
    long suit our notrump is no better for it.  The baseline (the heuristic before
    issue 14) counted partner's bid towards notrump too and overcalled 3 notrump."""
    rules = rules_of("standard")
    state = hand_state(rules, 0, {0: "3H 2S TD 6C TS JC QS JH 6H 8H 4D 5H",
                                  1: "JS LJ 7H 2D KS AS TC JD 3C KD 9C 7D",
                                  2: "QH 7C AH KC 2H 6S 3D 5S 2C BJ 9D 8S",
                                  3: "9H 6D AC KH 4H 5D AD 8D 9S QC 4S 5C"}, "QD 7S TH 4C 3S 8C")
    act(state, "3 uptown", "pass")
    call, reason = heuristic_says(state)
    assert call == "pass" and "with partner's contract" in reason, (call, reason)
    assert name_of(state, BaselineBot().choose(state)) == "3 notrump"


def test_partners_contract_is_valued_above_a_coin_flip(monkeypatch):
    """Partner bid 3 downtown only because it expects more books than the bid needs;
    passing it is worth that.  Valued as exactly the books needed (a coin flip on
    making it, as before issue 14) and with the kitty valued as it was then (0.3 books a
    card, 1.8 for six; double dummy measures about 1.0), the bot raised partner to 4
    downtown.  (With the kitty valued as measured, the coin flip alone no longer raises.)"""
    rules = rules_of("standard")
    deal_ = {0: "7H 3C KS 4C 2S 9C 6H KD KC JD QC 4H", 1: "6D 8S 2H 6S 9D AD TC 2C TS 7C BJ 9S",
             2: "5S 4S TD JS 8H 5H JC KH QD 4D 5D 6C", 3: "3S QH 7S 9H JH AS 2D TH LJ 8D 3D 8C"}
    state = act(hand_state(rules, 0, deal_, "AC 3H 5C QS 7D AH"), "3 downtown", "pass")
    call, reason = heuristic_says(state)
    assert call == "pass" and "with partner's contract" in reason, (call, reason)
    monkeypatch.setattr(heuristic_module, "_PARTNER_MARGIN", 0.0)
    monkeypatch.setattr(_info(rules), "kitty_bonus", 0.3 * 6)
    assert name_of(state, HeuristicBot().choose(state)) == "4 downtown"


def test_competes_when_declaring_beats_defending_their_contract():
    """The opponents opened 3 notrump; passing is worth what their notrump contract is
    expected to score by the variant's own scoring (at least the books their bid
    needs), not an average suit contract.  With the big joker, the ace of spades and
    four diamonds (and the kitty to come) the bot overcalls at 4, diamonds trump, and
    makes it.  The baseline (the heuristic before the fix) valued defending as an
    average suit contract and passed.  Uptown or downtown: both make here, and over
    random deals of the other cards they are worth about the same (``bench/fixed_hand.py
    --hand "8D BJ 6C 6S 4D AS 4H 4C 6H 6D 9H 7D" --seat 2 --before "3 notrump" --calls
    "pass,4 uptown,4 downtown"``, 300 deals: +1.14 and +1.65 points over passing)."""
    rules = rules_of("standard")
    deal_ = {0: "JH JC 3H 5C JD 9S 5H KH LJ 2S KC 8H", 1: "2H AH 3S KS AC TH 4S 8C AD KD TD 7S",
             2: "8D BJ 6C 6S 4D AS 4H 4C 6H 6D 9H 7D", 3: "2C 9D TC 5D 7C 7H QC 5S JS QH 3D QS"}
    state = act(hand_state(rules, 0, deal_, "8S 2D 3C TS QD 9C"), "3 notrump")
    assert name_of(state, BaselineBot().choose(state)) == "pass"
    call, reason = heuristic_says(state)
    assert call in ("4 uptown", "4 downtown") and "diamonds trump" in reason, (call, reason)
    bots = [HeuristicBot(random.Random(0)) for _ in range(rules.players)]
    act(state, call)
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].choose(state))
    assert state.declarer == 2 and state.made


def test_weak_hand_passes():
    """Middle cards only (nothing high uptown or downtown): the first caller passes.
    Measured (``bench/fixed_hand.py --hand "6S 7S 8S 6H 7H 8H 6D 7D 8D 6C 7C 8C" --calls
    "pass,3 downtown,3 uptown"``, 300 deals): pass -3.22, 3 downtown -3.50, 3 uptown
    -3.39.  (The low cards of every suit, 2-3-4, are no weak hand: downtown they open
    about as well as they pass, -0.18 +-0.52 points.)"""
    rules = rules_of("standard")
    state = hand_state(rules, 0, {1: "6S 7S 8S 6H 7H 8H 6D 7D 8D 6C 7C 8C"})
    call, reason = heuristic_says(state)
    assert call == "pass", (call, reason)
    assert reason.startswith("pass:")


def test_a_bid_credit_opens_a_hand_the_bot_passes(monkeypatch):
    """``_BID_CREDIT`` (a measuring knob, 0 as shipped) tips a bid that about ties with
    passing: where a made contract scores 1 at any level and a set 2, this hand's 3 and
    its pass are both worth about nothing, and it passes; credited a quarter of a swing,
    it opens."""
    rules = rules_of("hawaii")
    state = hand_state(rules, 0, {1: "2S TS QS KS 3H KH TD KD AD 4C JC KC"})
    call, reason = heuristic_says(state)
    assert call == "pass", (call, reason)
    monkeypatch.setattr(heuristic_module, "_BID_CREDIT", 0.25)
    call, reason = heuristic_says(state)
    assert call == "3" and reason.startswith("bid 3:"), (call, reason)


def test_forced_dealer_bids_its_long_suit():
    rules = rules_of("standard")
    # Long spades without the top: a suit contract (the small side cards make it
    # downtown), and spades are named.
    state = hand_state(rules, 0, {0: "KS QS JS TS 9S 8S 7S 3H 5D 6D 2C 3C"})
    act(state, "pass", "pass", "pass")
    assert rules.pass_action not in state.legal_actions()
    call, reason = heuristic_says(state)
    assert not call.endswith("notrump"), (call, reason)
    assert "(must bid)" in reason
    act(state, call)
    trump, reason = heuristic_says(state)
    assert trump == "trump S", (trump, reason)


def test_bids_follow_the_scoring():
    """A house rule that makes sets cost three times the bid makes the bot bid less."""
    def bid_rate(rules) -> float:
        rng = random.Random(99)
        bids = calls = 0
        bot = HeuristicBot(random.Random(0))
        for i in range(250):
            hands, kitty = deal(rules, rng)
            state = HandState(rules, i % 4, hands, kitty)
            while state.phase == AUCTION:
                legal = state.legal_actions()
                action = bot.choose(state)
                if rules.pass_action in legal:  # a free choice, not a forced dealer
                    calls += 1
                    bids += action != rules.pass_action
                state.apply_action(action)
        return bids / calls

    plain = bid_rate(rules_of("standard"))
    harsh = bid_rate(rules_of("standard", sets=("scoring.declarer=if made then over else -3 * bid",)))
    assert harsh < plain * 0.8, (plain, harsh)


def test_redeal_only_when_hopeless():
    rules = rules_of("northeast52")
    # Middle cards only: low uptown, and below the aces and small cards downtown.
    weak = hand_state(rules, 0, {1: "6S 7S 8S 9S 6H 7H 8H 6D 7D 8D 7C 8C"})
    assert rules.redeal_action in weak.legal_actions()
    call, reason = heuristic_says(weak)
    assert call == "redeal", (call, reason)
    # No face card, but aces and long suits: worth playing.
    fair = hand_state(rules, 0, {1: "AS TS 9S 8S 7S 6S AH TH AD TD AC TC"})
    assert rules.redeal_action in fair.legal_actions()
    call, reason = heuristic_says(fair)
    assert call != "redeal", (call, reason)


def test_dealer_takes_with_a_strong_hand():
    rules = rules_of("northeast52")
    state = hand_state(rules, 0, {0: "AS KS QS JS TS 9S AH KH QH AD KD AC"})
    act(state, "1", "pass", "pass")
    assert rules.take_action in state.legal_actions()
    call, reason = heuristic_says(state)
    assert call != "pass", (call, reason)


# ---------------------------------------------------------------------------- declaring
def test_trump_by_first_lead_from_the_long_suit():
    rules = rules_of("oregon")
    state = hand_state(rules, 0, {1: "AS KS QS JS TS 9S 8S 7S 2H 3H 2D 3D 2C"})
    act(state, "1", "pass", "pass", "pass")
    assert state.phase == PLAY and state.table is None and state.declarer == 1
    action, reason = heuristic_says(state)
    assert action == "AS", (action, reason)
    assert "spades trump" in reason


def test_discards_keep_trumps_and_winners_and_void_short_suits():
    rules = rules_of("standard")
    state = hand_state(rules, 0, {1: "AS KS QS JS TS AH KH 3C 4C 5C 6C 7C"}, kitty="9S 8S 2D 9C BJ LJ")
    act(state, "4 uptown", "pass", "pass", "pass")
    assert state.declarer == 1
    act(state, "trump S")
    assert state.phase == DISCARD
    bot = HeuristicBot(random.Random(0))
    laid = []
    while state.phase == DISCARD:
        action = bot.choose(state)
        laid.append(name_of(state, action))
        state.apply_action(action)
    assert "2D" in laid
    assert not {"AS", "KS", "QS", "JS", "TS", "9S", "8S", "BJ", "LJ", "AH", "KH"} & set(laid), laid
    assert sum(c.endswith("C") for c in laid) >= 4, laid


def test_kitty_first_declares_what_it_kept():
    rules = rules_of("standard+kitty-first")
    state = hand_state(rules, 0, {1: "AH KH QH JH TH 9H AS 3C 4C 5C 6C 7C"}, kitty="8H 7H 2D 9C BJ LJ")
    act(state, "4 uptown", "pass", "pass", "pass")
    bot = HeuristicBot(random.Random(0))
    while state.phase == DISCARD:
        state.apply_action(bot.choose(state))
    trump, _ = heuristic_says(state)
    assert trump == "trump H"


# ---------------------------------------------------------------------------- play
def _no_kitty_deal():
    """13 cards each: seat 0 declares hearts and leads; 2 is its partner."""
    rules = rules_of("standard+no-kitty")
    state = hand_state(rules, 3, {
        0: "AS 2S 3S AH KH QH JH TH AD KD AC KC QC",
        1: "4S 6S 7S 8S 2H 3H 4H 2D 3D 4D 2C 3C 4C",
        2: "KS 5S 5H 6H 7H 5D 6D 7D 8D 5C 6C 7C 8C",
        3: "QS JS TS 9S 8H 9H 9D TD JD QD 9C TC JC",
    })
    return act(state, "1 uptown", "pass", "pass", "pass", "trump H")


def test_draws_trumps_when_strong():
    state = _no_kitty_deal()
    assert state.phase == PLAY and state.seat == 0
    card, reason = heuristic_says(state)
    assert card == "AH", (card, reason)
    assert "trump" in reason


def test_does_not_overtake_a_winning_partner():
    # Partner (seat 0) leads the QS; seat 2 holds the two spades above it, so the QS
    # is the best left: seat 2 plays low instead of overtaking.
    rules = rules_of("standard+no-kitty")
    state = hand_state(rules, 3, {
        0: "QS 2S 3S AH KH QH JH TH AD KD AC KC QC",
        1: "4S 6S 7S 8S 2H 3H 4H 2D 3D 4D 2C 3C 4C",
        2: "AS KS 5S 5H 6H 7H 5D 6D 7D 5C 6C 7C 8C",
    })
    act(state, "1 uptown", "pass", "pass", "pass", "trump H", "QS", "4S")
    card, reason = heuristic_says(state)
    assert card == "5S", (card, reason)
    assert reason == "play 5S: partner's QS is winning; no need to overtake"


def test_follows_cheaply_when_it_cannot_win():
    state = act(_no_kitty_deal(), "AS", "4S", "5S")
    card, reason = heuristic_says(state)
    assert card == "9S", (card, reason)
    assert "cannot win" in reason


def test_wins_as_cheaply_as_it_can():
    state = act(_no_kitty_deal(), "2S", "4S", "5S")
    card, reason = heuristic_says(state)
    assert card == "9S", (card, reason)
    assert reason == "play 9S: cheapest card that beats the 5S on the table"


def test_ruffs_and_discards_from_weakness():
    # Seat 1 (opponent) is out of spades after it is led: seat 1's hand has no spades.
    rules = rules_of("standard+no-kitty")
    state = hand_state(rules, 3, {
        0: "AS 2S 3S AH KH QH JH TH AD KD AC KC QC",
        1: "2H 3H 4H 2D 3D 4D 5D 2C 3C 4C 5C 6C 7C",
        2: "KS 5S 4S 6S 5H 6H 7H 6D 7D 8D 8C 9C TC",
    })
    act(state, "1 uptown", "pass", "pass", "pass", "trump H", "2S")
    card, reason = heuristic_says(state)
    assert card == "2H", (card, reason)  # the cheapest trump beats the 2S
    assert "ruff" in reason


def test_explain_gives_the_action_choose_takes():
    for state in decision_points(["standard", "northeast52", "oregon", "cutthroat", "standard+kitty-first"],
                                 2, seed=31):
        action, reason = HeuristicBot(random.Random(0)).explain(state)
        assert action == HeuristicBot(random.Random(0)).choose(state)
        assert isinstance(reason, str) and reason and "\n" not in reason
        words = state.rules.action_names[action]
        assert words in reason or (words.startswith("direction ") and words[10:] in reason), (words, reason)


# ---------------------------------------------------------------------------- no peeking
def _unseen(state: HandState, seat: int) -> set[int]:
    """Cards whose place ``seat`` does not know (by the observation's rules)."""
    rules = state.rules
    seen = set(state.hands[seat]) | set(state.trick) | set(state.out)
    for _, cards, _ in state.tricks:
        seen.update(cards)
    if state.kitty_seen:
        seen.update(state.kitty)
    if seat == state.declarer:
        seen.update(state.discards)
        seen.update(state.kitty)  # it took the kitty (or will, knowing nothing more)
    return {c for c in range(rules.n_cards) if c not in seen}


def _voids(state: HandState) -> list[set[int]]:
    """The suits each seat has shown out of in the play (under the contract)."""
    voids = [set() for _ in range(state.rules.players)]
    if state.table is None:
        return voids
    suit_of = state.table.suit_of
    for leader, cards, _ in list(state.tricks) + [(state.leader, tuple(state.trick), None)]:
        led = NO_SUIT
        for i, c in enumerate(cards):
            s = suit_of[c]
            if led == NO_SUIT:
                led = s
            elif s != led:
                voids[(leader + i) % state.rules.players].add(led)
    return voids


def permuted(state: HandState, seat: int, rng: random.Random) -> HandState | None:
    """A copy in which the cards ``seat`` cannot see are shuffled among their places.

    Only cards of one suit (under the contract; the natural suit before one) are
    exchanged, and never into a hand that has shown out of that suit, so everything the
    seat has seen stays true.  The permutation is applied to every place a card can be
    (hands, kitty, discards, the record of the deal).  None when nothing can move.
    """
    rules = state.rules
    unseen = sorted(_unseen(state, seat))
    suit_of = state.table.suit_of if state.table is not None else rules.card_suit
    where = {}
    for s, hand in enumerate(state.hands):
        for c in hand:
            where[c] = s
    voids = _voids(state)
    # Kitty cards the seat saw stay where they are (it knows they are the declarer's).
    groups: dict[int, list[int]] = {}
    for c in unseen:
        groups.setdefault(suit_of[c], []).append(c)
    mapping = {}
    for cards in groups.values():
        if len(cards) < 2:
            continue
        for _ in range(20):
            order = cards[:]
            rng.shuffle(order)
            ok = all(where.get(b, -1) < 0 or suit_of[a] not in voids[where[b]] for a, b in zip(cards, order))
            if ok:
                mapping.update(zip(cards, order))
                break
    if not any(a != b for a, b in mapping.items()):
        return None
    sigma = lambda c: mapping.get(c, c)  # noqa: E731
    other = state.clone()
    other.hands = [sorted(sigma(c) for c in h) if s != seat else list(h) for s, h in enumerate(state.hands)]
    other.kitty = [sigma(c) for c in state.kitty]
    other.discards = [sigma(c) for c in state.discards]
    other.dealt = tuple(tuple(sigma(c) for c in h) for h in state.dealt)
    return other


def decision_points(variants, hands: int, seed: int):
    """States at every decision of a few heuristic hands, with the seat to move."""
    for variant in variants:
        rules = rules_of(variant)
        rng = random.Random(seed)
        bot = HeuristicBot(random.Random(0))
        for i in range(hands):
            h, kitty = deal(rules, rng)
            state = HandState(rules, i % rules.players, h, kitty)
            while not state.is_terminal():
                yield state.clone()
                state.apply_action(bot.choose(state))


def peeks(make, points, tries: int = 2) -> int:
    """How many decision points change their choice when the unseen cards are permuted."""
    rng = random.Random(5)
    changed = 0
    for state in points:
        seat = state.current_player()
        base = make().choose(state.clone())
        for _ in range(tries):
            other = permuted(state, seat, rng)
            if other is not None and make().choose(other) != base:
                changed += 1
                break
    return changed


PEEK_VARIANTS = ["standard", "northeast52", "oregon", "cutthroat", "standard+sport-kitty",
                 "standard+kitty-face-up", "standard+jokers-out-in-notrump", "standard+kitty-first"]


def test_heuristic_does_not_peek():
    points = list(decision_points(PEEK_VARIANTS, 3, seed=21))
    assert len(points) > 1000
    assert peeks(lambda: HeuristicBot(random.Random(0)), points) == 0


def test_sampler_does_not_peek():
    points = [p for p in decision_points(["standard", "standard+kitty-face-up", "northeast52"], 1, seed=22)
              if p.phase in (PLAY, DISCARD)][::3]
    assert len(points) > 15
    assert peeks(lambda: SamplerBot(random.Random(3), samples=3), points, tries=1) == 0


class _Peeker(HeuristicBot):
    """A cheat: when the next seat holds a higher card of the suit, it plays its lowest."""

    def choose(self, state):
        legal = state.legal_actions()
        if state.phase == PLAY and state.table is not None and len(legal) > 1:
            nxt = state.hands[(state.seat + 1) % state.rules.players]
            power = state.table.power
            if max(power[c] for c in nxt) > max(power[c] for c in legal):
                return min(legal, key=lambda c: power[c])
        return super().choose(state)


def test_the_peeking_check_catches_a_cheat():
    points = list(decision_points(["standard"], 3, seed=23))
    assert peeks(lambda: _Peeker(random.Random(0)), points) > 0


def test_sampled_deals_keep_what_the_seat_knows():
    rng = random.Random(8)
    for state in decision_points(["standard", "standard+sport-kitty", "cutthroat", "northeast52"], 3, seed=24):
        if state.phase != PLAY or state.table is None:
            continue
        seat = state.seat
        world = sample_deal(state, seat, rng)
        assert world.hands[seat] == state.hands[seat]
        assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
        voids = _voids(state)
        for o, hand in enumerate(world.hands):
            if o != seat:
                assert not {state.table.suit_of[c] for c in hand} & voids[o]
        if state.kitty_seen and seat != state.declarer:
            for c in state.kitty:
                assert all(c not in world.hands[o] for o in range(state.rules.players)
                           if o not in (seat, state.declarer))


# ---------------------------------------------------------------------------- sampler
def test_sampler_is_deterministic_for_a_seed():
    rules = rules_of("standard")

    def run():
        bots = [SamplerBot(random.Random(40 + s), samples=3) for s in range(4)]
        state = play_hands(rules, bots, 1, seed=41)[0]
        return state.tricks, state.discards, state.score

    assert run() == run()


def test_sampler_explains_its_calls_and_play():
    rules = rules_of("standard")
    state = hand_state(rules, 0, {1: "7S 8S 9S 6H 8H 9H 7D 8D 9D 7C 8C 6C"})
    # Bidding by playouts (off by default) explains its call by the sampled deals.  Which
    # call wins on so few deals is noise (this hand with no honour sometimes opens 3: the
    # opponents then outbid it in the playouts), so only the explanation is asserted here;
    # tests/test_sampler_bot.py checks its calls on hands far from the line.
    action, reason = SamplerBot(random.Random(1), samples=2, bidding=True).explain(state)
    assert action in state.legal_actions() and "sampled deals" in reason
    action, reason = SamplerBot(random.Random(1), samples=2).explain(state)
    assert name_of(state, action) == "pass" and reason.endswith("(heuristic)")
    state = _no_kitty_deal()
    action, reason = SamplerBot(random.Random(1), samples=4).explain(state)
    assert action in state.legal_actions() and "sampled deals" in reason


def test_sampler_solver_mode_needs_the_solver():
    try:
        import runtime.solver as solver
    except ImportError:
        with pytest.raises(RuntimeError, match="runtime.solver"):
            SamplerBot(random.Random(1), playout="solver")
        return
    assert callable(solver.solve_actions)
    # Late in a hand, where double-dummy solving is quick.
    state = _no_kitty_deal()
    heuristic = HeuristicBot(random.Random(0))
    while not state.is_terminal() and (len(state.tricks) < 8 or len(state.legal_actions()) < 2):
        state.apply_action(heuristic.choose(state))
    assert not state.is_terminal()
    bot = SamplerBot(random.Random(1), samples=2, playout="solver")
    action, reason = bot.explain(state)
    assert action in state.legal_actions() and "sampled deals" in reason


def test_sampler_refuses_an_unknown_playout():
    with pytest.raises(ValueError):
        SamplerBot(random.Random(1), playout="oracle")


# ---------------------------------------------------------------------------- strength
def test_heuristic_beats_random():
    """~100 games of the standard game, sides alternating: a clear, safe margin."""
    rules = rules_of("standard")
    games = 100
    wins = 0
    diffs = []
    for g in range(games):
        a_side = g % 2
        game = GameState(rules, 500 + g)
        bots = [(HeuristicBot if rules.side_of[s] == a_side else RandomBot)(random.Random(g * 4 + s))
                for s in range(4)]
        while not game.is_terminal():
            game.apply_action(bots[game.current_player()].choose(game.hand))
        wins += game.winner == a_side
        diffs += [h.score[a_side] - h.score[1 - a_side] for h in game.history]
    # Wilson lower bound of the win rate, and the points-per-hand interval, well clear.
    z = 3.29  # 99.9%
    p = wins / games
    lower = (p + z * z / (2 * games) - z * math.sqrt(p * (1 - p) / games + z * z / (4 * games ** 2))) / (
        1 + z * z / games)
    assert lower > 0.75, (wins, games)
    mean = sum(diffs) / len(diffs)
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1))
    assert mean - z * sd / math.sqrt(len(diffs)) > 2.0, (mean, sd, len(diffs))


# ---------------------------------------------------------------------------- audit regressions
def test_a_dealer_forced_to_bid_the_lowest_bids_it():
    # Oregon: after three passes the dealer must bid exactly the lowest bid, even with
    # a hand worth far more (the legal bids are not a run up the ladder).
    rules = rules_of("oregon")
    state = hand_state(rules, 3, {3: "AS KS QS JS TS 9S 8S AH KH QH AD KD AC"})
    act(state, "pass", "pass", "pass")
    legal = state.legal_actions()
    for bot in (HeuristicBot(random.Random(0)), SamplerBot(random.Random(0))):
        assert bot.choose(state) in legal


def test_the_last_call_of_the_auction_is_not_raised_to_shut_others_out():
    # Hawaii's dealer must bid when the others passed, and nobody calls after it: with
    # nothing to pre-empt, it bids what its hand is worth, not the top of the ladder.
    rules = rules_of("hawaii")
    forced = 0
    for i in range(400):
        from runtime.simulate import play_hand
        state = play_hand(rules, 3, i, "heuristic")
        calls = [a for _, a in state.calls]
        if state.declarer == state.dealer and all(a == rules.pass_action for a in calls[:-1]):
            forced += 1
            assert rules.bids[state.bid].level < 7 or state.made, (i, rules.action_names[calls[-1]])
    assert forced > 5


def test_discards_are_planned_for_the_position_they_are_made_in():
    # One bot asked about positions of the same deal in any order (as the sampler's
    # playouts do) discards as a fresh bot would at the first discard of each.
    rules = rules_of("standard")
    base = hand_state(rules, 3, {0: "3S 9S QS AS 2H 6H 8H QH 2D 4D 5D 7D"})
    act(base, "4 notrump", "pass", "pass", "pass")
    while base.phase != DISCARD:
        base.apply_action(HeuristicBot(random.Random(0)).choose(base))
    first = HeuristicBot(random.Random(0)).choose(base)
    later = base.clone()
    later.apply_action(first)
    reused = HeuristicBot(random.Random(0))
    reused.choose(later)  # planned from one discard in
    # Back to the position before it, then down another path: the plan must not be reused.
    assert reused.choose(base) == first
    other = base.clone()
    other.apply_action(next(a for a in base.legal_actions() if a != first))
    assert reused.choose(other) == HeuristicBot(random.Random(0)).choose(other)


def test_the_declarer_does_not_count_swapped_discards_as_gone():
    # Jokers out in notrump: a defender holding a joker swaps it for a random discard,
    # so the declarer cannot count its discards as out of play.
    rules = rules_of("standard+jokers-out-in-notrump")
    ids = {n: i for i, n in enumerate(rules.cards)}
    decl = "KH QH JH TH 9H KS QS JS KD QD KC QC".split()
    kitty = "AH 2S 3S 2D 3D 2C".split()
    rest = [c for c in rules.cards if c not in decl + kitty + ["BJ", "LJ"]]
    hands = [decl, ["BJ"] + rest[:11], rest[11:23], ["LJ"] + rest[23:34]]
    state = HandState(rules, 3, [[ids[c] for c in h] for h in hands], [ids[c] for c in kitty])
    act(state, "4 notrump", "pass", "pass", "pass", "direction uptown", *kitty)
    assert HeuristicBot._discards_drawn(state)
    action, reason = HeuristicBot(random.Random(0)).explain(state)
    assert not (name_of(state, action) == "KH" and "sure winner" in reason), reason


def test_declaring_counts_a_kitty_that_lies_face_up():
    # The top spades lie face up in the kitty the declarer is about to take: spades, not
    # the longer hearts of the hand alone.
    rules = rules_of("standard+no-jokers+kitty-face-up")
    state = hand_state(rules, 3, {0: "TS 9S 8S AH 7H 6H 5H 4H AD KD AC KC"}, kitty="AS KS QS JS")
    act(state, "4 uptown", "pass", "pass", "pass")
    trump, reason = heuristic_says(state)
    assert trump == "trump S", reason


# ---------------------------------------------------------------------------- auction model
def _ready_info(name: str):
    """The bot's rule knowledge of ``name`` with its score tables built (as a first call does)."""
    rules = rules_of(name)
    info = _info(rules)
    HeuristicBot(random.Random(0)).choose(hand_state(rules, 0, {}))
    return info


def test_bid_margin_is_in_the_variants_own_points():
    """The margin a bid must beat passing by is a share of the swing between making the
    lowest contract and going down one: standard scores 3 / -3, hawaii 1 / -2."""
    from runtime.bots.outbid import bid_margin
    share = bid_margin(_ready_info("standard")) / 6
    assert share > 0
    assert bid_margin(_ready_info("hawaii")) == pytest.approx(share * 3)


def test_outlook_is_the_same_for_a_ruleset_every_time():
    """The opponents' strength is read from a fixed, seeded set of hands: building it
    again gives the same chances, and the bot's cache returns one Outlook per ruleset."""
    from runtime.bots.outbid import Outlook, outlook
    info = _ready_info("standard")
    cached = outlook(info, None, None)
    assert outlook(info, None, None) is cached
    bot = HeuristicBot(random.Random(0))
    again = Outlook(info, lambda b, hand, look: bot._defend_value(info, b, hand, 1, look=look),
                    lambda hand: bot._declare_values(info, hand, 1))
    assert again.p_over == cached.p_over and again.p_take == cached.p_take
    assert again.over_to == cached.over_to and again.forced == cached.forced
    assert again.cond == cached.cond
    # Higher bids are outbid less often (what the pre-empt is worth comes from this).
    assert cached.p_over[0] > cached.p_over[info.n_bids - 1]


def test_first_caller_does_not_open_a_sacrifice():
    """Nothing bid, the first caller's best contract (3 downtown, about 7.5 books where it
    needs 9) is expected to go down and to lose points; it was bid only because the
    opponents' dealer, forced to bid if all pass, scores more on average.  It is a
    sacrifice that saves less than it loses (outbid.worth_bidding, is_saving_sacrifice):
    the bot passes.  Measured (``bench/fixed_hand.py --hand "6S 3H 9H TH AH 4D 9D TD KD
    4C 9C TC" --seat 1 --dealer 0 --calls "pass,3 downtown"``, 300 deals): opening is
    -0.09 points (+-0.52) against passing, and makes 55% of its contracts where
    passing leaves our side contracts that make 81%."""
    rules = rules_of("standard")
    state = hand_state(rules, 0, {1: "6S 3H 9H TH AH 4D 9D TD KD 4C 9C TC"})
    call, reason = heuristic_says(state)
    assert call == "pass" and "sacrifice" in reason, (call, reason)


def test_a_sacrifice_is_a_bid_expected_both_to_fail_and_to_lose():
    """worth_bidding keeps a bid more likely made than not, or worth something on
    average; is_saving_sacrifice lets a sacrifice through only where it saves more than
    it loses."""
    from runtime.bots.outbid import is_saving_sacrifice, worth_bidding
    values = [1.0, -0.5, -2.0, 0.0]
    made = [0.7, 0.6, 0.3, 0.2]
    assert worth_bidding(values, made, range(4)) == {0, 1, 3}
    assert worth_bidding(values, made, (2, 3)) == {3}
    assert is_saving_sacrifice(-1.0, -4.0) and not is_saving_sacrifice(-2.5, -4.0)
    assert not is_saving_sacrifice(-1.0, 0.5)


def test_weak_hand_does_not_overcall_into_a_set():
    """Opponents opened 3 uptown; with middle cards only (no ace, no joker, no long suit,
    nothing high uptown or downtown), bidding higher to keep the contract from them
    would go down: the bot defends.  Measured (``bench/fixed_hand.py --hand "6S 7S 8S 9S
    6H 7H 8H 6D 7D 8D 7C 8C" --seat 2 --before "3 uptown" --calls "pass,4 uptown,3
    notrump"``, 300 deals): pass -2.24, 4 uptown -2.68 (made 18%), 3 notrump -3.33."""
    rules = rules_of("standard")
    state = act(hand_state(rules, 0, {2: "6S 7S 8S 9S 6H 7H 8H 6D 7D 8D 7C 8C"}), "3 uptown")
    call, reason = heuristic_says(state)
    assert call == "pass" and "defending the opponents' contract" in reason, (call, reason)


def test_low_cards_overcall_an_uptown_opening_downtown():
    """The low cards of every suit (2-3-4, aces good downtown) are weak uptown but strong
    downtown: over the opponents' 3 uptown the bot's best bid is downtown or notrump, not
    uptown.  By its own estimate that bid is a sacrifice (expected to go down and to
    lose points) that saves less than it loses, so it defends (outbid.worth_bidding,
    is_saving_sacrifice: 3 notrump -2.5 against -4.9 for defending).  That is the price of
    bidding only makeable contracts: measured (``bench/fixed_hand.py --hand "2S 3S 4S 5H
    6H 7H 2D 3D 4D 2C 3C 4C" --seat 2 --before "3 uptown" --calls "pass,3 notrump,4
    downtown"``, 300 deals, before the rule) 3 notrump was +2.60 points (+-0.77) over
    passing here, 4 downtown +0.94 (+-0.61)."""
    rules = rules_of("standard")
    state = act(hand_state(rules, 0, {2: "2S 3S 4S 5H 6H 7H 2D 3D 4D 2C 3C 4C"}), "3 uptown")
    call, reason = heuristic_says(state)
    assert call == "pass" and "sacrifice" in reason, (call, reason)
    assert "3 notrump is worth" in reason or "4 downtown is worth" in reason, reason


def test_dealer_who_may_take_takes_with_a_strong_hand_and_not_with_a_weak_one():
    """northeast52 lets the dealer take the high bid by matching it: with six spades to
    the ace and the other aces it takes (or outbids); with middle cards it neither takes
    nor bids (it passes, or calls the redeal the variant offers a hopeless hand)."""
    rules = rules_of("northeast52")
    strong = act(hand_state(rules, 0, {0: "AS KS QS JS TS 9S AH KH QH AD KD AC"}), "1", "pass", "pass")
    call, reason = heuristic_says(strong)
    assert call != "pass", (call, reason)
    weak = act(hand_state(rules, 0, {0: "6S 7S 8S 9S 6H 7H 8H 6D 7D 8D 7C 8C"}), "1", "pass", "pass")
    assert rules.take_action in weak.legal_actions()
    call, reason = heuristic_says(weak)
    assert call in ("pass", "redeal"), (call, reason)


def test_trump_length_is_valued_as_fitted():
    """Five trumps with two aces (``AS QS 9S 7S 5S AH ...``): with spades trump the hand is
    worth about as much as in notrump (3.27 against 3.48; it was 2.78 before the trump
    credit was fitted to books taken), and a sixth trump in place of a small side card adds about
    the fitted worth of a trump (1.26 a trump beyond the expected split, 1.7 side tricks)."""
    rules = rules_of("standard")
    info = _info(rules)
    ids = {name: i for i, name in enumerate(rules.cards)}
    five = [ids[c] for c in "AS QS 9S 7S 5S AH 8H 4H 6D 3D 7C 4C".split()]
    six = [ids[c] for c in "AS QS 9S 7S 5S 4S AH 8H 4H 6D 3D 7C".split()]
    spades_up = info.table_index[(rules.suit_names.index("spades"), 0)]
    notrump = info.table_index[(-1, 0)]
    est5, est6 = info.estimate_all(five), info.estimate_all(six)
    assert est5[spades_up] > est5[notrump] - 0.3, (est5[spades_up], est5[notrump])
    assert est5[spades_up] >= 3.2
    assert est6[spades_up] - est5[spades_up] >= 1.2


def test_estimates_scale_with_the_cards_in_play():
    """Where a deal sets cards aside (two-handed: 24 of 54), fewer higher cards are out: an
    average hand's best estimate is above its even share of the tricks there too (it was
    3.98 against an even share of 6, the same as in standard, as if every card were dealt)."""
    for name in ("standard", "two-handed"):
        rules = rules_of(name)
        info = _info(rules)
        rng = random.Random(3)
        best = [max(info.estimate_all(deal(rules, rng)[0][0])) for _ in range(400)]
        assert sum(best) / len(best) > info.even_hand + 0.5, (name, sum(best) / len(best))
    assert _info(rules_of("two-handed")).inplay < 0.5 < _info(rules_of("standard")).inplay == 1.0


def test_strong_hand_opens_under_min_bid_4():
    """Under ``min-bid-4`` a hand that makes 4 most of the time opens it rather than
    leave the hand to a forced dealer.  Measured (``bench/fixed_hand.py --variant
    standard+min-bid-4 --hand "AS KS QS 9S 7S 5S AH 8H 4H 6D 3D 7C" --calls "pass,4
    uptown"``, 300 deals): 4 uptown +3.10 points (+-0.61) over passing, made 73%."""
    rules = rules_of("standard+min-bid-4")
    state = hand_state(rules, 0, {1: "AS KS QS 9S 7S 5S AH 8H 4H 6D 3D 7C"})
    call, reason = heuristic_says(state)
    assert call == "4 uptown" and "spades trump" in reason, (call, reason)


def test_opening_credit_is_measured_by_playing_forced_dealers():
    """The auction model plays hands out with a forced dealer (heuristic.forced_worth):
    in the base game forced dealers take more books than the declaring estimate says
    and score for their side, so an opener is credited with a share of the shortfall;
    where every seat may pass and the hand is thrown in (northeast52) nothing is forced
    and nothing is measured.  The measurement is seeded: the same every time."""
    from runtime.bots.heuristic import forced_worth
    from runtime.bots.outbid import _BIAS_SHARE, outlook
    info = _ready_info("standard")
    look = outlook(info, None, None)
    worth, short = forced_worth(info)
    assert (worth, short) == forced_worth(info)
    assert look.forced_played == worth and worth > 0
    assert short[0] > 0 and look.bias == pytest.approx((_BIAS_SHARE * short[0], _BIAS_SHARE * short[1]))
    assert forced_worth(_ready_info("northeast52")) is None


def test_our_forced_dealer_is_valued_as_openings_are(monkeypatch):
    """A seat whose partner deals, nothing bid: passing leaves the partner forced to bid
    if the later seats pass, and that contract is valued as the seat's own openings are
    (the declaring estimate, Outlook.forced), not by forced hands played out, which hold
    the estimate's whole shortfall where an opening is credited with half.  In the base
    game the estimate is the lower: passing is worth less than with the measured worth."""
    info = _ready_info("standard")
    rules = info.rules
    state = hand_state(rules, 0, {})
    state.apply_action(rules.pass_action)  # the first caller passes: the dealer's partner to call
    assert state.seat in info.partners[state.dealer]
    bot = HeuristicBot(random.Random(0))
    look = bot._outlook(info, 1)
    stands = bot._standing(state, info, bot._estimates(state, state.seat, info)[0], 1)
    p = stands[info.n_bids][0]  # no later opponent opens
    values = {}
    for flag in (True, False):
        monkeypatch.setattr(heuristic_module, "_OUR_FORCED_ESTIMATED", flag)
        values[flag], words = bot._pass_standing(state, info, stands, 0.0, "")
        assert words.startswith("if our dealer is forced to bid"), words
    assert 0 < p < 1 and look.forced < look.forced_played
    assert values[True] - values[False] == pytest.approx(p * (look.forced - look.forced_played))


def test_rhode_island_weak_hands_still_bid():
    """rhode-island pays a made contract its books (7 or more) and a set only the bid
    and the defenders' overtricks: declaring, even going down, beats letting the
    opponents declare.  A hand of middle cards opens, and a dealer with it takes the
    bid rather than defend.  Measured (``bench/fixed_hand.py --variant rhode-island
    --hand "6S 7S 8S 9S 6H 7H 8H 6D 7D 8D 7C 8C"``, 300 deals): opening 4 is +8.98
    points (+-1.04) over passing, 1 +4.24; the dealer's take over 1, 2, 3 (``--seat 0
    --before "1,2,3" --calls "pass,take"``) +11.71 (+-0.99)."""
    rules = rules_of("rhode-island")
    weak = "6S 7S 8S 9S 6H 7H 8H 6D 7D 8D 7C 8C"
    call, reason = heuristic_says(hand_state(rules, 0, {1: weak}))
    assert call != "pass", (call, reason)
    call, reason = heuristic_says(act(hand_state(rules, 0, {0: weak}), "1", "2", "3"))
    assert call == "take", (call, reason)


def test_a_dealer_who_may_take_is_expected_to_take():
    """Where the dealer may take the high bid by matching it, a take costs it no higher
    contract and it calls last: the auction model's share of dealers who would take is
    not scaled down as outbids are (outbid._TAKE_CALIBRATION).  In rhode-island, after
    an opening 3 and a pass, the opener's partner with four aces and three kings bids
    rather than count on its partner's 3 standing (it passed before: the model gave the
    dealer's take 48%, dealers took 80%, and passing there lost 4.46 points a hand
    against bidding 4, bench/decision_points.py, docs/measurements.md, rhode18).  With the
    model's dealers taking as the bots' do (nineteenth session) it bids 5, above a take
    of 4: measured (``bench/fixed_hand.py --variant rhode-island --hand "5S KS AS 4H 7H
    AH 2D 6D KD AD 9C KC" --seat 3 --before "3,pass" --calls "pass,4,5" --deals 600``)
    pass +0.49, 4 +4.04, 5 +4.89 points a hand."""
    rules = rules_of("rhode-island")
    state = act(hand_state(rules, 0, {3: "5S KS AS 4H 7H AH 2D 6D KD AD 9C KC"}), "3", "pass")
    assert state.seat == 3 and rules.take_action in act(hand_state(rules, 0, {}), "3", "pass", "pass").legal_actions()
    call, reason = heuristic_says(state)
    assert call == "5" and "partner's contract" in reason, (call, reason)


def test_a_dealers_take_is_credited_with_the_measured_shortfall():
    """A dealer's take is credited with the whole shortfall of the declaring estimate
    measured on forced dealers (heuristic._TAKE_SHORT_SHARE): in rhode-island, after an
    opening 4 and two passes, a dealer with two aces and two kings takes the 4 (it passed
    before, its take valued at -2.1 against -0.6 for defending; taking measured +6.64
    points a hand over passing in those auctions, bench/decision_points.py)."""
    rules = rules_of("rhode-island")
    state = act(hand_state(rules, 0, {0: "4S QS AS 3H 7H KH 2D 4D 7D AD 3C TC"}), "4", "pass", "pass")
    call, reason = heuristic_says(state)
    assert call == "take" and "defending the opponents' contract" in reason, (call, reason)


def test_the_models_dealers_take_as_the_bots_dealers_do():
    """The auction model's sampled dealers value a take as the bots' dealers value theirs:
    credited with the measured shortfall of the declaring estimate (heuristic._TAKE_SHORT_SHARE).
    In rhode-island the model without the credit gave a dealer's take of an opening 4
    49.75%, where the bots' dealers took 97% (990 of 1,020) after two passes: an opener
    counted on its 4 standing about half the time, and it stood 2% of the time
    (docs/measurements.md, nineteenth session).  Where the engine offers no take, or no
    shortfall is measured, the model is the one built without the credit."""
    from runtime.bots import outbid
    bot = HeuristicBot(random.Random(0))

    def plain_model(info):  # the model as built before: takes valued as bids
        return outbid.Outlook(info, lambda b, hand, look: bot._defend_value(info, b, hand, 1, look=look),
                              lambda hand: bot._declare_values(info, hand, 1))

    info = _ready_info("rhode-island")
    four = [b.text for b in info.rules.bids].index("4")
    look = bot._outlook(info, 1)
    before = plain_model(info)
    assert look.short[0] > 0
    assert before.p_take[four] == pytest.approx(0.4975)
    assert look.p_take[four] > 0.85 > before.p_take[four]
    # The bids that outbid are read as before: only the takes changed.
    assert look.p_over == before.p_over and look.over_to == before.over_to
    for name in ("standard", "northeast52"):  # no take offered; a take, but nothing forced
        info = _ready_info(name)
        look, before = bot._outlook(info, 1), plain_model(info)
        assert look.p_take == before.p_take and look.take_to == before.take_to


def test_an_opener_pre_empts_above_the_dealers_take(monkeypatch):
    """rhode-island: the dealer may take the high bid and takes an opening 4 after two
    passes nearly always, so an opener with a good hand opens 5, which the dealer takes
    about half as often.  This hand opened 4 while the auction model counted on a 4
    standing half the time (its dealers' takes valued without the bots' credit);
    measured (``bench/fixed_hand.py --variant rhode-island --hand "2S 5S 3H 7H QH KH 7C
    8C TC JC QC AC" --calls "4,5" --deals 600``): 5 +4.27 points (+-0.68) over 4."""
    from runtime.bots import heuristic, outbid
    rules = rules_of("rhode-island")
    state = hand_state(rules, 0, {1: "2S 5S 3H 7H QH KH 7C 8C TC JC QC AC"})
    call, reason = heuristic_says(state)
    assert call == "5" and "clubs trump" in reason, (call, reason)
    # The model built again by the rule before, then the models of before put back (the dict
    # itself stays: heuristic holds it by name).
    saved = dict(outbid._OUTLOOKS)
    outbid._OUTLOOKS.clear()
    monkeypatch.setattr(outbid, "_TAKE_MODEL_CREDITED", False)
    monkeypatch.setattr(heuristic, "_TAKE_LIFT", False)  # and the level chosen as before that too
    try:
        assert heuristic_says(state)[0] == "4"
    finally:
        outbid._OUTLOOKS.clear()
        outbid._OUTLOOKS.update(saved)


def test_an_opener_values_its_bid_standing_with_what_the_declining_dealer_leaves(monkeypatch):
    """rhode-island: a bid the dealer declined to take stands with the dealer weak, and its
    side takes more than the plain estimate says (an opening 5 that stood: 1.27 books
    more, 653 hands).  Where a later dealer may take, the level is chosen on the
    opening's credit plus what the declining dealers lack (outbid.standing_lift); chosen
    on the plain estimate this hand opened 4.  Measured (``bench/fixed_hand.py --variant
    rhode-island --hand "4S 6S JS QS KS 2D 5D 6D 2C 3C 7C 9C" --calls "4,5" --deals
    600``): 5 +2.72 points (+-0.60) over 4."""
    from runtime.bots import outbid
    rules = rules_of("rhode-island")
    state = hand_state(rules, 0, {1: "4S 6S JS QS KS 2D 5D 6D 2C 3C 7C 9C"})
    call, reason = heuristic_says(state)
    assert call == "5" and "spades trump" in reason, (call, reason)
    info = _ready_info("rhode-island")
    look = HeuristicBot(random.Random(0))._outlook(info, 1)
    lift = outbid.standing_lift(state, info, look, 1)
    four = [b.text for b in rules.bids].index("4")
    # The dealers who let a 4 stand (few: most take it) lack more than those who let a 5 stand.
    assert lift is not None and lift[four] > lift[four + 1] > 0.0
    monkeypatch.setattr(heuristic_module, "_TAKE_LIFT", False)
    assert heuristic_says(state)[0] == "4"


def test_a_bid_over_one_the_dealer_may_take_is_no_sacrifice_kept_out(monkeypatch):
    """rhode-island: after an opening 4 and a pass, passing hands the 4 to the dealer, who
    takes it (95% of the time there).  The opener's partner's 5 reads as a sacrifice that
    saves less than half of what passing loses, which elsewhere keeps a bid out; over a
    standing bid a later dealer may take it is bid when it beats passing by the margin
    (heuristic._TAKE_OVER_SACRIFICE).  Measured (``bench/fixed_hand.py --variant
    rhode-island --hand "5S 9S QS KS 7H AH 5D 8D JD 4C 5C JC" --seat 3 --before "4,pass"
    --calls "pass,5" --deals 600``): 5 +1.85 points (+-0.66) over pass."""
    rules = rules_of("rhode-island")
    state = act(hand_state(rules, 0, {3: "5S 9S QS KS 7H AH 5D 8D JD 4C 5C JC"}), "4", "pass")
    call, reason = heuristic_says(state)
    assert call == "5" and "for passing (with partner's contract)" in reason, (call, reason)
    monkeypatch.setattr(heuristic_module, "_TAKE_OVER_SACRIFICE", False)
    call, reason = heuristic_says(state)
    assert call == "pass" and "sacrifice" in reason, (call, reason)


def test_the_reason_says_the_lift_where_it_moved_the_call(monkeypatch):
    """The reason gave the plain estimate and a value that held the standing lift (the books
    a dealer who lets the bid stand leaves us, outbid.standing_lift) without saying so: an
    opening 5 read "about 10.2 books ... worth +1.5", which those books do not give.  Where
    the lift moved the call, the reason says the books if no dealer takes the bid and what
    the call was without them; where it moved nothing, the reason is as before."""
    from runtime.bots import outbid
    rules = rules_of("rhode-island")
    state = hand_state(rules, 0, {1: "4S 6S JS QS KS 2D 5D 6D 2C 3C 7C 9C"})
    call, reason = heuristic_says(state)
    said = re.search(r"about ([0-9.]+) books expected with spades trump, ([0-9.]+) if no dealer takes it "
                     r"\(bid 4 without what a dealer who lets it stand leaves us\), worth ", reason)
    assert call == "5" and said, reason
    info = _ready_info("rhode-island")
    lift = outbid.standing_lift(state, info, HeuristicBot(random.Random(0))._outlook(info, 1), 1)
    five = [b.text for b in rules.bids].index("5")
    assert lift is not None and abs(float(said[2]) - float(said[1]) - lift[five]) <= 0.1 + 1e-9
    # A hand whose call the lift does not move (it opens 5 either way): no such words.
    strong = hand_state(rules, 0, {1: "2S 5S 3H 7H QH KH 7C 8C TC JC QC AC"})
    assert heuristic_says(strong)[0] == "5" and "no dealer takes it" not in heuristic_says(strong)[1]
    monkeypatch.setattr(heuristic_module, "_TAKE_LIFT", False)
    assert heuristic_says(strong)[0] == "5"
    # Without the lift the opener's call is 4, and its reason says nothing of one.
    call, reason = heuristic_says(state)
    assert call == "4" and "no dealer takes it" not in reason and "leaves us" not in reason, reason


def test_the_reason_says_the_lift_turned_a_pass_into_a_bid():
    """Over a standing 4 the dealer may take, the partner's 5 is bid only because of the lift
    (_TAKE_OVER_SACRIFICE asks for one): the reason says it would pass without it."""
    rules = rules_of("rhode-island")
    state = act(hand_state(rules, 0, {3: "5S 9S QS KS 7H AH 5D 8D JD 4C 5C JC"}), "4", "pass")
    call, reason = heuristic_says(state)
    assert call == "5", reason
    assert re.search(r"books expected with spades trump, [0-9.]+ if no dealer takes it \(pass without what a "
                     r"dealer who lets it stand leaves us\), worth [-+][0-9.]+ against [-+][0-9.]+ for passing",
                     reason), reason


def test_the_books_if_no_dealer_takes_it_are_those_the_bid_was_valued_with(monkeypatch):
    """Over a partner's standing bid the bid is valued with the lift and the opener's credit
    it carries (lift_bias), which the plain books leave out; the reason said the books and
    the lift alone, 0.8 short of those the bid was valued with (9.5 where 10.3 was)."""
    rules = rules_of("rhode-island")
    state = act(hand_state(rules, 0, {3: "5S 9S QS KS 7H AH 5D 8D JD 4C 5C JC"}), "4", "pass")
    valued = {}
    lifted_row = HeuristicBot._lifted_row

    def spy(info, nt, books, strain, allowed, game, lift):
        valued.update({(nt, b): books + lift[b] for b in allowed})
        return lifted_row(info, nt, books, strain, allowed, game, lift)

    monkeypatch.setattr(HeuristicBot, "_lifted_row", staticmethod(spy))
    call, reason = heuristic_says(state)
    said = re.search(r"with spades trump, ([0-9.]+) if no dealer takes it", reason)
    five = [b.text for b in rules.bids].index("5")
    assert call == "5" and said and (0, five) in valued, (reason, valued)
    assert abs(float(said[1]) - valued[0, five]) <= 0.05 + 1e-9, (reason, valued[0, five])


def test_no_lift_where_no_later_seat_may_take():
    """outbid.standing_lift is None where the rules offer no take (the base game) and where
    the dealer, the one seat that may take, has spoken (its own call in rhode-island)."""
    from runtime.bots import outbid
    for name, dealer in (("standard", 0), ("rhode-island", 1)):
        rules = rules_of(name)
        state = hand_state(rules, dealer, {(dealer + 1) % 4: "4S 6S JS QS KS 2D 5D 6D 2C 3C 7C 9C" + (
            " 8C" if rules.hand_size == 13 else "")})
        info = _ready_info(name)
        look = HeuristicBot(random.Random(0))._outlook(info, 1)
        if name == "rhode-island":
            state = act(state, "4", "pass", "pass")  # the dealer to call: no one after it
        assert outbid.standing_lift(state, info, look, 1) is None

def test_oregon_passes_even_a_strong_hand():
    """oregon scores the defenders their own books and a made contract only its books
    over six: declaring with k books gains 2k - 19, so passing (the opponents' dealer
    may be forced to bid) is worth more for nearly every hand.  Two aces and three
    kings pass.  Measured (``bench/fixed_hand.py --variant oregon --hand "4S AD 7C KD
    3H 2H 6C 9S KS KC 5C 9C AS" --calls "pass,1"``, 300 deals): pass +6.95, 1 -0.82
    (made 89%); 20 of 20 first hands of seed 7 were worth most passed."""
    rules = rules_of("oregon")
    state = hand_state(rules, 0, {1: "4S AD 7C KD 3H 2H 6C 9S KS KC 5C 9C AS"})
    call, reason = heuristic_says(state)
    assert call == "pass", (call, reason)


def test_oregon_dealer_leaves_partners_opening_alone(monkeypatch):
    """In oregon a side bids only with far more than its bid needs (the defenders score
    their books), so a partner's 1 is worth the books the auction model's callers of 1
    take, not the bid's needs and a half book.  Valued at the needs, the dealer outbid
    its partner's 1 with 2 in 57% of the hands the auction reached 'pass / 1 / pass' at,
    and lost 0.74 points a hand (+-0.20) against passing (``bench/open_value.py
    --variant oregon --before pass,1,pass --deals 6000 --calls pass,2,3``, 1,570 such
    hands); this dealer bid 2 ("about 8.8 books expected with clubs trump, worth -2.0")."""
    rules = rules_of("oregon")
    deal_ = {0: "QH 5C 7C 2D AC 6C JD KS 5S 6S KC JS 9H", 1: "KH 9D 6H AH 4D 7H JH 4H 8S 3D 5H QS 2S",
             2: "AD 3H 3C 9S KD JC TD 2C 4C QC 6D 7D 7S", 3: "8D TH 8C AS TC 4S 2H TS 8H 9C 5D 3S QD"}
    state = act(hand_state(rules, 0, deal_), "pass", "1", "pass")
    call, reason = heuristic_says(state)
    assert call == "pass" and "with partner's contract" in reason, (call, reason)
    monkeypatch.setattr(heuristic_module, "_PARTNER_BY_CALLERS", False)
    assert heuristic_says(state)[0] == "2"
