"""`bidwhist diff A B`: rule-level differences of two compiled variants, in words or JSON."""

from __future__ import annotations

import functools
import itertools
import json

import pytest
from click.testing import CliRunner

from bidcompiler.cli import cli
from bidcompiler.irdiff import diff, label_of
from bidcompiler.pipeline import compile_variant, shipped_variants


@functools.cache
def compiled(spec: str):
    return compile_variant(spec)


def run(*args: str):
    result = CliRunner().invoke(cli, ["diff", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stdout + result.stderr
    return result


def test_min_bid_4_is_one_line():
    result = run("standard", "standard+min-bid-4")
    assert result.exit_code == 0
    assert result.stdout == "lowest bid: 3 -> 4\n"


def test_json_shape():
    result = run("standard", "standard+min-bid-4", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == [{"path": "auction.min_level", "label": "lowest bid", "a": 3, "b": 4}]


def test_json_of_many_differences_is_plain_data():
    rows = json.loads(run("standard", "northeast52", "--json").stdout)
    assert rows and all(set(row) == {"path", "label", "a", "b"} for row in rows)
    by_path = {row["path"]: row for row in rows}
    assert by_path["deck.extra"]["a"] == ["BJ", "LJ"] and by_path["deck.extra"]["b"] == []
    assert by_path["scoring.declarer"]["b"] == "if made then over else 0"  # formulas as canonical text
    assert by_path["auction.strains[number]"]["a"] is None
    assert by_path["auction.strains[number]"]["b"]["trump"] == "suit-or-none"
    assert by_path["game.floor"] == {"path": "game.floor", "label": "score floor", "a": None, "b": 0}


def test_standard_against_northeast52():
    result = run("standard", "northeast52")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    for expected in (
        "deck: 54 cards -> 52 cards (no BJ, LJ)",
        "kitty: 6 cards -> 4 cards",
        "lowest bid: 3 -> 1",
        "dealer may take by matching: no -> yes",
        "redeal allowed holding none of: none -> K, Q, J",
        "strains: uptown, downtown, notrump -> number",
        "bid ranking at one number: uptown = downtown < notrump -> number",
        "kitty discards: a book of the declaring side -> to the winner of the first trick",
        "declarers score: `if made then over else -bid` -> `if made then over else 0`",
        "multiplier: `if notrump then 2 else 1` -> `1`",
        "game won when: `score >= 7` -> `score >= 21`",
        "score floor: none -> 0",
    ):
        assert expected in lines, expected
    # What names the file is not a rule.
    assert not any(line.startswith(("name:", "title:", "source:", "house_rules:")) for line in lines)
    # Settings that are the same on both sides are not listed.
    assert not any(line.startswith(("highest bid:", "players:", "first lead:")) for line in lines)


def test_identical_variants():
    result = run("standard", "standard")
    assert result.exit_code == 0
    assert result.stdout == "no rule differences\n"
    assert json.loads(run("standard", "standard", "--json").stdout) == []


def test_house_rule_words():
    assert run("standard", "standard+sport-kitty").stdout == "kitty shown: never -> in suit contracts\n"
    assert run("standard", "standard+boston-x4").stdout == (
        "declarers score: `if made then over else -bid` -> "
        "`if made and bid == 7 then 4 * (if made then over else -bid) else if made then over else -bid`\n")


def test_with_applies_to_both_sides():
    assert run("standard", "standard+min-bid-4", "--with", "min-bid-4").stdout == "no rule differences\n"
    lines = run("standard", "northeast52", "--with", "min-bid-4").stdout.splitlines()
    assert not any(line.startswith("lowest bid:") for line in lines)


def test_a_path_names_a_variant(tmp_path):
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "variants" / "standard.yaml").read_text(encoding="utf-8")
    path = tmp_path / "mine.yaml"
    path.write_text(text.replace("name: standard", "name: mine").replace("win: score >= 7", "win: score >= 8"),
                    encoding="utf-8")
    assert run("standard", str(path)).stdout == "game won when: `score >= 7` -> `score >= 8`\n"


@pytest.mark.parametrize("args, param", [(("nope", "standard"), "A"), (("standard", "nope"), "B"),
                                         (("standard", "standard+nope"), "B")])
def test_bad_names_are_usage_errors(args, param):
    result = run(*args)
    assert result.exit_code == 2
    assert "nope" in result.stderr and f"for {param}" in result.stderr
    assert result.stdout == ""


def test_diff_is_symmetric_over_shipped_variants():
    names = sorted(shipped_variants())
    for a, b in itertools.combinations(names, 2):
        forward = {(d.path, repr(d.a), repr(d.b)) for d in diff(compiled(a), compiled(b))}
        backward = {(d.path, repr(d.b), repr(d.a)) for d in diff(compiled(b), compiled(a))}
        assert forward == backward, (a, b)
        assert forward, (a, b)  # shipped variants all differ somewhere


def test_unlabelled_paths_fall_back_to_the_dotted_path():
    assert label_of("auction.min_level") == "lowest bid"
    assert label_of("auction.strains[notrump].trump") == "strain notrump trump"
    assert label_of("auction.something_new") == "auction.something_new"
