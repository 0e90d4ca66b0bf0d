"""A hostile user's read of the command line, terminal play first (audit 20).

Each test names what went wrong before its fix.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess

import pytest
from click.testing import CliRunner

from bidcompiler.cli import cli
from bidcompiler.cli.common import shell_word
from bidcompiler.cli.play import default_save_path
from bidcompiler.pipeline import load_ruleset
from runtime.session import SaveLock, SaveLocked, Session, Settings, lock_path, sidecar_path
from test_play import PROGRAM, PROMPT, load, terminals  # noqa: F401  (terminals: the pty fixture)


def test_a_save_whose_folder_is_removed_mid_game_is_saved_whole_again_and_resumes(tmp_path):
    """The save's folder removed during play (a clean-up, another program): the next move made
    the folder again and wrote FILE, but not FILE.session.json, so "Saved. Resume with" named a
    game that `--resume` refused ("FILE.session.json: missing"): the seed was lost with it."""
    folder = tmp_path / "saves"
    folder.mkdir()
    path = folder / "g.jsonl"
    session = Session.new(load_ruleset("standard"), Settings("standard", [], 7, [], "random"), path)
    session.apply(session.bot_choice())
    shutil.rmtree(folder)
    session.apply(session.bot_choice())
    assert sidecar_path(path).is_file()
    resumed = load(path)
    assert resumed.actions == session.actions and resumed.settings.seed == 7


def test_a_session_file_removed_mid_game_is_written_again_by_the_next_move(tmp_path):
    """FILE.session.json deleted while FILE stays: each move rewrote FILE only, and the game
    could not be resumed though every move was in FILE."""
    path = tmp_path / "g.jsonl"
    session = Session.new(load_ruleset("standard"), Settings("standard", [], 7, [], "random"), path)
    sidecar_path(path).unlink()
    session.apply(session.bot_choice())
    assert load(path).actions == session.actions


@pytest.mark.parametrize("less, seen", [(None, r"\[-R\]"), ("-X", r"\[-X\$ -R\]")])
def test_the_rulebook_paged_by_less_is_shown_in_colour_not_as_escape_codes(terminals, tmp_path, monkeypatch,  # noqa: F811
                                                                            less, seen):
    """`rules all` at a small terminal went to `less` (no $PAGER) without -R: less showed every
    colour as the text `ESC[1;36m`.  The pager now runs with LESS holding -R, after the user's own
    options (kept), and the game's own environment is as it was: the second paging sees the same."""
    if less is None:
        monkeypatch.delenv("LESS", raising=False)
    else:
        monkeypatch.setenv("LESS", less)
    t = terminals("play", "standard", "--seed", "11", "--fast", "--save", str(tmp_path / "g.jsonl"),
                  "--bots", "random", rows=24, cols=80, env={"PAGER": 'echo "PAGER-SEES-LESS=[$LESS]"; cat'})
    t.expect(PROMPT)
    for _ in range(2):
        t.line("rules all")
        t.expect("PAGER-SEES-LESS=" + seen)
        t.expect(PROMPT)
    t.line("quit")
    assert t.wait() == 0


def test_resuming_the_session_file_or_the_lock_names_the_save_to_resume(tmp_path):
    """`play --resume g.jsonl.session.json` (the file beside the save) said
    "g.jsonl.session.json.session.json: missing": the refusal now names the save to give."""
    path = tmp_path / "g.jsonl"
    Session.new(load_ruleset("standard"), Settings("standard", [], 7, [], "random"), path)
    lock = tmp_path / "g.jsonl.lock"
    lock.write_text("{}\n")
    for given, what in ((sidecar_path(path), "the session file"), (lock, "the lock")):
        result = CliRunner().invoke(cli, ["play", "--resume", str(given)], input="quit\n")
        said = " ".join(result.output.split())
        assert result.exit_code == 2, result.output
        assert f"{given} is {what} of the save {path}: resume with bidwhist play --resume {path}" in said
        assert ".session.json.session.json" not in said


def test_resuming_the_session_file_of_a_save_with_a_space_gives_a_command_that_can_be_copied(tmp_path):
    """The refusal's own command quotes the save's name as a shell needs (it did not)."""
    path = tmp_path / "my game.jsonl"
    Session.new(load_ruleset("standard"), Settings("standard", [], 7, [], "random"), path)
    result = CliRunner().invoke(cli, ["play", "--resume", str(sidecar_path(path))], input="quit\n")
    assert result.exit_code == 2, result.output
    command = " ".join(result.output.split()).split("resume with ", 1)[1]
    assert shlex.split(command)[-1] == str(path), command


