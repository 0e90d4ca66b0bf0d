"""Commands for people who write variants: list, check, compile, convert, print the schema."""

from __future__ import annotations

import json
from pathlib import Path

import click

from .. import render
from ..build import check_layer_formulas
from ..convert import schema_shape, to_whist, to_yaml
from ..errors import CompileError
from ..irjson import to_json
from ..pipeline import compile_file, file_kind, load_layer, shipped_house_rules, shipped_variants, variant_schema
from .common import BadContent, fail_compile, load_ir, variant_options


@click.command()
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


@click.command()
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


@click.command("compile")
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


@click.command()
def schema():
    """Print the JSON Schema of variant files (for editors and other tools)."""
    click.echo(json.dumps(variant_schema(), indent=2))


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--to", "target", type=click.Choice(["whist", "yaml"]), required=True,
              help="The syntax to write.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="Write to this file instead of stdout.")
def convert(file, target, output):
    """Convert a variant or house-rule file between YAML and the .whist syntax.

    The file itself is converted (an overlay stays an overlay); both forms compile
    to the same rules, and the output layout is the same every time.  Comments
    are kept, each before its setting, on its line or at the end of its block.
    """
    try:
        doc = load_layer(Path(file))
    except CompileError as exc:
        raise fail_compile(exc) from None
    notes = doc.comments()
    text = (to_whist(doc.data, schema_shape(variant_schema()), notes) if target == "whist"
            else to_yaml(doc.data, notes))
    if output:
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise click.BadParameter(f"cannot write {output}: {exc.strerror}", param_hint="--output") from None
    else:
        click.echo(text, nl=False)
