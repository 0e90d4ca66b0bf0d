"""The transposition table: what each search proved, for a whole class of positions.

Part of the double-dummy solver (runtime/solver/), used by the search at every trick
boundary (search.py).  A position's key is its leader, its suit lengths and the
owners of each suit's cards from the top down (partition search): :func:`make`
gives the search the key's parts and the functions that store a result's bounds
for every position with the same owners down to the lowest card whose rank
mattered, and that name those cards for a result found in the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .bits import _bits

if TYPE_CHECKING:
    from .engine import _Engine

# The transposition table is cleared when it holds this many groups of positions
# (one per leader and suit lengths), so memory stays bounded in long runs.
TT_LIMIT = 200_000


def make(self: _Engine):
    """The table's parts for one engine: ``(GT, SEQ_BITS, group_info, top_cards, store)``.

    ``GT`` pairs each block's mask (in every seat's copy of a hand) with its cache
    of key fields and its index; a key's owner sequences take its low ``SEQ_BITS``
    bits.  The table itself is the engine's ``tt`` (kept between calls).
    """
    n = self.n
    TT = self.tt
    SEATS = range(n)
    GROUPS = list(self.group_masks)
    G = len(GROUPS)
    GIS = range(G)
    NS = self.ns_mask
    W = self.width
    # In a key, seat s's hand is shifted by SHIFTS[s] (seat 0 highest).
    SHIFTS = [W * (n - 1 - s) for s in SEATS]
    # For the keys: each block's bits in every seat's copy of a hand.
    COPY_MASKS = [sum(m << sh for sh in SHIFTS) for m in GROUPS]
    GROUP_IS_NS = [m == NS for m in GROUPS]
    GROUP_LOW = [(m & -m).bit_length() - 1 for m in GROUPS]
    # Key fields: owner sequences (OB bits per card), lengths (five bits per seat).
    OB = max(1, (n - 1).bit_length())
    FIELD = OB * max(m.bit_count() for m in GROUPS) + 2
    LEN_FIELD = 5 * n
    infos: list[dict] = [dict() for _ in GROUPS]
    SEQ_BITS = FIELD * G
    GT = list(zip(COPY_MASKS, infos, GIS))
    DESC: dict = {}  # the cards left of a block, highest first

    def group_info(gi: int, part: int) -> tuple[int, int]:
        """The owner sequence (high to low) and the lengths of one block, as key fields."""
        low = GROUP_LOW[gi]
        bit = GROUPS[gi].bit_length() - 1
        owners = []
        lens = [0] * n
        while bit >= low:
            for s in SEATS:
                if part >> (bit + SHIFTS[s]) & 1:
                    owners.append(s)
                    lens[s] += 1
                    break
            bit -= 1
        seq = 0
        if not GROUP_IS_NS[gi]:  # cards of no suit never win: only how many each holds matters
            for s in owners:
                seq = (seq << OB) | s
        length = 0
        for s in SEATS:
            length |= lens[s] << (5 * s)
        # Owner sequences in the low bits, lengths above them (and the leader above all).
        info = (seq << (FIELD * gi)) | (length << (LEN_FIELD * gi + SEQ_BITS))
        infos[gi][part] = info
        return info

    def top_cards(kvec: tuple, union: int) -> int:
        """The k-th highest card left in each block, for the k of ``kvec``."""
        rel = 0
        for gi in GIS:
            k = kvec[gi]
            if k:
                p = union & GROUPS[gi]
                tops = DESC.get(p)
                if tops is None:
                    tops = DESC[p] = _bits(p)[::-1]
                rel |= tops[k - 1]
        return rel

    def store(key: int, seq: int, union: int, rel: int, lb: int, ub: int, best: int) -> None:
        """Record bounds for every position like this one down to the relevant cards."""
        mask = 0
        kvec = [0] * G
        for gi in GIS:
            r = rel & GROUPS[gi]
            if r:
                p = union & GROUPS[gi]
                k = (p & ~((r & -r) - 1)).bit_count()  # from the top down to the lowest relevant
                kvec[gi] = k
                mask |= (((1 << (OB * k)) - 1) << (OB * (p.bit_count() - k))) << (FIELD * gi)
        bucket = TT.get(key)
        if bucket is None:
            if len(TT) >= TT_LIMIT:
                TT.clear()
            bucket = TT[key] = {}
        slot = bucket.get(mask)
        if slot is None:
            slot = bucket[mask] = (tuple(kvec), {})
        sub = slot[1]
        e = sub.get(seq & mask)
        if e is None:
            sub[seq & mask] = [lb, ub, best]
        else:
            if lb > e[0]:
                e[0] = lb
            if ub < e[1]:
                e[1] = ub
            if best:
                e[2] = best

    return GT, SEQ_BITS, group_info, top_cards, store
