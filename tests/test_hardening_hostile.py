"""A hostile tester's second pass over every command (issue 15 continued).

Each test names what used to happen.  Commands run as the installed script (``script``
checks that no traceback and no internal error appear); its subprocess timeout is only
a guard against a hang, never a time limit.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from clirun import BIDWHIST, HANG_GUARD_S, heard_as_from_a_terminal, script

FULL = "/dev/full"  # every write to it fails with ENOSPC: a full disk, on demand
needs_dev_full = pytest.mark.skipif(not os.path.exists(FULL), reason="no /dev/full on this system")


def to_full(*args: str) -> subprocess.CompletedProcess:
    """``bidwhist ARGS > /dev/full``: standard output on a full disk."""
    with open(FULL, "w") as out:
        proc = subprocess.run([BIDWHIST, *args], stdout=out, stderr=subprocess.PIPE, text=True,
                              timeout=HANG_GUARD_S)
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    assert "Exception ignored" not in proc.stderr  # the interpreter's flush at exit fails no second time
    return proc


# --------------------------------------------------------------------------- output that cannot be written
@needs_dev_full
@pytest.mark.parametrize("args", [("variants",), ("rules", "standard"), ("compile", "standard", "--json")])
def test_output_on_a_full_disk_is_one_line_and_status_1(args):
    # Was: "bidwhist: internal error: OSError: [Errno 28] No space left on device", status 70.
    proc = to_full(*args)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == ["bidwhist: cannot write the output: No space left on device"]


@needs_dev_full
def test_a_record_file_on_a_full_disk_is_named():
    # Was: internal error (status 70) from the record file's write, then again from its close.
    proc = script("simulate", "standard", "--hands", "3", "--seed", "1", "--records", FULL)
    assert proc.returncode == 1 and proc.stdout == ""
    assert f"cannot write {FULL}: No space left on device" in proc.stderr


@pytest.mark.parametrize("args", [
    ("rules", "standard"),
    ("--help",),
    ("play", "--help"),
    ("variants",),
    ("simulate", "standard", "--hands", "3", "--seed", "1", "--json"),
    ("compare", "standard", "standard", "--hands", "3", "--seed", "1"),
    ("replay", "--each", "{tmp}/hands.jsonl"),
    ("play", "standard", "--seed", "1", "--save", "{tmp}/game.jsonl"),
])
def test_a_closed_pipe_ends_quietly_with_the_status_of_sigpipe(tmp_path, args):
    # `bidwhist ... | head -1`: the reader goes away; no message, no traceback, status 141
    # (what a shell reports for a tool SIGPIPE ended).  Was status 1 with no word: click
    # ended --help and a command's own writes so, rich (play, replay, compare, variants) too.
    if args[0] == "replay":
        made = script("simulate", "standard", "--hands", "3", "--seed", "1", "--records", str(tmp_path / "hands.jsonl"))
        assert made.returncode == 0, made.stderr
    proc = subprocess.Popen([BIDWHIST, *(a.format(tmp=tmp_path) for a in args)], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # nothing will read what it writes: EPIPE on its first write
    stderr = proc.communicate(timeout=HANG_GUARD_S)[1].decode()
    assert proc.returncode == 141, stderr
    assert "Traceback" not in stderr and "rror" not in stderr and "interrupted" not in stderr


# --------------------------------------------------------------------------- --records {game:FORMAT}
@pytest.mark.parametrize("name, why", [
    ("{game:c}.jsonl", "'c' makes the game's number a character"),  # chr(0): NUL in a path; chr(47): '/'
    ("{game:/>4}.jsonl", "it gives '///0', which is not part of one file name"),
    # A mistyped field was taken as a literal file name: every game into one file named '{gam}.jsonl'.
    ("{gam}.jsonl", "{gam} is not a field a records name may hold"),
    ("{game!r}.jsonl", "{game!r} is not a field a records name may hold"),
])
def test_a_game_field_that_is_not_a_number_in_a_name_is_refused(tmp_path, name, why):
    # Was: internal error "ValueError: embedded null byte" for {game:c}; {game:/>4} wrote into folders.
    proc = script("simulate", "standard", "--games", "2", "--seed", "1", "--records", str(tmp_path / name))
    assert proc.returncode == 2 and proc.stdout == ""
    assert why in proc.stderr and "Invalid value for --records" in proc.stderr
    assert list(tmp_path.iterdir()) == []


def test_number_formats_of_the_game_field_still_work(tmp_path):
    proc = script("simulate", "standard", "--games", "2", "--seed", "1", "--records", str(tmp_path / "g{game:03x}.jsonl"))
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g000.jsonl", "g001.jsonl"]


# --------------------------------------------------------------------------- moves typed at `play`
def play_piped(tmp_path, typed: bytes, *more: str) -> subprocess.CompletedProcess:
    """``bidwhist play standard`` with ``typed`` on standard input (a pipe), then end of input."""
    save = tmp_path / "g.jsonl"
    proc = subprocess.run([BIDWHIST, "play", "standard", "--seed", "3", "--fast", "--bots", "random",
                           "--save", str(save), *more], input=typed, capture_output=True, timeout=HANG_GUARD_S)
    stderr = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in stderr and "internal error" not in stderr, stderr
    return proc


@pytest.mark.parametrize("typed", ["²", "1 ²", "9" * 4095, "9" * 4000 + " nt", "٣"],
                         ids=["superscript", "two-numbers", "4095-digits", "4000-digit-bid", "arabic-digit"])
def test_typed_numbers_that_are_not_numbers_of_the_list(tmp_path, typed):
    # Was: internal error (status 70) ending the game: int('²') raised ValueError, and the
    # 4095 digits were read whole as a list number; '٣' was taken as the list's 3rd choice.
    proc = play_piped(tmp_path, f"{typed}\nquit\n".encode())
    assert proc.returncode == 0
    out = proc.stdout.decode()
    assert "is not a call" in out
    assert "you call" not in out  # nothing was chosen for the player
    assert "Saved. Resume with" in out


def test_typed_control_characters_are_shown_escaped(tmp_path):
    # Was: the typed escape sequence echoed raw in the refusal (the terminal obeyed it).
    proc = play_piped(tmp_path, b"\x1b[2J\x07\xe2\x80\xaeAS\n3 \x1b]0;title\x07\nquit\n")
    out = proc.stdout.decode()
    assert proc.returncode == 0
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    assert "'\\x1b[2J\\x07\\u202eAS' is not a call" in out
    assert "'\\x1b]0;title\\x07' is not a strain here" in out


def test_a_huge_typed_line_is_refused_without_echoing_it(tmp_path):
    # Was: a 20 MB line was read whole and quoted whole in the refusal (20 MB on the screen).
    proc = play_piped(tmp_path, b"A" * 20_000_000 + b"\npass\nquit\n")
    out = proc.stdout.decode()
    assert proc.returncode == 0
    assert "that line is longer than 4096 characters: nothing was done; type it again" in out
    assert "you pass" in out  # the next line is read as usual
    assert len(out) < 100_000


# --------------------------------------------------------------------------- a session file with a bad field
@pytest.mark.parametrize("field, value, said", [
    ("seats", [0, 0], "seats: expected a list of the seats people play, each once, found [0, 0]"),
    ("seats", "0", "seats: expected a list of the seats people play, each once, found '0'"),  # as records quote
    ("seed", True, "seed: expected a 64-bit signed integer, found true"),
    ("seed", 2**70, "seed: expected a 64-bit signed integer, found 1180591620717411303424"),
    ("max_hands", 0, "max_hands: expected a whole number from 1 to 1,000,000, found 0"),
    ("max_hands", 10**12, "max_hands: expected a whole number from 1 to 1,000,000, found 1000000000000"),
    ("bots", 5, "bots: expected a bot's name, found 5"),
])
def test_a_session_field_play_never_writes_is_damage_named_by_field(tmp_path, field, value, said):
    # Was: max_hands 0 blamed the record ("the game was decided before this hand"), 10^12
    # and a seed of 2**70 were taken; a wrong type was "a field has the wrong type" (which
    # one?), status 2; seats [0, 0] made a hot-seat game of one seat.
    import json

    from click.testing import CliRunner
    from test_hardening_play import a_save

    from bidcompiler.cli import cli
    from runtime.session import sidecar_path

    path = a_save(tmp_path)
    side = sidecar_path(path)
    data = json.loads(side.read_text())
    data[field] = value
    side.write_text(json.dumps(data))
    before = path.read_bytes(), side.read_bytes()
    result = CliRunner().invoke(cli, ["play", "--resume", str(path)], input="quit\n")
    assert result.exit_code == 1, result.output
    assert f"{side}: {said}" in result.stderr
    assert f"The session file {side} is damaged" in result.stderr
    assert (path.read_bytes(), side.read_bytes()) == before  # nothing played, nothing written


@pytest.mark.parametrize("host", ["\x1b]0;pwned\x07evil", "h" * 5000])
def test_a_lock_naming_a_host_that_is_no_host_is_unreadable_and_not_quoted(tmp_path, host):
    # Was: the lock's host was quoted raw in the refusal: an escape sequence reached the
    # terminal, and a 5,000-character host made a page of message.
    import json

    from runtime.session import SaveLock, SaveLocked, lock_path

    save = tmp_path / "s.jsonl"
    lock_path(save).write_text(json.dumps({"pid": 1, "host": host, "since": "2026-01-01 00:00:00 +0000"}))
    with pytest.raises(SaveLocked) as refused:
        SaveLock(save).acquire()
    message = str(refused.value)
    assert host not in message and "\x1b" not in message
    assert "cannot be read" in message and "--take-over" in message


# --------------------------------------------------------------------------- JSON beyond the grammar
@pytest.mark.parametrize("text, said, column", [
    ('{"format": "bidwhist-hand/1", "dealer": ' + "9" * 5000 + "}", "a number of 5,000 digits (the limit is 4,300)", 41),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply (arrays and objects inside one another)", 100_000),
], ids=["long-number", "deep"])
def test_json_a_record_cannot_hold_is_said_in_the_readers_words(tmp_path, text, said, column):
    # Was: "Exceeds the limit (4300 digits) for integer string conversion: ... use
    # sys.set_int_max_str_digits() to increase the limit" (advice to a programmer), and
    # "maximum recursion depth exceeded while decoding a JSON array from a unicode string".
    (tmp_path / "r.json").write_text(text)
    for args in (("replay",), ("replay", "--each"), ("analyze",)):
        proc = script(*args, str(tmp_path / "r.json"))
        assert proc.returncode == 2 and proc.stdout == ""
        # Where, as docs/records.md has it (FILE:LINE:COLUMN): the number; the deepest level's first bracket.
        assert proc.stderr.strip() == f"{tmp_path / 'r.json'}:1:{column}: invalid JSON: {said}"


# --------------------------------------------------------------------------- --set is one setting
@pytest.mark.parametrize("value, shown_as", [
    ("4\ngame: {target: 1}", "\\n"), ("4\rgame: {target: 1}", "\\r"), ("4\u2028game: {target: 1}", "\\u2028"),
], ids=["LF", "CR", "LS"])
def test_a_set_value_cannot_bring_a_second_setting_on_a_new_line(value, shown_as):
    # Was: status 0, and the game went to 1 point: the value was spliced into YAML text,
    # so its second line was a setting of its own beside auction.levels.from.
    for command in (("compile", "standard", "--json"), ("simulate", "standard", "--hands", "1")):
        proc = script(*command, "--set", f"auction.levels.from={value}")
        assert proc.returncode == 2 and proc.stdout == ""
        assert f"the value holds a line break ({shown_as}); a --set value is one line" in proc.stderr
        assert "Invalid value for '--set'" in proc.stderr


def test_a_set_value_on_one_line_still_takes_lists_and_mappings():
    import json

    proc = script("compile", "standard", "--json", "--set", "auction.levels={from: 2, to: 6}  # a comment")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["auction"]["min_level"] == 2


# --------------------------------------------------------------------------- SIGTERM and worker processes
# How long processes that should have ended are waited for before they count as leaked.
LEAK_WAIT_S = 120


def descendants(pid: int) -> set[int]:
    """Every living process below ``pid`` (read from /proc: children, their children, ...)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    stat = f.read()
            except OSError:  # it ended meanwhile
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="reads processes from Linux's /proc")
@pytest.mark.parametrize("name, status", [("SIGTERM", 143), ("SIGHUP", 129), ("SIGINT", 130)])
def test_a_signal_to_simulate_ends_its_worker_processes_too(tmp_path, name, status):
    # Was: SIGTERM (and SIGHUP, until later) ended the parent on the spot; its workers,
    # started by the pool's server, waited forever for work (idle processes left behind per
    # run).  SIGINT to the parent alone (`kill -INT PID`) is Ctrl-C's interrupt: status 130.
    import signal
    import time

    # stderr to a file, not a pipe: a leaked worker holds the pipe open, and reading it would
    # wait for the worker instead of failing.
    err = open(tmp_path / "stderr", "wb")
    proc = subprocess.Popen([BIDWHIST, "simulate", "standard", "--hands", "1000000", "--workers", "2",
                             "--seed", "1", "--records", str(tmp_path / "h.jsonl")],
                            stdout=subprocess.DEVNULL, stderr=err, start_new_session=True,
                            preexec_fn=heard_as_from_a_terminal)
    err.close()
    try:
        for _ in range(HANG_GUARD_S * 10):  # until the server and both workers run (and records come)
            workers = descendants(proc.pid)
            if len(workers) >= 3 and (tmp_path / "h.jsonl").exists() and (tmp_path / "h.jsonl").stat().st_size:
                break
            time.sleep(0.1)
        assert len(workers) >= 3, "the pool never started"
        proc.send_signal(getattr(signal, name))  # to the parent alone, as `kill -NAME PID` does
        proc.wait(timeout=HANG_GUARD_S)
        stderr = (tmp_path / "stderr").read_text()
        assert proc.returncode == status
        assert "Traceback" not in stderr
        # The workers end at once when the parent ends them; a leaked one never does.  Waiting
        # is bounded to tell the two apart (the bound is far above the time ending takes).
        for _ in range(LEAK_WAIT_S * 10):
            if not any(alive(pid) for pid in workers):
                break
            time.sleep(0.1)
        assert not [pid for pid in workers if alive(pid)]
        assert (tmp_path / "h.jsonl").read_text().endswith("}\n")  # whole records, the last one too
    finally:
        for pid in [proc.pid, *descendants(proc.pid)]:
            try:
                os.kill(pid, signal.SIGKILL)  # only what this test started
            except OSError:
                pass


