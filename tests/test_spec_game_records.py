"""Game records read as a hostile tester reads records.md: black-box cases through `bidwhist replay`.

Each test quotes the sentence of /work/shared/spec/records.md (or rules.md) it presses
on.  The hands are made so that their results can be worked out from the rules alone:
every seat holds one suit (or, in cutthroat, a deal arranged so), the declarer leads a
card nobody can beat and claims what the test wants, so books and scores follow from
rules.md's scoring and the game ends from its game rules, never from the engine.

The writers (`simulate --records`, `play --save`) are checked the other way round:
whatever they write for every shipped variant and house rule must replay, exit 0, to
the game that was played.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from bidcompiler.cli import cli
from bidcompiler.pipeline import load_ruleset, shipped_house_rules, shipped_variants
from clirun import run

RANKS = "AKQJT98765432"
SUITS = "SHDC"


# --------------------------------------------------------------------------- hands worked by hand
def one_suit_each(size: int) -> list[list[str]]:
    """Seat s holds the ``size`` highest cards of suit ``SUITS[s]``."""
    return [[f"{rank}{suit}" for rank in RANKS[:size]] for suit in SUITS]


def auction(dealer: int, declarer: int, call: str, players: int = 4) -> list[str]:
    """Once round from the dealer's left: ``declarer`` says ``call``, everyone else passes."""
    return [call if (dealer + k) % players == declarer else "pass" for k in range(1, players + 1)]


def hand(dealer: int, declarer: int, bid: int, books: int, with_: tuple[str, ...] = ()) -> dict:
    """A standard hand: ``declarer`` bids ``bid`` uptown in its own suit, lays away the four
    deuces and its two lowest, leads the big joker (a trump nobody can follow) and claims up
    to ``books`` books (the discards' book, that trick, and the claim)."""
    suit = SUITS[declarer]
    followers = [(declarer + k) % 4 for k in (1, 2, 3)]
    return {"format": "bidwhist-hand/1", "variant": "standard", "with": list(with_), "dealer": dealer,
            "hands": one_suit_each(12), "kitty": "2S 2H 2D 2C BJ LJ".split(),
            "auction": auction(dealer, declarer, f"{bid} uptown"), "declare": {"trump": suit},
            "discard": ["2S", "2H", "2D", "2C", f"3{suit}", f"4{suit}"],
            "play": ["BJ"] + [f"3{SUITS[s]}" for s in followers], "claim": books - 2}


def thrown_in(dealer: int, with_: tuple[str, ...] = ()) -> dict:
    """A standard deal on which all four pass (only where a house rule lets the dealer pass)."""
    return {"format": "bidwhist-hand/1", "variant": "standard", "with": list(with_), "dealer": dealer,
            "hands": one_suit_each(12), "kitty": "2S 2H 2D 2C BJ LJ".split(), "auction": ["pass"] * 4}


def standard_score(bid: int, books: int) -> int:
    """rules.md §1 (uptown, not doubled): made scores every book over six, set loses the bid."""
    return books - 6 if books - 6 >= bid else -bid


def write(path: Path, records: list) -> Path:
    """A game record file: one JSON line per record (a str is written as it is)."""
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records),
                    encoding="utf-8")
    return path


def replay(path: Path, status: int = 0) -> dict:
    """``bidwhist replay PATH --json``, checking the exit status."""
    result = run("replay", str(path), "--json")
    assert result.exit_code == status, result.stdout + result.stderr
    return json.loads(result.stdout)


def game(tmp_path: Path, records: list, status: int = 0, name: str = "game.jsonl") -> dict:
    """Write ``records`` as a game record and replay it."""
    return replay(write(tmp_path / name, records), status)


def error_at(tmp_path: Path, records: list) -> str:
    """The ``at`` of an illegal game record (exit status 1, nothing scored)."""
    out = game(tmp_path, records, status=1)
    assert out["hands"] is None and out["totals"] is None and out["winner"] is None and out["games"] is None
    return out["error"]["at"]


# --------------------------------------------------------------------------- what a game record is
# records.md: "A file whose name ends in `.jsonl`, or that holds more than one line, is a game
# record; any other file holds one hand record."
GAME_KEYS = {"hands", "totals", "winner", "games", "error"}
HAND_KEYS = {"contract", "tricks", "books", "score", "error"}
ONE = json.dumps(hand(0, 1, 3, 9))
TWO = json.dumps(hand(1, 3, 3, 9))


@pytest.mark.parametrize("name, text, keys", [
    ("one.jsonl", ONE, GAME_KEYS),                   # a one-line .jsonl is a game record
    ("one.jsonl", ONE + "\n", GAME_KEYS),
    ("one.jsonl", ONE + "\r\n", GAME_KEYS),
    ("one.jsonl", "\n\n" + ONE + "\n\n", GAME_KEYS),
    ("one.json", ONE, HAND_KEYS),                    # one line, any other name: a hand record
    ("one.json", ONE + "\n", HAND_KEYS),             # a trailing newline does not make a second line
    ("one.json", ONE + "\r\n", HAND_KEYS),
    ("one", ONE + "\n\n\n", HAND_KEYS),              # nor do blank lines (decision: docs/records.md)
    ("two.json", ONE + "\n" + TWO + "\n", GAME_KEYS),    # two lines: a game record whatever the name
    ("two.txt", ONE + "\r\n" + TWO + "\r\n", GAME_KEYS),
    ("two", ONE + "\r" + TWO, GAME_KEYS),
    ("two.jsonl", ONE + "\n\n  \n" + TWO + "\n", GAME_KEYS),
])
def test_what_makes_a_file_a_game_record(tmp_path, name, text, keys):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    out = replay(path)
    assert set(out) == keys
    if keys == GAME_KEYS:
        hands = text.count("{\"format\"")
        assert len(out["hands"]) == hands and len(out["games"]) == 1
        assert out["totals"] == [0, 6] if hands == 2 else [0, 3]
    else:
        assert out["score"] == [0, 3]


def test_blank_lines_do_not_count_as_hands_in_the_error_index(tmp_path):
    """`at` is prefixed with the hand's index: blank lines are no hands, so the third record of a
    file with blank lines between is hand[2] (and the message is no JSON-lines line number)."""
    bad = dict(hand(2, 0, 3, 9), play=["BJ", "3H", "3D", "AS"])  # seat 3 holds no AS
    path = tmp_path / "game.jsonl"
    path.write_text(ONE + "\n\n" + TWO + "\n\n\n" + json.dumps(bad) + "\n", encoding="utf-8")
    out = replay(path, status=1)
    assert out["error"]["at"] == "hand[2].play[3]"


