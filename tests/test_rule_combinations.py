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
    # Both files shipped: each named by its shipped name, never by the path it is installed at.
    assert message.startswith("shipped 'min-bid-4', line ") and "'cutthroat' (shipped, line " in message, message
    assert ".yaml" not in message
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
    assert "says-books.yaml" in message and "'standard' (shipped, line " in message, message
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
        assert message.startswith("shipped 'big-joker-notrump', line ") and ".yaml" not in message
        assert "shipped 'jokers-out-in-notrump', line " in message
    # each alone still plays
    for rule in ("jokers-out-in-notrump", "big-joker-notrump"):
        assert run("simulate", f"standard+{rule}", "--hands", "2").exit_code == 0


# ------------------------------------------------------------------ rules that meet elsewhere (rules6 audit)
# Each pins a decision of docs/rule-combinations.md ("Where two rules meet on one step"): the spec
# states each rule alone; these are what the engine does where two of them touch.
def _dealt(spec: str, hands, kitty, dealer: int = 3):
    """A hand of ``spec`` dealt card by card (``hands``: one list of card names a seat)."""
    from test_real_table_rules import new_hand

    variant, *rules = spec.split("+")
    return new_hand(load_ruleset(variant, rules), hands, kitty, dealer)


def _act(state, *names: str):
    for name in names:
        state.apply_action(state.rules.action_names.index(name))
    return state


def _legal(state) -> set[str]:
    return {state.rules.action_names[a] for a in state.legal_actions()}


def _cards(state, seat: int) -> set[str]:
    return {state.rules.cards[c] for c in state.hands[seat]}


def _run(suit: str, high: str, low: str) -> list[str]:
    from test_real_table_rules import cards_of

    return cards_of(suit, high, low)


# Seat 1 holds both jokers and two hearts; the declarer (seat 0) leads the ace of hearts in notrump.
JOKERS_BESIDE_HEARTS = (
    [["AH", "KH", *_run("S", "A", "5")], ["BJ", "LJ", "QH", "JH", *_run("D", "A", "7")],
     [*_run("H", "T", "2"), "4S", "3S", "2S"], _run("C", "A", "3")],
    ["2C", "6D", "5D", "4D", "3D", "2D"],
)


def _ace_of_hearts_led(spec: str):
    state = _dealt(spec, *JOKERS_BESIDE_HEARTS)
    _act(state, "4 notrump", "pass", "pass", "pass", "direction uptown", *JOKERS_BESIDE_HEARTS[1], "AH")
    return state


@pytest.mark.parametrize("order", [("jokers-free-in-notrump", "big-joker-notrump"),
                                   ("big-joker-notrump", "jokers-free-in-notrump")])
def test_free_jokers_and_a_winning_big_joker_combine(order):
    """§8 jokers-free-in-notrump lets a joker be played while able to follow ("it still never wins":
    the base game's fact, restated); §9 big-joker-notrump makes BJ the highest card of any notrump
    trick, played "like any joker there".  Together (either order): either joker may be played while
    able to follow, BJ wins the trick, LJ never does."""
    spec = "+".join(("standard", *order))
    state = _ace_of_hearts_led(spec)
    assert {"BJ", "LJ", "QH", "JH"} <= _legal(state)
    _act(state, "BJ", "2H", "3C")
    assert state.tricks[-1][2] == 1  # seat 1's big joker beat the ace
    state = _ace_of_hearts_led(spec)
    _act(state, "LJ", "2H", "3C")
    assert state.tricks[-1][2] == 0  # the little joker never wins
    # Each alone, as §8 and §9 say: big-joker-notrump alone keeps the joker for a void...
    assert "BJ" not in _legal(_ace_of_hearts_led("standard+big-joker-notrump"))
    # ...and jokers-free alone lets it be played, but not win.
    state = _act(_ace_of_hearts_led("standard+jokers-free-in-notrump"), "BJ", "2H", "3C")
    assert state.tricks[-1][2] == 0


