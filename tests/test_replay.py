"""The replay contract of records.md: `bidwhist replay FILE [--json]`.

Hand records are fed to the real command (click's CliRunner on ``bidcompiler.cli.cli``,
and a few runs of the installed ``bidwhist`` script), and the output is checked
against the exact JSON shape of records.md.  Expected results come from hand-worked
deals and from ``plain_standard`` — a hand-coded implementation of standard Bid Whist
that shares no code with the engine — never from the engine under test alone.
"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path

import pytest

from bidcompiler.pipeline import load_ruleset
from clirun import run, script
from plain_standard import PlainHand, deal as plain_deal, play_random_hand
from runtime.records import hand_record
from runtime.simulate import play_hand
from worked_hands import write_record as write_record_at, NT_RECORD, NT_TRICKS, with_changes

REPO = Path(__file__).resolve().parent.parent
STANDARD_YAML = REPO / "variants" / "standard.yaml"
CANONICAL_CARD = re.compile(r"^(?:[2-9TJQKA][SHDC]|BJ|LJ)$")
HAND_KEYS = {"contract", "tricks", "books", "score", "error"}
CONTRACT_KEYS = {"declarer", "side", "bid", "strain", "trump", "direction"}


# --------------------------------------------------------------------------- helpers
def write_record(tmp_path: Path, data, name: str = "hand.json") -> Path:
    """Write a hand record (dict), a game record (list of dicts) or raw text."""
    return write_record_at(tmp_path / name, data)


def run_replay(path: Path, as_json: bool = True):
    """``bidwhist replay PATH [--json]``; an exception escaping the command fails the test."""
    return run("replay", str(path), *(["--json"] if as_json else []))


def replay_ok(tmp_path: Path, data, name: str = "hand.json") -> dict:
    result = run_replay(write_record(tmp_path, data, name))
    assert result.exit_code == 0, result.stdout + result.stderr
    out = json.loads(result.stdout)
    assert out["error"] is None
    return out


def replay_illegal(tmp_path: Path, data, at: str, *fragments: str, name: str = "hand.json") -> str:
    """Replay an illegal record: exit 1, the error at ``at``, nothing scored."""
    result = run_replay(write_record(tmp_path, data, name))
    assert result.exit_code == 1, result.stdout + result.stderr
    out = json.loads(result.stdout)
    err = out["error"]
    assert set(err) == {"at", "message"}
    assert err["at"] == at, err
    for fragment in fragments:
        assert fragment in err["message"], err
    if "hands" in out:  # a game record
        assert set(out) == {"hands", "totals", "winner", "games", "error"}
        assert out["hands"] is None and out["totals"] is None and out["winner"] is None and out["games"] is None
    else:
        assert set(out) == HAND_KEYS
        assert out["score"] is None and out["books"] is None
        assert out["contract"] is None and out["tricks"] is None
    return err["message"]


def check_hand_shape(hand: dict) -> None:
    """The exact per-hand JSON shape of records.md."""
    assert set(hand) == HAND_KEYS
    if hand["contract"] is not None:
        assert set(hand["contract"]) == CONTRACT_KEYS
    for trick in hand["tricks"]:
        assert set(trick) == {"leader", "cards", "winner"}
        assert all(CANONICAL_CARD.match(c) for c in trick["cards"]), trick
    assert isinstance(hand["books"], list) and isinstance(hand["score"], list)


def standard_score(contract: dict, books: list[int]) -> list[int]:
    """Standard scoring worked by hand (variants/standard.yaml, rules.md section 1)."""
    side = contract["side"]
    bid = contract["bid"]
    points = books[side] - 6 if books[side] >= 6 + bid else -bid
    if contract["strain"] == "notrump":
        points *= 2
    score = [0, 0]
    score[side] = points
    return score


# --------------------------------------------------------------------------- a worked deal
# NT_RECORD and NT_TRICKS (tests/worked_hands.py): seat 0 bids 4 notrump and takes every
# trick but the second.
NT_EXPECTED = {
    "contract": {"declarer": 0, "side": 0, "bid": 4, "strain": "notrump", "trump": None,
                 "direction": "uptown"},
    "tricks": [{"leader": l, "cards": c.split(), "winner": w} for l, c, w in NT_TRICKS],
    "books": [12, 1],   # eleven tricks and the discards for side 0, one trick for side 1
    "score": [12, 0],   # 6 over, doubled in notrump
    "error": None,
}

# The same record as a person might type it.
NT_LENIENT = copy.deepcopy(NT_RECORD)
NT_LENIENT["hands"][0] = ["a♥", "kh", "Q♡", "jh", "10h", "9H", "8h", "k♠", "qs", "js", "10♠", "9s"]
NT_LENIENT["hands"][3] = ["ac", "K♣", "qc", "jc", "10c", "9c", "8c", "7c", "6c", "5c", "4c", "3♧"]
NT_LENIENT["kitty"] = ["2s", "3♦", "2d", "2C", "bj", "lj"]
NT_LENIENT["auction"] = ["4 NT", "Pass", "PASS", " pass "]
NT_LENIENT["declare"] = {"trump": None, "direction": "HIGH"}
NT_LENIENT["discard"] = ["Bj", "lJ", "2♠", "3d", "2D", "2c"]
NT_LENIENT["play"] = [c.lower() if i % 3 == 0 else c for i, c in enumerate(NT_RECORD["play"])]
NT_LENIENT["play"][NT_RECORD["play"].index("TS")] = "10S"
NT_LENIENT["play"][NT_RECORD["play"].index("TD")] = "10♦"
NT_LENIENT["play"][NT_RECORD["play"].index("QH")] = "q♥"

# Seat 0 holds every spade but the deuce (which seat 1 holds); bids 4 in a suit.
SPADE_RECORD = {
    "format": "bidwhist-hand/1",
    "variant": "standard",
    "with": [],
    "dealer": 3,
    "hands": [
        "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S".split(),
        "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 2S".split(),
        "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D".split(),
        "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C".split(),
    ],
    "kitty": "2H 3H 2D 2C BJ LJ".split(),
    "auction": ["4 uptown", "pass", "pass", "pass"],
    "declare": {"trump": "S"},
    "discard": "2H 3H 2D 2C 3S 4S".split(),
    "play": ["BJ", "2S", "AD", "AC"],   # the big joker draws seat 1's only trump
    "claim": 11,
}


with_ = with_changes  # the short name these tests read with


# --------------------------------------------------------------------------- valid hands
def test_worked_notrump_hand_replays_to_the_exact_contract_json(tmp_path):
    out = replay_ok(tmp_path, NT_RECORD)
    check_hand_shape(out)
    assert out == NT_EXPECTED
    assert sum(out["books"]) == 13


def test_lenient_input_replays_to_the_same_canonical_output(tmp_path):
    assert replay_ok(tmp_path, NT_LENIENT) == NT_EXPECTED


@pytest.mark.parametrize("call, declare, strain, direction", [
    ("4 uptown", {"trump": "S"}, "uptown", "uptown"),
    ("4 HIGH", {"trump": "♠"}, "uptown", "uptown"),
    ("4 up", {"trump": "s", "direction": "uptown"}, "uptown", "uptown"),   # restating is fine
    ("4 low", {"trump": "S"}, "downtown", "downtown"),
    ("4   Down", {"trump": "♤", "direction": "down"}, "downtown", "downtown"),
    ("4 downtown", {"trump": "S"}, "downtown", "downtown"),
])
def test_call_aliases_and_trump_spellings_give_canonical_contract(tmp_path, call, declare, strain, direction):
    record = with_(SPADE_RECORD, auction=[call, "pass", "pass", "pass"], declare=declare)
    out = replay_ok(tmp_path, record)
    check_hand_shape(out)
    assert out["contract"] == {"declarer": 0, "side": 0, "bid": 4, "strain": strain, "trump": "S",
                               "direction": direction}
    # BJ is the top trump in either direction; 1 trick + discards + 11 claimed.
    assert out["tricks"] == [{"leader": 0, "cards": ["BJ", "2S", "AD", "AC"], "winner": 0}]
    assert out["books"] == [13, 0]
    assert out["score"] == [7, 0]


@pytest.mark.parametrize("call, declare", [("4 nt", {"trump": None, "direction": "low"}),
                                           ("4 No", {"trump": None, "direction": "downtown"}),
                                           ("4 NOTRUMP", {"direction": "down"})])
def test_notrump_aliases(tmp_path, call, declare):
    record = with_(NT_RECORD, auction=[call, "pass", "pass", "pass"], declare=declare,
                   play=NT_RECORD["play"][:4], claim=3)
    out = replay_ok(tmp_path, record)
    assert out["contract"] == {"declarer": 0, "side": 0, "bid": 4, "strain": "notrump", "trump": None,
                               "direction": "downtown"}
    # Downtown the ace stays the top heart: seat 0's AH takes the first trick.
    assert out["tricks"] == [{"leader": 0, "cards": ["AH", "2H", "7H", "4C"], "winner": 0}]
    assert out["books"] == [1 + 1 + 3, 8]
    assert out["score"] == [-8, 0]


def _plain_hands(count: int, seed: int):
    rng = random.Random(seed)
    return [play_random_hand(rng) for _ in range(count)]


@pytest.mark.parametrize("index", range(12))
def test_independently_played_hands_replay_to_the_reference_result(tmp_path, index):
    """Hands played by plain_standard (no engine code) replay to its contract, tricks, books, score."""
    hand = _plain_hands(12, 2024)[index]
    out = replay_ok(tmp_path, hand.record())
    check_hand_shape(out)
    assert out["contract"] == hand.contract
    assert out["tricks"] == [{"leader": l, "cards": c, "winner": w} for l, c, w in hand.tricks]
    assert out["books"] == hand.books and sum(out["books"]) == 13
    assert out["score"] == hand.score == standard_score(hand.contract, hand.books)


@pytest.mark.parametrize("seed, index", [(1, 0), (1, 1), (5, 3), (99, 7), (123456, 2)])
def test_engine_written_records_replay_to_the_simulated_hand(tmp_path, seed, index):
    rules = load_ruleset("standard")
    state = play_hand(rules, seed, index)
    record = hand_record(state, "standard")
    out = replay_ok(tmp_path, record)
    check_hand_shape(out)
    assert out["contract"] == state.contract
    assert out["books"] == list(state.books)
    assert out["score"] == list(state.score) == standard_score(state.contract, state.books)
    # The tricks are the record's play cut in fours, each led by the last winner.
    flat = [c for t in out["tricks"] for c in t["cards"]]
    assert flat == record["play"]
    assert out["tricks"][0]["leader"] == state.declarer
    for before, after in zip(out["tricks"], out["tricks"][1:]):
        assert after["leader"] == before["winner"]
    # A plain reference replay of the same record agrees.
    plain = PlainHand(record["hands"], record["kitty"], record["dealer"])
    declare = record["declare"]
    actions = (record["auction"]
               + [f"trump {declare['trump']}" if declare.get("trump") else f"direction {declare['direction']}"]
               + [f"discard {c}" for c in record["discard"]] + record["play"])
    for a in actions:
        plain.play(a)
    assert out["score"] == plain.score and out["books"] == plain.books


def _mess(record: dict, rng: random.Random) -> dict:
    """The same record in forgiving spellings: case, 10 for T, suit symbols, aliases."""
    symbols = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

    def card(c):
        r, s = c[0], c[1]
        choice = rng.randrange(4)
        if c in ("BJ", "LJ"):
            return c.lower() if choice % 2 else c
        r = "10" if r == "T" and choice != 3 else r
        if choice == 0:
            return (r + s).lower()
        if choice == 1:
            return r + symbols[s]
        if choice == 2:
            return r.lower() + s.lower()
        return r + s

    aliases = {"uptown": ["HIGH", "up", "Uptown"], "downtown": ["low", "DOWN"], "notrump": ["nt", "NO", "NoTrump"]}

    def call(c):
        if c == "pass":
            return rng.choice(["PASS", "Pass", "pass"])
        n, strain = c.split()
        return f"{n}  {rng.choice(aliases[strain])}"

    out = copy.deepcopy(record)
    out["hands"] = [[card(c) for c in h] for h in record["hands"]]
    out["kitty"] = [card(c) for c in record["kitty"]]
    out["auction"] = [call(c) for c in record["auction"]]
    if record["declare"].get("trump"):
        out["declare"]["trump"] = rng.choice([record["declare"]["trump"].lower(), symbols[record["declare"]["trump"]]])
    if "direction" in record["declare"]:
        out["declare"]["direction"] = rng.choice(aliases[record["declare"]["direction"]]).lower()
    out["discard"] = [card(c) for c in record["discard"]]
    out["play"] = [card(c) for c in record["play"]]
    return out


@pytest.mark.parametrize("index", range(6))
def test_forgiving_spellings_of_random_records_give_identical_output(tmp_path, index):
    hand = _plain_hands(6, 77)[index]
    canonical = replay_ok(tmp_path, hand.record(), "canonical.json")
    messy = replay_ok(tmp_path, _mess(hand.record(), random.Random(index)), "messy.json")
    assert messy == canonical


def test_hand_without_a_contract(tmp_path):
    """A variant where the hand is thrown in when all pass: contract null, score zero."""
    lines = STANDARD_YAML.read_text(encoding="utf-8").splitlines()
    [n] = [i for i, line in enumerate(lines) if line.startswith("  if_all_pass:")]
    lines[n] = "  if_all_pass: redeal"
    variant = tmp_path / "thrown-in.yaml"
    variant.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # records.md: a path in a record is relative to the record's folder (tmp_path).
    record = with_(NT_RECORD, variant=variant.name, auction=["pass"] * 4, declare=..., discard=..., play=...)
    out = replay_ok(tmp_path, record)
    assert out == {"contract": None, "tricks": [], "books": [0, 0], "score": [0, 0], "error": None}
    # Such a hand has no declare, discard or play.
    for key, value in (("declare", {"trump": "S"}), ("discard", ["2S"]), ("play", ["AH"]), ("claim", 3)):
        replay_illegal(tmp_path, with_(record, **{key: value}), key)
    # In the standard game the dealer may not pass out the hand.
    replay_illegal(tmp_path, with_(record, variant="standard"), "auction[3]", "seat 3", "dealer", "must bid")


# --------------------------------------------------------------------------- claims
def test_valid_claim_is_scored_declaring_side_takes_claim_other_side_rest(tmp_path):
    # After 2 tricks (one each), seat 0's side claims 7 of the 10 left: 1 + 1 (discards) + 7 = 9.
    out = replay_ok(tmp_path, with_(NT_RECORD, play=NT_RECORD["play"][:8], claim=7))
    assert out["tricks"] == NT_EXPECTED["tricks"][:2]
    assert out["books"] == [9, 1 + 3]
    assert out["score"] == [-8, 0]          # 9 < 6 + 4: set, doubled in notrump
    out = replay_ok(tmp_path, with_(NT_RECORD, play=NT_RECORD["play"][:8], claim=10))
    assert out["books"] == [12, 1] and out["score"] == [12, 0]
    out = replay_ok(tmp_path, with_(NT_RECORD, play=NT_RECORD["play"][:8], claim=0))
    assert out["books"] == [2, 11] and out["score"] == [-8, 0]


@pytest.mark.parametrize("index", range(6))
def test_claims_on_random_hands_are_scored(tmp_path, index):
    hand = _plain_hands(6, 31)[index]
    record = hand.record()
    tricks = 1 + index          # stop after this many tricks
    claim = index % 4
    record["play"] = record["play"][:4 * tricks]
    record["claim"] = claim
    out = replay_ok(tmp_path, record)
    side = hand.contract["side"]
    won = [0, 0]
    for _, _, winner in hand.tricks[:tricks]:
        won[winner % 2] += 1
    books = list(won)
    books[side] += 1 + claim
    books[1 - side] += 12 - tricks - claim
    assert out["books"] == books
    assert out["score"] == standard_score(hand.contract, books)
    assert len(out["tricks"]) == tricks


def test_claims_that_are_illegal(tmp_path):
    play8 = NT_RECORD["play"][:8]
    replay_illegal(tmp_path, with_(NT_RECORD, play=play8, claim=11), "claim", "11", "10 remain")
    replay_illegal(tmp_path, with_(NT_RECORD, claim=1), "claim", "only 0 remain")
    replay_illegal(tmp_path, with_(NT_RECORD, play=NT_RECORD["play"][:9], claim=1), "claim", "end of a trick")
    replay_illegal(tmp_path, with_(NT_RECORD, play=[], claim=12), "claim", "at least one trick")
    replay_illegal(tmp_path, with_(SPADE_RECORD, claim=12), "claim", "only 11 remain")
    replay_illegal(tmp_path, with_(SPADE_RECORD, play=["BJ", "2S"], claim=1), "claim")
    replay_illegal(tmp_path, with_(NT_RECORD, play=play8, claim=-1), "claim")
    replay_illegal(tmp_path, with_(NT_RECORD, play=play8, claim="3"), "claim")


# --------------------------------------------------------------------------- illegal hands
@pytest.mark.parametrize("change, at, fragments", [
    ({"hands": NT_RECORD["hands"][:3]}, "hands", ["4 hands"]),
    ({"hands": [NT_RECORD["hands"][0][:11]] + NT_RECORD["hands"][1:]}, "hands", ["hands[0] has 11 cards", "12"]),
    ({"hands": [NT_RECORD["hands"][0] + ["2S"]] + NT_RECORD["hands"][1:]}, "hands", ["hands[0] has 13 cards"]),
    ({"hands": [NT_RECORD["hands"][0], ["AH"] + NT_RECORD["hands"][1][1:]] + NT_RECORD["hands"][2:]},
     "hands", ["AH", "twice", "hands[0]", "hands[1]"]),
    ({"hands": [NT_RECORD["hands"][0], ["ZZ"] + NT_RECORD["hands"][1][1:]] + NT_RECORD["hands"][2:]},
     "hands", ["'ZZ'", "not a card"]),
    ({"hands": [NT_RECORD["hands"][0], ["1H"] + NT_RECORD["hands"][1][1:]] + NT_RECORD["hands"][2:]},
     "hands", ["'1H'"]),
    ({"hands": "AH KH"}, "hands", []),
    ({"kitty": NT_RECORD["kitty"][:5]}, "kitty", ["5 cards", "6"]),
    ({"kitty": NT_RECORD["kitty"] + ["AH"]}, "kitty", ["7 cards"]),
    ({"kitty": ["AH"] + NT_RECORD["kitty"][1:]}, "kitty", ["AH", "twice", "hands[0]", "kitty"]),
    ({"kitty": ["XJ"] + NT_RECORD["kitty"][1:]}, "kitty", ["'XJ'"]),
    ({"kitty": ...}, "kitty", ["no kitty", "6 cards"]),
    ({"kitty": NT_RECORD["kitty"][:1]}, "kitty", ["kitty has 1 card;"]),  # one card, not "1 cards"
    ({"hands": [NT_RECORD["hands"][0][:1]] + NT_RECORD["hands"][1:]}, "hands", ["hands[0] has 1 card;"]),
])
def test_deal_errors(tmp_path, change, at, fragments):
    # The auction is broken too: the deal is checked first.
    record = with_(NT_RECORD, **change)
    replay_illegal(tmp_path, record, at, *fragments)
    replay_illegal(tmp_path, with_(record, auction=["9 notrump"]), at, *fragments)


def test_a_kitty_where_the_variant_deals_none_is_said_so(tmp_path):
    """records.md: "`kitty` is `[]` where the variant has none": a kitty given there is told
    that the variant deals none (not "the variant's kitty has 0")."""
    record = {"format": "bidwhist-hand/1", "variant": "oregon", "dealer": 0, "kitty": ["AS"],
              "hands": [[f"{r}{s}" for r in "23456789TJQKA"] for s in "SHDC"], "auction": []}
    replay_illegal(tmp_path, record, "kitty", "kitty has 1 card; the variant deals no kitty")


@pytest.mark.parametrize("auction, at, fragments", [
    (["4 notrump", "4 uptown", "pass", "pass"], "auction[1]", ["seat 1", "4 uptown", "does not outrank 4 notrump"]),
    (["4 uptown", "4 downtown", "pass", "pass"], "auction[1]", ["seat 1", "does not outrank 4 uptown (seat 0)"]),
    (["5 uptown", "pass", "4 notrump", "pass"], "auction[2]", ["seat 2", "does not outrank 5 uptown"]),
    (["pass", "pass", "pass", "pass"], "auction[3]", ["seat 3", "must bid"]),
    (["4 notrump", "2 uptown", "pass", "pass"], "auction[1]", ["'2 uptown'", "not a call"]),
    (["4 notrump", "8 uptown", "pass", "pass"], "auction[1]", ["not a call"]),
    (["4 sideways", "pass", "pass", "pass"], "auction[0]", ["seat 0", "not a call"]),
    (["4", "pass", "pass", "pass"], "auction[0]", ["not a call"]),
    (["4notrump", "pass", "pass", "pass"], "auction[0]", []),
    (["4 notrump", 5, "pass", "pass"], "auction[1]", []),
    (["4 notrump", "pass"], "auction", ["2 calls", "seat 2"]),
    (["4 notrump"], "auction", ["stops after 1 call;", "seat 1"]),
    ([], "auction", ["0 calls", "seat 0"]),
    (["4 notrump", "pass", "pass", "pass", "pass"], "auction", ["over after 4 calls"]),
    (["4 notrump", "pass", "pass", "pass", "5 uptown"], "auction", []),
    ("4 notrump", "auction", []),
    (..., "auction", []),
])
def test_auction_errors(tmp_path, auction, at, fragments):
    replay_illegal(tmp_path, with_(NT_RECORD, auction=auction), at, *fragments)


@pytest.mark.parametrize("record, declare, fragments", [
    (NT_RECORD, ..., ["seat 0", "direction", "no declare"]),
    (NT_RECORD, None, ["seat 0"]),
    (NT_RECORD, {}, ["seat 0", "direction"]),
    (NT_RECORD, {"trump": "H", "direction": "uptown"}, ["trump H contradicts"]),
    (NT_RECORD, {"trump": None, "direction": "sideways"}, ["'sideways'"]),
    (NT_RECORD, {"trump": None, "direction": "uptown", "suit": "H"}, ["suit"]),
    (NT_RECORD, "uptown", []),
    (SPADE_RECORD, ..., ["seat 0", "trump"]),
    (SPADE_RECORD, {"trump": "S", "direction": "downtown"}, ["direction downtown contradicts", "uptown"]),
    (SPADE_RECORD, {"trump": None}, ["seat 0"]),
    (SPADE_RECORD, {"trump": "X"}, ["'X'"]),
    (SPADE_RECORD, {"direction": "uptown"}, ["seat 0", "trump"]),
])
def test_declare_errors(tmp_path, record, declare, fragments):
    # The discard is broken too: declare is checked first (standard declares before the kitty).
    replay_illegal(tmp_path, with_(record, declare=declare, discard=["AD"]), "declare", *fragments)


@pytest.mark.parametrize("discard, fragments", [
    ("BJ LJ 2S 3D 2D".split(), ["seat 0", "must discard 6", "has 5"]),
    ("BJ LJ 2S 3D 2D 2C 9S".split(), ["has 7"]),
    (..., ["must discard 6"]),
    (None, ["must discard 6", "has 0"]),          # null is a discard left out (docs/records.md)
    ("2C", ["the record has '2C', not a list of cards"]),
    ([], ["has 0"]),
    ("BJ LJ 2S 3D 2D AD".split(), ["seat 0", "discards AD, which it does not hold"]),
    ("BJ LJ 2S 3D 2D 2D".split(), ["discards 2D, which it does not hold"]),
    ("BJ LJ 2S 3D 2D ZZ".split(), ["'ZZ'"]),
])
def test_discard_errors(tmp_path, discard, fragments):
    # The play is broken too: the discard is checked first.
    replay_illegal(tmp_path, with_(NT_RECORD, discard=discard, play=["ZZ"]), "discard", *fragments)


def _play(**replacements):
    play = list(NT_RECORD["play"])
    for index, card in replacements.items():
        play[int(index[1:])] = card
    return play


@pytest.mark.parametrize("play, at, message", [
    (_play(p2="AD"), "play[2]", "seat 2 must follow hearts (holds 7H)"),
    (_play(p1="3S"), "play[1]", "seat 1 must follow hearts (holds 2H, 3H, 4H, 5H, 6H)"),
    (_play(p1="AD"), "play[1]", "seat 1 does not hold AD"),
    (_play(p0="2H"), "play[0]", "seat 0 does not hold 2H"),
    (_play(p4="AH"), "play[4]", "seat 0 does not hold AH"),        # already played
    (_play(p11="9S"), "play[11]", "seat 0 must follow hearts (holds 8H, 9H"),
    (_play(p0="1H"), "play[0]", "seat 0 plays '1H', which is not a card of this deck"),
    (_play(p2="AD", p5="2H"), "play[2]", "seat 2 must follow hearts (holds 7H)"),   # the first one
    (_play(p47="2C"), "play[47]", "seat 3 does not hold 2C"),                  # laid away
])
def test_play_errors_name_the_first_illegal_card_the_rule_and_the_seat(tmp_path, play, at, message):
    got = replay_illegal(tmp_path, with_(NT_RECORD, play=play), at)
    assert got.startswith(message), got


def test_follow_trumps_message_names_the_trump_suit(tmp_path):
    # A joker led is a trump lead: following it means playing a spade.
    replay_illegal(tmp_path, with_(SPADE_RECORD, play=["BJ", "AH"]), "play[1]",
                   "seat 1 must follow spades (holds 2S)")


def test_play_stopping_early_or_going_on(tmp_path):
    # records.md: the message names the rule broken and the seat (here the one left to play).
    replay_illegal(tmp_path, with_(NT_RECORD, play=NT_RECORD["play"][:10]), "play", "10 cards", "nothing is claimed",
                   "with seat 3 to play")
    replay_illegal(tmp_path, with_(NT_RECORD, play=NT_RECORD["play"][:8]), "play", "not over")
    replay_illegal(tmp_path, with_(NT_RECORD, play=...), "play", "0 cards")
    replay_illegal(tmp_path, with_(SPADE_RECORD, claim=...), "play", "4 cards")
    replay_illegal(tmp_path, with_(NT_RECORD, play=NT_RECORD["play"] + ["AS"]), "play[48]", "seat 0, who won the last trick,",
                   "after the hand was over (48 cards)")
    replay_illegal(tmp_path, with_(NT_RECORD, play="AH 2H"), "play")


def test_record_fields_that_do_not_fit(tmp_path):
    replay_illegal(tmp_path, with_(NT_RECORD, dealer=4), "dealer")
    replay_illegal(tmp_path, with_(NT_RECORD, dealer="3"), "dealer")
    replay_illegal(tmp_path, with_(NT_RECORD, dealer=...), "dealer")
    replay_illegal(tmp_path, with_(NT_RECORD, variant="no-such-variant"), "variant", "no-such-variant")
    replay_illegal(tmp_path, with_(NT_RECORD, variant=7), "variant")
    replay_illegal(tmp_path, with_(NT_RECORD, variant=...), "variant")
    replay_illegal(tmp_path, with_(NT_RECORD, surprise=1), "surprise", "surprise")
    replay_illegal(tmp_path, with_(NT_RECORD, **{"with": "x"}), "with")


def test_an_unsupported_house_rule_is_an_error_not_ignored(tmp_path):
    result = run_replay(write_record(tmp_path, with_(NT_RECORD, **{"with": ["no-such-rule"]})))
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert out["score"] is None and "no-such-rule" in out["error"]["message"]
    assert out["error"]["at"] == "with[0]"  # records.md names an entry of `with` as with[i]
    # A house rule that does not fit the variant (and the rules before it) is that entry's fault too.
    # (kitty-first has nothing to do without a kitty; kitty-first with jokers-out-in-notrump,
    # once the example here, now fits standard: a notrump bid says notrump before the kitty.)
    replay_illegal(tmp_path, with_(NT_RECORD, **{"with": ["no-kitty", "kitty-first"]}), "with[1]",
                   "kitty")


def test_a_hand_without_a_contract_has_no_claim_even_of_zero(tmp_path):
    passed = {"format": "bidwhist-hand/1", "variant": "standard", "with": ["all-pass-redeal"],
              "dealer": NT_RECORD["dealer"], "hands": NT_RECORD["hands"], "kitty": NT_RECORD["kitty"],
              "auction": ["pass"] * 4}
    assert run_replay(write_record(tmp_path, passed)).exit_code == 0
    assert run_replay(write_record(tmp_path, dict(passed, play=[], declare={}))).exit_code == 0
    replay_illegal(tmp_path, dict(passed, claim=0), "claim", "no claim")


def test_the_record_is_checked_in_the_order_of_records_md(tmp_path):
    """Every entry broken: each fix moves the reported error to the next one in order."""
    broken = with_(NT_RECORD, kitty=NT_RECORD["kitty"][:5], auction=["4 notrump", "3 uptown", "pass", "pass"],
                   declare={"trump": None, "direction": "sideways"}, discard=["AD"] * 6,
                   play=_play(p2="AD"), claim=99)
    steps = [("kitty", NT_RECORD["kitty"]), ("auction[1]", NT_RECORD["auction"]),
             ("declare", NT_RECORD["declare"]), ("discard", NT_RECORD["discard"]),
             ("play[2]", NT_RECORD["play"]), ("claim", ...)]
    record = broken
    for at, fix in steps:
        replay_illegal(tmp_path, record, at)
        record = with_(record, **{at.split("[")[0]: fix})
    assert replay_ok(tmp_path, record) == NT_EXPECTED


# --------------------------------------------------------------------------- game records
def plain_game_hand(seed: int, dealer: int, calls: list[str]) -> PlainHand:
    rng = random.Random(seed)
    hands, kitty, _ = plain_deal(rng)
    hand = PlainHand(hands, kitty, dealer)
    for call in calls:
        hand.play(call)
    while not hand.is_over():
        hand.play(rng.choice(hand.legal()))
    return hand


def build_game(count: int, first_dealer: int = 2, seed: int = 0):
    """``count`` hands, dealer rotating left, each bid 3 uptown by the dealer, the game
    not decided after any of them (totals strictly between -7 and 7)."""
    hands, totals = [], [0, 0]
    dealer = first_dealer
    while len(hands) < count:
        seed += 1
        hand = plain_game_hand(seed, dealer, ["pass", "pass", "pass", "3 uptown"])
        new = [t + s for t, s in zip(totals, hand.score)]
        if all(-7 < t < 7 for t in new):
            hands.append(hand)
            totals = new
            dealer = (dealer + 1) % 4
    return hands, totals, seed


def test_game_in_progress_totals_and_no_winner(tmp_path):
    hands, totals, _ = build_game(4)
    for name in ("game.jsonl", "game.json"):   # more than one line: a game record either way
        out = replay_ok(tmp_path, [h.record() for h in hands], name)
        assert set(out) == {"hands", "totals", "winner", "games", "error"}
        assert out["winner"] is None
        assert out["totals"] == totals
        assert out["games"] == [{"first_hand": 0, "hands": 4, "totals": totals, "winner": None}]
        assert len(out["hands"]) == 4
        for got, hand in zip(out["hands"], hands):
            check_hand_shape(got)
            assert got["contract"] == hand.contract
            assert got["score"] == hand.score and got["books"] == hand.books
            assert got["tricks"] == [{"leader": l, "cards": c, "winner": w} for l, c, w in hand.tricks]


def test_single_hand_jsonl_file_is_a_game_record(tmp_path):
    hands, totals, _ = build_game(1)
    out = replay_ok(tmp_path, [hands[0].record()], "one.jsonl")
    assert out["totals"] == totals == hands[0].score and out["winner"] is None
    assert len(out["hands"]) == 1


def _deciding_hand(start_seed: int, dealer: int, totals: list[int]):
    """A 7 notrump by the dealer that ends the game; returns (hand, winner, seed)."""
    seed = start_seed
    while True:
        seed += 1
        hand = plain_game_hand(seed, dealer, ["pass", "pass", "pass", "7 notrump"])
        new = [t + s for t, s in zip(totals, hand.score)]
        if any(t >= 7 for t in new):
            return hand, next(i for i, t in enumerate(new) if t >= 7), seed
        if any(t <= -7 for t in new):
            return hand, next(i for i, t in enumerate(new) if t > -7), seed


def test_decided_game_names_the_winner_and_no_hand_may_follow(tmp_path):
    hands, totals, seed = build_game(3, first_dealer=1)
    dealer = (1 + 3) % 4
    last, winner, seed = _deciding_hand(seed, dealer, totals)
    records = [h.record() for h in hands] + [last.record()]
    out = replay_ok(tmp_path, records, "game.jsonl")
    assert out["winner"] == winner
    assert out["totals"] == [t + s for t, s in zip(totals, last.score)]
    # A hand after the game is decided.
    extra = plain_game_hand(seed + 1, (dealer + 1) % 4, ["pass", "pass", "pass", "3 uptown"])
    replay_illegal(tmp_path, records + [extra.record()], "hand[4]", "decided", name="game.jsonl")


def test_illegal_card_in_a_game_is_reported_with_the_hand_index(tmp_path):
    hands, _, _ = build_game(5)
    records = [h.record() for h in hands]
    trick = hands[3].tricks[4]                   # play[16..19]
    records[3]["play"][17] = records[3]["play"][16]   # the card the leader just played
    seat = (trick[0] + 1) % 4
    message = replay_illegal(tmp_path, records, "hand[3].play[17]", name="game.jsonl")
    assert message == f"seat {seat} does not hold {trick[1][0]}"
    # Human output: the error on stderr with the file, its line and the hand counted
    # from 1 (hand[3] is the 4th line), nothing on stdout.
    result = run_replay(tmp_path / "game.jsonl", as_json=False)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == f"{tmp_path / 'game.jsonl'}:4: hand 4, play[17]: seat {seat} does not hold {trick[1][0]}\n"


def test_dealer_must_follow_the_rotation(tmp_path):
    hands, _, _ = build_game(4, first_dealer=3)
    records = [h.record() for h in hands]
    assert [r["dealer"] for r in records] == [3, 0, 1, 2]
    records[2]["dealer"] = 3
    replay_illegal(tmp_path, records, "hand[2].dealer", "rotation", "expected 1", name="game.jsonl")


def test_wrong_dealer_is_reported_before_the_rest_of_that_hand(tmp_path):
    """A hand dealt by the wrong seat is wrong at its dealer, not at a later entry."""
    hands, _, _ = build_game(3, first_dealer=0)
    records = [h.record() for h in hands]
    records[1]["dealer"] = 3        # with seat 3 dealing, the recorded declarer differs
    replay_illegal(tmp_path, records, "hand[1].dealer", "expected 1", name="game.jsonl")


def test_game_errors_inside_a_hand_and_across_hands(tmp_path):
    hands, _, _ = build_game(3)
    records = [h.record() for h in hands]
    bad = copy.deepcopy(records)
    bad[1]["kitty"] = bad[1]["kitty"][:5]
    replay_illegal(tmp_path, bad, "hand[1].kitty", name="game.jsonl")
    bad = copy.deepcopy(records)
    bad[2]["auction"] = bad[2]["auction"][:3]
    replay_illegal(tmp_path, bad, "hand[2].auction", name="game.jsonl")
    bad = copy.deepcopy(records)
    bad[0]["discard"] = bad[0]["discard"][:5]
    replay_illegal(tmp_path, bad, "hand[0].discard", name="game.jsonl")
    bad = copy.deepcopy(records)
    bad[1]["variant"] = str(STANDARD_YAML)
    replay_illegal(tmp_path, bad, "hand[1].variant", name="game.jsonl")
    bad = copy.deepcopy(records)
    bad[0]["variant"] = "no-such-variant"
    replay_illegal(tmp_path, bad, "hand[0].variant", name="game.jsonl")


def test_game_human_output(tmp_path):
    hands, totals, _ = build_game(2)
    path = write_record(tmp_path, [h.record() for h in hands], "game.jsonl")
    result = run_replay(path, as_json=False)
    assert result.exit_code == 0
    assert "hand 1" in result.stdout and "hand 2" in result.stdout and "hand 0" not in result.stdout
    assert re.search(rf"totals\s+side 0\+2 {totals[0]}   side 1\+3 {totals[1]}\n", result.stdout)
    assert "game in progress" in result.stdout
    assert result.stderr == ""


# --------------------------------------------------------------------------- human output
def test_hand_human_output_is_readable(tmp_path):
    result = run_replay(write_record(tmp_path, NT_RECORD), as_json=False)
    assert result.exit_code == 0
    assert result.stderr == ""
    text = result.stdout
    assert "4 notrump by seat 0 (side 0+2), no trump, uptown" in text
    assert "KS AS 4D 3C" in text
    assert re.search(r"books\s+side 0\+2 12 \(declarers\)   side 1\+3 1\n", text)
    assert re.search(r"score\s+side 0\+2 \+12   side 1\+3 0\n", text)
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)


def test_illegal_hand_human_output_goes_to_stderr(tmp_path):
    path = write_record(tmp_path, with_(NT_RECORD, play=_play(p2="AD")))
    result = run_replay(path, as_json=False)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.strip() == f"{path}: play[2]: seat 2 must follow hearts (holds 7H)"


# --------------------------------------------------------------------------- not a record
@pytest.mark.parametrize("name, text, where", [
    ("bad.json", '{"format": "bidwhist-hand/1", "dealer": ', "bad.json:1:"),
    ("bad.json", "\n\n{'format': 1}\n", "bad.json:3:"),
    ("array.json", json.dumps([NT_RECORD]), "array.json:1"),
    ("string.json", '"bidwhist-hand/1"', "string.json:1"),
    ("number.json", "42", "number.json:1"),
    ("fmt.json", json.dumps(with_(NT_RECORD, format="bidwhist-hand/2")), "fmt.json:1"),
    ("nofmt.json", json.dumps(with_(NT_RECORD, format=...)), "nofmt.json:1"),
    ("empty.json", "", "empty.json"),
    ("blank.json", "  \n\n", "blank.json"),
    ("deep.json", "[" * 100000, "deep.json:1"),
    ("bigint.json", '{"format": "bidwhist-hand/1", "dealer": ' + "1" * 5000 + "}", "bigint.json:1"),
    ("game.jsonl", json.dumps(NT_RECORD) + "\n" + json.dumps(NT_RECORD) + "\n{oops\n", "game.jsonl:3:"),
    ("game.jsonl", json.dumps(NT_RECORD) + "\n[]\n", "game.jsonl:2"),
    ("game.jsonl", json.dumps(NT_RECORD) + "\n" + json.dumps(with_(NT_RECORD, format="x")) + "\n", "game.jsonl:2"),
    # A pretty-printed hand record is read as one (docs/records.md), its errors placed in the file.
    ("pretty.json", json.dumps(with_(NT_RECORD, format="x"), indent=2), "pretty.json:1:1"),
    ("pretty.json", json.dumps(NT_RECORD, indent=2).replace('"dealer"', "dealer"), "pretty.json:5:"),
    ("pretty.jsonl", json.dumps(NT_RECORD, indent=2), "pretty.jsonl:1:"),
])
def test_not_a_record_exits_2_with_one_line_saying_where(tmp_path, name, text, where):
    path = write_record(tmp_path, text, name)
    for as_json in (True, False):
        result = run_replay(path, as_json=as_json)
        assert result.exit_code == 2, result.stdout + result.stderr
        assert result.stdout == ""
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, result.stderr
        assert lines[0].startswith(str(tmp_path / where)), lines[0]


def test_unreadable_paths_exit_2(tmp_path):
    missing = tmp_path / "missing.json"
    result = run_replay(missing)
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{missing}:")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe{}")
    result = run_replay(binary)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip().startswith(f"{binary}:") and len(result.stderr.strip().splitlines()) == 1
    result = run_replay(tmp_path)            # a directory
    assert result.exit_code == 2 and result.stdout == ""
    assert str(tmp_path) in result.stderr


# --------------------------------------------------------------------------- variant rules in records
def _variant(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path.name  # records.md: relative to the record's folder, where the records are written


# Oregon's trump by the first lead, with named rather than bare bids ("4 tricks").
LEAD_VARIANT = """name: lead-names-trump
title: Oregon with named bids
extends: oregon
auction:
  strains:
    - {name: number, remove: true}
    - name: tricks
      trump: none-or-first-lead
      direction: uptown
  ranking: [[tricks]]
