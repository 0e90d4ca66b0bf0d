"""`bidwhist play`: the real program in a pseudo-terminal, the saved session, the table view.

The terminal tests start ``bidwhist`` (through this interpreter) on the slave side of
a pty made with the standard library, with a fixed window size, and talk to it as a
person would: they wait for a prompt, type, and read the screen (ANSI codes
stripped).  Where a test needs to know the cards (to try a card the rules refuse),
it reads the save the program writes after every move (the game record: the hands
finished, then the hand in play marked in progress), through the same
:class:`runtime.session.Session` the program uses.

The table view is tested on its own with rich's recording console.
"""

from __future__ import annotations

import fcntl
import io
import json
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from bidcompiler.cli import cli
from bidcompiler.cli.play import default_save_path
from bidcompiler.cli.replay import resolve_for_records
from bidcompiler.cli.table import render_screen, render_table, sort_hand
from bidcompiler.cli.terminal import for_you
from bidcompiler.pipeline import load_ruleset, shipped_variants
from runtime.bots import BOTS
from runtime.hand import DECLARE_DIRECTION, DECLARE_TRUMP, PLAY
from runtime.notation import parse_call, strain_index
from runtime.session import Session, SessionError, SessionIllegal, Settings, sidecar_path

PROGRAM = [sys.executable, "-c", "from bidcompiler.cli import main; main()"]
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78]")
PROMPT = re.compile(r"(Your call|Name trump|Choose the direction|Discard \(\d+ of \d+\)|Your lead|Your play|"
                    r"Lead \(its suit is trump\) or say notrump) \(seat (\d+)\) > ")
CARD_WORD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][SHDC]|BJ|LJ)(?![A-Za-z0-9])")
BOT = "heuristic" if "heuristic" in BOTS else "random"  # the registry may not have it yet
# How long to wait for the program before calling it stuck: a guard against hangs, not a
# speed limit (a loaded machine can take many seconds to start a game).
TIMEOUT = 120


# --------------------------------------------------------------------------- a pseudo-terminal
class Terminal:
    """The program on a pty: ``expect`` a pattern on the screen, ``send`` keys, ``wait`` for the exit."""

    def __init__(self, args: list[str], env: dict | None = None, cwd: Path | None = None,
                 rows: int = 50, cols: int = 110):
        full_env = {k: v for k, v in os.environ.items() if k not in ("BIDWHIST_FAST", "NO_COLOR", "COLUMNS", "LINES")}
        full_env.update({"TERM": "xterm-256color", "PYTHONUNBUFFERED": "1"})
        full_env.update(env or {})
        pid, fd = pty.fork()
        if pid == 0:  # the child: its terminal gets a fixed size before the program starts
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
                if cwd is not None:
                    os.chdir(cwd)
                # A person's terminal delivers ^C; a test suite started in the background
                # by a non-interactive shell has SIGINT ignored, and an ignored signal stays
                # ignored across exec (Python then installs no KeyboardInterrupt for it).
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                os.execvpe(PROGRAM[0], PROGRAM + args, full_env)
            finally:
                os._exit(127)
        self.pid = pid
        self.fd = fd
        self.raw = b""
        self.pos = 0  # screen text before this was matched already
        self.status: int | None = None

    @property
    def text(self) -> str:
        """Everything shown so far, without colours and cursor codes."""
        return ANSI.sub("", self.raw.decode("utf-8", "replace")).replace("\r", "")

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # EIO: the program has exited and the pty is closed
            return False
        if not chunk:
            return False
        self.raw += chunk
        return True

    def expect(self, pattern, timeout: float = TIMEOUT) -> re.Match:
        """Wait until ``pattern`` shows up after the last match; the match."""
        regex = re.compile(pattern) if isinstance(pattern, str) else pattern
        deadline = time.monotonic() + timeout
        while True:
            m = regex.search(self.text, self.pos)
            if m:
                self.pos = m.end()
                return m
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {regex.pattern!r}; screen ends:\n{self.text[-3000:]}")
            if not self._read(0.2):
                m = regex.search(self.text, self.pos)
                if m:
                    self.pos = m.end()
                    return m
                raise AssertionError(f"the program ended before {regex.pattern!r}; screen ends:\n"
                                     f"{self.text[-3000:]}")

    def send(self, keys: str) -> None:
        os.write(self.fd, keys.encode("utf-8"))

    def line(self, text: str) -> None:
        self.send(text + "\r")

    def wait_until_reading(self, timeout: float = TIMEOUT) -> None:
        """Wait until the program sleeps in its read of the terminal.

        A Ctrl-C that arrives after the prompt is printed but before ``input()``
        blocks is only acted on at the next key (CPython checks signals around the
        read, not inside it): a person never notices, a test sending ^C at once does.
        """
        stat = Path(f"/proc/{self.pid}/stat")
        if not stat.exists():  # no /proc here: give it a moment instead
            time.sleep(1)
            return
        wchan = Path(f"/proc/{self.pid}/wchan")
        deadline = time.monotonic() + timeout
        asleep = 0
        while asleep < 5 and time.monotonic() < deadline:
            state = stat.read_text().rsplit(")", 1)[1].split()[0]
            # Sleeping is not enough on a loaded machine (it may sleep on a page or the
            # scheduler before reaching the read): where the kernel says where it waits,
            # it must be the terminal's read (wait_woken, in n_tty_read).
            where = wchan.read_text().strip() if wchan.exists() else ""
            reading = state == "S" and where in ("", "0", "wait_woken", "n_tty_read")
            asleep = asleep + 1 if reading else 0
            time.sleep(0.02)

    def wait(self, timeout: float = TIMEOUT) -> int:
        """The exit status (128+N for a signal), reading the screen until then."""
        deadline = time.monotonic() + timeout
        while self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
                if self.status < 0:
                    self.status = 128 - self.status
                break
            if time.monotonic() > deadline:
                self.kill()
                raise AssertionError(f"the program did not exit; screen ends:\n{self.text[-3000:]}")
            self._read(0.1)
        while self._read(0.05) and select.select([self.fd], [], [], 0)[0]:
            pass
        return self.status

    def kill(self, sig: int = signal.SIGKILL) -> None:
        try:
            os.kill(self.pid, sig)
        except ProcessLookupError:
            pass

    def close(self) -> None:
        if self.status is None:
            self.kill()
            try:
                os.waitpid(self.pid, 0)
            except ChildProcessError:
                pass
        try:
            os.close(self.fd)
        except OSError:
            pass


@pytest.fixture
def terminals():
    opened: list[Terminal] = []

    def start(*args: str, **kwargs) -> Terminal:
        t = Terminal(list(args), **kwargs)
        opened.append(t)
        return t

    yield start
    for t in opened:
        t.close()


def saved_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def sidecar(path: Path) -> dict:
    return json.loads(sidecar_path(path).read_text(encoding="utf-8"))


def in_progress(path: Path) -> dict | None:
    """The partial record of the hand in play: FILE's last line, marked in progress (None: no such line)."""
    lines = saved_lines(path)
    last = json.loads(lines[-1]) if lines else {}
    return last if last.get("in_progress") else None


def finished_lines(path: Path) -> list[dict]:
    """The hands finished, as FILE holds them (every line but a last one in progress)."""
    lines = [json.loads(line) for line in saved_lines(path)]
    return lines[:-1] if lines and lines[-1].get("in_progress") else lines


