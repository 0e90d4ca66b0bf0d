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


@pytest.mark.parametrize("variant, with_", [
    ("standard", ("deuce-of-spades", "jokers-and-deuce")),   # the later of two deck rules holds
    ("standard", ("one-joker", "jokers-and-deuce")),
    ("standard", ("no-jokers", "jokers-and-deuce")),
    ("northeast52", ("jokers-and-deuce",)),   # as deuce-of-spades there: the rule's deck and kitty
])
def test_jokers_and_deuce_deals_both_jokers_and_a_kitty_of_6(tmp_path, variant, with_):
    """§8 jokers-and-deuce states its deal as deuce-of-spades does: "both jokers, 2S third-highest
    trump, kitty of 6". Laid after a rule that dropped a joker, or on a 52-card game, the deal is
    that one: the hand of test_jokers_and_deuce_ranks_2s_third (LJ wins the first trick over 2S)."""
    hands, kitty = suited()
    swap(hands, kitty, "2S", "3S")
    swap(hands, kitty, "LJ", "3D")            # kitty: 2H 3S 2D 2C BJ 3D
    auction = ["4", "pass", "pass", "pass"] if variant == "northeast52" else ["4 uptown", "pass", "pass", "pass"]
    declare = {"trump": "H", "direction": "uptown"} if variant == "northeast52" else {"trump": "H"}
    rec = record(variant, hands, kitty, auction, with_=with_, declare=declare,
                 discard="3S 2D 2C 3D 3H 4H".split(), play=["AH", "2S", "LJ", "3C"], claim=0)
    out = ok(tmp_path, rec)
    assert out["tricks"][0]["winner"] == 2


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
    assert err["at"] == "kitty"


def test_no_kitty_deals_13_and_bids_from_1(tmp_path):
    """§8 no-kitty: "52 cards, 13 each, bids from 1". Seat 0 bids 1 uptown, takes 7 of 13: 1."""
    hands = [suit(LAYOUT[s], RANKS) for s in range(4)]
    rec = record("standard", hands, [], ["1 uptown", "pass", "pass", "pass"], with_=("no-kitty",),
                 declare={"trump": "H"}, play=["AH", "2S", "2D", "2C"], claim=6)
    out = ok(tmp_path, rec)
    assert out["books"] == [7, 6] and out["score"] == [1, 0]


# ============================================================================ §8/§9 on standard: the hand
@pytest.mark.parametrize("with_, claim, books, score", [
    # §8 plain-notrump: 4 notrump making 11 books scores 5, not 10
    (("plain-notrump",), 9, [11, 2], [5, 0]),
    # §8 rise-and-fly: "a sweep of all 13 books by the declaring side scores double": 7 over x2, and
    # notrump doubles again: 28
    (("rise-and-fly",), 11, [13, 0], [28, 0]),
    # one book short of a sweep: 6 over, doubled for notrump only
    (("rise-and-fly",), 10, [12, 1], [12, 0]),
    # §8 defenders-score: "the defending side scores one per book over six it took (doubled in
    # notrump ...)": side 1 takes 8, 2 over, doubled: 4; side 0 set on 4 notrump: -8
    (("defenders-score",), 3, [5, 8], [-8, 4]),
    # and with plain-notrump nothing is doubled: the variant no longer doubles notrump
    (("defenders-score", "plain-notrump"), 3, [5, 8], [-4, 2]),
    # a made hand leaves the defenders 3 or fewer books: nothing for them
    (("defenders-score",), 8, [10, 3], [8, 0]),
])
def test_house_rules_on_a_4_notrump_hand(tmp_path, with_, claim, books, score):
    """Seat 0's 4 notrump (uptown) with the house rules named, books by claim."""
    out = ok(tmp_path, won_first("standard", 0, "4 notrump", {"trump": None, "direction": "uptown"}, claim,
                                 with_=with_))
    assert out["books"] == books and out["score"] == score


@pytest.mark.parametrize("with_, bid, declare, score", [
    # §8 boston-x4: "a made bid of 7 scores four times over (28)"
    (("boston-x4",), "7 uptown", {"trump": "H"}, [28, 0]),
    # ... and notrump doubles it: 56
    (("boston-x4",), "7 notrump", {"trump": None, "direction": "uptown"}, [56, 0]),
    # a sweep on a bid of 6 is not a bid of 7: 7 over, not multiplied
    (("boston-x4",), "6 uptown", {"trump": "H"}, [7, 0]),
    # rise-and-fly alone on the 7 uptown sweep: 14
    (("rise-and-fly",), "7 uptown", {"trump": "H"}, [14, 0]),
])
def test_a_sweep_on_a_high_bid(tmp_path, with_, bid, declare, score):
    """Side 0 takes all 13 books (one trick, the discards and 11 claimed)."""
    out = ok(tmp_path, won_first("standard", 0, bid, declare, 11, with_=with_))
    assert out["books"] == [13, 0] and out["score"] == score


def test_a_set_bid_of_7_under_boston_x4_loses_only_the_bid(tmp_path):
    """boston-x4 multiplies "a made bid of 7": a set 7 uptown (12 books) is -7."""
    out = ok(tmp_path, won_first("standard", 0, "7 uptown", {"trump": "H"}, 10, with_=("boston-x4",)))
    assert out["books"] == [12, 1] and out["score"] == [-7, 0]


def test_eldest_leads(tmp_path):
    """§8 eldest-leads: "the player left of the dealer leads the first trick". Dealer 1: seat 2 calls
    first and leads, though seat 0 declares 4 uptown in hearts; seat 0 ruffs the diamond ace."""
    hands, kitty = suited()
    rec = record("standard", hands, kitty, ["pass", "pass", "4 uptown", "pass"], dealer=1, with_=("eldest-leads",),
                 declare={"trump": "H"}, discard=kitty, play=["AD", "3C", "3H", "3S"], claim=10)
    out = ok(tmp_path, rec)
    assert out["tricks"][0] == {"leader": 2, "cards": ["AD", "3C", "3H", "3S"], "winner": 0}
    assert out["books"] == [12, 1] and out["score"] == [6, 0]
    # without the rule the declarer leads: seat 0 does not hold AD
    assert illegal(tmp_path, dict(rec, **{"with": []}))["at"] == "play[0]"


def test_left_of_declarer_leads(tmp_path):
    """§9 left-of-declarer-leads: seat 0 declares, seat 1 leads AS; seat 0 ruffs with 3H."""
    hands, kitty = suited()
    rec = record("standard", hands, kitty, ["4 uptown", "pass", "pass", "pass"], with_=("left-of-declarer-leads",),
                 declare={"trump": "H"}, discard=kitty, play=["AS", "3D", "3C", "3H"], claim=10)
    out = ok(tmp_path, rec)
    assert out["tricks"][0]["leader"] == 1 and out["tricks"][0]["winner"] == 0
    assert out["score"] == [6, 0]


def test_partner_takes_kitty(tmp_path):
    """§9 partner-takes-kitty: "the declarer's partner takes the kitty and lays away the same number
    of cards (still the declaring side's first book); the declarer still names trump first and
    leads". Seat 0 names hearts; seat 2 takes the kitty (with both jokers), keeps the jokers and
    lays away 2H 2S 2D 2C 3D 4D. Seat 0 leads AH: seat 2 must follow with a joker (its only
    trumps): LJ wins it for side 0."""
    hands, kitty = suited()
    discard = "2H 2S 2D 2C 3D 4D".split()
    rec = record("standard", hands, kitty, ["4 uptown", "pass", "pass", "pass"], with_=("partner-takes-kitty",),
                 declare={"trump": "H"}, discard=discard, play=["AH", "3S", "LJ", "3C"], claim=10)
    out = ok(tmp_path, rec)
    assert out["tricks"][0]["winner"] == 2
    assert out["books"] == [12, 1] and out["score"] == [6, 0]
    assert illegal(tmp_path, dict(rec, play=["AH", "3S", "5D", "3C"]))["at"] == "play[2]"
    # seat 0 does not take the kitty: laying away its own hearts is wrong
    assert illegal(tmp_path, dict(rec, discard="2H 2S 2D 2C 3H 4H".split()))["at"] == "discard"


def test_spades_trump_the_bid_names_only_the_direction(tmp_path):
    """§9 spades-trump: "spades are always trump in a suit contract; an uptown or downtown bid
    names only the direction (the declarer names no suit)". Seat 0 bids 4 downtown: spades are
    trump, so seat 1 ruffs seat 0's AH with 3S and wins; naming hearts is illegal."""
    hands, kitty = suited()
    rec = record("standard", hands, kitty, ["4 downtown", "pass", "pass", "pass"], with_=("spades-trump",),
                 discard=kitty, play=["AH", "3S", "3D", "3C"], claim=0)
    out = ok(tmp_path, rec)
    assert out["contract"]["trump"] == "S" and out["contract"]["direction"] == "downtown"
    assert out["tricks"][0]["winner"] == 1
    # side 0 keeps the discards' book only: set 4, -4
    assert out["books"] == [1, 12] and out["score"] == [-4, 0]
    assert illegal(tmp_path, dict(rec, declare={"trump": "H"}))["at"] == "declare"
    # notrump is as §1: the declarer names the direction
    nt = won_first("standard", 0, "4 notrump", {"trump": None, "direction": "downtown"}, 9, with_=("spades-trump",))
    out = ok(tmp_path, nt)
    assert out["contract"]["trump"] is None and out["score"] == [10, 0]


