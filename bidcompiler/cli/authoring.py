"""Commands for people who write variants: check, compile, convert, print the schema."""

from __future__ import annotations

import contextlib
import errno
import json
import os
from pathlib import Path

import click

from .. import resources
from ..errors import printable
from ..resources import SCHEMA_FILE
from .common import (
    BadContent,
    FilePath,
    check_output,
    fail_compile,
    load_ir,
    nonempty_names,
    output_reason,
    regular_file,
    same_file,
    variant_not_found,
    variant_options,
    write_output,
)

# The compiler, the converter and rich are imported inside the commands, so that
# `bidwhist check --help` and the like start at once (tests/test_startup.py).


def _check_target(name: str, param: str = "FILES") -> tuple[Path, tuple[str, ...]]:
    """The file a `check` argument names, and the house rules laid over it.

    An existing file is taken as it is; otherwise the argument is named as in
    every other command: a shipped name, or NAME+RULE+RULE.  An unknown name or a
    missing file is a usage error (exit 2), reported before anything is checked.
    """
    from ..pipeline import VariantNotFound, VariantSpec, find_file

    given = Path(name)
    if os.path.isdir(given):  # os.path's: False for a name too long to be a file, where Path's raises
        raise click.BadParameter(f"{name} is a directory; give the variant or house-rule files in it",
                                 param_hint=param)
    if os.path.isfile(given):
        return given, ()
    spec = VariantSpec.parse(name)
    try:
        path = find_file(spec.base)
        for rule in spec.with_rules:
            find_file(rule, kind="house-rule")
    except VariantNotFound as exc:
        raise variant_not_found(exc, name, param) from None
    if spec.with_rules:
        _refuse_misnamed_kinds(spec, path, param)
    return path, spec.with_rules


def _refuse_misnamed_kinds(spec, path: Path, param: str) -> None:
    """NAME+RULE with a house rule as NAME, or a shipped variant as RULE: the names misused,
    a usage error (exit 2) before anything is checked, said as every other command says it
    (bidcompiler.cli.common).  What is misnamed is the compiler's to decide
    (pipeline.refuse_misnamed); a file that does not load, or a file of the user's named as a
    house rule, is left to the check, which says what its file lacks (a variant by default:
    its `kind` may be missing)."""
    from ..errors import CompileError
    from ..pipeline import NotAHouseRule, NotAVariant, find_file, load_layer, refuse_misnamed

    named = [(path, "variant", spec.base)] + [(find_file(rule, kind="house-rule"), "house-rule", rule)
                                              for rule in spec.with_rules]
    for found, named_as, name in named:
        try:
            refuse_misnamed(load_layer(found), named_as, name)
        except NotAVariant:
            raise click.BadParameter(printable(NotAVariant.said(name), False), param_hint=param) from None
        except NotAHouseRule as exc:
            raise click.BadParameter(printable(exc.diagnostics[0].message, False), param_hint=param) from None
        except CompileError:
            pass  # the check's to report, with the file's lines


def _laid_over_each(path: Path | str, bases: tuple[str, ...]) -> list:
    """The IR of house rule ``path`` laid over each of ``bases``, or one CompileError with
    the diagnostics of every base it does not fit.

    Each base is tried, not only up to the first that fails; with several bases, each
    message says which games it was found over (a rule checked over a partnership game
    and a game of three was told "no player has a partner" without saying which game
    lacked partners), and a message found over several is printed once, naming them all.
    """
    from dataclasses import replace

    from ..errors import CompileError, Diagnostic

    compiled = []
    found: dict[Diagnostic, list[str]] = {}  # a message -> the games it was found over
    for base in bases:
        try:
            compiled.append(load_ir(base, (str(path),), compile_errors=True))
        except CompileError as exc:
            for d in exc.diagnostics:
                found.setdefault(d, []).append(base)
    if found:
        raise CompileError([d if len(bases) == 1 else replace(d, message=f"{d.message} (laid over {', '.join(over)})")
                            for d, over in found.items()])
    return compiled


@click.command()
@click.argument("files", nargs=-1, required=True, metavar="FILES...", callback=nonempty_names)
@click.option("--on", "bases", multiple=True, metavar="VARIANT", callback=nonempty_names,
              help="Also lay each house-rule file over this variant and check the result (repeatable).")
