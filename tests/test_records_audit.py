"""A close reading of records.md against `bidwhist replay`: each test quotes the spec line it proves.

These are the places where the implementation differed from the spec (found by an
audit of records.md statement by statement), each with the line it now follows.
Expected values are worked by hand from the deal in tests/worked_hands.py or are
structural (what a game begun, a path, a field must be), never taken from the engine.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bidcompiler.pipeline import load_ruleset
from clirun import run, script
from runtime.records import hand_record
from runtime.simulate import play_game, play_hand
from worked_hands import write_record as write, NT_RECORD, with_changes

REPO = Path(__file__).resolve().parent.parent


def record(**changes) -> dict:
    """NT_RECORD with ``changes`` (``...`` drops a key)."""
    return with_changes(NT_RECORD, **changes)


def replay_json(path: Path, status: int = 0) -> dict:
    """``bidwhist replay PATH --json``, checking the exit status."""
    result = run("replay", str(path), "--json")
    assert result.exit_code == status, result.stdout + result.stderr
    return json.loads(result.stdout)


def stopped(hand: dict, cards: int) -> dict:
    """``hand`` stopped after ``cards`` cards of play, flagged in progress."""
    return {**hand, "play": hand["play"][:cards], "in_progress": True}


# --------------------------------------------------------------------------- paths in text output
def test_game_record_text_output_finds_paths_relative_to_the_record_folder(tmp_path, monkeypatch):
    """records.md: "a path in a record is relative to the folder of the record file (so a
    record and its house-rule files can be moved or mailed together)".  The JSON output
    did so; the text output of a game record resolved the path from the working folder."""
    folder = tmp_path / "mailed"
    (folder / "rules").mkdir(parents=True)
    (folder / "rules" / "house.yaml").write_text((REPO / "variants" / "to-5.yaml").read_text())
    hand = record(**{"with": ["rules/house.yaml"]})
    game = write(folder / "game.jsonl", [hand])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    out = replay_json(game)
    assert out["error"] is None and out["hands"][0]["score"] == [12, 0]
    result = run("replay", str(game))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "side 0+2 +12" in result.stdout
    # to-5: 12 points reach the target of 5, so the game is won by side 0.
    assert "side 0+2 wins the game" in result.stdout


# --------------------------------------------------------------------------- games begun
@pytest.fixture
def tmp_game(tmp_path):
    """Write a game record and replay it as JSON."""
    def replay(records: list[dict]) -> dict:
        return replay_json(write(tmp_path / "game.jsonl", records))
    return replay


def test_a_game_whose_only_hand_is_in_progress_has_one_game_entry(tmp_game):
    """records.md: "`games` has one entry per game begun in the record" and "A variant
    without rubbers has one entry"; "`winner` is `null` for a game still in progress"."""
    out = tmp_game([stopped(record(), 5)])
    assert out["error"] is None
    assert out["games"] == [{"first_hand": 0, "hands": 1, "totals": [0, 0], "winner": None}]
    assert out["totals"] == [0, 0] and out["winner"] is None
    assert out["hands"][0]["in_progress"] is True and out["hands"][0]["score"] is None


def _rubber_with_a_first_game_won() -> tuple[list[dict], int]:
    """An oregon rubber of at least two games, and the number of hands of its first game."""
    rules = load_ruleset("oregon", ())
    for game in range(40):
        played = play_game(rules, 5, game, "random")
        if len(played.tally.games) >= 2:
            return [hand_record(state, "oregon", []) for state in played.hands], played.tally.games[0].hands
    raise AssertionError("no oregon rubber of two games in 40")


def test_a_hand_in_progress_after_a_won_game_begins_the_next_game(tmp_game):
    """records.md: "`games` has one entry per game begun in the record" and "`totals` are
    the totals of the last game in the record, also when that game has just ended (they
    start again from zero only with the next game's first hand)".  A rubber's next game
    whose first hand is in progress has begun: its entry is there, from zero, undecided."""
    hands, first = _rubber_with_a_first_game_won()
    done = tmp_game(hands[:first])
    assert len(done["games"]) == 1 and done["games"][0]["winner"] is not None
    out = tmp_game(hands[:first] + [stopped(hands[first], 1)])
    assert out["error"] is None
    assert out["games"][0] == done["games"][0]
    assert out["games"][1] == {"first_hand": first, "hands": 1, "totals": [0, 0], "winner": None}
    assert out["totals"] == [0, 0] and out["winner"] is None
    assert len(out["hands"]) == first + 1


