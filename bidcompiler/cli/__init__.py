"""The ``bidwhist`` command line: thin glue between click, the compiler, the runtime and rich.

Conventions every command follows:
- results on stdout (readable text, or clean JSON with ``--json``); progress, the
  drawn seed and diagnostics on stderr;
- exit status 0 on success, 1 for bad content (a variant or record that breaks the
  rules), 2 for bad usage (unknown options, unknown variant names, unreadable
  arguments); never a traceback.

One module per group of commands: ``listing`` (variants), ``authoring`` (check,
compile, convert, schema), ``explain`` (rules, diff), ``replay``, ``simulate``, ``play``,
``compare``, ``analyze``, ``importing`` (import).  Beside them the presentation: ``render`` (text
reports), ``report`` (the words of simulation reports), ``plots``, ``table`` (the
table one seat sees), ``hand_rules`` (the ``rules`` summary at the prompt) and
``terminal`` (the terminal program of ``play``).
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import gc
import importlib
import io
import os
import signal
import sys


def _interrupted_while_starting(signum, frame) -> None:
    """Ctrl-C before :func:`main` runs: the same line and status as after, without Python's
    KeyboardInterrupt traceback of whatever module was being imported (click, ~0.1 s)."""
    os.write(2, b"interrupted\n")
    os._exit(130)


# Set only in the console script (whose main routes Ctrl-C itself once it runs), never for a
# program that imports this module, and only where Python's own handler stands.
if os.path.basename(sys.argv[0] if sys.argv else "") == "bidwhist" and \
        signal.getsignal(signal.SIGINT) is signal.default_int_handler:
    signal.signal(signal.SIGINT, _interrupted_while_starting)

import click  # noqa: E402  (after the handler: its import is most of the start-up)

# Every command, in the order `--help` lists them: its module and function, and the
# one line `--help` shows.  Modules are imported only when their command runs (or
# its own --help is asked for), so `bidwhist --help` and quick commands do not pay
# for loading the compiler, the engine, rich's Markdown and the solver.
# tests/test_startup.py checks each line against the command's own docstring.
COMMANDS: dict[str, tuple[str, str]] = {
    "variants": ("listing:variants", "List the shipped variants and house rules, one line each."),
    "check": ("authoring:check", "Check variant and house-rule files: every error of every file."),
    "compile": ("authoring:compile_cmd", "Compile VARIANT and show its intermediate form."),
    "schema": ("authoring:schema", "Print the JSON Schema of variant files."),
    "convert": ("authoring:convert", "Convert a variant or house-rule file between YAML and .whist."),
    "rules": ("explain:rules_command", "Print the compiled rules of VARIANT as a Markdown rulebook."),
    "diff": ("explain:diff_command", "List the rule differences between variants A and B."),
    "replay": ("replay:replay", "Replay a hand record or a game record and score it."),
    "simulate": ("simulate:simulate", "Play games or hands of VARIANT with bots and report."),
    "play": ("play:play", "Play a whole game of VARIANT at the terminal against bots."),
    "compare": ("compare:compare", "Play the same deals under A and B and report what differs."),
    "analyze": ("analyze:analyze", "Double-dummy analysis of a hand record or a game record."),
    "import": ("importing:import_cmd", "Import hands exported by the Trickster Cards app (PTN) as hand records."),
}

def examples_epilog(name: str) -> str | None:
    """The Examples section of command ``name``'s --help (kept as written: ``\\b``), from
    ``bidcompiler/data/help-examples.txt``; None when it has none."""
    from ..resources import data_path

    lines = [line for line in data_path("help-examples.txt").read_text(encoding="utf-8").splitlines()
             if line.split()[:2] == ["bidwhist", name]]
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines) if lines else None


class ClosedPipe(Exception):
    """stdout's reader went away (EPIPE): carried past click, which ends such a run with status 1
    and no word, to :func:`main`, which ends it as tools that SIGPIPE ends do."""


@contextlib.contextmanager
def _closed_pipe_carried():
    """Raise :class:`ClosedPipe` for a write that failed on a closed pipe, an OSError for click."""
    try:
        yield
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        raise ClosedPipe() from exc


class LazyGroup(click.Group):
    """A click group that imports a command's module only when that command is used."""

    def make_context(self, info_name, args, parent=None, **extra):
        """As click's; a closed pipe while the options are read (``--help | head -1``) is carried out."""
        with _closed_pipe_carried():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx):
        """As click's; a closed pipe while a command (or its ``--help``) runs is carried out."""
        with _closed_pipe_carried():
            return super().invoke(ctx)

    def list_commands(self, ctx):
        """The commands in the order of ``COMMANDS``."""
        return list(COMMANDS)

    def get_command(self, ctx, cmd_name):
        """Import and return the command ``cmd_name`` (None if there is no such command)."""
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        module_name, attr = entry[0].split(":")
        command = getattr(importlib.import_module(f".{module_name}", __name__), attr)
        if command.epilog is None:
            command.epilog = examples_epilog(cmd_name)
        return command

    def format_commands(self, ctx, formatter):
        """List the commands with their one-line help, without importing them."""
        with formatter.section("Commands"):
            formatter.write_dl([(name, short) for name, (_, short) in COMMANDS.items()])

    def resolve_command(self, ctx, args):
        """As click's, plus a "did you mean" for a mistyped command name."""
        name = args[0] if args else None
        if name is not None and name not in COMMANDS and not name.startswith("-"):
            from ..errors import close_matches

            close = close_matches(name, list(COMMANDS), n=1)
            hint = f" Did you mean {close[0]!r}?" if close else ""
            ctx.fail(f"No such command {name!r}.{hint}")
        return super().resolve_command(ctx, args)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bidwhist")