"""


def test_trump_named_by_the_first_lead(tmp_path):
    """records.md: where the first card led names trump, a hand played with trump has no
    declare, and a declared notrump is {"trump": null}."""
    record = {
        "format": "bidwhist-hand/1", "variant": _variant(tmp_path, "lead", LEAD_VARIANT), "with": [],
        "dealer": 3,
        "hands": ["AS KS QS JS TS 9S 8S 7S 6S 5S 3S 2S 2H".split(),
                  "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2D".split(),
                  "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 4S".split(),
                  "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C".split()],
        "kitty": [],
        "auction": ["4 tricks", "pass", "pass", "pass"],
        # Seat 0 leads 2S; seat 2's 4S wins.  Seat 2 leads AD: seat 0, void, plays 3S.
        "play": ["2S", "2D", "4S", "2C", "AD", "3C", "3S", "3H"],
        "claim": 5,
    }
    trumps = replay_ok(tmp_path, record)
    assert trumps["contract"] == {"declarer": 0, "side": 0, "bid": 4, "strain": "tricks", "trump": "S",
                                  "direction": "uptown"}
    assert [t["winner"] for t in trumps["tricks"]] == [2, 0]     # the 3S trumps the AD
    assert trumps["books"] == [2 + 5, 6]
    assert trumps["score"] == [-4, 6]          # set; Oregon's defenders score their books
    notrump = replay_ok(tmp_path, with_(record, declare={"trump": None}))
    assert notrump["contract"]["trump"] is None
    assert [t["winner"] for t in notrump["tricks"]] == [2, 2]    # the AD holds: no trumps
    replay_illegal(tmp_path, with_(record, declare={"trump": "S"}), "declare", "first card led")
    assert replay_ok(tmp_path, with_(record, declare={})) == trumps  # names nothing: no declare


def test_simulated_first_lead_records_have_no_declare_for_trump_hands(tmp_path):
    variant = _variant(tmp_path, "lead", LEAD_VARIANT)
    rules = load_ruleset(str(tmp_path / variant))
    seen = set()
    for i in range(12):
        state = play_hand(rules, 8, i)
        record = hand_record(state, variant)
        if state.declarer < 0:
            continue
        if state.trump >= 0:
            assert "declare" not in record
        else:
            assert record["declare"] == {"trump": None}
        seen.add(state.trump >= 0)
        out = replay_ok(tmp_path, record)
        assert out["contract"] == state.contract and out["score"] == list(state.score)
    assert True in seen


def test_claim_counts_the_discards_book_as_the_variant_says(tmp_path):
    """With the discards going to the first trick's winner, a claim still totals 13 books."""
    variant = _variant(tmp_path, "firsttrick", "name: first-trick-book\ntitle: t\nextends: standard\n"
                                              "kitty:\n  discards: first-trick\n")
    # Seat 0 leads KS into seat 1's AS (defenders take trick 1 and the discards), then
    # seat 1 leads 2H and seat 0's AH wins.
    play = ["KS", "AS", "4D", "3C", "2H", "7H", "4C", "AH"]
    for name, first_trick_book in (("standard", False), (variant, True)):
        out = replay_ok(tmp_path, with_(NT_RECORD, variant=name, play=play, claim=7))
        assert [t["winner"] for t in out["tricks"]] == [1, 0]
        assert sum(out["books"]) == 13
        assert out["books"] == ([1 + 7, 1 + 1 + 3] if first_trick_book else [1 + 1 + 7, 1 + 3])