def test_a_hand_in_progress_counts_among_its_games_hands(tmp_game):
    """records.md: a game's entry is `{"first_hand": 0, "hands": 5, ...}`: the hands of the
    record in that game, the one in progress (the last hand of the record) included, so
    the entries share out every hand of `hands`."""
    hands, first = _rubber_with_a_first_game_won()
    assert first >= 2
    finished = tmp_game(hands[:first - 1])
    out = tmp_game(hands[:first - 1] + [stopped(hands[first - 1], 1)])
    assert out["games"] == [{**finished["games"][0], "hands": first}]
    assert out["totals"] == finished["totals"]
    assert sum(g["hands"] for g in out["games"]) == len(out["hands"])


def test_the_text_says_the_next_game_is_under_way(tmp_path):
    """records.md: "The text output says the same in words": the rubber's standing, a game under way."""
    hands, first = _rubber_with_a_first_game_won()
    path = write(tmp_path / "game.jsonl", hands[:first] + [stopped(hands[first], 1)])
    result = run("replay", str(path))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "rubber in progress: game 2 under way, 1 won so far" in result.stdout


# --------------------------------------------------------------------------- books in progress
@pytest.mark.parametrize("laid, books", [(0, [0, 0]), (3, [0, 0]), (5, [0, 0]), (6, [1, 0])])
def test_books_of_a_hand_stopped_in_the_discard(tmp_path, laid, books):
    """records.md: "`books` are the tricks so far" of a hand in progress.  The declarer who
    has laid away only some of the six cards has made no book of them yet; once all six
    are laid away they are side 0's book (NT_RECORD: seat 0 declares, no trick played)."""
    hand = record(discard=NT_RECORD["discard"][:laid], play=..., in_progress=True)
    out = replay_json(write(tmp_path / "hand.json", hand))
    assert out["error"] is None and out["in_progress"] is True
    assert out["books"] == books and out["score"] is None and out["tricks"] == []
    text = run("replay", str(tmp_path / "hand.json"))
    assert f"side 0+2 {books[0]} (declarers)   side 1+3 0 so far" in text.stdout


# --------------------------------------------------------------------------- with[i]
@pytest.mark.parametrize("with_rules, at", [
    (["no-such-rule"], "with[0]"),
    (["renege-penalty", "no-such-rule"], "with[1]"),
    ([""], "with[0]"),
    (["to-5", "no-such-rule", "to-9"], "with[1]"),
    (["no-kitty", "kitty-first"], "with[1]"),   # does not fit the rule before it (no kitty to take first)
])
def test_a_house_rule_that_cannot_be_used_is_named_as_with_i(tmp_path, with_rules, at):
    """records.md names the entries of `with` as `with[i]` ("at `variant` or `with[i]`"):
    an unknown house rule, or one that does not fit the variant and the rules before it,
    is the i-th entry's fault (it was reported as `with`)."""
    out = replay_json(write(tmp_path / "hand.json", record(**{"with": with_rules})), status=1)
    assert out["error"]["at"] == at
    assert out["score"] is None


def test_with_that_is_not_a_list_is_still_at_with(tmp_path):
    """The whole field is wrong, not one entry: `at` is `with`."""
    out = replay_json(write(tmp_path / "hand.json", record(**{"with": "renege-penalty"})), status=1)
    assert out["error"]["at"] == "with"


def test_the_installed_script_reports_with_i(tmp_path):
    """The same through the installed `bidwhist` script: status 1, the entry named."""
    path = write(tmp_path / "hand.json", record(**{"with": ["to-5", "nope"]}))
    proc = script("replay", str(path))
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"{path}: with[1]: unknown house rule 'nope'")


# --------------------------------------------------------------------------- input spellings
@pytest.mark.parametrize("call", ["4 no trump", "4nt", "4NT", "4 no-trump", "44nt", "4 nt nt", "4♠"])
def test_calls_are_a_level_a_space_and_a_strain_word(tmp_path, call):
    """records.md: "`<n> <strain>` otherwise. Strain names and their aliases come from the
    variant" and "reject what does not fit it with a clear error": no other spelling is read
    (standard's words are `notrump`, `nt`, `no`), at `auction[0]` with status 1."""
    out = replay_json(write(tmp_path / "hand.json", record(auction=[call, "pass", "pass", "pass"])), status=1)
    assert out["error"] == {"at": "auction[0]", "message": f"seat 0: {call!r} is not a call of this variant"}


@pytest.mark.parametrize("call", ["4 NOTRUMP", "4 Nt", "4 no", "  4   notrump ", "4\tNT"])
def test_calls_are_case_insensitive_and_spacing_free(tmp_path, call):
    """records.md: "A call is one string, case-insensitive on input, canonical lower case on output"."""
    out = replay_json(write(tmp_path / "hand.json", record(auction=[call, "PASS", "Pass", " pass"])))
    assert out["contract"]["strain"] == "notrump" and out["score"] == [12, 0]


