"""The hand-record fields records.md added in issue 13: ``swaps``, ``reneges``, claims of
three or more sides, ``in_progress``; and sport-kitty with kitty-first (rules.md §8).

Every record here is a hand-made deal whose outcome the rule decides, fed to the real
``bidwhist replay`` / ``analyze`` commands; expected books and scores are worked out
by hand in the comments (standard scoring: books over six, doubled in notrump).
"""

from __future__ import annotations

import json

import pytest

from bidcompiler.errors import CompileError
from bidcompiler.pipeline import load_ruleset
from clirun import run
from runtime.records import RecordFile, hand_record, replay_file
from runtime.ruleset import NO_TRUMP
from runtime.simulate import play_hand
from worked_hands import NT_RECORD, NT_TRICKS, with_changes

# Dealer 3, seat 0 bids 4 notrump uptown and takes every trick but the second (seat 1's AS).
BASE = NT_RECORD
BASE_TRICKS = NT_TRICKS
TRICKS_JSON = [{"leader": l, "cards": c.split(), "winner": w} for l, c, w in BASE_TRICKS]
CONTRACT = {"declarer": 0, "side": 0, "bid": 4, "strain": "notrump", "trump": None, "direction": "uptown"}


def record(base: dict = BASE, **changes) -> dict:
    """A copy of ``base`` with fields replaced (``...`` removes one)."""
    return with_changes(base, **changes)


def replay(tmp_path, data, *args: str):
    """``bidwhist replay FILE --json`` (or the text with ``text=True``): click's Result."""
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return run("replay", str(path), *args)


def replay_ok(tmp_path, data) -> dict:
    result = replay(tmp_path, data, "--json")
    assert result.exit_code == 0, result.stdout + result.stderr
    out = json.loads(result.stdout)
    assert out["error"] is None
    return out


def replay_illegal(tmp_path, data, at: str, *fragments: str) -> str:
    result = replay(tmp_path, data, "--json")
    assert result.exit_code == 1, result.stdout + result.stderr
    err = json.loads(result.stdout)["error"]
    assert err["at"] == at, err
    for fragment in fragments:
        assert fragment in err["message"], err
    return err["message"]


# ============================================================================ swaps
# jokers-out-in-notrump: seat 1 holds both jokers (instead of 2H and 3H, which lie in the
# kitty).  Seat 0 lays away 2S 3D 2D 2C 2H 3H; seat 1 swaps its jokers for 2H and 3H and
# so holds exactly BASE's hand again: the play is BASE's, 12 books to 1, +12.
TWO_JOKERS = record(
    hands=[BASE["hands"][0], "6H 5H 4H BJ LJ AS 8S 7S 6S 5S 4S 3S".split(), BASE["hands"][2], BASE["hands"][3]],
    kitty="2S 3D 2D 2C 2H 3H".split(),
    discard="2S 3D 2D 2C 2H 3H".split(),
    swaps=[{"seat": 1, "gave": "BJ", "drew": "2H"}, {"seat": 1, "gave": "LJ", "drew": "3H"}],
    **{"with": ["jokers-out-in-notrump"]},
)
# Seat 0 holds LJ (instead of 8H, now in the kitty) and seat 1 BJ (instead of 2H, in the
# kitty): seat 0 lays away LJ with five cards it chooses, seat 1 draws 2H for BJ.
ONE_EACH = record(
    hands=["AH KH QH JH TH 9H LJ KS QS JS TS 9S".split(), "6H 5H 4H 3H BJ AS 8S 7S 6S 5S 4S 3S".split(),
           BASE["hands"][2], BASE["hands"][3]],
    kitty="2S 3D 2D 2C 8H 2H".split(),
    discard="LJ 2S 3D 2D 2C 2H".split(),
    swaps=[{"seat": 1, "gave": "BJ", "drew": "2H"}],
    **{"with": ["jokers-out-in-notrump"]},
)


@pytest.mark.parametrize("swaps", [
    [{"seat": 1, "gave": "BJ", "drew": "2H"}, {"seat": 1, "gave": "LJ", "drew": "3H"}],
    [{"seat": 1, "gave": "LJ", "drew": "3H"}, {"seat": 1, "gave": "BJ", "drew": "2H"}],
    [{"seat": 1, "gave": "lj", "drew": "2h"}, {"seat": 1, "gave": "BJ", "drew": "3♥"}],
], ids=["big-first", "little-first", "other-draw-lenient-spelling"])
def test_a_seat_giving_two_jokers_lists_them_in_either_order(tmp_path, swaps):
    out = replay_ok(tmp_path, record(TWO_JOKERS, swaps=swaps))
    assert out["contract"] == CONTRACT and out["tricks"] == TRICKS_JSON
    assert out["books"] == [12, 1] and out["score"] == [12, 0]


