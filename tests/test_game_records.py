"""Game records (records.md, issue 13 part B): games, totals and winner of a whole match.

Oregon plays a rubber (best of three games): a record holds the whole rubber, its
``games`` list one entry per game begun, ``totals`` the last game's (kept when that
game has just ended) and ``winner`` the rubber's.  Also here: a record may not go on
after the match is won, cutthroat's tie-breaks (rules.md §7) on hand-made games, and
house rules on the game end meaning the same in any order.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from bidcompiler.errors import CompileError
from bidcompiler.pipeline import load_ruleset
from clirun import run
from runtime.game import GameTally
from runtime.records import hand_record
from runtime.simulate import play_game
from runtime.variables import GAME_VARIABLES

# Oregon rubbers of seed 1 (heuristic bots), as play_game plays them: the first rubber
# won 2-0 and the first won 2-1 are looked up (which game numbers they are changes
# whenever the bots play differently; the shapes are what the tests need).
SEED = 1


def _first_rubber(games_in_it: int) -> int:
    """The first game number of seed SEED whose oregon rubber lasts ``games_in_it`` games."""
    rules = load_ruleset("oregon", ())
    lengths = []
    for game in range(200):
        lengths.append(len(play_game(rules, SEED, game, "heuristic").tally.games))
        if lengths[-1] == games_in_it:
            return game
    raise AssertionError(f"no oregon rubber of {games_in_it} games in 200: {lengths[:20]}")


WON_2_0, WON_2_1 = _first_rubber(2), _first_rubber(3)


def oregon_records(game: int) -> list[dict]:
    """The hand records of one simulated oregon rubber."""
    rules = load_ruleset("oregon", ())
    played = play_game(rules, SEED, game, "heuristic")
    return [hand_record(state, "oregon", []) for state in played.hands]


def write(tmp_path: Path, records: list[dict], name: str = "game.jsonl") -> Path:
    """A game record file of ``records``."""
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def replay_json(path: Path, status: int = 0) -> dict:
    """``bidwhist replay --json``'s output, checking the exit status."""
    result = run("replay", str(path), "--json")
    assert result.exit_code == status, result.stdout + result.stderr
    return json.loads(result.stdout)


def expected_games(out: dict, target: int) -> list[dict]:
    """The games of a replayed record worked out from its hands' scores alone (oregon: first to ``target``)."""
    games: list[dict] = []
    totals = None
    for i, hand in enumerate(out["hands"]):
        if totals is None:
            games.append({"first_hand": i, "hands": 0, "totals": None, "winner": None})
            totals = [0, 0]
        totals = [t + s for t, s in zip(totals, hand["score"])]
        games[-1]["hands"] += 1
        games[-1]["totals"] = totals
        reached = [s for s in (0, 1) if totals[s] >= target]
        if reached:
            declaring = hand["contract"]["side"]
            games[-1]["winner"] = declaring if declaring in reached else reached[0]
            totals = None
    return games


@pytest.mark.parametrize("game, score", [(WON_2_0, (2, 0)), (WON_2_1, (2, 1))])
def test_an_oregon_rubber_record_lists_its_games_and_the_rubber_winner(tmp_path, game, score):
    records = oregon_records(game)
    out = replay_json(write(tmp_path, records))
    games = expected_games(out, 11)
    assert out["games"] == games
    assert len(games) == sum(score)
    winner = games[-1]["winner"]
    assert [g["winner"] for g in games].count(winner) == 2
    assert out["winner"] == winner
    assert out["totals"] == games[-1]["totals"]  # the last game's, not zeros
    assert max(out["totals"]) >= 11