def test_redeal_with_the_same_dealer_in_a_game(tmp_path):
    variant = _variant(tmp_path, "redeal", "name: redeal-same\ntitle: t\nextends: standard\n"
                                           "auction:\n  if_all_pass: redeal\n  all_pass_dealer: same\n")
    thrown_in = with_(NT_RECORD, variant=variant, dealer=2, auction=["pass"] * 4,
                      declare=..., discard=..., play=...)
    again = with_(NT_RECORD, variant=variant)          # dealer 3 ...
    # ... but after a redeal here the same dealer deals again.
    replay_illegal(tmp_path, [thrown_in, again], "hand[1].dealer", "expected 2", name="game.jsonl")
    # Dealer 2: seat 3 calls first, and seat 0 still wins the auction with 4 notrump.
    same = with_(again, dealer=2, auction=["pass", "4 notrump", "pass", "pass"])
    out = replay_ok(tmp_path, [thrown_in, same], "game.jsonl")
    assert out["hands"][0]["contract"] is None and out["hands"][0]["score"] == [0, 0]
    assert out["hands"][1] == NT_EXPECTED
    assert out["totals"] == [12, 0] and out["winner"] == 0


TAKE_VARIANT = "name: take\ntitle: t\nextends: standard\nauction:\n  dealer_may_take: true\n"


