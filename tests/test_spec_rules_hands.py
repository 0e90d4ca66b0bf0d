"""Hand records built card by card, each worked out by hand from rules.md alone.

Every test here builds a hand record (records.md) with known cards, replays it with
``bidwhist replay FILE --json`` as another project's test suite would, and compares
the contract, tricks, books, score (or the error, for an illegal record) with what
the spec's own lines give. The expected figures are worked out in the comments from
the quoted line; none is read back from the engine.

The layouts keep the play short: in the "suited" deal each seat holds one suit
(seat 0 hearts, 1 spades, 2 diamonds, 3 clubs, ace down to the three), so a seat
void in the suit led may play anything, and a ``claim`` gives the rest of the books.
"""

from __future__ import annotations

import json

import pytest

from tests.clirun import run

RANKS = "AKQJT98765432"
LAYOUT = "HSDC"   # the suit seat s holds in the suited deal


def suit(s: str, ranks: str = "AKQJT9876543") -> list[str]:
    """The cards of suit ``s`` of the given ranks, in that order."""
    return [r + s for r in ranks]


def suited(kitty: str = "2H 2S 2D 2C BJ LJ", ranks: str = "AKQJT9876543") -> tuple[list[list[str]], list[str]]:
    """Seat s holds suit LAYOUT[s] of ``ranks``; the kitty is ``kitty``."""
    return [suit(LAYOUT[s], ranks) for s in range(4)], kitty.split()


def swap(hands: list[list[str]], kitty: list[str], a: str, b: str) -> None:
    """Exchange the places of cards ``a`` and ``b`` (in hands or kitty)."""
    places = [*hands, kitty]
    pa = next(p for p in places if a in p)
    pb = next(p for p in places if b in p)
    pa[pa.index(a)], pb[pb.index(b)] = b, a


def record(variant: str, hands, kitty, auction, *, dealer: int = 3, with_=(), **rest) -> dict:
    """A hand record of ``variant`` (records.md's fields; None values left out)."""
    out = {"format": "bidwhist-hand/1", "variant": variant, "with": list(with_), "dealer": dealer,
           "hands": hands, "kitty": kitty, "auction": auction}
    out.update({k: v for k, v in rest.items() if v is not None})
    return out


def replay(tmp_path, data, name: str = "hand.json"):
    """Replay ``data`` (a record, or a list of records for a game) as ``replay FILE --json``: (exit, JSON)."""
    path = tmp_path / name
    if isinstance(data, list):
        path = tmp_path / (name.rsplit(".", 1)[0] + ".jsonl")
        path.write_text("".join(json.dumps(r) + "\n" for r in data), encoding="utf-8")
    else:
        path.write_text(json.dumps(data), encoding="utf-8")
    result = run("replay", str(path), "--json")
    return result.exit_code, json.loads(result.stdout)


def ok(tmp_path, data) -> dict:
    """Replay a legal record: its JSON (asserting exit 0 and no error)."""
    code, out = replay(tmp_path, data)
    assert code == 0 and out.get("error") is None, out.get("error")
    return out


def illegal(tmp_path, data) -> dict:
    """Replay an illegal record: its error (asserting exit 1)."""
    code, out = replay(tmp_path, data)
    assert code == 1 and out["error"], out
    return out["error"]


def won_first(variant: str, declarer: int, bid: str, declare, claim, *, dealer: int = 3, with_=(),
              kitty: str = "2H 2S 2D 2C BJ LJ", ranks: str = "AKQJT9876543", discard=None, lead=None):
    """The suited deal where ``declarer`` wins the auction with ``bid`` (everyone else passes),
    lays away the kitty as dealt, leads its own ace (the others, void, throw their lowest card:
    the declarer wins it in any contract) and the declaring side claims ``claim`` more tricks."""
    hands, kit = suited(kitty, ranks)
    n = 4
    first = (dealer + 1) % n
    auction = ["pass" if (first + i) % n != declarer else bid for i in range(n)]
    own = LAYOUT[declarer]
    lead = lead or "A" + own
    play = [lead] + [hands[(declarer + k) % n][-1] for k in range(1, n)]
    return record(variant, hands, kit, auction, dealer=dealer, with_=with_, declare=declare,
                  discard=list(discard if discard is not None else kit), play=play, claim=claim)