def test_emoji_suit_symbols_are_the_suit_symbols(tmp_path):
    """records.md: "Suits: `S H D C`. On input also `♠ ♥ ♦ ♣`".  Apps often write the emoji
    form, the symbol followed by a presentation selector (U+FE0F): the same suit."""
    hand = record()
    hand["hands"][0][0] = "A\u2665\ufe0f"   # A♥️
    hand["play"][0] = "a\u2665\ufe0f"
    hand["kitty"][0] = "2\u2660\ufe0e"     # 2♠︎, the text presentation selector
    hand["discard"][2] = "2\u2660\ufe0f"
    out = replay_json(write(tmp_path / "hand.json", hand))
    assert out["tricks"][0]["cards"] == ["AH", "2H", "7H", "4C"]
    assert out["score"] == [12, 0]
    # The selector belongs after its symbol: elsewhere (it was dropped anywhere) the text is no card.
    for odd in ("a\ufe0f\u2665", "\ufe0fah", "ah\ufe0f"):
        hand["play"][0] = odd
        out = replay_json(write(tmp_path / "hand.json", hand), status=1)
        assert out["error"]["at"] == "play[0]" and "not a card of this deck" in out["error"]["message"]


# --------------------------------------------------------------------------- files as apps write them
def test_a_byte_order_mark_is_not_part_of_the_record(tmp_path):
    """records.md: a hand record is a JSON object; a UTF-8 byte order mark (written by some
    editors and apps) before it is not JSON text, and the record is read without it."""
    out = replay_json(write(tmp_path / "hand.json", "\ufeff" + json.dumps(NT_RECORD)))
    assert out["score"] == [12, 0]
    game = replay_json(write(tmp_path / "game.jsonl", "\ufeff" + json.dumps(NT_RECORD) + "\n"))
    assert game["hands"][0]["score"] == [12, 0] and len(game["games"]) == 1
    # Before a later line it is in the JSON text, said in the reader's words (not Python's advice).
    path = write(tmp_path / "game.jsonl", json.dumps(NT_RECORD) + "\n\ufeff" + json.dumps(NT_RECORD) + "\n")
    result = run("replay", str(path), "--json")
    assert result.exit_code == 2 and result.stdout == "" and result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"{path}:2:1: invalid JSON: a byte order mark"), result.stderr
    assert "utf-8-sig" not in result.stderr


@pytest.mark.parametrize("command", ["replay", "analyze"])
def test_a_file_that_is_no_record_is_said_on_one_line_whatever_its_name_holds(tmp_path, command):
    """records.md: "exits with status 2 and one line on stderr saying where"; a FILE whose name
    holds a newline or an ESC (someone else's file, saved under their name) made two lines, and
    sent the ESC to the terminal; an illegal record's line already escaped them."""
    bad = write(tmp_path / "hand\n\x1b[2J.json", '{"format":')
    folder = tmp_path / "folder\n.json"
    folder.mkdir()
    for path in (bad, folder):
        result = run(command, str(path), "--json")
        assert result.exit_code == 2 and result.stdout == "", result.stdout
        assert result.stderr.count("\n") == 1 and "\x1b" not in result.stderr, repr(result.stderr)
        assert "\\n" in result.stderr  # the name, escaped


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_pretty_printed_hand_record_is_replayed_as_the_hand_record_it_is(tmp_path, newline):
    """records.md writes its own hand record over several lines, and also says "a file ...
    that holds more than one line, is a game record".  A file whose first line is no record
    and whose whole text is one JSON value can be no game record (JSON Lines): it is read as
    the hand record it is, with the same result as the record on one line."""
    one_line = replay_json(write(tmp_path / "one.json", NT_RECORD))
    text = json.dumps(NT_RECORD, indent=2).replace("\n", newline)
    path = write(tmp_path / "hand.json", text)
    assert replay_json(path) == one_line and "hands" not in one_line
    analysed = run("analyze", str(path), "--json")
    assert analysed.exit_code == 0, analysed.stderr


def test_a_pretty_printed_hand_record_says_where_it_breaks_the_rules(tmp_path):
    """Read as a hand record, a pretty-printed one's errors are placed in the whole file."""
    text = json.dumps(with_changes(NT_RECORD, dealer=9), indent=2)
    out = replay_json(write(tmp_path / "hand.json", text), status=1)
    assert out["error"]["at"] == "dealer" and "hands" not in out


def dealer_line(text: str) -> int:
    """The line (from 1) of a pretty-printed record's dealer, its lines ended by LF."""
    return [n for n, ln in enumerate(text.split("\n"), 1) if '"dealer"' in ln][0]


