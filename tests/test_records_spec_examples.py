"""Every example of records.md as a test: the spec's own values, in concrete hands worked by hand.

records.md abbreviates its examples (``"..."``); each test here fills the gaps with a
deal that keeps every value the spec shows, and checks `bidwhist replay --json`
against results worked out by hand from the standard rules (rules.md section 1):
13 books (12 tricks and the discards' book), a contract of ``bid`` needs 6 + bid
books, made scores the books over 6, set loses the bid, notrump doubles both.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from clirun import run
from worked_hands import NT_RECORD, with_changes

# ---------------------------------------------------------------------------------------------
# records.md "Hand record (JSON object)": dealer 3, hands[0] starts AS KS, the kitty starts
# with BJ, auction pass / 4 uptown / pass / 4 notrump, declare notrump downtown, discard
# 2C-7C, play starts AH 2H 3H 4H, claim 5.
#
# Seat 0 passes, seat 1 bids 4 uptown, seat 2 passes, seat 3 (the dealer) bids 4 notrump
# and declares downtown (aces stay high: A 2 3 ... K).  Seat 3 takes the kitty (the jokers,
# 6C 7C KC AC), lays away 2C-7C, and leads AH: 2H, 3H, 4H follow and the ace wins.  Then
# seat 3 claims 5 of the 11 tricks left.
SPEC_HAND = {
    "format": "bidwhist-hand/1",
    "variant": "standard",
    "with": [],
    "dealer": 3,
    "hands": [
        "AS KS QS JS TS 9S 2H 8D 9D TD JD QD".split(),
        "8S 7S 6S 5S 3H 5H 6H 7H KD AD 2D 3D".split(),
        "4S 3S 2S 4H 8H 9H TH JH 4D 5D 6D 7D".split(),
        "AH KH QH 2C 3C 4C 5C 8C 9C TC JC QC".split(),
    ],
    "kitty": "BJ LJ 6C 7C KC AC".split(),
    "auction": ["pass", "4 uptown", "pass", "4 notrump"],
    "declare": {"trump": None, "direction": "downtown"},
    "discard": ["2C", "3C", "4C", "5C", "6C", "7C"],
    "play": ["AH", "2H", "3H", "4H"],
    "claim": 5,
}


def write(path: Path, data) -> Path:
    """A hand record (dict) or a game record (list of dicts) at ``path``."""
    if isinstance(data, list):
        path.write_text("".join(json.dumps(r) + "\n" for r in data), encoding="utf-8")
    else:
        path.write_text(json.dumps(data), encoding="utf-8")
    return path


def replay(tmp_path: Path, data, status: int = 0, name: str = "hand.json") -> dict:
    """``bidwhist replay FILE --json`` of ``data``, checking the exit status."""
    result = run("replay", str(write(tmp_path / name, data)), "--json")
    assert result.exit_code == status, result.stdout + result.stderr
    return json.loads(result.stdout)


def test_the_deal_of_the_spec_hand_is_the_deck():
    """The filled-in example deals each of the 54 cards once: 12 to a seat, 6 to the kitty."""
    cards = [c for hand in SPEC_HAND["hands"] for c in hand] + SPEC_HAND["kitty"]
    assert len(cards) == len(set(cards)) == 54
    assert all(len(hand) == 12 for hand in SPEC_HAND["hands"])


def test_the_spec_hand_record_replays(tmp_path):
    """records.md's hand record example, replayed: seat 3 takes one trick, the discards' book and
    the 5 tricks claimed, 7 books; side 0 the other 6.  4 notrump needs 10: set, -4 doubled."""
    out = replay(tmp_path, SPEC_HAND)
    assert out == {
        "contract": {"declarer": 3, "side": 1, "bid": 4, "strain": "notrump", "trump": None,
                     "direction": "downtown"},
        "tricks": [{"leader": 3, "cards": ["AH", "2H", "3H", "4H"], "winner": 3}],
        "books": [6, 7],
        "score": [0, -8],
        "error": None,
    }


# ---------------------------------------------------------------------------------------------
# records.md "`bidwhist replay FILE --json`": seat 1 declares 4 notrump downtown and leads the
# first trick, AH 2H 3H 4H, which it wins.  The same deal turned two seats round, dealt by
# seat 0 so that seat 1 calls first.
def turned(record: dict) -> dict:
    """``record`` with every seat s moved to (s + 2) % 4 (dealer 3 becomes 1: seat 2 calls first)."""
    out = copy.deepcopy(record)
    out["hands"] = [record["hands"][(s + 2) % 4] for s in range(4)]
    out["dealer"] = 0
    out["auction"] = ["4 notrump", "pass", "pass", "pass"]
    return out


def test_the_spec_output_example_contract_and_trick(tmp_path):
    """The output example's contract and trick: {"declarer": 1, "side": 1, "bid": 4, "strain":
    "notrump", "trump": null, "direction": "downtown"} and {"leader": 1, "cards": ["AH", "2H",
    "3H", "4H"], "winner": 1}.  Claiming 8 of the 11 tricks left, side 1 has 1 + 1 + 8 = 10
    books: made, 4 over doubled, the example's score [0, 8] (with books [3, 10])."""
    out = replay(tmp_path, dict(turned(SPEC_HAND), claim=8))
    assert out == {
        "contract": {"declarer": 1, "side": 1, "bid": 4, "strain": "notrump", "trump": None,
                     "direction": "downtown"},
        "tricks": [{"leader": 1, "cards": ["AH", "2H", "3H", "4H"], "winner": 1}],
        "books": [3, 10],
        "score": [0, 8],
        "error": None,
    }


