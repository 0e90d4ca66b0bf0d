"""A hostile user's read of the commands other than `play` and `import` (audit 21).

Each test names what went wrong before its fix.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from clirun import BIDWHIST, HANG_GUARD_S, heard_as_from_a_terminal, run

ROOT = Path(__file__).resolve().parent.parent

# A pool run as the command line runs one: Ctrl-C ends it with "interrupted", status 130.
POOL_RUN = textwrap.dedent("""
    import sys
    from runtime.backends import run_chunks
    try:
        run_chunks(max, (0,), 4, workers=2, preload=["slow_preload"])
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    sys.exit(3)
""")


def test_ctrl_c_while_the_pool_starts_prints_no_traceback_from_its_processes(tmp_path):
    """Ctrl-C reaches every process of the terminal's group.  Sent while `simulate --workers 2`
    started its pool (the forkserver importing its preloaded modules, a worker just forked),
    the forkserver and workers each printed a KeyboardInterrupt traceback, and a worker ended
    so broke the pool: "internal error: BrokenProcessPool", status 70.  They now start with
    SIGINT blocked: only the parent hears it, and ends with status 130."""
    marker = tmp_path / "preloading"
    (tmp_path / "slow_preload.py").write_text(textwrap.dedent(f"""
        import pathlib, time
        pathlib.Path({str(marker)!r}).write_text("now")
        time.sleep(5)
    """))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    proc = subprocess.Popen([sys.executable, "-c", POOL_RUN], stderr=subprocess.PIPE, text=True,
                            env=env, start_new_session=True, preexec_fn=heard_as_from_a_terminal)
    while not marker.exists() and proc.poll() is None:  # the forkserver is importing its preload
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: to the whole group
    stderr = proc.communicate(timeout=HANG_GUARD_S)[1]
    assert proc.returncode == 130, stderr
    assert stderr == "interrupted\n"


def run_script(*args: str, env: dict | None = None, cwd=None) -> subprocess.CompletedProcess:
    """The installed script under ``env`` (added to this environment): no traceback, no internal error."""
    proc = subprocess.run([BIDWHIST, *args], capture_output=True, text=True, timeout=HANG_GUARD_S, cwd=cwd,
                          env={**os.environ, **(env or {})})
    assert "Traceback" not in proc.stdout + proc.stderr and "internal error" not in proc.stderr
    return proc


@pytest.mark.parametrize("args", [("variants",), ("compile", "standard")])
def test_columns_zero_is_read_as_unset_not_as_no_room(args):
    """`COLUMNS=0 bidwhist variants` (and simulate, compare, replay, analyze, compile) printed
    nothing at all, status 0: rich laid every line out in zero columns."""
    plain = run_script(*args, env={"COLUMNS": "80"})
    zero = run_script(*args, env={"COLUMNS": "0", "LINES": "0"})
    assert plain.returncode == zero.returncode == 0
    assert zero.stdout == plain.stdout and zero.stdout.strip()


def test_an_ascii_stdout_of_the_c_locale_gets_escapes_not_an_internal_error():
    """Under `PYTHONUTF8=0 LC_ALL=C` stdout is ASCII with surrogateescape, which the escape of
    characters it lacks did not cover: `compile standard` (its dash), `compare`'s "B − A",
    `play`'s suits ended in "internal error: UnicodeEncodeError", status 70."""
    proc = run_script("compile", "standard", env={"PYTHONUTF8": "0", "LC_ALL": "C", "PYTHONCOERCECLOCALE": "0",
                                                  "PYTHONIOENCODING": ""})
    assert proc.returncode == 0, proc.stderr
    assert "standard \\u2014 Bid Whist" in proc.stdout


