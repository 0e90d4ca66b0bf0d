"""``bidwhist import`` on a third real export's format (TricksterBots issue 303, 2025).

``data/trickster/real-format-notrump-downtown.ptn`` is that hand with its suits permuted
(S↔H, D↔C), its dates and the players' names changed (tests/data/trickster/README.md).  It
shows what issues 241 and 327 did not: bids of a level and a direction only on both sides
(``3↑ 3↓``) before a notrump bid with its direction (``3NT↓``), "low beats high" written
before "bidder gets kitty & leads" in the Event, and a hand that stops once the kitty is
taken (CardsAdded, then no CardsRemoved and no Play).  Its CardsAdded names the declarer's
seat; a seat other than the kitty's taker was dropped unread, and is now refused.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bidcompiler.pipeline import load_ruleset
from clirun import run
from runtime.trickster import PtnError, hand_to_record, read_ptn

DATA = Path(__file__).parent / "data" / "trickster"
NT_DOWN = DATA / "real-format-notrump-downtown.ptn"  # issue 303's hand, permuted
JOKERS = DATA / "real-format-jokers.ptn"  # issue 327's hand, permuted


def _import(tmp_path, text: str):
    src = tmp_path / "hand.ptn"
    src.write_bytes(text.encode("utf-8"))
    return src, run("import", str(src))


def test_the_issue_303_hand_imports_as_its_export_shows(tmp_path):
    result = run("import", str(NT_DOWN))
    assert result.exit_code == 0, result.stderr
    assert "hand 1 stops before its end: imported as in progress" in result.stderr
    record = json.loads(result.stdout)
    assert (record["variant"], record["with"]) == ("standard", ["no-jokers", "low-beats-high", "defenders-score"])
    assert record["dealer"] == 0  # Dealer "S"
    # The Deal's first group is S's (seat 0), then W N E: suits S.H.D.C, no jokers.
    assert record["hands"][0] == ["2S", "8S", "TS", "AS", "TH", "KH", "AH", "4D", "5D", "7D", "JD", "9C"]
    assert record["hands"][3] == ["3S", "JS", "5H", "7H", "2D", "6D", "8D", "2C", "7C", "8C", "JC", "KC"]
    assert record["kitty"] == ["4C", "6H", "5S", "QS"]
    # Auction "W": W bids 3 uptown, N 3 downtown, E passes, S bids 3 notrump and declares downtown.
    assert record["auction"] == ["3 uptown", "3 downtown", "pass", "3 notrump"]
    assert record["declare"] == {"trump": None, "direction": "downtown"}
    assert record["in_progress"] is True and record["play"] == [] and "discard" not in record


def test_its_options_need_no_default_from_the_table():
    summary = json.loads(run("import", "--json", str(NT_DOWN)).stdout)
    # kittySize is in the JSON and "low beats high" in the words: nothing is read as a default.
    assert summary["rules"] == [{"variant": "standard", "with": ["no-jokers", "low-beats-high", "defenders-score"],
                                 "ignored": [], "assumed": []}]
    assert summary["in_progress"] == [0]


def test_it_replays_as_a_notrump_downtown_contract_in_progress(tmp_path):
    out = tmp_path / "nt.json"
    assert run("import", str(NT_DOWN), "-o", str(out)).exit_code == 0
    report = json.loads(run("replay", str(out), "--json").stdout)
    assert report["error"] is None and report["in_progress"] is True and report["score"] is None
    assert report["contract"] == {"declarer": 0, "side": 0, "bid": 3, "strain": "notrump", "trump": None,
                                  "direction": "downtown"}
    text = run("replay", str(out)).stdout
    assert "kitty     4C 6H 5S QS, taken by seat 0" in text


@pytest.mark.parametrize("source, tag, seat, line, named", [
    (NT_DOWN, "CardsAdded", "W", 20, "W (seat 1)"),
    (JOKERS, "CardsRemoved", "e", 21, "E (seat 3)"),  # a seat letter in lower case is read too
])
def test_kitty_cards_naming_another_seat_than_the_taker_are_refused(tmp_path, source, tag, seat, line, named):
    text = source.read_text(encoding="utf-8").replace(f'[{tag} "S:', f'[{tag} "{seat}:')
    src, result = _import(tmp_path, text)
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.strip() == (f"{src}:{line}: {tag} gives the cards of {named}, "
                                     "but the kitty is taken by S (seat 0)")


def test_the_takers_own_seat_or_none_is_read_as_before(tmp_path):
    text = JOKERS.read_text(encoding="utf-8")
    plain = text.replace('[CardsAdded "S:', '[CardsAdded "').replace('[CardsRemoved "S:', '[CardsRemoved "')
    _, named = _import(tmp_path, text)
    _, bare = _import(tmp_path, plain)
    assert named.exit_code == bare.exit_code == 0
    assert json.loads(named.stdout) == json.loads(bare.stdout)
    assert len(json.loads(named.stdout)["discard"]) == 6


def test_under_a_rule_that_gives_the_kitty_to_the_partner_the_partner_s_seat_is_the_one_named():
    """partner-takes-kitty (no Trickster option maps to it, so through the library): the seat
    CardsAdded/CardsRemoved name is checked against the partner, and a discard's mistake names the
    partner, who discards (it named the declarer: "E (seat 3): seat 1 does not hold 3S")."""
    rules = load_ruleset("standard", with_rules=["partner-takes-kitty"])
    text = (DATA / "suit-contract.ptn").read_text()  # E declares 3♦↑ and takes the kitty: W is E's partner
    text = text[:text.index("[Play")].replace('CardsAdded "E:', 'CardsAdded "W:')

    def record(removed: str):
        [hand] = read_ptn(text.replace('CardsRemoved "E:QJ32...T2."', f'CardsRemoved "{removed}"'))
        return hand_to_record(hand, rules, "standard", ["partner-takes-kitty"])

    assert record("w:K754.J3..")["in_progress"] is True  # W's own six cards laid away
    for removed, message in (("E:QJ32...T2.", "CardsRemoved gives the cards of E (seat 3), but the kitty is taken "
                                               "by W (seat 1)"),
                             ("W:K754...", "W (seat 1) must discard 6 cards; CardsRemoved holds 4"),
                             ("W:QJ32...T2.", "W (seat 1): ")):
        try:
            record(removed)
        except PtnError as exc:
            assert str(exc).startswith(f"line 10: {message}"), exc
        else:
            raise AssertionError(f"{removed} was imported")