# --------------------------------------------------------------------------- files the system makes up
@pytest.mark.skipif(not os.path.exists("/proc/self/environ"), reason="needs Linux's /proc")
@pytest.mark.parametrize("how", ["extends", "with", "link"])
def test_a_proc_file_is_not_read_as_a_variant_and_never_quoted(tmp_path, how):
    # Was: /proc/self/environ (size 0 to stat, the environment when read) was read as a
    # variant file and its first line quoted in the error: a downloaded variant saying
    # `extends: /proc/self/environ` printed the user's environment, secrets included.
    secret = "hunter2-not-for-your-terminal"
    if how == "extends":
        (tmp_path / "v.yaml").write_text("name: v\nextends: /proc/self/environ\n")
        args = ("check", "v.yaml")
    elif how == "with":
        args = ("compile", "standard", "--with", "/proc/self/environ")
    else:
        os.symlink("/proc/self/environ", tmp_path / "env.yaml")
        args = ("rules", "env.yaml")
    proc = subprocess.run([BIDWHIST, *args], capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, "BIDWHIST_TEST_SECRET": secret}, timeout=HANG_GUARD_S)
    assert proc.returncode == 1 and proc.stdout == ""
    if how == "extends":  # not even opened: a variant file's extends reads variant files only
        assert "is neither a shipped variant nor a variant file" in proc.stderr
    else:
        assert "not a regular file (the system makes it up as it is read, as under /proc)" in proc.stderr
    assert secret not in proc.stderr and "BIDWHIST_TEST_SECRET" not in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("target", ["secret.conf", "secret", ".netrc"])