def test_discards_in_any_order_and_the_declarers_joker_among_them(tmp_path):
    """records.md: the order of discards says nothing (a sorted list replays), and a joker
    that must leave play is listed with them."""
    for discard in (ONE_EACH["discard"], sorted(ONE_EACH["discard"]), ONE_EACH["discard"][::-1]):
        out = replay_ok(tmp_path, record(ONE_EACH, discard=discard))
        assert out["tricks"] == TRICKS_JSON and out["books"] == [12, 1] and out["score"] == [12, 0]


@pytest.mark.parametrize("swaps,fragment", [
    (..., "BJ"),                                                        # needed, absent
    ([], "does not say"),                                               # needed, empty
    ([{"seat": 1, "gave": "BJ", "drew": "8H"}], "not one of the face-down discards"),  # a card seat 0 kept
    ([{"seat": 1, "gave": "BJ", "drew": "LJ"}], "not one of the face-down discards"),  # leaves play itself
    ([{"seat": 1, "gave": "LJ", "drew": "2H"}], "must give up is BJ"),  # not seat 1's joker
    ([{"seat": 2, "gave": "BJ", "drew": "2H"}], "seat 1 exchanges next"),
    ([{"seat": 1, "gave": "BJ", "drew": "2H"}, {"seat": 2, "gave": "7H", "drew": "2S"}], "exchanges nothing"),
    ([{"seat": 1, "gave": "BJ"}], 'swaps[0] has no "drew"'),
    ([{"seat": 1, "gave": "BJ", "draw": "2H"}], "unknown key 'draw' in swaps[0]"),  # misspelt: named
    # Two unknown keys: the first as written is named, as for a record's fields (was: 'also', sorted first).
    ([{"seat": 1, "gave": "BJ", "drew": "2H", "note": 1, "also": 2}], "unknown key 'note' in swaps[0]"),
    (["BJ"], "swaps[0] must be an object"),
    ({"seat": 1}, "must be a list"),
    ([{"seat": 9, "gave": "BJ", "drew": "2H"}], "seat"),
    ([{"seat": 1, "gave": "XX", "drew": "2H"}], "not a card"),
], ids=["absent", "empty", "kept-card", "joker-drawn", "wrong-joker", "wrong-seat", "extra", "no-drew",
        "misspelt", "first-written", "not-object", "not-list", "bad-seat", "bad-card"])
def test_a_missing_or_illegal_swap_is_illegal_at_swaps(tmp_path, swaps, fragment):
    replay_illegal(tmp_path, record(ONE_EACH, swaps=swaps), "swaps", fragment)


# records.md in_progress ("the hand stops partway"): a hand stopped after the discard, before the
# exchanges or partway through them, holds the swaps made so far (none, or some); replay reports it
# in progress with the contract decided and no tricks.  One that goes on (a card played) needs them all.
IN_PROGRESS = {"contract": CONTRACT, "tricks": [], "books": [1, 0], "score": None, "error": None,
               "in_progress": True}


@pytest.mark.parametrize("base, swaps", [
    (ONE_EACH, ...), (ONE_EACH, []),
    (TWO_JOKERS, ...), (TWO_JOKERS, []), (TWO_JOKERS, TWO_JOKERS["swaps"][:1]), (TWO_JOKERS, TWO_JOKERS["swaps"][1:]),
    (TWO_JOKERS, TWO_JOKERS["swaps"]), (ONE_EACH, ONE_EACH["swaps"]),
], ids=["one-none", "one-empty", "two-none", "two-empty", "two-first", "two-second", "two-all", "one-all"])
def test_a_hand_in_progress_may_stop_before_or_partway_through_the_swaps(tmp_path, base, swaps):
    out = replay_ok(tmp_path, record(base, swaps=swaps, play=..., in_progress=True))
    assert out == IN_PROGRESS
    text = replay(tmp_path, record(base, swaps=swaps, play=..., in_progress=True))
    assert text.exit_code == 0 and "in progress" in text.stdout


@pytest.mark.parametrize("swaps", [..., TWO_JOKERS["swaps"][:1]], ids=["before", "partway"])
def test_a_hand_stopped_at_the_swaps_says_the_kitty_was_taken(tmp_path, swaps):
    """The discards are laid away, so the kitty was taken: the text said "to be taken" while the
    exchanges were pending (records.md in_progress), as if the declarer had not picked it up."""
    text = replay(tmp_path, record(TWO_JOKERS, swaps=swaps, play=..., in_progress=True))
    assert text.exit_code == 0 and "discards" in text.stdout
    assert "taken by seat 0" in text.stdout and "to be taken" not in text.stdout, text.stdout