# ============================================================================ §1 standard: scoring
# §1 "it then scores all its books over six (overtricks count). If set, it loses the bid. ...
# Notrump doubles the hand's score, made or set. Example: 4 notrump making 11 books scores 10;
# taking 8 books scores −8."
@pytest.mark.parametrize("bid, declare, claim, books, score", [
    # 1 trick + the discards' book + 9 claimed = 11 books: 5 over, doubled = 10 (the spec's example)
    ("4 notrump", {"trump": None, "direction": "uptown"}, 9, [11, 2], [10, 0]),
    # 1 + 1 + 6 = 8 books: set, minus the bid 4, doubled = -8 (the spec's example)
    ("4 notrump", {"trump": None, "direction": "downtown"}, 6, [8, 5], [-8, 0]),
    # exactly 10 books on 4: 4 over
    ("4 uptown", {"trump": "H"}, 8, [10, 3], [4, 0]),
    # 12 books on 3 downtown: all 6 over count
    ("3 downtown", {"trump": "H"}, 10, [12, 1], [6, 0]),
    # 9 books on a bid of 4: set by one, minus 4 (not minus the shortfall)
    ("4 uptown", {"trump": "H"}, 7, [9, 4], [-4, 0]),
    # a bid of 7 is all 13 books: 7 over
    ("7 downtown", {"trump": "H"}, 11, [13, 0], [7, 0]),
])
def test_standard_scores_as_section_1_says(tmp_path, bid, declare, claim, books, score):
    """§1 scoring, on seat 0's contract (dealer 3, seat 0 calls first)."""
    out = ok(tmp_path, won_first("standard", 0, bid, declare, claim))
    assert out["contract"]["declarer"] == 0 and out["contract"]["side"] == 0
    assert out["books"] == books and out["score"] == score


def test_standard_side_one_declares_and_the_score_lands_on_side_one(tmp_path):
    """Seat 1 wins with 5 notrump (seat 0 passes first), takes 12 books: 6 over doubled = 12 for side 1."""
    out = ok(tmp_path, won_first("standard", 1, "5 notrump", {"trump": None, "direction": "uptown"}, 10))
    assert out["contract"]["side"] == 1
    assert out["books"] == [1, 12] and out["score"] == [0, 12]


# ============================================================================ §1 standard: the ladder
# §1 "Each call is pass or a bid above the highest so far ... At one number uptown and downtown
# are equal (neither overcalls the other) and notrump outranks both: 3u = 3d < 3nt < 4u = 4d < 4nt"
@pytest.mark.parametrize("with_, auction, bad", [
    ((), ["4 uptown", "4 downtown"], 1),           # equal: does not overcall
    ((), ["4 downtown", "4 uptown"], 1),
    ((), ["4 notrump", "5 uptown", "5 downtown"], 2),
    ((), ["4 notrump", "4 uptown"], 1),
    ((), ["3 notrump", "3 downtown"], 1),
    ((), ["pass", "pass", "pass", "pass"], 3),     # "If the first three pass, the dealer must bid."
    (("min-bid-4",), ["3 uptown"], 0),             # §8 "lowest bid 4"
    (("min-bid-4",), ["pass", "pass", "pass", "3 notrump"], 3),  # the forced dealer too
    (("low-beats-high",), ["4 downtown", "4 uptown"], 1),   # downtown overcalls uptown, not back
    (("low-beats-high",), ["4 notrump", "4 downtown"], 1),
    (("level-only",), ["4 uptown", "4 notrump"], 1),       # "only a higher number overcalls"
    (("level-only",), ["4 notrump", "4 downtown"], 1),
    (("notrump-from-4",), ["3 notrump"], 0),       # §9 "3 notrump does not exist"
    (("notrump-from-4",), ["3 uptown", "pass", "pass", "3 notrump"], 3),
    (("first-caller-bids",), ["pass"], 0),         # §9 "the first caller ... may not pass"
])
def test_a_call_the_ladder_refuses_is_illegal_at_that_call(tmp_path, with_, auction, bad):
    """The first call that does not outrank the last (or may not be made) is the record's error."""
    hands, kitty = suited()
    err = illegal(tmp_path, record("standard", hands, kitty, auction, with_=with_))
    assert err["at"] == f"auction[{bad}]", err


