"""Where the data files live: grammars, shipped variants, the JSON Schema.

The same files sit in two different places depending on how bidwhist is run:

* **Installed from a wheel** (non-editable ``pip install``): ``pyproject.toml``
  force-includes the top-level ``grammar/`` and ``variants/`` directories *inside*
  the ``bidcompiler`` package, so they are found with
  ``importlib.resources.files("bidcompiler") / "grammar" / name``.
* **Run from the source checkout** (tests, editable installs): the directories are at
  the top of the repository, next to ``bidcompiler/``, where authors look for them.

Every lookup therefore tries the package location first and falls back to the
checkout.  The package location wins so that an installed copy never picks up some
unrelated ``grammar/`` directory that happens to sit next to site-packages.

A package that is not plain files on disk (imported from a zip file, say) has its data
folders copied once per process to a temporary folder (:func:`_unpacked_data`): the
readers of these files (the bounded reader ``runtime.files``, Lark's ``%import``,
:func:`is_shipped`) all take real paths.

Nothing else in the code base should build paths to these files by hand.
"""

from __future__ import annotations

import atexit
import importlib.machinery
import os
import re
import stat
import sys
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

# The repository root when running from a checkout: bidcompiler/resources.py -> ../
_CHECKOUT_ROOT = Path(__file__).resolve().parents[1]


def _package_folder() -> Path | None:
    """``importlib.resources.files("bidcompiler")`` where the package is plain files on disk, else None.

    That is what ``files`` returns for a package its file loader imported (the folder of
    its ``__init__``), found without importing ``importlib.resources``, its readers and
    ``zipfile``, which cost every command's start-up ~10 ms of CPU for two path lookups
    (the rule cache looks up the shipped variants on every run).  Any other loader (a
    zip file, an exotic importer) gets ``importlib.resources`` itself.
    """
    spec = getattr(sys.modules.get("bidcompiler"), "__spec__", None)
    if spec is None or not spec.origin or not isinstance(
            spec.loader, (importlib.machinery.SourceFileLoader, importlib.machinery.SourcelessFileLoader)):
        return None
    return Path(spec.origin).parent


# The package's folders of data files (the wheel's layout): what a package that is not
# plain files on disk has copied out (:func:`_unpacked_data`).
DATA_FOLDERS = ("grammar", "variants", "schema", "data")


def _copy_tree(source: Traversable, target: Path) -> None:
    """Copy the files below ``source`` (any Traversable: a folder inside a zip file) to ``target``."""
    target.mkdir(exist_ok=True)
    for child in source.iterdir():
        if child.is_dir():
            _copy_tree(child, target / child.name)
        elif child.is_file():
            (target / child.name).write_bytes(child.read_bytes())


