"""The compiler and the engine know no game by name.

Every variant and house rule is data (a file in ``variants/``); the code under
``bidcompiler/`` and ``runtime/`` must work for any of them, so none of their names
(the stems of the files in ``variants/``: ``standard``, ``northeast52``,
``rhode-island``, ``min-bid-4``, ``to-5``, ``no-kitty``, ...) may appear there as a
whole word — in code, comments and docstrings alike.  A word is a run of letters,
digits and ``-`` (so ``to-5`` is found in "go to-5" but ``standard`` is not found in
``non-standard``); matching ignores case.  A failure lists every hit as file:line.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
VARIANTS = REPO / "variants"
CODE_DIRS = ("bidcompiler", "runtime")

NAMES = sorted({p.stem for p in VARIANTS.iterdir() if p.is_file() and not p.name.startswith(".")},
               key=lambda n: (-len(n), n))
WORD = "A-Za-z0-9-"
PATTERN = re.compile(
    "(?<![" + WORD + "])(" + "|".join(re.escape(n) for n in NAMES) + ")(?![" + WORD + "])",
    re.IGNORECASE,
)
SOURCES = sorted(p for d in CODE_DIRS for p in (REPO / d).rglob("*.py"))


def hits_in(text: str) -> list[tuple[int, str]]:
    """(line number, name) of every whole-word game name in ``text``."""
    return [(number, m.group(1))
            for number, line in enumerate(text.splitlines(), 1)
            for m in PATTERN.finditer(line)]


def test_the_names_and_the_sources_are_there():
    assert {"standard", "northeast52", "rhode-island", "min-bid-4", "to-5", "no-kitty"} <= set(NAMES)
    assert any(p.parent.name == "runtime" for p in SOURCES)
    assert any(p.parent.name == "bidcompiler" for p in SOURCES)


@pytest.mark.parametrize("text, found", [
    ("the standard game", ["standard"]),
    ("# Standard Bid Whist", ["Standard"]),
    ('"rhode-island"', ["rhode-island"]),
    ("go to-5 now", ["to-5"]),
    ("min-bid-4.", ["min-bid-4"]),
    ("non-standard, standardise, standard2, to-50, no-kitty-ish", []),
    ("plain_standard", ["standard"]),  # `_` is not a word character here
])
def test_the_matcher(text, found):
    assert [name for _, name in hits_in(text)] == found


def test_no_game_names_in_compiler_or_engine_code():
    hits = []
    for path in SOURCES:
        for number, name in hits_in(path.read_text(encoding="utf-8")):
            hits.append(f"{path.relative_to(REPO)}:{number}: '{name}'")
    assert not hits, (f"{len(hits)} game name(s) in the code of {' and '.join(CODE_DIRS)} "
                      "(variants are data; name none of them in code):\n" + "\n".join(hits))
