"""The fast paths of random play draw exactly what the slow ones draw.

A seed's hands must not change (records, the behaviour corpus), so
:mod:`runtime.draws` and :meth:`HandState.play_random` are only allowed to be
faster, never different: these tests play the same seeds both ways, in every
shipped variant and the house rules that change how tricks are played, and
compare every field of the finished hands and the generators' next draw.
"""

import random
from pathlib import Path

import pytest

from bidcompiler.pipeline import load_ruleset
from runtime import draws
from runtime.bots import make_bot
from runtime.game import deal
from runtime.hand import HandState
from runtime.simulate import hand_rng, play_hand

VARIANTS = Path(__file__).resolve().parents[1] / "variants"
# Every variant (not house rule), and house rules that change the play: a renege played
# and penalised (the slow path), jokers free or out in notrump, the kitty before declaring.
SPECS = sorted(p.stem for p in VARIANTS.glob("*.yaml") if "\nkind: house" not in p.read_text()) + [
    "standard+renege-penalty", "standard+jokers-free-in-notrump", "standard+jokers-out-in-notrump",
    "standard+kitty-first", "standard+low-beats-high"]


class OtherRandom(random.Random):
    """A generator that draws its own way: the fast paths must leave it to its own methods."""

    def _randbelow(self, n):
        return int(self.random() * n)


def loop_hand(rules, rng) -> HandState:
    """A hand played the slow way: the API loop of bench/throughput.py."""
    dealt, kitty = deal(rules, rng)
    state = HandState(rules, rng.randrange(rules.players), dealt, kitty)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def playout_hand(rules, rng) -> HandState:
    """The same hand played by the fused random playout."""
    dealt, kitty = deal(rules, rng)
    state = HandState(rules, rng.randrange(rules.players), dealt, kitty)
    state.play_random(rng)
    return state


def same_state(a: HandState, b: HandState) -> None:
    for slot in HandState.__slots__:
        if slot not in ("_legal", "_spans"):  # caches of the per-action API, not the hand
            assert getattr(a, slot) == getattr(b, slot), slot


def test_draws_agree_with_random():
    for seed in range(20):
        ours, theirs = random.Random(seed), random.Random(seed)
        for n in (1, 2, 3, 7, 12, 13, 54, 63, 64, 65, 100):
            assert draws.below(ours.getrandbits, n) == theirs.randrange(n)
        for length in (52, 0, 1, 2, 54, 9):  # each length has its own shuffle plan
            a, b = list(range(length)), list(range(length))
            draws.shuffle(ours, a)
            theirs.shuffle(b)
            assert a == b
        assert ours.random() == theirs.random()


def test_draws_are_exact_only_for_a_plain_generator():
    assert draws.exact(random.Random(1))
    assert not draws.exact(OtherRandom(1))
    assert not draws.exact(random.SystemRandom())


def test_a_text_seeder_seeds_as_random_does():
    rng = random.Random(99)
    rng.gauss(0, 1)  # a gauss pair half drawn: seeding forgets it, as Random.seed does
    reseed = draws.text_seeder(rng)
    assert reseed != rng.seed  # the checked path on this interpreter
    for text in ("bidwhist:1:0", "bidwhist:1:19999", "bidwhist:-3:7", "", "\u2660 \u00e9"):
        reseed(text)
        expected = random.Random(text)
        assert rng.getstate() == expected.getstate()
        assert [rng.getrandbits(6) for _ in range(5)] == [expected.getrandbits(6) for _ in range(5)]


def test_a_text_seeder_leaves_other_generators_to_their_own_seed():
    other = OtherRandom(1)
    assert draws.text_seeder(other) == other.seed


def test_deal_shuffles_as_random_does():
    rules = load_ruleset("standard")
    rng = random.Random(5)
    deck = rules.deck()
    random.Random(5).shuffle(deck)
    hands, kitty = deal(rules, rng)
    assert [c for h in hands for c in h] + kitty == deck[:54]


@pytest.mark.parametrize("spec", SPECS)
def test_the_playout_plays_the_loops_hands(spec):
    rules = load_ruleset(spec)
    for seed in range(60):
        slow, fast = random.Random(seed), random.Random(seed)
        a, b = loop_hand(rules, slow), playout_hand(rules, fast)
        same_state(a, b)
        assert a.history == b.history and a.score == b.score
        assert slow.random() == fast.random()  # and both generators drew as much