def test_an_empty_jsonl_file_is_no_record(tmp_path):
    """Decision (docs/records.md): a game record holds at least one hand, whose `variant` says how
    many sides the totals have; a `.jsonl` file with no line (or blank lines only) is no record."""
    for text in ("", "\n\n"):
        path = tmp_path / "empty.jsonl"
        path.write_text(text, encoding="utf-8")
        result = run("replay", str(path), "--json")
        assert result.exit_code == 2 and result.stdout == ""
        assert "empty file" in result.stderr and str(path) in result.stderr


# --------------------------------------------------------------------------- one variant
# records.md: "one hand record per line, in order, all of the same variant"
@pytest.mark.parametrize("change, at", [
    ({"variant": "cincinnati"}, "hand[1].variant"),
    ({"with": ["to-9"]}, "hand[1].with"),
    ({"with": ["plain-notrump"]}, "hand[1].with"),
])
def test_every_hand_has_the_variant_and_house_rules_of_the_first(tmp_path, change, at):
    assert error_at(tmp_path, [hand(0, 1, 3, 9), {**hand(1, 3, 3, 9), **change}]) == at


def test_a_hand_of_other_rules_is_told_both_spellings(tmp_path):
    """records.md: a game record is "all of the same variant" (docs/records.md: "compared as
    written"): the message says the rule and what each hand wrote, so that `rules/x.yaml`
    against `./rules/x.yaml` is seen at once."""
    first = hand(0, 1, 3, 9, ("to-9", "plain-notrump"))
    second = hand(1, 3, 3, 9, ("plain-notrump", "to-9"))
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(json.dumps(h) for h in (first, second)) + "\n", encoding="utf-8")
    error = json.loads(run("replay", str(path), "--json").stdout)["error"]
    assert error["message"].startswith(
        "every hand of a game record has the house rules (with) of the first hand, as written: this hand has "
        '["plain-notrump", "to-9"], the first ["to-9", "plain-notrump"]')


def test_with_absent_and_with_empty_are_the_same_house_rules(tmp_path):
    second = hand(1, 3, 3, 9)
    del second["with"]
    assert game(tmp_path, [hand(0, 1, 3, 9), second])["totals"] == [0, 6]


def test_the_order_of_with_is_part_of_the_variant(tmp_path):
    first = hand(0, 1, 3, 9, ("to-9", "plain-notrump"))
    second = hand(1, 3, 3, 9, ("plain-notrump", "to-9"))
    assert error_at(tmp_path, [first, second]) == "hand[1].with"


def test_an_unknown_field_is_reported_before_the_hands_dealer_and_variant(tmp_path):
    """docs/records.md, Errors: "An unknown field is reported at its own name ... before anything
    else is checked."  In a game record a later hand's dealer and variant were checked first."""
    wrong_dealer = {**hand(2, 3, 3, 9), "bogus": 1}
    assert error_at(tmp_path, [hand(0, 1, 3, 9), wrong_dealer]) == "hand[1].bogus"
    other_variant = {**hand(1, 3, 3, 9), "variant": "cincinnati", "bogus": 1}
    assert error_at(tmp_path, [hand(0, 1, 3, 9), other_variant]) == "hand[1].bogus"
    first = {**hand(0, 1, 3, 9), "bogus": 1, "variant": "no-such-variant"}
    assert error_at(tmp_path, [first]) == "hand[0].bogus"


# --------------------------------------------------------------------------- at: hand[k].
@pytest.mark.parametrize("change, at", [
    ({"dealer": 3}, "hand[1].dealer"),
    ({"dealer": 0}, "hand[1].dealer"),
    ({"dealer": "1"}, "hand[1].dealer"),
    ({"dealer": None}, "hand[1].dealer"),
    ({"hands": one_suit_each(12)[:3]}, "hand[1].hands"),
    ({"kitty": ["2S", "2H", "2D", "2C", "BJ"]}, "hand[1].kitty"),
    ({"auction": ["pass", "pass", "3 uptown", "2 uptown"]}, "hand[1].auction[3]"),
    ({"auction": ["pass", "pass"]}, "hand[1].auction"),
    ({"declare": {"trump": "X"}}, "hand[1].declare"),
    ({"discard": ["2S", "2H", "2D", "2C", "3D"]}, "hand[1].discard"),
    ({"play": ["BJ", "3C", "AD", "3H"]}, "hand[1].play[2]"),     # seat 0 holds spades only
    ({"play": ["BJ", "3C"], "claim": ...}, "hand[1].play"),
    ({"claim": 12}, "hand[1].claim"),
    ({"in_progress": "yes"}, "hand[1].in_progress"),
])
def test_every_error_of_a_later_hand_is_prefixed_with_its_index(tmp_path, change, at):
    """records.md: "In a game record, `at` is prefixed with the hand's index: `hand[3].play[17]`";
    "in a game record also `hand[k].dealer` (not the variant's rotation)"."""
    second = {**hand(1, 2, 3, 9), **change}   # dealer 1: seat 2 calls first and declares
    second = {key: value for key, value in second.items() if value is not ...}
    assert error_at(tmp_path, [hand(0, 1, 3, 9), second, hand(2, 0, 3, 9)]) == at


def test_the_first_hand_is_prefixed_too(tmp_path):
    assert error_at(tmp_path, [{**hand(0, 1, 3, 9), "play": ["BJ", "3D", "AD", "3S"]}]) == "hand[0].play[2]"
    assert error_at(tmp_path, [{**hand(0, 1, 3, 9), "dealer": 4}]) == "hand[0].dealer"


def test_only_the_last_hand_may_be_in_progress(tmp_path):
    def stopped(dealer: int) -> dict:
        record = {**hand(dealer, 1, 3, 9), "play": ["BJ"], "in_progress": True}
        del record["claim"]
        return record
    out = game(tmp_path, [hand(3, 1, 3, 9), stopped(0)])
    assert out["hands"][1]["in_progress"] is True and out["hands"][1]["score"] is None
    assert out["totals"] == [0, 3] and out["winner"] is None
    assert out["games"] == [{"first_hand": 0, "hands": 2, "totals": [0, 3], "winner": None}]
    assert error_at(tmp_path, [stopped(3), hand(0, 1, 3, 9)]) == "hand[0].in_progress"


