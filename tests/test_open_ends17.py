"""Four open ends of the sixteenth session, closed (session 17).

1. Numbers that count books or rungs stay within the hand: a renege penalty of more books than
   a hand has, an overcall that must climb more rungs than the ladder has (checks.py).
2. A layer that takes a card out of the deck takes the parts in play that layers below gave it
   (compose.py; docs/rule-combinations.md).
3. A house rule named where the variant goes is bad usage, exit 2, in every command that takes a
   VARIANT, as a shipped variant named as a house rule is (cli/common.py, cli/authoring.py).
4. Record messages about the auction's shape name the seat where one is involved (records.py).
"""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from bidcompiler.errors import CompileError
from bidcompiler.pipeline import compile_variant, load_ruleset
from clirun import run, stderr_lines, write
from worked_hands import NT_RECORD



# ============================================================================ 1. counts within the hand
def test_a_renege_penalty_above_the_books_of_a_hand_is_refused_naming_the_set():
    """`--set play.renege_books=14` over 13 books: one message naming the --set, with the largest
    value that means what it says; 13 (every book) is accepted."""
    result = run("rules", "standard", "--with", "renege-penalty", "--set", "play.renege_books=14")
    assert result.exit_code == 1
    assert stderr_lines(result) == [
        "--set play.renege_books=14: renege_books: 14 is more than the 13 books of a hand (a side cannot "
        "give more books than a hand has; 13 already costs every book)"]
    assert "to fix: set play.renege_books to at most 13" in result.stderr
    assert run("rules", "standard", "--with", "renege-penalty", "--set", "play.renege_books=13").exit_code == 0


def test_the_bound_is_the_books_the_compiled_deal_gives():
    """Without the discards' book a standard hand has 12 books (and its ladder ends at 6): 13 is
    then one too many."""
    sets = ("kitty.discards=none", "auction.levels.to=6")
    with pytest.raises(CompileError, match="renege_books: 13 is more than the 12 books of a hand"):
        compile_variant("standard+renege-penalty", sets=(*sets, "play.renege_books=13"))
    compile_variant("standard+renege-penalty", sets=(*sets, "play.renege_books=12"))


def test_a_renege_penalty_too_large_is_positioned_in_a_house_rule_and_a_variant_file(tmp_path):
    rule = write(tmp_path, "big-renege.yaml", "name: big-renege\nkind: house-rule\ndescription: x\n"
                                              "play:\n  renege: penalty\n  renege_books: 20\n")
    result = run("check", rule, "--on", "standard")
    assert result.exit_code == 1
    assert stderr_lines(result)[0] == (f"{rule}:6:17: renege_books: 20 is more than the 13 books of a hand "
                                       "(a side cannot give more books than a hand has; 13 already costs "
                                       "every book)")
    assert run("check", rule).exit_code == 0  # alone, a house rule fits no game in particular
    game = write(tmp_path, "mine.whist", "variant mine\nextends standard\nplay { renege penalty; renege_books 14 }\n")
    result = run("check", game)
    assert result.exit_code == 1
    assert stderr_lines(result)[0].startswith(f"{game}:3:")
    assert "renege_books: 14 is more than the 13 books of a hand" in result.stderr


def test_an_overcall_no_bid_could_climb_is_refused_and_one_that_can_is_not():
    """standard's ladder has 10 rungs (3 to 7, uptown and downtown level, notrump above): from the
    lowest bid the top is 9 rungs up, so overcall_by 9 still lets 3 uptown be overcalled by 7
    notrump, and 10 would let nothing be overcalled."""
    result = run("rules", "standard", "--set", "auction.overcall_by=10")
    assert result.exit_code == 1
    assert stderr_lines(result) == [
        "--set auction.overcall_by=10: overcall_by: 10 is more rungs than the ladder has to climb (its 10 "
        "rungs climb at most 9 rungs from the lowest bid to the highest): no bid could ever be overcalled"]
    assert "to fix: set auction.overcall_by to at most 9" in result.stderr
    assert run("rules", "standard", "--set", "auction.overcall_by=9").exit_code == 0


def test_a_game_target_of_0_was_refused_already():
    """Checked with the others (no gap): the schema's minimum says so, naming the --set."""
    result = run("rules", "standard", "--set", "game.target=0")
    assert result.exit_code == 1
    assert stderr_lines(result) == ["--set game.target=0: 0 is too small: must be at least 1"]


# ============================================================================ 2. a card's parts go with it
LJ_TOP = "name: lj-top\nkind: house-rule\ndescription: x\nplay:\n  roles:\n    notrump: {LJ: top}\n"


