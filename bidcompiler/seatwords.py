"""The words of the schema's ``seat`` (runtime/seats.py has their values): kinds and readings.

The kinds of seat for the compiler's checks (which seats need a declarer or a
partner); each seat's words, for the rulebook and ``diff``, live in the schema.
"""

from __future__ import annotations

from . import vocabulary

# Seats named from the declarer: unknown until the auction is won.
DECLARER_SEATS = ("declarer", "partner", "left-of-declarer", "right-of-declarer")
# Seats that name a partner: they need partnerships.
PARTNER_SEATS = ("partner", "partner-of-dealer")

def nouns() -> dict[str, str]:
    """Each seat word as a noun phrase, in the rulebook's and diff's words (the schema's ``seat``, ``x-words``)."""
    return vocabulary.definition("seat")["x-words"]


def noun(word: str, first_caller: str | None = None) -> str:
    """The seat ``word`` as a noun phrase (``the declarer's partner``).

    ``first_caller``: the auction's first caller (a seat word), to say where the first caller sits.
    """
    if word == "first-caller" and first_caller is not None:
        return f"the first caller ({nouns().get(first_caller, first_caller)})"
    return nouns().get(word, word)


def declarer_words(partners: bool) -> tuple[str, str, str]:
    """How the declaring side is named: (the side, its possessive, the verb "score(s)"
    agreeing with it) — plural where it has partners (``sides: partners``, more players
    than sides).  The one place for the rulebook's, ``diff``'s and the hand's end words."""
    if partners:
        return "the declarers", "the declarers'", "score"
    return "the declarer", "the declarer's", "scores"


def capital(text: str) -> str:
    """``text`` with its first letter upper case (a noun phrase starting a sentence)."""
    return text[:1].upper() + text[1:]