# --------------------------------------------------------------------------- the dealer's rotation
# records.md: "each hand's `dealer` following the variant's rotation (after a redeal the variant
# says who deals next)".  rules.md: the deal passes to the left; `deal-right` to the right;
# `all-pass-redeal`: "if all pass, the next dealer deals a new hand"; northeast52: a `redeal`
# is dealt again by the same dealer.
def test_the_deal_passes_to_the_left(tmp_path):
    records = [hand(d % 4, (d + 1) % 4, 3, 6) for d in range(3, 8)]   # every one set at 3
    out = game(tmp_path, records)
    assert [h["score"] for h in out["hands"]] == [[-3, 0], [0, -3], [-3, 0], [0, -3], [-3, 0]]
    assert out["totals"] == [-9, -6] and out["winner"] == 1   # side 0 at -9 loses (rules.md §1: -7)


@pytest.mark.parametrize("dealers, legal", [((2, 1, 0, 3), True), ((2, 3), False), ((2, 2), False)])
def test_deal_right_passes_the_deal_to_the_right(tmp_path, dealers, legal):
    records = [hand(d, d, 3, 9, ("deal-right",)) for d in dealers]   # the dealer makes 3 with 9: +3
    if legal:
        out = game(tmp_path, records)
        assert out["totals"] == [6, 6] and out["winner"] is None
    else:
        assert error_at(tmp_path, records) == "hand[1].dealer"


@pytest.mark.parametrize("with_, after_3", [(("all-pass-redeal",), 0),
                                            (("all-pass-redeal", "deal-right"), 2),
                                            (("deal-right", "all-pass-redeal"), 2)])
def test_after_all_pass_the_next_dealer_deals(tmp_path, with_, after_3):
    """all-pass-redeal: "if all pass, the next dealer deals a new hand" (the rotation's next:
    the left, or the right under deal-right)."""
    records = [thrown_in(3, with_), hand(after_3, 1, 3, 9, with_)]
    out = game(tmp_path, records)
    assert out["hands"][0]["contract"] is None and out["hands"][0]["score"] == [0, 0]
    assert out["totals"] == [0, 3] and out["games"][0]["hands"] == 2
    for wrong in {0, 1, 2, 3} - {after_3}:
        assert error_at(tmp_path, [records[0], {**records[1], "dealer": wrong}]) == "hand[1].dealer"


def test_without_all_pass_redeal_the_standard_dealer_may_not_pass(tmp_path):
    assert error_at(tmp_path, [thrown_in(3)]) == "hand[0].auction[3]"


def northeast52_redeal(dealer: int, with_: tuple[str, ...] = ()) -> dict:
    """A northeast52 deal (12 each, kitty of four) that the dealer throws in after three passes."""
    return {"format": "bidwhist-hand/1", "variant": "northeast52", "with": list(with_), "dealer": dealer,
            "hands": [[f"{r}{s}" for r in RANKS[:12]] for s in SUITS], "kitty": ["2S", "2H", "2D", "2C"],
            "auction": ["pass", "pass", "pass", "redeal"]}


@pytest.mark.parametrize("with_", [(), ("deal-right",)])
def test_after_a_redeal_the_same_dealer_deals_again(tmp_path, with_):
    """rules.md §2: "If the first three pass, the dealer bids (1 or more) or calls `redeal` (the
    same dealer deals again)"; deal-right changes only the rotation, not who redeals."""
    out = game(tmp_path, [northeast52_redeal(1, with_), northeast52_redeal(1, with_),
                          northeast52_redeal(1, with_)])
    assert out["totals"] == [0, 0] and out["winner"] is None and out["games"][0]["hands"] == 3
    for wrong in (0, 2, 3):
        assert error_at(tmp_path, [northeast52_redeal(1, with_), northeast52_redeal(wrong, with_)]) \
            == "hand[1].dealer"


# --------------------------------------------------------------------------- the game's end
# records.md: "A game record may stop before the game is decided (a game in progress); it may
# not go on after."
def test_a_hand_after_the_game_is_won_is_illegal_at_that_hand_whatever_it_holds(tmp_path):
    """Decision (docs/records.md): the hand itself is the first offending entry, `hand[k]`,
    before any of its own fields (a field of it given wrongly says nothing more)."""
    won = [hand(0, 1, 7, 13)]                                 # side 1 makes 7: +7, the game
    after = hand(1, 2, 3, 9)
    assert error_at(tmp_path, won + [after]) == "hand[1]"
    assert error_at(tmp_path, won + [{**after, "with": ["to-9"]}]) == "hand[1]"
    assert error_at(tmp_path, won + [{**after, "dealer": 3}]) == "hand[1]"
    assert error_at(tmp_path, won + [{**after, "bogus": True}]) == "hand[1]"
    message = game(tmp_path, won + [after], status=1)["error"]["message"]
    assert "decided" in message and "side 1" in message


def test_a_game_in_progress_has_no_winner(tmp_path):
    out = game(tmp_path, [hand(0, 1, 6, 12), hand(1, 3, 3, 6)])   # side 1: +6, then set at 3: 3
    assert out["totals"] == [0, 3] and out["winner"] is None
    assert out["games"] == [{"first_hand": 0, "hands": 2, "totals": [0, 3], "winner": None}]
    text = run("replay", str(tmp_path / "game.jsonl")).stdout
    assert text.rstrip().endswith("game in progress")


def play_out(tmp_path: Path, with_: tuple[str, ...], results: list[tuple[int, int, int]]) -> dict:
    """A game of standard+``with_``: each result (declarer, bid, books) in turn, the deal passing
    left from seat 0; the totals are checked against rules.md's scoring hand by hand."""
    records = [hand(i % 4, declarer, bid, books, with_) for i, (declarer, bid, books) in enumerate(results)]
    out = game(tmp_path, records)
    totals = [0, 0]
    for (declarer, bid, books), got in zip(results, out["hands"]):
        score = [0, 0]
        score[declarer % 2] = standard_score(bid, books)
        assert got["score"] == score
        totals = [t + s for t, s in zip(totals, score)]
    assert out["totals"] == totals
    assert out["games"] == [{"first_hand": 0, "hands": len(results), "totals": totals, "winner": out["winner"]}]
    return out