@pytest.mark.parametrize("deck_rule", ["one-joker", "deuce-of-spades"])
def test_a_later_rule_that_drops_a_card_takes_the_role_an_earlier_one_gave_it(tmp_path, deck_rule):
    """A house rule gives LJ a role; one-joker (or deuce-of-spades) then deals only BJ: the role
    goes with the card, as no-jokers takes big-joker-notrump's BJ role (the later rule holds).
    The other order gives a role to a card the deck no longer has: refused, naming both."""
    rule = write(tmp_path, "lj-top.yaml", LJ_TOP)
    assert load_ruleset("standard", (rule, deck_rule)) == load_ruleset("standard", (deck_rule,))
    result = run("rules", "standard", "--with", deck_rule, "--with", rule)
    assert result.exit_code == 1
    assert stderr_lines(result) == [
        f"{rule}:6:19: play.roles.notrump gives LJ the role top, but LJ is not in the deck"]


def test_a_rule_that_both_drops_a_card_and_gives_it_a_role_is_still_refused(tmp_path):
    """One file saying both is a contradiction of its own, not a later rule over an earlier one."""
    rule = write(tmp_path, "both.yaml", "name: both\nkind: house-rule\ndescription: x\n"
                                        "deck:\n  extra: [BJ]\ndeal:\n  kitty: 5\nplay:\n  trumps_above: [BJ]\n"
                                        "  roles:\n    notrump: {LJ: top}\n")
    with pytest.raises(CompileError, match="gives LJ the role top, but LJ is not in the deck"):
        compile_variant("standard", (rule,))


def test_a_card_taken_out_leaves_the_trumps_above_the_suit_too():
    """jokers-and-deuce (BJ, LJ, 2S above the suit), then a deck with BJ only: BJ and 2S stay the
    top trumps, in that order; a deck without 2S after deuce-of-spades leaves BJ alone above."""
    text = run("rules", "standard", "--with", "jokers-and-deuce", "--set", "deck.extra=[BJ]",
               "--set", "deal.kitty=5").stdout
    assert "In a suit contract BJ and 2S are the highest trumps, in that order" in text
    rules = load_ruleset("standard", ("deuce-of-spades",), ("deck.without=[2S]", "deal.kitty=4"))
    assert "2S" not in rules.cards and len(rules.cards) == 52
    text = run("rules", "standard", "--with", "deuce-of-spades", "--set", "deck.without=[2S]",
               "--set", "deal.kitty=4").stdout
    assert "In a suit contract BJ is the highest trump" in text


def test_a_variant_that_drops_a_card_its_base_gave_a_role(tmp_path):
    """The same for variants: a game of one's own extends one whose LJ has a role, and drops LJ."""
    base = write(tmp_path, "base.yaml", "name: base\nextends: standard\nplay:\n  roles:\n    notrump: {LJ: top}\n")
    mine = write(tmp_path, "mine.yaml", f"name: mine\nextends: {base}\ndeck:\n  extra: [BJ]\ndeal:\n  kitty: 5\n"
                                        "play:\n  trumps_above: [BJ]\n")
    assert same_game(load_ruleset(mine), load_ruleset("standard", ("one-joker",)))


def same_game(a, b) -> bool:
    """Two rulesets play the same game: equal but for the name and source of the file."""
    return all(getattr(a, f.name) == getattr(b, f.name) for f in fields(a) if f.name not in ("name", "source"))


# ============================================================================ 3. a house rule as the variant
HOUSE_RULE_AS_VARIANT = ("lay 'min-bid-4' over a variant, after the variant's name (VARIANT+min-bid-4; "
                         "`bidwhist variants` lists the variants): it is a house rule, not a variant")


@pytest.mark.parametrize("args, param", [
    (("rules", "min-bid-4"), "VARIANT"),
    (("rules", "min-bid-4+to-5"), "VARIANT"),
    (("compile", "min-bid-4"), "VARIANT"),
    (("simulate", "min-bid-4", "--hands", "2"), "VARIANT"),
    (("compare", "min-bid-4", "standard", "--games", "2"), "A"),
    (("compare", "standard", "min-bid-4", "--games", "2"), "B"),
    (("diff", "min-bid-4", "standard"), "A"),
    (("diff", "standard", "min-bid-4"), "B"),
    (("play", "min-bid-4"), "VARIANT"),
    (("check", "min-bid-4+to-5"), "FILES"),
])
def test_a_house_rule_named_as_the_variant_is_bad_usage_in_every_command(args, param):
    """`rules min-bid-4` exited 1 while `rules standard --with standard` exited 2: both name the
    wrong kind of thing on the command line, and the shipped files are right, so both are 2."""
    result = run(*args)
    assert result.exit_code == 2
    assert stderr_lines(result) == [f"Error: Invalid value for {param}: {HOUSE_RULE_AS_VARIANT}"]


