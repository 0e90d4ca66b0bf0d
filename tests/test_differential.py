"""Differential tests: the compiled ``standard`` engine against the plain implementation.

``tests/plain_standard.py`` implements rules.md section 1 by hand, with no code shared
with ``bidcompiler`` or ``runtime``.  Here thousands of random deals are played through
both at once, from the same deal:

* at every step the two must agree on the seat to act, the phase, that seat's hand
  and the *set* of legal actions (engine action ids are mapped to the plain
  strings: a card id is ``"discard XX"`` in the discard phase and ``"XX"`` in play);
* one action is picked with a seeded generator and applied to both;
* at the end, the contract, every trick (leader, cards, winner), the books and the
  scores must be equal.

Auctions are biased towards ``pass`` in a share of the hands so that forced dealers,
low contracts and every strain are all exercised; the test asserts that the run
really covered them.

A second differential goes through records (records.md): the engine's
``hand_record`` of each hand, written to JSON and read back, replayed with
``replay_hand``, must give the plain implementation's result; the plain
implementation's own record must replay to the same result; and a record made
illegal at one card (a renege the plain implementation refuses) must be refused by
the engine's replay at exactly that ``play[i]``.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from bidcompiler.pipeline import load_ruleset
from plain_standard import PlainHand, deal as plain_deal
from runtime.hand import HandState
from runtime.records import RecordError, hand_record, replay_hand

N_HANDS = 3000
N_CHUNKS = 6
CHUNK = N_HANDS // N_CHUNKS
# Probability of passing in the auction whenever a pass is legal; per hand, one of these.
PASS_BIAS = (None, 0.5, 0.9)
PHASES = {"auction", "declare", "discard", "play", "over"}


@pytest.fixture(scope="module")
def rules():
    return load_ruleset("standard")


def engine_action_string(rules, state: HandState, action: int) -> str:
    """The plain implementation's spelling of an engine action in ``state``."""
    name = rules.action_names[action]
    if action < rules.n_cards and state.phase_name == "discard":
        return "discard " + name
    return name


def engine_tricks(rules, state: HandState):
    return [(leader, [rules.cards[c] for c in cards], winner)
            for leader, cards, winner in state.tricks]


def play_both(rules, seed: int, stats: Counter):
    """Play one random deal through the engine and PlainHand in lock step."""
    rng = random.Random(seed)
    hands, kitty, dealer = plain_deal(rng)
    pass_bias = PASS_BIAS[seed % len(PASS_BIAS)]
    plain = PlainHand(hands, kitty, dealer)
    engine = HandState(rules, dealer, [[rules.card_id(c) for c in h] for h in hands],
                       [rules.card_id(c) for c in kitty])
    steps = 0
    while True:
        where = f"seed {seed}, step {steps}"
        phase = engine.phase_name
        assert phase in PHASES
        assert phase == plain.phase, where
        to_move = plain.to_move()
        assert engine.current_player() == (-1 if to_move is None else to_move), where
        assert engine.is_terminal() == plain.is_over(), where
        legal_ids = engine.legal_actions()
        assert legal_ids == sorted(set(legal_ids)), f"{where}: unsorted or repeated ids"
        by_string = {engine_action_string(rules, engine, a): a for a in legal_ids}
        plain_legal = plain.legal()
        assert set(by_string) == set(plain_legal), (
            f"{where} ({phase}, seat {to_move}): engine-only {sorted(set(by_string) - set(plain_legal))}, "
            f"plain-only {sorted(set(plain_legal) - set(by_string))}")
        assert len(by_string) == len(plain_legal), where
        if plain.is_over():
            break
        seat = to_move
        assert sorted(rules.cards[c] for c in engine.hands[seat]) == sorted(plain.hand(seat)), where
        options = sorted(plain_legal)
        if phase == "auction" and pass_bias is not None and "pass" in options and rng.random() < pass_bias:
            choice = "pass"
        else:
            choice = rng.choice(options)
        if phase == "auction" and "pass" not in options:
            stats["dealer forced"] += 1
        if phase == "play" and not plain.current_trick and choice in ("BJ", "LJ"):
            stats["joker led, " + ("notrump" if plain.contract["trump"] is None else "suit")] += 1
        plain.play(choice)
        engine.apply_action(by_string[choice])
        steps += 1

    assert engine.contract == plain.contract, f"seed {seed}"
    assert engine_tricks(rules, engine) == plain.tricks, f"seed {seed}"
    assert engine.books == plain.books, f"seed {seed}"
    assert engine.score == plain.score, f"seed {seed}"
    assert sum(engine.books) == 13
    contract = plain.contract
    kind = "notrump" if contract["trump"] is None else "suit"
    stats[f"{kind} {contract['direction']}"] += 1
    stats["made" if plain.score[contract["side"]] > 0 else "set"] += 1
    stats[f"bid {contract['bid']}"] += 1
    if any(c in ("BJ", "LJ") for c in plain.record()["discard"]):
        stats["joker discarded"] += 1
    return engine, plain


