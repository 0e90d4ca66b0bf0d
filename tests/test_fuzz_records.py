"""Fuzzing ``bidwhist replay`` with hypothesis: whatever a record file holds, replay ends
in one of two ways, and the same way every time.

The inputs start from real records: the hands and games of tests/data/corpus (every
shipped variant and house rule, played by the bots, each with the replay output kept
when it was recorded), and records derived from them that are legal by records.md (a
hand cut short with ``in_progress``, a hand ended early by a ``claim``).  Mutations:

- fields of hand records: keys deleted, values of other types, huge and negative
  numbers, deep nesting, unicode; cards replaced, duplicated, swapped between hands,
  spelt oddly (``10S``, ``as``, ``A S``, ``♠``); calls replaced (another call of the
  variant, case, spaces, huge levels); ``declare``, ``discard``, ``swaps``, ``claim``,
  ``in_progress``, ``dealer`` and ``format`` given other values; ``variant`` and
  ``with`` naming shipped names, paths inside and outside the record's folder, a FIFO,
  a directory, ``/dev/zero``, a file nested too deeply, a file too large, a non-UTF-8
  file, a symbolic link leading out, and ``with`` repeated many times;
- game records: a hand mutated as above, lines deleted, duplicated, swapped, cut;
- the bytes of either: bit flips, truncation, NULs, invalid UTF-8, repeated runs.

The oracle, for every case, through click's CliRunner in this process (a handful of
cases also as the installed script): the exit status is 0, 1 or 2 — never a traceback,
never ``internal error`` (status 70); status 1 is a positioned error (``--json``:
``error.at`` names the record's entry, and a message says what is wrong; text: one
line ``FILE[:LINE]: at: message``); status 2 is one line on stderr naming the file;
status 0 is a replay whose JSON has no error.  Replaying the same file twice gives
byte-identical output.  Unmutated corpus records replay to the output kept in the corpus.

Case counts: see tests/fuzzing.py (``BIDWHIST_FUZZ_SCALE``).
"""

from __future__ import annotations

import copy
import gzip
import itertools
import json
import os
import re
from pathlib import Path

import pytest
from clirun import run, script
from fuzzing import FUZZ, byte_mutations, huge_numbers, scaled, strange_text
from hypothesis import event, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

ROOT = Path(__file__).resolve().parent.parent
CORPUS = sorted((ROOT / "tests" / "data" / "corpus").glob("*.json.gz"))


def _load(path: Path) -> dict:
    return json.loads(gzip.decompress(path.read_bytes()))


# A few hands and one game of each corpus case keep the pool varied and the module quick to load.
CASES = [_load(p) for p in CORPUS]
HANDS = [(h["record"], h["replay"]) for case in CASES for h in case["hands"][:4]]
GAMES = [(g["records"], g["replay"]) for case in CASES for g in case["games"][:1]]
assert HANDS and GAMES


def _tricks_of(record: dict) -> int:
    return len(record.get("play", [])) // len(record["hands"])


def _in_progress(record: dict, cut: int) -> dict:
    """``record`` stopped after ``cut`` cards of play, flagged ``in_progress`` (legal by records.md)."""
    out = copy.deepcopy(record)
    out["play"] = out["play"][:cut]
    out["in_progress"] = True
    return out


def _claimed(record: dict, tricks: int) -> dict:
    """``record`` stopped after ``tricks`` tricks, the declarer claiming every trick left (legal)."""
    out = copy.deepcopy(record)
    players = len(record["hands"])
    remaining = _tricks_of(record) - tricks
    out["play"] = out["play"][:tricks * players]
    out["claim"] = remaining
    return out


