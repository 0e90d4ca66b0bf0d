"""Records against hostile input (issue 15): every defect the fuzzing run found, kept as a test.

Each case is a record (or a file in a record's place) that once ended in an internal
error, a hang or a memory blow-up; each must now end in one clear message, exit 1
for an illegal record and 2 for a file that is not a record, in bounded time and
memory.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from bidcompiler.pipeline import load_ruleset
from clirun import run, script
from runtime.files import MAX_RECORD_BYTES, FileRefused, read_bounded, read_bounded_bytes, size_text
from runtime.notation import MAX_CALL_DIGITS, parse_call, parse_card
from runtime.records import MAX_WITH, hand_record
from runtime.simulate import play_game, play_hand


@pytest.fixture(scope="module")
def standard():
    return load_ruleset("standard")


@pytest.fixture(scope="module")
def record(standard) -> dict:
    """A legal, finished hand record of the standard game."""
    return hand_record(play_hand(standard, 5, 0, "random"), "standard")


def replay_json(path: Path):
    result = run("replay", str(path), "--json")
    return result, (json.loads(result.stdout) if result.stdout.strip() else None)


def write(tmp_path: Path, data: dict, name: str = "hand.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


# --------------------------------------------------------------------------- calls
def test_a_call_of_4301_digits_is_not_a_call(tmp_path, record):
    """int() of more than 4,300 digits raised ValueError inside parse_call: an internal error."""
    bad = dict(record, auction=["9" * 4301] + record["auction"][1:])
    result, out = replay_json(write(tmp_path, bad))
    assert result.exit_code == 1, result.output
    assert out["error"]["at"] == "auction[0]"
    assert "is not a call of this variant" in out["error"]["message"]
    # the message shows a bounded piece of the call, not all of it
    assert len(out["error"]["message"]) < 200, out["error"]["message"]


def test_parse_call_bounds_the_digits(standard):
    assert parse_call(standard, "4 nt") is not None
    assert parse_call(standard, "0004 nt") == parse_call(standard, "4 nt")
    assert parse_call(standard, "9" * (MAX_CALL_DIGITS + 1)) is None
    assert parse_call(standard, "1" + "0" * 10_000 + " nt") is None


# --------------------------------------------------------------------------- cards
def test_a_space_inside_a_card_is_refused(tmp_path, record):
    """``A S`` was read as ``AS``: records.md allows case, 10 for T and suit symbols, not spaces inside."""
    first = record["hands"][0][0]
    spaced = first[0] + " " + first[1]
    bad = dict(record, hands=[[spaced] + record["hands"][0][1:]] + record["hands"][1:])
    result, out = replay_json(write(tmp_path, bad))
    assert result.exit_code == 1, result.output
    assert out["error"]["at"] == "hands"
    assert repr(spaced) in out["error"]["message"]


def test_the_forgiving_card_spellings_stay(standard):
    ace = parse_card(standard, "AS")
    assert ace is not None
    for text in ("as", "aS", "A♠", "a♤", " AS ", "AS\n"):
        assert parse_card(standard, text) == ace, text
    assert parse_card(standard, "10h") == parse_card(standard, "TH") is not None
    assert parse_card(standard, "bj") == parse_card(standard, "BJ") is not None
    for text in ("A S", "1 0H", "10 H", "A\tS", "B J", "A♠ "[:1] + " ♠"):
        assert parse_card(standard, text) is None, text


def test_a_card_is_read_in_ascii_case_only(standard):
    """records.md: a card's letters in any case; not letters whose Unicode upper case happens
    to be one (the long s: 'Aſ'.upper() == 'AS'), nor other look-alikes (the Kelvin sign, fullwidth)."""
    for text in ("Aſ", "\u212aS", "Tſ", "10ｈ", "ＡS"):
        assert parse_card(standard, text) is None, text


def test_a_call_is_read_in_ascii_case_only(standard):
    """records.md: calls are case-insensitive, in ASCII case as cards are: the Kelvin sign
    (U+212A, whose Unicode lower case is k) does not make 'taKe' the call take."""
    northeast52 = load_ruleset("northeast52")
    assert parse_call(northeast52, "TAKE") == northeast52.take_action is not None
    assert parse_call(northeast52, "ta\u212ae") is None
    assert parse_call(standard, "4 HIGH") == parse_call(standard, "4 uptown") is not None


def test_a_strain_alias_is_a_call_as_written(tmp_path):
    """An alias with a letter beyond ASCII (`ÜBER`) is read as written: it was stored in
    Unicode's lower case (`über`), which a call read in ASCII case never matches."""
    text = (Path(__file__).parent.parent / "variants" / "standard.yaml").read_text(encoding="utf-8")
    (tmp_path / "mine.yaml").write_text(text.replace("aliases: [nt, no]", "aliases: [nt, no, ÜBER]")
                                        .replace("name: standard", "name: mine", 1), encoding="utf-8")
    mine = load_ruleset(str(tmp_path / "mine.yaml"))
    assert parse_call(mine, "4 ÜBER") == parse_call(mine, "4 Über") == parse_call(mine, "4 nt") is not None