@pytest.mark.parametrize("first, newline", [("{\n  ", "\n"), ("{ ", "\n"), ("{\n  ", "\r"), ("{ ", "\r\n")])
@pytest.mark.parametrize("damage, said", [(",,", "Expecting property name"), ("NaN,", "NaN is not a JSON value")])
def test_a_broken_pretty_printed_record_is_placed_at_its_line_whatever_ends_its_lines(tmp_path, first, newline,
                                                                                     damage, said):
    """A first line that opens the record (``{`` alone, or ``{ "format": ...,``) makes the file
    one record over several lines, even where its JSON is broken further on; records.md ends a
    line at LF, CR LF or CR, and the error's line counts them so."""
    text = json.dumps(NT_RECORD, indent=2).replace("{\n  ", first, 1)
    line = dealer_line(text)
    text = text.replace('"dealer": 3,', '"dealer": 3,,' if damage == ",," else '"dealer": NaN,')
    path = write(tmp_path / "hand.json", text.replace("\n", newline))
    result = run("replay", str(path), "--json")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"{path}:{line}:") and said in result.stderr, result.stderr


@pytest.mark.parametrize("name, text, said", [
    # a .jsonl file stays a game record: its first line, an open value, is said to be why
    ("hand.jsonl", json.dumps(NT_RECORD, indent=2),
     "hand.jsonl:1:2: invalid JSON: Expecting property name enclosed in double quotes; a file named .jsonl is a "
     "game record (JSON Lines: one hand record a line), and this one opens a value over several lines"),
    # two pretty-printed records: a game record is one record a line
    ("two.json", json.dumps(NT_RECORD, indent=2) + "\n" + json.dumps(NT_RECORD, indent=2),
     "invalid JSON: Extra data: a file of more than one record is a game record, JSON Lines"),
    # an array of records
    ("list.json", json.dumps([NT_RECORD, NT_RECORD], indent=2),
     "list.json:1:1: expected a JSON object (a bidwhist-hand/1 record); a game record is JSON Lines, one hand "
     "record a line, not an array"),
])
def test_records_written_over_lines_that_are_no_hand_record_are_told_how_a_game_record_is_written(
        tmp_path, name, text, said):
    result = run("replay", str(write(tmp_path / name, text)), "--json")
    assert result.exit_code == 2 and result.stdout == "" and result.stderr.count("\n") == 1
    assert said in result.stderr, result.stderr


def test_a_game_record_with_its_first_line_broken_before_its_end_is_still_a_game_record(tmp_path):
    """A damaged JSON Lines record (here ``,,`` inside it) does not open a value over lines."""
    broken = json.dumps(NT_RECORD).replace('"dealer": 3,', '"dealer": 3,,')
    path = write(tmp_path / "game.json", broken + "\n" + json.dumps(NT_RECORD) + "\n")
    result = run("replay", str(path), "--json")
    assert result.exit_code == 2 and result.stderr.startswith(f"{path}:1:{broken.index(',,') + 2}: invalid JSON")


@pytest.mark.parametrize("name", ["game.json", "game.jsonl"])
@pytest.mark.parametrize("lost", ["}", "]}", "\"dealer\": 3}"])
def test_a_game_record_whose_first_line_is_cut_at_its_end_is_said_to_be_cut_there(tmp_path, name, lost):
    """A first line that lost its end opens a value; the next line's ``{`` cannot go on with
    it, so the file is a game record whose line 1 is cut short (records.md), said at the end of
    line 1, not at "2:1" with json's words alone (nor, in a .jsonl file, as a value written over lines)."""
    whole = json.dumps(NT_RECORD)
    if lost.startswith("\"dealer"):  # the dealer written last: cut after the comma before it
        whole = json.dumps({k: v for k, v in NT_RECORD.items() if k != "dealer"} | {"dealer": 3})
    assert whole.endswith(lost)  # "]}": the play list, the last field, cut inside
    first = whole[:-len(lost)]
    path = write(tmp_path / name, first + "\n" + json.dumps(NT_RECORD) + "\n" + json.dumps(NT_RECORD)[:30])
    result = run("replay", str(path), "--json")
    assert result.exit_code == 2 and result.stdout == "" and result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"{path}:1:{len(first.rstrip()) + 1}: invalid JSON: "), result.stderr
    assert result.stderr.endswith("; line 1 stops before its record closes and the next line starts another, so the "
                                  "file is a game record (JSON Lines: one hand record a line) whose line 1 is cut "
                                  "short: complete the record, or remove the line\n"), result.stderr


