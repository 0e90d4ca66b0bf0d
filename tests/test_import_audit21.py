"""``bidwhist import``: what the twentieth session left for real exports, mended.

A real export states its options twice, in the Event's words and in GameOptionsJson
(TricksterBots issues 241 and 327); both are read, cross-checked, and the JSON's silence
read as the app's defaults (bidcompiler/data/trickster-options.yaml).  Issue 327's export
writes the winning bid with its trump (``4♠↓``); a PBN ``[Result]`` after a play that
stops at a trick's end is a claim; and ``replay -`` no longer needs a working directory
for a record that names no files.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bidcompiler.trickster_options import OptionSource, OptionsDisagree, map_sources, parse_table
from clirun import run
from test_replay_stdin import shell

DATA = Path(__file__).parent / "data" / "trickster"
REAL = DATA / "real-format-no-jokers.ptn"  # issue 241's hand, permuted
JOKERS = DATA / "real-format-jokers.ptn"  # issue 327's hand, permuted, stopped after seven tricks
REAL_TEXT = REAL.read_text(encoding="utf-8")
EVENT = REAL_TEXT.splitlines()[1]
JSON_LINE = REAL_TEXT.splitlines()[6]


def _import(tmp_path, text: str, *args: str):
    src = tmp_path / "hand.ptn"
    src.write_bytes(text.encode("utf-8"))
    return src, run("import", str(src), *args)


def _words(*phrases: str) -> OptionSource:
    return OptionSource("Event", 2, list(phrases))


def _json(*phrases: str) -> OptionSource:
    return OptionSource("GameOptionsJson", 7, list(phrases), json=True)


# --------------------------------------------------------------------------- 1: unknown words
def _unknown_words() -> str:
    return REAL_TEXT.replace(EVENT, '[Event "Trickster Cards: Practice Whist - house words"]')


def test_unknown_event_words_are_named(tmp_path):
    src, result = _import(tmp_path, _unknown_words())
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith(f"{src}:2: game option with no house rule here: 'house words'")


def test_nearest_with_unknown_words_still_reads_the_json(tmp_path):
    # Before, the unknown words hid the JSON: --nearest imported under plain standard, and the
    # deal (no jokers) was refused.  The JSON's kittySize 1 says no jokers.
    _, result = _import(tmp_path, _unknown_words(), "--nearest")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["with"] == ["no-jokers", "defenders-score", "low-beats-high"]


# --------------------------------------------------------------------------- 2: cross-checked
def _disagreeing() -> str:
    return REAL_TEXT.replace('"defensiveScoring":true', '"defensiveScoring":true,"lowBeatsHigh":false')


def test_words_and_json_that_disagree_stop_the_import_naming_both(tmp_path):
    src, result = _import(tmp_path, _disagreeing())
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == (
        f"{src}:7: the game options disagree on lowBeatsHigh: Event (line 2) says 'low beats high' "
        "(lowBeatsHigh true), GameOptionsJson (line 7) says 'lowBeatsHigh=false' (lowBeatsHigh false); "
        "--options-from words or --options-from json says which to follow\n")


@pytest.mark.parametrize("follow, rules", [
    ("words", ["no-jokers", "low-beats-high", "defenders-score"]),
    ("json", ["no-jokers", "defenders-score"]),
])
def test_options_from_says_which_statement_wins(tmp_path, follow, rules):
    _, result = _import(tmp_path, _disagreeing(), "--options-from", follow)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["with"] == rules


def test_options_from_takes_only_words_or_json(tmp_path):
    _, result = _import(tmp_path, REAL_TEXT, "--options-from", "event")
    assert result.exit_code == 2


def test_words_that_contradict_themselves_are_named_without_the_flags_hint():
    with pytest.raises(OptionsDisagree) as caught:
        map_sources([_words("2 Jokers", "no Jokers")], prefer="words")
    assert "disagree on jokers" in str(caught.value) and "--options-from" not in str(caught.value)


def test_words_and_json_that_agree_import_under_the_same_rules_as_the_words_alone(tmp_path):
    _, both = _import(tmp_path, REAL_TEXT)
    _, words = _import(tmp_path, REAL_TEXT.replace(JSON_LINE + "\n", ""))
    assert both.exit_code == 0 == words.exit_code
    assert json.loads(both.stdout) == json.loads(words.stdout)


def test_what_only_the_json_states_is_used_beside_the_words():
    mapped = map_sources([_words("2 Jokers"), _json("defensiveScoring=true")])
    assert "defenders-score" in mapped.with_rules


# --------------------------------------------------------------------------- 3: the JSON's defaults
def _json_only() -> str:
    return REAL_TEXT.replace(EVENT, '[Event "Practice"]')


def test_the_json_alone_keeps_low_beats_high_by_the_apps_default(tmp_path):
    _, result = _import(tmp_path, _json_only())
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["with"] == ["no-jokers", "defenders-score", "low-beats-high"]


def test_the_default_read_for_the_json_is_said_on_stderr(tmp_path):
    src, result = _import(tmp_path, _json_only())
    assert result.stderr == f"{src}:7: GameOptionsJson leaves out lowBeatsHigh; read as the app's default 'lowBeatsHigh=true'\n"


def test_the_defaults_read_are_listed_in_the_json_summary(tmp_path):
    _, result = _import(tmp_path, _json_only(), "--json")
    assert json.loads(result.stdout)["rules"][0]["assumed"] == ["lowBeatsHigh: 'lowBeatsHigh=true'"]


def test_a_default_the_words_state_otherwise_is_not_read():
    # kittySize left out would mean "6-card kitty" (2 jokers); the words say no jokers.
    mapped = map_sources([_words("no Jokers"), _json("bidderLeads=true", "bidderGetsKitty=true")])
    assert [a.split(":")[0] for a in mapped.assumed] == ["lowBeatsHigh", "doubleForNT", "defensiveScoring"]


def test_a_default_with_no_house_rule_is_named_as_the_jsons_silence():
    mapped = map_sources([_json("kittySize=1")])
    assert "bidderLeads=false (GameOptionsJson leaves bidderLeads out: the app's default)" in mapped.unknown


def test_a_table_with_a_bad_defaults_section_is_refused():
    with pytest.raises(ValueError, match="json-defaults"):
        parse_table("variant: v\noptions: []\njson-defaults: [a]\n")


def test_a_table_with_a_bad_sets_entry_is_refused():
    with pytest.raises(ValueError, match="sets"):
        parse_table("variant: v\noptions:\n  - {phrase: a, sets: {x: [1]}}\n")


# --------------------------------------------------------------------------- issue 327's export
def test_the_second_real_export_imports_as_a_hand_in_progress(tmp_path):
    result = run("import", str(JOKERS))
    assert result.exit_code == 0, result.stderr
    record = json.loads(result.stdout)
    assert (record["with"], record["in_progress"], len(record["play"])) == (["defenders-score"], True, 28)


def test_a_winning_bid_written_with_its_trump_is_the_bid_and_the_declaration():
    record = json.loads(run("import", str(JOKERS)).stdout)
    assert (record["auction"], record["declare"]) == (["pass", "pass", "3 downtown", "4 downtown"], {"trump": "H"})


def test_the_second_real_exports_options_need_no_default():
    result = run("import", str(JOKERS))
    assert "GameOptionsJson leaves out" not in result.stderr, result.stderr


def test_a_bid_that_names_a_trump_but_does_not_win_is_refused(tmp_path):
    text = JOKERS.read_text(encoding="utf-8").replace("Pass Pass 3↓ 4♥↓", "Pass Pass 3♥↓ 4↓")
    src, result = _import(tmp_path, text)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{src}:19: '3♥↓' by E (seat 3) names a suit, but S (seat 0) bids over it"), result.stderr


# --------------------------------------------------------------------------- 4: a claim
def _claimed(result: str, tricks: int = 5) -> str:
    lines = REAL_TEXT.splitlines()
    play = lines.index('[Play "S"]')
    return "\n".join(lines[:play + 1 + tricks] + [f'[Result "{result}"]']) + "\n"


def test_a_result_after_a_play_stopped_at_a_tricks_end_is_a_claim(tmp_path):
    # The declarers (S+N) took two of the first five tricks; Result 8 claims 6 of the 7 left.
    _, result = _import(tmp_path, _claimed("8"))
    assert result.exit_code == 0, result.stderr
    record = json.loads(result.stdout)
    assert (record["claim"], "in_progress" in record, len(record["play"])) == (6, False, 20)


def test_the_claimed_record_replays(tmp_path):
    _, result = _import(tmp_path, _claimed("8"))
    out = tmp_path / "claimed.json"
    out.write_text(result.stdout, encoding="utf-8")
    report = json.loads(run("replay", str(out), "--json").stdout)
    assert report["score"] is not None


@pytest.mark.parametrize("said, words", [
    ("1", "the declaring side has taken 2 tricks and 7 remain, so Result must be 2 to 9"),
    ("10", "so Result must be 2 to 9"),
    ("x", "is not a number of tricks"),
])
def test_a_result_that_cannot_be_a_claim_is_named_at_its_line(tmp_path, said, words):
    src, result = _import(tmp_path, _claimed(said))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{src}:28: Result") and words in result.stderr, result.stderr


def test_a_result_after_a_trick_cut_short_is_refused(tmp_path):
    text = _claimed("8").replace("\n[Result", "\nDJ - - -\n[Result")
    src, result = _import(tmp_path, text)
    assert result.exit_code == 1
    assert "a claim comes at the end of a trick" in result.stderr, result.stderr


def test_a_result_on_a_hand_played_out_must_agree_with_its_tricks(tmp_path):
    src, result = _import(tmp_path, REAL_TEXT + '[Result "1"]\n')
    assert result.exit_code == 1
    assert "Result 1, but the declaring side took" in result.stderr, result.stderr


# --------------------------------------------------------------------------- 5: replay - without a folder
def test_a_piped_record_naming_no_file_replays_where_the_working_directory_is_gone(tmp_path):
    out = tmp_path / "sim.jsonl"
    assert run("simulate", "standard", "--hands", "1", "--seed", "5", "--records", str(out)).exit_code == 0
    (tmp_path / "hand.json").write_text(out.read_text(encoding="utf-8").splitlines()[0], encoding="utf-8")
    (tmp_path / "gone").mkdir()
    proc = shell('cd gone && rmdir ../gone && "$BW" replay - < ../hand.json', tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "result" in proc.stdout


# --------------------------------------------------------------------------- other shapes of a real export
def test_an_empty_or_unknown_declarer_and_contract_are_read_as_not_there(tmp_path):
    # A hand exported while its auction is open has no declarer or contract yet (PBN writes "" or "?").
    lines = JOKERS.read_text(encoding="utf-8").splitlines()
    head = [ln.replace('"S"', '""') if ln.startswith("[Declarer") else ln.replace('"4♥↓"', '"?"')
            if ln.startswith("[Contract") else ln for ln in lines[:18]]
    _, result = _import(tmp_path, "\n".join(head + ["Pass Pass"]) + "\n")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["auction"] == ["pass", "pass"]


def test_a_hand_abandoned_after_the_deal_imports_as_in_progress(tmp_path):
    lines = JOKERS.read_text(encoding="utf-8").splitlines()
    _, result = _import(tmp_path, "\n".join(lines[:15]) + "\n")
    assert result.exit_code == 0, result.stderr
    record = json.loads(result.stdout)
    assert (record["auction"], record["in_progress"]) == ([], True)


def test_lowercase_tag_names_and_carriage_returns_read_as_the_export(tmp_path):
    text = JOKERS.read_text(encoding="utf-8")
    odd = "\r".join(ln.replace("[Deal ", "[deal ").replace("[Play ", "[PLAY ") for ln in text.splitlines()) + "\r"
    _, want = _import(tmp_path, text)
    _, got = _import(tmp_path, odd)
    assert json.loads(got.stdout) == json.loads(want.stdout)


def test_two_exports_in_one_file_are_two_hands(tmp_path):
    text = JOKERS.read_text(encoding="utf-8")
    _, result = _import(tmp_path, text + "\n" + text, "--json")
    assert result.exit_code == 0, result.stderr
    assert len(json.loads(result.stdout)["records"]) == 2


def test_an_unknown_json_key_beside_known_words_is_named_at_the_jsons_line(tmp_path):
    text = REAL_TEXT.replace('"noWatching":true', '"noWatching":true,"houseKey":3')
    src, result = _import(tmp_path, text)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{src}:7: game option with no house rule here: 'houseKey=3'"), \
        result.stderr


# --------------------------------------------------------------------------- the review's mends
def _jokers_lines() -> list[str]:
    return JOKERS.read_text(encoding="utf-8").splitlines()


def _cut_at(prefix: str, *tail: str) -> str:
    lines = _jokers_lines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith(prefix))
    return "\n".join(lines[:at] + list(tail)) + "\n"


@pytest.mark.parametrize("text", [
    _cut_at("[Declarer", '[Auction "W"]', "Pass Pass 3↓", '[Result "9"]'),  # in the auction
    _cut_at("[CardsRemoved", '[Result "9"]'),  # the auction over, the discards not made
], ids=["auction", "discard"])
def test_a_result_on_a_hand_stopped_before_its_play_is_refused(tmp_path, text):
    # Before, the Result was dropped unsaid and the hand imported as in progress (exit 0).
    src, result = _import(tmp_path, text)
    assert result.exit_code == 1 and result.stdout == "", result.stderr
    line = text.splitlines().index('[Result "9"]') + 1
    assert result.stderr.startswith(f"{src}:{line}: Result 9") and "a claim comes at the end of a trick" \
        in result.stderr, result.stderr


def _auction(calls: str) -> str:
    return JOKERS.read_text(encoding="utf-8").replace("Pass Pass 3↓ 4♥↓", calls)


def test_a_losing_bid_that_names_a_suit_is_refused_even_when_the_winner_names_one(tmp_path):
    src, result = _import(tmp_path, _auction("Pass Pass 3♠↓ 4♥↓"))
    assert result.exit_code == 1
    assert result.stderr == (f"{src}:19: '3♠↓' by E (seat 3) names a suit, but S (seat 0) bids over it ('4♥↓'): "
                             "only the winning bid may name its trump\n")


def test_a_losing_notrump_bid_leaves_no_declaration_behind(tmp_path):
    # Before: "Contract level 4 contradicts the declarer's call (3)", though the auction is legal.
    _, result = _import(tmp_path, _auction("Pass Pass 3NT↓ 4↓"))
    assert result.exit_code == 0, result.stderr
    record = json.loads(result.stdout)
    assert (record["auction"][-1], record["declare"]) == ("4 downtown", {"trump": "H"})


def test_a_later_call_that_contradicts_the_auction_names_the_call(tmp_path):
    src, result = _import(tmp_path, _auction("Pass Pass 3↓ 4♥↓\n- - - 4♠↓"))
    assert result.exit_code == 1
    assert result.stderr == (f"{src}:20: '4♠↓' by S (seat 0): trump 'S' contradicts what the auction said "
                             "before ('H')\n")


@pytest.mark.parametrize("tag, first", [('[Result "9"]', 28), ("", 7)])
def test_a_tag_given_twice_in_one_hand_is_named(tmp_path, tag, first):
    lines = _jokers_lines()
    if tag:
        text = "\n".join(lines + [tag, tag]) + "\n"
        second = len(lines) + 2
    else:  # GameOptionsJson twice: before, "the hand has no [Deal] tag"
        text = "\n".join(lines[:7] + [lines[6]] + lines[7:]) + "\n"
        second = 8
    name = "Result" if tag else "GameOptionsJson"
    first = len(lines) + 1 if tag else first
    src, result = _import(tmp_path, text)
    assert result.exit_code == 1
    assert result.stderr == (f"{src}:{second}: [{name}] is given twice in this hand (first at line {first}); "
                             "a new hand begins at its [Event …]\n")


def _without_events(name: str) -> list[str]:
    """A shipped PTN file's lines with its [Event] tags left out."""
    return [ln for ln in (DATA / name).read_text(encoding="utf-8").splitlines() if not ln.startswith("[Event")]