def replay_json(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(PROGRAM + ["replay", str(path), "--json"], capture_output=True, text=True)


def load(path: Path) -> Session:
    return Session.load(path, resolve_for_records)


def play_to_the_end(t: Terminal, limit: int = 2000) -> int:
    """Answer every prompt with choice 1 until the game is over; the exit status."""
    for _ in range(limit):
        m = t.expect(re.compile(PROMPT.pattern + "|Game over|stopped after"))
        if not m.group(0).endswith("> "):
            return t.wait()
        t.line("1")
    raise AssertionError("the game did not end")


# --------------------------------------------------------------------------- the program at a terminal
def test_a_session_at_the_terminal_prompts_refuses_and_answers_commands(terminals, tmp_path):
    save = tmp_path / "game.jsonl"
    t = terminals("play", "standard", "--seed", "11", "--fast", "--save", str(save), "--bots", BOT,
                  env={"PAGER": "cat"})
    t.expect(r"Saving after every move to: .*game\.jsonl")
    t.expect("Your hand")
    prompt = t.expect(PROMPT)
    assert prompt[1] == "Your call" and prompt[2] == "0"
    # What a card is at the auction: a clear message and the same prompt again.
    t.line("AS")
    t.expect(r"'AS' is not a call")
    assert t.expect(PROMPT).group(0) == prompt.group(0)
    t.line("99")
    t.expect(r"99 is not a number of the list")
    t.expect(PROMPT)
    for command, shown in (("help", r"hint\s+what the heuristic bot would do"),
                           ("score", r"Score\s+us \(0\+2\) 0\s+them \(1\+3\) 0"),
                           ("history", r"hand 1 \(in play\): dealer"),
                           ("rules", r"The rules of this hand  \(rules all: the whole rulebook\)"),
                           ("rules all", r"House rules: none"),
                           ("hint", r"Hint: |No hint: the heuristic bot is not available")):
        t.line(command)
        t.expect(shown)
        assert t.expect(PROMPT).group(0) == prompt.group(0), command
    # Play on (choice 1) until the rules can refuse a card seat 0 holds.
    before = None
    while before is None:
        session = load(save)
        hand = session.hand
        assert session.current_player() == 0
        held = [c for c in hand.hands[0] if c not in hand.legal_actions()]
        if hand.phase == PLAY and hand.table is not None and hand.trick and held:
            card = session.rules.cards[held[0]]
            t.line(card.lower())  # forgiving: lower case
            m = t.expect(r"✗ you must follow (\w+): ([0-9A-Z]{2}(, [0-9A-Z]{2})*)")
            assert set(m[2].split(", ")) == {session.rules.cards[c] for c in hand.legal_actions()}
            assert t.expect(PROMPT).group(0) == prompt.group(0)
            assert "rule:" not in t.text and "follow-suit" not in t.text  # ids are for JSON, not people
            other = session.rules.cards[hand.hands[1][0]]  # a card seat 0 does not hold
            t.line(other)
            t.expect(rf"you do not hold {other}")
            assert t.expect(PROMPT).group(0) == prompt.group(0)
            before = in_progress(save)
            t.line("1")
            t.expect(r"you play ")
            break
        t.line("1")
        prompt = t.expect(PROMPT)
        assert prompt[2] == "0"
    # The legal card was saved at once.
    t.expect(PROMPT)
    after = in_progress(save)
    assert after != before and len(after["play"]) > len(before["play"])
    t.line("quit")
    t.expect(r"Saved\. Resume with: bidwhist play --resume")
    assert t.wait() == 0
    assert load(save).lines() == [json.loads(line) for line in saved_lines(save)]
    assert load(save).in_progress() == in_progress(save)


def test_sigkill_mid_hand_then_resume_loses_nothing_and_goes_on_identically(terminals, tmp_path):
    # The whole game once, without interruption, choosing the first option every time (seed 7: the
    # game lasts three hands) ...
    whole = tmp_path / "whole.jsonl"
    t = terminals("play", "standard", "--with", "to-5", "--seed", "7", "--fast", "--save", str(whole),
                  "--bots", BOT)
    assert play_to_the_end(t) == 0
    # ... and again, killed in the middle of the play of a hand after the first and resumed.
    cut = tmp_path / "cut.jsonl"
    t = terminals("play", "standard", "--with", "to-5", "--seed", "7", "--fast", "--save", str(cut),
                  "--bots", BOT)
    while True:
        m = t.expect(PROMPT)
        session = load(cut)
        if session.hands and session.hand.phase == PLAY and len(session.hand.tricks) >= 2:
            break
        t.line("1")
    t.send("4")  # half typed: this is all that may be lost
    time.sleep(0.2)
    before = saved_lines(cut), sidecar(cut)
    t.kill(signal.SIGKILL)
    assert t.wait() == 128 + signal.SIGKILL
    assert (saved_lines(cut), sidecar(cut)) == before
    # Killed mid-hand, the file is a game record of the hands finished and the hand in play.
    assert len(before[0]) == len(session.hands) + 1 and "in_progress" not in before[1]
    assert len(json.loads(before[0][-1])["play"]) >= 2 * session.rules.players
    cut_short = replay_json(cut)
    assert cut_short.returncode == 0, cut_short.stderr
    assert len(json.loads(cut_short.stdout)["hands"]) == len(session.hands) + 1
    r = terminals("play", "--resume", str(cut), "--fast")
    again = r.expect(PROMPT)
    assert again.group(0) == m.group(0)  # the same question, to the same seat
    assert (saved_lines(cut), sidecar(cut)) == before  # resuming changes nothing by itself
    r.line("1")
    deadline = time.monotonic() + TIMEOUT
    while saved_lines(cut) == before[0]:  # the move typed after resuming is saved at once
        assert time.monotonic() < deadline, "the move after resuming was not saved"
        time.sleep(0.05)
    assert play_to_the_end(r) == 0
    assert saved_lines(cut) == saved_lines(whole)  # the bots played exactly as in the uninterrupted game
    assert sidecar(cut) == sidecar(whole) and in_progress(cut) is None
    # A finished game's record replays.
    done = replay_json(cut)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["winner"] is not None and len(result["hands"]) == len(saved_lines(cut))


def test_ctrl_c_saves_and_exits_cleanly(terminals, tmp_path):
    save = tmp_path / "c.jsonl"
    t = terminals("play", "standard", "--seed", "3", "--fast", "--save", str(save), "--bots", BOT)
    t.expect(PROMPT)
    t.line("1")
    t.expect(PROMPT)
    t.wait_until_reading()
    t.send("\x03")
    t.expect(r"Interrupted; the game is saved in .*c\.jsonl")
    t.expect(r"Resume with: bidwhist play --resume .*c\.jsonl")
    assert t.wait() == 130
    assert "Traceback" not in t.text
    session = load(save)
    assert session.current_player() == 0 and len(session.actions) >= 1


def test_end_of_input_saves_like_quit(terminals, tmp_path):
    save = tmp_path / "d.jsonl"
    t = terminals("play", "standard", "--seed", "3", "--fast", "--save", str(save))
    t.expect(PROMPT)
    t.send("\x04")  # Ctrl-D on an empty line
    t.expect(r"Saved\. Resume with")
    assert t.wait() == 0
    assert sidecar_path(save).exists()


def test_default_save_path_is_shown_and_under_the_data_folder(terminals, tmp_path):
    t = terminals("play", "standard", "--seed", "3", "--fast", env={"XDG_DATA_HOME": str(tmp_path / "data")})
    m = t.expect(r"Saving after every move to: (\S+\.jsonl)")
    t.expect(PROMPT)
    t.line("quit")
    assert t.wait() == 0
    path = Path(m[1])
    assert path.parent == tmp_path / "data" / "bidwhist" / "games" and path.exists()
    assert sidecar_path(path).exists()


def test_default_save_path_follows_xdg(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    first = default_save_path()
    assert first.parent == tmp_path / "bidwhist" / "games" and first.suffix == ".jsonl"
    first.parent.mkdir(parents=True)
    first.write_text("")
    assert default_save_path() != first  # never an existing game


def test_hot_seat_clears_the_screen_between_people(terminals, tmp_path):
    save = tmp_path / "h.jsonl"
    t = terminals("play", "standard", "--seed", "9", "--fast", "--save", str(save), "--seat", "0", "--seat", "2")
    seen = set()
    for _ in range(6):
        m = t.expect(r"Seat (\d+): press Enter to see your cards > ")
        seen.add(m[1])
        t.line("")
        t.expect(PROMPT)
        t.line("1")
        if seen == {"0", "2"}:
            break
    assert seen == {"0", "2"}
    assert "\x1b[2J" in t.raw.decode("utf-8", "replace")  # the screen was cleared between them
    t.line("quit")


def test_usage_errors_exit_2_without_a_traceback(tmp_path):
    existing = tmp_path / "old.jsonl"
    existing.write_text("")
    runner = CliRunner()
    for args, said in (
        (["play"], "name a VARIANT"),
        (["play", "standard", "--save", str(existing)], "already exists"),
        (["play", "standard", "--save", str(tmp_path / "x.json")], "ends in .jsonl"),
        (["play", "standard", "--seat", "7", "--save", str(tmp_path / "y.jsonl")], "seat 7 is not at this table"),
        (["play", "standard", "--bots", "nobody", "--save", str(tmp_path / "z.jsonl")], "unknown bot"),
        (["play", "standard", "--resume", str(existing)], "cannot be given with it"),
        (["play", "--resume", str(existing)], "missing"),
    ):
        result = runner.invoke(cli, args)
        assert result.exit_code == 2, (args, result.output)
        assert said in result.stderr, (args, result.stderr)
        assert "Traceback" not in result.stderr


# --------------------------------------------------------------------------- the session on its own
def random_session(tmp_path: Path, variant: str, with_rules=(), seed: int = 1) -> tuple[Session, callable]:
    rules = load_ruleset(variant, tuple(with_rules))
    path = tmp_path / f"{variant}-{seed}.jsonl"
    return Session.new(rules, Settings(variant, list(with_rules), seed, [], "random"), path), \
        (lambda v, w: load_ruleset(v, tuple(w)))


@pytest.mark.parametrize("variant, seed", [("standard", 1), ("northeast52", 2), ("oregon", 3), ("cutthroat", 4)])
def test_a_session_reloaded_after_every_action_is_the_same_game(tmp_path, variant, seed):
    session, resolve = random_session(tmp_path, variant, seed=seed)
    steps = 0
    while not session.is_over() and steps < 400:
        session.apply(session.bot_choice())
        steps += 1
        if steps > 100 and steps % 7:
            continue  # every action of the first hands, then now and then (a load replays the whole file)
        # The file holds the hands finished, then the hand in play; the sidecar the settings only.
        assert [json.loads(line) for line in saved_lines(session.path)] == session.lines()
        assert finished_lines(session.path) == session.records() and len(session.records()) == len(session.hands)
        assert in_progress(session.path) == session.in_progress()
        assert sidecar(session.path) == session.settings.as_json()
        again = Session.load(session.path, resolve)
        assert again.records() == session.records() and again.in_progress() == session.in_progress()
        assert again.actions == session.actions and again.hand_index == session.hand_index
        assert again.tally.totals == session.tally.totals
        if not session.is_over():
            assert again.bot_choice() == session.bot_choice()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # no temporary file left behind


def test_a_declaration_made_halfway_is_saved(tmp_path):
    # Trump named, direction not yet: the record alone would forget the trump.
    for seed in range(1, 60):
        session, resolve = random_session(tmp_path, "northeast52", seed=seed)
        while not session.is_over() and session.hand.phase != DECLARE_DIRECTION:
            session.apply(session.bot_choice())
        if session.is_over() or "trump" not in in_progress(session.path).get("declare", {}):
            continue
        again = Session.load(session.path, resolve)
        assert again.hand.phase == DECLARE_DIRECTION and again.hand.trump == session.hand.trump
        return
    pytest.fail("no deal reached a direction choice after naming trump")


def test_a_finished_session_is_a_game_record_that_replays(tmp_path):
    session, _ = random_session(tmp_path, "standard", ["to-5"], seed=8)
    while not session.is_over():
        session.apply(session.bot_choice())
    result = CliRunner().invoke(cli, ["replay", str(session.path), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["winner"] == session.winner
    side = json.loads(sidecar_path(session.path).read_text())
    assert side["format"] == "bidwhist-session/1" and side["seed"] == 8 and side["with"] == ["to-5"]
    assert in_progress(session.path) is None  # the game is over: no hand in play
    assert [json.loads(line) for line in saved_lines(session.path)] == session.records()


def test_a_record_that_does_not_fit_its_session_is_refused(tmp_path):
    session, resolve = random_session(tmp_path, "standard", seed=2)
    for _ in range(10):
        session.apply(session.bot_choice())
    side = json.loads(sidecar_path(session.path).read_text())
    side["seed"] = 3  # another seed deals other cards
    sidecar_path(session.path).write_text(json.dumps(side))
    with pytest.raises(SessionError, match="expected dealer|not the deal of this session's seed"):
        Session.load(session.path, resolve)


def play_until(session: Session, done) -> None:
    while not session.is_over() and not done(session):
        session.apply(session.bot_choice())


def finish(session: Session) -> list[int]:
    """Play the game out with the bots; every action taken."""
    taken = []
    while not session.is_over():
        taken.append(session.bot_choice())
        session.apply(taken[-1])
    return taken


def test_a_save_is_a_game_record_with_the_hand_in_play_from_the_start(tmp_path):
    session, resolve = random_session(tmp_path, "northeast52", seed=8)
    path = session.path
    # Before anything is played: hand 0 as dealt, in progress; it replays (exit 0) and resumes.
    assert in_progress(path) == {**session.record_of(session.hand, []), "in_progress": True}
    assert len(saved_lines(path)) == 1 and "in_progress" not in sidecar(path)
    for command in ("replay", "analyze"):
        start = CliRunner().invoke(cli, [command, str(path), "--json"])
        assert start.exit_code == 0, start.output
        assert [h["in_progress"] for h in json.loads(start.stdout)["hands"]] == [True]
    play_until(session, lambda s: len(s.actions) >= 6)
    assert len(saved_lines(path)) == 1 and len(in_progress(path)["auction"]) >= 1
    early = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    assert early.exit_code == 0 and json.loads(early.stdout)["hands"][0]["score"] is None, early.output
    assert Session.load(path, resolve).actions == session.actions
    # Mid-hand after a hand or more: the hands finished, then the hand in play as the last line.
    play_until(session, lambda s: len(s.hands) >= 2 and len(s.hand.tricks) >= 1)
    assert not session.is_over(), "the game ended before the test's point"
    assert finished_lines(path) == session.records() and len(saved_lines(path)) == len(session.hands) + 1
    assert in_progress(path) == {**session.record_of(session.hand, session.actions), "in_progress": True}
    assert in_progress(path)["play"]
    result = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    replayed = json.loads(result.stdout)
    assert replayed["winner"] is None and len(replayed["hands"]) == len(session.hands) + 1
    assert [h["score"] for h in replayed["hands"]] == [list(h.score) for h in session.hands] + [None]


def test_resuming_mid_hand_goes_on_as_the_uninterrupted_game(tmp_path):
    whole, resolve = random_session(tmp_path / "whole", "northeast52", seed=6)
    finish(whole)
    cut, _ = random_session(tmp_path / "cut", "northeast52", seed=6)
    play_until(cut, lambda s: len(s.hands) >= 1 and len(s.actions) >= 9)
    resumed = Session.load(cut.path, resolve)
    assert resumed.actions == cut.actions and resumed.hand_index == cut.hand_index
    finish(resumed)
    assert saved_lines(resumed.path) == saved_lines(whole.path)
    assert sidecar(resumed.path) == sidecar(whole.path)


def second_layout(session: Session, pending: dict | None = None) -> None:
    """Rewrite a save as the second layout did: FILE the hands finished only, the sidecar the settings
    and the hand in progress, ``{"index", "record"}`` (the session's own unless ``pending`` is given)."""
    if pending is None:
        pending = {"index": len(session.hands), "record": session.in_progress()}
    session.path.write_text("".join(json.dumps(r, separators=(", ", ": ")) + "\n" for r in session.records()))
    sidecar_path(session.path).write_text(json.dumps({**session.settings.as_json(), "in_progress": pending}))


def test_a_stale_hand_in_a_sidecar_of_the_second_layout_is_ignored(tmp_path):
    # The second layout wrote FILE, then the sidecar, at the end of a hand; a crash between the two
    # left the sidecar holding the hand FILE already has finished.
    whole, resolve = random_session(tmp_path / "whole", "northeast52", seed=12)
    finish(whole)
    session, _ = random_session(tmp_path / "cut", "northeast52", seed=12)
    play_until(session, lambda s: len(s.hands) >= 1 and s.actions)
    finished = len(session.hands)
    while len(session.hands) == finished:  # up to the last action of this hand
        stale = {"index": finished, "record": session.in_progress()}
        session.apply(session.bot_choice())
    assert not session.is_over(), "the game ended before the test's point"
    second_layout(session, stale)  # as if the process died before writing the sidecar
    resumed = Session.load(session.path, resolve)
    assert resumed.hand_index == finished + 1 and resumed.actions == []
    assert resumed.records() == session.records() and resumed.in_progress() == session.in_progress()
    assert resumed.bot_choice() == session.bot_choice()
    finish(resumed)
    assert saved_lines(resumed.path) == saved_lines(whole.path)
    assert sidecar(resumed.path) == sidecar(whole.path)


def test_a_sidecar_hand_ahead_of_its_record_or_finished_is_refused(tmp_path):
    session, resolve = random_session(tmp_path, "northeast52", seed=8)
    play_until(session, lambda s: len(s.hands) >= 1 and len(s.actions) >= 3)
    second_layout(session)
    lines = saved_lines(session.path)
    session.path.write_text("\n".join(lines[:-1]) + ("\n" if lines[:-1] else ""))  # one finished hand short
    with pytest.raises(SessionIllegal, match=r"in_progress\.index: hand \d+ is in progress, but .* holds"):
        Session.load(session.path, resolve)
    session.path.write_text("\n".join(lines) + "\n")
    side = sidecar(session.path)
    side["in_progress"]["record"]["play"] = ["XX"]
    sidecar_path(session.path).write_text(json.dumps(side))
    with pytest.raises(SessionIllegal, match=r"session\.json: in_progress\.record"):
        Session.load(session.path, resolve)
    side["in_progress"] = {"index": 0}
    sidecar_path(session.path).write_text(json.dumps(side))
    with pytest.raises(SessionError, match="in_progress: expected an object with index and record"):
        Session.load(session.path, resolve)
    side["in_progress"] = {"index": len(lines) - 1, "record": json.loads(lines[-1])}  # stale: ignored
    sidecar_path(session.path).write_text(json.dumps(side))
    assert Session.load(session.path, resolve).actions == []
    side["in_progress"] = {"index": len(lines), "record": json.loads(lines[-1])}  # a finished hand, misplaced
    sidecar_path(session.path).write_text(json.dumps(side))
    with pytest.raises(SessionIllegal, match="in_progress"):
        Session.load(session.path, resolve)


def test_a_marked_line_must_be_the_last_unfinished_and_marked_true(tmp_path):
    session, resolve = random_session(tmp_path, "northeast52", seed=8)
    play_until(session, lambda s: len(s.hands) >= 1 and len(s.actions) >= 3)
    lines = [json.loads(line) for line in saved_lines(session.path)]

    def refused(changed: list[dict], at: str) -> None:
        session.path.write_text("".join(json.dumps(r) + "\n" for r in changed))
        with pytest.raises(SessionIllegal, match=re.escape(f"{session.path}: {at}: ")):
            Session.load(session.path, resolve)

    refused([*lines[:-1], {**lines[-1], "in_progress": False}], f"hand[{len(lines) - 1}].in_progress")
    refused([{**lines[0], "in_progress": True}, *lines[1:]], "hand[0].in_progress")
    refused([lines[-1], *lines[:-1]], "hand[0].dealer")


def first_layout(session: Session) -> None:
    """Rewrite a save as the first layout did: the hand in progress as FILE's last line, unmarked, the
    sidecar with the settings only."""
    records = session.records() + [session.record_of(session.hand, session.actions)]
    session.path.write_text("".join(json.dumps(r, separators=(", ", ": ")) + "\n" for r in records))
    sidecar_path(session.path).write_text(json.dumps(session.settings.as_json(), indent=2) + "\n")


@pytest.fixture(scope="module")
def northeast52_game_8(tmp_path_factory) -> tuple[list[str], dict]:
    """The save (FILE's lines, the sidecar) of northeast52's game of seed 8 played out
    uninterrupted: the same for every test that resumes that game, so played once."""
    whole, _ = random_session(tmp_path_factory.mktemp("whole"), "northeast52", seed=8)
    finish(whole)
    return saved_lines(whole.path), sidecar(whole.path)


@pytest.mark.parametrize("layout", [first_layout, second_layout])
@pytest.mark.parametrize("hands_done", [0, 1])
def test_a_save_of_an_earlier_layout_resumes_and_is_saved_in_the_new(tmp_path, hands_done, layout,
                                                                     northeast52_game_8):
    session, resolve = random_session(tmp_path / "old", "northeast52", seed=8)
    play_until(session, lambda s: len(s.hands) >= hands_done and len(s.actions) >= 7)
    layout(session)
    resumed = Session.load(session.path, resolve)
    assert resumed.actions == session.actions and resumed.hand_index == session.hand_index
    assert resumed.records() == session.records() and resumed.in_progress() == session.in_progress()
    resumed.apply(resumed.bot_choice())  # the next save writes the hand in progress into FILE
    assert [json.loads(line) for line in saved_lines(resumed.path)] == resumed.lines()
    assert sidecar(resumed.path) == resumed.settings.as_json()
    finish(resumed)
    assert (saved_lines(resumed.path), sidecar(resumed.path)) == northeast52_game_8


def test_a_second_layout_save_resumed_with_other_seats_keeps_its_hand_before_any_move(tmp_path):
    # play --resume with another --seat or --bots rewrites the sidecar at once (save_settings), before
    # any move: the hand the old sidecar held must be in FILE by then, or a crash at the prompt loses it.
    session, resolve = random_session(tmp_path, "northeast52", seed=8)
    play_until(session, lambda s: len(s.hands) >= 1 and len(s.actions) >= 7)
    second_layout(session)
    resumed = Session.load(session.path, resolve, seats=[2])
    assert resumed.settings_changed
    resumed.save_settings()  # what play's _resume does; then the process dies at the prompt
    again = Session.load(session.path, resolve)
    assert again.actions == session.actions and again.hand_index == session.hand_index
    assert again.settings.seats == [2]
    assert "in_progress" not in sidecar(session.path)


def test_a_save_caught_moving_its_hand_between_the_files_resumes_from_the_newer(tmp_path):
    # FILE's unfinished line and the sidecar's hand are the same hand: the one that goes on from
    # the other is the newer (the first layout moved it sidecar first; this one writes FILE first).
    session, resolve = random_session(tmp_path, "northeast52", seed=8)
    play_until(session, lambda s: len(s.hands) >= 1 and len(s.actions) >= 5)
    earlier = {"index": len(session.hands), "record": session.in_progress()}
    session.apply(session.bot_choice())
    session.apply(session.bot_choice())
    later = {"index": len(session.hands), "record": session.in_progress()}
    for line, side in ((earlier, later), (later, earlier)):
        first_layout(session)  # FILE ends with the hand unfinished ...
        lines = saved_lines(session.path)
        lines[-1] = json.dumps(line["record"])
        session.path.write_text("\n".join(lines) + "\n")
        data = {**session.settings.as_json(), "in_progress": side}  # ... and so does the sidecar
        sidecar_path(session.path).write_text(json.dumps(data))
        resumed = Session.load(session.path, resolve)
        assert resumed.actions == session.actions and resumed.in_progress() == session.in_progress()
    # Two that do not go on one from the other are refused.
    other, _ = random_session(tmp_path / "other", "northeast52", seed=8)
    play_until(other, lambda s: len(s.hands) >= 1 and len(s.actions) >= 5)
    first_layout(other)
    different = dict(later["record"])
    different["auction"] = different["auction"][:-1] + ["pass" if different["auction"][-1] != "pass" else "4 uptown"]
    sidecar_path(other.path).write_text(json.dumps({**other.settings.as_json(),
                                                    "in_progress": {**later, "record": different}}))
    with pytest.raises(SessionError, match="does not go on from the unfinished last line|in_progress.record"):
        Session.load(other.path, resolve)


def test_messages_are_said_to_you():
    assert for_you("seat 2 must follow hearts (holds 7H, 9H)", 2) == "you must follow hearts: 7H, 9H"
    assert for_you("seat 0 does not hold AS", 0) == "you do not hold AS"
    assert for_you("seat 3 is the dealer and must bid: everyone else passed", 3).startswith("you are the dealer")
    assert for_you("seat 1 bid 4 uptown, which does not outrank 5 uptown (seat 2)", 1).startswith("you bid 4")


# --------------------------------------------------------------------------- the table view
def screen(obs, rules, **options) -> str:
    console = Console(record=True, width=100, file=open(os.devnull, "w"))
    console.print(render_screen(obs, rules, **options))
    return console.export_text()


def test_the_screen_shows_one_seat_its_own_cards_and_what_was_played_only(tmp_path):
    session, _ = random_session(tmp_path, "standard", seed=21)
    rules = session.rules
    while not session.is_over():
        obs = session.observation(0)
        text = screen(obs, rules, you=0)
        shown = set(CARD_WORD.findall(text))
        played = {rules.cards[c] for _, t, _ in session.hand.tricks for c in t} | set(obs["trick"])
        others = {rules.cards[c] for s in (1, 2, 3) for c in session.hand.hands[s]}
        assert not (shown & others) - played, (shown & others)
        assert set(obs["hand"]) <= shown
        session.apply(session.bot_choice())


def test_open_shows_every_hand(tmp_path):
    session, _ = random_session(tmp_path, "standard", seed=5)
    text = screen(session.observation(0, open_hands=True), session.rules, you=0)
    for seat in range(4):
        for c in session.hand.hands[seat]:
            assert session.rules.cards[c] in text
    assert "seat 2 (partner)" in text


def test_the_hand_is_sorted_for_the_contract_trumps_first(tmp_path):
    rules = load_ruleset("standard")
    hand = ["2S", "AS", "KH", "3H", "BJ", "LJ", "5D", "QC"]
    obs = {"contract": {"declarer": 1, "side": 1, "bid": 4, "strain": "downtown", "trump": "H",
                        "direction": "downtown"}, "declared": True}
    groups = sort_hand(rules, hand, obs)
    assert groups[0][1][:2] == ["BJ", "LJ"]  # the jokers are the top trumps
    assert groups[0][1][2:] == ["3H", "KH"]  # downtown: the low heart is the better one
    assert [sorted(g[1]) for g in groups[1:]] == [["2S", "AS"], ["5D"], ["QC"]]  # then the deck's suit order
    table = rules.tables[(1, 1)]
    for _, cards in groups:
        powers = [table.power[rules.card_id(c)] for c in cards]
        assert powers == sorted(powers, reverse=True)
    # Before the contract: natural suits, jokers in front.
    before = sort_hand(rules, hand, {"contract": None})
    assert before[0][1] == ["BJ", "LJ"] and before[1][1] == ["AS", "2S"]


def test_a_rendered_table_example(tmp_path):
    session, _ = random_session(tmp_path, "standard", seed=4)
    while not (session.hand.phase == PLAY and session.hand.trick and len(session.hand.tricks) >= 1):
        session.apply(session.bot_choice())
    obs = session.observation(0)
    text = screen(obs, session.rules, you=0, title="bidwhist · standard · hand 1",
                  choices=[session.rules.cards[c] for c in session.hand.hands[0]])
    for label in ("Seats", "Score", "Dealer", "Auction", "Contract", "Books", "Trick 1", "Trick 2",
                  "Your hand", "To move", "bidwhist · standard · hand 1"):
        assert label in text, label
    assert " 1 " + session.rules.cards[session.hand.hands[0][0]] in text
    assert len(max(text.splitlines(), key=len)) <= 100
    # A bare hand observation (no session extras) renders too.
    plain = session.hand.observation(0)
    console = Console(record=True, width=100, file=open(os.devnull, "w"))
    console.print(render_table(plain, session.rules))
    assert "Your hand" in console.export_text()


# --------------------------------------------------------------------------- what a person is told (issue 11)
def terminal_for(session: Session, open_hands: bool = False, width: int = 80):
    """The play terminal around ``session``, printing to a recording console of ``width`` columns."""
    from bidcompiler.cli.terminal import Terminal as PlayTerminal
    from bidcompiler.pipeline import compile_variant
    from bidcompiler.rulebook import rulebook

    console = Console(record=True, width=width, file=io.StringIO(), highlight=False, markup=False)
    s = session.settings
    term = PlayTerminal(session, console, fast=True, open_hands=open_hands,
                        rulebook=lambda: rulebook(compile_variant(s.variant, tuple(s.with_rules))))
    return term, console


def people_session(tmp_path: Path, variant: str = "standard", seed: int = 1) -> Session:
    """A session with every seat a person's, to drive by hand."""
    rules = load_ruleset(variant)
    return Session.new(rules, Settings(variant, [], seed, list(range(rules.players)), "random"),
                       tmp_path / f"people-{seed}.jsonl")


def to_trump(session: Session) -> int:
    """The first caller bids the lowest bid (3 uptown), the others pass: the declarer, to name trump."""
    rules = session.rules
    first = session.current_player()
    session.apply(rules.first_bid_action)
    while session.hand.phase == 0:  # AUCTION
        session.apply(rules.pass_action)
    assert session.hand.declarer == first and session.current_player() == first
    return first


def test_a_refusal_is_said_in_words_not_rule_ids(tmp_path):
    session = people_session(tmp_path)
    term, console = terminal_for(session)
    seat = to_trump(session)
    assert term.handle(seat, "notrump") is False  # 3 uptown names a suit: notrump is refused
    text = console.export_text()
    assert "✗ you must choose one of: spades, hearts, diamonds, clubs" in text
    assert "rule" not in text and "trump S" not in text  # neither the rule's id nor the action's
    assert term.handle(seat, "hearts") is True
    # A card not held, in the kitty exchange: words again.
    other = next(c for c in range(session.rules.n_cards) if c not in session.hand.hands[seat])
    term.handle(seat, session.rules.cards[other])
    assert f"✗ you do not hold {session.rules.cards[other]}\n" in console.export_text()


def test_another_seats_discards_are_told_once_with_the_count(tmp_path):
    for open_hands in (False, True):
        rules = load_ruleset("standard")
        session = Session.new(rules, Settings("standard", [], 2, [0], "random"), tmp_path / f"d-{open_hands}.jsonl")
        term, console = terminal_for(session, open_hands=open_hands)
        bot_declared = 0
        while not session.is_over() and bot_declared < 2:
            hands_before = len(session.hands)
            seat = session.current_player()
            if session.hand.phase == 3 and seat != 0:  # DISCARD, by a bot
                bot_declared += session.hand.discards == []
            if session.is_human(seat):
                term.apply(session.legal_actions()[0])
            else:
                term.bot_turn(seat)
            assert len(session.hands) >= hands_before
        text = console.export_text()
        assert bot_declared, "no bot declared in the hands played"
        assert "discards a card" not in text
        told = re.findall(r"seat \d \((?:left|partner|right)\) lays away 6 cards(: .*)?\n", text)
        assert len(told) == bot_declared
        for cards in told:
            assert bool(cards) == open_hands and (not cards or len(cards[2:].split()) == 6)


def rules_text(term, console) -> list[str]:
    start = len(console.export_text(clear=False).splitlines())
    term.show_rules()
    return console.export_text(clear=False).splitlines()[start:]


def test_rules_at_the_prompt_shows_the_hand_in_play_in_a_screenful(tmp_path):
    session = people_session(tmp_path)
    term, console = terminal_for(session)
    during_auction = rules_text(term, console)
    assert during_auction[0].startswith("The rules of this hand  (rules all: the whole rulebook)")
    assert any("none yet: the auction is on, no bid yet" in line for line in during_auction)
    assert "The auction" in during_auction and "Game end" in during_auction
    seat = to_trump(session)
    term.handle(seat, "hearts")
    while session.hand.phase == 3:  # the declarer's discards
        session.apply(session.legal_actions()[0])
    shown = rules_text(term, console)
    joined = "\n".join(shown)
    assert f"3 uptown by seat {seat}: hearts trump, played uptown" in joined
    assert re.search(r"trumps +BJ LJ AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H, highest first", joined)
    assert "need 9 of the 13 books" in joined  # 6 + the bid of 3, the discards counting as a book
    assert re.search(r"if made +9 books \+3 · 10 \+4 · 11 \+5 · 12 \+6 · 13 \+7", joined)
    assert re.search(r"if set +0-8 books -3\b", joined)
    assert "Game end" in shown and "score >= target" in joined
    assert "Players and cards" not in joined  # the rest of the rulebook is for `rules all`
    assert len(shown) <= 23, joined  # with the prompt, a terminal of 24 lines
    # `rules all`: the whole rulebook (not at a terminal here, so not paged).
    term.handle(seat, "rules all")
    assert "Players and cards" in console.export_text()


@pytest.mark.parametrize("variant", sorted(shipped_variants()))
def test_rules_at_the_prompt_fits_24_lines_in_every_shipped_game(tmp_path, variant):
    session, _ = random_session(tmp_path, variant, seed=3)
    session.settings.seats[:] = [0]
    term, console = terminal_for(session)
    while not session.is_over() and len(session.hands) < 1:
        assert len(rules_text(term, console)) <= 23, variant
        session.apply(session.bot_choice())


def test_rules_all_is_paged_at_a_small_terminal(terminals, tmp_path):
    t = terminals("play", "standard", "--seed", "11", "--fast", "--save", str(tmp_path / "g.jsonl"),
                  "--bots", BOT, rows=24, cols=80,
                  env={"PAGER": "echo PAGED-BY-THE-PAGER; cat", "MANPAGER": "echo PAGED-BY-THE-PAGER; cat"})
    t.expect(PROMPT)
    t.line("rules")
    t.expect(r"The rules of this hand")
    t.expect(PROMPT)
    assert "PAGED-BY-THE-PAGER" not in t.text  # a screenful is printed, not paged
    t.line("rules all")
    t.expect(r"PAGED-BY-THE-PAGER")
    t.expect(r"Players and cards")
    t.expect(PROMPT)
    t.line("quit")
    assert t.wait() == 0


def test_a_typed_bid_that_is_no_call_says_what_is_wrong_with_it(tmp_path):
    """`9 nt` is out of the ladder and `4 uptwn` names no strain: the refusal says which."""
    result = CliRunner().invoke(cli, ["play", "standard", "--seed", "3", "--fast", "--save",
                                      str(tmp_path / "g.jsonl")], input="9 nt\n4 uptwn\nquit\n")
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())  # the console wraps long lines
    assert "'9 nt' is not a call: bids go from 3 to 7; try pass" in said
    assert "'4 uptwn' is not a call: 'uptwn' is not a strain here (uptown, downtown, notrump); try pass" in said


def test_a_bid_with_a_fraction_is_told_a_level_is_a_whole_number(tmp_path):
    """`1.5` was told "bids go from 3 to 7" (read as `1 .5`), `4.0` "'.0' is not a strain"."""
    result = CliRunner().invoke(cli, ["play", "standard", "--seed", "3", "--fast", "--save",
                                      str(tmp_path / "g.jsonl")], input="1.5\n4.0 nt\n3,5\nquit\n")
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())  # the console wraps long lines
    for typed in ("1.5", "4.0 nt", "3,5"):
        found = re.search(rf"'{re.escape(typed)}' is not a call: a bid's level is a whole number "
                          r"\(([0-9]) to 7 now\); try pass", said)
        assert found and 3 <= int(found.group(1)) <= 7, said
    assert "bids go from" not in said and "is not a strain" not in said


def test_replaying_a_save_before_its_first_hand_is_over_says_so(tmp_path):
    """The empty record of a play save is named as one, with how to go on, not only "empty file"."""
    session, _ = random_session(tmp_path, "standard", seed=8)
    path = session.path
    second_layout(session)  # a save of the layout that kept the hand in progress in the sidecar
    assert saved_lines(path) == []
    for command in ("replay", "analyze"):
        result = CliRunner().invoke(cli, [command, str(path)])
        assert result.exit_code == 2
        assert result.stderr == (f"{path}: empty file, expected a bidwhist-hand/1 record (a game saved by "
                                 f"`bidwhist play`, no hand finished yet; `bidwhist play --resume {path}` "
                                 "goes on with it)\n")


def test_typing_more_discards_than_are_left_discards_none_of_them(tmp_path):
    """Seven numbers for six discards were the first six discarded and the seventh dropped unsaid."""
    result = CliRunner().invoke(cli, ["play", "standard", "--seed", "3", "--fast", "--save", str(tmp_path / "g.jsonl")],
                                input="7 nt\nup\n1 2 3 4 5 6 7\n1 2\nAS KS QS JS TS\nquit\n")
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())  # the console wraps long lines
    assert "you call 7 notrump" in said
    assert "7 cards typed, but 6 more to discard (6 in all): nothing was discarded" in said
    assert "5 cards typed, but 4 more to discard (6 in all): nothing was discarded" in said
    assert said.count("you discard ") == 2


def test_a_discard_typed_twice_discards_nothing(tmp_path):
    """`1 1 1 1 1 1` discarded one card and dropped the rest unsaid; `QS QS` discarded one, then refused one."""
    result = CliRunner().invoke(cli, ["play", "standard", "--seed", "3", "--fast", "--save", str(tmp_path / "g.jsonl")],
                                input="7 nt\nup\n1 1 1 1 1 1\nQS qs\nquit\n")
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())  # the console wraps long lines
    assert said.count("typed twice: nothing was discarded") == 2 and "you discard " not in said