def test_a_rubber_in_progress_after_game_one_keeps_game_ones_totals(tmp_path):
    records = oregon_records(WON_2_1)
    whole = replay_json(write(tmp_path, records, "whole.jsonl"))
    first = whole["games"][0]
    cut = records[:first["hands"]]
    out = replay_json(write(tmp_path, cut, "cut.jsonl"))
    assert out["games"] == [first]
    assert first["winner"] is not None and max(first["totals"]) >= 11
    assert out["totals"] == first["totals"] != [0, 0]
    assert out["winner"] is None  # one game won: the rubber goes on
    text = run("replay", str(write(tmp_path, cut, "cut.jsonl"))).stdout
    side = "side 0+2" if first["winner"] == 0 else "side 1+3"
    hi, lo = sorted(first["totals"], reverse=True)
    assert f"game 1 won by {side}, {hi} to {lo} (hands 1-{first['hands']})" in text
    assert "rubber    side 0+2 " in text and f"{side} 1 game" in text
    assert "rubber in progress: 1 game won, game 2 still to play" in text
    assert "totals    side 0+2 {}   side 1+3 {}".format(*first["totals"]) in text


def test_the_text_says_each_games_result_the_standing_and_the_rubbers_winner(tmp_path):
    out = replay_json(write(tmp_path, oregon_records(WON_2_1)))
    text = run("replay", str(tmp_path / "game.jsonl")).stdout
    labels = {0: "side 0+2", 1: "side 1+3"}
    won = [0, 0]
    position = 0
    for n, game in enumerate(out["games"], 1):
        won[game["winner"]] += 1
        line = f"game {n} won by {labels[game['winner']]}"
        standing = f"rubber    side 0+2 {won[0]} game{'' if won[0] == 1 else 's'}   " \
                   f"side 1+3 {won[1]} game{'' if won[1] == 1 else 's'}"
        position = text.index(line, position)   # in order, each as its game ends
        assert text.index(standing, position) > position
    assert text.rstrip().endswith(f"{labels[out['winner']]} wins the rubber, 2 games to 1")


def test_a_standard_game_record_has_one_game(tmp_path):
    rules = load_ruleset("standard", ())
    played = play_game(rules, SEED, 0, "heuristic")
    records = [hand_record(state, "standard", []) for state in played.hands]
    out = replay_json(write(tmp_path, records))
    assert out["games"] == [{"first_hand": 0, "hands": len(records), "totals": out["totals"],
                             "winner": out["winner"]}]
    totals = [sum(h["score"][s] for h in out["hands"]) for s in (0, 1)]
    assert out["totals"] == totals
    assert out["winner"] is not None and (totals[out["winner"]] >= 7 or min(totals) <= -7)
    text = run("replay", str(tmp_path / "game.jsonl")).stdout
    label = "side 0+2" if out["winner"] == 0 else "side 1+3"
    assert f"game won by {label}" in text and text.rstrip().endswith(f"{label} wins the game")
    assert "rubber" not in text


def test_a_standard_game_in_progress(tmp_path):
    rules = load_ruleset("standard", ())
    played = play_game(rules, SEED, 0, "heuristic")
    records = [hand_record(state, "standard", []) for state in played.hands][:1]
    out = replay_json(write(tmp_path, records))
    assert out["winner"] is None and out["games"][0]["winner"] is None
    assert out["games"][0]["totals"] == out["totals"] == out["hands"][0]["score"]
    assert run("replay", str(tmp_path / "game.jsonl")).stdout.rstrip().endswith("game in progress")


@pytest.mark.parametrize("variant, game", [("oregon", WON_2_0), ("standard", 0)])
def test_a_record_that_goes_on_after_the_match_is_won_is_illegal_at_that_hand(tmp_path, variant, game):
    rules = load_ruleset(variant, ())
    played = play_game(rules, SEED, game, "heuristic")
    assert played.winner is not None
    records = [hand_record(state, variant, []) for state in played.hands]
    extra = dict(oregon_records(WON_2_1)[0] if variant == "oregon" else records[0])
    extra["dealer"] = played.tally.next_dealer(played.hands[-1])  # the rotation is kept
    out = replay_json(write(tmp_path, records + [extra]), status=1)
    assert out["error"]["at"] == f"hand[{len(records)}]"
    assert "may not go on after the match is decided" in out["error"]["message"]
    assert out["games"] is None and out["winner"] is None


