"""Card names and their spellings (records.md "Cards"), over every shipped game.

``runtime.notation.parse_card`` looks a card up as written before normalising it (records
hold the canonical spelling almost always): that is right only while every card a variant
names is its own normal form, which the schema's card pattern ensures and this checks.
"""

from __future__ import annotations

import pytest

from bidcompiler.pipeline import load_ruleset, shipped_house_rules, shipped_variants
from runtime.cards import normalise_card_text
from runtime.notation import parse_card

GAMES = sorted(shipped_variants()) + [f"standard+{rule}" for rule in sorted(shipped_house_rules())]


@pytest.mark.parametrize("game", GAMES)
def test_every_card_name_is_its_own_normal_form_and_parses_to_itself(game):
    rules = load_ruleset(game)
    for index, name in enumerate(rules.cards):
        assert normalise_card_text(name) == name, (game, name)
        assert parse_card(rules, name) == index


@pytest.mark.parametrize("text, card", [("as", "AS"), ("10h", "TH"), ("10H", "TH"), ("A♠", "AS"), ("a♠️", "AS"),
                                        (" kd ", "KD"), ("bj", "BJ"), ("Lj", "LJ"), ("TC", "TC")])
def test_other_spellings_still_parse(text, card):
    rules = load_ruleset("standard")
    assert parse_card(rules, text) == rules.cards.index(card)


@pytest.mark.parametrize("text", ["A S", "1H", "ZZ", "", "Aſ", "AS ", 7, None])
def test_what_is_no_card_is_none(text):
    rules = load_ruleset("standard")
    expected = rules.cards.index("AS") if text == "AS " else None  # blanks around a card are forgiven
    assert parse_card(rules, text) == expected
