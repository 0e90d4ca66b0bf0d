"""game.win and game.lose as named conditions: merged by name, so house rules combine in any order.

Each test lays small house rules over a variant and checks the compiled game end:
its combined formula (what the engine reads), its conditions by name, and, where
the order of the rules is the point, that both orders mean the same.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bidcompiler.errors import CompileError
from bidcompiler.pipeline import compile_variant, load_ruleset
from runtime.variables import GAME_VARIABLES


def rule(tmp_path: Path, name: str, game: str) -> str:
    """A house rule file whose game section is ``game`` (YAML, indented two spaces)."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"kind: house-rule\nname: {name}\ngame:\n{game}", encoding="utf-8")
    return str(path)


def ends(spec: str, with_rules=(), sets=()) -> tuple[str, str, dict, dict]:
    """(win text, lose text, win conditions by name, lose conditions by name) of a composition."""
    g = compile_variant(spec, tuple(with_rules), tuple(sets)).game
    return (g.win.text, g.lose.text, {c.name: c.formula.text for c in g.win_when},
            {c.name: c.formula.text for c in g.lose_when})


def errors(spec: str, with_rules=(), sets=()) -> list[str]:
    with pytest.raises(CompileError) as info:
        compile_variant(spec, tuple(with_rules), tuple(sets))
    return [str(d) for d in info.value.diagnostics]


def test_standard_names_its_ordinary_ends_target():
    win, lose, wins, loses = ends("standard")
    assert (win, lose) == ("score >= target", "score <= -target")
    assert wins == {"target": "score >= target"} and loses == {"target": "score <= -target"}


def test_a_house_rule_adds_one_condition():
    win, _, wins, _ = ends("standard", ("boston-wins",))
    assert win == "score >= target or swept"
    assert list(wins) == ["target", "sweep"]


def test_a_house_rule_replaces_one_condition_and_keeps_the_others(tmp_path):
    to_8 = rule(tmp_path, "to-8-sweeps", "  win:\n    target: score >= 8\n")
    for order in (("boston-wins", to_8), (to_8, "boston-wins")):
        win, lose, wins, _ = ends("standard", order)
        assert wins == {"target": "score >= 8", "sweep": "swept"}
        assert win == "score >= 8 or swept" and lose == "score <= -target"


def test_null_removes_one_condition(tmp_path):
    no_sweep = rule(tmp_path, "no-sweep", "  win:\n    sweep: ~\n")
    no_minus = rule(tmp_path, "no-minus", "  lose:\n    target: ~\n")
    win, lose, wins, loses = ends("standard", ("boston-wins", "two-sets", no_sweep, no_minus))
    assert win == "score >= target" and list(wins) == ["target"]
    assert lose == "sets >= 3" and list(loses) == ["sets"]
    # Every losing condition removed: nobody loses but by another's win.
    assert ends("standard", (no_minus,))[1] == "false"


def test_ten_hands_replaces_only_the_ordinary_end():
    for order in (("ten-hands", "boston-wins", "two-sets", "seven-set-loses"),
                  ("boston-wins", "two-sets", "seven-set-loses", "ten-hands")):
        win, lose, wins, loses = ends("standard", order)
        assert win == "played >= 10 and score > opponent_score or swept"
        # ten-hands' `target: false` adds nothing beside the other ways to lose.
        assert lose == "sets >= 3 or last_declarer and last_bid == 7 and not last_made"
        assert loses == {"target": "false", "sets": "sets >= 3",
                         "set-on-seven": "last_declarer and last_bid == 7 and not last_made"}


def test_ten_hands_with_a_sweep_wins_before_ten_hands_in_either_order():
    for order in (("ten-hands", "boston-wins"), ("boston-wins", "ten-hands")):
        rules = load_ruleset("standard", order)
        env = {name: 0 for name in GAME_VARIABLES} | {"played": 3, "target": 7}
        assert rules.game_end.win(env | {"swept": True})
        assert not rules.game_end.win(env | {"score": 12})       # +7 no longer ends the game
        assert rules.game_end.win(env | {"played": 10, "score": 4, "opponent_score": 2})
        assert not rules.game_end.lose(env | {"score": -12})


def test_a_plain_formula_over_named_conditions_replaces_them_all(tmp_path):
    only_sweeps = rule(tmp_path, "only-sweeps", "  win: swept\n")
    win, _, wins, _ = ends("standard", ("boston-wins", only_sweeps))
    assert win == "swept" and wins == {"target": "swept"}


def test_base_in_a_plain_formula_over_named_conditions_is_their_or(tmp_path):
    long_game = rule(tmp_path, "long-game", "  win: base or played >= 20\n")
    win, _, wins, _ = ends("standard", ("boston-wins", long_game))
    assert win == "score >= target or swept or played >= 20"
    assert list(wins) == ["target"]  # one plain formula again


def test_named_conditions_over_a_plain_formula_keep_it_as_target():
    # hawaii's win is one plain formula: boston-wins adds beside it, ten-hands replaces it.
    hawaii_win = ends("hawaii")[0]
    win, _, wins, _ = ends("hawaii", ("boston-wins",))
    assert wins == {"target": hawaii_win, "sweep": "swept"}
    assert win == f"{hawaii_win} or swept"
    assert ends("hawaii", ("ten-hands",))[2] == {"target": "played >= 10 and score > opponent_score"}


