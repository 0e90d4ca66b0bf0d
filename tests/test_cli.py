"""The `bidwhist` command line: variants, schema, compile, check, simulate.

Commands run through click's CliRunner on ``bidcompiler.cli.cli`` (stdout and stderr
kept apart) and, for a few, as the installed console script (``clirun``'s ``run`` and
``script``), so that exit statuses,
the split between stdout and stderr and the absence of tracebacks are those a user
sees.  Bad variant files are made by editing a copy of ``variants/standard.yaml``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bidcompiler.pipeline import load_ruleset, shipped_house_rules, shipped_variants
from clirun import run, script
from runtime.simulate import play_hand

REPO = Path(__file__).resolve().parent.parent
STANDARD_YAML = REPO / "variants" / "standard.yaml"
STANDARD_TEXT = STANDARD_YAML.read_text(encoding="utf-8")
LOCATED = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<message>.+)$")


def line_of(text: str, prefix: str) -> int:
    """The 1-based number of the only line of ``text`` that starts with ``prefix``."""
    hits = [n for n, line in enumerate(text.splitlines(), 1) if line.startswith(prefix)]
    assert len(hits) == 1, (prefix, hits)
    return hits[0]


def edited(tmp_path: Path, name: str, *replacements: tuple[str, str]) -> tuple[Path, str]:
    """A copy of standard.yaml with each (old line start, new line) replaced once."""
    lines = STANDARD_TEXT.splitlines()
    for old, new in replacements:
        n = line_of(STANDARD_TEXT, old)
        lines[n - 1] = new
    text = "\n".join(lines) + "\n"
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path, text


def diagnostics(stderr: str) -> list[dict]:
    """The file:line:col: message lines of a check's stderr."""
    out = []
    for line in stderr.splitlines():
        m = LOCATED.match(line)
        if m:
            out.append({"file": m["file"], "line": int(m["line"]), "col": int(m["col"]),
                        "message": m["message"]})
    return out


# --------------------------------------------------------------------------- variants, schema, compile
def test_variants_lists_one_line_per_shipped_variant_and_house_rule():
    shipped = shipped_variants()
    rules = shipped_house_rules()
    assert "standard" in shipped and "min-bid-4" in rules
    result = run("variants")
    assert result.exit_code == 0 and result.stderr == ""
    lines = result.stdout.strip().splitlines()
    assert lines[0] == "Variants"
    split = next(i for i, line in enumerate(lines) if line.startswith("House rules"))
    assert sorted(line.split()[0] for line in lines[1:split]) == sorted(shipped)
    assert sorted(line.split()[0] for line in lines[split + 1:]) == sorted(rules)
    assert "does not load" not in result.stdout


def test_variants_json():
    result = run("variants", "--json")
    assert result.exit_code == 0 and result.stderr == ""
    rows = json.loads(result.stdout)
    assert isinstance(rows, list)
    assert sorted(r["name"] for r in rows if r["kind"] == "variant") == sorted(shipped_variants())
    assert sorted(r["name"] for r in rows if r["kind"] == "house-rule") == sorted(shipped_house_rules())
    for row in rows:
        assert {"name", "kind", "title", "source", "path"} <= set(row)
        assert row["title"] != "(does not load)"
        assert Path(row["path"]).is_file()


def test_schema_is_json_and_declares_2020_12():
    result = run("schema")
    assert result.exit_code == 0 and result.stderr == ""
    schema = json.loads(result.stdout)
    assert "2020-12" in schema["$schema"]
    assert schema.get("type") == "object" and "properties" in schema


def test_compile_standard_json_and_summary():
    result = run("compile", "standard", "--json")
    assert result.exit_code == 0 and result.stderr == ""
    ir = json.loads(result.stdout)
    assert ir["name"] == "standard"
    assert ir["players"] == 4
    summary = run("compile", "standard")
    assert summary.exit_code == 0 and "standard" in summary.stdout
    by_path = run("compile", str(STANDARD_YAML), "--json")
    assert by_path.exit_code == 0 and json.loads(by_path.stdout) == ir


