"""House rules laid over games where their words meet the game's own rules (rules.md §8, §9).

Each rule is a fact about the game, stated once in data: laid over a game that already
says the same thing it changes nothing, and where it means something on one game's
ladder and nothing on another's it is read on the ladder it is laid over.
"""

from __future__ import annotations

import itertools

import pytest

from bidcompiler.pipeline import load_ruleset
from runtime.contract import make_contract
from runtime.ruleset import NO_TRUMP
from runtime.scoring import score_hand


def _splits(rules):
    """Every way the hand's books can fall to the sides (all books of the hand counted)."""
    total = rules.hand_size + (1 if rules.kitty_size else 0)
    for books in itertools.product(range(total + 1), repeat=rules.sides - 1):
        if sum(books) <= total:
            yield [*books, total - sum(books)]


def _scores(spec: str):
    """Every (bid, notrump, declarer, books) of ``spec`` with its score, as a dict."""
    rules = load_ruleset(spec)
    out = {}
    for bid in range(len(rules.bids)):
        for trump in (NO_TRUMP, 0):
            for declarer in range(rules.players):
                contract = make_contract(rules, declarer, bid, trump, 0, True)
                for books in _splits(rules):
                    key = (rules.bids[bid].level, trump == NO_TRUMP, declarer, tuple(books))
                    out[key] = score_hand(rules, contract, books).score
    return out


# rules.md §5 rhode-island: "Set: the opponents score the bid, plus one per book over six they
# took"; §3 oregon and §7 cutthroat: the defenders score every book they took, every hand.
@pytest.mark.parametrize("game", ["rhode-island", "cutthroat", "oregon"])
def test_defenders_score_changes_nothing_where_the_game_already_scores_those_books(game):
    """§8 defenders-score ("the defending side scores one per book over six it took") states what
    these games' own scoring already gives the defenders: laid over them it counts nothing twice."""
    plain, overlaid = _scores(game), _scores(f"{game}+defenders-score")
    assert overlaid == plain
    if game == "rhode-island":  # a set 4 where the defenders took 8 books: the bid plus 2, once
        assert plain[(4, False, 0, (5, 8))] == [0, 4 + 2]
        assert plain[(4, True, 0, (5, 8))] == [0, 2 * (4 + 2)]


@pytest.mark.parametrize("game, doubles", [("standard", True), ("cincinnati", True), ("two-handed", True),
                                           ("northeast52", False), ("hawaii", False)])
def test_defenders_score_adds_the_defenders_books_over_six_elsewhere(game, doubles):
    """Where the game gives the defenders nothing for their books, defenders-score adds one per book
    over six, "doubled in notrump wherever the variant doubles notrump"."""
    plain, overlaid = _scores(game), _scores(f"{game}+defenders-score")
    rules = load_ruleset(game)
    for (level, notrump, declarer, books), score in plain.items():
        side = rules.side_of[declarer]
        extra = [0 if s == side else max(0, books[s] - 6) * (2 if notrump and doubles else 1)
                 for s in range(rules.sides)]
        want = [p + e for p, e in zip(score, extra)]
        assert overlaid[(level, notrump, declarer, books)] == want, (level, notrump, declarer, books)


def test_defenders_score_is_idempotent(tmp_path):
    """Laid twice, the rule says one thing once: a second file setting the same term (the
    shipped file itself, named twice, is refused: tests/test_authoring.py)."""
    from bidcompiler.resources import shipped_house_rules

    again = tmp_path / "defenders-score-again.yaml"
    again.write_text(shipped_house_rules()["defenders-score"].read_text())
    assert _scores(f"standard+defenders-score+{again}") == _scores("standard+defenders-score")


def _defender(path, *rules, sets=()):
    """The compiled defenders' score formula of the file ``path`` with house rules laid over it."""
    from bidcompiler.pipeline import compile_file
    return compile_file(path, rules, sets).scoring.defender.text


def test_the_defenders_score_merges_term_by_term(tmp_path):
    """scoring.defender's terms merge by name like the game's named ends: a term is set, replaced or
    removed; a plain formula under terms is the term `score`; a plain formula over them replaces
    them all, its `base` their sum."""
    from bidcompiler.errors import CompileError
    from bidcompiler.pipeline import shipped_variants

    standard = shipped_variants()["standard"]
    bonus = tmp_path / "bonus.yaml"
    bonus.write_text("name: bonus\nkind: house-rule\nscoring:\n  defender:\n    bonus: defender_books / 2\n")
    drop = tmp_path / "drop.yaml"
    drop.write_text("name: drop\nkind: house-rule\nscoring:\n  defender:\n    over-six: ~\n")
    double = tmp_path / "double.yaml"
    double.write_text("name: double\nkind: house-rule\nscoring:\n  defender: 2 * base\n")
    assert _defender(standard, "defenders-score", str(bonus)) == "max(0, own_books - 6) + defender_books / 2"
    assert _defender(standard, "defenders-score", str(drop)) == "0"
    assert _defender(standard, "defenders-score", str(double)) == "2 * (0 + max(0, own_books - 6))"
    assert _defender(standard, "defenders-score", sets=["scoring.defender.over-six=1"]) == "1"
    based = tmp_path / "based.yaml"
    based.write_text("name: based\nkind: house-rule\nscoring:\n  defender:\n    extra: base + 1\n")
    with pytest.raises(CompileError, match="named term is written whole and cannot say `base`"):
        _defender(standard, str(based))
    with pytest.raises(CompileError, match="cannot remove the term 'over-six'"):
        _defender(standard, str(drop))