def test_where_a_bare_number_is_a_bid_a_refused_number_says_how_to_pick_from_the_list(tmp_path):
    """hawaii bids bare numbers: `1` is a bid of 1, refused, and the message said "or a number from the list"."""
    result = CliRunner().invoke(cli, ["play", "hawaii", "--seed", "7", "--fast", "--save", str(tmp_path / "g.jsonl")],
                                input="1\nquit\n")
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())  # the console wraps long lines
    assert "'1' is not a call: bids go from 3 to 7; try pass, a bid such as '4', or #N for choice N of the list" in said


def test_resuming_a_file_that_does_not_exist_says_so(tmp_path):
    """Not "FILE.session.json: missing" of a FILE that is not there either."""
    path = tmp_path / "nope.jsonl"
    result = CliRunner().invoke(cli, ["play", "--resume", str(path)])
    assert result.exit_code == 2
    assert (f"{path}: no such file: give the FILE a play saved to (the path it showed at the start, or its "
            "--save FILE)") in " ".join(result.stderr.split())
    assert not any(tmp_path.iterdir())  # no lock or other file left behind


def test_a_direction_that_is_none_says_a_number_works_too(tmp_path):
    """The direction prompt lists numbered choices and takes them: its refusal says so, as the others do."""
    result = CliRunner().invoke(cli, ["play", "standard", "--seed", "3", "--fast", "--save", str(tmp_path / "g.jsonl")],
                                input="7 nt\nsideways\n2\nquit\n")
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "'sideways' is not a direction: say one of uptown, downtown, or a number from the list" in said
    assert "you choose downtown" in said