def test_a_file_whose_name_holds_a_plus_is_said_to_be_cut_there(tmp_path, monkeypatch):
    """`compile standard+my+rule.yaml` with my+rule.yaml in the folder said only "unknown house
    rule 'my'" (and a list of the shipped ones): the '+' of the file's name was read as a
    separator, and nothing said so or how to name the file."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / "variants" / "min-bid-4.yaml", "my+rule.yaml")
    shutil.copy(ROOT / "variants" / "standard.yaml", "my+game.yaml")
    rule = run("compile", "standard+my+rule.yaml")
    assert rule.exit_code == 2
    assert ("'my+rule.yaml' is a file, cut at its '+' (which separates house rules): "
            "lay it with --with my+rule.yaml, or rename it") in rule.stderr
    assert run("compile", "standard", "--with", "my+rule.yaml").exit_code == 0  # the fix offered works
    base = run("compile", "my+game.yaml+min-bid-4")
    assert base.exit_code == 2
    assert ("'my+game.yaml' is a file, cut at its '+' (which separates house rules): name the file alone "
            "and lay house rules with --with, or rename it") in base.stderr
    assert "is a file, cut" not in run("compile", "standard+nope").stderr  # no file: no such words


def test_a_number_that_is_not_one_is_said_so_and_a_huge_one_is_not_quoted_whole():
    """`--hands 0x10` was "'0x10' is not a valid integer range." (click's name of the type, not
    what was wrong), and `--seed` of 5,000 digits quoted all 5,000 back in the message."""
    hex_hands = run("simulate", "standard", "--hands", "0x10")
    assert hex_hands.exit_code == 2
    assert "'--hands': '0x10' is not a whole number (digits 0-9, no decimal point or exponent)" in hex_hands.stderr
    huge = run("simulate", "standard", "--hands", "2", "--seed", "9" * 5000)
    assert huge.exit_code == 2 and "9" * 100 not in huge.stderr
    assert "'--seed': a number of 5,000 digits is not in the range -9223372036854775808<=x<=" in huge.stderr


# Every whole-number option of every command, with the words its command needs before it.
_NUMBER_OPTIONS = {
    ("simulate", "--games"): ["simulate", "standard"], ("simulate", "--hands"): ["simulate", "standard"],
    ("simulate", "--seed"): ["simulate", "standard"], ("simulate", "--workers"): ["simulate", "standard"],
    ("simulate", "--max-hands"): ["simulate", "standard"],
    ("compare", "--games"): ["compare", "standard", "standard"], ("compare", "--hands"): ["compare", "standard", "standard"],
    ("compare", "--seed"): ["compare", "standard", "standard"],
    ("compare", "--workers"): ["compare", "standard", "standard"],
    ("compare", "--max-hands"): ["compare", "standard", "standard"],
    ("play", "--seat"): ["play", "standard"], ("play", "--seed"): ["play", "standard"],
}


def test_the_list_of_number_options_is_every_one_the_commands_have():
    """The test below is of every integer option: a command given a new one is listed here."""
    import click

    from bidcompiler.cli import cli
    ctx = click.Context(cli)
    found = {(name, opt) for name in cli.list_commands(ctx)
             for param in cli.get_command(ctx, name).params if isinstance(param.type, click.types.IntParamType)
             for opt in param.opts if opt.startswith("--")}
    assert found == set(_NUMBER_OPTIONS)


@pytest.mark.parametrize("command, option", sorted(_NUMBER_OPTIONS))
@pytest.mark.parametrize("value", ["1_0", "1_000", "0_1", "-1_0"])
def test_a_number_with_an_underscore_is_refused_as_other_bad_numbers_are(command, option, value):
    """Python's int() reads '1_000' as 1000; a count, seed or seat is plain digits, refused
    otherwise with the usage message any other bad number gets (status 2)."""
    result = run(*_NUMBER_OPTIONS[command, option], option, value)
    assert result.exit_code == 2 and result.stdout == ""
    assert (f"'{option}': '{value}' is not a whole number (digits 0-9, no decimal point or exponent)"
            in result.stderr), result.stderr


@pytest.mark.parametrize("args, status", [
    (("compile", "{bad}", "--json"), 1),
    (("diff", "standard", "{bad}", "--json"), 1),
    (("simulate", "{bad}", "--hands", "2", "--json"), 1),
    (("compare", "standard", "{bad}", "--hands", "2", "--json"), 1),
    (("simulate", "standard", "--hands", "0", "--json"), 2),
    (("variants", "--json", "extra"), 2),
    (("replay", "{bad}", "--json"), 2),
])
def test_an_error_under_json_leaves_stdout_empty_as_docs_json_says(tmp_path, args, status):
    """docs/json.md promised "one JSON document on stdout" and said nothing of errors: a program
    could not tell whether to expect JSON.  It now says that a failure prints none (stdout
    empty, the message on stderr, status 1 or 2), but for replay's and analyze's illegal record."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nkind: variant\nextends: standard\ndeal:\n  kitty: 99\n")
    result = run(*(a.format(bad=bad) for a in args))
    assert result.exit_code == status
    assert result.stdout == "" and result.stderr.strip()
    page = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
    assert "A command that fails prints no JSON: stdout stays empty" in page


