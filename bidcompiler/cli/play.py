"""``bidwhist play``: one person (or several at one keyboard) against bots, in a terminal.

The game lives in a :class:`runtime.session.Session`, which saves after every
action: FILE is always a valid game record (records.md), from the first action on:
the hands finished, then the hand in play marked in progress; the sidecar
FILE.session.json beside it holds the seed, the seats and the bots (see that
module's docstring).  This module is the command: its options, where
the game is saved, starting or resuming the session; the terminal program around
the game (the table, the prompts, the commands at the prompt, the bots' pace) is
:class:`bidcompiler.cli.terminal.Terminal`.

Every way out keeps the game: ``quit`` and end of input save and exit 0; Ctrl-C
saves and exits 130 (the shell's usual status for an interrupt, as the rest of the
CLI uses); a killed process loses at most the action being typed, because the files
on disk are replaced atomically after each action.
"""

from __future__ import annotations

import os
import random
import signal
import sys
from contextlib import ExitStack
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import click

from . import STOP_SIGNALS
from ..errors import printable
from .common import (SEED_RANGE, BadContent, BadFileArgument, FilePath, Integer, check_output, load_rules,
                     nonempty_names, regular_file, shell_word, spec_text, with_rules_option)

if TYPE_CHECKING:
    from rich.console import Console

    from runtime.session import SaveLock, Session

# rich, the engine, the session and the compiler are imported inside the functions
# that use them, so that `bidwhist play --help` starts at once (tests/test_startup.py).


# --------------------------------------------------------------------------- helpers
def default_save_path(now: datetime | None = None) -> Path:
    """A new file under the user's data folder: ``$XDG_DATA_HOME/bidwhist/games/<time>.jsonl``.

    XDG rules where they apply (``~/.local/share`` when the variable is unset, or is not an
    absolute path: the XDG specification has such a value ignored); on macOS and Windows
    click's per-user application folder.
    """
    if os.path.isabs(os.environ.get("XDG_DATA_HOME", "")):
        base = Path(os.environ["XDG_DATA_HOME"]) / "bidwhist"
    elif os.name == "posix" and sys.platform != "darwin":
        base = Path.home() / ".local" / "share" / "bidwhist"
    else:
        base = Path(click.get_app_dir("bidwhist"))
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    folder = base / "games"
    path = folder / f"{stamp}.jsonl"
    n = 2
    while path.exists():
        path = folder / f"{stamp}-{n}.jsonl"
        n += 1
    return path


def resolve_spec(variant: str, with_rules, save: str | os.PathLike) -> tuple[str, list[str], list[str]]:
    """The (variant, with) the game record at ``save`` names, and the files it cannot name.

    records.md: a file is named by its path relative to the record's folder (so the
    game can be resumed and replayed from any folder, and moved with its files); a
    file outside that folder cannot be named so, and replay would refuse the record.
    """
    from ..recordnames import names_for_record

    base, rules = spec_text(variant, with_rules)
    return names_for_record(base, rules, save)


# --------------------------------------------------------------------------- the command
@click.command("play")
@click.argument("variant", required=False, callback=nonempty_names)
@with_rules_option
@click.option("--seat", "seats", type=Integer(), multiple=True, metavar="N",
              help="The seat you play, from 0 to the number of players less one (default 0); repeat for "
                   "several people at one keyboard; with --resume, the seats people play from there on "
                   "(saved).")
@click.option("--bots", default=None, metavar="KIND", callback=lambda ctx, param, value: _check_bots(value),
              help="The bots in the other seats: heuristic (default), baseline, sampler, random; with "
                   "--resume, the bots from there on (saved).")
@click.option("--seed", type=SEED_RANGE, default=None,
              help="Seed of the deals and the bots, a 64-bit signed integer (drawn if omitted).")
@click.option("--save", type=FilePath(dir_okay=False), default=None,
              help="Where to save, after every move: FILE is the game record (the hands finished, then the "
                   "hand in play marked in progress), FILE.session.json beside it the settings (a new file "
                   "under your data folder if omitted).")
@click.option("--resume", type=FilePath(), default=None, callback=regular_file,  # a folder: one line, as replay's
              help="Continue the game saved in this file (and its FILE.session.json) exactly where it stopped.")