@pytest.mark.parametrize("with_, auction, declarer, bid, strain", [
    ((), ["3 uptown", "3 notrump", "4 downtown", "4 notrump"], 3, 4, "notrump"),
    ((), ["pass", "pass", "pass", "3 downtown"], 3, 3, "downtown"),  # the forced dealer may bid 3
    (("low-beats-high",), ["4 uptown", "4 downtown", "4 notrump", "pass"], 2, 4, "notrump"),
    (("low-beats-high",), ["3 uptown", "3 downtown", "pass", "pass"], 1, 3, "downtown"),
    (("level-only",), ["3 notrump", "4 uptown", "pass", "pass"], 1, 4, "uptown"),
    (("notrump-from-4",), ["3 downtown", "4 notrump", "pass", "pass"], 1, 4, "notrump"),
    (("min-bid-4",), ["pass", "pass", "pass", "4 uptown"], 3, 4, "uptown"),
    (("first-caller-bids",), ["3 uptown", "pass", "pass", "pass"], 0, 3, "uptown"),
])
def test_the_ladder_lets_these_calls_stand(tmp_path, with_, auction, declarer, bid, strain):
    """Calls that do outrank: the contract is the last bid's, by the seat that made it (in progress)."""
    hands, kitty = suited()
    out = ok(tmp_path, record("standard", hands, kitty, auction, with_=with_, in_progress=True))
    c = out["contract"]
    assert (c["declarer"], c["bid"], c["strain"]) == (declarer, bid, strain), c


def test_all_pass_redeal_throws_the_hand_in(tmp_path):
    """§8 all-pass-redeal: "if all pass, the next dealer deals a new hand": no contract, no score."""
    hands, kitty = suited()
    out = ok(tmp_path, record("standard", hands, kitty, ["pass"] * 4, with_=("all-pass-redeal",)))
    assert out["contract"] is None and out["score"] == [0, 0]


# ============================================================================ jokers and deuces in play
def _jokers_out_to_1_and_2(kitty: str = "2H 2S 2D 2C BJ LJ"):
    """The suited deal with BJ in seat 1's hand (for its 3S) and LJ in seat 2's (for its 3D)."""
    hands, kit = suited(kitty)
    swap(hands, kit, "BJ", "3S")
    swap(hands, kit, "LJ", "3D")
    return hands, kit   # kitty now 2H 2S 2D 2C 3S 3D