def test_a_rubber_says_each_game_as_it_ends_and_who_won_the_rubber(tmp_path):
    """records.md asks replay's text to say "each game's result as it ends, the rubber's standing,
    and who won it"; play at the terminal says the same, with each ended game's own totals (the
    tally's start again from zero for the next game)."""
    save = tmp_path / "rubber.jsonl"
    result = CliRunner().invoke(cli, ["play", "oregon", "--seed", "11", "--fast", "--save", str(save)],
                                input="pass\n1\n7\n" * 1500)
    assert result.exit_code == 0, result.stdout[-2000:]
    out = result.stdout
    replayed = json.loads(CliRunner().invoke(cli, ["replay", str(save), "--json"]).stdout)
    games = replayed["games"]
    assert len(games) >= 2 and replayed["winner"] is not None
    labels = {0: "us (0+2)", 1: "them (1+3)"}
    for n, game in enumerate(games, 1):
        w = game["winner"]
        line = f"game {n} won by {labels[w]}, {game['totals'][w]} to {game['totals'][1 - w]}"
        assert line in out
        # the totals printed just before are that game's, not the next game's zero
        before = out[:out.index(line)].rstrip().splitlines()[-1]
        assert before.strip() == f"totals  us (0+2) {game['totals'][0]}   them (1+3) {game['totals'][1]}"
    won = sum(1 for g in games if g["winner"] == replayed["winner"])
    assert f"Rubber over: {labels[replayed['winner']]} win the rubber, {won} games to {len(games) - won}." in out
    assert "Game over:" not in out
    assert f"(each game of the rubber, best of {load_ruleset('oregon').game_end.rubber}: a side wins when" in out


