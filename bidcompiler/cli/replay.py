"""``bidwhist replay``: score hand and game records (the records.md contract)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from runtime.records import NotARecord, read_record_file, replay_file

from .. import render
from ..errors import CompileError
from ..pipeline import load_ruleset


def load_record_file(file: str):
    """Read and parse a record file; one line on stderr and exit 2 when it is not a record."""
    try:
        text = Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        click.echo(f"{file}: cannot read: {getattr(exc, 'strerror', None) or exc}", err=True)
        sys.exit(2)
    try:
        return read_record_file(text, file)
    except NotARecord as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)


def resolve_for_records(variant: str, with_rules: list):
    """Find a record's variant and house rules; LookupError with a message when it cannot."""
    try:
        return load_ruleset(variant, tuple(with_rules))
    except CompileError as exc:
        raise LookupError("; ".join(str(d) for d in exc.diagnostics)) from None


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON (records.md).")
def replay(file, as_json):
    """Replay a hand record or a game record (.jsonl) and score it.

    Exit status 0 for a legal record, 1 for an illegal one (reported at its first
    illegal entry, never scored), 2 for a file that is not a record.
    """
    rf = load_record_file(file)
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