def test_the_spec_output_example_books_are_a_set_under_standard(tmp_path):
    """The output example's books [4, 9] (claiming 7): 9 books do not make 4 notrump (10
    needed), so standard scores them [0, -8], not the example's [0, 8] -- the example shows the
    shape of the output, its score and books do not belong to one standard hand."""
    out = replay(tmp_path, dict(turned(SPEC_HAND), claim=7))
    assert out["books"] == [4, 9] and out["score"] == [0, -8]


# ---------------------------------------------------------------------------------------------
# records.md "swaps": [{"seat": 1, "gave": "LJ", "drew": "7C"}] under jokers-out-in-notrump.
# The spec hand with the little joker dealt to seat 1 (for its 3D, now in the kitty): in
# notrump the kitty's BJ stays out, seat 3 takes the other five and lays away five; seat 1
# gives up LJ and draws 7C from the discards.
SWAP_HAND = copy.deepcopy(SPEC_HAND)
SWAP_HAND["with"] = ["jokers-out-in-notrump"]
SWAP_HAND["hands"][1] = "8S 7S 6S 5S 3H 5H 6H 7H KD AD 2D LJ".split()
SWAP_HAND["kitty"] = "BJ 3D 6C 7C KC AC".split()
SWAP_HAND["discard"] = ["2C", "3C", "4C", "5C", "7C"]
SWAP_HAND["swaps"] = [{"seat": 1, "gave": "LJ", "drew": "7C"}]


def test_the_spec_swap_example(tmp_path):
    """records.md: `[{"seat": 1, "gave": "LJ", "drew": "7C"}]`; the books as in the spec hand
    (one trick, the discards' book, 5 claimed: 7 for side 1, a set of 4 notrump)."""
    out = replay(tmp_path, SWAP_HAND)
    assert out["tricks"] == [{"leader": 3, "cards": ["AH", "2H", "3H", "4H"], "winner": 3}]
    assert out["books"] == [6, 7] and out["score"] == [0, -8]
    text = run("replay", str(tmp_path / "hand.json"))
    assert "seat 1 gave LJ and drew 7C from the discards" in text.stdout


