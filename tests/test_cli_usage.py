"""Issue 15, command lines: every bad argument ends in one clear usage message.

A systematic pass over every command and option (wrong type, negative, zero, huge,
empty, NaN/inf, missing paths, a folder for a file, options that clash or need each
other, unknown names, bad ``--set`` and ``--bots``) found the cases below; each was
accepted silently, read "" as the current folder, or named nothing.  One row per case:
the command line, the exit status (2: bad usage; 1: bad content) and words of the
message, which name the option.  ``run`` (tests/clirun.py) also checks that no
exception escapes and no traceback is shown.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from clirun import run

from bidcompiler.cli import COMMANDS
from bidcompiler.cli.simulate import DEFAULT_GAME_HANDS
from bidcompiler.resources import shipped_files

STANDARD = Path(str(shipped_files()["standard"]))
EMPTY = "an empty name"
LONG = "n" * 300  # longer than a file name may be (255 bytes on every common file system)
PTN = str(Path(__file__).parent / "data" / "trickster" / "suit-contract.ptn")

# {dir} is a folder, {file} a copy of standard.yaml, both in a fresh temporary folder.
CASES = [
    # An empty name: was read as the current folder, or as "not given".
    (("compile", ""), 2, f"Invalid value for 'VARIANT': {EMPTY}"),
    (("compile", "standard+"), 2, "Invalid value for 'VARIANT': 'standard+' has an empty name before or after '+'"),
    (("compile", "+"), 2, "has an empty name before or after '+'"),
    (("compile", "standard", "--with", ""), 2, f"Invalid value for '--with': {EMPTY}"),
    (("rules", ""), 2, f"Invalid value for 'VARIANT': {EMPTY}"),
    (("diff", "standard", ""), 2, f"Invalid value for 'B': {EMPTY}"),
    (("compare", "", "standard", "--hands", "1"), 2, f"Invalid value for 'A': {EMPTY}"),
    (("simulate", "standard", "--hands", "1", "--plot", ""), 2, f"Invalid value for '--plot': {EMPTY}"),
    (("simulate", "standard", "--hands", "1", "--records", ""), 2, f"Invalid value for '--records': {EMPTY}"),
    (("schema", "--write", ""), 2, f"Invalid value for '--write': {EMPTY}"),
    (("convert", "--to", "whist", "-o", "", "{file}"), 2, f"Invalid value for '-o' / '--output': {EMPTY}"),
    (("import", "-o", "", "{file}"), 2, f"Invalid value for '-o' / '--output': {EMPTY}"),
    (("replay", ""), 2, f"Invalid value for 'FILE': {EMPTY}"),
    (("analyze", ""), 2, f"Invalid value for 'FILE': {EMPTY}"),
    (("import", ""), 2, f"Invalid value for 'FILE': {EMPTY}"),
    (("play", ""), 2, f"Invalid value for '[VARIANT]': {EMPTY}"),
    (("play", "standard", "--with", ""), 2, f"Invalid value for '--with': {EMPTY}"),
    (("play", "standard", "--save", ""), 2, f"Invalid value for '--save': {EMPTY}"),
    (("play", "--resume", ""), 2, f"Invalid value for '--resume': {EMPTY}"),
    # check FILES: '' was "  is a directory", 'NAME+' "not a regular file (a directory)".
    (("check", ""), 2, f"Invalid value for 'FILES...': {EMPTY}"),
    (("check", "standard+"), 2, "'standard+' has an empty name before or after '+'"),
    (("check", "standard++to-5"), 2, "'standard++to-5' has an empty name before or after '+'"),
    # check --on: was not looked at unless a house rule was among FILES.
    (("check", "--on", "nosuch", "standard"), 2, "Invalid value for --on: unknown variant 'nosuch'"),
    (("check", "--on", "", "standard"), 2, f"Invalid value for '--on': {EMPTY}"),
    (("check", "--on", "to-5", "{file}"), 2, "Invalid value for --on: to-5 is a house rule, not a variant"),
    (("check", "--on", "{dir}", "standard"), 2, "Invalid value for --on: {dir} is a directory"),
    # --set that cannot be read as a change: was exit 1, as if a file were bad.
    (("compile", "standard", "--set", "x"), 2, "Invalid value for '--set': x: expected PATH=VALUE"),
    (("compile", "standard", "--set", ""), 2, "Invalid value for '--set': '': expected PATH=VALUE"),
    (("compile", "standard", "--set", "=1"), 2, "Invalid value for '--set': =1: '' is not a dotted path"),
    (("compile", "standard", "--set", "a..b=1"), 2, "Invalid value for '--set': a..b=1: 'a..b' is not a dotted path"),
    (("rules", "standard", "--set", "auction.levels.from=["), 2,
     "Invalid value for '--set': auction.levels.from=[: expected the node content"),
    (("compile", "standard", "--set", "auction.levels.from=" + "9" * 30), 2,
     "Invalid value for '--set': auction.levels.from=" + "9" * 30 + ": number too large: a number of 30 digits"),
    (("diff", "standard", "cincinnati", "--set", "bogus"), 2, "Invalid value for '--set': bogus: expected PATH=VALUE"),
    (("simulate", "standard", "--hands", "1", "--set", "x"), 2, "Invalid value for '--set': x: expected PATH=VALUE"),
    # A key that describes a file, not the game: was silently ignored, or "duplicate key 'name' (first at line 2)".
    (("compile", "standard", "--set", "extends=cincinnati"), 2,
     "Invalid value for '--set': extends=cincinnati: 'extends' describes a variant file, not a rule of the game"),
    (("rules", "standard", "--set", "title=Mine"), 2, "'title' describes a variant file, not a rule of the game"),
    (("compile", "standard", "--set", "name=x"), 2, "'name' describes a variant file, not a rule of the game"),
    # ... while one that reads but breaks the rules stays a content error, as in a house-rule file.
    (("compile", "standard", "--set", "auction.levels.from=abc"), 1,
     "--set auction.levels.from=abc: expected an integer, found 'abc'"),
    (("compile", "standard", "--set", "auction.levels.from=nan"), 1, "expected an integer, found 'nan'"),
    (("compile", "standard", "--set", "nosuch.path=1"), 1, "--set nosuch.path=1: unknown key 'nosuch'"),
    # convert -o: overwrote FILE itself; wrote .whist text under a name read as YAML.
    (("convert", "--to", "whist", "-o", "{file}", "{file}"), 2,
     "Invalid value for --output: {file} is FILE itself"),
    (("convert", "--to", "whist", "-o", "{dir}/x.yaml", "{file}"), 2,
     "Invalid value for --output: {dir}/x.yaml: a whist file's name ends in .whist"),
    (("convert", "--to", "yaml", "-o", "{dir}/x.whist", "{file}"), 2,
     "a yaml file's name ends in .yaml or .yml"),
    # Options that only make sense together.
    (("simulate", "standard", "--hands", "1", "--max-hands", "5"), 2, "--max-hands is for --games"),
    (("compare", "standard", "cincinnati", "--hands", "1", "--max-hands", "5"), 2, "--max-hands is for --games"),
    (("simulate", "standard", "--hands", "2", "--records", "{dir}/{game}.jsonl"), 2,
     "Invalid value for --records: {dir}/{game}.jsonl: a {game} field numbers the files of --games"),
    # --records onto the variant file itself: was written over with the records.
    (("simulate", "{file}", "--hands", "1", "--records", "{file}"), 2,
     "Invalid value for --records: {file} is the variant file {file}: write the records under a new name"),
    (("simulate", "standard", "--with", "{file}", "--hands", "1", "--records", "{dir}/./standard.yaml"), 2,
     "is the variant file"),
    (("play", "standard", "--take-over"), 2, "--take-over is for the lock of a save"),
    (("simulate", "standard", "--hands", "1", "--games", "1"), 2, "give --games or --hands, not both"),
    (("simulate", "standard", "--hands", "1", "--scheduler", "tcp://127.0.0.1:1"), 2,
     "--scheduler is for --backend dask"),
    (("simulate", "standard", "--hands", "1", "--backend", "dask", "--workers", "2"), 2,
     "--workers counts local processes"),
    # --bots: an empty kind was reported as an unknown bot ''; play took '' for "not given".
    (("simulate", "standard", "--hands", "1", "--bots", "heuristic,"), 2,
     "Invalid value for --bots: 'heuristic,' has an empty kind"),
    (("compare", "standard", "cincinnati", "--hands", "1", "--bots", ","), 2, "',' has an empty kind"),
    (("simulate", "standard", "--hands", "1", "--bots", "heuristic,heuristic,heuristic"), 2,
     "Invalid value for --bots: give one bot kind, or one per side (2 sides), not 3"),
    (("simulate", "standard", "--hands", "1", "--bots", "HEURISTIC"), 2, "Invalid value for --bots: unknown bot"),
    (("play", "standard", "--bots", ""), 2, "Invalid value for --bots: unknown bot ''"),
    (("play", "standard", "--bots", "heuristic,random"), 2, "Invalid value for --bots: unknown bot 'heuristic,random'"),
    # Numbers: wrong type, NaN/inf, float, negative, zero, huge (the bounds said in --help).
    (("simulate", "standard", "--hands", "nan"), 2, "Invalid value for '--hands': 'nan' is not a whole number"),
    (("simulate", "standard", "--hands", "inf"), 2, "Invalid value for '--hands': 'inf' is not a whole number"),
    (("simulate", "standard", "--hands", "1.5"), 2, "Invalid value for '--hands': '1.5' is not a whole number"),
    (("simulate", "standard", "--hands", ""), 2, "Invalid value for '--hands': '' is not a whole number"),
    (("simulate", "standard", "--games", "-1"), 2, "Invalid value for '--games': -1 is not in the range 1<=x<="),
    (("simulate", "standard", "--hands", "1", "--workers", "0"), 2, "'--workers': 0 is not in the range 1<=x<=64"),
    (("simulate", "standard", "--games", "1", "--max-hands", "0"), 2, "'--max-hands': 0 is not in the range"),
    (("compare", "standard", "cincinnati", "--hands", "1", "--seed", "-" + "9" * 30), 2,
     "'--seed': -" + "9" * 30 + " is not in the range"),
    (("play", "standard", "--seat", "-1"), 2, "Invalid value for --seat: seat -1 is not at this table"),
    (("play", "standard", "--seat", "nan"), 2, "Invalid value for '--seat': 'nan' is not a whole number"),
    # Paths: a folder where a file is wanted, a file where a folder is, a missing folder.
    (("simulate", "standard", "--hands", "1", "--records", "{dir}/none/x.jsonl"), 2, "Invalid value for --records"),
    (("simulate", "standard", "--hands", "1", "--plot", "{dir}/none/x.png"), 2, "Invalid value for --plot"),
    (("schema", "--write", "{file}"), 2, "Invalid value for '--write'"),
    # Output files checked before the work, every one alike (a missing folder is said, not made):
    # a name too long for the disk was found only after the whole run (--plot: the report
    # printed, then "File name too long"); -o into a missing folder after the work (status 1);
    # --save into a missing folder made it silently, and a name with no room for the
    # session file beside it failed at the first save.
    (("simulate", "standard", "--hands", "1", "--plot", f"{{dir}}/{LONG}.png"), 2,
     f"Invalid value for --plot: cannot write {{dir}}/{LONG}.png: File name too long"),
    (("compare", "standard", "standard", "--hands", "1", "--plot", f"{{dir}}/{LONG}.svg"), 2,
     f"Invalid value for --plot: cannot write {{dir}}/{LONG}.svg: File name too long"),
    (("simulate", "standard", "--games", "1", "--records", "{dir}/none/{game}.jsonl"), 2,
     "Invalid value for --records: cannot write {dir}/none/{game}.jsonl ({dir}/none/0.jsonl): folder {dir}/none "
     "does not exist"),
    (("convert", "--to", "whist", "{file}", "-o", "{dir}/none/x.whist"), 2,
     "Invalid value for --output: cannot write {dir}/none/x.whist: folder {dir}/none does not exist"),
    (("import", PTN, "-o", "{dir}/none/x.jsonl"), 2,
     "Invalid value for --output: cannot write {dir}/none/x.jsonl: folder {dir}/none does not exist"),
    (("play", "standard", "--save", "{dir}/none/x.jsonl"), 2,
     "Invalid value for --save: cannot write {dir}/none/x.jsonl: folder {dir}/none does not exist"),
    # A control character in the name is escaped, as in every message quoting the user's text.
    (("play", "standard", "--save", "{dir}/no\x07ne/x.jsonl"), 2,
     "Invalid value for --save: cannot write {dir}/no\\x07ne/x.jsonl: folder {dir}/no\\x07ne does not exist"),
    (("play", "standard", "--save", f"{{dir}}/{LONG[:240]}.jsonl"), 2,
     f"Invalid value for --save: cannot write {{dir}}/{LONG[:240]}.jsonl.session.json beside"),
    (("schema", "--write", "/dev/null"), 2, "Invalid value for DIR: /dev/null: not a folder"),  # was "File exists"
    (("compile", "{dir}"), 2, "Invalid value for VARIANT: {dir}: not a regular file"),
    (("play", "standard", "--save", "{dir}"), 2, "Invalid value for '--save'"),
    (("play", "standard", "--save", "{dir}/x.txt"), 2, "Invalid value for --save: {dir}/x.txt: a game record's name"),
    # More house rules than a record may name (records.md: 32): a game was played and its records
    # and save written, which replay and --resume then refused.
    (("simulate", "standard", "--hands", "1", *[a for i in range(33) for a in ("--with", f"r{i}")]), 2,
     "Invalid value for --with: 33 house rules laid over one variant; at most 32"),
    (("rules", "standard" + "".join(f"+r{i}" for i in range(33))), 2,
     "Invalid value for VARIANT: 33 house rules laid over one variant; at most 32"),
    # A --set longer than any change: was quoted whole in its message (up to 128 KB).
    (("rules", "standard", "--set", "deal.hand=" + "9" * 5000), 2,
     "Invalid value for '--set': 'deal.hand=99999999999999999999999999999999999999999999999999...' (5010 "
     "characters): at most 4,096 characters in one change (write a longer one as a house rule)"),
    # Unknown names.
    (("rules", "nosuch"), 2, "Invalid value for VARIANT: unknown variant 'nosuch'"),
    # A name longer than a file name may be: was "bidwhist: cannot write NAME: File name too long", exit 1.
    (("rules", "standard+" + "x" * 300), 2, "Invalid value for VARIANT: unknown house rule 'xxxx"),
    (("check", "s" * 300), 2, "Invalid value for FILES: unknown variant 'ssss"),
    # A name in capitals: was "unknown variant 'STANDARD' (shipped: ...)", no suggestion.
    (("rules", "STANDARD+TO-5"), 2, "unknown variant 'STANDARD' (did you mean 'standard'?)"),
    (("rules", "standard+TO-5"), 2, "unknown house rule 'TO-5' (did you mean 'to-5'?)"),
    (("simulate", "standard", "--hands", "1", "--with", "nosuch"), 2, "Invalid value for --with: unknown house rule"),
    (("simulate", "standard", "--hands", "1", "--backend", "nosuch"), 2, "Invalid value for '--backend'"),
    (("convert", "--to", "nosuch", "{file}"), 2, "Invalid value for '--to'"),
]


def _filled(text: str, folder: Path) -> str:
    return text.replace("{dir}", str(folder)).replace("{file}", str(folder / "standard.yaml"))


@pytest.mark.parametrize("args, status, words", CASES, ids=[" ".join(c[0]) or "''" for c in CASES])
def test_bad_command_lines_are_refused_naming_the_option(tmp_path, args, status, words):
    shutil.copy(STANDARD, tmp_path / "standard.yaml")
    before = sorted(p.name for p in tmp_path.iterdir())
    result = run(*(_filled(a, tmp_path) for a in args))
    assert result.exit_code == status, result.stderr
    assert _filled(words, tmp_path) in " ".join(result.stderr.split())
    assert result.stdout == ""
    # Nothing written, and FILE itself untouched.
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert (tmp_path / "standard.yaml").read_bytes() == STANDARD.read_bytes()


def test_the_max_hands_default_is_the_engines():
    # --max-hands's default is written out in cli/simulate.py so that its --help needs no engine.
    from runtime.simulate import MAX_HANDS

    assert DEFAULT_GAME_HANDS == MAX_HANDS


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_help_ends_with_examples_of_its_own_options(name):
    """`bidwhist NAME --help` shows how the command is called, with options it has."""
    import click

    from bidcompiler.cli import cli

    result = run(name, "--help")
    assert result.exit_code == 0
    assert "Examples:\n" in result.stdout, result.stdout
    shown = [line.strip() for line in result.stdout.split("Examples:\n", 1)[1].splitlines() if line.strip()]
    assert shown and all(f"{line} ".startswith(f"bidwhist {name} ") for line in shown), shown
    options = {o for p in cli.get_command(click.Context(cli), name).params for o in p.opts}
    for line in shown:
        used = {word for word in line.split() if word.startswith("-")}
        assert used <= options, (line, used - options)


def test_import_output_help_names_its_own_metavar():
    """`-o, --output FILE  Write the records to OUT` named a placeholder the line does not show."""
    said = " ".join(run("import", "--help").stdout.split())
    assert "-o, --output FILE Write the records to FILE (default: stdout)." in said


def test_convert_of_a_shipped_name_points_at_its_file(tmp_path, monkeypatch):
    """`convert min-bid-4` (no such file here) names the shipped file to convert; other names as before."""
    monkeypatch.chdir(tmp_path)
    path = shipped_files()["min-bid-4"]
    result = run("convert", "min-bid-4", "--to", "whist")
    assert result.exit_code == 2 and result.stdout == ""
    assert (f"File 'min-bid-4' does not exist: 'min-bid-4' is a shipped name; its file is {path}."
            in " ".join(result.stderr.split()))
    result = run("convert", "nosuch.yaml", "--to", "whist")
    assert result.exit_code == 2 and "File 'nosuch.yaml' does not exist." in result.stderr
    assert run("convert", str(path), "--to", "whist").stdout.startswith("house-rule min-bid-4\n")


def test_simulate_records_help_says_it_is_not_for_set():
    """--records with --set is refused (exit 2); its help says so before a user finds out."""
    said = " ".join(run("simulate", "--help").stdout.split())
    assert "a game record. Not with --set (a record names its house rules, not one-off settings)." in said
    refused = run("simulate", "standard", "--hands", "1", "--set", "auction.levels.from=4", "--records", "x.jsonl")
    assert refused.exit_code == 2 and "--records cannot be combined with --set" in refused.stderr


def test_import_does_not_write_over_the_file_it_reads(tmp_path):
    """`import game.ptn -o game.ptn` replaced the PTN with its records (convert refuses the same)."""
    ptn = tmp_path / "game.ptn"
    shutil.copy(Path(__file__).parent / "data" / "trickster" / "suit-contract.ptn", ptn)
    before = ptn.read_bytes()
    result = run("import", str(ptn), "-o", str(tmp_path / "." / "game.ptn"))
    assert result.exit_code == 2 and result.stdout == ""
    assert "Invalid value for --output:" in result.stderr and "is FILE itself" in result.stderr
    assert ptn.read_bytes() == before


def test_import_of_a_missing_file_with_an_output_already_there_says_it_cannot_read(tmp_path):
    """The check above asked samefile of a missing FILE: "cannot write missing.ptn", status 1."""
    out = tmp_path / "out.jsonl"
    out.write_text("")
    result = run("import", str(tmp_path / "missing.ptn"), "-o", str(out))
    assert result.exit_code == 2 and "missing.ptn: cannot read: No such file" in result.stderr
    assert "cannot write" not in result.stderr


def test_simulate_records_named_as_a_shipped_variant_are_not_that_variant(tmp_path, monkeypatch):
    """`--records standard` over an old file named `standard` here: the variant is the shipped
    standard, not that file (was refused as "the variant file standard")."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "standard").write_text("")
    result = run("simulate", "standard", "--hands", "1", "--bots", "random", "--records", "standard")
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "standard").read_text().startswith("{")


@pytest.mark.parametrize("command", ["replay", "analyze"])
def test_a_folder_or_device_as_file_is_one_line_and_status_2(tmp_path, command):
    # records.md: a file that is not a record "exits with status 2 and one line on stderr";
    # a folder printed click's four lines of usage (a missing file was already one line).
    for path, problem in ((tmp_path, "not a regular file (a directory)"), ("/dev/null", "not a regular file")):
        result = run(command, str(path))
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr.splitlines() == [f"{path}: {problem}"], result.stderr