# ------------------------------------------------------------------ bids of 7 on other ladders
def _score(spec: str, level: int, notrump: bool, books: list[int], sets=()) -> list[int]:
    """The score of a contract at ``level`` declared by seat 0 where each side took ``books``."""
    rules = load_ruleset(spec, sets=sets)
    bid = next(i for i, b in enumerate(rules.bids) if b.level == level)  # the first strain's bid
    contract = make_contract(rules, 0, bid, NO_TRUMP if notrump else 0, 0, True)
    return score_hand(rules, contract, books).score


def test_boston_x4_quadruples_a_made_bid_of_all_the_books():
    """§8 boston-x4 "a made bid of 7 scores four times over (28)": 7 is the top of the ladder, a bid of
    all the books.  Where bids count books outright (cutthroat, 7-18) that is 18; a 7 there is the
    lowest bid and scores as usual."""
    assert _score("standard+boston-x4", 7, False, [13, 0]) == [28, 0]
    assert _score("standard+boston-x4", 6, False, [13, 0]) == [7, 0]
    assert _score("cutthroat+boston-x4", 18, False, [18, 0, 0]) == [4 * 18, 0, 0]
    assert _score("cutthroat+boston-x4", 18, True, [18, 0, 0]) == [2 * 4 * 18, 0, 0]
    assert _score("cutthroat+boston-x4", 7, False, [18, 0, 0]) == [18, 0, 0]
    assert _score("cutthroat+boston-x4", 7, False, [9, 5, 4]) == _score("cutthroat", 7, False, [9, 5, 4]) == [9, 5, 4]
    assert _score("rhode-island+boston-x4", 7, False, [13, 0]) == [4 * 13, 0]


def test_a_bid_of_all_the_books_is_not_the_top_of_a_ladder_cut_short():
    """boston-x4 and seven-set-loses mean a bid of all the books, not the highest bid allowed: with
    the ladder cut to 6 (--set auction.levels.to=6) a made 6 scores as usual and a set 6 does not
    lose; without the kitty (13 tricks, no discards' book) all the books are still 7 over six."""
    cut = ("auction.levels.to=6",)
    assert _score("standard+boston-x4", 6, False, [13, 0], sets=cut) == [6 + 1, 0] == _score("standard", 6, False,
                                                                                             [13, 0], sets=cut)
    assert not _loses("standard+seven-set-loses", 6, made=False, sets=cut)
    assert _score("standard+no-kitty+boston-x4", 7, False, [13, 0]) == [28, 0]
    assert _loses("standard+no-kitty+seven-set-loses", 7, made=False)
    # the ladder cut to 17 on cutthroat: its all-books bid is still 18, which no one can bid there
    assert _score("cutthroat+boston-x4", 17, False, [18, 0, 0], sets=("auction.levels.to=17",)) == [18, 0, 0]


def _loses(spec: str, bid: int, made: bool, sets=()) -> bool:
    """Whether the side that declared ``bid`` loses the game at once (its score 0, the others' 0)."""
    rules = load_ruleset(spec, sets=sets)
    env = {"score": 0, "opponent_score": 0, "sets": 0 if made else 1, "hands": 1, "swept": False, "games": 0,
           "target": rules.game_end.target, "played": 1, "last_bid": bid, "last_declarer": True,
           "last_made": made}
    return bool(rules.game_end.lose(env))


def test_seven_set_loses_is_a_set_on_a_bid_of_all_the_books():
    """§9 seven-set-loses "a side set on a bid of 7 loses the game at once": all the books."""
    assert _loses("standard+seven-set-loses", 7, made=False)
    assert not _loses("standard+seven-set-loses", 7, made=True)
    assert not _loses("standard+seven-set-loses", 6, made=False)
    assert _loses("cutthroat+seven-set-loses", 18, made=False)
    assert not _loses("cutthroat+seven-set-loses", 7, made=False)   # cutthroat's lowest bid
    assert not _loses("cutthroat+seven-set-loses", 17, made=False)


