"""The compiler pipeline: find -> read -> load (YAML) -> validate -> compose -> build IR -> check -> lower.

Each stage collects every problem it finds and raises one ``CompileError``; a later
stage only runs on what the earlier ones accepted, so one run reports all the
errors a user can fix at once without cascades of follow-on noise.

A variant is named the same way everywhere: a shipped name or a file path,
optionally followed by house rules, ``NAME+RULE+RULE``; commands add
``--with RULE`` (applied after those) and ``--set path=value`` (applied last).
"""

from __future__ import annotations

import copy
import re
import threading
from collections import OrderedDict
from dataclasses import replace
from pathlib import Path

from runtime.files import FileRefused, NotUtf8, newlines, read_regular, regular_file_problem, utf8_text
from runtime.ruleset import Ruleset

from .resources import (  # noqa: F401
    MAX_VARIANT_BYTES, file_kind, is_shipped, locate, shipped_files, shipped_house_rules, shipped_variants)
from . import ir, vocabulary
from .build import build_variant
from .checks import run_checks
from .compose import SET_PREFIX, compose, merge_layer, resolve_extends, same_file_key, set_layer
from .errors import QUOTED_CHARS, CompileError, Diagnostic, DiagnosticSink, SourcePos, close_matches, printable, quoted
from .lower import lower
from . import rulecache
from .variantspec import NotAHouseRule, NotAVariant, VariantNotFound, VariantSpec  # noqa: F401  (importers name them here)
from .schemacheck import validate
from .whist import load_whist
from .yamlload import LoadedYaml, load_yaml

SOURCE_SUFFIXES = (".yaml", ".yml", ".whist")

# The catalogue of shipped files lives in resources (cheap to import: `bidwhist
# variants` lists it without loading the compiler); these names stay for importers.
_shipped = shipped_files


def find_file(name: str, relative_to: Path | None = None, kind: str = "variant") -> Path:
    """The file a name refers to: a shipped name of that kind, or a path (resources.locate)."""
    found, odd = locate(name, relative_to)
    if found is not None:
        rulecache.note_lookup(name, relative_to, found)
        return found
    if odd is not None:  # a directory, a FIFO, a device: never opened (a FIFO would block)
        problem = regular_file_problem(odd) or "not a regular file"
        raise VariantNotFound([Diagnostic(SourcePos(name), f"{problem}; give the path of a variant file")])
    raise VariantNotFound([Diagnostic(SourcePos(name), _not_found(name, relative_to, kind))])


def _not_found(name: str, relative_to: Path | None, kind: str, limit: int = QUOTED_CHARS) -> str:
    """Why ``name`` names nothing, with a "did you mean" when a shipped name or a file is close
    (``name`` quoted up to ``limit`` characters: a record's reader quotes fewer)."""
    what = "house rule" if kind == "house-rule" else "variant"
    looks_like_path = Path(name).suffix in SOURCE_SUFFIXES or "/" in name
    if looks_like_path:
        close = _close_files(Path(name) if relative_to is None else relative_to / name)
        if close:
            return f"no such file (did you mean '{close}'?)"
        shipped = close_matches(Path(name).stem, list(_shipped(kind)), n=1, cutoff=0.75)
        return "no such file" + (f" (did you mean the shipped {what} '{shipped[0]}'?)" if shipped else "")
    names = list(_shipped(kind))
    # A shipped file of the other kind is close too: a misspelt variant named after `+`
    # is still meant, and that it is no house rule is said once it is found.
    close = _close_name(name, names) or _close_name(name, list(_shipped(None)))
    if close:
        return (f"unknown {what} {quoted(name, limit)} (did you mean '{close[0]}'?); `bidwhist variants` lists the "
                "shipped ones, or give the path of a file")
    return f"unknown {what} {quoted(name, limit)} (shipped: {', '.join(names) or 'none'}); or give the path of a file"


def _close_name(name: str, names: list[str]) -> list[str]:
    """The shipped name closest to ``name``, case aside (`NAME` is close to `name`), as a list of 0 or 1."""
    lowered = {n.lower(): n for n in names}
    return [lowered[m] for m in close_matches(name.lower(), list(lowered), n=1, cutoff=0.6)]


