"""bidwhist's compiler: variant text -> positioned IR -> runtime Ruleset.

Stages, one module each, in pipeline order: ``yamlload`` (YAML with positions),
``schemacheck`` (JSON Schema with positioned errors), ``expressions`` (the formula
language), ``build`` (IR from the document), ``checks`` (semantic passes), ``lower``
(IR -> ``runtime.Ruleset``); ``pipeline`` runs them, ``cli`` is the command line.

The names below are imported on first use (PEP 562), not with the package: the
command line imports ``bidcompiler.cli`` for every command, and ``bidwhist --help``
should not pay for loading the whole compiler.
"""

from __future__ import annotations

import importlib

# public name -> the module that defines it
_EXPORTS = {
    "CompileError": "errors",
    "Diagnostic": "errors",
    "SourcePos": "errors",
    "compile_file": "pipeline",
    "compile_variant": "pipeline",
    "load_ruleset": "pipeline",
}

__all__ = list(_EXPORTS)


def __getattr__(name: str):
    """Import a public name's module the first time the name is asked for."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'bidcompiler' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(list(globals()) + __all__)