def test_a_notrump_hand_stopped_before_the_direction_says_it_is_not_yet_named(tmp_path):
    """records.md in_progress: "contract holds what is decided"; the JSON leaves the direction out,
    and the text said only "no trump", as if no direction were to come."""
    data = record(TWO_JOKERS, declare=..., discard=..., swaps=..., play=..., in_progress=True)
    assert "direction" not in replay_ok(tmp_path, data)["contract"]
    text = replay(tmp_path, data).stdout
    assert "no trump, direction not yet named" in text, text
    assert "no trump, direction not yet named" not in replay(tmp_path, TWO_JOKERS).stdout


@pytest.mark.parametrize("swaps, fragment", [
    (..., "BJ"), (TWO_JOKERS["swaps"][:1], "LJ"),
    ([{"seat": 1, "gave": "BJ", "drew": "8H"}], "not one of the face-down discards"),
    ([{"seat": 2, "gave": "BJ", "drew": "2H"}], "seat 1 exchanges next"),
], ids=["none-then-play", "partial-then-play", "bad-partial", "wrong-seat-partial"])
def test_a_hand_in_progress_past_the_swaps_needs_them_all_and_right(tmp_path, swaps, fragment):
    """What a record gives of the exchanges is checked as always; a record with a card played went
    past them, so lacking one is illegal at ``swaps`` as in a finished hand."""
    play = TWO_JOKERS["play"][:1] if fragment in ("BJ", "LJ") else ...
    replay_illegal(tmp_path, record(TWO_JOKERS, swaps=swaps, play=play, in_progress=True), "swaps", fragment)


def test_a_finished_hand_still_needs_every_swap(tmp_path):
    """records.md: "a record that needs a swap and lacks it ... is illegal at swaps" (no in_progress)."""
    replay_illegal(tmp_path, record(TWO_JOKERS, swaps=TWO_JOKERS["swaps"][:1]), "swaps", "LJ", "does not say")
    replay_illegal(tmp_path, record(TWO_JOKERS, swaps=..., play=...), "swaps", "BJ")


def test_a_hand_stopped_before_the_swaps_is_analysed_as_not_yet_played(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record(TWO_JOKERS, swaps=..., play=..., in_progress=True)), encoding="utf-8")
    result = run("analyze", str(path), "--json")
    assert result.exit_code == 0, result.stdout + result.stderr
    out = json.loads(result.stdout)
    assert out["positions"] == [] and out["in_progress"] is True and out["books"] == [1, 0]


def test_two_swaps_may_not_draw_the_same_discard(tmp_path):
    swaps = [{"seat": 1, "gave": "BJ", "drew": "2H"}, {"seat": 1, "gave": "LJ", "drew": "2H"}]
    replay_illegal(tmp_path, record(TWO_JOKERS, swaps=swaps), "swaps", "earlier exchange")


def test_discard_is_checked_before_swaps_and_must_list_the_joker(tmp_path):
    # The old form, without the joker laid away: the wrong number of cards.
    replay_illegal(tmp_path, record(ONE_EACH, discard="2S 3D 2D 2C 2H".split(), swaps=...), "discard",
                   "must discard 6 cards", "LJ")
    # Six cards, but the joker kept: it must leave play.
    replay_illegal(tmp_path, record(ONE_EACH, discard="8H 2S 3D 2D 2C 2H".split()), "discard", "keeps LJ")
    replay_illegal(tmp_path, record(ONE_EACH, discard="LJ LJ 2S 3D 2D 2C".split()), "discard", "twice")


def test_swaps_where_nobody_exchanges_are_illegal_and_empty_swaps_are_nothing(tmp_path):
    assert replay_ok(tmp_path, record(BASE, swaps=[]))["score"] == [12, 0]
    replay_illegal(tmp_path, record(BASE, swaps=[{"seat": 1, "gave": "2H", "drew": "2S"}]), "swaps", "nobody")
    # jokers-out, but both jokers in the kitty: they stay out, nobody swaps.
    plain = record(BASE, **{"with": ["jokers-out-in-notrump"]}, discard="2S 3D 2D 2C".split(),
                   play=...)
    replay_illegal(tmp_path, record(plain, swaps=[{"seat": 1, "gave": "BJ", "drew": "2S"}]), "swaps",
                   "exchanges nothing")


