"""The names a record carries (``variant``, ``with[i]``): untrusted input, kept to the record's folder.

records.md: a record is someone else's file.  A name in it holding ``/`` or a file
extension is a path, any other a shipped name.  A path may not be absolute, has no
``..`` part, does not resolve (following links) outside the record's folder, and
names a regular file of at most 1 MiB.  Every refusal is a :class:`RefusedName`
(a ``LookupError``, which the record replayer reports at ``variant`` or ``with[i]``,
exit status 1), and nothing read from a file a record names is ever quoted: when
such a file does not compile, the message says which file (by the record's own
name for it), what kind of problem and where (line and column), never its text.

The same rules hold for every file a record reaches: a variant file named by a
record may ``extends:`` another file, which must then lie inside the record's
folder too (a path relative to the file that names it, not absolute, no ``..``,
regular, at most 1 MiB), or be a shipped name.

Paths typed on the command line are the user's own and are not limited: they go
through :func:`bidcompiler.pipeline.find_file` as before.  Writers of records
(``simulate --records``, ``play --save``) name the files as :func:`record_name`
says: relative to the record's folder.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from typing import TYPE_CHECKING

from runtime.files import FileRefused, StandardInput, read_regular
from runtime.ruleset import Ruleset

from . import rulecache
from .errors import CompileError, quoted
from .resources import shipped_files
from .variantspec import NotAHouseRule, NotAVariant, VariantSpec

if TYPE_CHECKING:
    from . import ir
    from .yamlload import LoadedYaml

# The compiler (pipeline, schema check, the two syntaxes) is imported where a file is
# read or built: replaying a record of a shipped variant the rule cache holds needs none.

MAX_BYTES = 1 << 20  # 1 MiB: records.md's limit on a file a record names
# docs/records.md: a message quotes at most 40 characters of a value from the record (its
# variant and house-rule names too, as replay's own messages quote its other values).
RECORD_QUOTED_CHARS = 40
_MAX_POSITIONS = 5  # positions listed in one message; the rest are counted


class RefusedName(LookupError):
    """A name in a record that is refused or names nothing usable; ``at`` is ``variant`` or ``with[i]``."""

    def __init__(self, at: str, message: str):
        self.at = at
        self.message = message
        super().__init__(message)


def is_path_name(name: str) -> bool:
    """records.md: a name holding ``/`` or a file extension is a path, any other a shipped name."""
    return "/" in name or os.path.splitext(name)[1] != ""


# --------------------------------------------------------------------------- the path rules
# `C:\x.yaml`, `C:/x.yaml`, `C:x.yaml`: a drive, absolute (or drive-relative) on Windows, so a record
# that names one would lead outside its folder there (docs/records.md, decision).
_WINDOWS_DRIVE = re.compile(r"[A-Za-z]:")


def _is_text(name: str) -> bool:
    """Whether ``name`` is Unicode text (no lone surrogate, which JSON's ``\\ud800`` can spell)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _file_system_name(name: str) -> bool:
    """Whether ``name`` spells a file name of this system (Python's spelling of bytes that are
    not UTF-8 included: ``\\udcff``), which a lone surrogate other than those does not."""
    try:
        os.fsencode(name)
    except UnicodeEncodeError:
        return False
    return True


# A path that no file name can be: JSON lets a string hold a lone surrogate ("\ud800").
_NOT_TEXT = "is not a valid path (it holds a lone surrogate, which is not text)"


def _spelling_broken(name: str) -> str | None:
    """The rule of a record's path spelling ``name`` breaks (records.md: text, folders separated by
    `/`, no drive), or None: the rules a record's path is refused by, whatever the file system holds.

    The one statement of them: :func:`_rule_broken` refuses a record's path by them, and
    :func:`outside_warning` warns of a name a record about to be written would break them with.
    """
    if not _is_text(name):
        return _NOT_TEXT
    if _WINDOWS_DRIVE.match(name):
        return ("names a drive (as a Windows path does), outside its folder; a record names files "
                "by paths relative to its own folder")
    if "\\" in name:
        # docs/records.md (decision): a record's paths are written with `/`, so that a record
        # and its files mailed together mean the same on every system; a Windows-style
        # `rules\mine.yaml` would name one file here and a folder's file there.
        return "holds a backslash: a record's paths separate folders with `/` (`rules/mine.yaml`), on every system"
    return None


def _rule_broken(name: str, root: str, base: str, confined: bool = True) -> tuple[str | None, str]:
    """The rule ``name`` (relative to folder ``base``, inside ``root``) breaks, or None; and its real path.

    The checks are made on the name before the file system is asked anything, and
    the real path (links followed) is compared with the folder before the file is
    looked at, so a record cannot learn whether a file outside its folder exists.
    Where ``confined`` is false (a save its own player resumes) a name may lead
    anywhere; it must still be a regular file of at most 1 MiB.
    """
    if "\0" in name:
        return "is not a valid path (it holds a NUL character)", ""
    if not _is_text(name) and (confined or not _file_system_name(name)):
        # JSON lets a string hold a lone surrogate ("\ud800"), which no file name is: the
        # system could not even be asked (and "\udcff" would name raw bytes, not text).
        # A save its own player resumes may: the file name of bytes that are not UTF-8 that
        # play was given ("\udcff" is Python's spelling of the byte), read as it was then.
        return _NOT_TEXT, ""
    if name.endswith(("/", "/.", "/..")):
        # realpath drops a final slash (or `/.`, or `x/..`), which would make ``mine.yaml/`` or
        # ``mine.yaml/.`` the file mine.yaml; the system reads such a name as a folder
        # (records.md: a path names a regular file).
        return "is not a regular file (a path ending in `/`, `/.` or `/..` names a folder)", ""
    if not confined:
        real = os.path.realpath(os.path.join(base, name))
    elif os.path.isabs(name):
        return "is an absolute path; a record names files by paths relative to its own folder", ""
    elif (misspelt := _spelling_broken(name)) is not None:
        return misspelt, ""
    elif ".." in name.split("/"):
        return "has a `..` part; a record may name only files inside its own folder", ""
    else:
        real = os.path.realpath(os.path.join(base, name))
        if os.path.commonpath([root, real]) != root:
            return "leads outside the record's folder (through a symbolic link)", real
    try:
        info = os.stat(real)
    except (FileNotFoundError, NotADirectoryError):
        return "does not exist: no such file in the record's folder", real
    except OSError as exc:  # a loop of links, no permission to look
        return f"cannot be read ({exc.strerror or exc})", real
    if not stat.S_ISREG(info.st_mode):
        return "is not a regular file", real
    if info.st_size > MAX_BYTES:
        return "is larger than 1 MiB, the most a record may make the tool read", real
    return None, real


def _read_bounded(real: str) -> tuple[str | None, bytes]:
    """The bytes of the regular file at ``real``, reading at most 1 MiB and one byte; or why not.

    The file was checked by :func:`_rule_broken`, but the one reader of the tool
    (runtime.files) checks it again on the open descriptor (it may have been replaced
    since), opening it without blocking and without following a link, so a FIFO or a
    link put in its place cannot hang the tool or lead it elsewhere.
    """
    try:
        return None, read_regular(real, MAX_BYTES, follow_links=False)
    except FileRefused as exc:
        if exc.kind == "too-large":
            return "is larger than 1 MiB, the most a record may make the tool read", b""
        if exc.kind == "not-regular":
            return "is not a regular file", b""
        return f"cannot be read ({exc.reason.removeprefix('cannot read: ')})", b""


def _positions(diagnostics, files: set[str]) -> str:
    """``line 3, column 1; line 7, column 5`` for the diagnostics in ``files``: places, never text."""
    places = []
    for d in diagnostics:
        if d.pos.file in files and d.pos.line:
            place = f"line {d.pos.line}" + (f", column {d.pos.col}" if d.pos.col else "")
            if place not in places:
                places.append(place)
    if not places:
        return ""
    more = len(places) - _MAX_POSITIONS
    text = "; ".join(places[:_MAX_POSITIONS]) + (f"; and {more} more" if more > 0 else "")
    return f" ({text})"


_NOT_QUOTED = "its content is not quoted (run `bidwhist check` on the file to see the problems)"


# --------------------------------------------------------------------------- one record's files
class _RecordFiles:
    """Loads the files one record names, keeping to its folder; remembers who named each."""

    def __init__(self, folder: str | os.PathLike, confined: bool = True):
        try:
            self.root: str | None = os.path.realpath(folder)
        except OSError:  # the working directory a record on stdin is read from is gone
            self.root = None
        self.confined = confined  # false: the names may lead outside the folder (see record_ir)
        # real path of every file read for the record -> (at, how a message names it)
        self.origin: dict[str, tuple[str, str]] = {}
        self.current: LoadedYaml | None = None  # the file whose `extends` is resolved next

    def what(self, at: str) -> str:
        """``the variant file`` or ``the house-rule file``: what the entry ``at`` names."""
        return "the variant file" if at == "variant" else "the house-rule file"

    def check(self, name: str, at: str) -> str:
        """The real path of the file the record's ``name`` (at ``at``) names; RefusedName if refused."""
        if self.root is None:
            raise RefusedName(at, f"refused: {quoted(name, RECORD_QUOTED_CHARS)} is a path, and the working "
                                  "directory the paths of a record on stdin are relative to no longer exists")
        broken, real = _rule_broken(name, self.root, self.root, self.confined)
        if broken:
            hint = ("; a record names its house rules in `with`, not after `+`"
                    if "+" in name and broken.startswith("does not exist") else "")
            raise RefusedName(at, f"refused: {quoted(name, RECORD_QUOTED_CHARS)} {broken}{hint}")
        return real

    def shipped(self, name: str, at: str, kind: str) -> LoadedYaml:
        """A shipped file by name (never a file of the folder, nor of the working directory)."""
        from .pipeline import _not_found, find_file, load_layer

        if name not in shipped_files(None):
            message = _not_found(name, None, kind, RECORD_QUOTED_CHARS)
            if "+" in name:
                message += "; a record names its house rules in `with`, not after `+`"
            # An unknown shipped name is the `with` list's fault, as it always was; `with[i]`
            # points at a path, the entry records.md's rules refuse.
            raise RefusedName("with" if at.startswith("with") else at, message)
        return load_layer(find_file(name, kind=kind))

    def load(self, name: str, at: str, kind: str) -> LoadedYaml:
        """The loaded file the record names at ``at``: shipped, or a confined, bounded, checked path."""
        if not is_path_name(name):
            return self.shipped(name, at, kind)
        real = self.check(name, at)
        return self._load_real(real, name, at, f"{self.what(at)} {quoted(name, RECORD_QUOTED_CHARS)} "
                                               f"named at `{at}`")

    def _load_real(self, real: str, name: str, at: str, shown: str) -> LoadedYaml:
        from runtime.files import NotUtf8

        from .pipeline import decode_source, variant_schema
        from .schemacheck import validate
        from .whist import load_whist
        from .yamlload import load_yaml

        broken, data = _read_bounded(real)
        if broken:
            raise RefusedName(at, f"refused: {shown} {broken}")
        self.origin[real] = (at, shown)
        try:
            text = decode_source(data)
        except NotUtf8 as exc:
            raise RefusedName(at, f"{shown} is not UTF-8 text (line {exc.line}, column {exc.col})") from None
        try:
            if name.endswith(".whist"):
                doc = load_whist(text, real, variant_schema())
            else:
                doc = load_yaml(text, real)
        except CompileError as exc:
            raise RefusedName(at, f"{shown} is not a valid variant file: it cannot be read as "
                                  f"{'.whist' if name.endswith('.whist') else 'YAML'}"
                                  f"{_positions(exc.diagnostics, {real})}; {_NOT_QUOTED}") from None
        if doc.data is None:
            raise RefusedName(at, f"{shown} is empty: expected a variant")
        if not isinstance(doc.data, dict):
            raise RefusedName(at, f"{shown} is not a variant file: it holds no mapping of settings at the top level")
        problems = validate(doc, variant_schema())
        if problems:
            raise RefusedName(at, f"{shown} does not fit the variant schema"
                                  f"{_positions(problems, {real})}; {_NOT_QUOTED}")
        self.current = doc
        return doc

    def extends(self, name: str, here: Path | None) -> LoadedYaml:
        """What ``extends: name`` in a file the record reached names (or in a shipped file: shipped)."""
        from .pipeline import find_file, load_layer

        # resolve_extends walks one chain, so the file naming `name` is the one loaded last.
        extending = self.current
        if extending is None or extending.filename not in self.origin:
            self.current = load_layer(find_file(name, here))  # a shipped file extends a shipped one
            return self.current
        here_real = os.path.dirname(extending.filename)
        at, shown = self.origin[extending.filename]
        pos = extending.content_pos(("extends",))
        where = f"line {pos.line}, column {pos.col}" if pos.line else "its `extends`"
        if not is_path_name(name):
            if name not in shipped_files(None):
                raise RefusedName(at, f"{shown} extends no shipped variant and no file ({where}); {_NOT_QUOTED}")
            self.current = load_layer(find_file(name, kind="variant"))
            return self.current
        assert self.root is not None  # a file was read from it, so it is there
        broken, real = _rule_broken(name, self.root, here_real, self.confined)
        if broken:
            # The name comes from the file: it is not quoted either.
            raise RefusedName(at, f"refused: {shown} extends a path that {broken} ({where})")
        return self._load_real(real, name, at, f"a file that {shown} extends ({where})")

    def composition_error(self, exc: CompileError, with_rules) -> RefusedName:
        """A failure to build the variant from files the record reached: where, never what they say."""
        files = set(self.origin)
        blamed = [self.origin[d.pos.file][0] for d in exc.diagnostics if d.pos.file in self.origin]
        at = blamed[0] if blamed else ("with" if with_rules else "variant")
        shown = [self.origin[f][1] for f in self.origin if self.origin[f][0] == at][:1]
        what = shown[0] if shown else "the files the record names"
        return RefusedName(at, f"{what} does not make a valid variant with what it is laid on"
                               f"{_positions(exc.diagnostics, files)}; {_NOT_QUOTED}")


# --------------------------------------------------------------------------- compiling a record's variant
_cache: dict[tuple, Ruleset] = {}


def _signature(files: _RecordFiles, variant: str, with_rules: tuple[str, ...]) -> tuple:
    """A cache key: the folder, the names, and the state of each file the names reach directly."""
    parts: list = [files.root, files.confined, variant, with_rules]
    for at, name in [("variant", variant)] + [(f"with[{i}]", w) for i, w in enumerate(with_rules)]:
        if is_path_name(name):
            real = files.check(name, at)
            info = os.stat(real)
            parts.append((real, info.st_mtime_ns, info.st_size, info.st_ino))
        elif name not in shipped_files(None):
            files.shipped(name, at, "variant" if at == "variant" else "house-rule")  # raises: unknown
    return tuple(parts)


def record_ir(variant: str, with_rules, folder: str | os.PathLike, confined: bool = True) -> ir.Variant:
    """The checked IR of the variant a record names, its paths relative to ``folder``.

    RefusedName (``at`` ``variant`` or ``with[i]``) for a path the rules refuse, an
    unknown name, or a named file that does not make a variant.  ``confined=False``
    is for a save resumed by the person who played it (``play --resume``): its names
    were written by play from that person's own command line, and may lead outside
    the save's folder (older saves name absolute paths); the files are still read
    bounded and never quoted.
    """
    from .pipeline import compile_layers, compile_spec

    with_rules = tuple(with_rules)
    files = _RecordFiles(folder, confined)
    if not is_path_name(variant) and not any(map(is_path_name, with_rules)):
        _signature(files, variant, with_rules)  # every name shipped (unknown ones refused)
        try:
            return compile_spec(VariantSpec(variant, with_rules))
        except CompileError as exc:
            raise _refused_shipped(files, variant, with_rules, exc) from None
    top = files.load(variant, "variant", "variant")
    if top.data.get("kind", "variant") == "house-rule":
        raise RefusedName("variant", f"{_shown(files, variant, 'variant')} is a house rule, not a variant: "
                                     "name a variant at `variant` and the house rule in `with`")
    layers = []
    for i, rule in enumerate(with_rules):
        at = f"with[{i}]"
        layer = files.load(rule, at, "house-rule")
        if layer.data.get("kind", "variant") != "house-rule":
            raise RefusedName(at, f"{_shown(files, rule, at)} is a variant, not a house rule "
                                  "(a house rule's file says `kind: house-rule`)")
        layers.append(layer)
    pending = iter(layers)

    def load(name: str, here: Path | None, kind: str) -> LoadedYaml:
        if kind == "house-rule":
            return next(pending)  # loaded above, in the same order
        return files.extends(name, here)

    files.current = top
    try:
        return compile_layers(top, with_rules, (), load=load)
    except CompileError as exc:
        raise files.composition_error(exc, with_rules) from None


def _refused_shipped(files: _RecordFiles, variant: str, with_rules: tuple, exc: CompileError) -> RefusedName:
    """The refusal of shipped names that do not compile together, at the entry that is wrong: a
    house rule at `variant` or a variant in `with` is said as for files of the record's own (the
    fix is the record's, not a command line's); anything else at `with`, or `variant` alone."""
    if isinstance(exc, NotAVariant):
        return RefusedName("variant", f"{_shown(files, variant, 'variant')} is a house rule, not a variant: "
                                      "name a variant at `variant` and the house rule in `with`")
    if isinstance(exc, NotAHouseRule) and exc.rule in with_rules:
        at = f"with[{with_rules.index(exc.rule)}]"
        return RefusedName(at, f"{_shown(files, exc.rule, at)} is a variant, not a house rule "
                               "(name it at `variant`, and house rules in `with`)")
    return RefusedName("with" if with_rules else "variant", "; ".join(d.one_line() for d in exc.diagnostics))


def _shown(files: _RecordFiles, name: str, at: str) -> str:
    """How a message names the file the record names at ``at``."""
    name_quoted = quoted(name, RECORD_QUOTED_CHARS)
    return f"{files.what(at)} {name_quoted} named at `{at}`" if is_path_name(name) else f"{name_quoted} (at `{at}`)"


def record_ruleset(variant: str, with_rules, folder: str | os.PathLike, confined: bool = True) -> Ruleset:
    """The runtime Ruleset of the variant a record names (see :func:`record_ir`), cached per file state."""
    with_rules = tuple(with_rules)
    files = _RecordFiles(folder, confined)
    key = _signature(files, variant, with_rules)
    if not is_path_name(variant) and not any(map(is_path_name, with_rules)):
        try:
            return rulecache.load(VariantSpec(variant, with_rules))
        except CompileError as exc:
            raise _refused_shipped(files, variant, with_rules, exc) from None
    if key not in _cache:
        if len(_cache) >= 64:
            _cache.pop(next(iter(_cache)))
        from .lower import lower

        _cache[key] = lower(record_ir(variant, with_rules, folder, confined))
    return _cache[key]


def record_folder(record_file: str | os.PathLike) -> str:
    """The folder the paths in the record at ``record_file`` are relative to.

    That is the folder of the record file itself: a link given on the command line is
    followed (docs/records.md), so the record's paths are read beside the record, and
    confined to its folder, not to the folder the link happens to be in.
    """
    if isinstance(record_file, StandardInput):  # `-`: a record piped in names paths from where the tool runs
        try:
            return os.getcwd()
        except OSError:  # gone: a record naming only shipped rules still replays; a path is refused
            return os.curdir
    return os.path.dirname(os.path.realpath(os.fspath(record_file)))


# --------------------------------------------------------------------------- writing
def record_name(name: str, record_file: str | os.PathLike) -> tuple[str, bool]:
    """How a record written to ``record_file`` names the variant or house rule typed as ``name``.

    A shipped name stays a name.  A file (a path typed on the command line, relative
    to the working directory or absolute) is named by its path relative to the
    record's folder, spelt so that a reader takes it for a path (``./mine`` for a file
    without extension).  The flag says whether that path stays inside the record's
    folder: when it does not, replay will refuse it (the caller says so).
    """
    if name in shipped_files(None):
        return name, True
    folder = os.path.abspath(record_folder(record_file))
    target = os.path.abspath(name)
    relative = os.path.relpath(target, folder).replace(os.sep, "/")
    real_folder, real_target = os.path.realpath(folder), os.path.realpath(target)
    real_inside = os.path.commonpath([real_folder, real_target]) == real_folder
    if real_inside and (relative.startswith("../") or relative == ".."):
        # Typed through a link (lnk/mine.yaml, lnk leading into the record's folder): the file
        # is inside all the same, named by its real path there, which replay accepts (no `..`).
        relative = os.path.relpath(real_target, real_folder).replace(os.sep, "/")
    if not is_path_name(relative):
        relative = "./" + relative
    inside = not relative.startswith("../") and relative != ".." and real_inside and _spelling_broken(relative) is None
    return relative, inside


def outside_warning(names: list[str], record_file: str | os.PathLike) -> str:
    """The stderr note for variant files a record at ``record_file`` cannot name portably.

    Files outside the record's folder get one note; files inside it whose relative name
    replay refuses by its spelling (a backslash, a drive: docs/records.md) another.
    """
    spelt = {n: record_name(n, record_file)[0] for n in names}
    unportable = [n for n in names if not spelt[n].startswith("../") and _spelling_broken(spelt[n]) is not None]
    outside = [n for n in names if n not in unportable]
    notes = []
    if outside:
        these = ", ".join(outside)
        notes.append(f"note: {these} {'is' if len(outside) == 1 else 'are'} not inside the folder of "
                     f"{record_file}; records.md lets a record name only files inside its own folder, so "
                     "`bidwhist replay` will refuse the record (`play --resume` still continues it); put the "
                     "variant file(s) beside the record to replay it anywhere")
    if unportable:
        notes.append(f"note: {', '.join(unportable)} cannot be named in a record: a record's paths are text "
                     "(UTF-8), separate folders with `/` and name no drive (docs/records.md), so `bidwhist "
                     "replay` will refuse the record; rename the file (UTF-8, no backslash, no `X:` at the start)")
    return "\n".join(notes)


def names_for_record(variant: str, with_rules, record_file: str | os.PathLike) -> tuple[str, list[str], list[str]]:
    """The ``variant`` and ``with`` a record written to ``record_file`` carries (see :func:`record_name`),
    and the names typed on the command line that it cannot name from inside its folder."""
    outside = []
    named = []
    for name in [variant, *with_rules]:
        written, inside = record_name(name, record_file)
        named.append(written)
        if not inside:
            outside.append(name)
    return named[0], named[1:], outside
