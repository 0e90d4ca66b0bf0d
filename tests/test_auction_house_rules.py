"""House rules of the auction that docs/tutorial.md §6 writes as one line each:

- ``auction.overcall_by: 2`` — an overcall must outrank the high bid by two steps of the ladder;
- ``auction.overcall_partner: false`` — a player may not bid over a high bid their partner holds;
- ``auction.dealer_bids_from: 4`` — a dealer left to bid (everyone else passed) bids 4 or more
  (with ``if_all_pass: dealer-bids-lowest``, exactly the lowest bid at 4).

Each on hand-made calls where the rule decides what is legal, the refusal naming the rule, a
record that breaks it refused by ``replay``, the bots (heuristic and random) keeping it over
many hands (checked by a plain reading of the calls, not by the engine), and the JSON round trip.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bidcompiler.cli.terminal import for_you
from bidcompiler.pipeline import load_ruleset
from runtime.ruleset_json import ruleset_from_json, ruleset_to_json
from runtime.bots.heuristic import HeuristicBot
from runtime.bots.knowledge import rules_info
from runtime.bots.outbid import Outlook
from runtime.simulate import play_hand
from tests.clirun import run
from test_real_table_rules import STD_LONG, new_hand
from test_replay import replay_illegal
from test_rules_variants import act, legal, refused
from worked_hands import NT_RECORD, with_changes

RULES = {
    "overcall-by-2": "auction: {overcall_by: 2}\n",
    "no-partner-overcall": "auction: {overcall_partner: false}\n",
    "dealer-from-4": "auction: {dealer_bids_from: 4}\n",
    "dealer-exactly-4": "auction: {if_all_pass: dealer-bids-lowest, dealer_bids_from: 4}\n",
    "all-three": "auction: {overcall_by: 2, overcall_partner: false, dealer_bids_from: 4}\n",
}


def _rule_file(folder: Path, name: str) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(f"name: {name}\nkind: house-rule\ndescription: x\n{RULES[name]}", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def rules_of(tmp_path_factory):
    """The standard game with one of RULES laid over it, by name."""
    folder = tmp_path_factory.mktemp("auction-rules")
    return lambda name: load_ruleset("standard", (str(_rule_file(folder, name)),))


def _bids(names: set[str]) -> set[str]:
    return {n for n in names if n[0].isdigit()}


# ----------------------------------------------------------------- the rules on hand-made calls
def test_an_overcall_must_skip_a_step_of_the_ladder(rules_of):
    state = act(new_hand(rules_of("overcall-by-2"), *STD_LONG), "4 uptown")  # rank of 4 uptown = 4 downtown
    assert min(_bids(legal(state)), key=lambda b: state.rules.action_names.index(b)) in ("5 uptown", "5 downtown")
    assert {"4 notrump", "4 downtown"}.isdisjoint(legal(state))
    error = refused(state, "4 notrump")
    assert (error.rule, error.seat) == ("overcall-by", 1)
    assert "by 2 steps" in error.message and "5 uptown or higher" in error.message
    assert refused(state, "4 downtown").rule == "bid-too-low"  # not higher at all: the usual refusal
    act(state, "5 uptown")  # two steps: 4 notrump, then 5 uptown = 5 downtown
    assert "6 uptown" in legal(state) and "5 notrump" not in legal(state)
    # Near the top no bid is two steps up: the refusal says so in a sentence of its own.
    top = act(new_hand(rules_of("overcall-by-2"), *STD_LONG), "7 uptown")  # only 7 notrump is above it
    assert refused(top, "7 notrump").message == ("seat 1 bid 7 notrump, which does not outrank 7 uptown (seat 0) "
                                                 "by 2 steps: no bid of the ladder is that high")


def test_a_player_may_not_bid_over_the_partners_high_bid(rules_of):
    state = act(new_hand(rules_of("no-partner-overcall"), *STD_LONG), "4 uptown", "pass")
    assert legal(state) == {"pass"}  # seat 2, seat 0's partner
    error = refused(state, "5 notrump")
    assert (error.rule, error.seat) == ("overcall-partner", 2)
    assert "over 4 uptown: seat 0, the partner, holds it" in error.message
    assert "may not overcall their partner" in error.message
    assert for_you(error.message, 2).startswith("you may not bid over 4 uptown: seat 0, the partner")
    act(state, "pass")
    assert "4 notrump" in legal(state)  # seat 3 is an opponent of seat 0
    act(state, "4 notrump")
    assert state.high_seat == 3


def test_the_partner_rule_holds_where_the_auction_goes_round(tmp_path):
    rule = tmp_path / "r.yaml"
    rule.write_text("name: r\nkind: house-rule\ndescription: x\nauction: {rounds: until-passed, overcall_partner: false}\n")
    state = act(new_hand(load_ruleset("standard", (str(rule),)), *STD_LONG), "4 uptown", "4 notrump")
    assert "5 uptown" in legal(state)  # seat 2: the high bid is seat 1's, an opponent's
    act(state, "5 uptown", "pass")
    assert legal(state) == {"pass"}  # seat 0: its partner holds 5 uptown


def test_a_dealer_left_to_bid_bids_from_the_given_number(rules_of):
    state = act(new_hand(rules_of("dealer-from-4"), *STD_LONG), "pass", "pass", "pass")
    bids = _bids(legal(state))
    assert bids and all(int(b.split()[0]) >= 4 for b in bids) and "7 notrump" in bids
    error = refused(state, "3 notrump")
    assert (error.rule, error.seat) == ("dealer-bids-from", 3)
    assert "must bid 4 or more" in error.message
    assert for_you(error.message, 3).startswith("you are the dealer, left to bid after everyone passed")
    # Anyone else may still open at 3.
    assert "3 uptown" in legal(act(new_hand(rules_of("dealer-from-4"), *STD_LONG)))


def test_a_stuck_dealer_bids_exactly_the_lowest_bid_at_the_number(rules_of):
    state = act(new_hand(rules_of("dealer-exactly-4"), *STD_LONG), "pass", "pass", "pass")
    assert legal(state) == {"4 uptown", "4 downtown"}
    below, above = refused(state, "3 uptown"), refused(state, "5 uptown")
    assert below.rule == "dealer-bids-from"
    assert above.rule == "dealer-bid"  # at the number but not the lowest bid there
    # Both name the rule the dealer breaks, not only the calls left open.
    assert "must bid 4 or more, the lowest bid at 4: one of 4 uptown, 4 downtown" in below.message
    assert above.message == ("seat 3 is the dealer, left to bid after everyone passed, and must bid "
                             "the lowest bid at 4: one of 4 uptown, 4 downtown")


# ----------------------------------------------------------------- records that break them
@pytest.mark.parametrize("name, calls, at, words", [
    ("overcall-by-2", ["4 notrump", "5 uptown", "pass", "pass"], "auction[1]", "by 2 steps"),
    ("no-partner-overcall", ["4 uptown", "pass", "4 notrump", "pass"], "auction[2]", "may not overcall their partner"),
    ("dealer-from-4", ["pass", "pass", "pass", "3 notrump"], "auction[3]", "must bid 4 or more"),
    ("dealer-exactly-4", ["pass", "pass", "pass", "5 uptown"], "auction[3]",
     "seat 3 is the dealer, left to bid after everyone passed, and must bid the lowest bid at 4"),
])
def test_replay_refuses_a_record_that_breaks_the_rule_naming_it(tmp_path, name, calls, at, words):
    _rule_file(tmp_path, name)
    record = with_changes(NT_RECORD, auction=calls)
    record["with"] = [f"{name}.yaml"]
    replay_illegal(tmp_path, record, at, words)


# ----------------------------------------------------------------- bots keep them
def _auctions(rules, bot: str, hands: int) -> list[list[tuple[int, str]]]:
    return [[(seat, rules.action_names[a]) for seat, a in play_hand(rules, 11, i, bot).calls]
            for i in range(hands)]


def _step(text: str) -> int:
    """A bid's place on the ladder, counted by hand: its number times the groups of strains, plus its group."""
    level, _, strain = text.partition(" ")
    group = {"uptown": 0, "downtown": 0, "notrump": 1}[strain]
    return int(level) * 2 + group


