"""Golden files: each shipped variant is pinned to its compiled IR (sqlglot-style fixtures).

A change to the compiler or to a variant file that changes what a variant means
shows up here as a diff of normalised JSON.  To accept an intended change, run
``BIDWHIST_UPDATE_GOLDEN=1 pytest tests/test_golden.py`` and review the diff.
"""

import json
import os
from pathlib import Path

import pytest

from bidcompiler.irjson import to_json
from bidcompiler.pipeline import compile_file, shipped_variants

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("name", sorted(shipped_variants()))
def test_variant_compiles_to_its_golden_ir(name):
    path = shipped_variants()[name]
    actual = to_json(compile_file(path))
    golden = GOLDEN / f"{name}.ir.json"
    if os.environ.get("BIDWHIST_UPDATE_GOLDEN"):
        golden.write_text(actual, encoding="utf-8")
    assert golden.exists(), f"no golden file for {name}: run with BIDWHIST_UPDATE_GOLDEN=1"
    assert json.loads(actual) == json.loads(golden.read_text(encoding="utf-8"))
    assert actual == golden.read_text(encoding="utf-8")  # byte-stable output too


def test_every_golden_file_has_a_variant():
    names = set(shipped_variants())
    assert {p.name.removesuffix(".ir.json") for p in GOLDEN.glob("*.ir.json")} <= names
