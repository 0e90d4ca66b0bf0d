"""The random playout's tricks compiled by numba, drawing CPython's own Mersenne Twister stream.

Optional: it needs the ``numba`` package (the extra ``fast``: ``pip install '.[fast]'``).
Without it, or where :func:`available` finds anything amiss, :meth:`HandState.play_random`
plays its tricks in Python, which stays complete and gives the same hands.

Why it gives the same hands
    ``random.Random`` is CPython's MT19937: ``getrandbits(k)`` for ``k <= 32`` is the
    next 32-bit output shifted right by ``32 - k``, and ``choice`` / ``shuffle`` draw
    below ``n`` by taking ``getrandbits(n.bit_length())`` until it is below ``n``
    (:mod:`runtime.draws`).  The kernel runs the same twister over the generator's own
    state, in place: the state lives in the ``random.Random`` object as an index
    followed by 624 32-bit words, and the kernel is handed a numpy view of that memory
    (no copy either way, so the generator continues exactly where the Python path
    would leave it).  The tricks are :meth:`HandState._random_tricks`'s loop, card by
    card, over the compiled ruleset's tables (each card's slot by the suit it follows,
    the keys of :func:`runtime.tricks.led_keys`).  It reads no rule of its own.

    Reading the generator's memory relies on CPython's layout of ``_random.Random``;
    :func:`available` checks it once against ``getstate()`` and against draws made
    both ways (and refuses a build where it does not hold), so a Python that laid it
    out otherwise simply keeps the Python path.  ``tests/test_playout_fast.py`` plays
    many seeds of several variants both ways and compares every hand.

When it is used
    Only where :func:`runtime.draws.use_compiled` has switched it on (the ``simulate``
    command does for runs long enough to repay numba's import, ~0.3 s), or
    ``BIDWHIST_FAST_PLAYOUT=1`` in the environment.  Compilation happens on the first use on
    a machine (``cache=True``: kept in ``__pycache__``).
"""

from __future__ import annotations

import ctypes
import random
import weakref

import numpy as np

from .accelerator import HAVE_NUMBA, njit
from .ruleset import NO_SUIT, TOP_SUIT

__all__ = ["available", "tables", "play_tricks", "shuffle"]

# MT19937 (CPython's Modules/_randommodule.c).
_N = 624
_M = 397
_MATRIX_A = np.uint32(0x9908B0DF)
_UPPER = np.uint32(0x80000000)
_LOWER = np.uint32(0x7FFFFFFF)
#: Where the generator's state starts in a ``random.Random``: after the object header
#: (reference count and type) come a C ``int`` index and the 624 words.
_OFFSET = object.__basicsize__

_checked: bool | None = None