def test_a_tag_given_twice_in_a_hand_without_an_event_is_named_as_with_one(tmp_path):
    """Without Events a repeated [Result] started a hand of its own: "hand 2: no game options"
    and "the hand has no [Deal] tag".  It is refused as in a hand with an Event, naming the tag,
    its line and where a hand does begin (a tag it gave before its Deal, or a second [Deal])."""
    lines = _without_events("suit-contract.ptn")
    assert lines[0].startswith("[GameOptions ")
    src, result = _import(tmp_path, "\n".join(lines + ['[Result "9"]', '[Result "9"]']) + "\n")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == (f"{src}:{len(lines) + 2}: [Result] is given twice in this hand (first at line "
                             f"{len(lines) + 1}); a new hand begins at a tag the hand gave before its [Deal …] "
                             "(once it has the Deal), or at a second [Deal …]\n")


def test_a_hand_without_an_event_begins_where_the_files_first_tag_repeats(tmp_path):
    """The docstring's rule: with no Events, the tag the file begins with opens each hand, so
    game.ptn without its Events is still its three hands, the same as with them."""
    src = tmp_path / "hand.ptn"
    src.write_text("\n".join(_without_events("game.ptn")) + "\n", encoding="utf-8")
    out, events = tmp_path / "no-events.jsonl", tmp_path / "events.jsonl"
    assert run("import", str(src), "-o", str(out)).exit_code == 0
    assert run("import", str(DATA / "game.ptn"), "-o", str(events)).exit_code == 0
    assert len(out.read_text().splitlines()) == 3
    assert out.read_text() == events.read_text()