def _take_record(tmp_path: Path, last_call: str) -> dict:
    """Seat 0 bids 4 uptown; the dealer (seat 3) takes it, names clubs, leads BJ, claims the rest."""
    return with_(NT_RECORD, variant=_variant(tmp_path, "take", TAKE_VARIANT),
                 auction=["4 uptown", "pass", "pass", last_call], declare={"trump": "C"},
                 discard="2S 3D 2D 3C 4C 5C".split(), play=["BJ", "AH", "2H", "7H"], claim=11)


TAKEN = {"contract": {"declarer": 3, "side": 1, "bid": 4, "strain": "uptown", "trump": "C",
                      "direction": "uptown"},
         "tricks": [{"leader": 3, "cards": ["BJ", "AH", "2H", "7H"], "winner": 3}],
         "books": [0, 13], "score": [0, 7], "error": None}


def test_the_matching_bid_means_take(tmp_path):
    assert replay_ok(tmp_path, _take_record(tmp_path, "4 uptown")) == TAKEN
    assert replay_ok(tmp_path, _take_record(tmp_path, "4 HIGH")) == TAKEN
    # Only the dealer may take, and only the high bid itself.
    replay_illegal(tmp_path, _take_record(tmp_path, "4 downtown"), "auction[3]", "does not outrank")
    record = _take_record(tmp_path, "pass")
    replay_illegal(tmp_path, with_(record, auction=["4 uptown", "4 uptown", "pass", "pass"]), "auction[1]")