@pytest.mark.parametrize("args", [("rules", "standard", "--with", "standard"), ("check", "standard+standard")])
def test_a_variant_named_as_a_house_rule_is_bad_usage_too(args):
    result = run(*args)
    assert result.exit_code == 2
    assert "name 'standard' as the variant, with house rules after it (VARIANT+RULE)" in result.stderr


def test_a_house_rule_file_of_ones_own_as_the_variant_is_bad_usage_and_check_file_still_checks_it(
        tmp_path, monkeypatch):
    """A house rule says its kind (`kind: house-rule`), so naming one's own as the variant is the
    name's fault too; `check FILE` checks it alone, as before."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "lj-top.yaml", LJ_TOP)
    rule = "lj-top.yaml"
    result = run("rules", rule)
    assert result.exit_code == 2
    assert f"lay '{rule}' over a variant, after the variant's name (VARIANT+{rule};" in result.stderr
    result = run("check", rule)
    assert result.exit_code == 0 and result.stdout.startswith(f"{rule}: ok on its own")
    assert run("check", "min-bid-4").exit_code == 0
    assert run("check", f"standard+{rule}").exit_code == 0


def test_a_variant_file_of_ones_own_as_a_house_rule_stays_bad_content(tmp_path):
    """Kept as decided before: a file with no `kind` is a variant by default, so a house rule
    missing its kind line is the file's fault; the message is at the file, exit 1."""
    mine = write(tmp_path, "mine.yaml", "name: mine\nextends: standard\n")
    result = run("rules", "standard", "--with", mine)
    assert result.exit_code == 1
    assert stderr_lines(result) == [f"{mine}:1:1: '{mine}' is a variant, not a house rule"]


# ============================================================================ 4. the auction's seats
def replay_error(tmp_path, record: dict) -> dict:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    result = run("replay", "--json", str(path))
    assert result.exit_code == 1
    return json.loads(result.stdout)["error"]


def test_a_call_after_the_auction_names_the_seat_whose_call_ended_it(tmp_path):
    """NT_RECORD: seat 3, the dealer, passes last; a fifth call is nobody's turn."""
    err = replay_error(tmp_path, dict(NT_RECORD, auction=NT_RECORD["auction"] + ["5 uptown"]))
    assert err == {"at": "auction", "message": "the auction was over after 4 calls, ended by seat 3's 'pass'; "
                                               "'5 uptown' follows it"}


def test_a_record_in_progress_stopping_in_the_auction_names_the_seat_to_call(tmp_path):
    """As a record stopping before the declaration names the declarer ('before seat 0 declares')."""
    record = dict(NT_RECORD, auction=["4 notrump", "pass"], in_progress=True)
    err = replay_error(tmp_path, record)
    assert err == {"at": "declare", "message": "the hand stops in the auction, before seat 2 calls, "
                                               "so the record has no declare yet"}


def test_calls_that_stop_early_and_an_auction_that_is_no_list_are_unchanged(tmp_path):
    err = replay_error(tmp_path, dict(NT_RECORD, auction=["4 notrump", "pass"]))
    assert err == {"at": "auction", "message": "the auction stops after 2 calls; seat 2 has not called"}
    err = replay_error(tmp_path, dict(NT_RECORD, auction="4 notrump"))
    assert err == {"at": "auction", "message": "auction must be a list of calls"}


@pytest.mark.parametrize("changes, at, message", [
    ({"variant": "min-bid-4"}, "variant",
     "'min-bid-4' (at `variant`) is a house rule, not a variant: name a variant at `variant` and the house rule "
     "in `with`"),
    ({"variant": "min-bid-4", "with": ["to-5"]}, "variant",
     "'min-bid-4' (at `variant`) is a house rule, not a variant: name a variant at `variant` and the house rule "
     "in `with`"),
    ({"with": ["to-5", "standard"]}, "with[1]",
     "'standard' (at `with[1]`) is a variant, not a house rule (name it at `variant`, and house rules in `with`)"),
])
def test_a_record_naming_shipped_files_of_the_wrong_kind_says_the_records_fix(tmp_path, changes, at, message):
    """A record naming shipped files is refused at the entry that is wrong, with the record's fix
    (as for files of its own), not the command line's (VARIANT+RULE); it was `with` for the whole
    list, or a message telling to use --with."""
    assert replay_error(tmp_path, dict(NT_RECORD, **changes)) == {"at": at, "message": message}