def test_the_swap_example_is_needed_and_exact(tmp_path):
    """"a record that needs a swap and lacks it, or names one that the rules do not allow, is
    illegal at `swaps`"; "`drew` is one of the declarer's discards"."""
    lacking = {k: v for k, v in SWAP_HAND.items() if k != "swaps"}
    assert replay(tmp_path, lacking, status=1)["error"]["at"] == "swaps"
    assert replay(tmp_path, dict(SWAP_HAND, swaps=[]), status=1)["error"]["at"] == "swaps"
    not_a_discard = dict(SWAP_HAND, swaps=[{"seat": 1, "gave": "LJ", "drew": "8C"}])
    assert replay(tmp_path, not_a_discard, status=1)["error"]["at"] == "swaps"
    wrong_seat = dict(SWAP_HAND, swaps=[{"seat": 2, "gave": "LJ", "drew": "7C"}])
    assert replay(tmp_path, wrong_seat, status=1)["error"]["at"] == "swaps"


# ---------------------------------------------------------------------------------------------
# records.md: `"error": {"at": "play[17]", "message": "..."}` "for example `seat 2 must follow
# hearts (holds 7H)`"; reneges `{"at": "play[17]", "seat": 2, "suit": "H"}`; in a game record
# `hand[3].play[17]`.
#
# Seat 0 (4 notrump, uptown, the kitty laid away) cashes KS QS JS, seat 1 following low and
# seats 2 and 3 throwing diamonds and clubs; 9S loses to seat 1's AS; seat 1 leads 2H, the
# 18th card (play[17]) is seat 2's, who holds only 7H in hearts and throws 8D.
RENEGE_HAND = with_changes(  # the worked deal of worked_hands.py, another play
    NT_RECORD,
    play=("KS 3S 4D 3C  QS 4S 5D 4C  JS 5S 6D 5C  9S AS 7D 6C  2H 8D 7C AH").split(),
    claim=7,
)


def test_the_spec_error_example(tmp_path):
    """records.md: status 1, `"error": {"at": "play[17]", "message": ...}` naming the rule and
    the seat: `seat 2 must follow hearts (holds 7H)`; nothing is scored."""
    out = replay(tmp_path, RENEGE_HAND, status=1)
    assert out == {"contract": None, "tricks": None, "books": None, "score": None,
                   "error": {"at": "play[17]", "message": "seat 2 must follow hearts (holds 7H)"}}


def test_the_spec_renege_example(tmp_path):
    """With renege-penalty the renege stands: `{"at": "play[17]", "seat": 2, "suit": "H"}`.
    Side 0 took tricks 1-3 and 5, the discards' book and the 7 claimed: 12 books, 3 of which
    the penalty moves to side 1 (renege-penalty: 3 books): [9, 4], and 9 books set 4 notrump."""
    out = replay(tmp_path, dict(RENEGE_HAND, **{"with": ["renege-penalty"]}))
    assert out["reneges"] == [{"at": "play[17]", "seat": 2, "suit": "H"}]
    assert out["books"] == [9, 4] and out["score"] == [-8, 0]
    assert [t["winner"] for t in out["tricks"]] == [0, 0, 0, 1, 0]


def passed_out(dealer: int) -> dict:
    """A hand everyone passes (all-pass-redeal: thrown in, the next dealer deals)."""
    return dict(RENEGE_HAND, dealer=dealer, auction=["pass"] * 4,
                **{k: None for k in ("declare", "discard", "play", "claim")})


def game_of(hand: dict, with_rules: list[str]) -> list[dict]:
    """Three thrown-in hands (dealers 0, 1, 2), then ``hand`` (dealer 3) as hand[3]."""
    lines = [passed_out(d) for d in range(3)] + [hand]
    return [{k: v for k, v in dict(line, **{"with": with_rules}).items() if v is not None} for line in lines]


