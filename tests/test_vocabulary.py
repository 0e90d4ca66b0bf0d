"""The rule vocabulary: every setting's default and words live once, in the schema.

``rules`` and ``diff`` of every shipped file are pinned to golden files written by
the code from before the words moved (``tests/golden_words.py`` makes them).
"""

from __future__ import annotations

import pytest

from golden_words import GOLDEN, case_name, cases, render

CASES = cases()


@pytest.mark.parametrize("spec,sets", CASES, ids=[case_name(*c) for c in CASES])
def test_rules_and_diff_words_are_unchanged(spec, sets):
    golden = GOLDEN / f"{case_name(spec, sets)}.txt"
    assert golden.exists(), f"no golden file for {golden.name}: run python tests/golden_words.py"
    assert render(spec, sets) == golden.read_text(encoding="utf-8")