@pytest.mark.parametrize("tail", ["\n", "\n\n\n", "", "\r\n"])
def test_a_hand_record_cut_short_is_placed_after_its_last_character(tmp_path, tail):
    """A one-line record cut at its end followed by a newline was placed at "2:1", a line
    that holds nothing; it is placed just after its last character and said to end early."""
    first = json.dumps(NT_RECORD)[:-1]
    path = write(tmp_path / "hand.json", first + tail)
    result = run("replay", str(path), "--json")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (f"{path}:1:{len(first) + 1}: invalid JSON: Expecting ',' delimiter; the file ends "
                             "before its record closes: it is cut short, or a bracket is missing\n")


@pytest.mark.parametrize("tail", ["", "\n"])
def test_a_game_records_last_line_cut_inside_a_string_is_said_to_be_cut(tmp_path, tail):
    """A .jsonl file whose last line is cut in the middle of a card's string said only json's
    "Unterminated string starting here", with none of the cut-short hint the other cut lines get."""
    line = json.dumps(NT_RECORD)
    cut = line[:line.index('"', line.index('"play"') + 8) + 2]  # the play list's first card, half written
    path = write(tmp_path / "game.jsonl", line + "\n" + cut + tail)
    result = run("replay", str(path), "--json")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (f"{path}:2:{cut.rindex(chr(34)) + 1}: invalid JSON: Unterminated string starting here; "
                             "line 2 ends before its record closes: it is cut short, or a quote is missing\n")


def test_a_hand_record_cut_inside_a_string_then_a_newline_is_told_a_quote_is_missing(tmp_path):
    """A .json file cut in a card's string and ended by a newline (json: "Invalid control
    character" at that newline) was told "or a bracket is missing": the quote is (review22e)."""
    line = json.dumps(NT_RECORD)
    cut = line[:line.index('"', line.index('"play"') + 8) + 2]
    path = write(tmp_path / "hand.json", cut + "\n")
    result = run("replay", str(path), "--json")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (f"{path}:1:{len(cut) + 1}: invalid JSON: Invalid control character here; the file "
                             "ends before its record closes: it is cut short, or a quote is missing\n")


@pytest.mark.parametrize("name", ["hand.json", "game.json", "game.jsonl"])
@pytest.mark.parametrize("space", ["\u00a0", "\x0c"])
def test_a_closed_record_followed_by_a_space_json_does_not_read_is_not_cut_short(tmp_path, name, space):
    """A record that closes on its line and is followed by a space JSON does not read
    (U+00A0, a form feed; str.rstrip takes them for blanks) is "Extra data" there, as it
    was: not "ends before its record closes", nor a line "cut short" or "over several lines"."""
    line = json.dumps(NT_RECORD)
    text = line + space + "\n" + (json.dumps(NT_RECORD) + "\n" if name.startswith("game") else "")
    path = write(tmp_path / name, text)
    result = run("replay", str(path), "--json")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"{path}:1:{len(line) + 1}: invalid JSON: Extra data\n", result.stderr


def test_a_pretty_printed_record_whose_value_goes_on_with_an_object_is_still_one_record(tmp_path):
    """A first line ending at a name (``"options":``) goes on with a ``{`` on the next line:
    one record over several lines, not a cut line (records.md)."""
    text = json.dumps(NT_RECORD, indent=2)
    text = text.replace('{\n  "format"', '{"options":\n{}, "format"', 1)
    path = write(tmp_path / "hand.json", text)
    result = run("replay", str(path), "--json")
    assert "cut short" not in result.stderr and "invalid JSON" not in result.stderr, result.stderr


def test_a_file_of_two_hand_records_on_two_lines_is_a_game_record(tmp_path):
    """records.md: "... or that holds more than one line, is a game record" (here: the first
    hand's 12 points win the game to 7, and a game record "may not go on after")."""
    out = replay_json(write(tmp_path / "hand.json", [NT_RECORD, NT_RECORD]), status=1)
    assert out["error"]["at"] == "hand[1]" and out["hands"] is None
    assert "may not go on after the match is decided" in out["error"]["message"]


@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\x85"])
def test_a_line_ends_only_at_a_newline(tmp_path, char):
    """records.md: a game record is JSON Lines, "one hand record per line", and a file "that
    holds more than one line" is one.  JSON lets U+2028, U+2029 and U+0085 stand unescaped
    in a string (JavaScript's JSON.stringify writes them so): they do not end a line, and
    a record holding one is read as the one record it is (illegal at the name, status 1),
    not refused as bad JSON (status 2)."""
    hand = json.dumps(record(variant=f"stan{char}dard"), ensure_ascii=False)
    out = replay_json(write(tmp_path / "hand.json", hand), status=1)
    assert out["error"]["at"] == "variant" and "hands" not in out
    # In a game record: the line numbers count newlines only.
    game = json.dumps(NT_RECORD) + "\n" + json.dumps(record(dealer=0, auction=[f"pa{char}ss"]), ensure_ascii=False)
    game_path = write(tmp_path / "game.jsonl", game + "\n")
    out = replay_json(game_path, status=1)
    assert out["error"]["at"] == "hand[1]"  # the first hand's 12 won the game: nothing may follow
    result = run("replay", str(game_path))
    assert result.exit_code == 1 and result.stderr.startswith(f"{game_path}:2: hand 2: ")


