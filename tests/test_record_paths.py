"""records.md: a record is untrusted input; the files it names are kept to its folder.

A path in a record may not be absolute, has no ``..`` part, does not resolve
(following links) outside the record's folder, and names a regular file of at most
1 MiB; every refused path exits with status 1 at ``variant`` or ``with[i]``, and
nothing read from a file a record names is ever quoted.  Writers (``simulate
--records``, ``play --save``) name files relative to the record's folder, so a
record replays from any working directory.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from bidcompiler.recordnames import MAX_BYTES, record_name
from tests.clirun import BIDWHIST, HANG_GUARD_S, run

REPO = Path(__file__).resolve().parent.parent
STANDARD_YAML = REPO / "variants" / "standard.yaml"
SECRET = "s3cr3t-hunter2-do-not-print"  # a valid name too: the compiler would quote it

# A legal hand of the standard game (seat 0 deals; seat 1 bids 4 notrump and takes all).
HAND = {
    "format": "bidwhist-hand/1", "variant": "standard", "with": [], "dealer": 0,
    "hands": [], "kitty": [], "auction": [],
}


def simulated_record(tmp_path: Path, variant: str = "standard") -> dict:
    """One complete hand record of ``variant``, written by `simulate --records`."""
    out = tmp_path / "sim.jsonl"
    assert run("simulate", variant, "--hands", "1", "--seed", "5", "--records", str(out)).exit_code == 0
    record = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    out.unlink()
    return record


@pytest.fixture(scope="module")
def legal(tmp_path_factory) -> dict:
    """A legal standard hand record to name other variants and house rules in."""
    return simulated_record(tmp_path_factory.mktemp("legal"))


def write(folder: Path, record: dict, name: str = "hand.json") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def replay_subprocess(path: Path, *extra: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """`bidwhist replay` as a separate process: a FIFO that blocked would hang it, not the tests.

    The timeout is a safety net only: the command must never wait on the FIFO.
    """
    assert BIDWHIST, "the bidwhist console script is not installed"
    return subprocess.run([BIDWHIST, "replay", str(path), *extra],
                          capture_output=True, text=True, timeout=HANG_GUARD_S, cwd=cwd or path.parent)


def assert_refused(path: Path, at: str, rule: str, secret: str | None = SECRET) -> None:
    """Refused with exit 1 at ``at``, the message naming ``rule``; ``secret`` nowhere, text or JSON."""
    out = run("replay", str(path), "--json")
    assert out.exit_code == 1, out.stdout + out.stderr
    error = json.loads(out.stdout)["error"]
    assert error["at"] == at, error
    assert rule in error["message"], error
    text = run("replay", str(path))
    assert text.exit_code == 1 and text.stdout == ""
    # A game record's line says the hand for people: `FILE:1: hand 1, variant: …`.
    hand, _, field = at.rpartition(".")
    place = f"hand {int(hand[5:-1]) + 1}, {field}" if hand else at
    assert f" {place}: " in text.stderr and rule in text.stderr
    for result in (out, text):
        if secret is not None:
            assert secret not in result.stdout + result.stderr


# --------------------------------------------------------------------------- refused, one per rule
def test_an_absolute_path_is_refused_and_the_environment_never_printed(tmp_path, monkeypatch):
    monkeypatch.setenv("BIDWHIST_TEST_SECRET", SECRET)
    path = write(tmp_path, dict(HAND, variant="/proc/self/environ"))
    assert_refused(path, "variant", "is an absolute path")
    # The same file as a house rule: at its index in `with`.
    path = write(tmp_path, dict(HAND, **{"with": ["min-bid-4", "/proc/self/environ"]}))
    assert_refused(path, "with[1]", "is an absolute path")


def test_etc_passwd_is_refused_without_a_line_of_it(tmp_path):
    passwd = Path("/etc/passwd").read_text(encoding="utf-8", errors="replace").splitlines()
    path = write(tmp_path, dict(HAND, variant="/etc/passwd"))
    assert_refused(path, "variant", "is an absolute path")
    out = run("replay", str(path)).stderr + run("replay", str(path), "--json").stdout
    assert not [line for line in passwd if line.strip() and line in out]


def test_a_dotdot_part_is_refused_even_when_the_file_exists(tmp_path):
    (tmp_path / "x.yaml").write_text(f"# {SECRET}\n", encoding="utf-8")
    path = write(tmp_path / "records", dict(HAND, variant="../x.yaml"))
    assert_refused(path, "variant", "has a `..` part")
    # A `..` that would come back inside is refused too: the rule is on the name.
    (tmp_path / "records" / "y.yaml").write_text(f"# {SECRET}\n", encoding="utf-8")
    path = write(tmp_path / "records", dict(HAND, **{"with": ["sub/../y.yaml"]}))
    assert_refused(path, "with[0]", "has a `..` part")


def test_a_link_leading_outside_the_folder_is_refused(tmp_path):
    outside = tmp_path / "outside.yaml"
    outside.write_text(f"name: {SECRET}\n", encoding="utf-8")
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "link.yaml").symlink_to(outside)
    path = write(folder, dict(HAND, variant="link.yaml"))
    assert_refused(path, "variant", "leads outside the record's folder")
    # A link to a file that does not exist outside says the same: nothing is learnt of the outside.
    (folder / "dangling.yaml").symlink_to(tmp_path / "no-such.yaml")
    path = write(folder, dict(HAND, variant="dangling.yaml"))
    assert_refused(path, "variant", "leads outside the record's folder")
    # A linked folder leading out is the same.
    (folder / "sub").symlink_to(tmp_path)
    path = write(folder, dict(HAND, **{"with": ["sub/outside.yaml"]}))
    assert_refused(path, "with[0]", "leads outside the record's folder")


def test_a_fifo_is_refused_without_blocking(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    os.mkfifo(tmp_path / "fifo.yaml")
    path = write(tmp_path, dict(HAND, variant="fifo.yaml"))
    for extra in ((), ("--json",)):
        proc = replay_subprocess(path, *extra)
        assert proc.returncode == 1, proc.stdout + proc.stderr
        assert "is not a regular file" in proc.stdout + proc.stderr
    assert json.loads(replay_subprocess(path, "--json").stdout)["error"]["at"] == "variant"


def test_a_directory_is_refused(tmp_path):
    (tmp_path / "dir.yaml").mkdir()
    path = write(tmp_path, dict(HAND, variant="dir.yaml"))
    assert_refused(path, "variant", "is not a regular file")
    path = write(tmp_path, dict(HAND, **{"with": ["./"]}))
    assert_refused(path, "with[0]", "is not a regular file")


def test_a_file_larger_than_one_mib_is_refused(tmp_path):
    big = tmp_path / "big.yaml"
    line = f"# {SECRET}\n".encode()
    big.write_bytes((line * (2 * MAX_BYTES // len(line) + 1))[:2 * MAX_BYTES])
    assert big.stat().st_size == 2 * MAX_BYTES
    path = write(tmp_path, dict(HAND, variant="big.yaml"))
    assert_refused(path, "variant", "is larger than 1 MiB")
    path = write(tmp_path, dict(HAND, **{"with": ["big.yaml"]}))
    assert_refused(path, "with[0]", "is larger than 1 MiB")


def test_exactly_one_mib_is_read(tmp_path, legal):
    """At most 1 MiB is allowed: a valid house rule padded with a comment to exactly 1 MiB."""
    text = "kind: house-rule\nname: pad\ndescription: padded\n"
    rule = tmp_path / "pad.yaml"
    rule.write_text(text + "#" * (MAX_BYTES - len(text) - 1) + "\n", encoding="utf-8")
    assert rule.stat().st_size == MAX_BYTES
    assert run("replay", str(write(tmp_path, dict(legal, **{"with": ["pad.yaml"]}))), "--json").exit_code == 0


def test_a_missing_file_is_refused(tmp_path):
    path = write(tmp_path, dict(HAND, variant="nope.yaml"))
    assert_refused(path, "variant", "no such file")
    path = write(tmp_path, dict(HAND, **{"with": ["min-bid-4", "rules/nope.whist"]}))
    assert_refused(path, "with[1]", "no such file")


def test_a_lone_surrogate_in_a_path_is_refused_not_a_crash(tmp_path):
    """JSON's ``"\\ud800"`` is a string no file name is: it was an internal error (exit 70)
    when the system was asked for it; now a refused path, at its entry, as every other."""
    path = write(tmp_path, dict(HAND, variant="rules/\ud800.yaml"))
    assert_refused(path, "variant", "lone surrogate")
    path = write(tmp_path, dict(HAND, **{"with": ["min-bid-4", "\udcff.yaml"]}))
    assert_refused(path, "with[1]", "lone surrogate")
    assert run("analyze", str(path)).exit_code == 1
    # In what a named variant file extends: the file itself is refused where it is read (no
    # value of a variant file may hold a lone surrogate), at the escape, its content not quoted.
    (tmp_path / "mine.yaml").write_text('name: mine\nkind: variant\nextends: "a\\ud800.yaml"\n', encoding="utf-8")
    assert_refused(write(tmp_path, dict(HAND, variant="mine.yaml")), "variant",
                   "cannot be read as YAML (line 3, column 10)", secret=None)
    checked = run("check", str(tmp_path / "mine.yaml"))
    assert checked.exit_code == 1 and "lone surrogate" in checked.stdout + checked.stderr


def test_windows_style_paths_are_refused_even_where_such_a_file_exists(tmp_path):
    """docs/records.md (decision): a record's paths use `/`; a backslash, or a drive (`C:`), would
    name another file (or one outside the folder) on Windows, so a mailed record means one thing."""
    shutil.copy(STANDARD_YAML, tmp_path / "rules\\mine.yaml")   # one file of that name here
    (tmp_path / "C:").mkdir()
    shutil.copy(STANDARD_YAML, tmp_path / "C:" / "mine.yaml")
    assert_refused(write(tmp_path, dict(HAND, variant="rules\\mine.yaml")), "variant", "holds a backslash")
    assert_refused(write(tmp_path, dict(HAND, **{"with": ["..\\..\\x.yaml"]})), "with[0]", "holds a backslash")
    for name in ("C:/mine.yaml", "C:\\mine.yaml", "c:mine.yaml"):
        assert_refused(write(tmp_path, dict(HAND, variant=name)), "variant", "names a drive")


def test_a_name_with_plus_is_not_split(tmp_path):
    """`standard+/etc/passwd` is one name (a path inside a folder `standard+`), not a variant and
    a house rule: /etc/passwd is never read."""
    path = write(tmp_path, dict(HAND, variant="standard+/etc/passwd"))
    assert_refused(path, "variant", "no such file")
    out = run("replay", str(write(tmp_path, dict(HAND, variant="standard+min-bid-4"))), "--json")
    assert out.exit_code == 1 and "in `with`" in json.loads(out.stdout)["error"]["message"]


@pytest.mark.parametrize("field, name, kept", [
    ("variant", "y" * 100, "unknown variant"),            # a shipped name: none such
    ("variant", "y" * 100 + ".yaml", "no such file"),     # a path
    ("with", "/" + "z" * 100, "is an absolute path"),
])
def test_a_long_name_is_quoted_to_40_characters(tmp_path, field, name, kept):
    """docs/records.md: "A message quotes at most 40 characters of a value from the record";
    a variant or house-rule name was quoted to the compiler's 60."""
    value = [name] if field == "with" else name
    out = run("replay", str(write(tmp_path, dict(HAND, **{field: value}))), "--json")
    assert out.exit_code == 1, out.stdout + out.stderr
    message = json.loads(out.stdout)["error"]["message"]
    assert kept in message and f"'{name[:40]}...' ({len(name)} characters)" in message, message
    assert name[:41] not in message