@pytest.mark.parametrize("with_, results, winner", [
    # standard: 7 or more wins; -7 or less loses.
    ((), [(1, 3, 12)], None),                      # +6
    ((), [(1, 3, 12), (0, 3, 9), (3, 3, 9)], 1),   # side 1: 6, then 9
    ((), [(1, 4, 9), (2, 4, 9), (1, 4, 9)], 0),     # side 1 set twice: -8; side 0 at -4 wins
    ((), [(1, 3, 8), (3, 4, 9)], 0),                # side 1 at exactly -7 loses
    ((), [(1, 3, 8), (3, 3, 8)], None),             # -6
    # to-5 and to-9 move both ends.
    (("to-5",), [(1, 5, 11)], 1),
    (("to-5",), [(1, 5, 10)], 0),                  # side 1 set at 5: -5 loses
    (("to-5",), [(1, 4, 10)], None),               # +4
    (("to-9",), [(1, 7, 13)], None),               # +7 is no longer the game
    (("to-9",), [(1, 7, 13), (3, 3, 9)], 1),       # 7 + 3 = 10
    (("to-9",), [(1, 7, 12), (3, 3, 10)], None),   # -7, then -3
    (("to-9",), [(1, 7, 12), (3, 3, 7)], 0),       # -7 - 3 = -10: side 1 loses
    # two-sets: "a side set for the third time in a game loses it"
    (("two-sets",), [(0, 3, 8), (0, 3, 12), (2, 3, 8)], None),            # two sets: -3 +6 -3 = 0
    (("two-sets",), [(0, 3, 8), (0, 3, 12), (2, 3, 8), (0, 3, 8)], 1),    # the third: -3 loses
    ((), [(0, 3, 8), (0, 3, 12), (2, 3, 8), (0, 3, 8)], None),            # without two-sets: -3
    # boston-wins: "taking all 13 books wins the game at once"
    (("to-9", "boston-wins"), [(1, 3, 13)], 1),    # +7 under to-9, but a sweep
    (("boston-wins", "to-9"), [(1, 3, 13)], 1),
    (("to-9",), [(1, 3, 13)], None),
    (("to-9", "boston-wins"), [(1, 3, 12)], None),
    # seven-set-loses: "a side set on a bid of 7 loses the game at once"
    (("to-9", "seven-set-loses"), [(1, 7, 12)], 0),
    (("to-9", "seven-set-loses"), [(1, 6, 11)], None),   # set on 6: -6
    (("to-9",), [(1, 7, 12)], None),
])
def test_the_game_ends_of_standard_and_its_house_rules(tmp_path, with_, results, winner):
    out = play_out(tmp_path, with_, results)
    assert out["winner"] == winner


@pytest.mark.parametrize("with_", [("two-sets", "to-9"), ("to-9", "two-sets")])
def test_two_sets_loses_even_with_a_higher_score(tmp_path, with_):
    # side 0: made 6 (+6), then set at 3 three times (-9): -3; side 1 never bids: 0 wins.
    out = play_out(tmp_path, with_, [(0, 3, 12), (0, 3, 8), (2, 3, 8), (0, 3, 8)])
    assert out["totals"] == [-3, 0] and out["winner"] == 1


# ten-hands: "the game is ten hands (thrown-in hands do not count); the higher total wins; on a
# tie, one more hand at a time until the totals differ.  The ±7 ends are off."
def ten_hands_game(with_: tuple[str, ...], plan: list) -> list[dict]:
    """Hands dealt in turn from seat 0: ``None`` all pass (thrown in), else (declarer, bid, books)."""
    return [thrown_in(i % 4, with_) if step is None else hand(i % 4, *step, with_)
            for i, step in enumerate(plan)]


def test_ten_hands_the_higher_total_after_ten(tmp_path):
    plan = [(1, 3, 12)] * 9 + [(0, 3, 9)]           # side 1 +6 nine times: 54, far past +7
    out = game(tmp_path, ten_hands_game(("ten-hands",), plan[:9]))
    assert out["totals"] == [0, 54] and out["winner"] is None
    out = game(tmp_path, ten_hands_game(("ten-hands",), plan))
    assert out["totals"] == [3, 54] and out["winner"] == 1
    assert out["games"] == [{"first_hand": 0, "hands": 10, "totals": [3, 54], "winner": 1}]


def test_ten_hands_a_tie_goes_on_one_hand_at_a_time(tmp_path):
    tied = [(1, 3, 9), (0, 3, 9)] * 5                # +3 each in turn: 15 to 15 after ten
    out = game(tmp_path, ten_hands_game(("ten-hands",), tied))
    assert out["totals"] == [15, 15] and out["winner"] is None
    out = game(tmp_path, ten_hands_game(("ten-hands",), tied + [(1, 3, 6)]))
    assert out["totals"] == [15, 12] and out["winner"] == 0                   # side 1 set: 15 to 12
    at = error_at(tmp_path, ten_hands_game(("ten-hands",), tied + [(1, 3, 6), (0, 3, 9)]))
    assert at == "hand[11]"
    # A thrown-in hand after the tie changes nothing: still tied, the next hand decides.
    rules = ("ten-hands", "all-pass-redeal")
    out = game(tmp_path, ten_hands_game(rules, tied + [None, None]))
    assert out["totals"] == [15, 15] and out["winner"] is None
    out = game(tmp_path, ten_hands_game(rules, tied + [None, None, (3, 3, 9)]))
    assert out["totals"] == [15, 18] and out["winner"] == 1
    assert out["games"] == [{"first_hand": 0, "hands": 13, "totals": [15, 18], "winner": 1}]


@pytest.mark.parametrize("with_", [("ten-hands", "all-pass-redeal"), ("all-pass-redeal", "ten-hands")])
def test_ten_hands_does_not_count_thrown_in_hands(tmp_path, with_):
    plan = [(1, 3, 9), None, (0, 3, 9), None, None] + [(1, 3, 9)] * 8   # ten played, three thrown in
    out = game(tmp_path, ten_hands_game(with_, plan[:-1]))
    assert out["totals"] == [3, 24] and out["winner"] is None and out["games"][0]["hands"] == 12
    out = game(tmp_path, ten_hands_game(with_, plan))
    assert out["totals"] == [3, 27] and out["winner"] == 1 and out["games"][0]["hands"] == 13


