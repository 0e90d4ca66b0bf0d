"""Hand and game records (records.md): reading, replaying, writing.

A record file is either one hand record (a JSON object) or a game record (JSON
Lines, one hand record per line).  Replaying checks every entry against the rules in
the order records.md gives — ``hands``/``kitty``, ``auction[i]``, ``declare``,
``discard``, ``swaps``, ``play[i]``, ``claim`` — and stops at the first illegal one: an illegal
record is never scored.

The runtime does not know how to find a variant by name, so callers pass a
``resolve(variant, with_rules) -> Ruleset`` function (the CLI's compiles it).
"""

from __future__ import annotations

import itertools
import json
import re
import sys
from dataclasses import dataclass
from typing import Callable, Iterator

from .errors import IllegalAction
# MAX_WITH, the most house rules a record lays on its variant, lives with the other input
# limits, where the command line reads it without loading this module.
from .files import MAX_RECORD_NESTING, MAX_WITH
from .game import GameTally, named_first_dealer
from .hand import AUCTION, DECLARE_DIRECTION, DECLARE_TRUMP, DISCARD, EXCHANGE, OVER, PLAY, HandState
from .cards import digits_note
from .notation import parse_call, parse_card, parse_direction, parse_suit
from .ruleset import NO_TRUMP, Ruleset
from .scoring import renege_penalties
from .tricks import trick_rules

HAND_FORMAT = "bidwhist-hand/1"
RECORD_KEYS = {"format", "variant", "with", "dealer", "hands", "kitty", "auction", "declare",
               "discard", "swaps", "play", "claim", "in_progress"}
# The fields a record may leave out: given as null, each is read as left out (docs/records.md),
# so that `"kitty": null` or `"in_progress": null` from a writer that spells "none" so means
# what the field's absence means, as `"claim": null` and `"declare": null` already did.
OPTIONAL_KEYS = ("with", "kitty", "declare", "discard", "swaps", "play", "claim", "in_progress")
# The entries that come after the auction, in records.md's order of checking.
LATER_KEYS = ("declare", "discard", "swaps", "play", "claim")


Resolver = Callable[[str, list], Ruleset]
# The most characters of a record's own text a message quotes: a "call" of thousands of
# digits is shown by its start and its length, not in full.
_SHOWN_CHARS = 40


# A field name that can be written in `at` as it is: anything else is quoted there.
_PLAIN_FIELD = re.compile(r"[A-Za-z0-9_-]{1,40}")


def shown(value, escaped: bool = False) -> str:
    """A value read from a file, for a message: a string quoted (``'4nt'``), anything else as JSON
    writes it (``true``, ``null``, ``4``: a record is JSON, not Python), cut to
    :data:`_SHOWN_CHARS` characters (saying how long it was: a string's own length, as
    docs/records.md's "at most 40 characters of a value" counts it, not its quotes').

    ``escaped``: every character beyond ASCII written as an escape (``'\\xe9'``), for a message
    that goes to a terminal as it is (a session file's field); a record's value is shown as
    written, its messages being escaped where they are printed.
    """
    quote = ascii if escaped else repr
    if isinstance(value, str):
        if len(value) > _SHOWN_CHARS:  # its first characters in quotes, and its own length
            cut = quote(value[:_SHOWN_CHARS])
            return f"{cut[:-1]}...{cut[-1]} ({len(value)} characters)"
        return quote(value)
    try:
        text = json.dumps(value, ensure_ascii=escaped)
    except (TypeError, ValueError):  # not a JSON value (no record holds one): as Python has it
        text = quote(value)
    if len(text) <= _SHOWN_CHARS:
        return text
    return f"{text[:_SHOWN_CHARS]}... ({len(text)} characters)"


class NotARecord(Exception):
    """The file is not a record at all (bad JSON, not an object, unknown format): exit 2."""


class RecordError(Exception):
    """The first illegal entry of a record: ``at`` names it (``play[17]``), ``message`` the rule."""

    def __init__(self, at: str, message: str):
        self.at = at
        self.message = message
        super().__init__(f"{at}: {message}")

    def as_json(self) -> dict:
        """The ``error`` object of replay's JSON output."""
        return {"at": self.at, "message": self.message}


@dataclass
class RecordFile:
    """The parsed records of a file and whether the file is a game record."""

    records: list[dict]
    is_game: bool
    # The file the records were read from: paths in them are relative to its folder.
    source: str | None = None


# Where a line of a record file ends (JSON Lines: a newline, or CR LF; a lone CR too, which
# JSON never holds raw in a string).  Not str.splitlines: it also breaks at U+2028, U+2029
# and U+0085, which JSON lets a string hold unescaped, so one record would become two lines.
_LINE_BREAK = re.compile("\r\n|[\n\r]")


# Whitespace, line breaks included: a run of blank lines is the part of such a run up to its last break.
_SPACE = re.compile(r"\s*")


def _content_lines(text: str) -> Iterator[tuple[int, str]]:
    """The lines of ``text`` that are not blank, numbered from 1 among all its lines (a blank
    line is counted, not given), one at a time: a 16 MiB file is not copied, and a run of
    blank lines is passed over in one step (ten million newlines were ten million lines to
    look at one by one: half a minute)."""
    n = 0  # the lines before ``pos``
    pos, end = 0, len(text)
    while pos < end:
        space = _SPACE.match(text, pos).end()
        last = max(text.rfind("\n", pos, space), text.rfind("\r", pos, space))
        if last >= 0:  # blank lines, up to the last break in the whitespace (CR LF: the LF is the last)
            stop = last + 1
            n += text.count("\n", pos, stop) + text.count("\r", pos, stop) - text.count("\r\n", pos, stop)
            pos = stop
            continue
        brk = _LINE_BREAK.search(text, pos)
        line = text[pos:brk.start() if brk else end]
        n += 1
        if line.strip():
            yield n, line
        pos = brk.end() if brk else end


def record_line_numbers(text: str) -> list[int]:
    """The line number (from 1) of each record of a JSON Lines file: its non-blank lines,
    the very lines :func:`iter_records` reads as records."""
    return [n for n, _ in record_starts(text)]


def record_starts(text: str) -> list[tuple[int, int]]:
    """Where each record of a file begins: the line (from 1) and column (from 1) of its first
    character, the ``{`` of its object (a byte order mark before the first is not counted);
    the lines are :func:`record_line_numbers`'."""
    starts = []
    for n, line in _content_lines(text):
        # The mark is no part of the first line, as iter_records has it: a line holding only
        # the mark is blank (it was counted as a record, and every line after named one early).
        body = line[1:] if n == 1 and line.startswith(_BOM) else line
        if body.strip():
            starts.append((n, len(body) - len(body.lstrip()) + 1))
    return starts


def iter_records(text: str, filename: str) -> tuple[bool, Iterator[tuple[int, dict]]]:
    """Whether ``text`` is a game record, and its records one at a time with their first line.

    A file named .jsonl, or of more than one line, is a game record (JSON Lines), except a
    file of one hand record written over several lines (:func:`_opens_a_value`).

    Each record is parsed and checked only when the iterator reaches it (NotARecord
    then says where it is not one), so a caller can go through a large file record by
    record without holding them all.  An empty file is refused at once.
    """
    if text.startswith(_BOM):  # a byte order mark some editors and apps write: not part of the JSON
        text = text[len(_BOM):]
    lines = _content_lines(text)
    first = next(lines, None)
    if first is None:
        raise NotARecord(f"{filename}: empty file, expected a {HAND_FORMAT} record")
    second = next(lines, None)
    named_game = filename.endswith(".jsonl")
    opens = second is not None and _opens_a_value(first[1])
    # A first line cut short where the next line starts another record is a game record's
    # damaged first line, not the start of one record over several lines (_cut_short).
    cut = opens and _cut_short(first[1], second[1])
    # A file not named .jsonl whose first line opens a value it does not close is one record
    # over several lines (_opens_a_value); a .jsonl file is a game record whatever it holds.
    is_game = named_game or (second is not None and (cut or not opens))
    if is_game:
        chunks: Iterator[tuple[int, str]] = itertools.chain([first], [second] if second is not None else [], lines)
    else:
        chunks = iter([(first[0], text)])
    note = "cut" if cut else "over lines" if named_game and opens else ""
    return is_game, ((first_line, _parse_record(chunk, first_line, is_game, filename,
                                                note if first_line == first[0] else ""))
                     for first_line, chunk in chunks)


_BOM = "\ufeff"