def test_a_lowest_bid_counted_over_six_is_refused_where_bids_count_books_outright():
    """§8 min-bid-4 "lowest bid 4" counts a bid over six books (a bid of 4 is 10 of 13); cutthroat's
    bids count books outright (7-18), where 4 is no bid of the ladder: refused, one message naming
    both files and why (exit 1)."""
    from clirun import run

    result = run("simulate", "cutthroat+min-bid-4", "--hands", "2")
    assert result.exit_code == 1
    message = result.stderr
    assert "min-bid-4.yaml" in message and "cutthroat.yaml" in message, message
    assert "count books over six" in message and "counts books outright (bids 7 to 18)" in message
    assert message.count("auction.levels.counts") == 1
    # ... while the games whose bids count over six take it, as before
    for game in ("standard", "cincinnati", "two-handed", "rhode-island", "northeast52", "hawaii", "oregon"):
        assert run("rules", f"{game}+min-bid-4").exit_code == 0, game
    # notrump-from-4 (a notrump bid from 4) was refused there already: notrump's levels 4-18 lie
    # outside the ladder 7-18
    result = run("simulate", "cutthroat+notrump-from-4", "--hands", "2")
    assert result.exit_code == 1 and "outside the auction's levels 7 to 18" in result.stderr


def _house_rule(tmp_path, counts: str):
    """A house rule file that states only what bids count (``counts``)."""
    path = tmp_path / f"says-{counts}.yaml"
    path.write_text(f"name: says-{counts}\nkind: house-rule\ndescription: x\n"
                    f"auction:\n  levels: {{counts: {counts}}}\n")
    return path


def test_a_house_rule_may_not_change_what_bids_count_where_the_game_takes_the_default(tmp_path):
    """standard does not write auction.levels.counts: it counts books over six by default, so a
    house rule stating books outright over it is refused like min-bid-4 over cutthroat (one message
    naming both places, exit 1), and one stating the default changes nothing."""
    from clirun import run

    result = run("rules", "standard", "--with", str(_house_rule(tmp_path, "books")))
    assert result.exit_code == 1
    message = result.stderr
    assert "says-books.yaml" in message and "standard.yaml" in message, message
    assert "count books outright" in message and "counts books over six (the default" in message, message
    assert message.count("auction.levels.counts") == 1
    same = run("rules", "standard", "--with", str(_house_rule(tmp_path, "books-over-six")))
    assert same.exit_code == 0, same.stderr
    stated = load_ruleset("standard", with_rules=(str(_house_rule(tmp_path, "books-over-six")),))
    assert stated == load_ruleset("standard")


def test_a_variant_or_set_may_change_what_bids_count(tmp_path):
    """Only a house rule states the fact without changing it; a variant that extends another
    changes it (cutthroat extends standard, which counts over six by default), and so does a
    --set, like any setting."""
    from clirun import run

    # Over six, cutthroat's 18 books end the ladder at 12 (a bid of 18 books).
    assert run("rules", "cutthroat", "--set", "auction.levels.counts=books-over-six",
               "--set", "auction.levels.to=12").exit_code == 0
    assert run("rules", "standard", "--set", "auction.levels.counts=books").exit_code == 0
    variant = tmp_path / "outright.yaml"
    variant.write_text("name: outright\nextends: standard\nauction:\n  levels: {counts: books}\n")
    assert run("rules", str(variant)).exit_code == 0


# ------------------------------------------------------------------ two rules about the jokers in notrump
@pytest.mark.parametrize("spec, sets", [
    ("standard+jokers-out-in-notrump+big-joker-notrump", ()),
    ("standard+big-joker-notrump+jokers-out-in-notrump", ()),
    ("standard+jokers-out-in-notrump", ("play.roles.notrump.BJ=top",)),
    ("standard+big-joker-notrump", ("play.notrump_extras=out",)),
])
def test_jokers_out_and_a_notrump_role_for_a_joker_are_refused_together(spec, sets):
    """§8 jokers-out-in-notrump ("in notrump the jokers leave play") and §9 big-joker-notrump ("in
    notrump the big joker is the highest card of every trick it is played to") say opposite things
    of the big joker in notrump.  Neither order of the two (nor a --set of either) wins: one message,
    exit 1, naming the setting and the other rule."""
    from clirun import run

    args = ["simulate", spec, "--hands", "2"]
    for change in sets:
        args += ["--set", change]
    result = run(*args)
    assert result.exit_code == 1
    message = result.stderr
    assert "gives BJ a part in notrump, but notrump_extras: out takes the extra cards (BJ, LJ) out of play" \
        in message, message
    assert message.count("do not combine") == 1
    if not sets:  # two shipped files: both named
        assert "big-joker-notrump.yaml" in message and "jokers-out-in-notrump.yaml" in message
    # each alone still plays
    for rule in ("jokers-out-in-notrump", "big-joker-notrump"):
        assert run("simulate", f"standard+{rule}", "--hands", "2").exit_code == 0