def test_a_hand_without_a_contract_has_no_swaps(tmp_path):
    """records.md: a record that "names one [a swap] that the rules do not allow, is illegal at
    `swaps`": a hand everyone passed has no exchange (the swaps were silently ignored)."""
    thrown = record(BASE, **{"with": ["jokers-out-in-notrump", "all-pass-redeal"]}, auction=["pass"] * 4,
                    declare=..., discard=..., play=...)
    assert replay_ok(tmp_path, record(thrown, swaps=[]))["contract"] is None
    replay_illegal(tmp_path, record(thrown, swaps=[{"seat": 1, "gave": "LJ", "drew": "2S"}]), "swaps",
                   "without a contract")
    replay_illegal(tmp_path, record(thrown, swaps="LJ"), "swaps")


def test_writers_write_the_swaps_that_happened_and_they_replay():
    """simulate writes jokers laid away in discard and the swaps drawn at random; with the
    kitty taken by the declarer's partner the swaps still go from the declarer's left."""
    def resolve(variant, with_rules):
        return load_ruleset(variant, tuple(with_rules))

    for with_rules in (["jokers-out-in-notrump"], ["partner-takes-kitty", "jokers-out-in-notrump"]):
        rules = resolve("standard", with_rules)
        swapped = 0
        for i in range(80):
            state = play_hand(rules, 7, i)
            rec = json.loads(json.dumps(hand_record(state, "standard", with_rules)))
            if rec.get("swaps"):
                swapped += 1
                n = rules.players
                order = [(s["seat"] - state.declarer - 1) % n for s in rec["swaps"]]
                assert order == sorted(order)
                assert all(s["drew"] in rec["discard"] for s in rec["swaps"])
            out = replay_file(RecordFile([rec], False), resolve)
            assert out["error"] is None, (with_rules, i, out["error"])
            assert out["score"] == list(state.score)
            if rec.get("swaps"):  # the discards in another order replay the same
                again = replay_file(RecordFile([dict(rec, discard=sorted(rec["discard"]))], False), resolve)
                assert again == out
        assert swapped


def test_replay_text_says_who_swapped(tmp_path):
    result = replay(tmp_path, TWO_JOKERS)
    assert result.exit_code == 0
    assert "seat 1 gave BJ and drew 2H" in result.stdout and "seat 1 gave LJ and drew 3H" in result.stdout


# ============================================================================ reneges
# renege-penalty: in trick 1 seat 2 (declaring side) plays 4D though it holds 7H; it
# plays 7H on the spade of trick 2 instead.  The tricks go as in BASE: 12 books to 1 by
# play, then 3 of side 0's books go to side 1: 9 to 4, and 4 notrump is set: -8.
RENEGE = record(BASE, play=["AH", "2H", "4D", "4C", "KS", "AS", "7H", "3C"] + BASE["play"][8:],
                **{"with": ["renege-penalty"]})


def test_a_renege_that_stood_is_listed_and_books_are_as_scored(tmp_path):
    out = replay_ok(tmp_path, RENEGE)
    assert out["reneges"] == [{"at": "play[2]", "seat": 2, "suit": "H"}]
    assert out["books"] == [9, 4] and out["score"] == [-8, 0]
    assert out["tricks"][0] == {"leader": 0, "cards": ["AH", "2H", "4D", "4C"], "winner": 0}


def test_analyze_says_what_a_renege_moved_as_replay_does(tmp_path):
    """analyze's last position counts 12 books to 1 by play, its hand 9 to 4 as scored: without
    replay's ``reneges`` (JSON) and renege line (text) nothing said why the books differ."""
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(RENEGE), encoding="utf-8")
    out = json.loads(run("analyze", str(path), "--json").stdout)
    assert out["positions"][-1]["books"] == [12, 1] and out["books"] == [9, 4]
    assert out["reneges"] == [{"at": "play[2]", "seat": 2, "suit": "H"}]
    text = run("analyze", str(path)).stdout
    assert "renege    seat 2 did not follow hearts at play[2]" in text and "3 books moved from side 0+2" in text
    assert "(after the renege penalty)" in text
    # Where no renege may stand there is no list, as in replay's JSON.
    path.write_text(json.dumps(BASE), encoding="utf-8")
    assert "reneges" not in json.loads(run("analyze", str(path), "--json").stdout)


def test_reneges_is_present_and_empty_where_one_may_stand_and_absent_elsewhere(tmp_path):
    out = replay_ok(tmp_path, record(BASE, **{"with": ["renege-penalty"]}))
    assert out["reneges"] == [] and out["books"] == [12, 1]
    assert "reneges" not in replay_ok(tmp_path, BASE)
    replay_illegal(tmp_path, record(RENEGE, **{"with": []}), "play[2]", "must follow hearts")