def test_kitty_first_names_trump_after_the_discard(tmp_path):
    """§8 kitty-first: the declarer takes the kitty before naming trump; the record's fields are
    the same and the hand scores as without it."""
    out = ok(tmp_path, won_first("standard", 0, "4 uptown", {"trump": "H"}, 9, with_=("kitty-first",)))
    assert out["books"] == [11, 2] and out["score"] == [5, 0]


# ============================================================================ renege-penalty
def _renege_hand(renege_seat: int, claim: int) -> dict:
    """Seat 0 declares 4 uptown in hearts and leads AH; ``renege_seat`` holds 3H (swapped for its
    own three) but plays another card: a renege that stands under renege-penalty."""
    hands, kitty = suited()
    own = LAYOUT[renege_seat]
    swap(hands, kitty, "3H", "3" + own)
    play = ["AH"] + [("A" if s == renege_seat else "4") + LAYOUT[s] for s in (1, 2, 3)]
    return record("standard", hands, kitty, ["4 uptown", "pass", "pass", "pass"], with_=("renege-penalty",),
                  declare={"trump": "H"}, discard=kitty, play=play, claim=claim)


@pytest.mark.parametrize("seat, claim, books, score", [
    # defender seat 1 reneges; side 0 took 1 + 1 + 6 = 8, side 1 5: 3 books move: 11 to 2, made 4: 5
    (1, 6, [11, 2], [5, 0]),
    # side 1 took 1 (< 3): "the hand is scored as if the other side took all 13": 7
    (1, 10, [13, 0], [7, 0]),
    # the declarer's partner reneges: side 0 took 1 + 1 + 8 = 10, gives 3: 7 books, set: -4
    (2, 8, [7, 6], [-4, 0]),
])
def test_renege_penalty_moves_three_books(tmp_path, seat, claim, books, score):
    """§8 renege-penalty: "a renege stands and is scored: 3 of the reneging side's books go to the
    other side; if it took fewer than 3, the hand is scored as if the other side took all 13"."""
    rec = _renege_hand(seat, claim)
    out = ok(tmp_path, rec)
    assert out["reneges"] == [{"at": "play[%d]" % seat, "seat": seat, "suit": "H"}]
    assert out["books"] == books and out["score"] == score
    # without the rule the same card is refused
    err = illegal(tmp_path, dict(rec, **{"with": []}))
    assert err["at"] == "play[%d]" % seat and "3H" in err["message"]


# ============================================================================ §2 northeast52
NE_KITTY = "2H 2S 2D 2C"


def _ne(auction, declare, play, claim, discard=NE_KITTY, **rest):
    """A northeast52 hand of the suited deal (kitty 2H 2S 2D 2C), dealer 3."""
    hands, kitty = suited(NE_KITTY)
    return record("northeast52", hands, kitty, auction, declare=declare, discard=discard.split(), play=play,
                  claim=claim, **rest)


@pytest.mark.parametrize("declare, claim, books, score", [
    # the declarer wins the first trick, worth 2 books with the discards: 2 + 9 = 11 on 4: 5 over
    ({"trump": "H", "direction": "uptown"}, 9, [11, 2], [5, 0]),
    # notrump is not doubled
    ({"trump": None, "direction": "uptown"}, 9, [11, 2], [5, 0]),
    # 2 + 8 = 10: made exactly, 4
    ({"trump": "H", "direction": "downtown-aces-bad"}, 8, [10, 3], [4, 0]),
    # 2 + 7 = 9: set; "the opponents score the bid"
    ({"trump": "H", "direction": "downtown"}, 7, [9, 4], [0, 4]),
])
def test_northeast52_scores(tmp_path, declare, claim, books, score):
    """§2: "The discards belong to whoever wins the first trick: that trick is worth 2 books";
    "made: the declaring side scores books over six ... Set: the opponents score the bid ...
    Notrump is not doubled." Seat 0 bids 4 and leads the ace of hearts, which nobody can beat."""
    out = ok(tmp_path, _ne(["4", "pass", "pass", "pass"], declare, ["AH", "3S", "3D", "3C"], claim))
    assert out["books"] == books and out["score"] == score


@pytest.mark.parametrize("direction, winner", [("uptown", 1), ("downtown", 1), ("downtown-aces-bad", 0)])
def test_northeast52_the_discards_go_with_the_first_trick_to_the_defenders(tmp_path, direction, winner):
    """Seat 0 declares spades and leads 2S (from the kitty); seat 1 must follow with AS. Uptown and
    downtown (aces good) the ace wins, so the first trick and the discards (2 books) go to side 1;
    aces bad, 2S is the highest spade and they are side 0's. Side 0 then claims 9 of the 11 left."""
    play = ["2S", "AS", "3D", "3C"]
    out = ok(tmp_path, _ne(["4", "pass", "pass", "pass"], {"trump": "S", "direction": direction}, play, 9,
                           discard="2H 2D 2C 3H"))
    assert out["tricks"][0]["winner"] == winner
    if winner == 1:   # side 0 has 9: set, side 1 scores the bid
        assert out["books"] == [9, 4] and out["score"] == [0, 4]
    else:             # side 0 has 2 + 9 = 11: 5
        assert out["books"] == [11, 2] and out["score"] == [5, 0]


@pytest.mark.parametrize("auction, declarer, bid", [
    (["4", "pass", "pass", "take"], 3, 4),        # the dealer takes by matching
    (["4", "pass", "pass", "4"], 3, 4),           # records.md: "the matching bid itself ... means the same"
    (["pass", "4", "pass", "take"], 3, 4),        # "even from partner"
    (["2", "3", "pass", "5"], 3, 5),              # or bids higher
    (["pass", "pass", "pass", "1"], 3, 1),        # all pass: the dealer bids 1 or more
])
def test_northeast52_the_dealer(tmp_path, auction, declarer, bid):
    """§2 "The dealer may pass, bid higher, or take the contract by matching the high bid (even from
    partner). If the first three pass, the dealer bids (1 or more) or calls redeal"."""
    hands, kitty = suited(NE_KITTY)
    out = ok(tmp_path, record("northeast52", hands, kitty, auction, in_progress=True))
    assert (out["contract"]["declarer"], out["contract"]["bid"]) == (declarer, bid)


@pytest.mark.parametrize("auction, bad", [
    (["4", "4"], 1),                          # the first three must bid higher
    (["pass", "pass", "pass", "pass"], 3),    # the dealer must bid or redeal
    (["pass", "redeal"], 1),                  # seat 1 holds face cards: no redeal
    (["take"], 0),                            # only the dealer takes
    (["pass", "pass", "pass", "take"], 3),    # ... a bid there is: nothing to match
    (["2", "pass", "pass", "1"], 3),          # the dealer matches or bids higher, not lower
])
def test_northeast52_calls_refused(tmp_path, auction, bad):
    """The calls §2 does not allow are illegal at that call."""
    hands, kitty = suited(NE_KITTY)
    assert illegal(tmp_path, record("northeast52", hands, kitty, auction))["at"] == f"auction[{bad}]"


def _no_face_cards_for_seat_0():
    """Seat 0's KH QH JH go to the kitty for 2S 2D 2C: seat 0 holds no king, queen or jack."""
    hands, kitty = suited(NE_KITTY)
    for face, deuce in (("KH", "2S"), ("QH", "2D"), ("JH", "2C")):
        swap(hands, kitty, face, deuce)
    return hands, kitty


def test_northeast52_a_hand_without_face_cards_may_redeal_and_the_same_dealer_deals(tmp_path):
    """§2 "Any player, dealer included, who holds no king, queen or jack may call redeal instead of
    bidding on their turn (same dealer deals again)". A game record: the next hand's dealer is
    the same seat (3); dealer 0 there is illegal at hand[1].dealer."""
    hands, kitty = _no_face_cards_for_seat_0()
    thrown = record("northeast52", hands, kitty, ["redeal"])
    out = ok(tmp_path, thrown)
    assert out["contract"] is None and out["score"] == [0, 0]
    nxt = _ne(["4", "pass", "pass", "pass"], {"trump": "H", "direction": "uptown"}, ["AH", "3S", "3D", "3C"], 9)
    code, game = replay(tmp_path, [thrown, nxt])
    assert code == 0 and game["totals"] == [5, 0] and game["winner"] is None
    code, game = replay(tmp_path, [thrown, dict(nxt, dealer=0)])
    assert code == 1 and game["error"]["at"] == "hand[1].dealer"