def _not_json(name: str):
    """Python's json reads ``NaN`` and ``Infinity``; JSON (RFC 8259) has no such values."""
    raise ValueError(f"{name} is not a JSON value")


def json_decode_message(exc: json.JSONDecodeError) -> str:
    """json's message for text that is no JSON, worded for a position given in front of it:
    json's messages that end "... at" expect the position after them."""
    return exc.msg[:-3] + " here" if exc.msg.endswith(" at") else exc.msg


def json_trouble(exc: ValueError | RecursionError) -> str:
    """What Python's json refused beyond the grammar, in the reader's words: not the
    interpreter's advice (``use sys.set_int_max_str_digits()``) or its recursion limit."""
    if isinstance(exc, RecursionError):
        return "nested too deeply (arrays and objects inside one another)"
    digits = re.search(r"value has (\d+) digits", str(exc))
    if digits:
        return f"a number of {int(digits[1]):,} digits (the limit is {sys.get_int_max_str_digits():,})"
    return str(exc)


# The tokens of JSON text that matter to :func:`_trouble_offset`: strings (skipped whole, as a
# bracket or ``NaN`` inside one is text), the constants Python reads beyond JSON, numbers and brackets.
# Possessive (``*+``): a plain ``*`` kept a backtracking point per character of a string, and a
# string of 15 MB ran out of memory (MemoryError, status 70).
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*+"|(?P<const>-?Infinity|NaN)'
                         r'|(?P<int>-?(?:0|[1-9][0-9]*))(?P<more>[.eE])?|(?P<open>[\[{])|(?P<close>[\]}])')


def _trouble_offset(chunk: str, exc: ValueError | RecursionError) -> int | None:
    """Where in ``chunk`` json met what it refused beyond the grammar (a message says where).

    Everything before that point is JSON json took (it reads in order), so the first such
    token outside a string is the one: ``NaN`` or ``Infinity``; an integer longer than
    Python converts; for nesting too deep, the first bracket of the deepest level reached.
    """
    limit = sys.get_int_max_str_digits()
    deepest, depth, where = 0, 0, None
    for token in _JSON_TOKEN.finditer(chunk):
        if token["const"] and not isinstance(exc, RecursionError) and "digits" not in str(exc):
            return token.start()
        if token["int"] and not token["more"] and len(token["int"].lstrip("-")) > limit and "digits" in str(exc):
            return token.start()
        if token["open"]:
            depth += 1
            if depth > deepest:
                deepest, where = depth, token.start()
        elif token["close"]:
            depth -= 1
    return where if isinstance(exc, RecursionError) else None


def _opens_a_value(first_line: str) -> bool:
    """Whether a file's first line opens a JSON value it does not close (``{``, or
    ``{ "format": "bidwhist-hand/1",``): the start of one record written over several lines.

    records.md makes a file of more than one line a game record, yet writes its own hand
    record over several lines, as every pretty-printer does.  A JSON Lines record closes
    on its line; a line json reads to its end without an error before it is a value still
    open, so such a file is read as one hand record, its errors placed in the whole file.
    A line broken before its end (a game record's damaged first line) is not.
    """
    try:
        json.loads(first_line, parse_constant=_not_json)
    except json.JSONDecodeError as exc:
        # "Extra data": the line closed its value, and a space JSON has no word for (U+00A0,
        # a form feed) follows it; str.rstrip takes that for blanks, json does not.
        return exc.pos >= len(first_line.rstrip()) and exc.msg != "Extra data"
    except (ValueError, RecursionError):
        return False
    return False


def _cut_short(first_line: str, second_line: str) -> bool:
    """Whether a first line that opens a value (:func:`_opens_a_value`) is a JSON Lines record
    cut short at its end: the next line starts an object (``{``) where the first line's value
    cannot go on with one, so read as one value the file breaks at the start of line 2.

    A record written over several lines goes on with a name, a value or a bracket after its
    first line; a ``{`` there is the next record of a game record whose first line lost its end.
    A first line of ``{`` alone is the pretty-printed start of a record, never a cut line.
    """
    head = first_line.rstrip()
    if head.lstrip() == "{" or not second_line.lstrip().startswith("{"):
        return False
    try:
        json.loads(head + "{", parse_constant=_not_json)
    except json.JSONDecodeError as exc:
        return exc.pos == len(head) and exc.msg != "Extra data"  # "Extra data": the value closed
    except (ValueError, RecursionError):
        return False
    return False


def _line_and_column(chunk: str, offset: int) -> tuple[int, int]:
    """The line (from 1) and column (from 1) of ``offset`` in ``chunk``, lines ended by LF,
    CR or CR LF as records.md has them (json's own ``lineno`` counts LF alone).  Counted by
    ``str.count``, not line by line: an error at the end of 16 MiB of lines took seconds."""
    breaks = chunk.count("\n", 0, offset) + chunk.count("\r", 0, offset) - chunk.count("\r\n", 0, offset)
    start = max(chunk.rfind("\n", 0, offset), chunk.rfind("\r", 0, offset)) + 1
    return breaks + 1, offset - start + 1


class _GivenTwice(dict):
    """A JSON object that gives a name more than once (``twice``: the first such name), as the
    last value for it: a record's reader reports it (:func:`check_given_twice`)."""

    twice: str = ""


def _json_object(pairs: list) -> dict:
    """json's object hook: a dict, or a :class:`_GivenTwice` where a name comes twice."""
    obj = dict(pairs)
    if len(obj) == len(pairs):
        return obj
    out = _GivenTwice(obj)
    seen: set[str] = set()
    twice = []
    for key, _ in pairs:
        if key in seen:
            twice.append(key)
        seen.add(key)
    # "format" first: it decides whether the text is a record at all (exit 2, whatever the order)
    out.twice = "format" if "format" in twice else twice[0]
    return out