def test_an_illegal_hand_where_a_renege_may_stand_has_the_keys_of_a_legal_one(tmp_path):
    """replay and analyze (whole file and --each) give an illegal hand every key a legal hand
    of its rules has, each null: ``reneges`` too where a renege may stand (before, none had it)."""
    bad = record(RENEGE, play=RENEGE["play"][:-1] + ["ZZ"])
    result = replay(tmp_path, bad, "--json")
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert set(out) == set(replay_ok(tmp_path, RENEGE)) and out["reneges"] is None
    path = tmp_path / "hands.jsonl"
    path.write_text(json.dumps(RENEGE) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    legal, illegal = json.loads(run("analyze", str(path), "--each", "--json").stdout)["hands"]
    assert set(legal) == set(illegal) and illegal["reneges"] is None and illegal["error"]
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    alone = json.loads(run("analyze", str(path), "--json").stdout)
    assert "reneges" in alone and alone["reneges"] is None
    # Where no renege may stand, an illegal hand has no `reneges`, as a legal one has none.
    assert "reneges" not in json.loads(replay(tmp_path, record(bad, **{"with": []}), "--json").stdout)


def test_replay_text_says_what_the_renege_moved(tmp_path):
    result = replay(tmp_path, RENEGE)
    assert result.exit_code == 0
    assert "seat 2 did not follow hearts at play[2]" in result.stdout
    assert "3 books moved from side 0+2 to side 1+3" in result.stdout


# Seat 1 reneges in trick 2 (6H on KS, holding spades) and its side takes no book: the
# declarers sweep, 13 to 0, and the penalty ("scored as if the other side took every book")
# moves nothing.
SWEEP_RENEGE = record(BASE, play=(
    "AH 2H 7H 4C  KS 6H 4D 3C  8H 3H 5D 5C  9H 4H 6D 6C  TH 5H 7D 7C  JH AS 8D 8C  "
    "QH 3S 9D 9C  KH 4S TD TC  9S 5S JD JC  TS 6S QD QC  JS 7S KD KC  QS 8S AD AC").split(),
    **{"with": ["renege-penalty"]})


def test_books_are_after_the_renege_penalty_only_where_it_moved_some(tmp_path):
    """replay and analyze said "(after the renege penalty)" whenever a renege stood, even
    where the penalty moved no book; now only where it moved some (RENEGE: 12-1 to 9-4)."""
    assert replay_ok(tmp_path, SWEEP_RENEGE)["books"] == [13, 0]
    path = tmp_path / "hand.json"
    for data, moved in ((SWEEP_RENEGE, False), (RENEGE, True)):
        path.write_text(json.dumps(data), encoding="utf-8")
        for command in ("replay", "analyze"):
            text = run(command, str(path)).stdout
            assert "renege    seat " in text
            assert ("(after the renege penalty)" in text) is moved, (command, text)


def test_terminal_play_says_a_renege_stood():
    """bidwhist play narrates the renege as it stands, and what it moved when the hand ends
    (the terminal driven through a stand-in session holding RENEGE's hand)."""
    from types import SimpleNamespace

    from rich.console import Console

    from bidcompiler.cli.terminal import Terminal
    from runtime.hand import HandState
    from runtime.notation import parse_call, parse_card

    rules = load_ruleset("standard", ("renege-penalty",))
    state = HandState(rules, 3, [[parse_card(rules, c) for c in h] for h in RENEGE["hands"]],
                      [parse_card(rules, c) for c in RENEGE["kitty"]])
    finished: list = []

    def apply(action):
        state.apply_action(action)
        if state.is_terminal():
            finished.append(state)

    session = SimpleNamespace(rules=rules, hand=state, hands=finished, settings=SimpleNamespace(seats=(0,)),
                              current_player=state.current_player, apply=apply, is_over=lambda: False,
                              tally=SimpleNamespace(totals=[0, 0], games=[], plays_rubber=False))
    console = Console(record=True, width=200)
    terminal = Terminal(session, console, fast=True, open_hands=False)
    actions = [parse_call(rules, c) for c in RENEGE["auction"]] + [rules.action_names.index("direction uptown")]
    actions += [parse_card(rules, c) for c in RENEGE["discard"] + RENEGE["play"]]
    for action in actions:
        terminal.apply(action)
    text = console.export_text()
    assert "did not follow hearts: the renege stands" in text
    # Said as the table says it: the seat and the sides as the books line names them, the trick
    # (was "at play[2]" and "from side 0 to side 1", side 1 read as seat 1's: audit22p).
    assert ("renege  seat 2 (partner) did not follow hearts in trick 1 and the renege stood: 3 books moved "
            "from us (0+2) to them (1+3)") in text
    assert state.books == [9, 4]


# ============================================================================ claims of 3+ sides
# Cutthroat, dealer 2: seat 0 holds every spade and AH-JH, seat 1 every diamond and TH-7H,
# seat 2 every club and 6H-3H; the kitty 2H BJ LJ.  Seat 0 bids 10 notrump, chooses
# uptown, lays the kitty away (one book) and wins the first trick with AS.
def _run(suit: str) -> list[str]:
    return [r + suit for r in "AKQJT98765432"]


CUT = {
    "format": "bidwhist-hand/1", "variant": "cutthroat", "with": [], "dealer": 2,
    "hands": [_run("S") + ["AH", "KH", "QH", "JH"], _run("D") + ["TH", "9H", "8H", "7H"],
              _run("C") + ["6H", "5H", "4H", "3H"]],
    "kitty": ["2H", "BJ", "LJ"],
    "auction": ["10 notrump", "pass", "pass"],
    "declare": {"direction": "uptown"},
    "discard": ["2H", "BJ", "LJ"],
    "play": ["AS", "2D", "2C"],
}


def test_a_three_side_claim_shares_the_remaining_tricks(tmp_path):
    # 16 tricks remain: seat 0 takes 12 (14 books with the discards and trick 1), seats 1
    # and 2 two each.  Made: 14 books, doubled in notrump: 28; defenders their own books.
    out = replay_ok(tmp_path, record(CUT, claim=[12, 2, 2]))
    assert out["books"] == [14, 2, 2] and out["score"] == [28, 2, 2]
    # A number is all the tricks left, to the declarer.
    out = replay_ok(tmp_path, record(CUT, claim=16))
    assert out["books"] == [18, 0, 0] and out["score"] == [36, 0, 0]


def test_analyze_gives_the_claim_as_the_record_spells_it(tmp_path):
    """analyze's ``claim`` was the declaring side's books after the tricks played, whatever moved
    them: with three sides it showed 12 of [12, 2, 2] ("12 claimed"), and after a renege penalty
    the books it moved counted as claimed (RENEGE claiming 4 of the 11 left after trick 1 said 1)."""
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record(CUT, claim=[12, 2, 2])), encoding="utf-8")
    assert json.loads(run("analyze", str(path), "--json").stdout)["claim"] == [12, 2, 2]
    assert "the rest by claim (seat 0 12   seat 1 2   seat 2 2)" in run("analyze", str(path)).stdout
    path.write_text(json.dumps(record(CUT, claim=16)), encoding="utf-8")
    assert json.loads(run("analyze", str(path), "--json").stdout)["claim"] == [16, 0, 0]
    path.write_text(json.dumps(record(RENEGE, play=RENEGE["play"][:4], claim=4)), encoding="utf-8")
    out = json.loads(run("analyze", str(path), "--json").stdout)
    assert out["claim"] == 4 and out["reneges"] == [{"at": "play[2]", "seat": 2, "suit": "H"}]
    assert "4 claimed" in run("analyze", str(path)).stdout