def test_northeast52_first_to_21(tmp_path):
    """§2 "Game: first side to 21 or more": three sweeps of 7 (2 + 11 books each)."""
    hands = []
    for dealer in (3, 0, 1):
        rec = won_first("northeast52", 0, "7", {"trump": "H", "direction": "uptown"}, 11, dealer=dealer,
                        kitty=NE_KITTY)
        hands.append(rec)
    code, game = replay(tmp_path, hands[:2])
    assert code == 0 and game["totals"] == [14, 0] and game["winner"] is None
    code, game = replay(tmp_path, hands)
    assert code == 0 and game["totals"] == [21, 0] and game["winner"] == 0


# ============================================================================ §5 rhode-island
@pytest.mark.parametrize("bid, declare, claim, books, score", [
    # made: "one point for each book the side took, the discards' book included": 1 + 1 + 8 = 10
    ("3", {"trump": "H"}, 8, [10, 3], [10, 0]),
    # "Notrump doubles every score of the hand": 20
    ("3", {"trump": None}, 8, [10, 3], [20, 0]),
    # set 4 (side 0 has 1 + 1 + 3 = 5, side 1 8): the bid plus 2 over six = 6, doubled: 12
    ("4", {"trump": None}, 3, [5, 8], [0, 12]),
    # set 4 with side 1 at 5 books: only the bid
    ("4", {"trump": "H"}, 7, [9, 4], [0, 4]),
])
def test_rhode_island_scores(tmp_path, bid, declare, claim, books, score):
    """§5 scoring on seat 0's contract."""
    out = ok(tmp_path, won_first("rhode-island", 0, bid, declare, claim, kitty=NE_KITTY))
    assert out["books"] == books and out["score"] == score


@pytest.mark.parametrize("auction, declarer, bid", [
    (["3", "pass", "pass", "3"], 3, 3),      # "the dealer only needs to match the high bid (and then takes it)"
    (["3", "pass", "pass", "take"], 3, 3),
    (["3", "4", "pass", "5"], 3, 5),
    (["pass", "pass", "pass", "1"], 3, 1),   # all pass: the dealer must bid
])
def test_rhode_island_the_dealer(tmp_path, auction, declarer, bid):
    """§5 auction: once around, the dealer may match."""
    hands, kitty = suited(NE_KITTY)
    out = ok(tmp_path, record("rhode-island", hands, kitty, auction, in_progress=True))
    assert (out["contract"]["declarer"], out["contract"]["bid"]) == (declarer, bid)


@pytest.mark.parametrize("auction, bad", [
    (["3", "3"], 1), (["pass", "pass", "pass", "pass"], 3), (["3 notrump"], 0), (["8"], 0)])
def test_rhode_island_calls_refused(tmp_path, auction, bad):
    """Bare numbers 1–7, no notrump bid; the first three must bid higher; the dealer must bid."""
    hands, kitty = suited(NE_KITTY)
    assert illegal(tmp_path, record("rhode-island", hands, kitty, auction))["at"] == f"auction[{bad}]"


# ============================================================================ §6 hawaii
@pytest.mark.parametrize("bid, declare, claim, books, score", [
    ("3", {"trump": "H"}, 7, [9, 4], [1, 0]),     # made: +1
    ("3", {"trump": "H"}, 6, [8, 5], [0, 2]),     # "set the contract with 8 − bid books": 5 on a 3
    ("5", {"trump": None}, 9, [11, 2], [1, 0]),   # notrump: still 1
    ("5", {"trump": None}, 8, [10, 3], [0, 2]),   # 3 books set a 5
    ("7", {"trump": "H"}, 11, [13, 0], [1, 0]),
])
def test_hawaii_scores(tmp_path, bid, declare, claim, books, score):
    """§6 "made: +1 to the declaring side; set: +2 to the opponents"."""
    out = ok(tmp_path, won_first("hawaii", 0, bid, declare, claim, kitty=NE_KITTY))
    assert out["books"] == books and out["score"] == score


def test_hawaii_bids_from_3_and_a_forced_dealer(tmp_path):
    """§6 "Bids bare numbers 3–7; the auction as in standard (once round, the dealer must bid if all pass)"."""
    hands, kitty = suited(NE_KITTY)
    assert illegal(tmp_path, record("hawaii", hands, kitty, ["2"]))["at"] == "auction[0]"
    assert illegal(tmp_path, record("hawaii", hands, kitty, ["pass"] * 4))["at"] == "auction[3]"
    assert illegal(tmp_path, record("hawaii", hands, kitty, ["3", "pass", "pass", "take"]))["at"] == "auction[3]"


# ============================================================================ §4 cincinnati
FULL = RANKS   # 13 cards a suit: no kitty


@pytest.mark.parametrize("bid, declare, claim, books, score, direction", [
    ("2 notrump", {"trump": None, "direction": "uptown"}, 8, [9, 4], [6, 0], "uptown"),   # 3 over doubled
    ("2 notrump", {"trump": None, "direction": "downtown"}, 6, [7, 6], [-4, 0], "downtown"),  # set, doubled
    ("1 special", {"trump": "H"}, 6, [7, 6], [1, 0], "downtown"),
    ("1", {"trump": "H"}, 12, [13, 0], [7, 0], "uptown"),
])
def test_cincinnati_scores(tmp_path, bid, declare, claim, books, score, direction):
    """§4: 13 each, no kitty; "as standard: ... books over six scored, set loses the bid, notrump
    doubled". Seat 0 leads AH (wins: nobody else holds a heart)."""
    hands = [suit(LAYOUT[s], FULL) for s in range(4)]
    rec = record("cincinnati", hands, [], [bid, "pass", "pass", "pass"], declare=declare,
                 play=["AH", "2S", "2D", "2C"], claim=claim)
    out = ok(tmp_path, rec)
    assert out["contract"]["direction"] == direction
    assert out["books"] == books and out["score"] == score


@pytest.mark.parametrize("auction, bad", [
    (["1 special", "1"], 1), (["1 notrump", "1 special"], 1), (["1", "1 uptown"], 1),
    (["pass", "pass", "pass", "pass"], 3), (["8"], 0)])
def test_cincinnati_ladder(tmp_path, auction, bad):
    """§4 "special beats uptown and notrump beats both at one number: 1 < 1 special < 1 notrump < 2"."""
    hands = [suit(LAYOUT[s], FULL) for s in range(4)]
    assert illegal(tmp_path, record("cincinnati", hands, [], auction))["at"] == f"auction[{bad}]"
    good = record("cincinnati", hands, [], ["1", "1 special", "1 notrump", "2"], in_progress=True)
    assert ok(tmp_path, good)["contract"]["declarer"] == 3


# ============================================================================ §3 oregon
def _oregon(auction, play, claim, declare=None, dealer=3):
    """An oregon hand of the suited deal, 13 cards a seat, no kitty."""
    hands = [suit(LAYOUT[s], FULL) for s in range(4)]
    return record("oregon", hands, [], auction, dealer=dealer, declare=declare, play=play, claim=claim)


def test_oregon_auction_goes_round_until_three_have_passed(tmp_path):
    """§3 "The auction goes round as often as needed until three players have passed; a player who
    passed is out of it." Seat 0 bids 1, seat 1 2, seats 2 and 3 pass, seat 0 3, seat 1 passes:
    seat 0's 3. Its first lead (AH) makes hearts trump. 1 + 8 claimed = 9 books: 3 over; side 1
    "scores one point per trick it took, every hand": 4."""
    rec = _oregon(["1", "2", "pass", "pass", "3", "pass"], ["AH", "2S", "2D", "2C"], 8)
    out = ok(tmp_path, rec)
    assert out["contract"]["declarer"] == 0 and out["contract"]["bid"] == 3 and out["contract"]["trump"] == "H"
    assert out["books"] == [9, 4] and out["score"] == [3, 4]
    # a player who passed is out of it: seat 2 may not bid after passing
    bad = _oregon(["1", "2", "pass", "pass", "3", "pass", "4"], ["AH", "2S", "2D", "2C"], 8)
    assert illegal(tmp_path, bad)["at"] in ("auction[6]", "auction")
    # set: 3 with 8 books: -3; the opponents' 5 tricks: 5
    out = ok(tmp_path, _oregon(["1", "2", "pass", "pass", "3", "pass"], ["AH", "2S", "2D", "2C"], 7))
    assert out["score"] == [-3, 5]
    # a declared notrump is not doubled: 9 books, 3
    out = ok(tmp_path, _oregon(["1", "2", "pass", "pass", "3", "pass"], ["AH", "2S", "2D", "2C"], 8,
                               declare={"trump": None}))
    assert out["contract"]["trump"] is None and out["score"] == [3, 4]