def _close_files(path: Path) -> str | None:
    """A variant file next to ``path`` whose name is close to it (``mine.yml`` for ``mine.yaml``)."""
    try:
        folder = path.parent
        names = [p.name for p in folder.iterdir() if p.suffix in SOURCE_SUFFIXES and p.is_file()]
    except OSError:
        return None
    close = close_matches(path.name, names, n=1, cutoff=0.75)
    if not close:
        return None
    return close[0] if str(folder) == "." else str(folder / close[0])


def find_variant(spec: str) -> Path:
    """The file a plain variant name or path refers to."""
    return find_file(spec)


def read_text(path: Path) -> str:
    """A source file's text; unreadable or undecodable files become a CompileError.

    Read by the one bounded reader (runtime.files): only a regular file of at most
    :data:`MAX_VARIANT_BYTES` is read.
    """
    try:
        data = read_regular(path, MAX_VARIANT_BYTES)
    except FileRefused as exc:
        raise CompileError([Diagnostic(SourcePos(str(path)), str(exc))]) from None
    rulecache.note_read(path, data)
    try:
        return decode_source(data)
    except NotUtf8 as exc:
        raise CompileError([Diagnostic(SourcePos(str(path), exc.line, exc.col), exc.message)]) from None


def decode_source(data: bytes) -> str:
    """The text of a source file's bytes, line breaks as text mode reads them; NotUtf8 (from
    runtime.files, which every reader shares) if they are not text."""
    return newlines(utf8_text(data))


def variant_schema() -> dict:
    """The JSON Schema of the YAML surface (loaded once, by :mod:`bidcompiler.vocabulary`)."""
    return vocabulary.schema()


# Files read again and again in one process (a shipped variant under every house rule laid
# over it, the two sides of a compare, a test suite's thousands of compiles): the checked
# document of each (file name, text), for the last _LAYER_MEMO_SIZE files of at most
# _LAYER_MEMO_TEXT characters (the shipped ones have a few thousand; a huge file is not kept
# in memory).  Each caller gets its own copy of the data (the node tree, never edited, is
# shared); only files that load cleanly are kept, so a refusal is worked out, and said, as
# it always was.
_LAYER_MEMO_SIZE = 64
_LAYER_MEMO_TEXT = 100_000
_layer_memo: OrderedDict[tuple[str, str], LoadedYaml] = OrderedDict()
_layer_memo_lock = threading.Lock()


def _copy_layer(doc: LoadedYaml) -> LoadedYaml:
    """``doc`` with data of its own (edits to it reach no other copy), sharing the node tree."""
    return LoadedYaml(data=copy.deepcopy(doc.data), text=doc.text, filename=doc.filename, root=doc.root,
                      _keys=doc._keys,
                      _comment_list=list(doc._comment_list) if doc._comment_list is not None else None,
                      _last_lines=doc._last_lines)


def load_layer_text(text: str, filename: str) -> LoadedYaml:
    """Load (YAML or ``.whist``, by the file name) and schema-check one file.

    CompileError lists every problem in it.  The same file name and text give the same
    document (a copy of the one checked first, see ``_layer_memo``).
    """
    key = (filename, text)
    with _layer_memo_lock:  # threads may compile at once: the memo's order is kept under one lock
        known = _layer_memo.get(key)
        if known is not None:
            _layer_memo.move_to_end(key)
    if known is not None:
        return _copy_layer(known)
    doc = _load_layer_text(text, filename)
    if len(text) <= _LAYER_MEMO_TEXT:
        kept = _copy_layer(doc)
        with _layer_memo_lock:
            _layer_memo[key] = kept
            if len(_layer_memo) > _LAYER_MEMO_SIZE:
                _layer_memo.popitem(last=False)
    return doc