# --------------------------------------------------------------------------- cutthroat ties
def cutthroat_hand(dealer: int, declarer: int, bid: int, score: list[int]):
    """A hand-made finished cutthroat hand: who dealt and declared, and each player's score.

    The tally reads only these of a hand (its books sum to 18, so nobody swept).
    """
    rules = load_ruleset("cutthroat", ())
    index = next(i for i, b in enumerate(rules.bids) if b.level == bid)
    return SimpleNamespace(dealer=dealer, declarer=declarer, bid=index, made=score[declarer] > 0,
                           score=score, books=[6, 6, 6], calls=[])


def cutthroat_tally(totals: list[int]) -> GameTally:
    """A cutthroat game standing at ``totals``."""
    tally = GameTally(load_ruleset("cutthroat", ()))
    tally.totals = list(totals)
    return tally


@pytest.mark.parametrize("totals, hand, winner", [
    # One reaches 30: it wins.
    ([25, 20, 10], (0, 1, 9, [0, 10, 8]), 1),
    # The declarer is among those who reach 30: it wins, though another scores more.
    ([28, 25, 10], (0, 1, 8, [7, 8, 0]), 1),
    # The declarer (seat 2) is set; seats 0 and 1 reach 30: the highest score wins.
    ([26, 28, 10], (2, 2, 7, [6, 3, -7]), 0),
    # Seats 0 and 1 tie on 31 (the declarer set): the first from the dealer's left.
    ([26, 28, 10], (2, 2, 7, [5, 3, -7]), 0),   # dealer 2: seat 0 is its left
    ([26, 28, 10], (0, 2, 7, [5, 3, -7]), 1),   # dealer 0: seat 1 is its left
    ([26, 28, 10], (1, 2, 7, [5, 3, -7]), 0),   # dealer 1: seat 2 (not tied), then seat 0
])
def test_cutthroat_ties_when_several_reach_30(totals, hand, winner):
    tally = cutthroat_tally(totals)
    dealer, declarer, bid, score = hand
    tally.add_hand(cutthroat_hand(dealer, declarer, bid, score))
    assert tally.winner == winner
    assert tally.games[-1].winner == winner


def test_nobody_at_30_goes_on():
    tally = cutthroat_tally([20, 20, 20])
    tally.add_hand(cutthroat_hand(0, 1, 9, [3, 9, 2]))
    assert tally.winner is None and tally.totals == [23, 29, 22]