@click.option("--open", "open_hands", is_flag=True, help="Show every hand (for teaching and for checking bots).")
@click.option("--fast", is_flag=True, envvar="BIDWHIST_FAST",
              help="Show the bots' moves at once (also BIDWHIST_FAST=1).")
@click.option("--take-over", is_flag=True,
              help="Take the save over even though its lock (FILE.lock) names another play: for a play "
                   "that is gone but could not be seen to be (on another host, or a lock left unreadable).")
def play(variant, with_rules, seats, bots, seed, save, resume, open_hands, fast, take_over):
    """Play a whole game of VARIANT at the terminal against bots.

    Cards are typed as AS, as, 10h, A♠ or bj; calls as pass, 4 nt, 4nt, 4 low; or
    the number of a choice in the list.  At the prompt: help, hint, rules, score,
    history, last (the last trick), auction, quit.  The game is saved after every move: FILE is a game record of
    the hands finished and the hand in play, marked in progress (it replays with
    `bidwhist replay FILE` at any moment, and scores the whole game at the end), and
    FILE.session.json beside it holds the seed, the seats and the bots.  `bidwhist play --resume FILE` goes on exactly
    from there.  Ctrl-C saves and exits with status 130 (SIGTERM 143, SIGHUP 129), saying
    where the game is saved; quit and end of input save and exit 0.

    One play at a time on a save: while it runs, FILE.lock names its process, host and
    start, and a second play on FILE is refused, saying so.  The lock goes when play
    ends (also on Ctrl-C, or when it is terminated); a lock left by a killed play is
    stale when it names this host and a process that no longer runs, and is then taken
    over by itself; --take-over takes any lock.
    """
    from .console import Console

    if take_over and not (save or resume):
        raise click.UsageError("--take-over is for the lock of a save: give it with --resume FILE or --save FILE")
    # nothing typed or named is read as markup
    console = Console(highlight=False, markup=False, **_dumb_terminal_size())
    err = Console(stderr=True, highlight=False, markup=False, soft_wrap=True)  # soft wrap: paths stay whole
    from .terminal import Stopped, signal_of, tell_stopped

    with ExitStack() as held:
        _ends_cleanly_on_signals(held)
        made = []  # the Session once its save is on disk (set by _start and _resume as it is there)
        try:
            if resume:
                _resume(variant, with_rules, seed, save, resume, seats, bots, take_over, held, err, made)
            else:
                _start(variant, with_rules, seats, bots, seed, save, err, take_over, held, made)
            status = _play(made[0], console, err, fast, open_hands)
        except (Stopped, KeyboardInterrupt) as exc:
            # A signal (Ctrl-C too) after the save was made but before the game screen runs
            # (which says where on its own): said here, as it would be a moment later.
            if not made:
                raise
            tell_stopped(err, made[0].path, signal_of(exc))
            status = 128 + signal_of(exc)
    sys.exit(status)


def _play(session: Session, console: Console, err: Console, fast: bool, open_hands: bool) -> int:
    """Announce the game and run it at the terminal; the exit status."""
    from ..recordnames import RefusedName, record_folder, record_ir
    from .terminal import Terminal

    s = session.settings
    folder = record_folder(session.path)
    who = ", ".join(str(x) for x in s.seats)
    err.print(f"bidwhist play {'+'.join([s.variant, *s.with_rules])} · seat{'s' if len(s.seats) > 1 else ''} "
              f"{who} · bots: {s.bots} · seed {s.seed}", markup=False)
    if not session.is_over():  # a game already over has no move to save or resume (the screen says it is over)
        err.print(f"Saving after every move to: {printable(str(session.path), False)}", markup=False)
        err.print(f"Resume with: bidwhist play --resume {shell_word(session.path)}", markup=False)
        err.print("Type help at the prompt for the commands.")

    def rulebook_text() -> str:
        from ..rulebook import rulebook  # the compiler: loaded only when the rulebook is asked for

        # The settings name files as the save does: relative to its folder.
        try:
            return rulebook(record_ir(s.variant, tuple(s.with_rules), folder, confined=False))
        except RefusedName as exc:
            return f"{exc.at}: {exc.message}"

    terminal = Terminal(session, console, fast=fast, open_hands=open_hands, rulebook=rulebook_text, err=err)
    return terminal.run()