def _keeps(name: str, calls: list[tuple[int, str]]) -> bool:
    """Whether an auction's calls keep the rule(s) ``name`` lays over standard (read by hand)."""
    step = 2 if name in ("overcall-by-2", "all-three") else 1
    high: tuple[int, str] | None = None
    passes = 0
    for seat, call in calls:
        if call == "pass":
            passes += 1
            continue
        if high is not None:
            if name in ("no-partner-overcall", "all-three") and high[0] % 2 == seat % 2:
                return False
            if _step(call) - _step(high[1]) < step:
                return False
        elif passes == 3 and name in ("dealer-from-4", "dealer-exactly-4", "all-three"):
            if int(call.split()[0]) < 4 or (name == "dealer-exactly-4" and call not in ("4 uptown", "4 downtown")):
                return False
        high = (seat, call)
    return True


def test_the_hand_reading_of_the_rules_sees_a_broken_one():
    assert _keeps("overcall-by-2", [(0, "4 uptown"), (1, "5 downtown")])
    assert not _keeps("overcall-by-2", [(0, "4 uptown"), (1, "4 notrump")])
    assert not _keeps("no-partner-overcall", [(0, "4 uptown"), (1, "pass"), (2, "5 uptown")])
    assert not _keeps("dealer-exactly-4", [(0, "pass"), (1, "pass"), (2, "pass"), (3, "4 notrump")])
    assert not _keeps("all-three", [(0, "pass"), (1, "pass"), (2, "pass"), (3, "3 uptown")])


