"""Issue 15, command lines: every numeric option bounded, FILE arguments regular files only.

Each case runs the installed script, as a user would, and asserts the exit status (2:
bad usage) and the message; ``script`` checks that no traceback and no internal error
appear.  The subprocess timeout in ``script`` is only a safety net against a hang.
"""

from __future__ import annotations

import io
import os
import sys

import pytest
from clirun import HANG_GUARD_S, script

from bidcompiler.cli import main

RANGE = "is not in the range"


@pytest.mark.parametrize("args, words", [
    (("--hands", "99999999999999999999999"), f"'--hands': 99999999999999999999999 {RANGE} 1<=x<=1000000000"),
    (("--games", "0"), f"'--games': 0 {RANGE} 1<=x<=1000000000"),
    (("--hands", "1", "--workers", "1000"), f"'--workers': 1000 {RANGE} 1<=x<=64"),
    (("--hands", "1", "--seed", "99999999999999999999999"), f"'--seed': 99999999999999999999999 {RANGE}"),
    (("--games", "1", "--max-hands", "99999999999"), f"'--max-hands': 99999999999 {RANGE} 1<=x<=1000000"),
])
def test_numeric_options_are_bounded(args, words):
    # Was: OverflowError (internal error) for --hands; --workers 1000 accepted silently.
    proc = script("simulate", "standard", *args)
    assert proc.returncode == 2 and proc.stdout == ""
    assert words in proc.stderr


def test_compare_shares_the_bounds():
    proc = script("compare", "standard", "cincinnati", "--hands", "99999999999999999999999")
    assert proc.returncode == 2 and f"'--hands': 99999999999999999999999 {RANGE}" in proc.stderr


@pytest.mark.parametrize("args, words", [
    (("--seed", "9" * 30), f"'--seed': {'9' * 30} {RANGE}"),
    (("--seed", "9" * 5000), "'--seed': a number of 5,000 digits is not in the range"),  # beyond what int() reads: still a usage error
    (("--seat", "99999999999999999999999"), "seat 99999999999999999999999 is not at this table (seats 0 to 3)"),
])
def test_play_bounds_its_numbers(tmp_path, args, words):
    # A 5,000-digit seed was saved, and its save could then not be read back (int() of
    # more than 4,300 digits); no play starts and nothing is written.
    proc = script("play", "standard", "--save", str(tmp_path / "g.jsonl"), *args)
    assert proc.returncode == 2 and proc.stdout == ""
    assert words in proc.stderr
    assert not (tmp_path / "g.jsonl").exists()


def test_records_game_field_width_is_bounded(tmp_path):
    # Was: MemoryError formatting a name 99,999,999,999 characters wide.
    proc = script("simulate", "standard", "--games", "2", "--records", str(tmp_path / "{game:99999999999d}.jsonl"))
    assert proc.returncode == 2 and proc.stdout == ""
    assert "the {game} field cannot be filled in (a width of at most 20)" in proc.stderr
    assert list(tmp_path.iterdir()) == []


def test_plot_without_an_extension_is_a_usage_error(tmp_path):
    pytest.importorskip("matplotlib")
    proc = script("simulate", "standard", "--hands", "2", "--plot", str(tmp_path / "x"))
    assert proc.returncode == 2 and proc.stdout == ""
    assert f"{tmp_path / 'x'} has no extension: give a name ending in one of " in proc.stderr
    assert ".png" in proc.stderr and ".svg" in proc.stderr


def test_plot_with_json_is_documented():
    proc = script("simulate", "--help")
    assert proc.returncode == 0
    assert "With --json both are made: the JSON on stdout, the picture in the file." in " ".join(proc.stdout.split())


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "fifo.jsonl"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("command", [("replay",), ("replay", "--each"), ("analyze",), ("import",), ("convert", "--to", "yaml")])
def test_file_arguments_must_be_regular_files(command, fifo, tmp_path):
    # Was: replay, check, convert blocked forever on a FIFO; replay /dev/zero grew to 18 GB.
    for path, reason in ((fifo, "not a regular file"), ("/dev/zero", "not a regular file"),
                         (tmp_path, None)):
        proc = script(*command, str(path))
        assert proc.returncode == 2, (command, path, proc.stderr)
        assert proc.stdout == ""
        if reason:
            assert f"{path}: {reason}" in proc.stderr


@pytest.mark.parametrize("command", [("check",), ("compile",), ("rules",), ("simulate", "--hands", "1"),
                                     ("compile", "standard", "--with")])
def test_variant_paths_must_be_regular_files(command, fifo):
    for path in (fifo, "/dev/zero"):
        if command[-1] == "--with":
            args = (*command, str(path))
        else:
            args = (command[0], str(path), *command[1:])
        proc = script(*args)
        assert proc.returncode == 2, (args, proc.stderr)
        assert f"{path}: not a regular file" in proc.stderr