# --------------------------------------------------------------------------- cutthroat
# rules.md §7: 54 cards, 17 each, kitty of 3; bids count books outright; made: the declarer
# scores the books taken, set: minus the bid; each defender scores its own books.  "First to
# 30 wins; if several reach 30 on one hand, the declarer wins if it is one of them, otherwise
# the highest score (on a tie, the first of them from the dealer's left)."
def cutthroat_hand(dealer: int, declarer: int, bid: int, shares: list[int]) -> dict:
    """``declarer`` holds the jokers, every spade, AH and KH; it bids ``bid`` uptown in spades, lays
    away the kitty (QH JH TH: its book), leads the big joker (nobody else has a trump) and the
    sixteen tricks left are claimed by seat as ``shares``."""
    spades = [f"{r}S" for r in RANKS]
    left, right = (declarer + 1) % 3, (declarer + 2) % 3
    hands: list[list[str]] = [[], [], []]
    hands[declarer] = ["BJ", "LJ", *spades, "AH", "KH"]
    hands[left] = [f"{r}H" for r in "98765432"] + [f"{r}D" for r in "AKQJT9876"]
    hands[right] = [f"{r}D" for r in "5432"] + [f"{r}C" for r in RANKS]
    return {"format": "bidwhist-hand/1", "variant": "cutthroat", "with": [], "dealer": dealer,
            "hands": hands, "kitty": ["QH", "JH", "TH"],
            "auction": auction(dealer, declarer, f"{bid} uptown", 3), "declare": {"trump": "S"},
            "discard": ["QH", "JH", "TH"], "play": ["BJ", "9H", "5D"], "claim": shares}


def cutthroat_scores(declarer: int, bid: int, shares: list[int]) -> list[int]:
    """rules.md §7 worked out: the declarer's books are its share, the trick and the discards."""
    books = [s + (2 if seat == declarer else 0) for seat, s in enumerate(shares)]
    return [(b if b >= bid else -bid) if seat == declarer else b for seat, b in enumerate(books)]


def cutthroat_game(tmp_path: Path, first_dealer: int, plan: list) -> dict:
    """Replay a cutthroat game of ``plan`` (declarer, bid, shares), checking every hand's score."""
    records = [cutthroat_hand((first_dealer + i) % 3, *step) for i, step in enumerate(plan)]
    out = game(tmp_path, records)
    totals = [0, 0, 0]
    for step, got in zip(plan, out["hands"]):
        assert got["score"] == cutthroat_scores(*step)
        totals = [t + s for t, s in zip(totals, got["score"])]
    assert out["totals"] == totals
    return out


# Three hands that leave seat 0 at 25, seat 1 at 27 and seat 2 at -7.
BEFORE = [(1, 7, [8, 8, 0]), (0, 7, [8, 8, 0]), (2, 7, [7, 9, 0])]


def test_cutthroat_below_30_goes_on(tmp_path):
    out = cutthroat_game(tmp_path, 0, BEFORE)
    assert out["totals"] == [25, 27, -7] and out["winner"] is None


@pytest.mark.parametrize("last, winner", [
    ((1, 7, [0, 5, 11]), 1),      # seat 1 alone reaches 30 (34): it wins
    ((0, 7, [5, 11, 0]), 0),      # seats 0 (32) and 1 (38) reach 30: the declarer wins
    ((2, 7, [8, 8, 0]), 1),       # seats 0 (33) and 1 (35), the declarer set: the higher
])
def test_cutthroat_first_to_30(tmp_path, last, winner):
    out = cutthroat_game(tmp_path, 0, BEFORE + [last])
    assert out["winner"] == winner
    assert out["games"] == [{"first_hand": 0, "hands": 4, "totals": out["totals"], "winner": winner}]


@pytest.mark.parametrize("first_dealer, winner", [(0, 1), (1, 0), (2, 0)])
def test_cutthroat_a_tie_at_30_goes_to_the_first_from_the_dealers_left(tmp_path, first_dealer, winner):
    # Seats 0 and 1 both end on 33, the declarer (seat 2) set.  The fourth hand's dealer is
    # first_dealer + 3 = first_dealer: dealer 0 -> seat 1 first; dealer 1 -> seat 2 (not tied),
    # then seat 0; dealer 2 -> seat 0.
    out = cutthroat_game(tmp_path, first_dealer, BEFORE + [(2, 7, [8, 6, 2])])
    assert out["totals"] == [33, 33, -14] and out["winner"] == winner


# --------------------------------------------------------------------------- the writers
# records.md: "whatever writes a record writes its paths that way"; every record simulate and
# play write must replay, exit 0, to the same score.
GAMES = sorted(shipped_variants()) + [f"standard+{rule}" for rule in sorted(shipped_house_rules())]


@pytest.mark.parametrize("name", GAMES)
def test_simulated_game_records_replay_to_the_games_played(tmp_path, name):
    from runtime.simulate import play_game

    rules = load_ruleset(name)
    pattern = tmp_path / "game-{game}.jsonl"
    result = run("simulate", name, "--games", "1", "--seed", "3", "--max-hands", "20",
                 "--records", str(pattern))
    assert result.exit_code == 0, result.stderr
    for g in range(1):
        played = play_game(rules, 3, g, "heuristic", max_hands=20)
        out = replay(tmp_path / f"game-{g}.jsonl")
        assert [h["score"] for h in out["hands"]] == [h.score for h in played.hands]
        assert out["winner"] == played.winner
        assert out["games"] == [game.as_json() for game in played.tally.games]
        assert out["totals"] == played.tally.games[-1].totals
        rounds = [h for h in out["hands"] if h["contract"] is not None]
        assert len(rounds) == sum(1 for h in played.hands if h.declarer >= 0)
        text = run("replay", str(tmp_path / f"game-{g}.jsonl"))
        assert text.exit_code == 0


# Answers for `play` from a pipe: pass where a call is asked, else the first choice, else a
# bid of 7 (a dealer who must bid where bids go from 3).
ANSWERS = "pass\n1\n7\n"


def final_score(text: str) -> list[int]:
    """The totals `play` prints at the end ("Final score: us (0+2) 3   them (1+3) 7")."""
    line = next(line for line in text.splitlines() if line.startswith("Final score:"))
    return [int(n) for n in re.findall(r"(?:\)|seat \d+) (-?\d+)", line)]


# One game of each kind of table (four in partnerships, three alone, two), a rubber, a redeal and
# the deal to the right; every variant and house rule is written by simulate above.
@pytest.mark.parametrize("name", ["standard", "oregon", "cutthroat", "two-handed", "northeast52+deal-right"])
def test_a_played_game_saved_replays_to_the_final_score(tmp_path, name):
    save = tmp_path / "saved.jsonl"
    result = CliRunner().invoke(cli, ["play", name, "--seed", "11", "--fast", "--save", str(save)],
                                input=ANSWERS * 1500)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 0, result.stdout[-2000:] + result.stderr
    assert "Final score:" in result.stdout, result.stdout[-2000:]
    out = replay(save)
    assert out["winner"] is not None
    assert out["totals"] == final_score(result.stdout)