def test_oregon_a_dealer_left_alone_takes_exactly_1(tmp_path):
    """§3 "If the first three pass, the dealer must take a bid of 1 (exactly 1)"."""
    assert illegal(tmp_path, _oregon(["pass", "pass", "pass", "2"], None, None))["at"] == "auction[3]"
    assert illegal(tmp_path, _oregon(["pass", "pass", "pass", "pass"], None, None))["at"] == "auction[3]"
    out = ok(tmp_path, dict(_oregon(["pass", "pass", "pass", "1"], None, None), in_progress=True))
    assert (out["contract"]["declarer"], out["contract"]["bid"]) == (3, 1)


# ============================================================================ §7 cutthroat
def _cutthroat_deal():
    """Seat 0: 13 hearts and AS KS QS JS; seat 1: TS-2S and AD-7D; seat 2: 6D-3D and 13 clubs;
    kitty 2D BJ LJ (17, 17, 17 and 3: 54)."""
    return ([suit("H", FULL) + suit("S", "AKQJ"), suit("S", "T98765432") + suit("D", "AKQJT987"),
             suit("D", "6543") + suit("C", FULL)], "2D BJ LJ".split())


def _ct(bid, declare, claim, dealer=2):
    """A cutthroat hand of :func:`_cutthroat_deal`: seat 0 bids ``bid`` (the others pass), leads AH
    (the others, void, throw their lowest), and the seats claim ``claim`` of the 16 tricks left."""
    hands, kitty = _cutthroat_deal()
    first = (dealer + 1) % 3
    auction = [bid if (first + i) % 3 == 0 else "pass" for i in range(3)]
    return record("cutthroat", hands, kitty, auction, dealer=dealer, declare=declare, discard=kitty,
                  play=["AH", "2S", "2C"], claim=claim)


@pytest.mark.parametrize("bid, declare, claim, books, score", [
    # seat 0 takes 1 + the discards + 10 = 12 on 9: scores 12; each defender its own books
    ("9 uptown", {"trump": "H"}, [10, 3, 3], [12, 3, 3], [12, 3, 3]),
    # notrump doubles the declarer's score, not the defenders'
    ("9 notrump", {"trump": None, "direction": "uptown"}, [10, 3, 3], [12, 3, 3], [24, 3, 3]),
    # set: 8 books on 9: minus the bid
    ("9 downtown", {"trump": "H"}, [6, 5, 5], [8, 5, 5], [-9, 5, 5]),
    ("9 notrump", {"trump": None, "direction": "downtown"}, [6, 5, 5], [8, 5, 5], [-18, 5, 5]),
    # all 18
    ("18 uptown", {"trump": "H"}, [16, 0, 0], [18, 0, 0], [18, 0, 0]),
])
def test_cutthroat_scores(tmp_path, bid, declare, claim, books, score):
    """§7 "made: the declarer scores the books taken; set: minus the bid; notrump doubles the
    declarer's score; each defender scores the books they took themselves, every hand"."""
    out = ok(tmp_path, _ct(bid, declare, claim))
    assert out["books"] == books and out["score"] == score


def test_cutthroat_ladder(tmp_path):
    """§7 "bids 7–18 with uptown/downtown/notrump as in standard"."""
    hands, kitty = _cutthroat_deal()
    assert illegal(tmp_path, record("cutthroat", hands, kitty, ["6 uptown"], dealer=2))["at"] == "auction[0]"
    assert illegal(tmp_path, record("cutthroat", hands, kitty, ["9 uptown", "9 downtown"], dealer=2))["at"] == "auction[1]"
    assert illegal(tmp_path, record("cutthroat", hands, kitty, ["pass"] * 3, dealer=2))["at"] == "auction[2]"
    out = ok(tmp_path, record("cutthroat", hands, kitty, ["9 uptown", "9 notrump", "18 downtown"], dealer=2,
                              in_progress=True))
    assert (out["contract"]["declarer"], out["contract"]["bid"]) == (2, 18)


def test_cutthroat_two_defenders_reach_30_on_one_hand_tied(tmp_path):
    """§7 "First to 30 wins; if several reach 30 on one hand, the declarer wins if it is one of them,
    otherwise the highest score (on a tie, the first of them from the dealer's left)". Seat 0 bids
    9 and is set every hand (8 books: -9); seats 1 and 2 take 5 each: after five hands 25 each,
    after the sixth (dealer 1) 30 each: the first from seat 1's left is seat 2."""
    hands = [_ct("9 uptown", {"trump": "H"}, [6, 5, 5], dealer=d) for d in (2, 0, 1, 2, 0, 1)]
    code, game = replay(tmp_path, hands[:5])
    assert code == 0 and game["totals"] == [-45, 25, 25] and game["winner"] is None
    code, game = replay(tmp_path, hands)
    assert code == 0 and game["totals"] == [-54, 30, 30] and game["winner"] == 2
    # one more book to seat 1 on the last hand: 31 against 29 — seat 1 alone has 30
    last = _ct("9 uptown", {"trump": "H"}, [6, 6, 4], dealer=1)
    code, game = replay(tmp_path, hands[:5] + [last])
    assert code == 0 and game["winner"] == 1


# ============================================================================ §9 two-handed
def test_two_handed(tmp_path):
    """§9 two-handed: 12 each, kitty of 6, 24 unseen; "the auction once round from the non-dealer,
    a dealer who must bid if the other passes; scoring and game as in standard". Seat 0 (dealer 1's
    left) bids 4 notrump and takes 1 + the discards + 9 = 11 of 13 books: 10."""
    hands, kitty = suited()
    hands = hands[:2]
    rec = record("two-handed", hands, kitty, ["4 notrump", "pass"], dealer=1,
                 declare={"trump": None, "direction": "uptown"}, discard=kitty, play=["AH", "3S"], claim=9)
    out = ok(tmp_path, rec)
    assert out["books"] == [11, 2] and out["score"] == [10, 0]
    assert illegal(tmp_path, record("two-handed", hands, kitty, ["pass", "pass"], dealer=1))["at"] == "auction[1]"


# ============================================================================ game ends
DEALERS = [3, 0, 1, 2] * 4   # the deal passes to the left


def _std(i: int, declarer: int, bid: str, claim: int, with_=(), variant="standard", kitty="2H 2S 2D 2C BJ LJ"):
    """Hand ``i`` of a game: ``declarer`` wins with ``bid`` (its own suit trump, uptown) and its side
    takes 1 + the discards + ``claim`` books."""
    declare = {"trump": None, "direction": "uptown"} if bid.endswith("notrump") else {"trump": LAYOUT[declarer]}
    return won_first(variant, declarer, bid, declare, claim, dealer=DEALERS[i], with_=with_, kitty=kitty)


def _game(tmp_path, hands):
    """Replay a game record of ``hands``: its JSON (asserting exit 0)."""
    code, out = replay(tmp_path, hands)
    assert code == 0, out.get("error")
    return out


@pytest.mark.parametrize("with_, hands, totals, winner", [
    # §1 "a side with 7 or more wins": 4 uptown + 12 books = 6, then 3 uptown + 9 books = 3: 9
    ((), [(0, "4 uptown", 10), (0, "3 uptown", 7)], [9, 0], 0),
    # 6 is not yet 7
    ((), [(0, "4 uptown", 10)], [6, 0], None),
    # "a side at −7 or less loses": a set 7 notrump is -14
    ((), [(0, "7 notrump", 10)], [-14, 0], 1),
    # to-5: 4 uptown with 11 books = 5 wins; standard would go on
    (("to-5",), [(0, "4 uptown", 9)], [5, 0], 0),
    (("to-5",), [(1, "5 uptown", 7)], [0, -5], 0),
    # to-9: a 7-point sweep is not enough there
    (("to-9",), [(0, "4 uptown", 11)], [7, 0], None),
    (("to-9",), [(0, "4 uptown", 11), (0, "3 uptown", 7)], [10, 0], 0),
    # two-sets: "a side set for the third time in a game loses it": sets of 3 (8 books) and makes
    # keep side 0 between -3 and 3; the third set loses
    (("two-sets",), [(0, "3 uptown", 6), (0, "3 uptown", 10), (0, "3 uptown", 6), (0, "3 uptown", 7),
                     (0, "3 uptown", 6)], [0, 0], 1),
    ((), [(0, "3 uptown", 6), (0, "3 uptown", 10), (0, "3 uptown", 6), (0, "3 uptown", 7),
          (0, "3 uptown", 6)], [0, 0], None),
    # seven-set-loses: +6, then a set 7 (12 books): -1 in all, but the game is lost
    (("seven-set-loses",), [(0, "4 uptown", 10), (0, "7 uptown", 10)], [-1, 0], 1),
    ((), [(0, "4 uptown", 10), (0, "7 uptown", 10)], [-1, 0], None),
    # boston-wins: "taking all 13 books wins the game at once": -4, then a sweep of 3 uptown: +7 = 3
    (("boston-wins",), [(0, "4 uptown", 6), (0, "3 uptown", 11)], [3, 0], 0),
    ((), [(0, "4 uptown", 6), (0, "3 uptown", 11)], [3, 0], None),
    # the other side's sweep wins for it (seat 1 declares)
    (("boston-wins",), [(0, "4 uptown", 6), (1, "3 uptown", 11)], [-4, 7], 1),
])
def test_game_ends(tmp_path, with_, hands, totals, winner):
    """Each game-end line of §1 and §8, on a game record of claimed hands."""
    records = [_std(i, d, bid, claim, with_) for i, (d, bid, claim) in enumerate(hands)]
    out = _game(tmp_path, records)
    assert out["totals"] == totals and out["winner"] == winner