@pytest.mark.parametrize("text, at", [
    (json.dumps(NT_RECORD)[:-1] + ', "play": ["AH"]}', "play"),             # the last one was read
    ('{"play": ["AH"], ' + json.dumps(NT_RECORD)[1:], "play"),              # the record's own was read
    (json.dumps(record(declare=...))[:-1] + ', "declare": {"trump": null, "trump": "H", '
     '"direction": "uptown"}}', "declare"),
])
def test_a_field_given_twice_is_refused(tmp_path, text, at):
    """records.md: a record is untrusted input, and what does not fit the format is rejected
    "with a clear error".  JSON leaves an object's name given twice to the reader (RFC 8259:
    "unpredictable"); Python's kept the last value, so a record meant one thing here and
    another to another tool.  It is illegal at the field (status 1), never scored."""
    out = replay_json(write(tmp_path / "hand.json", text), status=1)
    assert out["error"]["at"] == at and "twice" in out["error"]["message"] and out["score"] is None
    game = replay_json(write(tmp_path / "game.jsonl", text + "\n"), status=1)
    assert game["error"]["at"] == f"hand[0].{at}"


@pytest.mark.parametrize("text", [
    '{"format": "x", ' + json.dumps(NT_RECORD)[1:],                          # the good one last
    json.dumps(NT_RECORD)[:-1] + ', "format": "x"}',                         # the bad one last
    json.dumps(NT_RECORD)[:-1] + ', "format": "bidwhist-hand/1", "claim": 1, "claim": 2}',
])
def test_a_format_given_twice_is_not_a_record_whatever_the_order(tmp_path, text):
    """records.md: a file that is not a record (unknown format) exits with status 2; a
    "format" given twice says no one format, and the order of the two no longer decides
    between status 1 and status 2 (nor does another name given twice beside it)."""
    result = run("replay", str(write(tmp_path / "hand.json", text)), "--json")
    assert result.exit_code == 2, result.stdout + result.stderr
    assert '"format" is given twice' in result.stderr and result.stderr.count("\n") == 1


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_is_not_json(tmp_path, constant):
    """records.md: bad JSON exits with status 2.  Python's reader takes NaN and Infinity; JSON does not."""
    path = write(tmp_path / "hand.json", json.dumps(NT_RECORD)[:-1] + f', "claim": {constant}}}')
    result = run("replay", str(path), "--json")
    assert result.exit_code == 2 and result.stdout == ""
    assert f"{constant.lstrip('-')} is not a JSON value" in result.stderr


@pytest.mark.parametrize("value, at", [
    ("NaN", "NaN"), ("-Infinity", "-Infinity"), ("9" * 5000, "9" * 5000),
    ("[" * 100_000 + "]" * 100_000, "[]"),          # the first bracket of the deepest level
])
@pytest.mark.parametrize("game", [False, True])
def test_json_beyond_the_grammar_is_placed_at_its_line_and_column(tmp_path, value, at, game):
    """docs/records.md: a file that is no record gets one line on stderr saying where,
    `FILE:LINE:COLUMN: ...`; NaN, a huge integer and deep nesting said only the line.
    A string holding the same text before it is skipped (it is text, not a value)."""
    line = json.dumps(record(variant="standard", **{"with": ["NaN[9"]}))[:-1] + f', "claim": {value}}}'
    text = line if not game else json.dumps(NT_RECORD) + "\n" + line
    path = write(tmp_path / ("game.jsonl" if game else "hand.json"), text)
    result = run("replay", str(path), "--json")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"{path}:{2 if game else 1}:{line.rindex(at) + 1}: invalid JSON: "), result.stderr
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize("field", ["with", "kitty", "declare", "discard", "swaps", "play", "claim", "in_progress"])
def test_an_optional_field_given_as_null_is_read_as_left_out(tmp_path, field):
    """docs/records.md (decision): null in a field a record may leave out means what leaving it
    out means.  `"claim": null` and `"declare": null` were read so, but `"with": null`,
    `"in_progress": null` and a null kitty where the variant has none were refused, and
    `"play": null` was 'not a list' where a missing play is a play that has not begun."""
    absent = run("replay", str(write(tmp_path / "absent.json", record(**{field: ...}))), "--json")
    null = run("replay", str(write(tmp_path / "null.json", dict(record(), **{field: None}))), "--json")
    assert (null.exit_code, null.stdout) == (absent.exit_code, absent.stdout)
    # The same where leaving the field out is what a legal record does.
    oregon = {"format": "bidwhist-hand/1", "variant": "oregon", "dealer": 0,
              "hands": [[f"{r}{s}" for r in "23456789TJQKA"] for s in "SHDC"], "auction": ["pass"],
              "in_progress": True}
    out = replay_json(write(tmp_path / "oregon.json", dict(oregon, **{field: None}) if field != "in_progress"
                            else oregon), status=0)
    assert out["in_progress"] is True and out["error"] is None