def test_a_file_beginning_at_deal_without_events_begins_hands_at_deal_only(tmp_path):
    """A file whose first tag is [Deal] begins each hand at a [Deal]; a tag given twice is named."""
    lines = _without_events("suit-contract.ptn")
    lines = [lines[1], lines[0]] + lines[2:]  # [Deal] first, then [GameOptions]
    text = "\n".join(lines + [lines[1]]) + "\n"
    src, result = _import(tmp_path, text)
    assert result.exit_code == 1
    assert result.stderr == (f"{src}:{len(lines) + 1}: [GameOptions] is given twice in this hand (first at line 2); "
                             "a new hand begins at a tag the hand gave before its [Deal …] (once it has the Deal), "
                             "or at a second [Deal …]\n")


def test_a_header_tag_given_once_does_not_decide_where_hands_begin(tmp_path):
    """A file without Events that begins with a tag written once ([Site], a header) still has
    each hand begin at its own first tag: before, the [Site] line decided, and the second
    hand's [GameOptions] was refused as given twice (review22a)."""
    lines = _without_events("suit-contract.ptn")
    src = tmp_path / "site.ptn"
    src.write_text("\n".join(['[Site "home"]'] + lines + lines) + "\n", encoding="utf-8")
    out, once = tmp_path / "site.jsonl", tmp_path / "once.jsonl"
    assert run("import", str(src), "-o", str(out)).exit_code == 0
    assert run("import", str(DATA / "suit-contract.ptn"), "-o", str(once)).exit_code == 0
    assert out.read_text().splitlines() == once.read_text().splitlines() * 2


