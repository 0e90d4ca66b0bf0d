"""The words of the schema's ``seat`` (runtime/seats.py has their values): kinds and readings.

One table for the compiler's checks (which seats need a declarer or a partner), the
rulebook and ``diff`` (each seat in words).
"""

from __future__ import annotations

# Seats named from the declarer: unknown until the auction is won.
DECLARER_SEATS = ("declarer", "partner", "left-of-declarer", "right-of-declarer")
# Seats that name a partner: they need partnerships.
PARTNER_SEATS = ("partner", "partner-of-dealer")

# Each seat word as a noun phrase, in the rulebook's and diff's words.
NOUNS = {
    "dealer": "the dealer",
    "left-of-dealer": "the player on the dealer's left",
    "eldest": "the player on the dealer's left",
    "first-caller": "the first caller",
    "right-of-dealer": "the player on the dealer's right",
    "partner-of-dealer": "the dealer's partner",
    "declarer": "the declarer",
    "left-of-declarer": "the player on the declarer's left",
    "right-of-declarer": "the player on the declarer's right",
    "partner": "the declarer's partner",
}


def noun(word: str, first_caller: str | None = None) -> str:
    """The seat ``word`` as a noun phrase (``the declarer's partner``).

    ``first_caller``: the auction's first caller (a seat word), to say where the first caller sits.
    """
    if word == "first-caller" and first_caller is not None:
        return f"the first caller ({NOUNS.get(first_caller, first_caller)})"
    return NOUNS.get(word, word)


def capital(text: str) -> str:
    """``text`` with its first letter upper case (a noun phrase starting a sentence)."""
    return text[:1].upper() + text[1:]