# --------------------------------------------------------------------------- size and kind of file
def test_a_record_over_the_limit_is_refused_naming_it(tmp_path):
    """A 24 MB record peaked at 781 MB; now no record above the limit is read at all."""
    path = tmp_path / "big.jsonl"
    with open(path, "wb") as f:  # sparse: the size is there without writing it
        f.truncate(MAX_RECORD_BYTES + 1)
    result = run("replay", str(path))
    assert result.exit_code == 2
    assert size_text(MAX_RECORD_BYTES) in result.stderr, result.stderr
    assert "16 MiB" in result.stderr
    each = run("replay", "--each", str(path), "--json")
    assert each.exit_code == 2 and "16 MiB" in each.stderr


def test_the_limit_leaves_room_for_long_games(standard):
    """A game stopped at simulate's 1,000-hand cap is a small fraction of the limit."""
    rng = random.Random(3)
    lines = [json.dumps(hand_record(play_hand(standard, rng.randrange(10**6), i, "random"), "standard"))
             for i in range(50)]
    per_hand = sum(len(line) + 1 for line in lines) / len(lines)
    assert 1000 * per_hand * 8 < MAX_RECORD_BYTES, per_hand


def test_the_reader_reads_no_more_than_its_limit(tmp_path):
    path = tmp_path / "f.txt"
    path.write_bytes(b"x" * 100)
    assert read_bounded(path, 100) == "x" * 100
    with pytest.raises(FileRefused, match="larger than 99 bytes"):
        read_bounded_bytes(path, 99, "record")
    path.write_bytes(b"ok\n\xff")
    with pytest.raises(FileRefused, match="not UTF-8"):
        read_bounded(path, 100)
    with pytest.raises(FileRefused, match="cannot read"):
        read_bounded(tmp_path / "missing", 100)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_is_not_a_regular_file(tmp_path):
    """replay on a FIFO blocked forever waiting for a writer."""
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    for args in (("replay", str(fifo)), ("replay", "--each", str(fifo))):
        proc = script(*args)
        assert proc.returncode == 2
        assert "not a regular file" in proc.stderr


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_dev_zero_is_not_read():
    """replay /dev/zero reached 18 GB in 30 s."""
    proc = script("replay", "/dev/zero")
    assert proc.returncode == 2
    assert "not a regular file" in proc.stderr


@pytest.mark.parametrize("command", ["replay", "analyze"])
def test_a_folder_is_refused(tmp_path, command):
    """docs/records.md: a file that is not a regular file (a FIFO, a device, a folder) exits
    with status 2, "not a regular file"; a folder read "File '…' is a directory" (click's)."""
    result = run(command, str(tmp_path))
    assert result.exit_code == 2
    assert f"{tmp_path}: not a regular file (a directory)" in result.stderr, result.stderr


# --------------------------------------------------------------------------- with
def test_a_long_with_is_refused_naming_the_bound(tmp_path, record):
    """``with`` of 2,000 entries took 10 s (about 5 ms an entry) before anything was checked."""
    bad = dict(record, **{"with": ["boston-wins"] * 2000})
    result, out = replay_json(write(tmp_path, bad))
    assert result.exit_code == 1, result.output
    assert out["error"]["at"] == "with"
    assert f"at most {MAX_WITH}" in out["error"]["message"]


def test_a_with_at_the_bound_is_still_read(tmp_path, record):
    """The bound refuses only lists longer than it: an unknown name at the bound is an ordinary error."""
    bad = dict(record, **{"with": ["no-such-rule"] * MAX_WITH})
    result, out = replay_json(write(tmp_path, bad))
    assert result.exit_code == 1
    assert out["error"]["at"] == "with[0]"  # records.md names an entry of `with` as with[i]
    assert f"at most {MAX_WITH}" not in out["error"]["message"]