# --------------------------------------------------------------------------- oregon's rubber
# rules.md §3: "first to 11; if both sides reach 11 on the same hand, the contracting side wins.
# A rubber is the best of three games; the deal goes on passing to the left from one game to
# the next."  records.md: "`totals` are the totals of the last game in the record, also when
# that game has just ended (they start again from zero only with the next game's first hand)".
def oregon_hand(dealer: int, declarer: int, bid: int, books: int) -> dict:
    """An oregon hand (13 cards a seat, one suit each, no kitty): ``declarer`` bids ``bid``, leads
    its ace (which names trump and which nobody can follow) and claims up to ``books`` books."""
    followers = [(declarer + k) % 4 for k in (1, 2, 3)]
    return {"format": "bidwhist-hand/1", "variant": "oregon", "with": [], "dealer": dealer,
            "hands": one_suit_each(13), "kitty": [], "auction": auction(dealer, declarer, str(bid)),
            "play": [f"A{SUITS[declarer]}"] + [f"2{SUITS[s]}" for s in followers], "claim": books - 1}


def oregon_score(declarer: int, bid: int, books: int) -> list[int]:
    """rules.md §3: made scores the books over six, set loses the bid; the other side scores its tricks."""
    score = [0, 0]
    score[declarer % 2] = books - 6 if books - 6 >= bid else -bid
    score[1 - declarer % 2] = 13 - books
    return score


# Side 0: set at 1 with 3 books (-1, side 1 +10), then all 13 (+7), then 11 books (+5): 11, while
# side 1's two tricks take it to 12.  Both reach 11 on one hand: the contracting side 0 wins.
BOTH_REACH_11 = [(0, 1, 3), (2, 1, 13), (0, 1, 11)]


def test_oregon_both_sides_reach_11_the_contracting_side_wins_and_the_rubber_goes_on(tmp_path):
    plan = BOTH_REACH_11 + [(1, 1, 13)]   # game 2: side 1 sweeps, +7 from zero
    records = [oregon_hand(i % 4, *step) for i, step in enumerate(plan)]
    out = game(tmp_path, records[:3])
    assert [h["score"] for h in out["hands"]] == [oregon_score(*step) for step in BOTH_REACH_11]
    assert out["games"] == [{"first_hand": 0, "hands": 3, "totals": [11, 12], "winner": 0}]
    assert out["totals"] == [11, 12] and out["winner"] is None   # the game's totals; the rubber goes on
    out = game(tmp_path, records)
    assert out["games"] == [{"first_hand": 0, "hands": 3, "totals": [11, 12], "winner": 0},
                            {"first_hand": 3, "hands": 1, "totals": [0, 7], "winner": None}]
    assert out["totals"] == [0, 7] and out["winner"] is None
    text = run("replay", str(tmp_path / "game.jsonl")).stdout
    # The winner's total first, though it is the lower (the text said "12 to 11").
    assert "game 1 won by side 0+2, 11 to 12 (hands 1-3)" in text
    assert "rubber    side 0+2 1 game   side 1+3 0 games" in text
    assert text.rstrip().endswith("rubber in progress: game 2 under way, 1 won so far")


def test_oregon_a_rubber_of_three_games_and_no_hand_after_it(tmp_path):
    plan = BOTH_REACH_11 + [(1, 1, 13), (3, 1, 10)] + BOTH_REACH_11   # 0 wins, 1 wins (7 + 4), 0 wins
    records = [oregon_hand(i % 4, *step) for i, step in enumerate(plan)]
    out = game(tmp_path, records)
    assert out["games"] == [{"first_hand": 0, "hands": 3, "totals": [11, 12], "winner": 0},
                            {"first_hand": 3, "hands": 2, "totals": [3, 11], "winner": 1},
                            {"first_hand": 5, "hands": 3, "totals": [11, 12], "winner": 0}]
    assert out["totals"] == [11, 12] and out["winner"] == 0
    text = run("replay", str(tmp_path / "game.jsonl")).stdout
    first, second, third = (text.index(line) for line in (
        "game 1 won by side 0+2, 11 to 12 (hands 1-3)", "game 2 won by side 1+3, 11 to 3 (hands 4-5)",
        "game 3 won by side 0+2, 11 to 12 (hands 6-8)"))
    assert first < second < third
    assert text.index("rubber    side 0+2 1 game   side 1+3 1 game") > second
    assert "side 0+2 wins the rubber, 2 games to 1" in text
    more = records + [oregon_hand(len(records) % 4, 1, 1, 9)]
    assert error_at(tmp_path, more) == f"hand[{len(records)}]"


# --------------------------------------------------------------------------- play's hand in play
# records.md: "`in_progress: true` (optional): the hand stops partway and says so"; the brief of
# every writer: whatever it writes of a hand in progress says so.  `play --save` keeps the hand in
# play as the last line of FILE: it is marked, and it replays on its own (exit 0).
@pytest.mark.parametrize("variant, with_", [("standard", ()), ("northeast52", ()), ("oregon", ()),
                                            ("cutthroat", ()), ("standard", ("jokers-out-in-notrump",)),
                                            ("standard", ("kitty-first",))])
def test_the_saved_hand_in_play_is_marked_in_progress_and_replays(tmp_path, variant, with_):
    from runtime.session import Session, Settings

    rules = load_ruleset(variant, with_)
    session = Session.new(rules, Settings(variant, list(with_), 4, [], "random"), tmp_path / "saved.jsonl")
    phases = set()
    for step in range(60):
        if session.is_over():
            break
        session.apply(session.bot_choice())
        if session.is_over():
            break
        record = json.loads(session.path.read_text(encoding="utf-8").splitlines()[-1])
        assert record["in_progress"] is True
        if step % 4:
            continue
        phases.add(session.hand.phase)
        out = replay(write(tmp_path / "hand.jsonl", [record]))   # the game's next hand, on its own
        assert out["hands"][0]["in_progress"] is True and out["hands"][0]["score"] is None
        again = Session.load(session.path, lambda v, w: load_ruleset(v, tuple(w)))
        assert again.actions == session.actions
    assert len(phases) >= 2   # stopped in the auction and in the play at least