@pytest.mark.parametrize("direction, lead", [("uptown", "AH"), ("downtown", "KH")])
def test_jokers_are_the_two_highest_trumps_in_either_direction(tmp_path, direction, lead):
    """Terms: "In a suit contract the jokers are the two highest trumps, big over little, above the
    ace, in either direction"; §1 "a player who holds a joker and no other trump follows a trump
    lead with it". Seat 0 leads its best heart (trump); seats 1 and 2, holding a joker and no
    heart, must play it; BJ wins. Seat 1 then leads AS: seat 0, void in spades, ruffs and wins."""
    hands, kitty = _jokers_out_to_1_and_2()
    discard = "2S 2D 2C 3S 3D 3H".split()
    rec = record("standard", hands, kitty, ["4 " + direction, "pass", "pass", "pass"],
                 declare={"trump": "H"}, discard=discard,
                 play=[lead, "BJ", "LJ", "3C", "AS", "4D", "4C", "5H"], claim=10)
    out = ok(tmp_path, rec)
    assert [t["winner"] for t in out["tricks"]] == [1, 0]
    # side 0: one trick + the discards + 10 claimed = 12; side 1 one trick
    assert out["books"] == [12, 1] and out["score"] == [6, 0]
    # seat 1 may not keep its joker back on the trump lead: it is its only trump
    rec["play"][1] = "AS"
    assert illegal(tmp_path, rec)["at"] == "play[1]"


def test_notrump_jokers_never_win_and_the_first_non_joker_card_sets_the_suit(tmp_path):
    """§1 "Jokers in no trump: they belong to no suit and never win. A joker may be led ... If a
    joker is led, the next player may play any card, and the first non-joker card played sets the
    suit to follow." Seat 0 (4 notrump uptown) keeps 2S 2D 3D from the kitty.
    Trick 1: 2S, AS (seat 1 wins), 4D, 3C. Trick 2: seat 1 leads BJ, seat 2 plays 5D (any card),
    so diamonds are led: seat 3 (no diamond) throws 4C, seat 0 must play a diamond (3D); 5D wins.
    Trick 3: seat 2 leads LJ, seat 3's 5C sets clubs; nobody else has one: seat 3 wins."""
    hands, kitty = _jokers_out_to_1_and_2()
    play = ["2S", "AS", "4D", "3C", "BJ", "5D", "4C", "3D", "LJ", "5C", "2D", "5S"]
    rec = record("standard", hands, kitty, ["4 notrump", "pass", "pass", "pass"],
                 declare={"trump": None, "direction": "uptown"}, discard="2H 2C 3S 3H 4H 5H".split(),
                 play=play, claim=9)
    out = ok(tmp_path, rec)
    assert [(t["leader"], t["winner"]) for t in out["tricks"]] == [(0, 1), (1, 2), (2, 3)]
    # side 0: trick 2 + the discards + 9 claimed = 11: 5 over, doubled: 10
    assert out["books"] == [11, 2] and out["score"] == [10, 0]
    bad = dict(rec, play=play[:7] + ["AH"] + play[8:])   # seat 0 holds 3D: must follow diamonds
    assert illegal(tmp_path, bad)["at"] == "play[7]"
    bad = dict(rec, play=["2S", "BJ"] + play[2:])          # seat 1 holds spades: no joker
    assert illegal(tmp_path, bad)["at"] == "play[1]"


def test_jokers_free_in_notrump_lets_a_joker_go_when_able_to_follow_and_it_still_loses(tmp_path):
    """§8 jokers-free-in-notrump: "a joker may be played even when able to follow suit; it still
    never wins". Seat 1 keeps AS back and plays BJ on 2S: seat 0's 2S, the only spade, wins."""
    hands, kitty = _jokers_out_to_1_and_2()
    rec = record("standard", hands, kitty, ["4 notrump", "pass", "pass", "pass"], with_=("jokers-free-in-notrump",),
                 declare={"trump": None, "direction": "uptown"}, discard="2H 2C 3S 3H 4H 5H".split(),
                 play=["2S", "BJ", "LJ", "3C"], claim=10)
    out = ok(tmp_path, rec)
    assert out["tricks"][0]["winner"] == 0
    assert out["books"] == [12, 1] and out["score"] == [12, 0]


