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


def test_defenders_score_is_idempotent():
    """Laid twice, the rule says one thing once."""
    assert _scores("standard+defenders-score+defenders-score") == _scores("standard+defenders-score")


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
