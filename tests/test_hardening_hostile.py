"""A hostile tester's second pass over every command (issue 15 continued).

Each test names what used to happen.  Commands run as the installed script (``script``
checks that no traceback and no internal error appear); its subprocess timeout is only
a guard against a hang, never a time limit.
"""

from __future__ import annotations

import os
import subprocess

import pytest
from clirun import BIDWHIST, HANG_GUARD_S, script

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


def test_a_closed_pipe_ends_quietly():
    # `bidwhist ... | head -1`: the reader goes away; no message, no traceback.
    proc = subprocess.Popen([BIDWHIST, "rules", "standard"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # nothing will read what it writes: EPIPE on its first write
    stderr = proc.communicate(timeout=HANG_GUARD_S)[1].decode()
    assert proc.returncode == 1
    assert stderr == ""


# --------------------------------------------------------------------------- --records {game:FORMAT}
@pytest.mark.parametrize("name, why", [
    ("{game:c}.jsonl", "'c' makes the game's number a character"),  # chr(0): NUL in a path; chr(47): '/'
    ("{game:/>4}.jsonl", "it gives '///0', which is not part of one file name"),
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
