"""The compiled double-dummy search: :mod:`runtime.solver`'s search, run by numba.

Optional: it needs the ``numba`` package (the extra ``fast``: ``pip install '.[fast]'``);
without it :func:`available` is False and the solver keeps its pure-Python search,
which stays complete.  Imported lazily, only by ``DoubleDummy(backend="fast")``, so the command
line never pays numba's import.

What it runs
    The same search as ``_Engine``'s in runtime/solver/ (search.py and the table,
    bounds and ordering it uses), move for move: boolean
    alpha-beta tests at trick boundaries with the same transposition table (partition
    search: bounds per leader, suit lengths and owners of the top cards down to the
    lowest relevant card, the same buckets in the same order), the same sure trumps
    and quick tricks, the same move ordering (best stored card, killer moves, the
    weighed leads, cheap wins, ordered discards), the same skipping of small cards and
    the same settling of runs.  So it visits the same nodes as the Python search
    (tests/test_solver_fast.py checks values and node counts against it) and each node
    costs a fraction.  It takes every table from the engine that the Python search
    built from the contract's PlayTable; it reads no rule of its own.

What differs
    Positions are int64 bitmasks of the cards in play, the engine's blocks packed
    without the empty bit between them (a run of equivalent cards stops at the bottom
    of its block by a test instead), so a contract fits when its cards number at most
    62.  The table is a hand-made hash table in numpy arrays: it clears at
    200,000 buckets as the Python table does, and also when its slots are 0.8 full
    (sound either way; from then on the two searches' node counts part).  numpy's
    zeroed arrays take memory only as they are written.  :func:`fits` says whether an engine can be
    run here; where it cannot, the solver uses its Python search (never a different
    answer).

Compilation happens on the first use on a machine (``@njit(cache=True)``: numba
keeps the machine code in ``__pycache__``, so later processes load it).
"""

from __future__ import annotations

import numpy as np

from .accelerator import HAVE_NUMBA, njit

__all__ = ["available", "fits", "Kernel"]

#: Cards a kernel bitmask holds (int64, with a bit to spare above the top card).
MAX_BITS = 62
#: Positions a seat's move list holds.
MAX_MOVES = 64
#: The table's capacities (slots of its hash tables and mask nodes).  numpy's zeroed
#: arrays take memory only as they are written, so a small search stays small.
BUCKETS = 1 << 18  # over TT_LIMIT at the 0.8 load where it clears
MASKS = 1 << 19
ENTRIES = 1 << 20
TT_LIMIT = 200_000  # buckets, as runtime.solver.table.TT_LIMIT

# K: the engine's constants, one int64 array (few arguments make calls cheap and
# compilation short).  Scalars first, then tables at fixed offsets (n <= 8, G <= 8).
_N, _G, _TR, _NS, _FREE, _TOPTR, _ALL, _QUAD, _OB, _KW, _BONUS, _TTLIM = range(12)
_MAXS, _NEXT, _GM, _BLK, _PYBL, _LEDM, _RANK = 16, 24, 32, 40, 104, 168, 232
_OPPS, _NOPPS, _PARTS, _NPARTS, _LATER, _NLATER = 296, 360, 368, 432, 440, 952
_KSIZE = 1024
# S: counts, then the hands (at _H), then the killer moves (at _KILL).
_NB, _NM, _NE, _CLEARS, _NODES = range(5)
_H, _KILL = 8, 16
# W[slot, row]: work rows of each node (slot ntricks * n + pos).
_WMV, _WTR, _WSK, _WSC, _WSMALL, _WSEQ, _WPF, _WKV, _WUL, _WKEY = range(10)
_WROWS = 10
# BT[bucket] = used, first mask node, last mask node, key words...
# MT[mask node] = next node, k of each block...
# ET[entry] = used, mask node, owner prefix of each block..., lower, upper bound, best card


def available() -> bool:
    """Whether the compiled search can run (numba imports)."""
    return HAVE_NUMBA