def _ends_cleanly_on_signals(held: ExitStack) -> None:
    """SIGTERM and SIGHUP (a closed terminal) end play as an exception would: the lock is removed.

    Every move is on disk already (the session saves after each), so nothing is lost;
    once the game runs, the terminal saves once more and says where, as on Ctrl-C.
    """
    from .terminal import Stopped

    def stop(signum, frame):
        raise Stopped(signum)

    for number in STOP_SIGNALS:
        held.callback(signal.signal, number, signal.signal(number, stop))


def _lock(path: Path, take_over: bool, held: ExitStack, err: Console) -> SaveLock:
    """Take the lock of the save at ``path`` for as long as ``held`` lasts; exit 1 naming its holder."""
    from runtime.session import SaveLock, SaveLocked

    lock = SaveLock(path)
    try:
        lock.acquire(take_over)
    except SaveLocked as exc:
        raise click.ClickException(str(exc)) from None
    held.callback(lock.release)
    if lock.took_over is not None:
        old = lock.took_over
        whose = f"of process {old['pid']} on {old['host']}, since {old['since']}" if old else "(unreadable)"
        err.print(f"note: took over the lock {whose} of {path}", markup=False)
    return lock


def _default_bots(err: Console) -> str:
    from runtime import bots as bot_registry

    if "heuristic" in bot_registry.BOTS:
        return "heuristic"
    err.print("note: the heuristic bot is not available; the bots play random legal moves")
    return "random"


def _check_bots(name: str | None) -> str | None:
    """``--bots`` as given (None when not given); an unknown kind, or "", is a usage error (exit 2)."""
    if name is None:
        return None
    from runtime import bots as bot_registry

    if name not in bot_registry.BOTS:
        raise click.BadParameter(f"unknown bot '{name}' (known: {', '.join(sorted(bot_registry.BOTS))})",
                                 param_hint="--bots")
    return name


def _check_save(path: Path) -> None:
    """Refuse (exit 2) a --save that could not be written, before the game starts: a missing
    folder (said, not made, as for every output file), or too long a name for the files
    saved beside it (FILE.session.json, written through a temporary file)."""
    if os.path.lexists(path) or not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        check_output(path, "--save")  # a missing folder, or what is there (opened to append): nothing made
    # Only a name no other play uses is made (and removed) here: this runs before the lock,
    # and making FILE itself could remove the save of a play that holds it (written between
    # the two) or have that play's start find FILE there.  Every file saved there is written
    # through a temporary one, and this is the longest name of them.
    beside = path.with_name(f".{path.name}.session.json.xxxxxxxx.tmp")
    check_output(beside, "--save", shown=f"{path}.session.json beside {path}")


def _start(variant, with_rules, seats, bots, seed, save, err: Console, take_over: bool,
           held: ExitStack, made: list[Session]) -> None:
    """Start a new game, saved at once; the session is appended to ``made`` as its save is made,
    so that a signal arriving then (held until the save is whole) knows where the game is."""
    from runtime.session import Session, SessionError, Settings

    from .terminal import interrupts_deferred

    from ..recordnames import outside_warning

    if variant is None:
        raise click.UsageError("name a VARIANT to play (see `bidwhist variants`), or --resume FILE")
    rules = load_rules(variant, with_rules)
    seats = sorted(set(seats)) or [0]
    for seat in seats:
        if not 0 <= seat < rules.players:
            raise click.BadParameter(f"seat {seat} is not at this table (seats 0 to {rules.players - 1})",
                                     param_hint="--seat")
    bots = bots if bots is not None else _default_bots(err)
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    path = Path(save) if save else default_save_path()
    if not path.name.endswith(".jsonl"):
        raise click.BadParameter(f"{path}: a game record's name ends in .jsonl", param_hint="--save")
    if save:  # the default's folder is made (the user's data folder); a named one must exist
        _check_save(path)
    else:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise click.ClickException(
                f"cannot make the folder of the save, {printable(str(path.parent), False)}: "
                f"{exc.strerror or exc}; name the save with --save FILE (or set XDG_DATA_HOME to "
                "a folder that can be written)") from None
    # The lock first: of two plays starting on one new file, the second must not find it
    # free between the first's check and its first write.
    lock = _lock(path, take_over, held, err)
    if path.exists():
        raise click.BadParameter(f"{path} already exists: continue it with --resume {shell_word(path)}, "
                                 "or name a new file", param_hint="--save")
    record_variant, record_with, outside = resolve_spec(variant, with_rules, path)
    if outside:
        err.print(outside_warning(outside, path), markup=False)
    settings = Settings(record_variant, record_with, seed, seats, bots)
    try:
        with interrupts_deferred():  # a signal while the save is made acts once it is made, and known
            made.append(Session.new(rules, settings, path))
            made[-1].on_saved = lock.restore  # the lock made again if its folder was removed in play
    except SessionError as exc:
        raise click.UsageError(str(exc)) from None
    except OSError as exc:
        # The file that could not be written: FILE, or FILE.session.json beside it (written first).
        raise click.BadParameter(f"cannot write {exc.filename or path}: {exc.strerror or exc}",
                                 param_hint="--save") from None