def check(files, bases):
    """Check variant and house-rule files: every error of every file, as file:line:col: message.

    Each of FILES is a file, a shipped name (`bidwhist check NAME`), or a
    variant with house rules (`NAME+mine.whist`), checked as one.  A variant is
    compiled completely.  A house rule is checked on its own, and laid over each
    --on VARIANT (a house rule may not fit every game; with several, each message
    names the games it was found over).  What a game allows but can
    never do (a bid the declarers can never make) is printed as a warning; the
    file is still ok.
    """
    from ..build import check_layer_formulas
    from ..checks import warnings
    from ..errors import CompileError
    from ..pipeline import compile_file, file_kind, layer_kind, load_layer

    bases = tuple(dict.fromkeys(bases))  # a game named twice is checked once, and named once in each message
    for base in bases:  # named before anything is checked, whether or not a house rule is among FILES
        path, rules = _check_target(base, "--on")
        if not rules and file_kind(path) == "house-rule":  # was "1 of 1 file(s) have errors", blaming FILES
            raise click.BadParameter(f"{base} is a house rule, not a variant: --on names a game to lay FILES over",
                                     param_hint="--on")
    targets = [(name, *_check_target(name)) for name in files]
    failed = 0
    for name, path, rules in targets:
        note = ""
        compiled = []  # each game checked: its warnings are printed once it is ok
        try:
            if rules:
                compiled.append(compile_file(path, rules))
            elif layer_kind(layer := load_layer(path)) == "house-rule":
                # What the file says, not a quick look at its text: one in a YAML flow mapping,
                # `{kind: house-rule, …}`, was compiled as a variant and refused for being a rule.
                problems = check_layer_formulas(layer)
                if problems:
                    raise CompileError(problems)
                # Laid by the name given (a shipped one stays a name in every message, not the
                # path it is installed at), as --with lays it.
                compiled.extend(_laid_over_each(path if os.path.isfile(name) else name, bases))
                # Checked alone, a house rule is only checked for what it says, not whether it fits
                # a game (it may fit none): the line says so rather than a bare "ok".
                note = (f" (over {', '.join(bases)})" if bases else
                        " on its own; not laid over any game (--on VARIANT checks that it fits one)")
            else:
                compiled.append(compile_file(path))
            if bases and not note:  # was a bare "ok", as if checked over each --on game too
                note = " (a variant: --on lays house rules only, and was not used for it)"
        except CompileError as exc:
            failed += 1
            for d in exc.diagnostics:
                click.echo(str(d), err=True)
            continue
        except click.ClickException as exc:
            failed += 1
            exc.show()
            continue
        said = list(dict.fromkeys(str(d) for v in compiled for d in warnings(v)))  # once, over several games
        for line in said:
            click.echo(line, err=True)
        click.echo(f"{name}: ok{note}" + (f" ({len(said)} warning{'s' if len(said) > 1 else ''})" if said else ""))
    if failed:
        raise BadContent(f"{failed} of {len(files)} file(s) have errors")


@click.command("compile")
@click.argument("variant", callback=nonempty_names)
@variant_options
@click.option("--json", "as_json", is_flag=True, help="Print the normalised IR as JSON.")
def compile_cmd(variant, with_rules, sets, as_json):
    """Compile VARIANT (a name, NAME+RULE..., or a file) and show its intermediate form."""
    from ..irjson import to_json
    from . import render

    v = load_ir(variant, with_rules, sets)
    if as_json:
        click.echo(to_json(v), nl=False)
    else:
        render.variant_summary(v, tuple(sets))


def _schema_text() -> str:
    """The JSON Schema of variant files as `bidwhist schema` prints and writes it."""
    from ..pipeline import variant_schema

    return json.dumps(variant_schema(), indent=2) + "\n"


# Failures of the disk, not of the name: a full disk, a quota, an I/O error (status 1).
_OUT_OF_ROOM = {errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG}


