"""rules.md §8 and §9 read a twenty-second time: house rules "may be combined", and a rule that
cannot go with a game is refused with one clear error, not one line for each name it touches.

§8's `level-only` and `low-beats-high` rank standard's bids (uptown, downtown, notrump) and §9's
`spades-trump` changes standard's uptown and downtown bids; the games that bid bare numbers
(§2 `northeast52`, §3 `oregon`, §5 `rhode-island`, §6 `hawaii`) have none of those bids, so each of
these pairs is refused (exit 1) with a single message naming what the rule names and what the
game has (docs/rule-combinations.md, "House rules refused on some games").
"""

from __future__ import annotations

import pytest

from tests.clirun import run, stderr_lines, write

BARE_NUMBER_GAMES = ("northeast52", "oregon", "rhode-island", "hawaii")


def _messages(result) -> list[str]:
    """The messages of a refusal: each starts at the line's first column (its "to fix" is indented)."""
    return [line for line in stderr_lines(result) if line and not line[0].isspace()]


@pytest.mark.parametrize("game", BARE_NUMBER_GAMES)
@pytest.mark.parametrize("rule", ("level-only", "low-beats-high"))
def test_a_ranking_of_strains_the_game_lacks_is_one_message(game, rule):
    """§8 level-only / low-beats-high over a §2/§3/§5/§6 game: one message naming the three
    strains the rule ranks, which the game lacks, and the one strain it has and leaves unranked."""
    result = run("rules", game, "--with", rule)
    assert result.exit_code == 1
    messages = _messages(result)
    assert len(messages) == 1, messages
    assert messages[0].startswith(f"shipped '{rule}', line 7: ranking names 'uptown', 'downtown' and 'notrump', "
                                  "which are not strains, and does not place strain 'number'")
    assert f"auction.strains at shipped '{game}'" in messages[0]
    assert "to fix: rank the strains there are ('number') in auction.ranking" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("game", BARE_NUMBER_GAMES)
def test_spades_trump_over_a_bare_number_game_is_one_message(game):
    """§9 spades-trump changes the uptown and downtown bids; over a §2/§3/§5/§6 game, which has
    neither, the two strains it would add are said in one message."""
    result = run("rules", game, "--with", "spades-trump")
    assert result.exit_code == 1
    messages = _messages(result)
    assert messages == ["shipped 'spades-trump', line 12: auction.strains: strains 'uptown' and 'downtown': "
                        "missing required key 'direction'"], messages
    assert ("to fix: the other strains are 'number': to change one of them, use its name; to add strains "
            "'uptown' and 'downtown', give each 'direction'") in result.stderr


def test_a_ranking_that_only_names_a_missing_strain_keeps_its_own_message(tmp_path):
    """A ranking naming one strain that is not there (and leaving none out) is said as before:
    the single name and both ways out."""
    rule = write(tmp_path, "no-nt.yaml", "name: no-nt\nkind: house-rule\nauction:\n  strains:\n"
                                          "    - {name: notrump, remove: true}\nplay: {notrump_extras: ~}\n")
    result = run("rules", "standard", "--with", rule)
    assert result.exit_code == 1
    messages = _messages(result)
    assert len(messages) == 1 and "ranking names 'notrump', which is not a strain (" in messages[0], messages
    assert "to fix: take 'notrump' out of auction.ranking, or add a strain named 'notrump'" in result.stderr


def test_two_strains_left_out_of_a_ranking_are_one_message(tmp_path):
    """A ranking that leaves out two strains (and names none that is missing) says both at once."""
    rule = write(tmp_path, "nt-only.yaml", "name: nt-only\nkind: house-rule\nauction:\n  ranking: [[notrump]]\n")
    result = run("rules", "standard", "--with", rule)
    assert result.exit_code == 1
    messages = _messages(result)
    assert len(messages) == 1 and "ranking does not place strains 'uptown' and 'downtown'" in messages[0], messages
    assert "to fix: add 'uptown' and 'downtown' to auction.ranking" in result.stderr


def test_one_unknown_name_and_one_unplaced_strain_say_a_strain(tmp_path):
    """A ranking naming one strain that is not there and leaving one out: the way out names
    "a strain", as the message for the unknown name alone does (it said "add strain named")."""
    rule = write(tmp_path, "typo.yaml", "name: typo\nkind: house-rule\nauction:\n"
                                        "  ranking: [[uptown, downtown], [foo]]\n")
    result = run("rules", "standard", "--with", rule)
    assert result.exit_code == 1
    messages = _messages(result)
    assert len(messages) == 1 and ("ranking names 'foo', which is not a strain, and does not place strain "
                                   "'notrump'") in messages[0], messages
    assert ("to fix: rank the strains there are ('uptown', 'downtown' and 'notrump') in auction.ranking, "
            "or add a strain named 'foo'") in result.stderr