def test_the_spec_game_record_prefix(tmp_path):
    """records.md: "In a game record, `at` is prefixed with the hand's index: `hand[3].play[17]`"
    -- for the error and for a renege that stood."""
    illegal = replay(tmp_path, game_of(RENEGE_HAND, ["all-pass-redeal"]), status=1, name="game.jsonl")
    assert illegal["error"] == {"at": "hand[3].play[17]", "message": "seat 2 must follow hearts (holds 7H)"}
    assert illegal["hands"] is None and illegal["totals"] is None
    stood = replay(tmp_path, game_of(RENEGE_HAND, ["all-pass-redeal", "renege-penalty"]), name="game.jsonl")
    assert stood["hands"][3]["reneges"] == [{"at": "hand[3].play[17]", "seat": 2, "suit": "H"}]
    assert [h["contract"] for h in stood["hands"][:3]] == [None, None, None]
    assert [h["score"] for h in stood["hands"]] == [[0, 0], [0, 0], [0, 0], [-8, 0]]
    # records.md: {"hands": [...], "totals": [...], "winner": ..., "games": [...]}; side 0 at
    # -8 has lost the game to 7 (standard: a side at -7 or below loses).
    assert stood["totals"] == [-8, 0] and stood["winner"] == 1
    assert stood["games"] == [{"first_hand": 0, "hands": 4, "totals": [-8, 0], "winner": 1}]
    assert stood["error"] is None


# ---------------------------------------------------------------------------------------------
# records.md "Calls": `pass`, `<n>` for a bare-number bid, `<n> <strain>` otherwise; standard's
# `uptown` = `high` = `up`, `downtown` = `low` = `down`, `notrump` = `nt` = `no`; Cincinnati
# also `special` for downtown; `take` (or the matching bid itself) and `redeal`.
@pytest.mark.parametrize("up", ["uptown", "high", "up", "UPTOWN", "High"])
@pytest.mark.parametrize("nt", ["notrump", "nt", "no", "NT", "No"])
def test_the_spec_strain_aliases(tmp_path, up, nt):
    """Every alias the spec lists gives the same hand as the spec's own spelling, canonical out."""
    out = replay(tmp_path, dict(SPEC_HAND, auction=["Pass", f"4 {up}", "PASS", f"4 {nt}"]))
    assert out["contract"]["strain"] == "notrump" and out["score"] == [0, -8]


@pytest.mark.parametrize("down", ["downtown", "low", "down", "Low"])
def test_the_spec_downtown_aliases(tmp_path, down):
    """`downtown` = `low` = `down`: seat 1's 4 downtown is outbid by seat 3's 4 notrump as 4 uptown is."""
    out = replay(tmp_path, dict(SPEC_HAND, auction=["pass", f"4 {down}", "pass", "4 notrump"]))
    assert out["score"] == [0, -8]
    # ... and 4 downtown does not outrank 4 uptown (one rank group in standard).
    err = replay(tmp_path, dict(SPEC_HAND, auction=["pass", "4 uptown", f"4 {down}", "pass"]), status=1)["error"]
    assert err["at"] == "auction[2]" and "does not outrank 4 uptown" in err["message"]


# A deal of 52 cards, 12 a seat and a kitty of 4 (northeast52), in which seat 0 holds no face card.
NORTHEAST_HANDS = [
    "2S 3S 4S 5S 6S 7S 2H 3H 4H 5H 6H 7H".split(),
    "8S 9S TS JS QS KS AS 8H 9H TH JH QH".split(),
    "KH AH 2D 3D 4D 5D 6D 7D 8D 9D TD JD".split(),
    "QD KD AD 2C 3C 4C 5C 6C 7C 8C 9C TC".split(),
]


def northeast(auction: list[str], **more) -> dict:
    """A northeast52 record of NORTHEAST_HANDS dealt by seat 3 (seat 0 calls first)."""
    return {"format": "bidwhist-hand/1", "variant": "northeast52", "with": [], "dealer": 3,
            "hands": NORTHEAST_HANDS, "kitty": "JC QC KC AC".split(), "auction": auction, **more}