def fits(engine) -> bool:
    """Whether the kernel can run this engine's contract (see the module doc)."""
    sizes = [m.bit_count() for m in engine.group_masks]
    ob = max(1, (engine.n - 1).bit_length())
    return (sum(sizes) <= MAX_BITS and max(sizes) * ob <= 62 and max(sizes) <= 31 and len(sizes) <= 8
            and sum(sizes) // engine.n + 2 <= MAX_MOVES and engine.n <= 8)


def _njit(f):
    return njit(cache=True, nogil=True)(f) if HAVE_NUMBA else f


def _search_signature():
    """The search's one signature, given explicitly: a recursive function compiled from
    its types alone, its recursive calls' arguments of exactly those types (numba
    issues 6061, 6713: a cached recursion whose calls cast can crash when loaded)."""
    from numba import types  # noqa: PLC0415

    i8 = types.int64
    a1, a2, a3 = types.int64[::1], types.int64[:, ::1], types.int64[:, :, ::1]
    return types.UniTuple(i8, 3)(i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, a1, a1, a2, a2, a2, a3)


# ---------------------------------------------------------------------------- bit helpers
@_njit
def _pc(x):
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


@_njit
def _bl(x):
    n = 0
    if x >> 32:
        n += 32
        x >>= 32
    if x >> 16:
        n += 16
        x >>= 16
    if x >> 8:
        n += 8
        x >>= 8
    if x >> 4:
        n += 4
        x >>= 4
    if x >> 2:
        n += 2
        x >>= 2
    if x >> 1:
        n += 1
        x >>= 1
    return n + x


@_njit
def _hi(x):
    return np.int64(1) << (_bl(x) - 1)


@_njit
def _blk(mv, K):
    """The block (index) of a card."""
    return K[_BLK + _bl(mv) - 1]


@_njit
def _sm(mv, K):
    """The block (mask) of a card."""
    return K[_GM + K[_BLK + _bl(mv) - 1]]


@_njit
def _cut(top, F, K):
    """The bits below the run of equivalent cards that ``top`` heads (``F``: the cards
    that do not separate runs), as the Python search's gap bit between blocks makes them."""
    s = _sm(top, K)
    below = ~F & (top - 1) & s
    if below:
        return (np.int64(1) << _bl(below)) - 1
    return (s & -s) - 1


@_njit
def _gen(c, F, K, out, start):
    """One card of each run of ``c``, highest first, into ``out`` from ``start``; returns the end."""
    k = start
    while c:
        top = _hi(c)
        out[k] = top
        k += 1
        c &= _cut(top, F, K)
    return k


@_njit
def _to_front(a, i, dest):
    """Move a[i] to index ``dest`` (< i), shifting the others up (list.remove + insert)."""
    v = a[i]
    j = i
    while j > dest:
        a[j] = a[j - 1]
        j -= 1
    a[dest] = v


@_njit
def _find(a, k, v):
    for i in range(k):
        if a[i] == v:
            return i
    return -1


# ---------------------------------------------------------------------------- the table
@_njit
def _mix(h, w):
    h = (h ^ w) * np.int64(0x5851F42D4C957F2D)
    return h ^ ((h >> 31) & 0x1FFFFFFFF)


@_njit
def _clear(S, BT, ET):
    BT[:, 0] = 0
    ET[:, 0] = 0
    S[_NB] = 0
    S[_NM] = 0
    S[_NE] = 0
    S[_CLEARS] += 1


@_njit
def _bucket_find(key, KW, BT):
    cap = BT.shape[0]
    h = np.int64(0x2545F4914F6CDD1D)
    for j in range(KW):
        h = _mix(h, key[j])
    i = h & (cap - 1)
    while BT[i, 0]:
        same = True
        for j in range(KW):
            if BT[i, 3 + j] != key[j]:
                same = False
                break
        if same:
            return i
        i = (i + 1) & (cap - 1)
    return -1 - i  # the free slot, encoded


@_njit
def _entry_find(m, pf, G, ET):
    cap = ET.shape[0]
    h = _mix(np.int64(0x2545F4914F6CDD1D), m)
    for g in range(G):
        h = _mix(h, pf[g])
    i = h & (cap - 1)
    while ET[i, 0]:
        if ET[i, 1] == m:
            same = True
            for g in range(G):
                if ET[i, 2 + g] != pf[g]:
                    same = False
                    break
            if same:
                return i
        i = (i + 1) & (cap - 1)
    return -1 - i


@_njit
def _store(K, S, BT, MT, ET, key, seq, ulen, union, rel, lb, ub, best, pf, kv):
    """Record bounds for every position like this one down to the relevant cards (as
    the Python search's store)."""
    G, KW, OB = K[_G], K[_KW], K[_OB]
    for g in range(G):
        r = rel & K[_GM + g]
        if r:
            p = union & K[_GM + g]
            k = _pc(p & ~((r & -r) - 1))
            kv[g] = k
            pf[g] = seq[g] >> (OB * (ulen[g] - k))
        else:
            kv[g] = 0
            pf[g] = 0
    # Full: cleared before anything is inserted (sound, as the Python table's clearing).
    if S[_NB] * 5 >= BT.shape[0] * 4 or S[_NM] + 1 >= MT.shape[0] or S[_NE] * 5 >= ET.shape[0] * 4:
        _clear(S, BT, ET)
    b = _bucket_find(key, KW, BT)
    if b < 0:
        if S[_NB] >= K[_TTLIM]:
            _clear(S, BT, ET)
            b = _bucket_find(key, KW, BT)
        b = -1 - b
        BT[b, 0] = 1
        BT[b, 1] = -1
        BT[b, 2] = -1
        for j in range(KW):
            BT[b, 3 + j] = key[j]
        S[_NB] += 1
    m = BT[b, 1]
    while m >= 0:
        same = True
        for g in range(G):
            if MT[m, 1 + g] != kv[g]:
                same = False
                break
        if same:
            break
        m = MT[m, 0]
    if m < 0:
        m = S[_NM]
        S[_NM] += 1
        for g in range(G):
            MT[m, 1 + g] = kv[g]
        MT[m, 0] = -1
        if BT[b, 2] >= 0:
            MT[BT[b, 2], 0] = m
        else:
            BT[b, 1] = m
        BT[b, 2] = m
    e = _entry_find(m, pf, G, ET)
    if e < 0:
        e = -1 - e
        ET[e, 0] = 1
        ET[e, 1] = m
        for g in range(G):
            ET[e, 2 + g] = pf[g]
        ET[e, 2 + G] = lb
        ET[e, 3 + G] = ub
        ET[e, 4 + G] = best
        S[_NE] += 1
    else:
        if lb > ET[e, 2 + G]:
            ET[e, 2 + G] = lb
        if ub < ET[e, 3 + G]:
            ET[e, 3 + G] = ub
        if best:
            ET[e, 4 + G] = best


@_njit
def _top_cards(K, MT, m, union):
    """The k-th highest card left in each block, for the k of mask node ``m``."""
    rel = np.int64(0)
    for g in range(K[_G]):
        k = MT[m, 1 + g]
        if k:
            p = union & K[_GM + g]
            for _ in range(k - 1):
                p ^= _hi(p)
            rel |= _hi(p)
    return rel


# ---------------------------------------------------------------------------- the search
@_njit
def _settle(K, rels, tried, nt, c, gone):
    """The relevant cards of a failure, made to hold for the whole class (see runtime/solver/search.py)."""
    if not rels:
        return rels
    F = c | gone | K[_NS]
    for i in range(1, nt):  # highest first (tried.sort(reverse=True))
        v = tried[i]
        j = i
        while j > 0 and tried[j - 1] < v:
            tried[j] = tried[j - 1]
            j -= 1
        tried[j] = v
    for i in range(nt):
        mv = tried[i]
        rg = rels & _sm(mv, K)
        if rg:
            low = rg & -rg
            if mv >= low:
                run = c & ~_cut(mv, F, K) & ((mv << 1) - 1)
                bottom = run & -run
                if bottom < low:
                    rels |= bottom
    return rels


@_njit
def _unskip(K, moves, skipped, nsk, rels, small):
    """The skipped cards no longer below every relevant card of their suit become the
    moves (their suits' skipping switched off); returns (moves, skipped left)."""
    k = 0
    for j in range(nsk):
        mv = skipped[j]
        gi = _blk(mv, K)
        rg = rels & K[_GM + gi]
        if rg and mv >= (rg & -rg):
            moves[k] = mv
            k += 1
            small[gi] = 0
    keep = 0
    for j in range(nsk):
        mv = skipped[j]
        if _find(moves, k, mv) < 0:
            skipped[keep] = mv
            keep += 1
    return k, keep


@_njit
def _quick_tricks(K, S, leader, others):
    """Tricks the player on lead can cash at once from its own top cards, and those cards."""
    n, TR, NS = K[_N], K[_TR], K[_NS]
    h = S[_H + leader]
    qt = 0
    rel = np.int64(0)
    full = not (K[_FREE] and (others & NS))
    if TR:
        t = h & TR
        if t:
            ot = others & TR
            above = t & ~((np.int64(1) << _bl(ot)) - 1)
            if above:
                k = _pc(above)
                if full and ot and not K[_TOPTR]:
                    longest = 0
                    for s in range(n):
                        if s != leader:
                            length = _pc(S[_H + s] & TR)
                            if length > longest:
                                longest = length
                    if k >= longest:
                        k = _pc(t)
                elif not ot:
                    k = _pc(t)
                qt = k
                rel = above
    for g in range(K[_G]):
        gm = K[_GM + g]
        if gm == TR or gm == NS:
            continue
        mine = h & gm
        if not mine:
            continue
        og = others & gm
        above = mine & ~((np.int64(1) << _bl(og)) - 1)
        if above:
            k = _pc(above)
            if not og:
                k = _pc(mine)
            elif full and k < _pc(mine):
                longest = 0
                for s in range(n):
                    if s != leader:
                        length = _pc(S[_H + s] & gm)
                        if length > longest:
                            longest = length
                if k >= longest:
                    k = _pc(mine)
            if TR:
                for i in range(K[_NOPPS + leader]):
                    o = S[_H + K[_OPPS + 8 * leader + i]]
                    if o & TR:
                        length = _pc(o & gm)
                        if length < k:
                            k = length
            if k:
                qt += k
                rel |= above
    return qt, rel


@_njit
def _last_trick(K, S, leader):
    """The winner of the last trick and the card if it won by rank."""
    n, TR, NS = K[_N], K[_TR], K[_NS]
    win = np.int64(0)
    wseat = leader
    lt = np.int64(0)
    s = leader
    played = np.int64(0)
    for _ in range(n):
        mv = S[_H + s]
        played |= mv
        if win:
            if mv > win and (mv & lt):
                win = mv
                wseat = s
        elif not (mv & NS):
            win = mv
            wseat = s
            lt = _sm(mv, K) | TR
        s = K[_NEXT + s]
    if win and (played & _sm(win, K)) != win:
        return wseat, win
    return wseat, np.int64(0)


@_njit
def _sort_moves(moves, k, sc, descending):
    """Sort the scores (each carrying its move's index 127 - i in its low 7 bits) and
    put the moves in that order."""
    for a in range(1, k):
        v = sc[a]
        b = a
        if descending:
            while b > 0 and sc[b - 1] < v:
                sc[b] = sc[b - 1]
                b -= 1
        else:
            while b > 0 and sc[b - 1] > v:
                sc[b] = sc[b - 1]
                b -= 1
        sc[b] = v
    for a in range(k):  # decode into the upper half of the scores row, then copy back
        sc[MAX_MOVES // 2 + a] = moves[127 - (sc[a] & 127)]
    for a in range(k):
        moves[a] = sc[MAX_MOVES // 2 + a]


@_njit
def _order_leads(K, S, leader, moves, k, ntricks, others, sc):
    """Leads in a promising order (as the Python search's order_leads)."""
    n, TR, NS = K[_N], K[_TR], K[_NS]
    partner = np.int64(0)
    for i in range(K[_NPARTS + leader]):
        partner |= S[_H + K[_PARTS + 8 * leader + i]]
    opp = others & ~partner
    nop = K[_NOPPS + leader]
    has_ruffers = TR != 0 and (others & TR) != 0
    partner_ruffs = partner & TR
    void = -7 * (ntricks + 1)
    h = S[_H + leader]
    quad = K[_QUAD] != 0 and not ((others | h) & TR)
    lho = K[_NEXT + leader]
    pa = K[_NEXT + lho]
    rho = K[_NEXT + pa]
    gm = np.int64(0)
    win_w = 0
    low_w = 0
    oth = np.int64(0)
    i = 127
    for j in range(k):
        mv = moves[j]
        if mv & NS:
            sc[j] = -128000 + i
            i -= 1
            continue
        if not (mv & gm):
            gm = _sm(mv, K)
            weight = 0
            for q in range(nop):
                o = S[_H + K[_OPPS + 8 * leader + q]] & gm
                weight += -7 * _pc(o) if o else void
            ruffed = False
            if gm != TR:
                if has_ruffers:
                    for q in range(nop):
                        o = S[_H + K[_OPPS + 8 * leader + q]]
                        if (o & TR) and not (o & gm):
                            weight -= 40
                            ruffed = True
                            break
                if not ruffed:
                    if partner_ruffs and not (partner & gm):
                        weight += 25
            pg = partner & gm
            if not pg:
                weight -= 9
            if ruffed:
                oth = -1
            elif pg > (opp & gm):
                oth = 0
            else:
                oth = others & gm
            win_w = weight + 45
            low_w = weight + 12
            if quad and oth != -1:
                rest = (others | h) & gm
                b1 = _hi(rest)
                rest ^= b1
                b2 = _hi(rest) if rest else np.int64(0)
                rest ^= b2
                b3 = _hi(rest) if rest else np.int64(0)
                o1 = -1
                o2 = -1
                o3 = -1
                for t in range(n):
                    ht = S[_H + t]
                    if ht & b1:
                        o1 = t
                    if ht & b2:
                        o2 = t
                    if ht & b3:
                        o3 = t
                len_l = _pc(S[_H + lho] & gm)
                len_r = _pc(S[_H + rho] & gm)
                len_p = _pc(pg)
                if o2 == rho:
                    win_w -= 1 if len_r != 1 else 0
                elif o2 == lho:
                    win_w += 22 if len_l != 1 else 16
                if not ((o2 != lho or len_l == 1) and (o2 != rho or len_r == 1)):
                    win_w -= 27
                if o1 == rho or o2 == rho:
                    if len_r != 1:
                        low_w -= 10
                elif o1 == lho and o2 == pa and len_p != 1:
                    low_w += 31
                if o2 == pa and o3 == pa:
                    low_w += 35
                elif len_p > 1 and ((o2 == leader and o3 == pa) or (o2 == pa and o3 == leader)):
                    low_w += 25
                if (len_l == 1 and o1 == lho) or (len_r == 1 and o1 == rho):
                    low_w += 16
                elif o1 == leader:
                    low_w -= 29
        r = K[_RANK + _bl(mv) - 1]
        if oth >= 0 and mv > oth:
            sc[j] = (win_w + r) * 128 + i
        else:
            sc[j] = (low_w - r) * 128 + i
        i -= 1
    _sort_moves(moves, k, sc, True)


@_njit
def _order_discards(K, h, others, moves, k, sc):
    """Discards: low cards of long suits first, top cards later, trumps last."""
    TR = K[_TR]
    i = 127
    for j in range(k):
        m = moves[j]
        gm = _sm(m, K)
        bl = K[_PYBL + _bl(m) - 1]
        if gm == TR:
            sc[j] = (1000 + bl) * 128 + i
        elif m > (others & gm):
            sc[j] = (500 - _pc(h & gm)) * 128 + i
        else:
            sc[j] = (bl - 32 * _pc(h & gm)) * 128 + i
        i -= 1
    _sort_moves(moves, k, sc, False)


@_njit
def _bsearch_key(K, S, W, slot, leader):
    """The table key of the position (leader, lengths) and each block's owner sequence."""
    n, G, NS, KW, OB = K[_N], K[_G], K[_NS], K[_KW], K[_OB]
    union = np.int64(0)
    for s in range(n):
        union |= S[_H + s]
    for j in range(KW):
        W[slot, _WKEY, j] = 0
    W[slot, _WKEY, 0] = leader
    for g in range(G):
        gm = K[_GM + g]
        p = union & gm
        sq = np.int64(0)
        cnt = 0
        while p:
            b = _hi(p)
            p ^= b
            cnt += 1
            if gm != NS:
                for s in range(n):
                    if S[_H + s] & b:
                        sq = (sq << OB) | s
                        break
        W[slot, _WSEQ, g] = sq
        W[slot, _WUL, g] = cnt
        for s in range(n):
            fi = g * n + s
            W[slot, _WKEY, 1 + fi // 12] |= _pc(S[_H + s] & gm) << (5 * (fi % 12))
    return union


@(njit(_search_signature(), cache=True, nogil=True) if HAVE_NUMBA else (lambda f: f))
def _search(kind, seat, pos, led, win, wseat, target, ntricks, gone, tm, K, S, BT, MT, ET, W):
    """One node: kind 0 bsearch (``seat`` leads, a trick boundary), 1 lead (``win`` is the
    hint), 2 a follower before the last, 3 the last card of a trick.  Returns (result,
    rel, best card) as the Python search's functions do."""
    n, G, TR, NS, ALL = K[_N], K[_G], K[_TR], K[_NS], K[_ALL]
    # Every argument of a recursive call is an int64 variable, never a literal: a
    # recursive call whose argument types differ from the signature's compiles to a
    # symbol that numba's cache cannot resolve when it loads (numba issue 6713).
    zero = np.int64(0)
    one = np.int64(1)
    if kind == 0:
        # ------------------------------------------------------------- bsearch
        leader = seat
        if ntricks == 1:
            w, rel = _last_trick(K, S, leader)
            return (1 if K[_MAXS + w] >= target else 0), rel, zero
        slot = ntricks * n
        union = _bsearch_key(K, S, W, slot, leader)
        key = W[slot, _WKEY]
        seq = W[slot, _WSEQ]
        ulen = W[slot, _WUL]
        pf = W[slot, _WPF]
        kv = W[slot, _WKV]
        OB = K[_OB]
        b = _bucket_find(key, K[_KW], BT)
        hint = zero
        if b >= 0:
            m = BT[b, 1]
            while m >= 0:
                for g in range(G):
                    k = MT[m, 1 + g]
                    pf[g] = seq[g] >> (OB * (ulen[g] - k)) if k else 0
                e = _entry_find(m, pf, G, ET)
                if e >= 0:
                    if ET[e, 2 + G] >= target:
                        return 1, _top_cards(K, MT, m, union), zero
                    if ET[e, 3 + G] < target:
                        return 0, _top_cards(K, MT, m, union), zero
                    if ET[e, 4 + G]:
                        hint = ET[e, 4 + G]
                m = MT[m, 0]
        ismax = K[_MAXS + leader]
        if TR:
            t = union & TR
            if t:
                top = _hi(t)
                s = 0
                for s in range(n):
                    if S[_H + s] & top:
                        break
                ht = S[_H + s] & TR
                sure = ht & ~((np.int64(1) << _bl(t ^ ht)) - 1)
                k = _pc(sure)
                if K[_MAXS + s]:
                    if k >= target:
                        _store(K, S, BT, MT, ET, key, seq, ulen, union, sure, k, ntricks, 0, pf, kv)
                        return 1, sure, zero
                elif ntricks - k < target:
                    _store(K, S, BT, MT, ET, key, seq, ulen, union, sure, 0, ntricks - k, 0, pf, kv)
                    return 0, sure, zero
        h = S[_H + leader]
        qt, qrel = _quick_tricks(K, S, leader, union ^ h)
        if qt < (target if ismax else ntricks - target + 1):
            # Lead low to a partner's top card, and let the partner cash its own.
            for pi in range(K[_NPARTS + leader]):
                p = K[_PARTS + 8 * leader + pi]
                hp = S[_H + p]
                others = union ^ hp
                for g in range(G):
                    gm = K[_GM + g]
                    if gm == NS:
                        continue
                    if (h & gm) and (hp & gm) and (hp & gm) > (others & gm):
                        if gm != TR and TR:
                            ruffed = False
                            for oi in range(K[_NOPPS + leader]):
                                ho = S[_H + K[_OPPS + 8 * leader + oi]]
                                if (ho & TR) and not (ho & gm):
                                    ruffed = True
                                    break
                            if ruffed:
                                continue
                        pqt, prel = _quick_tricks(K, S, p, others)
                        spare = hp
                        for g2 in range(G):
                            if K[_GM + g2] != NS and (prel & K[_GM + g2]):
                                spare &= ~K[_GM + g2]
                        if _pc(spare) >= qt:
                            qt = qt + pqt
                            qrel = qrel | prel
                        elif pqt > qt:
                            qt = pqt
                            qrel = prel
                        break
        if ismax:
            if qt >= target:
                _store(K, S, BT, MT, ET, key, seq, ulen, union, qrel, qt, ntricks, 0, pf, kv)
                return 1, qrel, zero
        elif qt > ntricks - target:
            _store(K, S, BT, MT, ET, key, seq, ulen, union, qrel, 0, ntricks - qt, 0, pf, kv)
            return 0, qrel, zero
        r, rel, best = _search(one, leader, zero, zero, hint, zero, target, ntricks, ALL & ~union, zero,
                               K, S, BT, MT, ET, W)
        # (the lead writes only its own row and deeper slots' rows: ours are intact)
        if r:
            _store(K, S, BT, MT, ET, key, seq, ulen, union, rel, target, ntricks, best if ismax else 0, pf, kv)
        else:
            _store(K, S, BT, MT, ET, key, seq, ulen, union, rel, 0, target - 1, best if not ismax else 0, pf, kv)
        return r, rel, zero

    S[_NODES] += 1
    slot = ntricks * n + pos
    moves = W[slot, _WMV]
    tried = W[slot, _WTR]
    skipped = W[slot, _WSK]
    small = W[slot, _WSMALL]
    sc = W[slot, _WSC]
    if kind == 1:
        # ------------------------------------------------------------- lead
        leader = seat
        hint = win
        h = S[_H + leader]
        F = h | gone | NS
        k = _gen(h, F, K, moves, 0)
        if k > 1:
            _order_leads(K, S, leader, moves, k, ntricks, (ALL ^ gone) ^ h, sc)
            kl = S[_KILL + ntricks * n]
            if kl and moves[0] != kl:
                i = _find(moves, k, kl)
                if i >= 0:
                    _to_front(moves, i, 0)
            if hint and moves[0] != hint:
                i = _find(moves, k, hint)
                if i >= 0:
                    _to_front(moves, i, 0)
        ismax = K[_MAXS + leader]
        nxt = K[_NEXT + leader]
        second = np.int64(3) if n == 2 else np.int64(2)
        rels = zero
        nt = 0
        for g in range(G):
            small[g] = -1
        nsk = 0
        while True:
            for j in range(k):
                mv = moves[j]
                gi = _blk(mv, K)
                th = small[gi]
                if th >= 0 and mv < th:
                    skipped[nsk] = mv
                    nsk += 1
                    continue
                S[_H + leader] = h ^ mv
                if mv & NS:
                    r, rel, _b = _search(second, nxt, one, zero, zero, leader, target, ntricks, gone, mv,
                                         K, S, BT, MT, ET, W)
                else:
                    r, rel, _b = _search(second, nxt, one, K[_LEDM + _bl(mv) - 1], mv, leader, target, ntricks, gone,
                                         mv, K, S, BT, MT, ET, W)
                S[_H + leader] = h
                if r == ismax:
                    S[_KILL + ntricks * n] = mv
                    return r, rel, mv
                rels |= rel
                tried[nt] = mv
                nt += 1
                if small[gi] < 0:
                    gm = K[_GM + gi]
                    rg = rels & gm
                    low = rg & -rg if rg else _hi(gm) << 1
                    if mv < low:
                        small[gi] = low
            if nsk == 0:
                break
            k, nsk = _unskip(K, moves, skipped, nsk, rels, small)
            if k == 0:
                break
        return (0 if ismax else 1), _settle(K, rels, tried, nt, h, gone), zero

    # ----------------------------------------------------------------- followers
    last = kind == 3
    h = S[_H + seat]
    c = h & led
    following = False
    single = False
    if c:
        following = True
        single = not (K[_FREE] and (h & NS))
        if not single:
            c |= h & NS
    else:
        c = h
    F = c | gone | NS
    top = _hi(c)
    nxt = K[_NEXT + seat]
    pos1 = pos + 1
    after = np.int64(3) if pos1 == n - 1 else np.int64(2)
    left = ntricks - 1
    won = 2 if ntricks == K[_BONUS] else 1
    ismax = K[_MAXS + seat]
    lt = led | TR
    cut = _cut(top, F, K)
    if not (c & cut):
        # One choice only (a singleton, or cards all equivalent): no branching.
        mv = top
        if win:
            if mv > win and (mv & lt):
                nw = mv
                nws = seat
            else:
                nw = win
                nws = wseat
            nled = led if led else K[_LEDM + _bl(mv) - 1]
        elif mv & NS:
            nw = zero
            nws = wseat
            nled = zero
        else:
            nw = mv
            nws = seat
            nled = K[_LEDM + _bl(mv) - 1]
        if last:
            t2 = target - won if K[_MAXS + nws] else target
            if t2 <= 0:
                r = 1
                rel = zero
            elif t2 > left:
                r = 0
                rel = zero
            else:
                S[_H + seat] = h ^ mv
                r, rel, _b = _search(zero, nws, zero, zero, zero, zero, t2, left, zero, zero, K, S, BT, MT, ET, W)
                S[_H + seat] = h
            if nw and ((tm | mv) & _sm(nw, K)) != nw:
                rel |= nw
        else:
            S[_H + seat] = h ^ mv
            r, rel, _b = _search(after, nxt, pos1, nled, nw, nws, target, ntricks, gone, tm | mv, K, S, BT, MT, ET, W)
            S[_H + seat] = h
        if c != mv and r != ismax:  # a run of several cards failed
            tried[0] = mv
            rel = _settle(K, rel, tried, 1, c, gone)
        return r, rel, zero
    cc = c
    moves[0] = top
    k = _gen(c & cut, F, K, moves, 1)
    kslot = ntricks * n + pos
    if following:
        for i in range(k // 2):  # low cards first
            v = moves[i]
            moves[i] = moves[k - 1 - i]
            moves[k - 1 - i] = v
    else:
        _order_discards(K, h, ALL ^ gone ^ tm ^ h, moves, k, sc)
    if last:
        if win and K[_MAXS + wseat] != ismax:
            for i in range(k):  # the cheapest card that wins
                m = moves[i]
                if m > win and (m & lt):
                    if i != 0:
                        _to_front(moves, i, 0)
                    break
    elif following:
        bar = zero
        for q in range(K[_NLATER + 8 * seat + pos]):
            bar |= S[_H + K[_LATER + 64 * seat + 8 * pos + q]]
        bar &= led
        if win > bar:
            bar = win
        if K[_MAXS + wseat] != ismax or bar != win:
            # Win the trick for sure as cheaply as possible, else play low.
            for i in range(k):
                m = moves[i]
                if m > bar and (m & lt):
                    if i != 0:
                        _to_front(moves, i, 0)
                    break
    else:
        if win and K[_MAXS + wseat] != ismax:
            for i in range(k):  # ruff (or overruff) as cheaply as possible
                m = moves[i]
                if m > win and (m & lt):
                    _to_front(moves, i, 0)
                    break
    kl = S[_KILL + kslot]
    if kl and moves[0] != kl:
        i = _find(moves, k, kl)
        if i >= 0:
            _to_front(moves, i, 1)
    rels = zero
    nt = 0
    if single and not last:
        # Following suit: every card is of the suit led, and ``win`` is set.
        th = zero
        nsk = 0
        have_skipped = False
        while True:
            for j in range(k):
                mv = moves[j]
                if mv < th:
                    skipped[nsk] = mv
                    nsk += 1
                    have_skipped = True
                    continue
                S[_H + seat] = h ^ mv
                if mv > win:
                    r, rel, _b = _search(after, nxt, pos1, led, mv, seat, target, ntricks, gone, tm | mv,
                                         K, S, BT, MT, ET, W)
                else:
                    r, rel, _b = _search(after, nxt, pos1, led, win, wseat, target, ntricks, gone, tm | mv,
                                         K, S, BT, MT, ET, W)
                S[_H + seat] = h
                if r == ismax:
                    S[_KILL + kslot] = mv
                    return r, rel, zero
                rels |= rel
                tried[nt] = mv
                nt += 1
                if not th:
                    rg = rels & led
                    low = rg & -rg if rg else _hi(led) << 1
                    if mv < low:
                        th = low
            if not have_skipped:
                break
            # Skipped cards must stay below every rank that mattered (see lead).
            rg = rels & led
            low = rg & -rg if rg else _hi(led) << 1
            k = 0
            keep = 0
            for j in range(nsk):
                mv = skipped[j]
                if mv >= low:
                    moves[k] = mv
                    k += 1
                else:
                    skipped[keep] = mv
                    keep += 1
            if k == 0:
                break
            nsk = keep
            th = np.int64(-1)
        return (0 if ismax else 1), _settle(K, rels, tried, nt, cc, gone), zero
    for g in range(G):
        small[g] = -1
    nsk = 0
    while True:
        for j in range(k):
            mv = moves[j]
            gi = _blk(mv, K)
            th = small[gi]
            if th >= 0 and mv < th:
                skipped[nsk] = mv
                nsk += 1
                continue
            if win:
                if mv > win and (mv & lt):
                    nw = mv
                    nws = seat
                else:
                    nw = win
                    nws = wseat
                nled = led if led else K[_LEDM + _bl(mv) - 1]
            elif mv & NS:
                nw = zero
                nws = wseat
                nled = zero
            else:
                nw = mv
                nws = seat
                nled = K[_LEDM + _bl(mv) - 1]
            if last:
                t2 = target - won if K[_MAXS + nws] else target
                if t2 <= 0:
                    r = 1
                    rel = zero
                elif t2 > left:
                    r = 0
                    rel = zero
                else:
                    S[_H + seat] = h ^ mv
                    r, rel, _b = _search(zero, nws, zero, zero, zero, zero, t2, left, zero, zero, K, S, BT, MT, ET, W)
                    S[_H + seat] = h
                if nw and ((tm | mv) & _sm(nw, K)) != nw:
                    rel |= nw  # it won over another card of its suit: its rank counts
            else:
                S[_H + seat] = h ^ mv
                r, rel, _b = _search(after, nxt, pos1, nled, nw, nws, target, ntricks, gone, tm | mv,
                                     K, S, BT, MT, ET, W)
                S[_H + seat] = h
            if r == ismax:
                S[_KILL + kslot] = mv
                return r, rel, zero
            rels |= rel
            tried[nt] = mv
            nt += 1
            if small[gi] < 0:
                gm = K[_GM + gi]
                rg = rels & gm
                low = rg & -rg if rg else _hi(gm) << 1
                if mv < low:
                    small[gi] = low
        if nsk == 0:
            break
        k, nsk = _unskip(K, moves, skipped, nsk, rels, small)
        if k == 0:
            break
    return (0 if ismax else 1), _settle(K, rels, tried, nt, cc, gone), zero


class Kernel:
    """The compiled search for one ``runtime.solver.engine._Engine`` (its tables, its own
    transposition table and killer moves, kept between calls as the engine keeps its own)."""

    def __init__(self, engine) -> None:
        self.engine = engine
        n = engine.n
        masks = engine.group_masks
        G = len(masks)
        # The engine's block gi -> the kernel's bits from off: (python shift, length mask, kernel shift).
        self.blocks: list[tuple[int, int, int]] = []
        K = np.zeros(_KSIZE, np.int64)
        off = 0
        for gi, m in enumerate(masks):
            size = m.bit_count()
            low = (m & -m).bit_length() - 1
            self.blocks.append((low, (1 << size) - 1, off))
            K[_GM + gi] = ((1 << size) - 1) << off
            for r in range(size):
                K[_BLK + off + r] = gi
                K[_PYBL + off + r] = low + r + 1
                K[_RANK + off + r] = r + 1
            off += size
        for bit, lm in engine.led_mask.items():
            K[_LEDM + self.to_k(bit).bit_length() - 1] = self.to_k(lm)
        ms = engine.max_seat
        for s in range(n):
            K[_MAXS + s] = 1 if ms[s] else 0
            K[_NEXT + s] = (s + 1) % n
            for t in range(n):
                if ms[t] != ms[s]:
                    K[_OPPS + 8 * s + K[_NOPPS + s]] = t
                    K[_NOPPS + s] += 1
                elif t != s:
                    K[_PARTS + 8 * s + K[_NPARTS + s]] = t
                    K[_NPARTS + s] += 1
            for pos in range(n):
                for k in range(1, n - pos):
                    t = (s + k) % n
                    if ms[t] != ms[s]:
                        K[_LATER + 64 * s + 8 * pos + K[_NLATER + 8 * s + pos]] = t
                        K[_NLATER + 8 * s + pos] += 1
        quad = n == 4 and all(
            [t for t in range(n) if t != s and ms[t] == ms[s]] == [(s + 2) % 4] for s in range(n))
        kw = 1 + (G * n + 11) // 12
        K[_N], K[_G], K[_TR], K[_NS] = n, G, self.to_k(engine.trump_mask), self.to_k(engine.ns_mask)
        K[_FREE], K[_TOPTR], K[_ALL] = int(bool(engine.free_ns)), int(engine.top_as_trump), self.to_k(engine.all_mask)
        K[_QUAD], K[_OB], K[_KW], K[_BONUS], K[_TTLIM] = int(quad), max(1, (n - 1).bit_length()), kw, -1, TT_LIMIT
        self.K = K
        slots = (off // n + 3) * n
        self.S = np.zeros(_KILL + slots, np.int64)
        self.BT = np.zeros((BUCKETS, 3 + kw), np.int64)
        self.MT = np.zeros((MASKS, 1 + G), np.int64)
        self.ET = np.zeros((ENTRIES, 5 + G), np.int64)
        self.W = np.zeros((slots, _WROWS, MAX_MOVES), np.int64)

    def to_k(self, x: int) -> int:
        """An engine bitmask in the kernel's layout."""
        out = 0
        for low, lm, off in self.blocks:
            out |= ((x >> low) & lm) << off
        return out

    def call(self, kind: int, seat: int, pos: int, led: int, win: int, wseat: int, target: int,
             ntricks: int, gone: int, tm: int) -> bool:
        """One search from the engine's hands (Python layout) and the root's values."""
        eng = self.engine
        S = self.S
        for s, h in enumerate(eng.hands):
            S[_H + s] = self.to_k(h)
        self.K[_BONUS] = eng.bonus[0]
        tk = self.to_k
        r, _, _ = _search(kind, seat, pos, tk(led), tk(win) if kind != 0 else 0, wseat, target, ntricks,
                          tk(gone), tk(tm), self.K, S, self.BT, self.MT, self.ET, self.W)
        return bool(r)

    @property
    def nodes(self) -> int:
        """Nodes searched so far (calls of lead and follow, as bench/dds.py counts the Python search's)."""
        return int(self.S[_NODES])