def test_a_record_may_not_go_on_after_the_game_is_won(tmp_path):
    """records.md: a game record "may not go on after" the game is decided."""
    records = [_std(0, 0, "4 uptown", 9, ("to-5",)), _std(1, 0, "4 uptown", 9, ("to-5",))]
    code, out = replay(tmp_path, records)
    assert code == 1 and out["error"]["at"].startswith("hand[1]")


def test_ten_hands(tmp_path):
    """§9 ten-hands: "the game is ten hands (thrown-in hands do not count); the higher total wins;
    on a tie, one more hand at a time until the totals differ. The ±7 ends are off." Sides 0 and
    1 alternate making 4 uptown with 11 books (+5): 25 each after ten hands, a tie; the eleventh
    (side 0's) decides. With all-pass-redeal, a thrown-in hand does not count."""
    hands = [_std(i, i % 2, "4 uptown", 9, ("ten-hands",)) for i in range(11)]
    out = _game(tmp_path, hands[:9])
    assert out["totals"] == [25, 20] and out["winner"] is None     # past 7: no end
    out = _game(tmp_path, hands[:10])
    assert out["totals"] == [25, 25] and out["winner"] is None
    out = _game(tmp_path, hands)
    assert out["totals"] == [30, 25] and out["winner"] == 0
    # with a hand thrown in (all pass) as the fourth, ten played hands take eleven records
    rules = ("ten-hands", "all-pass-redeal")
    suited_hands, kitty = suited()
    played = [_std(i if i < 3 else i + 1, i % 2, "4 uptown", 9 + (i == 9), rules) for i in range(10)]
    thrown = record("standard", suited_hands, kitty, ["pass"] * 4, dealer=DEALERS[3], with_=rules)
    game = played[:3] + [thrown] + played[3:]
    out = _game(tmp_path, game[:10])
    assert out["winner"] is None
    out = _game(tmp_path, game)
    assert out["totals"] == [25, 26] and out["winner"] == 1


def test_hawaii_game_ends(tmp_path):
    """§6 "a side wins when it is 7 up with the other side at 0, or 11 points ahead, or at 21 or more
    with the other side at least 2 behind". Seven makes by side 0 (+1 each): 7-0 wins. Side 1 makes
    one (+1), then is set six times (+2 to side 0 each): 12-1, 11 ahead, wins; 10-1 does not."""
    def hawaii(i, declarer, claim):
        """Hand ``i``: ``declarer`` bids 3 and its side takes 2 + ``claim`` books."""
        return _std(i, declarer, "3", claim, variant="hawaii", kitty=NE_KITTY)
    sevens = [hawaii(i, 0, 7) for i in range(7)]
    assert _game(tmp_path, sevens[:6])["winner"] is None
    out = _game(tmp_path, sevens)
    assert out["totals"] == [7, 0] and out["winner"] == 0
    ahead = [hawaii(0, 1, 7)] + [hawaii(i, 1, 6) for i in range(1, 7)]   # side 1 makes, then 8 books: set
    out = _game(tmp_path, ahead[:6])
    assert out["totals"] == [10, 1] and out["winner"] is None
    out = _game(tmp_path, ahead)
    assert out["totals"] == [12, 1] and out["winner"] == 0


def _oregon_hand(i: int, bid: str, books: int):
    """Hand ``i`` of an oregon game: seat 0 wins with ``bid`` (the others pass; a dealer left
    alone takes 1), leads AH (hearts trump) and takes ``books`` of 13."""
    dealer = DEALERS[i]
    first = (dealer + 1) % 4
    auction = [bid if (first + k) % 4 == 0 else "pass" for k in range(4)]
    return _oregon(auction, ["AH", "2S", "2D", "2C"], books - 1, dealer=dealer)


def test_oregon_both_reach_11_and_the_contracting_side_wins(tmp_path):
    """§3 "first to 11; if both sides reach 11 on the same hand, the contracting side wins". Side 0
    declares 1 every hand. 3 books: set, -1; side 1 +10. 13 books: +7 (6 in all). 11 books: +5 and
    side 1 +2: 11 against 12, both past 11 on this hand: side 0, the contracting side, wins."""
    hands = [_oregon_hand(0, "1", 3), _oregon_hand(1, "1", 13), _oregon_hand(2, "1", 11)]
    out = _game(tmp_path, hands[:2])
    assert out["totals"] == [6, 10] and out["winner"] is None
    out = _game(tmp_path, hands)
    assert out["totals"] == [11, 12] and out["games"][0]["winner"] == 0
    assert out["winner"] is None   # the match is the rubber: one game of it won
    # the text says the winner's 11 first, not "12 to 11"
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in hands), encoding="utf-8")
    assert "game 1 won by side 0+2, 11 to 12 (hands 1-3)" in run("replay", str(path)).stdout


def test_oregon_rubber_is_best_of_three(tmp_path):
    """§3 "A rubber is the best of three games; the deal goes on passing to the left from one game
    to the next". Side 0 sweeps (+7) twice a game: 14 wins a game; two games win the rubber."""
    hands = [_oregon_hand(i, "1", 13) for i in range(4)]
    out = _game(tmp_path, hands[:3])
    assert out["winner"] is None and out["totals"] == [7, 0]
    assert [(g["first_hand"], g["hands"], g["winner"]) for g in out["games"]] == [(0, 2, 0), (2, 1, None)]
    out = _game(tmp_path, hands)
    assert out["winner"] == 0 and [g["totals"] for g in out["games"]] == [[14, 0], [14, 0]]


# ============================================================================ more joker cases
def test_jokers_out_the_declarers_own_joker_goes_among_the_discards(tmp_path):
    """jokers-out-in-notrump: seat 0 holds BJ (for its 3H) and LJ is in the kitty: LJ stays out,
    seat 0 takes the other five (17 cards) and lays away five, BJ among them; nobody else holds
    a joker, so no swap. Keeping BJ is illegal at the discard."""
    hands, kitty = suited()
    swap(hands, kitty, "BJ", "3H")            # kitty: 2H 2S 2D 2C 3H LJ
    rec = record("standard", hands, kitty, ["4 notrump", "pass", "pass", "pass"], with_=("jokers-out-in-notrump",),
                 declare={"trump": None, "direction": "uptown"}, discard="BJ 2S 2D 2C 3H".split(),
                 play=["AH", "3S", "3D", "3C"], claim=10)
    out = ok(tmp_path, rec)
    assert out["books"] == [12, 1] and out["score"] == [12, 0]
    assert illegal(tmp_path, dict(rec, discard="2H 2S 2D 2C 3H".split()))["at"] == "discard"


def test_jokers_out_with_partner_takes_kitty_the_declarer_swaps_its_joker(tmp_path):
    """partner-takes-kitty with jokers-out-in-notrump: seat 2 (the partner) takes the kitty and lays
    away; "each other player holding one swaps it" — the declarer, seat 0, holding BJ, swaps it
    for one of seat 2's discards."""
    hands, kitty = suited()
    swap(hands, kitty, "BJ", "3H")            # seat 0 holds BJ; kitty 2H 2S 2D 2C 3H LJ
    rec = record("standard", hands, kitty, ["4 notrump", "pass", "pass", "pass"],
                 with_=("partner-takes-kitty", "jokers-out-in-notrump"),
                 declare={"trump": None, "direction": "uptown"}, discard="2H 2S 2C 3H 3D".split(),
                 swaps=[{"seat": 0, "gave": "BJ", "drew": "2H"}], play=["AH", "3S", "4D", "3C"], claim=10)
    out = ok(tmp_path, rec)
    assert out["books"] == [12, 1] and out["score"] == [12, 0]


def test_notrump_downtown_the_ace_stays_top(tmp_path):
    """Terms: downtown (aces good) is "A 2 3 4 5 6 7 8 9 T J Q K". Seat 0 (4 notrump downtown) leads
    2S from the kitty: seat 1's KS loses to it, its AS would win."""
    hands, kitty = suited()
    base = dict(auction=["4 notrump", "pass", "pass", "pass"], declare={"trump": None, "direction": "downtown"},
                discard="2H 2D 2C BJ LJ 3H".split(), claim=10)
    out = ok(tmp_path, record("standard", hands, kitty, play=["2S", "KS", "3D", "3C"], **base))
    assert out["tricks"][0]["winner"] == 0
    out = ok(tmp_path, record("standard", hands, kitty, play=["2S", "AS", "3D", "3C"], **base))
    assert out["tricks"][0]["winner"] == 1