def _load_layer_text(text: str, filename: str) -> LoadedYaml:
    """:func:`load_layer_text`'s work, done once for each file name and text."""
    _refuse_other_syntax(text, filename)
    if filename.endswith(".whist"):
        doc = load_whist(text, filename, variant_schema())
    else:
        doc = load_yaml(text, filename)
    if doc.data is None:
        raise CompileError([Diagnostic(SourcePos(filename, 1, 1), "empty file: expected a variant")])
    if not isinstance(doc.data, dict):
        raise CompileError([Diagnostic(doc.pos(()), "expected a mapping of variant settings at the top level")])
    problems = validate(doc, variant_schema()) + _control_characters(doc)
    if doc.data.get("kind") == "house-rule" and "extends" in doc.data:
        # Composition never reads a house rule's `extends`: a setting that can never
        # take effect is an error, not silently ignored.
        problems.append(Diagnostic(doc.key_pos(("extends",)),
                                   "a house rule cannot extend; it is laid over a variant",
                                   hint="remove `extends` and name the variant when you use the rule "
                                        "(VARIANT+RULE, --with RULE, or `check --on VARIANT`)"))
    if doc.data.get("kind") == "house-rule" and not problems and all(
            _only_empty_blocks(doc.data[key]) for key in set(doc.data) - _WORDS_OF_A_FILE):
        # A rule that gives no setting changes nothing, whatever it is laid over: a setting
        # that can never take effect is an error (a file cut short, a block left out, or
        # left empty: `game: {}`, `game { }`).
        problems.append(Diagnostic(doc.key_pos(("kind",)) if "kind" in doc.data else doc.pos(()),
                                   "this house rule changes nothing: it gives no setting",
                                   hint="give what it changes, e.g. " + (
                                       "`scoring { multiplier = if notrump then 3 else 1 }`"
                                       if filename.endswith(".whist") else
                                       "`scoring: {multiplier: if notrump then 3 else 1}`")
                                   + " (docs/settings.md lists every setting)"))
    if problems:
        raise CompileError(problems)
    return doc


def _only_empty_blocks(value: object) -> bool:
    """Whether ``value`` is a block holding no setting, however deep: `{}`, or blocks of such
    (`auction { levels { } }`). Blocks merge key by key, so it changes nothing."""
    return isinstance(value, dict) and all(_only_empty_blocks(v) for v in value.values())


# The keys that describe a file rather than change a game.
_WORDS_OF_A_FILE = frozenset({"name", "kind", "description", "title", "source"})


# The first line of a file of each syntax (after comments): what no file of the other syntax
# can begin with.  `variant NAME` / `house-rule NAME` is no YAML mapping; `key:` is no .whist.
_WHIST_START = re.compile(r"(variant|house-rule)[ \t]+[^\s:]")
_YAML_START = re.compile(r"[A-Za-z_][\w-]*:(\s|$)")


def _refuse_other_syntax(text: str, filename: str) -> None:
    """Refuse a file written in the other syntax than its name says, in one message.

    The syntax is chosen by the file's extension (`.whist`, else YAML); a file saved under
    the wrong one would otherwise fail on its first line with a parser's complaint that
    does not say why.
    """
    lines = [(n, line) for n, line in enumerate(text.lstrip("\ufeff").splitlines(), 1)
             if line.strip() and not line.lstrip().startswith("#")]
    if not lines:
        return
    number, first = lines[0]
    stem = Path(filename).stem
    if filename.endswith(".whist"):
        if _YAML_START.match(first):
            raise CompileError([Diagnostic(SourcePos(filename, number, 1),
                                           f"this file is written in YAML (`{printable(first.strip()[:40], False)}`), "
                                           "but its name ends in .whist, which is read as the .whist syntax",
                                           hint=f"rename it {stem}.yaml, or write it in the .whist syntax "
                                                "(docs/whist-syntax.md)")])
    elif _WHIST_START.match(first):
        raise CompileError([Diagnostic(SourcePos(filename, number, 1),
                                       f"this file is written in the .whist syntax "
                                       f"(`{printable(first.strip()[:40], False)}`), but its name does not end in "
                                       ".whist, so it is read as YAML",
                                       hint=f"rename it {stem}.whist, or write it in YAML (`name: ...`, "
                                            "`kind: house-rule`)")])


# Characters no text of a variant file may hold: controls (ESC starts the sequences a
# terminal obeys: `rules` prints a title as it is) but tab and newline, and the marks that
# turn text around (a bidi override shows a name other than the one it is).
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _control_characters(doc: LoadedYaml) -> list[Diagnostic]:
    """An error at each text setting of ``doc`` holding a character of :data:`_CONTROLS`."""
    problems: list[Diagnostic] = []

    def walk(value, path: tuple) -> None:
        if isinstance(value, str):
            found = _CONTROLS.search(value)
            if found:
                problems.append(Diagnostic(doc.pos(path), (
                    f"{'.'.join(str(p) for p in path) or 'the text'} holds the control character "
                    f"{printable(found[0], False)} (a terminal acts on it, or it turns the text around); "
                    "write plain text")))
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(item, (*path, key))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, (*path, index))

    walk(doc.data, ())
    return problems