def test_a_record_naming_a_fifo_is_an_illegal_record(tmp_path):
    # A record's named file is content, not usage: exit 1, at `variant`.
    os.mkfifo(tmp_path / "v.yaml")
    record = '{"format": "bidwhist-hand/1", "variant": "v.yaml", "dealer": 0, "hands": [[], [], [], []]}'
    (tmp_path / "r.json").write_text(record + "\n", encoding="utf-8")
    proc = script("replay", "--json", "r.json", cwd=tmp_path)
    assert proc.returncode == 1
    assert '"at": "variant"' in proc.stdout and "not a regular file" in proc.stdout


def test_a_stdout_that_cannot_hold_the_dash_gets_an_escape_not_an_internal_error(monkeypatch, capsys):
    """Under PYTHONIOENCODING=ascii (or a Latin-1 locale) `compile`'s "standard — ..." ended in an internal error."""
    out = io.BytesIO()
    monkeypatch.setattr("sys.stdout", io.TextIOWrapper(out, encoding="ascii"))
    with pytest.raises(SystemExit) as ended:
        main(["compile", "standard"])
    sys.stdout.flush()
    assert ended.value.code == 0, capsys.readouterr().err
    assert out.getvalue().startswith(b"standard \\u2014 ")


def test_a_closed_stdout_is_said_not_an_internal_error(monkeypatch, capsys):
    """`bidwhist variants >&-` printed nothing with status 0; `play ... >&-` ended in an internal error."""
    monkeypatch.setattr("sys.stdout", None)  # what Python makes of a closed file descriptor 1
    with pytest.raises(SystemExit) as ended:
        main(["variants"])
    assert ended.value.code == 1
    assert capsys.readouterr().err == "bidwhist: cannot write the output: stdout is closed\n"


def test_play_with_stdin_closed_saves_as_at_the_end_of_input(monkeypatch, capsys, tmp_path):
    """`bidwhist play ... <&-` ended in an internal error (None has no isatty)."""
    monkeypatch.setattr("sys.stdin", None)
    save = tmp_path / "g.jsonl"
    with pytest.raises(SystemExit) as ended:
        main(["play", "standard", "--seed", "3", "--fast", "--save", str(save)])
    assert ended.value.code == 0, capsys.readouterr().err
    assert f"Resume with: bidwhist play --resume {save}" in capsys.readouterr().out
    assert save.read_text().endswith('"in_progress": true}\n')


@pytest.mark.parametrize("command", [("replay",), ("convert", "--to", "yaml"), ("play", "--resume")])
def test_a_control_character_in_a_missing_files_name_is_shown_escaped(tmp_path, command):
    # Was: the BEL (or an ESC, which the terminal acts on) printed raw in "FILE: cannot read",
    # in click's own "File '...' does not exist" and in --resume's "no such file".
    name = str(tmp_path / "no\x07file.json")
    proc = script(*command, name)
    assert proc.returncode == 2
    assert "\x07" not in proc.stderr
    assert str(tmp_path / "no\\x07file.json") in proc.stderr


@pytest.mark.parametrize("first, second, status, said", [
    ("SIGINT", "SIGINT", 130, ["interrupted", "ended"]),
    ("SIGINT", "SIGTERM", 130, ["interrupted", "ended"]),
    ("SIGTERM", "SIGHUP", 143, ["ended"]),
])
def test_a_second_signal_while_ending_shows_no_traceback(first, second, status, said):
    # Was: "Exception ignored in ...: Traceback ... KeyboardInterrupt" when a second Ctrl-C came
    # while the process wound down after the first (seen as simulate --workers 2 joined its pool);
    # a SIGTERM or SIGHUP after any first signal still did it (SystemExit), or, later in the exit,
    # ended the process with its own status.  The second signal is sent from an exit hook, so it
    # arrives exactly then.
    import subprocess
    import textwrap

    program = textwrap.dedent(f"""
        import atexit, os, signal, sys, time
        from bidcompiler.cli import listing, main
        signal.signal(signal.SIGINT, signal.default_int_handler)  # as from a terminal, even under nohup
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
        atexit.register(lambda: (os.kill(os.getpid(), signal.{second}), sys.stderr.write("ended\\n")))
        def signalled(*args, **kwargs):
            os.kill(os.getpid(), signal.{first})
            time.sleep(60)  # the handler's exception ends the sleep
        listing.variants.callback = signalled
        main(["variants"])
    """)
    proc = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=HANG_GUARD_S)
    assert proc.returncode == status
    assert proc.stderr.split() == said  # the exit hook ran on, uninterrupted


@pytest.mark.parametrize("args", [("convert", "--to", "yaml"), ("play", "--resume")])
def test_a_newline_in_a_usage_errors_name_is_escaped_so_the_error_is_one_line(tmp_path, capsys, args):
    # Was: "Error: Invalid value for 'FILE': File 'no" and "file.json' does not exist." on two
    # lines (the newline typed in the name kept, where every other control character is escaped).
    name = str(tmp_path / "no\nfile.json")
    with pytest.raises(SystemExit) as ended:
        main([*args, name])
    assert ended.value.code == 2
    error = [line for line in capsys.readouterr().err.splitlines() if line.startswith("Error:")]
    assert len(error) == 1 and str(tmp_path / "no\\nfile.json") in error[0], error