def test_deuce_of_spades_downtown_spades(tmp_path):
    """deuce-of-spades with spades trump downtown: BJ, then 2S, then the ace (aces good), 3S, ...
    Seat 1 declares 4 downtown spades and leads AS; seat 2 holds 2S (for its 3D) and no other
    trump: it must play it, and 2S wins."""
    hands, kitty = suited("2H 2S 2D 2C BJ")
    swap(hands, kitty, "2S", "3D")            # kitty: 2H 3D 2D 2C BJ
    rec = record("standard", hands, kitty, ["pass", "4 downtown", "pass", "pass"], with_=("deuce-of-spades",),
                 declare={"trump": "S"}, discard="2H 3D 2D 2C 3S".split(), play=["AS", "2S", "3C", "3H"], claim=0)
    out = ok(tmp_path, rec)
    assert out["tricks"][0]["winner"] == 2
    # side 1: the discards only; side 0 the twelve tricks: set 4 downtown: -4 for side 1
    assert out["books"] == [12, 1] and out["score"] == [0, -4]


# ============================================================================ more on the score
@pytest.mark.parametrize("with_, bid, declare, score", [
    # plain-notrump: the boston's 28 is not doubled
    (("boston-x4", "plain-notrump"), "7 notrump", {"trump": None, "direction": "uptown"}, [28, 0]),
    # a made 7 is a sweep: both multipliers, 7 x 4 x 2
    (("boston-x4", "rise-and-fly"), "7 uptown", {"trump": "H"}, [56, 0]),
])
def test_multipliers_together(tmp_path, with_, bid, declare, score):
    """Each multiplier of §8 applies to the hand's score as its line says."""
    out = ok(tmp_path, won_first("standard", 0, bid, declare, 11, with_=with_))
    assert out["score"] == score


def _two_renege_hand(claim: int, with_=("renege-penalty",)) -> dict:
    """Seat 0 declares 4 uptown in hearts; seats 1 and 3 each hold a heart (3H, 4H, for their
    threes) and both renege on AH, then on KH."""
    hands, kitty = suited()
    swap(hands, kitty, "3H", "3S")
    swap(hands, kitty, "4H", "3C")
    play = ["AH", "AS", "4D", "AC", "KH", "KS", "5D", "KC"]
    return record("standard", hands, kitty, ["4 uptown", "pass", "pass", "pass"], with_=with_,
                  declare={"trump": "H"}, discard=kitty, play=play, claim=claim)


def test_each_renege_moves_three_books_in_turn(tmp_path):
    """Side 1 reneges four times (seats 1 and 3, twice each). Side 0 takes the 2 tricks + the
    discards + 4 claimed = 7, side 1 the other 6. The first renege moves 3 (10-3), the second 3
    more (13-0); the third finds side 1 with no book, fewer than 3: "the hand is scored as if the
    other side took all 13" (and the fourth moves nothing more)."""
    out = ok(tmp_path, _two_renege_hand(4))
    assert len(out["reneges"]) == 4
    assert out["books"] == [13, 0] and out["score"] == [7, 0]
    # with rise-and-fly it is a sweep of all 13 books by the declaring side: double
    out = ok(tmp_path, _two_renege_hand(4, ("renege-penalty", "rise-and-fly")))
    assert out["books"] == [13, 0] and out["score"] == [14, 0]


def test_deal_right(tmp_path):
    """§9 deal-right: "the deal passes to the right each hand". Dealer 3, then 2: dealer 0 is wrong."""
    first = won_first("standard", 0, "4 uptown", {"trump": "H"}, 6, dealer=3, with_=("deal-right",))
    second = won_first("standard", 0, "4 uptown", {"trump": "H"}, 6, dealer=2, with_=("deal-right",))
    out = _game(tmp_path, [first, second])
    assert out["totals"] == [-8, 0]
    code, out = replay(tmp_path, [first, dict(second, dealer=0)])
    assert code == 1 and out["error"]["at"] == "hand[1].dealer"
    # the auction still goes to the left: dealer 2's first caller is seat 3
    assert second["auction"] == ["pass", "4 uptown", "pass", "pass"]


@pytest.mark.parametrize("variant, with_, kitty, auction, bad", [
    ("northeast52", ("min-bid-4",), NE_KITTY, ["3"], 0),
    ("northeast52", ("min-bid-4",), NE_KITTY, ["pass", "pass", "pass", "3"], 3),
    ("cincinnati", ("min-bid-4",), "", ["3 notrump"], 0),
    ("cincinnati", ("notrump-from-4",), "", ["3 notrump"], 0),
    ("cincinnati", ("level-only",), "", ["4", "4 notrump"], 1),
    ("rhode-island", ("first-caller-bids",), NE_KITTY, ["pass"], 0),
])
def test_house_rule_ladders_on_other_games(tmp_path, variant, with_, kitty, auction, bad):
    """§8 and §9's ladder rules read on the game they are laid over."""
    ranks = "AKQJT9876543" if kitty else RANKS
    hands, kit = suited(kitty or "", ranks)
    kit = [c for c in kit if c]
    assert illegal(tmp_path, record(variant, hands, kit, auction, with_=with_))["at"] == f"auction[{bad}]"


@pytest.mark.parametrize("rules, auction, declare, play, at, seat, suit_", [
    # a suit contract: seat 1 holds BJ as its only trump and keeps it back on a trump lead
    (("renege-penalty",), ["4 uptown", "pass", "pass", "pass"], {"trump": "H"}, ["AH", "AS", "LJ", "3C"], 1, 1, "H"),
    # notrump: seat 1 holds spades and throws BJ on a spade lead
    (("renege-penalty",), ["4 notrump", "pass", "pass", "pass"], {"trump": None, "direction": "uptown"},
     ["2S", "BJ", "4D", "3C"], 1, 1, "S"),
])
def test_a_joker_kept_back_or_thrown_is_a_renege(tmp_path, rules, auction, declare, play, at, seat, suit_):
    """§1: the joker is a trump in a suit contract (a holder with no other trump follows a trump lead
    with it); in notrump it may be played "only when the player cannot follow". Either way round
    it is a renege, which renege-penalty lets stand and records; without it the card is refused."""
    hands, kitty = _jokers_out_to_1_and_2()
    rec = record("standard", hands, kitty, auction, with_=rules, declare=declare,
                 discard="2H 2C 3S 3H 4H 5H".split() if declare["trump"] is None else "2S 2D 2C 3S 3D 3H".split(),
                 play=play, claim=10)
    out = ok(tmp_path, rec)
    assert out["reneges"] == [{"at": f"play[{at}]", "seat": seat, "suit": suit_}]
    assert illegal(tmp_path, dict(rec, **{"with": []}))["at"] == f"play[{at}]"


def test_a_joker_jokers_free_lets_go_is_no_renege(tmp_path):
    """jokers-free-in-notrump with renege-penalty: "a joker may be played even when able to follow
    suit", so seat 1 throwing BJ on a spade lead while holding spades is no renege ("not following
    when able" is what the penalty scores): nothing moves, the hand scores as under the first rule
    alone (seat 0's 2S wins, 1 + the discards + 10 claimed = 12 books, 6 over doubled = 12)."""
    hands, kitty = _jokers_out_to_1_and_2()
    rec = record("standard", hands, kitty, ["4 notrump", "pass", "pass", "pass"],
                 with_=("jokers-free-in-notrump", "renege-penalty"), declare={"trump": None, "direction": "uptown"},
                 discard="2H 2C 3S 3H 4H 5H".split(), play=["2S", "BJ", "4D", "3C"], claim=10)
    out = ok(tmp_path, rec)
    assert out["reneges"] == [] and out["books"] == [12, 1] and out["score"] == [12, 0]
    assert ok(tmp_path, dict(rec, **{"with": ["jokers-free-in-notrump"]}))["score"] == [12, 0]


@pytest.mark.parametrize("with_, bid, declare, claim, score", [
    # boston-x4 on cutthroat: a made bid of all 18 books, four times over: 72; notrump doubles: 144
    (("boston-x4",), "18 uptown", {"trump": "H"}, [16, 0, 0], [72, 0, 0]),
    (("boston-x4",), "18 notrump", {"trump": None, "direction": "uptown"}, [16, 0, 0], [144, 0, 0]),
    # cutthroat's 7 is its lowest bid, not all the books: not multiplied (2 + 5 = 7 books)
    (("boston-x4",), "7 uptown", {"trump": "H"}, [5, 6, 5], [7, 6, 5]),
])
def test_boston_x4_on_cutthroat_means_all_the_books(tmp_path, with_, bid, declare, claim, score):
    """docs/rule-combinations.md: "a bid of 7" means a bid of all the books; on cutthroat 18."""
    rec = _ct(bid, declare, claim)
    rec["with"] = list(with_)
    assert ok(tmp_path, rec)["score"] == score