def test_extends_reads_no_file_that_is_not_named_as_a_variant_file(tmp_path, target):
    # Was: `extends: secret.conf` read the file as YAML and quoted its keys back
    # ("unknown key 'db_password'"): whoever wrote a variant file chose its extends,
    # so it could make the tool show the user's other files.
    (tmp_path / target).write_text("db_password: hunter2\napi_key: abc123\n")
    (tmp_path / "v.yaml").write_text(f"name: v\nextends: {target}\n")
    proc = script("check", str(tmp_path / "v.yaml"))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert f"v.yaml:2:10: '{target}' is neither a shipped variant nor a variant file" in proc.stderr
    assert "db_password" not in proc.stderr and "api_key" not in proc.stderr
    (tmp_path / "base.yml").write_text((tmp_path / "v.yaml").read_text().replace(f"extends: {target}", "extends: standard"))
    (tmp_path / "v.yaml").write_text("name: v\nextends: base.yml\n")
    assert script("check", str(tmp_path / "v.yaml")).returncode == 0  # a variant file's name still reads
    (tmp_path / "v.yaml").write_text("name: v\nextends: stnadard\n")
    assert "did you mean 'standard'?" in script("check", str(tmp_path / "v.yaml")).stderr  # and a misspelt name


def test_an_empty_file_is_still_an_empty_file(tmp_path):
    (tmp_path / "e.yaml").write_text("")
    proc = script("check", str(tmp_path / "e.yaml"))
    assert proc.returncode == 1
    assert f"{tmp_path / 'e.yaml'}:1:1: empty file: expected a variant" in proc.stderr