def test_a_session_file_without_its_record_says_the_game_was_never_saved(tmp_path):
    # Session.new writes the session file, then FILE: a crash in between leaves the first alone.
    session, resolve = random_session(tmp_path, "northeast52", seed=8)
    session.path.unlink()
    with pytest.raises(SessionError, match=r"no such file: .*session\.json is there, but the game it begins "
                                           r"was never saved.*play --save"):
        Session.load(session.path, resolve)


def test_a_direction_alias_beyond_ascii_is_read_as_written(tmp_path):
    """A strain alias `HÖHER` (lent to the order uptown) is kept in ASCII case (`hÖher`); the
    prompt lowered the typed word in Unicode case (`höher`), so the alias as written was refused."""
    text = (Path(__file__).parent.parent / "variants" / "standard.yaml").read_text(encoding="utf-8")
    (tmp_path / "mine.yaml").write_text(text.replace("aliases: [high, up]", "aliases: [high, up, HÖHER]")
                                        .replace("name: standard", "name: mine", 1), encoding="utf-8")
    result = CliRunner().invoke(cli, ["play", str(tmp_path / "mine.yaml"), "--seed", "3", "--fast",
                                      "--save", str(tmp_path / "g.jsonl")], input="7 nt\nHÖHER\nquit\n")
    assert result.exit_code == 0, result.output
    assert "is not a direction" not in result.output and "to discard" in result.output, result.output[-600:]