def test_one_setting_given_two_values_by_set_is_refused_naming_both():
    """`--set auction.levels.from=4 --set auction.levels.from=5` ran with 5, and the header named
    both changes as if both held: the first was silently dead.  Mappings still merge."""
    twice = run("compile", "standard", "--set", "auction.levels.from=4", "--set", "auction.levels.from = 5")
    assert twice.exit_code == 2
    assert ("'--set': auction.levels.from is set twice ('auction.levels.from=4', then 'auction.levels.from = 5'): "
            "the first would change nothing; give each setting once") in twice.stderr
    merged = run("compile", "standard", "--set", "auction.levels={from: 4}", "--set", "auction.levels={to: 6}")
    assert merged.exit_code == 0 and "bids      4-6," in merged.stdout
    replaced = run("compile", "standard", "--set", "auction.levels={from: 4}", "--set", "auction.levels=5")
    assert replaced.exit_code == 2  # a plain value after a mapping replaces it whole: set twice too
    assert ("'--set': auction.levels is set twice ('auction.levels={from: 4}', then 'auction.levels=5'): "
            "the first would change nothing; give each setting once") in replaced.stderr


@pytest.mark.parametrize("first, then, said", [
    ("auction.levels.from=4", "auction.levels.from.x=2",
     "auction.levels.from.x is inside auction.levels.from, which is given a plain value before it"),
    ("auction.levels.from=4", "auction.levels=~",
     "auction.levels is given a plain value after auction.levels.from, inside it"),
])
def test_overlapping_set_paths_with_a_plain_value_are_refused_naming_both(first, then, said):
    """`--set a.b=1 --set a.b.c=2` (or the other way round) passed the check of one setting
    given twice and reached the compiler, the one change silently undoing the other."""
    result = run("compile", "standard", "--set", first, "--set", then)
    assert result.exit_code == 2 and result.stdout == ""
    assert f"'--set': {said} ('{first}', then '{then}'): the one undoes the other; give each setting once" \
        in result.stderr, result.stderr


@pytest.mark.parametrize("then", ["game.win.target=score >= target", "game.win={target: score >= target}"])
def test_a_removal_then_a_setting_inside_it_keeps_only_that_setting(then):
    """`~` before a setting inside it is no slip: it removes what lay below (README), here the
    sweep boston-wins adds to game.win, so only the target ends the game; it was refused as
    one change undoing the other."""
    removed = run("compile", "standard", "--with", "boston-wins", "--set", "game.win=~", "--set", then)
    assert removed.exit_code == 0, removed.stderr
    assert "won when score >= target;" in removed.stdout and "swept" not in removed.stdout, removed.stdout
    kept = run("compile", "standard", "--with", "boston-wins", "--set", then)
    assert kept.exit_code == 0 and "won when score >= target or swept;" in kept.stdout, kept.stdout
    # A removal after a setting inside it, or given twice, still undoes the other: refused.
    for args in (("--set", then, "--set", "game.win=~"), ("--set", "game.win=~", "--set", "game.win=~")):
        refused = run("compile", "standard", "--with", "boston-wins", *args)
        assert refused.exit_code == 2 and refused.stdout == "" and "give each setting once" in refused.stderr