def test_redeal_by_a_player_without_face_cards_ends_the_hand(tmp_path):
    """`redeal` (a player with no face cards, where the variant allows it; the auction ends
    there); "A hand that ended without a contract ... has no declare, discard or play" and
    "`contract` is `null` for a hand that ended without one (and `score` is all zero)"."""
    out = replay(tmp_path, northeast(["REDEAL"]))
    assert out == {"contract": None, "tricks": [], "books": [0, 0], "score": [0, 0], "error": None}
    err = replay(tmp_path, northeast(["pass", "redeal"]), status=1)["error"]   # seat 1 holds faces
    assert err["at"] == "auction[1]" and "seat 1" in err["message"]
    # The message names the rule broken: which card forbids it, and who may redeal.
    assert err["message"] == ("seat 1 cannot call redeal: it holds JS, and only a hand without any J, Q or K "
                              "may, or the dealer when everyone else passed")
    err = replay(tmp_path, dict(SPEC_HAND, auction=["redeal"]), status=1)["error"]
    assert err == {"at": "auction[0]", "message": "seat 0 cannot call redeal: this variant has no redeal call"}
    err = replay(tmp_path, dict(SPEC_HAND, auction=["redeal"], **{"with": ["all-pass-redeal"]}), status=1)["error"]
    assert err["message"].endswith("no redeal call (the hand is thrown in when everyone passes)")
    err = replay(tmp_path, northeast(["redeal", "pass"]), status=1)["error"]   # the auction ended there
    assert err["at"] == "auction"


@pytest.mark.parametrize("take", ["take", "Take", "4"])
def test_take_or_the_matching_bid(tmp_path, take):
    """`take` (a dealer who may take the contract by matching the high bid; the matching bid
    itself, such as `4`, means the same): the dealer, seat 3, declares a 4."""
    out = replay(tmp_path, northeast(["4", "pass", "pass", take], in_progress=True))
    assert out["contract"]["declarer"] == 3 and out["contract"]["side"] == 1 and out["contract"]["bid"] == 4
    assert out["in_progress"] is True and out["score"] is None
    err = replay(tmp_path, northeast(["4", "take", "pass", "pass"], in_progress=True), status=1)["error"]
    assert err["at"] == "auction[1]" and "seat 1" in err["message"]   # only the dealer takes


def test_cincinnati_special_is_downtown(tmp_path):
    """"Cincinnati also `special` for downtown": `4 special` is the 4 downtown bid."""
    hands = [[f"{rank}{suit}" for rank in "23456789TJQKA"] for suit in "SHDC"]
    record = {"format": "bidwhist-hand/1", "variant": "cincinnati", "with": [], "dealer": 3, "hands": hands,
              "kitty": [], "auction": ["4 Special", "pass", "pass", "pass"], "in_progress": True}
    out = replay(tmp_path, record)
    assert out["contract"]["strain"] == "downtown" and out["contract"]["direction"] == "downtown"
    assert out["contract"]["declarer"] == 0 and out["contract"]["bid"] == 4


# ---------------------------------------------------------------------------------------------
# records.md game records: `{"hands": [...], "totals": [7, -2], "winner": 0, "games": [...]}` and
# a games entry `{"first_hand": 0, "hands": 5, "totals": [11, 4], "winner": 0}`.
#
# Deals in which each seat holds one suit: the declarer leads a card nobody can follow or
# beat, takes the first trick and claims the rest of its books.  Every line below is worked
# by hand from the variant's scoring.
def one_suit_each(suits: str, size: int) -> list[list[str]]:
    """Seat s holds the ``size`` highest cards of suit ``suits[s]``."""
    return [[f"{rank}{suit}" for rank in "AKQJT98765432"[:size]] for suit in suits]


def standard_game_hand(dealer: int, auction: list[str], declarer: int, books: int) -> dict:
    """A standard hand: ``declarer`` bids in its own suit uptown, lays away the four deuces and
    its two lowest, leads the big joker (a trump nobody can follow) and claims up to ``books``
    books (the trick, the discards' book and the claim)."""
    suit = "SHDC"[declarer]
    followers = [(declarer + k) % 4 for k in (1, 2, 3)]
    return {"format": "bidwhist-hand/1", "variant": "standard", "with": [], "dealer": dealer,
            "hands": one_suit_each("SHDC", 12), "kitty": "2S 2H 2D 2C BJ LJ".split(),
            "auction": auction, "declare": {"trump": suit},
            "discard": ["2S", "2H", "2D", "2C", f"3{suit}", f"4{suit}"],
            "play": ["BJ"] + [f"3{'SHDC'[s]}" for s in followers], "claim": books - 2}