def test_a_whist_file_saved_with_a_byte_order_mark_reads_as_without(tmp_path):
    # Was: "unexpected character `\ufeff`" at 1:1 (Notepad writes one; YAML files took it).
    (tmp_path / "v.whist").write_text("\ufeffvariant v\nextends standard\ngame { target x }\n", encoding="utf-8")
    proc = script("check", str(tmp_path / "v.whist"))
    assert proc.returncode == 1
    assert f"{tmp_path / 'v.whist'}:3:15: expected an integer, found 'x'" in proc.stderr
    assert "ufeff" not in proc.stderr


def test_a_loop_of_links_is_not_called_missing(tmp_path):
    # Was: "no such file" for a name that is there: a link leading to itself.
    os.symlink("b.yaml", tmp_path / "a.yaml")
    os.symlink("a.yaml", tmp_path / "b.yaml")
    os.symlink("gone.yaml", tmp_path / "dangling.yaml")
    for args, what in ((("check", "a.yaml"), "FILES"), (("compile", "standard", "--with", "a.yaml"), "--with")):
        proc = script(*args, cwd=tmp_path)
        assert proc.returncode == 2
        assert (f"Invalid value for {what}: a.yaml: cannot read: Too many levels of symbolic links; "
                "give the path of a variant file") in proc.stderr
    proc = script("rules", "dangling.yaml", cwd=tmp_path)
    assert proc.returncode == 2
    assert "dangling.yaml: no such file (a symbolic link whose target is missing)" in proc.stderr