@pytest.mark.parametrize("claim,fragment", [
    (12, "list of each side's share"),
    ([12, 2, 3], "17 tricks, but 16 remain"),
    ([12, 2, 1], "15 tricks, but 16 remain"),
    ([14, 2], "2 shares; there are 3 sides"),
    ([12, -2, 6], "number of tricks"),
    (17, "only 16 remain"),
])
def test_illegal_claims_of_three_sides(tmp_path, claim, fragment):
    replay_illegal(tmp_path, record(CUT, claim=claim), "claim", fragment)


def test_a_claim_comes_at_the_end_of_a_trick(tmp_path):
    replay_illegal(tmp_path, record(CUT, play=["AS", "2D"], claim=[12, 3, 2]), "claim", "end of a trick")
    replay_illegal(tmp_path, record(CUT, play=[], claim=17), "claim", "at least one trick")


# ============================================================================ in_progress
def _in_progress(tmp_path, **changes) -> dict:
    out = replay_ok(tmp_path, record(BASE, in_progress=True, **changes))
    assert out["score"] is None and out["in_progress"] is True
    return out


def test_in_progress_mid_auction(tmp_path):
    out = _in_progress(tmp_path, auction=["4 notrump", "pass"], declare=..., discard=..., play=...)
    assert out["contract"] is None and out["tricks"] == [] and out["books"] == [0, 0]


def test_in_progress_before_and_after_declaring(tmp_path):
    out = _in_progress(tmp_path, declare=..., discard=..., play=...)
    # Not chosen yet: a contract in progress holds what is decided (test_spec_hand_records.py).
    undecided = {k: v for k, v in CONTRACT.items() if k != "direction"}
    assert out["contract"] == undecided and out["tricks"] == [] and out["books"] == [0, 0]
    out = _in_progress(tmp_path, discard=..., play=...)
    assert out["contract"] == CONTRACT and out["tricks"] == [] and out["books"] == [0, 0]
    # The discards laid away are the declaring side's first book.
    out = _in_progress(tmp_path, play=...)
    assert out["contract"] == CONTRACT and out["books"] == [1, 0]