def test_a_key_given_twice_in_the_json_is_refused(tmp_path):
    text = REAL_TEXT.replace('"noWatching":true', '"noWatching":true,"lowBeatsHigh":false,"lowBeatsHigh":true')
    src, result = _import(tmp_path, text)
    assert result.exit_code == 1
    assert result.stderr == f"{src}:7: GameOptionsJson gives the key 'lowBeatsHigh' twice\n"


def test_game_options_words_are_checked_against_the_events_words(tmp_path):
    # Before, the Event's words were not read beside GameOptions: a deck error at the Deal line.
    lines = _jokers_lines()
    text = "\n".join(lines[:2] + ['[GameOptions "1 Joker"]'] + lines[2:]) + "\n"
    src, result = _import(tmp_path, text)
    assert result.exit_code == 1
    assert result.stderr == (f"{src}:2: the game options disagree on jokers: GameOptions (line 3) says '1 Joker' "
                             "(jokers 1), Event (line 2) says '2 Jokers' (jokers 2)\n")


def test_an_event_repeating_a_phrase_lists_it_once():
    from runtime.trickster import read_ptn

    [(_, _, phrases, _)] = read_ptn('[Event "Trickster Cards: Whist - ' + "2 Jokers, " * 1000 + 'x"]\n')[0] \
        .option_sources()
    assert phrases == ["2 Jokers", "x"]