def test_a_sidecar_written_before_the_mark_still_resumes(tmp_path):
    from runtime.session import Session, Settings

    rules = load_ruleset("standard")
    session = Session.new(rules, Settings("standard", [], 2, [], "random"), tmp_path / "saved.jsonl")
    for _ in range(12):
        session.apply(session.bot_choice())
    # The layout that kept the hand in play in the sidecar: FILE holds the hands finished only.
    sidecar = tmp_path / "saved.jsonl.session.json"
    data = {**session.settings.as_json(), "in_progress": {"index": len(session.hands),
                                                           "record": session.in_progress()}}
    session.path.write_text("".join(json.dumps(r) + "\n" for r in session.records()), encoding="utf-8")
    for mark, loads in ((..., True), (False, False), (True, True)):
        record = {k: v for k, v in data["in_progress"]["record"].items() if k != "in_progress"}
        if mark is not ...:
            record["in_progress"] = mark
        sidecar.write_text(json.dumps({**data, "in_progress": {**data["in_progress"], "record": record}}),
                           encoding="utf-8")
        if loads:
            assert Session.load(session.path, lambda v, w: load_ruleset(v, tuple(w))).actions == session.actions
        else:
            with pytest.raises(Exception, match="in_progress.record.in_progress"):
                Session.load(session.path, lambda v, w: load_ruleset(v, tuple(w)))


# --------------------------------------------------------------------------- hawaii
# rules.md §6: bids 3-7 (bare numbers); "The opponents set the contract with `8 − bid` books";
# made: +1 to the declaring side, set: +2 to the opponents; "a side wins when it is 7 up with
# the other side at 0, or 11 points ahead, or at 21 or more with the other side at least 2 behind."
def hawaii_hand(dealer: int, declarer: int, bid: int, books: int) -> dict:
    """A hawaii hand (12 each, kitty of four): ``declarer`` bids ``bid``, names its suit, lays away
    the four deuces, leads its ace (nobody can follow) and claims up to ``books`` books."""
    suit = SUITS[declarer]
    followers = [(declarer + k) % 4 for k in (1, 2, 3)]
    return {"format": "bidwhist-hand/1", "variant": "hawaii", "with": [], "dealer": dealer,
            "hands": [[f"{r}{s}" for r in RANKS[:12]] for s in SUITS], "kitty": ["2S", "2H", "2D", "2C"],
            "auction": auction(dealer, declarer, str(bid)), "declare": {"trump": suit},
            "discard": ["2S", "2H", "2D", "2C"],
            "play": [f"A{suit}"] + [f"3{SUITS[s]}" for s in followers], "claim": books - 2}


def hawaii_game(tmp_path: Path, plan: list[tuple[int, int, int]]) -> dict:
    """Replay ``plan`` (declarer, bid, books) dealt in turn from seat 0, checking each hand's score."""
    out = game(tmp_path, [hawaii_hand(i % 4, *step) for i, step in enumerate(plan)])
    for (declarer, bid, books), got in zip(plan, out["hands"]):
        side = declarer % 2
        score = [0, 0]
        if 13 - books >= 8 - bid:   # the opponents took 8 - bid books: set
            score[1 - side] = 2
        else:
            score[side] = 1
        assert got["score"] == score, (declarer, bid, books)
    return out


MAKE_0, MAKE_1, SET_0, SET_1 = (0, 3, 9), (1, 3, 9), (0, 3, 8), (1, 3, 8)   # set at 3: the others take 5


@pytest.mark.parametrize("plan, totals, winner", [
    ([MAKE_1] * 6, [0, 6], None),
    ([MAKE_1] * 7, [0, 7], 1),                           # 7 up with the other at 0
    ([MAKE_0] + [MAKE_1] * 7, [1, 7], None),             # 7 to 1: not a shutout
    ([MAKE_0] + [SET_0] * 5 + [MAKE_1] * 1, [1, 11], None),   # 10 ahead
    ([MAKE_0] + [SET_0] * 6, [1, 12], 1),                # 11 ahead
    ([MAKE_0, MAKE_1] * 10 + [MAKE_0], [11, 10], None),
    ([SET_0, SET_1] * 10 + [MAKE_0], [21, 20], None),             # 21, but 1 ahead
    ([SET_0, SET_1] * 10 + [MAKE_0, MAKE_0], [22, 20], 0),        # 21 or more and 2 ahead
])
def test_hawaii_game_ends(tmp_path, plan, totals, winner):
    out = hawaii_game(tmp_path, plan)
    assert out["totals"] == totals and out["winner"] == winner


@pytest.mark.parametrize("with_, dealers", [(("all-pass-redeal",), (0, 1, 2, 0)),
                                            (("all-pass-redeal", "deal-right"), (0, 2, 1, 0))])
def test_cutthroat_rotation_of_three_after_all_pass(tmp_path, with_, dealers):
    """Three seats: the next dealer is (dealer + 1) % 3, or (dealer - 1) % 3 to the right."""
    def thrown(dealer: int) -> dict:
        record = cutthroat_hand(dealer, 0, 7, [0] * 3)
        for key in ("declare", "discard", "play", "claim"):
            del record[key]
        return {**record, "with": list(with_), "auction": ["pass"] * 3}
    out = game(tmp_path, [thrown(d) for d in dealers])
    assert out["totals"] == [0, 0, 0] and out["winner"] is None and out["games"][0]["hands"] == 4
    wrong = [thrown(dealers[0]), thrown(dealers[0])]                 # the same dealer again
    assert error_at(tmp_path, wrong) == "hand[1].dealer"


def test_a_simulated_game_stopped_at_max_hands_is_a_game_in_progress(tmp_path):
    """`simulate --max-hands` stops a game still undecided: its record stops before the game is
    decided, which records.md allows (winner null, its one game in progress)."""
    path = tmp_path / "game-{game}.jsonl"
    result = run("simulate", "standard+ten-hands", "--games", "1", "--seed", "2", "--max-hands", "4",
                 "--records", str(path))
    assert result.exit_code == 0, result.stderr
    out = replay(tmp_path / "game-0.jsonl")
    assert len(out["hands"]) == 4 and out["winner"] is None
    assert out["games"] == [{"first_hand": 0, "hands": 4, "totals": out["totals"], "winner": None}]
    assert out["totals"] == [sum(h["score"][s] for h in out["hands"]) for s in (0, 1)]


@pytest.mark.parametrize("name, noted", [("game-{game}.json", True), ("game.txt", True),
                                         ("game-{game}.jsonl", False), ("game.jsonl", False)])
