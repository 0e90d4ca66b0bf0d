"""``kitty.discards: defenders-book`` (docs/tutorial.md §6: "the discards count for the
defenders"): the laid-away cards are one book of the side against the declarer.

A worked record replayed with and without the rule (the book moves from the declarers to
the defenders, and the score with it), bots playing it (every hand's defenders hold the
book), and the check that refuses it where "the defenders" are more than one side.  A
declaring side that takes every trick sweeps at such a table (runtime.kitty.swept): the
scoring's ``sweep``, the game end's ``swept`` and the metrics' sweep figure all say so.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bidcompiler.cli.hand_rules import score_table
from bidcompiler.lower import lower
from bidcompiler.pipeline import compile_variant, load_ruleset
from runtime.contract import Contract
from runtime.game import GameTally, GameView
from runtime.kitty import swept
from runtime.metrics import hand_outcome, hands_observation
from runtime.records import replay_hand
from runtime.scoring import score_hand
from runtime.simulate import play_hand
from runtime.variables import reads_sweep
from test_replay import replay_ok
from tests.clirun import run
from worked_hands import NT_RECORD, with_changes

RULE = "name: defenders-discards\nkind: house-rule\ndescription: x\nkitty: {discards: defenders-book}\n"


def _rule(folder: Path) -> Path:
    path = folder / "defenders-discards.yaml"
    path.write_text(RULE, encoding="utf-8")
    return path


def test_the_discards_book_moves_to_the_defenders_in_a_replayed_record(tmp_path):
    # NT_RECORD: seat 0 declares 4 notrump and its side takes 11 tricks, seat 1 one.
    plain = replay_ok(tmp_path, NT_RECORD)
    assert plain["books"] == [12, 1]  # standard: the discards are the declarers' book
    _rule(tmp_path)
    ruled = replay_ok(tmp_path, {**NT_RECORD, "with": ["defenders-discards.yaml"]})
    assert ruled["books"] == [11, 2]
    assert ruled["score"][0] < plain["score"][0]  # one book fewer over six for the declarers


@pytest.mark.parametrize("bot, hands", [("heuristic", 2), ("random", 100)])
def test_every_hand_gives_the_defenders_the_discards_book(tmp_path, bot, hands):
    rules = load_ruleset("standard", (str(_rule(tmp_path)),))
    for i in range(hands):
        state = play_hand(rules, 5, i, bot)
        if state.contract_value is None:
            continue  # thrown in: no book at all
        side = state.contract_value.side
        won = [0, 0]
        for _, _, winner in state.tricks:
            won[rules.side_of[winner]] += 1
        assert won[side] == state.books[side] and won[1 - side] + 1 == state.books[1 - side], i
        if bot == "heuristic":  # play's `rules` screen: the declarers' books go up to the tricks only
            assert [row[0] for row in score_table(state, notrump=False)] == list(range(13))


def test_defenders_book_needs_two_sides(tmp_path):
    rule = _rule(tmp_path)
    result = run("check", f"cutthroat+{rule}")
    assert result.exit_code == 1
    assert "defenders-book gives the discards' book to the side against the declarer, which needs two sides, " \
           "not 3" in result.stdout + result.stderr
    assert run("check", f"two-handed+{rule}").exit_code == 0


def test_check_warns_of_the_bid_the_declarers_can_never_make(tmp_path):
    # The declarers take at most the 12 tricks, so 7 (13 books) is always set: allowed, but said.
    rule = _rule(tmp_path)
    result = run("check", f"standard+{rule}")
    assert result.exit_code == 0
    assert result.stdout == f"standard+{rule}: ok (1 warning)\n"
    assert result.stderr.startswith(
        f"{rule}:4:19: warning: kitty.discards: defenders-book leaves the declaring side at most the 12 tricks, "
        "so a bid of 7 (13 books) can never be made (it is always set)\n"
        "    to fix: end the ladder at 6 (`auction.levels.to: 6`)")
    assert run("check", str(rule), "--on", "standard").stdout == f"{rule}: ok (over standard) (1 warning)\n"
    assert "So a bid of 7 (13 books) can never be made" in run("rules", f"standard+{rule}").stdout
    # The ladder ended at 6, and the game without the rule: nothing to warn of.
    short = tmp_path / "to-6.yaml"
    short.write_text("name: to-6\nkind: house-rule\ndescription: x\nauction: {levels: {to: 6}}\n", encoding="utf-8")
    for quiet in (f"standard+{rule}+{short}", "standard"):
        result = run("check", quiet)
        assert result.exit_code == 0 and "warning" not in result.stdout + result.stderr, quiet
        assert "can never be made" not in run("rules", quiet).stdout


def test_diff_and_rules_say_it(tmp_path):
    rule = _rule(tmp_path)
    assert run("diff", "standard", f"standard+{rule}").stdout == \
        "kitty discards: a book of the declaring side -> a book of the defending side\n"
    assert "The discards count as a book of the defenders" in run("rules", f"standard+{rule}").stdout
    assert json.loads(json.dumps(load_ruleset("standard", (str(rule),)).discards_book)) == "defenders"


# NT_RECORD's deal with seat 1's AS and seat 0's 8H swapped, played in hearts: seat 0 leads its
# six hearts (drawing every trump) and its six spades, and takes all twelve tricks.
_LEADS = "AH KH QH JH TH 9H AS KS QS JS TS 9S".split()
SWEEP_RECORD = with_changes(
    NT_RECORD,
    hands=[_LEADS, "8H 6H 5H 4H 3H 2H 8S 7S 6S 5S 4S 3S".split(), *NT_RECORD["hands"][2:]],
    auction=["4 uptown", "pass", "pass", "pass"],
    declare={"trump": "H"},
    play=[card for trick in zip(_LEADS, "2H 3H 4H 5H 6H 8H 3S 4S 5S 6S 7S 8S".split(),
                                "7H 4D 5D 6D 7D 8D 9D TD JD QD KD AD".split(),
                                "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC".split()) for card in trick])


def _swept_hand(folder: Path, *house_rules: str):
    """SWEEP_RECORD replayed under standard with the defenders' discards and ``house_rules``."""
    rules = load_ruleset("standard", (*house_rules, str(_rule(folder))))
    return rules, replay_hand(rules, SWEEP_RECORD).state