@pytest.mark.parametrize("name", [".lock", ".session.json", "..lock", "..session.json"])
def test_a_resume_name_that_is_only_the_suffix_is_refused_not_an_internal_error(tmp_path, name):
    """`play --resume nothere/.lock` stripped the suffix to an empty name (ValueError, exit 70)."""
    result = CliRunner().invoke(cli, ["play", "--resume", str(tmp_path / "nothere" / name)], input="quit\n")
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert "no such file" in result.output, result.output


def _resume_word(said: str) -> str:
    """The word after `bidwhist play --resume ` in the last line that gives the command."""
    line = [line for line in said.splitlines() if "bidwhist play --resume " in line][-1]
    return line.split("bidwhist play --resume ", 1)[1]


def test_a_save_named_with_a_space_or_quote_is_given_as_a_command_that_can_be_copied(tmp_path):
    """"Resume with: bidwhist play --resume my game's.jsonl" was not a command a shell reads back:
    the name is now quoted as the shell needs."""
    path = tmp_path / "my game's.jsonl"
    result = CliRunner().invoke(cli, ["play", "standard", "--seed", "1", "--save", str(path)], input="quit\n")
    assert result.exit_code == 0, result.output
    for said in (result.stderr, result.stdout):
        assert shlex.split(_resume_word(said)) == [str(path)]


def test_a_save_named_with_an_escape_or_a_newline_is_never_printed_raw(tmp_path):
    """A save named with ESC and a newline was printed raw in "Saving after every move to",
    "Resume with" and "Saved.": the terminal acted on the ESC, and the command was cut in two.
    Now the name is escaped, and the command holds it in bash's $'...', which reads back as the name."""
    path = tmp_path / "g\x1b[31m\n.jsonl"
    result = CliRunner().invoke(cli, ["play", "standard", "--seed", "1", "--save", str(path)], input="quit\n")
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.stderr + result.stdout
    assert f"Saving after every move to: {tmp_path}/g\\x1b[31m\\n.jsonl" in result.stderr
    for said in (result.stderr, result.stdout):
        word = _resume_word(said)
        assert word == f"$'{tmp_path}/g\\x1b[31m\\x0a.jsonl'"
        read_back = subprocess.run(["bash", "-c", f"printf %s {word}"], capture_output=True, text=True).stdout
        assert read_back == str(path)


@pytest.mark.parametrize("name", ["plain/g.jsonl", "a b/it's.jsonl", "tab\there.jsonl", "bad\udcffbyte.jsonl",
                                  "back\\slash'\x07.jsonl", "sep\u2028.jsonl"])
def test_shell_word_reads_back_as_the_name_in_bash(name):
    """Every name shell_word writes is one word bash reads back as the name (bytes where it was not UTF-8)."""
    word = shell_word(name)
    assert word.isprintable()
    read_back = subprocess.run(["bash", "-c", f"printf %s {word}"], capture_output=True).stdout
    assert read_back == os.fsencode(name)


def test_a_folder_where_the_lock_goes_is_named_and_take_over_is_not_offered(tmp_path):
    """A folder at FILE.lock: play said the lock "cannot be read" and offered --take-over, which
    then failed with "cannot write FILE.lock: Is a directory".  Now both say what is there and what to do."""
    path = tmp_path / "g.jsonl"
    Session.new(load_ruleset("standard"), Settings("standard", [], 7, [], "random"), path)
    (tmp_path / "g.jsonl.lock").mkdir()
    for more in ([], ["--take-over"]):
        result = CliRunner().invoke(cli, ["play", "--resume", str(path), *more], input="quit\n")
        said = " ".join(result.output.split())
        assert result.exit_code == 1, result.output
        assert f"{path}.lock: a folder where the lock of the save goes (no play makes one); move it away" in said
        assert "--take-over" not in said and "Is a directory" not in said
    assert (tmp_path / "g.jsonl.lock").is_dir() and path.is_file()  # nothing removed


def test_a_relative_xdg_data_home_is_ignored_as_the_xdg_specification_says(tmp_path, monkeypatch):
    """XDG_DATA_HOME=relative/dir put the save under the folder play was started in (a new one in
    every folder); the specification has a relative value ignored: the save goes under ~/.local/share."""
    monkeypatch.setenv("XDG_DATA_HOME", "relative/dir")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_save_path().parent == tmp_path / ".local" / "share" / "bidwhist" / "games"