def test_seven_set_loses_on_cutthroat(tmp_path):
    """seven-set-loses on cutthroat: a set bid of all 18 books loses at once; of the others, the
    higher score wins (§7's rule for several players): seat 0 takes 16 books (-18), seat 2 two."""
    rec = _ct("18 uptown", {"trump": "H"}, [14, 0, 2])
    rec["with"] = ["seven-set-loses"]
    out = _game(tmp_path, [rec])
    assert out["totals"] == [-18, 0, 2] and out["winner"] == 2
    rec["with"] = []
    assert _game(tmp_path, [rec])["winner"] is None


def test_cutthroat_the_declarer_wins_among_several_at_30(tmp_path):
    """§7 "if several reach 30 on one hand, the declarer wins if it is one of them": seat 0 declares 7
    every hand. Books [7,6,5], [7,7,4], [9,9,0]: totals 23, 22, 9. Then [7,9,2]: seat 0 reaches
    30, seat 1 31: seat 0, the declarer, wins with the lower score."""
    claims = [[5, 6, 5], [5, 7, 4], [7, 9, 0], [5, 9, 2]]
    hands = [_ct("7 uptown", {"trump": "H"}, c, dealer=d) for c, d in zip(claims, (2, 0, 1, 2))]
    out = _game(tmp_path, hands[:3])
    assert out["totals"] == [23, 22, 9] and out["winner"] is None
    out = _game(tmp_path, hands)
    assert out["totals"] == [30, 31, 11] and out["winner"] == 0


def test_hawaii_at_21_needs_two_ahead(tmp_path):
    """§6 "... or at 21 or more with the other side at least 2 behind". Each side sets the other ten
    times (+2 each: 20-20; neither is 11 ahead), then side 0 makes twice (+1): 21-20 goes on,
    22-20 wins."""
    def hawaii(i, declarer, claim):
        """Hand ``i``: ``declarer`` bids 3 and its side takes 2 + ``claim`` books."""
        return _std(i % 16, declarer, "3", claim, variant="hawaii", kitty=NE_KITTY)
    hands = [hawaii(i, i % 2, 6) for i in range(20)] + [hawaii(20, 0, 7), hawaii(21, 0, 7)]
    out = _game(tmp_path, hands[:21])
    assert out["totals"] == [21, 20] and out["winner"] is None
    out = _game(tmp_path, hands)
    assert out["totals"] == [22, 20] and out["winner"] == 0


@pytest.mark.parametrize("game, strains", [("northeast52", "'number'"), ("oregon", "'number'"),
                                           ("hawaii", "'number'"), ("rhode-island", "'number'")])
def test_notrump_from_4_over_a_game_without_a_notrump_bid_says_why(game, strains):
    """§9 notrump-from-4 changes the notrump *bid*; these games bid bare numbers and name notrump
    after the auction, so the rule has no strain to change and is refused (exit 1), with a hint
    naming the strains the game has rather than only a missing key of a strain it never meant."""
    result = run("rules", game, "--with", "notrump-from-4")
    assert result.exit_code == 1
    assert ("shipped 'notrump-from-4', line 11: auction.strains: strain 'notrump': missing required keys 'trump', "
            "'direction'") in result.stderr
    assert (f"to fix: the other strains are {strains}: to change one of them, use its name; to add strain "
            "'notrump', give it 'trump' and 'direction'") in result.stderr


def test_a_renege_that_leaves_the_declarers_short_is_a_sweep_for_the_defenders(tmp_path):
    """docs/rule-combinations.md: "scored as if the other side took all 13" is a sweep for every rule
    that reads the books. Seat 2 (declaring side) reneges; side 0 holds the first trick and the
    discards, 2 books: fewer than 3, so side 1 is scored as taking all 13: side 0 set, -4, and
    with boston-wins side 1 wins the game at once."""
    rec = _renege_hand(2, 0)
    out = ok(tmp_path, rec)
    assert out["books"] == [0, 13] and out["score"] == [-4, 0]
    rec["with"] = ["renege-penalty", "boston-wins"]
    out = _game(tmp_path, [rec])
    assert out["totals"] == [-4, 0] and out["winner"] == 1
    rec["with"] = ["renege-penalty", "defenders-score"]
    assert ok(tmp_path, rec)["score"] == [-4, 7]


def _two_jokers_at_seat_1(swaps):
    """jokers-out-in-notrump: seat 1 holds both jokers (for 3S and 4S); seat 0 declares 4 notrump,
    takes the whole kitty (no joker in it) and lays away six; seat 1 swaps both jokers."""
    hands, kitty = suited()
    swap(hands, kitty, "BJ", "3S")
    swap(hands, kitty, "LJ", "4S")            # kitty: 2H 2S 2D 2C 3S 4S
    return record("standard", hands, kitty, ["4 notrump", "pass", "pass", "pass"], with_=("jokers-out-in-notrump",),
                  declare={"trump": None, "direction": "uptown"}, discard=list(kitty), swaps=swaps,
                  play=["AH", "5S", "3D", "3C"], claim=10)


@pytest.mark.parametrize("swaps, at", [
    ([{"seat": 1, "gave": "BJ", "drew": "2D"}, {"seat": 1, "gave": "LJ", "drew": "2C"}], None),
    ([{"seat": 1, "gave": "LJ", "drew": "2C"}, {"seat": 1, "gave": "BJ", "drew": "2D"}], None),  # either order
    ([{"seat": 1, "gave": "BJ", "drew": "2D"}], "swaps"),                                          # one missing
    ([{"seat": 1, "gave": "BJ", "drew": "2D"}, {"seat": 1, "gave": "LJ", "drew": "2D"}], "swaps"),  # drawn twice
    ([{"seat": 1, "gave": "BJ", "drew": "2D"}, {"seat": 1, "gave": "LJ", "drew": "AH"}], "swaps"),  # not a discard
    ([{"seat": 2, "gave": "BJ", "drew": "2D"}, {"seat": 1, "gave": "LJ", "drew": "2C"}], "swaps"),  # seat 2 has none
])
def test_jokers_out_swaps_two_jokers(tmp_path, swaps, at):
    """records.md swaps: "drew is one of the declarer's discards that no earlier swap drew ... a seat
    giving two jokers may list them in either order"."""
    rec = _two_jokers_at_seat_1(swaps)
    if at is None:
        out = ok(tmp_path, rec)
        assert out["books"] == [12, 1] and out["score"] == [12, 0]
    else:
        assert illegal(tmp_path, rec)["at"] == at


def test_ten_hands_a_sweep_still_wins_under_boston_wins(tmp_path):
    """ten-hands turns off only "the ±7 ends"; boston-wins' "wins the game at once" stands: a sweep
    in the second hand ends the game."""
    rules = ("ten-hands", "boston-wins")
    hands = [_std(0, 0, "4 uptown", 8, rules), _std(1, 1, "3 uptown", 11, rules)]
    out = _game(tmp_path, hands)
    assert out["totals"] == [4, 7] and out["winner"] == 1


def test_a_joker_led_in_a_suit_contract_is_a_trump_lead(tmp_path):
    """§1 "a joker led is a trump lead": seat 0 keeps BJ from the kitty and leads it in hearts;
    seat 2 holds 3H (for its 3D) and must follow with it; BJ wins."""
    hands, kitty = suited()
    swap(hands, kitty, "3H", "3D")            # seat 2 holds 3H; seat 0 3D
    rec = record("standard", hands, kitty, ["4 uptown", "pass", "pass", "pass"], declare={"trump": "H"},
                 discard="2H 2S 2D 2C LJ 3D".split(), play=["BJ", "3S", "3H", "3C"], claim=10)
    out = ok(tmp_path, rec)
    assert out["tricks"][0]["winner"] == 0 and out["score"] == [6, 0]
    assert illegal(tmp_path, dict(rec, play=["BJ", "3S", "4D", "3C"]))["at"] == "play[2]"


@pytest.mark.parametrize("claim, at", [(16, None), ([16, 0, 0], None), (5, "claim"), ([10, 3, 2], "claim"),
                                       ([10, 3, 4], "claim")])
def test_cutthroat_claims(tmp_path, claim, at):
    """records.md: "With more than two sides, claim is a list giving each side's share of the
    remaining tricks (a number is allowed only when it is all of them, taken by the declarer)"."""
    rec = _ct("9 uptown", {"trump": "H"}, claim)
    if at is None:
        out = ok(tmp_path, rec)
        assert out["books"] == [18, 0, 0] and out["score"] == [18, 0, 0]
    else:
        assert illegal(tmp_path, rec)["at"] == at