# --------------------------------------------------------------------------- import
def test_import_reads_a_bounded_file_and_places_bytes_that_are_not_text(tmp_path):
    # Was: the whole file read into memory whatever its size; bytes that were not UTF-8
    # were "cannot read: 'utf-8' codec can't decode byte 0xff in position 7: invalid
    # start byte", status 2 (for malformed content), with no line or column.
    (tmp_path / "bad.ptn").write_bytes(b'[Event "x"]\n[Dea\xff "N:"]\n')
    proc = script("import", str(tmp_path / "bad.ptn"))
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.strip() == f"{tmp_path / 'bad.ptn'}:2:5: not UTF-8 text (invalid start byte at byte 17)"
    with open(tmp_path / "big.ptn", "wb") as f:
        f.truncate(17 << 20)  # sparse: 17 MiB that take no room
    proc = script("import", str(tmp_path / "big.ptn"))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip() == f"{tmp_path / 'big.ptn'}: larger than 16 MiB, the most the tool reads of a PTN file"


# --------------------------------------------------------------------------- text that drives a terminal
@pytest.mark.parametrize("name, text, at", [
    ("t.yaml", 'name: t\nextends: standard\ntitle: "Evil \\e]0;pwned\\a \\e[2J"\n', "3:8: title"),
    ("t.whist", 'variant t\nextends standard\ntitle "a\\u202eb"\n', "3:7: title"),
    ("d.yaml", 'name: d\nkind: house-rule\ndescription: "x \\x9b31m"\ngame: {target: 5}\n', "3:14: description"),
], ids=["yaml-escape", "whist-bidi", "yaml-c1"])
def test_a_variants_text_cannot_hold_control_characters(tmp_path, name, text, at):
    # Was: accepted, and `bidwhist rules` printed the title as it was: the terminal obeyed
    # the escape sequences (set its window title, cleared the screen).
    (tmp_path / name).write_text(text, encoding="utf-8")
    proc = script("check", name, cwd=tmp_path)
    assert proc.returncode == 1
    assert f"{name}:{at} holds the control character " in proc.stderr
    assert "\x1b" not in proc.stderr and "\u202e" not in proc.stderr and "\x9b" not in proc.stderr