def test_a_record_without_format_says_so(tmp_path):
    """records.md: "version it (`"format"`), and reject what does not fit it with a clear error"."""
    path = write(tmp_path / "hand.json", record(format=...))
    result = run("replay", str(path))
    assert result.exit_code == 2
    assert result.stderr == f'{path}:1:1: no "format" field; a hand record starts {{"format": "bidwhist-hand/1", ...}}\n'


@pytest.mark.parametrize("line, words", [
    ('  {"format": "bidwhist-hand/9"}', "unknown record format 'bidwhist-hand/9'"),
    ("  [1, 2]", "expected a JSON object"),
    ('  {"format": 1, "format": 2}', '"format" is given twice'),
    ('  {"variant": "standard"}', 'no "format" field'),
])
@pytest.mark.parametrize("name", ["game.jsonl", "hand.json"])
def test_a_file_that_is_no_record_says_where_as_line_and_column(tmp_path, line, words, name):
    """docs/records.md: a file that is not a record (not an object, a missing or unknown
    `format`, `format` given twice) prints one line on stderr saying where,
    `FILE:LINE:COLUMN: …`, as bad JSON does: here the record's first character, line 3
    column 3 (after a legal hand and a blank line in the game record; after blank lines alone
    in the hand record)."""
    first = json.dumps(NT_RECORD) if name == "game.jsonl" else ""
    path = tmp_path / name
    path.write_text(f"{first}\n\n{line}\n", encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"{path}:3:3: {words}") and result.stderr.count("\n") == 1


# --------------------------------------------------------------------------- claim
@pytest.mark.parametrize("cards, claim, message", [
    (48, 1, "seat 0: claim of 1 trick, but only 0 remain"),
    (44, 2, "seat 0: claim of 2 tricks, but only 1 remains"),
    (44, [2, 0], "seat 0: claim shares out 2 tricks, but 1 remains"),
])
def test_a_claim_larger_than_the_tricks_remaining_is_illegal(tmp_path, cards, claim, message):
    """records.md: "A claim larger than the tricks remaining is illegal" (at `claim`)."""
    out = replay_json(write(tmp_path / "hand.json", record(play=NT_RECORD["play"][:cards], claim=claim)), status=1)
    assert out["error"] == {"at": "claim", "message": message}


# --------------------------------------------------------------------------- messages name the seat
@pytest.mark.parametrize("declare, message", [
    ({"trump": "H", "direction": "uptown"}, "seat 0: trump H contradicts the contract (no trump)"),
    ({"trump": None, "direction": "sideways"}, "seat 0: direction 'sideways' is not one of: uptown, downtown"),
])
def test_declare_errors_name_the_declarer(tmp_path, declare, message):
    """records.md: "the message names the rule that was broken and the seat"."""
    out = replay_json(write(tmp_path / "hand.json", record(declare=declare)), status=1)
    assert out["error"] == {"at": "declare", "message": message}


def test_a_suit_contract_declare_error_names_the_declarer_and_the_trump(tmp_path):
    """The same where the bid names a suit contract: trump 'X' names no suit, 'D' is not spades."""
    spade = record(auction=["4 uptown", "pass", "pass", "pass"], declare={"trump": "X"})
    out = replay_json(write(tmp_path / "hand.json", spade), status=1)
    assert out["error"] == {"at": "declare", "message": "seat 0: trump 'X' is not a suit of this deck"}


# ------------------------------------------- the kitty taken first, jokers out in notrump
def _kitty_first_hand_with_swaps() -> dict:
    """A simulated hand of standard+kitty-first+jokers-out-in-notrump whose record holds swaps:
    there the exchange comes at the last discard, before the declaration."""
    with_rules = ["kitty-first", "jokers-out-in-notrump"]
    rules = load_ruleset("standard", with_rules)
    for index in range(300):
        state = play_hand(rules, 5, index, "random")
        hand = hand_record(state, "standard", with_rules)
        if hand.get("swaps"):
            return hand
    raise AssertionError("no hand with swaps in 300")


