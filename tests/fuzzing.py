"""What the fuzz suites share: how many cases they run, and the byte- and text-level mutations.

How many cases: every fuzz test states its share of the default run (4,550 cases in
all: 3,150 variant files, 1,400 records; a few minutes on 2 cores); the environment
variable ``BIDWHIST_FUZZ_SCALE`` multiplies every share (``BIDWHIST_FUZZ_SCALE=22``
gives 100,100 cases, the 10^5-case run).  ``FUZZ_SCALE`` is the older spelling of the
same variable.  At the end of a run pytest prints how many cases the fuzz tests it ran
(after -k and the like) asked for (:func:`planned_cases`, from tests/conftest.py); ``--hypothesis-show-statistics``
adds each test's examples as hypothesis counted them.

Reproducibility: without the variable the examples are derandomized, so the normal
run (and CI) draws the same cases every time and cannot be flaky; with it, hypothesis
draws new cases on every run (a bug hunt), and prints the failing example it found.
No test has a deadline: a case is bounded by the size of its input, not by a clock.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

_SCALE_TEXT = os.environ.get("BIDWHIST_FUZZ_SCALE", os.environ.get("FUZZ_SCALE"))
SCALE = float(_SCALE_TEXT) if _SCALE_TEXT else 1.0


def scaled(n: int) -> int:
    """``n`` examples times the scale (at least one)."""
    return max(1, int(n * SCALE))


# The same examples on every run unless a scale asks for a bug hunt (then new ones each run;
# a failure prints a @reproduce_failure blob, since no example database is kept).
FUZZ = settings(deadline=None, database=None, derandomize=_SCALE_TEXT is None, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much, HealthCheck.large_base_example])

# Byte sequences that are not UTF-8: a lone continuation byte, a truncated sequence,
# an overlong encoding, a UTF-16 surrogate written as UTF-8, bytes never used.
INVALID_UTF8 = [b"\x80", b"\xc3", b"\xe2\x82", b"\xc0\xaf", b"\xed\xa0\x80", b"\xff", b"\xfe\xff", b"\xf8\x88\x80\x80"]


@st.composite
def byte_mutations(draw, data: bytes, max_edits: int = 3) -> bytes:
    """``data`` after 1..max_edits byte-level edits: bit flips, truncation, inserted NULs and
    invalid UTF-8, bytes replaced, inserted or removed, and a run of bytes repeated many times."""
    buf = bytearray(data)
    for _ in range(draw(st.integers(1, max_edits))):
        n = len(buf)
        i = draw(st.integers(0, max(0, n - 1)))
        op = draw(st.sampled_from(["flip", "flip", "truncate", "nul", "invalid", "set", "insert",
                                   "delete", "repeat", "cut-middle"]))
        if op == "flip" and n:
            buf[i] ^= 1 << draw(st.integers(0, 7))
        elif op == "truncate":
            del buf[draw(st.integers(0, n)):]
        elif op == "nul":
            buf[i:i] = b"\x00" * draw(st.integers(1, 3))
        elif op == "invalid":
            buf[i:i] = draw(st.sampled_from(INVALID_UTF8))
        elif op == "set" and n:
            buf[i] = draw(st.integers(0, 255))
        elif op == "insert":
            buf.insert(i, draw(st.integers(0, 255)))
        elif op == "delete" and n:
            del buf[i]
        elif op == "repeat" and n:
            j = draw(st.integers(i + 1, min(n, i + 16)))
            buf[i:j] = bytes(buf[i:j]) * draw(st.sampled_from([2, 3, 50, 1000]))
        elif op == "cut-middle" and n:
            j = draw(st.integers(i, min(n, i + 200)))
            del buf[i:j]
    return bytes(buf)


def huge_number(digits: int, sign: str = "") -> str:
    """A decimal literal of ``digits`` digits."""
    return sign + "9" * digits


huge_numbers = st.one_of(
    st.integers(7, 40).map(huge_number),  # past 64 bits and past a float's exactness
    st.sampled_from([huge_number(310), huge_number(4301), huge_number(310, "-"), "1e999", "-1e400",
                     "0x" + "f" * 40, "1_000_000_000", "9" * 20 + ".5", "2147483648", "-2147483649"]),
)
# Every code point but the surrogates (Cs): exactly those UTF-8 can write.  Not codec="utf-8":
# the same characters, but hypothesis then encodes all 1.1 million code points to find them (~2 s).
strange_text = st.one_of(
    st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=8),
    st.sampled_from(["\u202e", "\ufeff", "\u200b", "\u00a0", "\u2028", "\x00", "\x1b[31m", "\U0001F0A1",
                     "♠", "♥", "ＡＳ", "ß", "İ", "a" * 300, "\\", "%s", "{}", "../" * 5]),
)


def planned_cases(items) -> dict[str, int]:
    """The examples the fuzz tests among pytest's ``items`` ask for, by file (``test_fuzz_*.py``)."""
    planned: dict[str, int] = {}
    for item in items:
        fn = getattr(item, "obj", None)
        chosen = getattr(fn, "_hypothesis_internal_use_settings", None)
        if item.fspath.basename.startswith("test_fuzz_") and chosen is not None and hasattr(fn, "hypothesis"):
            planned[item.fspath.basename] = planned.get(item.fspath.basename, 0) + chosen.max_examples
    return planned