# Declarer seat 0 holds BJ, its partner seat 2 holds LJ.
JOKERS_SPLIT = (
    [["BJ", *_run("S", "A", "4")], _run("H", "A", "3"), ["LJ", *_run("D", "A", "4")], _run("C", "A", "3")],
    ["3S", "2S", "2H", "3D", "2D", "2C"],
)


def test_partner_takes_the_kitty_before_the_declarer_names_trump_with_kitty_first():
    """§9 partner-takes-kitty ("the declarer still names trump first") with §8 kitty-first ("the
    declarer takes the kitty before naming trump"): the kitty is taken, by the partner, before trump
    is named; the declarer then names trump and leads."""
    state = _dealt("standard+partner-takes-kitty+kitty-first", *JOKERS_SPLIT)
    _act(state, "4 uptown", "pass", "pass", "pass")
    assert state.seat == 2 and _legal(state) == _cards(state, 2)  # the partner discards, 18 cards
    assert len(state.hands[2]) == 18
    _act(state, "3S", "2S", "2H", "3D", "2D", "2C")
    assert state.seat == 0 and _legal(state) == {"trump S", "trump H", "trump D", "trump C"}
    _act(state, "trump S")
    assert state.seat == 0 and _legal(state) == _cards(state, 0)  # the declarer leads


def test_partner_taking_the_kitty_sets_its_own_jokers_aside_and_the_declarer_swaps():
    """§8 jokers-out-in-notrump with §9 partner-takes-kitty: the player who takes the kitty (the
    partner) discards with its jokers among the discards, laid apart; every other player holding one
    (the declarer included) swaps it for a random card of the partner's other discards."""
    state = _dealt("standard+partner-takes-kitty+jokers-out-in-notrump", *JOKERS_SPLIT)
    _act(state, "4 notrump", "pass", "pass", "pass", "direction uptown")
    assert state.seat == 2 and "LJ" not in _legal(state)  # laid apart by itself
    discards = ["3S", "2S", "2H", "3D", "2D"]
    _act(state, *discards)
    names = state.rules.cards
    assert [(seat, names[joker]) for seat, joker, _ in state.swaps] == [(0, "BJ")]
    assert names[state.swaps[0][2]] in discards
    assert not any({"BJ", "LJ"} & _cards(state, seat) for seat in range(4))
    assert [len(h) for h in state.hands] == [12] * 4
    assert state.seat == 0 and names[state.swaps[0][2]] in _cards(state, 0)


# northeast52: seat 0, the first caller, holds no king, queen or jack.
NO_FACE_CARDS_FIRST = (
    [[*_run("S", "T", "2"), "AH", "AD", "AC"], ["AS", "KS", "QS", "JS", *_run("H", "K", "6")],
     ["5H", "4H", "3H", "2H", *_run("D", "K", "6")], ["5D", "4D", "3D", "2D", *_run("C", "K", "6")]],
    ["5C", "4C", "3C", "2C"],
)


def test_a_first_caller_who_may_not_pass_may_still_call_redeal():
    """§9 first-caller-bids ("may not pass") over §2 northeast52 (a player with no king, queen or
    jack "may call redeal instead of bidding on their turn"): only the pass is barred."""
    state = _dealt("northeast52+first-caller-bids", *NO_FACE_CARDS_FIRST)
    assert "pass" not in _legal(state) and {"1", "redeal"} <= _legal(state)
    _act(state, "redeal")
    assert state.is_terminal()
    # Without first-caller-bids the same seat may pass as well.
    assert {"pass", "redeal"} <= _legal(_dealt("northeast52", *NO_FACE_CARDS_FIRST))


def test_a_dealer_forced_to_the_lowest_bid_bids_the_house_rules_lowest():
    """§3 oregon ("the dealer must take a bid of 1 (exactly 1)") under §8 min-bid-4 ("lowest bid 4"):
    the forced bid is the ladder's lowest, 4."""
    from runtime.game import GameState

    rules = load_ruleset("oregon", ["min-bid-4"])
    state = GameState(rules, 7).hand
    _act(state, "pass", "pass", "pass")
    assert state.seat == state.dealer and _legal(state) == {"4"}