HOUSE = sorted(p.stem for p in VARIANTS.glob("*.yaml") if "\nkind: house" in p.read_text())
# Every house rule on standard (notrump- and downtown-heavy ones, redeals, duties to bid, kitty
# rules, jokers out or free), and a few on the two-handed and three-handed games.
HOUSE_SPECS = [f"standard+{h}" for h in HOUSE] + [
    "two-handed+plain-notrump", "two-handed+low-beats-high", "cutthroat+jokers-out-in-notrump",
    "cutthroat+kitty-first", "standard+big-joker-notrump+notrump-from-4", "standard+no-kitty+eldest-leads"]


@pytest.mark.parametrize("spec", HOUSE_SPECS)
def test_the_playout_plays_the_loops_hands_under_house_rules(spec):
    """The fused playout (auction, declaration, discards, tricks) against the per-action loop, seed by seed."""
    rules = load_ruleset(spec)
    for seed in range(40):
        slow, fast = random.Random(1000 + seed), random.Random(1000 + seed)
        a, b = loop_hand(rules, slow), playout_hand(rules, fast)
        same_state(a, b)
        assert a.history == b.history and a.score == b.score
        assert slow.random() == fast.random()


def test_the_playout_goes_on_from_any_point():
    """play_random started mid-hand (in the auction, the declaration, the discards, mid-trick) plays
    as the loop would from there; both generators end in the same place."""
    for spec in ("standard", "cutthroat", "two-handed", "standard+jokers-free-in-notrump", "cincinnati"):
        rules = load_ruleset(spec)
        for seed in range(30):
            rng = random.Random(seed)
            dealt, kitty = deal(rules, rng)
            state = HandState(rules, seed % rules.players, dealt, kitty)
            steps = rng.randrange(60)
            while steps and not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
                steps -= 1
            a, b = state.clone(), state.clone()
            slow, fast = random.Random(seed + 7), random.Random(seed + 7)
            while not a.is_terminal():
                a.apply_action(slow.choice(a.legal_actions()))
            b.play_random(fast)
            same_state(a, b)
            assert slow.random() == fast.random()


@pytest.mark.parametrize("spec", ["standard", "cutthroat", "two-handed", "standard+notrump-from-4",
                                  "standard+kitty-first", "oregon"])
def test_simulate_hands_play_as_each_seat_chooses(spec):
    """``simulate --hands`` with random bots (the fused hand) against each seat choosing in turn."""
    rules = load_ruleset(spec)
    for index in range(40):
        fast = play_hand(rules, 3, index, "random")
        rng = hand_rng(3, index)
        dealt, kitty = deal(rules, rng)
        slow = HandState(rules, fast.dealer, dealt, kitty)
        bot = make_bot("random", rng)
        while not slow.is_terminal():
            slow.apply_action(bot.choose(slow))
        same_state(slow, fast)


def test_a_run_s_hands_are_the_hands_played_alone_in_any_order():
    """A run plays its hands with one generator re-seeded per hand: each hand is still the one
    its own fresh generator gives (play_hand in a new player), whatever was played before it."""
    from runtime.simulate import hands_player

    rules = load_ruleset("standard+kitty-first")
    play = hands_player(rules, -4, ("random",))
    for index in (7, 0, 7, 3, 12, 0):
        fast = play(index)
        rng = hand_rng(-4, index)
        dealt, kitty = deal(rules, rng)
        slow = HandState(rules, fast.dealer, dealt, kitty)
        bot = make_bot("random", rng)
        while not slow.is_terminal():
            slow.apply_action(bot.choose(slow))
        same_state(slow, fast)


def test_a_generator_of_its_own_keeps_its_own_draws():
    rules = load_ruleset("standard")
    for seed in range(20):
        a, b = loop_hand(rules, OtherRandom(seed)), playout_hand(rules, OtherRandom(seed))
        same_state(a, b)


def test_simulate_random_bots_play_as_choose_does():
    """``simulate --bots random`` plays a hand at once; each seat choosing in turn gives the same hand."""
    rules = load_ruleset("standard")
    for index in range(30):
        fast = play_hand(rules, 11, index, "random")
        rng = hand_rng(11, index)
        dealt, kitty = deal(rules, rng)
        slow = HandState(rules, fast.dealer, dealt, kitty)
        bot = make_bot("random", rng)
        while not slow.is_terminal():
            slow.apply_action(bot.choose(slow))
        same_state(slow, fast)


