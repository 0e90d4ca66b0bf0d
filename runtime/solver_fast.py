"""The compiled double-dummy search: :mod:`runtime.solver`'s search, run by numba.

Optional: it needs the ``numba`` package (``pip install bidwhist[fast]``); without it
:func:`available` is False and the solver keeps its pure-Python search, which stays
complete.  Imported lazily, only by ``DoubleDummy(backend="fast")``, so the command
line never pays numba's import.

What it runs
    The same search as ``_Engine`` in runtime/solver.py, move for move: boolean
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

try:  # numba is an optional extra
    from numba import njit
    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - exercised only without the extra
    HAVE_NUMBA = False

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
TT_LIMIT = 200_000  # buckets, as runtime.solver.TT_LIMIT

# P: the engine's constants.
_N, _G, _TR, _NS, _FREE, _TOPTR, _ALL, _QUAD, _OB, _KW, _BONUS, _TTLIM = range(12)
# STATS: counts kept by the table and the search.
_NB, _NM, _NE, _CLEARS, _NODES = range(5)


def available() -> bool:
    """Whether the compiled search can run (numba imports)."""
    return HAVE_NUMBA


def fits(engine) -> bool:
    """Whether the kernel can run this engine's contract (see the module doc)."""
    sizes = [m.bit_count() for m in engine.group_masks]
    ob = max(1, (engine.n - 1).bit_length())
    return (sum(sizes) <= MAX_BITS and max(sizes) * ob <= 62 and max(sizes) <= 31
            and sum(sizes) // engine.n + 2 <= MAX_MOVES and engine.n <= 8)


def _njit(f):
    return njit(cache=True, nogil=True)(f) if HAVE_NUMBA else f


def _search_signature():
    """The search's one signature, given explicitly: a recursive function compiled from
    its types alone loads from numba's cache safely (type-inferred recursion that is
    cached can crash when loaded: numba issues 6061, 6713)."""
    from numba import types  # noqa: PLC0415

    i8 = types.int64
    a1, a2, a3 = types.int64[::1], types.int64[:, ::1], types.int64[:, :, ::1]
    b1 = types.int8[::1]
    consts = types.Tuple((a1, a1, a1, a1, a1, a1, a1, a2, a1, a2, a1, a3, a2, a1))
    tables = types.Tuple((a1, a1, a1, a2, a1, a1, b1, a2, a1, a2, a2, b1, a1,
                          a2, a2, a2, a2, a2, a2, a2, a2, a2, a2))
    return types.UniTuple(i8, 3)(i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, consts, tables)


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
def _sm(mv, GM, BLK):
    return GM[BLK[_bl(mv) - 1]]


@_njit
def _cut(top, F, GM, BLK):
    """The bits below the run of equivalent cards that ``top`` heads (``F``: the cards
    that do not separate runs), as the Python search's gap bit between blocks makes them."""
    s = _sm(top, GM, BLK)
    below = ~F & (top - 1) & s
    if below:
        return (np.int64(1) << _bl(below)) - 1
    return (s & -s) - 1


@_njit
def _gen(c, F, GM, BLK, out):
    """One card of each run of ``c``, highest first, into ``out``; returns the count."""
    k = 0
    while c:
        top = _hi(c)
        out[k] = top
        k += 1
        c &= _cut(top, F, GM, BLK)
    return k


@_njit
def _to_front(a, k, i, dest):
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
def _hash_words(w, n):
    h = np.int64(0x2545F4914F6CDD1D)
    for i in range(n):
        h = (h ^ w[i]) * np.int64(0x5851F42D4C957F2D)
        h ^= (h >> 31) & 0x1FFFFFFFF
    return h


@_njit
def _clear(T):
    STATS, BUSED, EUSED = T[2], T[6], T[11]
    BUSED[:] = 0
    EUSED[:] = 0
    STATS[_NB] = 0
    STATS[_NM] = 0
    STATS[_NE] = 0
    STATS[_CLEARS] += 1


@_njit
def _bucket_find(key, KW, T):
    BK, BUSED = T[3], T[6]
    cap = BUSED.shape[0]
    i = _hash_words(key, KW) & (cap - 1)
    while BUSED[i]:
        same = True
        for j in range(KW):
            if BK[i, j] != key[j]:
                same = False
                break
        if same:
            return i
        i = (i + 1) & (cap - 1)
    return -1 - i  # the free slot, encoded


@_njit
def _entry_find(m, pf, G, T):
    EK, EUSED, EKEYW = T[9], T[11], T[12]
    cap = EUSED.shape[0]
    EKEYW[0] = m
    for g in range(G):
        EKEYW[1 + g] = pf[g]
    i = _hash_words(EKEYW, G + 1) & (cap - 1)
    while EUSED[i]:
        same = True
        for j in range(G + 1):
            if EK[i, j] != EKEYW[j]:
                same = False
                break
        if same:
            return i
        i = (i + 1) & (cap - 1)
    return -1 - i


@_njit
def _store(C, T, key, seq, ulen, union, rel, lb, ub, best, pf, kv):
    P, GM = C[0], C[3]
    G, KW, OB = P[_G], P[_KW], P[_OB]
    STATS, BK, BHEAD, BTAIL, BUSED = T[2], T[3], T[4], T[5], T[6]
    MK, MNEXT, EK, EV, EUSED = T[7], T[8], T[9], T[10], T[11]
    for g in range(G):
        r = rel & GM[g]
        if r:
            p = union & GM[g]
            k = _pc(p & ~((r & -r) - 1))
            kv[g] = k
            pf[g] = seq[g] >> (OB * (ulen[g] - k))
        else:
            kv[g] = 0
            pf[g] = 0
    # Full (a sound clear, the Python table clears too): before anything is inserted.
    if (STATS[_NB] * 5 >= BUSED.shape[0] * 4 or STATS[_NM] + 1 >= MNEXT.shape[0]
            or STATS[_NE] * 5 >= EUSED.shape[0] * 4):
        _clear(T)
    b = _bucket_find(key, KW, T)
    if b < 0:
        if STATS[_NB] >= P[_TTLIM]:
            _clear(T)
            b = _bucket_find(key, KW, T)
        b = -1 - b
        BUSED[b] = 1
        for j in range(KW):
            BK[b, j] = key[j]
        BHEAD[b] = -1
        BTAIL[b] = -1
        STATS[_NB] += 1
    m = BHEAD[b]
    while m >= 0:
        same = True
        for g in range(G):
            if MK[m, g] != kv[g]:
                same = False
                break
        if same:
            break
        m = MNEXT[m]
    if m < 0:
        m = STATS[_NM]
        STATS[_NM] += 1
        for g in range(G):
            MK[m, g] = kv[g]
        MNEXT[m] = -1
        if BTAIL[b] >= 0:
            MNEXT[BTAIL[b]] = m
        else:
            BHEAD[b] = m
        BTAIL[b] = m
    e = _entry_find(m, pf, G, T)
    if e < 0:
        e = -1 - e
        EUSED[e] = 1
        EK[e, 0] = m
        for g in range(G):
            EK[e, 1 + g] = pf[g]
        EV[e, 0] = lb
        EV[e, 1] = ub
        EV[e, 2] = best
        STATS[_NE] += 1
    else:
        if lb > EV[e, 0]:
            EV[e, 0] = lb
        if ub < EV[e, 1]:
            EV[e, 1] = ub
        if best:
            EV[e, 2] = best


@_njit
def _top_cards(C, m, union, MK):
    GM = C[3]
    rel = np.int64(0)
    for g in range(GM.shape[0]):
        k = MK[m, g]
        if k:
            p = union & GM[g]
            for _ in range(k - 1):
                p ^= _hi(p)
            rel |= _hi(p)
    return rel


# ---------------------------------------------------------------------------- the search
@_njit
def _settle(C, rels, tried, nt, c, gone):
    P, GM, BLK = C[0], C[3], C[4]
    if not rels:
        return rels
    F = c | gone | P[_NS]
    # highest first (tried.sort(reverse=True))
    for i in range(1, nt):
        v = tried[i]
        j = i
        while j > 0 and tried[j - 1] < v:
            tried[j] = tried[j - 1]
            j -= 1
        tried[j] = v
    for i in range(nt):
        mv = tried[i]
        rg = rels & _sm(mv, GM, BLK)
        if rg:
            low = rg & -rg
            if mv >= low:
                run = c & ~_cut(mv, F, GM, BLK) & ((mv << 1) - 1)
                bottom = run & -run
                if bottom < low:
                    rels |= bottom
    return rels


@_njit
def _quick_tricks(C, hands, leader, others):
    P, GM, OPPS, NOPPS = C[0], C[3], C[7], C[8]
    n, TR, NS = P[_N], P[_TR], P[_NS]
    h = hands[leader]
    qt = 0
    rel = np.int64(0)
    full = not (P[_FREE] and (others & NS))
    nruff = 0
    ruffers = np.empty(8, np.int64)
    if TR:
        t = h & TR
        if t:
            ot = others & TR
            above = t & ~((np.int64(1) << _bl(ot)) - 1)
            if above:
                k = _pc(above)
                if full and ot and not P[_TOPTR]:
                    longest = 0
                    for s in range(n):
                        if s != leader:
                            length = _pc(hands[s] & TR)
                            if length > longest:
                                longest = length
                    if k >= longest:
                        k = _pc(t)
                elif not ot:
                    k = _pc(t)
                qt = k
                rel = above
        for i in range(NOPPS[leader]):
            o = OPPS[leader, i]
            if hands[o] & TR:
                ruffers[nruff] = hands[o]
                nruff += 1
    for g in range(GM.shape[0]):
        gm = GM[g]
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
                        length = _pc(hands[s] & gm)
                        if length > longest:
                            longest = length
                if k >= longest:
                    k = _pc(mine)
            for i in range(nruff):
                length = _pc(ruffers[i] & gm)
                if length < k:
                    k = length
            if k:
                qt += k
                rel |= above
    return qt, rel


@_njit
def _last_trick(C, hands, leader):
    P, GM, BLK, NEXT = C[0], C[3], C[4], C[2]
    n, TR, NS = P[_N], P[_TR], P[_NS]
    win = np.int64(0)
    wseat = leader
    lt = np.int64(0)
    s = leader
    played = np.int64(0)
    for _ in range(n):
        mv = hands[s]
        played |= mv
        if win:
            if mv > win and (mv & lt):
                win = mv
                wseat = s
        elif not (mv & NS):
            win = mv
            wseat = s
            lt = _sm(mv, GM, BLK) | TR
        s = NEXT[s]
    if win and (played & _sm(win, GM, BLK)) != win:
        return wseat, win
    return wseat, np.int64(0)


@_njit
def _order_leads(C, T, hands, leader, moves, k, ntricks, others, slot):
    P, NEXT, GM, BLK = C[0], C[2], C[3], C[4]
    OPPS, NOPPS, PARTS, NPARTS, RANKT = C[7], C[8], C[9], C[10], C[13]
    SC = T[17]
    n, TR, NS = P[_N], P[_TR], P[_NS]
    partner = np.int64(0)
    for i in range(NPARTS[leader]):
        partner |= hands[PARTS[leader, i]]
    opp = others & ~partner
    nop = NOPPS[leader]
    has_ruffers = TR != 0 and (others & TR) != 0
    partner_ruffs = partner & TR
    void = -7 * (ntricks + 1)
    h = hands[leader]
    quad = P[_QUAD] != 0 and not ((others | h) & TR)
    lho = NEXT[leader]
    pa = NEXT[lho]
    rho = NEXT[pa]
    gm = np.int64(0)
    win_w = 0
    low_w = 0
    oth = np.int64(0)
    i = 127
    for j in range(k):
        mv = moves[j]
        if mv & NS:
            SC[slot, j] = -128000 + i
            i -= 1
            continue
        if not (mv & gm):
            gm = _sm(mv, GM, BLK)
            weight = 0
            for q in range(nop):
                o = hands[OPPS[leader, q]] & gm
                weight += -7 * _pc(o) if o else void
            ruffed = False
            if gm != TR:
                broke = False
                if has_ruffers:
                    for q in range(nop):
                        o = hands[OPPS[leader, q]]
                        if (o & TR) and not (o & gm):
                            weight -= 40
                            ruffed = True
                            broke = True
                            break
                if not broke:
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
                    ht = hands[t]
                    if ht & b1:
                        o1 = t
                    if ht & b2:
                        o2 = t
                    if ht & b3:
                        o3 = t
                len_l = _pc(hands[lho] & gm)
                len_r = _pc(hands[rho] & gm)
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
        r = RANKT[_bl(mv) - 1]
        if oth >= 0 and mv > oth:
            SC[slot, j] = (win_w + r) * 128 + i
        else:
            SC[slot, j] = (low_w - r) * 128 + i
        i -= 1
    # sort descending, then decode the moves
    for a in range(1, k):
        v = SC[slot, a]
        b = a
        while b > 0 and SC[slot, b - 1] < v:
            SC[slot, b] = SC[slot, b - 1]
            b -= 1
        SC[slot, b] = v
    tmp = np.empty(MAX_MOVES, np.int64)
    for a in range(k):
        tmp[a] = moves[127 - (SC[slot, a] & 127)]
    for a in range(k):
        moves[a] = tmp[a]


@_njit
def _order_discards(C, T, h, others, moves, k, slot):
    P, GM, BLK, PYBL = C[0], C[3], C[4], C[5]
    SC = T[17]
    TR = P[_TR]
    i = 127
    for j in range(k):
        m = moves[j]
        gm = _sm(m, GM, BLK)
        bl = PYBL[_bl(m) - 1]
        if gm == TR:
            SC[slot, j] = (1000 + bl) * 128 + i
        elif m > (others & gm):
            SC[slot, j] = (500 - _pc(h & gm)) * 128 + i
        else:
            SC[slot, j] = (bl - 32 * _pc(h & gm)) * 128 + i
        i -= 1
    for a in range(1, k):
        v = SC[slot, a]
        b = a
        while b > 0 and SC[slot, b - 1] > v:
            SC[slot, b] = SC[slot, b - 1]
            b -= 1
        SC[slot, b] = v
    tmp = np.empty(MAX_MOVES, np.int64)
    for a in range(k):
        tmp[a] = moves[127 - (SC[slot, a] & 127)]
    for a in range(k):
        moves[a] = tmp[a]


@_njit
def _unskip(C, moves, skipped, nsk, rels, small):
    """The skipped cards no longer below every relevant card of their suit become the
    moves (their suits' skipping switched off); returns (moves, skipped left)."""
    GM, BLK = C[3], C[4]
    k = 0
    for j in range(nsk):
        mv = skipped[j]
        gi = BLK[_bl(mv) - 1]
        rg = rels & GM[gi]
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


@(njit(_search_signature(), cache=True, nogil=True) if HAVE_NUMBA else (lambda f: f))
def _search(kind, seat, pos, led, win, wseat, target, ntricks, gone, tm, C, T):
    """One node: kind 0 bsearch (``seat`` leads, a trick boundary), 1 lead (``win`` is the
    hint), 2 a follower before the last, 3 the last card of a trick.  Returns (result,
    rel, best card) as the Python search's functions do."""
    P, MAXS, NEXT, GM, BLK = C[0], C[1], C[2], C[3], C[4]
    LEDMT, OPPS, NOPPS, PARTS, NPARTS, LATER, NLATER = C[6], C[7], C[8], C[9], C[10], C[11], C[12]
    hands, KILL, STATS = T[0], T[1], T[2]
    MV, TRB, SKB, SMB = T[13], T[14], T[15], T[16]
    n, G, TR, NS, ALL = P[_N], P[_G], P[_TR], P[_NS], P[_ALL]
    zero = np.int64(0)
    if kind == 0:
        # ------------------------------------------------------------- bsearch
        leader = seat
        if ntricks == 1:
            w, rel = _last_trick(C, hands, leader)
            return (1 if MAXS[w] >= target else 0), rel, zero
        slot = ntricks * n
        SEQB, KEYB, PFB, KVB, ULB = T[18], T[19], T[20], T[21], T[22]
        seq = SEQB[slot]
        key = KEYB[slot]
        pf = PFB[slot]
        kv = KVB[slot]
        ulen = ULB[slot]
        union = zero
        for s in range(n):
            union |= hands[s]
        KW = P[_KW]
        OB = P[_OB]
        for j in range(KW):
            key[j] = 0
        key[0] = leader
        for g in range(G):
            p = union & GM[g]
            sq = zero
            cnt = 0
            while p:
                b = _hi(p)
                p ^= b
                cnt += 1
                for s in range(n):
                    if hands[s] & b:
                        if GM[g] != NS:
                            sq = (sq << OB) | s
                        break
            seq[g] = sq
            ulen[g] = cnt
            for s in range(n):
                fi = g * n + s
                key[1 + fi // 12] |= _pc(hands[s] & GM[g]) << (5 * (fi % 12))
        b = _bucket_find(key, KW, T)
        hint = zero
        if b >= 0:
            MK, MNEXT, EV = T[7], T[8], T[10]
            m = T[4][b]
            while m >= 0:
                for g in range(G):
                    k = MK[m, g]
                    pf[g] = seq[g] >> (OB * (ulen[g] - k)) if k else 0
                e = _entry_find(m, pf, G, T)
                if e >= 0:
                    if EV[e, 0] >= target:
                        return 1, _top_cards(C, m, union, MK), zero
                    if EV[e, 1] < target:
                        return 0, _top_cards(C, m, union, MK), zero
                    if EV[e, 2]:
                        hint = EV[e, 2]
                m = MNEXT[m]
        ismax = MAXS[leader]
        if TR:
            t = union & TR
            if t:
                top = _hi(t)
                s = 0
                for s in range(n):
                    if hands[s] & top:
                        break
                ht = hands[s] & TR
                sure = ht & ~((np.int64(1) << _bl(t ^ ht)) - 1)
                k = _pc(sure)
                if MAXS[s]:
                    if k >= target:
                        _store(C, T, key, seq, ulen, union, sure, k, ntricks, 0, pf, kv)
                        return 1, sure, zero
                elif ntricks - k < target:
                    _store(C, T, key, seq, ulen, union, sure, 0, ntricks - k, 0, pf, kv)
                    return 0, sure, zero
        h = hands[leader]
        qt, qrel = _quick_tricks(C, hands, leader, union ^ h)
        if qt < (target if ismax else ntricks - target + 1):
            for pi in range(NPARTS[leader]):
                p = PARTS[leader, pi]
                hp = hands[p]
                others = union ^ hp
                for g in range(G):
                    gm = GM[g]
                    if gm == NS:
                        continue
                    if (h & gm) and (hp & gm) and (hp & gm) > (others & gm):
                        if gm != TR and TR:
                            ruffed = False
                            for oi in range(NOPPS[leader]):
                                ho = hands[OPPS[leader, oi]]
                                if (ho & TR) and not (ho & gm):
                                    ruffed = True
                                    break
                            if ruffed:
                                continue
                        pqt, prel = _quick_tricks(C, hands, p, others)
                        spare = hp
                        for g2 in range(G):
                            if GM[g2] != NS and (prel & GM[g2]):
                                spare &= ~GM[g2]
                        if _pc(spare) >= qt:
                            qt = qt + pqt
                            qrel = qrel | prel
                        elif pqt > qt:
                            qt = pqt
                            qrel = prel
                        break
        if ismax:
            if qt >= target:
                _store(C, T, key, seq, ulen, union, qrel, qt, ntricks, 0, pf, kv)
                return 1, qrel, zero
        elif qt > ntricks - target:
            _store(C, T, key, seq, ulen, union, qrel, 0, ntricks - qt, 0, pf, kv)
            return 0, qrel, zero
        r, rel, best = _search(1, leader, 0, zero, hint, 0, target, ntricks, ALL & ~union, zero, C, T)
        # the lead may have used the buffers of deeper slots only: ours are intact
        if r:
            _store(C, T, key, seq, ulen, union, rel, target, ntricks, best if ismax else 0, pf, kv)
        else:
            _store(C, T, key, seq, ulen, union, rel, 0, target - 1, best if not ismax else 0, pf, kv)
        return r, rel, zero

    STATS[_NODES] += 1
    slot = ntricks * n + pos
    moves = MV[slot]
    tried = TRB[slot]
    skipped = SKB[slot]
    small = SMB[slot]
    if kind == 1:
        # ------------------------------------------------------------- lead
        leader = seat
        hint = win
        h = hands[leader]
        F = h | gone | NS
        k = _gen(h, F, GM, BLK, moves)
        if k > 1:
            _order_leads(C, T, hands, leader, moves, k, ntricks, (ALL ^ gone) ^ h, slot)
            kl = KILL[ntricks * n]
            if kl and moves[0] != kl:
                i = _find(moves, k, kl)
                if i >= 0:
                    _to_front(moves, k, i, 0)
            if hint and moves[0] != hint:
                i = _find(moves, k, hint)
                if i >= 0:
                    _to_front(moves, k, i, 0)
        ismax = MAXS[leader]
        nxt = NEXT[leader]
        second = 3 if n == 2 else 2
        rels = zero
        nt = 0
        for g in range(G):
            small[g] = -1
        nsk = 0
        start = 0
        while True:
            j = start
            while j < k:
                mv = moves[j]
                j += 1
                th = small[BLK[_bl(mv) - 1]]
                if th >= 0 and mv < th:
                    skipped[nsk] = mv
                    nsk += 1
                    continue
                hands[leader] = h ^ mv
                if mv & NS:
                    r, rel, _b = _search(second, nxt, 1, zero, zero, leader, target, ntricks, gone, mv, C, T)
                else:
                    r, rel, _b = _search(second, nxt, 1, LEDMT[_bl(mv) - 1], mv, leader, target, ntricks, gone,
                                         mv, C, T)
                hands[leader] = h
                if r == ismax:
                    KILL[ntricks * n] = mv
                    return r, rel, mv
                rels |= rel
                tried[nt] = mv
                nt += 1
                gi = BLK[_bl(mv) - 1]
                if small[gi] < 0:
                    gm = GM[gi]
                    rg = rels & gm
                    low = rg & -rg if rg else _hi(gm) << 1
                    if mv < low:
                        small[gi] = low
            if nsk == 0:
                break
            k, nsk = _unskip(C, moves, skipped, nsk, rels, small)
            start = 0
            if k == 0:
                break
        return (0 if ismax else 1), _settle(C, rels, tried, nt, h, gone), zero

    # ----------------------------------------------------------------- followers
    last = kind == 3
    h = hands[seat]
    c = h & led
    following = False
    single = False
    if c:
        following = True
        single = not (P[_FREE] and (h & NS))
        if not single:
            c |= h & NS
    else:
        c = h
    F = c | gone | NS
    top = _hi(c)
    nxt = NEXT[seat]
    pos1 = pos + 1
    after = 3 if pos1 == n - 1 else 2
    left = ntricks - 1
    won = 2 if ntricks == P[_BONUS] else 1
    ismax = MAXS[seat]
    lt = led | TR
    cut = _cut(top, F, GM, BLK)
    if not (c & cut):
        # One choice only.
        mv = top
        if win:
            if mv > win and (mv & lt):
                nw = mv
                nws = seat
            else:
                nw = win
                nws = wseat
            nled = led if led else LEDMT[_bl(mv) - 1]
        elif mv & NS:
            nw = zero
            nws = wseat
            nled = zero
        else:
            nw = mv
            nws = seat
            nled = LEDMT[_bl(mv) - 1]
        if last:
            t2 = target - won if MAXS[nws] else target
            if t2 <= 0:
                r = 1
                rel = zero
            elif t2 > left:
                r = 0
                rel = zero
            else:
                hands[seat] = h ^ mv
                r, rel, _b = _search(0, nws, 0, zero, zero, 0, t2, left, zero, zero, C, T)
                hands[seat] = h
            if nw and ((tm | mv) & _sm(nw, GM, BLK)) != nw:
                rel |= nw
        else:
            hands[seat] = h ^ mv
            r, rel, _b = _search(after, nxt, pos1, nled, nw, nws, target, ntricks, gone, tm | mv, C, T)
            hands[seat] = h
        if c != mv and r != ismax:
            tried[0] = mv
            rel = _settle(C, rel, tried, 1, c, gone)
        return r, rel, zero
    cc = c
    moves[0] = top
    k = 1 + _gen(c & cut, F, GM, BLK, moves[1:])
    kslot = ntricks * n + pos
    if following:
        for i in range(k // 2):
            v = moves[i]
            moves[i] = moves[k - 1 - i]
            moves[k - 1 - i] = v
    else:
        _order_discards(C, T, h, ALL ^ gone ^ tm ^ h, moves, k, slot)
    if last:
        if win and MAXS[wseat] != ismax:
            for i in range(k):
                m = moves[i]
                if m > win and (m & lt):
                    if i != 0:
                        _to_front(moves, k, i, 0)
                    break
    elif following:
        bar = zero
        for q in range(NLATER[seat, pos]):
            bar |= hands[LATER[seat, pos, q]]
        bar &= led
        if win > bar:
            bar = win
        if MAXS[wseat] != ismax or bar != win:
            for i in range(k):
                m = moves[i]
                if m > bar and (m & lt):
                    if i != 0:
                        _to_front(moves, k, i, 0)
                    break
    else:
        if win and MAXS[wseat] != ismax:
            for i in range(k):
                m = moves[i]
                if m > win and (m & lt):
                    _to_front(moves, k, i, 0)
                    break
    kl = KILL[kslot]
    if kl and moves[0] != kl:
        i = _find(moves, k, kl)
        if i >= 0:
            _to_front(moves, k, i, 1)
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
                hands[seat] = h ^ mv
                if mv > win:
                    r, rel, _b = _search(after, nxt, pos1, led, mv, seat, target, ntricks, gone, tm | mv, C, T)
                else:
                    r, rel, _b = _search(after, nxt, pos1, led, win, wseat, target, ntricks, gone, tm | mv, C, T)
                hands[seat] = h
                if r == ismax:
                    KILL[kslot] = mv
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
        return (0 if ismax else 1), _settle(C, rels, tried, nt, cc, gone), zero
    for g in range(G):
        small[g] = -1
    nsk = 0
    while True:
        for j in range(k):
            mv = moves[j]
            gi = BLK[_bl(mv) - 1]
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
                nled = led if led else LEDMT[_bl(mv) - 1]
            elif mv & NS:
                nw = zero
                nws = wseat
                nled = zero
            else:
                nw = mv
                nws = seat
                nled = LEDMT[_bl(mv) - 1]
            if last:
                t2 = target - won if MAXS[nws] else target
                if t2 <= 0:
                    r = 1
                    rel = zero
                elif t2 > left:
                    r = 0
                    rel = zero
                else:
                    hands[seat] = h ^ mv
                    r, rel, _b = _search(0, nws, 0, zero, zero, 0, t2, left, zero, zero, C, T)
                    hands[seat] = h
                if nw and ((tm | mv) & _sm(nw, GM, BLK)) != nw:
                    rel |= nw
            else:
                hands[seat] = h ^ mv
                r, rel, _b = _search(after, nxt, pos1, nled, nw, nws, target, ntricks, gone, tm | mv, C, T)
                hands[seat] = h
            if r == ismax:
                KILL[kslot] = mv
                return r, rel, zero
            rels |= rel
            tried[nt] = mv
            nt += 1
            if small[gi] < 0:
                gm = GM[gi]
                rg = rels & gm
                low = rg & -rg if rg else _hi(gm) << 1
                if mv < low:
                    small[gi] = low
        if nsk == 0:
            break
        k, nsk = _unskip(C, moves, skipped, nsk, rels, small)
        if k == 0:
            break
    return (0 if ismax else 1), _settle(C, rels, tried, nt, cc, gone), zero


@_njit
def _run(kind, seat, pos, led, win, wseat, target, ntricks, gone, tm, C, T):
    r, rel, best = _search(kind, seat, pos, led, win, wseat, target, ntricks, gone, tm, C, T)
    return r


class Kernel:
    """The compiled search for one ``runtime.solver._Engine`` (its tables, its own
    transposition table and killer moves, kept between calls as the engine keeps its own)."""

    def __init__(self, engine):
        self.engine = engine
        n = engine.n
        masks = engine.group_masks
        G = len(masks)
        stride = (engine.width // G) if G else 1
        self.stride = stride
        # The engine's block gi (bits gi*stride ...) -> the kernel's bits off[gi] ...
        self.blocks: list[tuple[int, int, int]] = []  # (python shift, length mask, kernel shift)
        off = 0
        GM = np.zeros(G, np.int64)
        BLK = np.zeros(64, np.int64)
        PYBL = np.zeros(64, np.int64)
        RANKT = np.zeros(64, np.int64)
        for gi, m in enumerate(masks):
            size = m.bit_count()
            low = (m & -m).bit_length() - 1
            self.blocks.append((low, (1 << size) - 1, off))
            GM[gi] = ((1 << size) - 1) << off
            for r in range(size):
                BLK[off + r] = gi
                PYBL[off + r] = low + r + 1
                RANKT[off + r] = r + 1
            off += size
        LEDMT = np.zeros(64, np.int64)
        for bit, lm in engine.led_mask.items():
            LEDMT[self.to_k(bit).bit_length() - 1] = self.to_k(lm)
        MAXS = np.array([1 if engine.max_seat[s] else 0 for s in range(n)], np.int64)
        NEXT = np.array([(s + 1) % n for s in range(n)], np.int64)
        ms = engine.max_seat
        OPPS = np.zeros((n, n), np.int64)
        NOPPS = np.zeros(n, np.int64)
        PARTS = np.zeros((n, n), np.int64)
        NPARTS = np.zeros(n, np.int64)
        for s in range(n):
            for t in range(n):
                if ms[t] != ms[s]:
                    OPPS[s, NOPPS[s]] = t
                    NOPPS[s] += 1
                elif t != s:
                    PARTS[s, NPARTS[s]] = t
                    NPARTS[s] += 1
        LATER = np.zeros((n, n, n), np.int64)
        NLATER = np.zeros((n, n), np.int64)
        for seat in range(n):
            for pos in range(n):
                for k in range(1, n - pos):
                    t = (seat + k) % n
                    if ms[t] != ms[seat]:
                        LATER[seat, pos, NLATER[seat, pos]] = t
                        NLATER[seat, pos] += 1
        quad = n == 4 and all(
            [t for t in range(n) if t != s and ms[t] == ms[s]] == [(s + 2) % 4] for s in range(n))
        ob = max(1, (n - 1).bit_length())
        kw = 1 + (G * n + 11) // 12
        P = np.zeros(12, np.int64)
        P[_N], P[_G], P[_TR], P[_NS] = n, G, self.to_k(engine.trump_mask), self.to_k(engine.ns_mask)
        P[_FREE], P[_TOPTR], P[_ALL] = int(bool(engine.free_ns)), int(engine.top_as_trump), self.to_k(engine.all_mask)
        P[_QUAD], P[_OB], P[_KW], P[_BONUS], P[_TTLIM] = int(quad), ob, kw, -1, TT_LIMIT
        self.P = P
        self.C = (P, MAXS, NEXT, GM, BLK, PYBL, LEDMT, OPPS, NOPPS, PARTS, NPARTS, LATER, NLATER, RANKT)
        self.G, self.kw = G, kw
        slots = (off // n + 3) * n
        self.slots = slots
        self.hands = np.zeros(n, np.int64)
        self.kill = np.zeros(slots, np.int64)
        self.stats = np.zeros(5, np.int64)
        self.T = self._tables(BUCKETS, MASKS, ENTRIES)

    def _tables(self, capb: int, capm: int, cape: int):
        G, kw, slots = self.G, self.kw, self.slots
        return (self.hands, self.kill, self.stats,
                np.zeros((capb, kw), np.int64), np.zeros(capb, np.int64), np.zeros(capb, np.int64),
                np.zeros(capb, np.int8),
                np.zeros((capm, G), np.int64), np.zeros(capm, np.int64),
                np.zeros((cape, G + 1), np.int64), np.zeros((cape, 3), np.int64), np.zeros(cape, np.int8),
                np.zeros(G + 1, np.int64),
                np.zeros((slots, MAX_MOVES), np.int64), np.zeros((slots, MAX_MOVES), np.int64),
                np.zeros((slots, MAX_MOVES), np.int64), np.zeros((slots, G), np.int64),
                np.zeros((slots, MAX_MOVES), np.int64),
                np.zeros((slots, G), np.int64), np.zeros((slots, kw), np.int64), np.zeros((slots, G), np.int64),
                np.zeros((slots, G), np.int64), np.zeros((slots, G), np.int64))

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
        for s, h in enumerate(eng.hands):
            self.hands[s] = self.to_k(h)
        self.P[_BONUS] = eng.bonus[0]
        tk = self.to_k
        r = _run(kind, seat, pos, tk(led), tk(win) if kind != 0 else 0, wseat, target, ntricks, tk(gone), tk(tm),
                 self.C, self.T)
        return bool(r)

    @property
    def nodes(self) -> int:
        """Nodes searched so far (calls of lead and follow, as bench/dds.py counts the Python search's)."""
        return int(self.stats[_NODES])