if HAVE_NUMBA:
    @njit(cache=True, inline="always")
    def _next32(mt):  # pragma: no cover - compiled
        """genrand_uint32: mt[0] is the index, mt[1:] the 624 words (the generator's own memory)."""
        i = mt[0]
        if i >= _N:  # the next 624 words at once, as CPython makes them
            for kk in range(_N - _M):
                y = (mt[kk + 1] & _UPPER) | (mt[kk + 2] & _LOWER)
                mt[kk + 1] = mt[kk + _M + 1] ^ (y >> np.uint32(1)) ^ (_MATRIX_A if y & np.uint32(1) else np.uint32(0))
            for kk in range(_N - _M, _N - 1):
                y = (mt[kk + 1] & _UPPER) | (mt[kk + 2] & _LOWER)
                mt[kk + 1] = mt[kk + _M - _N + 1] ^ (y >> np.uint32(1)) ^ (
                    _MATRIX_A if y & np.uint32(1) else np.uint32(0))
            y = (mt[_N] & _UPPER) | (mt[1] & _LOWER)
            mt[_N] = mt[_M] ^ (y >> np.uint32(1)) ^ (_MATRIX_A if y & np.uint32(1) else np.uint32(0))
            i = 0
        y = mt[i + 1]
        mt[0] = np.uint32(i + 1)
        y ^= y >> np.uint32(11)
        y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
        y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
        y ^= y >> np.uint32(18)
        return y

    @njit(cache=True, inline="always")
    def _below(mt, n):  # pragma: no cover - compiled
        """Random._randbelow(n) for 1 <= n < 2**32: getrandbits(n.bit_length()) until below n."""
        k = 0
        m = n
        while m:
            k += 1
            m >>= 1
        shift = np.uint32(32 - k)
        r = np.int64(_next32(mt) >> shift)
        while r >= n:
            r = np.int64(_next32(mt) >> shift)
        return r

    @njit(cache=True)
    def _draws(mt, ns, out):  # pragma: no cover - compiled
        """out[i] = _randbelow(ns[i]) in turn (for the layout check and the tests)."""
        for i in range(ns.shape[0]):
            out[i] = _below(mt, ns[i])

    @njit(cache=True)
    def _shuffle(mt, x):  # pragma: no cover - compiled
        """random.shuffle: from the end, x[i] swapped with x[_randbelow(i + 1)]."""
        for i in range(x.shape[0] - 1, 0, -1):
            j = _below(mt, i + 1)
            c = x[i]
            x[i] = x[j]
            x[j] = c

    @njit(cache=True)
    def _tricks(mt, hands, leader, table, free):  # pragma: no cover - compiled
        """HandState._random_tricks's loop: whole tricks from ``leader`` until the hands are empty.

        ``hands[seat]`` are the seats' cards in hand order (equal lengths); ``table`` is
        :func:`tables`' (each card's slot, its suit, then its key by suit led).  Returns
        each trick as a row (leader, cards..., winner).
        """
        n = hands.shape[0]
        width = hands.shape[1]
        lens = np.full(n, width, np.int64)
        out = np.empty((width, n + 2), np.int64)
        slot_of = table[0]
        suit_of = table[1]
        keys = table[2:]
        no_suit_row = keys.shape[0] - 1  # the suits, then no suit led
        slots = no_suit_row - TOP_SUIT  # top cards, cards of no suit, then each suit
        held = np.empty((n, slots, width), np.int64)
        count = np.zeros((n, slots), np.int64)
        for seat in range(n):
            for j in range(lens[seat]):
                c = hands[seat, j]
                s = slot_of[c]
                held[seat, s, count[seat, s]] = c
                count[seat, s] += 1
        trick = np.empty(n, np.int64)
        legal = np.empty(width, np.int64)
        done = 0
        while True:
            # the lead: any card of the leader's hand
            card = _take_hand(hands, lens, leader, _below(mt, lens[leader]))
            s = slot_of[card]
            _remove(held, count, leader, s, card)
            trick[0] = card
            led = suit_of[card]
            best = 0
            if led >= 0 and not free:
                slot = led - TOP_SUIT
                best_key = keys[led, card]
                if best_key < -1:
                    best_key = -1
                for i in range(1, n):
                    seat = (leader + i) % n
                    f = count[seat, slot]
                    if f:
                        r = _below(mt, f)
                        card = held[seat, slot, r]
                        for j in range(r, f - 1):
                            held[seat, slot, j] = held[seat, slot, j + 1]
                        count[seat, slot] = f - 1
                        _remove_hand(hands, lens, seat, card)
                    else:
                        card = _take_hand(hands, lens, seat, _below(mt, lens[seat]))
                        _remove(held, count, seat, slot_of[card], card)
                    trick[i] = card
                    key = keys[led, card]
                    if key > best_key:
                        best_key = key
                        best = i
            else:  # a lead of no suit (the next card of a suit sets it), or cards of no suit free to play
                if led < 0:
                    led = NO_SUIT
                for i in range(1, n):
                    seat = (leader + i) % n
                    k = lens[seat]
                    use_hand = True
                    if led != NO_SUIT:
                        slot = led - TOP_SUIT
                        f = count[seat, slot]
                        if f:
                            use_hand = False
                            if free:  # the cards that follow, and those of no suit and top cards, sorted
                                m = 0
                                for j in range(f):
                                    legal[m] = held[seat, slot, j]
                                    m += 1
                                for j in range(k):
                                    c = hands[seat, j]
                                    if suit_of[c] < 0:
                                        legal[m] = c
                                        m += 1
                                legal[:m].sort()
                            else:
                                m = f
                                for j in range(f):
                                    legal[j] = held[seat, slot, j]
                    if use_hand:
                        m = k
                        for j in range(k):
                            legal[j] = hands[seat, j]
                    r = _below(mt, m)
                    card = legal[r]
                    _remove_hand(hands, lens, seat, card)
                    _remove(held, count, seat, slot_of[card], card)
                    trick[i] = card
                    if led == NO_SUIT:
                        s = suit_of[card]
                        if s >= 0:
                            led = s
                row = no_suit_row if led == NO_SUIT else led
                best_key = -1
                for i in range(n):
                    key = keys[row, trick[i]]
                    if key > best_key:
                        best_key = key
                        best = i
            winner = (leader + best) % n
            out[done, 0] = leader
            for i in range(n):
                out[done, 1 + i] = trick[i]
            out[done, n + 1] = winner
            done += 1
            if lens[winner] == 0:
                return out[:done]
            leader = winner

    @njit(cache=True, inline="always")
    def _remove(held, count, seat, slot, card):  # pragma: no cover - compiled
        """list.remove: the first ``card`` of the seat's cards of ``slot``, the rest kept in order."""
        f = count[seat, slot]
        j = 0
        while held[seat, slot, j] != card:
            j += 1
        for t in range(j, f - 1):
            held[seat, slot, t] = held[seat, slot, t + 1]
        count[seat, slot] = f - 1

    @njit(cache=True, inline="always")
    def _take_hand(hands, lens, seat, r):  # pragma: no cover - compiled
        """list.pop(r) on the seat's hand: a card drawn from the whole hand (a lead, or no card to follow)."""
        k = lens[seat]
        card = hands[seat, r]
        for j in range(r, k - 1):
            hands[seat, j] = hands[seat, j + 1]
        lens[seat] = k - 1
        return card

    @njit(cache=True, inline="always")
    def _remove_hand(hands, lens, seat, card):  # pragma: no cover - compiled
        """list.remove on the seat's hand."""
        k = lens[seat]
        j = 0
        while hands[seat, j] != card:
            j += 1
        for t in range(j, k - 1):
            hands[seat, t] = hands[seat, t + 1]
        lens[seat] = k - 1