def _twice_within(value) -> str | None:
    """The name some object inside ``value`` gives twice, or None (iterative: JSON nests deep)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _GivenTwice):
            return item.twice
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(v for v in item if isinstance(v, (dict, list)))  # not the strings of a long list
    return None


def check_given_twice(record: dict, prefix: str = "") -> None:
    """RecordError at the field of ``record`` that gives a name twice (itself, or an object within it).

    RFC 8259 leaves an object whose names are not unique to the reader ("unpredictable"):
    one tool reads the first value, another the last, so such a record would mean two
    things; records.md rejects what does not fit the format.
    """
    if isinstance(record, _GivenTwice):
        name = record.twice
        raise RecordError(prefix + (name if _PLAIN_FIELD.fullmatch(name) else shown(name)),
                          f"{shown(name)} is given twice in the record (which one counts is not said)")
    for key, value in record.items():
        inner = _twice_within(value)
        if inner is not None:
            raise RecordError(prefix + (key if _PLAIN_FIELD.fullmatch(key) else shown(key)),
                              f"{shown(key)} holds an object that gives {shown(inner)} twice "
                              "(which one counts is not said)")


def _parse_record(chunk: str, first_line: int, is_game: bool, filename: str, note: str = "") -> dict:
    """One record's JSON text as a record (a JSON object of the hand format); NotARecord if not.

    ``note``: what a game record's first line is when it does not close its record, for its
    error to say: ``"over lines"``, a .jsonl file's first line opening a value over several
    lines (why the file is not read as one record); ``"cut"``, a line cut short before the
    next record (:func:`_cut_short`).
    """
    try:
        value = json.loads(chunk, parse_constant=_not_json, object_pairs_hook=_json_object)
    except json.JSONDecodeError as exc:
        # Text that ends before its record closes: json places that after the last blank line
        # (a final newline made it "2:1", a line that is no line); it is just after the last character.
        end = len(chunk.rstrip())
        line, column = _line_and_column(chunk, min(exc.pos, end))
        msg = json_decode_message(exc)
        # json places a string with no closing quote at its opening one, not at the end: a
        # record cut short inside a string (a control character, a line break, is its own
        # error, so the text ends inside this string).  A control character after the last
        # one (a .json file cut inside a string, then its final newline) is that cut too.
        in_string = exc.msg.startswith("Unterminated string") or \
            (exc.msg.startswith("Invalid control character") and exc.pos >= end)
        if msg.startswith("Unexpected UTF-8 BOM"):  # json's advice ("decode using utf-8-sig") is Python's
            msg = "a byte order mark (U+FEFF) is let stand only before the first record"
        elif note == "cut":
            msg += (f"; line {first_line} stops before its record closes and the next line starts another, so "
                    "the file is a game record (JSON Lines: one hand record a line) whose line "
                    f"{first_line} is cut short: complete the record, or remove the line")
        elif note == "over lines":
            msg += ("; a file named .jsonl is a game record (JSON Lines: one hand record a line), and this one "
                    "opens a value over several lines: write one record a line, or name the file .json")
        elif msg == "Extra data" and not is_game and chunk.startswith("{", exc.pos):  # a second record
            msg += ": a file of more than one record is a game record, JSON Lines, one hand record a line"
        # Not "Extra data": that is after a closed value (a space JSON does not read), not a cut
        elif (exc.pos >= end or in_string) and exc.msg != "Extra data":
            msg += (f"; line {first_line} ends" if is_game else "; the file ends") + \
                f" before its record closes: it is cut short, or a {'quote' if in_string else 'bracket'} is missing"
        raise NotARecord(f"{filename}:{line + first_line - 1 if is_game else line}:{column}: "
                         f"invalid JSON: {msg}") from None
    except (ValueError, RecursionError) as exc:  # a huge integer, NaN, nesting too deep
        raise _beyond_json(chunk, exc, first_line, is_game, filename) from None
    if nested_deeper(value, MAX_RECORD_NESTING):
        raise _beyond_json(chunk, RecursionError(), first_line, is_game, filename)
    # records.md: one line saying where, FILE:LINE:COLUMN as for bad JSON: the record's first character.
    where = f"{filename}:{first_line}:{_start_column(chunk)}"
    if not isinstance(value, dict):
        also = "; a game record is JSON Lines, one hand record a line, not an array" if isinstance(value, list) else ""
        raise NotARecord(f"{where}: expected a JSON object (a {HAND_FORMAT} record){also}")
    if isinstance(value, _GivenTwice) and value.twice == "format":
        raise NotARecord(f"{where}: \"format\" is given twice, so the record's format is not said")
    fmt = value.get("format")
    if fmt != HAND_FORMAT:
        if "format" not in value:
            raise NotARecord(f"{where}: no \"format\" field; a hand record starts "
                             f"{{\"format\": \"{HAND_FORMAT}\", ...}}")
        raise NotARecord(f"{where}: unknown record format {shown(fmt)}; expected '{HAND_FORMAT}'")
    for key in OPTIONAL_KEYS:
        if key in value and value[key] is None:
            del value[key]
    return value


def _beyond_json(chunk: str, exc: ValueError | RecursionError, first_line: int, is_game: bool,
                 filename: str) -> NotARecord:
    """NotARecord for JSON a record cannot hold (a huge integer, NaN, nesting too deep), said
    where, as a JSONDecodeError is (json counts lines by LF, columns from 1)."""
    offset = _trouble_offset(chunk, exc)
    where = f"{first_line}"
    if offset is not None:
        line, column = _line_and_column(chunk, offset)
        where = f"{line + first_line - 1 if is_game else line}:{column}"
    return NotARecord(f"{filename}:{where}: invalid JSON: {json_trouble(exc)}")


def nested_deeper(value, limit: int) -> bool:
    """True when more than ``limit`` arrays and objects of ``value`` lie inside one another
    (``value`` itself counted).  Iterative: the point is a value too deep to recurse over."""
    if not isinstance(value, (dict, list)):
        return False
    stack = [(value, 1)]  # containers only: a record's many cards and calls are never pushed
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        stack.extend((inner, depth + 1) for inner in (item.values() if isinstance(item, dict) else item)
                     if isinstance(inner, (dict, list)))
    return False


def _start_column(chunk: str) -> int:
    """The column (from 1) of the first character of the JSON value in ``chunk`` (a record's
    text, whose first line holds that character): where a record that is no record begins."""
    body = chunk.lstrip()
    lead = chunk[:len(chunk) - len(body)]
    line_start = max((brk.end() for brk in _LINE_BREAK.finditer(lead)), default=0)
    return len(lead) - line_start + 1


# records.md: "Output is always the canonical ASCII spelling" -- messages too.  A card, call,
# suit or direction the record spells its own way (``10♥``, ``PASS``, ``high``) is named
# canonically once read; what cannot be read is quoted as the record has it.
def card_shown(rules: Ruleset, value) -> str:
    """A card of the record for a message: its canonical name (``TH``), or the value quoted."""
    cid = parse_card(rules, value)
    return shown(value) if cid is None else rules.cards[cid]


def call_shown(rules: Ruleset, value) -> str:
    """A call of the record for a message: its canonical text quoted (``'4 uptown'``), or the value."""
    action = parse_call(rules, value)
    return shown(value if action is None else rules.action_names[action])


def read_record_file(text: str, filename: str) -> RecordFile:
    """Parse a record file's text; NotARecord says where it is not one."""
    is_game, records = iter_records(text, filename)
    return RecordFile([record for _, record in records], is_game, filename)


# --------------------------------------------------------------------------- replay
@dataclass
class HandReplay:
    """A replayed hand: the final state and the claim, if any."""

    state: HandState
    claimed: bool = False
    in_progress: bool = False  # the record stops partway and says so (records.md ``in_progress``)
    prefix: str = ""  # ``hand[3].`` in a game record: what ``at`` values start with
    raw_books: list[int] | None = None  # the books before any renege penalty (a claimed hand's included)

    def as_json(self) -> dict:
        """The per-hand object of ``bidwhist replay --json``."""
        state = self.state
        cards = state.rules.cards
        tricks = [{"leader": l, "cards": [cards[c] for c in t], "winner": w} for l, t, w in state.tricks]
        if self.in_progress and state.trick:  # the unfinished trick, winner not known yet
            tricks.append({"leader": state.leader, "cards": [cards[c] for c in state.trick], "winner": None})
        out = {
            "contract": state.decided_contract,  # in progress: what is decided (records.md)
            "tricks": tricks,
            "books": state.books_so_far() if self.in_progress else list(state.books),
            "score": None if self.in_progress else list(state.score),
            "error": None,
        }
        if not state.refuses_renege():  # records.md: present whenever a renege may stand
            suits = state.rules.suits
            out["reneges"] = [{"at": f"{self.prefix}play[{i}]", "seat": seat, "suit": suits[suit]}
                              for i, seat, suit in state.renege_plays]
        if self.in_progress:
            out["in_progress"] = True
        return out

    @property
    def penalty_moved_books(self) -> bool:
        """Whether a renege penalty changed the books the hand is scored with.

        A renege can stand and move nothing: a side that took no book is "scored as if the
        other side took every book", which it did.  The text says "(after the renege
        penalty)" beside the books only where this is true.
        """
        state = self.state
        if self.in_progress or not state.renege_plays:
            return False
        raw = self.raw_books if self.raw_books is not None else state.books_so_far()
        return list(raw) != list(state.books)

    def renege_lines(self, side_name: Callable[[int], str] | None = None,
                     seat_name: Callable[[int], str] | None = None,
                     place: Callable[[int], str] | None = None) -> list[str]:
        """Each renege that stood, in words: who, where, and what the penalty moved (text output).

        A side is named by its seats as the books beside it are (``side 0+2``, a player alone
        ``seat 1``), not by its index (``side 1`` read as seat 1's); ``side_name``, ``seat_name``
        and ``place`` (the card's index in the play: ``at play[3]``) say them otherwise, as
        the play at the terminal does.
        """
        state = self.state
        rules = state.rules
        if not state.renege_plays:
            return []

        side_name = side_name or (lambda side: side_by_seats(rules, side))
        seat_name = seat_name or (lambda seat: f"seat {seat}")
        place = place or (lambda i: f"at {self.prefix}play[{i}]")

        def who(i: int, seat: int, suit: int) -> str:
            return f"{seat_name(seat)} did not follow {rules.suit_names[suit]} {place(i)}"

        if self.in_progress:  # as the JSON lists them; nothing has moved yet
            return [f"{who(i, seat, suit)} and the renege stands: its penalty moves books when the hand is scored"
                    for i, seat, suit in state.renege_plays]
        books = list(self.raw_books if self.raw_books is not None else state.books_so_far())
        steps = renege_penalties(rules, books, [seat for _, seat, _ in state.renege_plays])
        lines = []
        for (i, seat, suit), (before, after, short) in zip(state.renege_plays, steps):
            side = rules.side_of[seat]
            other = next(s for s in range(rules.sides) if after[s] > before[s]) if after != before else 1 - side
            text = f"{who(i, seat, suit)} and the renege stood: "
            if short:
                text += (f"{side_name(side)} had only {before[side]} book{'s' if before[side] != 1 else ''}, so the "
                         f"hand is scored as if {side_name(other)} took all {sum(before)}")
            else:
                moved = before[side] - after[side]
                text += f"{moved} book{'s' if moved != 1 else ''} moved from {side_name(side)} to {side_name(other)}"
            lines.append(text)
        # After a penalty that left the reneging side short, the hand is already scored as a
        # sweep and later reneges move nothing (renege_penalties stops); each is said all the same.
        for i, seat, suit in state.renege_plays[len(steps):]:
            lines.append(f"{who(i, seat, suit)} and the renege stood: nothing more moved (the hand is already "
                         "scored as if the other side took every book)")
        return lines