def test_big_joker_notrump_wins_every_trick_it_is_played_to(tmp_path):
    """§9 big-joker-notrump: "in notrump the big joker is the highest card of every trick it is
    played to (it may be played like any joker there: led, or when void; it wins); the little
    joker stays worthless". Trick 1: AH, BJ (seat 1 void in hearts) wins; LJ loses. Without
    the rule seat 0's AH wins it."""
    hands, kitty = _jokers_out_to_1_and_2()
    rec = record("standard", hands, kitty, ["4 notrump", "pass", "pass", "pass"], with_=("big-joker-notrump",),
                 declare={"trump": None, "direction": "uptown"}, discard="2H 2C 3S 3H 4H 5H".split(),
                 play=["AH", "BJ", "LJ", "3C", "AS", "4D", "4C", "2S"], claim=0)
    out = ok(tmp_path, rec)
    assert [t["winner"] for t in out["tricks"]] == [1, 1]
    # side 0 keeps only the discards' book: 1; side 1: 12. Set 4 notrump: -8
    assert out["books"] == [1, 12] and out["score"] == [-8, 0]
    plain = ok(tmp_path, dict(rec, play=rec["play"][:4], **{"with": []}))
    assert plain["tricks"][0]["winner"] == 0 and plain["books"] == [2, 11]


def test_jokers_out_in_notrump_swaps_and_the_discards_still_a_book(tmp_path):
    """§8 jokers-out-in-notrump: "jokers in the kitty stay out, the declarer discards down to the
    hand size with any jokers it holds among the discards (laid apart from the others), and then
    each other player holding one swaps it for a random card from the declarer's other, face-down
    discards ... The discards still count as one book." Seat 0 declares notrump; BJ is in seat
    1's hand, LJ stays in the kitty (stays out): seat 0 takes the other 5 (17 cards) and lays
    away 5; seat 1 swaps BJ for one of them."""
    hands, kitty = suited()
    swap(hands, kitty, "BJ", "3S")            # kitty: 2H 2S 2D 2C 3S LJ
    discard = "2H 2S 2D 2C 3S".split()
    rec = record("standard", hands, kitty, ["4 notrump", "pass", "pass", "pass"], with_=("jokers-out-in-notrump",),
                 declare={"trump": None, "direction": "uptown"}, discard=discard,
                 swaps=[{"seat": 1, "gave": "BJ", "drew": "2D"}],
                 play=["AH", "2D", "3D", "3C"], claim=10)
    out = ok(tmp_path, rec)
    assert out["books"] == [12, 1] and out["score"] == [12, 0]
    # a swap is due: without it the record is illegal at swaps
    assert illegal(tmp_path, {k: v for k, v in rec.items() if k != "swaps"})["at"] == "swaps"
    # the joker left in the kitty is not taken: discarding six (LJ among them) is wrong
    assert illegal(tmp_path, dict(rec, discard=[*discard, "LJ"]))["at"] == "discard"


def test_deuce_of_spades_is_a_trump_not_a_spade_in_suit_contracts(tmp_path):
    """§8 deuce-of-spades: "one joker (BJ), and 2S is the second-highest trump in suit contracts (it
    counts as a trump, not a spade, there); in notrump it is an ordinary spade; kitty of 5".
    Seat 1 holds 2S (for its 3S). Hearts trump: seat 0 leads AH, seat 1 must play 2S (its only
    trump) and wins it (BJ > 2S > AH). Seat 1 leads AS; seat 0 (no spade kept) ruffs."""
    hands, kitty = suited("2H 2S 2D 2C BJ")
    swap(hands, kitty, "2S", "3S")            # kitty: 2H 3S 2D 2C BJ
    rec = record("standard", hands, kitty, ["4 uptown", "pass", "pass", "pass"], with_=("deuce-of-spades",),
                 declare={"trump": "H"}, discard="3S 2D 2C 2H 3H".split(),
                 play=["AH", "2S", "3D", "3C", "AS", "4D", "4C", "BJ"], claim=10)
    out = ok(tmp_path, rec)
    assert [t["winner"] for t in out["tricks"]] == [1, 0]
    assert out["books"] == [12, 1] and out["score"] == [6, 0]
    assert illegal(tmp_path, dict(rec, play=["AH", "AS"] + rec["play"][2:]))["at"] == "play[1]"
    # In notrump 2S is a spade, the lowest: seat 0 keeps 3S and leads it; seat 1 must follow with
    # a spade (2S or another) and 3S beats 2S.
    nt = dict(rec, auction=["4 notrump", "pass", "pass", "pass"], declare={"trump": None, "direction": "uptown"},
              discard="BJ 2D 2C 2H 3H".split(), play=["3S", "2S", "3D", "3C"], claim=10)
    out = ok(tmp_path, nt)
    assert out["tricks"][0]["winner"] == 0 and out["score"] == [12, 0]