def test_tabs_newlines_and_no_break_spaces_stay_plain_text(tmp_path):
    (tmp_path / "ok.yaml").write_text('name: ok\nextends: standard\ndescription: "a\\tb\\nc\\u00a0d"\n')
    proc = script("check", "ok.yaml", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr


def test_schema_write_does_not_block_on_a_fifo_in_the_folder(tmp_path):
    # Was: a hang: the schema was written into the FIFO, which nothing ever read.
    os.mkfifo(tmp_path / "variant.schema.json")
    proc = script("schema", "--write", str(tmp_path))
    assert proc.returncode == 2 and proc.stdout == ""
    assert f"cannot write {tmp_path / 'variant.schema.json'}: not a regular file" in proc.stderr


def test_a_flat_sum_past_the_depth_limit_is_told_why(tmp_path):
    # A sum of 70 terms has no parentheses, so "nested too deeply" alone read as wrong: the
    # message says that each operator of a chain counts.
    rule = tmp_path / "sum70.yaml"
    rule.write_text("kind: house-rule\nname: sum70\nscoring:\n  made: " + " + ".join(["books"] * 70) + "\n",
                    encoding="utf-8")
    proc = script("rules", "standard", "--with", str(rule))
    assert proc.returncode == 1
    assert f"{rule}:4:" in proc.stderr and "in a chain such as a + b + c each operator counts" in proc.stderr


# --------------------------------------------------------------------------- alias bombs
def alias_bomb(levels: int) -> str:
    """A one-line YAML list whose anchors each hold nine of the one before: 9**levels values."""
    parts = ["&a0 [1, 1, 1, 1, 1, 1, 1, 1, 1]"]
    parts += [f"&a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels)]
    return f"[{', '.join(parts)}]"


def test_an_alias_bomb_is_refused_before_anything_is_built(monkeypatch):
    # Was: the builder expanded the aliases a million values deep before refusing (3.4 s for
    # a --set value); now the values are counted on the node graph and nothing is built.
    from bidcompiler import yamlload
    from bidcompiler.compose import set_layer
    from bidcompiler.errors import CompileError

    built: list[int] = []
    build = yamlload._Builder.build
    monkeypatch.setattr(yamlload._Builder, "build", lambda self, node: built.append(1) or build(self, node))
    for load in (lambda: set_layer("auction.levels.from=" + alias_bomb(9)),
                 lambda: yamlload.load_yaml("kind: house-rule\nname: x\nbomb:\n  " + alias_bomb(9) + "\n", "x.yaml")):
        with pytest.raises(CompileError) as refused:
            load()
        assert built == []
        [diagnostic] = refused.value.diagnostics
        assert diagnostic.message == ("document too large: this expands to more than "
                                      f"{yamlload.MAX_VALUES:,} values (through aliases)")
    # Placed on the first anchor that expands too far (9**6 values), in document order.
    assert diagnostic.pos.line == 4 and diagnostic.pos.col == 3 + alias_bomb(9).index("&a5")
    # Below the limit (9**5 values), aliases still expand.
    data = yamlload.load_yaml("x: " + alias_bomb(5) + "\n", "x.yaml").data
    assert len(data["x"]) == 5 and data["x"][4][0][0][0][0] == [1] * 9


def test_an_alias_bomb_in_set_is_a_usage_error_saying_so():
    proc = script("compile", "standard", "--set", "auction.levels.from=" + alias_bomb(9))
    assert proc.returncode == 2
    assert "document too large: this expands to more than 100,000 values (through aliases)" in proc.stderr


# --------------------------------------------------------------------------- bytes that are not text
@pytest.mark.parametrize("command, name, status", [(("check",), "bad.yaml", 1), (("replay",), "bad.jsonl", 2),
                                                   (("import",), "bad.ptn", 1)])
def test_bytes_that_are_not_text_are_placed_the_same_way_by_every_reader(tmp_path, command, name, status):
    # Was three copies: a variant file's byte counted from 0, a record's line without a column,
    # and a PTN file's column counted in bytes.  Lines count as text mode does (\r\n is one break),
    # columns in characters (é is one), bytes from 1.
    path = tmp_path / name
    path.write_bytes(b"ab\r\n\xc3\xa9\xc3\xa9x\xff\n")
    proc = script(*command, str(path))
    assert proc.returncode == status
    assert proc.stderr.splitlines()[0] == f"{path}:2:4: not UTF-8 text (invalid start byte at byte 10)"


def test_a_byte_order_mark_is_not_a_column_of_a_bad_byte_as_it_is_not_of_a_json_error(tmp_path):
    # The JSON reader places `x` of '{"a": x}' after a BOM at column 7; a bad byte in the same
    # place is at column 8 (one character later), not 9 (the BOM counted).
    bad, json_error = tmp_path / "bad.json", tmp_path / "err.json"
    bad.write_bytes(b'\xef\xbb\xbf{"a": "\xe9"}\n')
    json_error.write_bytes(b'\xef\xbb\xbf{"a": x}\n')
    assert script("replay", str(json_error)).stderr.startswith(f"{json_error}:1:7:")
    assert script("replay", str(bad)).stderr.splitlines()[0] == (
        f"{bad}:1:8: not UTF-8 text (invalid continuation byte at byte 11)")


@needs_dev_full
def test_import_output_on_a_full_disk_is_status_1_in_the_words_of_every_command():
    # Was "/dev/full: cannot write: No space left on device", status 2 (as if the usage were wrong).
    proc = script("import", str(Path(__file__).parent / "data" / "trickster" / "suit-contract.ptn"), "-o", FULL)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.strip().splitlines() == [f"cannot write {FULL}: No space left on device"]


def test_a_record_with_a_long_string_then_nan_is_placed_in_bounded_memory():
    # Was: finding where json stopped (at the NaN) kept a backtracking point per character of
    # the string before it: 1.8 GB and MemoryError (status 70) for a string of 15 MB.
    import tracemalloc

    from runtime.records import NotARecord, read_record_file

    text = '{"format": "bidwhist-hand/1", "a": "' + "a" * 1_000_000 + '", "b": NaN}'
    tracemalloc.start()
    try:
        with pytest.raises(NotARecord) as info:
            read_record_file(text, "r.json")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert str(info.value) == "r.json:1:1000045: invalid JSON: NaN is not a JSON value"
    assert peak < 8 * len(text)
