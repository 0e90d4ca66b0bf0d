"""``bidwhist variants``: the shipped variants and house rules, one line each.

Kept apart from the authoring commands so listing costs little more than starting
click: it reads each shipped file's title and source with the YAML parser alone
(shipped files are the project's own, validated by the test suite), without loading
the compiler, the schema or rich unless there is something to draw.
"""

from __future__ import annotations

import json

import click

from ..resources import shipped_files


def _about(path) -> dict:
    """The name-independent fields of one shipped file: title and source."""
    import yaml  # the C loader where there is one: listing stays fast

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        doc = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:  # a broken shipped file is a bug: say so
        return {"title": "(does not load)", "source": str(exc).splitlines()[0]}
    if not isinstance(doc, dict):
        return {"title": "(does not load)", "source": "not a mapping"}
    return {"title": doc.get("title") or doc.get("description"), "source": doc.get("source", "")}


@click.command()
@click.option("--json", "as_json", is_flag=True,
              help="Print a JSON list for programs: {name, kind, title, source, path} (docs/json.md).")
def variants(as_json):
    """List the shipped variants and house rules, one line each."""
    rows = []
    for kind in ("variant", "house-rule"):
        for name, path in shipped_files(kind).items():
            about = _about(path) if path.suffix == ".yaml" else _about_whist(path)
            rows.append({"name": name, "kind": kind, "title": about["title"] or name,
                         "source": about["source"], "path": str(path)})
    if as_json:
        click.echo(json.dumps(rows, indent=2))
    else:
        variants_table(rows)


def _about_whist(path) -> dict:
    """Title and source of a shipped ``.whist`` file, through the full loader."""
    from ..errors import CompileError
    from ..pipeline import load_layer

    try:
        doc = load_layer(path).data
    except CompileError as exc:
        return {"title": "(does not load)", "source": str(exc.diagnostics[0])}
    return {"title": doc.get("title") or doc.get("description"), "source": doc.get("source", "")}


def variants_table(rows: list[dict]) -> None:
    """One line per shipped variant."""
    from .console import Console  # only when there is a table to draw

    console = Console(highlight=False, soft_wrap=True)  # as render.stdout()
    width = max((len(r["name"]) for r in rows), default=0)
    for kind, heading in (("variant", "Variants"), ("house-rule", "House rules (--with RULE or NAME+RULE)")):
        chosen = [r for r in rows if r.get("kind", "variant") == kind]
        if not chosen:
            continue
        console.print(f"[bold underline]{heading}[/bold underline]")
        for r in chosen:
            source = f"  [dim]({r['source']})[/dim]" if r["source"] and kind == "variant" else ""
            console.print(f"[bold]{r['name']:<{width}}[/bold]  {r['title']}{source}")