def _not_a_card(value) -> str:
    """A value a record gives as a card that names none of the deck, quoted, and why (its end of a refusal)."""
    return f"{shown(value)}, which is not a card of this deck{digits_note(value)}"


def _card_list(rules: Ruleset, value, at: str, what: str, note: str = "") -> list[int]:
    """``value`` as card ids; RecordError at ``at`` unless it is a list of this deck's cards
    (``what`` names the list in the message, ``note`` ends it: who dealt it)."""
    if not isinstance(value, list):
        raise RecordError(at, f"{what} must be a list of cards{note}")
    ids = []
    for card in value:
        cid = parse_card(rules, card)
        if cid is None:
            raise RecordError(at, f"{what} holds {_not_a_card(card)}{note}")
        ids.append(cid)
    return ids


def _twice(first: str, second: str) -> str:
    """Where a card dealt twice lies: both places, or the one place that holds it twice."""
    return f"both in {first}" if first == second else f"{first} and {second}"


def side_by_seats(rules: Ruleset, side: int) -> str:
    """A side named by its seats, as the books line names it: ``side 0+2``, a player alone ``seat 1``."""
    seats = [str(s) for s in range(rules.players) if rules.side_of[s] == side]
    return f"side {'+'.join(seats)}" if len(seats) > 1 else f"seat {seats[0]}"


def _is_seat(rules: Ruleset, value) -> bool:
    """True when ``value`` is a seat of this table: a whole number (not a bool) from 0 to players - 1."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < rules.players


def _whole(value) -> str:
    """A note for a number written with a fraction where a whole number goes (``2.0``): JSON
    writers that print every number as a float are told why it is refused (records.md's
    seats and counts are whole numbers; docs/records.md, the decision)."""
    if isinstance(value, float) and value.is_integer():
        return f" (a whole number: {int(value)}, not {value!r})"
    return ""


def check_deal(rules: Ruleset, record: dict, prefix: str = "") -> tuple[list[list[int]], list[int]]:
    """The deal of a record as card ids, checked to be exactly the variant's deck."""
    check_required(record, "hands", prefix, rules)
    hands = record.get("hands")
    if not isinstance(hands, list) or len(hands) != rules.players:
        raise RecordError(prefix + "hands", f"expected {rules.players} hands, one per seat")
    ids = []
    seen: dict[int, str] = {}
    for seat, hand in enumerate(hands):
        # records.md: the message names the seat -- hands[s] is seat s's hand, and says so in words too.
        whose = f" (seat {seat}'s hand)"
        cards = _card_list(rules, hand, prefix + "hands", f"hands[{seat}]", whose)
        if len(cards) != rules.hand_size:
            raise RecordError(prefix + "hands", f"hands[{seat}] has {_counted(len(cards), 'card')}; "
                                                f"the variant deals {rules.hand_size}{whose}")
        for c in cards:
            if c in seen:
                raise RecordError(prefix + "hands",
                                  f"{rules.cards[c]} is dealt twice ({_twice(seen[c], f'hands[{seat}]')})")
            seen[c] = f"hands[{seat}]"
        ids.append(cards)
    if rules.kitty_size:  # where the variant deals none, no kitty is the empty one
        check_required(record, "kitty", prefix, rules)
    # records.md: the message names the seat; the kitty is no seat's hand, but the dealer dealt it
    # (where the record names a dealer: a deal read from another format may not).
    dealer = record.get("dealer")
    by = f"; seat {dealer} dealt it" if _is_seat(rules, dealer) else ""
    kitty = _card_list(rules, record.get("kitty", []), prefix + "kitty", "kitty", by)
    if len(kitty) != rules.kitty_size:
        dealt = f"the variant's kitty has {rules.kitty_size}" if rules.kitty_size else "the variant deals no kitty"
        raise RecordError(prefix + "kitty", f"kitty has {_counted(len(kitty), 'card')}; {dealt}{by}")
    for c in kitty:
        if c in seen:
            raise RecordError(prefix + "kitty", f"{rules.cards[c]} is dealt twice ({_twice(seen[c], 'kitty')}){by}")
        seen[c] = "kitty"
    return ids, kitty


# What each required field of a hand record holds, for the message that says it is missing
# (docs/records.md: format, variant, dealer, hands and auction are required; kitty where the
# variant deals one).  ``format`` is checked when the file is read (not a record: exit 2).
_REQUIRED_WHAT = {
    "variant": "a variant's name or a path",
    "dealer": "the seat that dealt (0 to {last})",
    "hands": "the {players} hands dealt, one list of cards per seat",
    "kitty": "the {kitty} dealt to the kitty, as the variant deals one",  # kitty: "6 cards", "1 card"
    "auction": "the calls in order, as a list",
}
# The start of every missing-field message: the CLI points such an error at the object that
# lacks the field (FILE:LINE:COLUMN), as there is no text of the field to point at.
MISSING_FIELD = re.compile(r"no [a-z_]+: a hand record needs ")


def check_required(record: dict, field: str, prefix: str = "", rules: Ruleset | None = None) -> None:
    """RecordError at ``field`` when the record does not give it at all ("no dealer: ...").

    A field given as ``null`` is not missing: the field's own check refuses it there.
    """
    if field in record:
        return
    what = _REQUIRED_WHAT[field]
    if rules is not None:
        what = what.format(last=rules.players - 1, players=rules.players, kitty=_counted(rules.kitty_size, 'card'))
    raise RecordError(prefix + field, f'no {field}: a hand record needs "{field}", {what}')


def check_fields(record: dict, prefix: str = "") -> None:
    """RecordError at a field given twice (or holding an object that gives a name twice), then at
    the first unknown field as the record writes them: docs/records.md checks these before
    anything else of the record."""
    check_given_twice(record, prefix)
    unknown = [name for name in record if name not in RECORD_KEYS]  # the first as written
    if unknown:
        # Reported at its own name (records.md), but a name is the record's own text: one
        # with line breaks, control characters or thousands of characters is shown quoted
        # and cut, so the error stays one line (the fuzz suite found a raw newline).
        name = unknown[0]
        plain = _PLAIN_FIELD.fullmatch(name) is not None
        raise RecordError(prefix + (name if plain else shown(name)),
                          f"unknown field {shown(name)} in a {HAND_FORMAT} record")


def replay_hand(rules: Ruleset, record: dict, prefix: str = "") -> HandReplay:
    """Replay one hand record; RecordError at the first illegal entry.

    The entries are checked here and applied by the engine's one replayer
    (:meth:`HandState.from_actions`), fed one by one as the hand's phases ask for them.
    """
    check_fields(record, prefix)
    check_required(record, "dealer", prefix, rules)
    dealer = record.get("dealer")
    if not _is_seat(rules, dealer):
        raise RecordError(prefix + "dealer", f"dealer must be a seat from 0 to {rules.players - 1}{_whole(dealer)}")
    hands, kitty = check_deal(rules, record, prefix)
    in_progress = _in_progress_flag(record, prefix)
    # The entry whose action the engine is applying: where an IllegalAction points (None: a card of play).
    at: list[str | None] = [prefix]
    built: list[HandState] = []

    def entries(state: HandState):
        """The record's entries as actions, each checked when the hand's phases ask for it."""
        built.append(state)
        try:
            yield from _hand_entries(state, record, prefix, at, in_progress)
        except _Stopped as stop:  # an in-progress record ends here: nothing after it may be given
            if stop.field == "declare" and not state.declares_before_kitty():
                _check_swaps_made(state, record, prefix)  # the exchange came before the declaration
            _nothing_after(record, prefix, stop.field, stop.where, _later_keys(state))

    def _hand_entries(state: HandState, record: dict, prefix: str, at: list, in_progress: bool):
        """Every entry of the record as actions, in the order the hand's phases ask for them."""
        check_required(record, "auction", prefix, state.rules)
        yield from _auction_entries(state, record.get("auction"), prefix, at, in_progress)
        if state.phase == OVER:
            # An empty declare, discard, swaps or play says nothing and is let pass; any
            # claim, even of 0, needs a trick played; a value of another type (0, "", false) is refused too.
            for key in LATER_KEYS:
                if _holds(record, key):
                    raise RecordError(prefix + key, f"the hand ended without a contract, so it has no {key}")
            return
        # Where the kitty comes before the declaration, the discard comes first; follow the game's own order.
        # Where the first lead names trump, the declarer says "notrump" (or leads) after any discard.
        steps = ((_declare_entries, _discard_entries) if state.declares_before_kitty()
                 else (_discard_entries, _declare_entries))
        if steps[0] is _discard_entries and state.phase == DISCARD:
            # records.md checks `declare` before `discard` whatever order the game asks for
            # them in; which cards are laid away never changes what may be declared, so
            # try the declaration after any legal discard first.
            trial = state.clone()
            trial.swaps_given = None  # a trial: the exchange is not what it is about
            try:
                trial.replay(_any_discards(trial))
                trial.replay(_declare_entries(trial, record, prefix, at, in_progress))
            except (_Stopped, IllegalAction):
                pass  # the declaration stops or fails in the real run too, and says where
        for step in steps:
            yield from step(state, record, prefix, at, in_progress)
        _check_swaps_made(state, record, prefix)
        yield from _play_entries(state, record, prefix, at)

    try:
        state = HandState.from_actions(rules, dealer, hands, kitty, entries)
    except IllegalAction as exc:
        if exc.rule == "swap":  # the exchange after the discard (kitty.py checks it)
            raise RecordError(prefix + "swaps", exc.message) from None
        if at[0] is None:
            raise _play_error(built[0], record["play"], prefix, exc.message) from None
        raise RecordError(at[0], exc.message) from None
    return _replay_claim(state, record, prefix, in_progress)


