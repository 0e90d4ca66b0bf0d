"""bidwhist's compiler: variant text -> positioned IR -> runtime Ruleset.

Stages, one module each, in pipeline order: ``yamlload`` (YAML with positions),
``schemacheck`` (JSON Schema with positioned errors), ``expressions`` (the formula
language), ``build`` (IR from the document), ``checks`` (semantic passes), ``lower``
(IR -> ``runtime.Ruleset``); ``pipeline`` runs them, ``cli`` is the command line.
"""

from .errors import CompileError, Diagnostic, SourcePos
from .pipeline import compile_file, compile_variant, load_ruleset

__all__ = ["CompileError", "Diagnostic", "SourcePos", "compile_file", "compile_variant", "load_ruleset"]