@pytest.mark.parametrize("bot, names, hands", [("heuristic", ("all-three",), 12), ("random", tuple(RULES), 200)])
def test_bots_keep_every_auction_rule(rules_of, bot, names, hands):
    seen = 0
    for name in names:
        for calls in _auctions(rules_of(name), bot, hands):
            assert _keeps(name, calls), (name, calls)
            seen += any(call != "pass" for _, call in calls[1:])
    assert seen  # some auctions had calls after the first for the rules to judge


def test_the_rules_survive_the_ruleset_json(rules_of):
    for name in RULES:
        rules = rules_of(name)
        assert ruleset_from_json(json.loads(json.dumps(ruleset_to_json(rules)))) == rules
    assert (rules_of("overcall-by-2").overcall_by, rules_of("no-partner-overcall").overcall_partner,
            rules_of("dealer-from-4").dealer_bids_from) == (2, False, 4)


def test_the_whist_syntax_writes_the_same_rules(tmp_path):
    """The three settings in .whist, one line: the same Ruleset as the YAML house rule."""
    whist = tmp_path / "tight.whist"
    whist.write_text("house-rule tight\nauction { overcall_by 2; overcall_partner false; dealer_bids_from 4 }\n")
    yaml_rule = tmp_path / "tight.yaml"
    yaml_rule.write_text("name: tight\nkind: house-rule\ndescription: x\n" + RULES["all-three"])
    from_whist = load_ruleset("standard", (str(whist),))
    assert (from_whist.overcall_by, from_whist.overcall_partner, from_whist.dealer_bids_from) == (2, False, 4)
    assert from_whist == load_ruleset("standard", (str(yaml_rule),))


