"""The ``bidwhist`` command line: thin glue between click, the compiler, the runtime and rich.

Conventions every command follows:
- results on stdout (readable text, or clean JSON with ``--json``); progress, the
  drawn seed and diagnostics on stderr;
- exit status 0 on success, 1 for bad content (a variant or record that breaks the
  rules), 2 for bad usage (unknown options, unknown variant names, unreadable
  arguments); never a traceback.
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

import click

from runtime.records import NotARecord, hand_record, read_record_file, replay_file
from runtime.simulate import simulate_hands

from . import render
from .errors import CompileError
from .irjson import to_json
from .pipeline import (
    VariantNotFound, compile_file, compile_variant, load_ruleset, read_text, shipped_variants, variant_schema,
)


class BadContent(click.ClickException):
    """Bad content (exit 1): the message is printed as is, without click's "Error:"."""

    exit_code = 1

    def show(self, file=None):
        click.echo(self.format_message(), err=True)


def fail_compile(exc: CompileError) -> BadContent:
    """A CompileError as a CLI failure: every diagnostic on stderr, exit status 1."""
    return BadContent("\n".join(str(d) for d in exc.diagnostics))


def variant_not_found(exc: VariantNotFound, spec: str, param: str = "VARIANT") -> click.BadParameter:
    """A usage error (exit 2) for a variant that is neither shipped nor a file, naming it."""
    message = exc.diagnostics[0].message
    if spec not in message:  # "no such file" alone does not say which
        message = f"{spec}: {message}"
    return click.BadParameter(message, param_hint=param)


def ruleset_or_usage_error(spec: str, param: str = "VARIANT"):
    """Load a variant for a command, mapping unknown names to usage errors (exit 2)."""
    try:
        return load_ruleset(spec)
    except VariantNotFound as exc:
        raise variant_not_found(exc, spec, param) from None
    except CompileError as exc:
        raise fail_compile(exc) from None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bidwhist")
def cli():
    """Bid Whist and its variants as data.

    Variants are files (YAML) that are validated, compiled and run by one generic
    trick-taking engine.  Name a shipped variant by its name (see `bidwhist
    variants`) or give the path of a variant file.
    """


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list for programs.")
def variants(as_json):
    """List the shipped variants, one line each."""
    rows = []
    for name, path in shipped_variants().items():
        try:
            v = compile_file(path)
            rows.append({"name": name, "title": v.title, "source": v.source, "path": str(path)})
        except CompileError as exc:  # a broken shipped file is a bug: say so, keep listing
            rows.append({"name": name, "title": "(does not compile)", "source": str(exc.diagnostics[0]),
                         "path": str(path)})
    if as_json:
        click.echo(json.dumps(rows, indent=2))
    else:
        render.variants_table(rows)


@cli.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
def check(files):
    """Check variant files: every error of every file, as file:line:col: message."""
    failed = 0
    for name in files:
        try:
            compile_file(name)
        except CompileError as exc:
            failed += 1
            for d in exc.diagnostics:
                click.echo(str(d), err=True)
            continue
        click.echo(f"{name}: ok")
    if failed:
        raise BadContent(f"{failed} of {len(files)} file(s) have errors")


@cli.command("compile")
@click.argument("variant")
@click.option("--json", "as_json", is_flag=True, help="Print the normalised IR as JSON.")
def compile_cmd(variant, as_json):
    """Compile VARIANT (a shipped name or a file) and show its intermediate form."""
    try:
        v = compile_variant(variant)
    except VariantNotFound as exc:
        raise variant_not_found(exc, variant) from None
    except CompileError as exc:
        raise fail_compile(exc) from None
    if as_json:
        click.echo(to_json(v), nl=False)
    else:
        render.variant_summary(v)


@cli.command()
def schema():
    """Print the JSON Schema of variant files (for editors and other tools)."""
    click.echo(json.dumps(variant_schema(), indent=2))


def resolve_for_records(variant: str, with_rules: list):
    """Find a record's variant; LookupError with a message when it cannot."""
    if with_rules:
        raise LookupError(f"house rules ({', '.join(with_rules)}) are not supported by this version")
    try:
        return load_ruleset(variant)
    except CompileError as exc:
        raise LookupError("; ".join(str(d) for d in exc.diagnostics)) from None


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON (records.md).")
def replay(file, as_json):
    """Replay a hand record or a game record (.jsonl) and score it.

    Exit status 0 for a legal record, 1 for an illegal one (reported at its first
    illegal entry, never scored), 2 for a file that is not a record.
    """
    try:
        text = Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        click.echo(f"{file}: cannot read: {getattr(exc, 'strerror', None) or exc}", err=True)
        sys.exit(2)
    try:
        rf = read_record_file(text, file)
    except NotARecord as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    result = replay_file(rf, resolve_for_records)
    if as_json:
        click.echo(json.dumps(result))
    else:
        render.replay_result(result, rf.is_game)
    if result["error"] is not None:
        if not as_json:
            err = result["error"]
            click.echo(f"{file}: {err['at']}: {err['message']}", err=True)
        sys.exit(1)


@cli.command()
@click.argument("variant")
@click.option("--hands", type=click.IntRange(min=1), required=True, help="How many hands to play.")
@click.option("--seed", type=int, default=None, help="Seed of the run (drawn and shown on stderr if omitted).")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@click.option("--records", type=click.Path(dir_okay=False, writable=True),
              help="Write every hand as a hand record, one JSON object per line.")
def simulate(variant, hands, seed, as_json, records):
    """Play HANDS hands of VARIANT with random-legal bots and report what happened.

    Reports the contracts bid, how often each was made, and the mean score per hand.
    Each line of --records is a complete hand record that `bidwhist replay` scores
    to the same result.
    """
    rules = ruleset_or_usage_error(variant)
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
        click.echo(f"seed: {seed}", err=True)
    out = None
    if records:
        try:
            out = open(records, "w", encoding="utf-8")
        except OSError as exc:
            raise click.BadParameter(f"cannot write {records}: {exc.strerror}", param_hint="--records") from None
    with render.progress(hands, "simulating") as advance:
        def on_hand(i, state):
            if out is not None:
                out.write(json.dumps(hand_record(state, variant)) + "\n")
            advance()
        try:
            stats = simulate_hands(rules, hands, seed, on_hand=on_hand)
        finally:
            if out is not None:
                out.close()
    data = stats.as_json(rules)
    data["seed"] = seed
    if as_json:
        click.echo(json.dumps(data, indent=2))
    else:
        render.simulation_report(data)


def main(argv=None):
    """Entry point of the ``bidwhist`` console script."""
    try:
        cli.main(args=argv, prog_name="bidwhist", standalone_mode=True)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except Exception as exc:  # the last line of defence: no traceback for users
        if os.environ.get("BIDWHIST_DEBUG"):
            raise
        click.echo(f"bidwhist: internal error: {type(exc).__name__}: {exc} "
                   "(set BIDWHIST_DEBUG=1 for a traceback, and please report it)", err=True)
        sys.exit(70)
