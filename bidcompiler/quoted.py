"""Where each character of a double-quoted YAML scalar's value begins in its source.

A double-quoted scalar's value is not its source text: an escape (``\\"``, ``\\\\``,
``\\n``, ``\\x41``, ``\\u00e9``, ``\\U0001F0A1``) is one character written with two to
ten, and the scalar's lines are folded (a line break is a space, a blank line a line
break, an escaped line break nothing; the spaces around a break are dropped).  To place
an error found in the value (a formula's) at the file's column, the value is decoded
here the way PyYAML's scanner decodes it (``scan_flow_scalar``), noting for each
character of the value the index in the source where it begins: an escape's first
character, a fold's line break.
"""

from __future__ import annotations

from yaml.scanner import Scanner

_BREAKS = "\r\n\x85\u2028\u2029"
_BLANKS = " \t"


def double_quoted_starts(text: str, begin: int, end: int) -> list[int] | None:
    """The index in ``text`` where each character of the value of the double-quoted scalar
    ``text[begin:end]`` (quotes included) begins, and one more: the closing quote's index.

    None where the source is not one this reads (the scanner refused it, so no value was
    made of it); the caller then places the value some other way.
    """
    starts: list[int] = []
    i = begin + 1
    close = end - 1
    while i < close:
        ch = text[i]
        if ch == "\\":
            i = _escape(text, i, starts)
        elif ch in _BLANKS or ch in _BREAKS:
            i = _spaces(text, i, close, starts)
        else:
            starts.append(i)
            i += 1
        if i < 0:
            return None
    return starts + [close] if i == close else None


def _escape(text: str, i: int, starts: list[int]) -> int:
    """Read the escape at ``text[i]`` (a backslash): note where its character begins; the
    index after it (-1 for an escape the scanner refuses)."""
    ch = text[i + 1:i + 2]
    if ch and ch in Scanner.ESCAPE_REPLACEMENTS:
        starts.append(i)
        return i + 2
    if ch and ch in Scanner.ESCAPE_CODES:
        starts.append(i)
        return i + 2 + Scanner.ESCAPE_CODES[ch]
    if ch and ch in _BREAKS:  # an escaped line break: no character; the next lines' breaks are kept
        return _breaks(text, _after_break(text, i + 1), starts)
    return -1


def _spaces(text: str, i: int, close: int, starts: list[int]) -> int:
    """Read blanks and line breaks from ``text[i]``: note the characters they fold to; the index after them."""
    first = i
    while i < close and text[i] in _BLANKS:
        i += 1
    if i >= close or text[i] not in _BREAKS:  # blanks inside a line are kept as they are
        starts.extend(range(first, i))
        return i
    line_break = i
    kept: list[int] = []
    i = _breaks(text, _after_break(text, i), kept)
    if text[line_break] in "\u2028\u2029" or not kept:
        starts.append(line_break)  # the break itself (kept as written) or the space a lone break folds to
    starts.extend(kept)
    return i


def _breaks(text: str, i: int, starts: list[int]) -> int:
    """Read the blank lines from ``text[i]`` (each line's leading blanks dropped): note each
    break, which the value keeps as a line break; the index of the next line's first character."""
    while True:
        while text[i:i + 1] in (" ", "\t"):
            i += 1
        if not text[i:i + 1] or text[i] not in _BREAKS:
            return i
        starts.append(i)
        i = _after_break(text, i)


def _after_break(text: str, i: int) -> int:
    """The index after the line break at ``text[i]`` (``\\r\\n`` is one)."""
    return i + 2 if text[i:i + 2] == "\r\n" else i + 1