class _Stopped(Exception):
    """An in-progress record stops at ``field`` (``where`` says where, in words)."""

    def __init__(self, field: str, where: str):
        super().__init__(where)
        self.field = field
        self.where = where


def _in_progress_flag(record: dict, prefix: str) -> bool:
    """The record's ``in_progress`` flag (absent: False); RecordError where it is not a boolean."""
    value = record.get("in_progress", False)
    if not isinstance(value, bool):
        raise RecordError(prefix + "in_progress", "in_progress must be true or false")
    return value


def _later_keys(state: HandState) -> tuple[str, ...]:
    """The entries after the auction in the order this hand makes them: where the kitty is
    taken before the declaration, the discard comes before the declare."""
    if state.declarer >= 0 and not state.declares_before_kitty():
        return ("discard", "swaps", "declare", "play", "claim")
    return LATER_KEYS


def _nothing_after(record: dict, prefix: str, field: str, where: str,
                   order: tuple[str, ...] = LATER_KEYS) -> None:
    """An in-progress record stopped at ``field``: any entry that comes later in the hand
    (``order``: the hand's own order of the entries) is illegal."""
    for key in order[order.index(field) + 1 if field in order else 0:]:
        if _holds(record, key):
            raise RecordError(prefix + key, f"the hand stops {where}, so the record has no {key} yet")


# The empty value of each entry after the auction but the claim: given so, the entry says nothing.
_EMPTY_ENTRY: dict[str, type] = {"declare": dict, "discard": list, "swaps": list, "play": list}


def _holds(record: dict, key: str) -> bool:
    """Whether the record gives something at ``key``: anything but null and the entry's own empty
    value (``[]``; ``{}`` for ``declare``) -- a claim of 0 does, and so does a value of another
    type (``0``, ``""``, ``false``: not an empty list, so refused where no such entry may be)."""
    value = record.get(key)
    if value is None:
        return False
    empty = _EMPTY_ENTRY.get(key)
    return empty is None or not isinstance(value, empty) or bool(value)


def _auction_entries(state: HandState, calls, prefix: str, at: list, in_progress: bool = False):
    """The calls of a record as actions; RecordError where one is not a call here."""
    rules = state.rules
    if not isinstance(calls, list):
        raise RecordError(prefix + "auction", "auction must be a list of calls")
    for i, text in enumerate(calls):
        if state.phase != AUCTION:
            # records.md: the message names the seat -- no seat's turn comes after the auction, so
            # the seat named is the one whose call ended it (the call the extra one follows).
            ended = ""
            if state.calls:
                seat, action = state.calls[-1]
                ended = f", ended by seat {seat}'s {shown(rules.action_names[action])}"
            raise RecordError(prefix + "auction",
                              f"the auction was over after {_counted(i, 'call')}{ended}; "
                              f"{call_shown(rules, text)} follows it")
        at[0] = f"{prefix}auction[{i}]"
        action = parse_call(rules, text)
        if action is None:
            # records.md: "A call is one string" -- a JSON number 4 is not the call "4".
            hint = digits_note(text) if isinstance(text, str) else " (a call is a string, such as \"pass\")"
            raise RecordError(at[0], f"seat {state.current_player()}: {shown(text)} is not a call of this variant"
                                     + hint)
        # records.md: the matching bid itself means the same as take (the engine says when).
        yield state.call_meaning(action)
    if state.phase == AUCTION:
        if in_progress:
            raise _Stopped("auction", f"in the auction, before seat {state.current_player()} calls")
        raise RecordError(prefix + "auction", f"the auction stops after {_counted(len(calls), 'call')}; "
                                              f"seat {state.current_player()} has not called")


def _any_discards(state: HandState):
    """Legal discards, the first each time, until the discard is done (for trying what comes after)."""
    while state.phase == DISCARD:
        yield state.legal_actions()[0]


def _declare_entries(state: HandState, record: dict, prefix: str, at: list, in_progress: bool = False):
    """The record's ``declare`` as the actions the hand asks for now; RecordError where it does not fit."""
    rules = state.rules
    where = prefix + "declare"
    declare = record.get("declare")
    needed = state.phase in (DECLARE_TRUMP, DECLARE_DIRECTION)
    if declare is None:
        if needed and in_progress:
            raise _Stopped("declare", f"before seat {state.declarer} declares")
        if needed:
            word = "trump" if state.phase == DECLARE_TRUMP else "a direction"
            raise RecordError(where, f"seat {state.declarer} must declare {word}; the record has no declare")
        return
    # records.md: the message names the rule broken and the seat -- whoever declares, as for the
    # declare's values ("seat 0: trump 'X' ..."), also where the object itself is wrong.
    who = f"seat {state.declarer}" if state.declarer >= 0 else "nobody"
    if not isinstance(declare, dict):
        raise RecordError(where, f"{who}: declare must be an object such as {{\"trump\": \"H\"}}, "
                                 f"not {shown(declare)}")
    extra = [key for key in declare if key not in ("trump", "direction")]  # the first as written
    if extra:
        raise RecordError(where, f"{who}: unknown key {shown(extra[0])} in declare (a declare names "
                                 "\"trump\" and \"direction\", nothing else)")
    at[0] = where
    if state.phase == PLAY and state.table is None and "trump" in declare:  # the first lead names trump,
        if declare["trump"] is not None:  # ... unless the declarer declares notrump
            raise RecordError(where, f"seat {state.declarer} names trump by the first card led: a hand played "
                                     "with trump has no declare, and a declared notrump is {\"trump\": null}")
        yield rules.no_trump_action
    # A declare without trump there names no trump: {} is no declare (as where the variant asks for
    # nothing), and a direction the bid settled may be restated (docs/records.md, declare).
    while state.phase in (DECLARE_TRUMP, DECLARE_DIRECTION):
        if state.phase == DECLARE_TRUMP:
            if "trump" not in declare:
                # What the declare does give is checked first, finished or not: a direction the
                # bid contradicts is the rule broken, before the trump it leaves out.
                _check_declared(state, declare, where)
                if in_progress:
                    raise _Stopped("declare", f"before seat {state.declarer} names trump")
                raise RecordError(where, f"seat {state.declarer} must name trump")
            given = _named_trump(state, declare["trump"], where)
            action = rules.no_trump_action if given == NO_TRUMP else rules.first_trump_action + given
        else:
            if "direction" not in declare:
                _check_declared(state, declare, where)
                if in_progress:
                    raise _Stopped("declare", f"before seat {state.declarer} names a direction")
                raise RecordError(where, f"seat {state.declarer} must name a direction")
            action = rules.first_direction_action + _named_direction(state, declare["direction"], where)
        yield action
    _check_declared(state, declare, where)