def test_simulate_says_when_a_game_records_name_would_not_be_read_as_one(tmp_path, name, noted):
    """records.md: "A file whose name ends in `.jsonl`, or that holds more than one line, is a game
    record".  A game of one hand that simulate writes to `game-0.json` is read back as a hand
    record: simulate says so (play --save refuses such a name outright)."""
    result = run("simulate", "standard", "--games", "1", "--seed", "1", "--records", str(tmp_path / name))
    assert result.exit_code == 0, result.stderr
    assert ("does not end in .jsonl" in result.stderr) == noted


def test_after_a_players_redeal_without_face_cards_the_same_dealer_deals_again(tmp_path):
    """rules.md §2: "Any player, dealer included, who holds no king, queen or jack may call
    `redeal` instead of bidding on their turn (same dealer deals again)"."""
    plain = [f"{r}S" for r in "23456789"] + [f"{r}H" for r in "2345"]        # seat 1: no face card
    rest = [f"{r}{s}" for s in SUITS for r in RANKS if f"{r}{s}" not in plain]
    hands = [rest[0:12], plain, rest[12:24], rest[24:36]]
    record = {"format": "bidwhist-hand/1", "variant": "northeast52", "with": [], "dealer": 0,
              "hands": hands, "kitty": rest[36:40], "auction": ["redeal"]}
    out = game(tmp_path, [record, record])
    assert [h["contract"] for h in out["hands"]] == [None, None] and out["winner"] is None
    assert error_at(tmp_path, [record, {**record, "dealer": 1}]) == "hand[1].dealer"
    assert error_at(tmp_path, [{**record, "dealer": 3}]) == "hand[0].auction[0]"   # seat 0 holds face cards


@pytest.mark.parametrize("mode", ["--games", "--hands"])
def test_simulate_records_into_a_folder(tmp_path, mode):
    """`simulate VARIANT --games N --records DIR`: one game record per game in the folder
    (game-0.jsonl, ...), each replaying on its own; with --hands, DIR/hands.jsonl for --each."""
    result = run("simulate", "standard", mode, "3", "--seed", "5", "--records", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    if mode == "--games":
        assert sorted(p.name for p in tmp_path.iterdir()) == ["game-0.jsonl", "game-1.jsonl", "game-2.jsonl"]
        for g in range(3):
            assert replay(tmp_path / f"game-{g}.jsonl")["winner"] is not None
    else:
        assert [p.name for p in tmp_path.iterdir()] == ["hands.jsonl"]
        each = run("replay", "--each", str(tmp_path / "hands.jsonl"), "--json")
        assert each.exit_code == 0 and len(json.loads(each.stdout)["hands"]) == 3


# --------------------------------------------------------------------------- two-handed
# rules.md §9 `two-handed`: two players, each its own side, 12 cards each, a kitty of six, the
# other 24 cards unseen; the auction once round from the non-dealer; scoring and game as standard.
def two_handed_hand(dealer: int, declarer: int, bid: int, books: int) -> dict:
    """Seat 0 holds the twelve highest spades, seat 1 the twelve highest hearts; the declarer bids
    ``bid`` uptown in its suit, lays away the kitty, leads the big joker and claims to ``books``."""
    suit = "SH"[declarer]
    return {"format": "bidwhist-hand/1", "variant": "two-handed", "with": [], "dealer": dealer,
            "hands": [[f"{r}S" for r in RANKS[:12]], [f"{r}H" for r in RANKS[:12]]],
            "kitty": ["BJ", "LJ", "2S", "2H", "2D", "2C"],
            "auction": auction(dealer, declarer, f"{bid} uptown", 2), "declare": {"trump": suit},
            "discard": ["2S", "2H", "2D", "2C", "LJ", f"3{suit}"],
            "play": ["BJ", f"3{'HS'[declarer]}"], "claim": books - 2}


def test_two_handed_the_deal_alternates_and_each_player_scores_alone(tmp_path):
    plan = [(0, 3, 9), (0, 3, 9), (1, 4, 9)]    # seat 0 +3 twice, seat 1 set at 4: -4
    records = [two_handed_hand(i % 2, *step) for i, step in enumerate(plan)]
    out = game(tmp_path, records)
    assert [h["score"] for h in out["hands"]] == [[3, 0], [3, 0], [0, -4]]
    assert out["totals"] == [6, -4] and out["winner"] is None
    out = game(tmp_path, records + [two_handed_hand(1, 0, 3, 9)])   # seat 0 to 9
    assert out["totals"] == [9, -4] and out["winner"] == 0
    assert error_at(tmp_path, [records[0], two_handed_hand(0, 1, 3, 9)]) == "hand[1].dealer"


# --------------------------------------------------------------------------- rhode-island
# rules.md §5: made (at least 6 + bid books): a point for each book the side took, the discards'
# book included; set: the opponents score the bid, plus one per book over six they took.
# "Game: first to 21 or more."
def rhode_island_hand(dealer: int, declarer: int, bid: int, books: int) -> dict:
    """One suit each (A down to 3), the deuces in the kitty: ``declarer`` bids ``bid``, lays the
    deuces away, then names its suit, leads its ace and claims up to ``books`` books."""
    suit = SUITS[declarer]
    followers = [(declarer + k) % 4 for k in (1, 2, 3)]
    return {"format": "bidwhist-hand/1", "variant": "rhode-island", "with": [], "dealer": dealer,
            "hands": [[f"{r}{s}" for r in RANKS[:12]] for s in SUITS], "kitty": ["2S", "2H", "2D", "2C"],
            "auction": auction(dealer, declarer, str(bid)), "discard": ["2S", "2H", "2D", "2C"],
            "declare": {"trump": suit},
            "play": [f"A{suit}"] + [f"3{SUITS[s]}" for s in followers], "claim": books - 2}


@pytest.mark.parametrize("plan, totals, winner", [
    ([(1, 1, 13), (3, 1, 7)], [0, 20], None),
    ([(1, 1, 13), (3, 1, 8)], [0, 21], 1),
    ([(0, 4, 9), (2, 5, 6)], [0, 10], None),     # set twice: 4 + 0, then 5 + 1 (seven books)
    ([(1, 1, 13), (0, 7, 5)], [0, 22], 1),       # set at 7: side 1 took 8, so 7 + 2 more
])
def test_rhode_island_scores_books_and_ends_at_21(tmp_path, plan, totals, winner):
    out = game(tmp_path, [rhode_island_hand(i % 4, *step) for i, step in enumerate(plan)])
    assert out["totals"] == totals and out["winner"] == winner