@lru_cache(maxsize=1)
def _unpacked_data() -> Path | None:
    """A temporary folder holding a copy of the package's data folders, for a package that is
    not plain files on disk; None when there is no package or it has no resource reader.

    Made once per process and removed at its exit: the data is a few dozen small files
    (~100 KB), and a folder kept between runs would need its own check that the archive
    it came from is unchanged.
    """
    try:
        import importlib.resources  # noqa: PLC0415 - a package not on disk as plain files only
        import shutil  # noqa: PLC0415 - imported here, not with the module: every start-up paid for it
        import tempfile  # noqa: PLC0415  (with bz2, lzma and fnmatch), where plain files never need it

        package = importlib.resources.files("bidcompiler")
        found = {name: package / name for name in DATA_FOLDERS}
        found = {name: folder for name, folder in found.items() if folder.is_dir()}
    except (ModuleNotFoundError, TypeError, ValueError, NotADirectoryError, OSError):
        return None
    if not found:
        return None
    folder = None
    try:
        folder = Path(tempfile.mkdtemp(prefix="bidwhist-data-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        for name, source in found.items():
            _copy_tree(source, folder / name)
    except OSError as exc:  # no usable temporary folder, a full disk: nothing can be read without the data
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
        raise DataUnavailable(exc) from exc
    return folder


class DataUnavailable(Exception):
    """The package's data files could not be copied out of a package that is not plain files
    on disk (no usable temporary folder, a full disk): an environment error the command line
    reports in one line, status 1, as it does a write that fails."""

    def __init__(self, cause: OSError) -> None:
        where = f" ({cause.filename})" if cause.filename else ""
        super().__init__(f"cannot make a temporary folder for the package's data files{where}: "
                         f"{cause.strerror or cause}; set TMPDIR to a writable folder")


def _packaged(*parts: str) -> Path | None:
    """The file or folder ``bidcompiler/<parts>`` of the installed package, if any, as a path on disk."""
    folder = _package_folder() or _unpacked_data()
    if folder is None:
        return None
    candidate = folder.joinpath(*parts)
    try:
        return candidate if candidate.is_file() or candidate.is_dir() else None
    except OSError:
        return None


def grammar_path(name: str) -> Path:
    """The grammar file ``name`` (e.g. ``"expr.lark"``).

    Installed: ``bidcompiler/grammar/<name>``; checkout: ``<repo>/grammar/<name>``.
    """
    return _packaged("grammar", name) or _CHECKOUT_ROOT / "grammar" / name


def grammar_dir() -> Path:
    """The directory holding the grammars.

    Grammars that ``%import`` other grammars (the ``.whist`` grammar imports
    ``expr.lark``) are loaded from text, so Lark needs this directory in its
    ``import_paths`` to find the imported file.
    """
    return _packaged("grammar") or _CHECKOUT_ROOT / "grammar"


def grammar_text(name: str) -> str:
    """The text of the grammar file ``name``, read as UTF-8."""
    return grammar_path(name).read_text(encoding="utf-8")


def variants_dir() -> Path:
    """The directory of shipped variants and house-rule overlays.

    Installed: ``bidcompiler/variants``; checkout: ``<repo>/variants``.
    """
    return _packaged("variants") or _CHECKOUT_ROOT / "variants"


# The largest variant or house-rule file read: about 90 times the largest shipped file
# (under 3 KB), and small enough that even a file PyYAML reads slowest (a long text of
# one-letter words) loads in well under a second.  Below the 1 MiB of every other file.
MAX_VARIANT_BYTES = 256 << 10

# The file name of the JSON Schema of variant files, in the package and wherever
# `bidwhist schema --write DIR` puts a copy (the name YAML modelines point at).
SCHEMA_FILE = "variant.schema.json"


def schema_path() -> Path:
    """The JSON Schema for the YAML surface syntax.

    It lives inside the package in both layouts (``bidcompiler/schema/``): found as the
    other data files are (a zipped package's copy on disk), this file's folder the fallback.
    """
    return _packaged("schema", SCHEMA_FILE) or Path(__file__).resolve().parent / "schema" / SCHEMA_FILE


def data_path(name: str) -> Path:
    """A data file shipped with the compiler (``bidcompiler/data/<name>``), such as an import's mapping table.

    It lives inside the package in both layouts, like the schema.
    """
    return _packaged("data", name) or Path(__file__).resolve().parent / "data" / name


def shown_place(filename: str, line: int = 0, col: int = 0) -> str:
    """A place as a message about a clash between layers names it.

    The user's files (and ``--set`` changes) are named as they were given, with
    line and column; a shipped file by its shipped name (such as a house rule's own name) and
    line, never by the path where it happens to be installed, which the user did
    not write and cannot edit.
    """
    if is_shipped(filename):
        return f"shipped '{Path(filename).stem}'" + (f", line {line}" if line else "")
    where = filename + (f":{line}" if line else "")
    return where + (f":{col}" if line and col else "")


def is_shipped(filename: str) -> bool:
    """True if ``filename`` is one of the shipped variant files, not a file of the user's.

    This is the one place that decides whose a file is.  Messages about a house rule
    that does not fit its base lead with the user's file (the place they can edit)
    and name the shipped file second.  Anything that is not a path under the shipped
    variants directory is the user's: their own files, and ``--set`` changes.
    """
    try:
        shipped = Path(str(variants_dir())).resolve()
        path = Path(filename)
        # is_file: a ``--set`` change is named like a relative path but is no file.
        return path.is_file() and path.resolve().is_relative_to(shipped)
    except (OSError, RuntimeError, ValueError):
        return False


def shipped_files(kind: str | None = None) -> dict[str, Path]:
    """The shipped variant files by name: all of them, or only ``variant``s or ``house-rule``s."""
    folder = variants_dir()
    found = {}
    for p in sorted(list(folder.glob("*.yaml")) + list(folder.glob("*.whist"))):
        if kind is None or file_kind(p) == kind:
            found[p.stem] = p
    return found


def locate(name: str, relative_to: Path | None = None) -> tuple[Path | None, Path | None]:
    """Where a variant or house-rule name leads: ``(file, None)``, or ``(None, odd)``.

    A shipped name wins; otherwise ``relative_to / name`` (when given), then ``name``
    itself, the first that is a regular file.  A candidate that exists but is no file
    (a directory, a FIFO, a device: never opened) ends the search as ``odd``; with
    nothing found both are None.  The one resolution rule: the pipeline's
    ``find_file`` and the rule cache's check of a stored build both use it.
    """
    shipped = shipped_files(None)
    if name in shipped:
        return shipped[name], None
    for candidate in ([relative_to / name] if relative_to is not None else []) + [Path(name)]:
        try:
            if candidate.is_file():
                return candidate, None
            # A link that leads nowhere (a loop of links, a missing target) is not "no such
            # file": the reader's refusal says which (Too many levels of symbolic links).
            exists = candidate.exists() or candidate.is_symlink()
        except OSError:  # e.g. a name too long for the file system: no such file
            continue
        if exists:
            return None, candidate
    return None, None


# The line that makes a file a house rule, in either syntax: YAML's `kind: house-rule`
# (quoted or not, a comment after it) or the .whist first line `house-rule NAME` (a
# space or a tab after it).  Searched for in lines, not as `\nhouse-rule `: a file
# beginning with a byte order mark, a tab or a quoted kind was checked as a variant, and
# refused as "a house rule, not a variant" by `check`.
_HOUSE_RULE_LINE = re.compile(r"""^(?:kind:[ \t]*(["']?)house-rule\1[ \t\r]*(?:#.*)?$|house-rule[ \t])""", re.M)


@lru_cache(maxsize=256)
def _kind_of(path: str, mtime: float) -> str:
    # A quick look, not the reading of the file: a file that is no regular file, cannot
    # be read or is not UTF-8 is taken as a variant here, and compiling it (through the
    # bounded reader, runtime.files) then reports why, with a position, as `compile`
    # does.  (runtime.files is not imported: `bidwhist variants` loads no runtime.)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return "variant"
        with open(path, "rb") as f:
            text = f.read(1 << 20).decode("utf-8", errors="replace").removeprefix("\ufeff")
    except OSError:
        return "variant"
    return "house-rule" if _HOUSE_RULE_LINE.search(text) else "variant"


def file_kind(path) -> str:
    """``variant`` or ``house-rule``: what a shipped file is (a quick look at its text)."""
    return _kind_of(str(path), path.stat().st_mtime)


def shipped_variants() -> dict[str, Path]:
    """Shipped variant files (not house rules) by name."""
    return shipped_files("variant")


def shipped_house_rules() -> dict[str, Path]:
    """Shipped house-rule overlays by name."""
    return shipped_files("house-rule")
