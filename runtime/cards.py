"""Card notation (records.md "Cards"): parsing forgiving input, printing canonical text.

A card is rank then suit (``AS``, ``TH``, ``2C``); jokers are ``BJ`` and ``LJ``; a
variant may name other special cards with the same two-letter spelling.  Input also
accepts lower case, ``10`` for ``T`` and the suit symbols; output is always the
canonical ASCII spelling.
"""

from __future__ import annotations

import re

# The black symbols records.md names, and the white ones (♤ ♡ ♢ ♧) some apps write for the same
# suits (docs/records.md, decision).
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
_SELECTED_SYMBOL = re.compile("([" + "".join(SUIT_SYMBOLS) + "])[\ufe0e\ufe0f]")


def digits_note(text) -> str:
    """`` (numbers are written with the digits 0-9)`` when ``text`` holds a digit of another
    script (``٤``, ``４``, ``²``), else nothing: what a refusal of such a card, call or number adds.

    records.md spells ranks, levels and numbers in ASCII digits; Python's ``int()`` and
    ``str.isdigit()`` take the others too, so every reader checks for ASCII itself, and a
    refusal says why the number that looks right was not read.
    """
    if isinstance(text, str) and any(ch.isdigit() and not ch.isascii() for ch in text):
        return " (numbers are written with the digits 0-9)"
    return ""


def normalise_card_text(text: str) -> str:
    """Return the canonical spelling of a card written by a person or a tool.

    ``as`` -> ``AS``, ``10h`` -> ``TH``, ``A♠`` -> ``AS``, ``bj`` -> ``BJ``.  The result
    is not checked against any deck; callers look it up in their variant's cards.
    """
    # An emoji suit (``♥️``) is the symbol and a presentation selector: the selector is dropped
    # there, and only there (``A\ufe0f♥`` is no card: a selector belongs after its symbol).
    t = _SELECTED_SYMBOL.sub(r"\1", text.strip())
    if any(ch.isspace() for ch in t):
        # records.md allows case, ``10`` and the suit symbols: ``A S`` is no spelling of AS.
        return t
    for symbol, letter in SUIT_SYMBOLS.items():
        t = t.replace(symbol, letter)
    if not t.isascii():
        # Case is ASCII case: Unicode's upper() makes the long s ``ſ`` an S (``Aſ`` is no AS).
        return t
    t = t.upper()
    if t.startswith("10") and len(t) == 3:
        t = "T" + t[2:]
    return t