# Standard: defenders score nothing; made scores the books over 6, set loses the bid.
STANDARD_GAME = [
    standard_game_hand(0, ["3 uptown", "pass", "pass", "pass"], 1, 9),    # side 1 makes 3: +3
    standard_game_hand(1, ["pass", "5 uptown", "pass", "pass"], 3, 10),   # side 1 set at 5: -5
    standard_game_hand(2, ["pass", "7 uptown", "pass", "pass"], 0, 13),   # side 0 makes 7: +7, reaches 7
]


def test_the_spec_game_record_example(tmp_path):
    """`{"hands": [...], "totals": [7, -2], "winner": 0, "games": [...]}`: side 1 +3 then -5,
    side 0 +7 in the third hand, which reaches standard's 7 and wins the game."""
    out = replay(tmp_path, STANDARD_GAME, name="game.jsonl")
    assert [h["score"] for h in out["hands"]] == [[0, 3], [0, -5], [7, 0]]
    assert [h["books"] for h in out["hands"]] == [[4, 9], [3, 10], [13, 0]]
    assert out["totals"] == [7, -2] and out["winner"] == 0 and out["error"] is None
    assert out["games"] == [{"first_hand": 0, "hands": 3, "totals": [7, -2], "winner": 0}]
    assert set(out) == {"hands", "totals", "winner", "games", "error"}


def oregon_hand(dealer: int, auction: list[str], declarer: int, books: int) -> dict:
    """An oregon hand (13 cards a seat, no kitty): ``declarer`` leads its ace, which names
    trump and which nobody can follow, and claims up to ``books`` books."""
    followers = [(declarer + k) % 4 for k in (1, 2, 3)]
    return {"format": "bidwhist-hand/1", "variant": "oregon", "with": [], "dealer": dealer,
            "hands": one_suit_each("SHDC", 13), "kitty": [], "auction": auction,
            "play": [f"A{'SHDC'[declarer]}"] + [f"2{'SHDC'[s]}" for s in followers], "claim": books - 1}


# Oregon: made scores the books over 6, set loses the bid, the defenders score their own books;
# a game is to 11, a rubber best of three.  Running totals: -1/10, 6/10, 10/6, 6/10, 11/4.
OREGON_GAME = [
    oregon_hand(0, ["pass", "1", "pass", "pass"], 2, 3),     # side 0 set at 1: -1, side 1 +10
    oregon_hand(1, ["1", "pass", "pass", "pass"], 2, 13),    # side 0 makes 1 with 13: +7
    oregon_hand(2, ["4", "pass", "pass", "pass"], 3, 9),     # side 1 set at 4: -4, side 0 +4
    oregon_hand(3, ["4", "pass", "pass", "pass"], 0, 9),     # side 0 set at 4: -4, side 1 +4
    oregon_hand(0, ["6", "pass", "pass", "pass"], 1, 8),     # side 1 set at 6: -6, side 0 +5
]


def test_the_spec_games_entry_example(tmp_path):
    """`{"first_hand": 0, "hands": 5, "totals": [11, 4], "winner": 0}`: side 0 reaches oregon's
    11 in the fifth hand and wins the rubber's first game; the rubber goes on (`winner` null),
    and the totals are that game's "also when that game has just ended"."""
    out = replay(tmp_path, OREGON_GAME, name="game.jsonl")
    assert [h["score"] for h in out["hands"]] == [[-1, 10], [7, 0], [4, -4], [-4, 4], [5, -6]]
    assert out["games"] == [{"first_hand": 0, "hands": 5, "totals": [11, 4], "winner": 0}]
    assert out["totals"] == [11, 4] and out["winner"] is None
    assert [h["contract"]["trump"] for h in out["hands"]] == ["D", "D", "C", "S", "H"]   # the first lead's suit
    text = run("replay", str(tmp_path / "game.jsonl")).stdout
    assert "game 1 won by side 0+2, 11 to 4 (hands 1-5)" in text
    assert "rubber in progress: 1 game won, game 2 still to play" in text