def test_a_bare_name_is_only_ever_a_shipped_name(tmp_path, monkeypatch):
    """A name without `/` or extension is a shipped name: a file of that name, here or in the
    working directory, is never read."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine").write_text(STANDARD_YAML.read_text(encoding="utf-8"), encoding="utf-8")
    out = run("replay", str(write(tmp_path, dict(HAND, variant="mine"))), "--json")
    assert out.exit_code == 1 and "unknown variant 'mine'" in json.loads(out.stdout)["error"]["message"]


def test_a_game_record_says_which_hand(tmp_path, legal):
    path = tmp_path / "game.jsonl"
    path.write_text(json.dumps(dict(legal, variant="/etc/passwd")) + "\n", encoding="utf-8")
    assert_refused(path, "hand[0].variant", "is an absolute path")


# --------------------------------------------------------------------------- never quoted
@pytest.mark.parametrize("name, text, kind", [
    ("unknown.yaml", f"name: x\ntitle: t\nextends: standard\n{SECRET}: 4\n", "does not fit the variant schema"),
    ("value.yaml", f"name: x\ntitle: t\nextends: standard\nplayers: {SECRET}\n", "does not fit the variant schema"),
    ("syntax.yaml", f"name: [x, {SECRET}\n", "cannot be read as YAML"),
    ("syntax.whist", f"variant x\n{SECRET} {{ ]\n", "cannot be read as .whist"),
    ("notutf8.yaml", f"name: {SECRET}\n".encode() + b"\xff\n", "is not UTF-8 text"),
    ("list.yaml", f"- {SECRET}\n", "no mapping of settings"),
    ("build.yaml", f"name: x\ntitle: t\nextends: standard\nauction:\n  ranking: [[{SECRET}]]\n",
     "does not make a valid variant"),
])
def test_a_file_that_does_not_compile_is_never_quoted(tmp_path, name, text, kind):
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    (tmp_path / name).write_bytes(data)
    path = write(tmp_path, dict(HAND, variant=name))
    assert_refused(path, "variant", kind)
    # A message still says where, by line (and column) of the file.
    message = json.loads(run("replay", str(path), "--json").stdout)["error"]["message"]
    assert f"'{name}'" in message
    if kind != "no mapping of settings":
        assert "line " in message
    # The user's own path on the command line is not limited: `check` shows what the record hides.
    if name in ("unknown.yaml", "value.yaml", "build.yaml"):
        assert SECRET in run("check", str(tmp_path / name)).stderr


def test_a_house_rule_file_that_does_not_fit_is_not_quoted(tmp_path):
    (tmp_path / "rule.yaml").write_text(f"kind: house-rule\nname: r\ndescription: d\nplayers: {SECRET}\n",
                                        encoding="utf-8")
    path = write(tmp_path, dict(HAND, **{"with": ["min-bid-4", "rule.yaml"]}))
    assert_refused(path, "with[1]", "does not fit the variant schema")
    # One that loads but does not make a variant with what it is laid on: blamed at its index too.
    (tmp_path / "rule.yaml").write_text(f"kind: house-rule\nname: r\ndescription: d\nauction:\n"
                                        f"  ranking: [[{SECRET}]]\n", encoding="utf-8")
    assert_refused(path, "with[1]", "does not make a valid variant")


def test_a_variant_named_as_a_house_rule_and_back(tmp_path):
    (tmp_path / "rule.whist").write_text(f'house-rule r\ndescription "{SECRET}"\ngame {{ win = score >= 5 }}\n',
                                         encoding="utf-8")
    assert_refused(write(tmp_path, dict(HAND, variant="rule.whist")), "variant", "is a house rule, not a variant")
    shutil.copy(STANDARD_YAML, tmp_path / "v.yaml")
    assert_refused(write(tmp_path, dict(HAND, **{"with": ["v.yaml"]})), "with[0]", "is a variant, not a house rule",
                   secret=None)


# --------------------------------------------------------------------------- extends
def _extending(folder: Path, target: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "v.yaml").write_text(f"name: v\ntitle: v\nextends: {target}\n", encoding="utf-8")


def test_what_a_named_file_extends_keeps_to_the_folder(tmp_path, legal):
    """A file a record names may extend a shipped variant or a file inside the record's folder
    (relative to the extending file); other targets are refused by the same rules, at
    `variant`, and the target's name (read from the file) is not quoted."""
    folder = tmp_path / "records"
    base = folder / "base" / "b.yaml"
    base.parent.mkdir(parents=True)
    base.write_text(f"name: b\ntitle: b\nextends: standard\n# {SECRET}\n", encoding="utf-8")
    _extending(folder, "base/b.yaml")
    assert run("replay", str(write(folder, dict(legal, variant="v.yaml"))), "--json").exit_code == 0
    _extending(folder, "standard")
    assert run("replay", str(write(folder, dict(legal, variant="v.yaml"))), "--json").exit_code == 0
    secret_file = tmp_path / f"{SECRET}.yaml"
    secret_file.write_text("name: s\ntitle: s\nextends: standard\n", encoding="utf-8")
    (folder / "out.yaml").symlink_to(secret_file)
    for target, rule in ((str(secret_file), "is an absolute path"), (f"../{SECRET}.yaml", "has a `..` part"),
                         ("out.yaml", "leads outside the record's folder"), ("nope.yaml", "no such file"),
                         (SECRET, "extends no shipped variant")):
        _extending(folder, target)
        path = write(folder, dict(legal, variant="v.yaml"))
        assert_refused(path, "variant", rule)
        assert "line 3" in json.loads(run("replay", str(path), "--json").stdout)["error"]["message"]
    # A file it extends that does not compile is not quoted either.
    base.write_text(f"name: b\ntitle: b\nextends: standard\nplayers: {SECRET}\n", encoding="utf-8")
    _extending(folder, "base/b.yaml")
    assert_refused(write(folder, dict(legal, variant="v.yaml")), "variant", "does not fit the variant schema")