def cli():
    """Bid Whist and its variants as data.

    Variants are files (YAML or .whist) that are validated, compiled and run by
    one generic trick-taking engine.  Name a shipped variant by its name (see
    `bidwhist variants`) or give the path of a variant file; add house rules
    with NAME+RULE+RULE or --with RULE.

    Built rules are kept in $XDG_CACHE_HOME/bidwhist (~/.cache/bidwhist) and
    rebuilt whenever a file, name, --set or the code they came from changes;
    BIDWHIST_CACHE_DIR=DIR moves the cache, BIDWHIST_NO_CACHE=1 turns it off.
    """


# A closed pipe's status: what a shell reports for a tool that SIGPIPE ended (128 + 13).
CLOSED_PIPE_STATUS = 141


def _output_failed(exc: OSError) -> None:
    """End on a failed write (status 1): one line naming the file and the reason.

    A closed pipe (``bidwhist rules VARIANT | head -1``) ends quietly with status 141,
    as tools that SIGPIPE ends do: the reader left on purpose, so there is nothing to
    say, but a script with ``pipefail`` still sees that the output was cut (status 1
    with no message read as a failure no one explained).
    stdout is pointed at /dev/null first, so that the interpreter's own flush at exit
    does not fail a second time with a traceback-like "Exception ignored".
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no stdout at all: nothing to silence
        pass
    if exc.errno == errno.EPIPE:
        sys.exit(CLOSED_PIPE_STATUS)
    where = f"cannot write {exc.filename}" if exc.filename else "cannot write the output"
    click.echo(f"bidwhist: {where}: {exc.strerror or exc}", err=True)
    sys.exit(1)


# The signals that end a process from outside besides Ctrl-C, those this platform has
# (no SIGHUP on Windows): main, play and the game screen each route them.
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


def _exit_on_signal(signum, frame) -> None:
    """SIGTERM or SIGHUP: end as an exception would, status 128 + the signal's number (143, 129).

    Python's default ends the process on the spot, running nothing: a ``simulate
    --workers N`` so ended left its N worker processes waiting forever for work that
    never came.  Raised as SystemExit, the clean-ups run (the pool's workers are ended,
    files closed, ``play``'s lock removed) and the status is the shell's usual.  SIGHUP
    (a closed terminal; ``kill -HUP PID``) reaches the workers too when the terminal
    closes, but not when it is sent to the parent alone, which left them running.
    SIGINT needs nothing here: Python raises KeyboardInterrupt, which ends the same way.
    The first signal decides: later ones are ignored while the process ends.
    """
    _ending_signals_ignored()
    raise SystemExit(128 + signum)


def _end_cleanly_on_signals() -> None:
    """Route SIGTERM and SIGHUP to :func:`_exit_on_signal`, unless they are ignored (``nohup``)."""
    for number in STOP_SIGNALS:
        if signal.getsignal(number) is signal.SIG_DFL:
            signal.signal(number, _exit_on_signal)


def _frozen_at_exit() -> None:
    """Have the interpreter's teardown skip its garbage collections: everything still alive is
    frozen (``gc.freeze``) as the last exit handler runs.

    Python's teardown collects garbage several times over every object a command made
    (its modules, a ruleset's tables): the freeze saved ~4% of a short command's
    instructions, 18.6M of a one-hand ``simulate`` run's 447.3M (docs/measurements.md,
    the nineteenth session).
    The process frees all its memory as it ends either way; what the freeze leaves out
    is only the finalizers of objects in reference cycles at exit, which the language
    never promises to run, and no output waits on them: every file a command writes is
    closed by the command, and stdout and stderr are flushed by the interpreter after this.
    Exit handlers run last registered first: every handler registered after ``main()`` starts
    (a pool's, Dask's) runs before the freeze; those registered at import time (logging's)
    run after it, which does them no harm (a frozen object is still alive and usable).
    """
    global _FREEZE_REGISTERED
    if not _FREEZE_REGISTERED:
        _FREEZE_REGISTERED = True
        atexit.register(gc.freeze)


_FREEZE_REGISTERED = False


def _ending_signals_ignored() -> None:
    """Ignore further Ctrl-C, SIGTERM and SIGHUP: one has been acted on, and the process is ending.

    A second one while the process wound down (the exit joining a pool's threads) was raised
    inside Python's clean-up, printed "Exception ignored ... Traceback" and skipped the rest
    of it; late in the exit, where Python has put the default handlers back, it ended the
    process with its own status (129 after a SIGTERM's 143) instead.
    """
    for number in (signal.SIGINT, *STOP_SIGNALS):
        try:
            signal.signal(number, signal.SIG_IGN)
        except ValueError:  # not the main thread (an embedding caller): nothing to ignore here
            return


def _unencodable_escaped() -> None:
    """Write what stdout's encoding cannot hold as ``\\u2013`` escapes, not fail.

    Under an encoding without ``–``, ``·`` or ``♠`` (PYTHONIOENCODING=ascii, a Latin-1
    locale, an old console), a report or ``play``'s first screen ended in an internal
    error.  An escape keeps the rest readable, and inside a JSON string it is JSON.
    Under the C or POSIX locale with UTF-8 mode off (``PYTHONUTF8=0 LC_ALL=C``) stdout
    is ASCII with ``surrogateescape``, which fails on the same characters: it too.
    """
    if isinstance(sys.stdout, io.TextIOWrapper) and sys.stdout.errors in ("strict", "surrogateescape"):
        try:
            sys.stdout.reconfigure(errors="backslashreplace")
        except (OSError, ValueError):  # a closed or detached stdout: nothing to write to
            pass


# click 8.2 and later raise this for a group called with no command (8.1 printed the help itself).
_NO_ARGS_IS_HELP: tuple[type[Exception], ...] = tuple(
    c for c in (getattr(click.exceptions, "NoArgsIsHelpError", None),) if c is not None)


def _zero_terminal_size_ignored() -> None:
    """Read ``COLUMNS=0`` or ``LINES=0`` as not set: the terminal's own size, else 80 columns.

    rich takes COLUMNS as the width of every console: at 0 each table and line was laid
    out in no room at all, and ``simulate``, ``compare``, ``replay``, ``analyze``,
    ``compile`` and ``variants`` printed nothing, with status 0.  (A terminal that reports
    0 columns itself is already read as 80 by rich; only the variable was taken as is.)
    """
    for name in ("COLUMNS", "LINES"):
        value = os.environ.get(name, "").strip()
        if value.isdigit() and int(value) == 0:
            del os.environ[name]


def _data_unavailable() -> type[Exception]:
    """``resources.DataUnavailable``: imported only when an exception is matched against it
    (an ``except`` clause's class is looked up then), so start-up loads nothing more."""
    from ..resources import DataUnavailable

    return DataUnavailable


def main(argv=None):
    """Entry point of the ``bidwhist`` console script.

    Click's standalone mode would turn Ctrl-C into "Aborted!" with status 1; here
    an interrupt exits 130 as shells expect, usage errors 2, bad content 1, and an
    unexpected exception gets one line instead of a traceback.  Output that cannot be
    written (a full disk, /dev/full) ends with one line and status 1; a closed pipe
    quietly with status 141.
    """
    if signal.getsignal(signal.SIGINT) is _interrupted_while_starting:  # started: Ctrl-C as usual now
        signal.signal(signal.SIGINT, signal.default_int_handler)
    _end_cleanly_on_signals()
    _frozen_at_exit()
    if sys.stdout is None:  # started with stdout closed (`>&-`): output would vanish, or play fail inside rich
        click.echo("bidwhist: cannot write the output: stdout is closed", err=True)
        sys.exit(1)
    _unencodable_escaped()
    _zero_terminal_size_ignored()
    try:
        cli.main(args=argv, prog_name="bidwhist", standalone_mode=False)
        # Written out here, where a closed pipe is caught, not in the interpreter's flush at exit.
        if sys.stdout is not None:
            sys.stdout.flush()
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        if isinstance(exc, _NO_ARGS_IS_HELP):
            # `bidwhist` alone: the help (status 2), ours, not a name typed: printed with its lines.
            # Escaped as a usage error's one line, it came out as one line of literal "\n"s.
            exc.show()
            sys.exit(exc.exit_code)
        from ..errors import printable

        # Every usage error quotes what was typed (click's own "File '...' does not exist"
        # too): a control character in it is shown as its escape, not acted on by the terminal.
        # (printable leaves an escaped message as it is.)  A usage error is one line, so a
        # newline typed in a name is escaped too; bad content (a compile error's source
        # lines) keeps its own lines.
        exc.message = printable(exc.message, not isinstance(exc, click.UsageError))
        exc.show()
        sys.exit(exc.exit_code)
    except (KeyboardInterrupt, click.exceptions.Abort):
        _ending_signals_ignored()
        click.echo("interrupted", err=True)
        sys.exit(130)
    except EOFError:
        click.echo("end of input", err=True)
        sys.exit(1)
    except _data_unavailable() as exc:  # a zipped package with no temporary folder for its data
        if os.environ.get("BIDWHIST_DEBUG"):
            raise
        click.echo(f"bidwhist: {exc}", err=True)
        sys.exit(1)
    except ClosedPipe:
        _output_failed(BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE)))
    except OSError as exc:  # the output could not be written: a full disk, a closed pipe, /dev/full
        if os.environ.get("BIDWHIST_DEBUG"):
            raise
        _output_failed(exc)
    except Exception as exc:  # the last line of defence: no traceback for users
        if os.environ.get("BIDWHIST_DEBUG"):
            raise
        click.echo(f"bidwhist: internal error: {type(exc).__name__}: {exc} "
                   "(set BIDWHIST_DEBUG=1 for a traceback, and please report it)", err=True)
        sys.exit(70)
    sys.exit(0)