def test_a_plain_formula_that_builds_on_base_keeps_its_layers_under_named_conditions(tmp_path):
    # A user's old-style rule `win: base or played >= 20` becomes the condition target,
    # still built on standard's; boston-wins then adds beside it, in either order.
    long_game = rule(tmp_path, "long-game", "  win: base or played >= 20\n")
    win, _, wins, _ = ends("standard", (long_game, "boston-wins"))
    assert wins == {"target": "score >= target or played >= 20", "sweep": "swept"}
    assert win == "score >= target or played >= 20 or swept"


def test_set_adds_one_condition():
    win, _, wins, _ = ends("standard", (), ("game.win.sweep=swept",))
    assert win == "score >= target or swept" and list(wins) == ["target", "sweep"]


def test_removing_a_condition_no_layer_has_is_a_positioned_error(tmp_path):
    typo = rule(tmp_path, "typo", "  win:\n    swep: ~\n")
    [message] = errors("standard", ("boston-wins", typo))
    assert message.startswith(f"{typo}:5:")
    assert "cannot remove the condition 'swep'" in message and "did you mean 'sweep'?" in message


def test_base_in_a_named_condition_is_a_positioned_error(tmp_path):
    bad = rule(tmp_path, "bad", "  win:\n    sweep: base or swept\n")
    [message] = errors("standard", (bad,))
    assert message.startswith(f"{bad}:5:12:") and "cannot say `base`" in message


def test_a_misspelt_name_in_a_condition_is_positioned(tmp_path):
    bad = rule(tmp_path, "bad", "  lose:\n    sets: sets >= 3\n    late: playd >= 30\n")
    [message] = errors("standard", (bad,))
    assert message.startswith(f"{bad}:6:11:") and "playd" in message


def test_removing_every_way_to_win_is_an_error(tmp_path):
    none = rule(tmp_path, "none", "  win:\n    target: ~\n  lose:\n    target: ~\n")
    [message] = errors("standard", (none,))
    assert "no side could ever win" in message
    # with a losing condition left the game still ends: the side left standing wins
    lose_only = rule(tmp_path, "lose-only", "  win:\n    target: ~\n")
    assert compile_variant("standard", (lose_only,), ()).game.win.text == "false"


def test_the_whist_syntax_writes_named_conditions(tmp_path):
    path = tmp_path / "sweeps.whist"
    path.write_text("house-rule sweeps\ngame {\n  win { target = score >= 9; sweep = swept }\n"
                    "  lose { remove target }\n}\n", encoding="utf-8")
    win, lose, wins, _ = ends("standard", (str(path),))
    assert wins == {"target": "score >= 9", "sweep": "swept"} and win == "score >= 9 or swept"
    assert lose == "false"


def test_set_twice_in_a_row_counts_a_sides_own_contracts_one_after_another(tmp_path):
    """`sets_in_a_row` (rules.md has no such rule; real tables say "set twice in a row loses"): the
    side's contracts set one after another; a hand the other side declares, or thrown in, does
    not break the row, a contract it makes does. Was: no name said it (only `sets`, in the game)."""
    from types import SimpleNamespace

    from runtime.game import GameTally

    rules = load_ruleset("standard", (rule(tmp_path, "row", "  lose:\n    row: sets_in_a_row >= 2\n"),))
    bid = next(i for i, b in enumerate(rules.bids) if b.level == 3)

    def hand(declarer: int, made: bool | None, score: tuple[int, int]):
        return SimpleNamespace(declarer=declarer, made=made, score=list(score), bid=bid, dealer=3,
                               books=[6, 7] if declarer >= 0 else [], calls=[])

    tally = GameTally(rules)
    for h in (hand(0, False, (-3, 0)), hand(1, True, (0, 1)), hand(-1, None, (0, 0))):
        tally.add_hand(h)
        assert tally.winner is None
    assert tally.sets_in_a_row == [1, 0]
    # Side 0 set again: twice in a row, it loses (side 1 wins), though its score is only -6.
    assert tally.winner_if(hand(0, False, (-3, 0))) == 1
    # A contract it makes in between ends the row.
    tally.add_hand(hand(0, True, (1, 0)))
    tally.add_hand(hand(0, False, (-3, 0)))
    assert tally.winner is None and tally.sets_in_a_row == [1, 0] and tally.sets == [2, 0]


def test_may_end_memo_tells_apart_positions_of_different_games_won(tmp_path):
    """GameView.may_end shares its answers between views of one ruleset, keyed by the counts
    the end test reads: games won too. Was: the key dropped `games` once `sets_in_a_row` joined
    view.key, so a position after a won game of the rubber got the answer of one before it."""
    from runtime.game import GameTally, GameView

    rules = load_ruleset("standard", (rule(tmp_path, "rub", "  rubber: 3\n  win:\n    second: games >= 1 and score >= 3\n"),))
    before, after = GameTally(rules), GameTally(rules)
    after.games_won = [1, 0]
    assert GameView(before).may_end([3, 0], [3, 0]) is False
    assert GameView(after).may_end([3, 0], [3, 0]) is True
