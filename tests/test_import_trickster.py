"""``bidwhist import``: Trickster Cards PTN hands become records that replay to the tricks the PTN shows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bidcompiler.pipeline import load_ruleset
from bidcompiler.resources import shipped_house_rules, shipped_variants
from bidcompiler.trickster_options import map_options, parse_table, shipped_table
from runtime.trickster import PtnError, hand_to_record, read_ptn
from clirun import run

DATA = Path(__file__).parent / "data" / "trickster"
SEATS = "SWNE"
OPTIONS = "2 Jokers, 6-card kitty, min bid 3, bidder gets kitty & leads, 2x for NT, defensive scoring"


def ptn_tricks(text: str) -> list[list[str]]:
    """The Play lines of a one-hand PTN text as written (fixed seat order from the first leader)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("[Play"))
    return [line.split() for line in lines[start + 1:] if line.strip() and not line.startswith("[")]


def as_record_card(token: str) -> str:
    return {"JH": "BJ", "JL": "LJ"}.get(token, token[1:] + token[0])


def import_to(tmp_path, name: str, *args: str):
    out = tmp_path / (Path(name).stem + ".json")
    result = run("import", str(DATA / name) if "/" not in name else name, "-o", str(out), *args)
    return result, out


# --------------------------------------------------------------------------- real-format hands
@pytest.mark.parametrize("name", ["suit-contract.ptn", "notrump-downtown.ptn"])
def test_an_imported_hand_replays_to_the_tricks_its_play_shows(tmp_path, name):
    result, out = import_to(tmp_path, name)
    assert result.exit_code == 0, result.stderr
    record = json.loads(out.read_text())
    assert record["variant"] == "standard" and record["with"] == ["defenders-score"]
    assert "in_progress" not in record
    replay = run("replay", str(out), "--json")
    assert replay.exit_code == 0, replay.stdout
    tricks = json.loads(replay.stdout)["tricks"]
    text = (DATA / name).read_text()
    first = SEATS.index(text.split('[Play "')[1][0])
    lines = ptn_tricks(text)
    assert len(tricks) == len(lines) == 12
    for trick, line in zip(tricks, lines):
        # Each PTN line lists the cards under their seats from the first leader; the
        # replay's trick is in order of play from its leader: the same cards, seat by seat.
        by_seat = {(first + col) % 4: as_record_card(tok) for col, tok in enumerate(line)}
        assert trick["cards"] == [by_seat[(trick["leader"] + k) % 4] for k in range(4)]
    # Each trick after the first is led by the winner of the one before.
    assert all(b["leader"] == a["winner"] for a, b in zip(tricks, tricks[1:]))


def test_the_suit_contract_books_and_score(tmp_path):
    _, out = import_to(tmp_path, "suit-contract.ptn")
    record = json.loads(out.read_text())
    assert record["dealer"] == 3  # Deal "E:…": E is seat 3
    assert record["auction"] == ["pass", "pass", "pass", "3 uptown"]
    assert record["declare"] == {"trump": "D"}
    assert sorted(record["discard"]) == sorted(["QS", "JS", "3S", "2S", "TC", "2C"])
    assert sorted(record["kitty"]) == sorted(["QS", "JS", "6H", "2H", "TC", "BJ"])
    assert "LJ" in record["hands"][3]  # the fifth group of E's hand: the little joker
    result = json.loads(run("replay", str(out), "--json").stdout)
    assert result["contract"]["declarer"] == 3 and result["contract"]["trump"] == "D"
    assert result["books"] == [3, 10]
    assert result["score"] == [0, 4]  # 3 over the bid of 3; the defenders took no book over six


def test_notrump_downtown_declares_the_direction(tmp_path):
    _, out = import_to(tmp_path, "notrump-downtown.ptn")
    record = json.loads(out.read_text())
    assert record["auction"] == ["3 downtown", "pass", "3 notrump", "pass"]
    assert record["declare"] == {"trump": None, "direction": "downtown"}
    result = json.loads(run("replay", str(out), "--json").stdout)
    assert result["books"] == [13, 0] and result["score"] == [14, 0]  # 7 over, doubled in notrump


