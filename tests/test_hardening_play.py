"""Terminal play against damaged saves and a second play on one save (issue 15).

A session file of 100,000 ``[`` crashed ``--resume`` (RecursionError in json); two
``play`` processes on one save lost moves silently.  Now a damaged session file is
one message naming it and what to do (exit 1, the save untouched), and a save is
locked while a play runs on it.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from bidcompiler.cli import cli
from bidcompiler.pipeline import load_ruleset
from runtime.session import SaveLock, SaveLocked, Session, Settings, lock_path, sidecar_path
from test_play import BOT, PROGRAM, PROMPT, load, terminals  # noqa: F401  (terminals: the pty fixture)


def a_save(tmp_path: Path, name: str = "g.jsonl") -> Path:
    """A save with a finished hand in FILE, then a hand in progress."""
    rules = load_ruleset("standard")
    path = tmp_path / name
    # The first seed whose game goes on after its first hand (the bots decide how it goes).
    for seed in range(3, 40):
        for stale in (path, sidecar_path(path), lock_path(path)):
            stale.unlink(missing_ok=True)
        session = Session.new(rules, Settings("standard", [], seed, [], "heuristic"), path)
        while not session.hands and not session.is_over():
            session.apply(session.bot_choice())
        if session.is_over():
            continue
        for _ in range(3):
            session.apply(session.bot_choice())
        assert not session.is_over() and session.actions  # a hand in progress, FILE's last line
        return path
    raise AssertionError("no seed left a game going after its first hand")


def resume(path: Path, *more: str):
    return CliRunner().invoke(cli, ["play", "--resume", str(path), *more])


def dead_pid() -> int:
    """The pid of a process that has ended (and been reaped)."""
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


# --------------------------------------------------------------------------- a damaged session file
@pytest.mark.parametrize("damage", [
    "[" * 100_000,  # json's recursion: RecursionError
    '{"format": "bidwhist-session/1", "seed": ' + "9" * 5000 + "}",  # int() of more than 4,300 digits
    "{not json",
    b"\xff\xfe not text",
], ids=["deep", "long-number", "not-json", "not-utf8"])
def test_a_damaged_session_file_is_named_and_the_save_kept(tmp_path, damage):
    path = a_save(tmp_path)
    side = sidecar_path(path)
    (side.write_bytes if isinstance(damage, bytes) else side.write_text)(damage)
    before = path.read_bytes(), side.read_bytes()
    result = resume(path)
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stderr
    assert f"The session file {side} is damaged" in result.stderr
    assert "keeps every finished hand" in result.stderr and "bidwhist replay" in result.stderr
    assert (path.read_bytes(), side.read_bytes()) == before  # nothing written over
    assert not lock_path(path).exists()  # the lock taken to resume is gone again
    replay = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    assert replay.exit_code == 0 and [h.get("in_progress", False) for h in json.loads(replay.stdout)["hands"]] == [False, True]


def test_a_session_file_that_is_not_a_regular_file_is_refused(tmp_path):
    path = a_save(tmp_path)
    side = sidecar_path(path)
    side.unlink()
    os.mkfifo(side)
    result = resume(path)
    assert result.exit_code == 1
    assert "not a regular file" in result.stderr


def test_a_huge_session_file_is_refused_naming_the_limit(tmp_path):
    path = a_save(tmp_path)
    with open(sidecar_path(path), "r+b") as f:
        f.truncate(2 << 20)
    result = resume(path)
    assert result.exit_code == 1
    assert "larger than 1 MiB" in result.stderr


# --------------------------------------------------------------------------- the lock
def test_the_lock_names_its_holder_and_refuses_a_second_taker(tmp_path):
    save = tmp_path / "s.jsonl"
    first = SaveLock(save).acquire()
    holder = json.loads(lock_path(save).read_text())
    assert holder["pid"] == os.getpid() and holder["host"] == socket.gethostname() and holder["since"]
    with pytest.raises(SaveLocked) as refused:
        SaveLock(save).acquire()
    message = str(refused.value)
    assert f"process {os.getpid()}" in message and socket.gethostname() in message
    assert holder["since"] in message and "--take-over" in message
    first.release()
    assert not lock_path(save).exists()
    SaveLock(save).acquire().release()  # free again


def test_a_stale_lock_of_this_host_is_taken_over_and_others_are_not(tmp_path):
    save = tmp_path / "s.jsonl"
    stale = {"pid": dead_pid(), "host": socket.gethostname(), "since": "2026-01-01 00:00:00 +0000"}
    lock_path(save).write_text(json.dumps(stale))
    lock = SaveLock(save).acquire()
    assert lock.took_over == stale
    assert json.loads(lock_path(save).read_text())["pid"] == os.getpid()
    lock.release()
    # Another host's lock, or an unreadable one, cannot be judged here: refused without --take-over.
    for content in (json.dumps({**stale, "host": "elsewhere.example"}), "", "{"):
        lock_path(save).write_text(content)
        with pytest.raises(SaveLocked, match="--take-over"):
            SaveLock(save).acquire()
        SaveLock(save).acquire(take_over=True).release()
        assert not lock_path(save).exists()


def test_release_leaves_a_lock_taken_over_by_another(tmp_path):
    save = tmp_path / "s.jsonl"
    mine = SaveLock(save).acquire()
    other = {"pid": os.getpid() + 1, "host": "elsewhere.example", "since": "now"}
    lock_path(save).write_text(json.dumps(other))  # taken over with --take-over meanwhile
    mine.release()
    assert json.loads(lock_path(save).read_text()) == other


def test_a_locked_save_is_refused_by_play_naming_the_holder(tmp_path):
    path = a_save(tmp_path)
    other = {"pid": os.getpid(), "host": "elsewhere.example", "since": "2026-12-01 10:00:00 +0000"}
    lock_path(path).write_text(json.dumps(other))
    before = path.read_bytes(), sidecar_path(path).read_bytes()
    result = resume(path)
    assert result.exit_code == 1, result.output
    assert f"process {os.getpid()} on host elsewhere.example, since 2026-12-01 10:00:00" in result.stderr
    assert "--take-over" in result.stderr
    assert (path.read_bytes(), sidecar_path(path).read_bytes()) == before
    assert json.loads(lock_path(path).read_text()) == other  # the other's lock is left alone


def test_a_second_play_on_a_running_save_is_refused(terminals, tmp_path):  # noqa: F811
    save = tmp_path / "live.jsonl"
    t = terminals("play", "standard", "--seed", "3", "--fast", "--save", str(save), "--bots", BOT)
    t.expect(PROMPT)
    for args in (["play", "--resume", str(save)], ["play", "standard", "--save", str(save)]):
        second = subprocess.run(PROGRAM + args, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        assert second.returncode == 1, second.stderr
        assert f"in use by another play: process {t.pid} on this host" in second.stderr
        assert "Traceback" not in second.stderr
    t.line("quit")
    assert t.wait() == 0
    assert not lock_path(save).exists()  # quit removes the lock


def test_the_lock_goes_on_ctrl_c_and_on_sigterm(terminals, tmp_path):  # noqa: F811
    save = tmp_path / "c.jsonl"
    t = terminals("play", "standard", "--seed", "3", "--fast", "--save", str(save), "--bots", BOT)
    t.expect(PROMPT)
    assert lock_path(save).exists()
    t.wait_until_reading()
    t.send("\x03")
    assert t.wait() == 130
    assert not lock_path(save).exists()
    r = terminals("play", "--resume", str(save), "--fast")
    r.expect(PROMPT)
    r.wait_until_reading()
    r.kill(signal.SIGTERM)
    assert r.wait() == 128 + signal.SIGTERM
    assert not lock_path(save).exists()
    assert "Traceback" not in r.text


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_say_where_the_game_is_saved_as_ctrl_c_does(terminals, tmp_path, name):  # noqa: F811
    # Was: status 143 (129) with the game saved, but not a word of where or how to resume.
    save = tmp_path / "t.jsonl"
    t = terminals("play", "standard", "--seed", "3", "--fast", "--save", str(save), "--bots", BOT)
    t.expect(PROMPT)
    t.wait_until_reading()
    number = getattr(signal, name)
    t.kill(number)
    t.expect(f"Stopped by {name}; the game is saved in {save}")
    t.expect(f"Resume with: bidwhist play --resume {save}")
    assert t.wait() == 128 + number
    assert not lock_path(save).exists()
    assert "Traceback" not in t.text
    assert load(save).settings.seed == 3  # the save resumes


def test_a_killed_play_leaves_a_stale_lock_that_resume_takes_over(terminals, tmp_path):  # noqa: F811
    save = tmp_path / "k.jsonl"
    t = terminals("play", "standard", "--seed", "3", "--fast", "--save", str(save), "--bots", BOT)
    first = t.expect(PROMPT)
    t.kill(signal.SIGKILL)
    t.wait()
    assert json.loads(lock_path(save).read_text())["pid"] == t.pid  # SIGKILL leaves it
    r = terminals("play", "--resume", str(save), "--fast")
    r.expect(f"took over the lock of process {t.pid}")
    assert r.expect(PROMPT).group(0) == first.group(0)
    r.line("quit")
    assert r.wait() == 0
    assert not lock_path(save).exists()


# --------------------------------------------------------------------------- a saved hand that breaks the rules
@pytest.mark.parametrize("where", ["record", "sidecar"])
def test_a_saved_hand_that_breaks_the_rules_is_bad_content_exit_1_naming_the_file(tmp_path, where):
    """Not "Invalid value for --resume" and status 2: the command was right, the file's content is not."""
    path = a_save(tmp_path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    if where == "record":  # a finished hand's card changed
        lines[0]["play"][3] = "XX"
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))
        named, at = path, "hand[0].play[3]"
    else:  # a sidecar of the layout that held the hand in play, its hand changed
        pending = {**lines[-1], "play": ["XX"]}
        path.write_text("".join(json.dumps(line) + "\n" for line in lines[:-1]))
        side = json.loads(sidecar_path(path).read_text())
        sidecar_path(path).write_text(json.dumps({**side, "in_progress": {"index": 1, "record": pending}}))
        named, at = sidecar_path(path), "in_progress.record."
    result = resume(path)
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith(f"{named}: {at}") and "'XX'" in result.stderr
    assert len(result.stderr.splitlines()) == 1 and "Invalid value" not in result.stderr
    assert not lock_path(path).exists()