def load_layer(path: Path) -> LoadedYaml:
    """Load and schema-check the file at ``path``."""
    return load_layer_text(read_text(path), str(path))


def layer_kind(doc: LoadedYaml) -> str:
    """``variant`` or ``house-rule``: what the loaded file ``doc`` says it is (a variant, unless it says otherwise)."""
    return doc.data.get("kind", "variant")


def load_named(name: str, here: Path | None, kind: str) -> LoadedYaml:
    """Load the file a name refers to (a shipped name, or a path, also tried relative to ``here``).

    A variant (what an ``extends:`` names) must be one a variant file may name
    (:func:`_extendable`).  A record's loader keeps its own rules instead: they refuse a
    path before the file system is asked, so a record learns nothing of files outside
    its folder, where this check's look-up would tell whether one exists.
    """
    if kind == "variant":
        name = _extendable(name, here)
    return load_layer(find_file(name, here, kind))


def _extendable(name: str, here: Path | None) -> str:
    """``name`` as an ``extends:`` target: a shipped name, or a file named as variant files are.

    Whoever wrote a variant file chose its ``extends:``, not the user who runs it: a
    path there to a file of another kind (``/etc/shadow``, ``~/.netrc``) would be read
    and its lines quoted back in the errors.  Only names ending in a variant file's
    suffix are read, so a variant file cannot make the tool quote other files.
    """
    if name in shipped_files(None) or Path(name).suffix in SOURCE_SUFFIXES or locate(name, here) == (None, None):
        return name  # (naming nothing, it is reported as an unknown name, with a "did you mean")
    raise CompileError([Diagnostic(SourcePos(name), (
        f"{quoted(name)} is neither a shipped variant nor a variant file (a file named "
        f"{', '.join(SOURCE_SUFFIXES)}): a file of another kind is not read"))])


def compile_layers(top: LoadedYaml, with_rules=(), sets=(), load=load_named) -> ir.Variant:
    """Compose a variant file (and what it extends) with house rules and --set changes.

    ``load(name, here, kind)`` loads what ``extends`` (kind ``variant``, ``here`` the
    folder of the file that names it) and each house rule (kind ``house-rule``, no
    ``here``) name; records pass one that keeps to the record's folder.
    """
    try:
        return _compile_layers(top, with_rules, sets, load)
    except CompileError as exc:
        # A --set change is one line of the command, not a file: its line and
        # column in the text made for it would only confuse.
        if any(d.pos.file.startswith(SET_PREFIX) for d in exc.diagnostics):
            raise CompileError([replace(d, pos=SourcePos(d.pos.file), source_line=None)
                                if d.pos.file.startswith(SET_PREFIX) else d for d in exc.diagnostics]) from None
        raise


# What to do first, then why: a shipped variant named as a house rule is played by naming it as the variant.
VARIANT_AS_RULE = ("name {rule} as the variant, with house rules after it (VARIANT+RULE): "
                   "it is a variant, not a house rule")


def refuse_misnamed(layer: LoadedYaml, named_as: str, name: str | None = None) -> None:
    """Refuse ``layer`` if it is not what it was named as: ``named_as`` is ``variant`` or ``house-rule``.

    The one place that reads a file's kind against where its name was given (the
    compiler, and `check NAME+RULE` before it checks anything, ask here):

    * a house rule where the variant goes raises NotAVariant: not the file's fault (a house
      rule says so in its `kind`, a variant by default does not), the name was misused;
    * a shipped variant where a house rule goes raises NotAHouseRule: no file of the user's
      to edit, so the message says how to play it instead;
    * a file of the user's that is no house rule, where a house rule goes, raises a
      CompileError at the file: a file with no `kind` is a variant, and the house rule's
      `kind` line may be what it lacks.

    ``name`` is the name as given (by default: a shipped file's name, or the file's path).
    """
    kind = layer_kind(layer)
    if kind == named_as:
        return
    if name is None:
        name = Path(layer.filename).stem if is_shipped(layer.filename) else layer.filename
    if named_as == "variant":
        raise NotAVariant([Diagnostic(SourcePos(layer.filename), NotAVariant.said(printable(name, False)))])
    if is_shipped(layer.filename):
        raise NotAHouseRule([Diagnostic(SourcePos(name), VARIANT_AS_RULE.format(rule=quoted(name)))], name)
    fix = "give it `kind: house-rule` (`house-rule NAME` in .whist), or name it as the variant (VARIANT+RULE)"
    raise CompileError([Diagnostic(layer.pos(()), f"'{name}' is a variant, not a house rule", hint=fix)])