def test_take_is_a_call(tmp_path):
    """records.md: `take` is a call.  Fails: runtime/notation.parse_call knows no 'take' (nor
    'redeal'), so records that `simulate --records` writes with them do not replay."""
    assert replay_ok(tmp_path, _take_record(tmp_path, "take")) == TAKEN
    assert replay_ok(tmp_path, _take_record(tmp_path, "TAKE")) == TAKEN


BARE_VARIANT = """name: bare
title: t
extends: standard
auction:
  strains:
    - {name: uptown, remove: true}
    - {name: downtown, remove: true}
    - {name: notrump, remove: true}
    - name: number
      bare: true
      trump: suit-or-none
      direction: [uptown, downtown]
  ranking: [[number]]
"""


def test_bare_number_bids_are_calls(tmp_path):
    """records.md: `<n>` is a bare-number bid.  Fails: runtime/notation.parse_call looks for a
    strain named "" instead of the strain's ``bare`` flag, so "4" is "not a call"."""
    record = with_(NT_RECORD, variant=_variant(tmp_path, "bare", BARE_VARIANT), auction=["4", "pass", "pass", "pass"])
    out = replay_ok(tmp_path, record)
    assert out["contract"] == {"declarer": 0, "side": 0, "bid": 4, "strain": "number", "trump": None,
                               "direction": "uptown"}
    assert out["tricks"] == NT_EXPECTED["tricks"] and out["score"] == NT_EXPECTED["score"]


