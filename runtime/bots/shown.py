"""Cards a seat has been shown: where they are, and which of them cannot hurt it now.

The engine says what each seat has seen of other seats' cards
(:meth:`runtime.hand.HandState.shown_to`: a kitty turned face up, held by its taker
once picked up).  Such a card is no longer "anywhere": it is in its holder's hand or
among the cards the holder laid away.  The card play judges a card by the chance that
an opponent still to play to the trick holds a higher one (``unseen``: the cards the
seat cannot place); a shown card whose holder is a partner, or has already played to
this trick, cannot be played against it now, so :func:`placed_away` takes it out of
that reckoning.  (A shown card whose holder plays later stays in: the holder may well
have it.)
"""

from __future__ import annotations

from ..hand import HandState
from ..ruleset import NO_TRUMP
from .knowledge import card_mask


def shown_mask(state: HandState, seat: int) -> dict[int, int]:
    """Per holding seat, the mask of the cards ``seat`` has been shown it holds (or laid away)."""
    masks: dict[int, int] = {}
    for holder, cards in state.shown_to(seat):
        if holder >= 0:
            masks[holder] = masks.get(holder, 0) | card_mask(cards)
    return masks


def placed_away(state: HandState, seat: int, partners, later, masks: dict[int, int] | None = None) -> int:
    """The shown cards no opponent still to play to this trick can hold.

    ``partners``: ``seat``'s partners; ``later``: the opponents who play after it in
    this trick.  A shown card held by a partner, or by an opponent not among ``later``
    (it has played to the trick, or it is not its turn again before the trick ends),
    is placed away from them.  ``masks``: :func:`shown_mask` of ``state`` and ``seat``
    where the caller has it already (it does not change while the cards are played).
    """
    away = 0
    for holder, mask in (shown_mask(state, seat) if masks is None else masks).items():
        if holder in partners or holder not in later:
            away |= mask
    return away


def threats(state: HandState, seat: int, later, ti, void: list[int], gone: int,
            masks: dict[int, int] | None = None) -> list[int]:
    """Shown cards an opponent still to play to this trick holds and may play to it.

    ``later``: those opponents; ``ti``: the contract's table (suits as it sees them);
    ``void``: the suits each seat has shown out of (bit per suit); ``gone``: the mask
    of cards already played.  A shown card of the suit led can be played by its
    holder; a shown trump too, once the holder is out of the suit led.  ``masks``:
    :func:`shown_mask` of ``state`` and ``seat`` where the caller has it already.
    """
    led = state.led
    trump = ti.trump
    out: list[int] = []
    for holder, mask in (shown_mask(state, seat) if masks is None else masks).items():
        if holder not in later:
            continue
        mask &= ~gone
        if not mask:
            continue
        may_ruff = trump != NO_TRUMP and void[holder] >> led & 1
        for c in _cards(mask):
            s = ti.suit_of[c]
            if s == led or (may_ruff and s == trump):
                out.append(c)
    return out


def _cards(mask: int) -> list[int]:
    """The card ids of a mask."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards
