"""Output files against hostile paths, and the count of --set changes (session 13's hostile pass, bench/hostile_cli.py).

Each test names what used to happen.  A FIFO named as an output with no program
reading it hung the command (opening it to write waits for a reader); a picture whose
format matplotlib lists but cannot draw here ended in an internal error after the whole
run; a ``.png`` or ``.tiff`` named by a FIFO failed after the run (the writer seeks).
"""

from __future__ import annotations

import errno
import os
import shlex
import select
import threading
import time

import pytest
from clirun import run

from bidcompiler.cli import common

NO_READER = "a FIFO that no program reads (writing to it would wait for a reader forever)"


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "out.jsonl"
    os.mkfifo(path)
    return path


@pytest.fixture(autouse=True)
def release_held_fifos():
    """Close the write ends the check kept open: the command's process would have ended, this one goes on."""
    yield
    while common._FIFOS_HELD:
        os.close(common._FIFOS_HELD.pop())


def run_with_a_reader(path, *args):
    """Run ``bidwhist ARGS`` in this process while a reader drains the FIFO ``path``; (result, bytes read).

    The reader opens its end before the command starts (as ``cat path &`` would have), and
    reads until the command has ended and nothing more is there."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    done = threading.Event()
    chunks: list[bytes] = []

    def reader():
        while True:
            select.select([fd], [], [], 0.05)
            try:
                data = os.read(fd, 1 << 16)
            except BlockingIOError:
                data = b""
            chunks.append(data)
            if not data:
                if done.is_set():
                    return
                time.sleep(0.01)  # no writer yet: the FIFO reads as ended

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    try:
        result = run(*args)
    finally:
        done.set()
        thread.join()
        os.close(fd)
    return result, b"".join(chunks)


@pytest.mark.parametrize("args", [
    ("simulate", "standard", "--hands", "1", "--seed", "1", "--records"),
    ("import", "tests/data/trickster/game.ptn", "-o"),
])
def test_an_output_fifo_that_no_program_reads_is_refused_not_waited_on(fifo, args):
    # Was: `simulate --records FIFO` and `import -o FIFO` hung for ever.
    result = run(*args, str(fifo))
    assert result.exit_code == 2 and result.stdout == ""
    assert f"cannot write {fifo}: {NO_READER}" in result.stderr


def test_an_output_fifo_with_a_reader_gets_the_records(fifo):
    # `--records >(gzip > x.gz)` and a `cat FIFO` still work: the check leaves the reader its input.
    result, written = run_with_a_reader(fifo, "simulate", "standard", "--hands", "2", "--seed", "1",
                                        "--records", str(fifo))
    assert result.exit_code == 0, result.stderr
    lines = written.decode().splitlines()
    assert len(lines) == 2 and all(line.startswith('{"format": "bidwhist-hand/1"') for line in lines)


def test_an_output_fifo_whose_reader_leaves_part_way_is_said_so(fifo):
    # Was: "Error: cannot write FILE: Broken pipe" (the system's words); README says a reader
    # that has left is said so.  The reader takes the first records and goes, as `head -c` does.
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    got: list[bytes] = []

    def first_then_leave():
        try:
            while not got:
                select.select([fd], [], [], 0.05)
                try:
                    data = os.read(fd, 100)
                except BlockingIOError:
                    continue
                if data:
                    got.append(data)
        finally:
            os.close(fd)

    thread = threading.Thread(target=first_then_leave, daemon=True)
    thread.start()
    try:  # far more than a pipe's buffer holds, so the writes go on after the reader has gone
        result = run("simulate", "standard", "--hands", "2000", "--seed", "1", "--records", str(fifo))
    finally:
        thread.join()
    assert got and got[0].startswith(b'{"format"')
    assert result.exit_code == 1
    assert f"cannot write {fifo}: its reader has gone" in result.stderr
    assert "Broken pipe" not in result.stderr


@pytest.mark.parametrize("name", ["p.png", "p.tiff"])
def test_a_picture_to_a_fifo_with_a_reader_is_written_whole(tmp_path, name):
    # Was: "File or stream is not seekable" (tiff: "Illegal seek"), status 1, after the whole run.
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    from bidcompiler.cli import plots

    path = tmp_path / name
    os.mkfifo(path)
    fig = Figure(figsize=(1, 1))
    fig.subplots().plot([0, 1])
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a reader, as `cat p.png &` would be
    try:
        plots.save(fig, str(path))  # a small picture: it fits in the FIFO's buffer
        written = os.read(fd, 1 << 20)
    finally:
        os.close(fd)
    assert written.startswith(b"\x89PNG\r\n\x1a\n" if name.endswith(".png") else b"II*\x00")
    assert len(written) > 100


def test_a_picture_to_a_fifo_whose_reader_left_is_an_error_not_a_wait(tmp_path):
    # Was: the reader, there when --plot was checked, gone by the run's end, and the
    # picture's open waited for another forever.  A reader comes late here only so that
    # the old wait ends (and the picture is written, which the test refuses).
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    from bidcompiler.cli import plots
    from bidcompiler.cli.common import output_reason

    path = tmp_path / "p.svg"
    os.mkfifo(path)
    fig = Figure(figsize=(1, 1))
    fig.subplots().plot([0, 1])
    late = threading.Timer(0.3, _drain_briefly, (path,))
    late.start()
    try:
        with pytest.raises(OSError) as caught:
            plots.save(fig, str(path))
    finally:
        late.cancel()  # not needed once the write has failed at once
        late.join()
    assert output_reason(caught.value) == NO_READER


def _drain_briefly(path) -> None:
    """A reader that comes, reads what a writer there writes, and goes."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        for _ in range(50):
            select.select([fd], [], [], 0.02)
            try:
                if not os.read(fd, 1 << 16):
                    return  # no writer, or it has closed
            except BlockingIOError:
                pass  # a writer that has not written yet
    finally:
        os.close(fd)


@pytest.mark.parametrize("module, args", [
    ("importing", ("import", "tests/data/trickster/game.ptn", "-o")),
    ("authoring", ("convert", "examples/tutorial/set-doubles.yaml", "--to", "whist", "-o")),
])
def test_an_output_fifo_whose_reader_left_after_the_check_is_an_error_not_a_wait(tmp_path, monkeypatch,
                                                                                 module, args):
    # Was: `import -o FIFO` and `convert -o FIFO` opened the file to write it and waited for
    # a reader forever once the one there at the check had gone.  Here the reader leaves
    # just after the check; one comes late only so that the old wait ends.
    import importlib

    cli = importlib.import_module(f"bidcompiler.cli.{module}")
    path = tmp_path / ("out.jsonl" if module == "importing" else "out.whist")
    # Once to a plain file first: the work between the check and the write is then quick
    # (its rules cached), well within the late reader's 0.3 s.
    assert run(*args, str(path.with_stem("plain"))).exit_code == 0
    os.mkfifo(path)
    reader = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    checked = cli.check_output
    late = threading.Timer(0.3, _drain_briefly, (path,))

    def check_then_leave(*a, **k):
        checked(*a, **k)
        os.close(reader)
        late.start()

    monkeypatch.setattr(cli, "check_output", check_then_leave)
    try:
        result = run(*args, str(path))
    finally:
        late.cancel()  # not needed once the write has failed at once
        if late.is_alive():
            late.join()
    assert result.exit_code == 1
    assert f"cannot write {path}: {NO_READER}" in result.stderr


def test_records_are_written_where_the_system_has_no_nonblocking_open(tmp_path, monkeypatch):
    # Windows has no O_NONBLOCK, and its os.set_blocking takes only pipes: made blocking
    # anyway, every record file was refused ("Operation not supported", exit 2).
    def pipes_only(fd, blocking):
        raise OSError(errno.ENOTSUP, "Operation not supported")

    monkeypatch.delattr(os, "O_NONBLOCK", raising=False)
    monkeypatch.setattr(os, "set_blocking", pipes_only)
    path = tmp_path / "r.jsonl"
    result = run("simulate", "standard", "--hands", "1", "--seed", "1", "--records", str(path))
    assert result.exit_code == 0, result.stderr
    assert path.read_text().startswith('{"format": "bidwhist-hand/1"')


def test_a_plot_to_a_fifo_no_program_reads_is_refused_before_the_run(tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "p.svg"
    os.mkfifo(path)
    result = run("simulate", "standard", "--hands", "2", "--seed", "1", "--plot", str(path))
    assert result.exit_code == 2 and result.stdout == ""
    assert NO_READER in result.stderr


def test_a_picture_format_that_cannot_be_drawn_here_is_a_usage_error_before_the_run(tmp_path, monkeypatch):
    # Was: internal error (status 70, RuntimeError: 'xelatex' not found) after the whole run.
    pytest.importorskip("matplotlib")
    monkeypatch.setenv("PATH", str(tmp_path))  # no TeX on this PATH: a .pgf cannot be drawn
    result = run("simulate", "standard", "--hands", "2", "--seed", "1", "--plot", str(tmp_path / "p.pgf"))
    assert result.exit_code == 2 and result.stdout == ""
    assert "cannot draw a 'pgf' file here:" in result.stderr
    assert not (tmp_path / "p.pgf").exists()


def test_the_number_of_set_changes_is_bounded():
    # Was: 40,000 `--set game.target=7` took 87 s and 315 MB (each a layer composed); an
    # argument list holds ~75,000.  --with was bounded (32), --set was not.
    result = run("compile", "standard", *["--set", "game.target=7"] * 257)
    assert result.exit_code == 2 and result.stdout == ""
    assert "257 changes in one run; at most 256 (write more as a house rule)" in result.stderr
    # Mappings, each naming settings of its own: a setting given twice, plainly or in a mapping,
    # is refused whatever the count (these names the compiler refuses later: the count alone is read here).
    at_the_bound = tuple(f"game.x{i}={{a: 1}}" for i in range(256))
    assert common.set_expressions(None, None, at_the_bound) == at_the_bound


def test_schema_write_replaces_a_link_at_its_name_and_leaves_the_file_it_led_to(tmp_path):
    # Was: a folder holding variant.schema.json -> ../precious had `precious` overwritten.
    precious = tmp_path / "precious"
    precious.write_text("kept\n")
    folder = tmp_path / "variants"
    folder.mkdir()
    (folder / "variant.schema.json").symlink_to(precious)
    result = run("schema", "--write", str(folder))
    assert result.exit_code == 0, result.stderr
    assert precious.read_text() == "kept\n"
    written = folder / "variant.schema.json"
    assert not written.is_symlink() and written.read_text() == run("schema").stdout
    assert sorted(p.name for p in folder.iterdir()) == ["variant.schema.json"]  # no part file left


def test_convert_writes_no_schema_where_a_link_to_nothing_at_its_name_leads(tmp_path):
    # Was: variant.schema.json -> /elsewhere/new (no file yet) made /elsewhere/new.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    folder = tmp_path / "variants"
    folder.mkdir()
    (folder / "variant.schema.json").symlink_to(elsewhere / "new")
    rule = folder / "r.whist"
    rule.write_text('house-rule r\nscoring { declarer = if made then base else 2 * base }\n')
    result = run("convert", str(rule), "--to", "yaml", "-o", str(folder / "r.yaml"))
    assert result.exit_code == 0, result.stderr
    assert list(elsewhere.iterdir()) == []
    assert not (folder / "variant.schema.json").is_symlink()


@pytest.mark.parametrize("mode, name", [("--hands", "hands.jsonl"), ("--games", "game-0.jsonl"),
                                        ("--games", "game-1.jsonl")])
def test_records_dir_follows_no_link_at_the_names_it_chooses(tmp_path, mode, name):
    # Was: a folder holding hands.jsonl -> ../precious had `precious` overwritten by --records DIR.
    precious = tmp_path / "precious"
    precious.write_text("kept\n")
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / name).symlink_to(precious)
    result = run("simulate", "standard", mode, "2", "--seed", "1", "--records", str(folder))
    assert result.exit_code == 2
    assert f"cannot write {folder / name}: a link is already there, and --records DIR replaces no file" \
        in result.stderr
    assert precious.read_text() == "kept\n"


def test_records_named_through_a_link_still_write_where_it_leads(tmp_path):
    # The user's own name is theirs to link: only the names --records DIR chooses are guarded.
    target = tmp_path / "target.jsonl"
    (tmp_path / "link.jsonl").symlink_to(target)
    result = run("simulate", "standard", "--hands", "1", "--seed", "1", "--records", str(tmp_path / "link.jsonl"))
    assert result.exit_code == 0, result.stderr
    assert target.read_text().startswith('{"format": "bidwhist-hand/1"')


def test_a_fifo_at_a_later_games_name_is_refused_not_waited_on(tmp_path):
    # Was: --records DIR with a FIFO at game-1.jsonl hung after game 0 (only the first and
    # the last game's names are checked before the run; --records DIR now refuses any file
    # at its names before the run, so a {game} name the user typed shows the later open).
    os.mkfifo(tmp_path / "game-1.jsonl")
    result = run("simulate", "standard", "--games", "3", "--seed", "1",
                 "--records", str(tmp_path / "game-{game}.jsonl"))
    assert result.exit_code == 2
    assert f"cannot write {tmp_path / 'game-1.jsonl'}: {NO_READER}" in result.stderr


def test_records_dir_keeps_an_earlier_runs_hands(tmp_path):
    # Was: a second `--records DIR` silently replaced DIR/hands.jsonl, the first run's records lost.
    assert run("simulate", "standard", "--hands", "1", "--seed", "1", "--records", str(tmp_path)).exit_code == 0
    first = (tmp_path / "hands.jsonl").read_text()
    result = run("simulate", "standard", "--hands", "1", "--seed", "2", "--records", str(tmp_path))
    assert result.exit_code == 2
    assert (f"cannot write {tmp_path / 'hands.jsonl'}: a file is already there, and --records DIR replaces no "
            f"file (an earlier run's records would be lost); to replace it, name it: "
            f"--records {tmp_path / 'hands.jsonl'}") in result.stderr
    assert (tmp_path / "hands.jsonl").read_text() == first



@pytest.mark.skipif(os.name != "posix", reason="the hint is quoted as a POSIX shell reads it")
def test_records_dir_names_what_stands_there_and_quotes_the_hint(tmp_path):
    # Was: "a file is already there" for a folder, and a hint with a space that, typed as shown,
    # is two arguments.
    folder = tmp_path / "my runs"
    folder.mkdir()
    (folder / "hands.jsonl").mkdir()
    result = run("simulate", "standard", "--hands", "1", "--seed", "1", "--records", str(folder))
    assert result.exit_code == 2
    assert f"cannot write {folder / 'hands.jsonl'}: a folder is already there" in result.stderr
    assert f"--records '{folder / 'hands.jsonl'}'" in result.stderr

def test_records_dir_keeps_an_earlier_runs_games_and_refuses_before_the_run(tmp_path):
    (tmp_path / "game-1.jsonl").write_text("kept\n")
    result = run("simulate", "standard", "--games", "3", "--seed", "1", "--records", str(tmp_path))
    assert result.exit_code == 2
    assert (f"cannot write {tmp_path / 'game-1.jsonl'}: a file is already there" in result.stderr
            and f"name it: --records {shlex.quote(str(tmp_path / 'game-{game}.jsonl'))}" in result.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game-1.jsonl"]  # no game played, none written
    assert (tmp_path / "game-1.jsonl").read_text() == "kept\n"


def test_records_dir_leaves_files_that_are_not_the_runs_games(tmp_path):
    # game-2.jsonl is no game of a run of 2; game-01.jsonl is no game's name.
    for name in ("game-2.jsonl", "game-01.jsonl"):
        (tmp_path / name).write_text("kept\n")
    result = run("simulate", "standard", "--games", "2", "--seed", "1", "--records", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "game-2.jsonl").read_text() == (tmp_path / "game-01.jsonl").read_text() == "kept\n"
    assert (tmp_path / "game-1.jsonl").read_text().startswith('{"format": "bidwhist-hand/1"')


@pytest.mark.parametrize("mode, name", [("--hands", "hands.jsonl"), ("--games", "game-0.jsonl")])
def test_records_dir_writes_through_no_hard_link(tmp_path, mode, name):
    # Was: a hard link planted at a name --records DIR chooses was written through: the other name saw the records.
    precious = tmp_path / "precious"
    precious.write_text("kept\n")
    folder = tmp_path / "records"
    folder.mkdir()
    os.link(precious, folder / name)
    result = run("simulate", "standard", mode, "1", "--seed", "1", "--records", str(folder))
    assert result.exit_code == 2
    assert f"cannot write {folder / name}: a file is already there" in result.stderr
    assert precious.read_text() == "kept\n"


@pytest.mark.parametrize("name", ["hands.jsonl", "game-{game}.jsonl"])
def test_a_typed_records_name_replaces_the_file(tmp_path, name):
    # The name the user types is their request: an earlier file there is replaced.
    mode = "--hands" if name == "hands.jsonl" else "--games"
    (tmp_path / name.format(game=0)).write_text("old\n")
    result = run("simulate", "standard", mode, "1", "--seed", "1", "--records", str(tmp_path / name))
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / name.format(game=0)).read_text().startswith('{"format": "bidwhist-hand/1"')


def test_open_output_new_only_refuses_a_name_made_after_any_check(tmp_path):
    # The tool's own names are made with O_EXCL: a file (or hard link) put there after the
    # check before the run is refused when the file is opened, not written through.
    precious = tmp_path / "precious"
    precious.write_text("kept\n")
    os.link(precious, tmp_path / "hands.jsonl")
    with pytest.raises(FileExistsError):
        common.open_output(tmp_path / "hands.jsonl", new_only=True)
    os.close(common.open_output(tmp_path / "new.jsonl", new_only=True))
    assert precious.read_text() == "kept\n" and (tmp_path / "new.jsonl").read_text() == ""


@pytest.mark.parametrize("mode", ["--games", "--hands"])
def test_records_dir_whose_name_holds_a_brace_is_refused(tmp_path, mode):
    # Was: --records 'o{game}' (an existing folder) filled in the folder's {game} too: game 0
    # went to o0/game-0.jsonl, outside the folder named (and --hands was told to drop {game}).
    folder = tmp_path / "o{game}"
    folder.mkdir()
    (tmp_path / "o0").mkdir()
    result = run("simulate", "standard", mode, "1", "--seed", "1", "--records", str(folder))
    assert result.exit_code == 2
    assert f"{folder}: a folder whose name holds '{{' or '}}' cannot hold the records" in result.stderr
    assert list((tmp_path / "o0").iterdir()) == list(folder.iterdir()) == []


def test_records_dir_finds_a_games_file_named_in_other_case_where_case_is_not_told_apart(tmp_path, monkeypatch):
    # Was: on a folder that does not tell case apart (Windows, macOS) Game-1.JSONL is
    # game-1.jsonl, but the check before the run matched the listing's names by case: the
    # run was played and refused only at game 1's file.  Such a folder is stood in for here.
    from bidcompiler.cli import simulate

    (tmp_path / "Game-1.JSONL").write_text("kept\n")
    (tmp_path / "GAME-2.jsonl").write_text("kept\n")
    folded = {name.lower() for name in os.listdir(tmp_path)}
    monkeypatch.setattr(simulate.os.path, "lexists", lambda p: os.path.basename(p).lower() in folded)
    records = str(tmp_path / "game-{game}.jsonl")
    assert simulate._first_taken(records, "games", 3) == str(tmp_path / "game-1.jsonl")
    assert simulate._first_taken(records, "games", 1) is None  # game 1 is no game of a run of 1


def test_records_dir_leaves_a_file_in_other_case_where_case_is_told_apart(tmp_path):
    (tmp_path / "Game-0.jsonl").write_text("kept\n")
    result = run("simulate", "standard", "--games", "1", "--seed", "1", "--records", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "Game-0.jsonl").read_text() == "kept\n"