def test_a_mapping_then_a_setting_inside_it_merge_as_the_readme_says():
    """README: each --set is a layer, and a mapping merges with a setting inside it."""
    merged = run("compile", "standard", "--set", "auction.levels={from: 4}", "--set", "auction.levels.to=6")
    assert merged.exit_code == 0 and "bids      4-6," in merged.stdout
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "--set auction.levels.to=6` merges into both settings" in readme


def test_with_given_two_rules_joined_by_plus_says_to_repeat_it():
    """`--with min-bid-4+sport-kitty` was "unknown house rule 'min-bid-4+sport-kitty' (did you mean
    'sport-kitty'?)", as if a misspelling: --with takes one rule, and nothing said so."""
    result = run("compile", "standard", "--with", "min-bid-4+sport-kitty")
    assert result.exit_code == 2
    assert ("'--with': 'min-bid-4+sport-kitty': --with takes one house rule; for several, repeat it: "
            "--with min-bid-4 --with sport-kitty") in result.stderr
    assert run("compile", "standard", "--with", "min-bid-4", "--with", "sport-kitty").exit_code == 0


def test_check_says_when_on_was_not_used_for_a_variant():
    """`check standard --on northeast52` said "standard: ok", as a house rule checked over
    northeast52 says it: --on lays only house rules, and a variant's line did not say so."""
    result = run("check", "standard", "min-bid-4", "--on", "northeast52")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "standard: ok (a variant: --on lays house rules only, and was not used for it)",
        "min-bid-4: ok (over northeast52)"]
    assert run("check", "standard").stdout == "standard: ok\n"


def test_check_on_names_a_shipped_rule_laid_twice_by_its_name_not_its_installed_path():
    """`check min-bid-4 --on standard+min-bid-4` said "(first as 'min-bid-4', then as
    '/…/variants/min-bid-4.yaml')": the path the package is installed at, where every other
    command says the shipped name."""
    result = run("check", "min-bid-4", "--on", "standard+min-bid-4")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == ("shipped 'min-bid-4', line 2: house rule 'min-bid-4' is laid twice "
                                             "over one variant (as 'min-bid-4' both times)")


def test_a_variant_named_dash_is_said_not_to_be_read_from_stdin():
    """`replay -` reads stdin, so `compile -` (or `check -`, `simulate -`) is a natural guess; it
    was only "unknown variant '-'" and the shipped names."""
    for args in (("compile", "-"), ("check", "-"), ("compile", "standard", "--with", "-")):
        result = run(*args)
        assert result.exit_code == 2
        assert "a variant is not read from stdin ('-' is only replay's and analyze's): give its file" in result.stderr


def test_convert_into_another_folder_keeps_extends_pointing_at_the_same_file(tmp_path):
    """`convert ext/v.yaml --to whist -o sub/v.whist` copied `extends: base.yaml` as it was: found
    from sub/, it named no file, and the file convert wrote failed `check` ("no such file")."""
    (tmp_path / "ext").mkdir()
    (tmp_path / "sub").mkdir()
    shutil.copy(ROOT / "variants" / "standard.yaml", tmp_path / "ext" / "base.yaml")
    source = tmp_path / "ext" / "v.yaml"
    source.write_text("name: v\nkind: variant\nextends: base.yaml\ndeal:\n  kitty: 6\n")
    for target, name in (("whist", "v.whist"), ("yaml", "v.yaml")):
        out = tmp_path / "sub" / name
        converted = run("convert", str(source), "--to", target, "-o", str(out))
        assert converted.exit_code == 0, converted.stderr
        assert "note: extends 'base.yaml' is written '../ext/base.yaml'" in converted.stderr
        assert run("check", str(out)).exit_code == 0
    beside = run("convert", str(source), "--to", "whist", "-o", str(tmp_path / "ext" / "v.whist"))
    assert "extends base.yaml\n" in (tmp_path / "ext" / "v.whist").read_text() and "note" not in beside.stderr