def _check_declared(state: HandState, declare: dict, where: str) -> None:
    """RecordError where ``declare`` names a trump or direction that is none of the deck's, or
    contradicts what is decided already (by the bid, or declared before).

    What the bid already fixed may be restated, but not contradicted; what is no suit or
    direction at all is said to be that (not a contradiction).  A hand in progress that stops
    at a term still to be named checks the terms decided before it (records.md: replay
    "checks everything the record holds").
    """
    rules = state.rules
    open_terms = state.undecided_terms()
    if "trump" in declare:
        given = _named_trump(state, declare["trump"], where)
        if given != state.trump and "trump" not in open_terms:
            held = "no trump" if state.trump == NO_TRUMP else f"{rules.suit_names[state.trump]} trump"
            named = "null" if given == NO_TRUMP else rules.suits[given]
            raise RecordError(where, f"seat {state.declarer}: trump {named} contradicts the contract ({held})")
    if "direction" in declare:
        d = _named_direction(state, declare["direction"], where)
        if d != state.direction and "direction" not in open_terms:
            raise RecordError(where, f"seat {state.declarer}: direction {rules.orders[d]} contradicts "
                                     f"the contract ({rules.orders[state.direction]})")


def _named_trump(state: HandState, value, where: str) -> int:
    """The trump ``declare`` names (NO_TRUMP for null); RecordError where it is no suit of this deck."""
    given = NO_TRUMP if value is None else parse_suit(state.rules, value)
    if given is None:
        raise RecordError(where, f"seat {state.declarer}: trump {shown(value)} is not a suit of this deck")
    return given


def _named_direction(state: HandState, value, where: str) -> int:
    """The direction ``declare`` names; RecordError where it is none of the variant's rank orders."""
    d = parse_direction(state.rules, value)
    if d is None:
        raise RecordError(where, f"seat {state.declarer}: direction {shown(value)} is not one "
                                 f"of: {', '.join(state.rules.orders)}")
    return d


def _discard_entries(state: HandState, record: dict, prefix: str, at: list, in_progress: bool = False):
    """The record's ``discard`` as actions, where the hand asks for a discard now.

    records.md: ``discard`` lists every card laid away, the cards that must leave
    play (:meth:`HandState.laid_out`, set apart by the rules themselves) included.
    Before the last card is laid away the record's ``swaps`` are handed to the hand:
    the exchange that follows draws what the record says.
    """
    rules = state.rules
    where = prefix + "discard"
    discard = record.get("discard", [])
    if state.phase != DISCARD:
        if _holds(record, "discard"):  # records.md: the message names the rule and the seat
            who = f"seat {state.declarer}" if state.declarer >= 0 else "nobody"
            raise RecordError(where, f"{who} has no kitty to take and lay away in this hand, so the record "
                                     "has no discard")
        return
    taker = state.current_player()  # the kitty's taker: the declarer unless the rules name another seat
    out = state.laid_out()
    target = state.discard_target + len(out)
    names = rules.cards
    leaving = f" ({', '.join(names[c] for c in out)} among them: {'it leaves' if len(out) == 1 else 'they leave'} " \
              "play)" if out else ""
    # A card of the kitty that left play at once (a joker out in notrump) never reached the hand:
    # listing it is the likeliest reason for a wrong count, so it is named first.
    stayed = [c for c in state.out if c not in out]
    for card in discard if isinstance(discard, list) else ():
        if parse_card(rules, card) in stayed:
            raise RecordError(where, f"seat {taker} discards {card_shown(rules, card)}, which stays in the kitty: "
                                     "it leaves play and never reaches the hand, so it is not listed")
    short = in_progress and isinstance(discard, list) and len(discard) < target and not _holds(record, "play")
    if not isinstance(discard, list) or (len(discard) != target and not short):
        # The sentence must end whole when the list is missing or is something else.
        count = (len(discard) if isinstance(discard, list) else "no discard" if discard is None
                 else f"{shown(discard)}, not a list of cards")
        raise RecordError(where, f"seat {taker} must discard {_counted(target, 'card')}{leaving}, "
                                 f"the record has {count}")
    chosen = []
    seen = set()
    for card in discard:
        cid = parse_card(rules, card)
        if cid is None or cid in seen or (cid not in state.hands[taker] and cid not in out):
            twice = cid is not None and cid in seen
            if cid is None:
                raise RecordError(where, f"seat {taker} discards {_not_a_card(card)}")
            raise RecordError(where, f"seat {taker} discards {rules.cards[cid]}, which it does not hold"
                                     + (" (any more: it is listed twice)" if twice else ""))
        seen.add(cid)
        if cid not in out:
            chosen.append(cid)
    if not short:
        kept = [c for c in out if c not in seen]
        if kept:
            raise RecordError(where, f"seat {taker} keeps {names[kept[0]]}, which must leave play: it is laid "
                                     "away with the discards")
        state.swaps_given = parse_swaps(rules, record.get("swaps"), prefix)
        # A record in progress that holds nothing after the exchanges may stop partway through them
        # (records.md: swaps of such a hand may be absent or partial); one that goes on needs them all.
        order = _later_keys(state)
        state.swaps_may_stop = in_progress and not any(
            _holds(record, key) for key in order[order.index("swaps") + 1:])
    at[0] = where
    yield from chosen
    if short:
        raise _Stopped("discard", f"while seat {taker} discards")
    if state.phase == EXCHANGE:  # the exchanges the record gives are made; it stops before the rest
        raise _Stopped("swaps", "partway through the exchanges of the cards that leave play")


def parse_swaps(rules: Ruleset, value, prefix: str = "") -> list[tuple[int, int, int]]:
    """The record's ``swaps`` as (seat, card given, card drawn); absent or [] is no exchange."""
    where = prefix + "swaps"
    if value is None:
        return []
    if not isinstance(value, list):
        raise RecordError(where, 'swaps must be a list such as [{"seat": 1, "gave": "LJ", "drew": "7C"}]')
    swaps = []
    for i, swap in enumerate(value):
        # records.md: the message names the seat -- the exchange's own, where it names one.
        seat = swap.get("seat") if isinstance(swap, dict) else None
        is_seat = _is_seat(rules, seat)
        who = f"seat {seat}: " if is_seat else ""
        _check_swap_keys(swap, i, where, who)
        if not is_seat:
            raise RecordError(where, f"swaps[{i}].seat must be a seat from 0 to {rules.players - 1}{_whole(seat)}")
        cards = []
        for key in ("gave", "drew"):
            cid = parse_card(rules, swap[key])
            if cid is None:
                raise RecordError(where, f"{who}swaps[{i}].{key} is {_not_a_card(swap[key])}")
            cards.append(cid)
        swaps.append((seat, cards[0], cards[1]))
    return swaps


_SWAP_KEYS = ("seat", "gave", "drew")


