"""Pieces every CLI command shares: error reporting, and naming a variant with house rules.

A variant is named the same way in every command: ``NAME`` or a path, optionally
``NAME+RULE+RULE``, then ``--with RULE`` (repeatable, applied in order) and
``--set path=value`` (a one-off change, applied last).
"""

from __future__ import annotations

import errno
import os
from typing import TYPE_CHECKING

import click

from ..errors import printable, quoted

# Runs of fewer units than this draw no progress bar (render.progress; simulate.may_show_progress).
PROGRESS_FROM = 200

if TYPE_CHECKING:
    from ..errors import CompileError
    from ..variantspec import VariantNotFound

# This module is imported by every command's module when `bidwhist CMD --help` builds
# the command, so it imports only click at the top: the compiler and the runtime are
# imported inside the functions that use them (tests/test_startup.py checks it).

# Seeds are 64-bit signed integers, so that records, saves and JSON carry them exactly
# everywhere (a longer one could not even be read back: Python refuses int() of more
# than 4,300 digits).  simulate, compare and play all take seeds in this range.
# The most digits a typed whole number is read with: a 64-bit seed has 19.
MAX_DIGITS = 40


class _AsciiDigits(click.ParamType):
    """An integer option written with the digits 0-9: click's int() also reads '٤' (Arabic-Indic)
    or '４' (full width) as 4, and '1_000' (Python's grouping) as 1000, which no command
    documents and no record or save writes back."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not value.isascii():
            self.fail(f"{quoted(value)} is not a whole number written with the digits 0-9", param, ctx)
        if isinstance(value, str):
            # click's own words were "'0x10' is not a valid integer range." (of --hands, --seed),
            # and a number too long to read was quoted whole, all of its thousands of digits.
            digits = value.strip().lstrip("+-")
            if digits.isdigit() and len(digits) > MAX_DIGITS:
                bounds = self._describe_range() if isinstance(self, click.IntRange) else ""
                self.fail(f"a number of {len(digits):,} digits is not in the range {bounds}" if bounds else
                          f"a number of {len(digits):,} digits is too far from 0", param, ctx)
            try:
                if "_" in value:  # int() reads Python's grouping; a count is plain digits
                    raise ValueError(value)
                int(value)
            except ValueError:
                self.fail(f"{quoted(value)} is not a whole number (digits 0-9, no decimal point or exponent)",
                          param, ctx)
        return super().convert(value, param, ctx)


class Integer(_AsciiDigits, click.types.IntParamType):
    """A whole number in the digits 0-9 (``--seat``)."""


class IntegerRange(_AsciiDigits, click.IntRange):
    """A whole number in the digits 0-9, within bounds (``--games``, ``--seed``)."""


SEED_RANGE = IntegerRange(-(2**63), 2**63 - 1)


# The most characters one --set may hold: far above any real change (a list of 256 cards
# is about 1,000), as a typed move at the prompt is bounded (terminal.MAX_TYPED).
MAX_SET_CHARS = 4096
# The most --set changes in one run: as many as a mapping of a variant file may hold
# (yamlload.MAX_ITEMS).  Unbounded, each cost a layer to compose: the 75,000 an argument
# list holds took minutes and ~600 MB (40,000: 87 s and 315 MB).
MAX_SETS = 256


class FilePath(click.Path):
    """A ``click.Path`` that refuses an empty name, and ``-`` (exit 2, naming the option).

    ``--plot ''`` or ``-o ''`` would otherwise read as "not given" (the command went on
    without a plot, or wrote to stdout), and ``--write ''`` as the current folder.
    """

    def convert(self, value, param, ctx):
        """The path, checked by ``click.Path``; an empty one, or ``-``, is a usage error."""
        if isinstance(value, str) and value == "":
            self.fail("an empty name: give a path", param, ctx)
        if isinstance(value, str) and value == "-":
            # Elsewhere '-' is stdin or stdout; here it made a file named '-' (`--records -`), which
            # `replay -` then did not read: it reads stdin.
            self.fail("'-' is not stdin or stdout here: give a file's name (./- for a file named '-')",
                      param, ctx)
        return super().convert(value, param, ctx)


class BadContent(click.ClickException):
    """Bad content (exit 1): the message is printed as is, without click's "Error:"."""

    exit_code = 1

    def show(self, file=None):
        """Print the message alone on stderr (no "Error:" prefix, no usage lines)."""
        click.echo(self.format_message(), err=True)


def same_file(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    """Whether ``a`` and ``b`` name one file: the same name once made absolute (whether or not
    it exists yet), or the same inode (through a link, a hard link, or a name in other case
    where the file system does not tell case apart)."""
    if os.path.abspath(a) == os.path.abspath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):  # one of them is missing (or unreadable, or holds NUL): two files
        return False


def shell_word(name) -> str:
    """:func:`runtime.files.shell_word`, imported when first asked: a command's ``--help`` loads
    nothing of ``runtime`` (tests/test_startup.py)."""
    from runtime.files import shell_word as word

    return word(name)


class BadFileArgument(BadContent):
    """A FILE argument that names no file to read (exit 2, bad usage), said in one line
    (``FILE: not a regular file (a directory)``), as a missing or unreadable one is."""

    exit_code = 2


def fail_compile(exc: CompileError) -> BadContent:
    """A CompileError as a CLI failure: every diagnostic on stderr, exit status 1."""
    return BadContent("\n".join(str(d) for d in exc.diagnostics))


def variant_not_found(exc: VariantNotFound, spec: str, param: str = "VARIANT") -> click.BadParameter:
    """A usage error (exit 2) for a variant that is neither shipped nor a file, naming it."""
    message = exc.diagnostics[0].message
    name = exc.diagnostics[0].pos.file
    if not any(said in message for said in (spec, name, quoted(spec), quoted(name))):
        message = f"{name}: {message}"  # the user's own path, whole (escaped below)
    if name == "-":  # replay's and analyze's stdin: no variant is read from there
        message += "; a variant is not read from stdin ('-' is only replay's and analyze's): give its file"
    whole = _file_split_at_plus(spec, name)
    if whole is not None:
        # The file was cut at its '+' as NAME+RULE is: say so, and how to name it whole.
        fix = ("name the file alone and lay house rules with --with" if spec.startswith(whole + "+")
               else f"lay it with --with {shell_word(whole)}")
        message += (f"; {quoted(whole)} is a file, cut at its '+' (which separates house rules): "
                    f"{fix}, or rename it")
    return click.BadParameter(printable(message, False), param_hint=param)


def _file_split_at_plus(spec: str, name: str) -> str | None:
    """The file that ``spec``'s parts around the missing ``name`` form when joined again by '+'
    (``NAME+my+rule.yaml``: ``my+rule.yaml``), if one exists; else None."""
    parts = spec.split("+")
    if name not in parts:
        return None
    at = parts.index(name)
    for start in range(at, -1, -1):
        for end in range(at + 1, len(parts) + 1):
            if end - start < 2 or (start, end) == (0, len(parts)):
                continue
            joined = "+".join(parts[start:end])
            if os.path.isfile(joined):
                return joined
    return None


def set_expressions(ctx, param, values):
    """A click callback for ``--set``: each value must read as one change (exit 2 otherwise).

    The form is checked here, where the option is named: PATH=VALUE with a dotted path
    of setting names and a value YAML reads, a named list item set only to ``~``.  What
    the change then says about the rules is checked with the variant, as the settings
    of a house-rule file are (exit 1).
    """
    if not values:
        return values
    if len(values) > MAX_SETS:
        raise click.BadParameter(f"{len(values):,} changes in one run; at most {MAX_SETS} "
                                 "(write more as a house rule)", ctx=ctx, param=param)
    from ..rulecache import note_set_text, set_text_known

    for value in values:
        if len(value) > MAX_SET_CHARS:
            # Every message about a change quotes it whole: 128 KB (the most one argument may
            # be) was printed back in each.
            raise click.BadParameter(f"{quoted(value)}: at most {MAX_SET_CHARS:,} characters in one change "
                                     "(write a longer one as a house rule)", ctx=ctx, param=param)
        if set_text_known(value):  # read before by this code: the compiler need not be loaded
            continue
        from ..compose import set_layer
        from ..errors import CompileError

        try:
            set_layer(value)
        except CompileError as exc:
            shown = value if value.strip() else quoted(value)  # an empty change is seen as ''
            said = "; ".join(f"{shown}: {d.message}" for d in exc.diagnostics)
            raise click.BadParameter(printable(said, False), ctx=ctx, param=param) from None
        note_set_text(value)
    _each_setting_once(values, ctx, param)
    return values