def test_a_data_folder_that_cannot_be_made_is_said_with_what_to_do(tmp_path, monkeypatch):
    """Without --save, a data folder that cannot be made was "bidwhist: cannot write /x/y: Not a
    directory": which file, and why play wrote there, was not said."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocker))
    result = CliRunner().invoke(cli, ["play", "standard", "--seed", "1"], input="quit\n")
    said = " ".join(result.output.split())
    assert result.exit_code == 1, result.output
    assert (f"cannot make the folder of the save, {blocker}/bidwhist/games: Not a directory; "
            "name the save with --save FILE") in said


def test_an_empty_set_is_shown_in_quotes_not_as_nothing(tmp_path):
    """`--set ''` said "Invalid value for '--set': : expected PATH=VALUE": the change was not seen."""
    for value in ("", "  "):
        result = CliRunner().invoke(cli, ["compile", "standard", "--set", value])
        assert result.exit_code == 2
        assert f"Invalid value for '--set': '{value}': expected PATH=VALUE" in result.output


def test_a_lock_removed_with_its_folder_mid_game_is_made_again_by_the_next_save(tmp_path):
    """The save's folder removed during play took FILE.lock with it, and nothing made it again:
    a second play on the save was let in while the first still ran, and two plays lost moves."""
    folder = tmp_path / "saves"
    folder.mkdir()
    path = folder / "g.jsonl"
    session = Session.new(load_ruleset("standard"), Settings("standard", [], 7, [], "random"), path)
    lock = SaveLock(path).acquire()
    session.on_saved = lock.restore
    shutil.rmtree(folder)
    session.apply(session.bot_choice())
    with pytest.raises(SaveLocked, match="in use by another play"):
        SaveLock(path).acquire()
    lock.release()
    assert not lock_path(path).exists()


def test_play_keeps_its_lock_when_the_saves_folder_is_removed_mid_game(terminals, tmp_path):  # noqa: F811
    folder = tmp_path / "saves"
    folder.mkdir()
    save = folder / "g.jsonl"
    t = terminals("play", "standard", "--seed", "3", "--fast", "--save", str(save), "--bots", "random")
    t.expect(PROMPT)
    shutil.rmtree(folder)
    t.line("1")
    t.expect(PROMPT)
    second = CliRunner().invoke(cli, ["play", "--resume", str(save)], input="quit\n")
    assert second.exit_code == 1 and "in use by another play" in " ".join(second.output.split())
    t.line("quit")
    assert t.wait() == 0
    assert load(save).settings.seed == 3 and not lock_path(save).exists()


def test_quit_at_the_pass_the_keyboard_prompt_quits_without_showing_the_cards(tmp_path):
    """At a shared keyboard, `quit` typed at "Seat N: press Enter to see your cards" was taken
    for Enter: seat N's cards were shown (to whoever typed it) and the game went on."""
    save = tmp_path / "g.jsonl"
    result = CliRunner().invoke(cli, ["play", "standard", "--seed", "1", "--fast", "--save", str(save),
                                      "--seat", "0", "--seat", "2"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert "press Enter to see your cards" in result.output
    assert "Your hand" not in result.output
    assert f"Saved. Resume with: bidwhist play --resume {save}" in result.output


@pytest.mark.parametrize("encoding", ["utf-8:strict", "utf-8:surrogateescape"])
def test_a_piped_line_that_is_not_utf8_loses_no_line_after_it(tmp_path, encoding):
    """Where stdin decodes strictly (a UTF-8 locale such as en_US.UTF-8; C.UTF-8 escapes instead),
    one byte that is not UTF-8 in piped moves failed the text reader with all it had read ahead:
    the moves after it were lost and play ended as at the end of input."""
    save = tmp_path / "g.jsonl"
    proc = subprocess.run(PROGRAM + ["play", "standard", "--seed", "1", "--fast", "--save", str(save)],
                          input=b"\xff\xfe\nscore\npass\nquit\n", capture_output=True,
                          env={**os.environ, "PYTHONIOENCODING": encoding, "COLUMNS": "100"})
    out = " ".join(proc.stdout.decode("utf-8", "replace").split())
    assert proc.returncode == 0, proc.stderr
    assert "that was not readable text" in out or "'\ufffd\ufffd' is not a call" in out
    assert "no hand finished yet" in out  # `score`, the line after, was read
    assert "you pass" in out


def test_a_piped_line_of_many_byte_characters_is_bounded_by_characters(tmp_path):
    """Lines are read as bytes now: 4,096 characters of 3 bytes each are still a move's length, one more is not."""
    save = tmp_path / "g.jsonl"
    for n, refused in ((4096, False), (4097, True)):
        save.unlink(missing_ok=True)
        sidecar_path(save).unlink(missing_ok=True)
        proc = subprocess.run(PROGRAM + ["play", "standard", "--seed", "1", "--fast", "--save", str(save)],
                              input="♠".encode() * n + b"\npass\nquit\n", capture_output=True,
                              env={**os.environ, "COLUMNS": "100"})
        out = " ".join(proc.stdout.decode().split())
        assert proc.returncode == 0 and "you pass" in out
        assert ("that line is longer than 4096 characters" in out) == refused