def test_a_bid_typed_glued_or_shortened_is_read_and_a_suit_in_a_bid_is_explained(tmp_path):
    """`4NT`, `5low`, `4 u` are bids as players write them; `4h` and `4 uptown hearts` name a
    suit, which a bid here does not: refused, saying so (not read as `4 high`)."""
    session = people_session(tmp_path)
    term, console = terminal_for(session)
    rules = session.rules
    seat = session.current_player()
    for typed, call in (("4NT", "4 notrump"), ("5low", "5 downtown"), ("4 u", "4 uptown"), ("3 notr", "3 notrump"),
                        ("4 no trump", "4 notrump"), ("4 No-Trump", "4 notrump"), ("5 up town", "5 uptown")):
        assert term.parse(typed) == ([rules.first_bid_action + rules.action_names[rules.first_bid_action:]
                                      .index(call)], None), typed
    for typed, why in (("4h", "a bid here names no suit ('h' is hearts), only one of uptown, downtown, notrump"),
                       ("4 uptown hearts", "a bid here names no suit (hearts), only one of uptown, downtown, notrump")):
        assert term.handle(seat, typed) is False
        assert f"✗ '{typed}' is not a call: {why}; try pass" in " ".join(console.export_text().split())
    assert session.hand.calls == []  # nothing was bid
    assert parse_call(rules, "4 no trump") is None and parse_call(rules, "4nt") is None  # records: strictly