def test_a_dealer_floor_at_the_ladders_foot_is_refused_as_idle(tmp_path):
    # The ladder starts at 3: a floor of 3 leaves a stuck dealer every bid (a setting that changes nothing).
    path = tmp_path / "floor-3.yaml"
    path.write_text("name: floor-3\nkind: house-rule\ndescription: x\nauction: {dealer_bids_from: 3}\n",
                    encoding="utf-8")
    result = run("check", f"standard+{path}")
    assert result.exit_code == 1
    assert "auction.dealer_bids_from has no effect: no bid is below 3 (the ladder starts at 3)" in result.stderr
    assert run("check", f"standard+{_rule_file(tmp_path, 'dealer-from-4')}").exit_code == 0


def test_the_hint_for_a_forced_pass_names_the_rule_that_forces_it(rules_of):
    # play's hint is the heuristic bot's reason: a pass with no bid open says which rule closed them.
    state = act(new_hand(rules_of("no-partner-overcall"), *STD_LONG), "4 uptown", "pass")
    action, reason = HeuristicBot(random.Random(0)).explain(state)
    assert state.rules.action_names[action] == "pass"
    assert reason == "pass: the partner holds the high bid, and a player may not overcall their partner"
    state = act(new_hand(rules_of("overcall-by-2"), *STD_LONG), "6 uptown")  # only 7 uptown/downtown is 2 up
    act(state, "7 uptown")
    action, reason = HeuristicBot(random.Random(0)).explain(state)
    assert reason == "pass: no bid is left that outranks the high bid by 2 steps"


def test_a_rung_a_strain_leaves_out_is_no_step(tmp_path):
    # notrump from 4: the ladder reads 3 uptown = 3 downtown < 4 uptown = 4 downtown < 4 notrump, so
    # two rungs above 3 downtown is 4 notrump (the missing 3 notrump is no rung a player counts).
    rules = load_ruleset("standard", ("notrump-from-4", str(_rule_file(tmp_path, "overcall-by-2"))))
    state = act(new_hand(rules, *STD_LONG), "3 downtown")
    assert min(_bids(legal(state)), key=rules.action_names.index) == "4 notrump"
    error = refused(state, "4 uptown")
    assert error.rule == "overcall-by" and "4 notrump or higher" in error.message


def test_the_rulebook_says_what_a_player_whose_partner_holds_the_bid_may_still_do():
    # Only the calls the game has: round and round, the forced pass is final; with take, the dealer may
    # take; with a redeal for weak cards, that stays open.
    rulebook = run("rules", "oregon", "--set", "auction.overcall_partner=false").stdout
    assert ("A player may not bid over a high bid their partner holds: they may pass, and that pass takes "
            "them out of the auction as any pass does.") in rulebook
    rulebook = run("rules", "northeast52", "--set", "auction.overcall_partner=false").stdout
    assert ("A player may not bid over a high bid their partner holds: they may pass; the dealer may still "
            "take the partner's bid; a first call of `redeal` stays open where the cards allow it.") in rulebook
    assert "take" not in _partner_line(run("rules", "standard", "--set", "auction.overcall_partner=false").stdout)


def _partner_line(rulebook: str) -> str:
    return next(line for line in rulebook.splitlines() if "their partner holds" in line)


@pytest.mark.parametrize("sets, floor", [((), 3), (("auction.dealer_bids_from=4",), 4)])
def test_the_auction_model_values_a_forced_dealer_at_the_engines_floor(sets, floor):
    # The heuristic's model (Outlook.forced) takes the best of the bids a dealer left to
    # bid may make: here each bid is "worth" its level, so the model's forced dealer is
    # worth the lowest level it may bid: 4 under the floor (it was 3, the ladder's foot).
    rules = load_ruleset("standard", sets=sets)
    levels = [b.level for b in rules.bids]
    info = rules_info(rules)
    info.ensure_util(new_hand(rules, *STD_LONG))  # the scoring tables the model's margin reads
    look = Outlook(info, lambda b, plain, look: 0.0,
                   lambda plain: (list(map(float, levels)), list(levels), [1.0] * len(levels)))
    assert look.forced == floor