def test_convert_refuses_a_hard_link_to_file_as_its_output(tmp_path):
    """`convert a.yaml --to yaml -o b.yaml` with b.yaml a hard link to a.yaml rewrote FILE itself
    (its own layout lost): only a name that resolved to FILE's path was refused."""
    source = tmp_path / "a.yaml"
    source.write_text("# mine\nname: r\nkind: house-rule\nauction:   {levels: {from: 4}}\n")
    os.link(source, tmp_path / "b.yaml")
    result = run("convert", str(source), "--to", "yaml", "-o", str(tmp_path / "b.yaml"))
    assert result.exit_code == 2 and "b.yaml is FILE itself" in result.stderr
    assert source.read_text() == "# mine\nname: r\nkind: house-rule\nauction:   {levels: {from: 4}}\n"


def test_schema_write_under_a_file_is_a_usage_error(tmp_path):
    """`schema --write afile/sub`, afile a file: status 1, "cannot write afile/sub/variant.schema.json:
    Not a directory", the status of a full disk, where the docstring and the README promise 2
    for a name that cannot be written."""
    (tmp_path / "afile").write_text("")
    result = run("schema", "--write", str(tmp_path / "afile" / "sub"))
    assert result.exit_code == 2
    assert f"Invalid value for DIR: cannot make the folder {tmp_path}/afile/sub: Not a directory" in result.stderr


def test_bidwhist_alone_prints_its_help_with_its_lines():
    """`bidwhist` with no command printed the whole help as one line of literal "\\n"s (click 8.2
    raises it as a usage error, and a usage error's newlines are escaped to keep it one line)."""
    proc = run_script()
    assert proc.returncode == 2 and proc.stdout == ""
    assert "\\n" not in proc.stderr
    assert proc.stderr.startswith("Usage: bidwhist [OPTIONS] COMMAND [ARGS]...\n\n  Bid Whist and its variants as data.\n")
    assert "\n  simulate  Play games or hands of VARIANT with bots and report.\n" in proc.stderr


# Ctrl-C arriving while the console script imports click: the SIGINT is sent by the import itself.
INTERRUPTED_IMPORT = textwrap.dedent("""
    import builtins, os, signal, sys
    sys.argv[0] = "bidwhist"
    real_import = builtins.__import__
    def interrupting_import(name, *args, **kwargs):
        if name == "click":
            os.kill(os.getpid(), signal.SIGINT)
        return real_import(name, *args, **kwargs)
    builtins.__import__ = interrupting_import
    from bidcompiler.cli import main
    sys.exit(main(["variants"]))
""")


def test_ctrl_c_while_the_command_line_starts_prints_no_traceback():
    """Ctrl-C in the tenth of a second the console script spends importing click (before main
    routes Ctrl-C) printed Python's KeyboardInterrupt traceback of the import."""
    proc = subprocess.run([sys.executable, "-c", INTERRUPTED_IMPORT], capture_output=True, text=True,
                          timeout=HANG_GUARD_S, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          preexec_fn=heard_as_from_a_terminal)
    assert proc.returncode == 130
    assert proc.stderr == "interrupted\n" and proc.stdout == ""