def _each_setting_once(values, ctx, param) -> None:
    """Refuse one setting given two plain values by ``--set`` (exit 2): the later one replaces the
    earlier whole, so the earlier does nothing, and two values for one setting are a slip, not
    a rule; so does a plain value after a mapping.  A mapping or list (``{from: 4}``, ``[…]``;
    YAML's tags, anchors and aliases too) may be merged with what follows, as a house rule's
    is, so it is left to the compiler.

    So are overlapping paths where one is a plain value: a setting inside one given a plain
    value before it (``a.b=1``, then ``a.b.c=2``: the mapping replaces the 1), or a plain
    value (``~`` too) given after settings inside it (``a.b.c=2``, then ``a.b=1``).  A mapping
    before settings inside it merges with them, as layers do (README).  ``~`` before a mapping
    or settings inside it undoes nothing: it removes what lay below them, so that
    ``--with R --set game.win=~ --set game.win.target=…`` keeps that one condition of R's.
    """
    seen: dict[tuple[str, ...], str] = {}  # the paths given a plain value
    removed: set[tuple[str, ...]] = set()  # those of them given ~ (or null), which removes them
    given: list[tuple[tuple[str, ...], str]] = []  # every path, in order
    for value in values:
        path_text, value_text = value.split("=", 1)
        path = tuple(key.strip() for key in path_text.strip().split("."))
        plain = not value_text.strip().startswith(("{", "[", "!", "&", "*"))
        # A plain value after a mapping for the same setting replaces it whole, too.
        twice = seen.get(path) if plain or path not in removed else None
        twice = twice or (next((v for p, v in given if p == path), None) if plain else None)
        if twice is not None:
            raise _set_twice(path, twice, value, ctx, param)
        outer = next(((p, v) for p, v in seen.items() if path[:len(p)] == p and p not in removed), None)
        inner = next(((p, v) for p, v in given if p[:len(path)] == path and p != path), None) if plain else None
        clash = outer or inner
        if clash is not None:
            other, earlier = clash
            said = (f"{'.'.join(path)} is inside {'.'.join(other)}, which is given a plain value before it"
                    if outer else f"{'.'.join(path)} is given a plain value after {'.'.join(other)}, inside it")
            raise click.BadParameter(printable(
                f"{said} ({quoted(earlier)}, then {quoted(value)}): the one undoes the other; "
                "give each setting once", False), ctx=ctx, param=param)
        if plain:
            seen[path] = value
            if value_text.strip() in ("~", "null", "Null", "NULL"):
                removed.add(path)
        else:
            # A mapping gives each plain value in it as --set PATH.KEY=… would: a later change
            # of one (or of a setting inside one) is judged as above.
            for leaf, removes in _mapping_leaves(path, value_text):
                twice = seen.get(leaf) if leaf not in removed else None
                if twice is not None:
                    raise _set_twice(leaf, twice, value, ctx, param)
                seen[leaf] = value
                if removes:
                    removed.add(leaf)
        given.append((path, value))


def _set_twice(path: tuple[str, ...], earlier: str, value: str, ctx, param) -> click.BadParameter:
    """The usage error for one setting given a plain value by two ``--set`` changes."""
    return click.BadParameter(printable(
        f"{'.'.join(path)} is set twice ({quoted(earlier)}, then {quoted(value)}): "
        "the first would change nothing; give each setting once", False), ctx=ctx, param=param)