def test_a_record_naming_a_deeply_nested_file_is_an_error(tmp_path, record, monkeypatch):
    """A ``with`` naming a .whist nested 600 lists deep raised RecursionError."""
    (tmp_path / "deep.whist").write_text("house-rule deep\nauction { ranking " + "[" * 600 + "]" * 600 + " }\n",
                                         encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # the name is relative: to the record's folder, which is the working one
    bad = dict(record, **{"with": ["deep.whist"]})
    result, out = replay_json(write(tmp_path, bad))
    assert result.exit_code == 1, result.output
    assert out["error"]["at"] == "with[0]"  # records.md: a path in `with` is refused at with[i]
    assert "internal error" not in result.stderr


def test_a_record_whose_variant_is_a_deeply_nested_file_is_an_error(tmp_path, record, monkeypatch):
    """The same for the record's ``variant``: a .whist variant nested 600 blocks deep."""
    (tmp_path / "deep.whist").write_text("variant deep\nextends standard\n" + "x { " * 600 + "}" * 600 + "\n",
                                         encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result, out = replay_json(write(tmp_path, dict(record, variant="deep.whist")))
    assert result.exit_code == 1, result.output
    assert out["error"]["at"] == "variant"  # records.md: the file's own problems are not quoted, only placed
    assert "'deep.whist' named at `variant` is not a valid variant file" in out["error"]["message"]
    assert "(line 3, column 259)" in out["error"]["message"]  # the 65th block: one past MAX_NESTING
    assert "internal error" not in result.stderr


# --------------------------------------------------------------------------- replay --each streams
def hand_lines(standard, n: int) -> list[str]:
    """``n`` legal hand records of the standard game, one JSON line each (as simulate writes them)."""
    rng = random.Random(11)
    return [json.dumps(hand_record(play_hand(standard, rng.randrange(10**6), i, "random"), "standard"))
            for i in range(n)]


def test_replay_each_json_is_the_whole_document_written_piece_by_piece(tmp_path, standard):
    """The streamed JSON is byte for byte json.dumps of every one-hand replay with its line."""
    lines = hand_lines(standard, 3)
    broken = json.loads(lines[1])
    broken["play"] = broken["play"][:5] + ["ZZ"] + broken["play"][6:]
    text = f"{lines[0]}\n\n{json.dumps(broken)}\n{lines[2]}\n"  # a blank line: numbers 1, 3, 4
    path = tmp_path / "hands.jsonl"
    path.write_text(text)
    hands = []
    for number, line in ((1, lines[0]), (3, json.dumps(broken)), (4, lines[2])):
        one = tmp_path / f"one-{number}.json"
        one.write_text(line + "\n")
        hands.append({"line": number, **json.loads(run("replay", str(one), "--json").stdout)})
    result = run("replay", "--each", str(path), "--json")
    assert result.exit_code == 1
    assert result.stdout == json.dumps({"hands": hands, "illegal": [3]}) + "\n"
    assert hands[1]["error"]["at"] == "play[5]"


@pytest.mark.parametrize("mode", [(), ("--json",)])
def test_replay_each_checks_every_line_before_printing_any_hand(tmp_path, standard, mode):
    """Streaming keeps the contract: a line that is not a record exits 2 before any output."""
    path = tmp_path / "hands.jsonl"
    path.write_text("\n".join(hand_lines(standard, 4)) + '\n{"format": "bidwhist-hand/9"}\n')
    result = run("replay", "--each", str(path), *mode)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"{path}:5:1: unknown record format 'bidwhist-hand/9'; expected 'bidwhist-hand/1'\n"


def test_replay_each_holds_one_hand_at_a_time(tmp_path, standard):
    """A 16 MiB file of hands once peaked at ~400 MB (every record and result kept to the end).

    Now ten times the hands costs only the longer text: the traced peak grows by a few
    times the bytes added (the text and its decoding), not by each hand's parsed record
    and replay (~20 KB a hand, which made 180 more hands cost ~4.5 MB).
    """
    import contextlib
    import gc
    import tracemalloc

    from bidcompiler.cli.replay import replay_each

    lines = hand_lines(standard, 200)
    small, large = tmp_path / "small.jsonl", tmp_path / "large.jsonl"
    small.write_text("\n".join(lines[:20]) + "\n")
    large.write_text("\n".join(lines) + "\n")

    def peak(path: Path) -> int:
        gc.collect()
        tracemalloc.start()
        try:
            with open(os.devnull, "w") as null, contextlib.redirect_stdout(null):
                assert replay_each(str(path), True) == 0
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    peak(small)  # the ruleset compiled and cached, the bots' tables built
    added = large.stat().st_size - small.stat().st_size
    assert peak(large) - peak(small) < 4 * added


# ------------------------------------------------- a named file changes after the check
@pytest.mark.parametrize("command", [("replay",), ("analyze",), ("analyze", "--each")])
def test_a_file_that_vanishes_after_the_check_is_not_read_again(tmp_path, monkeypatch, command):
    """The text output is made from the replay that checked the record: should the variant
    file it names vanish after the check (seen in a long fuzz run: another pytest removed the
    folder), nothing is read again and the hand is answered, status 0."""
    import bidcompiler.cli.replay as replay_cli
    from runtime import records

    rules = load_ruleset("standard")
    (tmp_path / "mine.yaml").write_text(Path("variants/standard.yaml").read_text(encoding="utf-8"),
                                        encoding="utf-8")
    state = play_hand(rules, 3, 5, "heuristic")
    record = tmp_path / "hand.jsonl"
    record.write_text(json.dumps(hand_record(state, "mine.yaml")) + "\n", encoding="utf-8")
    checked_once, replayed_once = records.replay_file_kept, records.replay_one

    def check_then_remove(rf, resolve):
        result = checked_once(rf, resolve)
        (tmp_path / "mine.yaml").unlink(missing_ok=True)
        return result

    def replay_then_remove(rec, resolve):  # --each's own check, hand by hand
        result = replayed_once(rec, resolve)
        (tmp_path / "mine.yaml").unlink(missing_ok=True)
        return result

    monkeypatch.setattr(replay_cli, "replay_file_kept", check_then_remove)
    monkeypatch.setattr(replay_cli, "replay_one", replay_then_remove)
    result = run(*command, str(record))
    assert result.exit_code == 0, result.stderr
    assert "Traceback" not in result.stderr and result.stdout.strip()


@pytest.mark.parametrize("command", [("replay",), ("replay", "--json"), ("analyze",), ("analyze", "--json")])
def test_replay_and_analyze_replay_a_game_record_once(tmp_path, monkeypatch, command):
    """The check's replay is the one the output is made from: each hand is replayed once."""
    from runtime import records

    rules = load_ruleset("standard")
    states = play_game(rules, 3, 0, "heuristic", max_hands=2).hands  # a game in progress after two hands
    record = tmp_path / "game.jsonl"
    record.write_text("".join(json.dumps(hand_record(s, "standard")) + "\n" for s in states), encoding="utf-8")
    calls = []
    replay_hand = records.replay_hand

    def counted(*args, **kwargs):
        calls.append(1)
        return replay_hand(*args, **kwargs)

    monkeypatch.setattr(records, "replay_hand", counted)
    result = run(*command, str(record))
    assert result.exit_code == 0, result.stderr
    assert len(calls) == 2  # two hands, each replayed once


@pytest.mark.parametrize("field, name", [
    ("variant", "\x1e"),                      # found by the 10^5 fuzz run: a record separator split the line
    ("variant", "\x1b[2J\x1b[31mstandard"),   # a terminal escape: clear the screen, turn red
    ("variant", "std\u2028ard"),              # a line separator
    ("variant", "x" * 5000),                  # quoted whole, it made a 5,000-character message
    ("with", "a\x1bb"),
    ("variant", "./a\x1eb\u2028c\x07.yaml"),       # a path: refused by the path rules, quoted the same
    ("with", "./a\x1eb\x1b]0;pwned\x07.yaml"),       # an OSC sequence (sets a terminal's title)
    ("variant", "./" + "x" * 3000 + ".yaml"),
])
@pytest.mark.parametrize("mode", [("--json",), ()])
def test_a_name_from_a_record_is_quoted_escaped_and_cut(tmp_path, record, field, name, mode):
    """A record is someone else's file: the names it gives are quoted with every control
    character escaped and cut to a length, so the one message line stays one short line
    and prints nothing a terminal would act on."""
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(dict(record, **{field: [name] if field == "with" else name})), encoding="utf-8")
    result = run("replay", *mode, str(path))
    assert result.exit_code == 1
    text = result.stderr + result.stdout
    assert not any(not c.isprintable() and c != "\n" for c in text), repr(text)
    message = json.loads(result.stdout)["error"]["message"] if mode else result.stderr
    assert len(message.splitlines()) == 1 and len(message) < 1000, message  # the shipped names: ~600
    assert repr(name[:40])[1:-1] in message  # docs/records.md: at most 40 characters of a value


def test_a_name_on_the_command_line_is_escaped_in_the_usage_error():
    for args in (["rules", "a\x1bb"], ["rules", "a\x1bb.yaml"], ["rules", "standard", "--set", "a\x1b=1"]):
        result = run(*args)
        assert result.exit_code == 2
        assert "\x1b" not in result.stderr and "a\\x1b" in result.stderr, result.stderr
    said = run("rules", "a\x1bb").stderr
    assert said.count("a\\x1bb") == 1, said  # named once, in the message's own quotes
    long = run("rules", "x" * 300).stderr
    assert "x" * 61 not in long and "(300 characters)" in long, long