def test_in_progress_mid_trick(tmp_path):
    out = _in_progress(tmp_path, play=BASE["play"][:6])
    assert out["tricks"] == [TRICKS_JSON[0], {"leader": 0, "cards": ["KS", "AS"], "winner": None}]
    assert out["books"] == [2, 0]
    # At the end of a trick there is no unfinished one.
    out = _in_progress(tmp_path, play=BASE["play"][:8])
    assert out["tricks"] == TRICKS_JSON[:2] and out["books"] == [2, 1]


def test_in_progress_entries_after_the_stop_are_illegal(tmp_path):
    replay_illegal(tmp_path, record(BASE, in_progress=True, auction=["4 notrump"]), "declare", "stops")
    replay_illegal(tmp_path, record(BASE, in_progress=True, declare=...), "discard", "stops")
    # Everything the record holds is still checked.
    replay_illegal(tmp_path, record(BASE, in_progress=True, play=["AH", "2H", "AD"]), "play[2]",
                   "must follow hearts")


def test_in_progress_where_the_discard_comes_before_the_declaration(tmp_path):
    """kitty-first: the declarer lays away before declaring.  A hand stopped between the two
    holds its discard and no declare (legal: the discards are already a book); one stopped
    in the discard may not hold a declare yet (records.md: "Replay checks everything the
    record holds": the declaration was neither refused nor applied)."""
    first = record(BASE, **{"with": ["kitty-first"]}, in_progress=True)
    out = replay_ok(tmp_path, record(first, declare=..., play=...))
    assert out["contract"] == {k: v for k, v in CONTRACT.items() if k != "direction"} and out["books"] == [1, 0]
    assert out["in_progress"] is True and out["score"] is None
    replay_illegal(tmp_path, record(first, discard=["BJ", "LJ"], play=...), "declare", "stops", "no declare yet")
    # Cards played after a discard cut short: the discard is the first entry at fault.
    replay_illegal(tmp_path, record(first, declare=..., discard=["BJ", "LJ"]), "discard", "must discard 6")


def test_the_flag_on_a_hand_that_is_over_is_illegal(tmp_path):
    replay_illegal(tmp_path, record(BASE, in_progress=True), "in_progress", "over")
    replay_illegal(tmp_path, record(BASE, in_progress=True, play=BASE["play"][:8], claim=10), "in_progress")
    thrown = record(BASE, **{"with": ["all-pass-redeal"]}, auction=["pass"] * 4, declare=..., discard=...,
                    play=..., in_progress=True)
    replay_illegal(tmp_path, thrown, "in_progress", "over")
    replay_illegal(tmp_path, record(BASE, in_progress="yes"), "in_progress", "true or false")
    # Without the flag a stopped hand stays illegal; false is the same as no flag.
    replay_illegal(tmp_path, record(BASE, play=BASE["play"][:6]), "play", "not over")
    replay_illegal(tmp_path, record(BASE, play=BASE["play"][:6], in_progress=False), "play", "not over")


def test_in_progress_text_output(tmp_path):
    result = replay(tmp_path, record(BASE, in_progress=True, play=BASE["play"][:6]))
    assert result.exit_code == 0
    assert "in progress" in result.stdout and "KS AS" in result.stdout and "(unfinished)" in result.stdout


def test_analyze_an_in_progress_hand_from_where_it_stops(tmp_path):
    """After KS AS of trick 2 seat 1's ace wins it; side 0 (two books: the discards and
    trick 1) then takes every trick left with its top hearts and spades: 12 in all."""
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record(BASE, in_progress=True, play=BASE["play"][:6])), encoding="utf-8")
    result = run("analyze", str(path), "--json")
    assert result.exit_code == 0, result.stdout + result.stderr
    out = json.loads(result.stdout)
    assert out["error"] is None and out["in_progress"] is True and out["score"] is None
    last = out["positions"][-1]
    assert (last["trick"], last["cards"], last["to_play"]) == (1, 2, 2)
    assert last["books"] == [2, 0] and last["dd_declaring_books"] == 12
    text = run("analyze", str(path))
    assert text.exit_code == 0 and "in progress" in text.stdout
    # At the first lead: one position, side 0 can reach 12 (the discards and 11 tricks).
    path.write_text(json.dumps(record(BASE, in_progress=True, play=...)), encoding="utf-8")
    out = json.loads(run("analyze", str(path), "--json").stdout)
    assert [p["dd_declaring_books"] for p in out["positions"]] == [12] and out["in_progress"] is True
    # Before the play begins there is nothing to analyse yet, and that is said.
    path.write_text(json.dumps(record(BASE, in_progress=True, discard=..., play=...)), encoding="utf-8")
    out = json.loads(run("analyze", str(path), "--json").stdout)
    assert out["positions"] == [] and out["in_progress"] is True and out["contract"] == CONTRACT
    assert "not begun" in run("analyze", str(path)).stdout