# --------------------------------------------------------------------------- house rules in any order
def game_rules() -> list[str]:
    """The shipped house rules that change the game's end (they have a ``game`` section)."""
    folder = Path(__file__).resolve().parents[1] / "variants"
    found = []
    for path in sorted(folder.glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        if "kind: house-rule" in text and "\ngame:" in text:
            found.append(path.stem)
    return found


def end_table(variant: str, rules_with: tuple[str, ...]):
    """The game end as a table: win and lose of every point of a grid of game variables, or the error."""
    try:
        rules = load_ruleset(variant, rules_with)
    except CompileError as exc:
        return "error", sorted(d.message for d in exc.diagnostics)
    grid = {
        "score": range(-12, 13, 1), "opponent_score": (0, 5, 12), "sets": (0, 2, 3), "sets_in_a_row": (0,), "hands": (1, 10),
        "swept": (False, True), "games": (0,), "played": (9, 10), "last_bid": (0, 7),
        "last_declarer": (False, True), "last_made": (False, True),
    }
    assert set(grid) | {"target"} == set(GAME_VARIABLES)
    table = []
    for values in itertools.product(*grid.values()):
        env = dict(zip(grid, values), target=rules.game_end.target)
        table.append((rules.game_end.win(env), rules.game_end.lose(env)))
    return rules.game_end.target, tuple(table)


def test_the_game_level_house_rules_are_found():
    assert {"boston-wins", "seven-set-loses", "to-5", "to-9", "two-sets", "ten-hands"} <= set(game_rules())


# to-5 with to-9 still depends on its order, and always will: both set game.target,
# and as for any setting two house rules set, the later one wins.  Every other pair
# adds, replaces or removes a named condition of game.win/game.lose of its own, so
# the order does not matter (ten-hands replaces only the ordinary end, `target`).
ORDER_DEPENDENT = {("to-5", "to-9")}
PAIRS = [p for p in itertools.combinations(game_rules(), 2) if p not in ORDER_DEPENDENT]


def test_every_pair_of_game_house_rules_is_tested():
    assert len(PAIRS) == len(list(itertools.combinations(game_rules(), 2))) - 1


def test_to_5_and_to_9_both_set_the_target_so_the_later_one_wins():
    for a, b in sorted(ORDER_DEPENDENT):
        assert end_table("standard", (a, b)) != end_table("standard", (b, a)), (a, b)
    assert load_ruleset("standard", ("to-5", "to-9")).game_end.target == 9
    assert load_ruleset("standard", ("to-9", "to-5")).game_end.target == 5


@pytest.mark.parametrize("pair", PAIRS, ids="+".join)
def test_every_pair_of_game_house_rules_means_the_same_in_either_order(pair):
    a, b = pair
    assert end_table("standard", (a, b)) == end_table("standard", (b, a))


def test_boston_wins_keeps_its_sweep_under_to_9_in_either_order():
    for order in (("boston-wins", "to-9"), ("to-9", "boston-wins")):
        rules = load_ruleset("standard", order)
        env = {name: 0 for name in GAME_VARIABLES} | {"swept": True, "last_declarer": True,
                                                      "last_made": True, "target": rules.game_end.target}
        assert rules.game_end.target == 9
        assert rules.game_end.win(env)                                      # the sweep wins at 0
        assert rules.game_end.win(env | {"swept": False, "score": 9})
        assert not rules.game_end.win(env | {"swept": False, "score": 8})  # the target is 9
        assert rules.game_end.lose(env | {"swept": False, "score": -9})


def test_to_5_over_a_game_end_without_a_target_is_an_error_in_either_order():
    for order in (("ten-hands", "to-5"), ("to-5", "ten-hands")):
        with pytest.raises(CompileError) as info:
            load_ruleset("standard", order)
        assert "game.target has no effect" in str(info.value)
    with pytest.raises(CompileError):
        load_ruleset("hawaii", ("to-9",))


@pytest.mark.parametrize("variant, target", [("standard", 7), ("oregon", 11), ("northeast52", 21),
                                             ("rhode-island", 21), ("cutthroat", 30)])
def test_the_shipped_targets(variant, target):
    rules = load_ruleset(variant, ())
    assert rules.game_end.target == target
    env = {name: 0 for name in GAME_VARIABLES} | {"target": target}
    assert rules.game_end.win(env | {"score": target}) and not rules.game_end.win(env | {"score": target - 1})


# --------------------------------------------------------------------------- the first dealer
def test_a_game_record_starts_with_the_dealer_the_variant_names(tmp_path):
    """records.md: a game record holds a game from its start, "each hand's dealer following the
    variant's rotation"; rules.md makes the first dealer a setting (random in every shipped
    game).  Where a variant names the seat that deals first, the first hand of a game record
    is dealt by it: another is illegal at hand[0].dealer."""
    (tmp_path / "fixed.yaml").write_text("name: fixed\nextends: standard\ndeal:\n  first_dealer: 2\n")
    from worked_hands import NT_RECORD, with_changes

    # Dealer 2: seat 3 calls first and passes, seat 0 bids 4 notrump and plays the worked hand.
    hand = with_changes(NT_RECORD, variant="fixed.yaml", dealer=2, auction=["pass", "4 notrump", "pass", "pass"])
    assert replay_json(write(tmp_path, [hand]))["games"] == [
        {"first_hand": 0, "hands": 1, "totals": [12, 0], "winner": 0}]
    out = replay_json(write(tmp_path, [dict(NT_RECORD, variant="fixed.yaml")]), status=1)
    assert out["error"]["at"] == "hand[0].dealer" and "seat 2 deals the first hand" in out["error"]["message"]
    # A hand record on its own may be any hand of a game: its dealer is not checked so.
    single = tmp_path / "hand.json"
    single.write_text(json.dumps(dict(NT_RECORD, variant="fixed.yaml")), encoding="utf-8")
    assert replay_json(single)["score"] == [12, 0]
