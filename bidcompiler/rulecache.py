"""The rule cache: a variant's built runtime Ruleset kept between runs, checked before use.

Building a Ruleset means importing the compiler (PyYAML, Lark, jsonschema: most of a
command's start-up) and then reading, validating, composing, checking and lowering the
files.  After the first build, :func:`load` keeps the result as JSON
(runtime.ruleset_json) in the user's cache folder; a later run with the same inputs
reads it back without importing the compiler at all.  ``bidwhist rules`` keeps its
rulebook text the same way (:func:`rulebook`).

What an entry depends on is recorded while it is built, and checked on every use:

* the code: a hash of every source and data file of the ``bidcompiler`` and
  ``runtime`` packages and of the grammars (:func:`code_version`);
* the name as given (variant, house rules in order, each ``--set`` text), and the
  working folder when a name is not a shipped one;
* every name looked up and the file it led to (re-resolved by resources.locate: a
  file that now shadows another, or a shipped file added, is a change);
* every file read, by the SHA-256 of its bytes (read again through the bounded
  reader, runtime.files).

Any difference is a miss: the variant is built again and the entry replaced.  An
entry that cannot be read, is too large, is not the format, or does not describe a
Ruleset is a miss too — never an error.  Only builds that succeed are stored (a
variant with errors is reported afresh every time).  Entries are written to a
temporary file and renamed over the old one, so concurrent writers and readers only
ever see whole entries.

Where: the ``rulesets`` subfolder of the user's cache folder (runtime.diskcache:
``$BIDWHIST_CACHE_DIR``, ``$XDG_CACHE_HOME/bidwhist`` or ``~/.cache/bidwhist``;
``BIDWHIST_NO_CACHE=1`` turns it off; a folder others may write to is not used).
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import importlib.util
import json
import os
import sys
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from runtime import diskcache
# The folder and its switches are the cache's as a whole (also the bots' tables): named here too.
from runtime.diskcache import ENV_DIR as ENV_DIR
from runtime.diskcache import ENV_OFF as ENV_OFF
from runtime.diskcache import cache_dir as cache_dir

from .resources import MAX_VARIANT_BYTES, grammar_dir, locate, shipped_files
from .variantspec import VariantSpec

if TYPE_CHECKING:
    from runtime.ruleset import Ruleset

FORMAT = "bidwhist-rulecache/1"
# An entry is a Ruleset's JSON (the largest shipped one about 10 KB) and the files it
# depends on: 1 MiB is far above any real one and bounds what a damaged entry costs.
MAX_ENTRY_BYTES = 1 << 20
# Entries kept in the folder: on a write past this many, the oldest are removed down
# to half of it (each is ~10 KB; a new code version leaves the old entries behind).
MAX_ENTRIES = 256
_SUBDIR = "rulesets"
# The libraries a build reads variant files with: their versions are part of the code.
LIBRARIES = ("yaml", "lark", "jsonschema")

# The dependencies noted while a build runs (None when no build is being recorded).
_recording: contextvars.ContextVar[_Deps | None] = contextvars.ContextVar("bidwhist_rulecache", default=None)


class _Deps:
    """What one build looked up and read."""

    def __init__(self) -> None:
        self.lookups: list[list] = []  # [name, relative_to or None, file found]
        self.files: list[list[str]] = []  # [path, sha256 of its bytes]


def note_lookup(name: str, relative_to: Path | None, found: Path) -> None:
    """Record that ``name`` (relative to ``relative_to``) led to ``found`` (called by the pipeline)."""
    deps = _recording.get()
    if deps is not None:
        entry = [name, None if relative_to is None else str(relative_to), str(found)]
        if entry not in deps.lookups:
            deps.lookups.append(entry)


def note_read(path: str | os.PathLike, data: bytes) -> None:
    """Record that the build read ``data`` from ``path`` (called by the pipeline's one reader)."""
    deps = _recording.get()
    if deps is not None:
        entry = [os.fspath(path), hashlib.sha256(data).hexdigest()]
        if entry not in deps.files:
            deps.files.append(entry)


@contextlib.contextmanager
def recording() -> Iterator[_Deps]:
    """Record the lookups and reads of the build run inside the block."""
    deps = _Deps()
    token = _recording.set(deps)
    try:
        yield deps
    finally:
        _recording.reset(token)


# --------------------------------------------------------------------------- where
def _entries_folder(create: bool) -> Path | None:
    """The folder holding the entries (made if ``create``), or None if it cannot be used
    (nor when the code is not plain files whose contents :func:`code_version` can hash)."""
    return diskcache.entries_folder(_SUBDIR, create) if diskcache.code_on_disk(*_code_roots()) else None


@lru_cache(maxsize=1)
def _code_roots() -> tuple[Path, ...]:
    """The folders whose files :func:`code_version` hashes: this package, the grammars, the runtime."""
    runtime_spec = importlib.util.find_spec("runtime")  # located, not imported
    roots = [Path(__file__).resolve().parent, Path(str(grammar_dir()))]
    if runtime_spec is not None and runtime_spec.origin:
        roots.append(Path(runtime_spec.origin).resolve().parent)
    return tuple(roots)


# --------------------------------------------------------------------------- keys
@lru_cache(maxsize=1)
def code_version() -> str:
    """A hash of the code that builds a Ruleset: every file of the packages and the grammars.

    Content, not modification times: a checkout switched to other code with the same
    times, or an edit within a clock tick, still changes it.  Compiled ``__pycache__``
    files are left out (they follow the sources).  The libraries that read variant
    files (:data:`LIBRARIES`) count by where they are and their files' times and sizes
    (an upgrade rewrites them), and so does the Python version.
    """
    digest = hashlib.sha256(FORMAT.encode())
    digest.update(sys.version.encode())
    for library in LIBRARIES:
        found = importlib.util.find_spec(library)  # located, not imported
        stamp: list = [library]
        if found is not None and found.origin:
            with contextlib.suppress(OSError):
                info = os.stat(found.origin)
                stamp += [found.origin, info.st_mtime_ns, info.st_size]
        digest.update(json.dumps(stamp).encode())
    for root in _code_roots():
        diskcache.hash_files(digest, root)
    return digest.hexdigest()


def _spec_key(kind: str, spec: VariantSpec) -> list:
    """What is stored (``kind``) for the name as given, with the working folder when a name is not shipped."""
    shipped = shipped_files(None)
    names = (spec.base, *spec.with_rules)
    here = None if all(name in shipped for name in names) else os.getcwd()
    return [kind, spec.base, list(spec.with_rules), list(spec.sets), here]


def _entry_path(folder: Path, key: list) -> Path:
    text = json.dumps([FORMAT, code_version(), key], ensure_ascii=True)
    return folder / (hashlib.sha256(text.encode()).hexdigest()[:40] + ".json")


# --------------------------------------------------------------------------- read and write
def _still_valid(entry: dict, key: list) -> bool:
    """True if every recorded dependency of ``entry`` is as it was."""
    from runtime.files import read_regular

    if entry.get("format") != FORMAT or entry.get("code") != code_version() or entry.get("key") != key:
        return False
    lookups, files = entry.get("lookups"), entry.get("files")
    if not isinstance(lookups, list) or not isinstance(files, list):
        return False
    for name, relative_to, found in lookups:
        if not isinstance(name, str) or not isinstance(found, str) or not isinstance(relative_to, (str, type(None))):
            return False
        now, _ = locate(name, None if relative_to is None else Path(relative_to))
        if now is None or str(now) != found:
            return False
    for path, digest in files:
        if not isinstance(path, str) or not isinstance(digest, str):
            return False
        if hashlib.sha256(read_regular(path, MAX_VARIANT_BYTES)).hexdigest() != digest:
            return False
    return True


def _read(kind: str, spec: VariantSpec):
    """The stored value (JSON) of ``kind`` for ``spec`` if an entry exists and every dependency is unchanged."""
    folder = _entries_folder(create=False)
    if folder is None:
        return None
    try:
        key = _spec_key(kind, spec)
        entry = diskcache.read_entry(_entry_path(folder, key), MAX_ENTRY_BYTES)
        if not isinstance(entry, dict) or not _still_valid(entry, key):
            return None
        return entry["value"]
    except Exception:  # noqa: BLE001 - any damage to an entry is a miss, never an error
        return None


def _write(kind: str, spec: VariantSpec, deps: _Deps, value) -> None:
    """Store ``value`` (JSON-ready) with its dependencies; any failure leaves the cache as it was."""
    folder = _entries_folder(create=True)
    if folder is None:
        return
    key = _spec_key(kind, spec)
    doc = {"format": FORMAT, "code": code_version(), "key": key, "lookups": deps.lookups, "files": deps.files,
           "value": value}
    diskcache.write_entry(folder, _entry_path(folder, key).name, doc, MAX_ENTRY_BYTES, MAX_ENTRIES)


# --------------------------------------------------------------------------- --set texts
def _set_marker(folder: Path, text: str) -> Path:
    key = json.dumps([FORMAT, code_version(), "set", text], ensure_ascii=True)
    return folder / (hashlib.sha256(key.encode()).hexdigest()[:40] + ".set")


def set_text_known(text: str) -> bool:
    """True if this code has read the ``--set`` text ``text`` as one change before.

    Whether a ``--set`` text reads as a change depends on nothing but the text and the
    code (the schema is part of it), so the command line's check of it (a usage
    error, status 2, when it does not read) can be skipped, and the compiler left
    unloaded, once it has passed.  Only the marker's existence is asked.
    """
    folder = _entries_folder(create=False)
    try:
        return folder is not None and _set_marker(folder, text).is_file()
    except (OSError, ValueError):
        return False


def note_set_text(text: str) -> None:
    """Remember that the ``--set`` text ``text`` read as one change (see :func:`set_text_known`)."""
    folder = _entries_folder(create=True)
    if folder is None:
        return
    with contextlib.suppress(OSError, ValueError):
        _set_marker(folder, text).touch()
        diskcache.prune(folder, MAX_ENTRIES)


@lru_cache(maxsize=64)
def load(spec: VariantSpec) -> Ruleset:
    """The runtime Ruleset of a variant as a user named it: from the cache, or built and stored.

    Raises the pipeline's CompileError (VariantNotFound for an unknown name) exactly as
    a build does; nothing is stored then.
    """
    from runtime.ruleset_json import ruleset_from_json, ruleset_to_json

    stored = _read("ruleset", spec)
    if stored is not None:
        try:
            return ruleset_from_json(stored)
        except Exception:  # noqa: BLE001 - not a Ruleset after all: built again below
            pass
    from .pipeline import build_ruleset

    with recording() as deps:
        rules = build_ruleset(spec)
    data = ruleset_to_json(rules)
    # Only a Ruleset that comes back exactly (types, order and all) is stored.
    if repr(ruleset_from_json(json.loads(json.dumps(data)))) == repr(rules):
        _write("ruleset", spec, deps, data)
    return rules


def load_ruleset(text: str, with_rules=(), sets=()) -> Ruleset:
    """The runtime Ruleset of ``NAME+RULE…`` with more house rules and --set changes (see :func:`load`)."""
    return load(VariantSpec.parse(text, tuple(with_rules), tuple(sets)))


def rulebook(text: str, with_rules=(), sets=()) -> str:
    """The Markdown rulebook of a variant named as on the command line (``bidwhist rules``).

    Kept and checked as the Ruleset is: the rulebook is a function of the same files,
    names and code.
    """
    spec = VariantSpec.parse(text, tuple(with_rules), tuple(sets))
    stored = _read("rulebook", spec)
    if isinstance(stored, str):
        return stored
    from .pipeline import compile_spec
    from .rulebook import rulebook as write_rulebook

    with recording() as deps:
        book = write_rulebook(compile_spec(spec), spec.sets)
    _write("rulebook", spec, deps, book)
    return book