@pytest.mark.parametrize("variant, bid, declare, with_, score", [
    ("rhode-island", "7", {"trump": "H"}, ("boston-x4",), [52, 0]),       # 13 books x 4
    ("rhode-island", "7", {"trump": None}, ("boston-x4",), [104, 0]),     # and notrump doubles every score
    ("northeast52", "7", {"trump": "H", "direction": "uptown"}, ("boston-x4",), [28, 0]),
    ("hawaii", "7", {"trump": "H"}, ("boston-x4",), [4, 0]),              # its 1 point x 4
    ("rhode-island", "3", {"trump": "H"}, ("rise-and-fly",), [26, 0]),
    ("hawaii", "3", {"trump": "H"}, ("rise-and-fly",), [2, 0]),
    ("northeast52", "3", {"trump": None, "direction": "uptown"}, ("rise-and-fly",), [14, 0]),
])
def test_multipliers_on_other_games_multiply_that_games_score(tmp_path, variant, bid, declare, with_, score):
    """docs/rule-combinations.md: boston-x4's "four times over" and rise-and-fly's "double" multiply the
    hand's own score in the game laid under them. Side 0 takes all 13 books."""
    out = ok(tmp_path, won_first(variant, 0, bid, declare, 11, with_=with_, kitty=NE_KITTY))
    assert out["books"] == [13, 0] and out["score"] == score


@pytest.mark.parametrize("rules, line, absent", [
    (("kitty-face-up", "sport-kitty"), "In a suit contract the kitty is shown to all once trump is named", "face up"),
    (("sport-kitty", "kitty-face-up"), "The kitty lies face up for all to see through the auction.", "In a suit contract"),
    (("sport-kitty-always", "sport-kitty"), "In a suit contract the kitty is shown to all once trump is named",
     "in every contract"),
])
def test_the_later_of_two_kitty_showing_rules_is_in_force_and_the_rulebook_says_so(rules, line, absent):
    """docs/rule-combinations.md: the three rules set one setting, so the later one wins."""
    args = ["rules", "standard"]
    for rule in rules:
        args += ["--with", rule]
    text = run(*args).stdout
    assert line in text and absent not in text.split("## The kitty")[1].split("## Play")[0]


@pytest.mark.parametrize("variant, rec_of, line", [
    ("northeast52", lambda: _ne(["4", "pass", "pass", "pass"], {"trump": "H", "direction": "uptown"},
                                ["AH", "3S", "3D", "3C"], 9), "contract  4 by seat 0 (side 0+2), hearts trump, uptown"),
    ("oregon", lambda: _oregon(["1", "2", "pass", "pass", "3", "pass"], ["AH", "2S", "2D", "2C"], 8),
     "contract  3 by seat 0 (side 0+2), hearts trump, uptown"),
    ("standard", lambda: won_first("standard", 0, "4 notrump", {"trump": None, "direction": "uptown"}, 9),
     "contract  4 notrump by seat 0 (side 0+2), no trump, uptown"),
])
def test_the_text_names_the_contract_as_the_auction_says_it(tmp_path, variant, rec_of, line):
    """records.md: a call is "<n> for a bare-number bid, <n> <strain> otherwise"; replay's text says the
    contract the same way (it read "4 number" for northeast52's bare 4)."""
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(rec_of()), encoding="utf-8")
    assert line in run("replay", str(path)).stdout


def test_the_rulesets_bid_text_is_the_call():
    """Ruleset.bid_text, which the replay text, the table and the terminal all use: the call itself."""
    from bidcompiler.pipeline import load_ruleset
    assert load_ruleset("northeast52").bid_text(4, "number") == "4"
    assert load_ruleset("standard").bid_text(4, "notrump") == "4 notrump"
    assert load_ruleset("cincinnati").bid_text(2, "uptown") == "2"
    assert load_ruleset("cincinnati").bid_text(2, "downtown") == "2 downtown"


BARE = ("northeast52", "oregon", "rhode-island", "hawaii")
NO_JOKERS = ("northeast52", "oregon", "cincinnati", "rhode-island", "hawaii")


@pytest.mark.parametrize("game, rule", [
    *[(g, r) for g in NO_JOKERS for r in ("big-joker-notrump", "jokers-free-in-notrump", "jokers-out-in-notrump")],
    # jokers-and-deuce states its deck and kitty, as one-joker does: refused where they do not fit
    ("oregon", "jokers-and-deuce"), ("cincinnati", "jokers-and-deuce"), ("cutthroat", "jokers-and-deuce"),
    *[(g, r) for g in BARE for r in ("level-only", "low-beats-high", "spades-trump", "notrump-from-4")],
    *[("cutthroat", r) for r in ("notrump-from-4", "min-bid-4", "no-kitty", "renege-penalty", "partner-takes-kitty")],
    ("northeast52", "no-red-deuces"), ("oregon", "one-joker"), ("cutthroat", "no-jokers"),
    *[(g, r) for g in ("oregon", "cincinnati") for r in ("kitty-first", "kitty-face-up", "sport-kitty",
                                                          "sport-kitty-always", "partner-takes-kitty")],
    ("two-handed", "partner-takes-kitty"), ("two-handed", "no-kitty"), ("oregon", "eldest-leads"), ("oregon", "left-of-declarer-leads"),
    ("rhode-island", "sport-kitty"), ("hawaii", "to-5"), ("hawaii", "to-9"),
])
def test_the_refused_combinations_docs_list(game, rule):
    """docs/rule-combinations.md, "House rules refused on some games": each is a compile error (exit 1
    from the command line), never a rule silently ignored."""
    result = run("rules", game, "--with", rule)
    # named by its shipped name, never by the path it is installed at
    assert result.exit_code == 1 and f"shipped '{rule}', line " in result.stderr and ".yaml" not in result.stderr


def test_notrump_joker_led_and_the_other_joker_second_the_third_card_sets_the_suit(tmp_path):
    """§1 "If a joker is led, the next player may play any card, and the first non-joker card played
    sets the suit to follow": seat 1 leads BJ, seat 2 plays LJ (any card), seat 3's 4C sets clubs,
    and seat 0, holding 2C, must follow with it; 4C wins."""
    hands, kitty = _jokers_out_to_1_and_2()
    play = ["2S", "AS", "4D", "3C", "BJ", "LJ", "4C", "2C"]
    rec = record("standard", hands, kitty, ["4 notrump", "pass", "pass", "pass"],
                 declare={"trump": None, "direction": "uptown"}, discard="2H 2D 3S 3H 4H 5H".split(),
                 play=play, claim=10)
    out = ok(tmp_path, rec)
    assert [t["winner"] for t in out["tricks"]] == [1, 3]
    # side 0: the discards + 10 claimed = 11: 5 over, doubled
    assert out["books"] == [11, 2] and out["score"] == [10, 0]
    assert illegal(tmp_path, dict(rec, play=play[:7] + ["AH"]))["at"] == "play[7]"


def test_big_joker_notrump_led_wins(tmp_path):
    """§9 big-joker-notrump: the big joker "may be played like any joker there: led ...; it wins". The
    hand of the test above: seat 1 leads BJ, LJ follows, 4C sets clubs: BJ wins, not 4C."""
    hands, kitty = _jokers_out_to_1_and_2()
    rec = record("standard", hands, kitty, ["4 notrump", "pass", "pass", "pass"], with_=("big-joker-notrump",),
                 declare={"trump": None, "direction": "uptown"}, discard="2H 2D 3S 3H 4H 5H".split(),
                 play=["2S", "AS", "4D", "3C", "BJ", "LJ", "4C", "2C"], claim=10)
    out = ok(tmp_path, rec)
    assert [t["winner"] for t in out["tricks"]] == [1, 1]
    assert out["books"] == [11, 2] and out["score"] == [10, 0]


def _text(tmp_path, rec) -> str:
    """``bidwhist replay FILE`` (the text for people) of one hand record."""
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code == 0, result.stdout
    return result.stdout


def test_a_hand_stopped_before_the_declaration_says_trump_is_not_yet_named(tmp_path):
    """records.md in_progress: "contract holds what is decided". After "4 uptown" and before the
    declaration the trump suit is not decided: the text said "no trump" (and the kitty "taken").
    A notrump bid settles no trump by itself; oregon's trump waits for the first card led."""
    hands, kitty = suited()
    text = _text(tmp_path, record("standard", hands, kitty, ["4 uptown", "pass", "pass", "pass"], in_progress=True))
    assert "contract  4 uptown by seat 0 (side 0+2), trump not yet named, uptown" in text
    assert "kitty     2H 2S 2D 2C BJ LJ, to be taken by seat 0" in text
    text = _text(tmp_path, record("standard", hands, kitty, ["4 notrump", "pass", "pass", "pass"], in_progress=True))
    assert "contract  4 notrump by seat 0 (side 0+2), no trump" in text
    text = _text(tmp_path, dict(_oregon(["1", "pass", "pass", "pass"], None, None), in_progress=True))
    assert "contract  1 by seat 0 (side 0+2), trump not yet named, uptown" in text
    # declared and the kitty taken, the words are as ever
    text = _text(tmp_path, won_first("standard", 0, "4 uptown", {"trump": "H"}, 9))
    assert "hearts trump, uptown" in text and "kitty     2H 2S 2D 2C BJ LJ, taken by seat 0" in text