def test_a_kitty_first_hand_in_progress_may_stop_after_the_swaps(tmp_path):
    """records.md: an in-progress record holds what happened so far; with the kitty taken
    first the swaps come before the declaration, so a record stopping at the declaration
    holds them (it was refused with or without them).  One that stops before the swaps
    (none given) replays too, in progress; one that gives the declaration needs them all."""
    hand = _kitty_first_hand_with_swaps()
    stopped_hand = {**hand, "play": [], "in_progress": True}
    del stopped_hand["declare"]
    out = replay_json(write(tmp_path / "ip.json", stopped_hand))
    assert out["error"] is None and out["in_progress"] is True and out["score"] is None
    without_swaps = {k: v for k, v in stopped_hand.items() if k != "swaps"}
    out = replay_json(write(tmp_path / "ip2.json", without_swaps))
    assert out["error"] is None and out["in_progress"] is True and out["tricks"] == []
    assert "direction" not in out["contract"]  # not declared yet: a contract in progress holds what is decided
    declared = {**without_swaps, "declare": hand["declare"]}
    out = replay_json(write(tmp_path / "ip3.json", declared), status=1)
    assert out["error"]["at"] == "swaps"


def test_a_kitty_first_suit_hand_in_progress_may_not_invent_swaps(tmp_path):
    """records.md: a record that names a swap the rules do not allow is illegal at ``swaps``,
    also when it stops at the declaration: in a suit contract nobody exchanges cards, so
    swaps given there are refused, not silently dropped."""
    with_rules = ["kitty-first", "jokers-out-in-notrump"]
    rules = load_ruleset("standard", with_rules)
    for index in range(300):
        hand = hand_record(play_hand(rules, 5, index, "random"), "standard", with_rules)
        if hand.get("declare", {}).get("trump") is not None and hand["discard"]:
            break
    else:
        raise AssertionError("no suit contract in 300 hands")
    invented = {**hand, "play": [], "in_progress": True,
                "swaps": [{"seat": (hand["dealer"] + 1) % 4, "gave": "LJ", "drew": hand["discard"][0]}]}
    del invented["declare"]
    out = replay_json(write(tmp_path / "invented.json", invented), status=1)
    assert out["error"]["at"] == "swaps", out["error"]


def test_a_kitty_first_hand_reports_a_bad_declare_before_its_swaps(tmp_path):
    """records.md's order of checking: ``declare`` before ``swaps``, also where the
    exchange happens before the declaration (a bad swap once hid the bad direction)."""
    hand = _kitty_first_hand_with_swaps()
    bad = {**hand, "declare": {**hand["declare"], "direction": "sideways"},
           "swaps": [{**hand["swaps"][0], "drew": "2C"}]}
    out = replay_json(write(tmp_path / "bad.json", bad), status=1)
    assert out["error"]["at"] == "declare", out["error"]


# --------------------------------------------------------------------------- whole numbers
def test_a_seat_written_with_a_fraction_is_refused_saying_it_must_be_whole(tmp_path):
    """docs/records.md (decision): seats and counts are JSON whole numbers.  A writer that
    prints every number as a float (``"dealer": 2.0``) is refused, and told why, not only
    that the dealer must be a seat from 0 to 3 (which 2.0 looks like it is)."""
    path = write(tmp_path / "float.json", record(dealer=float(NT_RECORD["dealer"])))
    result = run("replay", str(path))
    assert result.exit_code == 1
    seat = NT_RECORD["dealer"]
    assert f"(a whole number: {seat}, not {seat}.0)" in result.stderr
    assert "dealer must be a seat from 0 to 3" in result.stderr
    # A fraction that is no whole number gets the plain message.
    path = write(tmp_path / "half.json", record(dealer=1.5))
    result = run("replay", str(path))
    assert result.exit_code == 1 and "whole number" not in result.stderr


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab\r\n", max_size=16), st.data())
def test_an_error_is_placed_at_the_line_and_column_a_reader_counting_breaks_sees(chunk, data):
    """``_line_and_column`` (counted by str.count, fast over 16 MiB) agrees with reading the
    breaks one by one: LF, CR LF and CR each end a line."""
    import re

    from runtime.records import _line_and_column

    offset = data.draw(st.integers(0, len(chunk)))
    line, start = 1, 0
    for brk in re.compile("\r\n|[\n\r]").finditer(chunk, 0, offset):
        line, start = line + 1, brk.end()
    assert _line_and_column(chunk, offset) == (line, offset - start + 1)