def test_jokers_out_in_notrump_records_keep_the_cards_laid_away(tmp_path):
    """Library level (the CLI resolves no house rules yet): with jokers leaving play in
    notrump, other players swap their jokers for random discards.  The record must still
    list the cards the declarer laid away, so that it replays.

    Fails: runtime/hand.py's _swap_out_extras pops the drawn cards out of
    ``state.discards``, which hand_record writes, so the record is short of discards.
    """
    from runtime.records import RecordFile, replay_file

    def resolve(variant, with_rules):
        return load_ruleset(variant, with_rules=tuple(with_rules))

    rules = load_ruleset("standard", with_rules=("jokers-out-in-notrump",))
    checked = 0
    for i in range(40):
        state = play_hand(rules, 11, i)
        if state.declarer < 0 or state.trump >= 0:
            continue
        record = json.loads(json.dumps(hand_record(state, "standard", ["jokers-out-in-notrump"])))
        out = replay_file(RecordFile([record], False), resolve)
        assert out["error"] is None, (i, out["error"])
        assert out["score"] == list(state.score)
        checked += 1
    assert checked


# --------------------------------------------------------------------------- the real script
def test_script_replays_legal_illegal_and_non_records_without_traceback(tmp_path):
    good = write_record(tmp_path, NT_RECORD, "good.json")
    proc = script("replay", str(good), "--json")
    assert proc.returncode == 0 and json.loads(proc.stdout) == NT_EXPECTED
    bad = write_record(tmp_path, with_(NT_RECORD, play=_play(p2="AD")), "bad.json")
    proc = script("replay", str(bad), "--json")
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["error"] == {"at": "play[2]", "message": "seat 2 must follow hearts (holds 7H)"}
    proc = script("replay", str(bad))
    assert proc.returncode == 1 and proc.stdout == "" and "play[2]" in proc.stderr
    for name, text in (("broken.json", "{"), ("deep.json", "[" * 100000), ("empty.json", "")):
        path = write_record(tmp_path, text, name)
        proc = script("replay", str(path), "--json")
        assert proc.returncode == 2 and proc.stdout == ""
        assert len(proc.stderr.strip().splitlines()) == 1 and name in proc.stderr
    proc = script("replay", str(tmp_path / "nope.json"))
    assert proc.returncode == 2 and proc.stdout == ""