def test_a_shortened_strain_that_also_starts_a_suits_name_is_not_read_as_the_strain(tmp_path):
    """Where a strain has the alias `special` (cincinnati), `4sp` may be 4 spades as well as
    4 special: refused, not read as a downtown bid; `4spe` starts only `special` and is read."""
    session = people_session(tmp_path, "cincinnati")
    term, _ = terminal_for(session)
    rules = session.rules
    assert "special" in rules.strains[strain_index(rules, "downtown")].aliases  # what makes `sp` two-faced
    downtown = rules.first_bid_action + rules.action_names[rules.first_bid_action:].index("4 downtown")
    assert term.parse("4spe") == ([downtown], None)
    for typed in ("4sp", "4 sp", "4 SP"):
        actions, why = term.parse(typed)
        assert actions == [] and why is not None and why.startswith(f"'{typed}' is not a call"), typed


def test_a_shortened_bare_strain_is_read_where_the_ladder_has_other_strains(tmp_path):
    """cincinnati's uptown is bare (`4` bids it) and also `4 uptown`, `4 up`: every start
    of its name that no other strain's name or alias has is read too, as for the others."""
    session = people_session(tmp_path, "cincinnati")
    term, _ = terminal_for(session)
    rules = session.rules
    assert rules.strains[strain_index(rules, "uptown")].bare and len(rules.strains) > 1
    uptown = parse_call(rules, "4 uptown")
    for typed in ("4 up", "4 upt", "4 upto", "4uptow", "4u", "4 hi"):
        assert term.parse(typed) == ([uptown], None), typed
    assert parse_call(rules, "4 upt") is None  # records: strictly


@pytest.mark.parametrize("variant", ["standard", "cutthroat"])
def test_the_books_line_says_what_makes_the_contract_as_the_scoring_does(tmp_path, variant):
    """`Books us 3 them 1 · the contract needs 9`: the fewest books the engine's own scoring
    makes the contract with (standard: 6 + the bid; cutthroat: the bid), once trump is settled."""
    from bidcompiler.cli.hand_rules import books_to_make

    session = people_session(tmp_path, variant)
    term, console = terminal_for(session)
    seat = to_trump(session)
    assert books_to_make(session.hand) is None  # trump not yet named: the table is not settled
    assert term.handle(seat, "hearts") is True
    level = session.rules.bids[session.hand.bid].level
    need = books_to_make(session.hand)
    assert need == (level if variant == "cutthroat" else 6 + level)
    while session.hand.phase != PLAY:
        session.apply(session.legal_actions()[0])
    term.show_table(session.current_player())
    assert f"· the contract needs {need}" in console.export_text()


def test_the_end_of_a_hand_says_the_books_needed_and_the_scoring_in_words(tmp_path):
    """A hand's end said `set` and the score; now also the books needed against those taken,
    the scoring formulas read in words, and how the game ends."""
    moves = "7 nt\nup\n1 2 3 4 5 6\n" + "1\n" * 12 + "quit\n"
    result = CliRunner().invoke(cli, ["play", "standard", "--seed", "3", "--fast", "--save",
                                      str(tmp_path / "g.jsonl")], input=moves)
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())  # the console wraps long lines
    took = int(re.search(r"books us \(0\+2\) (\d+) them", said)[1])
    made = took >= 13
    outcome = "made, exactly" if made else f"set, {13 - took} short"
    assert f"needed 13 books to make 7 notrump; us (0+2) took {took}: {outcome}" in said
    assert ("scoring the declarers score — made: the declarers' books over six; set: minus the bid · "
            "times 2 in no trump, otherwise 1") in said
    game = "a side wins when the side's score is at least 7; it loses when the side's score is at most -7"
    # The game goes on after the hand (`game` says what ends it), or it is over (said after the final score).
    if "Game over" in said:
        assert re.search(rf"Final score: us \(0\+2\) -?\d+ them \(1\+3\) -?\d+ \({re.escape(game)}\)", said)
    else:
        assert f"game {game}" in said


def test_last_and_auction_at_the_prompt_show_the_last_trick_and_the_calls(tmp_path):
    """`last` shows the last finished trick with its winner; `auction` the calls and the contract."""
    session = people_session(tmp_path)
    term, console = terminal_for(session)
    assert term.handle(session.current_player(), "last") is False
    assert "no trick finished yet in this hand" in console.export_text()
    term.handle(session.current_player(), "score")  # what ends the game, under the score
    assert "  game    a side wins when the side's score is at least 7;" in console.export_text()
    seat = to_trump(session)
    term.handle(seat, "auction")
    said = console.export_text()
    assert "  auction: " in said and "3 uptown" in said and "contract: 3 uptown by " in said
    while not session.hand.tricks:
        session.apply(session.legal_actions()[0])
    leader, cards, winner = session.hand.tricks[-1]
    term.handle(session.current_player(), "last")
    rules = session.rules
    line = ", ".join(f"{term.who((leader + j) % rules.players)} {rules.cards[c]}" for j, c in enumerate(cards))
    assert f"  trick 1: {line} → {term.who(winner)}" in console.export_text()


def test_where_a_bid_is_a_bare_number_a_suit_or_word_after_it_is_refused_in_words(tmp_path):
    """hawaii bids numbers alone: `4h` and `4 x` were told "only one of ;" and "not a strain here ()"."""
    result = CliRunner().invoke(cli, ["play", "hawaii", "--seed", "4", "--fast", "--save", str(tmp_path / "g.jsonl")],
                                input="4h\n4 x\nquit\n")
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())  # the console wraps long lines
    assert "'4h' is not a call: a bid here names no suit ('h' is hearts), nothing after its number; try pass" in said
    assert "'4 x' is not a call: a bid here names nothing after its number; try pass" in said


def test_where_a_bare_number_is_a_bid_a_refused_bid_says_how_to_pick_from_the_list(tmp_path):
    """`1` after a bid of 4 was "you bid 1, which does not outrank 4", typed again and again by a
    player who meant the first choice of the list: the refusal says `#1` picks it."""
    result = CliRunner().invoke(cli, ["play", "northeast52", "--seed", "5", "--fast", "--save",
                                      str(tmp_path / "g.jsonl")], input="1\n#1\nquit\n")
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())  # the console wraps long lines
    refused = re.search(r"✗ you bid 1, which does not outrank (\d+) \(seat \d\) \(#1 picks choice 1 of the list\)", said)
    assert refused, said[-1500:]
    assert "you pass" in said[refused.end():] or "you call" in said[refused.end():]  # #1 was taken


def test_the_scoring_words_at_a_hands_end_name_one_declarer_where_there_are_no_partners(tmp_path):
    """Without partnerships the declarer scores alone: "the declarer scores", and a multiplier
    that applies to the declarer's score only says so."""
    from bidcompiler.cli.hand_rules import hand_score_lines

    session = people_session(tmp_path, "cutthroat")
    rules = session.rules
    assert rules.players == rules.sides and not rules.scoring.multiply_defenders
    while not session.hands:
        session.apply(session.legal_actions()[0])
    hand = session.hands[0]
    lines = dict(hand_score_lines(hand, lambda side: f"side {side}"))
    assert lines["scoring"].startswith("the declarer scores — made: the declarer's books")
    assert lines["scoring"].endswith("(the declarer's score only)")
    need = lines["needed"]
    assert need.startswith(f"{rules.bids[hand.bid].level} books to make ")  # cutthroat: made when books >= bid
    assert ("made" if hand.made else "set") in need


def test_a_notrump_contract_before_its_direction_is_chosen_says_so_not_trump_not_yet_named(tmp_path):
    """A notrump bid names no trump: the Contract line said "trump not yet named" till the direction was chosen."""
    session = people_session(tmp_path)
    term, console = terminal_for(session)
    rules = session.rules
    first = session.current_player()
    assert term.handle(first, "3nt") is True
    while session.hand.phase == 0:  # AUCTION
        session.apply(rules.pass_action)
    term.show_table(first)
    contract = next(line for line in console.export_text().splitlines() if "Contract" in line)
    assert "3 notrump by" in contract and "· no trump · direction not yet chosen" in contract
    assert "trump not yet named" not in contract
    said = "\n".join(rules_text(term, console))  # `rules` at the prompt says the same
    assert "contract  3 notrump by " in said and ": no trump, the direction still to be chosen" in said


FIXED_ORDERS = """\
name: fixed
extends: standard
auction:
  strains:
    - {name: uptown, trump: suit, direction: uptown}
    - {name: downtown, trump: suit, direction: downtown}
    - {name: spades, trump: S, direction: downtown}
    - {name: notrump, trump: none, direction: uptown}
  ranking: [[uptown, downtown, spades], [notrump]]
declaration:
  when: after-kitty
"""


@pytest.mark.parametrize(("bid", "settled"), [("3 notrump", "no trump, played uptown"),
                                              ("3 spades", "spades trump, played downtown")])