PLAYED = [r for r, _ in HANDS if r.get("play")]
# Legal records made from the corpus by records.md's own rules: a hand in progress, a hand claimed.
DERIVED = ([_in_progress(r, k) for r in PLAYED[::3] for k in (0, 1, len(r["play"]) // 2, len(r["play"]) - 1)]
           + [_claimed(r, t) for r in PLAYED[1::3] for t in (1, _tricks_of(r) - 1) if _tricks_of(r) > 1])


# ============================================================ the oracle

_counter = itertools.count()


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """The records' folder, with files a record may name (and files it must be refused)."""
    d = tmp_path_factory.mktemp("records")
    (d / "mine.yaml").write_text((ROOT / "variants" / "standard.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (d / "rule.yaml").write_text((ROOT / "variants" / "kitty-first.yaml").read_text(encoding="utf-8"),
                                 encoding="utf-8")
    (d / "rule.whist").write_text("house-rule rule\ndeclaration { when after-kitty }\n", encoding="utf-8")
    (d / "deep.whist").write_text("house-rule deep\nauction { ranking " + "[" * 600 + "]" * 600 + " }\n",
                                  encoding="utf-8")
    (d / "deepblocks.whist").write_text("variant deep\n" + "a {\n" * 400 + "}\n" * 400, encoding="utf-8")
    (d / "deep.yaml").write_text("kind: house-rule\nplay: " + "[" * 2000 + "]" * 2000 + "\n", encoding="utf-8")
    (d / "huge.yaml").write_text("kind: house-rule\n# " + "x" * (2 << 20) + "\n", encoding="utf-8")
    (d / "latin1.yaml").write_bytes(b"kind: house-rule\ndescription: caf\xe9\n")
    (d / "self.yaml").write_text("kind: house-rule\nextends: ./self.yaml\n", encoding="utf-8")
    (d / "dir.yaml").mkdir()
    if hasattr(os, "mkfifo"):
        os.mkfifo(d / "fifo.yaml")
    (d / "escape.yaml").symlink_to("/etc/passwd")
    return d


def write_record(folder: Path, content: str | bytes, game: bool) -> Path:
    path = folder / f"r{next(_counter)}.{'jsonl' if game else 'json'}"
    if isinstance(content, str):
        content = content.encode("utf-8", "surrogatepass")
    path.write_bytes(content)
    return path


class Raw:
    """JSON text put as is where this stands in a value: numbers too long for Python's int
    conversion, nesting too deep for the json module to write."""

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return f"Raw({self.text[:20]!r}... {len(self.text)} characters)"


def dumps(value) -> str:
    """JSON as a writer might produce it: NaN and unicode allowed, :class:`Raw` text put in as is."""
    raws: list[str] = []

    def default(o):
        if isinstance(o, Raw):
            raws.append(o.text)
            return f"\x01RAW{len(raws) - 1}\x01"
        raise TypeError(o)

    text = json.dumps(value, ensure_ascii=False, allow_nan=True, default=default)
    return re.sub(r'"\\u0001RAW(\d+)\\u0001"', lambda m: raws[int(m.group(1))], text)


def deep_raw(depth: int, kind: str = "list") -> Raw:
    """A value nested ``depth`` deep, as JSON text."""
    if kind == "list":
        return Raw("[" * depth + "]" * depth)
    return Raw('{"a": ' * depth + "1" + "}" * depth)


def game_text(records: list) -> str:
    return "".join(dumps(r) + "\n" for r in records)


MODES = [("--json",), (), ("--json", "--each"), ("--each",)]
_AT = re.compile(r"^(hand\[\d+\](\.|$))?[a-z_]+(\[\d+\])?(\.[a-z_]+(\[\d+\])?)*$|^hand\[\d+\]$")


def _event(name: str) -> None:
    """Count outcomes in hypothesis' statistics (outside a hypothesis test, nothing)."""
    try:
        event(name)
    except InvalidArgument:
        pass


def replay_checked(path: Path, mode: tuple = ("--json",)) -> tuple[int, str]:
    """Replay ``path`` twice in this process and check the oracle; the exit status and stdout."""
    first = run("replay", *mode, str(path))
    second = run("replay", *mode, str(path))
    status = first.exit_code
    assert status in (0, 1, 2), f"exit status {status}: {first.stderr[-500:]}"
    assert "internal error" not in first.stderr
    assert (second.exit_code, second.stdout, second.stderr) == (status, first.stdout, first.stderr), \
        "two replays of one file differ"
    name = str(path)
    if status == 2:
        assert first.stdout == "", "a file refused as not a record printed output"
        lines = first.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(name) and len(lines[0]) > len(name) + 2, first.stderr
        _event("not a record (2)")
        return status, first.stdout
    if "--json" in mode:
        out = json.loads(first.stdout)
        if "--each" in mode:
            errors = [h["error"] for h in out["hands"]]
            assert [h["line"] for h in out["hands"] if h["error"] is not None] == out["illegal"]
            assert (status == 1) == bool(out["illegal"])
        else:
            errors = [out["error"]]
            assert (status == 1) == (out["error"] is not None)
        for error in errors:
            if error is not None:
                assert set(error) == {"at", "message"}
                assert isinstance(error["at"], str) and isinstance(error["message"], str) and error["message"].strip()
                # `at` names the entry (an unknown field: its own name, quoted if not plain); one line each.
                assert _AT.match(error["at"]) or error["message"].startswith("unknown field "), \
                    f"unpositioned error {error}"
                assert "\n" not in error["at"] + error["message"] and len(error["at"]) < 100, error
            else:
                _check_replay_json(out if "--each" not in mode else None)
    elif status == 1:
        errors = [line for line in first.stderr.splitlines() if line]
        assert errors and all(line.startswith(name + ":") for line in errors), first.stderr
        for line in errors:
            rest = line[len(name) + 1:].lstrip("0123456789:").strip()
            assert ": " in rest, f"no position in {line!r}"
    else:
        assert first.stderr == "" and first.stdout.strip(), "a legal replay printed nothing"
    _event("legal (0)" if status == 0 else "illegal (1)")
    return status, first.stdout


def _check_replay_json(out: dict | None) -> None:
    """The shape of a legal replay's JSON (records.md)."""
    if out is None:
        return
    hands = out["hands"] if "hands" in out else [out]
    for hand in hands:
        if hand.get("in_progress"):
            assert hand["score"] is None
        else:
            assert isinstance(hand["score"], list) and all(isinstance(s, int) for s in hand["score"])
            assert isinstance(hand["books"], list)


# ============================================================ unmutated records


def test_corpus_records_replay_through_the_command_as_kept(folder):
    """The pool itself: each unmutated record replays (twice alike) to the output the corpus kept."""
    from test_corpus import kept  # the corpus's own reading of outputs kept before `games` existed

    for record, expected in HANDS[::5]:  # the corpus kept each hand's replay as a one-line .jsonl
        status, out = replay_checked(write_record(folder, dumps(record), game=True))
        assert status == 0 and kept(json.loads(out), 1) == expected
    for records, expected in GAMES[::5]:
        status, out = replay_checked(write_record(folder, game_text(records), game=True))
        assert status == 0 and kept(json.loads(out), len(records)) == expected


def test_derived_records_are_legal(folder):
    """Records cut short with in_progress, or ended by a claim, replay with status 0."""
    assert len(DERIVED) > 20
    for record in DERIVED:
        status, out = replay_checked(write_record(folder, dumps(record), game=False))
        assert status == 0, out
        result = json.loads(out)
        assert (result["score"] is None) == bool(record.get("in_progress"))


# ============================================================ strategies: values

CARD_SPELLINGS = ["AS", "as", "aS", "10S", "TS", "T S", "A S", " AS", "AS ", "A♠", "♠A", "AX", "ZZ", "BJ", "bj",
                  "LJ", "RJ", "A", "S", "", "AAS", "1S", "0S", "11S", "AS\x00", "ＡＳ", "\u0410S", "JOKER", "B J"]
CALL_SPELLINGS = ["pass", "PASS", "Pass", " pass", "pass ", "p", "4", "4 uptown", "4  uptown", "4 UPTOWN", "4uptown",
                  "4 up", "4 nt", "4 no", "4 high", "4 low", "4 special", "4 downtown", "04 uptown", "+4 uptown",
                  "-4 uptown", "4.0 uptown", "take", "redeal", "double", "", " ", "4 uptown uptown", "٤ uptown",
                  "4\tuptown", "4\nuptown", "999999 uptown", "1000000 notrump", "9" * 400 + " uptown",
                  "9" * 4301 + " uptown", "7 notrump", "0 uptown", "14 uptown", "3 notrump"]
NAMES = ["standard", "cincinnati", "cutthroat", "oregon", "two-handed", "northeast52", "kitty-first", "no-kitty",
         "jokers-out-in-notrump", "standard+kitty-first", "mine.yaml", "./mine.yaml", "rule.yaml", "rule.whist",
         "./rule.whist", "deep.whist", "deepblocks.whist", "deep.yaml", "huge.yaml", "latin1.yaml", "self.yaml",
         "dir.yaml", "fifo.yaml", "escape.yaml", "missing.yaml", "../mine.yaml", "sub/../mine.yaml", "/etc/passwd",
         "/dev/zero", "/dev/null", "/", ".", "..", "", "~/x.yaml", "C:\\x.yaml", "variants/standard.yaml",
         "../../variants/standard.yaml", "mine", "standard.whist", "STANDARD", "standard ", "nul\x00.yaml",
         "a" * 300, "a/" * 200 + "x.yaml", "%2e%2e/x.yaml", "\u202emine.yaml"]

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 20), st.integers(-(2**70), 2**70),
    huge_numbers.map(Raw), huge_numbers,
    st.floats(allow_nan=True, allow_infinity=True), strange_text, st.sampled_from(CARD_SPELLINGS + CALL_SPELLINGS),
)
json_values = st.recursive(json_scalars, lambda c: st.one_of(st.lists(c, max_size=4),
                                                             st.dictionaries(st.text(max_size=6), c, max_size=3)),
                           max_leaves=6)


deep_values = st.tuples(st.sampled_from([10, 100, 900, 5000]), st.sampled_from(["list", "dict"])).map(
    lambda t: deep_raw(*t))
other_values = st.one_of(json_values, json_values, deep_values)


# ============================================================ strategies: mutations of a hand record

CARD_FIELDS = ["hands", "kitty", "discard", "play"]
KEYS = ["format", "variant", "with", "dealer", "hands", "kitty", "auction", "declare", "discard", "swaps", "play",
        "claim", "in_progress"]


def _card_slots(record: dict) -> list[tuple]:
    """Every place holding a card: (field,) + index path."""
    slots = []
    for field in CARD_FIELDS:
        value = record.get(field)
        if not isinstance(value, list):
            continue
        for i, item in enumerate(value):
            if field == "hands" and isinstance(item, list):
                slots += [(field, i, j) for j in range(len(item))]
            else:
                slots.append((field, i))
    return slots


def _list(value) -> list:
    """``value`` where it is a list (an earlier edit may have made it anything), else []."""
    return value if isinstance(value, list) else []


def _get(node, path):
    for key in path:
        node = node[key]
    return node


def _set(node, path, value):
    _get(node, path[:-1])[path[-1]] = value


def _other_card(draw, record: dict):
    """A card of the record (so the result is often almost legal), or an odd spelling, or another type."""
    slots = _card_slots(record)
    choice = draw(st.integers(0, 9))
    if slots and choice < 6:
        return _get(record, draw(st.sampled_from(slots)))
    if choice < 9:
        return draw(st.sampled_from(CARD_SPELLINGS))
    return draw(json_scalars)


@st.composite
def mutated_record(draw, record: dict, extra_ops: int = 3) -> dict:
    """A deep copy of a hand record with 1..extra_ops field-level edits."""
    record = copy.deepcopy(record)
    for _ in range(draw(st.integers(1, extra_ops))):
        op = draw(st.sampled_from(["card", "card", "card-swap", "card-dup", "card-del", "card-ins", "call", "call",
                                   "call-del", "call-ins", "declare", "discard", "swaps", "claim", "in_progress",
                                   "dealer", "format", "names", "with-many", "del-key", "other-type",
                                   "unknown-key", "list-len"]))
        slots = _card_slots(record)
        if op == "card" and slots:
            _set(record, draw(st.sampled_from(slots)), _other_card(draw, record))
        elif op == "card-swap" and len(slots) > 1:
            a, b = draw(st.sampled_from(slots)), draw(st.sampled_from(slots))
            va, vb = _get(record, a), _get(record, b)
            _set(record, a, vb)
            _set(record, b, va)
        elif op in ("card-dup", "card-del", "card-ins") and slots:
            path = draw(st.sampled_from(slots))
            seq = _get(record, path[:-1])
            i = path[-1]
            if op == "card-dup":
                seq.insert(i, seq[i])
            elif op == "card-del":
                del seq[i]
            else:
                seq.insert(i, _other_card(draw, record))
        elif op.startswith("call"):
            calls = record.get("auction")
            if not isinstance(calls, list):
                calls = record["auction"] = []
            i = draw(st.integers(0, len(calls)))
            if op == "call-del" and calls:
                del calls[min(i, len(calls) - 1)]
            else:
                new = draw(st.one_of(st.sampled_from(CALL_SPELLINGS), st.sampled_from(calls or ["pass"]),
                                     json_scalars))
                if op == "call-ins" or i == len(calls):
                    calls.insert(i, new)
                else:
                    calls[i] = new
        elif op == "declare":
            record["declare"] = draw(st.one_of(
                st.fixed_dictionaries({}, optional={
                    "trump": st.sampled_from([None, "S", "H", "D", "C", "s", "♠", "X", "", "SS", 0, True, [], "notrump"]),
                    "direction": st.sampled_from(["uptown", "downtown", "UPTOWN", "up", "low", "sideways", "", None,
                                                  1, ["uptown"], "uptown "]),
                    "extra": json_scalars}),
                other_values))
        elif op == "discard":
            record["discard"] = draw(st.one_of(
                st.lists(st.one_of(st.sampled_from(CARD_SPELLINGS), st.sampled_from(
                    [c for h in _list(record.get("hands")) if isinstance(h, list) for c in h] or ["AS"])),
                    max_size=8),
                other_values))
        elif op == "swaps":
            card = st.one_of(st.sampled_from(["LJ", "BJ", "7C", "2S", "AS"]), st.sampled_from(CARD_SPELLINGS),
                             json_scalars)
            record["swaps"] = draw(st.one_of(
                st.lists(st.fixed_dictionaries({"seat": st.one_of(st.integers(-1, 5), json_scalars),
                                                "gave": card, "drew": card},
                                               optional={"extra": json_scalars}), max_size=3),
                other_values))
        elif op == "claim":
            record["claim"] = draw(st.one_of(st.integers(-2, 14), st.lists(st.integers(-1, 13), max_size=4),
                                             other_values))
        elif op == "in_progress":
            record["in_progress"] = draw(st.one_of(st.sampled_from([True, False, None, 1, 0, "true", "yes", []]),
                                                   json_scalars))
        elif op == "dealer":
            record["dealer"] = draw(st.one_of(st.integers(-2, 6), json_scalars))
        elif op == "format":
            record["format"] = draw(st.sampled_from(["bidwhist-hand/2", "BIDWHIST-HAND/1", "bidwhist-hand/1 ",
                                                     "bidwhist-game/1", "", None, 1]))
        elif op == "names":
            record["variant" if draw(st.booleans()) else "with"] = draw(st.one_of(
                st.sampled_from(NAMES), st.lists(st.sampled_from(NAMES), max_size=3), other_values))
        elif op == "with-many":
            record["with"] = [draw(st.sampled_from(NAMES))] * draw(st.sampled_from([31, 32, 33, 2000]))
        elif op == "del-key":
            present = [k for k in KEYS if k in record]
            if present:
                del record[draw(st.sampled_from(present))]
        elif op == "other-type":
            record[draw(st.sampled_from(KEYS))] = draw(other_values)
        elif op == "unknown-key":
            record[draw(st.one_of(st.sampled_from(["Play", "hand", "comment", ""]), strange_text))] = draw(json_values)
        elif op == "list-len":
            field = draw(st.sampled_from(["hands", "kitty", "auction", "play", "discard"]))
            value = record.get(field)
            if isinstance(value, list) and value:
                record[field] = value * draw(st.sampled_from([2, 3, 200])) if draw(st.booleans()) \
                    else value[:draw(st.integers(0, len(value) - 1))]
    return record


pool = st.sampled_from(HANDS + [(r, None) for r in DERIVED]).map(lambda t: t[0])


# ============================================================ the tests


@settings(FUZZ, max_examples=scaled(600))
@given(st.data(), pool, st.sampled_from(MODES))
def test_mutated_hand_records(folder, data, record, mode):
    mutant = data.draw(mutated_record(record), label="record")
    replay_checked(write_record(folder, dumps(mutant), game=False), mode)



@st.composite
def mutated_game(draw, records: list) -> list:
    """A game record (a list of hand records) with 1-2 edits of its lines or of one hand."""
    records = copy.deepcopy(records)
    for _ in range(draw(st.integers(1, 2))):
        op = draw(st.sampled_from(["hand", "hand", "hand", "del", "dup", "swap", "cut", "name-one"]))
        i = draw(st.integers(0, len(records) - 1)) if records else 0
        if op == "hand" and records:
            records[i] = draw(mutated_record(records[i], extra_ops=2))
        elif op == "del" and records:
            del records[i]
        elif op == "dup" and records:
            records.insert(i, records[i])
        elif op == "swap" and len(records) > 1:
            j = draw(st.integers(0, len(records) - 1))
            records[i], records[j] = records[j], records[i]
        elif op == "cut":
            records = records[:i]
        elif op == "name-one" and records:  # every hand of a game must name the first hand's variant
            records[i] = dict(records[i], variant=draw(st.sampled_from(NAMES)))
    return records


@settings(FUZZ, max_examples=scaled(250))
@given(st.data(), st.sampled_from(GAMES), st.sampled_from(MODES))
def test_mutated_game_records(folder, data, game, mode):
    records = data.draw(mutated_game(game[0]), label="game")
    replay_checked(write_record(folder, game_text(records), game=True), mode)



@settings(FUZZ, max_examples=scaled(400))
@given(st.data(), st.booleans(), st.sampled_from(MODES))
def test_byte_mutations_of_records(folder, data, game, mode):
    if game:
        text = game_text(data.draw(st.sampled_from(GAMES))[0])
    else:
        text = dumps(data.draw(pool)) + data.draw(st.sampled_from(["", "\n", "\r\n"]))
    mutant = data.draw(byte_mutations(text.encode("utf-8")), label="bytes")
    replay_checked(write_record(folder, mutant, game=game and data.draw(st.booleans())), mode)



@settings(FUZZ, max_examples=scaled(150))
@given(st.data(), pool)
def test_records_written_strangely(folder, data, record):
    """Valid JSON written oddly: indented, one key per line, a BOM, CRLF, keys repeated, deep values."""
    style = data.draw(st.sampled_from(["indent", "bom", "crlf", "dup-key", "deep-text", "trailing", "blank-lines",
                                       "array", "huge-int", "nan"]))
    text = dumps(record)
    if style == "indent":
        text = json.dumps(record, indent=data.draw(st.integers(0, 8)))
    elif style == "bom":
        text = "\ufeff" + text
    elif style == "crlf":
        text = json.dumps(record, indent=1).replace("\n", "\r\n")
    elif style == "dup-key":  # JSON lets a key repeat; the last one counts
        key = data.draw(st.sampled_from(KEYS))
        text = text[:-1] + f', "{key}": {dumps(data.draw(json_values))}}}'
    elif style == "deep-text":  # deeper than any JSON parser's recursion
        depth = data.draw(st.sampled_from([1000, 100000]))
        text = text[:-1] + ', "play": ' + "[" * depth + "]" * depth + "}"
    elif style == "trailing":
        text = text + data.draw(st.sampled_from([" x", "}", ",", "\n{}", "\n\n" + text, "\x00"]))
    elif style == "blank-lines":
        text = "\n\n" + text + "\n\n\n"
    elif style == "array":
        text = "[" + text + "]"
    elif style == "huge-int":
        key = data.draw(st.sampled_from(["dealer", "claim", "play", "auction", "hands"]))
        text = text[:-1] + f', "{key}": {data.draw(st.sampled_from(["9" * 4301, "-" + "9" * 5000, "1e999", "9" * 30]))}}}'
    else:
        text = text[:-1] + f', "{data.draw(st.sampled_from(KEYS))}": {data.draw(st.sampled_from(["NaN", "Infinity", "-Infinity"]))}}}'
    replay_checked(write_record(folder, text, game=data.draw(st.booleans())), data.draw(st.sampled_from(MODES)))



# ============================================================ a few cases as the installed script

NASTY = [
    {"variant": "deep.whist"}, {"with": ["deepblocks.whist"]}, {"with": ["fifo.yaml"]}, {"variant": "/dev/zero"},
    {"with": ["huge.yaml"] * 2000}, {"auction": ["9" * 4301 + " uptown"]}, {"dealer": Raw("9" * 5000)},
    {"play": deep_raw(5000)}, {"variant": "nul\x00.yaml"}, {"claim": Raw("1" + "0" * 400)},
]


@pytest.mark.parametrize("change", NASTY, ids=lambda c: next(iter(c)))
def test_nasty_records_as_the_installed_script(folder, change):
    record = dict(HANDS[0][0], **change)
    path = write_record(folder, dumps(record), game=False)
    proc = script("replay", "--json", str(path), cwd=folder)
    assert proc.returncode in (1, 2), proc.stderr
    if proc.returncode == 1:
        assert json.loads(proc.stdout)["error"]["at"] in {"variant", "with", "with[0]", "auction[0]", "dealer",
                                                          "play", "claim"}
    # The in-process replay says the same.
    status, out = replay_checked(path)
    assert status == proc.returncode and out == proc.stdout


def test_a_record_read_from_special_files_is_refused(folder):
    """replay itself given a FIFO, a directory or a device: status 2, one line, in bounded time."""
    for name in ("fifo.yaml", "dir.yaml"):
        if (folder / name).exists():
            result = run("replay", "--json", str(folder / name))
            assert result.exit_code == 2
            assert "not a regular file" in result.stderr or "is a directory" in result.stderr
    result = run("replay", "--json", "/dev/zero")
    assert result.exit_code == 2 and "not a regular file" in result.stderr


# ============================================================ regressions found by these fuzzers


@pytest.mark.parametrize("key, at", [("Play", "Play"), ("a\nb", "'a\\nb'"), ("\x1b[31m", "'\\x1b[31m'"),
                                     ("x" * 5000, None)])
def test_regression_an_unknown_field_is_named_on_one_line(folder, key, at):
    # Was: the field's name raw in `at` and in the message, so a name holding a line
    # break split replay's one error line in two (and a terminal escape reached the terminal).
    record = dict(HANDS[0][0], **{key: 1})
    path = write_record(folder, dumps(record), game=False)
    status, out = replay_checked(path)
    error = json.loads(out)["error"]
    assert status == 1 and error["message"].startswith("unknown field ")
    if at is not None:
        assert error["at"] == at
    else:  # thousands of characters: cut, saying how long it was
        assert error["at"].endswith("...' (5000 characters)") and len(error["at"]) < 100
    text = run("replay", str(path))
    assert text.exit_code == 1 and len(text.stderr.splitlines()) == 1 and "\x1b" not in text.stderr