# -------------------------------------------------------------------- the generator's memory
_VIEWS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def state_view(rng: random.Random) -> np.ndarray:
    """A uint32 view of ``rng``'s own state (index, then the 624 words): writing it moves ``rng``.

    Call only where :func:`available` is true and ``type(rng) is random.Random``, and use
    the view only while the caller holds ``rng``: the view is memory inside it (kept
    with the generator, weakly, so it goes when the generator goes).
    """
    view = _VIEWS.get(rng)
    if view is None:
        raw = (ctypes.c_uint32 * (_N + 1)).from_address(id(rng) + _OFFSET)
        view = _VIEWS[rng] = np.ctypeslib.as_array(raw)
    return view


def _layout_holds() -> bool:
    """Whether ``random.Random``'s memory is laid out as :func:`state_view` reads it and the kernel
    draws as ``random`` does."""
    import _random  # noqa: PLC0415

    if _random.Random.__basicsize__ < _OFFSET + 4 * (_N + 1):
        return False
    for seed in (0, 1, "bidwhist:1:0", 2**70 + 3):
        rng = random.Random(seed)
        rng.getrandbits(7)
        state = rng.getstate()[1]
        view = state_view(rng)
        if tuple(int(x) for x in view[1:]) + (int(view[0]),) != state:
            return False
        ns = np.array(list(range(1, 70)) * 10 + [4095, 4096, 5000, 2**31, 2**32 - 1], np.int64)
        ours = np.empty_like(ns)
        twin = random.Random()
        twin.setstate(rng.getstate())
        _draws(view, ns, ours)  # crosses the 624-word refill
        theirs = [twin._randbelow(int(n)) for n in ns]  # type: ignore[attr-defined]
        if ours.tolist() != theirs or rng.getstate() != twin.getstate() or rng.random() != twin.random():
            return False
    return True


def available() -> bool:
    """True where numba imported and the generator's layout and draws were checked (once) to agree."""
    global _checked
    if not HAVE_NUMBA:
        return False
    if _checked is None:
        try:
            _checked = _layout_holds()
        except (ValueError, TypeError, OverflowError):  # pragma: no cover - an unexpected layout
            _checked = False
    return _checked


# -------------------------------------------------------------------- the tables and the call
def tables(slot_of, suit_of, led_keys: dict, suits: int) -> np.ndarray:
    """The kernel's table of one contract: rows of each card's slot, its suit, then its key by suit led
    (``0 .. suits - 1``, and last when no suit is led: :func:`runtime.tricks.led_keys`)."""
    rows = [slot_of, suit_of] + [led_keys[s] for s in range(suits)] + [led_keys[NO_SUIT]]
    return np.array(rows, np.int64)


def play_tricks(rng: random.Random, hands: list[list[int]], leader: int, table: np.ndarray,
                free: bool) -> list[list[int]]:
    """Play whole tricks from ``leader`` to the end (hands of equal length, emptied here), drawing
    from ``rng`` (a plain ``random.Random``) as the Python loop would; each trick as ``[leader, cards..., winner]``."""
    played = _tricks(state_view(rng), np.array(hands, np.int64), leader, table, free).tolist()
    for hand in hands:
        hand.clear()
    return played


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """Shuffle ``cards`` (ints) in place exactly as ``rng.shuffle(cards)`` would (``rng`` a plain ``random.Random``).

    TypeError, before any draw, for a list that is not all ints: numpy would convert 1.5, True
    or '3' to ints and the list would come back changed.
    """
    if any(type(card) is not int for card in cards):
        raise TypeError("the compiled shuffle takes a list of ints only")
    arr = np.array(cards, np.int64)
    _shuffle(state_view(rng), arr)
    cards[:] = arr.tolist()