def test_messages_name_the_hand_only_when_the_file_holds_several(tmp_path):
    text = JOKERS.read_text(encoding="utf-8")
    bad = text.replace('"defensiveScoring\\":true', '"defensiveScoring\\":false')
    src, result = _import(tmp_path, text + "\n" + bad)
    assert result.exit_code == 1
    assert f"{src}:37: hand 2: the game options disagree on defensiveScoring" in result.stderr, result.stderr


def test_a_claim_written_is_said_on_stderr_as_tricks_not_books(tmp_path):
    src, result = _import(tmp_path, _claimed("8"))
    assert f"{src}:28: Result 8 is written as a claim: the declaring side takes 6 more tricks" in result.stderr
    assert "tricks, not books" in result.stderr


def test_the_help_says_result_counts_tricks_not_books():
    assert "[Result] counts tricks, not books" in " ".join(run("import", "--help").stdout.split())


def test_a_result_on_a_hand_thrown_in_is_refused():
    # All pass and the hand is thrown in: no declarer, nothing to claim (before: the Result was
    # dropped, and a claim reached would have read side_of[-1], the last seat's side).
    from bidcompiler.pipeline import load_ruleset
    from runtime.trickster import PtnError, hand_to_record, read_ptn

    lines = (DATA / "game.ptn").read_text(encoding="utf-8").splitlines()
    hand = read_ptn("\n".join(lines[:4] + ['[Auction "E"]', "Pass Pass Pass Pass", '[Result "7"]']) + "\n")[0]
    with pytest.raises(PtnError) as caught:
        hand_to_record(hand, load_ruleset("standard", ("all-pass-redeal",)), "standard", ["all-pass-redeal"])
    assert (caught.value.line, caught.value.message.split(",")[0]) == (7, "Result 7")
    assert "no one declared" in caught.value.message