def test_records_and_plot_naming_one_file_is_refused_before_the_run(tmp_path):
    """`simulate --records out.svg --plot out.svg`: the records were written, then the picture over
    them, status 0: the run's records silently lost.  Refused before the run now (also for a
    game's file of a {game} name), and nothing is written."""
    same = tmp_path / "out.svg"
    result = run("simulate", "standard", "--hands", "3", "--seed", "1", "--bots", "random",
                 "--records", str(same), "--plot", str(tmp_path / "." / "out.svg"))
    assert result.exit_code == 2
    assert f"Invalid value for --records: {same} is the --plot file too" in result.stderr
    games = run("simulate", "standard", "--games", "2", "--seed", "1", "--bots", "random",
                "--records", str(tmp_path / "g-{game}.svg"), "--plot", str(tmp_path / "g-0.svg"))
    assert games.exit_code == 2 and "g-0.svg is the --plot file too" in games.stderr
    assert list(tmp_path.iterdir()) == []


def test_an_output_named_dash_is_refused_not_made_a_file_named_dash(tmp_path, monkeypatch):
    """`simulate … --records -` wrote a file named '-' (`replay -` then read stdin, not it), and
    `schema --write -` made a folder '-': '-' reads as stdout, which these options do not write."""
    monkeypatch.chdir(tmp_path)
    for args in (("simulate", "standard", "--hands", "2", "--seed", "1", "--records", "-"),
                 ("schema", "--write", "-")):
        result = run(*args)
        assert result.exit_code == 2
        assert "'-' is not stdin or stdout here: give a file's name (./- for a file named '-')" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_convert_from_the_source_folder_into_a_subfolder_rewrites_extends(tmp_path):
    """`cd p && convert v.yaml --to whist -o sub/v.whist` wrote `extends base.yaml`: base.yaml was
    looked for from sub/ and then from the working directory, p/, where it is, so it was kept, and
    the written file failed check from anywhere else."""
    (tmp_path / "p" / "sub").mkdir(parents=True)
    (tmp_path / "p" / "base.yaml").write_text("kind: variant\nname: b\nextends: standard\n")
    (tmp_path / "p" / "v.yaml").write_text("kind: variant\nname: v\nextends: base.yaml\n")
    converted = run_script("convert", "v.yaml", "--to", "whist", "-o", "sub/v.whist", cwd=tmp_path / "p")
    assert converted.returncode == 0, converted.stderr
    assert 'extends "../base.yaml"\n' in (tmp_path / "p" / "sub" / "v.whist").read_text()
    assert run("check", str(tmp_path / "p" / "sub" / "v.whist")).exit_code == 0


def test_convert_into_a_folder_that_is_a_link_rewrites_extends_from_where_it_leads(tmp_path):
    """-o into lnk/, a link to p/sub: extends was made relative to lnk's name (../p/base.yaml),
    which from p/sub, where the file is, names p/p/base.yaml."""
    (tmp_path / "p" / "sub").mkdir(parents=True)
    (tmp_path / "p" / "base.yaml").write_text("kind: variant\nname: b\nextends: standard\n")
    (tmp_path / "p" / "v.yaml").write_text("kind: variant\nname: v\nextends: base.yaml\n")
    (tmp_path / "lnk").symlink_to(tmp_path / "p" / "sub", target_is_directory=True)
    converted = run("convert", str(tmp_path / "p" / "v.yaml"), "--to", "whist", "-o", str(tmp_path / "lnk" / "v.whist"))
    assert converted.exit_code == 0, converted.stderr
    assert 'extends "../base.yaml"\n' in (tmp_path / "p" / "sub" / "v.whist").read_text()
    for seen in (tmp_path / "lnk" / "v.whist", tmp_path / "p" / "sub" / "v.whist"):
        assert run("check", str(seen)).exit_code == 0