@pytest.mark.parametrize("order, lowest", [(("no-kitty", "min-bid-4"), 4), (("min-bid-4", "no-kitty"), 1)])
def test_min_bid_4_and_no_kitty_the_later_lowest_bid_holds(order, lowest):
    """§8 min-bid-4 ("lowest bid 4") and no-kitty ("bids from 1") both state the lowest bid: as for any
    two layers of one setting, the later in the list holds (docs/rule-combinations.md); the deal is
    no-kitty's either way."""
    rules = load_ruleset("standard", order)
    assert sorted({b.level for b in rules.bids}) == list(range(lowest, 8))
    assert (rules.hand_size, rules.kitty_size, len(rules.cards)) == (13, 0, 52)


def test_a_later_rule_that_removes_what_an_earlier_one_set_holds():
    """no-kitty after sport-kitty, no-jokers after jokers-free-in-notrump: the later rule holds (no
    kitty to show, no jokers to free); the other order leaves the last rule nothing to act on and
    is refused with the rule's own file named (docs/rule-combinations.md)."""
    from bidcompiler.errors import CompileError

    rules = load_ruleset("standard", ["sport-kitty", "no-kitty"])
    assert rules.kitty_size == 0 and rules.kitty_show == "never"
    rules = load_ruleset("standard", ["jokers-free-in-notrump", "no-jokers"])
    assert len(rules.cards) == 52 and rules.tables[(-1, 0)].free_no_suit is False
    for order, file in ((("no-kitty", "sport-kitty"), "sport-kitty"),
                        (("no-jokers", "jokers-free-in-notrump"), "jokers-free-in-notrump")):
        with pytest.raises(CompileError, match="has no effect") as info:
            load_ruleset("standard", list(order))
        # By its shipped name, never by the path it is installed at.
        assert str(info.value).startswith(f"shipped '{file}', line ") and ".yaml" not in str(info.value)
        # and its way out is a --set, not an edit of the installed file (its path was quoted)
        assert "with `--set " in str(info.value)


def test_first_caller_bids_leaves_all_pass_redeal_nothing_to_do():
    """first-caller-bids with all-pass-redeal: the first caller always bids, so nobody ever finds
    everyone passed; the pair compiles, and after the bid the others (the dealer too) may pass."""
    from runtime.game import GameState

    rules = load_ruleset("standard", ["first-caller-bids", "all-pass-redeal"])
    state = GameState(rules, 3).hand
    assert "pass" not in _legal(state)
    _act(state, "3 uptown")
    for _ in range(3):
        assert "pass" in _legal(state)
        _act(state, "pass")
    assert state.declarer == (state.dealer + 1) % 4 and not state.is_terminal()


def test_hawaii_shutout_is_at_least_7_to_0():
    """rules.md §6: "a side wins when it is 7 up with the other side at 0": a set (+2) that takes a
    side from 6 to 8 with the other at 0 wins (docs/rule-combinations.md, "Readings")."""
    from types import SimpleNamespace

    from runtime.game import GameTally

    rules = load_ruleset("hawaii")
    tally = GameTally(rules)
    tally.totals = [0, 6]
    # Side 0 declared 3 and was set: +2 to side 1.
    tally.add_hand(SimpleNamespace(score=[0, 2], books=[8, 5], declarer=0, bid=0, made=False, dealer=3,
                                   calls=[]))
    assert tally.totals == [0, 8] and tally.winner == 1
    tally = GameTally(rules)
    tally.totals = [1, 6]  # not a shutout: 8 to 1, and 7 ahead is short of 11
    tally.add_hand(SimpleNamespace(score=[0, 2], books=[8, 5], declarer=0, bid=0, made=False, dealer=3,
                                   calls=[]))
    assert tally.totals == [1, 8] and tally.winner is None