def write_schema(folder: Path) -> Path:
    """Write ``variant.schema.json`` into ``folder`` (made if missing); its path.

    A failure to write is a usage error naming the folder (exit 2).
    """
    from runtime.files import regular_file_problem

    if os.path.exists(folder) and not folder.is_dir():
        # A device such as /dev/null passes click's "not a file" check; mkdir would say "File exists".
        raise click.BadParameter(f"{folder}: not a folder", param_hint="DIR")
    target = folder / SCHEMA_FILE
    # The name is not the user's choice: what is there already must be a file to replace
    # (a FIFO there would block the write until something read it, for ever).
    problem = regular_file_problem(target) if os.path.lexists(target) else None
    if problem is not None and not problem.startswith("no such file"):
        raise click.BadParameter(f"cannot write {target}: {problem}", param_hint="DIR")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        # A folder that cannot be made is the command line's (a part of DIR is a file, no right
        # to make it): status 2, as this docstring says; it was 1, as a full disk.
        if exc.errno in _OUT_OF_ROOM:
            raise BadContent(f"cannot make the folder {folder}: {exc.strerror or exc}") from None
        raise click.BadParameter(f"cannot make the folder {folder}: {exc.strerror or exc}", param_hint="DIR") from None
    try:
        _replace_file(target, _schema_text())
    except OSError as exc:
        raise BadContent(f"cannot write {target}: {exc.strerror or exc}") from None  # a full disk: status 1
    return target


def _replace_file(target: Path, text: str) -> None:
    """Put ``text`` at ``target`` as a new file renamed over whatever is there.

    The name is the tool's, not the user's, so a link found at it is replaced, never
    followed: a folder of variants shared or cloned with ``variant.schema.json`` linked
    to ``~/.bashrc`` had that file overwritten by ``schema --write`` (and, the link
    leading to no file yet, ``convert -o`` made it).  Renamed whole, the schema is also
    never seen half written.
    """
    part = target.with_name(f".{target.name}.{os.getpid()}.part")
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(part, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(part)
        raise


@click.command()
@click.option("--write", "folder", type=FilePath(file_okay=False), metavar="DIR",
              help=f"Write the schema to DIR/{SCHEMA_FILE} (DIR is made if missing) instead of printing it.")
def schema(folder):
    """Print the JSON Schema of variant files (for editors and other tools).

    With --write DIR the schema goes to DIR/variant.schema.json, next to your own
    variant files: the modeline `# yaml-language-server: $schema=variant.schema.json`
    at the top of a YAML file there (what `bidwhist convert --to yaml` writes)
    then lets an editor check the file as you type.
    """
    if folder is None:
        click.echo(_schema_text(), nl=False)
        return
    # The folder is the user's text: a control character in it is shown escaped, not acted on.
    click.echo(printable(f"wrote {write_schema(Path(folder))}", False))


def _schema_ref(output: Path) -> tuple[str, Path | None]:
    """The modeline's path to a schema, seen from the folder of ``output``.

    The nearest ``variant.schema.json`` in that folder or a folder above it; else,
    inside a bidwhist source tree, the project's own schema; else none yet: then
    the second item is the folder where a copy must be written.
    """
    folder = output.resolve().parent
    candidates = [d / SCHEMA_FILE for d in (folder, *folder.parents)]
    shipped = Path(str(resources.schema_path()))
    if shipped.is_file() and folder.is_relative_to(shipped.parents[2]):
        candidates.append(shipped)  # e.g. variants/ -> ../bidcompiler/schema/variant.schema.json
    for candidate in candidates:
        if candidate.is_file():
            return _relative(candidate, folder), None
    return SCHEMA_FILE, folder


def _relative(target: Path, folder: Path) -> str:
    """``target`` as a path relative to ``folder`` with forward slashes (a file URI across drives)."""
    try:
        return Path(os.path.relpath(target, folder)).as_posix()
    except ValueError:  # another drive on Windows: no relative path exists
        return target.as_uri()


# The endings a file of each syntax is read by (a .whist name is read as .whist, any
# other as YAML): the output of `convert` must have one of its target's.
OUTPUT_SUFFIXES = {"whist": (".whist",), "yaml": (".yaml", ".yml")}


def _check_output(source: Path, output: Path, target: str) -> None:
    """Refuse (exit 2) an ``-o`` that is FILE itself, whose ending would read it in the other syntax,
    or that could not be written."""
    if same_file(output, source):  # a link, or a hard link: another name of FILE is FILE too
        raise click.BadParameter(f"{output} is FILE itself: write the converted file under a new name",
                                 param_hint="--output")
    if output.suffix not in OUTPUT_SUFFIXES[target]:
        raise click.BadParameter(f"{output}: a {target} file's name ends in {' or '.join(OUTPUT_SUFFIXES[target])}"
                                 " (the ending says how the file is read)", param_hint="--output")
    check_output(output, "--output")  # before the work: a missing folder is said, not made


def convert_source(ctx, param, value):
    """A click callback: FILE must exist; a shipped name that is no file here is pointed at its file."""
    if value and not os.path.lexists(value):
        shipped = resources.shipped_files(None).get(value)
        hint = f": '{value}' is a shipped name; its file is {shipped}" if shipped is not None else ""
        raise click.BadParameter(f"File '{value}' does not exist{hint}.", ctx=ctx, param=param)
    return regular_file(ctx, param, value)


def _extends_seen_from(data, source: Path, output: Path) -> None:
    """Point a relative ``extends`` of ``data`` (read from ``source``) at the same file from
    ``output``'s folder, where the converted file is read from, and say so on stderr.

    A path in ``extends`` is found from the folder of the file that says it: converted into
    another folder (``convert v.yaml --to whist -o sub/v.whist``), ``extends: base.yaml`` was
    written as it was, and the file written could not be compiled ("no such file").
    A shipped name, or a path that leads to the same file from both folders, is kept.
    """
    target = data.get("extends") if isinstance(data, dict) else None
    if not isinstance(target, str) or not target or target in resources.shipped_files(None):
        return
    before, _ = resources.locate(target, source.parent)
    if before is None:
        return
    # The file the name leads to from the output's folder itself: locate would fall back
    # to the working directory, where the converted file is not read from.
    if same_file(output.parent / target, before):
        return
    # Real paths of both folders: relpath works on names, and a folder that is a link
    # (or is reached through one) has another place than its name says.
    real = os.path.join(os.path.realpath(before.parent), before.name)
    seen = Path(os.path.relpath(real, os.path.realpath(output.parent))).as_posix()
    data["extends"] = seen
    click.echo(printable(f"note: extends '{target}' is written '{seen}', the same file seen from the folder "
                         f"of {output}", False), err=True)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False), callback=convert_source)