# --------------------------------------------------------------------------- accepted
def test_files_beside_the_record_and_in_a_subfolder_are_read(tmp_path, legal):
    shutil.copy(STANDARD_YAML, tmp_path / "mine.yaml")
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "to5.whist").write_text('house-rule to5\ndescription "to 5"\ngame { win = score >= 5 }\n',
                                                  encoding="utf-8")
    (tmp_path / "sub").mkdir()
    shutil.copy(STANDARD_YAML, tmp_path / "sub" / "deep.yaml")
    (tmp_path / "inside-link.yaml").symlink_to(tmp_path / "sub" / "deep.yaml")
    expected = json.loads(run("replay", str(write(tmp_path, legal, "plain.json")), "--json").stdout)
    assert expected["error"] is None
    for variant, with_rules in (("mine.yaml", []), ("sub/deep.yaml", []), ("./mine.yaml", ["rules/to5.whist"]),
                                ("inside-link.yaml", []), ("standard", ["all-pass-redeal"]),
                                ("standard", ["rules/to5.whist", "all-pass-redeal"])):
        out = run("replay", str(write(tmp_path, dict(legal, variant=variant, **{"with": with_rules}))), "--json")
        assert out.exit_code == 0, (variant, with_rules, out.stdout)
        if with_rules == [] or with_rules == ["rules/to5.whist"]:
            assert json.loads(out.stdout) == expected