@pytest.mark.parametrize("args", [
    ("compile", "no-such-variant"),
    ("compile", "no-such-variant", "--json"),
    ("simulate", "no-such-variant", "--hands", "1", "--seed", "1"),
])
def test_unknown_variant_name_is_a_usage_error(args):
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "no-such-variant" in result.stderr and "standard" in result.stderr  # names what is shipped


@pytest.mark.parametrize("args", [
    ("compile", "missing.yaml"),
    ("check", "missing.yaml"),
    ("check", str(REPO / "variants"), ),          # a directory
    ("simulate", "missing.yaml", "--hands", "1", "--seed", "1"),
    ("replay", "missing.json"),
])
def test_missing_file_is_a_usage_error(tmp_path, args):
    args = tuple(str(tmp_path / a) if a.startswith("missing") else a for a in args)
    result = run(*args)
    assert result.exit_code == 2, result.stdout + result.stderr
    assert result.stdout == ""
    assert "missing" in result.stderr or "variants" in result.stderr


def test_check_with_a_missing_file_among_good_ones_is_a_usage_error(tmp_path):
    result = run("check", str(STANDARD_YAML), str(tmp_path / "missing.yaml"))
    assert result.exit_code == 2
    assert "missing.yaml" in result.stderr


@pytest.mark.parametrize("args", [
    ("simulate", "standard", "--hands", "0"),
    ("simulate", "standard", "--hands", "-3"),
    ("simulate", "standard", "--hands", "abc"),
    ("simulate", "standard", "--hands", "2", "--seed", "x"),
    ("simulate", "standard"),                               # --hands is required
    ("simulate", "standard", "--hands", "2", "--bogus"),
    ("compile", "standard", "--bogus"),
    ("replay",),
    ("check",),
    ("no-such-command",),
])
def test_bad_arguments_exit_2(args):
    result = run(*args)
    assert result.exit_code == 2, result.stdout + result.stderr
    assert result.stdout == ""
    assert "Error" in result.stderr or "Usage" in result.stderr


# --------------------------------------------------------------------------- check
def test_check_good_files(tmp_path):
    copy = tmp_path / "mine.yaml"
    copy.write_text(STANDARD_TEXT, encoding="utf-8")
    result = run("check", str(STANDARD_YAML), str(copy))
    assert result.exit_code == 0
    assert result.stderr == ""
    assert result.stdout.splitlines() == [f"{STANDARD_YAML}: ok", f"{copy}: ok"]