# ============================================================================ sport-kitty + kitty-first
def test_sport_kitty_with_kitty_first_shows_the_kitty_when_the_bid_says_suit():
    """rules.md §8: the declarer takes the kitty before naming trump; an uptown or downtown
    bid says there will be a trump suit, so the kitty is shown to all as the auction is
    won; a notrump bid says there will not, so it is not."""
    from runtime.hand import HandState
    from runtime.notation import parse_card

    rules = load_ruleset("standard", ("kitty-first", "sport-kitty"))
    ids = [[parse_card(rules, c) for c in h] for h in BASE["hands"]]
    kitty = [parse_card(rules, c) for c in BASE["kitty"]]
    for bid, shown in (("4 uptown", True), ("4 downtown", True), ("4 notrump", False)):
        state = HandState(rules, 3, ids, kitty)
        for name in (bid, "pass", "pass", "pass"):
            state.apply_action(rules.action_names.index(name))
        assert state.phase_name == "discard"  # the kitty comes first
        assert state.observation(1)["kitty"] == (BASE["kitty"] if shown else None), bid
    # Without kitty-first the kitty is shown once trump is named, as before.
    plain = load_ruleset("standard", ("sport-kitty",))
    state = HandState(plain, 3, ids, kitty)
    for name in ("4 uptown", "pass", "pass", "pass"):
        state.apply_action(plain.action_names.index(name))
    assert state.observation(1)["kitty"] is None
    state.apply_action(plain.action_names.index("trump S"))
    assert state.observation(1)["kitty"] == BASE["kitty"]


def test_sport_kitty_with_kitty_first_plays_and_replays():
    def resolve(variant, with_rules):
        return load_ruleset(variant, tuple(with_rules))

    with_rules = ["kitty-first", "sport-kitty"]
    rules = resolve("standard", with_rules)
    for i in range(20):
        state = play_hand(rules, 3, i)
        assert state.is_terminal()
        out = replay_file(RecordFile([hand_record(state, "standard", with_rules)], False), resolve)
        assert out["error"] is None and out["score"] == list(state.score)


def test_sport_kitty_with_kitty_first_is_refused_where_the_bid_does_not_say(tmp_path):
    """A bare-number strain leaves notrump to the declaration: with the kitty taken first
    nobody knows at the auction's end whether to show it."""
    variant = tmp_path / "bare.yaml"
    variant.write_text("""name: bare
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
""", encoding="utf-8")
    load_ruleset(str(variant), ("kitty-first",))
    with pytest.raises(CompileError) as info:
        load_ruleset(str(variant), ("kitty-first", "sport-kitty"))
    assert "number" in str(info.value.diagnostics[0])


# ============================================================================ declare: {}
# records.md: declare holds what the winner names, "Omit what the variant does not ask for";
# "Where the first card led names trump, a hand played with trump has no declare".  An empty
# declare names nothing: it is no declare, where nothing is asked (spades-trump's suit bids) and
# where the first card led names trump (oregon) alike.  Was: refused in oregon only.
@pytest.mark.parametrize("variant, with_rules", [("oregon", []), ("standard", ["spades-trump"])])
def test_an_empty_declare_is_no_declare_where_the_bid_or_the_lead_names_trump(variant, with_rules):
    def resolve(name, rules):
        return load_ruleset(name, tuple(rules))

    rules = resolve(variant, with_rules)
    tried = 0
    for i in range(60):
        state = play_hand(rules, 3, i)
        rec = json.loads(json.dumps(hand_record(state, variant, with_rules)))
        if not rec.get("play") or "declare" in rec or state.trump == NO_TRUMP:
            continue  # a hand played with trump that nobody declared
        tried += 1
        out = replay_file(RecordFile([rec], False), resolve)
        assert out["error"] is None and out["score"] == list(state.score)
        assert replay_file(RecordFile([dict(rec, declare={})], False), resolve) == out
        named = replay_file(RecordFile([dict(rec, declare={"trump": rules.suits[state.trump]})], False), resolve)
        if variant == "oregon":  # the lead names the suit: naming it in declare is still refused
            assert named["error"]["at"] == "declare" and "first card led" in named["error"]["message"]
        else:  # the bid fixed it: it may be restated
            assert named == out
    assert tried >= 3