@pytest.mark.parametrize("spec", ["standard", "cincinnati", "oregon", "hawaii", "standard+jokers-free-in-notrump"])
def test_led_keys_pick_winning_index_s_winner(spec):
    """The playout's key tables name the same winner as tricks.winning_index, whatever the cards and the suit led."""
    from runtime.ruleset import NO_SUIT
    from runtime.tricks import rules_led_keys, winning_index

    rules = load_ruleset(spec)
    rng = random.Random(3)
    for key, table in rules.tables.items():
        by_led = rules_led_keys(rules)[key]
        for _ in range(400):
            trick = rng.sample(range(len(rules.cards)), rules.players)
            for led in [*range(len(rules.suits)), NO_SUIT]:
                keys = by_led[led]
                best, best_key = 0, -1
                for i, card in enumerate(trick):
                    if keys[card] > best_key:
                        best, best_key = i, keys[card]
                assert best == winning_index(table, led, trick)


@pytest.mark.parametrize("spec,bots", [("standard", ("random",)), ("cutthroat", ("random",)),
                                       ("two-handed", ("random",)), ("oregon", ("random",)),
                                       ("standard", ("heuristic", "random"))])
def test_hands_chunk_counts_outcomes_as_each_hand_would(spec, bots):
    """run_chunk's hands mode folds hands by outcome: the sums and histograms of each hand observed alone."""
    from collections import Counter

    from runtime import metrics
    from runtime.simulate import RunSpec, run_chunk

    rules = load_ruleset(spec)
    count = 200 if bots == ("random",) else 16
    run = RunSpec("hands", count, 5, bots, chunk_size=count)
    result = run_chunk(rules, run, 0)
    contracts = metrics.ladder(rules)
    strains = metrics.strain_ladder(rules)  # the strain figures are folded by outcome too
    moments: dict = {}
    points: Counter = Counter()
    for index in range(count):
        state = play_hand(rules, 5, index, bots)
        obs: dict = {}
        metrics.hands_observation(obs, [state], contracts, strains)
        for key, vector in obs.items():
            metrics.add_moments(moments, key, tuple(vector))
        if state.declarer >= 0:
            points[state.score[rules.side_of[state.declarer]]] += 1
    assert {k: m.sums for k, m in result.moments.items()} == {k: m.sums for k, m in moments.items()}
    assert result.histograms == {"declarer-points": points}
    assert result.hands == (count,) and result.units == count
    assert any(k.startswith("made:") for k in moments) and moments["redeal"].sums[1] == count  # contracts were played


@pytest.mark.parametrize("spec", ["standard", "cutthroat", "two-handed", "oregon", "hawaii", "rhode-island",
                                  "standard+all-pass-redeal", "standard+deuce-of-spades", "standard+first-caller-bids"])
def test_remembered_legal_calls_are_the_rules_calls(spec):
    """AuctionRules.legal_calls (remembered by situation where it may be) lists what the rules work out."""
    from runtime.auction import auction_rules
    from runtime.hand import AUCTION

    rules = load_ruleset(spec)
    auction = auction_rules(rules)
    for seed in range(80):
        rng = random.Random(seed)
        dealt, kitty = deal(rules, rng)
        state = HandState(rules, seed % rules.players, dealt, kitty)
        while state.phase == AUCTION:
            legal = auction.legal_calls(state)
            assert legal == auction._legal_calls(state)
            legal.append(-1)  # the caller's own list: changing it changes nothing remembered
            assert auction.legal_calls(state) == auction._legal_calls(state)
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("spec", ["standard", "cutthroat", "two-handed", "oregon", "standard+renege-penalty",
                                  "standard+defenders-score", "standard+boston-x4"])
def test_remembered_scores_are_the_formulas_scores(spec):
    """score_hand remembers scores without reneges: the same as the formulas give, every time."""
    from runtime.contract import make_contract
    from runtime.ruleset import NO_TRUMP
    from runtime.scoring import _score, penalised_books, score_hand

    rules = load_ruleset(spec)
    rng = random.Random(2)
    total = rules.hand_size + (1 if rules.kitty_size else 0)
    for _ in range(300):
        declarer = rng.randrange(rules.players)
        bid = rng.randrange(len(rules.bids))
        trump = rng.choice([NO_TRUMP, 0, 1])
        contract = make_contract(rules, declarer, bid, trump, 0, True)
        books = [0] * rules.sides
        for _ in range(total):
            books[rng.randrange(rules.sides)] += 1
        want = _score(rules, contract, list(books))
        for _ in range(2):  # worked out, then remembered
            got = score_hand(rules, contract, list(books))
            assert (got.books, got.made, got.score) == (want.books, want.made, want.score)
            got.score.append(99)  # the caller's own lists
        reneges = [declarer]  # with reneges: never remembered, scored on the penalised books
        got = score_hand(rules, contract, list(books), reneges)
        want = _score(rules, contract, penalised_books(rules, list(books), reneges))
        assert (got.books, got.made, got.score) == (want.books, want.made, want.score)