def test_check_bad_yaml(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("name: [unclosed\n  x: 1\n", encoding="utf-8")
    result = run("check", str(path))
    assert result.exit_code == 1
    assert result.stdout == ""
    found = diagnostics(result.stderr)
    assert found and found[0]["file"] == str(path) and found[0]["line"] == 2


def test_check_duplicate_keys_names_both_lines(tmp_path):
    first = line_of(STANDARD_TEXT, "  hand: ")
    path, _ = edited(tmp_path, "dup.yaml", ("  hand: ", "  hand: 12\n  hand: 13"))
    result = run("check", str(path))
    assert result.exit_code == 1
    found = diagnostics(result.stderr)
    assert len(found) == 1
    d = found[0]
    assert (d["file"], d["line"], d["col"]) == (str(path), first + 1, 3)
    assert "duplicate" in d["message"] and "'hand'" in d["message"]
    assert f"line {first}" in d["message"]


def test_check_duplicate_top_level_key(tmp_path):
    first = line_of(STANDARD_TEXT, "players:")
    path, _ = edited(tmp_path, "dup2.yaml", ("players:", "players: 4\nplayers: 4"))
    found = diagnostics(run("check", str(path)).stderr)
    assert [(d["line"], d["col"]) for d in found] == [(first + 1, 1)]
    assert f"line {first}" in found[0]["message"]


def test_check_reports_several_schema_violations_at_once(tmp_path):
    path, text = edited(tmp_path, "schema.yaml",
                        ("players:", "players: four"),
                        ("  kitty: ", "  kitty: -1"),
                        ("title:", "title: [1, 2]"))
    result = run("check", str(path))
    assert result.exit_code == 1
    assert result.stdout == ""
    found = diagnostics(result.stderr)
    assert all(d["file"] == str(path) for d in found)
    lines = {d["line"] for d in found}
    assert {line_of(text, "players:"), line_of(text, "  kitty: "), line_of(text, "title:")} <= lines
    players = next(d for d in found if d["line"] == line_of(text, "players:"))
    assert players["col"] == len("players: ") + 1
    assert "four" in players["message"]
    assert "1 of 1 file(s) have errors" in result.stderr


def test_check_unknown_key_is_located(tmp_path):
    path, text = edited(tmp_path, "unknown.yaml", ("players:", "players: 4\nplayerz: 4"))
    found = diagnostics(run("check", str(path)).stderr)
    assert any(d["line"] == line_of(text, "playerz:") and "playerz" in d["message"] for d in found), found


def check_bad_formula(tmp_path: Path, old: str, new: str, count: int = -1):
    """``bidwhist check`` on a copy of standard.yaml whose ``made:`` formula has ``old`` replaced by ``new``.

    Returns the edited line, its line number, the check's result and its diagnostic
    (there must be exactly one).
    """
    made = next(line for line in STANDARD_TEXT.splitlines() if line.startswith("  made: "))
    bad = made.replace(old, new, count)
    assert bad != made
    path, text = edited(tmp_path, "formula.yaml", ("  made: ", bad))
    result = run("check", str(path))
    found = diagnostics(result.stderr)
    assert len(found) == 1, found
    return bad, line_of(text, "  made: "), result, found[0]


def test_check_bad_expression_points_inside_the_formula(tmp_path):
    bad, line, result, d = check_bad_formula(tmp_path, "6 + bid", "6 + * bid")
    assert result.exit_code == 1
    assert d["line"] == line
    assert d["col"] == bad.index("*") + 1           # the position of the offending token in the file
    assert "`*`" in d["message"] or "'*'" in d["message"]


def test_check_unclosed_parenthesis_is_located_in_the_formula(tmp_path):
    bad, line, _, d = check_bad_formula(tmp_path, "books", "(books", 1)
    assert d["line"] == line
    assert d["col"] > bad.index("(")            # inside the expression, not at the key


def test_check_unknown_name_in_formula(tmp_path):
    bad, line, result, d = check_bad_formula(tmp_path, "bid", "bidd")
    assert result.exit_code == 1
    assert (d["line"], d["col"]) == (line, bad.index("bidd") + 1)
    assert "bidd" in d["message"] and "unknown name" in d["message"]
    assert "bid" in d["message"].replace("bidd", "")    # a suggestion


def test_check_deal_that_does_not_add_up_to_the_deck(tmp_path):
    # The kitty, not the hands: 11 cards each would also leave a bid of 7 above the books of a hand.
    path, text = edited(tmp_path, "deal.yaml", ("  kitty: ", "  kitty: 2"))
    result = run("check", str(path))
    assert result.exit_code == 1
    found = diagnostics(result.stderr)
    assert len(found) == 1
    assert found[0]["file"] == str(path)
    assert "54" in found[0]["message"] and "50" in found[0]["message"]


def test_check_many_files_reports_each(tmp_path):
    bad1, _ = edited(tmp_path, "bad1.yaml", ("players:", "players: four"))
    bad2, _ = edited(tmp_path, "bad2.yaml", ("  hand: ", "  hand: 11"))
    result = run("check", str(bad1), str(STANDARD_YAML), str(bad2))
    assert result.exit_code == 1
    assert result.stdout.strip() == f"{STANDARD_YAML}: ok"
    files = {d["file"] for d in diagnostics(result.stderr)}
    assert files == {str(bad1), str(bad2)}
    assert "2 of 3 file(s) have errors" in result.stderr


def test_check_takes_shipped_names_like_every_other_command():
    result = run("check", "standard", "min-bid-4", "northeast52")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.splitlines() == ["standard: ok", "min-bid-4: ok on its own; not laid over any game "
                                          "(--on VARIANT checks that it fits one)", "northeast52: ok"]


def test_check_takes_a_variant_with_house_rules_and_checks_it_as_one(tmp_path):
    assert run("check", "standard+min-bid-4+sport-kitty").stdout == "standard+min-bid-4+sport-kitty: ok\n"
    mine = tmp_path / "mine.whist"
    mine.write_text("house-rule mine\norders { remove downtown }\n", encoding="utf-8")
    alone = run("check", str(mine))                  # fine as a file of its own
    assert alone.exit_code == 0, alone.stderr
    laid = run("check", f"standard+{mine}")          # but it breaks the standard game
    assert laid.exit_code == 1
    assert "downtown" in laid.stderr and "1 of 1 file(s) have errors" in laid.stderr


def test_check_a_shipped_house_rule_on_a_variant():
    result = run("check", "min-bid-4", "--on", "standard", "--on", "northeast52")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "min-bid-4: ok (over standard, northeast52)\n"


@pytest.mark.parametrize("name, named, shipped", [
    ("standrd", "standrd", "standard"),                      # a mistyped variant name
    ("standard+no-such-rule", "no-such-rule", "min-bid-4"),  # an unknown house rule
])
def test_check_unknown_name_is_a_usage_error_naming_it(name, named, shipped):
    result = run("check", name)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert named in result.stderr and shipped in result.stderr  # names what is shipped
    assert "does not exist" not in result.stderr


def test_check_unknown_name_stops_before_checking_anything():
    result = run("check", "standard", "no-such-variant")
    assert result.exit_code == 2
    assert result.stdout == ""


def test_check_prefers_a_file_that_exists(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "standard").write_text("players: four\n", encoding="utf-8")   # a (broken) file named like one
    result = run("check", "standard")
    assert result.exit_code == 1
    assert diagnostics(result.stderr)[0]["file"] == "standard"


def test_broken_variant_file_given_to_compile_and_simulate_is_bad_content(tmp_path):
    path, _ = edited(tmp_path, "broken.yaml", ("players:", "players: four"))
    for args in (("compile", str(path)), ("simulate", str(path), "--hands", "1", "--seed", "1")):
        result = run(*args)
        assert result.exit_code == 1
        assert result.stdout == ""
        assert diagnostics(result.stderr)[0]["file"] == str(path)


# --------------------------------------------------------------------------- simulate
def test_simulate_json_is_clean_and_reproducible():
    first = run("simulate", "standard", "--hands", "30", "--seed", "42", "--json")
    assert first.exit_code == 0
    assert first.stderr == ""                       # the seed was given: nothing to say
    data = json.loads(first.stdout)                 # the whole of stdout is one JSON document
    assert data["hands"] == 30 and data["seed"] == 42 and data["variant"] == "standard"
    assert sum(c["count"] for c in data["contracts"]) + data["no_contract"] == 30
    assert len(data["mean_score"]) == 2
    again = run("simulate", "standard", "--hands", "30", "--seed", "42", "--json")
    assert again.stdout == first.stdout
    other = run("simulate", "standard", "--hands", "30", "--seed", "43", "--json")
    assert other.stdout != first.stdout


def test_simulate_without_seed_prints_the_drawn_seed_on_stderr():
    result = run("simulate", "standard", "--hands", "5", "--json")
    assert result.exit_code == 0
    m = re.search(r"seed: (\d+)", result.stderr)
    assert m, result.stderr
    data = json.loads(result.stdout)
    assert data["seed"] == int(m[1])
    rerun = run("simulate", "standard", "--hands", "5", "--json", "--seed", m[1])
    assert json.loads(rerun.stdout) == data


def test_simulate_human_report():
    result = run("simulate", "standard", "--hands", "20", "--seed", "3")
    assert result.exit_code == 0
    assert "standard" in result.stdout and "20 hands" in result.stdout and "mean score" in result.stdout
    with pytest.raises(json.JSONDecodeError):
        json.loads(result.stdout)


def test_simulate_records_replay_line_by_line_to_the_simulation(tmp_path):
    hands, seed = 40, 2025
    out = tmp_path / "out.jsonl"
    # Random bots, named: they are fast and reach every kind of contract, and the
    # replay below plays the same hands with them.
    result = run("simulate", "standard", "--hands", str(hands), "--seed", str(seed), "--json",
                 "--bots", "random", "--records", str(out))
    assert result.exit_code == 0
    stats = json.loads(result.stdout)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == hands
    rules = load_ruleset("standard")
    totals = [0, 0]
    contracts = 0
    for i, line in enumerate(lines):
        single = tmp_path / f"hand{i}.json"
        single.write_text(line + "\n", encoding="utf-8")
        replayed = run("replay", str(single), "--json")
        assert replayed.exit_code == 0, (i, replayed.stdout)
        got = json.loads(replayed.stdout)
        assert got["error"] is None
        state = play_hand(rules, seed, i, "random")            # the simulation's own hand i
        assert got["contract"] == state.contract
        assert got["score"] == list(state.score)
        assert got["books"] == list(state.books)
        totals = [t + s for t, s in zip(totals, got["score"])]
        contracts += got["contract"] is not None
    assert totals == pytest.approx([m * hands for m in stats["mean_score"]])
    assert contracts == hands - stats["no_contract"]


@pytest.mark.parametrize("variant", sorted(shipped_variants()))
def test_every_shipped_variant_writes_records_that_replay(tmp_path, variant):
    """`simulate --records` promises each line replays to the same result, for any variant."""
    hands, seed = 12, 7
    out = tmp_path / "out.jsonl"
    result = run("simulate", variant, "--hands", str(hands), "--seed", str(seed), "--json", "--bots", "random",
                 "--records", str(out))
    assert result.exit_code == 0, result.stderr
    rules = load_ruleset(variant)
    failures = []
    for i, line in enumerate(out.read_text(encoding="utf-8").splitlines()):
        single = tmp_path / f"hand{i}.json"
        single.write_text(line, encoding="utf-8")
        replayed = run("replay", str(single), "--json")
        got = json.loads(replayed.stdout)
        state = play_hand(rules, seed, i, "random")
        if replayed.exit_code != 0:
            failures.append((i, got["error"]))
        elif (got["contract"], got["score"]) != (state.contract, list(state.score)):
            failures.append((i, "different result"))
    assert not failures, failures


def test_simulate_records_to_an_unwritable_path_is_a_usage_error(tmp_path):
    result = run("simulate", "standard", "--hands", "1", "--seed", "1",
                 "--records", str(tmp_path / "no-such-dir" / "out.jsonl"))
    assert result.exit_code == 2
    assert "--records" in result.stderr


# --------------------------------------------------------------------------- the real script
def test_script_runs_without_traceback(tmp_path):
    proc = script("simulate", "standard", "--hands", "10", "--seed", "9", "--json")
    assert proc.returncode == 0 and proc.stderr == ""
    assert json.loads(proc.stdout)["hands"] == 10
    proc = script("simulate", "standard", "--hands", "3", "--json")
    assert proc.returncode == 0 and re.search(r"seed: \d+", proc.stderr)
    json.loads(proc.stdout)
    bad, _ = edited(tmp_path, "bad.yaml", ("players:", "players: four"), ("  hand: ", "  hand: 11"))
    proc = script("check", str(bad))
    assert proc.returncode == 1 and diagnostics(proc.stderr)
    proc = script("check", str(tmp_path / "missing.yaml"))
    assert proc.returncode == 2
    proc = script("compile", "no-such-variant")
    assert proc.returncode == 2
    proc = script("simulate", "standard", "--hands", "abc")
    assert proc.returncode == 2
    proc = script("schema")
    assert proc.returncode == 0 and json.loads(proc.stdout)


# --------------------------------------------------------------------------- a user's audit
def _hand_records(tmp_path: Path, hands: int = 2) -> list[dict]:
    """``hands`` hand records written by ``simulate --records`` (random bots: quick)."""
    out = tmp_path / "hands.jsonl"
    assert run("simulate", "standard", "--hands", str(hands), "--seed", "5", "--bots", "random",
               "--records", str(out)).exit_code == 0
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def test_analyze_json_of_an_illegal_hand_has_the_keys_of_a_legal_one(tmp_path):
    """A program reading `analyze --json` finds the same keys, null, when the hand is illegal."""
    good, bad = _hand_records(tmp_path)
    bad["play"][5] = "ZZ"
    (tmp_path / "good.json").write_text(json.dumps(good), encoding="utf-8")
    (tmp_path / "bad.json").write_text(json.dumps(bad), encoding="utf-8")
    legal = run("analyze", str(tmp_path / "good.json"), "--json")
    illegal = run("analyze", str(tmp_path / "bad.json"), "--json")
    assert (legal.exit_code, illegal.exit_code) == (0, 1)
    legal_out, illegal_out = json.loads(legal.stdout), json.loads(illegal.stdout)
    assert set(illegal_out) == set(legal_out)
    assert illegal_out["error"]["at"] == "play[5]"
    assert all(illegal_out[k] is None for k in illegal_out if k != "error")
    (tmp_path / "both.jsonl").write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    each = run("analyze", "--each", str(tmp_path / "both.jsonl"), "--json")
    assert each.exit_code == 1
    first, second = json.loads(each.stdout)["hands"]
    assert set(second) == set(first) and second["error"]["at"] == "play[5]"


def test_analyze_each_replays_each_hand_once(tmp_path, monkeypatch):
    """`analyze --each` replayed every legal hand twice: once to check it, once to analyse it."""
    import runtime.records
    from runtime.solver import DoubleDummy

    good, bad = _hand_records(tmp_path)
    bad["play"][5] = "ZZ"
    (tmp_path / "both.jsonl").write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    replayed = []
    real_replay_hand = runtime.records.replay_hand

    def counted(rules, record):
        replayed.append(record["play"][5])
        return real_replay_hand(rules, record)

    monkeypatch.setattr(runtime.records, "replay_hand", counted)
    monkeypatch.setattr(DoubleDummy, "solve", lambda self, state: 0)  # the analysis itself is not what is counted
    each = run("analyze", "--each", str(tmp_path / "both.jsonl"), "--json")
    assert each.exit_code == 1
    assert replayed == [good["play"][5], "ZZ"]


def test_a_truncated_record_names_where_its_string_starts(tmp_path):
    """json's "Unterminated string starting at" is not left hanging: the position is in front."""
    (record,) = _hand_records(tmp_path, 1)
    path = tmp_path / "cut.json"
    text = json.dumps(record)
    path.write_text(text[:-5], encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code == 2
    col = text[:-5].rindex('"') + 1
    assert result.stderr == (f"{path}:1:{col}: invalid JSON: Unterminated string starting here; the file ends "
                             "before its record closes: it is cut short, or a quote is missing\n")


def test_a_card_dealt_twice_to_one_hand_is_named_once(tmp_path):
    """Not "(hands[0] and hands[0])": the hand that holds a card twice is named once."""
    (record,) = _hand_records(tmp_path, 1)
    hand = record["hands"][0]
    hand[0] = hand[1]
    path = tmp_path / "twice.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = run("replay", str(path), "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"] == {"at": "hands",
                                                  "message": f"{hand[1]} is dealt twice (both in hands[0])"}