def _compile_layers(top: LoadedYaml, with_rules=(), sets=(), load=load_named) -> ir.Variant:
    refuse_misnamed(top, "variant")
    chain = resolve_extends(lambda name, here: load(name, here, "variant"), top)
    doc = compose(chain, [])
    rule_names = []
    laid: dict[str, str] = {}  # the file of each house rule laid so far -> the name it was given by
    for rule in with_rules:
        layer = load(rule, None, "house-rule")
        refuse_misnamed(layer, "house-rule", rule)
        _refuse_twice(layer, rule, laid)
        merge_layer(doc, layer)
        rule_names.append(rule)
    for assignment in sets:
        layer = set_layer(assignment)
        problems = validate(layer, variant_schema())
        if problems:
            raise CompileError(problems)
        merge_layer(doc, layer)
    doc.house_rules = rule_names
    sink = DiagnosticSink()
    variant = build_variant(doc, sink)
    sink.raise_if_any()
    run_checks(variant, sink)
    sink.raise_if_any()
    return variant


def _refuse_twice(layer: LoadedYaml, rule: str, laid: dict[str, str]) -> None:
    """Refuse a house rule laid a second time over one variant (``laid``: file -> name given).

    A rule that multiplies (a made 7 scores four times over) would apply twice, and one that
    sets a value would say nothing new: either way the second mention is a slip, not a rule.
    """
    key = same_file_key(layer.filename)
    if key in laid:
        first = laid[key]
        # The names as the user gave them, whole (a path may be long): the user's own command line.
        said = [f"'{printable(n, False)}'" for n in (first, rule)]
        named = f"as {said[0]} both times" if first == rule else f"first as {said[0]}, then as {said[1]}"
        name = layer.data.get("name", rule) if isinstance(layer.data, dict) else rule
        where = layer.pos(("name",)) if isinstance(layer.data, dict) and "name" in layer.data else layer.pos(())
        raise CompileError([Diagnostic(where, f"house rule {quoted(str(name))} is laid twice over one variant "
                                              f"({named})",
                                       hint="name each house rule once: a house rule applies once")])
    laid[key] = rule


def compile_text(text: str, filename: str, with_rules=(), sets=()) -> ir.Variant:
    """Compile YAML variant text to a checked IR; CompileError lists every problem."""
    return compile_layers(load_layer_text(text, filename), with_rules, sets)


def compile_file(path: str | Path, with_rules=(), sets=()) -> ir.Variant:
    """Compile the variant file at ``path`` to its checked IR."""
    path = Path(path)
    return compile_layers(load_layer(path), with_rules, sets)


def compile_spec(spec: VariantSpec) -> ir.Variant:
    """Compile a variant as a user named it."""
    return compile_file(find_file(spec.base), spec.with_rules, spec.sets)


def compile_variant(text: str, with_rules=(), sets=()) -> ir.Variant:
    """Compile ``NAME+RULE…`` (or a path) with more house rules and settings."""
    return compile_spec(VariantSpec.parse(text, with_rules, sets))


# The runtime Ruleset of a VariantSpec: built once a process, and kept between runs
# in the user's cache folder (bidcompiler.rulecache).
_cached_ruleset = rulecache.load


def build_ruleset(spec: VariantSpec) -> Ruleset:
    """Compile and lower a variant as a user named it (no cache)."""
    return lower(compile_spec(spec))


def load_ruleset(text: str, with_rules=(), sets=()) -> Ruleset:
    """The runtime Ruleset of a variant named as on the command line."""
    return _cached_ruleset(VariantSpec.parse(text, tuple(with_rules), tuple(sets)))