def _mapping_leaves(path: tuple[str, ...], text: str) -> list[tuple[tuple[str, ...], bool]]:
    """The paths a ``--set`` mapping gives a plain value (with whether it is ``~``), in its order.

    Only a plain YAML mapping is read here; anything else (a list, a tag, an alias, text that
    does not parse) gives none and is left to the compiler, which reports it.  Inside the
    mapping, a list or a mapping (``{}`` too) is no plain value: as given by ``--set`` of
    its own, it may be merged with what follows, so it counts as given by neither.
    """
    from ..errors import CompileError
    from ..yamlload import load_yaml

    try:  # the compiler's own reading (YAML 1.2: `on:` is the key 'on', not True)
        loaded = load_yaml(text, "--set").data
    except CompileError:
        return []
    leaves: list[tuple[tuple[str, ...], bool]] = []

    def walk(prefix: tuple[str, ...], node: object) -> None:
        if isinstance(node, dict):
            for key, inner in node.items():
                walk(prefix + (str(key),), inner)
        elif not isinstance(node, list) and prefix != path:
            leaves.append((prefix, node is None))

    walk(path, loaded)
    return leaves



def with_rules_option(command):
    """Add ``--with RULE`` (repeatable) to a command that names a variant."""
    return click.option(
        "--with", "with_rules", multiple=True, metavar="RULE", callback=nonempty_names,
        help="Lay a house rule over the variant (repeatable, applied in order)."
    )(command)


def variant_options(command):
    """Add ``--with RULE`` and ``--set PATH=VALUE`` to a command that names a variant."""
    command = click.option(
        "--set", "sets", multiple=True, metavar="PATH=VALUE", callback=set_expressions,
        help="Change one setting for this run, e.g. --set auction.levels.from=4 (repeatable, each setting "
             "once).  A change "
             "that cannot be read is a usage error (status 2); one that breaks the rules is reported as "
             "a file's error is (status 1).")(command)
    return with_rules_option(command)


def nonempty_names(ctx, param, values):
    """A click callback: no empty name in a variant argument or ``--with`` (exit 2).

    ``NAME+`` or ``--with ''`` would otherwise be looked for as a file named "",
    i.e. the current folder.
    """
    for value in values if isinstance(values, tuple) else (values,):
        if value is None:
            continue
        if value == "":
            raise click.BadParameter("an empty name: give a shipped name (see `bidwhist variants`) or a file",
                                     ctx=ctx, param=param)
        from ..variantspec import VariantSpec

        parsed = VariantSpec.parse(value)
        if param is not None and param.name == "with_rules" and parsed.with_rules:
            # Was "unknown house rule 'a+b' (did you mean 'b'?)": --with reads no '+'.
            said = " ".join(f"--with {shell_word(rule)}" for rule in (parsed.base, *parsed.with_rules) if rule)
            raise click.BadParameter(printable(f"{quoted(value)}: --with takes one house rule; "
                                               f"for several, repeat it: {said}", False), ctx=ctx, param=param)
        if any(part == "" for part in (parsed.base, *parsed.with_rules)):
            raise click.BadParameter(f"{value!r} has an empty name before or after '+': write NAME+RULE+RULE",
                                     ctx=ctx, param=param)
    return values


def _guarded(load, spec: str, with_rules, sets, param: str, compile_errors: bool = False):
    from runtime.files import MAX_WITH

    from ..errors import CompileError
    from ..variantspec import NotAHouseRule, NotAVariant, VariantNotFound, VariantSpec

    laid = VariantSpec.parse(spec, tuple(with_rules)).with_rules
    if len(laid) > MAX_WITH:
        # As many as a record may name (records.md): a game played with more wrote records,
        # and a save, that replay and --resume then refused.
        raise click.BadParameter(f"{len(laid)} house rules laid over one variant; at most {MAX_WITH}",
                                 param_hint="--with" if with_rules else param)
    try:
        return load(spec, tuple(with_rules), tuple(sets))
    except VariantNotFound as exc:
        # A name given with --with is blamed on --with, not on the VARIANT argument.
        missing = exc.diagnostics[0].pos.file
        where = "--with" if missing in with_rules and missing not in spec.split("+") else param
        raise variant_not_found(exc, spec, where) from None
    except NotAHouseRule as exc:
        # The name was misused on the command line (exit 2), wherever it was given: blamed on --with
        # where it came from there, as an unknown name is.
        where = "--with" if exc.rule in with_rules and exc.rule not in spec.split("+")[1:] else param
        raise click.BadParameter(printable(exc.diagnostics[0].message, False), param_hint=where) from None
    except NotAVariant:
        # A house rule where the variant goes: the name misused (exit 2), said with the name as given.
        base = VariantSpec.parse(spec).base
        raise click.BadParameter(printable(NotAVariant.said(base), False), param_hint=param) from None
    except CompileError as exc:
        if compile_errors:
            raise
        raise fail_compile(exc) from None