def test_a_session_files_field_is_quoted_as_a_records_value_is_and_escaped(tmp_path):
    """One helper quotes a value read from a file (records.shown): a string in quotes, cut to 40
    characters saying how long it was; a session file's field escaped beyond ASCII for the terminal."""
    path = a_save(tmp_path)
    side = json.loads(sidecar_path(path).read_text())
    side["with"] = "é" * 50
    sidecar_path(path).write_text(json.dumps(side))
    result = resume(path)
    assert result.exit_code == 1, result.output
    quoted = ascii("é" * 40)  # its first 40 characters, escaped, and its own length
    assert f"with: expected a list of house-rule names or paths, found {quoted[:-1]}...' (50 characters)" \
        in result.stderr
    assert "é" not in result.stderr



def test_a_saved_bot_or_seat_play_never_writes_is_a_damaged_session_file(tmp_path):
    """Was "Invalid value for --resume" (exit 2, as if the command were wrong), the bot's name sent raw."""
    path = a_save(tmp_path)  # one save for every case: making it plays a hand
    side = sidecar_path(path)
    saved = json.loads(side.read_text())
    for field, value, said in [("bots", "nosuch", "unknown bot 'nosuch'"),
                               ("bots", "\x1b[31mred", "unknown bot '\\x1b[31mred'"),
                               ("seats", [9], "seat 9 is not at this table")]:
        side.write_text(json.dumps({**saved, field: value}))
        before = path.read_bytes(), side.read_bytes()
        result = resume(path)
        assert result.exit_code == 1, result.output
        assert f"{side}: {said}" in result.stderr and f"The session file {side} is damaged" in result.stderr
        assert "\x1b" not in result.stderr and "Invalid value" not in result.stderr
        assert (path.read_bytes(), side.read_bytes()) == before
    # ... while a seat given on the command line is the command's error, named by its option (was --resume).
    side.write_text(json.dumps(saved))
    result = resume(path, "--seat", "7")
    assert result.exit_code == 2 and "Invalid value for --seat: seat 7 is not at this table" in result.stderr


def _quit_with_a_save_that_fails(tmp_path, monkeypatch, variant: str, save, typed: str):
    """Play ``variant`` saving to ``save``, every save to it failing (a full disk), type ``typed``:
    the result and the one copy play saved instead (in tmp_path/tmp)."""
    real_save = Session.save

    def failing(session):
        if session.path == save:
            raise OSError(28, "No space left on device")
        real_save(session)

    monkeypatch.setattr(Session, "save", failing)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    result = CliRunner().invoke(cli, ["play", variant, "--seed", "5", "--fast", "--save", str(save)], input=typed)
    assert result.exit_code == 1, result.output
    [copy] = (tmp_path / "tmp").glob("g-*.jsonl")
    return result, copy


def test_a_save_that_fails_on_the_way_out_goes_to_a_copy_that_resumes(tmp_path, monkeypatch):
    """`quit` after FILE became unwritable said "Saved." and exited 0: the moves since the last save were lost."""
    save = tmp_path / "g.jsonl"
    result, copy = _quit_with_a_save_that_fails(tmp_path, monkeypatch, "standard", save, "pass\nquit\n")
    assert f"the game is saved in {copy} instead ({save} could not be written)" in " ".join(result.stderr.split())
    assert f"Saved. Resume with: bidwhist play --resume {copy}" in result.stdout
    assert copy.read_text().splitlines()[-1].endswith('"in_progress": true}')
    assert '"pass"' in copy.read_text()
    assert CliRunner().invoke(cli, ["play", "--resume", str(copy)], input="quit\n").exit_code == 0


def test_a_copy_saved_on_the_way_out_keeps_a_shipped_name_beside_a_file_of_that_name(tmp_path, monkeypatch):
    """The copy's names are made relative to its folder; `standard` (a shipped name) became
    `../saves/standard` where the save's folder held a file named standard, and the copy did not resume."""
    (tmp_path / "saves").mkdir()
    (tmp_path / "saves" / "standard").write_text("not a variant\n")
    _, copy = _quit_with_a_save_that_fails(tmp_path, monkeypatch, "standard", tmp_path / "saves" / "g.jsonl", "quit\n")
    assert json.loads(sidecar_path(copy).read_text())["variant"] == "standard"


def test_a_copy_saved_on_the_way_out_from_a_folder_reached_through_a_link_still_resumes(tmp_path, monkeypatch):
    """The save names `../mine.yaml` from its real folder; the copy's name for it was worked out
    from the link's folder (lnk/../mine.yaml, lexically tmp/mine.yaml), and the copy did not resume."""
    (tmp_path / "real" / "saves").mkdir(parents=True)
    mine = tmp_path / "real" / "mine.yaml"
    mine.write_text((Path(__file__).parent.parent / "variants" / "standard.yaml").read_text(encoding="utf-8"),
                    encoding="utf-8")
    (tmp_path / "lnk").symlink_to(tmp_path / "real" / "saves")
    _, copy = _quit_with_a_save_that_fails(tmp_path, monkeypatch, str(mine), tmp_path / "lnk" / "g.jsonl", "quit\n")
    assert json.loads(sidecar_path(copy).read_text())["variant"] == "../real/mine.yaml"


def test_sigterm_while_a_move_is_saved_waits_until_it_is_saved():
    # As Ctrl-C does: a SIGTERM arriving inside a move's apply-and-save used to stop it
    # half-way (the session's memory ahead of its file); now it is acted on after the save.
    from bidcompiler.cli.terminal import Stopped, interrupts_deferred

    def stop(signum, frame):
        raise Stopped(signum)

    previous = signal.signal(signal.SIGTERM, stop)
    steps = []
    try:
        with pytest.raises(Stopped) as info:
            with interrupts_deferred():
                os.kill(os.getpid(), signal.SIGTERM)
                steps.append("saved")  # reached: the signal waited
        assert info.value.code == 128 + signal.SIGTERM
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert steps == ["saved"]
    assert signal.getsignal(signal.SIGTERM) is previous


def test_a_second_play_checking_a_new_save_never_removes_the_save_of_the_play_holding_it(tmp_path, monkeypatch):
    """`play --save FILE` checks FILE can be written before it takes FILE's lock: it made FILE
    and removed it again, so the first save of the play holding the lock, landing in between,
    was removed (and that play's start could find FILE there).  Here the holder's first save
    lands as the second play removes the first thing it removes."""
    from runtime.session import atomic_write

    save = tmp_path / "g.jsonl"
    holder = SaveLock(save).acquire()  # a play started on the new FILE, not saved yet
    real_unlink = os.unlink
    landed = []

    def unlink(path, *args, **kwargs):
        if not landed:
            landed.append(path)
            atomic_write(save, '{"the holder": "first save"}\n')  # the holder saves its first move
        real_unlink(path, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", unlink)
    result = CliRunner().invoke(cli, ["play", "standard", "--save", str(save), "--bots", "random"], input="quit\n")
    monkeypatch.setattr(os, "unlink", real_unlink)
    assert result.exit_code == 1, result.output  # refused: the save is in use
    assert "in use by another play" in result.stderr
    assert save.read_text() == '{"the holder": "first save"}\n'
    holder.release()


def test_sigterm_just_after_the_save_is_made_says_where_it_is_saved(tmp_path, monkeypatch):
    """A SIGTERM after play made its save but before the game started exited 143 saying
    nothing; later ones say where the game is saved. Now this one says so too."""
    real_new = Session.new.__func__

    def new_then_terminated(cls, rules, settings, path):
        session = real_new(cls, rules, settings, path)
        os.kill(os.getpid(), signal.SIGTERM)  # the instant after the save is made
        return session

    monkeypatch.setattr(Session, "new", classmethod(new_then_terminated))
    save = tmp_path / "g.jsonl"
    result = CliRunner().invoke(cli, ["play", "standard", "--seed", "5", "--fast", "--save", str(save)], input="")
    assert result.exit_code == 128 + signal.SIGTERM, result.output
    said = " ".join(result.stderr.split())
    assert f"Stopped by SIGTERM; the game is saved in {save} Resume with: bidwhist play --resume {save}" in said
    assert save.exists() and not lock_path(save).exists()


def test_ctrl_c_just_after_the_save_is_made_says_where_it_is_saved(tmp_path, monkeypatch):
    """As SIGTERM there does: a Ctrl-C held back while play made its save was raised once it was
    made, before the game screen runs, and ended play with no word of the save."""
    real_new = Session.new.__func__

    def new_then_interrupted(cls, rules, settings, path):
        session = real_new(cls, rules, settings, path)
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C the instant after the save is made
        return session

    monkeypatch.setattr(Session, "new", classmethod(new_then_interrupted))
    save = tmp_path / "g.jsonl"
    result = CliRunner().invoke(cli, ["play", "standard", "--seed", "5", "--fast", "--save", str(save)], input="")
    assert result.exit_code == 130, result.output
    said = " ".join(result.stderr.split())
    assert f"Interrupted; the game is saved in {save} Resume with: bidwhist play --resume {save}" in said
    assert save.exists() and not lock_path(save).exists()


def test_ctrl_c_while_a_resumed_game_saves_its_new_settings_says_where_it_is_saved(tmp_path, monkeypatch):
    """Resuming with other bots saves the settings before the game screen runs: a Ctrl-C
    then waits for the save and says where the game is, as everywhere else."""
    path = a_save(tmp_path)
    real_save_settings = Session.save_settings

    def save_then_interrupted(self):
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C while the settings are saved
        real_save_settings(self)

    monkeypatch.setattr(Session, "save_settings", save_then_interrupted)
    result = resume(path, "--bots", "random", "--fast")
    assert result.exit_code == 130, result.output
    said = " ".join(result.stderr.split())
    assert f"Interrupted; the game is saved in {path} Resume with: bidwhist play --resume {path}" in said
    assert json.loads(sidecar_path(path).read_text())["bots"] == "random"  # the save was made whole
    assert not lock_path(path).exists()