def test_rules_before_the_declaration_name_the_order_a_bid_fixes(tmp_path, bid, settled):
    """A bid that fixes its rank order leaves none to choose: `rules` said "the direction (order)
    still to be chosen" while the kitty was taken, where the Contract line said `uptown`."""
    (tmp_path / "fixed.yaml").write_text(FIXED_ORDERS, encoding="utf-8")
    session = people_session(tmp_path, str(tmp_path / "fixed.yaml"))
    rules = session.rules
    session.apply(rules.first_bid_action + rules.action_names[rules.first_bid_action:].index(bid))
    while session.hand.phase == 0:  # AUCTION
        session.apply(rules.pass_action)
    assert session.hand.table is None  # after-kitty: nothing declared yet
    term, console = terminal_for(session)
    said = "\n".join(rules_text(term, console))
    assert f"contract  {bid} by " in said and f": {settled}" in said, said
    assert "still to be chosen" not in said


def test_a_card_typed_suit_first_or_with_a_blank_is_read_at_the_prompt(tmp_path):
    """`♥10`, `h10`, `sA` and `10 h` are cards as players write them; a record still spells them strictly."""
    from bidcompiler.cli.terminal import typed_card
    from runtime.notation import parse_card

    rules = load_ruleset("standard")
    for typed, card in (("♥10", "TH"), ("h10", "TH"), ("sA", "AS"), ("♠q", "QS"), ("10 h", "TH"), ("b j", "BJ"),
                        ("AS", "AS"), ("10♦", "TD")):
        assert rules.cards[typed_card(rules, typed)] == card, typed
    assert parse_card(rules, "♥10") is None and parse_card(rules, "10 h") is None  # records: as records.md spells
    for typed in ("s", "1h", "2c 3c", "hh"):
        assert typed_card(rules, typed) is None, typed
    # At the prompt: a card not held, typed suit first, is refused as that card.
    session = people_session(tmp_path)
    term, console = terminal_for(session)
    seat = to_trump(session)
    term.handle(seat, "hearts")
    missing = next(c for c in range(rules.n_cards) if c not in session.hand.hands[seat] and rules.cards[c][1] in "SHDC")
    name = rules.cards[missing]
    term.handle(seat, name[1].lower() + name[0])
    assert f"✗ you do not hold {name}" in console.export_text()


def test_a_hint_names_the_move_as_the_list_does_not_as_records_write_it(tmp_path):
    """The hint for naming trump said `spades — trump S: about ...`: the record's action name."""
    session = people_session(tmp_path)
    term, console = terminal_for(session)
    to_trump(session)
    term.hint()
    said = console.export_text()
    assert said.startswith("Hint: ") and "trump S" not in said and "trump H" not in said, said
    assert re.match(r"Hint: (spades|hearts|diamonds|clubs): about ", said), said


def test_the_end_of_a_game_against_a_seat_says_seat_n_wins_and_what_ends_a_game(tmp_path):
    """`Game over: seat 2 win.` where single players sit (the verb followed `us`/`them` only);
    a rubber's end says the game end is each game's."""
    from bidcompiler.cli.table import side_label_is_plural

    rules = load_ruleset("cutthroat")
    assert rules.players == rules.sides == 3
    assert side_label_is_plural(rules, 0, 0) and not side_label_is_plural(rules, 2, 0)  # you win; seat 2 wins
    session = Session.new(rules, Settings("cutthroat", [], 8, [0], "random"), tmp_path / "c.jsonl")
    term, console = terminal_for(session)
    finish(session)
    term.game_over()
    said = console.export_text()
    winner = session.winner
    assert ("Game over: you (0) win." if winner == 0 else f"Game over: seat {winner} wins.") in said, said
    assert "(a side wins when the side's score is at least " in said


@pytest.mark.parametrize("variant", sorted(shipped_variants()))
def test_every_start_of_a_strain_word_reads_one_strain_or_none_in_every_shipped_game(variant):
    """The prompt's shortened strains (`4 upt`, `4 spe`), tried for every start of every
    strain name and alias of each shipped ladder: a start is read as a strain only where
    that strain alone has a word so beginning and no suit's name begins so (`4 s` may be
    spades, `4 d` diamonds); otherwise it is left as typed, for the strict reading to refuse."""
    from bidcompiler.cli.terminal import spelled_call

    rules = load_ruleset(variant)
    words = {w: i for i, s in enumerate(rules.strains) for w in (s.name, *s.aliases)}
    for word in words:
        for end in range(1, len(word) + 1):
            start = word[:end]
            spelled = spelled_call(rules, f"4 {start}")
            owners = {i for w, i in words.items() if w.startswith(start)}
            suit_start = any(name.lower().startswith(start) for name in rules.suit_names)
            if start in words:  # a whole word: strictly what it names
                assert parse_call(rules, spelled) == parse_call(rules, f"4 {start}"), (variant, start)
            elif len(owners) == 1 and not suit_start and (len(rules.strains) > 1 or not rules.strains[0].bare):
                # (a ladder of one bare strain is bid by number alone: its name is no word to guess)
                assert spelled == f"4 {rules.strains[owners.pop()].name}", (variant, start, spelled)
            else:
                assert spelled == f"4 {start}", (variant, start, spelled)


def test_auction_and_history_say_a_declared_notrump_and_a_chosen_direction(tmp_path):
    """`auction` and `history` said "3 notrump by ..." with no word of the direction the declarer
    chose, and "5 by ..." for a notrump declared over a bare-number bid (audit22p)."""
    session = people_session(tmp_path)
    term, console = terminal_for(session)
    first = session.current_player()
    assert term.handle(first, "3nt") is True
    while session.hand.phase == 0:  # AUCTION
        session.apply(session.rules.pass_action)
    term.handle(first, "auction")
    assert console.export_text().splitlines()[-1] == f"  contract: 3 notrump by {term.who(first)}"
    assert term.handle(first, "downtown") is True
    term.handle(first, "history")
    assert f"  contract: 3 notrump by {term.who(first)}, downtown" in console.export_text().splitlines()

    session = people_session(tmp_path, "rhode-island")
    term, console = terminal_for(session)
    while session.hand.phase != DECLARE_TRUMP:
        session.apply(session.legal_actions()[0])
    declarer = session.hand.declarer
    term.handle(declarer, "auction")
    contract = console.export_text().splitlines()[-1]
    assert contract.startswith("  contract: ") and "trump" not in contract
    assert term.handle(declarer, "notrump") is True
    term.handle(declarer, "auction")
    assert console.export_text().splitlines()[-1] == f"{contract}, no trump"


@pytest.mark.parametrize("env", [{"TERM": "dumb"}, {"TERM": "dumb", "COLUMNS": "44"}, {"TERM": "xterm"}])
def test_the_table_fits_a_narrow_terminal_also_a_dumb_one(terminals, tmp_path, env):
    """On TERM=dumb (an Emacs shell) rich drew 80 columns whatever the window's width, and the
    table wrapped into broken lines on a narrower one (audit22p); COLUMNS is read as elsewhere."""
    width = int(env.get("COLUMNS", 50))
    t = terminals("play", "standard", "--seed", "3", "--fast", "--save", str(tmp_path / "w.jsonl"),
                  env=env, cols=50)
    t.expect(PROMPT)
    box = [line for line in t.text.splitlines() if line.startswith(("╭", "│", "╰"))]
    assert box and box[0].startswith("╭─ bidwhist") and len(box[0]) == width
    assert all(len(line) == width and line.endswith(("╮", "│", "╯")) for line in box)
    t.send("\x04")
    assert t.wait() == 0


def test_a_line_typed_before_the_prompt_is_read_as_the_next_answer(terminals, tmp_path):
    """Decision (twenty-second session): a line typed at the terminal before the prompt is read
    as the answer to it, as any line-based program reads it; dropping it (tried) broke drivers
    that write before the prompt shows (expect-style scripts) and a player's deliberate typing."""
    save = tmp_path / "t.jsonl"
    t = terminals("play", "standard", "--seed", "9", "--fast", "--save", str(save))
    t.line("pass")  # typed at once: the program is still starting, the bots have still to call
    t.expect(r"you pass")
    t.send("\x04")
    assert t.wait() == 0
    assert json.loads(saved_lines(save)[-1])["auction"][3] == "pass"


def test_resuming_a_game_already_over_says_only_that(tmp_path):
    # Was: "Saving after every move to: … Resume with: …" first, for a game with no move left.
    session, _ = random_session(tmp_path, "standard", ["to-5"], seed=8)
    while not session.is_over():
        session.apply(session.bot_choice())
    proc = subprocess.run([*PROGRAM, "play", "--resume", str(session.path)], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "This game is already over." in proc.stdout and "Final score" in proc.stdout
    assert "Saving after every move" not in proc.stderr and "Resume with" not in proc.stderr
    assert "Type help" not in proc.stderr
