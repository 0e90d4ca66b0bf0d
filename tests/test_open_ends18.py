"""Open ends closed in the eighteenth session.

1. Whether a file is of the kind its name was given for (a house rule where the variant goes, a
   variant where a house rule goes) is read in one place, pipeline.refuse_misnamed: the
   compiler and `check NAME+RULE` both ask it.
2. A card after the hand is over names the seat that plays it (records.py).
3. Hostile input to replay, check and compile: one message, exit 1 or 2.
"""

from __future__ import annotations


import pytest

from bidcompiler.errors import CompileError
from bidcompiler.pipeline import NotAHouseRule, NotAVariant, find_file, load_layer, refuse_misnamed
from clirun import run


def write(tmp_path, name: str, text: str) -> str:
    """``text`` written to ``tmp_path/name``; its path as a string."""
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def stderr_lines(result) -> list[str]:
    """The message lines of a failed command (its `to fix:` lines and click's usage lines left out)."""
    return [line for line in result.stderr.splitlines()
            if line and not line.startswith((" ", "Usage:", "Try "))]


# ============================================================================ 1. one place for the kinds
def test_a_file_of_the_kind_named_passes():
    assert refuse_misnamed(load_layer(find_file("standard")), "variant") is None
    assert refuse_misnamed(load_layer(find_file("to-5", kind="house-rule")), "house-rule", "to-5") is None


def test_a_shipped_house_rule_as_the_variant_is_not_a_variant_named_as_shipped():
    with pytest.raises(NotAVariant) as caught:
        refuse_misnamed(load_layer(find_file("min-bid-4", kind="house-rule")), "variant")
    assert caught.value.diagnostics[0].message.startswith("lay 'min-bid-4' over a variant, after the variant's name")


def test_a_shipped_variant_as_a_house_rule_is_not_a_house_rule_under_the_name_given():
    with pytest.raises(NotAHouseRule) as caught:
        refuse_misnamed(load_layer(find_file("standard")), "house-rule", "standard")
    assert caught.value.rule == "standard"
    assert caught.value.diagnostics[0].message == (
        "name 'standard' as the variant, with house rules after it (VARIANT+RULE): it is a variant, not a house rule")


def test_a_variant_file_of_ones_own_as_a_house_rule_is_the_files_fault(tmp_path):
    mine = write(tmp_path, "mine.yaml", "name: mine\nextends: standard\n")
    with pytest.raises(CompileError) as caught:
        refuse_misnamed(load_layer(find_file(mine, kind="house-rule")), "house-rule", mine)
    assert not isinstance(caught.value, (NotAVariant, NotAHouseRule))
    assert caught.value.diagnostics[0].message == f"'{mine}' is a variant, not a house rule"


def test_check_leaves_a_variant_file_of_ones_own_laid_as_a_house_rule_to_the_check(tmp_path):
    """`check standard+mine.yaml`: not bad usage (the file may lack its kind line), the file's fault, exit 1."""
    mine = write(tmp_path, "mine.yaml", "name: mine\nextends: standard\n")
    result = run("check", f"standard+{mine}")
    assert result.exit_code == 1
    assert f"{mine}:1:1: '{mine}' is a variant, not a house rule" in result.stderr


def test_check_and_compile_refuse_a_misnamed_kind_in_the_same_words():
    for args in (("check", "standard+cutthroat"), ("compile", "standard+cutthroat")):
        result = run(*args)
        assert result.exit_code == 2
        assert stderr_lines(result)[-1].endswith(
            "name 'cutthroat' as the variant, with house rules after it (VARIANT+RULE): it is a variant, not a house rule")
