"""Reading cards, calls and declarations written by people or other tools.

Input is forgiving (case, ``10`` for ``T``, suit symbols, strain aliases such as
``nt`` or ``low``); every function returns an action id or card id of the given
Ruleset, or ``None`` when the text names nothing in this variant.
"""

from __future__ import annotations

from .cards import normalise_card_text
from .ruleset import Ruleset


def parse_card(rules: Ruleset, text: str) -> int | None:
    """The card id of ``text`` (``as``, ``10h``, ``A♠``, ``bj``), or None."""
    if not isinstance(text, str):
        return None
    return rules._card_index().get(normalise_card_text(text))


def strain_index(rules: Ruleset, word: str) -> int | None:
    """The strain a word names (its name or an alias), or None."""
    word = word.strip().lower()
    for i, strain in enumerate(rules.strains):
        if word == strain.name or word in strain.aliases:
            return i
    return None


def parse_call(rules: Ruleset, text: str) -> int | None:
    """The action id of a call such as ``pass``, ``4``, ``4 nt``, ``4 low``, ``take``, or None."""
    if not isinstance(text, str):
        return None
    words = text.strip().lower().split()
    if len(words) == 1 and words[0] in ("pass", "take", "redeal"):
        return {"pass": rules.pass_action, "take": rules.take_action,
                "redeal": rules.redeal_action}[words[0]]
    if not words or not (words[0].isascii() and words[0].isdigit()):
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
    return rules.order_aliases.get(text.strip().lower())


def parse_suit(rules: Ruleset, text: str) -> int | None:
    """The index of a suit written as a letter or symbol (``H``, ``h``, ``♥``), or None."""
    if not isinstance(text, str):
        return None
    letter = normalise_card_text(text)
    return rules.suits.index(letter) if letter in rules.suits else None


def call_text(rules: Ruleset, action: int) -> str:
    """The canonical lower-case text of a call action."""
    return rules.action_names[action]