def _counted(n: int, noun: str) -> str:
    """``n`` of ``noun`` in words for a message: ``1 card``, ``6 cards``, ``1 call``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _not_the_first_hands(key: str, record: dict, first: dict) -> str:
    """Why a hand of a game record is refused at ``variant`` or ``with``: the rule (one game,
    one set of rules, compared as written) and both spellings, this hand's and the first's."""
    what = "variant" if key == "variant" else "house rules (with)"
    absent = [] if key == "with" else None
    return (f"every hand of a game record has the {what} of the first hand, as written: "
            f"this hand has {shown(record.get(key, absent))}, the first {shown(first.get(key, absent))}")


def _check_swap_keys(swap, i: int, where: str, who: str = "") -> None:
    """RecordError at ``swaps`` unless entry ``i`` is an object of exactly seat, gave and drew,
    naming the key that is unknown (a misspelling is never ignored) or missing, as for ``declare``;
    ``who`` begins the message (``seat 1: ``, the seat the entry names)."""
    shape = '{"seat": …, "gave": …, "drew": …}'
    if not isinstance(swap, dict):
        raise RecordError(where, f"swaps[{i}] must be an object {shape}")
    extra = [key for key in swap if key not in _SWAP_KEYS]  # the first as written, as for a field
    if extra:
        raise RecordError(where, f"{who}unknown key {shown(extra[0])} in swaps[{i}], an object {shape}")
    missing = next((key for key in _SWAP_KEYS if key not in swap), None)
    if missing is not None:
        raise RecordError(where, f'{who}swaps[{i}] has no "{missing}": an exchange is {shape}')


def _check_swaps_made(state: HandState, record: dict, prefix: str) -> None:
    """RecordError at ``swaps`` where the record names exchanges and none was due (kitty.py checked the others)."""
    swaps = record.get("swaps")
    if _holds(record, "swaps") and not state.swaps:
        if not isinstance(swaps, list):
            parse_swaps(state.rules, swaps, prefix)
        raise RecordError(prefix + "swaps", "nobody exchanges cards in this hand (only where cards leave play, "
                                            "such as jokers in notrump, and a player other than the taker holds one)")


def _play_entries(state: HandState, record: dict, prefix: str, at: list[str | None]):
    """The record's ``play`` as card actions; RecordError for a card after the end or not of the deck.

    The cards up to the first that is not of the deck are handed over as one list (the
    hot part of a replay); ``at`` is None while they are applied, for the caller to name
    the card refused from the number played (:func:`_play_error`).
    """
    rules = state.rules
    play = record.get("play", [])
    if not isinstance(play, list):
        raise RecordError(prefix + "play", "play must be a list of cards")
    ids = []
    # No hand plays more cards than the deck holds: the cards read past that (a record may list
    # a million) would only be refused, at the first card after the hand's end.
    for card in play[:len(rules.cards) + 1]:
        cid = parse_card(rules, card)
        if cid is None:
            break
        ids.append(cid)
    if play and state.phase != PLAY:
        raise _play_error(state, play, prefix)
    at[0] = None
    yield from ids
    if len(ids) < len(play):  # then a card that is not of the deck, unless the hand is over
        i = len(ids)
        if state.phase != PLAY:
            raise _play_error(state, play, prefix)
        raise RecordError(f"{prefix}play[{i}]", f"seat {state.current_player()} plays {_not_a_card(play[i])}")


def _play_error(state: HandState, play: list, prefix: str, message: str = "") -> RecordError:
    """The error of the card of ``play`` the hand refused (saying ``message``), or that follows the hand's end."""
    i = sum(len(cards) for _, cards, _ in state.tricks) + len(state.trick)  # the cards played before it
    if state.phase != PLAY:
        # records.md: the message names the seat.  Nobody's turn comes once the hand is over; the
        # card would lead a trick after the last, so the seat named is the one that won the last
        # trick (the winner of a trick leads the next): the seat that would have played it.
        if not state.tricks:  # no trick was played (no phase ends a hand so today): no seat is owed one
            return RecordError(f"{prefix}play[{i}]", f"the hand was over before its first card; "
                                                    f"{card_shown(state.rules, play[i])} follows it")
        _, _, seat = state.tricks[-1]
        return RecordError(f"{prefix}play[{i}]", f"seat {seat}, who won the last trick, leads "
                                                f"{card_shown(state.rules, play[i])} after the hand was over "
                                                f"({_counted(i, 'card')})")
    return RecordError(f"{prefix}play[{i}]", message)


def _replay_claim(state: HandState, record: dict, prefix: str, in_progress: bool = False) -> HandReplay:
    """The end of a replayed hand: over by play, ended by the record's claim, or in progress."""
    claim = record.get("claim")
    if claim is None:
        if in_progress:
            if state.phase == OVER:
                raise RecordError(prefix + "in_progress", "the hand is over, so it is not in progress")
            return HandReplay(state, in_progress=True, prefix=prefix)
        if state.phase != OVER:
            raise RecordError(prefix + "play", f"the play stops after {_counted(len(record.get('play', [])), 'card')}, "
                                               f"with seat {state.current_player()} to play; "
                                               "the hand is not over and nothing is claimed")
        return HandReplay(state, prefix=prefix, raw_books=state.books_so_far())
    at = prefix + "claim"
    shares = claim_shares(state, claim, at)
    if in_progress:
        raise RecordError(prefix + "in_progress", "a claimed hand is over, so it is not in progress")
    raw = apply_claim(state, shares)
    return HandReplay(state, claimed=True, prefix=prefix, raw_books=raw)


def claim_shares(state: HandState, claim, at: str = "claim") -> list[int]:
    """The remaining tricks each side takes by ``claim`` (records.md); RecordError at ``at`` where it is illegal.

    A number is the declaring side's share, the other side taking the rest; with more
    than two sides it is allowed only when it is every trick left.  A list gives each
    side's share and must share out exactly the tricks left.
    """
    rules = state.rules
    sides = rules.sides
    # records.md: the message names the seat: the declarer's, whose side the claim is made for.
    who = f"seat {state.declarer}: " if state.declarer >= 0 else ""
    number = isinstance(claim, int) and not isinstance(claim, bool)
    listed = isinstance(claim, list) and all(isinstance(c, int) and not isinstance(c, bool) for c in claim)
    if not (number or listed) or (number and claim < 0) or (listed and any(c < 0 for c in claim)):
        fraction = next((_whole(c) for c in (claim if isinstance(claim, list) else [claim]) if _whole(c)), "")
        raise RecordError(at, who + "claim must be a number of tricks (0 or more), or a list of each side's share"
                              + fraction)
    if state.trick or not state.tricks:
        raise RecordError(at, who + "a claim must come at the end of a trick, after at least one trick")
    remaining = len(state.hands[0])  # at the end of a trick every hand holds as many
    side = rules.side_of[state.declarer]
    if number:
        if claim > remaining:
            raise RecordError(at, f"{who}claim of {shown(claim)} trick{'' if claim == 1 else 's'}, but only "
                                  f"{remaining} remain{'s' if remaining == 1 else ''}")
        if sides != 2 and claim != remaining:
            raise RecordError(at, f"{who}with {sides} sides a claim is a list of each side's share of the "
                                  f"{remaining} tricks left (a number only when the declarer takes them all)")
        shares = [0] * sides
        shares[side] = claim
        if sides == 2:
            shares[1 - side] = remaining - claim
        return shares
    if len(claim) != sides:
        raise RecordError(at, f"{who}claim lists {len(claim)} share{'' if len(claim) == 1 else 's'}; "
                              f"there are {sides} sides")
    if sum(claim) != remaining:
        raise RecordError(at, f"{who}claim shares out {shown(sum(claim))} trick{'' if sum(claim) == 1 else 's'}, but "
                                  f"{remaining} remain{'s' if remaining == 1 else ''}")
    return list(claim)


def apply_claim(state: HandState, claim) -> list[int]:
    """End a hand by claim and score it; returns the books before any renege penalty.

    ``claim`` is the declaring side's share of the remaining tricks (two sides: the
    other side takes the rest; more sides: only all of them), or a list of each
    side's share (:func:`claim_shares` checks it; ValueError where it does not fit).
    """
    rules = state.rules
    if not isinstance(claim, list):
        remaining = len(state.hands[0])
        side = rules.side_of[state.declarer]
        if rules.sides != 2 and claim != remaining:
            raise ValueError(f"with {rules.sides} sides a claim is a list of each side's share")
        shares = [0] * rules.sides
        shares[side] = claim
        if rules.sides == 2:
            shares[1 - side] = remaining - claim
        claim = shares
    books = state.books_so_far()  # tricks taken and the discards' book, as the variant counts it
    for side, share in enumerate(claim):
        books[side] += share
    raw = list(books)
    state.books = books
    state.score = state.score_books(books)
    state.phase = OVER
    state.seat = -1
    state._legal = None
    return raw


def replay_game(records: list[dict], resolve: Resolver) -> tuple[list[HandReplay], GameTally]:
    """Replay a game record; RecordError (``hand[i].…``) at the first illegal entry."""
    first = records[0]
    check_fields(first, "hand[0].")  # before its variant is looked up
    rules = resolve_record(first, resolve, "hand[0].")
    tally = GameTally(rules)
    replays = []
    previous = None  # the previous hand's state: who deals next depends on how it ended
    for i, record in enumerate(records):
        prefix = f"hand[{i}]."
        if tally.winner is not None:  # the whole hand is the offending entry, whatever it holds
            raise RecordError(f"hand[{i}]", match_over_message(tally))
        check_fields(record, prefix)  # before anything else of the hand (docs/records.md, Errors)
        check_required(record, "variant", prefix)
        for key in ("variant", "with"):
            if record.get(key, [] if key == "with" else None) != first.get(key, [] if key == "with" else None):
                raise RecordError(prefix + key, _not_the_first_hands(key, record, first))
        # The dealer comes before the deal: a wrong one is the hand's first offending entry
        # (the auction itself depends on who deals).  replay_hand checks its type and range:
        # a number that is no seat (9, or one of thousands of digits) is "not a seat", never
        # "not the rotation", which named the wrong rule and quoted every digit.
        dealer = record.get("dealer")
        named = named_first_dealer(rules) if previous is None else None
        # A game record holds the game from its first hand.
        if named is not None and _is_seat(rules, dealer) and dealer != named:
            raise RecordError(prefix + "dealer", f"dealer {dealer}, but seat {named} deals the first hand "
                                                 "of a game of this variant")
        if previous is not None and _is_seat(rules, dealer) and dealer != tally.next_dealer(previous):
            raise RecordError(prefix + "dealer",
                              f"dealer {dealer} does not follow the rotation "
                              f"(expected {tally.next_dealer(previous)})")
        replay = replay_hand(rules, record, prefix)
        if replay.in_progress and i != len(records) - 1:  # a game in progress stops in its last hand
            raise RecordError(prefix + "in_progress", "only the last hand of a game record may be in progress")
        replays.append(replay)
        if replay.in_progress:
            tally.add_unfinished_hand()  # its game has begun (records.md `games`), nothing scored
            break
        previous = replay.state
        tally.add_hand(replay.state)
    return replays, tally