def test_records_of_a_middle_game_naming_the_plot_are_refused(tmp_path):
    """`--games 3 --records 'g{game}.svg' --plot g1.svg`: status 0, game 1's records written over
    by the picture (only the first and the last game's files were compared)."""
    result = run("simulate", "standard", "--games", "3", "--seed", "1", "--bots", "random",
                 "--records", str(tmp_path / "g{game}.svg"), "--plot", str(tmp_path / "g1.svg"))
    assert result.exit_code == 2
    assert f"Invalid value for --records: {tmp_path}/g1.svg is the --plot file too" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_records_of_any_game_of_a_long_run_naming_the_plot_are_found():
    """A run too long to try every game's name still finds the game --plot's name holds."""
    from bidcompiler.cli.simulate import _games_that_may_be

    assert 123 in _games_that_may_be("g{game:04d}.svg", 10**9, "g0123.svg")
    assert 255 in _games_that_may_be("x/{game:x}.svg", 10**9, "x/ff.svg")
    assert _games_that_may_be("g{game}.svg", 10**9, "other.svg") == [0, 10**9 - 1]


def test_a_negative_number_of_too_many_digits_is_not_said_too_large():
    """`play --seat -999…9` (fifty nines) said the number was "too large"."""
    for sign in ("-", ""):
        result = run("play", "standard", "--seat", sign + "9" * 50)
        assert result.exit_code == 2
        assert "'--seat': a number of 50 digits is too far from 0" in result.stderr


def test_a_long_run_finds_the_game_whose_records_plot_would_overwrite_without_backtracking():
    """Review: several {game} fields and a long --plot name that matches none made the
    pattern of the long-run check backtrack for minutes before any game was played."""
    from bidcompiler.cli.simulate import _games_that_may_be

    records = "g{game}{game}{game}{game}{game}{game}.jsonl"
    assert 12345 in _games_that_may_be(records, 20_000, "g" + "12345" * 6 + ".jsonl")
    assert 255 in _games_that_may_be("g{game:x}.svg", 20_000, "gff.svg")
    # a name that matches none: the first and last game, and the few numbers "a", "aa"... may be in hex
    assert _games_that_may_be(records, 20_000, "g" + "a" * 150 + ".svg") == [0, 10, 170, 2730, 19_999]


@pytest.mark.parametrize("first, then", [
    ("auction.levels={from: 4}", "auction.levels.from=5"),
    ("auction.levels.from=5", "auction.levels={from: 4}"),
    ("auction.levels={from: 4}", "auction.levels={from: 5, to: 6}"),
])
def test_a_value_given_in_a_mapping_and_again_is_set_twice(first, then):
    """A mapping gives each value in it as a setting of its own would: `{from: 4}` then
    `from=5` (either order) gave one setting two plain values, and the first did nothing, yet
    passed (review22a)."""
    result = run("compile", "standard", "--set", first, "--set", then)
    assert result.exit_code == 2 and result.stdout == ""
    assert (f"'--set': auction.levels.from is set twice ('{first}', then '{then}'): the first would change "
            "nothing; give each setting once") in result.stderr, result.stderr


@pytest.mark.parametrize("first, then, alone", [
    # a list inside a mapping, then a list for that setting: two lists in a row pass
    ("auction={ranking: [[uptown, downtown], [notrump]]}", "auction.ranking=[[uptown], [downtown], [notrump]]",
     "auction.ranking=[[uptown, downtown], [notrump]]"),
    # an empty mapping inside a mapping, then a setting inside it: {} then from=4 passes
    ("auction={levels: {}}", "auction.levels.from=4", "auction.levels={}"),
])
def test_a_list_or_empty_mapping_inside_a_mapping_is_no_plain_value(first, then, alone):
    """Only the plain values inside a --set mapping count as given (review22b): a list or a
    ``{}`` in it was taken for one, so what passes after it given alone (``alone``) was refused
    after it given inside a mapping, as 'set twice' or as 'given a plain value before it'."""
    assert run("compile", "standard", "--set", alone, "--set", then).exit_code == 0
    result = run("compile", "standard", "--set", first, "--set", then)
    assert result.exit_code == 0, result.stderr
    # the same rules as the two given alone (the first line names the changes as written)
    same = run("compile", "standard", "--set", alone, "--set", then).stdout
    assert result.stdout.splitlines()[1:] == same.splitlines()[1:]