def test_every_trick_with_the_defenders_book_is_a_sweep_for_rise_and_fly(tmp_path):
    _, plain = _swept_hand(tmp_path)
    _, doubled = _swept_hand(tmp_path, "rise-and-fly")
    assert plain.books == [12, 1] and plain.made  # every trick; the discards are the defenders'
    assert plain.score == [6, 0]  # 6 over six: no sweep without the house rule
    assert doubled.score == [12, 0]  # `if sweep then 2 * base`: the declarers swept


def test_every_trick_with_the_defenders_book_wins_by_boston(tmp_path):
    rules, state = _swept_hand(tmp_path, "boston-wins")
    assert GameTally(rules).winner_if(state) == 0  # 6 points, short of 7: won by the sweep alone
    plain_rules, plain = _swept_hand(tmp_path)
    assert GameTally(plain_rules).winner_if(plain) is None


def test_the_rulebook_says_what_a_sweep_is_where_the_game_reads_one(tmp_path):
    rule = _rule(tmp_path)
    line = "Taking every trick is then a sweep for the declaring side (all 12 books it can take)."
    assert line in run("rules", f"standard+{rule}+rise-and-fly").stdout.splitlines()
    assert line in run("rules", f"standard+{rule}+boston-wins").stdout.splitlines()
    assert "Taking every trick" not in run("rules", f"standard+{rule}").stdout  # nothing reads a sweep


def test_the_rulebook_and_the_game_end_ask_the_compiled_formulas_whether_a_sweep_is_read(tmp_path):
    # One reading (runtime.variables.reads_sweep) of the variables the compiled formulas read,
    # the same the engine's formulas read, not a search of their text.
    rule = _rule(tmp_path)
    for spec, sweep_read in ((f"standard+{rule}+boston-wins", True), (f"standard+{rule}+rise-and-fly", True),
                             (f"standard+{rule}", False)):
        v = compile_variant(spec)
        r = lower(v)
        engine = frozenset().union(*(f.names for f in (r.scoring.made, r.scoring.declarer, r.scoring.defender,
                                                       r.scoring.multiplier, r.game_end.win, r.game_end.lose)))
        assert v.names_read() == engine and "books" in engine
        assert reads_sweep(v.names_read()) is sweep_read
    assert reads_sweep({"swept"}) and reads_sweep({"sweep", "bid"}) and not reads_sweep({"sweeps", "score"})