def match_over_message(tally: GameTally) -> str:
    """Why no hand may follow: the match (the game, or the rubber) is won."""
    assert tally.winner is not None
    won = tally.games_won[tally.winner]
    match = f"rubber ({won} games to {sum(tally.games_won) - won})" if tally.plays_rubber else "game"
    return (f"the {match} was decided by the hand before this one (side {tally.winner} won it); "
            "a game record may not go on after the match is decided")


def game_summary(tally: GameTally) -> dict:
    """A replayed game record's figures (records.md): the last game's totals, the match winner, every game."""
    last = tally.games[-1].totals if tally.games else tally.totals
    return {"totals": list(last), "winner": tally.winner, "games": [g.as_json() for g in tally.games]}


def resolve_record(record: dict, resolve: Resolver, prefix: str = "") -> Ruleset:
    """The Ruleset a hand record names (``variant`` and ``with``) through ``resolve``;
    RecordError at the field whose name cannot be used (``prefix`` + ``variant``/``with``)."""
    variant = record.get("variant")
    with_rules = record.get("with", [])
    check_required(record, "variant", prefix)
    if not isinstance(variant, str):
        raise RecordError(prefix + "variant", "variant must be a variant's name or a path")
    # records.md's order: `variant`, then `with[i]`.  The variant alone first, so that a variant that
    # cannot be used is said before anything wrong in `with` (its shape too), and a bad house rule
    # (or one that does not fit the variant) is reported at `with`, not at `variant`.
    rules = _resolved(variant, [], resolve, prefix, "variant")
    if not isinstance(with_rules, list):
        raise RecordError(prefix + "with", "with must be a list of house-rule names")
    if len(with_rules) > MAX_WITH:
        raise RecordError(prefix + "with", f"with lists {len(with_rules)} house rules; a record may lay "
                                           f"at most {MAX_WITH} on its variant")
    # records.md names the entries of `with` as `with[i]`: one that is no name is the offending
    # entry, as a call that is no string is `auction[i]`, not the list that holds it -- unless an
    # entry before it is already one that cannot be laid ("the first offending entry").
    i = next((i for i, rule in enumerate(with_rules) if not isinstance(rule, str)), None)
    if i is not None:
        if i:
            _resolved(variant, with_rules[:i], resolve, prefix, "with")
        raise RecordError(f"{prefix}with[{i}]", f"with[{i}] is {shown(with_rules[i])}, not a house rule's name or "
                                                "path (a string)")  # no example: a rule's name is data
    if with_rules:
        rules = _resolved(variant, with_rules, resolve, prefix, "with")
    return rules


def _resolved(variant: str, with_rules: list[str], resolve: Resolver, prefix: str, field: str) -> Ruleset:
    """``resolve(variant, with_rules)``; RecordError at ``field`` (``variant`` or ``with``, made
    ``with[i]`` where the resolver or a shorter list says which entry) where it cannot be used."""
    try:
        return resolve(variant, with_rules)
    except LookupError as exc:
        # A resolver may say which entry it refused (``with[2]``: a path records.md refuses).
        where = getattr(exc, "at", None) or field
        message = str(exc.args[0] if exc.args else exc)
        if where == "with":
            where, message = _failing_with(variant, with_rules, resolve) or (where, message)
        raise RecordError(prefix + where, message) from None


def _failing_with(variant: str, with_rules: list[str], resolve: Resolver) -> tuple[str, str] | None:
    """``at`` and message of the first house rule of the record's ``with`` that cannot be laid
    (unknown, or not fitting the variant and the rules before it): ``with[i]``, as records.md
    names the entries of ``with``; None if no shorter list fails.

    Only called once the whole list has failed: each shorter list costs a compile.
    """
    for i in range(len(with_rules)):
        try:
            resolve(variant, with_rules[:i + 1])
        except LookupError as exc:
            at = getattr(exc, "at", None)
            return (at if at and at != "with" else f"with[{i}]"), str(exc.args[0] if exc.args else exc)
    return None


def replay_one(record: dict, resolve: Resolver) -> HandReplay:
    """One hand record replayed, its variant resolved first; RecordError where it is illegal."""
    check_fields(record)  # before its variant is looked up (docs/records.md, Errors)
    return replay_hand(resolve_record(record, resolve), record)


def replay_file(rf: RecordFile, resolve: Resolver) -> dict:
    """Replay a parsed record file to replay's JSON output; errors become ``error``."""
    return replay_file_kept(rf, resolve)[0]


def replay_file_kept(rf: RecordFile, resolve: Resolver) -> tuple[dict, list[HandReplay], GameTally | None]:
    """:func:`replay_file`'s output with what it was made from: the replayed hands (none
    where the record is illegal) and a game record's tally (None for a hand record), so
    that a caller printing the hands replays the record once."""
    if rf.is_game:
        try:
            replays, tally = replay_game(rf.records, resolve)
        except RecordError as exc:
            return {"hands": None, "totals": None, "winner": None, "games": None, "error": exc.as_json()}, [], None
        return {"hands": [r.as_json() for r in replays], **game_summary(tally), "error": None}, replays, tally
    replay, refused = replay_or_refusal(rf.records[0], resolve)
    return (refused, [], None) if replay is None else (replay.as_json(), [replay], None)


def replay_or_refusal(record: dict, resolve: Resolver) -> tuple[HandReplay | None, dict]:
    """One hand record replayed once: ``(replay, {})``, or ``(None, refusal)`` where it is illegal,
    the refusal being replay's JSON of an illegal hand (its ``error`` and the other keys, null)."""
    illegal = {"contract": None, "tricks": None, "books": None, "score": None}
    try:
        check_fields(record)  # before its variant is looked up, as replay_one does
        rules = resolve_record(record, resolve)
    except RecordError as exc:
        return None, {**illegal, "error": exc.as_json()}
    try:
        return replay_hand(rules, record), {}
    except RecordError as exc:
        # The keys of a legal hand of these rules, each null: `reneges` too where a renege
        # may stand (records.md: present whenever a house rule lets one stand).
        reneges = {} if trick_rules(rules).refuses_renege else {"reneges": None}
        return None, {**illegal, "error": exc.as_json(), **reneges}


# --------------------------------------------------------------------------- writing
def hand_record(state: HandState, variant: str, with_rules: list[str] | tuple = ()) -> dict:
    """The ``bidwhist-hand/1`` record of a hand (finished or in progress)."""
    rules = state.rules
    cards = rules.cards
    names = rules.action_names
    record = {
        "format": HAND_FORMAT,
        "variant": variant,
        "with": list(with_rules),
        "dealer": state.dealer,
        "hands": [[cards[c] for c in hand] for hand in state.dealt],
        "kitty": [cards[c] for c in state.kitty],
        "auction": [names[a] for _, a in state.calls],
    }
    if state.declarer < 0:
        return record
    decl = state.declaration
    declare = {}
    declared = state.table is not None  # set once every declaration step is done
    by_lead = decl.by_first_lead and state.trump != NO_TRUMP  # records.md: no declare
    if declared and not by_lead and (decl.says_trump or decl.chooses_direction):
        declare["trump"] = None if state.trump == NO_TRUMP else rules.suits[state.trump]
    if declared and decl.chooses_direction:
        declare["direction"] = rules.orders[state.direction]
    if declare:
        record["declare"] = declare
    laid = state.laid_out() + state.discards  # records.md: the cards that leave play are listed too
    if laid:
        record["discard"] = [cards[c] for c in laid]
    if state.swaps:  # the exchanges that happened, in records' order
        record["swaps"] = [{"seat": seat, "gave": cards[gave], "drew": cards[drew]}
                           for seat, gave, drew in state.swaps]
    record["play"] = [cards[c] for _, t, _ in state.tricks for c in t] + [cards[c] for c in state.trick]
    return record