def test_several_hands_of_one_game_make_a_game_record(tmp_path):
    out = tmp_path / "game.jsonl"
    result = run("import", str(DATA / "game.ptn"), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert "3 hands as a game record" in result.stderr
    replay = json.loads(run("replay", str(out), "--json").stdout)
    assert replay["error"] is None
    assert replay["totals"] == [6, 11] and replay["winner"] == 1


def test_one_hand_written_as_jsonl_is_said_to_be_a_game_record(tmp_path):
    """records.md: a file named .jsonl is a game record even of one line, so the import says so
    (it said "as a hand record", and replay then read a game of one hand)."""
    lone = tmp_path / "lone.json"
    assert "1 hand as a hand record" in run("import", str(DATA / "suit-contract.ptn"), "-o", str(lone)).stderr
    out = tmp_path / "one.jsonl"
    result = run("import", str(DATA / "suit-contract.ptn"), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert "1 hand as a game record of one hand" in result.stderr
    assert "totals" in json.loads(run("replay", str(out), "--json").stdout)
    assert "totals" not in json.loads(run("replay", str(lone), "--json").stdout)


def test_hands_that_are_not_one_game_are_said_to_be_independent(tmp_path):
    text = (DATA / "suit-contract.ptn").read_text() + "\n" + (DATA / "suit-contract.ptn").read_text()
    src = tmp_path / "twice.ptn"
    src.write_text(text)
    out = tmp_path / "twice.jsonl"
    result = run("import", str(src), "-o", str(out))
    assert result.exit_code == 0
    assert "not one game" in result.stderr and f"bidwhist replay --each {out}" in result.stderr
    assert len(out.read_text().splitlines()) == 2
    each = json.loads(run("replay", "--each", str(out), "--json").stdout)
    assert each["illegal"] == []


def test_analyze_runs_on_an_imported_hand(tmp_path):
    _, out = import_to(tmp_path, "suit-contract.ptn")
    result = run("analyze", str(out), "--json")
    assert result.exit_code == 0, result.stderr
    analysis = json.loads(result.stdout)
    assert analysis["error"] is None
    assert analysis["books"] == [3, 10] and analysis["declaring_side"] == 1
    positions = analysis["positions"]
    assert len(positions) >= 12  # one position before each trick at least, and the end
    # The double-dummy count of the declarers at the start: where tricks were lost shows as changes.
    assert positions[0]["dd_declaring_books"] + positions[0]["dd_defending_books"] == 13


def test_stdout_and_json_summary():
    result = run("import", str(DATA / "suit-contract.ptn"))
    assert result.exit_code == 0
    assert json.loads(result.stdout)["format"] == "bidwhist-hand/1"
    summary = json.loads(run("import", str(DATA / "game.ptn"), "--json").stdout)
    assert summary["game"] is True and len(summary["records"]) == 3 and summary["in_progress"] == []
    assert summary["rules"][0] == {"variant": "standard", "with": ["defenders-score"], "ignored": [], "assumed": []}


# --------------------------------------------------------------------------- a hand stopped early
def test_a_truncated_hand_imports_as_in_progress(tmp_path):
    lines = (DATA / "suit-contract.ptn").read_text().splitlines()
    src = tmp_path / "stopped.ptn"
    # Three tricks, then the lead of the fourth: S won the third (DA), so S's column leads.
    src.write_text("\n".join(lines[:14]) + "\n- SA - -\n")
    result = run("import", str(src))
    assert result.exit_code == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["in_progress"] is True
    assert record["play"] == ["BJ", "6D", "7D", "3D", "LJ", "9D", "8D", "TD", "2D", "AD", "3H", "KD", "AS"]
    assert "imported as in progress" in result.stderr
    # records.md: replay reports the hand so far, the fourth trick unfinished, no score.
    out = tmp_path / "stopped.json"
    out.write_text(result.stdout)
    replayed = run("replay", str(out), "--json")
    assert replayed.exit_code == 0, replayed.stdout + replayed.stderr
    report = json.loads(replayed.stdout)
    assert report["in_progress"] is True and report["score"] is None
    assert len(report["tricks"]) == 4 and report["tricks"][-1] == {"leader": 0, "cards": ["AS"], "winner": None}
    analysed = run("analyze", str(out), "--json")
    assert analysed.exit_code == 0, analysed.stdout + analysed.stderr


def test_a_hand_stopped_in_the_auction_is_in_progress(tmp_path):
    text = (DATA / "suit-contract.ptn").read_text().split("[Declarer")[0].replace("Pass Pass Pass 3↑", "Pass Pass")
    src = tmp_path / "auction.ptn"
    src.write_text(text)
    record = json.loads(run("import", str(src)).stdout)
    assert record["in_progress"] is True and record["auction"] == ["pass", "pass"]
    assert "declare" not in record and "play" not in record
    out = tmp_path / "auction.json"
    out.write_text(json.dumps(record))
    report = json.loads(run("replay", str(out), "--json").stdout)
    assert report["in_progress"] is True and report["contract"] is None and report["score"] is None


# --------------------------------------------------------------------------- options
def test_the_issue_options_are_standard_with_defenders_score():
    mapped = map_options([p.strip() for p in OPTIONS.split(",")])
    assert (mapped.variant, mapped.with_rules, mapped.unknown) == ("standard", ["defenders-score"], [])
    assert map_options(["2 JOKERS", "min  bid 4", "1x for NT"]).with_rules == ["min-bid-4", "plain-notrump"]


def test_every_rule_the_table_names_is_shipped_and_composes():
    table = shipped_table()
    rules = {r for o in table.options.values() for r in o.with_rules}
    assert table.variant in shipped_variants() and rules <= set(shipped_house_rules())
    for rule in rules:
        load_ruleset(table.variant, (rule,))


def test_a_bad_table_is_refused_by_name():
    with pytest.raises(ValueError, match="listed twice"):
        parse_table("variant: v\noptions:\n  - phrase: a\n  - phrase: A\n")
    with pytest.raises(ValueError, match="unknown key"):
        parse_table("variant: v\noptions:\n  - {phrase: a, rule: x}\n")


def _with_options(tmp_path, options: str) -> Path:
    src = tmp_path / "opts.ptn"
    src.write_text((DATA / "suit-contract.ptn").read_text().replace(OPTIONS, options))
    return src


def test_an_unknown_option_stops_the_import_and_is_named(tmp_path):
    src = _with_options(tmp_path, OPTIONS + ", nello bids")
    result = run("import", str(src))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert f"{src}:2:" in result.stderr and "'nello bids'" in result.stderr and "--nearest" in result.stderr


def test_nearest_imports_under_the_known_options_and_says_what_was_ignored(tmp_path):
    src = _with_options(tmp_path, OPTIONS + ", nello bids")
    result = run("import", str(src), "--nearest")
    assert result.exit_code == 0
    assert "ignored game option 'nello bids'; imported under standard+defenders-score" in result.stderr
    record = json.loads(result.stdout)
    assert record["with"] == ["defenders-score"]


def test_options_choose_the_house_rules_the_record_names(tmp_path):
    # Without defensive scoring the same hand is plain standard; the score shows the difference
    # nowhere here (the defenders took 3 books), but the record's rules do.
    src = _with_options(tmp_path, "2 Jokers, 6-card kitty, min bid 3, bidder gets kitty & leads, 2x for NT")
    record = json.loads(run("import", str(src)).stdout)
    assert (record["variant"], record["with"]) == ("standard", [])


_JSON_HAND = '[Event "x"]\n[GameOptionsJson "{\\"bidderLeads\\":true,\\"gameOverScore\\":7}"]\n'


def test_game_options_json_keys_are_read_as_key_value_phrases():
    [(_, _, phrases, _)] = read_ptn(_JSON_HAND)[0].option_sources()
    assert phrases == ["bidderLeads=true", "gameOverScore=7"]


def test_game_options_json_is_placed_at_its_tags_line():
    [(name, line, _, is_json)] = read_ptn(_JSON_HAND)[0].option_sources()
    assert (name, line, is_json) == ("GameOptionsJson", 2, True)


def test_a_game_options_json_key_the_table_does_not_hold_is_unknown():
    assert map_options(["bidderLeads=true", "gameOverScore=7"]).unknown == ["gameOverScore=7"]


# --------------------------------------------------------------------------- malformed
def _broken(tmp_path, old: str, new: str) -> Path:
    src = tmp_path / "broken.ptn"
    text = (DATA / "suit-contract.ptn").read_text()
    assert old in text
    src.write_text(text.replace(old, new, 1))
    return src


@pytest.mark.parametrize("old, new, line, words", [
    ('[Deal "E:', '[Deal "X:', 3, "not a seat"),
    ("32.AK4.QJ542.2.L", "32.AK4.QJ542.2.Z", 3, "jokers' group"),
    ("32.AK4.QJ542.2.L", "32.AK4.QJ542..L", 3, "seat 3 has 11 cards"),
    ("Pass Pass Pass 3↑", "Pass Pass 3♠↑ 4↑", 6, "only the winning bid may name its trump"),
    ("Pass Pass Pass 3↑", "Pass Pass Pass 9↑", 6, "not a call of these rules"),
    ("Pass Pass Pass 3↑", "Pass Pass Pass ٣↑", 6, "written with the digits 0-9"),  # was read as 3↑
    ('[Declarer "E"]', '[Declarer "W"]', 7, "auction was won by E (seat 3)"),
    ('[Contract "3♦↑"]', '[Contract "3♦↓"]', 8, "contract plays uptown"),
    ('[Play "E"]', '[Play "S"]', 11, "E (seat 3) leads it"),
    ("JL D9 D8 DT", "JL D9 D8 DX", 13, "'DX' is not a card"),
    ("JL D9 D8 DT", "JL D9 DT D8", 13, "does not hold"),
    ("JL D9 D8 DT", "JL D9 D8", 13, "one per seat from E"),
    ('[CardsRemoved "E:QJ32...T2."]', '[CardsRemoved "E:QJ3...T2."]', 10, "must discard 6 cards"),
    ("[Undealt", "Undealt", 4, "Deal takes no lines"),
    ('[Undealt "QJ.62..T.H"]', '[Undealt "QJ.62..T."]', 4, "kitty has 5 cards"),
])
def test_a_malformed_ptn_gets_one_positioned_message(tmp_path, old, new, line, words):
    src = _broken(tmp_path, old, new)
    result = run("import", str(src))
    assert result.exit_code == 1, result.stderr
    assert result.stdout == ""
    message = result.stderr.strip()
    assert len(message.splitlines()) == 1
    assert message.startswith(f"{src}:{line}: "), message
    assert words in message


def test_the_kitty_comes_from_cards_added_without_undealt(tmp_path):
    src = _broken(tmp_path, '[Undealt "QJ.62..T.H"]', "")
    record = json.loads(run("import", str(src)).stdout)
    assert sorted(record["kitty"]) == sorted(["QS", "JS", "6H", "2H", "TC", "BJ"])


def test_the_leader_of_a_stopped_trick_must_be_the_last_winner(tmp_path):
    lines = (DATA / "suit-contract.ptn").read_text().splitlines()
    src = tmp_path / "stopped.ptn"
    src.write_text("\n".join(lines[:14]) + "\nD4 - - -\n")  # E's card, but S won trick 3 and leads
    result = run("import", str(src))
    assert result.exit_code == 1
    assert ":15: E (seat 3) plays D4 after a seat that has not played; S (seat 0) leads this trick" in result.stderr


def test_a_trick_read_in_play_order_instead_of_seat_order_is_refused(tmp_path):
    # Trick 3 is led by N (the winner of trick 2); written in play order from N rather than
    # under the seats from E, the cards fall to the wrong seats.
    src = _broken(tmp_path, "D2 DA H3 DK", "DA H3 DK D2")
    result = run("import", str(src))
    assert result.exit_code == 1
    assert ":14: " in result.stderr and "holds it" in result.stderr


def test_the_real_bid_euchre_example_reads_but_is_not_a_bid_whist_deal(tmp_path):
    hands = read_ptn((DATA / "bid-euchre-bid-nt.ptn").read_text())
    assert [h.get("Event").value for h in hands] == ["Bid NT", "Bid NT↑", "Bid NT↓"]
    assert hands[1].get("Auction").data == [(12, "6 Pass Pass Pass"), (13, "6NT↑ - - -")]
    assert hands[0].option_sources()[0][2][:2] == ["gameOverScore=30", "variation=1"]
    with pytest.raises(PtnError, match="not shown"):
        hand_to_record(hands[0], load_ruleset("standard"), "standard", [])
    result = run("import", str(DATA / "bid-euchre-bid-nt.ptn"), "--nearest")
    assert result.exit_code == 1 and "not shown ('-')" in result.stderr


def test_unreadable_file_and_bad_usage():
    assert run("import", "/nonexistent/x.ptn").exit_code == 2
    assert run("import").exit_code == 2
    assert run("import", str(DATA / "game.ptn"), "--bogus").exit_code == 2


def test_an_empty_file_is_not_ptn(tmp_path):
    src = tmp_path / "empty.ptn"
    src.write_text("% nothing here\n")
    result = run("import", str(src))
    assert result.exit_code == 1 and "no PTN tags" in result.stderr


def test_a_tag_of_a_megabyte_is_read_in_bounded_memory():
    # Was: the tag's pattern kept a backtracking point per character: 192 MB of memory to read a
    # tag of 1 MB, and a 15 MB tag (within the 16 MiB limit) ended in MemoryError (status 70).
    import tracemalloc

    from runtime.trickster import read_ptn

    text = '[Deal "N:' + "A" * 1_000_000 + '"]\n'
    tracemalloc.start()
    try:
        hands = read_ptn(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(hands[0].tags["deal"].value) == 1_000_002
    assert peak < 8 * len(text)  # the value and its unescaped copy, not a record per character


def test_a_short_last_trick_line_from_the_first_leader_is_a_hand_in_progress(tmp_path):
    # Was refused ("a trick line holds 4 cards"). E (the Play's first leader) won trick 4 and
    # leads trick 5: the two cards under E and S are the first two played.
    lines = (DATA / "suit-contract.ptn").read_text().splitlines()
    src = tmp_path / "short.ptn"
    src.write_text("\n".join(lines[:15]) + "\nHA H5\n")
    result = run("import", str(src))
    assert result.exit_code == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["in_progress"] is True
    assert record["play"][-6:] == ["AS", "4S", "6S", "4D", "AH", "5H"]  # trick 4 from S, E ruffs
    dashed = tmp_path / "dashed.ptn"
    dashed.write_text("\n".join(lines[:15]) + "\nHA H5 - -\n")
    assert json.loads(run("import", str(dashed)).stdout) == record


def test_a_short_last_trick_line_from_another_leader_is_refused_saying_what_to_write(tmp_path):
    # S won trick 3 and leads trick 4: the cards under E and S are not the first two played.
    lines = (DATA / "suit-contract.ptn").read_text().splitlines()
    src = tmp_path / "short.ptn"
    src.write_text("\n".join(lines[:14]) + "\nD4 SA\n")
    result = run("import", str(src))
    assert result.exit_code == 1 and result.stdout == ""
    assert (f"{src}:15: a trick line holds 4 cards, one per seat from E (E S W N); found 2: this trick is led "
            "by S (seat 0), so the seats that played these cards cannot be known; write '-' under each seat "
            "that has not played") in result.stderr
