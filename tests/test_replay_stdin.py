"""``bidwhist replay -`` and ``bidwhist analyze -``: a record piped in on standard input.

Other people's tools feed replay; a pipe is how many of them would.  The record is read as a
file would be (the same limits, the same one-line messages, placed at ``<stdin>``), and the
paths it names are relative to the working directory and confined to it, as a file's paths
are to the file's folder (records.md: a record is untrusted input).
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
from pathlib import Path

import pytest

from runtime.files import StandardInput
from tests.clirun import BIDWHIST, HANG_GUARD_S, run

REPO = Path(__file__).resolve().parent.parent
SECRET = "s3cr3t-hunter2-do-not-print"


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> dict:
    """A legal standard hand record, as `simulate --records` writes it."""
    out = tmp_path_factory.mktemp("sim") / "sim.jsonl"
    assert run("simulate", "standard", "--hands", "1", "--seed", "5", "--records", str(out)).exit_code == 0
    return json.loads(out.read_text(encoding="utf-8").splitlines()[0])


def piped(stdin: bytes | str, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """The installed script with ``stdin`` on its standard input (a pipe, not a terminal)."""
    assert BIDWHIST, "the bidwhist console script is not installed"
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    proc = subprocess.run([BIDWHIST, *args], input=data, capture_output=True, timeout=HANG_GUARD_S, cwd=cwd)
    assert b"Traceback" not in proc.stdout + proc.stderr
    assert b"internal error" not in proc.stderr
    return proc


def shell(command: str, cwd: Path) -> subprocess.CompletedProcess:
    """``command`` run by ``sh`` in ``cwd``, with ``$BW`` the installed script."""
    assert BIDWHIST, "the bidwhist console script is not installed"
    proc = subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=HANG_GUARD_S, cwd=cwd,
                          env={**os.environ, "BW": BIDWHIST})
    assert "Traceback" not in proc.stdout + proc.stderr and "internal error" not in proc.stderr
    return proc


def test_a_piped_hand_record_replays_as_the_same_file_does(tmp_path, record):
    text = json.dumps(record) + "\n"
    (tmp_path / "hand.json").write_text(text, encoding="utf-8")
    from_file = run("replay", str(tmp_path / "hand.json"), "--json")
    from_pipe = piped(text, "replay", "-", "--json")
    assert from_pipe.returncode == 0 == from_file.exit_code, from_pipe.stderr
    assert json.loads(from_pipe.stdout) == json.loads(from_file.stdout)
    assert json.loads(from_pipe.stdout)["score"] is not None


def test_a_piped_game_record_is_a_game_and_the_hint_names_dash(record):
    # Two copies of one hand: a game record (more than one line) whose second dealer breaks the rotation.
    text = (json.dumps(record) + "\n") * 2
    proc = piped(text, "replay", "-")
    assert proc.returncode == 1
    err = proc.stderr.decode()
    assert err.startswith("<stdin>:2: hand 2, dealer: ") and "`bidwhist replay --each -`" in err, err
    each = piped(text, "replay", "--each", "-", "--json")
    assert each.returncode == 0, each.stderr
    assert [h["line"] for h in json.loads(each.stdout)["hands"]] == [1, 2]


def test_analyze_reads_a_pipe_too(record):
    proc = piped(json.dumps(record), "analyze", "-", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["error"] is None


@pytest.mark.parametrize("data, said", [
    (b"", "<stdin>: empty file"),
    (b"\xff{}", "<stdin>:1:1: not UTF-8 text"),
    (b"{\n}\n", '<stdin>:1:1: no "format" field'),  # one object over lines: a hand record (docs/records.md)
    (b"{\n,\n", "<stdin>:2:1: invalid JSON"),
])
def test_what_is_not_a_record_is_said_at_stdin_with_exit_2(data, said):
    proc = piped(data, "replay", "-")
    assert proc.returncode == 2
    assert proc.stderr.decode().startswith(said), proc.stderr
    assert proc.stderr.decode().count("\n") == 1  # one line


def test_more_than_the_record_limit_is_refused_without_reading_on(tmp_path):
    # An endless stream: the command ends only if it stops reading at the limit.
    proc = shell('"$BW" replay - < /dev/zero', tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith("<stdin>: larger than 16 MiB"), proc.stderr


def test_closed_standard_input_is_said_not_a_crash(tmp_path):
    proc = shell('"$BW" replay - <&-', tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith("<stdin>: stdin is closed"), proc.stderr


def test_a_gone_working_directory_is_said_when_the_record_names_a_file(tmp_path, record):
    (tmp_path / "hand.json").write_text(json.dumps({**record, "with": ["./mine.yaml"]}), encoding="utf-8")
    (tmp_path / "gone").mkdir()
    proc = shell('cd gone && rmdir ../gone && "$BW" replay - < ../hand.json', tmp_path)
    assert proc.returncode == 1
    assert proc.stderr == ("<stdin>: with[0]: refused: './mine.yaml' is a path, and the working directory the "
                           "paths of a record on stdin are relative to no longer exists\n"), proc.stderr


def test_a_non_blocking_pipe_is_read_to_its_end(record):
    # Whoever starts the tool may leave the pipe non-blocking and write later: the record is
    # read whole, not judged by the part that had come.
    text = (json.dumps(record) + "\n").encode("utf-8")
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)

    def write_slowly():  # half now, the rest once the command has long been reading
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(text[:len(text) // 2])
            pipe.flush()
            time.sleep(3)
            pipe.write(text[len(text) // 2:])

    writer = threading.Thread(target=write_slowly)
    with os.fdopen(read_end, "rb") as stdin:
        proc = subprocess.Popen([BIDWHIST, "replay", "-", "--json"], stdin=stdin, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
    writer.start()
    out, err = proc.communicate(timeout=HANG_GUARD_S)
    writer.join()
    assert proc.returncode == 0, err
    assert json.loads(out)["score"] is not None


def test_a_terminal_on_standard_input_is_refused_not_waited_on(monkeypatch):
    from bidcompiler.cli.replay import read_record_text

    class Terminal:
        closed = False

        def isatty(self):
            return True

    monkeypatch.setattr("sys.stdin", Terminal())
    with pytest.raises(SystemExit) as exit_:
        read_record_text(StandardInput())
    assert exit_.value.code == 2


def test_paths_in_a_piped_record_are_the_working_directory_s(tmp_path, record):
    rule = (REPO / "variants" / "boston-wins.yaml").read_text(encoding="utf-8")
    (tmp_path / "mine.yaml").write_text(rule, encoding="utf-8")
    text = json.dumps(dict(record, **{"with": ["mine.yaml"]}))
    proc = piped(text, "replay", "-", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    # Elsewhere the same record names a file that is not there.
    (tmp_path / "elsewhere").mkdir()
    missing = piped(text, "replay", "-", "--json", cwd=tmp_path / "elsewhere")
    assert missing.returncode == 1 and json.loads(missing.stdout)["error"]["at"] == "with[0]"


@pytest.mark.parametrize("name", ["../secret.yaml", "/etc/passwd"])
def test_a_piped_record_is_confined_to_the_working_directory(tmp_path, record, name):
    (tmp_path / "secret.yaml").write_text(f"# {SECRET}\n", encoding="utf-8")
    (tmp_path / "work").mkdir()
    proc = piped(json.dumps(dict(record, variant=name)), "replay", "-", "--json", cwd=tmp_path / "work")
    assert proc.returncode == 1
    out = json.loads(proc.stdout)
    assert out["error"]["at"] == "variant"
    assert SECRET not in proc.stdout.decode() + proc.stderr.decode()
    assert "root:" not in proc.stdout.decode() + proc.stderr.decode()


def test_a_file_named_dash_is_still_read_as_dot_slash_dash(tmp_path, record):
    (tmp_path / "-").write_text(json.dumps(record), encoding="utf-8")
    proc = piped(b"", "replay", "./-", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