def test_paths_are_relative_to_the_record_not_the_working_directory(tmp_path, legal, monkeypatch):
    folder = tmp_path / "records"
    folder.mkdir()
    shutil.copy(STANDARD_YAML, folder / "mine.yaml")
    path = write(folder, dict(legal, variant="mine.yaml"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert run("replay", str(path), "--json").exit_code == 0
    assert run("replay", os.path.relpath(path), "--json").exit_code == 0
    assert run("analyze", str(path), "--json").exit_code == 0
    assert run("replay", "--each", str(path), "--json").exit_code == 0
    # A file of that name in the working directory is not what the record names.
    (folder / "mine.yaml").unlink()
    shutil.copy(STANDARD_YAML, elsewhere / "mine.yaml")
    assert_refused(path, "variant", "no such file", secret=None)


def test_analyze_refuses_as_replay_does(tmp_path):
    path = write(tmp_path, dict(HAND, variant="/etc/passwd"))
    out = run("analyze", str(path), "--json")
    assert out.exit_code == 1 and json.loads(out.stdout)["error"]["at"] == "variant"


def test_command_line_paths_are_not_limited(tmp_path):
    """The user's own paths (absolute, with `..`) work on the command line as before."""
    shutil.copy(STANDARD_YAML, tmp_path / "mine.yaml")
    sub = tmp_path / "sub"
    sub.mkdir()
    assert run("check", str(tmp_path / "mine.yaml")).exit_code == 0
    assert run("simulate", str(sub / ".." / "mine.yaml"), "--hands", "1", "--seed", "1").exit_code == 0


# --------------------------------------------------------------------------- writers
def test_record_name_is_relative_to_the_record(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert record_name("standard", "out/g.jsonl") == ("standard", True)
    assert record_name("out/mine.whist", "out/g.jsonl") == ("mine.whist", True)
    assert record_name(str(tmp_path / "out" / "r" / "m.yaml"), "out/g.jsonl") == ("r/m.yaml", True)
    assert record_name("out/mine", "out/g.jsonl") == ("./mine", True)   # read back as a path, not a name
    assert record_name("mine.whist", "out/g.jsonl") == ("../mine.whist", False)


def test_a_file_typed_through_a_link_into_the_folder_is_named_inside_it(tmp_path, monkeypatch):
    """records.md: "whatever writes a record writes its paths that way" (relative to its folder).
    `simulate lnk/mine.yaml --records out/h.jsonl`, lnk leading to out: the record said
    `../lnk/mine.yaml`, which replay refuses (a `..` part), and the writer warned of a file
    outside the folder though it is inside."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out").mkdir()
    shutil.copy(STANDARD_YAML, tmp_path / "out" / "mine.yaml")
    (tmp_path / "lnk").symlink_to("out")
    assert record_name("lnk/mine.yaml", "out/h.jsonl") == ("mine.yaml", True)
    result = run("simulate", "lnk/mine.yaml", "--hands", "1", "--seed", "5", "--records", "out/h.jsonl")
    assert result.exit_code == 0 and "not inside the folder" not in result.stderr, result.stderr
    assert json.loads((tmp_path / "out" / "h.jsonl").read_text(encoding="utf-8"))["variant"] == "mine.yaml"
    assert run("replay", "--each", "out/h.jsonl", "--json").exit_code == 0


def test_a_simulated_game_record_replays_from_another_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "mine.whist").write_text('house-rule mine\ndescription "to 5"\ngame { win = score >= 5 }\n',
                                    encoding="utf-8")
    result = run("simulate", "standard+out/mine.whist", "--games", "2", "--seed", "4", "--records", "out/g-{game}.jsonl")
    assert result.exit_code == 0, result.stderr
    assert "note:" not in result.stderr
    first = json.loads((out / "g-0.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert first["variant"] == "standard" and first["with"] == ["mine.whist"]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    for game in (0, 1):
        replayed = run("replay", str(out / f"g-{game}.jsonl"), "--json")
        assert replayed.exit_code == 0, replayed.stdout
        assert json.loads(replayed.stdout)["winner"] is not None


def test_a_file_outside_the_records_folder_is_warned_about(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out").mkdir()
    (tmp_path / "mine.whist").write_text('house-rule mine\ndescription "to 5"\ngame { win = score >= 5 }\n',
                                         encoding="utf-8")
    result = run("simulate", "standard+mine.whist", "--games", "1", "--seed", "4", "--records", "out/g.jsonl")
    assert result.exit_code == 0
    assert "note: mine.whist is not inside the folder of out/g.jsonl" in result.stderr
    assert "will refuse the record" in result.stderr
    record = json.loads((tmp_path / "out" / "g.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert record["with"] == ["../mine.whist"]
    assert_refused(tmp_path / "out" / "g.jsonl", "hand[0].with[0]", "has a `..` part", secret=None)


def test_a_file_whose_name_replay_refuses_is_warned_about(tmp_path, monkeypatch):
    """A file inside the folder named with a backslash is written as such, and replay refuses it
    (docs/records.md): the writer says so, as it does of a file outside the folder."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "my\\rule.whist").write_text(
        'house-rule mine\ndescription "to 5"\ngame { win = score >= 5 }\n', encoding="utf-8")
    result = run("simulate", "standard", "--with", "out/my\\rule.whist", "--games", "1", "--seed", "4",
                 "--records", "out/g.jsonl")
    assert result.exit_code == 0, result.stderr
    assert "cannot be named in a record" in result.stderr and "not inside the folder" not in result.stderr
    assert_refused(tmp_path / "out" / "g.jsonl", "hand[0].with[0]", "holds a backslash", secret=None)


def test_a_save_naming_a_file_whose_name_is_not_utf8_still_resumes(tmp_path):
    """A record's paths are UTF-8 text (docs/records.md), but a save is resumed by its own player:
    a house rule file named with a byte that is not UTF-8 (Python's ``\\udcff``) was played and
    saved, then --resume refused the save ("lone surrogate"), and the game in progress was lost."""
    def play(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([BIDWHIST, "play", *args, "--fast"], input="quit\n", capture_output=True, text=True,
                              timeout=HANG_GUARD_S, cwd=tmp_path, errors="backslashreplace")

    assert BIDWHIST
    (tmp_path / os.fsdecode(b"to5\xff.whist")).write_text(
        'house-rule to5\ndescription "to 5"\ngame { win = score >= 5 }\n', encoding="utf-8")
    played = play("standard", "--with", os.fsdecode(b"to5\xff.whist"), "--seed", "2", "--save", "g.jsonl")
    assert played.returncode == 0, played.stderr
    assert "cannot be named in a record" in played.stderr  # replay will refuse it: said when written
    resumed = play("--resume", "g.jsonl")
    assert resumed.returncode == 0, resumed.stderr
    # A lone surrogate that is no byte of a file name is refused there too (not an internal error).
    sidecar = json.loads((tmp_path / "g.jsonl.session.json").read_text(encoding="utf-8"))
    sidecar["with"] = ["to5\ud800.whist"]
    (tmp_path / "g.jsonl.session.json").write_text(json.dumps(sidecar), encoding="utf-8")
    refused = run("play", "--resume", str(tmp_path / "g.jsonl"), "--fast")
    assert refused.exit_code == 1 and "lone surrogate" in refused.stderr, refused.stderr


def test_a_played_game_is_saved_with_relative_names_and_resumes_from_anywhere(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    saves = tmp_path / "saves"
    saves.mkdir()
    shutil.copy(STANDARD_YAML, saves / "mine.yaml")
    (saves / "to5.whist").write_text('house-rule to5\ndescription "to 5"\ngame { win = score >= 5 }\n',
                                     encoding="utf-8")
    result = run("play", "saves/mine.yaml", "--with", "saves/to5.whist", "--seed", "2", "--fast",
                 "--save", "saves/g.jsonl")
    assert result.exit_code == 0, result.stderr
    sidecar = json.loads((saves / "g.jsonl.session.json").read_text(encoding="utf-8"))
    assert (sidecar["variant"], sidecar["with"]) == ("mine.yaml", ["to5.whist"])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    resumed = run("play", "--resume", str(saves / "g.jsonl"), "--fast")
    assert resumed.exit_code == 0, resumed.stderr
    # A save that names a file which is no variant exits 1, saying where, quoting nothing of it.
    sidecar["with"] = ["/etc/passwd"]
    (saves / "g.jsonl.session.json").write_text(json.dumps(sidecar), encoding="utf-8")
    refused = run("play", "--resume", str(saves / "g.jsonl"), "--fast")
    assert refused.exit_code == 1
    # Which of the two refusals depends on the machine's file (a scalar YAML reads as no
    # variant; other content cannot be read as YAML): either way it is placed and unquoted.
    assert "with[0]" in refused.stderr
    assert "not a variant file" in refused.stderr or "not a valid variant file" in refused.stderr
    assert "root:" not in refused.stdout + refused.stderr


def test_a_save_naming_files_outside_its_folder_still_resumes(tmp_path, monkeypatch):
    """A game in progress is never lost: play --resume continues a save whose files lie elsewhere
    (an older save names them by absolute path), while replay keeps records.md's rule."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rules").mkdir()
    shutil.copy(STANDARD_YAML, tmp_path / "rules" / "mine.yaml")
    saves = tmp_path / "saves"
    saves.mkdir()
    result = run("play", "rules/mine.yaml", "--seed", "3", "--fast", "--save", "saves/g.jsonl")
    assert result.exit_code == 0, result.stderr
    assert "not inside the folder" in result.stderr
    sidecar_file = saves / "g.jsonl.session.json"
    sidecar = json.loads(sidecar_file.read_text(encoding="utf-8"))
    assert sidecar["variant"] == "../rules/mine.yaml"
    monkeypatch.chdir(saves)
    assert run("play", "--resume", "g.jsonl", "--fast").exit_code == 0
    old_name = str(tmp_path / "rules" / "mine.yaml")  # as an older play wrote it
    sidecar["variant"] = old_name
    sidecar_file.write_text(json.dumps(sidecar), encoding="utf-8")
    lines = [{**json.loads(line), "variant": old_name} for line in (saves / "g.jsonl").read_text().splitlines()]
    (saves / "g.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    resumed = run("play", "--resume", "g.jsonl", "--fast")
    assert resumed.exit_code == 0, resumed.stderr


def test_a_path_ending_in_a_slash_names_a_folder(tmp_path, legal):
    """``mine.yaml/`` is no name of the file mine.yaml (the system reads it as a folder)."""
    shutil.copy(STANDARD_YAML, tmp_path / "mine.yaml")
    assert_refused(write(tmp_path, dict(legal, variant="mine.yaml/")), "variant", "is not a regular file", secret=None)
    assert_refused(write(tmp_path, dict(legal, **{"with": ["mine.yaml/"]})), "with[0]", "is not a regular file",
                   secret=None)
    # `mine.yaml/.` too: realpath makes it mine.yaml, where the system says "Not a directory".
    assert_refused(write(tmp_path, dict(legal, variant="mine.yaml/.")), "variant", "is not a regular file",
                   secret=None)


def test_a_record_given_through_a_link_reads_its_files_beside_it(tmp_path, legal):
    """The record's folder is the folder of the record file, a link to it followed: the
    files it names are read beside it, and nothing beside the link is in its reach."""
    mailed = tmp_path / "mailed"
    mailed.mkdir()
    shutil.copy(STANDARD_YAML, mailed / "mine.yaml")
    record = write(mailed, dict(legal, variant="mine.yaml"))
    link = tmp_path / "latest.json"
    link.symlink_to(record)
    assert run("replay", str(link), "--json").exit_code == 0
    (tmp_path / "home.yaml").write_text(STANDARD_YAML.read_text(encoding="utf-8"), encoding="utf-8")
    record.write_text(json.dumps(dict(legal, variant="home.yaml")), encoding="utf-8")
    assert_refused(link, "variant", "no such file", secret=None)


def test_a_variant_files_extends_tells_a_record_nothing_of_files_outside_its_folder(tmp_path, legal):
    """extends' check that a name is a variant file's looked the name up first: a file outside
    the folder that exists gave another message (not a valid variant) than one that does not."""
    (tmp_path / "outside").write_text("x: 1\n")
    said = []
    for target in ["../outside", "../nothere", str(tmp_path / "outside"), str(tmp_path / "nothere")]:
        folder = tmp_path / f"r{len(said)}"
        folder.mkdir()
        (folder / "v.yaml").write_text(f"name: v\nextends: {target}\n")
        out = run("replay", str(write(folder, dict(legal, variant="v.yaml"))), "--json")
        said.append(json.loads(out.stdout)["error"]["message"])
    assert said[0] == said[1] and "has a `..` part" in said[0]
    assert said[2] == said[3] and "is an absolute path" in said[2]