def test_calls_with_odd_digits_are_illegal_calls_not_a_crash(tmp_path):
    """'²' is a digit to str.isdigit but not to int(): runtime/notation.parse_call crashes on it."""
    replay_illegal(tmp_path, with_(NT_RECORD, auction=["² notrump", "pass", "pass", "pass"]), "auction[0]",
                   "not a call")


def test_declare_is_checked_before_discard_even_where_the_kitty_comes_first(tmp_path):
    # rhode-island takes the kitty before naming trump, but records.md's order of
    # checking puts `declare` before `discard`.
    rules = load_ruleset("rhode-island")
    record = next(r for r in (hand_record(play_hand(rules, 4, i), "rhode-island") for i in range(20))
                  if r.get("discard"))
    replay_illegal(tmp_path, dict(record, declare={"trump": "X"}, discard=record["discard"][:-1]), "declare",
                   "trump 'X' is not a suit of this deck")
    replay_illegal(tmp_path, dict(record, discard=record["discard"][:-1]), "discard",
                   f"must discard {len(record['discard'])} cards, the record has {len(record['discard']) - 1}")
    assert run_replay(write_record(tmp_path, record)).exit_code == 0


def test_northeast52_records_may_name_a_direction_by_its_aliases(tmp_path):
    # rules.md: the orders are named uptown, downtown and downtown-aces-bad; aliases
    # are fine on input, even where the bids (bare numbers) name no direction.
    rules = load_ruleset("northeast52")
    record = next(r for r in (hand_record(play_hand(rules, 3, i), "northeast52") for i in range(40))
                  if r.get("declare", {}).get("direction") in ("uptown", "downtown"))
    alias = {"uptown": "High", "downtown": "down"}[record["declare"]["direction"]]
    plain = run_replay(write_record(tmp_path, record))
    aliased = run_replay(write_record(tmp_path, dict(record, declare=dict(record["declare"], direction=alias))))
    assert plain.exit_code == aliased.exit_code == 0
    assert json.loads(aliased.stdout) == json.loads(plain.stdout)


def test_a_missing_kitty_of_one_card_is_named_in_the_singular(tmp_path):
    """A variant dealing a kitty of one card (cutthroat's 3 × 17 from 52 cards): the message for
    a record without its kitty says "the 1 card dealt to the kitty", as counts of cards agree
    with their number elsewhere ("kitty has 1 card")."""
    variant = _variant(tmp_path, "kitty-one", "name: kitty-one\ntitle: t\nextends: cutthroat\ndeck:\n  extra: ~\n"
                                              "deal:\n  kitty: 1\nplay:\n  trumps_above: ~\n  notrump_extras: ~\n")
    hands = [[f"{r}{s}" for r in "23456789TJQKA"] for s in "SHDC"]
    dealt = [c for hand in hands for c in hand][:51]
    record = {"format": "bidwhist-hand/1", "variant": variant, "dealer": 0,
              "hands": [dealt[i:i + 17] for i in range(0, 51, 17)], "auction": []}
    message = replay_illegal(tmp_path, record, "kitty", "the 1 card dealt to the kitty")
    assert "1 cards" not in message
