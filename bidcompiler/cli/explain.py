"""The commands that print what a variant's rules are: ``rules`` and ``diff``.

The text itself comes from the generators beside the compiler
(:mod:`bidcompiler.rulebook`, :mod:`bidcompiler.irdiff`); this module only reads the
arguments, compiles the variants and prints.
"""

from __future__ import annotations

import json

import click

from .common import load_ir, load_rulebook, nonempty_names, variant_options


@click.command("rules")
@click.argument("variant", callback=nonempty_names)
@variant_options
def rules_command(variant, with_rules, sets):
    """Print the compiled rules of VARIANT as a Markdown rulebook.

    House rules (--with, NAME+RULE) and --set changes are included, so a table can
    print the rules it will play by and agree on them before play.  For programs,
    `bidwhist compile VARIANT --json` gives the same rules as data.
    """
    # From the rule cache when it holds this variant's rulebook: no compiler is loaded then.
    text = load_rulebook(variant, with_rules, sets)
    # Plain click.echo: rich would read "[...]" in the Markdown as markup.
    click.echo(text, nl=False)


@click.command("diff")
@click.argument("a", metavar="A", callback=nonempty_names)
@click.argument("b", metavar="B", callback=nonempty_names)
@variant_options
@click.option("--json", "as_json", is_flag=True,
              help="Print a JSON list of {path, label, a, b}; formula rows add a_words and b_words (docs/json.md).")
def diff_command(a, b, with_rules, sets, as_json):
    """List the rule differences between variants A and B, one per line.

    Each of A and B is a name, NAME+RULE... or a file; --with and --set apply to
    both.  A formula is shown simplified, and its line is followed by both
    formulas in plain English ("before:", "after:").  The exit status is 0 whether
    or not they differ: this is a report.
    """
    from ..irdiff import diff

    va = load_ir(a, with_rules, sets, param="A")
    vb = load_ir(b, with_rules, sets, param="B")
    found = diff(va, vb)
    if as_json:
        click.echo(json.dumps([d.as_json() for d in found], indent=2))
    elif not found:
        click.echo("no rule differences")
    else:
        # Plain click.echo: values may hold brackets that rich would take for markup.
        # A formula's line is followed by its readings in English, indented.
        for d in found:
            click.echo("\n".join(d.lines()))
