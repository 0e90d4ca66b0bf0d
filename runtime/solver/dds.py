"""The position handed to DDS, and its answers read back (the ``dds`` backend).

Part of the double-dummy solver (runtime/solver/): where the DDS library (through
the optional ``endplay`` package) plays a position exactly as the variant's rules
say, :class:`~runtime.solver.double_dummy.DoubleDummy` with backend ``dds`` asks it
instead of its own search (the conditions are listed at ``BACKENDS``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .bits import _bits

if TYPE_CHECKING:
    from ..hand import HandState
    from .engine import _Engine


def _dds_deal(engine: _Engine, state: HandState):
    """The position as DDS's ``deal`` struct, or None where DDS cannot play it exactly as
    the variant's rules say (the conditions are listed at :data:`BACKENDS`).

    ``engine`` holds the position's hands (as :meth:`DoubleDummy._root` loaded them).
    Only the order of the cards still in play matters to a double-dummy result, so each
    effective suit's cards in play (hands and current trick) are renamed from the ace
    down: a suit of 15 cards (two jokers as top trumps) fits once two are out of play.
    """
    if engine.n != 4 or engine.top_as_trump or state.discards_book_pending():
        return None
    ms = engine.max_seat
    if not (ms[0] == ms[2] and ms[1] == ms[3] and ms[0] != ms[1]):
        return None  # DDS's sides are the partnerships of seats 0+2 and 1+3
    try:
        from endplay import _dds  # noqa: PLC0415 - an optional dependency, only for this backend
    except ImportError:
        return None
    hands = engine.hands
    bit_of = engine.bit_of
    trick = [bit_of[c] for c in state.trick]
    in_play = sum(trick)
    for h in hands:
        in_play |= h
    if in_play & engine.ns_mask:
        return None  # a card of no suit in play: DDS has no such card
    leader = state.leader
    to_move = hands[(leader + len(trick)) % 4].bit_count()
    for i in range(4):
        if hands[(leader + i) % 4].bit_count() != to_move - (1 if i < len(trick) else 0):
            return None  # DDS wants hands of equal length
    if not to_move:
        return None
    blocks = [m for m in engine.group_masks if m & in_play and not m & engine.ns_mask]
    if len(blocks) > 4:
        return None
    rank: dict[int, tuple[int, int]] = {}  # card bit -> (DDS suit, DDS rank 2..14)
    for j, block in enumerate(blocks):
        cards = _bits(in_play & block)
        if len(cards) > 13:
            return None
        for i, bit in enumerate(reversed(cards)):
            rank[bit] = (j, 14 - i)
    d = _dds.deal()
    trump = engine.trump_mask
    d.trump = blocks.index(trump) if trump and trump in blocks else 4  # 4: notrump
    d.first = leader
    for i, bit in enumerate(trick):
        d.currentTrickSuit[i], d.currentTrickRank[i] = rank[bit]
    for seat, h in enumerate(hands):
        for bit in _bits(h):
            j, r = rank[bit]
            d.remainCards[seat][j] |= 1 << r
    return d, rank, to_move


def _dds_solve(deal, solutions: int):
    from endplay import _dds  # noqa: PLC0415 - see _dds_deal

    result = _dds.futureTricks()
    # target -1 (the most tricks), mode 1 (search even a forced card), thread 0
    _dds.SolveBoard(deal, -1, solutions, 1, result, 0)
    return result


def _dds_value(found, engine: _Engine, state: HandState) -> int:
    """The declaring side's books from DDS's count for the side to move."""
    deal, _, tricks = found
    score = _dds_solve(deal, 1).score[0]
    return score if engine.max_seat[state.seat] else tricks - score


def _dds_actions(found, engine: _Engine, state: HandState) -> dict[int, int]:
    """Each card DDS lets the player to move play -> the declaring side's books after it."""
    deal, rank, tricks = found
    result = _dds_solve(deal, 3)
    card_of = {key: engine.card_of[bit] for bit, key in rank.items()}
    mine = engine.max_seat[state.seat]
    out: dict[int, int] = {}
    for i in range(result.cards):
        score = result.score[i]
        value = score if mine else tricks - score
        suit = result.suit[i]
        ranks = [result.rank[i]] + [r for r in range(2, 15) if result.equals[i] >> r & 1]
        for r in ranks:
            out[card_of[(suit, r)]] = value
    return out