@click.option("--to", "target", type=click.Choice(["whist", "yaml"]), required=True,
              help="The syntax to write.")
@click.option("-o", "--output", type=FilePath(dir_okay=False, writable=True),
              help="Write to this file instead of stdout: a new name (not FILE itself) ending in .whist for "
                   "--to whist, in .yaml or .yml for --to yaml.")
def convert(file, target, output):
    """Convert a variant or house-rule file between YAML and the .whist syntax.

    The file itself is converted (an overlay stays an overlay); both forms compile
    to the same rules, and the output layout is the same every time.  Comments
    are kept, each before its setting, on its line or at the end of its block.
    With -o in another folder, a relative `extends` is rewritten to name the
    same file from there (stderr says so).

    YAML output starts with a schema modeline for editors, a path relative to
    where the file is written.  With -o it points at the nearest
    variant.schema.json in the output's folder or above it (inside a bidwhist
    source tree, at the project's own schema); if there is none, a copy is
    written next to the output, and stderr says so.  On stdout it points
    at variant.schema.json in the same folder: create it there with
    `bidwhist schema --write DIR`.
    """
    from ..convert import schema_shape, to_whist, to_yaml
    from ..errors import CompileError
    from ..pipeline import load_layer, variant_schema

    if output:
        _check_output(Path(file), Path(output), target)
    try:
        doc = load_layer(Path(file))
    except CompileError as exc:
        raise fail_compile(exc) from None
    notes = doc.comments()
    if output:
        _extends_seen_from(doc.data, Path(file), Path(output))
    make_schema = None
    if target == "whist":
        text = to_whist(doc.data, schema_shape(variant_schema()), notes)
    else:
        ref, make_schema = _schema_ref(Path(output)) if output else (SCHEMA_FILE, None)
        text = to_yaml(doc.data, notes, schema=ref)
    if output:
        try:
            write_output(output, text)
        except OSError as exc:
            # Bad luck, not bad usage: status 1, as every command's output that cannot be written.
            raise BadContent(f"cannot write {output}: {output_reason(exc)}") from None
        if make_schema is not None:  # after the output, so a failed write leaves nothing behind
            written = write_schema(make_schema)
            click.echo(printable(f"wrote {written}: the schema the modeline of {output} points at", False), err=True)
    else:
        if target == "yaml":
            click.echo(f"note: the modeline points at {SCHEMA_FILE} in the folder where you save the file; "
                       "`bidwhist schema --write DIR` puts it there", err=True)
        click.echo(text, nl=False)