def load_ir(spec: str, with_rules=(), sets=(), param: str = "VARIANT", compile_errors: bool = False):
    """The compiled IR of a variant named on the command line (usage errors exit 2, bad content 1;
    with ``compile_errors``, bad content is raised as the CompileError itself, for a caller
    that adds to its diagnostics)."""
    from ..pipeline import compile_variant

    return _guarded(compile_variant, spec, with_rules, sets, param, compile_errors)


def load_rules(spec: str, with_rules=(), sets=(), param: str = "VARIANT"):
    """The runtime Ruleset of a variant named on the command line (from the rule cache when it holds it)."""
    from ..rulecache import load_ruleset

    return _guarded(load_ruleset, spec, with_rules, sets, param)


def load_rulebook(spec: str, with_rules=(), sets=(), param: str = "VARIANT") -> str:
    """The Markdown rulebook of a variant named on the command line (from the rule cache when it holds it)."""
    from ..rulecache import rulebook

    return _guarded(rulebook, spec, with_rules, sets, param)


def spec_text(spec: str, with_rules=()) -> tuple[str, list[str]]:
    """The (variant, with) pair a record carries for a variant named on the command line."""
    from ..variantspec import VariantSpec

    parsed = VariantSpec.parse(spec, with_rules)
    return parsed.base, list(parsed.with_rules)


def regular_file(ctx, param, value):
    """A click callback: a FILE argument must name a regular file (exit 2 otherwise).

    Asked with ``stat`` only, before anything opens the path, so a FIFO, a device such
    as ``/dev/zero`` or a directory is refused at once instead of blocking or being read
    without end.
    """
    if value is None:
        return value
    if value == "":
        raise click.BadParameter("an empty name: give a file name", ctx=ctx, param=param)
    from runtime.files import regular_file_problem

    problem = regular_file_problem(value)
    # A missing or unreadable file is left to the command, which says so in its own words.
    if problem is not None and problem.startswith("not a regular file"):
        # One line, as a missing file or bad JSON is said (records.md: "one line on stderr").
        raise BadFileArgument(printable(f"{value}: {problem}", False))  # a newline in the name too
    return value


def record_file(ctx, param, value):
    """A click callback for a record FILE: ``-`` reads the record from stdin
    (:class:`runtime.files.StandardInput`, shown as ``<stdin>``); any other name is a
    :func:`regular_file`."""
    if value == "-":
        from runtime.files import StandardInput

        return StandardInput()
    return regular_file(ctx, param, value)


def output_problem(path: str | os.PathLike) -> str | None:
    """Why a file could not be written at ``path``, in words; None when it can.

    Asked before a command does its work (a simulation, a conversion, a game), so that
    its result is never thrown away at the end for a name that cannot be written: too
    long a name, a folder that does not exist or is not writable, a read-only disk.
    Found by trying, not by ``os.access`` (which answers "yes" to root, and knows nothing
    of name lengths): a file that is there is opened for appending (nothing written), one
    that is not is made and removed again.  A FIFO must have a reader (see
    :func:`_fifo_problem`); another file that is not a regular one (``/dev/null``) is
    left to the command.
    The CLI does not make missing folders for an output FILE (``--plot``, ``--records``,
    ``-o``, ``--save``): a misspelt folder is said, not made.
    """
    import stat

    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        shown = printable(folder, False)  # a name is the user's, and may hold an ESC
        return f"folder {shown} does not exist" if not os.path.lexists(folder) else f"{shown} is not a folder"
    try:
        if os.path.lexists(path) and not os.path.exists(path):
            return None  # a link to nothing: writing makes its target, which is not tried here
        if os.path.lexists(path):
            mode = os.stat(path).st_mode
            if stat.S_ISDIR(mode):
                return "it is a folder"
            if stat.S_ISFIFO(mode):
                return _fifo_problem(path)
            if not stat.S_ISREG(mode):
                return None
            os.close(os.open(path, os.O_WRONLY | os.O_APPEND))
        else:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
            os.unlink(path)
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


