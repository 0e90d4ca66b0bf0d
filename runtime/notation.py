"""Reading cards, calls and declarations written by people or other tools.

Input is forgiving (case, ``10`` for ``T``, suit symbols, strain aliases such as
``nt`` or ``low``); every function returns an action id or card id of the given
Ruleset, or ``None`` when the text names nothing in this variant.  One writer for
other tools too: :func:`pbn_deal`, a 52-card deal in PBN (as bridge programs read it).
"""

from __future__ import annotations

from .cards import normalise_card_text
from .ruleset import Ruleset

# The most digits a bid level may have: no variant bids beyond two digits, and a number
# of thousands of digits must not reach int() (which refuses more than 4,300 digits).
MAX_CALL_DIGITS = 6

# Case is ASCII case, as for cards: Unicode's lower() makes the Kelvin sign (U+212A) a k,
# so ``taKe`` would be ``take``; only A-Z are folded.
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def ascii_lower(text: str) -> str:
    """``text`` with ASCII letters in lower case, nothing else folded: how calls and the
    aliases they are compared with (bidcompiler.build) are put in one case."""
    return text.translate(_ASCII_LOWER)


def _folded(text: str) -> str:
    """``text`` without blanks around it and with ASCII letters in lower case (nothing else folded)."""
    return ascii_lower(text.strip())


def parse_card(rules: Ruleset, text: str) -> int | None:
    """The card id of ``text`` (``as``, ``10h``, ``A♠``, ``bj``), or None."""
    if not isinstance(text, str):
        return None
    index = rules._card_index()
    # The canonical spelling is what records hold almost always, and it is its own
    # normal form: found as written, it needs no normalising (a third of a replay's time).
    found = index.get(text)
    return found if found is not None else index.get(normalise_card_text(text))


def strain_index(rules: Ruleset, word: str) -> int | None:
    """The strain a word names (its name or an alias), or None."""
    word = _folded(word)
    for i, strain in enumerate(rules.strains):
        if word == strain.name or word in strain.aliases:
            return i
    return None


def named_strains(rules: Ruleset) -> list[str]:
    """The strains a bid names after its number, in order (a bare strain's bid is the number alone)."""
    return [strain.name for strain in rules.strains if not strain.bare]


# The words of the calls that are not bids, as records and the terminal read them; no strain
# may be named (or aliased) one of them (bidcompiler.checks), or a call would read as a bid.
CALL_WORDS = ("pass", "take", "redeal")


def parse_call(rules: Ruleset, text: str) -> int | None:
    """The action id of a call such as ``pass``, ``4``, ``4 nt``, ``4 low``, ``take``, or None."""
    if not isinstance(text, str):
        return None
    words = _folded(text).split()
    if len(words) == 1 and words[0] in CALL_WORDS:
        return dict(zip(CALL_WORDS, (rules.pass_action, rules.take_action, rules.redeal_action)))[words[0]]
    if not words or not (words[0].isascii() and words[0].isdigit()) or len(words[0]) > MAX_CALL_DIGITS:
        return None
    level = int(words[0])
    if len(words) > 1:
        strain = strain_index(rules, " ".join(words[1:]))
        if strain is None:
            return None
    for i, bid in enumerate(rules.bids):
        if bid.level != level:
            continue
        if (bid.strain == strain) if len(words) > 1 else rules.strains[bid.strain].bare:
            return rules.first_bid_action + i
    return None


def parse_direction(rules: Ruleset, text: str) -> int | None:
    """The index of the rank order a word names (``downtown``, ``low`` …), or None."""
    if not isinstance(text, str):
        return None
    return rules.order_aliases.get(_folded(text))


def parse_suit(rules: Ruleset, text: str) -> int | None:
    """The index of a suit written as a letter or symbol (``H``, ``h``, ``♥``), or None."""
    if not isinstance(text, str):
        return None
    letter = normalise_card_text(text)
    return rules.suits.index(letter) if letter in rules.suits else None


def call_text(rules: Ruleset, action: int) -> str:
    """The canonical lower-case text of a call action."""
    return rules.action_names[action]


PBN_RANKS = "AKQJT98765432"


def pbn_deal(rules: Ruleset, hands: list[list[int]]) -> str:
    """The PBN deal string (``N:AKQ.JT9.8765.432 ...``) of four hands of a plain deck.

    Hands go from seat 0 (written as North) clockwise; suits spades, hearts, diamonds,
    clubs, each from the ace down.  Only cards of rank and suit have a PBN spelling:
    this is for handing a deal to bridge software (the double-dummy check uses it).
    """
    parts = []
    for hand in hands:
        names = [rules.cards[c] for c in hand]
        if any(len(n) != 2 or n[0] not in PBN_RANKS or n[1] not in "SHDC" for n in names):
            raise ValueError("PBN has no spelling for cards without a rank and suit (jokers)")
        parts.append(".".join("".join(sorted((n[0] for n in names if n[1] == suit), key=PBN_RANKS.index))
                              for suit in "SHDC"))
    return "N:" + " ".join(parts)
