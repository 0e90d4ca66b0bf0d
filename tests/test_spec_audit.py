"""Findings of a close reading of rules.md against what ships, one test per finding.

Each test quotes the spec line that decides it.  The hand-by-hand agreement of the
engine with a second reading of the spec is ``tests/test_spec_oracle.py``; the rules
one by one on hand-made deals are ``test_rules_standard.py``, ``test_rules_variants.py``
and ``test_real_table_rules.py``.
"""

from __future__ import annotations

import pytest

from bidcompiler.errors import CompileError
from bidcompiler.pipeline import compile_file, load_ruleset
from runtime.game import GameState
from tests.clirun import run


# ============================================================================ the first dealer
def test_the_first_dealer_is_a_default_a_user_can_change(tmp_path):
    """rules.md, preamble: "Every decision below is a default of a shipped variant file, never
    a constant in the engine: a user must be able to change each one in data", and §1
    "First dealer random" — so a variant may name the seat that deals first instead."""
    fixed = tmp_path / "fixed.yaml"
    fixed.write_text("name: fixed\nextends: standard\ndeal:\n  first_dealer: 2\n")
    rules = load_ruleset(str(fixed))
    assert {GameState(rules, seed).hand.dealer for seed in range(30)} == {2}
    # standard itself still draws it: every seat deals first in some game.
    standard = load_ruleset("standard")
    assert {GameState(standard, seed).hand.dealer for seed in range(30)} == {0, 1, 2, 3}
    # The rest of the game is as ever: the deal passes to the left.
    game = GameState(rules, 5)
    while len(game.history) < 2:
        game.apply_action(game.legal_actions()[0])
    assert [h.dealer for h in game.history] == [2, 3]

    result = run("rules", str(fixed))
    assert result.exit_code == 0
    assert "Seat 2 deals the first hand; the deal passes to the left after each hand." in result.output
    assert "The first dealer is chosen at random" in run("rules", "standard").output
    diff = run("diff", "standard", str(fixed))
    assert "first dealer: random -> 2" in diff.output


def test_the_first_dealer_in_whist_syntax_and_a_seat_that_does_not_exist(tmp_path):
    """A seat number in either syntax; a seat past the players is a positioned error."""
    whist = tmp_path / "fixed.whist"
    whist.write_text("variant fixed\nextends standard\ndeal { first_dealer 1 }\n")
    assert compile_file(whist).deal.first_dealer == 1
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\nextends: two-handed\ndeal:\n  first_dealer: 2\n")
    with pytest.raises(CompileError) as info:
        compile_file(bad)
    message = str(info.value)
    assert "bad.yaml:4:17" in message and "seat 2 does not exist: the seats are 0 to 1" in message
    result = run("rules", str(bad))
    assert result.exit_code == 1 and "first_dealer" in result.output