def test_the_rulebook_words_a_sweep_as_every_book_the_side_could_take(tmp_path):
    # runtime.kitty.swept: here the declarers sweep with 12 tricks, short of all 13 books, so
    # "took every book" alone would say what the engine does not count.
    rule = _rule(tmp_path)
    book = run("rules", f"standard+{rule}+rise-and-fly+boston-wins").stdout
    assert "all doubled if the declarers took every book they could take." in book
    assert "- sweep: `swept` — the side took every book it could take in the hand." in book
    assert "- `sweep`: the declaring side took every book it could take (every trick where the discards" in book
    assert "- `swept`: this side took every book it could take in the hand just played" in book
    assert "took every book." not in book and "every book of the hand" not in book


def test_the_sweep_figure_counts_every_trick_with_the_defenders_book(tmp_path):
    rules, state = _swept_hand(tmp_path)
    obs: dict = {}
    hands_observation(obs, [state], [b.text for b in rules.bids])
    assert obs["sweep"] == [1, 1]
    assert hand_outcome(state)[3] == 1
    # One trick short is no sweep: the same deal, NT_RECORD's own (seat 1's AS takes a trick).
    obs = {}
    short = replay_hand(rules, NT_RECORD).state
    assert short.books == [11, 2]
    hands_observation(obs, [short], [b.text for b in rules.bids])
    assert obs["sweep"] == [0, 1] and hand_outcome(short)[3] == 0


def test_a_renege_that_hands_the_declarers_every_book_is_still_their_sweep(tmp_path):
    # A defender reneges with fewer books than it owes (the discards' one): the hand is scored
    # as if the declarers took every book, all 13, which is more than their 12 tricks: a sweep,
    # as it was before the discards were the defenders' (runtime.kitty.swept: "at least").
    rules, state = _swept_hand(tmp_path, "rise-and-fly")
    contract = Contract(declarer=0, side=0, bid=state.bid, level=rules.bids[state.bid].level,
                        strain=rules.bids[state.bid].strain, trump=state.trump, direction=0, declared=True)
    reneged = score_hand(rules, contract, [12, 1], [1])
    assert reneged.books == [13, 0] and reneged.made
    assert reneged.score == [14, 0]  # `if sweep then 2 * base`: 7 over six, doubled
    assert swept(rules, [13, 0], 0) == (True, False)
    assert swept(rules, [12, 1], 0) == (True, False) and swept(rules, [11, 2], 0) == (False, False)
    assert swept(rules, [0, 13], 0) == (False, True)  # the defenders need every book


def test_the_game_views_memo_of_a_list_of_results_is_the_rulesets_own(tmp_path):
    # winners_after keeps what it reads of a list of results (who swept) by the list: a list
    # read under one ruleset is read again under another, where a sweep is another thing.
    # Under boston-wins without the rule, 12 of 13 books is no sweep but 13 of 13 is.
    kept_rules, _ = _swept_hand(tmp_path, "boston-wins")
    plain_rules = load_ruleset("standard", ("boston-wins",))
    bid = next(i for i, b in enumerate(plain_rules.bids) if b.level == 4)
    twelve = [([6, 0], [12, 1], True)]
    assert GameView(GameTally(kept_rules)).winners_after(twelve, 0, bid, 3) == [0]
    plain = GameView(GameTally(plain_rules))
    assert plain.winners_after(twelve, 0, bid, 3) == [None]
    # The same score (short of the target), every book: won by the sweep alone.
    assert plain.winners_after([([6, 0], [13, 0], True)], 0, bid, 3) == [0]


def test_where_every_bid_is_a_certain_set_the_fix_does_not_end_the_ladder_below_its_foot(tmp_path):
    # A ladder of 7s only: "end the ladder at 6" would leave no bid (a ladder ending below
    # where it starts is refused); the fix left is to keep the discards' book with the declarers.
    rule = _rule(tmp_path)
    sevens = tmp_path / "from-7.yaml"
    sevens.write_text("name: from-7\nkind: house-rule\ndescription: x\nauction: {levels: {from: 7}}\n",
                      encoding="utf-8")
    result = run("check", f"standard+{sevens}+{rule}")
    assert result.exit_code == 0
    assert "every bid of the ladder is always set" in result.stderr
    assert "auction.levels.to: 6" not in result.stderr
    assert "`kitty.discards: declarer-book`" in result.stderr