def _dumb_terminal_size() -> dict:
    """The width and height of a terminal that says it is dumb (TERM=dumb, as an Emacs shell
    sets it, with its width in COLUMNS), as Console arguments; none for any other.

    rich draws 80 columns on a dumb terminal whatever its size, so the table wrapped into
    broken lines on a narrower window; the size is read as for any terminal instead
    (COLUMNS and LINES first, then the terminal's own).
    """
    import shutil

    if os.environ.get("TERM", "").lower() not in ("dumb", "unknown") or not sys.stdout.isatty():
        return {}
    columns, lines = shutil.get_terminal_size((0, 0))
    return {"width": columns, "height": lines} if columns > 0 and lines > 0 else {}


def _resume(variant, with_rules, seed, save, resume, seats, bots, take_over: bool, held: ExitStack,
            err: Console, made: list[Session]) -> None:
    """Load the game saved in ``resume`` and append its session to ``made`` (before its changed
    settings are saved: a signal held while they are saved then knows where the game is)."""
    from runtime.records import NotARecord
    from runtime.session import (Session, SessionDamaged, SessionError, SessionIllegal, SessionSeatRefused,
                                 SessionUnreadable, sidecar_path)


    from ..recordnames import RefusedName, record_folder
    from .replay import resolve_for_records
    from .terminal import interrupts_deferred

    clashes = [name for name, value in (("VARIANT", variant), ("--with", with_rules), ("--seed", seed),
                                        ("--save", save)) if value]
    if clashes:
        raise click.UsageError(f"--resume continues a saved game as it was: {', '.join(clashes)} "
                               "cannot be given with it")
    refused: list[RefusedName] = []

    def resolve(name: str, rules: list):
        # The save names files relative to its folder, as records do; the person who
        # played it resumes it from the command line, so a name may lead outside that
        # folder (play warned when it wrote one; older saves name absolute paths): a
        # game in progress is never lost.  Files are still read bounded and never quoted.
        try:
            return resolve_for_records(name, rules, record_folder(resume), confined=False)
        except RefusedName as exc:
            refused.append(exc)
            raise

    lock = _lock(Path(resume), take_over, held, err)
    try:
        session = Session.load(resume, resolve, seats=list(seats), bots=bots)
    except SessionDamaged as exc:  # a file damaged on disk, not a wrong argument: exit 1
        raise click.ClickException(str(exc)) from None
    except SessionIllegal as exc:  # a saved hand that breaks the rules: bad content, exit 1
        if refused:  # records.md: a refused path exits with status 1
            raise BadContent(f"{sidecar_path(resume)}: {refused[0].at}: {refused[0].message}") from None
        raise BadContent(str(exc)) from None
    except SessionSeatRefused as exc:  # was named "--resume", as if the save were wrong
        raise click.BadParameter(str(exc), param_hint="--seat") from None
    except (SessionUnreadable, NotARecord) as exc:
        # The save's record is no record (bad JSON, a FIFO, too large): exit 2 as replay says, in one
        # line saying where (records.md), not click's usage lines: the command was right.
        raise BadFileArgument(printable(str(exc), False)) from None
    except SessionError as exc:  # no save there: the FILE given names none
        raise click.BadParameter(str(exc), param_hint="--resume") from None
    session.on_saved = lock.restore  # the lock made again if its folder was removed in play
    made.append(session)
    if session.settings_changed:
        try:
            with interrupts_deferred():  # a signal while the settings are saved acts once they are saved
                session.save_settings()
        except OSError as exc:
            raise click.BadParameter(f"cannot write {sidecar_path(resume)}: {exc.strerror or exc}",
                                     param_hint="--resume") from None
