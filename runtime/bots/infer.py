"""Where the cards a seat cannot see may be: an inference from what the engine has shown.

The card play judges a card by the chance that an opponent still to play holds a
higher one, or can ruff.  Without inference each card the seat cannot place is
equally likely in any other hand.  What the hand so far shows narrows that:

* a seat that failed to follow a suit holds none of it (the voids of :class:`.track.Track`);
* each hand holds as many cards as the engine says (the lengths of
  :attr:`HandState.hands` are public), less the cards shown to the seat that it
  places there (a kitty turned face up), and the unseen cards no hand holds (discards
  the seat has not seen, cards out of play) are the rest.

:func:`placement` turns these into, per other seat and suit, the chance that a given
unseen card of that suit is *not* in that seat's hand: one less the seat's hand size
over the hand sizes of every seat that may hold the suit plus the cards in no hand.
With no void shown this is the even spread the play assumed before.

The card play reads it in :func:`.cardplay._risk` (each opponent's share of a suit) and
when the declaring side decides whether any opponent still holds a trump to draw
(card play change (14)).

Tried and not kept (docs/measurements.md, card play (13)): weighting the declarer's
share of the trumps when it chose them, or a bidder's share of the top cards, by 2
(or 0.5) made the defence worse; the declaring side's play did not change measurably.
"""

from __future__ import annotations

from ..hand import HandState
from .knowledge import card_mask


def placement(state: HandState, seat: int, void: list[int], unseen: int, played: int,
              suits, shown: list[tuple[int, int, float]] | None = None) -> list[dict[int, float]]:
    """Per seat ``o`` and suit ``s`` of ``suits``, the chance that a given unseen card of
    ``s`` is not in ``o``'s hand, as ``seat`` can tell (1.0 for ``seat`` itself and for a
    seat shown out of ``s``).

    ``void``: per seat, a bit per suit it has shown out of; ``unseen``: the mask of the
    cards ``seat`` cannot place; ``played``: the mask of the cards played so far, the
    trick on the table's too (:class:`.track.Track`'s ``played`` and the trick);
    ``shown``: :func:`shown_held` of the same arguments where the caller has it already.
    """
    hands = state.hands
    n = len(hands)
    sizes: list[float] = list(map(len, hands))
    sizes[seat] = 0
    # Cards shown to the seat and placed with their holder are counted in its hand size
    # but not among the unseen cards: its room for unseen cards is that much less.
    # Nothing is shown to anyone before the kitty is turned up (HandState.shown_to): most
    # hands never ask shown_held.
    held_shown = shown if shown is not None else shown_held(state, seat, unseen, played) if state.kitty_seen else ()
    for holder, cards, kept in held_shown:
        sizes[holder] = max(0.0, sizes[holder] - cards.bit_count() * kept)
    # The unseen cards in no hand: discards not seen, cards out of play not seen.
    hidden = max(0, unseen.bit_count() - sum(sizes))
    miss: list[dict[int, float]] = [{} for _ in range(n)]
    for s in suits:
        bit = 1 << s
        held = [0 if void[o] & bit else sizes[o] for o in range(n)]
        room = hidden + sum(held)
        for o in range(n):
            miss[o][s] = 1.0 - held[o] / room if room > 0 else 1.0
    return miss


def shown_held(state: HandState, seat: int, unseen: int, played: int) -> list[tuple[int, int, float]]:
    """The cards shown to ``seat`` that another seat may still hold (a kitty turned face
    up and taken): ``(holder, mask of the cards, chance each is still held)`` per holder.

    The holder may have laid some of them away again, which ``seat`` cannot tell: each
    is taken to be held as often as any of the holder's cards (its hand against the
    cards it laid away).  Cards played since are left out.
    """
    held = []
    away = len(state.discards)
    for holder, cards in state.shown_to(seat):
        if holder >= 0 and holder != seat:
            size = len(state.hands[holder])
            kept = size / (size + away) if size else 0.0
            held.append((holder, card_mask(cards) & ~unseen & ~played, kept))
    return held
