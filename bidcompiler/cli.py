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
from .cliutil import BadContent, fail_compile, load_ir, load_rules, spec_text, variant_options
from .build import check_layer_formulas
from .convert import schema_shape, to_whist, to_yaml
from .errors import CompileError
from .irjson import to_json
from .pipeline import (
    compile_file, file_kind, load_layer, load_ruleset, shipped_house_rules, shipped_variants, variant_schema,
)


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
    """List the shipped variants and house rules, one line each."""
    rows = []
    for kind, found in (("variant", shipped_variants()), ("house-rule", shipped_house_rules())):
        for name, path in found.items():
            try:
                doc = load_layer(path).data
                title = doc.get("title") or doc.get("description") or name
                rows.append({"name": name, "kind": kind, "title": title, "source": doc.get("source", ""),
                             "path": str(path)})
            except CompileError as exc:  # a broken shipped file is a bug: say so, keep listing
                rows.append({"name": name, "kind": kind, "title": "(does not load)",
                             "source": str(exc.diagnostics[0]), "path": str(path)})
    if as_json:
        click.echo(json.dumps(rows, indent=2))
    else:
        render.variants_table(rows)


@cli.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--on", "bases", multiple=True, metavar="VARIANT",
              help="Also lay each house-rule file over this variant and check the result (repeatable).")
def check(files, bases):
    """Check variant and house-rule files: every error of every file, as file:line:col: message.

    A variant file is compiled completely.  A house-rule file is checked on its
    own, and laid over each --on VARIANT (a house rule may not fit every game).
    """
    failed = 0
    for name in files:
        try:
            if file_kind(Path(name)) == "house-rule":
                problems = check_layer_formulas(load_layer(Path(name)))
                if problems:
                    raise CompileError(problems)
                for base in bases:
                    load_ir(base, (name,))
            else:
                compile_file(name)
        except CompileError as exc:
            failed += 1
            for d in exc.diagnostics:
                click.echo(str(d), err=True)
            continue
        except click.ClickException as exc:
            failed += 1
            exc.show()
            continue
        click.echo(f"{name}: ok")
    if failed:
        raise BadContent(f"{failed} of {len(files)} file(s) have errors")


@cli.command("compile")
@click.argument("variant")
@variant_options
@click.option("--json", "as_json", is_flag=True, help="Print the normalised IR as JSON.")
def compile_cmd(variant, with_rules, sets, as_json):
    """Compile VARIANT (a name, NAME+RULE..., or a file) and show its intermediate form."""
    v = load_ir(variant, with_rules, sets)
    if as_json:
        click.echo(to_json(v), nl=False)
    else:
        render.variant_summary(v)


@cli.command()
def schema():
    """Print the JSON Schema of variant files (for editors and other tools)."""
    click.echo(json.dumps(variant_schema(), indent=2))


def resolve_for_records(variant: str, with_rules: list):
    """Find a record's variant and house rules; LookupError with a message when it cannot."""
    try:
        return load_ruleset(variant, tuple(with_rules))
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
@variant_options
@click.option("--hands", type=click.IntRange(min=1), required=True, help="How many hands to play.")
@click.option("--seed", type=int, default=None, help="Seed of the run (drawn and shown on stderr if omitted).")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@click.option("--records", type=click.Path(dir_okay=False, writable=True),
              help="Write every hand as a hand record, one JSON object per line.")
def simulate(variant, with_rules, sets, hands, seed, as_json, records):
    """Play HANDS hands of VARIANT with random-legal bots and report what happened.

    Reports the contracts bid, how often each was made, and the mean score per hand.
    Each line of --records is a complete hand record that `bidwhist replay` scores
    to the same result.
    """
    rules = load_rules(variant, with_rules, sets)
    if sets and records:
        raise click.UsageError("--records cannot be combined with --set: a record names its variant "
                               "and house rules, not one-off settings; write the change as a house rule")
    record_variant, record_with = spec_text(variant, with_rules)
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
                out.write(json.dumps(hand_record(state, record_variant, record_with)) + "\n")
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


@cli.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--to", "target", type=click.Choice(["whist", "yaml"]), required=True,
              help="The syntax to write.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="Write to this file instead of stdout.")
def convert(file, target, output):
    """Convert a variant or house-rule file between YAML and the .whist syntax.

    The file itself is converted (an overlay stays an overlay); both forms compile
    to the same rules, and the output layout is the same every time.
    """
    try:
        doc = load_layer(Path(file))
    except CompileError as exc:
        raise fail_compile(exc) from None
    text = to_whist(doc.data, schema_shape(variant_schema())) if target == "whist" else to_yaml(doc.data)
    if output:
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise click.BadParameter(f"cannot write {output}: {exc.strerror}", param_hint="--output") from None
    else:
        click.echo(text, nl=False)


from .rulebook import rules_command  # noqa: E402  (registered after the group exists)
cli.add_command(rules_command, "rules")
from .irdiff import diff_command  # noqa: E402
cli.add_command(diff_command, "diff")


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
