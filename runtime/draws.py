"""Random draws written out: the same numbers as ``random.Random``'s, without its call layers.

A seed's hands are promised to stay the same (records, the behaviour corpus), so the
engine's hot loops may not draw differently; they may only draw the same way faster.
``random.Random.choice(seq)`` is ``seq[_randbelow(len(seq))]`` and ``shuffle`` swaps
``x[i]`` with ``x[_randbelow(i + 1)]`` from the end, where ``_randbelow(n)`` takes
``getrandbits(n.bit_length())`` until it is below ``n``: three Python calls a draw.
:func:`below` and :func:`shuffle` do the same with one C call a draw.

They are used only where :func:`exact` says so: a plain ``random.Random`` (not a
subclass, which may draw otherwise) on an interpreter whose ``random`` module draws
as described — checked once, on first use, against the module itself, so a future
Python that changed its algorithm would simply get the slower, always-right path.
"""

from __future__ import annotations

import os
import random
from typing import Any

# BITS[n] is n.bit_length(): the bits getrandbits draws for a number below n.
BITS = tuple(n.bit_length() for n in range(4096))

_checked: bool | None = None


def below(getrandbits, n: int) -> int:
    """A number in ``range(n)``, as ``Random._randbelow(n)`` draws it (``getrandbits`` is the generator's)."""
    k = BITS[n] if n < 4096 else n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def shuffle(rng: random.Random, x: list) -> None:
    """Shuffle ``x`` in place exactly as ``rng.shuffle(x)`` would (call only where :func:`exact` is true)."""
    fast = _compiled if _compiled is not None else compiled()
    if fast and len(x) > 1:  # compiled (runtime/playout_fast.py): the same swaps
        try:
            fast.shuffle(rng, x)
            return
        except (TypeError, ValueError, OverflowError):  # not all ints (refused before any draw): in Python
            pass
    getrandbits = rng.getrandbits
    for i, n, k in _shuffle_plan(len(x)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


_PLANS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _shuffle_plan(length: int) -> tuple[tuple[int, int, int], ...]:
    """The steps of a shuffle of ``length`` items: (position from the end, choices, bits drawn), kept per length."""
    plan = _PLANS.get(length)
    if plan is None:
        plan = tuple((i, i + 1, (i + 1).bit_length()) for i in range(length - 1, 0, -1))
        if len(_PLANS) < 64:  # a few deck sizes in practice; never grows without bound
            _PLANS[length] = plan
    return plan


def _agrees() -> bool:
    """Whether this interpreter's ``random.Random`` draws as :func:`below` and :func:`shuffle` do."""
    for seed in (0, 1, "bidwhist:1:0", 2**70 + 3):
        ours, theirs = random.Random(seed), random.Random(seed)
        for n in list(range(1, 70)) * 3 + [4095, 4096, 5000]:
            seq = range(n)
            if seq[below(ours.getrandbits, n)] != theirs.choice(seq) or ours.randrange(n) != theirs.randrange(n):
                return False
        a, b = list(range(54)), list(range(54))
        shuffle(ours, a)
        theirs.shuffle(b)
        if a != b or ours.random() != theirs.random():
            return False
    return True


# Random.seed's own digest of a text seed: the C module random.py takes (``_sha2`` from Python
# 3.12, ``_sha512`` before), else hashlib's, the same digest.
try:
    from _sha2 import sha512 as _sha512  # type: ignore[import-not-found, no-redef, unused-ignore]
except ImportError:
    try:
        from _sha512 import sha512 as _sha512  # type: ignore[no-redef, unused-ignore]
    except ImportError:  # pragma: no cover - an interpreter without the C modules
        from hashlib import sha512 as _sha512  # type: ignore[no-redef, unused-ignore]

_seeds_checked: bool | None = None


def _seeds_agree() -> bool:
    """Whether :func:`text_seeder`'s seeding leaves a generator as ``Random(text)`` does (checked once)."""
    rng = random.Random.__new__(random.Random)
    reseed = text_seeder(rng, checked=False)
    for text in ("", "bidwhist:1:0", "bidwhist:-9223372036854775808:123456", "\u2663 seed"):
        reseed(text)
        if rng.getstate() != random.Random(text).getstate():
            return False
    return True


def text_seeder(rng: random.Random, checked: bool = True):
    """``reseed(text)``: ``rng.seed(text)`` for a ``str`` seed, without ``Random.seed``'s Python layer.

    ``Random.seed`` turns a text into the integer of its UTF-8 bytes followed by their
    SHA-512 digest and seeds the C generator with it (version 2, the default); this does
    the same steps with one Python call fewer, where it is checked (once, against the
    module itself) to leave the generator exactly as ``Random(text)`` starts; elsewhere
    it is ``rng.seed``.  A simulation re-seeds one generator for every hand.
    """
    global _seeds_checked
    if checked:
        if _seeds_checked is None:
            _seeds_checked = _seeds_agree()
        if type(rng) is not random.Random or not _seeds_checked:
            return rng.seed
    seed_c = super(random.Random, rng).seed  # the C generator's own seed, bound to rng
    from_bytes = int.from_bytes

    def reseed(text: str) -> None:
        key = text.encode()
        seed_c(from_bytes(key + _sha512(key).digest(), "big"))
        rng.gauss_next = None  # type: ignore[attr-defined]  # as Random.seed leaves it (typeshed omits it)
    return reseed


def exact(rng) -> bool:
    """True where :func:`below` and :func:`shuffle` draw exactly what ``rng``'s own methods would."""
    global _checked
    if type(rng) is not random.Random:
        return False
    if _checked is None:
        _checked = _agrees()
    return _checked


# The random playout's tricks compiled (runtime/playout_fast.py, the optional ``fast`` extra):
# False where off or unavailable, else the module.  Decided on first use (numba's import is slow,
# so nothing imports it before a playout asks): by :func:`use_compiled` if it was called, else by
# ``BIDWHIST_FAST_PLAYOUT`` (1: on, 0: off), else on where :func:`prefer_compiled` asked for it.
_compiled: Any = None  # None (undecided), False, or the module runtime.playout_fast
_wanted: bool | None = None
_preferred = False


def use_compiled(on: bool | None) -> None:
    """Play random playouts' tricks compiled (True), in Python (False), or as the environment and
    :func:`prefer_compiled` say (None).  Either way the hands are the same; the compiled tricks need
    the ``fast`` extra (numba) and are used only where :func:`runtime.playout_fast.available` holds."""
    global _compiled, _wanted, _preferred
    _wanted = on
    _preferred = False
    _compiled = None


def prefer_compiled() -> None:
    """Use the compiled tricks from now on unless told otherwise (a run long enough to repay numba's import)."""
    global _compiled, _preferred
    if not _preferred:
        _preferred = True
        if _compiled is False:
            _compiled = None


def compiled():
    """runtime.playout_fast where the compiled tricks are switched on and available, else False."""
    global _compiled
    if _compiled is None:
        on = _wanted
        if on is None:
            told = os.environ.get("BIDWHIST_FAST_PLAYOUT", "")
            on = told == "1" or (_preferred and told != "0")
        _compiled = False
        if on:
            try:
                from . import playout_fast  # noqa: PLC0415 - numba's import is slow: only when asked for

                if playout_fast.available():
                    _compiled = playout_fast
            except Exception:  # noqa: BLE001 - an accelerator that cannot load is no error
                # Not only ImportError (the fast extra not installed): numba raises RuntimeError
                # where no cache folder is writable, llvmlite OSError where its library will not
                # load.  The Python tricks play the same hands, so the run goes on in Python.
                _compiled = False
    return _compiled
