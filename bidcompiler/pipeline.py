"""The compiler pipeline: find -> read -> load (YAML) -> validate -> build IR -> check -> lower.

Each stage collects every problem it finds and raises one ``CompileError``; a later
stage only runs on what the earlier ones accepted, so one run reports all the
errors a user can fix at once without cascades of follow-on noise.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from runtime.ruleset import Ruleset

from . import ir, resources
from .build import build_variant
from .checks import run_checks
from .errors import CompileError, Diagnostic, DiagnosticSink, SourcePos
from .lower import lower
from .schemacheck import validate
from .yamlload import load_yaml


class VariantNotFound(CompileError):
    """A variant named on the command line or in a record is neither shipped nor a file."""


def shipped_variants() -> dict[str, Path]:
    """Shipped variant files by name (the file's stem)."""
    folder = resources.variants_dir()
    return {p.stem: p for p in sorted(folder.glob("*.yaml"))}


def find_variant(spec: str) -> Path:
    """The file a variant spec names: a shipped variant's name or a path to a file."""
    shipped = shipped_variants()
    if spec in shipped:
        return shipped[spec]
    path = Path(spec)
    if path.suffix in (".yaml", ".yml") or path.exists():
        if not path.exists():
            raise VariantNotFound([Diagnostic(SourcePos(spec), "no such file")])
        return path
    names = ", ".join(shipped) or "none"
    raise VariantNotFound([Diagnostic(
        SourcePos(spec), f"unknown variant '{spec}' (shipped: {names}); or give the path of a variant file")])


def read_text(path: Path) -> str:
    """A source file's text; unreadable or undecodable files become a CompileError."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise CompileError([Diagnostic(SourcePos(str(path)), f"not UTF-8 text ({exc.reason} at byte {exc.start})")])
    except OSError as exc:
        raise CompileError([Diagnostic(SourcePos(str(path)), f"cannot read: {exc.strerror or exc}")])


@lru_cache(maxsize=1)
def variant_schema() -> dict:
    """The JSON Schema of the YAML surface."""
    return json.loads(resources.schema_path().read_text(encoding="utf-8"))


def compile_text(text: str, filename: str) -> ir.Variant:
    """Compile YAML variant text to a checked IR; CompileError lists every problem."""
    doc = load_yaml(text, filename)
    if doc.data is None:
        raise CompileError([Diagnostic(SourcePos(filename, 1, 1), "empty file: expected a variant")])
    if not isinstance(doc.data, dict):
        raise CompileError([Diagnostic(doc.pos(()), "expected a mapping of variant settings at the top level")])
    problems = validate(doc, variant_schema())
    if problems:
        raise CompileError(problems)
    sink = DiagnosticSink()
    variant = build_variant(doc, sink)
    sink.raise_if_any()
    run_checks(variant, sink)
    sink.raise_if_any()
    return variant


def compile_file(path: str | Path) -> ir.Variant:
    """Compile the variant file at ``path`` to its checked IR."""
    path = Path(path)
    return compile_text(read_text(path), str(path))


def compile_variant(spec: str) -> ir.Variant:
    """Compile a variant named as on the command line (shipped name or path)."""
    return compile_file(find_variant(spec))


@lru_cache(maxsize=64)
def load_ruleset(spec: str) -> Ruleset:
    """The runtime Ruleset of a variant named as on the command line."""
    return lower(compile_variant(spec))