# Write ends of FIFOs opened by _fifo_problem, held until the process ends.
_FIFOS_HELD: list[int] = []
FIFO_NO_READER = "a FIFO that no program reads (writing to it would wait for a reader forever)"
FIFO_READER_GONE = "its reader has gone"


def _fifo_problem(path: str | os.PathLike) -> str | None:
    """Why the FIFO at ``path`` cannot be written: no program reads it; None when one does.

    Opening a FIFO to write waits for a reader, forever if none comes (`simulate
    --records fifo` hung).  Opened without blocking, a FIFO no program reads fails at
    once (ENXIO), and is said so.  When a reader is there, the write end is kept open
    until the process ends: closed now, it would end the reader's input (``cat fifo``
    would see the end of the file) before the command had written a byte.
    """
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        return output_reason(exc)
    _FIFOS_HELD.append(fd)
    return None


def open_output(path: str | os.PathLike, new_only: bool = False) -> int:
    """Open the output file ``path`` to write it from its start: its file descriptor, blocking.

    Opened without blocking, then made blocking: a FIFO whose reader has gone (or never
    came: a later game's file is not checked before the run) fails at once (ENXIO, said
    by :func:`output_reason`) where a plain open waited for a reader forever.  Where the
    system has no ``O_NONBLOCK`` (Windows) the file is opened as any other, and left as it
    is: ``os.set_blocking`` there takes only pipes, and refused every record file.
    ``new_only=True`` makes a new file and refuses any name already there
    (FileExistsError): for the names the tool chooses itself, which must replace no one's
    file, nor write through a link (symbolic or hard) planted at the name.  Made with
    ``O_EXCL``, the check and the making are one step, so a file put there after any
    earlier check is refused too.
    """
    nonblocking = getattr(os, "O_NONBLOCK", 0)
    # O_EXCL with O_CREAT fails on any name that is there, a symbolic link to nothing included.
    flags = os.O_WRONLY | os.O_CREAT | nonblocking | (os.O_EXCL if new_only else os.O_TRUNC)
    fd = os.open(path, flags, 0o666)
    if nonblocking:
        try:
            os.set_blocking(fd, True)
        except BaseException:
            os.close(fd)
            raise
    return fd


def write_output(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` (UTF-8) to the output file ``path`` from its start, opened by :func:`open_output`.

    For the outputs written whole at the end (``convert -o``, ``import -o``): a FIFO whose
    reader left after the check is an OSError (ENXIO), not a wait forever.
    """
    with os.fdopen(open_output(path), "w", encoding="utf-8") as out:
        out.write(text)


def output_reason(exc: OSError) -> str:
    """Why an output file could not be opened or written, in words (a FIFO no program reads named so,
    and one whose reader left part way: README's "said so then", not the bare "Broken pipe")."""
    if exc.errno == errno.ENXIO:
        return FIFO_NO_READER
    if exc.errno == errno.EPIPE:
        return FIFO_READER_GONE
    return exc.strerror or str(exc)


def check_output(path: str | os.PathLike, option: str, shown: str | None = None) -> None:
    """Refuse (exit 2, naming ``option``) an output FILE that could not be written: see :func:`output_problem`.

    ``shown`` names the file in the message where ``path`` is not what the user wrote (a
    game's file of a ``{game}`` template, a file saved beside the one named)."""
    problem = output_problem(path)
    if problem is not None:
        raise click.BadParameter(f"cannot write {printable(shown or str(path), False)}: {problem}",
                                 param_hint=option)