def check_records(rules, engine: HandState, plain: PlainHand, seed: int, stats: Counter):
    """Records round trip: engine record and plain record replay to the plain result."""
    expected = {
        "contract": plain.contract,
        "tricks": [{"leader": l, "cards": cards, "winner": w} for l, cards, w in plain.tricks],
        "books": plain.books,
        "score": plain.score,
        "error": None,
    }
    record = json.loads(json.dumps(hand_record(engine, "standard")))
    plain_record = plain.record()
    # The two writers agree on everything but the order of cards within a dealt hand.
    assert [sorted(h) for h in record["hands"]] == [sorted(h) for h in plain_record["hands"]]
    assert {k: v for k, v in record.items() if k != "hands"} == \
        {k: v for k, v in plain_record.items() if k != "hands"}, f"seed {seed}"
    assert replay_hand(rules, record).as_json() == expected, f"seed {seed}"
    assert replay_hand(rules, plain_record).as_json() == expected, f"seed {seed}"

    # Make the plain record illegal at one card: the first point where the player to
    # move held a card the plain implementation refuses; the engine must name it.
    replay = PlainHand(plain_record["hands"], plain_record["kitty"], plain_record["dealer"])
    for call in plain_record["auction"]:
        replay.play(call)
    declare = plain_record["declare"]
    replay.play(f"trump {declare['trump']}" if declare["trump"] else f"direction {declare['direction']}")
    for card in plain_record["discard"]:
        replay.play("discard " + card)
    for i, card in enumerate(plain_record["play"]):
        refused = sorted(set(replay.hand(replay.to_move())) - set(replay.legal()))
        if refused:
            bad = dict(plain_record, play=plain_record["play"][:i] + [refused[0]] + plain_record["play"][i + 1:])
            with pytest.raises(RecordError) as info:
                replay_hand(rules, bad)
            assert info.value.at == f"play[{i}]", f"seed {seed}"
            assert f"seat {replay.to_move()} must follow" in info.value.message, info.value.message
            stats["renege record refused"] += 1
            break
        replay.play(card)


@pytest.mark.parametrize("chunk", range(N_CHUNKS))
def test_engine_agrees_with_plain_implementation(rules, chunk):
    """Same deal, same choices: same legal sets at every step and the same result."""
    stats = Counter()
    for seed in range(chunk * CHUNK, (chunk + 1) * CHUNK):
        engine, plain = play_both(rules, seed, stats)
        if seed % 2 == 0:
            check_records(rules, engine, plain, seed, stats)
    # The run must really have exercised every branch of the rules it compares.
    for key in ("dealer forced", "suit uptown", "suit downtown", "notrump uptown",
                "notrump downtown", "made", "set", "joker discarded", "joker led, suit",
                "joker led, notrump", "renege record refused"):
        assert stats[key] > 0, f"chunk {chunk} never covered {key!r}: {dict(stats)}"
    for bid in range(3, 8):
        assert stats[f"bid {bid}"] > 0, f"chunk {chunk} never saw a bid of {bid}"