def test_jokers_and_deuce_ranks_2s_third(tmp_path):
    """§8 jokers-and-deuce: "both jokers, 2S third-highest trump, kitty of 6". Hearts trump: seat 1
    holds 2S, seat 2 LJ; on AH both must play them (their only trumps): LJ wins."""
    hands, kitty = suited()
    swap(hands, kitty, "2S", "3S")
    swap(hands, kitty, "LJ", "3D")            # kitty: 2H 3S 2D 2C BJ 3D
    rec = record("standard", hands, kitty, ["4 uptown", "pass", "pass", "pass"], with_=("jokers-and-deuce",),
                 declare={"trump": "H"}, discard="3S 2D 2C 3D 3H 4H".split(),
                 play=["AH", "2S", "LJ", "3C"], claim=0)
    out = ok(tmp_path, rec)
    assert out["tricks"][0]["winner"] == 2
    # seat 2 is seat 0's partner: side 0 has that trick and the discards' book (2), side 1
    # the 11 others: set 4: -4
    assert out["books"] == [2, 11] and out["score"] == [-4, 0]


@pytest.mark.parametrize("with_, kitty, bad_kitty", [
    (("one-joker",), "2H 2S 2D 2C BJ", "2H 2S 2D 2C LJ"),      # "the joker kept is BJ"
    (("no-jokers",), "2H 2S 2D 2C", "2H 2S 2D BJ"),
    (("no-red-deuces",), "2S 2C BJ LJ", "2H 2C BJ LJ"),       # "drops 2H and 2D ... kitty of 4"
    (("deuce-of-spades",), "2H 2S 2D 2C BJ", "2H 2S 2D 2C LJ"),
    (("jokers-and-deuce",), "2H 2S 2D 2C BJ LJ", "2H 2S 2D 2C BJ"),
])
def test_the_deck_and_kitty_each_rule_deals(tmp_path, with_, kitty, bad_kitty):
    """The deck and kitty of each rule: a deal of it replays (seat 0's 4 uptown, the kitty laid
    away, 12 books = 6); a deal with the wrong cards is illegal at the kitty."""
    out = ok(tmp_path, won_first("standard", 0, "4 uptown", {"trump": "H"}, 10, with_=with_, kitty=kitty))
    assert out["books"] == [12, 1] and out["score"] == [6, 0]
    hands, _ = suited()
    err = illegal(tmp_path, record("standard", hands, bad_kitty.split(), ["4 uptown"], with_=with_, in_progress=True))
    assert err["at"] in ("hands", "kitty")


def test_no_kitty_deals_13_and_bids_from_1(tmp_path):
    """§8 no-kitty: "52 cards, 13 each, bids from 1". Seat 0 bids 1 uptown, takes 7 of 13: 1."""
    hands = [suit(LAYOUT[s], RANKS) for s in range(4)]
    rec = record("standard", hands, [], ["1 uptown", "pass", "pass", "pass"], with_=("no-kitty",),
                 declare={"trump": "H"}, play=["AH", "2S", "2D", "2C"], claim=6)
    out = ok(tmp_path, rec)
    assert out["books"] == [7, 6] and out["score"] == [1, 0]
